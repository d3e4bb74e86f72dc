// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a results file's figures, scopes, steps and series (results_read_parts.h).
#include "core/profile/names.h"
#include "core/report/results_json.h"
#include "core/report/results_read_parts.h"
#include "core/stats/figures.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace ioprism::core::results_read {

Verdict verdictOf(const Node &n)
{
    return enumByName(n,
        {Verdict::NoDeviceCounters, Verdict::Idle, Verdict::Background, Verdict::Agree,
            Verdict::ServedFromCache, Verdict::WriteBackPending, Verdict::OtherTraffic,
            Verdict::Amplified, Verdict::FileMetadata},
        [](Verdict v) { return toString(v); });
}

// ---------------------------------------------------------------- exact values back

// A measured time kept in seconds (duration<double>), back to its nanoseconds the way
// nsFromUs (core/stats/figures.h) gives latencies back.
std::chrono::nanoseconds elapsedFromSeconds(double seconds)
{
    if (!(seconds > 0) || !std::isfinite(seconds) || seconds >= 9.0e9)
        return std::chrono::nanoseconds {0};
    const auto guess = static_cast<std::int64_t>(std::llround(seconds * 1e9));
    for (std::int64_t c = guess > 2 ? guess - 2 : 0; c <= guess + 2; ++c)
        if (std::chrono::duration<double>(std::chrono::nanoseconds {c}).count() == seconds)
            return std::chrono::nanoseconds {c};
    return std::chrono::nanoseconds {guess};
}

// ---------------------------------------------------------------- figures

LatencyFigures latencyOf(const Node &n)
{
    LatencyFigures l;
    l.minUs = n["min"].numberOrZero();
    l.meanUs = n["mean"].numberOrZero();
    l.maxUs = n["max"].numberOrZero();
    l.p50Us = n["p50"].numberOrZero();
    l.p90Us = n["p90"].numberOrZero();
    l.p99Us = n["p99"].numberOrZero();
    l.p99_9Us = n["p99_9"].numberOrZero();
    l.p99_99Us = n["p99_99"].numberOrZero();
    return l;
}

DirectionFigures directionOf(const Node &n)
{
    DirectionFigures d;
    d.ios = n["ios"].u64();
    d.bytes = n["bytes"].u64();
    d.errors = n["errors"].u64();
    d.iops = n["iops"].numberOrNan();
    d.megabytesPerSecond = n["mbps"].numberOrNan();
    d.mebibytesPerSecond = n["mibps"].numberOrNan();
    d.latency = latencyOf(n["latency_us"]);
    return d;
}

PhaseFigures phaseOf(const Node &n)
{
    PhaseFigures p;
    p.count = n["count"].u64();
    p.errors = n["errors"].u64();
    p.perSecond = n["per_second"].numberOrNan();
    p.latency = latencyOf(n["latency_us"]);
    return p;
}

ConnectionFigures connectionsOf(const Node &n)
{
    return {.open = phaseOf(n["open"]),
        .close = phaseOf(n["close"]),
        .connection = phaseOf(n["connection"])};
}

CpuFigures cpuOf(const Node &n)
{
    CpuFigures c;
    if (n.isNull())
        return c;
    c.valid = true;
    c.userPercent = n["user_percent"].numberOrNan();
    c.systemPercent = n["system_percent"].numberOrNan();
    c.iowaitPercent = n["iowait_percent"].numberOrNan();
    c.irqPercent = n["irq_percent"].numberOrNan();
    c.softirqPercent = n["softirq_percent"].numberOrNan();
    c.stealPercent = n["steal_percent"].numberOrNan();
    c.idlePercent = n["idle_percent"].numberOrNan();
    c.busyPercent = n["busy_percent"].numberOrNan();
    c.processPercent = n["process_percent"].numberOrNan();
    return c;
}

