// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/results_json.h"

#include "core/profile/names.h"
#include "core/profile/profile_json.h"
#include "core/profile/series.h"
#include "core/report/json_text.h"
#include "core/report/resolution.h"
#include "core/report/results_json_intervals.h"
#include "core/run/resolved_plan_json.h"
#include "core/run/series_result.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace ioprism::core {

using OrderedJson = nlohmann::ordered_json;

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
    case RunPhase::Preconditioning:
        return "preconditioning";
    case RunPhase::RampUp:
        return "ramp_up";
    case RunPhase::Measuring:
        return "measuring";
    case RunPhase::Stopping:
        return "stopping";
    case RunPhase::Done:
        return "done";
    case RunPhase::Pausing:
        return "pausing";
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
OrderedJson number(double value)
{
    return std::isfinite(value) ? OrderedJson(value) : OrderedJson(nullptr);
}

OrderedJson optionalIndex(int index)
{
    return index >= 0 ? OrderedJson(index) : OrderedJson(nullptr);
}

// Latency exists only where I/O completed: every field is null for a span without any
// (0 would read as "infinitely fast"), except the max when an I/O was still in flight:
// it has taken that long already.
OrderedJson latencyJson(const LatencyFigures &l, std::uint64_t ios)
{
    if (ios == 0)
        return OrderedJson {{"min", nullptr}, {"mean", nullptr},
            {"max", l.maxUs > 0 ? number(l.maxUs) : OrderedJson(nullptr)}, {"p50", nullptr},
            {"p90", nullptr}, {"p99", nullptr}, {"p99_9", nullptr}, {"p99_99", nullptr}};
    return OrderedJson {{"min", number(l.minUs)}, {"mean", number(l.meanUs)},
        {"max", number(l.maxUs)}, {"p50", number(l.p50Us)}, {"p90", number(l.p90Us)},
        {"p99", number(l.p99Us)}, {"p99_9", number(l.p99_9Us)}, {"p99_99", number(l.p99_99Us)}};
}

OrderedJson directionJson(const DirectionFigures &d)
{
    return OrderedJson {{"ios", d.ios}, {"bytes", d.bytes}, {"errors", d.errors},
        {"iops", number(d.iops)}, {"mbps", number(d.megabytesPerSecond)},
        {"mibps", number(d.mebibytesPerSecond)}, {"latency_us", latencyJson(d.latency, d.ios)}};
}

// An open, a close or a connection: how many ended, how fast, how long each took.
OrderedJson phaseJson(const PhaseFigures &p)
{
    return OrderedJson {{"count", p.count}, {"errors", p.errors},
        {"per_second", number(p.perSecond)}, {"latency_us", latencyJson(p.latency, p.count)}};
}

OrderedJson connectionsJson(const ConnectionFigures &c)
{
    return OrderedJson {{"open", phaseJson(c.open)}, {"close", phaseJson(c.close)},
        {"connection", phaseJson(c.connection)}};
}

OrderedJson cpuJson(const CpuFigures &c)
{
    if (!c.valid)
        return nullptr;
    return OrderedJson {{"user_percent", number(c.userPercent)},
        {"system_percent", number(c.systemPercent)}, {"iowait_percent", number(c.iowaitPercent)},
        {"irq_percent", number(c.irqPercent)}, {"softirq_percent", number(c.softirqPercent)},
        {"steal_percent", number(c.stealPercent)}, {"idle_percent", number(c.idlePercent)},
        {"busy_percent", number(c.busyPercent)}, {"process_percent", number(c.processPercent)}};
}

// CPU effectiveness is IOPS per busy CPU %: undefined without CPU figures.
OrderedJson effectivenessJson(const CpuFigures &c, double effectiveness)
{
    return c.valid ? number(effectiveness) : OrderedJson(nullptr);
}

// ---------------------------------------------------------------- device counters

