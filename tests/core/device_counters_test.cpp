// SPDX-License-Identifier: GPL-3.0-or-later
// Device counters in core: the diskstats parser on recorded dumps, iostat's figures on a
// recorded pair, the verdict table, and the run's device reports with a scripted source.
#include "core/null_engine.h"
#include "core/run/run.h"
#include "core/stats/device_figures.h"
#include "core/stats/diskstats.h"
#include "core/stats/verdict.h"
#include "support/test_backend.h"
#include "support/test_support.h"

#include <atomic>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <random>
#include <sstream>
#include <string>

using namespace ioprism::core;
using namespace std::chrono_literals;
using BenchRun = ioprism::core::Run; // testing::Test has a member named Run
using ioprism::test::TestBackend;

namespace {

std::string fixture(const std::string &name)
{
    std::ifstream in(ioprism::test::sourceDir() / "tests/fixtures/diskstats" / name);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

const DiskstatsEntry *entry(const std::vector<DiskstatsEntry> &all, const std::string &name)
{
    for (const auto &e : all)
        if (e.name == name)
            return &e;
    return nullptr;
}

} // namespace

// ---------------------------------------------------------------- parser

// linux-6.18-17fields.txt is /proc/diskstats of the project VM (kernel 6.18). The 11- and
// 15-field files are the same lines cut to what kernels before 4.18 and before 5.5
// printed (the fields only ever grew at the end); layout-2.6-partitions.txt has the
// 4-field partition lines of kernels before 2.6.25.
TEST(DiskstatsParser, ReadsEveryLayoutTheKernelHasPrinted)
{
    const struct {
        const char *file;
        std::size_t lines;
        std::uint8_t fieldCount;
    } cases[] = {
        {"linux-6.18-17fields.txt", 6, 17},
        {"layout-15fields.txt", 6, 15},
        {"layout-11fields.txt", 6, 11},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(c.file);
        const auto all = parseDiskstats(fixture(c.file));
        ASSERT_EQ(all.size(), c.lines);
        const auto *vda = entry(all, "vda");
        ASSERT_NE(vda, nullptr);
        EXPECT_EQ(vda->major, 254u);
        EXPECT_EQ(vda->minor, 0u);
        const auto &v = vda->counters;
        EXPECT_EQ(v.fieldCount, c.fieldCount);
        EXPECT_EQ(v.readIos, 1692028u);
        EXPECT_EQ(v.readMerges, 35054u);
        EXPECT_EQ(v.readSectors, 91215274u);
        EXPECT_EQ(v.readTicksMs, 503614u);
        EXPECT_EQ(v.writeIos, 98863u);
        EXPECT_EQ(v.writeMerges, 18049u);
        EXPECT_EQ(v.writeSectors, 18385368u);
        EXPECT_EQ(v.writeTicksMs, 74298u);
        EXPECT_EQ(v.inFlight, 2u);
        EXPECT_EQ(v.ioTicksMs, 107116u);
        EXPECT_EQ(v.weightedTicksMs, 587081u);
        EXPECT_EQ(v.hasDiscards(), c.fieldCount >= 15);
        EXPECT_EQ(v.discardIos, c.fieldCount >= 15 ? 9256u : 0u);
        EXPECT_EQ(v.discardMerges, c.fieldCount >= 15 ? 38u : 0u);
        EXPECT_EQ(v.discardSectors, c.fieldCount >= 15 ? 9979944u : 0u);
        EXPECT_EQ(v.discardTicksMs, c.fieldCount >= 15 ? 6874u : 0u);
        EXPECT_EQ(v.hasFlushes(), c.fieldCount >= 17);
        EXPECT_EQ(v.flushIos, c.fieldCount >= 17 ? 4789u : 0u);
        EXPECT_EQ(v.flushTicksMs, c.fieldCount >= 17 ? 2294u : 0u);
        EXPECT_TRUE(v.hasTimes());
    }
}

TEST(DiskstatsParser, ReadsOldFourFieldPartitionLines)
{
    const auto all = parseDiskstats(fixture("layout-2.6-partitions.txt"));
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[0].counters.fieldCount, 11);
    const auto &p = all[1].counters;
    EXPECT_EQ(all[1].name, "sda1");
    EXPECT_EQ(p.fieldCount, 4);
    EXPECT_EQ(p.readIos, 35813u);
    EXPECT_EQ(p.readSectors, 1123730u);
    EXPECT_EQ(p.writeIos, 106404u);
    EXPECT_EQ(p.writeSectors, 850532u);
    EXPECT_FALSE(p.hasTimes());
}

TEST(DiskstatsParser, SysfsStatFileMatchesTheDiskstatsLine)
{
    // /sys/block/loop0/stat pads every field; /proc/diskstats has the same numbers.
    const std::string pair = fixture("loop0-pair-6.18.txt");
    std::istringstream lines(pair);
    std::string line;
    std::vector<DiskCounters> samples;
    while (std::getline(lines, line))
        if (auto c = parseDiskStatFields(line))
            samples.push_back(*c);
    ASSERT_EQ(samples.size(), 2u); // the comment lines are not numbers
    const auto fromProc = findInDiskstats(fixture("linux-6.18-17fields.txt"), "loop0");
    ASSERT_TRUE(fromProc);
    EXPECT_EQ(samples[0], *fromProc);
}

TEST(DiskstatsParser, FindsTheExactNameOnly)
{
    const std::string text = fixture("linux-6.18-17fields.txt");
    const auto loop1 = findInDiskstats(text, "loop1");
    ASSERT_TRUE(loop1);
    EXPECT_EQ(loop1->readIos, 0u); // not loop10's 5
    const auto loop10 = findInDiskstats(text, "loop10");
    ASSERT_TRUE(loop10);
    EXPECT_EQ(loop10->readIos, 5u);
    EXPECT_FALSE(findInDiskstats(text, "loop"));
    EXPECT_FALSE(findInDiskstats(text, "sdz"));
}

TEST(DiskstatsParser, RejectsMalformedInput)
{
    const char *bad[] = {
        "",
        "   7       0", // no name
        "   7       0 loop0", // no fields
        "   7       0 loop0 1 2 3", // 3 fields
        "   7       0 loop0 1 2 3 4 5", // 5 fields: no layout
        "   7       0 loop0 1 2 3 4 5 6 7 8 9 10", // 10 fields
        "   7       0 loop0 1 2 3 4 5 6 7 8 9 10 x", // not a number
        "   x       0 loop0 1 2 3 4 5 6 7 8 9 10 11",
        "   7       0 loop0 1 2 3 4 5 6 7 8 9 10 -11",
    };
    for (const char *line : bad)
        EXPECT_FALSE(parseDiskstatsLine(line)) << line;
    EXPECT_TRUE(parseDiskstats("garbage\n\n   7 0 loop0 1 2\n").empty());
}

