// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/results_reader.h"

#include "core/json/json_reader.h"
#include "core/profile/names.h"
#include "core/profile/profile_json.h"
#include "core/profile/validation.h"
#include "core/report/results_json.h"
#include "core/run/plan.h"
#include "core/run/resolved_plan.h"
#include "core/run/resolved_plan_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <tuple>

namespace ioprism::core {

TextPosition textPosition(std::string_view text, std::size_t byteOffset)
{
    TextPosition p;
    const std::size_t end = std::min(byteOffset, text.size());
    for (std::size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++p.line;
            p.column = 1;
        } else {
            ++p.column;
        }
    }
    return p;
}

namespace {

using Json = nlohmann::json;

// Results are read with the first problem ending the read (JsonReadContext::StopAtFirst):
// a program wrote the file, and one damaged field says the file is damaged.
using Node = JsonNode;

[[noreturn]] void failAt(const Node &any, const std::string &path, const std::string &what)
{
    any.context().error(path, what);
    throw JsonReadStopped {}; // error() has thrown already under StopAtFirst
}

[[noreturn]] void fail(const Node &at, const std::string &what)
{
    failAt(at, at.path(), what);
}

const Json &arrayOf(const Node &n)
{
    if (!n.isArray())
        throw JsonReadStopped {};
    return n.json();
}

template<typename Enum, typename Names>
Enum enumByName(const Node &n, std::initializer_list<Enum> values, Names nameOf)
{
    const std::string name = n.string();
    for (Enum v : values)
        if (nameOf(v) == name)
            return v;
    fail(n, fmt::format("\"{}\" is not a known value", name));
}

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

DeviceReport deviceReportOf(const Node &n)
{
    DeviceReport r;
    r.available = n["available"].boolean();
    r.verdict = deviceVerdictOf(n["verdict"]);
    r.total = deviceFiguresOf(n["total"]);
    r.devices = perDeviceOf(n["devices"]);
    return r;
}

Scope scopeOf(const Node &n)
{
    Scope s;
    s.label = n["label"].string();
    s.kind = enumByName(n["kind"], {Scope::Kind::All, Scope::Kind::Worker, Scope::Kind::Target},
        [](Scope::Kind k) { return scopeKindName(k); });
    s.worker = n["worker"].index();
    s.target = n["target"].index();
    s.targetPath = n.optional("path").stringOrEmpty();
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
DirectionMeasurement directionMeasurementOf(
    const DirectionFigures &f, LatencyHistogram histogram, const Node &at)
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
    f.outstanding = n["outstanding"].u32();
    if (n.has("connections"))
        f.connections = connectionsOf(n["connections"]);

    Measurement &m = s.measurement;
    m.transactions = n["transactions"].u64();
    m.outstanding = f.outstanding;
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
        m.read = directionMeasurementOf(f.read, histogramOf(h["read"]), h["read"]);
        m.write = directionMeasurementOf(f.write, histogramOf(h["write"]), h["write"]);
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

// Steps are numbered in the plan; a file from a stopped run has the first ones only, and
// a series may have left points out. A step number beyond this is not believed.
constexpr std::uint64_t kMaxStepNumber = 1'000'000;

// `planKept`: the file has its plan (format 3), whose steps the file's are; before that,
// each step gives its part of the plan (planOfOldFile).
void readStep(const Node &n, RunResult &r, bool planKept)
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
    s.cpu = cpuOf(n["cpu"]);
    s.cpuEffectiveness = s.cpu.valid ? n["cpu_effectiveness"].numberOrNan() : 0;
    s.devices = deviceReportOf(n["devices"]);
    const Node scopes = n["scopes"];
    for (std::size_t i = 0; i < scopes.size(); ++i)
        s.scopes.push_back(stepScopeOf(scopes.at(i)));
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

// An interval's count of I/Os from its rate, for files that keep no count: the rate is
// kept to a thousandth, so over an interval of less than 1000 s this is the count.
std::uint64_t iosOfRate(double iops, double seconds)
{
    const double ios = std::isfinite(iops) ? std::round(iops * seconds) : 0;
    return ios >= 1 && ios < 1e18 ? static_cast<std::uint64_t>(ios) : 0;
}

// Version 1 kept an interval's rates, not its counts: they come back from the rates. A
// latency says something completed, so then at least one I/O, counted in the direction
// that moved bytes: the counts written again (per direction) keep the latency.
void iosOfRates(Figures &f, double seconds, bool hasLatency)
{
    f.read.ios = iosOfRate(f.read.iops, seconds);
    f.write.ios = iosOfRate(f.write.iops, seconds);
    if (!hasLatency)
        return;
    if (f.read.ios + f.write.ios == 0)
        ++(f.write.bytes > 0 && f.read.bytes == 0 ? f.write.ios : f.read.ios);
    f.total.ios = std::max<std::uint64_t>(iosOfRate(f.total.iops, seconds), 1);
}

ScopeFigures intervalScopeOf(const Node &n, double seconds)
{
    ScopeFigures s;
    s.scope = scopeOf(n);
    Figures &f = s.figures;
    f.seconds = seconds;
    f.total.iops = n["iops"].numberOrNan();
    f.read.iops = n["read_iops"].numberOrNan();
    f.write.iops = n["write_iops"].numberOrNan();
    f.total.megabytesPerSecond = n["mbps"].numberOrNan();
    f.read.megabytesPerSecond = n["read_mbps"].numberOrNan();
    f.write.megabytesPerSecond = n["write_mbps"].numberOrNan();
    f.read.bytes = n["read_bytes"].u64();
    f.write.bytes = n["write_bytes"].u64();
    f.total.bytes = f.read.bytes + f.write.bytes;
    f.total.errors = n["errors"].u64();
    f.outstanding = n["outstanding"].u32();
    f.total.stalledIos = n["stalled_ios"].u32();
    f.total.oldestInFlightUs = n["oldest_in_flight_us"].numberOrZero();
    const Node latency = n["latency_us"];
    f.total.latency = latencyOf(latency);
    // Intervals carry rates, not counts (see the header); latency is null without I/O.
    // Neither each direction's errors nor its mean latency were kept: the errors stay 0
    // (the total has them), the means unknown (NaN: empty in the time series).
    iosOfRates(f, seconds, !latency["mean"].isNull());
    f.read.latency.meanUs = std::numeric_limits<double>::quiet_NaN();
    f.write.latency.meanUs = std::numeric_limits<double>::quiet_NaN();
    return s;
}

IntervalSample intervalOf(const Node &n, std::uint64_t runId)
{
    IntervalSample s;
    s.runId = runId;
    s.step = n["step"].u64();
    s.stepName = n["step_name"].string();
    s.phase = enumByName(n["phase"],
        {RunPhase::Idle, RunPhase::Preparing, RunPhase::RampUp, RunPhase::Measuring,
            RunPhase::Stopping, RunPhase::Done},
        [](RunPhase p) { return runPhaseName(p); });
    s.startSeconds = n["start_s"].numberOrNan();
    s.endSeconds = n["end_s"].numberOrNan();
    s.mergedIntervals = n["merged_intervals"].u32();
    s.cpu = cpuOf(n["cpu"]);
    s.cpuEffectiveness = s.cpu.valid ? n["cpu_effectiveness"].numberOrNan() : 0;
    s.devices = deviceReportOf(n["devices"]);
    const double seconds = std::isfinite(s.endSeconds - s.startSeconds)
        ? std::max(0.0, s.endSeconds - s.startSeconds)
        : 0.0;
    const Node scopes = n["scopes"];
    for (std::size_t i = 0; i < scopes.size(); ++i)
        s.scopes.push_back(intervalScopeOf(scopes.at(i), seconds));
    return s;
}

// ---------------------------------------------------------------- intervals, version 2

// A column of the intervals (version 2): an array of one value per interval. Its values
// are read where they are, without a Node per value (a long run has 650,000); a value of
// an unexpected kind is handed to a Node for the message with its path.
class Column
{
public:
    Column(const Node &n, std::size_t count)
        : m_node(n)
        , m_array(&arrayOf(n))
    {
        if (m_array->size() != count)
            fail(n,
                fmt::format(
                    "expected {} values (one per interval), found {}", count, m_array->size()));
    }

    bool isNull(std::size_t i) const { return (*m_array)[i].is_null(); }
    double numberOrNan(std::size_t i) const
    {
        const Json &v = (*m_array)[i];
        return v.is_number_float() ? v.get<double>() : at(i).numberOrNan();
    }
    double numberOrZero(std::size_t i) const
    {
        const Json &v = (*m_array)[i];
        return v.is_number_float() ? v.get<double>() : at(i).numberOrZero();
    }
    std::uint64_t u64(std::size_t i) const
    {
        const Json &v = (*m_array)[i];
        return v.is_number_unsigned() ? v.get<std::uint64_t>() : at(i).u64();
    }
    std::uint32_t u32(std::size_t i) const { return at32(i); }
    bool boolean(std::size_t i) const
    {
        const Json &v = (*m_array)[i];
        return v.is_boolean() ? v.get<bool>() : at(i).boolean();
    }
    const std::string &string(std::size_t i) const
    {
        const Json &v = (*m_array)[i];
        if (!v.is_string())
            at(i).wrongType("a string");
        return v.get_ref<const std::string &>();
    }
    Node at(std::size_t i) const { return m_node.at(i); }

private:
    std::uint32_t at32(std::size_t i) const
    {
        const Json &v = (*m_array)[i];
        if (v.is_number_unsigned() && v.get<std::uint64_t>() <= 0xffffffffU)
            return static_cast<std::uint32_t>(v.get<std::uint64_t>());
        return at(i).u32();
    }

    Node m_node;
    const Json *m_array;
};

// An optional group of columns: null, or an object of columns.
std::optional<Node> columnsOf(const Node &n)
{
    if (n.isNull())
        return std::nullopt;
    if (!n.isObject())
        throw JsonReadStopped {};
    return n;
}

// Device figures per interval (see deviceFigureColumns in results_json.cpp): null where
// the interval has none, which "in_flight" (always written with figures) tells.
std::vector<DeviceFigures> deviceFigureColumnsOf(const Node &n, std::size_t count)
{
    const Column seconds(n["seconds"], count), readIos(n["read_ios"], count),
        writeIos(n["write_ios"], count), readBytes(n["read_bytes"], count),
        writeBytes(n["write_bytes"], count), readIops(n["read_iops"], count),
        writeIops(n["write_iops"], count), readMbps(n["read_mbps"], count),
        writeMbps(n["write_mbps"], count), readMerges(n["read_merges_per_second"], count),
        writeMerges(n["write_merges_per_second"], count), avgRequest(n["avg_request_bytes"], count),
        avgReadRequest(n["avg_read_request_bytes"], count),
        avgWriteRequest(n["avg_write_request_bytes"], count), readAwait(n["read_await_ms"], count),
        writeAwait(n["write_await_ms"], count), queueSize(n["queue_size"], count),
        util(n["util_percent"], count), discardIos(n["discard_ios"], count),
        discardBytes(n["discard_bytes"], count), discardIops(n["discard_iops"], count),
        discardMbps(n["discard_mbps"], count), flushIos(n["flush_ios"], count),
        flushIops(n["flush_iops"], count), flushAwait(n["flush_await_ms"], count),
        inFlight(n["in_flight"], count);
    std::vector<DeviceFigures> out(count);
    for (std::size_t i = 0; i < count; ++i) {
        if (inFlight.isNull(i))
            continue;
        DeviceFigures &f = out[i];
        f.valid = true;
        f.seconds = seconds.numberOrNan(i);
        f.readIos = readIos.u64(i);
        f.writeIos = writeIos.u64(i);
        f.readBytes = readBytes.u64(i);
        f.writeBytes = writeBytes.u64(i);
        f.readsPerSecond = readIops.numberOrNan(i);
        f.writesPerSecond = writeIops.numberOrNan(i);
        f.readMegabytesPerSecond = readMbps.numberOrNan(i);
        f.writeMegabytesPerSecond = writeMbps.numberOrNan(i);
        f.readMergesPerSecond = readMerges.numberOrNan(i);
        f.writeMergesPerSecond = writeMerges.numberOrNan(i);
        f.averageRequestBytes = avgRequest.numberOrNan(i);
        f.averageReadRequestBytes = avgReadRequest.numberOrNan(i);
        f.averageWriteRequestBytes = avgWriteRequest.numberOrNan(i);
        f.hasTimes = !util.isNull(i);
        f.readAwaitMs = readAwait.numberOrZero(i);
        f.writeAwaitMs = writeAwait.numberOrZero(i);
        f.queueSize = queueSize.numberOrZero(i);
        f.utilPercent = util.numberOrZero(i);
        f.hasDiscards = !discardIos.isNull(i);
        f.discardIos = f.hasDiscards ? discardIos.u64(i) : 0;
        f.discardBytes = discardBytes.isNull(i) ? 0 : discardBytes.u64(i);
        f.discardsPerSecond = discardIops.numberOrZero(i);
        f.discardMegabytesPerSecond = discardMbps.numberOrZero(i);
        f.hasFlushes = !flushIos.isNull(i);
        f.flushIos = f.hasFlushes ? flushIos.u64(i) : 0;
        f.flushesPerSecond = flushIops.numberOrZero(i);
        f.flushAwaitMs = flushAwait.numberOrZero(i);
        f.inFlight = inFlight.u64(i);
    }
    return out;
}

// A direction's verdict per interval: null where the headline has none (its verdict).
void directionVerdictColumnsOf(const Node &n, std::vector<IntervalSample> &intervals,
    DirectionVerdict DeviceVerdict::*direction)
{
    const std::size_t count = intervals.size();
    const Column verdict(n["verdict"], count), appBytes(n["app_bytes"], count),
        deviceBytes(n["device_bytes"], count), ratio(n["ratio"], count);
    for (std::size_t i = 0; i < count; ++i) {
        if (verdict.isNull(i))
            continue;
        DirectionVerdict &d = intervals[i].devices.verdict.*direction;
        d.verdict = verdictOf(verdict.at(i));
        d.appBytes = appBytes.u64(i);
        d.deviceBytes = deviceBytes.u64(i);
        d.ratio = ratio.numberOrZero(i);
    }
}

void intervalDevicesOf(const Node &n, RunResult &r)
{
    auto &intervals = r.intervals;
    const std::size_t count = intervals.size();
    const Column available(n["available"], count), verdict(n["verdict"], count),
        backlog(n["write_backlog_bytes"], count);
    for (std::size_t i = 0; i < count; ++i) {
        DeviceReport &d = intervals[i].devices;
        d.available = available.boolean(i);
        d.verdict.verdict = verdictOf(verdict.at(i));
        if (!backlog.isNull(i))
            d.verdict.writeBacklogBytes = backlog.u64(i);
    }
    directionVerdictColumnsOf(n["read"], intervals, &DeviceVerdict::read);
    directionVerdictColumnsOf(n["write"], intervals, &DeviceVerdict::write);
    std::vector<DeviceFigures> total = deviceFigureColumnsOf(n["total"], count);
    for (std::size_t i = 0; i < count; ++i)
        intervals[i].devices.total = total[i];
    // One entry per watched device; an interval with figures of none has an empty list
    // (as the sampler leaves it when the counters could not be read).
    const Node devices = n["devices"];
    std::vector<std::vector<DeviceFigures>> perDevice;
    for (std::size_t d = 0; d < devices.size(); ++d) {
        const Node device = devices.at(d);
        device["name"].string();
        device["role"].string();
        perDevice.push_back(deviceFigureColumnsOf(device["figures"], count));
    }
    for (std::size_t i = 0; i < count; ++i) {
        const bool any = std::any_of(perDevice.begin(), perDevice.end(),
            [&](const std::vector<DeviceFigures> &f) { return f[i].valid; });
        if (!any)
            continue;
        for (const auto &figures : perDevice)
            intervals[i].devices.devices.push_back(figures[i]);
    }
}

// A scope's connection figures per interval (see intervalConnectionColumns in
// results_json.cpp): none where "count" of "open" is null. Intervals keep the mean and
// the longest time of each phase; their other latency figures stay 0.
std::vector<std::optional<ConnectionFigures>> connectionColumnsOf(const Node &n, std::size_t count)
{
    std::vector<std::optional<ConnectionFigures>> out(count);
    bool first = true;
    for (const auto &[name, member] : {std::pair {"open", &ConnectionFigures::open},
             std::pair {"close", &ConnectionFigures::close},
             std::pair {"connection", &ConnectionFigures::connection}}) {
        const Node phase = n[name];
        const Node latency = phase["latency_us"];
        const Column calls(phase["count"], count), errors(phase["errors"], count),
            perSecond(phase["per_second"], count), mean(latency["mean"], count),
            max(latency["max"], count);
        for (std::size_t i = 0; i < count; ++i) {
            if (first && !calls.isNull(i))
                out[i].emplace();
            if (!out[i])
                continue;
            PhaseFigures &p = (*out[i]).*member;
            p.count = calls.u64(i);
            p.errors = errors.u64(i);
            p.perSecond = perSecond.numberOrNan(i);
            p.latency.meanUs = mean.numberOrZero(i);
            p.latency.maxUs = max.numberOrZero(i);
        }
        first = false;
    }
    return out;
}

// A column added to format 2 after its first files: nullopt in a file without it.
std::optional<Column> addedColumn(const Node &n, const char *name, std::size_t count)
{
    if (!n.has(name))
        return std::nullopt;
    return Column(n[name], count);
}

// One scope over its stretch of intervals ("first", "count"): appended to each.
void intervalScopeColumnsOf(const Node &n, RunResult &r)
{
    const std::size_t total = r.intervals.size();
    const std::uint64_t first = n["first"].u64();
    const std::uint64_t count = n["count"].u64();
    if (first > total || count > total - first)
        fail(n,
            fmt::format("first {} and count {} go beyond the {} intervals", first, count, total));
    const Scope scope = scopeOf(n);
    const Column iops(n["iops"], count), readIops(n["read_iops"], count),
        writeIops(n["write_iops"], count), mbps(n["mbps"], count), readMbps(n["read_mbps"], count),
        writeMbps(n["write_mbps"], count), readBytes(n["read_bytes"], count),
        writeBytes(n["write_bytes"], count), errors(n["errors"], count),
        outstanding(n["outstanding"], count), stalled(n["stalled_ios"], count),
        oldest(n["oldest_in_flight_us"], count);
    const Node latency = n["latency_us"];
    const Column min(latency["min"], count), mean(latency["mean"], count),
        max(latency["max"], count), p50(latency["p50"], count), p90(latency["p90"], count),
        p99(latency["p99"], count), p99_9(latency["p99_9"], count),
        p99_99(latency["p99_99"], count);
    // Each direction's counts and mean latency, which the time series shows: added to
    // format 2 (results_json.cpp); a file without them has its totals only.
    const std::optional<Column> readIos = addedColumn(n, "read_ios", count),
                                writeIos = addedColumn(n, "write_ios", count),
                                readErrors = addedColumn(n, "read_errors", count),
                                writeErrors = addedColumn(n, "write_errors", count);
    std::optional<Column> readMean, writeMean;
    if (n.has("read_latency_us"))
        readMean.emplace(n["read_latency_us"]["mean"], count);
    if (n.has("write_latency_us"))
        writeMean.emplace(n["write_latency_us"]["mean"], count);
    // Only scopes that opened and closed files have them (an added field of format 2).
    std::vector<std::optional<ConnectionFigures>> connections;
    if (n.has("connections"))
        connections = connectionColumnsOf(n["connections"], count);
    for (std::size_t i = 0; i < count; ++i) {
        IntervalSample &sample = r.intervals[first + i];
        const double seconds = std::isfinite(sample.endSeconds - sample.startSeconds)
            ? std::max(0.0, sample.endSeconds - sample.startSeconds)
            : 0.0;
        ScopeFigures s;
        s.scope = scope;
        Figures &f = s.figures;
        f.seconds = seconds;
        f.total.iops = iops.numberOrNan(i);
        f.read.iops = readIops.numberOrNan(i);
        f.write.iops = writeIops.numberOrNan(i);
        f.total.megabytesPerSecond = mbps.numberOrNan(i);
        f.read.megabytesPerSecond = readMbps.numberOrNan(i);
        f.write.megabytesPerSecond = writeMbps.numberOrNan(i);
        f.read.bytes = readBytes.u64(i);
        f.write.bytes = writeBytes.u64(i);
        f.total.bytes = f.read.bytes + f.write.bytes;
        f.total.errors = errors.u64(i);
        f.outstanding = outstanding.u32(i);
        f.total.stalledIos = stalled.u32(i);
        f.total.oldestInFlightUs = oldest.numberOrZero(i);
        LatencyFigures &l = f.total.latency;
        l.minUs = min.numberOrZero(i);
        l.meanUs = mean.numberOrZero(i);
        l.maxUs = max.numberOrZero(i);
        l.p50Us = p50.numberOrZero(i);
        l.p90Us = p90.numberOrZero(i);
        l.p99Us = p99.numberOrZero(i);
        l.p99_9Us = p99_9.numberOrZero(i);
        l.p99_99Us = p99_99.numberOrZero(i);
        if (readIos && writeIos) {
            f.read.ios = readIos->u64(i);
            f.write.ios = writeIos->u64(i);
            f.total.ios = f.read.ios + f.write.ios;
        } else {
            // As in version 1: rates, not counts; latency is null without I/O.
            iosOfRates(f, seconds, !mean.isNull(i));
        }
        if (readErrors && writeErrors) {
            f.read.errors = readErrors->u64(i);
            f.write.errors = writeErrors->u64(i);
        }
        // A direction's mean is null where it completed nothing; null with I/O (a file
        // written from one without them) or not kept: unknown (NaN, an empty field in
        // the time series, never a made-up 0).
        f.read.latency.meanUs
            = readMean ? readMean->numberOrNan(i) : std::numeric_limits<double>::quiet_NaN();
        f.write.latency.meanUs
            = writeMean ? writeMean->numberOrNan(i) : std::numeric_limits<double>::quiet_NaN();
        if (!connections.empty())
            f.connections = connections[i];
        sample.scopes.push_back(std::move(s));
    }
}

void readIntervalColumns(const Node &n, RunResult &r)
{
    const std::uint64_t declared = n["count"].u64();
    // The count is believed once a column has that many values (not before: a number in
    // a damaged file must not decide how much memory is taken).
    const Node stepNode = n["step"];
    if (stepNode.size() != declared)
        fail(stepNode,
            fmt::format(
                "expected {} values (one per interval), found {}", declared, stepNode.size()));
    const std::size_t count = stepNode.size();
    const Column step(stepNode, count), stepName(n["step_name"], count), phase(n["phase"], count),
        start(n["start_s"], count), end(n["end_s"], count), merged(n["merged_intervals"], count);
    r.intervals.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        IntervalSample &s = r.intervals[i];
        s.runId = r.runId;
        s.step = step.u64(i);
        s.stepName = stepName.string(i);
        s.phase = enumByName(phase.at(i),
            {RunPhase::Idle, RunPhase::Preparing, RunPhase::RampUp, RunPhase::Measuring,
                RunPhase::Stopping, RunPhase::Done},
            [](RunPhase p) { return runPhaseName(p); });
        s.startSeconds = start.numberOrNan(i);
        s.endSeconds = end.numberOrNan(i);
        s.mergedIntervals = merged.u32(i);
    }
    if (const auto cpu = columnsOf(n["cpu"])) {
        std::vector<Column> columns;
        for (const char *name :
            {"user_percent", "system_percent", "iowait_percent", "irq_percent", "softirq_percent",
                "steal_percent", "idle_percent", "busy_percent", "process_percent"})
            columns.emplace_back((*cpu)[name], count);
        const Column effectiveness(n["cpu_effectiveness"], count);
        for (std::size_t i = 0; i < count; ++i) {
            // An interval without CPU figures has null in every column.
            if (std::all_of(
                    columns.begin(), columns.end(), [&](const Column &c) { return c.isNull(i); }))
                continue;
            CpuFigures &c = r.intervals[i].cpu;
            c.valid = true;
            c.userPercent = columns[0].numberOrNan(i);
            c.systemPercent = columns[1].numberOrNan(i);
            c.iowaitPercent = columns[2].numberOrNan(i);
            c.irqPercent = columns[3].numberOrNan(i);
            c.softirqPercent = columns[4].numberOrNan(i);
            c.stealPercent = columns[5].numberOrNan(i);
            c.idlePercent = columns[6].numberOrNan(i);
            c.busyPercent = columns[7].numberOrNan(i);
            c.processPercent = columns[8].numberOrNan(i);
            r.intervals[i].cpuEffectiveness = effectiveness.numberOrNan(i);
        }
    }
    if (const auto devices = columnsOf(n["devices"]))
        intervalDevicesOf(*devices, r);
    const Node scopes = n["scopes"];
    for (std::size_t i = 0; i < scopes.size(); ++i)
        intervalScopeColumnsOf(scopes.at(i), r);
}

void readDeviceCounters(const Node &n, RunResult &r)
{
    DeviceMap &map = r.deviceMap;
    const Node devices = n["devices"];
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const Node d = devices.at(i);
        WatchedDevice w;
        w.name = d["name"].string();
        w.role = enumByName(d["role"],
            {DeviceRole::Target, DeviceRole::Disk, DeviceRole::Slave, DeviceRole::Backing},
            [](DeviceRole role) { return toString(role); });
        w.via = d["via"].stringOrEmpty();
        w.inTotal = d["in_total"].boolean();
        map.devices.push_back(std::move(w));
    }
    const Node targets = n["targets"];
    for (std::size_t i = 0; i < targets.size(); ++i) {
        const Node t = targets.at(i);
        TargetDevices td;
        td.targetPath = t["path"].string();
        if (!t["device"].isNull()) {
            const std::string name = t["device"].string();
            for (std::size_t d = 0; d < map.devices.size() && !td.device; ++d)
                if (map.devices[d].name == name)
                    td.device = d;
            if (!td.device)
                fail(t["device"], fmt::format("\"{}\" is not in device_counters.devices", name));
        }
        td.note = t["note"].string();
        map.targets.push_back(std::move(td));
    }
    const Node tail = n["tail"];
    if (!tail.isNull()) {
        DeviceTail &d = r.deviceTail;
        d.sampled = true;
        d.seconds = tail["seconds"].numberOrNan();
        d.idle = tail["idle"].boolean();
        d.pendingWriteBytes = tail["pending_write_bytes"].u64();
        d.flushedWriteBytes = tail["flushed_write_bytes"].u64();
        d.remainingWriteBytes = tail["remaining_write_bytes"].u64();
        d.total = deviceFiguresOf(tail["total"]);
        d.devices = perDeviceOf(tail["devices"]);
    }
}