DeviceFigures deviceFiguresOf(const Node &n)
{
    DeviceFigures f;
    if (n.isNull())
        return f;
    f.valid = true;
    f.seconds = n["seconds"].numberOrNan();
    f.readIos = n["read_ios"].u64();
    f.writeIos = n["write_ios"].u64();
    f.readBytes = n["read_bytes"].u64();
    f.writeBytes = n["write_bytes"].u64();
    f.readsPerSecond = n["read_iops"].numberOrNan();
    f.writesPerSecond = n["write_iops"].numberOrNan();
    f.readMegabytesPerSecond = n["read_mbps"].numberOrNan();
    f.writeMegabytesPerSecond = n["write_mbps"].numberOrNan();
    f.readMergesPerSecond = n["read_merges_per_second"].numberOrNan();
    f.writeMergesPerSecond = n["write_merges_per_second"].numberOrNan();
    f.averageRequestBytes = n["avg_request_bytes"].numberOrNan();
    f.averageReadRequestBytes = n["avg_read_request_bytes"].numberOrNan();
    f.averageWriteRequestBytes = n["avg_write_request_bytes"].numberOrNan();
    // Null times, discards or flushes: the device's kernel did not count them.
    f.hasTimes = !n["util_percent"].isNull();
    f.readAwaitMs = n["read_await_ms"].numberOrZero();
    f.writeAwaitMs = n["write_await_ms"].numberOrZero();
    f.queueSize = n["queue_size"].numberOrZero();
    f.utilPercent = n["util_percent"].numberOrZero();
    f.hasDiscards = !n["discard_ios"].isNull();
    f.discardIos = f.hasDiscards ? n["discard_ios"].u64() : 0;
    f.discardBytes = n["discard_bytes"].isNull() ? 0 : n["discard_bytes"].u64();
    f.discardsPerSecond = n["discard_iops"].numberOrZero();
    f.discardMegabytesPerSecond = n["discard_mbps"].numberOrZero();
    f.hasFlushes = !n["flush_ios"].isNull();
    f.flushIos = f.hasFlushes ? n["flush_ios"].u64() : 0;
    f.flushesPerSecond = n["flush_iops"].numberOrZero();
    f.flushAwaitMs = n["flush_await_ms"].numberOrZero();
    f.inFlight = n["in_flight"].u64();
    return f;
}

DirectionVerdict directionVerdictOf(const Node &n)
{
    DirectionVerdict d;
    d.verdict = verdictOf(n["verdict"]);
    d.appBytes = n["app_bytes"].u64();
    d.deviceBytes = n["device_bytes"].u64();
    d.ratio = n["ratio"].numberOrZero();
    return d;
}

DeviceVerdict deviceVerdictOf(const Node &n)
{
    DeviceVerdict v;
    v.verdict = verdictOf(n["verdict"]);
    if (!n["read"].isNull())
        v.read = directionVerdictOf(n["read"]);
    if (!n["write"].isNull())
        v.write = directionVerdictOf(n["write"]);
    if (!n["write_backlog_bytes"].isNull())
        v.writeBacklogBytes = n["write_backlog_bytes"].u64();
    return v;
}

std::vector<DeviceFigures> perDeviceOf(const Node &n)
{
    std::vector<DeviceFigures> out;
    for (std::size_t i = 0; i < n.size(); ++i) {
        const Node d = n.at(i);
        d["name"].string();
        out.push_back(deviceFiguresOf(d["figures"]));
    }
    return out;
}

LatencyVerdict latencyVerdictOf(const Node &n)
{
    const auto v = latencyVerdictFromString(n.string());
    if (!v)
        fail(n, "not a latency verdict IOPrism writes");
    return *v;
}

LatencyJudgement latencyJudgementOf(const Node &n)
{
    const auto direction = [](const Node &d) {
        LatencyDirection out;
        out.verdict = latencyVerdictOf(d["verdict"]);
        out.appMeanUs = d["app_mean_us"].numberOrZero();
        out.deviceAwaitUs = d["device_await_us"].numberOrZero();
        out.extraUs = d["extra_us"].numberOrZero();
        return out;
    };
    LatencyJudgement l;
    l.verdict = latencyVerdictOf(n["verdict"]);
    l.read = direction(n["read"]);
    l.write = direction(n["write"]);
    l.kernelWorkerUsPerIo = n["kernel_worker_us_per_io"].numberOrZero();
    l.waitUsPerIo = n["cpu_wait_us_per_io"].numberOrZero();
    l.busiestWorkerRunnableShare = n["busiest_worker_runnable_share"].numberOrZero();
    l.cpuBound = n["cpu_bound"].boolean();
    return l;
}

DeviceReport deviceReportOf(const Node &n)
{
    DeviceReport r;
    r.available = n["available"].boolean();
    r.verdict = deviceVerdictOf(n["verdict"]);
    // Files before the latency verdict have none: "no device times", as a run without.
    if (n.has("latency"))
        r.latency = latencyJudgementOf(n["latency"]);
    r.total = deviceFiguresOf(n["total"]);
    r.devices = perDeviceOf(n["devices"]);
    return r;
}

