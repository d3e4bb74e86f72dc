// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/results_json.h"

#include "core/profile/names.h"
#include "core/profile/profile_json.h"
#include "core/profile/series.h"
#include "core/report/json_text.h"
#include "core/report/resolution.h"
#include "core/run/resolved_plan_json.h"
#include "core/run/series_result.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace ioprism::core {

using Json = nlohmann::ordered_json;

// ---------------------------------------------------------------- shared helpers

Measurement runTotal(const RunResult &result)
{
    Measurement total;
    for (const auto &step : result.steps) {
        if (step.scopes.empty())
            continue;
        const Measurement &m = step.scopes.front().measurement;
        total.read.add(m.read);
        total.write.add(m.write);
        total.transactions += m.transactions;
        total.inFlightAtEnd = m.inFlightAtEnd;
        // Measurement::add keeps the longer span (it merges scopes of ONE span); steps
        // follow each other, so their measured times add up.
        total.elapsed += m.elapsed;
    }
    return total;
}

double runCpuBusyPercent(const RunResult &result)
{
    double weighted = 0, seconds = 0;
    bool any = false;
    for (const auto &step : result.steps) {
        if (!step.cpu.valid)
            continue;
        any = true;
        weighted += step.cpu.busyPercent * step.measuredSeconds;
        seconds += step.measuredSeconds;
    }
    if (!any)
        return -1;
    if (seconds <= 0) {
        // Valid figures over steps that measured nothing: the plain mean.
        double sum = 0;
        int n = 0;
        for (const auto &step : result.steps)
            if (step.cpu.valid) {
                sum += step.cpu.busyPercent;
                ++n;
            }
        return sum / n;
    }
    return weighted / seconds;
}

UtcTime utcTime(std::chrono::system_clock::time_point time)
{
    using namespace std::chrono;
    const auto ms = floor<milliseconds>(time);
    const auto days = floor<std::chrono::days>(ms);
    const year_month_day date {days};
    const hh_mm_ss clock {ms - days};
    UtcTime t;
    t.year = int(date.year());
    t.month = unsigned(date.month());
    t.day = unsigned(date.day());
    t.hour = unsigned(clock.hours().count());
    t.minute = unsigned(clock.minutes().count());
    t.second = unsigned(clock.seconds().count());
    t.millisecond = unsigned(clock.subseconds().count());
    return t;
}

std::string_view runPhaseName(RunPhase phase)
{
    switch (phase) {
    case RunPhase::Idle:
        return "idle";
    case RunPhase::Preparing:
        return "preparing";
    case RunPhase::RampUp:
        return "ramp_up";
    case RunPhase::Measuring:
        return "measuring";
    case RunPhase::Stopping:
        return "stopping";
    case RunPhase::Done:
        return "done";
    }
    return "unknown";
}

std::string_view scopeKindName(Scope::Kind kind)
{
    switch (kind) {
    case Scope::Kind::All:
        return "all";
    case Scope::Kind::Worker:
        return "worker";
    case Scope::Kind::Target:
        return "target";
    case Scope::Kind::Host:
        return "host";
    }
    return "unknown";
}

// ---------------------------------------------------------------- JSON pieces