std::vector<std::string> stringsOf(const Node &n)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n.size(); ++i)
        out.push_back(n.at(i).string());
    return out;
}

// The environment; returns the targets' facts (environment.targets).
std::vector<TargetInfo> readEnvironment(const Node &n, RunResult &r)
{
    Environment &e = r.environment;
    e.hostName = n["host_name"].string();
    e.osName = n["os_name"].string();
    e.kernel = n["kernel"].string();
    e.cpuModel = n["cpu_model"].string();
    e.cpuCount = n["cpu_count"].u32();
    e.engine = n["engine"].string();
    e.commandLine = n["command_line"].string();
    e.notices = stringsOf(n["notices"]);
    r.engine = e.engine;
    r.notices = e.notices;
    const Node devices = n["devices"];
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const Node d = devices.at(i);
        DeviceFacts f;
        f.path = d["path"].string();
        f.name = d["name"].string();
        f.model = d["model"].string();
        f.sizeBytes = d["size_bytes"].u64();
        f.rotational = d["rotational"].boolean();
        f.scheduler = d["scheduler"].string();
        f.logicalSectorBytes = d["logical_sector_bytes"].u32();
        f.physicalSectorBytes = d["physical_sector_bytes"].u32();
        f.nrRequests = d["nr_requests"].u32();
        f.writeCache = d["write_cache"].string();
        e.devices.push_back(std::move(f));
    }
    // The targets' facts, in the order of the plan's workers and their targets. Format 3
    // keeps them in the plan too (where they are read from); they stay here for readers
    // of earlier formats, and files of those have them only here (planOfOldFile).
    const Node targets = n["targets"];
    std::vector<TargetInfo> infos;
    for (std::size_t i = 0; i < targets.size(); ++i)
        infos.push_back(decodeTargetInfo(targets.at(i)));
    return infos;
}

