// SPDX-License-Identifier: GPL-3.0-or-later
// The tidy CSVs: the time series (one row per interval and scope) and the series
// (one row per point of a sweep or cycle).
#include "core/profile/sweep_parameter.h"
#include "core/report/csv.h"
#include "core/report/csv_internal.h"
#include "core/report/resolution.h"
#include "core/report/results_json.h"
#include "core/run/series_result.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <optional>

namespace ioprism::core {
namespace {

using csv_detail::fixed;
using csv_detail::integer;

// ---------------------------------------------------------------- time series

constexpr std::string_view kTimeSeriesColumns[] = {
    "run_id",
    "step",
    "step_name",
    "phase",
    "start_s",
    "end_s",
    "scope_kind",
    "scope",
    "worker",
    "target",
    "path",
    "read_ios",
    "write_ios",
    "read_iops",
    "write_iops",
    "iops",
    "read_mbps",
    "write_mbps",
    "mbps",
    "read_bytes",
    "write_bytes",
    "read_errors",
    "write_errors",
    "errors",
    "lat_min_us",
    "lat_mean_us",
    "lat_max_us",
    "lat_p50_us",
    "lat_p90_us",
    "lat_p99_us",
    "lat_p99_9_us",
    "lat_p99_99_us",
    "read_lat_mean_us",
    "write_lat_mean_us",
    "outstanding",
    "stalled_ios",
    "oldest_in_flight_us",
    "cpu_user_pct",
    "cpu_system_pct",
    "cpu_iowait_pct",
    "cpu_irq_pct",
    "cpu_softirq_pct",
    "cpu_steal_pct",
    "cpu_busy_pct",
    "cpu_process_pct",
    "cpu_effectiveness",
    "dev_read_iops",
    "dev_write_iops",
    "dev_read_mbps",
    "dev_write_mbps",
    "dev_read_bytes",
    "dev_write_bytes",
    "dev_avg_request_bytes",
    "dev_read_await_ms",
    "dev_write_await_ms",
    "dev_queue_size",
    "dev_util_pct",
    "dev_discard_iops",
    "dev_flush_iops",
    "dev_in_flight",
    "verdict",
    "read_verdict",
    "write_verdict",
    "compared_read_bytes",
    "compared_write_bytes",
    "dev_read_ratio",
    "dev_write_ratio",
    "write_backlog_bytes",
    "files_per_s",
    "open_mean_us",
    "close_mean_us",
    "operation_mean_us",
    "operation_max_us",
};

// The device columns of one interval: the device total of the targets and the verdict,
// the same on every scope row of the interval (like the CPU columns).
// Every number of the time series that the results JSON keeps rounded is shown from that
// rounded value (keptFixed, core/report/resolution.h): a run read back from its file
// writes this file as the run did, digit for digit.
std::string timeSeriesDeviceColumns(const DeviceReport &d)
{
    const std::string verdict(toString(d.verdict.verdict));
    if (!d.available || !d.total.valid)
        return std::string(14, ',') + "," + verdict
            + std::string(7, ','); // 14 empty, verdict, 7 empty
    const DeviceFigures &f = d.total;
    auto timed = [&](double v, int keptPlaces) {
        return f.hasTimes ? keptFixed(v, keptPlaces, 3) : std::string();
    };
    const DeviceVerdict &v = d.verdict;
    return fmt::format(",{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
               keptFixed(f.readsPerSecond, kRatePlaces, 3),
               keptFixed(f.writesPerSecond, kRatePlaces, 3),
               keptFixed(f.readMegabytesPerSecond, kMegabytesPlaces, 3),
               keptFixed(f.writeMegabytesPerSecond, kMegabytesPlaces, 3), f.readBytes, f.writeBytes,
               keptFixed(f.averageRequestBytes, kRatePlaces, 1),
               timed(f.readAwaitMs, kMillisecondsPlaces),
               timed(f.writeAwaitMs, kMillisecondsPlaces), timed(f.queueSize, kRatePlaces),
               f.hasTimes ? keptFixed(f.utilPercent, kPercentPlaces, 2) : std::string(),
               f.hasDiscards ? keptFixed(f.discardsPerSecond, kRatePlaces, 3) : std::string(),
               f.hasFlushes ? keptFixed(f.flushesPerSecond, kRatePlaces, 3) : std::string(),
               f.inFlight)
        + fmt::format(",{},{},{},{},{},{},{},{}", verdict, toString(v.read.verdict),
            toString(v.write.verdict), v.read.appBytes, v.write.appBytes,
            v.read.appBytes ? keptFixed(v.read.ratio, kRatioPlaces, 4) : std::string(),
            v.write.appBytes ? keptFixed(v.write.ratio, kRatioPlaces, 4) : std::string(),
            v.writeBacklogBytes);
}

std::string index(int i)
{
    return i >= 0 ? fmt::format("{}", i) : std::string();
}

} // namespace

std::string timeSeriesHeader()
{
    std::string line;
    for (std::string_view name : kTimeSeriesColumns) {
        if (!line.empty())
            line += ',';
        line += name;
    }
    line += '\n';
    return line;
}

std::string timeSeriesRows(const IntervalSample &sample)
{
    std::string out;
    const CpuFigures &cpu = sample.cpu;
    auto pct
        = [&](double v) { return cpu.valid ? keptFixed(v, kPercentPlaces, 2) : std::string(); };
    const std::string cpuColumns
        = fmt::format("{},{},{},{},{},{},{},{},{}", pct(cpu.userPercent), pct(cpu.systemPercent),
            pct(cpu.iowaitPercent), pct(cpu.irqPercent), pct(cpu.softirqPercent),
            pct(cpu.stealPercent), pct(cpu.busyPercent), pct(cpu.processPercent),
            cpu.valid ? keptFixed(sample.cpuEffectiveness, kRatePlaces, 3) : std::string());
    const std::string deviceColumns = timeSeriesDeviceColumns(sample.devices);
    const std::string prefix
        = fmt::format("{},{},{},{},{},{}", sample.runId, sample.step, csvField(sample.stepName),
            runPhaseName(sample.phase), keptFixed(sample.startSeconds, kSecondsPlaces, 3),
            keptFixed(sample.endSeconds, kSecondsPlaces, 3));

    for (const auto &s : sample.scopes) {
        const Figures &f = s.figures;
        // Latency only exists where I/O completed: empty, not 0, in an idle interval.
        auto lat = [](const DirectionFigures &d, double us) {
            return d.ios ? keptFixed(us, kMicrosecondsPlaces, 3) : std::string();
        };
        const LatencyFigures &l = f.total.latency;
        out += prefix;
        out += fmt::format(",{},{},{},{},{}", scopeKindName(s.scope.kind), csvField(s.scope.label),
            index(s.scope.worker), index(s.scope.target), csvField(s.scope.targetPath));
        out += fmt::format(",{},{},{},{},{},{},{},{},{},{},{},{},{}", f.read.ios, f.write.ios,
            keptFixed(f.read.iops, kRatePlaces, 3), keptFixed(f.write.iops, kRatePlaces, 3),
            keptFixed(f.total.iops, kRatePlaces, 3),
            keptFixed(f.read.megabytesPerSecond, kMegabytesPlaces, 3),
            keptFixed(f.write.megabytesPerSecond, kMegabytesPlaces, 3),
            keptFixed(f.total.megabytesPerSecond, kMegabytesPlaces, 3), f.read.bytes, f.write.bytes,
            f.read.errors, f.write.errors, f.total.errors);
        // I/O still in flight has a latency already: its age is the maximum, even in an
        // interval where nothing completed (a stalled device).
        const std::string maxUs = f.total.ios || l.maxUs > 0
            ? keptFixed(l.maxUs, kMicrosecondsPlaces, 3)
            : std::string();
        out += fmt::format(",{},{},{},{},{},{},{},{},{},{}", lat(f.total, l.minUs),
            lat(f.total, l.meanUs), maxUs, lat(f.total, l.p50Us), lat(f.total, l.p90Us),
            lat(f.total, l.p99Us), lat(f.total, l.p99_9Us), lat(f.total, l.p99_99Us),
            lat(f.read, f.read.latency.meanUs), lat(f.write, f.write.latency.meanUs));
        out += fmt::format(",{},{},{},{}", f.inFlightAtEnd, f.total.stalledIos,
            keptFixed(f.total.oldestInFlightUs, kMicrosecondsPlaces, 3), cpuColumns);
        out += deviceColumns;
        // Files opened and closed (a tree, the connection rate); empty for other scopes,
        // latencies empty where none ended.
        if (const auto &c = f.connections) {
            const auto mean = [](const PhaseFigures &p) {
                return p.count ? keptFixed(p.latency.meanUs, kMicrosecondsPlaces, 3)
                               : std::string();
            };
            out += fmt::format(",{},{},{},{},{}", keptFixed(c->open.perSecond, kRatePlaces, 3),
                mean(c->open), mean(c->close), mean(c->connection),
                c->connection.count ? keptFixed(c->connection.latency.maxUs, kMicrosecondsPlaces, 3)
                                    : std::string());
        } else {
            out += ",,,,,";
        }
        out += '\n';
    }
    return out;
}

std::string writeTimeSeriesCsv(const RunResult &result)
{
    std::string out = timeSeriesHeader();
    for (const auto &sample : result.intervals)
        out += timeSeriesRows(sample);
    return out;
}

// ---------------------------------------------------------------- series

std::string writeSeriesCsv(const RunResult &result)
{
    const auto &series = result.plan.profile.setup.series;
    std::string out = "run_id,spec_index,spec,point,target";
    if (series)
        for (const auto &axis : series->axes)
            out += "," + std::string(sweepTraits(axis.parameter).csvColumn);
    out += ",trials,complete,iops,iops_min,iops_max,mb_per_s,mib_per_s,mbit_per_s,"
           "mean_latency_us,p50_latency_us,p99_latency_us,p99_9_latency_us,p99_latency_us_min,"
           "p99_latency_us_max,cpu_busy_percent,iops_per_cpu_percent,device_read_mb_per_s,"
           "device_write_mb_per_s,device_verdict,files_per_s,open_mean_us,open_p99_us,"
           "close_mean_us,close_p99_us,operation_mean_us,operation_p99_us\n";
    if (!series)
        return out;
    for (const auto &p : seriesPoints(result)) {
        std::string row = fmt::format("{},{},{},{},{}", result.runId, p.specIndex,
            csvField(p.specName), p.point, csvField(p.target));
        for (std::size_t a = 0; a < series->axes.size(); ++a)
            row += fmt::format(",{}", a < p.values.size() ? integer(p.values[a]) : std::string());
        const auto optional
            = [](bool valid, double v) { return valid ? fixed(v, 3) : std::string(); };
        row += fmt::format(",{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            p.trials.size(), p.complete ? 1 : 0, fixed(p.iops.median, 3), fixed(p.iops.min, 3),
            fixed(p.iops.max, 3), fixed(p.megabytesPerSecond.median, 3),
            fixed(p.mebibytesPerSecond.median, 3), fixed(p.megabytesPerSecond.median * 8, 3),
            fixed(p.meanLatencyUs.median, 3), fixed(p.p50LatencyUs.median, 3),
            fixed(p.p99LatencyUs.median, 3), fixed(p.p99_9LatencyUs.median, 3),
            fixed(p.p99LatencyUs.min, 3), fixed(p.p99LatencyUs.max, 3),
            optional(p.cpuValid, p.cpuBusyPercent.median),
            optional(p.cpuValid, p.iopsPerCpuPercent.median),
            optional(p.deviceValid, p.deviceReadMegabytesPerSecond.median),
            optional(p.deviceValid, p.deviceWriteMegabytesPerSecond.median),
            p.deviceValid ? std::string(toString(p.verdict)) : std::string());
        const bool c = p.connectionsValid;
        row += fmt::format(",{},{},{},{},{},{},{}\n", optional(c, p.filesPerSecond.median),
            optional(c, p.openMeanUs.median), optional(c, p.openP99Us.median),
            optional(c, p.closeMeanUs.median), optional(c, p.closeP99Us.median),
            optional(c, p.operationMeanUs.median), optional(c, p.operationP99Us.median));
        out += row;
    }
    return out;
}

} // namespace ioprism::core
