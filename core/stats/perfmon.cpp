// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/perfmon.h"

#include <algorithm>
#include <cmath>

namespace ioprism::core {

namespace {

// ticks * 1000 / base without overflowing for any 64-bit tick count.
std::uint64_t ticksToMs(std::uint64_t ticks, std::uint64_t base)
{
    if (base == 0)
        return 0;
    return ticks / base * 1000 + (ticks % base) * 1000 / base;
}

double clampPercent(double p)
{
    return std::clamp(p, 0.0, 100.0);
}

} // namespace

DiskCounters diskCountersFromPerf(const PerfDiskRaw &raw, std::uint64_t timeBase)
{
    DiskCounters c;
    c.readIos = raw.reads;
    c.writeIos = raw.writes;
    c.readSectors = raw.readBytes / 512;
    c.writeSectors = raw.writeBytes / 512;
    c.readTicksMs = ticksToMs(raw.readTimeTicks, timeBase);
    c.writeTicksMs = ticksToMs(raw.writeTimeTicks, timeBase);
    // The idle clock never runs ahead of the timestamp; if a driver's counter did, the
    // disk was idle throughout, not busy for a huge negative time.
    const std::uint64_t busy100ns = raw.idleTimestamp100ns > raw.idleTime100ns
        ? raw.idleTimestamp100ns - raw.idleTime100ns
        : 0;
    c.ioTicksMs = busy100ns / 10'000;
    c.weightedTicksMs = raw.queueTime100ns / 10'000;
    c.inFlight = raw.currentQueueLength;
    c.fieldCount = 11;
    return c;
}

void accumulateCpu(CpuTimes &times, const ProcessorPercents &p, std::chrono::nanoseconds span,
    std::uint32_t cpuCount)
{
    if (span.count() <= 0 || cpuCount == 0)
        return;
    const double all = double(span.count()) * cpuCount / 100.0; // ns per percent, all CPUs
    const double user = clampPercent(p.user), privileged = clampPercent(p.privileged);
    const double interrupt = std::min(clampPercent(p.interrupt), privileged);
    const double dpc = std::min(clampPercent(p.dpc), privileged - interrupt);
    const double idle = p.idle ? clampPercent(*p.idle) : std::max(0.0, 100.0 - user - privileged);
    const auto add = [&](std::uint64_t &field, double percent) {
        field += std::uint64_t(std::llround(percent * all));
    };
    add(times.userNs, user);
    add(times.systemNs, privileged - interrupt - dpc);
    add(times.irqNs, interrupt);
    add(times.softirqNs, dpc);
    add(times.idleNs, idle);
    times.cpuCount = cpuCount;
    times.valid = true;
}

CpuTimes cpuTimesFromSystemTimes(std::uint64_t idle100ns, std::uint64_t kernel100ns,
    std::uint64_t user100ns, std::uint64_t processKernel100ns, std::uint64_t processUser100ns,
    std::uint32_t cpuCount)
{
    CpuTimes t;
    t.cpuCount = cpuCount;
    t.userNs = user100ns * 100;
    t.systemNs = (kernel100ns > idle100ns ? kernel100ns - idle100ns : 0) * 100;
    t.idleNs = idle100ns * 100;
    t.processUserNs = processUser100ns * 100;
    t.processSystemNs = processKernel100ns * 100;
    t.valid = kernel100ns + user100ns > 0;
    return t;
}

std::optional<std::uint32_t> physicalDiskInstanceNumber(std::string_view instance)
{
    std::size_t i = 0;
    std::uint64_t n = 0;
    while (i < instance.size() && instance[i] >= '0' && instance[i] <= '9' && i < 9)
        n = n * 10 + std::uint64_t(instance[i++] - '0');
    if (i == 0 || (i < instance.size() && instance[i] != ' '))
        return std::nullopt;
    return static_cast<std::uint32_t>(n);
}

} // namespace ioprism::core