Scope scopeOf(const Node &n)
{
    Scope s;
    s.label = n["label"].string();
    s.kind = enumByName(n["kind"],
        {Scope::Kind::All, Scope::Kind::Worker, Scope::Kind::Target, Scope::Kind::Host},
        [](Scope::Kind k) { return scopeKindName(k); });
    s.worker = n["worker"].index();
    s.target = n["target"].index();
    s.targetPath = n.optional("path").stringOrEmpty();
    s.host = n.optional("host").index(); // written only in a run of several hosts
    return s;
}

LatencyHistogram histogramOf(const Node &n)
{
    LatencyHistogram h;
    for (std::size_t i = 0; i < n.size(); ++i) {
        const Node b = n.at(i);
        if (b.size() != 3)
            fail(b, "expected [low_ns, high_ns, count]");
        if (!h.addBucket(b.at(0).u64(), b.at(1).u64(), b.at(2).u64()))
            fail(b, "not a bucket of IOPrism's latency histogram");
    }
    return h;
}

// The measurement behind a direction's figures (see the header: exact for the All
// scope, which has its histogram).
DirectionMeasurement directionMeasurementOf(const DirectionFigures &f, LatencyHistogram histogram,
    std::optional<std::uint64_t> completedMaxNs, const Node &at)
{
    DirectionMeasurement m;
    m.bytes = f.bytes;
    m.errors = f.errors;
    if (histogram.count() != f.ios)
        fail(at,
            fmt::format("the histogram holds {} I/Os, the figures {}", histogram.count(), f.ios));
    if (f.ios > 0) {
        m.minNs = nsFromUs(f.latency.minUs);
        m.maxNs = nsFromUs(f.latency.maxUs);
        histogram.setSumNs(sumNsFromMeanUs(f.latency.meanUs, f.ios));
        // The histogram's own extremes bound its percentiles: the exact ones, kept within
        // the buckets (the max also counts an I/O still in flight, which no bucket holds).
        std::uint64_t lowest = 0, highest = 0;
        bool first = true;
        histogram.forEachNonEmptyBucket([&](const LatencyHistogram::Bucket &b) {
            if (first)
                lowest = b.lowNs;
            first = false;
            highest = b.highNs;
        });
        if (completedMaxNs) {
            // An I/O still in flight was older than every completed one (the writer says
            // so): the figures' max is its age, the completed I/Os' largest is this.
            if (*completedMaxNs < lowest || *completedMaxNs > highest || *completedMaxNs > m.maxNs)
                fail(at, "completed_max_ns lies outside the histogram or above the maximum");
            m.oldestInFlightNs = m.maxNs;
            m.maxNs = *completedMaxNs;
        }
        histogram.setMinMaxNs(std::max(m.minNs, lowest), std::min(m.maxNs, highest));
    } else if (f.latency.maxUs > 0) {
        m.oldestInFlightNs = nsFromUs(f.latency.maxUs); // only an I/O in flight had an age
    }
    m.histogram = histogram; // an array of counts: a copy either way
    return m;
}

ScopeResult stepScopeOf(const Node &n)
{
    ScopeResult s;
    s.scope = scopeOf(n);
    Figures &f = s.figures;
    f.seconds = n["seconds"].numberOrNan();
    f.read = directionOf(n["read"]);
    f.write = directionOf(n["write"]);
    f.total = directionOf(n["total"]);
    f.transactionsPerSecond = n["transactions_per_second"].numberOrNan();
    f.inFlightAtEnd = n["outstanding"].u32();
    if (n.has("connections"))
        f.connections = connectionsOf(n["connections"]);

    Measurement &m = s.measurement;
    m.transactions = n["transactions"].u64();
    m.inFlightAtEnd = f.inFlightAtEnd;
    m.elapsed = elapsedFromSeconds(f.seconds);
    const Node bins = n["iometer_bins"];
    if (bins.size() != IometerBins::kBinCount)
        fail(bins, fmt::format("expected {} bins, found {}", IometerBins::kBinCount, bins.size()));
    for (std::size_t i = 0; i < IometerBins::kBinCount; ++i)
        m.read.bins.counts[i] = bins.at(i)["count"].u64(); // read + write, as written
    // The writer keeps the full histogram of every All scope (its percentiles and the
    // run's summary come from it): one without is not a file IOPrism wrote, and reading
    // it would write a histogram that disagrees with its own figures.
    if (s.scope.kind == Scope::Kind::All && !n.has("histogram_ns"))
        failAt(n, n.path() + ".histogram_ns", "missing: the All scope keeps its histogram");
    if (n.has("histogram_ns")) {
        const Node h = n["histogram_ns"];
        const auto completedMax = [&](const char *name) -> std::optional<std::uint64_t> {
            if (!h.has("completed_max_ns") || !h["completed_max_ns"].has(name))
                return std::nullopt;
            return h["completed_max_ns"][name].u64();
        };
        m.read = directionMeasurementOf(
            f.read, histogramOf(h["read"]), completedMax("read"), h["read"]);
        m.write = directionMeasurementOf(
            f.write, histogramOf(h["write"]), completedMax("write"), h["write"]);
        for (std::size_t i = 0; i < IometerBins::kBinCount; ++i)
            m.read.bins.counts[i] = bins.at(i)["count"].u64();
    } else {
        m.read.bytes = f.read.bytes;
        m.read.errors = f.read.errors;
        m.write.bytes = f.write.bytes;
        m.write.errors = f.write.errors;
    }
    return s;
}

