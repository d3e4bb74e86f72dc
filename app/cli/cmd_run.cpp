// SPDX-License-Identifier: GPL-3.0-or-later
// ioprism-cli run: one run of the engine from a profile, a preset and/or options.
#include "app/cli/commands.h"
#include "app/cli/output_files.h"
#include "app/cli/profile_io.h"
#include "app/cli/results_io.h"
#include "app/cli/summary.h"
#include "core/profile/depth.h"
#include "core/profile/names.h"
#include "core/profile/presets.h"
#include "core/profile/series.h"
#include "core/profile/units.h"
#include "core/profile/validation.h"
#include "core/report/csv.h"
#include "core/report/results_json.h"
#include "core/run/run_session.h"
#include "core/workload/file_tree.h"
#include "platform/common/backend_factory.h"
#include "platform/common/system.h"
#include "platform/common/target_resolution.h"
#include "platform/common/terminal.h"

#include <CLI/CLI.hpp>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <system_error>
#include <thread>
#include <tuple>

namespace ioprism::cli {

using namespace ioprism::core;
namespace fs = std::filesystem;

namespace {

struct RunArgs {
    std::string profilePath;
    std::string preset;
    std::vector<std::string> targets;
    std::vector<std::string> specs;
    std::string bs, duration, ramp, interval, fileSize, engine = "auto";
    std::optional<std::uint32_t> read, random, qd, workers;
    std::optional<std::uint64_t> seed;
    bool buffered = false;
    bool allowDeviceWrites = false;
    bool quiet = false;
    bool verbose = false;
    bool removeTestFiles = false;
    bool noSave = false; // --no-save: not into the run library
    // fio's --rw and --rwmixread / --rwmixwrite: resolved onto read and random by
    // resolveFioReadWrite.
    std::string rw;
    std::optional<std::uint32_t> rwmixread, rwmixwrite;
    std::optional<std::uint32_t> rwRead, rwRandom;
    std::string csvPath, timeseriesPath, jsonPath, seriesCsvPath;
    std::vector<std::string> sweeps;
    std::optional<std::uint32_t> repeat;
    std::optional<std::uint64_t> ops;
    std::string stagger;
    bool targetsInTurn = false;
    std::string tree; // --tree DEPTH:FILES[:SIZE]
    std::optional<std::uint64_t> preInit; // --pre-init N operations
    std::optional<std::uint32_t> connectionRate; // --connection-rate N transactions
    double deviceTolerancePercent = 5;
    std::string deviceTail = "5s";
    std::string stallThreshold = "5s";
    std::string stopTimeout = "15s";
    std::vector<std::string> rawArgs;
};

// The default test file: Iometer's iobw.tst idea, named for us.
constexpr const char *kDefaultTestFile = "ioprism-test.dat";
// Where --tree makes a tree in a folder that is not one of ours.
constexpr const char *kDefaultTreeFolder = "ioprism-tree";

// Where a tree target's folder is: the folder it names when IOPrism made a tree there (its
// marker) or when nothing is there yet; an `ioprism-tree` folder inside any other folder,
// never that folder itself. A path naming a file is refused.
bool placeTree(Target &t, const char *option, Problems &problems)
{
    fs::path folder = t.path;
    if (folder.filename() == kDefaultTestFile)
        folder = folder.parent_path().empty() ? fs::path(".") : folder.parent_path();
    std::error_code ec;
    if (fs::is_directory(folder, ec) && !fs::exists(fileTreeMarkerPath(folder.string()), ec)) {
        folder /= kDefaultTreeFolder;
    } else if (fs::exists(folder, ec) && !fs::is_directory(folder, ec)) {
        problems.push_back({Severity::Error, option,
            "\"" + folder.string() + "\" is a file: a tree needs a folder to be made in"});
        return false;
    }
    t.path = folder.lexically_normal().string();
    return true;
}

// --tree DEPTH:FILES[:SIZE]: every target of the worker becomes a file tree of that
// shape (io_profile's default 3:4:4MiB). A target naming a folder IOPrism made a tree in
// (its marker is there) is that tree; any other existing folder gets the tree in an
// `ioprism-tree` folder inside it, never in the folder itself; a path that does not exist
// yet is where the tree is made.
bool makeTrees(Worker &w, const RunArgs &a, Problems &problems)
{
    FileTree shape;
    std::vector<std::string> parts;
    for (std::size_t from = 0;;) {
        const std::size_t colon = a.tree.find(':', from);
        parts.push_back(a.tree.substr(from, colon - from));
        if (colon == std::string::npos)
            break;
        from = colon + 1;
    }
    const auto whole = [](const std::string &text, std::uint32_t &out) {
        const auto *end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, out);
        return ec == std::errc() && ptr == end && out > 0;
    };
    // The file size is optional (io_profile's 4 MiB); 0 or not a size is refused.
    bool sizeOk = true;
    if (parts.size() == 3) {
        const auto size = parseSize(parts[2]);
        sizeOk = size.has_value() && *size > 0;
        shape.fileSizeBytes = size.value_or(shape.fileSizeBytes);
    }
    if ((parts.size() != 2 && parts.size() != 3) || !whole(parts[0], shape.depth)
        || !whole(parts[1], shape.filesPerLevel) || !sizeOk) {
        problems.push_back({Severity::Error, "--tree",
            "\"" + a.tree
                + "\" is not DEPTH:FILES[:SIZE] (levels, files per level, size of each file; "
                  "e.g. 3:4:4MiB)"});
        return false;
    }
    // --file-size is the size of a tree's files when --tree leaves it out: the option
    // the user gave for "how large are the files" must not be ignored. Given both ways
    // with different sizes, neither may silently win.
    if (!a.fileSize.empty()) {
        const auto size = parseSize(a.fileSize);
        if (!size || *size == 0) {
            problems.push_back(
                {Severity::Error, "--file-size", "\"" + a.fileSize + "\" is not a size"});
            return false;
        }
        if (parts.size() == 2) {
            shape.fileSizeBytes = *size;
        } else if (*size != shape.fileSizeBytes) {
            problems.push_back({Severity::Error, "--tree",
                "--tree " + a.tree + " makes files of " + formatSize(shape.fileSizeBytes)
                    + " but --file-size " + a.fileSize + " asks for " + formatSize(*size)
                    + ": give the size once (--tree DEPTH:FILES with --file-size, or "
                      "DEPTH:FILES:SIZE)"});
            return false;
        }
    }
    for (auto &t : w.targets) {
        const std::uint64_t preInit = t.tree.preInitOperations;
        t.kind = TargetKind::FileTree;
        t.tree = shape;
        t.tree.preInitOperations = preInit;
        if (!placeTree(t, "--tree", problems))
            return false;
    }
    return true;
}

bool parseDurationArg(const std::string &text, DurationUnit bare, std::chrono::microseconds &out,
    const char *option, Problems &problems)
{
    auto d = parseDuration(text, bare);
    if (!d) {
        problems.push_back(
            {Severity::Error, option, "\"" + text + "\" is not a duration (e.g. 90, 90s, 1m30s)"});
        return false;
    }
    out = *d;
    return true;
}

// fio's --rw (with --rwmixread / --rwmixwrite for a mix) onto percent read and percent
// random, as fio means them. --read and --random say the same thing another way, so
// giving both is refused rather than one silently winning. Documented in docs/cli.md.
bool resolveFioReadWrite(RunArgs &a, Problems &problems)
{
    const auto fail = [&](const char *option, std::string text) {
        problems.push_back({Severity::Error, option, std::move(text)});
        return false;
    };
    for (const auto &[option, value] :
        {std::pair {"--rwmixread", a.rwmixread}, std::pair {"--rwmixwrite", a.rwmixwrite}})
        if (value && *value > 100)
            return fail(option, std::to_string(*value) + " is not in 0..100 (percent)");
    if (a.rwmixread && a.rwmixwrite)
        return fail("--rwmixwrite",
            "given with --rwmixread: both set the same mix (reads = 100 - writes); give one");
    if (a.rw.empty()) {
        if (a.rwmixread || a.rwmixwrite)
            return fail(a.rwmixread ? "--rwmixread" : "--rwmixwrite",
                "sets the mix of --rw rw, readwrite or randrw; give one of those, or --read PCT");
        return true;
    }
    struct Mode {
        const char *name;
        std::uint32_t read; // percent reads, unless mixed
        std::uint32_t random;
        bool mixed;
    };
    static constexpr Mode kModes[] = {{"read", 100, 0, false}, {"write", 0, 0, false},
        {"randread", 100, 100, false}, {"randwrite", 0, 100, false}, {"rw", 50, 0, true},
        {"readwrite", 50, 0, true}, {"randrw", 50, 100, true}};
    const Mode *mode = nullptr;
    for (const auto &m : kModes)
        if (a.rw == m.name)
            mode = &m;
    if (!mode)
        return fail("--rw",
            "\"" + a.rw
                + "\" is not one of read, write, randread, randwrite, rw, readwrite, randrw (fio's "
                  "trim modes and :N suffixes are not supported)");
    if (a.read)
        return fail("--read",
            fmt::format("conflicts with --rw {}, which sets the percent reads; give one of them{}",
                a.rw, mode->mixed ? " (the mix of --rw " + a.rw + " is --rwmixread)" : ""));
    if (a.random)
        return fail("--random",
            fmt::format("conflicts with --rw {}, which makes the access {}; give one of them", a.rw,
                mode->random ? "random" : "sequential"));
    if (!mode->mixed && (a.rwmixread || a.rwmixwrite))
        return fail(a.rwmixread ? "--rwmixread" : "--rwmixwrite",
            fmt::format("--rw {} {}: a mix needs --rw rw, readwrite or randrw", a.rw,
                mode->read == 100 ? "only reads" : "only writes"));
    a.rwRead = mode->read;
    if (a.rwmixread)
        a.rwRead = *a.rwmixread;
    if (a.rwmixwrite)
        a.rwRead = 100 - *a.rwmixwrite;
    a.rwRandom = mode->random;
    return true;
}

// --sweep (one or two: a curve or a matrix), --repeat, --ops, --stagger and
// --targets-in-turn: the profile's series, made or changed. Documented in docs/cli.md.
bool applySeriesOptions(Profile &p, const RunArgs &a, Problems &problems)
{
    const bool seriesOption = a.repeat || a.ops || !a.stagger.empty() || a.targetsInTurn;
    if (a.sweeps.empty() && !seriesOption)
        return true;
    if (a.sweeps.size() > 2) {
        problems.push_back({Severity::Error, "--sweep",
            "given " + std::to_string(a.sweeps.size())
                + " times: one sweeps a curve, two a matrix"});
        return false;
    }
    if (a.sweeps.empty() && !p.setup.series) {
        problems.push_back({Severity::Error, "--sweep",
            "--repeat, --ops, --stagger and --targets-in-turn shape a series: give --sweep (e.g. "
            "--sweep bs=512..16M:x2) or a profile with one"});
        return false;
    }
    Series &series = p.setup.series ? *p.setup.series : p.setup.series.emplace();
    if (!a.sweeps.empty()) {
        series.axes.clear();
        for (const auto &text : a.sweeps) {
            std::string error;
            const auto axis = parseSweep(text, error);
            if (!axis) {
                problems.push_back({Severity::Error, "--sweep", error});
                return false;
            }
            series.axes.push_back(*axis);
        }
        // A sweep runs the points of one spec: Iometer's cycling is not run beside it.
        p.setup.testType = TestType::Normal;
    }
    if (a.repeat)
        series.repeat = *a.repeat;
    if (a.ops)
        series.ios = *a.ops;
    if (a.targetsInTurn)
        series.targetsInTurn = true;
    if (!a.stagger.empty()) {
        std::chrono::microseconds d {};
        if (!parseDurationArg(a.stagger, DurationUnit::Seconds, d, "--stagger", problems))
            return false;
        series.workerStagger = std::chrono::duration_cast<std::chrono::milliseconds>(d);
    }
    return true;
}

// Applies the command-line options over the profile. Documented in docs/cli.md.
bool applyOptions(Profile &p, const RunArgs &a, Problems &problems)
{
    if (p.hosts.empty())
        p.hosts.emplace_back();
    auto &host = p.hosts[0];
    if (host.workers.empty()) {
        Worker w;
        w.name = "Worker 1";
        host.workers.push_back(w);
    }
    // --workers N: copies of the first worker, as Iometer adds workers.
    if (a.workers) {
        if (*a.workers < 1 || *a.workers > 1024) {
            problems.push_back(
                {Severity::Error, "--workers", std::to_string(*a.workers) + " is not in 1..1024"});
            return false;
        }
        const Worker first = host.workers[0];
        host.workers.resize(1);
        for (std::uint32_t i = 1; i < *a.workers; ++i) {
            Worker w = first;
            w.name = "Worker " + std::to_string(i + 1);
            if (w.seed)
                w.seed = *w.seed + i;
            host.workers.push_back(w);
        }
    }
    // --bs / --read / --random (or fio's --rw): one custom spec derived from the first
    // assigned line.
    const auto percentRead = a.read ? a.read : a.rwRead;
    const auto percentRandom = a.random ? a.random : a.rwRandom;
    if (!a.bs.empty() || percentRead || percentRandom) {
        SpecLine line;
        line.percentRandom = 100;
        line.percentRead = 100;
        line.transferSizeBytes = line.alignmentBytes = 4096;
        const auto &firstWorker = host.workers[0];
        if (!firstWorker.assignedSpecs.empty())
            if (const auto *s = findSpec(p, firstWorker.assignedSpecs[0]); s && !s->lines.empty())
                line = s->lines[0];
        line.sharePercent = 100;
        if (!a.bs.empty()) {
            auto size = parseSize(a.bs);
            if (!size || *size == 0) {
                problems.push_back({Severity::Error, "--bs",
                    "\"" + a.bs + "\" is not a size (e.g. 4k, 64KiB, 1M)"});
                return false;
            }
            if (line.alignmentBytes == line.transferSizeBytes)
                line.alignmentBytes = *size;
            line.transferSizeBytes = *size;
        }
        if (percentRead)
            line.percentRead = *percentRead;
        if (percentRandom)
            line.percentRandom = *percentRandom;
        // Named by what it sets, leaving out what a --sweep varies ("100% read 100%
        // random" in a block-size series, not a size only its first point has).
        const auto swept = [&](SweepParameter parameter) {
            return std::any_of(a.sweeps.begin(), a.sweeps.end(), [&](const std::string &text) {
                std::string error;
                const auto axis = parseSweep(text, error);
                return axis && axis->parameter == parameter;
            });
        };
        std::vector<std::string> parts;
        if (!swept(SweepParameter::TransferSize))
            parts.push_back(formatSize(line.transferSizeBytes));
        if (!swept(SweepParameter::PercentRead))
            parts.push_back(fmt::format("{}% read", line.percentRead));
        if (!swept(SweepParameter::PercentRandom))
            parts.push_back(fmt::format("{}% random", line.percentRandom));
        AccessSpec spec;
        spec.name
            = parts.empty() ? std::string("custom") : fmt::format("{}", fmt::join(parts, " "));
        spec.lines.push_back(line);
        std::erase_if(p.specs, [&](const AccessSpec &s) { return s.name == spec.name; });
        p.specs.push_back(spec);
        for (auto &w : host.workers)
            w.assignedSpecs = {spec.name};
    } else if (!a.specs.empty()) {
        for (auto &w : host.workers)
            w.assignedSpecs = a.specs;
    }
    if (a.qd)
        setOutstandingIosEverywhere(p, *a.qd); // above the spec's and the targets' values
    if (!a.targets.empty()) {
        std::vector<Target> targets;
        for (const auto &path : a.targets) {
            Target t;
            t.path = path;
            t.kind = platform::detectTargetKind(path);
            std::error_code ec;
            if (t.kind == TargetKind::TestFile && fs::is_directory(path, ec))
                t.path = (fs::path(path) / kDefaultTestFile).string();
            // A tree IOPrism made: its shape is in its marker (--tree may still change it).
            if (t.kind == TargetKind::FileTree)
                if (auto shape = platform::fileTreeAt(path))
                    t.tree = *shape;
            if (!host.workers[0].targets.empty()) {
                const auto &model = host.workers[0].targets[0];
                t.testFileSizeBytes = model.testFileSizeBytes;
                t.cacheMode = model.cacheMode;
                t.writeThrough = model.writeThrough;
                // A profile of trees (io-profile-tree) keeps making trees where --target
                // points, in the shape it has (unless the folder is a tree already).
                if (model.kind == TargetKind::FileTree && t.kind == TargetKind::TestFile) {
                    t.kind = TargetKind::FileTree;
                    t.tree = model.tree;
                    if (!placeTree(t, "--target", problems))
                        return false;
                } else if (model.kind == TargetKind::FileTree && t.kind == TargetKind::FileTree) {
                    t.tree.preInitOperations = model.tree.preInitOperations;
                }
            }
            targets.push_back(t);
        }
        for (auto &w : host.workers)
            w.targets = targets;
    }
    // The default test file is for presets and options alone (`run` with no target: the
    // quick benchmark on ./ioprism-test.dat). A profile file's workers keep exactly the
    // targets the file gives them: one without any idles, as in Iometer, and a file
    // without any target is refused as `validate` refuses it; no target is invented.
    const bool presetTargets = a.profilePath.empty() && a.targets.empty();
    for (auto &w : host.workers) {
        if (w.targets.empty() && presetTargets) {
            Target t;
            t.path = kDefaultTestFile;
            w.targets.push_back(t);
        }
        if (!a.tree.empty() && !makeTrees(w, a, problems))
            return false;
        if (a.preInit)
            for (auto &t : w.targets)
                t.tree.preInitOperations = *a.preInit;
        if (a.connectionRate) {
            w.testConnectionRate = *a.connectionRate > 0;
            w.transactionsPerConnection = std::max<std::uint32_t>(*a.connectionRate, 1);
        }
        for (auto &t : w.targets) {
            if (a.buffered)
                t.cacheMode = CacheMode::Buffered;
            if (!a.fileSize.empty()) {
                auto size = parseSize(a.fileSize);
                if (!size || *size == 0) {
                    problems.push_back(
                        {Severity::Error, "--file-size", "\"" + a.fileSize + "\" is not a size"});
                    return false;
                }
                t.testFileSizeBytes = *size;
            }
        }
        // A fixed seed is offset per worker, as for --workers copies (docs/cli.md): two
        // workers with one seed would issue the same offsets in lockstep.
        if (a.seed)
            w.seed = *a.seed + std::uint64_t(&w - host.workers.data());
    }
    // Without --tree, --file-size sizes test files: when every target is a tree (a
    // preset of trees, a tree made before) nothing would use it.
    const auto allTrees
        = std::all_of(host.workers.begin(), host.workers.end(), [](const Worker &w) {
              return std::all_of(w.targets.begin(), w.targets.end(),
                  [](const Target &t) { return t.kind == TargetKind::FileTree; });
          });
    if (!a.fileSize.empty() && a.tree.empty() && allTrees) {
        problems.push_back({Severity::Error, "--file-size",
            "--file-size sizes test files, and every target of this run is a file tree: give "
            "the size of a tree's files with --tree DEPTH:FILES:SIZE"});
        return false;
    }
    // Pre-initialisation is a tree's (open, I/O, close before the first step): on a test
    // file or a device it would do nothing, and the description would still list it.
    if (a.preInit && std::none_of(host.workers.begin(), host.workers.end(), [](const Worker &w) {
            return std::any_of(w.targets.begin(), w.targets.end(),
                [](const Target &t) { return t.kind == TargetKind::FileTree; });
        })) {
        problems.push_back({Severity::Error, "--pre-init",
            "--pre-init applies to file-tree targets (--tree): no target of this run is a "
            "tree"});
        return false;
    }
    std::chrono::microseconds d {};
    if (!a.duration.empty()) {
        if (!parseDurationArg(a.duration, DurationUnit::Seconds, d, "--duration", problems))
            return false;
        // The run time is whole seconds and 0 means "until stopped": 300ms must not
        // silently become a run without end.
        if (d > std::chrono::microseconds::zero() && d < std::chrono::seconds {1}) {
            problems.push_back({Severity::Error, "--duration",
                "\"" + a.duration
                    + "\" is below 1s: the run time is whole seconds (0 runs until "
                      "stopped)"});
            return false;
        }
        p.setup.runTime = std::chrono::duration_cast<std::chrono::seconds>(d);
    }
    if (!a.ramp.empty()) {
        if (!parseDurationArg(a.ramp, DurationUnit::Seconds, d, "--ramp", problems))
            return false;
        p.setup.rampUp = std::chrono::duration_cast<std::chrono::seconds>(d);
    }
    if (!a.interval.empty()) {
        if (!parseDurationArg(a.interval, DurationUnit::Seconds, d, "--interval", problems))
            return false;
        p.setup.interval = std::chrono::duration_cast<std::chrono::milliseconds>(d);
    }
    if (!applySeriesOptions(p, a, problems))
        return false;
    // The description is the preset's or the profile's own words, and stays so: the facts
    // (sizes, times, depths, targets) are never written into it but made from the profile
    // wherever it is shown (core::describeRun), so --duration or --target cannot make it
    // false. Options that change what the specs do, or make the run a series or a tree,
    // can make the words themselves false ("Queue-depth curve" swept over block sizes):
    // then the description says where the run came from instead, which stays true.
    bool workloadChanged = false;
    std::vector<std::string> changed;
    for (const auto &[option, given, workload] :
        {std::tuple {"--target", !a.targets.empty(), false},
            std::tuple {"--spec", !a.specs.empty(), true}, std::tuple {"--bs", !a.bs.empty(), true},
            std::tuple {"--read", a.read.has_value(), true},
            std::tuple {"--random", a.random.has_value(), true},
            std::tuple {"--rw", !a.rw.empty(), true},
            std::tuple {"--rwmixread", a.rwmixread.has_value(), true},
            std::tuple {"--rwmixwrite", a.rwmixwrite.has_value(), true},
            std::tuple {"--qd", a.qd.has_value(), false},
            std::tuple {"--workers", a.workers.has_value(), false},
            std::tuple {"--duration", !a.duration.empty(), false},
            std::tuple {"--ramp", !a.ramp.empty(), false},
            std::tuple {"--file-size", !a.fileSize.empty(), false},
            std::tuple {"--buffered", a.buffered, false},
            std::tuple {"--sweep", !a.sweeps.empty(), true},
            std::tuple {"--repeat", a.repeat.has_value(), false},
            std::tuple {"--ops", a.ops.has_value(), false},
            std::tuple {"--stagger", !a.stagger.empty(), false},
            std::tuple {"--targets-in-turn", a.targetsInTurn, false},
            std::tuple {"--tree", !a.tree.empty(), true},
            std::tuple {"--pre-init", a.preInit.has_value(), false},
            std::tuple {"--connection-rate", a.connectionRate.has_value(), false}})
        if (given) {
            changed.push_back(option);
            workloadChanged = workloadChanged || workload;
        }
    if (workloadChanged) {
        const std::string origin = !a.profilePath.empty()
            ? "profile " + fs::path(a.profilePath).filename().string()
            : "the " + (a.preset.empty() ? std::string("quick") : a.preset) + " preset";
        p.setup.description = fmt::format("{} changed by {}", origin, fmt::join(changed, " "));
    }
    return true;
}

// What the sink prints, and where. The human text (phase, interval and point lines, the
// verbose plan) goes to `human`: stdout, or stderr when a results file goes to stdout.
// Notices always go to stderr. The preparing bar, redrawn with '\r', is drawn only on a
// terminal; elsewhere each test file being written is one line.
struct SinkOptions {
    std::ostream *human = &std::cout;
    bool quiet = false;
    bool verbose = false;
    bool progressBar = false; // stderr is a terminal
    std::ostream *timeseries = nullptr; // written as the run goes; null when not asked
    std::string engineOption; // --engine as given, for the verbose engine line
    std::string outputsLine; // the verbose "outputs:" line, said once the engine is known
    // What describeDevice found per target (by its opened path), for the verbose plan.
    const std::map<std::string, DeviceFacts> *devices = nullptr;
};

// Called on the run's control thread only, one call at a time.
class TerminalSink final : public RunSink
{
public:
    TerminalSink(SinkOptions options, const Profile &profile)
        : m_options(std::move(options))
        , m_out(*m_options.human)
        , m_setup(profile.setup)
        , m_started(std::chrono::steady_clock::now())
    { }
    void onPhase(RunPhase phase, std::size_t step, const std::string &stepName) override
    {
        if (m_progressShown) {
            std::cerr << "\n";
            m_progressShown = false;
        }
        m_phase = phase;
        m_phaseStep = step;
        m_phaseStepName = stepName;
        if (phase == RunPhase::RampUp || phase == RunPhase::Measuring) {
            m_currentStep = step;
            if (!m_firstStepStarted) // the pace counts steps, not the test files' preparation
                m_firstStepStarted = true, m_started = std::chrono::steady_clock::now();
        }
        if (m_options.quiet)
            return;
        const std::string where = stepText(step, stepName);
        if (phase == RunPhase::RampUp)
            m_out << "-- " << where << ": ramp-up" << eta(step) << "\n";
        else if (phase == RunPhase::Measuring && !(m_setup.rampUp.count() > 0))
            m_out << "-- " << where << ": measuring" << eta(step) << "\n";
        else if (phase == RunPhase::Measuring)
            m_out << "-- " << where << ": measuring\n";
        m_out.flush();
    }
    void onStarted(const std::string &engine) override
    {
        m_engine = engine;
        if (!m_options.verbose)
            return;
        m_out << "engine: " << engine << " (--engine " << m_options.engineOption << ")\n"
              << m_options.outputsLine;
        m_out.flush();
    }
    void onPlan(const ResolvedPlan &plan) override
    {
        m_stepCount = plan.stepCount();
        if (!m_options.verbose)
            return;
        static const std::map<std::string, DeviceFacts> kNone;
        m_out << planText(plan, m_engine, m_options.devices ? *m_options.devices : kNone);
        m_out.flush();
    }
    void onFinished(RunResult result) override { m_result = std::move(result); }
    // What the run reported last (once the session has finished).
    RunResult takeResult() { return std::move(m_result); }
    void onStepResult(const StepResult &step, const PlannedStep &planned) override
    {
        ++m_stepsDone;
        if (m_options.quiet || !m_setup.series)
            return;
        m_out << pointLine(step, planned, *m_setup.series, m_stepsDone, m_stepCount) << "\n";
        m_out.flush();
    }
    // The step that was running (or last ran), for the message when a stop cuts it.
    std::size_t currentStep() const { return m_currentStep; }
    std::size_t stepCount() const { return m_stepCount; }
    void onPrepareProgress(
        const std::string &path, std::uint64_t done, std::uint64_t total, PrepareWork work) override
    {
        if (m_options.quiet || total == 0)
            return;
        if (work == PrepareWork::PreInitialising)
            return preInitProgress(path, done, total);
        if (!m_options.progressBar) {
            // A log or a pipe: one line per test file, no redraws.
            if (path != m_lastPath) {
                m_lastPath = path;
                m_out << fmt::format("-- preparing {} ({})\n", path, describeSize(total));
                m_out.flush();
            }
            return;
        }
        const int percent = int(100 * done / total);
        if (percent == m_lastPercent && path == m_lastPath)
            return;
        m_lastPercent = percent;
        m_lastPath = path;
        drawBar("preparing " + path, percent, fmt::format("of {}", formatSize(total)));
    }
    void onInterval(const IntervalSample &s) override
    {
        if (m_options.timeseries) {
            auto &timeseries = *m_options.timeseries;
            errno = 0;
            timeseries << timeSeriesRows(s);
            timeseries.flush();
            if (!timeseries && m_timeseriesError.empty())
                m_timeseriesError = errno ? std::generic_category().message(errno) : "write failed";
        }
        if (!m_options.quiet) {
            m_out << intervalLine(s) << "\n";
            m_out.flush();
        }
    }
    void onNotice(const std::string &text) override
    {
        if (m_progressShown) {
            std::cerr << "\n";
            m_progressShown = false;
        }
        if (m_options.verbose)
            std::cerr << "notice (" << noticeSource() << "): " << text << "\n";
        else
            std::cerr << "notice: " << text << "\n";
    }
    // Why the time series stopped being written ("" while it is fine).
    const std::string &timeseriesError() const { return m_timeseriesError; }

private:
    // A tree's pre-initialisation (operations, not bytes): a bar on a terminal; in a log
    // or a pipe a line when it starts and at each tenth, so that a long warm-up is
    // never silent and a log stays short.
    void preInitProgress(const std::string &path, std::uint64_t done, std::uint64_t total)
    {
        const int percent = int(100 * done / total);
        if (!m_options.progressBar) {
            if (path == m_preInitPath && percent / 10 == m_preInitPercent / 10)
                return;
            m_preInitPath = path;
            m_preInitPercent = percent;
            m_out << fmt::format(
                "-- pre-initialising {}: {} of {} operations (not measured)\n", path, done, total);
            m_out.flush();
            return;
        }
        if (percent == m_preInitPercent && path == m_preInitPath)
            return;
        m_preInitPercent = percent;
        m_preInitPath = path;
        drawBar(
            "pre-initialising " + path, percent, fmt::format("({} of {} operations)", done, total));
    }

