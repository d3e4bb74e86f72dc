// SPDX-License-Identifier: GPL-3.0-or-later
// Iometer .icf export, in the layout Iometer's own writer produces (CPageSetup,
// AccessSpecList, Manager and Worker SaveConfig in Iometer 1.1.0); docs/icf.md lists it.
#include "core/profile/icf_internal.h"
#include "core/profile/names.h"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>

namespace ioprism::core {
namespace {

using namespace icf_detail;

class Writer
{
public:
    explicit Writer(Problems &warnings)
        : m_warnings(warnings)
    { }

    std::string write(const Profile &p)
    {
        line(kVersionLine);
        writeTestSetup(p.setup);
        writeResultsDisplay(p.icfResultsDisplay);
        writeAccessSpecs(p.specs);
        writeManagerList(p);
        line(kVersionLine);
        return std::move(m_out);
    }

private:
    void line(std::string_view s)
    {
        m_out += s;
        m_out += '\n';
    }
    void value(std::string_view s)
    {
        m_out += '\t';
        line(s);
    }
    void title(std::string_view name)
    {
        std::string t = fmt::format("'{} ", name);
        if (t.size() < kTitleWidth)
            t.append(kTitleWidth - t.size(), '=');
        line(t);
    }
    void warn(std::string path, std::string message)
    {
        m_warnings.push_back({Severity::Warning, std::move(path), std::move(message)});
    }

    // A value must stay on one line, and be text: the reader takes a control byte (a NUL,
    // DEL, the Ctrl-Z where Windows' text streams end) for a binary file.
    std::string oneLine(std::string_view text, const std::string &path)
    {
        std::string s(text);
        bool breaks = false, controls = false;
        for (char &c : s) {
            const auto b = static_cast<unsigned char>(c);
            if (c == '\r' || c == '\n') {
                c = ' ';
                breaks = true;
            } else if ((b < 0x20 && c != '\t') || b == 0x7f) {
                c = ' ';
                controls = true;
            }
        }
        if (breaks)
            warn(path, "line breaks replaced by spaces (an .icf value is one line)");
        if (controls)
            warn(path, "control characters replaced by spaces (an .icf file is plain text)");
        return s;
    }

    // Iometer reads a spec name up to its first comma, and only these characters.
    std::string specName(std::string_view name, const std::string &path)
    {
        std::string s = oneLine(name, path);
        if (s.find(',') != std::string::npos) {
            std::replace(s.begin(), s.end(), ',', '-');
            warn(path, fmt::format("Iometer names cannot hold commas; written as {}", quote(s)));
        }
        static constexpr std::string_view kTokenChars
            = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz1234567890"
              "`~!@#$%^&*()-_=+[]{}\\:;\"'./<>? ";
        const auto first = s.find_first_not_of(kTokenChars);
        if (first != std::string::npos)
            warn(path,
                fmt::format("Iometer reads this name only up to the character at offset "
                            "{}, as {}",
                    first, quote(trim(std::string_view(s).substr(0, first)))));
        return s;
    }

    std::uint64_t clampInt(std::uint64_t v, const std::string &path)
    {
        if (v <= kIntMax)
            return v;
        warn(path,
            fmt::format(
                "{} is too large for Iometer (at most {}); {} written", v, kIntMax, kIntMax));
        return kIntMax;
    }

    std::uint64_t seconds(std::chrono::seconds s, const std::string &path)
    {
        if (s.count() >= 0)
            return static_cast<std::uint64_t>(s.count());
        warn(path, "a negative duration cannot be written; 0 written");
        return 0;
    }

    static std::string_view stepName(StepType t)
    {
        return t == StepType::Exponential ? "EXPONENTIAL" : "LINEAR";
    }