TEST(DiskstatsParser, FieldsBeyondTheKnownOnesAreIgnored)
{
    // 12..14 fields: the 11-field layout; 16: the 15-field one; 18+: the 17-field one.
    const struct {
        int fields;
        std::uint8_t layout;
    } cases[] = {{12, 11}, {14, 11}, {16, 15}, {18, 17}, {25, 17}};
    for (const auto &c : cases) {
        std::string line = "8 0 sda";
        for (int i = 1; i <= c.fields; ++i) {
            line += ' '; // not " " + to_string: GCC 12's -Wrestrict false positive at -O2
            line += std::to_string(i);
        }
        const auto l = parseDiskstatsLine(line);
        ASSERT_TRUE(l) << line;
        EXPECT_EQ(l->counters.fieldCount, c.layout) << line;
        EXPECT_EQ(l->counters.readIos, 1u);
        EXPECT_EQ(l->counters.weightedTicksMs, 11u);
        if (c.layout >= 17) {
            EXPECT_EQ(l->counters.flushTicksMs, 17u);
        }
    }
}

// ---------------------------------------------------------------- figures

TEST(DeviceFigures, RecordedPairGivesIostatFigures)
{
    const std::string pair = fixture("loop0-pair-6.18.txt");
    std::istringstream lines(pair);
    std::string line;
    std::vector<DiskCounters> s;
    while (std::getline(lines, line))
        if (auto c = parseDiskStatFields(line))
            s.push_back(*c);
    ASSERT_EQ(s.size(), 2u);
    const auto f = deviceFigures(DiskSample {true, s[0]}, DiskSample {true, s[1]}, 1543ms);
    ASSERT_TRUE(f.valid);
    const double t = 1.543;
    // dd read 64 x 1 MiB and wrote 256 x 64 KiB.
    EXPECT_EQ(f.readIos, 64u);
    EXPECT_EQ(f.readBytes, 64u << 20);
    EXPECT_EQ(f.writeIos, 256u);
    EXPECT_EQ(f.writeBytes, 16u << 20);
    EXPECT_DOUBLE_EQ(f.readsPerSecond, 64 / t);
    EXPECT_DOUBLE_EQ(f.writesPerSecond, 256 / t);
    EXPECT_DOUBLE_EQ(f.readMegabytesPerSecond, 67.108864 / t);
    EXPECT_DOUBLE_EQ(f.writeMegabytesPerSecond, 16.777216 / t);
    EXPECT_DOUBLE_EQ(f.averageReadRequestBytes, 1048576);
    EXPECT_DOUBLE_EQ(f.averageWriteRequestBytes, 65536);
    EXPECT_DOUBLE_EQ(f.averageRequestBytes, double((64u << 20) + (16u << 20)) / 320);
    EXPECT_DOUBLE_EQ(f.readAwaitMs, 4.0 / 64);
    EXPECT_DOUBLE_EQ(f.writeAwaitMs, 1300.0 / 256);
    EXPECT_DOUBLE_EQ(f.queueSize, 1304.0 / 1543);
    EXPECT_DOUBLE_EQ(f.utilPercent, 100.0 * 1312 / 1543);
    EXPECT_DOUBLE_EQ(f.discardsPerSecond, 0);
    EXPECT_DOUBLE_EQ(f.flushesPerSecond, 0);
    EXPECT_TRUE(f.hasDiscards);
    EXPECT_TRUE(f.hasFlushes);
    EXPECT_EQ(f.inFlight, 0u);
}

TEST(DeviceFigures, DiscardsAndFlushes)
{
    DiskCounters a, b;
    a.fieldCount = b.fieldCount = 17;
    b.discardIos = 10;
    b.discardSectors = 2048 * 10; // 1 MiB each
    b.flushIos = 4;
    b.flushTicksMs = 6;
    const auto f = deviceFigures(counterDelta(a, b), 2s);
    EXPECT_DOUBLE_EQ(f.discardsPerSecond, 5);
    EXPECT_DOUBLE_EQ(f.discardMegabytesPerSecond, 10 * 1.048576 / 2);
    EXPECT_DOUBLE_EQ(f.flushesPerSecond, 2);
    EXPECT_DOUBLE_EQ(f.flushAwaitMs, 1.5);
}

TEST(DeviceFigures, ThirtyTwoBitCountersWrapAndResetsGiveZero)
{
    DiskCounters a, b;
    a.fieldCount = b.fieldCount = 11;
    a.ioTicksMs = 0xFFFFFF00u; // a 32-bit tick counter just before it wraps
    b.ioTicksMs = 0x100;
    a.readIos = 5'000'000'000ull; // a 64-bit counter going backwards: a new device
    b.readIos = 10;
    const auto d = counterDelta(a, b);
    EXPECT_EQ(d.ioTicksMs, 0x200u);
    EXPECT_EQ(d.readIos, 0u);
}

TEST(DeviceFigures, UtilIsClampedAndTimesNeedElevenFields)
{
    DiskCounters d;
    d.fieldCount = 11;
    d.ioTicksMs = 1004; // one jiffy over a 1 s span
    EXPECT_DOUBLE_EQ(deviceFigures(d, 1s).utilPercent, 100);
    d.fieldCount = 4;
    d.readIos = 2;
    d.readTicksMs = 10;
    const auto f = deviceFigures(d, 1s);
    EXPECT_TRUE(f.valid);
    EXPECT_FALSE(f.hasTimes);
    EXPECT_DOUBLE_EQ(f.readAwaitMs, 0);
    EXPECT_DOUBLE_EQ(f.utilPercent, 0);
    EXPECT_DOUBLE_EQ(f.readsPerSecond, 2);
}

TEST(DeviceFigures, InvalidWithoutASpanOrASample)
{
    DiskCounters d;
    d.fieldCount = 17;
    EXPECT_FALSE(deviceFigures(d, 0ns).valid);
    EXPECT_FALSE(deviceFigures(DiskSample {false, d}, DiskSample {true, d}, 1s).valid);
    EXPECT_FALSE(deviceFigures(DiskCounters {}, 1s).valid); // never read
}

