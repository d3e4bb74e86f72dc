// SPDX-License-Identifier: GPL-3.0-or-later
// PerfMon (PDH) values -> the cumulative counters core computes figures from: checked
// against PerfMon's own formulas on raw values in the form PdhGetRawCounterValue returns
// them, so a Windows run reports what PerfMon would show for the same span.
#include "core/stats/device_figures.h"
#include "core/stats/perfmon.h"

#include <gtest/gtest.h>

using namespace ioprism::core;
using namespace std::chrono_literals;

namespace {

constexpr std::uint64_t kTimeBase = 10'000'000; // QueryPerformanceFrequency on Windows 10+

// Two samples of \PhysicalDisk(1 D:) one second apart during a 4 KiB random-read run
// at QD 8 with a trickle of 64 KiB writes.
PerfDiskRaw earlier()
{
    PerfDiskRaw r;
    r.readBytes = 81'920'000'000;
    r.writeBytes = 6'553'600'000;
    r.reads = 20'000'000;
    r.writes = 100'000;
    r.readTimeTicks = 3'000'000'000; // 300 s spent reading so far
    r.writeTimeTicks = 200'000'000;
    r.idleTime100ns = 50'000'000'000; // 5000 s idle so far
    r.idleTimestamp100ns = 133'500'000'000'000'000; // FILETIME-style clock
    r.queueTime100ns = 40'000'000'000;
    r.currentQueueLength = 0;
    return r;
}

PerfDiskRaw later()
{
    PerfDiskRaw r = earlier();
    r.reads += 50'000; // 50 000 reads in the second
    r.readBytes += 50'000ull * 4096; // of 4 KiB
    r.readTimeTicks += 50'000ull * 1600; // 0.16 ms each
    r.writes += 100;
    r.writeBytes += 100ull * 65536;
    r.writeTimeTicks += 100ull * 20'000; // 2 ms each
    r.idleTime100ns += 500'000; // idle 50 ms of the 1000 ms: % Idle Time 5
    r.idleTimestamp100ns += 10'000'000; // 1 s
    r.queueTime100ns += 80'000'000; // Avg. Disk Queue Length 8
    r.currentQueueLength = 8;
    return r;
}

} // namespace