    void writeTestSetup(const TestSetup &s)
    {
        title("TEST SETUP");
        line("'Test Description");
        value(oneLine(s.description, "setup.description"));

        const std::uint64_t run = seconds(s.runTime, "setup.runTime");
        line("'Run Time");
        line(fmt::format("'\t{:<11}{:<11}{}", "hours", "minutes", "seconds"));
        line(fmt::format("\t{:<11}{:<11}{}", clampInt(run / 3600, "setup.runTime"),
            (run % 3600) / 60, run % 60));

        line("'Ramp Up Time (s)");
        value(std::to_string(clampInt(seconds(s.rampUp, "setup.rampUp"), "setup.rampUp")));

        line("'Default Disk Workers to Spawn");
        value(s.defaultDiskWorkers
                ? std::to_string(clampInt(*s.defaultDiskWorkers, "setup.defaultDiskWorkers"))
                : std::string("NUMBER_OF_CPUS"));
        line("'Default Network Workers to Spawn");
        value(std::to_string(clampInt(s.defaultNetworkWorkers, "setup.defaultNetworkWorkers")));

        line("'Record Results");
        switch (s.recordFilter) {
        case RecordFilter::All:
            value("ALL");
            break;
        case RecordFilter::NoTargets:
            value("NO_TARGETS");
            break;
        case RecordFilter::NoWorkers:
            warn("setup.recordFilter",
                "Iometer cannot drop worker rows and keep target rows; "
                "ALL written");
            value("ALL");
            break;
        case RecordFilter::NoTargetsNoWorkers:
            value("NO_WORKERS");
            break;
        case RecordFilter::None:
            value("NONE");
            break;
        }

        writeCycling("Worker Cycling", s.workerCycling, "setup.workerCycling", false);
        writeCycling("Disk Cycling", s.targetCycling, "setup.targetCycling", false);
        writeCycling("Queue Depth Cycling", s.queueDepthCycling, "setup.queueDepthCycling", true);

        line("'Test Type");
        const auto index = static_cast<std::size_t>(
            std::find(kTestTypes.begin(), kTestTypes.end(), s.testType) - kTestTypes.begin());
        value(index < kTestTypeNames.size() ? kTestTypeNames[index] : kTestTypeNames[0]);
        line("'END test setup");
        if (s.series)
            warn("setup.series",
                "a series is an IOPrism extension; not written (Iometer runs one step per spec, "
                "or its own cycling)");
        if (s.precondition)
            warn("setup.precondition",
                "preconditioning is an IOPrism extension; not written (Iometer writes no "
                "target before its steps)");
        if (s.passes != 1 || s.pauseBetweenTests.count() != 0)
            warn("setup.passes",
                "passes and a pause between tests are IOPrism extensions; not written "
                "(Iometer runs each step once, one after the other)");
        if (s.steadyState)
            warn("setup.steadyState",
                "a steady-state stop rule is an IOPrism extension; not written (Iometer runs "
                "each step for its run time)");

        if (s.interval != TestSetup {}.interval)
            warn("setup.interval",
                fmt::format("{} ms: the sampling interval has no place in "
                            "an .icf file; not written",
                    s.interval.count()));
    }

    void writeCycling(
        std::string_view name, const Cycling &c, const std::string &path, bool withEnd)
    {
        line(fmt::format("'{}", name));
        const std::uint64_t start = clampInt(c.start, path + ".start");
        const std::uint64_t step = clampInt(c.step, path + ".step");
        if (withEnd) {
            line(fmt::format("'\t{:<11}{:<11}{:<11}{}", "start", "end", "step", "step type"));
            line(fmt::format("\t{:<11}{:<11}{:<11}{}", start, clampInt(c.end, path + ".end"), step,
                stepName(c.stepType)));
        } else {
            line(fmt::format("'\t{:<11}{:<11}{}", "start", "step", "step type"));
            line(fmt::format("\t{:<11}{:<11}{}", start, step, stepName(c.stepType)));
            if (c.end != Cycling {}.end)
                warn(path + ".end",
                    fmt::format("{}: Iometer's {} has no end; not written", c.end, name));
        }
    }

    void writeResultsDisplay(const std::vector<std::string> &entries)
    {
        title("RESULTS DISPLAY");
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const std::string text = oneLine(entries[i], fmt::format("icfResultsDisplay[{}]", i));
            if (!text.empty() && text.front() == '\'')
                line(text);
            else
                value(text);
        }
        line("'END results display");
    }

    void writeAccessSpecs(const std::vector<AccessSpec> &specs)
    {
        title("ACCESS SPECIFICATIONS");
        for (std::size_t i = 0; i < specs.size(); ++i) {
            const AccessSpec &spec = specs[i];
            const std::string path = fmt::format("specs[{}]", i);
            line("'Access specification name,default assignment");
            const auto a = static_cast<std::size_t>(
                std::find(kAssignments.begin(), kAssignments.end(), spec.defaultAssignment)
                - kAssignments.begin());
            value(fmt::format("{},{}", specName(spec.name, path + ".name"),
                a < kAssignmentNames.size() ? kAssignmentNames[a] : "NONE"));
            line("'size,% of size,% reads,% random,delay,burst,align,reply");
            if (spec.lines.size() > kMaxSpecLines)
                warn(path + ".lines",
                    fmt::format(
                        "{} lines: Iometer loads at most {}", spec.lines.size(), kMaxSpecLines));
            for (std::size_t j = 0; j < spec.lines.size(); ++j)
                writeSpecLine(spec.lines[j], fmt::format("{}.lines[{}]", path, j));
            if (spec.queueDepth)
                warn(path + ".queueDepth",
                    "per-spec queue depth is an IOPrism extension; not "
                    "written (the workers' outstanding IOs apply)");
            if (spec.threads)
                warn(path + ".threads",
                    "per-spec thread count is an IOPrism extension; not "
                    "written");
        }
        line("'END access specifications");
    }

