// SPDX-License-Identifier: GPL-3.0-or-later
// The write cliff detector (core/stats/write_cliff.h) on synthetic writes: a cache that
// fills at a known byte count, with noise and stalls, and writes that have no cliff.
#include "core/stats/write_cliff.h"

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <limits>
#include <vector>

namespace ioprism::core {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

// The same noise on every machine: a linear congruential generator, in [-1, 1).
class Noise
{
public:
    double next()
    {
        m_state = m_state * 6364136223846793005ULL + 1442695040888963407ULL;
        return double(m_state >> 11) / double(1ULL << 52) - 1;
    }

private:
    std::uint64_t m_state = 42;
};

// One-second intervals of a write whose rate is rateAt(bytes so far), with +-noise
// (a share of the rate).
template<typename RateAt>
std::vector<WriteRatePoint> simulatedWrite(std::size_t seconds, double noise, RateAt rateAt)
{
    Noise random;
    std::vector<WriteRatePoint> points;
    double bytes = 0;
    for (std::size_t s = 0; s < seconds; ++s) {
        const double rate = rateAt(bytes, s) * (1 + noise * random.next());
        bytes += rate;
        points.push_back({std::uint64_t(bytes), rate});
    }
    return points;
}

TEST(WriteCliff, ACacheThatFillsIsFoundAtItsBytesWithItsTwoRates)
{
    // 2 GiB/s into a 40 GiB cache, then 0.5 GiB/s, for 60 s: +-5 % noise.
    const auto points = simulatedWrite(60, 0.05,
        [](double bytes, std::size_t) { return bytes < 40 * kGiB ? 2 * kGiB : 0.5 * kGiB; });
    const auto cliff = findWriteCliff(points);
    ASSERT_TRUE(cliff);
    EXPECT_NEAR(double(cliff->bytesBefore), 40 * kGiB, 0.05 * 40 * kGiB);
    EXPECT_NEAR(cliff->rateBefore, 2 * kGiB, 0.05 * 2 * kGiB);
    EXPECT_NEAR(cliff->rateAfter, 0.5 * kGiB, 0.05 * 0.5 * kGiB);
    EXPECT_NEAR(cliff->drop, 0.75, 0.05);
    EXPECT_GE(points[cliff->firstSlowPoint].bytesWritten, 40 * kGiB);
    EXPECT_LT(points[cliff->firstSlowPoint - 1].bytesWritten, std::uint64_t(42 * kGiB));
}

TEST(WriteCliff, StallsBeforeAndAfterTheCliffDoNotMoveIt)
{
    // Garbage collection stalls: one interval at a tenth of the rate, every 7 s.
    const auto points = simulatedWrite(80, 0.05, [](double bytes, std::size_t s) {
        const double rate = bytes < 24 * kGiB ? 1.5 * kGiB : 0.4 * kGiB;
        return s % 7 == 6 ? rate / 10 : rate;
    });
    const auto cliff = findWriteCliff(points);
    ASSERT_TRUE(cliff);
    EXPECT_NEAR(double(cliff->bytesBefore), 24 * kGiB, 0.05 * 24 * kGiB);
    EXPECT_NEAR(cliff->rateAfter, 0.4 * kGiB, 0.05 * 0.4 * kGiB);
}

TEST(WriteCliff, AWriteWithoutACliffHasNone)
{
    struct Case {
        const char *name;
        std::vector<WriteRatePoint> points;
    };
    const std::vector<Case> cases {
        {"level with 10 % noise",
            simulatedWrite(60, 0.10, [](double, std::size_t) { return kGiB; })},
        // A stall of 8 s in the middle, then the same rate again.
        {"a dip that recovers",
            simulatedWrite(60, 0.05,
                [](double, std::size_t s) { return s >= 26 && s < 34 ? 0.2 * kGiB : kGiB; })},
        // From 1 GiB/s down to 0.2 GiB/s evenly over the whole write.
        {"a steady slide",
            simulatedWrite(
                60, 0.02, [](double, std::size_t s) { return kGiB * (1 - 0.8 * double(s) / 59); })},
        // 20 % down: less than the 30 % a cliff needs.
        {"a small step",
            simulatedWrite(60, 0.02,
                [](double bytes, std::size_t) { return bytes < 20 * kGiB ? kGiB : 0.8 * kGiB; })},
        // The fall comes 3 s before the end: too few slow intervals to say it stays down.
        {"too late to tell",
            simulatedWrite(
                40, 0.02, [](double, std::size_t s) { return s < 37 ? kGiB : 0.2 * kGiB; })},
    };
    for (const auto &c : cases) {
        const auto cliff = findWriteCliff(c.points);
        EXPECT_FALSE(cliff) << c.name << ": found at " << (cliff ? cliff->bytesBefore / kGiB : 0)
                            << " GiB";
    }
}

TEST(WriteCliff, ANoiselessStepIsFoundOnItsInterval)
{
    std::vector<WriteRatePoint> points;
    std::uint64_t bytes = 0;
    for (int s = 0; s < 80; ++s) {
        const double rate = s < 16 ? 1.5 * kGiB : 0.4 * kGiB;
        bytes += std::uint64_t(rate);
        points.push_back({bytes, rate});
    }
    const auto cliff = findWriteCliff(points);
    ASSERT_TRUE(cliff);
    EXPECT_EQ(cliff->firstSlowPoint, 16u);
    EXPECT_EQ(cliff->bytesBefore, points[15].bytesWritten);
    EXPECT_DOUBLE_EQ(cliff->rateBefore, 1.5 * kGiB);
    EXPECT_DOUBLE_EQ(cliff->rateAfter, 0.4 * kGiB);
}

TEST(WriteCliff, ARateThatIsNotANumberIsNoAnswer)
{
    auto points = simulatedWrite(
        40, 0.02, [](double, std::size_t s) { return s < 20 ? kGiB : 0.2 * kGiB; });
    ASSERT_TRUE(findWriteCliff(points));
    points[7].rate = std::numeric_limits<double>::quiet_NaN();
    EXPECT_FALSE(findWriteCliff(points));
}

TEST(WriteCliff, TooFewIntervalsAreNoAnswer)
{
    const std::vector<WriteRatePoint> points {{100, 100}, {150, 50}, {200, 50}};
    EXPECT_FALSE(findWriteCliff(points));
    EXPECT_FALSE(findWriteCliff({}));
}

} // namespace
} // namespace ioprism::core
