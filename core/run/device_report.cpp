// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/device_report.h"

#include "core/stats/device_figures.h"

#include <algorithm>

namespace ioprism::core {

std::vector<std::size_t> totalDevicesOf(const DeviceMap &map)
{
    std::vector<std::size_t> total;
    for (std::size_t i = 0; i < map.devices.size(); ++i)
        if (map.devices[i].inTotal)
            total.push_back(i);
    return total;
}

DeviceReport makeDeviceReport(const DeviceMap &map, const CounterSnapshot &a,
    const CounterSnapshot &b, std::chrono::nanoseconds elapsed, VerdictInput app,
    const VerdictPolicy &policy, const Measurement &measured)
{
    DeviceReport r;
    const std::size_t n = map.devices.size();
    if (n > 0 && a.disks.size() == n && b.disks.size() == n) {
        r.devices.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            r.devices.push_back(deviceFigures(a.disks[i], b.disks[i], elapsed));
        const auto totalDevices = totalDevicesOf(map);
        DiskCounters sum;
        bool ok = !totalDevices.empty();
        double busiest = 0;
        for (std::size_t i : totalDevices) {
            if (!a.disks[i].valid || !b.disks[i].valid) {
                ok = false;
                break;
            }
            addDelta(sum, counterDelta(a.disks[i].counters, b.disks[i].counters));
            busiest = std::max(busiest, r.devices[i].utilPercent);
        }
        if (ok) {
            r.total = deviceFigures(sum, elapsed);
            r.total.utilPercent = busiest;
            r.available = r.total.valid;
        }
    }
    app.deviceCounters = r.available;
    app.seconds = std::chrono::duration<double>(elapsed).count();
    app.deviceReadBytes = r.total.readBytes;
    if (a.processStorageReadBytes && b.processStorageReadBytes
        && *b.processStorageReadBytes >= *a.processStorageReadBytes)
        app.ownStorageReadBytes = *b.processStorageReadBytes - *a.processStorageReadBytes;
    app.deviceWriteBytes = r.total.writeBytes;
    r.verdict = judgeDevice(app, policy);

    LatencyInput latency;
    latency.deviceTimes = r.available && r.total.hasTimes;
    latency.seconds = app.seconds;
    const auto direction = [](const DirectionMeasurement &m, const DirectionVerdict &bytes,
                               std::uint64_t deviceIos, double awaitMs) {
        // Compared only where the device did the application's I/O: not from a cache,
        // not another process's.
        return LatencyDirectionInput {bytes.verdict == Verdict::Agree, m.histogram.count(),
            m.histogram.meanNs() * 1e-3, deviceIos, awaitMs * 1e3};
    };
    latency.read = direction(measured.read, r.verdict.read, r.total.readIos, r.total.readAwaitMs);
    latency.write
        = direction(measured.write, r.verdict.write, r.total.writeIos, r.total.writeAwaitMs);
    if (a.threadsKnown && b.threadsKnown)
        latency.threads = threadSpan(a.threads, b.threads);
    r.latency = judgeLatency(latency);
    return r;
}

} // namespace ioprism::core