StepPoint pointOf(const Node &n)
{
    StepPoint p;
    p.index = n["index"].u64();
    p.trial = n["trial"].u32();
    const Node values = n["values"];
    for (std::size_t i = 0; i < values.size(); ++i)
        p.values.push_back(values.at(i).u64());
    p.target = n["target"].string();
    return p;
}

// A step's rounds under a steady-state rule (results_json.cpp steadyStateJson).
SteadyStateRecord steadyStateOf(const Node &n)
{
    SteadyStateRecord steady;
    SteadyStateSetup &setup = steady.setup;
    const std::string rule = n["rule"].string();
    if (const auto r = parseSteadyStateRule(rule))
        setup.criteria.rule = *r;
    else
        fail(n["rule"], "\"" + rule + "\" is not a steady-state rule");
    const std::string metric = n["metric"].string();
    if (const auto m = parseSteadyStateMetric(metric))
        setup.metric = *m;
    else
        fail(n["metric"], "\"" + metric + "\" is not a steady-state metric");
    const double roundSeconds = n["round_s"].numberOrNan();
    if (!(roundSeconds >= 0) || roundSeconds > 1e9)
        fail(n["round_s"], "not a round's length");
    setup.roundTime = std::chrono::milliseconds(std::llround(roundSeconds * 1e3));
    setup.criteria.windowRounds = n["window_rounds"].u64();
    setup.criteria.rangeLimit = n["range_limit"].numberOrNan();
    setup.criteria.slopeLimit = n["slope_limit"].numberOrNan();
    setup.criteria.roundLimit = n["round_limit"].u64();
    const std::string state = n["state"].string();
    if (const auto known = steadyStateFromString(state))
        steady.result.state = *known;
    else
        fail(n["state"], "\"" + state + "\" is not steady, not_reached or stopped");
    const Node rounds = n["rounds"];
    for (std::size_t i = 0; i < rounds.size(); ++i) {
        const Node r = rounds.at(i);
        steady.rounds.push_back({.startSeconds = r["start_s"].numberOrNan(),
            .endSeconds = r["end_s"].numberOrNan(),
            .figure = r["figure"].numberOrNan()});
    }
    steady.result.rounds = steady.rounds.size();
    const Node w = n.optional("window");
    if (!w.isNull()) {
        SteadyStateWindow &window = steady.result.window.emplace();
        window.first = w["first_index"].u64();
        window.count = w["rounds"].u64();
        if (window.first > steady.rounds.size()
            || window.count > steady.rounds.size() - window.first)
            fail(w["rounds"], "the window is not among the rounds");
        window.mean = w["mean"].numberOrNan();
        window.minimum = w["min"].numberOrNan();
        window.maximum = w["max"].numberOrNan();
        window.slopePerRound = w["slope_per_round"].numberOrNan();
        window.rangeShare = w["range_share"].numberOrNan();
        window.excursionShare = w["excursion_share"].numberOrNan();
        window.deviationShare = w["deviation_share"].numberOrNan();
        window.rangeMet = w["range_met"].boolean();
        window.slopeMet = w["slope_met"].boolean();
        // The rounds judged end with the window (a run stops judging there).
        steady.result.rounds = window.first + window.count;
    }
    steady.result.explanation = n["explanation"].string();
    return steady;
}

// Steps are numbered in the plan; a file from a stopped run has the first ones only, and
// a series may have left points out. A step number beyond this is not believed.
constexpr std::uint64_t kMaxStepNumber = 1'000'000;