namespace {

// Every double goes through here: null instead of NaN or infinity.
Json number(double value)
{
    return std::isfinite(value) ? Json(value) : Json(nullptr);
}

Json optionalIndex(int index)
{
    return index >= 0 ? Json(index) : Json(nullptr);
}

// Latency exists only where I/O completed: every field is null for a span without any
// (0 would read as "infinitely fast"), except the max when an I/O was still in flight:
// it has taken that long already.
Json latencyJson(const LatencyFigures &l, std::uint64_t ios)
{
    if (ios == 0)
        return Json {{"min", nullptr}, {"mean", nullptr},
            {"max", l.maxUs > 0 ? number(l.maxUs) : Json(nullptr)}, {"p50", nullptr},
            {"p90", nullptr}, {"p99", nullptr}, {"p99_9", nullptr}, {"p99_99", nullptr}};
    return Json {{"min", number(l.minUs)}, {"mean", number(l.meanUs)}, {"max", number(l.maxUs)},
        {"p50", number(l.p50Us)}, {"p90", number(l.p90Us)}, {"p99", number(l.p99Us)},
        {"p99_9", number(l.p99_9Us)}, {"p99_99", number(l.p99_99Us)}};
}

Json directionJson(const DirectionFigures &d)
{
    return Json {{"ios", d.ios}, {"bytes", d.bytes}, {"errors", d.errors}, {"iops", number(d.iops)},
        {"mbps", number(d.megabytesPerSecond)}, {"mibps", number(d.mebibytesPerSecond)},
        {"latency_us", latencyJson(d.latency, d.ios)}};
}

// An open, a close or a connection: how many ended, how fast, how long each took.
Json phaseJson(const PhaseFigures &p)
{
    return Json {{"count", p.count}, {"errors", p.errors}, {"per_second", number(p.perSecond)},
        {"latency_us", latencyJson(p.latency, p.count)}};
}

Json connectionsJson(const ConnectionFigures &c)
{
    return Json {{"open", phaseJson(c.open)}, {"close", phaseJson(c.close)},
        {"connection", phaseJson(c.connection)}};
}

Json cpuJson(const CpuFigures &c)
{
    if (!c.valid)
        return nullptr;
    return Json {{"user_percent", number(c.userPercent)},
        {"system_percent", number(c.systemPercent)}, {"iowait_percent", number(c.iowaitPercent)},
        {"irq_percent", number(c.irqPercent)}, {"softirq_percent", number(c.softirqPercent)},
        {"steal_percent", number(c.stealPercent)}, {"idle_percent", number(c.idlePercent)},
        {"busy_percent", number(c.busyPercent)}, {"process_percent", number(c.processPercent)}};
}

// CPU effectiveness is IOPS per busy CPU %: undefined without CPU figures.
Json effectivenessJson(const CpuFigures &c, double effectiveness)
{
    return c.valid ? number(effectiveness) : Json(nullptr);
}

// ---------------------------------------------------------------- device counters

// A figure the device's kernel does not provide (times before 2.6.25 partitions,
// discards before 4.18, flushes before 5.5) is null, not 0.
Json knownNumber(bool known, double value)
{
    return known ? number(value) : Json(nullptr);
}

Json knownCount(bool known, std::uint64_t value)
{
    return known ? Json(value) : Json(nullptr);
}

Json deviceFiguresJson(const DeviceFigures &f)
{
    if (!f.valid)
        return nullptr;
    return Json {{"seconds", number(f.seconds)}, {"read_ios", f.readIos}, {"write_ios", f.writeIos},
        {"read_bytes", f.readBytes}, {"write_bytes", f.writeBytes},
        {"read_iops", number(f.readsPerSecond)}, {"write_iops", number(f.writesPerSecond)},
        {"read_mbps", number(f.readMegabytesPerSecond)},
        {"write_mbps", number(f.writeMegabytesPerSecond)},
        {"read_merges_per_second", number(f.readMergesPerSecond)},
        {"write_merges_per_second", number(f.writeMergesPerSecond)},
        {"avg_request_bytes", number(f.averageRequestBytes)},
        {"avg_read_request_bytes", number(f.averageReadRequestBytes)},
        {"avg_write_request_bytes", number(f.averageWriteRequestBytes)},
        {"read_await_ms", knownNumber(f.hasTimes, f.readAwaitMs)},
        {"write_await_ms", knownNumber(f.hasTimes, f.writeAwaitMs)},
        {"queue_size", knownNumber(f.hasTimes, f.queueSize)},
        {"util_percent", knownNumber(f.hasTimes, f.utilPercent)},
        {"discard_ios", knownCount(f.hasDiscards, f.discardIos)},
        {"discard_bytes", knownCount(f.hasDiscards, f.discardBytes)},
        {"discard_iops", knownNumber(f.hasDiscards, f.discardsPerSecond)},
        {"discard_mbps", knownNumber(f.hasDiscards, f.discardMegabytesPerSecond)},
        {"flush_ios", knownCount(f.hasFlushes, f.flushIos)},
        {"flush_iops", knownNumber(f.hasFlushes, f.flushesPerSecond)},
        {"flush_await_ms", knownNumber(f.hasFlushes, f.flushAwaitMs)}, {"in_flight", f.inFlight}};
}

Json directionVerdictJson(const DirectionVerdict &d)
{
    return Json {{"verdict", toString(d.verdict)}, {"app_bytes", d.appBytes},
        {"device_bytes", d.deviceBytes}, {"ratio", d.appBytes ? number(d.ratio) : Json(nullptr)}};
}

// Without device counters there is nothing behind the verdict: the numbers are null.
Json verdictJson(const DeviceVerdict &v)
{
    if (v.verdict == Verdict::NoDeviceCounters)
        return Json {{"verdict", toString(v.verdict)}, {"read", nullptr}, {"write", nullptr},
            {"write_backlog_bytes", nullptr}};
    return Json {{"verdict", toString(v.verdict)}, {"read", directionVerdictJson(v.read)},
        {"write", directionVerdictJson(v.write)}, {"write_backlog_bytes", v.writeBacklogBytes}};
}

// One device per entry of the map, with its name and role.
Json perDeviceJson(const DeviceMap &map, const std::vector<DeviceFigures> &devices)
{
    Json out = Json::array();
    for (std::size_t i = 0; i < devices.size() && i < map.devices.size(); ++i)
        out.push_back(Json {{"name", map.devices[i].name}, {"role", toString(map.devices[i].role)},
            {"figures", deviceFiguresJson(devices[i])}});
    return out;
}

Json deviceReportJson(const DeviceReport &r, const DeviceMap &map)
{
    return Json {{"available", r.available}, {"verdict", verdictJson(r.verdict)},
        {"total", r.available ? deviceFiguresJson(r.total) : Json(nullptr)},
        {"devices", perDeviceJson(map, r.devices)}};
}

Json deviceCountersJson(const DeviceMap &map, const DeviceTail &tail)
{
    Json devices = Json::array();
    for (const auto &d : map.devices)
        devices.push_back(Json {{"name", d.name}, {"role", toString(d.role)},
            {"via", d.via.empty() ? Json(nullptr) : Json(d.via)}, {"in_total", d.inTotal}});
    Json targets = Json::array();
    for (const auto &t : map.targets)
        targets.push_back(Json {{"path", t.targetPath},
            {"device",
                t.device && *t.device < map.devices.size() ? Json(map.devices[*t.device].name)
                                                           : Json(nullptr)},
            {"note", t.note}});
    Json tailJson = nullptr;
    if (tail.sampled)
        tailJson = Json {{"seconds", number(tail.seconds)}, {"idle", tail.idle},
            {"pending_write_bytes", tail.pendingWriteBytes},
            {"flushed_write_bytes", tail.flushedWriteBytes},
            {"remaining_write_bytes", tail.remainingWriteBytes},
            {"total", deviceFiguresJson(tail.total)},
            {"devices", perDeviceJson(map, tail.devices)}};
    return Json {{"devices", std::move(devices)}, {"targets", std::move(targets)},
        {"tail", std::move(tailJson)}};
}

Json scopeIdentity(const Scope &s)
{
    Json j {{"label", s.label}, {"kind", scopeKindName(s.kind)},
        {"worker", optionalIndex(s.worker)}, {"target", optionalIndex(s.target)},
        {"path", s.targetPath.empty() ? Json(nullptr) : Json(s.targetPath)}};
    if (s.host >= 0) // a run of several hosts only: a run of one has no host index
        j["host"] = s.host;
    return j;
}

Json bucketsJson(const LatencyHistogram &h)
{
    Json buckets = Json::array();
    h.forEachNonEmptyBucket([&](const LatencyHistogram::Bucket &b) {
        buckets.push_back(Json::array({b.lowNs, b.highNs, b.count}));
    });
    return buckets;
}

Json iometerBinsJson(const Measurement &m)
{
    IometerBins bins = m.read.bins;
    bins.merge(m.write.bins);
    Json out = Json::array();
    for (std::size_t i = 0; i < IometerBins::kBinCount; ++i)
        out.push_back(Json {{"label", IometerBins::label(i)}, {"count", bins.counts[i]}});
    return out;
}

Json stepScopeJson(const ScopeResult &s)
{
    Json j = scopeIdentity(s.scope);
    const Figures &f = s.figures;
    j["seconds"] = number(f.seconds);
    j["read"] = directionJson(f.read);
    j["write"] = directionJson(f.write);
    j["total"] = directionJson(f.total);
    j["transactions"] = s.measurement.transactions;
    j["transactions_per_second"] = number(f.transactionsPerSecond);
    j["outstanding"] = f.inFlightAtEnd;
    if (f.connections)
        j["connections"] = connectionsJson(*f.connections);
    j["iometer_bins"] = iometerBinsJson(s.measurement);
    // The full histogram is kept for the All scope (and each host's in a run of several):
    // it is what a later tool needs to recompute any percentile or a heat map, and
    // per-worker or per-target copies would multiply the file size for little gain.
    if (s.scope.kind == Scope::Kind::All || s.scope.kind == Scope::Kind::Host)
        j["histogram_ns"] = Json {{"read", bucketsJson(s.measurement.read.histogram)},
            {"write", bucketsJson(s.measurement.write.histogram)}};
    return j;
}

// A run of several hosts: each host's own CPU and devices in the step (StepResult::hosts).
Json hostSharesJson(const StepResult &step, const std::vector<RunHost> &hosts)
{
    Json shares = Json::array();
    for (std::size_t h = 0; h < step.hosts.size(); ++h) {
        const HostShare &share = step.hosts[h];
        const DeviceMap none;
        shares.push_back(Json {{"cpu", cpuJson(share.cpu)},
            {"cpu_effectiveness", effectivenessJson(share.cpu, share.cpuEffectiveness)},
            {"devices",
                deviceReportJson(share.devices, h < hosts.size() ? hosts[h].deviceMap : none)}});
    }
    return shares;
}

Json stepJson(const StepResult &step, const RunResult &result)
{
    const PlannedStep *planned
        = step.step < result.plan.steps.size() ? &result.plan.steps[step.step] : nullptr;
    const TestSetup &setup = result.plan.profile.setup;
    const DeviceMap &map = result.deviceMap;
    Json scopes = Json::array();
    for (const auto &s : step.scopes)
        scopes.push_back(stepScopeJson(s));
    Json j {{"step", step.step}, {"name", step.stepName},
        {"measured_seconds", number(step.measuredSeconds)}, {"setup_s", number(step.setupSeconds)},
        {"drain_s", number(step.drainSeconds)}, {"complete", step.complete},
        {"cpu", cpuJson(step.cpu)},
        {"cpu_effectiveness", effectivenessJson(step.cpu, step.cpuEffectiveness)},
        {"devices", deviceReportJson(step.devices, map)}, {"scopes", std::move(scopes)}};
    // Cycling and series steps say what they are (a normal test's steps need not).
    if (planned && !planned->cycle.empty()) {
        j["spec"] = planned->specName;
        j["spec_index"] = planned->specIndex;
        j["cycle"] = planned->cycle;
    }
    // A series' point only: a cycling step's is in the plan (docs/results.md).
    if (const StepPoint *point = planned ? seriesPointOf(setup, *planned) : nullptr)
        j["point"] = Json {{"index", point->index}, {"trial", point->trial},
            {"values", point->values}, {"target", point->target}};
    if (!step.hosts.empty())
        j["hosts"] = hostSharesJson(step, result.hosts);
    return j;
}

Json trialStatJson(const TrialStat &s, bool valid = true)
{
    if (!valid)
        return nullptr;
    return Json {{"median", number(s.median)}, {"min", number(s.min)}, {"max", number(s.max)}};
}

// The series: its axes and, per point, its values, the steps of its trials and the
// median, min and max of their figures (core/run/series_result.h).
Json seriesJson(const RunResult &result)
{
    const Series &series = *result.plan.profile.setup.series;
    Json axes = Json::array();
    for (const auto &axis : series.axes)
        axes.push_back(Json {
            {"parameter", std::string(toString(axis.parameter))}, {"values", sweepValues(axis)}});
    Json points = Json::array();
    for (const auto &p : seriesPoints(result)) {
        Json values = Json::object();
        for (std::size_t a = 0; a < series.axes.size() && a < p.values.size(); ++a)
            values[std::string(toString(series.axes[a].parameter))] = p.values[a];
        points.push_back(Json {{"spec_index", p.specIndex}, {"spec", p.specName},
            {"point", p.point}, {"values", std::move(values)}, {"target", p.target},
            {"trials", p.trials}, {"complete", p.complete}, {"iops", trialStatJson(p.iops)},
            {"mbps", trialStatJson(p.megabytesPerSecond)},
            {"mibps", trialStatJson(p.mebibytesPerSecond)},
            {"mean_latency_us", trialStatJson(p.meanLatencyUs)},
            {"p50_latency_us", trialStatJson(p.p50LatencyUs)},
            {"p99_latency_us", trialStatJson(p.p99LatencyUs)},
            {"p99_9_latency_us", trialStatJson(p.p99_9LatencyUs)},
            {"cpu_busy_percent", trialStatJson(p.cpuBusyPercent, p.cpuValid)},
            {"iops_per_cpu_percent", trialStatJson(p.iopsPerCpuPercent, p.cpuValid)},
            {"device_read_mbps", trialStatJson(p.deviceReadMegabytesPerSecond, p.deviceValid)},
            {"device_write_mbps", trialStatJson(p.deviceWriteMegabytesPerSecond, p.deviceValid)},
            {"device_verdict",
                p.deviceValid ? Json(std::string(toString(p.verdict))) : Json(nullptr)}});
    }
    return Json {{"axes", std::move(axes)}, {"repeat", series.repeat}, {"ios", series.ios},
        {"targets_in_turn", series.targetsInTurn}, {"points", std::move(points)}};
}

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

bool sameScopes(const IntervalSample &a, const IntervalSample &b)
{
    return std::equal(a.scopes.begin(), a.scopes.end(), b.scopes.begin(), b.scopes.end(),
        [](const ScopeFigures &x, const ScopeFigures &y) {
            return x.scope.kind == y.scope.kind && x.scope.worker == y.scope.worker
                && x.scope.target == y.scope.target && x.scope.label == y.scope.label;
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
    w.value(optionalIndex(scope.worker));
    w.key("target");
    w.value(optionalIndex(scope.target));
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

void intervalColumns(JsonTextWriter &w, const RunResult &result)
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

Json deviceJson(const DeviceFacts &d)
{
    return Json {{"path", d.path}, {"name", d.name}, {"model", d.model},
        {"size_bytes", d.sizeBytes}, {"rotational", d.rotational}, {"scheduler", d.scheduler},
        {"logical_sector_bytes", d.logicalSectorBytes},
        {"physical_sector_bytes", d.physicalSectorBytes}, {"nr_requests", d.nrRequests},
        {"write_cache", d.writeCache}};
}

// A host's facts: the document's environment without its targets, and each host's in a
// run of several.
Json hostFactsJson(
    const Environment &env, const std::string &engine, const std::vector<std::string> &notices)
{
    Json devices = Json::array();
    for (const auto &d : env.devices)
        devices.push_back(deviceJson(d));
    return Json {{"host_name", env.hostName}, {"os_name", env.osName}, {"kernel", env.kernel},
        {"cpu_model", env.cpuModel}, {"cpu_count", env.cpuCount}, {"engine", engine},
        {"command_line", env.commandLine}, {"notices", notices}, {"devices", std::move(devices)}};
}

Json environmentJson(const RunResult &result, const Environment &env)
{
    Json targets = Json::array();
    for (const auto &t : result.plan.targetInfos())
        targets.push_back(encodeTargetInfo(t));
    // The result's engine and notices are authoritative; the environment's are what
    // the caller copied, used when the result has none (a run that failed early).
    const std::string &engine = !result.engine.empty() ? result.engine : env.engine;
    const auto &notices = !result.notices.empty() ? result.notices : env.notices;
    Json j = hostFactsJson(env, engine, notices);
    j["targets"] = std::move(targets);
    return j;
}

// A run of several hosts (RunResult::hosts): who each is, its facts and its devices.
Json hostsJson(const std::vector<RunHost> &hosts)
{
    Json out = Json::array();
    for (const auto &h : hosts)
        out.push_back(Json {{"name", h.name}, {"rank", h.rank >= 0 ? Json(h.rank) : Json(nullptr)},
            {"agent", h.agent.empty() ? Json(nullptr) : Json(h.agent)},
            {"tool_version", h.environment.toolVersion},
            {"environment",
                hostFactsJson(h.environment, h.environment.engine, h.environment.notices)},
            {"device_counters", deviceCountersJson(h.deviceMap, h.deviceTail)}});
    return out;
}

Json summaryJson(const RunResult &result)
{
    const Figures f = computeFigures(runTotal(result));
    const double cpu = runCpuBusyPercent(result);
    // The summary's latency has no min (the documented keys); the rest as everywhere.
    Json latency = latencyJson(f.total.latency, f.total.ios);
    latency.erase("min");
    return Json {{"iops", number(f.total.iops)}, {"read_iops", number(f.read.iops)},
        {"write_iops", number(f.write.iops)}, {"mbps", number(f.total.megabytesPerSecond)},
        {"read_mbps", number(f.read.megabytesPerSecond)},
        {"write_mbps", number(f.write.megabytesPerSecond)}, {"bytes_read", f.read.bytes},
        {"bytes_written", f.write.bytes}, {"latency_us", std::move(latency)},
        {"cpu_percent", cpu >= 0 ? number(cpu) : Json(nullptr)}, {"errors", f.total.errors}};
}

Json errorJson(const std::optional<OpError> &error)
{
    if (!error)
        return nullptr;
    return Json {{"operation", error->operation}, {"path", error->path},
        {"code", error->code.value()},
        {"message", error->code ? error->code.message() : std::string()}, {"detail", error->detail},
        {"text", error->toString()}};
}

std::string isoTimestamp(std::chrono::system_clock::time_point time)
{
    const UtcTime t = utcTime(time);
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", t.year, t.month, t.day, t.hour,
        t.minute, t.second, t.millisecond);
}

} // namespace

namespace {

// Everything but the intervals, as a document (a few hundred values, whatever the
// run's length); "intervals" is null, its place in the order of the members.
Json resultsWithoutIntervals(const RunResult &result, const Environment &environment)
{
    Json steps = Json::array();
    for (const auto &step : result.steps)
        steps.push_back(stepJson(step, result));

    Json doc;
    doc["format"] = kResultsFormatName;
    doc["version"] = kResultsFormatVersion;
    doc["run_id"] = result.runId;
    doc["started_at"] = isoTimestamp(result.startedAt);
    doc["tool"] = Json {{"name", "IOPrism"}, {"version", environment.toolVersion}};
    doc["environment"] = environmentJson(result, environment);
    doc["profile"] = profileToOrderedJson(result.plan.profile);
    doc["plan"] = encodeResolvedPlan(result.plan);
    doc["summary"] = summaryJson(result);
    doc["steps"] = std::move(steps);
    if (result.plan.profile.setup.series)
        doc["series"] = seriesJson(result);
    doc["intervals"] = nullptr;
    doc["device_counters"] = deviceCountersJson(result.deviceMap, result.deviceTail);
    doc["error"] = errorJson(result.error);
    doc["stoppedByUser"] = result.stoppedByUser;
    doc["stuck_io"] = result.stuckIo ? Json {{"ios", result.stuckIo->ios},
                          {"oldest_seconds", number(result.stuckIo->oldestSeconds)},
                          {"targets", result.stuckIo->targets}}
                                     : Json(nullptr);
    if (!result.hosts.empty())
        doc["hosts"] = hostsJson(result.hosts);
    return doc;
}

} // namespace

std::string writeResultsJson(const RunResult &result, const Environment &environment)
{
    const Json doc = resultsWithoutIntervals(result, environment);
    std::string text;
    // One allocation, not twenty: about 12 characters per figure, 20 figures per scope.
    std::size_t scopeIntervals = 0;
    for (const auto &interval : result.intervals)
        scopeIntervals += interval.scopes.size();
    text.reserve(std::size_t {256} * 1024 + result.intervals.size() * 128 + scopeIntervals * 240);
    JsonTextWriter w(text, 0);
    w.beginObject();
    for (const auto &[name, value] : doc.items()) {
        w.key(name);
        if (name == "intervals")
            intervalColumns(w, result);
        else
            w.value(value);
    }
    w.endObject();
    text += '\n';
    return text;
}

nlohmann::ordered_json resultsToJson(const RunResult &result, const Environment &environment)
{
    return Json::parse(writeResultsJson(result, environment));
}

} // namespace ioprism::core