    // "\rWHAT [#####.....]  42% AFTER" on stderr, redrawn in place (a terminal only).
    void drawBar(const std::string &what, int percent, const std::string &after)
    {
        const int width = 30, filled = percent * width / 100;
        std::cerr << fmt::format("\r{} [{}{}] {:3}% {}", what,
            std::string(std::size_t(filled), '#'), std::string(std::size_t(width - filled), '.'),
            percent, after);
        m_progressShown = true;
    }

    // One step: its name. Several (cycling, a series): which of how many.
    std::string stepText(std::size_t step, const std::string &stepName) const
    {
        return m_stepCount > 1 ? fmt::format("{} {}/{} {}", m_setup.series ? "point" : "step",
                   step + 1, m_stepCount, stepName)
                               : stepName;
    }

    // When a notice came, which is where it came from as far as the sink can tell: the
    // run reports each one as it happens (core/run/run.h has no source field).
    std::string noticeSource() const
    {
        switch (m_phase) {
        case RunPhase::Idle:
            return "setting up the engine and the plan";
        case RunPhase::Preparing:
            return "preparing the targets";
        case RunPhase::RampUp:
            return stepText(m_phaseStep, m_phaseStepName) + ", ramp-up";
        case RunPhase::Measuring:
            return stepText(m_phaseStep, m_phaseStepName) + ", measuring";
        case RunPhase::Stopping:
            return "end of " + stepText(m_phaseStep, m_phaseStepName);
        case RunPhase::Done:
            return "after the run";
        }
        return "run";
    }