// A figure the device's kernel does not provide (times before 2.6.25 partitions,
// discards before 4.18, flushes before 5.5) is null, not 0.
OrderedJson knownNumber(bool known, double value)
{
    return known ? number(value) : OrderedJson(nullptr);
}

OrderedJson knownCount(bool known, std::uint64_t value)
{
    return known ? OrderedJson(value) : OrderedJson(nullptr);
}

OrderedJson deviceFiguresJson(const DeviceFigures &f)
{
    if (!f.valid)
        return nullptr;
    return OrderedJson {{"seconds", number(f.seconds)}, {"read_ios", f.readIos},
        {"write_ios", f.writeIos}, {"read_bytes", f.readBytes}, {"write_bytes", f.writeBytes},
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

OrderedJson directionVerdictJson(const DirectionVerdict &d)
{
    return OrderedJson {{"verdict", toString(d.verdict)}, {"app_bytes", d.appBytes},
        {"device_bytes", d.deviceBytes},
        {"ratio", d.appBytes ? number(d.ratio) : OrderedJson(nullptr)}};
}

// Without device counters there is nothing behind the verdict: the numbers are null.
OrderedJson verdictJson(const DeviceVerdict &v)
{
    if (v.verdict == Verdict::NoDeviceCounters)
        return OrderedJson {{"verdict", toString(v.verdict)}, {"read", nullptr}, {"write", nullptr},
            {"write_backlog_bytes", nullptr}};
    return OrderedJson {{"verdict", toString(v.verdict)}, {"read", directionVerdictJson(v.read)},
        {"write", directionVerdictJson(v.write)}, {"write_backlog_bytes", v.writeBacklogBytes}};
}

// One device per entry of the map, with its name and role.
OrderedJson perDeviceJson(const DeviceMap &map, const std::vector<DeviceFigures> &devices)
{
    OrderedJson out = OrderedJson::array();
    for (std::size_t i = 0; i < devices.size() && i < map.devices.size(); ++i)
        out.push_back(OrderedJson {{"name", map.devices[i].name},
            {"role", toString(map.devices[i].role)}, {"figures", deviceFiguresJson(devices[i])}});
    return out;
}

// The latency verdict (core/stats/latency_verdict.h), with the facts behind it.
OrderedJson latencyJson(const LatencyJudgement &l)
{
    const auto direction = [](const LatencyDirection &d) {
        return OrderedJson {{"verdict", toString(d.verdict)}, {"app_mean_us", number(d.appMeanUs)},
            {"device_await_us", number(d.deviceAwaitUs)}, {"extra_us", number(d.extraUs)}};
    };
    return OrderedJson {{"verdict", toString(l.verdict)}, {"read", direction(l.read)},
        {"write", direction(l.write)}, {"kernel_worker_us_per_io", number(l.kernelWorkerUsPerIo)},
        {"cpu_wait_us_per_io", number(l.waitUsPerIo)},
        {"busiest_worker_runnable_share", number(l.busiestWorkerRunnableShare)},
        {"cpu_bound", l.cpuBound}};
}

OrderedJson deviceReportJson(const DeviceReport &r, const DeviceMap &map)
{
    return OrderedJson {{"available", r.available}, {"verdict", verdictJson(r.verdict)},
        {"latency", latencyJson(r.latency)},
        {"total", r.available ? deviceFiguresJson(r.total) : OrderedJson(nullptr)},
        {"devices", perDeviceJson(map, r.devices)}};
}

OrderedJson deviceCountersJson(const DeviceMap &map, const DeviceTail &tail)
{
    OrderedJson devices = OrderedJson::array();
    for (const auto &d : map.devices)
        devices.push_back(OrderedJson {{"name", d.name}, {"role", toString(d.role)},
            {"via", d.via.empty() ? OrderedJson(nullptr) : OrderedJson(d.via)},
            {"in_total", d.inTotal}});
    OrderedJson targets = OrderedJson::array();
    for (const auto &t : map.targets)
        targets.push_back(OrderedJson {{"path", t.targetPath},
            {"device",
                t.device && *t.device < map.devices.size()
                    ? OrderedJson(map.devices[*t.device].name)
                    : OrderedJson(nullptr)},
            {"note", t.note}});
    OrderedJson tailJson = nullptr;
    if (tail.sampled)
        tailJson = OrderedJson {{"seconds", number(tail.seconds)}, {"idle", tail.idle},
            {"pending_write_bytes", tail.pendingWriteBytes},
            {"flushed_write_bytes", tail.flushedWriteBytes},
            {"remaining_write_bytes", tail.remainingWriteBytes},
            {"total", deviceFiguresJson(tail.total)},
            {"devices", perDeviceJson(map, tail.devices)}};
    return OrderedJson {{"devices", std::move(devices)}, {"targets", std::move(targets)},
        {"tail", std::move(tailJson)}};
}

OrderedJson scopeIdentity(const Scope &s)
{
    OrderedJson j {{"label", s.label}, {"kind", scopeKindName(s.kind)},
        {"worker", optionalIndex(s.worker)}, {"target", optionalIndex(s.target)},
        {"path", s.targetPath.empty() ? OrderedJson(nullptr) : OrderedJson(s.targetPath)}};
    if (s.host >= 0) // a run of several hosts only: a run of one has no host index
        j["host"] = s.host;
    return j;
}

OrderedJson bucketsJson(const LatencyHistogram &h)
{
    OrderedJson buckets = OrderedJson::array();
    h.forEachNonEmptyBucket([&](const LatencyHistogram::Bucket &b) {
        buckets.push_back(OrderedJson::array({b.lowNs, b.highNs, b.count}));
    });
    return buckets;
}

OrderedJson iometerBinsJson(const Measurement &m)
{
    IometerBins bins = m.read.bins;
    bins.merge(m.write.bins);
    OrderedJson out = OrderedJson::array();
    for (std::size_t i = 0; i < IometerBins::kBinCount; ++i)
        out.push_back(OrderedJson {{"label", IometerBins::label(i)}, {"count", bins.counts[i]}});
    return out;
}

OrderedJson stepScopeJson(const ScopeResult &s)
{
    OrderedJson j = scopeIdentity(s.scope);
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
    if (s.scope.kind == Scope::Kind::All || s.scope.kind == Scope::Kind::Host) {
        j["histogram_ns"] = OrderedJson {{"read", bucketsJson(s.measurement.read.histogram)},
            {"write", bucketsJson(s.measurement.write.histogram)}};
        // When an I/O still in flight was older than every completed one, the figures'
        // max is its age, while the percentiles stay within the completed I/Os: the
        // largest of those is kept too, or a reader would bound them by the age and
        // compute other percentiles than the run did.
        const auto completedMax = [&](const char *name, const DirectionMeasurement &d) {
            const std::uint64_t completed = d.maxNs != 0 ? d.maxNs : d.histogram.maxNs();
            if (d.histogram.count() > 0 && d.oldestInFlightNs > completed)
                j["histogram_ns"]["completed_max_ns"][name] = completed;
        };
        completedMax("read", s.measurement.read);
        completedMax("write", s.measurement.write);
    }
    return j;
}

// A run of several hosts: each host's own CPU and devices in the step (StepResult::hosts).
OrderedJson hostSharesJson(const StepResult &step, const std::vector<RunHost> &hosts)
{
    OrderedJson shares = OrderedJson::array();
    for (std::size_t h = 0; h < step.hosts.size(); ++h) {
        const HostShare &share = step.hosts[h];
        const DeviceMap none;
        OrderedJson j {{"cpu", cpuJson(share.cpu)},
            {"cpu_effectiveness", effectivenessJson(share.cpu, share.cpuEffectiveness)},
            {"devices",
                deviceReportJson(share.devices, h < hosts.size() ? hosts[h].deviceMap : none)}};
        if (share.endedByAmount)
            j["ended_by_amount"] = true;
        shares.push_back(std::move(j));
    }
    return shares;
}

// A step's rounds under a steady-state rule, the rule, and the verdict (docs/results.md).
OrderedJson steadyStateJson(const SteadyStateRecord &steady)
{
    const SteadyStateCriteria &c = steady.setup.criteria;
    OrderedJson rounds = OrderedJson::array();
    for (const auto &round : steady.rounds)
        rounds.push_back(OrderedJson {{"start_s", number(round.startSeconds)},
            {"end_s", number(round.endSeconds)}, {"figure", number(round.figure)}});
    OrderedJson j {{"rule", steadyStateRuleName(c.rule)},
        {"metric", steadyStateMetricName(steady.setup.metric)},
        {"round_s", number(double(steady.setup.roundTime.count()) / 1e3)},
        {"window_rounds", c.windowRounds}, {"range_limit", number(c.rangeLimit)},
        {"slope_limit", number(c.slopeLimit)}, {"round_limit", c.roundLimit},
        {"state", toString(steady.result.state)}, {"rounds", std::move(rounds)}};
    if (const auto &w = steady.result.window)
        j["window"] = OrderedJson {{"first_index", w->first}, {"rounds", w->count},
            {"mean", number(w->mean)}, {"min", number(w->minimum)}, {"max", number(w->maximum)},
            {"slope_per_round", number(w->slopePerRound)}, {"range_share", number(w->rangeShare)},
            {"excursion_share", number(w->excursionShare)},
            {"deviation_share", number(w->deviationShare)}, {"range_met", w->rangeMet},
            {"slope_met", w->slopeMet}};
    j["explanation"] = steady.result.explanation;
    return j;
}

// A step of the run (`planned`: its place in the plan) or preconditioning (none).
OrderedJson stepJson(const StepResult &step, const PlannedStep *planned, const RunResult &result)
{
    const TestSetup &setup = result.plan.profile.setup;
    const DeviceMap &map = result.deviceMap;
    OrderedJson scopes = OrderedJson::array();
    for (const auto &s : step.scopes)
        scopes.push_back(stepScopeJson(s));
    OrderedJson j {{"step", step.step}, {"name", step.stepName},
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
        j["point"] = OrderedJson {{"index", point->index}, {"trial", point->trial},
            {"values", point->values}, {"target", point->target}};
    if (!step.hosts.empty())
        j["hosts"] = hostSharesJson(step, result.hosts);
    // Stonewalling only (a step of a fixed amount, docs/results.md).
    if (step.endedByAmount)
        j["ended_by_amount"] = true;
    if (step.steadyState)
        j["steady_state"] = steadyStateJson(*step.steadyState);
    if (const auto &judged = step.writeCliff) {
        OrderedJson cliff {{"intervals", judged->intervals},
            {"bytes_written", judged->bytesWritten}, {"found", judged->cliff.has_value()}};
        if (const auto &c = judged->cliff) {
            cliff["first_slow_interval"] = c->firstSlowPoint;
            cliff["bytes_before"] = c->bytesBefore;
            cliff["mbps_before"] = number(c->rateBefore);
            cliff["mbps_after"] = number(c->rateAfter);
            cliff["drop"] = number(c->drop);
            cliff["at_s"] = number(judged->cliffSeconds);
        }
        j["write_cliff"] = std::move(cliff);
    }
    return j;
}

OrderedJson trialStatJson(const TrialStat &s, bool valid = true)
{
    if (!valid)
        return nullptr;
    return OrderedJson {
        {"median", number(s.median)}, {"min", number(s.min)}, {"max", number(s.max)}};
}

// The series: its axes and, per point, its values, the steps of its trials and the
// median, min and max of their figures (core/run/series_result.h).
OrderedJson seriesJson(const RunResult &result)
{
    const Series &series = *result.plan.profile.setup.series;
    OrderedJson axes = OrderedJson::array();
    for (const auto &axis : series.axes)
        axes.push_back(OrderedJson {
            {"parameter", std::string(toString(axis.parameter))}, {"values", sweepValues(axis)}});
    OrderedJson points = OrderedJson::array();
    for (const auto &p : seriesPoints(result)) {
        OrderedJson values = OrderedJson::object();
        for (std::size_t a = 0; a < series.axes.size() && a < p.values.size(); ++a)
            values[std::string(toString(series.axes[a].parameter))] = p.values[a];
        points.push_back(OrderedJson {{"spec_index", p.specIndex}, {"spec", p.specName},
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
                p.deviceValid ? OrderedJson(std::string(toString(p.verdict)))
                              : OrderedJson(nullptr)}});
    }
    return OrderedJson {{"axes", std::move(axes)}, {"repeat", series.repeat}, {"ios", series.ios},
        {"targets_in_turn", series.targetsInTurn}, {"points", std::move(points)}};
}

OrderedJson deviceJson(const DeviceFacts &d)
{
    return OrderedJson {{"path", d.path}, {"name", d.name}, {"model", d.model},
        {"size_bytes", d.sizeBytes}, {"rotational", d.rotational}, {"scheduler", d.scheduler},
        {"logical_sector_bytes", d.logicalSectorBytes},
        {"physical_sector_bytes", d.physicalSectorBytes}, {"nr_requests", d.nrRequests},
        {"write_cache", d.writeCache}};
}

// A host's facts: the document's environment without its targets, and each host's in a
// run of several.
OrderedJson hostFactsJson(
    const Environment &env, const std::string &engine, const std::vector<std::string> &notices)
{
    OrderedJson devices = OrderedJson::array();
    for (const auto &d : env.devices)
        devices.push_back(deviceJson(d));
    return OrderedJson {{"host_name", env.hostName}, {"os_name", env.osName},
        {"kernel", env.kernel}, {"cpu_model", env.cpuModel}, {"cpu_count", env.cpuCount},
        {"engine", engine}, {"reap_batch", env.reapBatch}, {"command_line", env.commandLine},
        {"notices", notices}, {"devices", std::move(devices)}};
}

OrderedJson environmentJson(const RunResult &result, const Environment &env)
{
    OrderedJson targets = OrderedJson::array();
    for (const auto &t : result.plan.targetInfos())
        targets.push_back(encodeTargetInfo(t));
    // The result's engine and notices are authoritative; the environment's are what
    // the caller copied, used when the result has none (a run that failed early).
    const std::string &engine = !result.engine.empty() ? result.engine : env.engine;
    const auto &notices = !result.notices.empty() ? result.notices : env.notices;
    OrderedJson j = hostFactsJson(env, engine, notices);
    j["targets"] = std::move(targets);
    return j;
}

// A run of several hosts (RunResult::hosts): who each is, its facts and its devices.
OrderedJson hostsJson(const std::vector<RunHost> &hosts)
{
    OrderedJson out = OrderedJson::array();
    for (const auto &h : hosts)
        out.push_back(OrderedJson {{"name", h.name},
            {"rank", h.rank >= 0 ? OrderedJson(h.rank) : OrderedJson(nullptr)},
            {"agent", h.agent.empty() ? OrderedJson(nullptr) : OrderedJson(h.agent)},
            {"clock_offset_ns", h.clockOffsetNs}, {"clock_uncertainty_ns", h.clockUncertaintyNs},
            {"tool_version", h.environment.toolVersion},
            {"environment",
                hostFactsJson(h.environment, h.environment.engine, h.environment.notices)},
            {"device_counters", deviceCountersJson(h.deviceMap, h.deviceTail)}});
    return out;
}

OrderedJson summaryJson(const RunResult &result)
{
    const Figures f = computeFigures(runTotal(result));
    const double cpu = runCpuBusyPercent(result);
    // The summary's latency has no min (the documented keys); the rest as everywhere.
    OrderedJson latency = latencyJson(f.total.latency, f.total.ios);
    latency.erase("min");
    return OrderedJson {{"iops", number(f.total.iops)}, {"read_iops", number(f.read.iops)},
        {"write_iops", number(f.write.iops)}, {"mbps", number(f.total.megabytesPerSecond)},
        {"read_mbps", number(f.read.megabytesPerSecond)},
        {"write_mbps", number(f.write.megabytesPerSecond)}, {"bytes_read", f.read.bytes},
        {"bytes_written", f.write.bytes}, {"latency_us", std::move(latency)},
        {"cpu_percent", cpu >= 0 ? number(cpu) : OrderedJson(nullptr)}, {"errors", f.total.errors}};
}

OrderedJson errorJson(const std::optional<OpError> &error)
{
    if (!error)
        return nullptr;
    return OrderedJson {{"operation", error->operation}, {"path", error->path},
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

OrderedJson stepJson(const StepResult &step, const RunResult &result)
{
    return stepJson(step,
        step.step < result.plan.steps.size() ? &result.plan.steps[step.step] : nullptr, result);
}

namespace {

// Everything but the intervals, as a document (a few hundred values, whatever the
// run's length); "intervals" is null, its place in the order of the members.
OrderedJson resultsWithoutIntervals(const RunResult &result, const Environment &environment)
{
    OrderedJson steps = OrderedJson::array();
    for (const auto &step : result.steps)
        steps.push_back(stepJson(step, result));

    OrderedJson doc;
    doc["format"] = kResultsFormatName;
    doc["version"] = kResultsFormatVersion;
    doc["run_id"] = result.runId;
    doc["started_at"] = isoTimestamp(result.startedAt);
    if (result.timeOriginAt)
        doc["time_origin_at"] = isoTimestamp(*result.timeOriginAt);
    doc["tool"] = OrderedJson {{"name", "IOPrism"}, {"version", environment.toolVersion}};
    doc["environment"] = environmentJson(result, environment);
    doc["profile"] = profileToOrderedJson(result.plan.profile);
    doc["plan"] = encodeResolvedPlan(result.plan);
    doc["summary"] = summaryJson(result);
    // Before the steps, as it ran; its setup is the profile's (setup.precondition).
    if (const auto &pre = result.preconditioning)
        doc["preconditioning"] = OrderedJson {
            {"planned_bytes", pre->plannedBytes}, {"step", stepJson(pre->step, nullptr, result)}};
    doc["steps"] = std::move(steps);
    if (result.plan.profile.setup.series)
        doc["series"] = seriesJson(result);
    doc["intervals"] = nullptr;
    doc["device_counters"] = deviceCountersJson(result.deviceMap, result.deviceTail);
    doc["error"] = errorJson(result.error);
    doc["stoppedByUser"] = result.stoppedByUser;
    doc["stuck_io"] = result.stuckIo ? OrderedJson {{"ios", result.stuckIo->ios},
                          {"oldest_seconds", number(result.stuckIo->oldestSeconds)},
                          {"targets", result.stuckIo->targets}}
                                     : OrderedJson(nullptr);
    if (!result.hosts.empty())
        doc["hosts"] = hostsJson(result.hosts);
    return doc;
}

} // namespace

std::string writeResultsJson(const RunResult &result, const Environment &environment)
{
    const OrderedJson doc = resultsWithoutIntervals(result, environment);
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
            writeIntervalColumns(w, result);
        else
            w.value(value);
    }
    w.endObject();
    text += '\n';
    return text;
}

nlohmann::ordered_json resultsToJson(const RunResult &result, const Environment &environment)
{
    return OrderedJson::parse(writeResultsJson(result, environment));
}

} // namespace ioprism::core