// "2024-05-01T12:30:15.250Z", as the writer makes it (UTC, milliseconds).
std::chrono::system_clock::time_point timestampOf(const Node &n)
{
    const std::string text = n.string();
    int year = 0;
    unsigned month = 0, day = 0, hour = 0, minute = 0, second = 0, ms = 0;
    char tail = 0;
    // NOLINTNEXTLINE(cert-err34-c): every field is checked below, and the length first.
    const int fields = text.size() == 24
        ? std::sscanf(text.c_str(), "%4d-%2u-%2uT%2u:%2u:%2u.%3u%c", &year, &month, &day, &hour,
            &minute, &second, &ms, &tail)
        : 0;
    using namespace std::chrono;
    const year_month_day date {
        std::chrono::year {year}, std::chrono::month {month}, std::chrono::day {day}};
    if (fields != 8 || tail != 'Z' || !date.ok() || hour > 23 || minute > 59 || second > 59)
        fail(n, fmt::format("\"{}\" is not a UTC time like 2024-05-01T12:30:15.250Z", text));
    // The system clock counts nanoseconds in 64 bits, about 292 years either side of
    // 1970; a run started outside that was not written by IOPrism (and would overflow).
    if (year < 1970 || year > 2200)
        fail(n, fmt::format("\"{}\" is not a time a run can have started (1970 to 2200)", text));
    return sys_days {date} + hours {hour} + minutes {minute} + seconds {second} + milliseconds {ms};
}

