// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/results_json_intervals.h"

#include "core/report/resolution.h"
#include "core/report/results_json.h"
#include "core/run/interval_history.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ioprism::core {

namespace {

// ---------------------------------------------------------------- intervals, as columns

// Version 2 keeps the intervals as columns (docs/results.md, "intervals"): one array per
// field instead of one object per scope per interval. An hour at 1 s intervals is 3600
// samples of 9 scopes of 20 figures: as objects that was 28.8 MB of names and
// indentation, built as a document of a million nodes before a byte was written (0.3 s
// of a save); as columns the numbers are written straight into the text.

// The intervals keep each figure to the resolution of what it measures, not to the 17
// digits of a double (docs/results.md, "intervals"): times to the nanosecond of the clock,
// throughput to the byte per second, rates to a thousandth. Half the characters, and
// whole numbers are written several times faster than shortest-form doubles. The steps
// and the summary, the run's reported figures, keep every digit. The places and the
// rounding are core/report/resolution.h's, which the time-series CSV shows.

// The latency of a span without completed I/O is null but for the max of an I/O still
// in flight (as latencyJson).
double intervalLatency(const DirectionFigures &d, double LatencyFigures::*field)
{
    const double value = d.latency.*field;
    if (d.ios > 0)
        return value;
    return field == &LatencyFigures::maxUs && value > 0 ? value
                                                        : std::numeric_limits<double>::quiet_NaN();
}

constexpr std::pair<const char *, double LatencyFigures::*> kLatencyColumns[]
    = {{"min", &LatencyFigures::minUs}, {"mean", &LatencyFigures::meanUs},
        {"max", &LatencyFigures::maxUs}, {"p50", &LatencyFigures::p50Us},
        {"p90", &LatencyFigures::p90Us}, {"p99", &LatencyFigures::p99Us},
        {"p99_9", &LatencyFigures::p99_9Us}, {"p99_99", &LatencyFigures::p99_99Us}};

constexpr std::pair<const char *, double CpuFigures::*> kCpuColumns[] = {
    {"user_percent", &CpuFigures::userPercent}, {"system_percent", &CpuFigures::systemPercent},
    {"iowait_percent", &CpuFigures::iowaitPercent}, {"irq_percent", &CpuFigures::irqPercent},
    {"softirq_percent", &CpuFigures::softirqPercent}, {"steal_percent", &CpuFigures::stealPercent},
    {"idle_percent", &CpuFigures::idlePercent}, {"busy_percent", &CpuFigures::busyPercent},
    {"process_percent", &CpuFigures::processPercent}};

constexpr std::pair<const char *, PhaseFigures ConnectionFigures::*> kConnectionPhases[]
    = {{"open", &ConnectionFigures::open}, {"close", &ConnectionFigures::close},
        {"connection", &ConnectionFigures::connection}};

// An interval keeps the mean and the longest of each phase: the time series' columns and
// the Live page's line. Its percentiles are in the steps.
constexpr std::pair<const char *, double LatencyFigures::*> kConnectionLatencyColumns[]
    = {{"mean", &LatencyFigures::meanUs}, {"max", &LatencyFigures::maxUs}};

// A worker's or target's index, null where it does not apply (as the steps write it).
void indexOrNull(JsonTextWriter &w, int index)
{
    if (index >= 0)
        w.number(std::uint64_t(index));
    else
        w.null();
}

bool sameScopes(const IntervalSample &a, const IntervalSample &b)
{
    return std::equal(a.scopes.begin(), a.scopes.end(), b.scopes.begin(), b.scopes.end(),
        [](const ScopeFigures &x, const ScopeFigures &y) {
            return x.scope.kind == y.scope.kind && x.scope.worker == y.scope.worker
                && x.scope.target == y.scope.target && x.scope.label == y.scope.label
                && x.scope.host == y.scope.host;
        });
}

// Device figures as columns, one entry per interval; `figures(i)` is null where the
// interval has none (the columns are then null).
template<typename Get> void deviceFigureColumns(JsonTextWriter &w, std::size_t count, Get figures)
{
    auto numberColumn = [&](const char *name, double DeviceFigures::*field, int places,
                            bool DeviceFigures::*known = nullptr) {
        w.column(name, count, [&](std::size_t i) {
            const DeviceFigures *f = figures(i);
            if (f && (!known || f->*known))
                w.fixed(f->*field, places);
            else
                w.null();
        });
    };
    auto countColumn = [&](const char *name, std::uint64_t DeviceFigures::*field,
                           bool DeviceFigures::*known = nullptr) {
        w.column(name, count, [&](std::size_t i) {
            const DeviceFigures *f = figures(i);
            if (f && (!known || f->*known))
                w.number(f->*field);
            else
                w.null();
        });
    };
    w.beginObject();
    numberColumn("seconds", &DeviceFigures::seconds, kSecondsPlaces);
    countColumn("read_ios", &DeviceFigures::readIos);
    countColumn("write_ios", &DeviceFigures::writeIos);
    countColumn("read_bytes", &DeviceFigures::readBytes);
    countColumn("write_bytes", &DeviceFigures::writeBytes);
    numberColumn("read_iops", &DeviceFigures::readsPerSecond, kRatePlaces);
    numberColumn("write_iops", &DeviceFigures::writesPerSecond, kRatePlaces);
    numberColumn("read_mbps", &DeviceFigures::readMegabytesPerSecond, kMegabytesPlaces);
    numberColumn("write_mbps", &DeviceFigures::writeMegabytesPerSecond, kMegabytesPlaces);
    numberColumn("read_merges_per_second", &DeviceFigures::readMergesPerSecond, kRatePlaces);
    numberColumn("write_merges_per_second", &DeviceFigures::writeMergesPerSecond, kRatePlaces);
    numberColumn("avg_request_bytes", &DeviceFigures::averageRequestBytes, kRatePlaces);
    numberColumn("avg_read_request_bytes", &DeviceFigures::averageReadRequestBytes, kRatePlaces);
    numberColumn("avg_write_request_bytes", &DeviceFigures::averageWriteRequestBytes, kRatePlaces);
    numberColumn("read_await_ms", &DeviceFigures::readAwaitMs, kMillisecondsPlaces,
        &DeviceFigures::hasTimes);
    numberColumn("write_await_ms", &DeviceFigures::writeAwaitMs, kMillisecondsPlaces,
        &DeviceFigures::hasTimes);
    numberColumn("queue_size", &DeviceFigures::queueSize, kRatePlaces, &DeviceFigures::hasTimes);
    numberColumn(
        "util_percent", &DeviceFigures::utilPercent, kPercentPlaces, &DeviceFigures::hasTimes);
    countColumn("discard_ios", &DeviceFigures::discardIos, &DeviceFigures::hasDiscards);
    countColumn("discard_bytes", &DeviceFigures::discardBytes, &DeviceFigures::hasDiscards);
    numberColumn("discard_iops", &DeviceFigures::discardsPerSecond, kRatePlaces,
        &DeviceFigures::hasDiscards);
    numberColumn("discard_mbps", &DeviceFigures::discardMegabytesPerSecond, kMegabytesPlaces,
        &DeviceFigures::hasDiscards);
    countColumn("flush_ios", &DeviceFigures::flushIos, &DeviceFigures::hasFlushes);
    numberColumn(
        "flush_iops", &DeviceFigures::flushesPerSecond, kRatePlaces, &DeviceFigures::hasFlushes);
    numberColumn("flush_await_ms", &DeviceFigures::flushAwaitMs, kMillisecondsPlaces,
        &DeviceFigures::hasFlushes);
    countColumn("in_flight", &DeviceFigures::inFlight);
    w.endObject();
}

// An interval without device counters, written as v1 wrote it (no figures, no verdict):
// when every interval is one, "devices" is null.
bool withoutDeviceFigures(const DeviceReport &r)
{
    return !r.available && r.verdict.verdict == Verdict::NoDeviceCounters
        && std::none_of(
            r.devices.begin(), r.devices.end(), [](const DeviceFigures &f) { return f.valid; });
}

void directionVerdictColumns(JsonTextWriter &w, const std::vector<IntervalSample> &intervals,
    DirectionVerdict DeviceVerdict::*direction)
{
    const std::size_t n = intervals.size();
    // A direction is null where the headline is "no device counters" (as verdictJson).
    auto get = [&](std::size_t i) -> const DirectionVerdict * {
        const DeviceVerdict &v = intervals[i].devices.verdict;
        return v.verdict == Verdict::NoDeviceCounters ? nullptr : &(v.*direction);
    };
    w.beginObject();
    w.column("verdict", n, [&](std::size_t i) {
        if (const auto *d = get(i))
            w.string(toString(d->verdict));
        else
            w.null();
    });
    w.column("app_bytes", n, [&](std::size_t i) {
        if (const auto *d = get(i))
            w.number(d->appBytes);
        else
            w.null();
    });
    w.column("device_bytes", n, [&](std::size_t i) {
        if (const auto *d = get(i))
            w.number(d->deviceBytes);
        else
            w.null();
    });
    w.column("ratio", n, [&](std::size_t i) {
        const auto *d = get(i);
        if (d && d->appBytes)
            w.fixed(d->ratio, kRatioPlaces);
        else
            w.null();
    });
    w.endObject();
}

void intervalDeviceColumns(JsonTextWriter &w, const RunResult &result)
{
    const auto &intervals = result.intervals;
    const std::size_t n = intervals.size();
    if (std::all_of(intervals.begin(), intervals.end(),
            [](const IntervalSample &s) { return withoutDeviceFigures(s.devices); })) {
        w.null();
        return;
    }
    w.beginObject();
    w.column("available", n, [&](std::size_t i) { w.boolean(intervals[i].devices.available); });
    w.column("verdict", n,
        [&](std::size_t i) { w.string(toString(intervals[i].devices.verdict.verdict)); });
    w.key("read");
    directionVerdictColumns(w, intervals, &DeviceVerdict::read);
    w.key("write");
    directionVerdictColumns(w, intervals, &DeviceVerdict::write);
    w.column("write_backlog_bytes", n, [&](std::size_t i) {
        const DeviceVerdict &v = intervals[i].devices.verdict;
        if (v.verdict == Verdict::NoDeviceCounters)
            w.null();
        else
            w.number(v.writeBacklogBytes);
    });
    w.key("total");
    deviceFigureColumns(w, n, [&](std::size_t i) -> const DeviceFigures * {
        const DeviceReport &r = intervals[i].devices;
        return r.available && r.total.valid ? &r.total : nullptr;
    });
    w.key("devices");
    w.beginArray();
    const DeviceMap &map = result.deviceMap;
    for (std::size_t d = 0; d < map.devices.size(); ++d) {
        w.element();
        w.beginObject();
        w.key("name");
        w.string(map.devices[d].name);
        w.key("role");
        w.string(toString(map.devices[d].role));
        w.key("figures");
        deviceFigureColumns(w, n, [&](std::size_t i) -> const DeviceFigures * {
            const auto &devices = intervals[i].devices.devices;
            return d < devices.size() && devices[d].valid ? &devices[d] : nullptr;
        });
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

// A scope's files opened and closed per interval: `open`, `close` and `connection`, each
// with the count, errors and rate of the calls that ended in the interval and their mean
// and longest time (what the time series and the Live page show of them). An interval
// where the scope has no connection figures is null in every column (`count` tells); a
// time is null where no call of its kind ended, as in the steps.
template<typename Get> void intervalConnectionColumns(JsonTextWriter &w, std::size_t count, Get get)
{
    w.beginObject();
    for (const auto &[name, member] : kConnectionPhases) {
        const auto phase = member;
        auto figures = [&](std::size_t i) -> const PhaseFigures * {
            const std::optional<ConnectionFigures> &c = get(i);
            return c ? &(*c.*phase) : nullptr;
        };
        w.key(name);
        w.beginObject();
        w.column("count", count, [&](std::size_t i) {
            if (const PhaseFigures *p = figures(i))
                w.number(p->count);
            else
                w.null();
        });
        w.column("errors", count, [&](std::size_t i) {
            if (const PhaseFigures *p = figures(i))
                w.number(p->errors);
            else
                w.null();
        });
        w.column("per_second", count, [&](std::size_t i) {
            if (const PhaseFigures *p = figures(i))
                w.fixed(p->perSecond, kRatePlaces);
            else
                w.null();
        });
        w.key("latency_us");
        w.beginObject();
        for (const auto &[latencyName, latencyField] : kConnectionLatencyColumns) {
            const auto field = latencyField;
            w.column(latencyName, count, [&](std::size_t i) {
                const PhaseFigures *p = figures(i);
                if (p && p->count > 0)
                    w.fixed(p->latency.*field, kMicrosecondsPlaces);
                else
                    w.null();
            });
        }
        w.endObject();
        w.endObject();
    }
    w.endObject();
}

// Which scope an entry of the intervals' scopes is, and over which intervals.
void intervalScopeIdentity(
    JsonTextWriter &w, const Scope &scope, std::size_t first, std::size_t count)
{
    w.key("first");
    w.number(std::uint64_t(first));
    w.key("count");
    w.number(std::uint64_t(count));
    w.key("label");
    w.string(scope.label);
    w.key("kind");
    w.string(scopeKindName(scope.kind));
    w.key("worker");
    indexOrNull(w, scope.worker);
    w.key("target");
    indexOrNull(w, scope.target);
    if (scope.host >= 0) {
        w.key("host");
        w.number(std::uint64_t(scope.host));
    }
}

// The figures of one scope over `count` intervals from `first`, where it is scope
// `index` of each.
void intervalScopeColumns(JsonTextWriter &w, const std::vector<IntervalSample> &intervals,
    std::size_t first, std::size_t count, std::size_t index)
{
    const Scope &scope = intervals[first].scopes[index].scope;
    auto figures = [&](std::size_t i) -> const Figures & {
        return intervals[first + i].scopes[index].figures;
    };
    w.beginObject();
    intervalScopeIdentity(w, scope, first, count);
    using F = Figures;
    using D = DirectionFigures;
    auto rate = [&](const char *name, D F::*direction, double D::*field, int places) {
        w.column(
            name, count, [&](std::size_t i) { w.fixed(figures(i).*direction.*field, places); });
    };
    auto bytes = [&](const char *name, D F::*direction, std::uint64_t D::*field) {
        w.column(name, count, [&](std::size_t i) { w.number(figures(i).*direction.*field); });
    };
    rate("iops", &F::total, &D::iops, kRatePlaces);
    rate("read_iops", &F::read, &D::iops, kRatePlaces);
    rate("write_iops", &F::write, &D::iops, kRatePlaces);
    rate("mbps", &F::total, &D::megabytesPerSecond, kMegabytesPlaces);
    rate("read_mbps", &F::read, &D::megabytesPerSecond, kMegabytesPlaces);
    rate("write_mbps", &F::write, &D::megabytesPerSecond, kMegabytesPlaces);
    bytes("read_bytes", &F::read, &D::bytes);
    bytes("write_bytes", &F::write, &D::bytes);
    // Added in format 2 after its first files: each direction's count of I/Os and errors,
    // which the time series has as columns (rates and totals alone do not give them back).
    bytes("read_ios", &F::read, &D::ios);
    bytes("write_ios", &F::write, &D::ios);
    bytes("errors", &F::total, &D::errors);
    bytes("read_errors", &F::read, &D::errors);
    bytes("write_errors", &F::write, &D::errors);
    w.column("outstanding", count,
        [&](std::size_t i) { w.number(std::uint64_t(figures(i).inFlightAtEnd)); });
    w.column("stalled_ios", count,
        [&](std::size_t i) { w.number(std::uint64_t(figures(i).total.stalledIos)); });
    rate("oldest_in_flight_us", &F::total, &D::oldestInFlightUs, kMicrosecondsPlaces);
    w.key("latency_us");
    w.beginObject();
    for (const auto &column : kLatencyColumns) {
        const auto field = column.second;
        w.column(column.first, count, [&](std::size_t i) {
            w.fixed(intervalLatency(figures(i).total, field), kMicrosecondsPlaces);
        });
    }
    w.endObject();
    // Each direction's mean (added like the counts above): the time series'
    // read_lat_mean_us and write_lat_mean_us; null where that direction completed nothing.
    for (const auto &[name, direction] :
        {std::pair {"read_latency_us", &F::read}, std::pair {"write_latency_us", &F::write}}) {
        const auto which = direction;
        w.key(name);
        w.beginObject();
        w.column("mean", count, [&](std::size_t i) {
            w.fixed(
                intervalLatency(figures(i).*which, &LatencyFigures::meanUs), kMicrosecondsPlaces);
        });
        w.endObject();
    }
    // Files opened and closed (a tree, the connection rate): only for a scope that has
    // them somewhere in the stretch, so that the file of any other run is as it was.
    const bool anyConnections = [&] {
        for (std::size_t i = 0; i < count; ++i)
            if (figures(i).connections)
                return true;
        return false;
    }();
    if (anyConnections) {
        w.key("connections");
        intervalConnectionColumns(
            w, count, [&](std::size_t i) -> const std::optional<ConnectionFigures> & {
                return figures(i).connections;
            });
    }
    w.endObject();
}

// The heat map's columns (core/stats/latency_map.h): per interval the first band and the
// counts from it to the last non-empty band, as one line of small arrays; null when no
// interval completed an I/O. Each interval's bands are made where they are written (twice:
// a first band, then the counts), not kept for the whole run.
void intervalLatencyBandColumns(JsonTextWriter &w, const std::vector<IntervalSample> &intervals)
{
    w.key("latency_bands");
    if (std::all_of(intervals.begin(), intervals.end(),
            [](const IntervalSample &s) { return intervalLatencyBands(s).empty(); })) {
        w.null();
        return;
    }
    w.beginObject();
    w.key("per_octave");
    w.number(std::uint64_t(kLatencyBandsPerOctave));
    w.column("first", intervals.size(), [&](std::size_t i) {
        const LatencyBands bands = intervalLatencyBands(intervals[i]);
        if (bands.empty())
            w.null();
        else
            w.number(std::uint64_t(bands.first));
    });
    w.column("counts", intervals.size(), [&](std::size_t i) {
        const LatencyBands bands = intervalLatencyBands(intervals[i]);
        std::string &out = w.text();
        out += '[';
        for (std::size_t b = 0; b < bands.counts.size(); ++b) {
            if (b > 0)
                out += ", ";
            appendJsonNumber(out, bands.counts[b]);
        }
        out += ']';
    });
    w.endObject();
}

} // namespace

void writeIntervalColumns(JsonTextWriter &w, const RunResult &result)
{
    const auto &intervals = result.intervals;
    const std::size_t n = intervals.size();
    w.beginObject();
    w.key("count");
    w.number(std::uint64_t(n));
    w.column("step", n, [&](std::size_t i) { w.number(std::uint64_t(intervals[i].step)); });
    w.column("step_name", n, [&](std::size_t i) { w.string(intervals[i].stepName); });
    w.column("phase", n, [&](std::size_t i) { w.string(runPhaseName(intervals[i].phase)); });
    w.column(
        "start_s", n, [&](std::size_t i) { w.fixed(intervals[i].startSeconds, kSecondsPlaces); });
    w.column("end_s", n, [&](std::size_t i) { w.fixed(intervals[i].endSeconds, kSecondsPlaces); });
    w.column("merged_intervals", n,
        [&](std::size_t i) { w.number(std::uint64_t(intervals[i].mergedIntervals)); });
    // Without CPU counters (no interval has CPU figures) both are null.
    const bool anyCpu = std::any_of(
        intervals.begin(), intervals.end(), [](const IntervalSample &s) { return s.cpu.valid; });
    w.key("cpu");
    if (anyCpu) {
        w.beginObject();
        for (const auto &column : kCpuColumns) {
            const auto field = column.second;
            w.column(column.first, n, [&](std::size_t i) {
                if (intervals[i].cpu.valid)
                    w.fixed(intervals[i].cpu.*field, kPercentPlaces);
                else
                    w.null();
            });
        }
        w.endObject();
        w.column("cpu_effectiveness", n, [&](std::size_t i) {
            if (intervals[i].cpu.valid)
                w.fixed(intervals[i].cpuEffectiveness, kRatePlaces);
            else
                w.null();
        });
    } else {
        w.null();
        w.key("cpu_effectiveness");
        w.null();
    }
    w.key("devices");
    intervalDeviceColumns(w, result);
    intervalLatencyBandColumns(w, intervals);
    // Per scope, over each stretch of intervals with the same scopes (a stretch is a step,
    // or the whole run when every step has the same workers and targets).
    w.key("scopes");
    w.beginArray();
    for (std::size_t first = 0; first < n;) {
        std::size_t end = first + 1;
        while (end < n && sameScopes(intervals[first], intervals[end]))
            ++end;
        for (std::size_t s = 0; s < intervals[first].scopes.size(); ++s) {
            w.element();
            intervalScopeColumns(w, intervals, first, end - first, s);
        }
        first = end;
    }
    w.endArray();
    w.endObject();
}

} // namespace ioprism::core