TEST(DeviceFigures, DeltasAddForTotals)
{
    DiskCounters sum, a, b;
    a.fieldCount = 17;
    b.fieldCount = 11;
    a.readIos = 3;
    b.readIos = 4;
    a.readTicksMs = 3;
    b.readTicksMs = 11;
    addDelta(sum, a);
    addDelta(sum, b);
    EXPECT_EQ(sum.readIos, 7u);
    EXPECT_EQ(sum.fieldCount, 11); // what every member has
    EXPECT_DOUBLE_EQ(deviceFigures(sum, 1s).readAwaitMs, 2.0); // per request over both
}

// ---------------------------------------------------------------- verdict

TEST(Verdict, Table)
{
    constexpr std::uint64_t MB = 1'000'000;
    const VerdictPolicy policy {
        .tolerance = 0.05, .noiseFloorBytes = 256 * 1024, .backgroundBytesPerSecond = 256 * 1024};
    using V = Verdict;
    const struct {
        const char *name;
        VerdictInput in;
        V read, write, headline;
        std::uint64_t backlogAfter;
    } cases[] = {
        {"direct reads seen exactly", {.appReadBytes = 100 * MB, .deviceReadBytes = 100 * MB},
            V::Agree, V::Idle, V::Agree, 0},
        {"within 5 % above", {.appReadBytes = 100 * MB, .deviceReadBytes = 105 * MB}, V::Agree,
            V::Idle, V::Agree, 0},
        {"within 5 % below plus the floor",
            {.appWriteBytes = 100 * MB, .deviceWriteBytes = 95 * MB - 200'000}, V::Idle, V::Agree,
            V::Agree, 5 * MB + 200'000},
        {"nothing at all", {}, V::Idle, V::Idle, V::Agree, 0},
        {"journal noise under the floor", {.deviceWriteBytes = 200'000}, V::Idle, V::Idle, V::Agree,
            0},
        {"reads from the page cache",
            {.appReadBytes = 500 * MB, .deviceReadBytes = 1 * MB, .buffered = true},
            V::ServedFromCache, V::Idle, V::ServedFromCache, 0},
        {"reads 10 % short", {.appReadBytes = 100 * MB, .deviceReadBytes = 90 * MB},
            V::ServedFromCache, V::Idle, V::ServedFromCache, 0},
        {"buffered writes still dirty",
            {.appWriteBytes = 300 * MB, .deviceWriteBytes = 0, .buffered = true}, V::Idle,
            V::WriteBackPending, V::WriteBackPending, 300 * MB},
        {"flush of earlier writes",
            {.appWriteBytes = 50 * MB,
                .deviceWriteBytes = 200 * MB,
                .writeBacklogBytes = 300 * MB,
                .buffered = true},
            V::Idle, V::WriteBackPending, V::WriteBackPending, 150 * MB},
        {"flush while the app only reads",
            {.appReadBytes = 10 * MB,
                .deviceReadBytes = 10 * MB,
                .deviceWriteBytes = 40 * MB,
                .writeBacklogBytes = 40 * MB},
            V::Agree, V::WriteBackPending, V::WriteBackPending, 0},
        {"a quiet system disk's journal during a 4 s read step is background",
            {.appReadBytes = 3472 * MB,
                .deviceReadBytes = 3472 * MB,
                .deviceWriteBytes = 300'000,
                .seconds = 4},
            V::Agree, V::Background, V::Agree, 0},
        {"the same journal writes within one 100 ms interval reading 100 MB are background",
            {.appReadBytes = 100 * MB,
                .deviceReadBytes = 100 * MB,
                .deviceWriteBytes = 300'000,
                .seconds = 0.1},
            V::Agree, V::Background, V::Agree, 0},
        {"the same journal writes within one 100 ms interval reading 10 MB are other traffic",
            {.appReadBytes = 10 * MB,
                .deviceReadBytes = 10 * MB,
                .deviceWriteBytes = 300'000,
                .seconds = 0.1},
            V::Agree, V::OtherTraffic, V::OtherTraffic, 0},
        {"another writer at 6 MB/s over 4 s is other traffic",
            {.appReadBytes = 800 * MB,
                .deviceReadBytes = 800 * MB,
                .deviceWriteBytes = 24 * MB,
                .seconds = 4},
            V::Agree, V::OtherTraffic, V::OtherTraffic, 0},
        {"writes the device counted before the span (the credit) agree",
            {.appWriteBytes = 100 * MB,
                .deviceWriteBytes = 60 * MB,
                .writeCreditBytes = 40 * MB,
                .inFlightWriteBytes = 64 * MB},
            V::Idle, V::Agree, V::Agree, 0},
        {"another process writes during a read run",
            {.appReadBytes = 100 * MB, .deviceReadBytes = 100 * MB, .deviceWriteBytes = 50 * MB},
            V::Agree, V::OtherTraffic, V::OtherTraffic, 0},
        {"another process reads during a direct read run",
            {.appReadBytes = 100 * MB, .deviceReadBytes = 180 * MB}, V::OtherTraffic, V::Idle,
            V::OtherTraffic, 0},
        {"journaling doubles the writes", {.appWriteBytes = 100 * MB, .deviceWriteBytes = 200 * MB},
            V::Idle, V::Amplified, V::Amplified, 0},
        {"flush beyond the backlog is amplification",
            {.appWriteBytes = 100 * MB, .deviceWriteBytes = 300 * MB, .writeBacklogBytes = 50 * MB},
            V::Idle, V::Amplified, V::Amplified, 0},
        {"read-ahead on buffered reads",
            {.appReadBytes = 10 * MB, .deviceReadBytes = 80 * MB, .buffered = true}, V::Amplified,
            V::Idle, V::Amplified, 0},
        {"read-modify-write of partial pages",
            {.appWriteBytes = 10 * MB,
                .deviceReadBytes = 10 * MB,
                .deviceWriteBytes = 10 * MB,
                .buffered = true},
            V::Amplified, V::Agree, V::Amplified, 0},
        {"other traffic outranks the cache",
            {.appReadBytes = 100 * MB, .deviceWriteBytes = 100 * MB, .buffered = true},
            V::ServedFromCache, V::OtherTraffic, V::OtherTraffic, 0},
        {"no device", {.deviceCounters = false, .appReadBytes = 1 * MB, .writeBacklogBytes = 7},
            V::NoDeviceCounters, V::NoDeviceCounters, V::NoDeviceCounters, 7},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(c.name);
        const auto v = judgeDevice(c.in, policy);
        EXPECT_EQ(toString(v.read.verdict), toString(c.read));
        EXPECT_EQ(toString(v.write.verdict), toString(c.write));
        EXPECT_EQ(toString(v.verdict), toString(c.headline));
        EXPECT_EQ(v.writeBacklogBytes, c.backlogAfter);
        EXPECT_EQ(v.read.appBytes, c.in.appReadBytes);
        EXPECT_EQ(v.read.deviceBytes, c.in.deviceReadBytes);
        EXPECT_EQ(v.write.appBytes, c.in.appWriteBytes);
        EXPECT_EQ(v.write.deviceBytes, c.in.deviceWriteBytes);
    }
}

// Sampling the application and the device a moment apart: the device is ahead at one
// boundary and behind at another. The backlog must stay within that jitter; without the
// credit, the largest lead ever seen would stay in the backlog for good.
TEST(Verdict, SamplingJitterDoesNotPileUpAsBacklog)
{
    constexpr std::int64_t perInterval = 8'000'000, jitter = 64 * 1024;
    constexpr std::uint64_t inFlight = 32 * 4096; // QD32 x 4 KiB, more than the jitter
    auto worstBacklog = [&](std::uint64_t creditLimit) {
        WriteBalance balance;
        std::int64_t appTotal = 0, deviceTotal = 0;
        std::uint64_t worst = 0;
        std::mt19937_64 rng(7);
        for (int i = 0; i < 600; ++i) {
            appTotal += perInterval;
            // The device's total is off the application's by -jitter..+jitter.
            const std::int64_t deviceNow = appTotal + std::int64_t(rng() % (2 * jitter)) - jitter;
            balance = nextWriteBalance(balance, std::uint64_t(perInterval),
                std::uint64_t(deviceNow - deviceTotal), creditLimit);
            deviceTotal = deviceNow;
            worst = std::max(worst, balance.backlogBytes);
            EXPECT_LE(balance.creditBytes, creditLimit);
        }
        return worst;
    };
    EXPECT_LE(worstBacklog(inFlight), std::uint64_t(jitter))
        << "the backlog is at most what one boundary lags";
    EXPECT_GT(worstBacklog(0), std::uint64_t(jitter * 3 / 2)) << "without the credit, leads stay";
}

// The credit is capped by what can be in flight: journaling ahead of the application
// does not pay for writes that then stay in a cache.
TEST(Verdict, TheCreditNeverCoversMoreThanTheBytesInFlight)
{
    constexpr std::uint64_t MB = 1'000'000, inFlight = 128 * 1024;
    WriteBalance b = nextWriteBalance({}, 0, 10 * MB, inFlight); // journal: 10 MB ahead
    EXPECT_EQ(b.backlogBytes, 0u);
    EXPECT_EQ(b.creditBytes, inFlight);
    b = nextWriteBalance(b, 20 * MB, 0, inFlight); // 20 MB into the cache
    EXPECT_EQ(b.backlogBytes, 20 * MB - inFlight);
    EXPECT_EQ(b.creditBytes, 0u);

    const DeviceVerdict v = judgeDevice({.appWriteBytes = 4 * MB,
        .deviceWriteBytes = 4 * MB + 100'000,
        .inFlightWriteBytes = inFlight});
    EXPECT_EQ(v.writeBacklogBytes, 0u);
    EXPECT_EQ(v.writeCreditBytes, 100'000u);
}

TEST(Verdict, RatioIsDeviceOverApplication)
{
    const auto v = judgeDevice(
        {.appReadBytes = 200, .appWriteBytes = 0, .deviceReadBytes = 50, .deviceWriteBytes = 9});
    EXPECT_DOUBLE_EQ(v.read.ratio, 0.25);
    EXPECT_DOUBLE_EQ(v.write.ratio, 0); // nothing to divide by
}

TEST(Verdict, ToleranceIsConfigurable)
{
    const VerdictInput in {.appReadBytes = 100'000'000, .deviceReadBytes = 90'000'000};
    EXPECT_EQ(judgeDevice(in, {.tolerance = 0.05}).verdict, Verdict::ServedFromCache);
    EXPECT_EQ(judgeDevice(in, {.tolerance = 0.12}).verdict, Verdict::Agree);
    EXPECT_EQ(
        judgeDevice({.appReadBytes = 900'000, .deviceReadBytes = 0}, {.noiseFloorBytes = 1'000'000})
            .verdict,
        Verdict::Agree);
}

// Issue 12: a trickle of background I/O in a direction the run did not use is named as
// background beside "agree" when it is a tiny share of the run's bytes; a real second
// workload is still other traffic. Staged background amounts against one 5 s step that
// reads 2 GB (direct): the absolute allowance is 1.25 MiB (256 KiB/s), the relative one
// 1 % of 2 GB = 20 MB, so 20 MB is the line.
TEST(Verdict, StagedBackgroundWritesDuringABigReadStep)
{
    constexpr std::uint64_t MB = 1'000'000, app = 2'000 * MB;
    using V = Verdict;
    const struct {
        std::uint64_t deviceWrites;
        V write, headline;
    } cases[] = {
        {0, V::Idle, V::Agree},
        {100'000, V::Idle, V::Agree}, // within the noise floor: nothing to name
        {1 * MB, V::Background, V::Agree}, // within the absolute allowance
        {6 * MB, V::Background, V::Agree}, // the issue's journal after a build
        {20 * MB, V::Background, V::Agree}, // exactly 1 %
        {20 * MB + 1, V::OtherTraffic, V::OtherTraffic}, // one byte over
        {60 * MB, V::OtherTraffic, V::OtherTraffic}, // 3 %: another process
        {400 * MB, V::OtherTraffic, V::OtherTraffic}, // 20 %: another workload
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(c.deviceWrites);
        const VerdictInput in {.appReadBytes = app,
            .deviceReadBytes = app,
            .deviceWriteBytes = c.deviceWrites,
            .seconds = 5};
        const auto v = judgeDevice(in);
        EXPECT_EQ(toString(v.read.verdict), "agree");
        EXPECT_EQ(toString(v.write.verdict), toString(c.write));
        EXPECT_EQ(toString(v.verdict), toString(c.headline));
        EXPECT_EQ(v.write.appBytes, 0u);
        EXPECT_EQ(v.write.deviceBytes, c.deviceWrites) << "the background amount is named";
        EXPECT_EQ(v.writeBacklogBytes, 0u);
    }
}

// The same line for device reads during a step that writes 2 GB: direct writes meet
// other traffic beyond it, buffered ones amplification (read-modify-write of pages).
TEST(Verdict, StagedBackgroundReadsDuringABigWriteStep)
{
    constexpr std::uint64_t MB = 1'000'000, app = 2'000 * MB;
    using V = Verdict;
    const struct {
        std::uint64_t deviceReads;
        bool buffered;
        V read;
    } cases[] = {
        {200'000, false, V::Idle},
        {6 * MB, false, V::Background},
        {20 * MB, false, V::Background},
        {20 * MB + 1, false, V::OtherTraffic},
        {400 * MB, false, V::OtherTraffic},
        {6 * MB, true, V::Background},
        {20 * MB + 1, true, V::Amplified},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(std::to_string(c.deviceReads) + (c.buffered ? " buffered" : " direct"));
        const auto v = judgeDevice({.appWriteBytes = app,
            .deviceReadBytes = c.deviceReads,
            .deviceWriteBytes = app,
            .buffered = c.buffered,
            .seconds = 5});
        EXPECT_EQ(toString(v.write.verdict), "agree");
        EXPECT_EQ(toString(v.read.verdict), toString(c.read));
        EXPECT_EQ(v.read.deviceBytes, c.deviceReads);
    }
}

// Where the application moves little (short intervals, slow runs, idle spans), 1 % of
// its bytes is below the absolute allowance, which then decides as it always did.
TEST(Verdict, LittleApplicationTrafficKeepsTheAbsoluteAllowance)
{
    constexpr std::uint64_t MB = 1'000'000;
    using V = Verdict;
    const struct {
        const char *name;
        VerdictInput in;
        V write, headline;
    } cases[] = {
        {"100 ms reading 10 MB, 200 KB written: noise",
            {.appReadBytes = 10 * MB,
                .deviceReadBytes = 10 * MB,
                .deviceWriteBytes = 200'000,
                .seconds = 0.1},
            V::Idle, V::Agree},
        {"100 ms reading 10 MB, 300 KB written: over 256 KiB, 3 % of the reads",
            {.appReadBytes = 10 * MB,
                .deviceReadBytes = 10 * MB,
                .deviceWriteBytes = 300'000,
                .seconds = 0.1},
            V::OtherTraffic, V::OtherTraffic},
        {"1 s reading 20 MB, 300 KB written: over the 256 KiB allowance",
            {.appReadBytes = 20 * MB,
                .deviceReadBytes = 20 * MB,
                .deviceWriteBytes = 300'000,
                .seconds = 1},
            V::OtherTraffic, V::OtherTraffic},
        {"5 s reading 20 MB, 1.2 MB written: within 5 x 256 KiB",
            {.appReadBytes = 20 * MB,
                .deviceReadBytes = 20 * MB,
                .deviceWriteBytes = 1'200'000,
                .seconds = 5},
            V::Background, V::Agree},
        {"5 s reading 20 MB, 2 MB written: over both allowances",
            {.appReadBytes = 20 * MB,
                .deviceReadBytes = 20 * MB,
                .deviceWriteBytes = 2 * MB,
                .seconds = 5},
            V::OtherTraffic, V::OtherTraffic},
        {"an idle span: 1 MB written in 5 s is the disk's own",
            {.deviceWriteBytes = 1 * MB, .seconds = 5}, V::Idle, V::Agree},
        {"an idle span: 2 MB written in 5 s is someone else's",
            {.deviceWriteBytes = 2 * MB, .seconds = 5}, V::OtherTraffic, V::OtherTraffic},
        {"the run's own write-back is named as such, however small a share",
            {.appReadBytes = 2'000 * MB,
                .deviceReadBytes = 2'000 * MB,
                .deviceWriteBytes = 10 * MB,
                .writeBacklogBytes = 10 * MB,
                .seconds = 5},
            V::WriteBackPending, V::WriteBackPending},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(c.name);
        const auto v = judgeDevice(c.in);
        EXPECT_EQ(toString(v.write.verdict), toString(c.write));
        EXPECT_EQ(toString(v.verdict), toString(c.headline));
    }
}

TEST(Verdict, BackgroundShareIsConfigurable)
{
    constexpr std::uint64_t MB = 1'000'000;
    const VerdictInput in {.appReadBytes = 2'000 * MB,
        .deviceReadBytes = 2'000 * MB,
        .deviceWriteBytes = 60 * MB,
        .seconds = 5};
    EXPECT_EQ(judgeDevice(in).write.verdict, Verdict::OtherTraffic); // 3 % > 1 %
    EXPECT_EQ(judgeDevice(in, {.backgroundShare = 0.05}).write.verdict, Verdict::Background);
    // Without a relative part, the absolute allowance alone decides (1.25 MiB in 5 s).
    VerdictInput six = in;
    six.deviceWriteBytes = 6 * MB;
    EXPECT_EQ(judgeDevice(six, {.backgroundShare = 0}).write.verdict, Verdict::OtherTraffic);
}

TEST(Verdict, TargetsThatOpenFilesExplainTheDevicesExcessAsFileMetadata)
{
    constexpr std::uint64_t MB = 1'000'000;
    // Direct reads of a tree: the device also read inodes and directories, well within
    // two blocks per file opened (25,000 opens: up to 205 MB).
    VerdictInput reads {.appReadBytes = 100 * MB, .deviceReadBytes = 120 * MB, .seconds = 5};
    EXPECT_EQ(judgeDevice(reads).read.verdict, Verdict::OtherTraffic);
    reads.opensFiles = true;
    reads.opens = 25'000;
    EXPECT_EQ(judgeDevice(reads).read.verdict, Verdict::FileMetadata);
    EXPECT_EQ(judgeDevice(reads).verdict, Verdict::FileMetadata);
    // Buffered reads beyond the application's are read-ahead first.
    reads.buffered = true;
    EXPECT_EQ(judgeDevice(reads).read.verdict, Verdict::Amplified);
    // Writes with the journal's time stamps on top.
    VerdictInput writes {.appWriteBytes = 100 * MB, .deviceWriteBytes = 130 * MB, .seconds = 5};
    EXPECT_EQ(judgeDevice(writes).write.verdict, Verdict::Amplified);
    writes.opensFiles = true;
    writes.opens = 25'000;
    EXPECT_EQ(judgeDevice(writes).write.verdict, Verdict::FileMetadata);
    // Reads only, and the journal writes access times: metadata, not another process.
    VerdictInput atime {.appReadBytes = 100 * MB,
        .deviceReadBytes = 100 * MB,
        .deviceWriteBytes = 20 * MB,
        .opensFiles = true,
        .opens = 25'000,
        .seconds = 5};
    EXPECT_EQ(judgeDevice(atime).write.verdict, Verdict::FileMetadata);
    // Agreement stays agreement, and a small background stays background.
    atime.deviceWriteBytes = MB / 2;
    EXPECT_EQ(judgeDevice(atime).write.verdict, Verdict::Background);
    EXPECT_EQ(judgeDevice(atime).verdict, Verdict::Agree);
}

// A hunt found every excess on a tree called metadata: another process's reads, another
// writer, a previous run's write-back. Metadata is at most two blocks per file opened and
// a burst; beyond that, the ordinary names.
TEST(Verdict, FileMetadataIsOnlyAsMuchAsOpeningFilesCanExplain)
{
    constexpr std::uint64_t MB = 1'000'000;
    const VerdictPolicy p;
    // 1,000 opens: at most 1 MiB + 8 MiB (8,192,000 B) of metadata.
    const std::uint64_t most = p.metadataBurstBytes + 1'000 * p.metadataBytesPerOpen;
    VerdictInput reads {.appReadBytes = 100 * MB,
        .deviceReadBytes = 100 * MB + most,
        .opensFiles = true,
        .opens = 1'000,
        .seconds = 5};
    EXPECT_EQ(judgeDevice(reads).read.verdict, Verdict::FileMetadata);
    reads.deviceReadBytes += 6 * MB; // beyond the tolerance (5 MB + 256 KiB) too
    EXPECT_EQ(judgeDevice(reads).read.verdict, Verdict::OtherTraffic);
    VerdictInput writes {.appWriteBytes = 100 * MB,
        .deviceWriteBytes = 100 * MB + most,
        .opensFiles = true,
        .opens = 1'000,
        .seconds = 5};
    EXPECT_EQ(judgeDevice(writes).write.verdict, Verdict::FileMetadata);
    writes.deviceWriteBytes += 6 * MB;
    EXPECT_EQ(judgeDevice(writes).write.verdict, Verdict::Amplified);
    // The write-back backlog is the more specific cause, and the excess beyond it is what
    // metadata must explain.
    writes.writeBacklogBytes = 10 * MB;
    EXPECT_EQ(judgeDevice(writes).write.verdict, Verdict::WriteBackPending);
    writes.deviceWriteBytes += 3 * MB; // 18.2 MB over: 8.2 MB beyond the backlog
    EXPECT_EQ(judgeDevice(writes).write.verdict, Verdict::FileMetadata);
    // Writes on a tree the run only reads: another writer once beyond the budget.
    VerdictInput readOnly {.appReadBytes = 100 * MB,
        .deviceReadBytes = 100 * MB,
        .deviceWriteBytes = 30 * MB,
        .opensFiles = true,
        .opens = 1'000,
        .seconds = 5};
    EXPECT_EQ(judgeDevice(readOnly).write.verdict, Verdict::OtherTraffic);
}

// Where the OS says what this process read (Linux /proc/self/io), device reads beyond it
// are another process's, however few bytes per file that is: 4 KiB reads of a tree beside
// a reader as busy as the run (device/app 2.0) are other traffic, not metadata.
TEST(Verdict, ReadsBeyondWhatThisProcessReadAreAnotherProcesss)
{
    constexpr std::uint64_t MB = 1'000'000;
    VerdictInput in {.appReadBytes = 100 * MB,
        .deviceReadBytes = 200 * MB,
        .opensFiles = true,
        .opens = 25'000, // 4 KiB per operation: the budget alone would call it metadata
        .seconds = 5};
    EXPECT_EQ(judgeDevice(in).read.verdict, Verdict::FileMetadata);
    in.ownStorageReadBytes = 101 * MB; // we read 1 MB of metadata; someone else 99 MB
    EXPECT_EQ(judgeDevice(in).read.verdict, Verdict::OtherTraffic);
    EXPECT_EQ(judgeDevice(in).verdict, Verdict::OtherTraffic);
    // All of it ours (inodes, directories): metadata, even beyond the budget.
    in.ownStorageReadBytes = 199 * MB;
    in.opens = 10;
    EXPECT_EQ(judgeDevice(in).read.verdict, Verdict::FileMetadata);
    // Buffered: what we read beyond our I/O is read-ahead first.
    in.buffered = true;
    EXPECT_EQ(judgeDevice(in).read.verdict, Verdict::Amplified);
    in.ownStorageReadBytes = 101 * MB;
    EXPECT_EQ(judgeDevice(in).read.verdict, Verdict::OtherTraffic);
}

TEST(ProcIo, ReadBytesIsTheProcesssStorageReads)
{
    EXPECT_EQ(parseProcIoReadBytes("rchar: 4521\nwchar: 12\nsyscr: 9\nsyscw: 1\n"
                                   "read_bytes: 1216512\nwrite_bytes: 0\n"
                                   "cancelled_write_bytes: 0\n"),
        1216512u);
    EXPECT_EQ(parseProcIoReadBytes("rchar: 4521\nwrite_bytes: 0\n"), std::nullopt);
    EXPECT_EQ(parseProcIoReadBytes("read_bytes: 12x\n"), std::nullopt);
    EXPECT_EQ(parseProcIoReadBytes(""), std::nullopt);
}

TEST(Verdict, NamesAreTheIssueWords)
{
    EXPECT_EQ(toString(Verdict::FileMetadata), "file metadata");
    EXPECT_EQ(toString(Verdict::Idle), "idle");
    EXPECT_EQ(toString(Verdict::Background), "background");
    EXPECT_EQ(toString(Verdict::Agree), "agree");
    EXPECT_EQ(toString(Verdict::ServedFromCache), "served from cache");
    EXPECT_EQ(toString(Verdict::WriteBackPending), "write-back pending");
    EXPECT_EQ(toString(Verdict::OtherTraffic), "other traffic");
    EXPECT_EQ(toString(Verdict::Amplified), "amplified");
    EXPECT_EQ(toString(Verdict::NoDeviceCounters), "no device counters");
}

// ---------------------------------------------------------------- the run

namespace {

// Two devices: "fake0" carries every target; "fakedisk" is its whole disk, which also
// sees 1 MiB of reads per sample from elsewhere (not in the total). `script` changes
// fake0's cumulative counters before each sample.
class ScriptedCounters final : public CounterSource
{
public:
    std::function<void(DiskCounters &)> script = [](DiskCounters &) {};
    std::vector<std::string> watched;
    int samples = 0;

    DeviceMap watchTargets(const std::vector<std::string> &paths) override
    {
        watched = paths;
        DeviceMap m;
        m.devices = {{"fake0", DeviceRole::Target, "", true},
            {"fakedisk", DeviceRole::Disk, "fake0", false}};
        for (const auto &p : paths)
            m.targets.push_back({p, 0, ""});
        m_target.fieldCount = m_disk.fieldCount = 17;
        return m;
    }
    CounterSnapshot sample() override
    {
        ++samples;
        script(m_target);
        m_disk.readSectors += 2048;
        DiskCounters disk = m_disk;
        disk.readSectors += m_target.readSectors;
        disk.writeSectors += m_target.writeSectors;
        CounterSnapshot s;
        s.disks = {{true, m_target}, {true, disk}};
        return s;
    }

private:
    DiskCounters m_target, m_disk;
};

Profile deviceProfile(std::uint32_t percentRead, CacheMode mode = CacheMode::Direct)
{
    Profile p;
    p.setup.runTime = 0s;
    p.setup.interval = 100ms;
    AccessSpec s;
    s.name = "4K";
    SpecLine l;
    l.transferSizeBytes = l.alignmentBytes = 4096;
    l.percentRead = percentRead;
    l.percentRandom = 100;
    s.lines.push_back(l);
    p.specs.push_back(s);
    Host h;
    Worker w;
    w.name = "Worker 1";
    w.outstandingIos = 4;
    w.assignedSpecs = {"4K"};
    w.seed = 1;
    Target t;
    t.path = "target0";
    t.testFileSizeBytes = 64 * kMiB;
    t.cacheMode = mode;
    w.targets.push_back(t);
    h.workers.push_back(w);
    p.hosts.push_back(h);
    return p;
}

struct NoticeSink : RunSink {
    std::function<void(const std::string &)> notice = [](const std::string &) {};
    std::vector<IntervalSample> samples;
    void onInterval(const IntervalSample &s) override { samples.push_back(s); }
    void onNotice(const std::string &text) override { notice(text); }
};

} // namespace

TEST(RunDevices, WithoutDeviceCountersTheVerdictSaysSo)
{
    TestBackend backend; // reaches devices, but there are no counters
    NullCounterSource counters;
    NoticeSink sink;
    BenchRun run(deviceProfile(100), backend, counters, sink, {.ioLimitPerTarget = 256});
    const RunResult r = run.execute();
    ASSERT_FALSE(r.error);
    EXPECT_TRUE(r.deviceMap.empty());
    ASSERT_EQ(r.steps.size(), 1u);
    EXPECT_FALSE(r.steps[0].devices.available);
    EXPECT_EQ(r.steps[0].devices.verdict.verdict, Verdict::NoDeviceCounters);
    ASSERT_FALSE(r.intervals.empty());
    EXPECT_EQ(r.intervals.back().devices.verdict.verdict, Verdict::NoDeviceCounters);
    EXPECT_FALSE(r.deviceTail.sampled);
}

TEST(RunDevices, IntervalsCarryEveryDeviceAndATotalWithoutTheDisk)
{
    TestBackend backend;
    ScriptedCounters counters;
    counters.script = [](DiskCounters &c) {
        c.readIos += 10;
        c.readSectors += 8 * 10;
    };
    NoticeSink sink;
    BenchRun run(deviceProfile(100), backend, counters, sink, {.ioLimitPerTarget = 256});
    const RunResult r = run.execute();
    ASSERT_FALSE(r.error);
    ASSERT_EQ(counters.watched, std::vector<std::string> {"target0"});
    ASSERT_EQ(r.deviceMap.devices.size(), 2u);
    ASSERT_FALSE(r.intervals.empty());
    for (const auto &s : r.intervals) {
        ASSERT_TRUE(s.devices.available);
        ASSERT_EQ(s.devices.devices.size(), 2u);
        EXPECT_EQ(s.devices.devices[0].readBytes, 10u * 4096);
        EXPECT_EQ(s.devices.devices[1].readBytes, 10u * 4096 + kMiB);
        EXPECT_EQ(s.devices.total.readBytes, 10u * 4096); // fake0 only
        EXPECT_EQ(s.devices.verdict.read.deviceBytes, 10u * 4096);
        EXPECT_EQ(s.devices.verdict.read.appBytes, s.scopes[0].figures.read.bytes);
    }
    EXPECT_TRUE(r.deviceTail.sampled);
    EXPECT_TRUE(r.deviceTail.idle); // nothing owed, nothing in flight
    EXPECT_DOUBLE_EQ(r.deviceTail.seconds, 0.0);
}

TEST(RunDevices, StepReadsNotSeenAtTheDeviceAreServedFromCache)
{
    TestBackend backend;
    ScriptedCounters counters; // the device does nothing
    NoticeSink sink;
    BenchRun run(deviceProfile(100, CacheMode::Buffered), backend, counters, sink,
        {.ioLimitPerTarget = 1024});
    const RunResult r = run.execute();
    ASSERT_FALSE(r.error);
    ASSERT_EQ(r.steps.size(), 1u);
    const auto &d = r.steps[0].devices;
    ASSERT_TRUE(d.available);
    EXPECT_EQ(d.verdict.verdict, Verdict::ServedFromCache);
    EXPECT_EQ(d.verdict.read.appBytes, 1024u * 4096);
    EXPECT_EQ(d.verdict.read.deviceBytes, 0u);
}

TEST(RunDevices, WritesTheDeviceDidNotMakeArePendingAndTheTailSeesTheFlush)
{
    TestBackend backend;
    ScriptedCounters counters;
    std::atomic<int> flushSamples {-1}; // >= 0 once the tail has started
    counters.script = [&](DiskCounters &c) {
        if (flushSamples >= 0 && flushSamples < 4) {
            ++flushSamples;
            c.writeIos += 1;
            c.writeSectors += 2048; // 1 MiB per sample, 4 MiB in all
        }
    };
    NoticeSink sink;
    std::string tailNotice;
    sink.notice = [&](const std::string &text) {
        tailNotice = text;
        flushSamples = 0;
    };
    BenchRun run(deviceProfile(0), backend, counters, sink, {.ioLimitPerTarget = 1024});
    const RunResult r = run.execute();
    ASSERT_FALSE(r.error);
    const auto &d = r.steps.at(0).devices;
    EXPECT_EQ(d.verdict.verdict, Verdict::WriteBackPending);
    EXPECT_EQ(d.verdict.write.appBytes, 4 * kMiB);
    EXPECT_EQ(d.verdict.write.deviceBytes, 0u);
    const auto &t = r.deviceTail;
    ASSERT_TRUE(t.sampled);
    EXPECT_FALSE(tailNotice.empty());
    EXPECT_EQ(t.pendingWriteBytes, 4 * kMiB);
    EXPECT_EQ(t.flushedWriteBytes, 4 * kMiB);
    EXPECT_EQ(t.remainingWriteBytes, 0u);
    EXPECT_TRUE(t.idle);
    EXPECT_GT(t.seconds, 0.3); // four flushing samples and a quiet one, 100 ms apart
    EXPECT_LT(t.seconds, 4.0);
    ASSERT_EQ(t.devices.size(), 2u);
    EXPECT_EQ(t.total.writeBytes, 4 * kMiB);
}

// Found by a GUI review: a buffered run rewriting a 100 MiB tree claimed 4 GB waiting for
// write-back. Rewriting a cached page dirties it once: no more than the targets span can
// be owed (here a 4 MiB file written four times over).
TEST(RunDevices, NoMoreThanTheTargetsSpanIsPendingHoweverOftenItIsRewritten)
{
    TestBackend backend;
    ScriptedCounters counters; // the device never writes
    NoticeSink sink;
    Profile profile = deviceProfile(0, CacheMode::Buffered);
    profile.hosts[0].workers[0].targets[0].testFileSizeBytes = 4 * kMiB;
    BenchRun run(
        profile, backend, counters, sink, {.ioLimitPerTarget = 4096, .deviceTailLimit = 100ms});
    const RunResult r = run.execute();
    ASSERT_FALSE(r.error);
    const auto &d = r.steps.at(0).devices;
    EXPECT_EQ(d.verdict.write.appBytes, 16 * kMiB);
    EXPECT_EQ(d.verdict.writeBacklogBytes, 4 * kMiB);
    for (const auto &s : r.intervals)
        EXPECT_LE(s.devices.verdict.writeBacklogBytes, 4 * kMiB);
    EXPECT_EQ(r.deviceTail.pendingWriteBytes, 4 * kMiB);
}

// The backlog's limit, alone: owed beyond it is not owed; a device write still pays.
TEST(Verdict, TheBacklogNeverExceedsWhatTheTargetsSpan)
{
    constexpr std::uint64_t MB = 1'000'000;
    WriteBalance b = nextWriteBalance({}, 100 * MB, 0, 0, 10 * MB);
    EXPECT_EQ(b.backlogBytes, 10 * MB);
    b = nextWriteBalance(b, 100 * MB, 4 * MB, 0, 10 * MB);
    EXPECT_EQ(b.backlogBytes, 10 * MB);
    b = nextWriteBalance(b, 0, 4 * MB, 0, 10 * MB);
    EXPECT_EQ(b.backlogBytes, 6 * MB);
    EXPECT_EQ(nextWriteBalance({}, 100 * MB, 0, 0).backlogBytes, 100 * MB) << "no limit given";
}

// The devices' lead at a sample boundary becomes a credit, capped by the bytes the run can
// have in flight (QD4 x 4 KiB here), and nothing is left owed at the end.
TEST(RunDevices, TheDevicesLeadIsACreditCappedByTheBytesInFlight)
{
    TestBackend backend;
    ScriptedCounters counters;
    int calls = 0;
    counters.script = [&](DiskCounters &c) {
        // Call 1 is the step's start; call 2 ends the first interval, by which the null
        // engine has long done its 1024 writes. The device shows them and 64 KiB more.
        if (++calls == 2) {
            c.writeIos += 1024 + 16;
            c.writeSectors += (4 * kMiB + 64 * 1024) / 512;
        }
    };
    NoticeSink sink;
    BenchRun run(deviceProfile(0), backend, counters, sink, {.ioLimitPerTarget = 1024});
    const RunResult r = run.execute();
    ASSERT_FALSE(r.error);
    ASSERT_FALSE(r.intervals.empty());
    const auto &first = r.intervals.front().devices.verdict;
    ASSERT_EQ(first.write.appBytes, 4 * kMiB) << "all writes in the first interval";
    EXPECT_EQ(first.write.verdict, Verdict::Agree);
    EXPECT_EQ(first.writeBacklogBytes, 0u);
    EXPECT_EQ(first.writeCreditBytes, 4u * 4096) << "the lead, capped at QD x transfer";
    for (const auto &s : r.intervals)
        EXPECT_LE(s.devices.verdict.writeCreditBytes, 4u * 4096);
    EXPECT_EQ(r.deviceTail.pendingWriteBytes, 0u);
    EXPECT_TRUE(r.deviceTail.idle);
    EXPECT_FALSE(r.deviceTail.worthReporting());
}

TEST(RunDevices, TailStopsAtTheLimitWhenNothingIsFlushed)
{
    TestBackend backend;
    ScriptedCounters counters; // never writes
    NoticeSink sink;
    BenchRun run(deviceProfile(0), backend, counters, sink,
        {.ioLimitPerTarget = 1024, .deviceTailLimit = 350ms});
    const RunResult r = run.execute();
    ASSERT_FALSE(r.error);
    const auto &t = r.deviceTail;
    ASSERT_TRUE(t.sampled);
    EXPECT_FALSE(t.idle);
    EXPECT_NEAR(t.seconds, 0.35, 0.1);
    EXPECT_EQ(t.flushedWriteBytes, 0u);
    EXPECT_EQ(t.remainingWriteBytes, 4 * kMiB);
}

TEST(RunDevices, WritesInADirectionWeDidNotUseAreOtherTraffic)
{
    TestBackend backend;
    ScriptedCounters counters;
    counters.script = [](DiskCounters &c) { c.writeSectors += 16384; }; // 8 MiB per sample
    NoticeSink sink;
    BenchRun run(deviceProfile(100), backend, counters, sink,
        {.ioLimitPerTarget = 256, .deviceTailLimit = 0ms});
    const RunResult r = run.execute();
    ASSERT_FALSE(r.error);
    EXPECT_EQ(r.steps.at(0).devices.verdict.verdict, Verdict::OtherTraffic);
    EXPECT_EQ(r.intervals.back().devices.verdict.write.verdict, Verdict::OtherTraffic);
    EXPECT_FALSE(r.deviceTail.sampled); // no tail asked for
}

// The headline cache (core/library/headline_cache.h) reads verdicts back by name.
TEST(Verdict, EveryNameReadsBackToItsVerdictAndNoOtherTextDoes)
{
    for (const Verdict v : {Verdict::NoDeviceCounters, Verdict::Idle, Verdict::Background,
             Verdict::Agree, Verdict::ServedFromCache, Verdict::WriteBackPending,
             Verdict::OtherTraffic, Verdict::Amplified}) {
        EXPECT_EQ(verdictFromString(toString(v)), v) << toString(v);
    }
    EXPECT_FALSE(verdictFromString(""));
    EXPECT_FALSE(verdictFromString("Agree"));
    EXPECT_FALSE(verdictFromString("exploded"));
}
