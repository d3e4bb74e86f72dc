// SPDX-License-Identifier: GPL-3.0-or-later
// iostat's figures for a block device over a span, from two cumulative snapshots.
//
// The derivations are iostat's (sysstat, `iostat -x`), with Δ the change of a counter
// over the span and T the span in milliseconds:
//   r/s = Δreads / T·1000            rMB/s = Δsectors read · 512 / 10^6 / (T/1000)
//   rareq-sz = Δsectors read · 512 / Δreads (bytes here; iostat prints kB)
//   r_await  = Δread ticks / Δreads (ms: mean time from queueing to completion)
//   aqu-sz   = Δweighted ticks / T    (mean number of requests in flight)
//   %util    = Δio ticks / T · 100    (share of time with at least one request in flight;
//              near 100 % says little about saturation on devices that serve requests
//              in parallel: SSDs, NVMe, RAID)
// and the same for writes, discards and flushes. MB are decimal (10^6 bytes), as in the
// application figures.
//
// Counter wrap: the kernel prints the tick counters as 32-bit values (and every counter
// on 32-bit kernels), so a counter that goes backwards from below 2^32 has wrapped and
// is corrected; one that goes backwards from above (the device went away and came back)
// gives a delta of 0.
#pragma once

#include "core/counters.h"

#include <chrono>
#include <cstdint>

namespace ioprism::core {

struct DeviceFigures {
    bool valid = false; // false when either snapshot was missing or the span was empty
    double seconds = 0;
    std::uint64_t readIos = 0;
    std::uint64_t writeIos = 0;
    std::uint64_t readBytes = 0;
    std::uint64_t writeBytes = 0;
    std::uint64_t discardIos = 0;
    std::uint64_t discardBytes = 0;
    std::uint64_t flushIos = 0;
    double readsPerSecond = 0;
    double writesPerSecond = 0;
    double readMergesPerSecond = 0;
    double writeMergesPerSecond = 0;
    double readMegabytesPerSecond = 0; // decimal
    double writeMegabytesPerSecond = 0;
    double averageReadRequestBytes = 0; // rareq-sz
    double averageWriteRequestBytes = 0; // wareq-sz
    double averageRequestBytes = 0; // reads and writes together
    double readAwaitMs = 0;
    double writeAwaitMs = 0;
    double queueSize = 0; // aqu-sz
    double utilPercent = 0; // %util
    double discardsPerSecond = 0;
    double discardMegabytesPerSecond = 0;
    double flushesPerSecond = 0;
    double flushAwaitMs = 0;
    std::uint64_t inFlight = 0; // at the end of the span
    bool hasTimes = false; // awaits, aqu-sz and %util are known
    bool hasDiscards = false; // kernel 4.18+
    bool hasFlushes = false; // kernel 5.5+
    friend bool operator==(const DeviceFigures &, const DeviceFigures &) = default;
};

// The change from `earlier` to `later` (cumulative fields), with the wrap rule above;
// inFlight is the later value; fieldCount the smaller of the two.
DiskCounters counterDelta(const DiskCounters &earlier, const DiskCounters &later);

// Adds a delta of another device over the SAME span (for totals); inFlight adds too.
void addDelta(DiskCounters &sum, const DiskCounters &delta);

// Figures from a delta over `elapsed`.
DeviceFigures deviceFigures(const DiskCounters &delta, std::chrono::nanoseconds elapsed);

// Figures from two snapshots of one device; invalid when either is.
DeviceFigures deviceFigures(
    const DiskSample &earlier, const DiskSample &later, std::chrono::nanoseconds elapsed);

} // namespace ioprism::core
