// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/run_args.h"

#include "core/profile/depth.h"
#include "core/profile/names.h"
#include "core/profile/series.h"
#include "core/profile/units.h"
#include "core/workload/file_tree.h"
#include "platform/common/target_resolution.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <system_error>
#include <tuple>

namespace ioprism::cli {

using namespace ioprism::core;
namespace fs = std::filesystem;

namespace {

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

} // namespace

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

namespace {

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
        // A sweep runs the points of one spec: Iometer's cycling is not run beside it, nor
        // a preset's passes (a series repeats with --repeat); --passes still says otherwise.
        p.setup.testType = TestType::Normal;
        if (!a.passes)
            p.setup.passes = 1;
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

// --workers N: copies of the first worker, as Iometer adds workers.
bool applyWorkerCount(Host &host, const RunArgs &a, Problems &problems)
{
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
    return true;
}

// --bs / --read / --random (or fio's --rw): one custom spec derived from the first
// assigned line; or --spec: the specs named, in order.
bool applySpecOptions(Profile &p, const RunArgs &a, Problems &problems)
{
    auto &host = p.hosts[0];
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
    return true;
}

// --target: the targets of every worker, shaped like the first worker's first.
bool applyTargets(Host &host, const RunArgs &a, Problems &problems)
{
    if (a.targets.empty())
        return true;
    std::vector<Target> targets;
    for (const auto &path : a.targets) {
        // "--target --bs 4k" with the path left out (an empty shell variable) took the
        // next option as a path and made test files named "--bs" and "4k".
        if (path.starts_with('-')) {
            problems.push_back({Severity::Error, "--target",
                fmt::format("\"{0}\" starts with '-' like an option: was the path left out "
                            "before it? (write ./{0} for a file of that name)",
                    path)});
            return false;
        }
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
    return true;
}

// What applies to each worker's targets: the default test file, --tree, --pre-init,
// --connection-rate, --buffered, --file-size and --seed; and the options no target uses.
bool applyTargetOptions(Host &host, const RunArgs &a, Problems &problems)
{
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
    return true;
}

// --duration, --ramp and --interval.
bool applyTimes(TestSetup &setup, const RunArgs &a, Problems &problems)
{
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
        setup.runTime = std::chrono::duration_cast<std::chrono::seconds>(d);
    }
    if (!a.ramp.empty()) {
        if (!parseDurationArg(a.ramp, DurationUnit::Seconds, d, "--ramp", problems))
            return false;
        setup.rampUp = std::chrono::duration_cast<std::chrono::seconds>(d);
    }
    if (!a.interval.empty()) {
        if (!parseDurationArg(a.interval, DurationUnit::Seconds, d, "--interval", problems))
            return false;
        setup.interval = std::chrono::duration_cast<std::chrono::milliseconds>(d);
    }
    if (a.passes)
        setup.passes = *a.passes; // the profile's checks refuse 0, too many and a series
    if (!a.pause.empty()) {
        if (!parseDurationArg(a.pause, DurationUnit::Seconds, d, "--pause", problems))
            return false;
        if (d % std::chrono::seconds {1} != std::chrono::microseconds::zero()) {
            problems.push_back({Severity::Error, "--pause",
                "\"" + a.pause + "\" is not whole seconds (the pause between tests is)"});
            return false;
        }
        setup.pauseBetweenTests = std::chrono::duration_cast<std::chrono::seconds>(d);
    }
    return true;
}

// "20%" or "20": a percentage, above 0 and at most 1000, as a share.
bool parsePercentArg(
    std::string_view text, double &share, const std::string &option, Problems &problems)
{
    std::string number(text);
    if (!number.empty() && number.back() == '%')
        number.pop_back();
    double value = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (number.empty() || ec != std::errc() || end != number.data() + number.size() || !(value > 0)
        || value > 1000) {
        problems.push_back({Severity::Error, option,
            "\"" + std::string(text) + "\" is not a percentage above 0 (e.g. 20%)"});
        return false;
    }
    share = value / 100;
    return true;
}

// --precondition sequential[:Nx] | workload[:Nx|:TIME] | none, over the profile's.
bool applyPrecondition(TestSetup &setup, const RunArgs &a, Problems &problems)
{
    if (a.precondition.empty())
        return true;
    if (a.precondition == "none") {
        setup.precondition.reset();
        return true;
    }
    const auto colon = a.precondition.find(':');
    const std::string name = a.precondition.substr(0, colon);
    const auto bad = [&](const std::string &why) {
        problems.push_back({Severity::Error, "--precondition", why});
        return false;
    };
    PreconditionSetup p;
    if (name == "seq" || name == "sequential")
        p.kind = PreconditionKind::Sequential;
    else if (name == "workload")
        p.kind = PreconditionKind::Workload;
    else
        return bad("\"" + name + "\" is not one of: sequential (seq), workload, none");
    if (colon != std::string::npos) {
        std::string amount = a.precondition.substr(colon + 1);
        const bool times = !amount.empty() && (amount.back() == 'x' || amount.back() == 'X');
        if (times)
            amount.pop_back();
        char *end = nullptr;
        const double multiple = std::strtod(amount.c_str(), &end);
        if (!amount.empty() && end && *end == '\0') {
            p.capacityMultiple = multiple;
        } else if (times || p.kind == PreconditionKind::Sequential) {
            return bad("\"" + a.precondition.substr(colon + 1)
                + "\" is not a capacity multiple (2, 2x, 0.5x)");
        } else {
            std::chrono::microseconds d {};
            if (!parseDurationArg(amount, DurationUnit::Seconds, d, "--precondition", problems))
                return false;
            p.time = std::chrono::duration_cast<std::chrono::seconds>(d);
            if (p.time.count() <= 0)
                return bad("\"" + amount + "\": a time of at least 1 s");
        }
    }
    setup.precondition = p;
    return true;
}

// --steady-state and its parameters, over the profile's rule (or PTS's defaults).
bool applySteadyState(TestSetup &setup, const RunArgs &a, Problems &problems)
{
    const bool refined = !a.steadyMetric.empty() || !a.steadyRound.empty()
        || !a.steadyLimits.empty() || a.steadyWindow || a.steadyRounds;
    if (a.steadyState == "none")
        setup.steadyState.reset();
    else if (!a.steadyState.empty()) {
        const auto rule = parseSteadyStateRule(a.steadyState);
        if (!rule) {
            problems.push_back({Severity::Error, "--steady-state",
                "\"" + a.steadyState + "\" is not one of: pts, fio-deviation, fio-slope, none"});
            return false;
        }
        // A rule named anew starts from PTS's parameters (a window of 5 rounds of 60 s,
        // 20 % and 10 %, at most 25 rounds); the options below refine it. The profile's
        // own rule keeps its parameters when the same rule is named.
        if (!setup.steadyState || setup.steadyState->criteria.rule != *rule)
            setup.steadyState.emplace().criteria.rule = *rule;
    }
    if (!setup.steadyState) {
        if (refined)
            problems.push_back({Severity::Error, "--steady-state",
                "--steady-metric, --steady-round, --steady-window, --steady-rounds and "
                "--steady-limits refine a steady-state rule: give one with --steady-state "
                "pts (or the profile's setup.steadyState), not none"});
        return !refined;
    }
    SteadyStateSetup &steady = *setup.steadyState;
    if (!a.steadyMetric.empty()) {
        const auto metric = parseSteadyStateMetric(a.steadyMetric);
        if (!metric) {
            problems.push_back({Severity::Error, "--steady-metric",
                "\"" + a.steadyMetric + "\" is not one of: iops, mbps, mean, p99, p99.9"});
            return false;
        }
        steady.metric = *metric;
    }
    if (!a.steadyRound.empty()) {
        std::chrono::microseconds d {};
        if (!parseDurationArg(a.steadyRound, DurationUnit::Seconds, d, "--steady-round", problems))
            return false;
        steady.roundTime = std::chrono::duration_cast<std::chrono::milliseconds>(d);
    }
    if (a.steadyWindow)
        steady.criteria.windowRounds = *a.steadyWindow;
    if (a.steadyRounds)
        steady.criteria.roundLimit = *a.steadyRounds;
    if (!a.steadyLimits.empty()) {
        // RANGE%,SLOPE%; a side left empty keeps its limit (",5%": the slope alone).
        const auto comma = a.steadyLimits.find(',');
        const std::string_view limits(a.steadyLimits);
        const std::string_view range = limits.substr(0, comma);
        const std::string_view slope
            = comma == std::string::npos ? std::string_view() : limits.substr(comma + 1);
        if (range.empty() && slope.empty()) {
            problems.push_back({Severity::Error, "--steady-limits",
                "\"" + a.steadyLimits + "\" gives no limit (e.g. 20%,10%)"});
            return false;
        }
        if (!range.empty()
            && !parsePercentArg(range, steady.criteria.rangeLimit, "--steady-limits", problems))
            return false;
        if (!slope.empty()
            && !parsePercentArg(slope, steady.criteria.slopeLimit, "--steady-limits", problems))
            return false;
    }
    return true;
}

void describeChanges(Profile &p, const RunArgs &a)
{
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
            std::tuple {"--passes", a.passes.has_value(), false},
            std::tuple {"--pause", !a.pause.empty(), false},
            std::tuple {"--steady-state", !a.steadyState.empty(), false},
            std::tuple {"--precondition", !a.precondition.empty(), false},
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
}

} // namespace

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
    if (!applyWorkerCount(host, a, problems) || !applySpecOptions(p, a, problems))
        return false;
    if (a.qd)
        setOutstandingIosEverywhere(p, *a.qd); // above the spec's and the targets' values
    if (!applyTargets(host, a, problems) || !applyTargetOptions(host, a, problems)
        || !applyTimes(p.setup, a, problems) || !applySteadyState(p.setup, a, problems)
        || !applyPrecondition(p.setup, a, problems) || !applySeriesOptions(p, a, problems))
        return false;
    describeChanges(p, a);
    return true;
}