// `planKept`: the file has its plan (format 3), whose steps the file's are; before that,
// each step gives its part of the plan (planOfOldFile).
StepResult stepResultOf(const Node &n)
{
    StepResult s;
    const std::uint64_t number = n["step"].u64();
    if (number >= kMaxStepNumber)
        fail(n["step"], fmt::format("{} is beyond any plan", number));
    s.step = number;
    s.stepName = n["name"].string();
    s.measuredSeconds = n["measured_seconds"].numberOrNan();
    // Since the run reserved buffers before its first step; absent from older files.
    s.setupSeconds = n.has("setup_s") ? n["setup_s"].numberOrNan() : 0;
    s.drainSeconds = n.has("drain_s") ? n["drain_s"].numberOrNan() : 0;
    s.complete = n["complete"].boolean();
    s.endedByAmount = n.has("ended_by_amount") && n["ended_by_amount"].boolean();
    if (n.has("steady_state"))
        s.steadyState = steadyStateOf(n["steady_state"]);
    if (n.has("write_cliff")) {
        const Node c = n["write_cliff"];
        WriteCliffJudgement &judged = s.writeCliff.emplace();
        judged.intervals = c["intervals"].u64();
        judged.bytesWritten = c["bytes_written"].u64();
        if (c["found"].boolean()) {
            WriteCliff &cliff = judged.cliff.emplace();
            cliff.firstSlowPoint = c["first_slow_interval"].u64();
            cliff.bytesBefore = c["bytes_before"].u64();
            cliff.rateBefore = c["mbps_before"].numberOrNan();
            cliff.rateAfter = c["mbps_after"].numberOrNan();
            cliff.drop = c["drop"].numberOrNan();
            judged.cliffSeconds = c["at_s"].numberOrNan();
        }
    }
    s.cpu = cpuOf(n["cpu"]);
    s.cpuEffectiveness = s.cpu.valid ? n["cpu_effectiveness"].numberOrNan() : 0;
    s.devices = deviceReportOf(n["devices"]);
    const Node scopes = n["scopes"];
    for (std::size_t i = 0; i < scopes.size(); ++i)
        s.scopes.push_back(stepScopeOf(scopes.at(i)));
    const Node hosts = n.optional("hosts"); // a run of several hosts only
    for (std::size_t i = 0; !hosts.isNull() && i < hosts.size(); ++i) {
        const Node h = hosts.at(i);
        HostShare share;
        share.cpu = cpuOf(h["cpu"]);
        share.cpuEffectiveness = share.cpu.valid ? h["cpu_effectiveness"].numberOrNan() : 0;
        share.devices = deviceReportOf(h["devices"]);
        share.endedByAmount = h.has("ended_by_amount") && h["ended_by_amount"].boolean();
        s.hosts.push_back(std::move(share));
    }
    return s;
}

void readStep(const Node &n, RunResult &r, bool planKept)
{
    StepResult s = stepResultOf(n);
    if (planKept) { // the plan says what the step is (a step beyond it: a plan made by hand)
        r.steps.push_back(std::move(s));
        return;
    }
    if (r.plan.steps.size() <= s.step)
        r.plan.steps.resize(s.step + 1);
    PlannedStep &planned = r.plan.steps[s.step];
    planned.name = s.stepName;
    planned.specName = s.stepName;
    if (n.has("cycle")) {
        planned.specName = n["spec"].string();
        planned.specIndex = n["spec_index"].u64();
        planned.cycle = n["cycle"].string();
    }
    if (n.has("point"))
        planned.point = pointOf(n["point"]);
    r.steps.push_back(std::move(s));
}

void readPreconditioning(const Node &n, RunResult &r)
{
    const auto &setup = r.plan.profile.setup.precondition;
    if (!setup)
        fail(n, "present, but the profile has no setup.precondition");
    r.preconditioning
        = PreconditionResult {*setup, n["planned_bytes"].u64(), stepResultOf(n["step"])};
}

// A series point names its spec; its steps say only their point (see stepJson). A file
// that keeps its plan has them there already.
void readSeries(const Node &n, RunResult &r, bool planKept)
{
    const Node points = n["points"];
    for (std::size_t i = 0; i < points.size(); ++i) {
        const Node p = points.at(i);
        const Node trials = p["trials"];
        for (std::size_t t = 0; t < trials.size(); ++t) {
            const std::uint64_t stepIndex = trials.at(t).u64();
            if (stepIndex >= r.steps.size())
                fail(trials.at(t), fmt::format("no step {} in \"steps\"", stepIndex));
            if (planKept)
                continue;
            PlannedStep &planned = r.plan.steps[r.steps[stepIndex].step];
            planned.specIndex = p["spec_index"].u64();
            planned.specName = p["spec"].string();
        }
    }
}

} // namespace ioprism::core::results_read
