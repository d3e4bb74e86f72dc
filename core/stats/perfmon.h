// SPDX-License-Identifier: GPL-3.0-or-later
// Windows PerfMon (PDH) values turned into the platform-independent cumulative counters
// that core computes every figure from (DiskCounters, CpuTimes), so a run on Windows gets
// the same per-interval fields and the same verdict as on Linux. Pure: tested on recorded
// raw values; platform/windows/pdh_counter_source.* reads the live ones.
//
// PhysicalDisk counters, read raw (PdhGetRawCounterValue), are cumulative underneath the
// "/sec" and "Avg." names; PerfMon itself divides their differences:
//
//   counter                   type                              raw FirstValue (SecondValue)
//   Disk Read Bytes/sec       PERF_COUNTER_BULK_COUNT           bytes read
//   Disk Reads/sec            PERF_COUNTER_COUNTER              reads completed
//   Avg. Disk sec/Read        PERF_AVERAGE_TIMER                time reading, in ticks of the
//                                                               counter's time base (reads)
//   % Idle Time               PERF_PRECISION_100NS_TIMER        idle time, 100 ns (timestamp, 100
//   ns) Avg. Disk Queue Length    PERF_COUNTER_100NS_QUEUELEN_TYPE  queue length x time, 100 ns
//   Current Disk Queue Length PERF_COUNTER_RAWCOUNT             requests in flight now
//   (and the same for writes)
//
// They map onto the Linux block-layer counters (Documentation/admin-guide/iostats.rst):
//   reads/writes completed   -> readIos / writeIos
//   bytes / 512              -> readSectors / writeSectors (disk transfers are whole sectors)
//   time reading / writing   -> readTicksMs / writeTicksMs (ticks * 1000 / time base)
//   timestamp - idle time    -> ioTicksMs  (time with something in flight: %util = 100 - % Idle
//   Time) queue length x time      -> weightedTicksMs (so aqu-sz = Avg. Disk Queue Length) current
//   queue length     -> inFlight
// Windows has no merges, discards or flushes here: those stay 0 and fieldCount is 11
// (times known, no discards, no flushes). Then deviceFigures() gives r/s, MB/s, r_await
// (= Avg. Disk sec/Read in ms), aqu-sz and %util exactly as PerfMon shows them.
//
// Processor counters are read formatted (PDH computes the percentages of
// \Processor(_Total) over the span between two collections) and accumulated into
// CpuTimes: each percentage times the span times the CPU count. cpuFigures() of two such
// snapshots gives back the time-weighted mean percentages. Mapping: % User Time -> user,
// % Privileged Time minus % Interrupt Time and % DPC Time -> system (privileged time
// includes both), % Interrupt Time -> irq, % DPC Time -> softirq (deferred work, as on
// Linux), % Idle Time -> idle. Where PDH lacks them (Wine), GetSystemTimes gives
// user, kernel and idle time directly (cpuTimesFromSystemTimes).
#pragma once

#include "core/counters.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ioprism::core {

// Raw values of one \PhysicalDisk(...) instance (see the table above).
struct PerfDiskRaw {
    std::uint64_t readBytes = 0;
    std::uint64_t writeBytes = 0;
    std::uint64_t reads = 0;
    std::uint64_t writes = 0;
    std::uint64_t readTimeTicks = 0; // Avg. Disk sec/Read FirstValue
    std::uint64_t writeTimeTicks = 0; // Avg. Disk sec/Write FirstValue
    std::uint64_t idleTime100ns = 0; // % Idle Time FirstValue
    std::uint64_t idleTimestamp100ns = 0; // % Idle Time SecondValue
    std::uint64_t queueTime100ns = 0; // Avg. Disk Queue Length FirstValue
    std::uint64_t currentQueueLength = 0; // Current Disk Queue Length
};

// `timeBase` is the ticks per second of the Avg. Disk sec/* counters
// (PdhGetCounterTimeBase; QueryPerformanceFrequency when PDH does not say).
DiskCounters diskCountersFromPerf(const PerfDiskRaw &raw, std::uint64_t timeBase);

// \Processor(_Total) percentages over one span, as PDH formats them.
struct ProcessorPercents {
    double user = 0;
    double privileged = 0; // includes interrupt and DPC time
    double interrupt = 0;
    double dpc = 0;
    std::optional<double> idle; // % Idle Time; 100 - user - privileged when missing
};

// Adds one span's percentages to cumulative CPU times (all CPUs added, like Linux's
// /proc/stat). Percentages are clamped to 0..100 (PDH can overshoot by rounding).
void accumulateCpu(CpuTimes &times, const ProcessorPercents &percents,
    std::chrono::nanoseconds span, std::uint32_t cpuCount);

// GetSystemTimes (100 ns units, all CPUs added; kernel time includes idle time) and
// GetProcessTimes (kernel, user) as CpuTimes.
CpuTimes cpuTimesFromSystemTimes(std::uint64_t idle100ns, std::uint64_t kernel100ns,
    std::uint64_t user100ns, std::uint64_t processKernel100ns, std::uint64_t processUser100ns,
    std::uint32_t cpuCount);

// The disk number at the start of a PhysicalDisk instance name: "0 C: D:" -> 0,
// "12" -> 12; nullopt for "_Total" and anything else.
std::optional<std::uint32_t> physicalDiskInstanceNumber(std::string_view instance);

} // namespace ioprism::core