namespace {

// What runs: the profile, the preset, the targets and the specs.
void addWorkloadOptions(CLI::App &command, RunArgs &a)
{
    command.add_option("PROFILE", a.profilePath, "Profile file (.json or Iometer .icf)");
    command.add_option(
        "--preset", a.preset, "Built-in preset to start from (default: quick; see `presets`)");
    command.add_option("--target", a.targets,
        "Target path, repeatable: a test file, a directory (ioprism-test.dat inside it; a "
        "file tree IOPrism made there is run as that tree), or a block device / partition. "
        "Replaces the profile's targets");
    command.add_option(
        "--spec", a.specs, "Access specification to run, repeatable, in order (by name)");
    command.add_option(
        "--bs", a.bs, "Transfer size (4k, 64KiB, 1M; binary units): runs one custom spec");
    command.add_option("--read", a.read, "Percent reads, 0-100 (custom spec)");
    command.add_option("--random", a.random, "Percent random, 0-100 (custom spec)");
    command.add_option("--rw", a.rw,
        "fio's access mode: read, write, randread, randwrite, rw (readwrite), randrw; sets "
        "--read and --random (custom spec)");
    command.add_option(
        "--rwmixread", a.rwmixread, "With --rw rw or randrw: percent reads (fio's; default 50)");
    command.add_option("--rwmixwrite", a.rwmixwrite,
        "With --rw rw or randrw: percent writes (fio's; reads = 100 - this)");
    command.add_option("--qd,--iodepth", a.qd,
        "Outstanding I/Os per target per worker (overrides presets' queue depths)");
    command.add_option(
        "--workers,--numjobs", a.workers, "Number of workers (copies of the first worker)");
    command.add_option("--duration,--runtime", a.duration,
        "Measured time per spec (90, 90s, 1m30s; 0 = until Ctrl-C)");
    command.add_option("--ramp", a.ramp, "Ramp-up before measuring, not recorded (e.g. 5s)");
    command.add_option("--interval", a.interval, "Sampling interval, 100ms to 60s (default 1s)");
    command.add_option("--passes", a.passes,
        "Run every step N times in a row, 1 to 100, each pass kept as a step of its own; the "
        "summary shows the best pass with the passes' mean and spread (CrystalDiskMark's "
        "passes). Not with --sweep: a series repeats with --repeat");
    command.add_option("--pause", a.pause,
        "Pause this long (whole seconds) before each test but the first, with no I/O, so that a "
        "drive can drain its SLC cache (CrystalDiskMark's interval; not between the passes of "
        "a test)");
    command.add_option("--steady-state", a.steadyState,
        "Stop each step at steady state instead of --duration: rounds (--steady-round) "
        "until the last --steady-window of them are steady by the rule, at most "
        "--steady-rounds. Rules: pts (SNIA PTS: range <= 20 % and the fitted line's "
        "excursion <= 10 % of the window's mean), fio-deviation (fio's iops:X%: every "
        "round within X % of the mean), fio-slope (fio's iops_slope:X%), none (remove the "
        "profile's rule). The results keep every round and the window (docs/ssd-testing.md)");
    command.add_option("--steady-metric", a.steadyMetric,
        "What a round's figure is: iops (default), mbps, mean, p99, p99.9 (latency, µs)");
    command.add_option("--steady-round", a.steadyRound,
        "Length of a round (default 60s, as PTS; at least --interval)");
    command.add_option("--steady-window", a.steadyWindow, "Rounds judged together (default 5)");
    command.add_option("--steady-rounds", a.steadyRounds,
        "Round limit: after it the step ends \"steady state not reached\" (default 25)");
    command.add_option("--precondition", a.precondition,
        "Write the targets before the first step, measured apart and in no step's figures "
        "(SNIA PTS's preconditioning): sequential[:Nx] (128 KiB sequential writes at QD 32, N "
        "times each target's region; default 2x, as PTS), workload[:Nx|:TIME] (the first "
        "step's own workload for N times the region, default 2x, or for a time, e.g. 30m), "
        "none (remove the profile's). Writes: raw devices need --allow-device-writes "
        "(docs/ssd-testing.md)");
    command.add_option("--steady-limits", a.steadyLimits,
        "RANGE%[,SLOPE%]: the rule's limits (default 20%,10%; fio-deviation uses RANGE, "
        "fio-slope SLOPE); a side left empty keeps its limit (,5%)");
}

// How it runs: the engine, caching, the file tree, the seed.
void addEngineOptions(CLI::App &command, RunArgs &a)
{
    command
        .add_option("--engine", a.engine,
            "I/O engine: auto (io_uring on Linux, else sync; iocp on Windows), io_uring, iocp, "
            "sync, null (no I/O and no file opened: its latencies and open/close times are "
            "IOPrism's own overhead)")
        ->capture_default_str();
    command.add_flag("--buffered", a.buffered, "Use the OS cache (default: direct I/O, O_DIRECT)");
    command.add_flag("--poll,--hipri", a.pollCompletions,
        "Peak mode, io_uring only: polled completions (IOPOLL; fio's hipri), each worker "
        "spinning on the device's completion queue instead of sleeping until its interrupt. "
        "Direct I/O to devices whose queue polls (/sys/block/DEV/queue/io_poll = 1: NVMe with "
        "nvme.poll_queues=N); any other target is refused before the run. Takes a CPU per worker");
    command.add_flag("--sqpoll,--sqthread-poll", a.pollSubmissions,
        "io_uring only: a kernel thread per worker (iou-sqp) takes its requests without a system "
        "call (SQPOLL; fio's sqthread_poll). Busy until 1 s after the last I/O: a CPU per worker");
    command
        .add_option("--reap-batch,--iodepth_batch_complete_min", a.reapBatch,
            "Completions each worker waits for before taking them (fio's "
            "iodepth_batch_complete_min; at most the I/Os it has in flight). 1 (default): each "
            "I/O is taken as it completes and the device keeps the queue depth asked for; more "
            "(e.g. half the queue depth) saves wake-ups where the host, not the device, is the "
            "limit (a RAM disk, a fast NVMe on few cores). Each I/O's latency runs until it is "
            "taken")
        ->check(CLI::Range(1u, 65536u))
        ->capture_default_str();
    command.add_option("--file-size,--size", a.fileSize,
        "Size of test files (e.g. 1GiB); with --tree DEPTH:FILES, the size of the tree's files");
    command.add_option("--tree", a.tree,
        "io_profile's file tree instead of one test file: DEPTH:FILES[:SIZE] (e.g. 3:4:4MiB; "
        "without SIZE, --file-size or 4MiB). "
        "Each I/O opens a random file of the tree, does the I/O and closes it. Made in the "
        "--target folder (in ioprism-tree inside a folder IOPrism did not make)");
    command.add_option("--pre-init", a.preInit,
        "With --tree (file-tree targets only): operations over the tree before the first "
        "step is measured, not recorded (io_profile's pre-initialisation); Ctrl-C stops it");
    command.add_option("--connection-rate", a.connectionRate,
        "Iometer's test connection rate: close and reopen each target every N transactions "
        "(0 = off); the connection figures are in the results");
    command.add_option(
        "--seed", a.seed, "Fixed random seed for every worker (default: random, recorded)");
}

// What it writes, and the series.
void addOutputOptions(CLI::App &command, RunArgs &a)
{
    command.add_option("--csv", a.csvPath,
        "Write Iometer-layout results CSV here (all output paths are checked before the run; "
        "if writing fails at the end, results go to ./ioprism-results-<time>.csv). For this and "
        "--json, --timeseries, --series-csv: - is stdout (one of them), and the rest of the "
        "output then goes to stderr");
    command.add_option("--timeseries", a.timeseriesPath,
        "Write one CSV row per interval per scope here (- stdout)");
    command.add_option("--json", a.jsonPath,
        "Write full JSON results here, - for stdout (if writing fails at the end: "
        "./ioprism-results-<time>.json)");
    command.add_option("--series-csv", a.seriesCsvPath,
        "Write the series here (- stdout): one row per point, its swept values, then IOPS, MB/s, "
        "latency percentiles, CPU and the device's figures (median of the trials)");
    command.add_option("--sweep", a.sweeps,
        "Run a series: PARAM=FROM..TO:xM, PARAM=FROM..TO:+N or PARAM=V1,V2,... with PARAM bs, "
        "qd, workers, read, random or position (% of each target: a point's I/O is in its zone, "
        "up to the next value) (e.g. bs=512..16M:x2, qd=1..256:x2, position=0..99:+1); twice "
        "for a matrix");
    command.add_option("--repeat", a.repeat, "Series: run the whole series N times (trials)");
    command.add_option("--ops", a.ops,
        "Series: each point does N I/Os per worker and target instead of --duration");
    command.add_option("--stagger", a.stagger, "Series: worker n starts n x this after the first");
    command.add_flag("--targets-in-turn", a.targetsInTurn,
        "Series: each point runs on each target alone, one after the other");
}

// Safety, saving, what is printed, and the limits of waiting.
void addControlOptions(CLI::App &command, RunArgs &a)
{
    command.add_flag("--allow-device-writes", a.allowDeviceWrites,
        "Confirm writing to a raw block device or partition (destroys its data; refused while "
        "mounted)");
    command.add_flag("--remove-test-files", a.removeTestFiles,
        "Remove the test files IOPrism created, after the run");
    command.add_flag("--no-save", a.noSave,
        "Do not save this run in the run library (see `ioprism-cli history`)");
    command.add_flag("--quiet,-q", a.quiet, "No progress or interval lines; only the summary");
    command.add_flag("--verbose,-v", a.verbose,
        "Also print the resolved plan (workers, seeds, targets and their devices, what each step "
        "runs), the engine, and when each notice came");
    command
        .add_option("--device-tolerance", a.deviceTolerancePercent,
            "Percent by which the device's bytes may differ from the application's and still agree")
        ->capture_default_str();
    command
        .add_option("--device-tail", a.deviceTail,
            "After the last step, watch the devices this long at most for pending write-back (0 = "
            "not)")
        ->capture_default_str();
    command
        .add_option("--stall-threshold", a.stallThreshold,
            "Report I/O in flight longer than this as stalled, while the run goes (0 = never)")
        ->capture_default_str();
    command.add_option("--stonewall", a.stonewall,
        "Each step ends once a host has read and written this much while measuring (e.g. "
        "4GiB); with --manager or under MPI, every host's step ends as soon as the first "
        "host's has, each keeping the bytes it really moved (IOR's stonewalling). The run "
        "time still bounds the step");
    command
        .add_option("--stop-timeout", a.stopTimeout,
            "After a step or Stop, wait this long at most for in-flight I/O; then write the "
            "results with the stuck I/O named (a second Ctrl-C: at once)")
        ->capture_default_str();
}

} // namespace

void addRunOptions(CLI::App &command, RunArgs &a)
{
    addWorkloadOptions(command, a);
    addEngineOptions(command, a);
    addOutputOptions(command, a);
    addControlOptions(command, a);
    command
        .add_option("--manager", a.managers,
            "Run on this agent (ioprism-agent at host, host:port or [v6]:port; \"local\" = "
            "this host too); repeatable: every manager starts each step together, results "
            "have each manager and All managers (docs/agents.md). \"profile\" (alone): the "
            "profile's hosts, each on the agent at its network address (an .icf's \"Manager "
            "network address\"), this host where it has none")
        ->group("Agents");
    addAgentAccessOptions(command, a.agentAccess);
}

} // namespace ioprism::cli