    void writeSpecLine(const SpecLine &l, const std::string &path)
    {
        const std::int64_t delayMs = l.delay.count();
        std::uint64_t delay = 0;
        if (delayMs < 0)
            warn(path + ".delay", "a negative delay cannot be written; 0 written");
        else
            delay = clampInt(static_cast<std::uint64_t>(delayMs), path + ".delay");
        value(fmt::format("{},{},{},{},{},{},{},{}",
            clampInt(l.transferSizeBytes, path + ".transferSizeBytes"),
            clampInt(l.sharePercent, path + ".sharePercent"),
            clampInt(l.percentRead, path + ".percentRead"),
            clampInt(l.percentRandom, path + ".percentRandom"), delay,
            clampInt(l.burstLength, path + ".burstLength"),
            clampInt(l.alignmentBytes, path + ".alignmentBytes"),
            clampInt(l.replySizeBytes, path + ".replySizeBytes")));
        if (l.distribution.kind != DistributionKind::Uniform)
            warn(path + ".distribution",
                "Iometer only draws uniform random offsets; the "
                "distribution is not written");
        if (l.rateLimit != RateLimit {})
            warn(path + ".rateLimit", "rate limits are an IOPrism extension; not written");
        if (l.thinkTime != std::chrono::microseconds {0})
            warn(path + ".thinkTime",
                "think time is an IOPrism extension; not written (Iometer "
                "only has the delay before each burst)");
        if (l.dataPattern)
            warn(path + ".dataPattern",
                "Iometer sets the data pattern per worker; the line's "
                "pattern is not written");
    }

    void writeManagerList(const Profile &p)
    {
        title("MANAGER LIST");
        for (std::size_t h = 0; h < p.hosts.size(); ++h) {
            const Host &host = p.hosts[h];
            const std::string path = fmt::format("hosts[{}]", h);
            line("'Manager ID, manager name");
            value(fmt::format(
                "{},{}", clampInt(host.id, path + ".id"), oneLine(host.name, path + ".name")));
            line("'Manager network address");
            value(oneLine(host.networkAddress, path + ".networkAddress"));
            for (std::size_t w = 0; w < host.workers.size(); ++w)
                writeWorker(p, host.workers[w], fmt::format("{}.workers[{}]", path, w));
            line("'End manager");
        }
        line("'END manager list");
    }

    static int patternNumber(DataPatternKind k)
    {
        switch (k) {
        case DataPatternKind::RepeatingBytes:
        case DataPatternKind::Zeros:
            return 0;
        case DataPatternKind::PseudoRandom:
            return 1;
        case DataPatternKind::FullRandom:
        case DataPatternKind::Compressible:
            return 2;
        }
        return 2;
    }

    void writeWorker(const Profile &p, const Worker &w, const std::string &path)
    {
        const bool network = w.type == WorkerType::Network;
        line("'Worker");
        value(oneLine(w.name, path + ".name"));
        line("'Worker type");
        value(network ? "NETWORK,TCP" : "DISK");

        line("'Default target settings for worker");
        line("'Number of outstanding IOs,test connection rate,transactions per connection,use "
             "fixed seed,fixed seed value");
        value(fmt::format("{},{},{},{},{}", clampInt(w.outstandingIos, path + ".outstandingIos"),
            w.testConnectionRate ? "ENABLED" : "DISABLED",
            clampInt(w.transactionsPerConnection, path + ".transactionsPerConnection"),
            w.seed ? "ENABLED" : "DISABLED", w.seed.value_or(0)));
        if (!network) {
            const Region r = sectorRegion(w.defaultRegion, path + ".defaultRegion");
            line("'Disk maximum size,starting sector,Data pattern");
            value(fmt::format("{},{},{}", r.sizeBytes / kIcfSectorBytes,
                r.offsetBytes / kIcfSectorBytes, patternNumber(w.dataPattern.kind)));
            warnDataPattern(w.dataPattern, path + ".dataPattern");
        } else if (w.dataPattern != Worker {}.dataPattern
            && w.dataPattern.kind != DataPatternKind::PseudoRandom) {
            warn(path + ".dataPattern",
                "network workers have no data pattern in .icf files; "
                "not written");
        }
        line("'End default target settings for worker");

        line("'Assigned access specs");
        for (std::size_t i = 0; i < w.assignedSpecs.size(); ++i) {
            const std::string &name = w.assignedSpecs[i];
            const std::string specPath = fmt::format("{}.assignedSpecs[{}]", path, i);
            // The same rewriting as the spec's own name, without repeating its warnings.
            std::string written = oneLine(name, specPath);
            if (findSpec(p, name) != nullptr)
                std::replace(written.begin(), written.end(), ',', '-');
            value(written);
        }
        line("'End assigned access specs");

        line("'Target assignments");
        for (std::size_t t = 0; t < w.targets.size(); ++t) {
            const std::string targetPath = fmt::format("{}.targets[{}]", path, t);
            if (network) {
                warn(targetPath,
                    "IOPrism holds no network targets for Iometer's network "
                    "workers; not written");
                continue;
            }
            writeTarget(w, w.targets[t], targetPath);
        }
        line("'End target assignments");
        line("'End worker");

        if (!w.cpuAffinity.empty())
            warn(path + ".cpuAffinity", "CPU affinity is an IOPrism extension; not written");
    }

