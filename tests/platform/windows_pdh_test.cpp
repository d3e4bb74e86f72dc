// SPDX-License-Identifier: GPL-3.0-or-later
// The PDH counter source: graceful degradation where PerfMon lacks counters (Wine has no
// PhysicalDisk object and only a fake Processor counter), CPU from GetSystemTimes, and
// the mapping of targets to disks. The rate maths are tested in core (perfmon_test).
#include "core/counters.h"
#include "platform/windows/pdh_counter_source.h"
#include "platform/windows/win_util.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <thread>

#include "windows_test_util.h"

using namespace ioprism;
using platform::PdhCounterSource;
using ::testing::HasSubstr;
using ::testing::StartsWith;

namespace {

// Keeps one CPU busy for a while so CPU figures have something to show.
void spin(std::chrono::milliseconds how)
{
    const auto end = std::chrono::steady_clock::now() + how;
    volatile std::uint64_t x = 0;
    while (std::chrono::steady_clock::now() < end)
        x = x + 1;
}

void expectCpuFiguresAddUp(core::CounterSource &source)
{
    const auto a = source.sample();
    spin(std::chrono::milliseconds(300));
    const auto b = source.sample();
    ASSERT_TRUE(a.cpu.valid);
    ASSERT_TRUE(b.cpu.valid);
    EXPECT_GT(b.cpu.cpuCount, 0u);
    const auto f = core::cpuFigures(a.cpu, b.cpu);
    ASSERT_TRUE(f.valid);
    EXPECT_NEAR(f.userPercent + f.systemPercent + f.irqPercent + f.softirqPercent + f.idlePercent,
        100.0, 0.5);
    EXPECT_GT(f.busyPercent, 0.0) << "a CPU was kept busy for 300 ms";
    EXPECT_GT(
        b.cpu.processUserNs + b.cpu.processSystemNs, a.cpu.processUserNs + a.cpu.processSystemNs)
        << "this process used CPU time";
}

} // namespace

TEST(PdhCounterSource, WithoutPdhCountersCpuComesFromGetSystemTimesAndDisksAreSaidUnavailable)
{
    test::TempDir dir;
    test::win::writeFile(dir.path() / "t.dat", 4096);
    PdhCounterSource source({.useProcessorCounters = false, .usePhysicalDiskCounters = false});
    EXPECT_FALSE(source.cpuFromPdh());
    EXPECT_FALSE(source.diskCountersUnavailable().empty());

    const auto map = source.watchTargets({(dir.path() / "t.dat").string()});
    EXPECT_TRUE(map.devices.empty());
    ASSERT_EQ(map.targets.size(), 1u);
    EXPECT_FALSE(map.targets[0].device.has_value());
    EXPECT_THAT(map.targets[0].note, StartsWith("device counters unavailable"));
    EXPECT_TRUE(source.sample().disks.empty());
    expectCpuFiguresAddUp(source);
}

TEST(PdhCounterSource, DegradesGracefullyWherePdhLacksTheCounters)
{
    test::TempDir dir;
    test::win::writeFile(dir.path() / "t.dat", 4096);
    PdhCounterSource source; // everything PDH has, as the CLI uses it
    const auto map
        = source.watchTargets({(dir.path() / "t.dat").string(), (dir.path() / "t.dat").string()});
    ASSERT_EQ(map.targets.size(), 2u);
    if (platform::win::runningUnderWine()) {
        // Wine: no PhysicalDisk object, no % User Time: both fallbacks, said plainly.
        EXPECT_FALSE(source.cpuFromPdh());
        EXPECT_THAT(source.diskCountersUnavailable(), HasSubstr("PhysicalDisk"));
        EXPECT_TRUE(map.devices.empty());
        for (const auto &t : map.targets)
            EXPECT_THAT(t.note,
                StartsWith("device counters unavailable: PDH has no PhysicalDisk counters"));
    } else if (source.diskCountersUnavailable().empty()) {
        // Real Windows: one disk, watched once for both targets, compared with ours.
        ASSERT_FALSE(map.devices.empty()) << map.targets[0].note;
        EXPECT_THAT(map.devices[0].name, StartsWith("PhysicalDrive"));
        EXPECT_TRUE(map.devices[0].inTotal);
        EXPECT_EQ(map.targets[0].device, map.targets[1].device);
        const auto s = source.sample();
        ASSERT_EQ(s.disks.size(), map.devices.size());
        EXPECT_TRUE(s.disks[0].valid);
        EXPECT_TRUE(s.disks[0].counters.hasTimes());
    }
    expectCpuFiguresAddUp(source);
}

TEST(PdhCounterSource, PhysicalDriveTargetsAreTheirOwnDisk)
{
    std::string note;
    EXPECT_EQ(
        platform::disksOfTarget("\\\\.\\PhysicalDrive3", note), std::vector<std::uint32_t> {3});
    EXPECT_TRUE(note.empty());
}