void readError(const Node &n, RunResult &r)
{
    if (n.isNull())
        return;
    OpError e;
    e.operation = n["operation"].string();
    e.path = n["path"].string();
    const Node code = n["code"];
    if (!code.json().is_number_integer())
        code.wrongType("a whole number");
    const auto value = code.json().get<std::int64_t>();
    if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max())
        fail(code, fmt::format("{} is not an error code", value));
    e.code = std::error_code(static_cast<int>(value), std::system_category());
    e.detail = n["detail"].string();
    r.error = std::move(e);
}

void readStuckIo(const Node &n, RunResult &r)
{
    if (n.isNull())
        return;
    StuckIo s;
    s.ios = n["ios"].u32();
    s.oldestSeconds = n["oldest_seconds"].numberOrNan();
    s.targets = stringsOf(n["targets"]);
    r.stuckIo = std::move(s);
}

// The intervals name their scopes without the target's path (the steps have it): each
// target scope gets the path of the step scope that is the same target, as it had in the
// run (the time series has it as a column).
void intervalTargetPaths(RunResult &r)
{
    std::map<std::tuple<int, int, std::string>, std::string> paths;
    for (const auto &step : r.steps)
        for (const auto &scope : step.scopes)
            if (scope.scope.kind == Scope::Kind::Target)
                paths.emplace(std::tuple(scope.scope.worker, scope.scope.target, scope.scope.label),
                    scope.scope.targetPath);
    for (auto &sample : r.intervals)
        for (auto &scope : sample.scopes) {
            Scope &s = scope.scope;
            if (s.kind != Scope::Kind::Target || !s.targetPath.empty())
                continue;
            const auto found = paths.find(std::tuple(s.worker, s.target, s.label));
            if (found != paths.end())
                s.targetPath = found->second;
        }
}