    void warnDataPattern(const DataPattern &d, const std::string &path)
    {
        switch (d.kind) {
        case DataPatternKind::Zeros:
            warn(path, "Iometer has no all-zero pattern; repeating bytes (0) written");
            break;
        case DataPatternKind::Compressible:
            warn(path, "Iometer has no compressible pattern; full random (2) written");
            break;
        case DataPatternKind::RepeatingBytes:
            if (d.repeatingByte != DataPattern {}.repeatingByte)
                warn(path + ".repeatingByte",
                    "Iometer chooses the repeated byte itself; not "
                    "written");
            break;
        case DataPatternKind::PseudoRandom:
        case DataPatternKind::FullRandom:
            break;
        }
    }

    // Iometer counts in 512-byte sectors: the start is rounded down and the size up, so
    // the written region still covers the profile's.
    Region sectorRegion(const Region &r, const std::string &path)
    {
        Region out = r;
        if (r.offsetBytes % kIcfSectorBytes == 0 && r.sizeBytes % kIcfSectorBytes == 0)
            return out;
        out.offsetBytes = r.offsetBytes / kIcfSectorBytes * kIcfSectorBytes;
        const std::uint64_t end = r.offsetBytes + r.sizeBytes;
        const std::uint64_t endSectors = end / kIcfSectorBytes + (end % kIcfSectorBytes ? 1 : 0);
        out.sizeBytes = r.sizeBytes == 0 ? 0 : endSectors * kIcfSectorBytes - out.offsetBytes;
        warn(path,
            fmt::format("offset {} and size {} bytes are not whole 512-byte sectors; "
                        "written as sectors {} + {}",
                r.offsetBytes, r.sizeBytes, out.offsetBytes / kIcfSectorBytes,
                out.sizeBytes / kIcfSectorBytes));
        return out;
    }

    void writeTarget(const Worker &w, const Target &t, const std::string &path)
    {
        line("'Target");
        value(oneLine(t.path, path + ".path"));
        line("'Target type");
        value("DISK");
        line("'End target");

        const TargetKind implied = icfTargetKind(t.path);
        if (implied != t.kind)
            warn(path + ".kind",
                fmt::format(".icf files carry no target kind; {} will be read "
                            "back as a {} target, not a {} one",
                    quote(t.path), targetKindWords(implied), targetKindWords(t.kind)));
        if (t.kind == TargetKind::FileTree)
            warn(path + ".tree",
                "Iometer has no file trees (an IOPrism extension): the tree's folder is "
                "written as a disk target");
        if (t.kind == TargetKind::TestFile && !isIometerVolumeName(t.path))
            warn(path + ".path",
                fmt::format("Iometer names a test-file target by its volume "
                            "(`C:`, `/mnt/data [ext4]`) and creates iobw.tst "
                            "there; {} must be re-pointed in Iometer",
                    quote(t.path)));
        if (t.region != w.defaultRegion)
            warn(path + ".region",
                "Iometer has one disk region per worker; the worker's "
                "defaultRegion is written instead");
        if (t.kind == TargetKind::TestFile) {
            const std::uint64_t impliedSize = w.defaultRegion.sizeBytes > 0
                ? w.defaultRegion.offsetBytes + w.defaultRegion.sizeBytes
                : Target {}.testFileSizeBytes;
            if (t.testFileSizeBytes != impliedSize)
                warn(path + ".testFileSizeBytes",
                    "Iometer sizes its test file by the worker's disk maximum size; the "
                    "test-file size is not written");
        }
        if (t.cacheMode != CacheMode::Direct)
            warn(path + ".cacheMode",
                "Iometer always bypasses the OS cache; buffered I/O is "
                "not written");
        if (t.writeThrough)
            warn(path + ".writeThrough", "write-through is an IOPrism extension; not written");
        if (t.outstandingIos && *t.outstandingIos != w.outstandingIos)
            warn(path + ".outstandingIos",
                "Iometer sets outstanding IOs per worker; the "
                "target's own value is not written");
    }

    Problems &m_warnings;
    std::string m_out;
};

} // namespace

std::string writeIcf(const Profile &profile, Problems &warnings)
{
    try {
        Writer writer(warnings);
        return writer.write(profile);
    } catch (...) {
        return {};
    }
}

} // namespace ioprism::core