    // ", ETA 1m10s": time left from the run time, or, for points of a number of I/Os,
    // from the pace so far.
    std::string eta(std::size_t step) const
    {
        if (m_stepCount < 2 || step == 0)
            return {};
        const auto left = m_stepCount - step;
        double seconds = 0;
        if (m_setup.runTime.count() > 0 && !(m_setup.series && m_setup.series->ios > 0))
            seconds = double(left) * double((m_setup.runTime + m_setup.rampUp).count());
        else
            seconds = double(left)
                * std::chrono::duration<double>(std::chrono::steady_clock::now() - m_started)
                      .count()
                / double(step);
        return ", ETA " + etaText(std::chrono::seconds(std::llround(seconds)));
    }

    SinkOptions m_options;
    std::ostream &m_out;
    TestSetup m_setup;
    std::string m_engine; // the engine each worker starts with, for the verbose plan
    RunResult m_result;
    std::size_t m_stepCount = 0; // from the checked plan (onPlan), before any step
    std::size_t m_stepsDone = 0;
    std::size_t m_currentStep = 0;
    bool m_firstStepStarted = false;
    RunPhase m_phase = RunPhase::Idle;
    std::size_t m_phaseStep = 0;
    std::string m_phaseStepName;
    std::chrono::steady_clock::time_point m_started;
    std::string m_timeseriesError;
    bool m_progressShown = false;
    int m_lastPercent = -1;
    std::string m_lastPath;
    int m_preInitPercent = -1; // the last pre-initialisation progress said, and where
    std::string m_preInitPath;
};

// Every run that got as far as running, complete, stopped or failed (a refusal keeps its
// profile and error), goes into the run library. A library that cannot be written costs
// a warning, not the run: the requested outputs are written already.
void saveToLibrary(
    const RunResult &result, const std::string &resultsText, std::ostream &human, bool quiet)
{
    std::string error;
    const auto library = userRunLibrary(error);
    if (!library) {
        std::cerr << "warning: not saved to the run library: " << error << "\n";
        return;
    }
    const auto id = library->save(result, resultsText);
    if (!id) {
        std::cerr << "warning: not saved to the run library: " << id.error().toString() << "\n";
        return;
    }
    if (!quiet)
        human << fmt::format("saved as {} (ioprism-cli show {}; --no-save to skip)\n", *id, *id);
}

int runCommand(RunArgs a)
{
    if (a.quiet && a.verbose) {
        std::cerr << "error: --quiet and --verbose: give one (-q prints only the summary, -v "
                     "adds the plan and where each notice came from)\n";
        return 2;
    }
    Problems problems;
    if (!resolveFioReadWrite(a, problems)) {
        printProblems(problems);
        return 2;
    }
    std::optional<Profile> profile;
    if (!a.profilePath.empty()) {
        profile = loadProfileFile(a.profilePath, problems);
        if (!profile) {
            printProblems(problems, a.profilePath);
            return 2;
        }
    } else {
        profile = loadPreset(a.preset.empty() ? "quick" : a.preset, problems);
        if (!profile) {
            printProblems(problems);
            return 2;
        }
    }
    if (!a.profilePath.empty() && !a.preset.empty())
        problems.push_back({Severity::Warning, "--preset", "ignored: a profile file was given"});
    if (!applyOptions(*profile, a, problems)) {
        printProblems(problems);
        return 2;
    }
    auto validation = validateProfile(*profile);
    problems.insert(problems.end(), validation.begin(), validation.end());
    printProblems(problems);
    if (hasErrors(problems))
        return 2;

    const auto kind = platform::parseEngineKind(a.engine);
    if (!kind) {
        std::cerr << "error: --engine: \"" << a.engine
                  << "\" is not one of auto, io_uring, iocp, sync, null\n";
        return 2;
    }

    // Every output path is checked here, before any I/O: a typo must not cost a run.
    const std::vector<OutputFile> outputs
        = requestedOutputs(a.csvPath, a.timeseriesPath, a.jsonPath, a.seriesCsvPath);
    if (const auto bad = checkOutputFiles(outputs); !bad.empty()) {
        for (const auto &message : bad)
            std::cerr << "error: " << message << "\n";
        return 2;
    }
    // A results document on stdout is for a pipe (`--json - | jq`): stdout then carries
    // it alone, and everything said for people goes to stderr.
    std::ostream &human = anyToStdout(outputs) ? std::cerr : std::cout;

    RunRequest request;
    request.engine = *kind;
    request.removeTestFiles = a.removeTestFiles;
    request.commandLine = fmt::format("{}", fmt::join(a.rawArgs, " "));
    RunSettings &options = request.settings;
    options.allowDeviceWrites = a.allowDeviceWrites;
    LocalRunHooks hooks = platform::localRunHooks();
    // The devices are described as the targets are resolved, before the first step (on
    // the run's thread, as the sink's onPlan that reads them): kept for the verbose plan.
    std::map<std::string, DeviceFacts> devices;
    hooks.describe.describeDevice = [&devices](const std::string &path) {
        auto facts = platform::describeDevice(path);
        devices[path] = facts;
        return facts;
    };
    if (!(a.deviceTolerancePercent >= 0 && a.deviceTolerancePercent <= 100)) {
        std::cerr << "error: --device-tolerance: " << a.deviceTolerancePercent
                  << " is not in 0..100 (percent)\n";
        return 2;
    }
    options.verdict.tolerance = a.deviceTolerancePercent / 100;
    {
        Problems tailProblems;
        std::chrono::microseconds tail {};
        if (!parseDurationArg(
                a.deviceTail, DurationUnit::Seconds, tail, "--device-tail", tailProblems)) {
            printProblems(tailProblems);
            return 2;
        }
        options.deviceTailLimit = std::chrono::duration_cast<std::chrono::milliseconds>(tail);
        std::chrono::microseconds stall {}, stopWait {};
        if (!parseDurationArg(
                a.stallThreshold, DurationUnit::Seconds, stall, "--stall-threshold", tailProblems)
            || !parseDurationArg(
                a.stopTimeout, DurationUnit::Seconds, stopWait, "--stop-timeout", tailProblems)) {
            printProblems(tailProblems);
            return 2;
        }
        options.stallThreshold = std::chrono::duration_cast<std::chrono::milliseconds>(stall);
        options.stopTimeout = std::chrono::duration_cast<std::chrono::milliseconds>(stopWait);
    }

    // Opened once every option is known to be good: a refused command leaves an existing
    // file as it was, and stdout empty.
    std::unique_ptr<std::ofstream> timeseriesFile;
    std::ostream *timeseries = nullptr;
    if (a.timeseriesPath == OutputFile::kStdoutPath) {
        timeseries = &std::cout;
    } else if (!a.timeseriesPath.empty()) {
        timeseriesFile
            = std::make_unique<std::ofstream>(a.timeseriesPath, std::ios::binary | std::ios::trunc);
        timeseries = timeseriesFile.get();
    }
    if (timeseries)
        *timeseries << timeSeriesHeader();

    if (a.verbose) {
        human << "profile: "
              << (profile->setup.description.empty() ? std::string("(no description)")
                                                     : profile->setup.description)
              << "\n";
        human << "runs: " << describeRun(*profile) << "\n";
        human.flush();
    }
    std::vector<std::string> where;
    where.reserve(outputs.size());
    for (const auto &o : outputs)
        where.push_back(o.option + " " + o.displayName());
    const std::string outputsLine = fmt::format("outputs: {}; this text on {}\n",
        where.empty() ? std::string("none") : fmt::format("{}", fmt::join(where, ", ")),
        &human == &std::cerr ? "stderr" : "stdout");
    TerminalSink sink({.human = &human,
                          .quiet = a.quiet,
                          .verbose = a.verbose,
                          .progressBar = platform::isTerminal(platform::StandardStream::Error),
                          .timeseries = timeseries,
                          .engineOption = a.engine,
                          .outputsLine = outputsLine,
                          .devices = &devices},
        *profile);
    request.profile = *profile;
    const RunSessionFactory makeSession = localRunSessions(std::move(hooks));
    const std::unique_ptr<RunSession> session = makeSession(sink);

    // SIGINT / SIGTERM: stop, drain, write what was measured. A second one stops waiting
    // for in-flight I/O (a stuck device) and writes the results at once; a third exits.
    boost::asio::io_context signalContext;
    boost::asio::signal_set signals(signalContext, SIGINT, SIGTERM);
    std::atomic<int> caught {0};
    int repeated = 0; // signals after the first; only the signal thread touches it
    std::function<void(const boost::system::error_code &, int)> onSignal
        = [&](const boost::system::error_code &ec, int number) {
              if (ec)
                  return;
              if (caught.exchange(number) != 0) {
                  if (++repeated > 1)
                      std::_Exit(128 + number);
                  std::cerr << "\nstopping now (signal " << number
                            << " again): not waiting for in-flight I/O; writing results...\n";
                  session->stopNow();
              } else {
                  std::cerr << "\nstopping (signal " << number
                            << "): finishing in-flight I/O and writing results (again to "
                               "stop waiting)...\n";
                  session->stop();
              }
              signals.async_wait(onSignal);
          };
    signals.async_wait(onSignal);
    std::jthread signalThread([&] { signalContext.run(); });

    session->start(std::move(request));
    session->wait();
    const RunResult result = sink.takeResult();
    signals.cancel();
    signalContext.stop();

    human << finishedRunTables(result);
    human.flush();
    // A stop keeps every finished step; the one it cut is kept too, marked incomplete.
    if (caught && sink.stepCount() > 1 && !result.steps.empty() && !result.steps.back().complete)
        std::cerr << fmt::format("stopped during {} {}/{} ({}): kept, marked incomplete; the {} "
                                 "before it are complete\n",
            profile->setup.series ? "point" : "step", result.steps.back().step + 1,
            sink.stepCount(), result.steps.back().stepName, result.steps.size() - 1);

    const core::Environment &env = result.environment;

    // A write that fails now (a full disk, a directory removed during the run) saves the
    // results elsewhere and says where: the run is not lost, but the exit code is 1.
    const std::string fallback = fallbackStem(result.startedAt);
    // The results document is made once for --json and the run library: a long run's is
    // tens of MB (docs/performance.md, "Saving a run").
    std::optional<std::string> resultsDocument;
    auto resultsText = [&]() -> const std::string & {
        if (!resultsDocument)
            resultsDocument = writeResultsJson(result, env);
        return *resultsDocument;
    };
    bool wrote = true;
    if (!a.csvPath.empty())
        wrote &= writeOutputFile({"--csv", a.csvPath},
            writeIometerCsv(result, env, profile->setup.recordFilter), fallback + ".csv");
    if (!a.jsonPath.empty())
        wrote &= writeOutputFile({"--json", a.jsonPath}, resultsText(), fallback + ".json");
    if (!a.seriesCsvPath.empty())
        wrote &= writeOutputFile(
            {"--series-csv", a.seriesCsvPath}, writeSeriesCsv(result), fallback + "-series.csv");
    if (timeseries) {
        errno = 0;
        if (timeseriesFile)
            timeseriesFile->close();
        else
            timeseries->flush();
        // A file whose folder was deleted during the run took every write without an
        // error (it was unlinked, still open) and is gone now: fall back as for a failed
        // write, as --csv and --json do when their folder is gone at the end. Only a path
        // that no longer exists counts: /dev/null or a pipe (`>(gzip >t.gz)`) is no
        // regular file, yet took the series as asked.
        std::error_code gone;
        (void)std::filesystem::status(a.timeseriesPath, gone);
        const bool vanished = timeseriesFile
            && (gone == std::errc::no_such_file_or_directory || gone == std::errc::not_a_directory);
        if (!*timeseries || vanished) {
            // Written as the run went; whatever was lost is rebuilt from the intervals.
            std::string reason = sink.timeseriesError();
            if (reason.empty() && vanished)
                reason = "the file was removed during the run (its folder deleted?)";
            if (reason.empty())
                reason = errno ? std::generic_category().message(errno) : "write failed";
            reportAndSaveElsewhere({"--timeseries", a.timeseriesPath}, reason,
                writeTimeSeriesCsv(result), fallback + "-timeseries.csv");
            wrote = false;
        }
    }

    if (!a.noSave)
        saveToLibrary(result, resultsText(), human, a.quiet);

    for (const auto &failed : result.testFileRemoval.failed)
        std::cerr << "warning: " << failed.toString() << "\n";

    if (result.error) {
        std::cerr << "error: " << result.error->toString() << "\n";
        if (!result.steps.empty())
            std::cerr << "(results up to the error are above and in the requested output files)\n";
        return caught ? 128 + caught.load() : 1;
    }
    if (caught)
        return 128 + caught.load();
    return wrote ? 0 : 1;
}

} // namespace