TEST(PerfMonDisk, FiguresMatchWhatPerfMonShowsForTheSameSpan)
{
    const DiskSample a {true, diskCountersFromPerf(earlier(), kTimeBase)};
    const DiskSample b {true, diskCountersFromPerf(later(), kTimeBase)};
    const DeviceFigures f = deviceFigures(a, b, 1s);
    ASSERT_TRUE(f.valid);
    ASSERT_TRUE(f.hasTimes);
    EXPECT_FALSE(f.hasDiscards);
    EXPECT_FALSE(f.hasFlushes);
    // Disk Reads/sec = (N1 - N0) / ((T1 - T0) / F)
    EXPECT_DOUBLE_EQ(f.readsPerSecond, 50'000);
    EXPECT_DOUBLE_EQ(f.writesPerSecond, 100);
    // Disk Read Bytes/sec, in decimal MB/s like every figure
    EXPECT_NEAR(f.readMegabytesPerSecond, 50'000 * 4096 / 1e6, 1e-9);
    EXPECT_NEAR(f.writeMegabytesPerSecond, 100 * 65536 / 1e6, 1e-9);
    EXPECT_DOUBLE_EQ(f.averageReadRequestBytes, 4096);
    // Avg. Disk sec/Read = ((X1 - X0) / F) / (B1 - B0): 0.16 ms (ms resolution, as on Linux)
    EXPECT_NEAR(f.readAwaitMs, 0.16, 0.001);
    EXPECT_NEAR(f.writeAwaitMs, 2.0, 0.01);
    // Avg. Disk Queue Length = (X1 - X0) / (Y1 - Y0)
    EXPECT_NEAR(f.queueSize, 8.0, 0.001);
    // 100 - % Idle Time
    EXPECT_NEAR(f.utilPercent, 95.0, 0.001);
    EXPECT_EQ(f.inFlight, 8u);
    EXPECT_EQ(f.readBytes, 50'000u * 4096);
}

TEST(PerfMonDisk, MapsEveryCounterOntoTheLinuxFields)
{
    const DiskCounters c = diskCountersFromPerf(later(), kTimeBase);
    EXPECT_EQ(c.readIos, later().reads);
    EXPECT_EQ(c.writeIos, later().writes);
    EXPECT_EQ(c.readSectors * 512, later().readBytes);
    EXPECT_EQ(c.writeSectors * 512, later().writeBytes);
    EXPECT_EQ(c.readTicksMs, (3'000'000'000ull + 50'000ull * 1600) / 10'000);
    EXPECT_EQ(c.readMerges, 0u);
    EXPECT_EQ(c.discardIos, 0u);
    EXPECT_EQ(c.fieldCount, 11);
}

TEST(PerfMonDisk, HugeTickCountsDoNotOverflow)
{
    PerfDiskRaw r;
    r.readTimeTicks = std::uint64_t(1) << 62; // * 1000 would overflow 64 bits
    const DiskCounters c = diskCountersFromPerf(r, kTimeBase);
    EXPECT_EQ(c.readTicksMs, (std::uint64_t(1) << 62) / 10'000);
}

TEST(PerfMonDisk, AnIdleClockAheadOfItsTimestampReadsAsIdle)
{
    PerfDiskRaw r;
    r.idleTime100ns = 2'000;
    r.idleTimestamp100ns = 1'000;
    EXPECT_EQ(diskCountersFromPerf(r, kTimeBase).ioTicksMs, 0u);
    EXPECT_EQ(diskCountersFromPerf(r, 0).readTicksMs, 0u)
        << "an unknown time base gives no times, not a crash";
}

TEST(PerfMonCpu, AccumulatedPercentagesComeBackAsTheTimeWeightedMean)
{
    CpuTimes t;
    accumulateCpu(t, {.user = 0, .privileged = 0, .interrupt = 0, .dpc = 0, .idle = 100}, 1s,
        4); // warm-up span
    const CpuTimes start = t;
    // 1 s at 20 % user, 30 % privileged (of which 5 % interrupt, 10 % DPC), 50 % idle,
    // then 3 s at 60 % user, 10 % privileged, 30 % idle.
    accumulateCpu(t, {.user = 20, .privileged = 30, .interrupt = 5, .dpc = 10, .idle = 50}, 1s, 4);
    accumulateCpu(t, {.user = 60, .privileged = 10, .interrupt = 0, .dpc = 0, .idle = 30}, 3s, 4);
    const CpuFigures f = cpuFigures(start, t);
    ASSERT_TRUE(f.valid);
    EXPECT_NEAR(f.userPercent, (20 + 3 * 60) / 4.0, 1e-6);
    EXPECT_NEAR(f.systemPercent, (15 + 3 * 10) / 4.0, 1e-6) << "privileged minus interrupt and DPC";
    EXPECT_NEAR(f.irqPercent, 5 / 4.0, 1e-6);
    EXPECT_NEAR(f.softirqPercent, 10 / 4.0, 1e-6);
    EXPECT_NEAR(f.idlePercent, (50 + 3 * 30) / 4.0, 1e-6);
    EXPECT_EQ(t.cpuCount, 4u);
}

TEST(PerfMonCpu, MissingIdleAndOvershootAreHandled)
{
    CpuTimes t;
    accumulateCpu(t, {.user = 0, .privileged = 0}, 1s, 2);
    const CpuTimes start = t;
    // PDH rounds: 100.4 % is clamped; a missing % Idle Time is the rest of 100.
    accumulateCpu(t, {.user = 70.0, .privileged = 30.4, .interrupt = 40, .dpc = 0}, 1s, 2);
    const CpuFigures f = cpuFigures(start, t);
    ASSERT_TRUE(f.valid);
    EXPECT_NEAR(f.idlePercent, 0, 1e-6);
    EXPECT_NEAR(f.irqPercent, 30.4 / 100.4 * 100, 1e-3)
        << "interrupt time is capped at privileged time";
    EXPECT_NEAR(f.systemPercent, 0, 1e-6);
}

TEST(PerfMonCpu, GetSystemTimesKernelTimeIncludesIdle)
{
    // 2 CPUs over 1 s: 0.5 s user, 0.3 s kernel work, 1.2 s idle (kernel = 1.5 s).
    const CpuTimes a = cpuTimesFromSystemTimes(1'000'000, 2'000'000, 3'000'000, 10, 20, 2);
    const CpuTimes b = cpuTimesFromSystemTimes(1'000'000 + 12'000'000, 2'000'000 + 15'000'000,
        3'000'000 + 5'000'000, 10 + 1'000'000, 20 + 2'000'000, 2);
    ASSERT_TRUE(a.valid);
    const CpuFigures f = cpuFigures(a, b);
    ASSERT_TRUE(f.valid);
    EXPECT_NEAR(f.userPercent, 25.0, 1e-9);
    EXPECT_NEAR(f.systemPercent, 15.0, 1e-9);
    EXPECT_NEAR(f.idlePercent, 60.0, 1e-9);
    EXPECT_NEAR(f.processPercent, 15.0, 1e-9); // 0.3 s of this process over 2 CPU-seconds
    EXPECT_FALSE(cpuTimesFromSystemTimes(0, 0, 0, 0, 0, 2).valid);
}

TEST(PerfMonNames, PhysicalDiskInstancesStartWithTheDiskNumber)
{
    EXPECT_EQ(physicalDiskInstanceNumber("0 C:"), 0u);
    EXPECT_EQ(physicalDiskInstanceNumber("1 D: E:"), 1u);
    EXPECT_EQ(physicalDiskInstanceNumber("12"), 12u);
    EXPECT_EQ(physicalDiskInstanceNumber("_Total"), std::nullopt);
    EXPECT_EQ(physicalDiskInstanceNumber("3a"), std::nullopt);
    EXPECT_EQ(physicalDiskInstanceNumber(""), std::nullopt);
}
