// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/workload/io_generator.h"
#include "core/workload/rate_limiter.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <stdexcept>
#include <vector>

using namespace ioprism::core;
using namespace std::chrono_literals;

namespace {

SpecLine line(std::uint64_t size, std::uint32_t percentRead, std::uint32_t percentRandom)
{
    SpecLine l;
    l.transferSizeBytes = size;
    l.alignmentBytes = size;
    l.percentRead = percentRead;
    l.percentRandom = percentRandom;
    return l;
}

AccessSpec specOf(std::vector<SpecLine> lines)
{
    AccessSpec s;
    s.name = "test";
    s.lines = std::move(lines);
    return s;
}

constexpr Region kGiBRegion {0, kGiB};

} // namespace

// ---------------------------------------------------------------- mix

TEST(IoGenerator, ReadAndRandomFractionsMatchTheLine)
{
    struct Case {
        std::uint32_t percentRead, percentRandom;
    };
    for (const Case c :
        {Case {67, 100}, Case {0, 30}, Case {100, 0}, Case {25, 75}, Case {50, 50}}) {
        IoGenerator gen(specOf({line(4096, c.percentRead, c.percentRandom)}), kGiBRegion, 512, 1);
        const int steps = 100'000;
        int reads = 0, random = 0;
        std::uint64_t expectedSequential = 0;
        for (int i = 0; i < steps; ++i) {
            const auto s = gen.next();
            reads += s.io.direction == IoDirection::Read;
            // A sequential I/O starts where the previous ended; in a 1 GiB region a
            // random one does so with probability 1 / 262144.
            random += s.io.offsetBytes != expectedSequential;
            expectedSequential = s.io.offsetBytes + s.io.sizeBytes;
        }
        EXPECT_NEAR(100.0 * reads / steps, c.percentRead, 0.6) << c.percentRead;
        EXPECT_NEAR(100.0 * random / steps, c.percentRandom, 0.6) << c.percentRandom;
    }
}

TEST(IoGenerator, LinesRunInProportionToTheirShares)
{
    std::vector<SpecLine> lines
        = {line(512, 100, 100), line(4096, 100, 100), line(65536, 100, 100), line(8192, 100, 100)};
    lines[0].sharePercent = 10;
    lines[1].sharePercent = 30;
    lines[2].sharePercent = 60;
    lines[3].sharePercent = 0;
    IoGenerator gen(specOf(lines), kGiBRegion, 512, 9);
    std::map<int, int> perLine;
    const int steps = 100'000;
    for (int i = 0; i < steps; ++i) {
        const auto s = gen.next();
        ++perLine[s.io.lineIndex];
        ASSERT_EQ(s.io.sizeBytes, lines[s.io.lineIndex].transferSizeBytes);
    }
    EXPECT_NEAR(100.0 * perLine[0] / steps, 10, 0.6);
    EXPECT_NEAR(100.0 * perLine[1] / steps, 30, 0.6);
    EXPECT_NEAR(100.0 * perLine[2] / steps, 60, 0.6);
    EXPECT_EQ(perLine.count(3), 0u);
}

// ---------------------------------------------------------------- offsets