// ---------------------------------------------------------------- the plan

// Files before format 3 kept no plan. The simplest honest one is built from what they
// have (docs/results.md, "Reading results back"): the profile and its specs, each step as
// the file names it (readStep, readSeries), and one worker holding every target's facts
// in file order, running no spec at no depth: the file does not say which worker ran
// what, where, at which depth.
void planOfOldFile(RunResult &r, const std::vector<TargetInfo> &infos)
{
    r.plan.specs = r.plan.profile.specs;
    ResolvedWorker worker;
    for (const TargetInfo &info : infos) {
        ResolvedTarget target;
        target.info = info;
        target.target.path = info.path;
        worker.targets.push_back(std::move(target));
    }
    if (!worker.targets.empty())
        r.plan.workers.push_back(std::move(worker));
}

Profile profileOf(const Node &profile)
{
    Problems problems;
    auto p = profileFromJson(profile.json(), problems);
    if (!p) {
        std::string first = "not a valid profile";
        for (const auto &problem : problems)
            if (problem.severity == Severity::Error) {
                first = problem.toString();
                break;
            }
        failAt(profile, "profile", first);
    }
    return std::move(*p);
}

RunResult readDocument(const Node &doc, int version)
{
    RunResult r;
    r.runId = doc["run_id"].u64();
    r.startedAt = timestampOf(doc["started_at"]);
    r.environment.toolVersion = doc["tool"]["version"].string();

    Profile profile = profileOf(doc["profile"]);
    const std::vector<TargetInfo> infos = readEnvironment(doc["environment"], r);
    // Since format 3 the file keeps the plan the run executed; nothing here plans again.
    const bool planKept = version >= 3;
    if (planKept)
        r.plan = decodeResolvedPlan(doc["plan"], std::move(profile));
    else
        r.plan.profile = std::move(profile);

    const Node steps = doc["steps"];
    for (std::size_t i = 0; i < steps.size(); ++i)
        readStep(steps.at(i), r, planKept);
    if (doc.has("series")) {
        if (!r.plan.profile.setup.series)
            failAt(doc, "series", "present, but the profile has no series");
        readSeries(doc["series"], r, planKept);
    }
    if (!planKept)
        planOfOldFile(r, infos);
    // Version 1: one object per interval; since 2, columns.
    const Node intervals = doc["intervals"];
    if (version == 1)
        for (std::size_t i = 0; i < intervals.size(); ++i)
            r.intervals.push_back(intervalOf(intervals.at(i), r.runId));
    else
        readIntervalColumns(intervals, r);
    intervalTargetPaths(r);
    readDeviceCounters(doc["device_counters"], r);
    readError(doc["error"], r);
    r.stoppedByUser = doc["stoppedByUser"].boolean();
    readStuckIo(doc.optional("stuck_io"), r);
    return r;
}

} // namespace

