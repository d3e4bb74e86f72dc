// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the machine description (system_info) and the Linux CPU counter source: the
// parsers on recorded text, the live functions on this machine.
#include "platform/linux/block_devices.h"
#include "platform/linux/cpu_counter_source.h"
#include "platform/linux/system_info.h"

#include <atomic>
#include <chrono>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <thread>

#include "platform_test_util.h"

namespace ioprism::test {
namespace {

using namespace platform;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

std::string readFile(const fs::path &path)
{
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// ------------------------------------------------------------------ os-release

struct OsReleaseCase {
    const char *name;
    const char *text;
    const char *expected;
};

class OsReleaseParser : public testing::TestWithParam<OsReleaseCase>
{
};

TEST_P(OsReleaseParser, GivesThePrettyNameOrNameAndVersion)
{
    EXPECT_EQ(parseOsRelease(GetParam().text), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Recorded, OsReleaseParser,
    testing::Values(
        // Debian 12, as shipped.
        OsReleaseCase {"debian",
            "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n"
            "NAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\nVERSION=\"12 (bookworm)\"\n"
            "ID=debian\nHOME_URL=\"https://www.debian.org/\"\n",
            "Debian GNU/Linux 12 (bookworm)"},
        // Unquoted, single-quoted and escaped values are all legal shell.
        OsReleaseCase {"unquoted", "NAME=Alpine\nPRETTY_NAME=Alpine\n", "Alpine"},
        OsReleaseCase {"single", "PRETTY_NAME='Arch Linux'\n", "Arch Linux"},
        OsReleaseCase {"escaped", "PRETTY_NAME=\"My \\\"Lab\\\" OS\"\n", "My \"Lab\" OS"},
        OsReleaseCase {
            "comments", "# a comment\n\n  PRETTY_NAME=\"Fedora Linux 40\"  \n", "Fedora Linux 40"},
        OsReleaseCase {"no pretty name", "NAME=\"Gentoo\"\nVERSION=\"2.15\"\n", "Gentoo 2.15"},
        OsReleaseCase {"name only", "NAME=\"Gentoo\"\n", "Gentoo"},
        OsReleaseCase {"empty", "", ""}),
    [](const auto &info) {
        std::string n = info.param.name;
        std::replace(n.begin(), n.end(), ' ', '_');
        return n;
    });

// ------------------------------------------------------------------ cpuinfo

// x86 (two logical CPUs, abridged), ARM (Raspberry Pi), POWER.
constexpr const char *kCpuInfoX86 = "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n"
                                    "model\t\t: 85\nmodel name\t: Intel(R) Xeon(R) Gold 6230 CPU @ "
                                    "2.10GHz\ncpu MHz\t\t: 2100.000\ncpu cores\t: 1\n\n"
                                    "processor\t: 1\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n"
                                    "model name\t: Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz\n\n";
constexpr const char *kCpuInfoArm
    = "processor\t: 0\nBogoMIPS\t: 108.00\nCPU implementer\t: 0x41\n\n"
      "processor\t: 1\nBogoMIPS\t: 108.00\n\n"
      "Hardware\t: BCM2835\nRevision\t: c03111\n"
      "Model\t\t: Raspberry Pi 4 Model B Rev 1.1\n";
constexpr const char *kCpuInfoPower = "processor\t: 0\ncpu\t\t: POWER9 (architected), altivec "
                                      "supported\nclock\t\t: 2200.000000MHz\n";

TEST(CpuInfoParser, ModelNameOnX86)
{
    EXPECT_EQ(parseCpuModel(kCpuInfoX86), "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz");
    EXPECT_EQ(parseCpuInfoProcessorCount(kCpuInfoX86), 2u);
}

TEST(CpuInfoParser, ModelThenHardwareOnArm)
{
    EXPECT_EQ(parseCpuModel(kCpuInfoArm), "Raspberry Pi 4 Model B Rev 1.1");
    EXPECT_EQ(parseCpuInfoProcessorCount(kCpuInfoArm), 2u);
}

TEST(CpuInfoParser, CpuLineOnPowerAndNothingOnEmptyText)
{
    EXPECT_EQ(parseCpuModel(kCpuInfoPower), "POWER9 (architected), altivec supported");
    EXPECT_EQ(parseCpuModel(""), "");
    EXPECT_EQ(parseCpuInfoProcessorCount(""), 0u);
}

// ------------------------------------------------------------------ sysfs values

TEST(SysfsParser, TextIsTrimmedAndNumbersAreStrict)
{
    EXPECT_EQ(
        parseSysfsText("Samsung SSD 980 PRO 1TB                 \n"), "Samsung SSD 980 PRO 1TB");
    EXPECT_EQ(parseSysfsText("write back\n"), "write back");
    EXPECT_EQ(parseSysfsNumber("1953525168\n"), 1953525168u);
    EXPECT_EQ(parseSysfsNumber(" 512 \n"), 512u);
    EXPECT_EQ(parseSysfsNumber(""), std::nullopt);
    EXPECT_EQ(parseSysfsNumber("12abc"), std::nullopt);
    EXPECT_EQ(parseSysfsNumber("-1"), std::nullopt);
}

// ------------------------------------------------------------------ /proc/stat

// Recorded from a two-CPU VM (kernel 6.1), USER_HZ 100; guest columns non-zero to show
// they are not added again.
constexpr const char *kProcStat = "cpu  308849 120 106246 181868 2086 30 894 7 55 0\n"
                                  "cpu0 154930 60 51381 93181 261 15 123 3 30 0\n"
                                  "cpu1 153919 60 54865 88687 1825 15 770 4 25 0\n"
                                  "intr 1875442 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 1 9 0 604 458\n"
                                  "ctxt 4317921\nbtime 1795317091\nprocesses 28117\n"
                                  "procs_running 11\nprocs_blocked 0\n"
                                  "softirq 1002679 0 138065 4 6262 386480 0 6 140302 0 331560\n";

TEST(ProcStatParser, ConvertsTicksToNanosecondsAndCountsCpus)
{
    const auto t = parseProcStat(kProcStat, 100);
    ASSERT_TRUE(t.valid);
    EXPECT_EQ(t.cpuCount, 2u);
    EXPECT_EQ(t.userNs, (308849ull + 120) * 10'000'000); // user + nice; guest is in user
    EXPECT_EQ(t.systemNs, 106246ull * 10'000'000);
    EXPECT_EQ(t.idleNs, 181868ull * 10'000'000);
    EXPECT_EQ(t.iowaitNs, 2086ull * 10'000'000);
    EXPECT_EQ(t.irqNs, 30ull * 10'000'000);
    EXPECT_EQ(t.softirqNs, 894ull * 10'000'000);
    EXPECT_EQ(t.stealNs, 7ull * 10'000'000);
    EXPECT_EQ(t.processUserNs, 0u);
}

TEST(ProcStatParser, OtherTickRatesAreExact)
{
    const auto t = parseProcStat("cpu  3 0 1 7\ncpu0 3 0 1 7\n", 300);
    ASSERT_TRUE(t.valid);
    EXPECT_EQ(t.userNs, 10'000'000u); // 3 ticks of 1/300 s
    EXPECT_EQ(t.systemNs, 3'333'333u);
    EXPECT_EQ(t.iowaitNs, 0u); // an old kernel without the later columns
}

TEST(ProcStatParser, RejectsTextWithoutTheAggregateLine)
{
    EXPECT_FALSE(parseProcStat("", 100).valid);
    EXPECT_FALSE(parseProcStat("cpu0 1 2 3 4\nintr 5\n", 100).valid);
    EXPECT_FALSE(parseProcStat("cpu  1 2\n", 100).valid); // too few columns
    EXPECT_FALSE(parseProcStat("cpu  x y z w\n", 100).valid);
    EXPECT_FALSE(parseProcStat(kProcStat, 0).valid);
}

// ------------------------------------------------------------------ live machine

TEST(DescribeEnvironment, DescribesThisMachine)
{
    const core::Environment env = describeEnvironment();
    EXPECT_FALSE(env.hostName.empty());
    EXPECT_FALSE(env.kernel.empty());
    EXPECT_FALSE(env.osName.empty());
    EXPECT_GT(env.cpuCount, 0u);
    EXPECT_EQ(env.cpuModel, parseCpuModel(readFile("/proc/cpuinfo")));
}

// /var/tmp on a block device (not a memory file system): true on real machines and VMs.
bool varTmpOnBlockDevice()
{
    return blockDeviceOfPath("/var/tmp").has_value();
}

TEST(DescribeDevice, FileUnderVarTmpNamesItsDevice)
{
    IOPRISM_REQUIRE(varTmpOnBlockDevice(), "/var/tmp is not on a block device here");
    TempDir dir("/var/tmp");
    const fs::path file = dir.path() / "target, with comma.dat";
    std::ofstream(file) << "data";
    const core::DeviceFacts facts = describeDevice(file.string());
    EXPECT_EQ(facts.path, file.string());
    EXPECT_EQ(facts.name, *blockDeviceOfPath(file.string()));
    EXPECT_GT(facts.sizeBytes, 0u);
    EXPECT_GT(facts.logicalSectorBytes, 0u);
    EXPECT_GE(facts.physicalSectorBytes, facts.logicalSectorBytes);
}

TEST(DescribeDevice, MissingTestFileIsDescribedByItsDirectory)
{
    IOPRISM_REQUIRE(varTmpOnBlockDevice(), "/var/tmp is not on a block device here");
    TempDir dir("/var/tmp");
    const core::DeviceFacts facts = describeDevice((dir.path() / "not-yet-created.dat").string());
    EXPECT_EQ(facts.name, *blockDeviceOfPath(dir.path().string()));
}

TEST(DescribeDevice, BlockDevicePathIsDescribedDirectly)
{
    const auto devices = listBlockDevices();
    IOPRISM_REQUIRE(!devices.empty() && fs::exists(devices.front().devicePath),
        "no block device node to describe");
    const auto &d = devices.front();
    const core::DeviceFacts facts = describeDevice(d.devicePath);
    EXPECT_EQ(facts.name, d.name);
    EXPECT_EQ(facts.sizeBytes, d.sizeBytes);
    EXPECT_FALSE(facts.model.empty()); // model, vendor, loop file, dm name or driver
    EXPECT_EQ(facts.scheduler, d.scheduler);
    EXPECT_EQ(facts.logicalSectorBytes, d.logicalBlockBytes);
    EXPECT_EQ(facts.rotational, d.rotational);
}

TEST(DescribeDevice, UnknownPathKeepsThePathAndNothingElse)
{
    const core::DeviceFacts facts = describeDevice("/nonexistent-ioprism-dir/x.dat");
    EXPECT_EQ(facts.path, "/nonexistent-ioprism-dir/x.dat");
    EXPECT_TRUE(facts.name.empty());
    EXPECT_EQ(facts.sizeBytes, 0u);
}

// ------------------------------------------------------------------ counter source

TEST(LinuxCounterSource, SampleIsValidAndCountsTheOnlineCpus)
{
    LinuxCounterSource source;
    const auto snapshot = source.sample();
    ASSERT_TRUE(snapshot.cpu.valid);
    EXPECT_EQ(snapshot.cpu.cpuCount, static_cast<std::uint32_t>(::sysconf(_SC_NPROCESSORS_ONLN)));
    EXPECT_GT(snapshot.cpu.idleNs + snapshot.cpu.userNs + snapshot.cpu.systemNs, 0u);
}

TEST(LinuxCounterSource, SpinningThreadShowsAsProcessCpu)
{
    LinuxCounterSource source;
    std::atomic<bool> stop {false};
    const auto a = source.sample();
    std::thread spinner([&] {
        volatile std::uint64_t x = 0;
        while (!stop.load(std::memory_order_relaxed))
            x = x + 1;
    });
    std::this_thread::sleep_for(200ms);
    const auto b = source.sample();
    stop = true;
    spinner.join();

    const core::CpuFigures f = core::cpuFigures(a.cpu, b.cpu);
    ASSERT_TRUE(f.valid);
    EXPECT_GT(f.processPercent, 0.0);
    EXPECT_GT(
        b.cpu.processUserNs + b.cpu.processSystemNs, a.cpu.processUserNs + a.cpu.processSystemNs);
    EXPECT_GT(f.busyPercent, 0.0);
    EXPECT_LE(f.busyPercent, 100.0);
    const double sum = f.userPercent + f.systemPercent + f.idlePercent + f.iowaitPercent
        + f.irqPercent + f.softirqPercent + f.stealPercent;
    EXPECT_NEAR(sum, 100.0, 1e-6);
}

} // namespace
} // namespace ioprism::test
