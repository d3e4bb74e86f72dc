// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/device_figures.h"

#include <algorithm>

namespace ioprism::core {

namespace {

constexpr std::uint64_t kSectorBytes = 512; // the block layer's unit, whatever the device's

std::uint64_t wrapDelta(std::uint64_t a, std::uint64_t b)
{
    if (b >= a)
        return b - a;
    if (a <= 0xFFFFFFFFull) // a 32-bit counter wrapped
        return (b + (1ull << 32) - a) & 0xFFFFFFFFull;
    return 0; // reset: the device went away and came back
}

double perSecond(std::uint64_t count, double seconds)
{
    return seconds > 0 ? double(count) / seconds : 0;
}
double ratio(std::uint64_t a, std::uint64_t b)
{
    return b ? double(a) / double(b) : 0;
}

} // namespace

DiskCounters counterDelta(const DiskCounters &a, const DiskCounters &b)
{
    DiskCounters d;
    d.readIos = wrapDelta(a.readIos, b.readIos);
    d.readMerges = wrapDelta(a.readMerges, b.readMerges);
    d.readSectors = wrapDelta(a.readSectors, b.readSectors);
    d.readTicksMs = wrapDelta(a.readTicksMs, b.readTicksMs);
    d.writeIos = wrapDelta(a.writeIos, b.writeIos);
    d.writeMerges = wrapDelta(a.writeMerges, b.writeMerges);
    d.writeSectors = wrapDelta(a.writeSectors, b.writeSectors);
    d.writeTicksMs = wrapDelta(a.writeTicksMs, b.writeTicksMs);
    d.inFlight = b.inFlight;
    d.ioTicksMs = wrapDelta(a.ioTicksMs, b.ioTicksMs);
    d.weightedTicksMs = wrapDelta(a.weightedTicksMs, b.weightedTicksMs);
    d.discardIos = wrapDelta(a.discardIos, b.discardIos);
    d.discardMerges = wrapDelta(a.discardMerges, b.discardMerges);
    d.discardSectors = wrapDelta(a.discardSectors, b.discardSectors);
    d.discardTicksMs = wrapDelta(a.discardTicksMs, b.discardTicksMs);
    d.flushIos = wrapDelta(a.flushIos, b.flushIos);
    d.flushTicksMs = wrapDelta(a.flushTicksMs, b.flushTicksMs);
    d.fieldCount = std::min(a.fieldCount, b.fieldCount);
    return d;
}

void addDelta(DiskCounters &s, const DiskCounters &d)
{
    const bool first = s.fieldCount == 0;
    s.readIos += d.readIos;
    s.readMerges += d.readMerges;
    s.readSectors += d.readSectors;
    s.readTicksMs += d.readTicksMs;
    s.writeIos += d.writeIos;
    s.writeMerges += d.writeMerges;
    s.writeSectors += d.writeSectors;
    s.writeTicksMs += d.writeTicksMs;
    s.inFlight += d.inFlight;
    s.ioTicksMs += d.ioTicksMs;
    s.weightedTicksMs += d.weightedTicksMs;
    s.discardIos += d.discardIos;
    s.discardMerges += d.discardMerges;
    s.discardSectors += d.discardSectors;
    s.discardTicksMs += d.discardTicksMs;
    s.flushIos += d.flushIos;
    s.flushTicksMs += d.flushTicksMs;
    s.fieldCount = first ? d.fieldCount : std::min(s.fieldCount, d.fieldCount);
}

DeviceFigures deviceFigures(const DiskCounters &d, std::chrono::nanoseconds elapsed)
{
    DeviceFigures f;
    if (elapsed.count() <= 0 || d.fieldCount == 0)
        return f;
    const double s = std::chrono::duration<double>(elapsed).count();
    const double ms = s * 1000;
    f.valid = true;
    f.seconds = s;
    f.hasTimes = d.hasTimes();
    f.hasDiscards = d.hasDiscards();
    f.hasFlushes = d.hasFlushes();
    f.readIos = d.readIos;
    f.writeIos = d.writeIos;
    f.readBytes = d.readSectors * kSectorBytes;
    f.writeBytes = d.writeSectors * kSectorBytes;
    f.discardIos = d.discardIos;
    f.discardBytes = d.discardSectors * kSectorBytes;
    f.flushIos = d.flushIos;
    f.inFlight = d.inFlight;
    f.readsPerSecond = perSecond(d.readIos, s);
    f.writesPerSecond = perSecond(d.writeIos, s);
    f.readMergesPerSecond = perSecond(d.readMerges, s);
    f.writeMergesPerSecond = perSecond(d.writeMerges, s);
    f.readMegabytesPerSecond = perSecond(f.readBytes, s) / 1e6;
    f.writeMegabytesPerSecond = perSecond(f.writeBytes, s) / 1e6;
    f.averageReadRequestBytes = ratio(f.readBytes, d.readIos);
    f.averageWriteRequestBytes = ratio(f.writeBytes, d.writeIos);
    f.averageRequestBytes = ratio(f.readBytes + f.writeBytes, d.readIos + d.writeIos);
    f.discardsPerSecond = perSecond(d.discardIos, s);
    f.discardMegabytesPerSecond = perSecond(f.discardBytes, s) / 1e6;
    f.flushesPerSecond = perSecond(d.flushIos, s);
    if (f.hasTimes) {
        f.readAwaitMs = ratio(d.readTicksMs, d.readIos);
        f.writeAwaitMs = ratio(d.writeTicksMs, d.writeIos);
        f.queueSize = double(d.weightedTicksMs) / ms;
        // io_ticks advances in jiffies on some kernels and can exceed the span by one
        // tick: clamp, as iostat does.
        f.utilPercent = std::min(100.0, 100.0 * double(d.ioTicksMs) / ms);
    }
    if (f.hasFlushes)
        f.flushAwaitMs = ratio(d.flushTicksMs, d.flushIos);
    return f;
}

DeviceFigures deviceFigures(
    const DiskSample &a, const DiskSample &b, std::chrono::nanoseconds elapsed)
{
    if (!a.valid || !b.valid)
        return {};
    return deviceFigures(counterDelta(a.counters, b.counters), elapsed);
}

} // namespace ioprism::core