namespace {

// What the document is before its fields are read: parsed, an object, of our format, of a
// version this build reads.
struct Checked {
    Json document;
    std::string error;
    int version = 0;
    bool newerVersion = false;
};

// A headline needs neither the intervals nor the histograms: the parser skips building
// them (it still checks their syntax, so a damaged file is still found damaged).
bool skippedForHeadline(int depth, Json::parse_event_t event, const Json &parsed)
{
    if (event != Json::parse_event_t::key)
        return true;
    const auto &key = parsed.get_ref<const std::string &>();
    return !((depth == 1 && key == "intervals") || key == "histogram_ns" || key == "iometer_bins");
}

// The document's format and version, refused with the first problem.
void checkFormat(const Json &document, JsonReadContext &context, Checked &out)
{
    const Node doc(document, "", context);
    if (!document.is_object())
        failAt(doc, "",
            fmt::format("not an IOPrism results file: the document is {}, not an object",
                jsonTypeName(document)));
    if (!document.contains("format"))
        failAt(doc, "", "not an IOPrism results file: it has no \"format\" field");
    const std::string format = doc["format"].string();
    if (format == kProfileFormatName)
        failAt(doc, "format", "this is an IOPrism profile, not a results file");
    if (format != kResultsFormatName)
        failAt(doc, "format",
            fmt::format(
                "\"{}\" is not \"{}\": not an IOPrism results file", format, kResultsFormatName));
    const Node version = doc["version"];
    if (!version.json().is_number_integer())
        version.wrongType("a whole number");
    const auto v = version.json().get<std::int64_t>();
    if (v < 1)
        failAt(doc, "version", fmt::format("{} is not a version of the results format", v));
    out.version = v > std::numeric_limits<int>::max() ? std::numeric_limits<int>::max()
                                                      : static_cast<int>(v);
    if (v > kResultsFormatVersion) {
        out.newerVersion = true;
        failAt(doc, "",
            fmt::format("results format version {} was written by a newer IOPrism; this "
                        "IOPrism ({}) reads version {} at most: update IOPrism to "
                        "open it",
                v, IOPRISM_VERSION, kResultsFormatVersion));
    }
}

// Why the text is not JSON, from the parser's error.
std::string syntaxError(std::string_view text, const Json::parse_error &e)
{
    // e.byte counts from 1 and is the byte where the parser stopped.
    const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    const TextPosition at = textPosition(text, offset);
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return "empty file: not a results JSON";
    if (text[first] != '{' && text[first] != '[')
        return "not JSON (it does not start with '{')";
    if (e.byte >= text.size())
        return fmt::format("truncated: the JSON ends at line {}, column {} before it is complete "
                           "(a file cut short, e.g. by a full disk or a copy that did not finish)",
            at.line, at.column);
    return fmt::format("not valid JSON at line {}, column {}: {}", at.line, at.column, e.what());
}

Checked parseAndCheck(std::string_view text, bool headlineOnly)
{
    Checked out;
    try {
        out.document = headlineOnly ? Json::parse(text.begin(), text.end(), skippedForHeadline)
                                    : Json::parse(text.begin(), text.end());
    } catch (const Json::parse_error &e) {
        out.error = syntaxError(text, e);
        return out;
    } catch (const std::exception &e) {
        out.error = fmt::format("cannot read the results: {}", e.what());
        return out;
    }
    out.error = firstJsonReadError(
        [&](JsonReadContext &context) { checkFormat(out.document, context, out); },
        "cannot read the results: ");
    return out;
}

std::string profileName(const Profile &profile)
{
    if (!profile.setup.description.empty())
        return profile.setup.description;
    std::string names;
    for (const auto &spec : profile.specs)
        names += (names.empty() ? "" : ", ") + spec.name;
    return names.empty() ? std::string("(no specs)") : names;
}

} // namespace