void registerRunCommands(CLI::App &app, int &exitCode, const std::vector<std::string> &rawArgs)
{
    auto a = std::make_shared<RunArgs>();
    a->rawArgs = rawArgs;
    auto *run = app.add_subcommand("run",
        "Run a benchmark: a profile file, a preset, or options alone "
        "(no arguments: the quick preset on ./ioprism-test.dat)");
    run->add_option("PROFILE", a->profilePath, "Profile file (.json or Iometer .icf)");
    run->add_option(
        "--preset", a->preset, "Built-in preset to start from (default: quick; see `presets`)");
    run->add_option("--target", a->targets,
        "Target path, repeatable: a test file, a directory (ioprism-test.dat inside it; a "
        "file tree IOPrism made there is run as that tree), or a block device / partition. "
        "Replaces the profile's targets");
    run->add_option(
        "--spec", a->specs, "Access specification to run, repeatable, in order (by name)");
    run->add_option(
        "--bs", a->bs, "Transfer size (4k, 64KiB, 1M; binary units): runs one custom spec");
    run->add_option("--read", a->read, "Percent reads, 0-100 (custom spec)");
    run->add_option("--random", a->random, "Percent random, 0-100 (custom spec)");
    run->add_option("--rw", a->rw,
        "fio's access mode: read, write, randread, randwrite, rw (readwrite), randrw; sets "
        "--read and --random (custom spec)");
    run->add_option(
        "--rwmixread", a->rwmixread, "With --rw rw or randrw: percent reads (fio's; default 50)");
    run->add_option("--rwmixwrite", a->rwmixwrite,
        "With --rw rw or randrw: percent writes (fio's; reads = 100 - this)");
    run->add_option("--qd,--iodepth", a->qd,
        "Outstanding I/Os per target per worker (overrides presets' queue depths)");
    run->add_option(
        "--workers,--numjobs", a->workers, "Number of workers (copies of the first worker)");
    run->add_option("--duration,--runtime", a->duration,
        "Measured time per spec (90, 90s, 1m30s; 0 = until Ctrl-C)");
    run->add_option("--ramp", a->ramp, "Ramp-up before measuring, not recorded (e.g. 5s)");
    run->add_option("--interval", a->interval, "Sampling interval, 100ms to 60s (default 1s)");
    run->add_option("--engine", a->engine,
           "I/O engine: auto (io_uring on Linux, else sync; iocp on Windows), io_uring, iocp, "
           "sync, null (no I/O and no file opened: its latencies and open/close times are "
           "IOPrism's own overhead)")
        ->capture_default_str();
    run->add_flag("--buffered", a->buffered, "Use the OS cache (default: direct I/O, O_DIRECT)");
    run->add_option("--file-size,--size", a->fileSize,
        "Size of test files (e.g. 1GiB); with --tree DEPTH:FILES, the size of the tree's files");
    run->add_option("--tree", a->tree,
        "io_profile's file tree instead of one test file: DEPTH:FILES[:SIZE] (e.g. 3:4:4MiB; "
        "without SIZE, --file-size or 4MiB). "
        "Each I/O opens a random file of the tree, does the I/O and closes it. Made in the "
        "--target folder (in ioprism-tree inside a folder IOPrism did not make)");
    run->add_option("--pre-init", a->preInit,
        "With --tree (file-tree targets only): operations over the tree before the first "
        "step is measured, not recorded (io_profile's pre-initialisation); Ctrl-C stops it");
    run->add_option("--connection-rate", a->connectionRate,
        "Iometer's test connection rate: close and reopen each target every N transactions "
        "(0 = off); the connection figures are in the results");
    run->add_option(
        "--seed", a->seed, "Fixed random seed for every worker (default: random, recorded)");
    run->add_option("--csv", a->csvPath,
        "Write Iometer-layout results CSV here (all output paths are checked before the run; "
        "if writing fails at the end, results go to ./ioprism-results-<time>.csv). For this and "
        "--json, --timeseries, --series-csv: - is stdout (one of them), and the rest of the "
        "output then goes to stderr");
    run->add_option("--timeseries", a->timeseriesPath,
        "Write one CSV row per interval per scope here (- stdout)");
    run->add_option("--json", a->jsonPath,
        "Write full JSON results here, - for stdout (if writing fails at the end: "
        "./ioprism-results-<time>.json)");
    run->add_option("--series-csv", a->seriesCsvPath,
        "Write the series here (- stdout): one row per point, its swept values, then IOPS, MB/s, "
        "latency percentiles, CPU and the device's figures (median of the trials)");
    run->add_option("--sweep", a->sweeps,
        "Run a series: PARAM=FROM..TO:xM, PARAM=FROM..TO:+N or PARAM=V1,V2,... with PARAM bs, "
        "qd, workers, read or random (e.g. bs=512..16M:x2, qd=1..256:x2); twice for a matrix");
    run->add_option("--repeat", a->repeat, "Series: run the whole series N times (trials)");
    run->add_option("--ops", a->ops,
        "Series: each point does N I/Os per worker and target instead of --duration");
    run->add_option("--stagger", a->stagger, "Series: worker n starts n x this after the first");
    run->add_flag("--targets-in-turn", a->targetsInTurn,
        "Series: each point runs on each target alone, one after the other");
    run->add_flag("--allow-device-writes", a->allowDeviceWrites,
        "Confirm writing to a raw block device or partition (destroys its data; refused while "
        "mounted)");
    run->add_flag("--remove-test-files", a->removeTestFiles,
        "Remove the test files IOPrism created, after the run");
    run->add_flag("--no-save", a->noSave,
        "Do not save this run in the run library (see `ioprism-cli history`)");
    run->add_flag("--quiet,-q", a->quiet, "No progress or interval lines; only the summary");
    run->add_flag("--verbose,-v", a->verbose,
        "Also print the resolved plan (workers, seeds, targets and their devices, what each step "
        "runs), the engine, and when each notice came");
    run->add_option("--device-tolerance", a->deviceTolerancePercent,
           "Percent by which the device's bytes may differ from the application's and still agree")
        ->capture_default_str();
    run->add_option("--device-tail", a->deviceTail,
           "After the last step, watch the devices this long at most for pending write-back (0 = "
           "not)")
        ->capture_default_str();
    run->add_option("--stall-threshold", a->stallThreshold,
           "Report I/O in flight longer than this as stalled, while the run goes (0 = never)")
        ->capture_default_str();
    run->add_option("--stop-timeout", a->stopTimeout,
           "After a step or Stop, wait this long at most for in-flight I/O; then write the "
           "results with the stuck I/O named (a second Ctrl-C: at once)")
        ->capture_default_str();
    run->callback([&exitCode, a] { exitCode = runCommand(*a); });
}

} // namespace ioprism::cli
