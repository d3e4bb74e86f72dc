// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/device_tail.h"

#include "core/run/device_report.h"

#include <algorithm>

namespace ioprism::core {

namespace {

std::string megabytesText(std::uint64_t bytes)
{
    return std::to_string(bytes / 1000000) + "." + std::to_string(bytes / 100000 % 10) + " MB";
}

} // namespace

DeviceTail watchDeviceTail(CounterSource &counters, const DeviceMap &map, WriteBalance balance,
    const DeviceTailOptions &options, const DeviceTailClock &clock,
    const std::function<void(const std::string &)> &notice)
{
    DeviceTail tail;
    const auto totalDevices = totalDevicesOf(map);
    if (totalDevices.empty() || options.limit.count() <= 0)
        return tail;
    tail.sampled = true;
    tail.pendingWriteBytes = balance.backlogBytes;
    const std::uint64_t floor = options.verdict.noiseFloorBytes;
    const auto busy = [&](const CounterSnapshot &s) {
        for (std::size_t i : totalDevices)
            if (i < s.disks.size() && s.disks[i].valid && s.disks[i].counters.inFlight > 0)
                return true;
        return false;
    };
    const auto written = [&](const CounterSnapshot &a, const CounterSnapshot &b) {
        std::uint64_t bytes = 0;
        for (std::size_t i : totalDevices)
            if (i < a.disks.size() && i < b.disks.size() && a.disks[i].valid && b.disks[i].valid)
                bytes += counterDelta(a.disks[i].counters, b.disks[i].counters).writeSectors * 512;
        return bytes;
    };
    const auto start = clock.now();
    const CounterSnapshot first = counters.sample();
    CounterSnapshot last = first;
    auto lastTime = start;
    if (balance.backlogBytes <= floor && !busy(first)) {
        tail.idle = true; // nothing in flight, nothing owed: no need to wait
    } else {
        if (balance.backlogBytes > floor && notice)
            notice(megabytesText(balance.backlogBytes)
                + " written by the application not yet seen at the device: sampling the device "
                  "for up to "
                + std::to_string(options.limit.count()) + " ms");
        const auto end = start + options.limit;
        bool flushSeen = false;
        while (true) {
            clock.sleepUntil(std::min(lastTime + options.interval, end));
            const auto now = clock.now();
            CounterSnapshot current = counters.sample();
            const std::uint64_t wrote = written(last, current);
            flushSeen |= wrote > 0;
            const bool quiet = wrote == 0 && !busy(current);
            last = std::move(current);
            lastTime = now;
            // Idle: nothing in flight and nothing written for one interval, and either
            // nothing was owed or the flush that paid it has been seen to finish.
            if (quiet
                && (flushSeen
                    || nextWriteBalance(balance, 0, written(first, last), 0).backlogBytes
                        <= floor)) {
                tail.idle = true;
                break;
            }
            if (now >= end || (clock.skip && clock.skip()))
                break;
        }
    }
    const auto elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(lastTime - start);
    tail.seconds = std::chrono::duration<double>(elapsed).count();
    if (elapsed.count() > 0) {
        const DeviceReport r
            = makeDeviceReport(map, first, last, elapsed, {}, options.verdict, Measurement {});
        tail.devices = r.devices;
        tail.total = r.total;
    }
    tail.flushedWriteBytes = tail.total.writeBytes;
    tail.remainingWriteBytes = nextWriteBalance(balance, 0, tail.flushedWriteBytes, 0).backlogBytes;
    return tail;
}

} // namespace ioprism::core