std::string_view toString(RunOutcome outcome)
{
    switch (outcome) {
    case RunOutcome::Complete:
        return "complete";
    case RunOutcome::Stopped:
        return "stopped";
    case RunOutcome::Failed:
        return "failed";
    }
    return "";
}

RunOutcome runOutcome(const RunResult &result)
{
    if (result.error)
        return RunOutcome::Failed;
    const bool cut = std::any_of(
        result.steps.begin(), result.steps.end(), [](const StepResult &s) { return !s.complete; });
    return result.stoppedByUser || cut ? RunOutcome::Stopped : RunOutcome::Complete;
}

ResultsRead readResultsJson(std::string_view text)
{
    ResultsRead out;
    Checked checked = parseAndCheck(text, false);
    out.version = checked.version;
    out.newerVersion = checked.newerVersion;
    if (!checked.error.empty()) {
        out.error = std::move(checked.error);
        return out;
    }
    // Every access is checked; anything else (bad_alloc) still becomes a message, since a
    // reader of outside data must not end the process.
    out.error = firstJsonReadError(
        [&](JsonReadContext &context) {
            out.result = readDocument(Node(checked.document, "", context), checked.version);
        },
        "cannot read the results: ");
    if (!out.error.empty())
        out.result.reset();
    return out;
}

