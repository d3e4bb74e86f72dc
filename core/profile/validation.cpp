// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/validation.h"

#include "core/profile/icf.h"
#include "core/profile/names.h"
#include "core/profile/series.h"
#include "core/profile/units.h"
#include "core/workload/file_tree.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ioprism::core {

namespace {

constexpr std::chrono::hours kMaxRunTime {24 * 100};
// Rounds of a steady-state rule: a window and a limit (PTS: 5 and 25).
constexpr std::size_t kMaxSteadyRounds = 10'000;
constexpr std::chrono::hours kMaxRampUp {24};
// CrystalDiskMark offers 1 to 9 passes; a hundred is far beyond any use.
constexpr std::uint32_t kMaxPasses = 100;
constexpr std::chrono::milliseconds kMinInterval {100};
constexpr std::chrono::milliseconds kMaxInterval {60'000};
// Hot-zone percents are doubles; allow the rounding of a few decimal additions.
constexpr double kPercentSumTolerance = 1e-6;

std::string join(const std::string &base, std::string_view key)
{
    return base.empty() ? std::string(key) : base + "." + std::string(key);
}

std::string at(const std::string &base, std::size_t index)
{
    return base + "[" + std::to_string(index) + "]";
}

std::string quoted(const std::string &s)
{
    return "\"" + s + "\"";
}

// Where a target's I/O lands: its own region when it has one, else its worker's.
const Region &effectiveRegion(const Worker &worker, const Target &target)
{
    return target.region == Region {} ? worker.defaultRegion : target.region;
}

struct TargetRef {
    std::string path; // hosts[h].workers[w].targets[t]
    const Worker *worker;
    const Target *target;
};

class Validator
{
public:
    Validator(const Profile &profile, const ValidationOptions &options)
        : m_profile(profile)
        , m_options(options)
    { }

    Problems run()
    {
        indexTargetsBySpec();
        checkSetup(m_profile.setup);
        checkSpecs();
        checkHosts();
        return std::move(m_problems);
    }

private:
    void error(const std::string &path, std::string message)
    {
        add(Severity::Error, path, std::move(message));
    }

    void warning(const std::string &path, std::string message)
    {
        add(Severity::Warning, path, std::move(message));
    }

    // Drops exact repeats: a spec run by many workers on the same device would otherwise
    // say the same thing once per worker.
    void add(Severity severity, const std::string &path, std::string message)
    {
        Problem p {severity, path, std::move(message)};
        if (m_seen.insert(p.toString()).second)
            m_problems.push_back(std::move(p));
    }

    void checkRange(
        const std::string &path, std::uint64_t value, std::uint64_t min, std::uint64_t max)
    {
        if (value < min)
            error(path, fmt::format("{} is below {}", value, min));
        else if (value > max)
            error(path, fmt::format("{} is above {}", value, max));
    }

    void checkNonNegative(const std::string &path, double value)
    {
        if (!std::isfinite(value))
            error(path, fmt::format("{} is not a finite number", value));
        else if (value < 0)
            error(path, fmt::format("{} is negative", value));
    }

    void checkPositive(const std::string &path, double value)
    {
        if (!(value > 0))
            error(path, fmt::format("{} is not above 0", value));
    }

    template<typename Duration> bool checkNotNegative(const std::string &path, Duration d)
    {
        if (d.count() >= 0)
            return true;
        error(path, formatDuration(d) + " is negative");
        return false;
    }

    // ---------------------------------------------------------------- setup

    void checkSetup(const TestSetup &s)
    {
        if (checkNotNegative("setup.runTime", s.runTime) && s.runTime > kMaxRunTime)
            error("setup.runTime",
                formatDuration(s.runTime) + " is above " + formatDuration(kMaxRunTime)
                    + " (100 days)");
        if (checkNotNegative("setup.rampUp", s.rampUp) && s.rampUp > kMaxRampUp)
            error("setup.rampUp",
                formatDuration(s.rampUp) + " is above " + formatDuration(kMaxRampUp) + " (1 day)");
        // No rule between rampUp and runTime: the ramp-up comes before the run time (as in
        // Iometer), so any ramp-up leaves the whole run time measured.
        if (s.interval < kMinInterval)
            error("setup.interval",
                formatDuration(s.interval) + " is below " + formatDuration(kMinInterval));
        else if (s.interval > kMaxInterval)
            error("setup.interval",
                formatDuration(s.interval) + " is above " + formatDuration(kMaxInterval));
        if (s.defaultDiskWorkers)
            checkRange("setup.defaultDiskWorkers", *s.defaultDiskWorkers, 0, kMaxWorkersPerHost);
        checkRange("setup.defaultNetworkWorkers", s.defaultNetworkWorkers, 0, kMaxWorkersPerHost);
        checkCycling("setup.workerCycling", s.workerCycling, false);
        checkCycling("setup.targetCycling", s.targetCycling, false);
        checkCycling("setup.queueDepthCycling", s.queueDepthCycling, true);
        if (s.series)
            checkSeries(*s.series, s.testType);
        if (s.steadyState)
            checkSteadyState(*s.steadyState, s);
        if (s.precondition)
            checkPrecondition(*s.precondition);
        checkRange("setup.passes", s.passes, 1, kMaxPasses);
        if (s.series && s.passes > 1)
            error("setup.passes",
                "a series runs its points again as trials (setup.series.repeat), each point's "
                "median kept: passes are for a test of steps");
        if (checkNotNegative("setup.pauseBetweenTests", s.pauseBetweenTests)
            && s.pauseBetweenTests > kMaxRampUp)
            error("setup.pauseBetweenTests",
                formatDuration(s.pauseBetweenTests) + " is above " + formatDuration(kMaxRampUp)
                    + " (1 day)");
    }

    // ---------------------------------------------------------------- preconditioning

    void checkPrecondition(const PreconditionSetup &p)
    {
        const std::string path = "setup.precondition";
        const bool byCapacity = !p.forATime();
        if (p.kind == PreconditionKind::Sequential && p.time.count() != 0)
            error(path + ".time",
                "sequential preconditioning writes a capacity multiple; a time is for "
                "\"workload\" preconditioning");
        if (checkNotNegative(path + ".time", p.time) && p.time > kMaxRunTime)
            error(path + ".time",
                formatDuration(p.time) + " is above " + formatDuration(kMaxRunTime)
                    + " (100 days)");
        // PTS writes twice the capacity; a hundred times is days on a large disk already.
        if (byCapacity
            && (!std::isfinite(p.capacityMultiple) || !(p.capacityMultiple > 0)
                || p.capacityMultiple > 100))
            error(path + ".capacityMultiple",
                fmt::format("{} is not above 0 and at most 100 (times each target's region)",
                    p.capacityMultiple));
        for (std::size_t h = 0; h < m_profile.hosts.size(); ++h)
            for (const auto &w : m_profile.hosts[h].workers)
                for (const auto &t : w.targets)
                    if (t.kind == TargetKind::FileTree) {
                        error(path,
                            "preconditioning writes a device or a test file across its "
                            "region; "
                                + t.path + " is a file tree");
                        return;
                    }
    }

    // ---------------------------------------------------------------- steady state

    void checkSteadyState(const SteadyStateSetup &steady, const TestSetup &s)
    {
        const std::string path = "setup.steadyState";
        const SteadyStateCriteria &c = steady.criteria;
        // A round is judged on the samples it holds: at least one interval.
        if (steady.roundTime < s.interval)
            error(path + ".roundTime",
                formatDuration(steady.roundTime) + " is shorter than the sampling interval ("
                    + formatDuration(s.interval) + ")");
        checkRange(path + ".windowRounds", c.windowRounds, 2, kMaxSteadyRounds);
        checkRange(path + ".roundLimit", c.roundLimit, std::max<std::size_t>(c.windowRounds, 2),
            kMaxSteadyRounds);
        for (const auto &[key, share] :
            {std::pair {".rangePercent", c.rangeLimit}, std::pair {".slopePercent", c.slopeLimit}})
            if (!std::isfinite(share) || !(share > 0) || share > 10)
                error(path + key,
                    fmt::format("{} % is not above 0 % and at most 1000 %", share * 100));
        // Divided, not multiplied: a round of any length must not overflow the check.
        const std::chrono::milliseconds longest = kMaxRunTime;
        if (steady.roundTime.count() > 0 && c.roundLimit >= 1
            && steady.roundTime.count() > longest.count()
                    / std::int64_t(std::min<std::size_t>(
                        c.roundLimit, std::numeric_limits<std::int64_t>::max())))
            error(path + ".roundLimit",
                fmt::format("{} rounds of {} last more than {} (100 days)", c.roundLimit,
                    formatDuration(steady.roundTime), formatDuration(kMaxRunTime)));
        if (s.series && s.series->ios > 0)
            error(path,
                "a series of a number of I/Os per point (setup.series.ios) ends each point by "
                "its count: it cannot also stop each at steady state");
    }

    // ---------------------------------------------------------------- series

    void checkSeries(const Series &series, TestType testType)
    {
        const std::string path = "setup.series";
        if (testType != TestType::Normal)
            error(join(path, "axes"),
                "a series and Iometer's cycling (setup.testType " + std::string(toString(testType))
                    + ") cannot run together: keep one (the test type \"normal\" with a "
                      "series)");
        if (series.axes.empty() || series.axes.size() > 2)
            error(join(path, "axes"),
                fmt::format(
                    "{} axes: a series has one (a curve) or two (a matrix)", series.axes.size()));
        if (series.axes.size() == 2 && series.axes[0].parameter == series.axes[1].parameter)
            error(at(join(path, "axes"), 1) + ".parameter",
                "the same parameter as axes[0]: a matrix sweeps two different ones");
        for (std::size_t i = 0; i < series.axes.size(); ++i)
            checkSweepAxis(series.axes[i], at(join(path, "axes"), i));
        checkRange(join(path, "repeat"), series.repeat, 1, kMaxSeriesRepeat);
        if (checkNotNegative(join(path, "workerStagger"), series.workerStagger)
            && series.workerStagger > kMaxWorkerStagger)
            error(join(path, "workerStagger"),
                formatDuration(series.workerStagger) + " is above "
                    + formatDuration(kMaxWorkerStagger));
        checkStaggerFitsThePoint(series);
        // Each point runs on each target in turn: they multiply the steps too.
        std::size_t turns = 1;
        if (series.targetsInTurn && !m_profile.hosts.empty()) {
            std::set<std::string> paths;
            for (const auto &w : m_profile.hosts[0].workers)
                for (const auto &t : w.targets)
                    paths.insert(t.path);
            turns = std::max<std::size_t>(paths.size(), 1);
        }
        const std::size_t points = seriesPointCount(series);
        const std::size_t steps = points * series.repeat * turns;
        if (steps > kMaxSeriesSteps)
            error(path,
                fmt::format("{} points x {} trials x {} targets in turn = {} steps per spec, "
                            "more than {}",
                    points, series.repeat, turns, steps, kMaxSeriesSteps));
    }

    // Staggered workers that would start only after a timed point has ended do no I/O in
    // it: a point then measures fewer workers than the profile names, silently.
    void checkStaggerFitsThePoint(const Series &series)
    {
        const TestSetup &s = m_profile.setup;
        if (series.workerStagger.count() <= 0 || series.ios > 0 || s.runTime.count() == 0
            || m_profile.hosts.empty())
            return;
        std::uint64_t copies = 1;
        for (const auto &axis : series.axes)
            if (axis.parameter == SweepParameter::Workers)
                for (const auto v : sweepValues(axis))
                    copies = std::max(copies, v);
        const std::uint64_t workers = m_profile.hosts[0].workers.size() * copies;
        if (workers < 2)
            return;
        const auto lastStart = series.workerStagger * std::int64_t(workers - 1);
        const std::chrono::milliseconds pointEnd = s.rampUp + s.runTime;
        if (lastStart < pointEnd)
            return;
        // Workers k = 0, 1, ... start at k x stagger; those at or after the end do nothing.
        const auto starting = std::uint64_t(
            (pointEnd.count() + series.workerStagger.count() - 1) / series.workerStagger.count());
        const std::uint64_t idle = workers - starting;
        warning("setup.series.workerStagger",
            fmt::format("{} workers started {} apart: the last would start {} into a point that "
                        "lasts {} (ramp-up and run time), so {} of them do no I/O in the "
                        "largest point; shorten the stagger or lengthen the run time",
                workers, formatDuration(series.workerStagger), formatDuration(lastStart),
                formatDuration(pointEnd), idle));
    }

    void checkSweepAxis(const SweepAxis &axis, const std::string &path)
    {
        const auto checkValue = [&](const std::string &valuePath, std::uint64_t v) {
            switch (axis.parameter) {
            case SweepParameter::TransferSize:
                if (v == 0)
                    error(valuePath, "must not be 0");
                else
                    for (const auto &[name, refs] : m_targetsBySpec)
                        for (const auto &ref : refs) {
                            SpecLine line;
                            line.transferSizeBytes = v;
                            line.alignmentBytes = 0;
                            checkLineOnTarget(line, valuePath, ref, false);
                        }
                break;
            case SweepParameter::OutstandingIos:
                checkRange(valuePath, v, 1, kMaxOutstandingIos);
                break;
            case SweepParameter::Workers:
                checkRange(valuePath, v, 1, kMaxWorkersPerHost);
                break;
            case SweepParameter::PercentRead:
            case SweepParameter::PercentRandom:
                checkRange(valuePath, v, 0, 100);
                break;
            case SweepParameter::Position:
                // A zone starts at its value and is at least 1 % wide: 100 is past the end.
                checkRange(valuePath, v, 0, 99);
                break;
            }
        };
        if (!axis.values.empty()) {
            if (axis.from || axis.to || axis.multiply || axis.add)
                error(path, "give the values, or from, to and a step, not both");
            if (axis.values.size() > kMaxSweepValues)
                error(join(path, "values"),
                    fmt::format("{} values, more than {}", axis.values.size(), kMaxSweepValues));
            for (std::size_t j = 0; j < axis.values.size(); ++j)
                checkValue(at(join(path, "values"), j), axis.values[j]);
            return;
        }
        if ((axis.multiply == 0) == (axis.add == 0)) {
            error(path, "give the values, or from, to and one step: multiply (x2 ...) or add (+n)");
            return;
        }
        if (axis.multiply == 1 || axis.multiply > 1024)
            error(join(path, "multiply"),
                fmt::format("{}: a multiplying step is 2 ... 1024", axis.multiply));
        if (axis.multiply >= 2 && axis.from == 0)
            error(join(path, "from"), "must not be 0 when the step multiplies");
        if (axis.to < axis.from)
            error(join(path, "to"), fmt::format("{} is below from ({})", axis.to, axis.from));
        checkValue(join(path, "from"), axis.from);
        // Every generated value, not just the ends: 512 B + 768 B steps reach 1280 B,
        // off a 512-byte sector although both ends are on it.
        const auto values = sweepValues(axis);
        for (std::size_t j = 1; j < values.size(); ++j)
            checkValue(values[j] == values.back() ? join(path, "to") : path, values[j]);
        if (sweepValueCount(axis) > kMaxSweepValues)
            error(path, fmt::format("more than {} values", kMaxSweepValues));
    }

    // Iometer's files carry all three cyclings whatever the test type, so all are
    // checked. Iometer's code runs a start or step of 0 as 1 and an exponential step of
    // 1 as +1 (core/run/cycling.h): an .icf with them runs as it would in Iometer, with a
    // warning that says how.
    void checkCycling(const std::string &path, const Cycling &c, bool hasEnd)
    {
        if (c.start < 1)
            warning(join(path, "start"), fmt::format("{} runs as 1, as in Iometer", c.start));
        if (c.step < 1)
            warning(join(path, "step"), fmt::format("{} runs as 1, as in Iometer", c.step));
        else if (c.stepType == StepType::Exponential && c.step == 1)
            warning(join(path, "step"),
                "an exponential step of 1 runs as a linear step of 1, as in Iometer");
        if (hasEnd) {
            if (c.end < c.start)
                error(join(path, "end"), fmt::format("{} is below the start {}", c.end, c.start));
            else if (c.end > kMaxOutstandingIos)
                error(join(path, "end"), fmt::format("{} is above {}", c.end, kMaxOutstandingIos));
        }
    }

    // ---------------------------------------------------------------- specs

    void indexTargetsBySpec()
    {
        for (std::size_t h = 0; h < m_profile.hosts.size(); ++h) {
            const Host &host = m_profile.hosts[h];
            for (std::size_t w = 0; w < host.workers.size(); ++w) {
                const Worker &worker = host.workers[w];
                const std::string workerPath = at(at("hosts", h) + ".workers", w);
                std::set<std::string> done;
                for (const auto &name : worker.assignedSpecs) {
                    if (!done.insert(name).second)
                        continue;
                    for (std::size_t t = 0; t < worker.targets.size(); ++t)
                        m_targetsBySpec[name].push_back(
                            {at(workerPath + ".targets", t), &worker, &worker.targets[t]});
                }
            }
        }
    }

    void checkSpecs()
    {
        std::map<std::string, std::size_t> firstByName;
        for (std::size_t i = 0; i < m_profile.specs.size(); ++i) {
            const AccessSpec &spec = m_profile.specs[i];
            const std::string path = at("specs", i);
            if (spec.name.empty()) {
                error(join(path, "name"), "must not be empty");
            } else if (const auto [it, inserted] = firstByName.emplace(spec.name, i); !inserted) {
                error(join(path, "name"),
                    quoted(spec.name) + " is already the name of " + at("specs", it->second));
            }
            if (spec.queueDepth)
                checkRange(join(path, "queueDepth"), *spec.queueDepth, 1, kMaxOutstandingIos);
            if (spec.threads)
                checkRange(join(path, "threads"), *spec.threads, 1, kMaxSpecThreads);
            checkLines(spec, path);
        }
    }

    void checkLines(const AccessSpec &spec, const std::string &specPath)
    {
        const std::string linesPath = join(specPath, "lines");
        if (spec.lines.empty()) {
            error(linesPath, fmt::format("no lines: a specification needs 1 to {}", kMaxSpecLines));
            return;
        }
        if (spec.lines.size() > kMaxSpecLines)
            error(linesPath, fmt::format("{} lines is above {}", spec.lines.size(), kMaxSpecLines));
        std::uint64_t shareSum = 0;
        for (const auto &line : spec.lines)
            shareSum += line.sharePercent;
        if (shareSum != 100)
            error(linesPath, fmt::format("shares sum to {}, not 100", shareSum));

        const auto runsOn = m_targetsBySpec.find(spec.name);
        for (std::size_t l = 0; l < spec.lines.size(); ++l) {
            const SpecLine &line = spec.lines[l];
            const std::string path = at(linesPath, l);
            checkLine(line, path);
            if (runsOn != m_targetsBySpec.end())
                for (const auto &ref : runsOn->second)
                    checkLineOnTarget(line, path, ref);
        }
    }

    void checkLine(const SpecLine &line, const std::string &path)
    {
        if (line.transferSizeBytes == 0)
            error(join(path, "transferSize"), "must not be 0");
        checkRange(join(path, "share"), line.sharePercent, 1, 100);
        checkRange(join(path, "percentRead"), line.percentRead, 0, 100);
        checkRange(join(path, "percentRandom"), line.percentRandom, 0, 100);
        checkNotNegative(join(path, "delay"), line.delay);
        if (line.burstLength < 1)
            error(join(path, "burst"), fmt::format("{} is below 1", line.burstLength));
        checkDistribution(line.distribution, join(path, "distribution"));
        checkNonNegative(join(path, "rateLimit.iops"), line.rateLimit.iops);
        checkNonNegative(join(path, "rateLimit.mbps"), line.rateLimit.megabytesPerSecond);
        checkNotNegative(join(path, "thinkTime"), line.thinkTime);
        if (line.dataPattern)
            checkDataPattern(*line.dataPattern, join(path, "dataPattern"));
    }

    void checkDistribution(const RandomDistribution &d, const std::string &path)
    {
        switch (d.kind) {
        case DistributionKind::Uniform:
            break;
        case DistributionKind::Zipf:
            if (!(d.zipfTheta > 0))
                error(join(path, "theta"), fmt::format("{} is not above 0", d.zipfTheta));
            else if (d.zipfTheta == 1)
                error(join(path, "theta"), "1 is not allowed: zipf needs a theta other than 1");
            break;
        case DistributionKind::Pareto:
            if (!(d.paretoH > 0 && d.paretoH < 1))
                error(join(path, "h"),
                    fmt::format("{} is not between 0 and 1 (both excluded)", d.paretoH));
            break;
        case DistributionKind::Normal:
            if (!(d.normalSigmaPercent > 0))
                checkPositive(join(path, "sigmaPercent"), d.normalSigmaPercent);
            else if (d.normalSigmaPercent > 100)
                error(join(path, "sigmaPercent"),
                    fmt::format("{} is above 100", d.normalSigmaPercent));
            break;
        case DistributionKind::HotZones:
            checkHotZones(d.hotZones, join(path, "zones"));
            break;
        }
    }

    void checkHotZones(const std::vector<HotZone> &zones, const std::string &path)
    {
        if (zones.empty()) {
            error(path, "no zones: hotZones needs at least one");
            return;
        }
        double accessSum = 0;
        double regionSum = 0;
        for (std::size_t z = 0; z < zones.size(); ++z) {
            checkPositive(join(at(path, z), "access"), zones[z].accessPercent);
            checkPositive(join(at(path, z), "region"), zones[z].regionPercent);
            accessSum += zones[z].accessPercent;
            regionSum += zones[z].regionPercent;
        }
        if (!(std::fabs(accessSum - 100) <= kPercentSumTolerance))
            error(path, fmt::format("access percents sum to {}, not 100", accessSum));
        if (!(std::fabs(regionSum - 100) <= kPercentSumTolerance))
            error(path, fmt::format("region percents sum to {}, not 100", regionSum));
    }

    void checkDataPattern(const DataPattern &pattern, const std::string &path)
    {
        if (pattern.kind == DataPatternKind::Compressible)
            checkRange(join(path, "compressiblePercent"), pattern.compressiblePercent, 1, 99);
    }

    // Rules that depend on where the line runs: the region bounds the transfer size, and
    // direct I/O needs sector multiples.
    void checkLineOnTarget(
        const SpecLine &line, const std::string &path, const TargetRef &ref, bool isLine = true)
    {
        const Target &target = *ref.target;
        const Region &region = effectiveRegion(*ref.worker, target);
        const std::string name = quoted(target.path);
        // A sweep value is checked as a transfer size, under its own path.
        const std::string transferPath = isLine ? join(path, "transferSize") : path;
        const std::uint64_t transfer = line.transferSizeBytes;
        if (transfer > 0) {
            if (region.sizeBytes > 0 && transfer > region.sizeBytes) {
                error(transferPath,
                    fmt::format("{} is larger than the {} region of target {} ({})",
                        describeExactSize(transfer), describeExactSize(region.sizeBytes), name,
                        ref.path));
            } else if (fileBytesOf(target) > 0 && region.offsetBytes < fileBytesOf(target)) {
                // An offset outside the file is reported once, by checkTarget.
                const std::uint64_t left = fileBytesOf(target) - region.offsetBytes;
                // A tree's size is that of each of its files.
                const bool tree = target.kind == TargetKind::FileTree;
                if (transfer > left && region.offsetBytes == 0)
                    error(transferPath,
                        fmt::format("{} is larger than the {} {} {} ({})",
                            describeExactSize(transfer), describeExactSize(left),
                            tree ? "files of file tree" : "test file", name, ref.path));
                else if (transfer > left)
                    error(transferPath,
                        fmt::format("{} is larger than the {} left in {} {} after offset {} ({})",
                            describeExactSize(transfer), describeExactSize(left),
                            tree ? "each file of file tree" : "test file", name,
                            describeExactSize(region.offsetBytes), ref.path));
            }
        }
        const std::uint64_t sector = m_options.sectorSizeBytes;
        if (target.cacheMode != CacheMode::Direct || sector == 0)
            return;
        const auto checkMultiple = [&](const std::string &fieldPath, std::uint64_t value) {
            if (value % sector != 0)
                error(fieldPath,
                    fmt::format("{} is not a multiple of the {}-byte sector that direct I/O on "
                                "{} needs ({})",
                        describeExactSize(value), sector, name, ref.path));
        };
        checkMultiple(transferPath, transfer);
        if (!isLine)
            return;
        checkMultiple(join(path, "alignment"), line.alignmentBytes); // 0 = sector: fine
        checkMultiple(join(path, "reply"), line.replySizeBytes); // 0 = no reply: fine
    }

    // ---------------------------------------------------------------- hosts

    void checkHosts()
    {
        if (m_profile.hosts.empty()) {
            error("hosts", "no workers: add a worker");
            return;
        }
        for (std::size_t h = 0; h < m_profile.hosts.size(); ++h) {
            const Host &host = m_profile.hosts[h];
            const std::string workersPath = at("hosts", h) + ".workers";
            // IOPrism runs the first manager (this machine) only: another manager of an
            // Iometer file is kept for round trips and shown, and its problems cannot
            // stop a run, so they are warnings (checked below, then downgraded).
            const std::size_t hostStart = m_problems.size();
            const auto notRunHere = [&] {
                if (h == 0 || m_options.everyHostRuns)
                    return;
                for (std::size_t i = hostStart; i < m_problems.size(); ++i)
                    if (m_problems[i].severity == Severity::Error) {
                        m_problems[i].severity = Severity::Warning;
                        m_problems[i].message += " (this manager is not run here)";
                    }
                warning(at("hosts", h),
                    "manager " + quoted(host.name.empty() ? std::to_string(host.id) : host.name)
                        + " is not run here: IOPrism runs the first manager's workers "
                          "(hosts[0]) on this machine; its own are kept in the profile");
            };
            if (host.workers.empty())
                error(workersPath, "no workers: add a worker");
            else if (host.workers.size() > kMaxWorkersPerHost)
                error(workersPath,
                    fmt::format("{} workers is above {}", host.workers.size(), kMaxWorkersPerHost));
            std::map<std::string, std::size_t> firstByName;
            for (std::size_t w = 0; w < host.workers.size(); ++w) {
                const Worker &worker = host.workers[w];
                const std::string path = at(workersPath, w);
                if (worker.name.empty()) {
                    error(join(path, "name"), "must not be empty");
                } else if (const auto [it, inserted] = firstByName.emplace(worker.name, w);
                           !inserted) {
                    warning(join(path, "name"),
                        quoted(worker.name) + " is also the name of " + at(workersPath, it->second)
                            + ": their results would be hard to tell apart");
                }
                checkWorker(worker, path);
            }
            // Workers without targets idle (Iometer's rule), but a host none of whose
            // workers has one runs nothing at all. Network workers idle too (IOPrism has
            // no network targets yet), so a host of network workers only runs nothing
            // either, whatever targets they were given: say so rather than run no step.
            const auto runsIo
                = [](const Worker &w) { return w.type == WorkerType::Disk && !w.targets.empty(); };
            const bool anyDisk = std::any_of(host.workers.begin(), host.workers.end(),
                [](const Worker &w) { return w.type == WorkerType::Disk; });
            if (!host.workers.empty() && !anyDisk)
                error(workersPath,
                    "only network workers, which IOPrism does not run yet: nothing would run; "
                    "add a disk worker with a target");
            else if (!host.workers.empty()
                && std::none_of(host.workers.begin(), host.workers.end(), runsIo))
                error(workersPath,
                    host.workers.size() == 1
                        ? "no targets: add a disk, partition or test file"
                        : "no worker has a target: add a disk, partition or test file to one");
            notRunHere();
        }
    }

    void checkWorker(const Worker &worker, const std::string &path)
    {
        checkRange(join(path, "outstandingIos"), worker.outstandingIos, 1, kMaxOutstandingIos);
        if (worker.type == WorkerType::Network)
            warning(join(path, "type"),
                "a network worker does no I/O in IOPrism yet (no network targets): it idles "
                "in every step");
        if (worker.testConnectionRate)
            checkRange(join(path, "transactionsPerConnection"), worker.transactionsPerConnection, 1,
                std::numeric_limits<std::uint32_t>::max());
        const std::string specsPath = join(path, "specs");
        if (worker.assignedSpecs.empty())
            error(specsPath, "no access specification assigned");
        for (std::size_t s = 0; s < worker.assignedSpecs.size(); ++s)
            if (!findSpec(m_profile, worker.assignedSpecs[s])
                && !isIdleSpec(m_profile, worker.assignedSpecs[s]))
                error(at(specsPath, s),
                    quoted(worker.assignedSpecs[s]) + " is not a defined access specification");
        const std::string cpusPath = join(path, "cpuAffinity");
        std::set<std::uint32_t> cpus;
        for (std::size_t c = 0; c < worker.cpuAffinity.size(); ++c) {
            const std::uint32_t cpu = worker.cpuAffinity[c];
            if (cpu > kMaxCpuIndex)
                error(at(cpusPath, c), fmt::format("{} is above {}", cpu, kMaxCpuIndex));
            else if (!cpus.insert(cpu).second)
                error(at(cpusPath, c), fmt::format("{} is listed more than once", cpu));
        }
        checkDataPattern(worker.dataPattern, join(path, "dataPattern"));
        const std::string targetsPath = join(path, "targets");
        // Iometer's rule (Worker::InvalidSetup: "Workers without any targets are
        // automatically valid"): such a worker idles in every step; checkHosts refuses a
        // host where none has a target.
        if (worker.targets.empty())
            warning(targetsPath, "no targets: this worker idles in every step");
        for (std::size_t t = 0; t < worker.targets.size(); ++t)
            checkTarget(worker, worker.targets[t], at(targetsPath, t));
    }

    void checkTarget(const Worker &worker, const Target &target, const std::string &path)
    {
        if (target.path.empty())
            error(join(path, "path"), "must not be empty");
        else if (target.unresolved) {
            // A test file or tree is made by the run, so what is missing is its folder
            // (the run creates no folders), unless the name is another machine's volume.
            // `C:\data\test.dat` starts like one but is this machine's path where the
            // standard library reads it as absolute (Windows); elsewhere it names no file.
            const bool madeByTheRun
                = (target.kind == TargetKind::TestFile || target.kind == TargetKind::FileTree)
                && (!isWindowsVolumeName(target.path)
                    || std::filesystem::path(target.path).is_absolute());
            std::string why = madeByTheRun ? "the folder of " + quoted(target.path)
                    + " does not exist on this machine (the run creates no folders): create "
                      "it, or re-point the target"
                                           : quoted(target.path)
                    + " was not found on this machine: re-point the target to a device or file";
            if (m_options.targetsHere)
                error(join(path, "path"), std::move(why));
            else
                warning(join(path, "path"), std::move(why));
        }
        if (target.outstandingIos)
            checkRange(join(path, "outstandingIos"), *target.outstandingIos, 1, kMaxOutstandingIos);
        if (target.kind == TargetKind::FileTree)
            checkFileTree(target.tree, join(path, "tree"));
        if (target.kind == TargetKind::TestFile || target.kind == TargetKind::FileTree) {
            const std::uint64_t fileSize = fileBytesOf(target);
            if (fileSize == 0) {
                if (target.kind == TargetKind::TestFile)
                    error(join(path, "fileSize"), "must not be 0 for a test file");
            } else {
                const bool own = !(target.region == Region {});
                const Region &region = effectiveRegion(worker, target);
                const std::string regionPath = own
                    ? join(path, "region")
                    : join(path.substr(0, path.rfind(".targets")), "defaultRegion");
                if (region.offsetBytes >= fileSize)
                    error(join(regionPath, "offset"),
                        fmt::format("{} is not inside the {} test file {}",
                            describeExactSize(region.offsetBytes), describeExactSize(fileSize),
                            quoted(target.path)));
                else if (region.sizeBytes > fileSize - region.offsetBytes)
                    error(join(regionPath, "size"),
                        fmt::format("{} from offset {} goes past the end of the {} test file {}",
                            describeExactSize(region.sizeBytes),
                            describeExactSize(region.offsetBytes), describeExactSize(fileSize),
                            quoted(target.path)));
            }
        }
        if (target.cacheMode == CacheMode::Buffered && target.writeThrough)
            warning(join(path, "writeThrough"),
                "write-through on a buffered target: writes reach the device, but reads "
                "are still served from the OS cache");
    }

    // The bytes I/O can address in one file of a file target: the test file's size, or
    // each file of a tree (0 for devices).
    static std::uint64_t fileBytesOf(const Target &target)
    {
        return target.kind == TargetKind::TestFile ? target.testFileSizeBytes
            : target.kind == TargetKind::FileTree  ? target.tree.fileSizeBytes
                                                   : 0;
    }

    void checkFileTree(const FileTree &tree, const std::string &path)
    {
        checkRange(join(path, "depth"), tree.depth, 1, 64);
        checkRange(
            join(path, "filesPerLevel"), tree.filesPerLevel, 1, std::uint32_t(kMaxFileTreeFiles));
        if (tree.fileSizeBytes == 0)
            error(join(path, "fileSize"), "must not be 0 for the files of a tree");
        if (tree.fileCount() > kMaxFileTreeFiles)
            error(join(path, "filesPerLevel"),
                fmt::format("{} levels of {} files is {} files: at most {} are allowed", tree.depth,
                    tree.filesPerLevel, tree.fileCount(), kMaxFileTreeFiles));
        // Checked: the product of three numbers from the profile can wrap past 2^64.
        else if (tree.fileSizeBytes != 0 && tree.totalBytes() > kMaxFileTreeBytes)
            error(join(path, "fileSize"),
                fmt::format("{} files of {} is {}: a tree holds at most {}", tree.fileCount(),
                    describeExactSize(tree.fileSizeBytes),
                    tree.totalBytes() == kSaturatedBytes ? std::string("more than 16 EiB")
                                                         : describeExactSize(tree.totalBytes()),
                    describeExactSize(kMaxFileTreeBytes)));
    }

    const Profile &m_profile;
    const ValidationOptions &m_options;
    Problems m_problems;
    std::set<std::string> m_seen;
    std::map<std::string, std::vector<TargetRef>> m_targetsBySpec;
};

} // namespace

Problems validateProfile(const Profile &profile, const ValidationOptions &options)
{
    return Validator(profile, options).run();
}

} // namespace ioprism::core
