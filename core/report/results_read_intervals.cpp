// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a results file's intervals (results_read_parts.h): one object per interval in
// format 1, columns since format 2.
#include "core/report/results_json.h"
#include "core/report/results_read_parts.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace ioprism::core::results_read {

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
    f.inFlightAtEnd = n["outstanding"].u32();
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
        {RunPhase::Idle, RunPhase::Preparing, RunPhase::Preconditioning, RunPhase::RampUp,
            RunPhase::Measuring, RunPhase::Stopping, RunPhase::Done, RunPhase::Pausing},
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

// A scope's latency per interval: one column per figure.
struct LatencyColumns {
    LatencyColumns(const Node &n, std::size_t count)
        : min(n["min"], count)
        , mean(n["mean"], count)
        , max(n["max"], count)
        , p50(n["p50"], count)
        , p90(n["p90"], count)
        , p99(n["p99"], count)
        , p99_9(n["p99_9"], count)
        , p99_99(n["p99_99"], count)
    { }

    LatencyFigures at(std::size_t i) const
    {
        return {.minUs = min.numberOrZero(i),
            .meanUs = mean.numberOrZero(i),
            .maxUs = max.numberOrZero(i),
            .p50Us = p50.numberOrZero(i),
            .p90Us = p90.numberOrZero(i),
            .p99Us = p99.numberOrZero(i),
            .p99_9Us = p99_9.numberOrZero(i),
            .p99_99Us = p99_99.numberOrZero(i)};
    }

    Column min, mean, max, p50, p90, p99, p99_9, p99_99;
};

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
    const LatencyColumns latency(n["latency_us"], count);
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
        f.inFlightAtEnd = outstanding.u32(i);
        f.total.stalledIos = stalled.u32(i);
        f.total.oldestInFlightUs = oldest.numberOrZero(i);
        f.total.latency = latency.at(i);
        if (readIos && writeIos) {
            f.read.ios = readIos->u64(i);
            f.write.ios = writeIos->u64(i);
            f.total.ios = f.read.ios + f.write.ios;
        } else {
            // As in version 1: rates, not counts; latency is null without I/O.
            iosOfRates(f, seconds, !latency.mean.isNull(i));
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

// The heat map's columns: each interval's first band (null: no I/O) and its counts, from
// that band to the highest with I/O (both ends non-zero, within kMaxLatencyBand). The
// counts are read where they are, as Column reads a column (a long run has thousands of
// intervals of a few dozen counts); a Node is made only for a message.
void intervalLatencyBandsOf(const Node &n, RunResult &r)
{
    const Node perOctave = n["per_octave"];
    if (perOctave.u64() != kLatencyBandsPerOctave)
        fail(perOctave,
            fmt::format("bands of {} per octave: this IOPrism reads {}", perOctave.u64(),
                kLatencyBandsPerOctave));
    const std::size_t count = r.intervals.size();
    const Column first(n["first"], count);
    const Node counts = n["counts"];
    const Column perInterval(counts, count); // one list per interval
    for (std::size_t i = 0; i < count; ++i) {
        const Node list = perInterval.at(i);
        if (!list.isArray())
            throw JsonReadStopped {};
        const Json &values = list.json();
        if (first.isNull(i)) {
            if (!values.empty())
                fail(list, "counts of an interval without a first band");
            continue;
        }
        const std::uint32_t band = first.u32(i);
        if (values.empty() || band > kMaxLatencyBand || values.size() - 1 > kMaxLatencyBand - band)
            fail(list,
                fmt::format("not the counts of latency bands from band {} (at most {})", band,
                    kMaxLatencyBand));
        LatencyBands &bands = r.intervals[i].latencyBands;
        bands.first = band;
        bands.counts.reserve(values.size());
        for (std::size_t b = 0; b < values.size(); ++b)
            bands.counts.push_back(
                values[b].is_number_unsigned() ? values[b].get<std::uint64_t>() : list.at(b).u64());
        if (bands.counts.front() == 0 || bands.counts.back() == 0)
            fail(list, "the first and the last band of an interval hold I/O");
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
            {RunPhase::Idle, RunPhase::Preparing, RunPhase::Preconditioning, RunPhase::RampUp,
                RunPhase::Measuring, RunPhase::Stopping, RunPhase::Done, RunPhase::Pausing},
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
    // Absent from files written before the heat map was kept.
    if (const auto bands = columnsOf(n.optional("latency_bands")))
        intervalLatencyBandsOf(*bands, r);
    const Node scopes = n["scopes"];
    for (std::size_t i = 0; i < scopes.size(); ++i)
        intervalScopeColumnsOf(scopes.at(i), r);
}

} // namespace ioprism::core::results_read