namespace {

// The headline's targets and device models (environment.targets, else the profile's).
void headlineTargets(const Node &doc, const Profile &profile, ResultsHeadline &h)
{
    const Node env = doc["environment"];
    const Node targets = env["targets"];
    const Node devices = env["devices"];
    for (std::size_t i = 0; i < targets.size(); ++i) {
        const std::string path = targets.at(i)["path"].string();
        std::string model;
        for (std::size_t d = 0; d < devices.size(); ++d)
            if (devices.at(d)["path"].string() == path)
                model = devices.at(d)["model"].string();
        h.targets.push_back(path);
        h.deviceModels.push_back(model);
    }
    // A run refused before preparing its targets has no facts of them: its profile's.
    if (h.targets.empty())
        for (const auto &host : profile.hosts)
            for (const auto &worker : host.workers)
                for (const auto &target : worker.targets)
                    if (std::find(h.targets.begin(), h.targets.end(), target.path)
                        == h.targets.end()) {
                        h.targets.push_back(target.path);
                        h.deviceModels.emplace_back();
                    }
}

ResultsHeadline headlineOf(const Node &doc)
{
    ResultsHeadline h;
    h.startedAt = timestampOf(doc["started_at"]);
    h.toolVersion = doc["tool"]["version"].string();
    const Profile profile = profileOf(doc["profile"]);
    h.profileName = profileName(profile);
    h.engine = doc["environment"]["engine"].string();
    headlineTargets(doc, profile, h);
    const Node steps = doc["steps"];
    h.steps = steps.size();
    h.iops = h.megabytesPerSecond = h.meanLatencyUs = h.p99LatencyUs
        = std::numeric_limits<double>::quiet_NaN();
    bool cut = false;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const Node step = steps.at(i);
        cut |= !step["complete"].boolean();
        const Verdict v = verdictOf(step["devices"]["verdict"]["verdict"]);
        if (notability(v) > notability(h.verdict))
            h.verdict = v;
        // The step's All scope (first in scopes); a step that completed no I/O (an
        // Idle pause, a step failed at its start) has no figure to show.
        const Node scopes = step["scopes"];
        if (scopes.size() == 0)
            continue;
        const Node total = scopes.at(0)["total"];
        const double iops = total["iops"].numberOrNan();
        if (total["ios"].u64() == 0 || !std::isfinite(iops) || (h.figureStep && !(iops > h.iops)))
            continue;
        h.figureStep = i;
        h.figureStepName = step["name"].string();
        h.iops = iops;
        h.megabytesPerSecond = total["mbps"].numberOrNan();
        h.meanLatencyUs = total["latency_us"]["mean"].numberOrNan();
        h.p99LatencyUs = total["latency_us"]["p99"].numberOrNan();
    }
    const Node error = doc["error"];
    if (!error.isNull()) {
        h.outcome = RunOutcome::Failed;
        h.error = error["text"].string();
    } else if (doc["stoppedByUser"].boolean() || cut) {
        h.outcome = RunOutcome::Stopped;
    }
    return h;
}

} // namespace

ResultsHeadlineRead readResultsHeadline(std::string_view text)
{
    ResultsHeadlineRead out;
    Checked checked = parseAndCheck(text, true);
    if (!checked.error.empty()) {
        out.error = std::move(checked.error);
        return out;
    }
    out.error = firstJsonReadError(
        [&](JsonReadContext &context) {
            out.headline = headlineOf(Node(checked.document, "", context));
        },
        "cannot read the results: ");
    if (!out.error.empty())
        out.headline.reset();
    return out;
}

std::string headlineFigureLabel(const ResultsHeadline &headline)
{
    if (headline.steps < 2 || !headline.figureStep)
        return {};
    return fmt::format("best of {}: {}", headline.steps, headline.figureStepName);
}

std::string shortenedText(std::string_view text, std::size_t maxChars)
{
    constexpr std::string_view kEllipsis = "\xE2\x80\xA6"; // U+2026 in UTF-8
    // A code point starts at every byte that is not a continuation byte (10xxxxxx).
    const auto isStart = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; };
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (!isStart(text[i]))
            continue;
        if (chars + 1 == maxChars) {
            // Room for one more: the rest if it is that one character, else the ellipsis.
            std::size_t next = i + 1;
            while (next < text.size() && !isStart(text[next]))
                ++next;
            if (next >= text.size())
                return std::string(text);
            return std::string(text.substr(0, i)) + std::string(kEllipsis);
        }
        ++chars;
    }
    return std::string(text);
}

} // namespace ioprism::core