TEST(IoGenerator, OffsetsAreAlignedAndInsideTheRegion)
{
    struct Case {
        Region region;
        std::uint64_t transfer, alignment, sector;
        std::uint32_t percentRandom;
    };
    const Case cases[] = {
        {{0, kGiB}, 4096, 4096, 512, 100},
        {{0, kGiB}, 4096, 0, 512, 100}, // 0 = sector alignment
        {{kMiB, 10 * kMiB}, 8192, 4096, 4096, 100}, // region not at 0
        {{0, 1'000'000}, 4096, 3000, 512, 100}, // alignment not a power of two
        {{0, 1'000'000}, 4096, 3000, 512, 0}, // ... sequential
        {{4096, 65536}, 65536, 4096, 512, 50}, // transfer = region: one slot
        {{0, 100'000}, 512, 65536, 512, 60}, // alignment above the transfer size
        {{512, 12345}, 1000, 0, 512, 40},
    };
    for (const auto &c : cases) {
        SpecLine l = line(c.transfer, 50, c.percentRandom);
        l.alignmentBytes = c.alignment;
        IoGenerator gen(specOf({l}), c.region, c.sector, 3);
        const std::uint64_t alignment = c.alignment ? c.alignment : c.sector;
        EXPECT_EQ(gen.alignmentBytes(0), alignment);
        EXPECT_EQ(gen.slotCount(0), (c.region.sizeBytes - c.transfer) / alignment + 1);
        for (int i = 0; i < 20'000; ++i) {
            const auto io = gen.next().io;
            ASSERT_GE(io.offsetBytes, c.region.offsetBytes);
            ASSERT_LE(io.offsetBytes + io.sizeBytes, c.region.offsetBytes + c.region.sizeBytes);
            ASSERT_EQ((io.offsetBytes - c.region.offsetBytes) % alignment, 0u)
                << "offset " << io.offsetBytes << " alignment " << alignment;
        }
    }
}

TEST(IoGenerator, RandomOffsetsReachEverySlot)
{
    IoGenerator gen(specOf({line(4096, 100, 100)}), Region {0, 64 * 4096}, 512, 17);
    std::vector<int> hits(64);
    for (int i = 0; i < 64'000; ++i)
        ++hits[gen.next().io.offsetBytes / 4096];
    for (const int h : hits)
        EXPECT_NEAR(h, 1000, 200);
}

TEST(IoGenerator, SequentialContinuesAndWraps)
{
    const Region region {kMiB, 10 * 4096};
    IoGenerator gen(specOf({line(4096, 100, 0)}), region, 512, 1);
    for (int round = 0; round < 3; ++round)
        for (std::uint64_t i = 0; i < 10; ++i)
            EXPECT_EQ(gen.next().io.offsetBytes, kMiB + i * 4096) << round << "/" << i;
}

TEST(IoGenerator, SequentialStartsAreRoundedUpToTheAlignment)
{
    // 3000-byte transfers aligned on 4096: each starts at the next 4 KiB boundary.
    SpecLine l = line(3000, 0, 0);
    l.alignmentBytes = 4096;
    IoGenerator gen(specOf({l}), Region {0, 5 * 4096}, 512, 1);
    const std::uint64_t expected[] = {0, 4096, 8192, 12288, 16384, 0, 4096};
    for (const auto e : expected)
        EXPECT_EQ(gen.next().io.offsetBytes, e);
}

TEST(IoGenerator, SequentialIsSharedAcrossLines)
{
    std::vector<SpecLine> lines = {line(512, 100, 0), line(4096, 100, 0)};
    IoGenerator gen(specOf(lines), Region {0, kMiB}, 512, 21);
    std::uint64_t end = 0;
    for (int i = 0; i < 5000; ++i) {
        const auto io = gen.next().io;
        const std::uint64_t a = lines[io.lineIndex].alignmentBytes;
        std::uint64_t expected = (end + a - 1) / a * a;
        if (expected + io.sizeBytes > kMiB)
            expected = 0;
        ASSERT_EQ(io.offsetBytes, expected) << i;
        end = io.offsetBytes + io.sizeBytes;
    }
}

TEST(IoGenerator, LineDistributionShapesRandomOffsets)
{
    SpecLine l = line(4096, 100, 100);
    l.distribution.kind = DistributionKind::HotZones;
    l.distribution.hotZones = {{90, 10}, {10, 90}};
    IoGenerator gen(specOf({l}), Region {0, 1000 * 4096}, 512, 2);
    int hot = 0;
    for (int i = 0; i < 50'000; ++i)
        hot += gen.next().io.offsetBytes < 100 * 4096;
    EXPECT_NEAR(hot / 500.0, 90.0, 2.0);
}

// ---------------------------------------------------------------- bursts and waits

TEST(IoGenerator, BurstsRunTheirLengthAndWaitTheLinesDelayBeforeEach)
{
    std::vector<SpecLine> lines = {line(512, 50, 100), line(4096, 50, 100)};
    lines[0].sharePercent = 40;
    lines[0].burstLength = 3;
    lines[0].delay = 5ms;
    lines[1].sharePercent = 60;
    lines[1].burstLength = 2;
    lines[1].delay = 7ms;
    lines[1].thinkTime = 250us;
    IoGenerator gen(specOf(lines), kGiBRegion, 512, 4);

    int bursts[2] = {};
    std::uint16_t current = 0;
    std::uint32_t inBurst = 0;
    for (int i = 0; i < 30'000; ++i) {
        const auto s = gen.next();
        const auto &l = lines[s.io.lineIndex];
        if (inBurst == 0) {
            // Every burst, the first one included, starts with the line's delay.
            ASSERT_EQ(s.waitBefore, std::chrono::nanoseconds(l.delay)) << i;
            current = s.io.lineIndex;
            inBurst = l.burstLength;
            ++bursts[current];
        } else {
            ASSERT_EQ(s.waitBefore, 0ns) << i;
            ASSERT_EQ(s.io.lineIndex, current) << i;
        }
        --inBurst;
        ASSERT_EQ(s.thinkTimeAfter, std::chrono::nanoseconds(l.thinkTime));
    }
    // Shares weigh bursts, as in Iometer.
    EXPECT_NEAR(100.0 * bursts[0] / (bursts[0] + bursts[1]), 40, 2);
}

TEST(IoGenerator, BurstLengthZeroCountsAsOne)
{
    SpecLine l = line(4096, 100, 100);
    l.burstLength = 0;
    l.delay = 1ms;
    IoGenerator gen(specOf({l}), kGiBRegion, 512, 4);
    for (int i = 0; i < 10; ++i)
        EXPECT_EQ(gen.next().waitBefore, 1ms);
}

// ---------------------------------------------------------------- replies

TEST(IoGenerator, ReplyFollowsEachRequestAsOneTransaction)
{
    SpecLine l = line(4096, 50, 50);
    l.replySizeBytes = 512;
    l.burstLength = 2;
    l.delay = 3ms;
    l.thinkTime = 10us;
    IoGenerator gen(specOf({l}), kGiBRegion, 512, 12);
    int readRequests = 0;
    for (int t = 0; t < 10'000; ++t) {
        const auto request = gen.next();
        const auto reply = gen.next();
        EXPECT_FALSE(request.io.isReply);
        EXPECT_FALSE(request.io.endsTransaction);
        EXPECT_EQ(request.io.sizeBytes, 4096u);
        EXPECT_TRUE(reply.io.isReply);
        EXPECT_TRUE(reply.io.endsTransaction);
        EXPECT_EQ(reply.io.sizeBytes, 512u);
        EXPECT_EQ(reply.io.offsetBytes, request.io.offsetBytes);
        EXPECT_NE(reply.io.direction, request.io.direction);
        EXPECT_EQ(reply.waitBefore, 0ns);
        EXPECT_EQ(reply.thinkTimeAfter, 10us);
        // Bursts count transactions: a delay every second transaction.
        EXPECT_EQ(request.waitBefore, t % 2 == 0 ? std::chrono::nanoseconds(3ms) : 0ns);
        readRequests += request.io.direction == IoDirection::Read;
    }
    EXPECT_NEAR(readRequests / 100.0, 50, 1.5);
}

TEST(IoGenerator, ReplyLargerThanTheRoomLeftMovesBackIntoTheRegion)
{
    SpecLine l = line(4096, 100, 0);
    l.replySizeBytes = 8192;
    const Region region {kMiB, 3 * 4096};
    IoGenerator gen(specOf({l}), region, 512, 1);
    // Request at 0 (reply at 0, ends at 8192), next sequential request at 8192 whose
    // reply would pass the end: it moves back to the last aligned fit, 4096.
    auto req = gen.next();
    auto rep = gen.next();
    EXPECT_EQ(req.io.offsetBytes, kMiB);
    EXPECT_EQ(rep.io.offsetBytes, kMiB);
    req = gen.next();
    rep = gen.next();
    EXPECT_EQ(req.io.offsetBytes, kMiB + 8192);
    EXPECT_EQ(rep.io.offsetBytes, kMiB + 4096);
    EXPECT_LE(rep.io.offsetBytes + rep.io.sizeBytes, region.offsetBytes + region.sizeBytes);
}

TEST(IoGenerator, RequestsWithoutReplyEndTheirTransaction)
{
    IoGenerator gen(specOf({line(4096, 50, 50)}), kGiBRegion, 512, 1);
    for (int i = 0; i < 1000; ++i) {
        const auto s = gen.next();
        EXPECT_TRUE(s.io.endsTransaction);
        EXPECT_FALSE(s.io.isReply);
    }
}

// ---------------------------------------------------------------- reproducibility

TEST(IoGenerator, SameSeedSameSequenceOtherSeedDiffers)
{
    std::vector<SpecLine> lines = {line(4096, 67, 80), line(65536, 30, 10)};
    lines[0].sharePercent = 70;
    lines[1].sharePercent = 30;
    lines[1].replySizeBytes = 512;
    lines[0].distribution.kind = DistributionKind::Zipf;
    const AccessSpec s = specOf(lines);
    IoGenerator a(s, kGiBRegion, 512, 1234), b(s, kGiBRegion, 512, 1234),
        c(s, kGiBRegion, 512, 1235);
    int differences = 0;
    for (int i = 0; i < 10'000; ++i) {
        const auto sa = a.next();
        ASSERT_EQ(sa, b.next()) << i;
        differences += !(sa == c.next());
    }
    EXPECT_GT(differences, 5000);
}

TEST(IoGenerator, RejectsInputsThatCannotMakeASequence)
{
    EXPECT_THROW(IoGenerator(specOf({}), kGiBRegion, 512, 1), std::invalid_argument);
    EXPECT_THROW(
        IoGenerator(specOf({line(4096, 0, 0)}), Region {0, 0}, 512, 1), std::invalid_argument);
    EXPECT_THROW(IoGenerator(specOf({line(4096, 0, 0)}), kGiBRegion, 0, 1), std::invalid_argument);
    EXPECT_THROW(
        IoGenerator(specOf({line(8192, 0, 0)}), Region {0, 4096}, 512, 1), std::invalid_argument);
    EXPECT_THROW(IoGenerator(specOf({line(0, 0, 0)}), kGiBRegion, 512, 1), std::invalid_argument);
    SpecLine zeroShare = line(4096, 0, 0);
    zeroShare.sharePercent = 0;
    EXPECT_THROW(IoGenerator(specOf({zeroShare}), kGiBRegion, 512, 1), std::invalid_argument);
    SpecLine bigReply = line(4096, 0, 0);
    bigReply.replySizeBytes = 2 * kGiB;
    EXPECT_THROW(IoGenerator(specOf({bigReply}), kGiBRegion, 512, 1), std::invalid_argument);
}

// ---------------------------------------------------------------- rate limiter

namespace {

// Runs `ios` I/Os as fast as the limiter allows on a fake clock that jumps to each
// permitted start time, plus `lateness` (a worker waking up late); returns the start
// time of each I/O.
std::vector<std::int64_t> runLimited(
    RateLimiter &limiter, int ios, std::uint32_t bytes, std::chrono::nanoseconds lateness = 0ns)
{
    std::vector<std::int64_t> starts;
    std::chrono::nanoseconds now {1'000'000'000'000}; // an arbitrary steady-clock value
    for (int i = 0; i < ios; ++i) {
        const auto at = limiter.earliestStart(now, bytes);
        EXPECT_GE(at, now);
        if (at > now)
            now = at + lateness;
        limiter.consume(now, bytes);
        starts.push_back(now.count());
    }
    return starts;
}

} // namespace

TEST(RateLimiter, UnlimitedNeverWaits)
{
    RateLimiter limiter(RateLimit {});
    EXPECT_TRUE(limiter.unlimited());
    const auto starts = runLimited(limiter, 1000, 1 << 20);
    EXPECT_EQ(starts.front(), starts.back());
}

TEST(RateLimiter, HoldsTheLongTermRate)
{
    struct Case {
        RateLimit limit;
        std::uint32_t bytes;
        double expectedIoPerSecond;
    };
    const Case cases[] = {
        {{1000, 0}, 4096, 1000}, // IOPS only
        {{0, 100}, 4096, 100e6 / 4096}, // MB/s only (decimal)
        {{1000, 100}, 1 << 20, 100e6 / (1 << 20)}, // both: bandwidth is the tighter
        {{50, 100}, 4096, 50}, // both: IOPS is the tighter
        {{3, 0}, 512, 3}, // cost not a whole number of ns
        {{1'000'000, 0}, 512, 1'000'000},
    };
    for (const auto &c : cases) {
        RateLimiter limiter(c.limit);
        EXPECT_FALSE(limiter.unlimited());
        const int ios = 20'000;
        const auto starts = runLimited(limiter, ios, c.bytes);
        const double seconds = static_cast<double>(starts.back() - starts.front()) / 1e9;
        // ios - 1 intervals, minus the initial burst allowance of at most 1 ms worth.
        const double expectedSeconds = (ios - 1) / c.expectedIoPerSecond;
        EXPECT_NEAR(seconds, expectedSeconds, 0.001 + 1.0 / c.expectedIoPerSecond)
            << c.limit.iops << " iops, " << c.limit.megabytesPerSecond << " MB/s";
    }
}

TEST(RateLimiter, BurstIsBoundedByTheTolerance)
{
    // 1 M IOPS = 1 us per I/O, tolerance 1 ms: 1001 I/Os may start at once, not more.
    RateLimiter limiter(RateLimit {1'000'000, 0});
    std::chrono::nanoseconds now {5'000'000'000};
    int atOnce = 0;
    while (limiter.earliestStart(now, 512) == now && atOnce < 10'000) {
        limiter.consume(now, 512);
        ++atOnce;
    }
    EXPECT_EQ(atOnce, 1001);

    RateLimiter strict(RateLimit {1'000'000, 0}, 0ns);
    atOnce = 0;
    while (strict.earliestStart(now, 512) == now && atOnce < 10) {
        strict.consume(now, 512);
        ++atOnce;
    }
    EXPECT_EQ(atOnce, 1);
}

TEST(RateLimiter, LateWakeUpsWithinTheToleranceLoseNoRate)
{
    RateLimiter limiter(RateLimit {1000, 0}); // 1 ms per I/O
    const auto starts = runLimited(limiter, 5000, 4096, 400us);
    const double seconds = static_cast<double>(starts.back() - starts.front()) / 1e9;
    EXPECT_NEAR(seconds, 4.999, 0.002);
}

TEST(RateLimiter, LargeIoStartsAndTheNextWaitsForItsCost)
{
    RateLimiter limiter(RateLimit {0, 1}); // 1 MB/s
    const std::chrono::nanoseconds t0 {10'000'000'000};
    EXPECT_EQ(limiter.earliestStart(t0, 4'000'000), t0); // 4 s worth, far above the burst
    limiter.consume(t0, 4'000'000);
    EXPECT_EQ(limiter.earliestStart(t0, 512), t0 + 4s - 1ms);
}
