// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/histogram.h"
#include "core/workload/rng.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <ostream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/test_support.h"

using namespace ioprism::core;

namespace {

using ioprism::test::kMs;
using ioprism::test::kS;
using ioprism::test::kUs;

// Nearest-rank percentile of sorted values, the definition percentileNs() uses.
std::uint64_t exactPercentile(const std::vector<std::uint64_t> &sorted, double p)
{
    if (p <= 0)
        return sorted.front();
    if (p >= 100)
        return sorted.back();
    auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
    rank = std::clamp<std::size_t>(rank, 1, sorted.size());
    return sorted[rank - 1];
}

LatencyHistogram histogramOf(const std::vector<std::uint64_t> &values)
{
    LatencyHistogram h;
    for (const auto v : values)
        h.record(v);
    return h;
}

} // namespace

// ---------------------------------------------------------------- bucket layout

TEST(LatencyHistogram, BucketIndexOfKnownValues)
{
    const std::uint64_t last = LatencyHistogram::kBucketCount - 1;
    struct Case {
        std::uint64_t ns;
        std::uint64_t index;
    };
    const Case cases[] = {
        {0, 0},
        {1, 1},
        {63, 63},
        {64, 64},
        {127, 127}, // below 2^(M+1): exact
        {128, 128},
        {129, 128}, // width 2 from 128
        {130, 129},
        {255, 191},
        {256, 192}, // width 4 from 256
        {259, 192},
        {260, 193},
        {(1ULL << 43) - 1, last},
        {1ULL << 43, last}, // clamped
        {~0ULL, last},
    };
    for (const auto &c : cases)
        EXPECT_EQ(LatencyHistogram::bucketIndex(c.ns), c.index) << "ns=" << c.ns;
}

TEST(LatencyHistogram, BucketEdgesTileTheRangeWithBoundedWidth)
{
    for (std::size_t i = 0; i < LatencyHistogram::kBucketCount; ++i) {
        const auto low = LatencyHistogram::bucketLow(i);
        const auto high = LatencyHistogram::bucketHigh(i);
        ASSERT_LE(low, high) << i;
        ASSERT_EQ(LatencyHistogram::bucketIndex(low), i);
        ASSERT_EQ(LatencyHistogram::bucketIndex(high), i);
        if (i + 1 < LatencyHistogram::kBucketCount) {
            ASSERT_EQ(LatencyHistogram::bucketLow(i + 1), high + 1) << i;
        }
        if (low > 0) { // width <= low / 64: the source of the error bound
            ASSERT_LE((high - low + 1) * LatencyHistogram::kSubBucketCount,
                std::max<std::uint64_t>(low, 64))
                << i;
        } else {
            ASSERT_EQ(high, 0u);
        }
    }
}

TEST(LatencyHistogram, CoversAtLeast2To42Nanoseconds)
{
    EXPECT_GE(LatencyHistogram::bucketHigh(LatencyHistogram::kBucketCount - 1), (1ULL << 42));
    EXPECT_LT(LatencyHistogram::bucketIndex(1ULL << 42), LatencyHistogram::kBucketCount - 1);
    EXPECT_LT(LatencyHistogram::kRelativeErrorBound, 0.008);
}

// ---------------------------------------------------------------- percentiles

struct DistributionCase {
    const char *name;
    std::function<std::uint64_t(Rng &)> draw;
    friend void PrintTo(const DistributionCase &c, std::ostream *os) { *os << c.name; }
};

class LatencyHistogramPercentiles : public ::testing::TestWithParam<DistributionCase>
{
};

TEST_P(LatencyHistogramPercentiles, WithinRelativeErrorBoundOfExactPercentiles)
{
    Rng rng(12345);
    std::vector<std::uint64_t> values(50'000);
    for (auto &v : values)
        v = GetParam().draw(rng);
    const LatencyHistogram h = histogramOf(values);
    std::sort(values.begin(), values.end());

    std::vector<double> ps = {0, 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9,
        99.95, 99.99, 100, 0.001, 33.3};
    for (int i = 0; i < 50; ++i)
        ps.push_back(rng.uniformDouble() * 100);
    for (const double p : ps) {
        const auto exactNs = exactPercentile(values, p);
        const double exact = static_cast<double>(exactNs);
        const double estimate = h.percentileNs(p);
        if (exactNs == 0) {
            EXPECT_DOUBLE_EQ(estimate, 0.0) << "p=" << p;
        } else {
            EXPECT_LE(std::abs(estimate - exact) / exact, LatencyHistogram::kRelativeErrorBound)
                << "p=" << p << " exact=" << exact << " estimate=" << estimate;
        }
        EXPECT_GE(estimate, static_cast<double>(values.front()));
        EXPECT_LE(estimate, static_cast<double>(values.back()));
    }
    EXPECT_EQ(h.count(), values.size());
    EXPECT_EQ(h.minNs(), values.front());
    EXPECT_EQ(h.maxNs(), values.back());
}

INSTANTIATE_TEST_SUITE_P(Distributions, LatencyHistogramPercentiles,
    ::testing::Values(DistributionCase {"UniformTo1ms", [](Rng &r) { return r.uniform(kMs); }},
        DistributionCase {"SmallExact", [](Rng &r) { return r.uniform(128); }},
        DistributionCase {"Constant", [](Rng &) { return std::uint64_t {87'654}; }},
        DistributionCase {"Exponential100us",
            [](Rng &r) {
                return static_cast<std::uint64_t>(-std::log(1.0 - r.uniformDouble()) * 100'000.0);
            }},
        DistributionCase {"LogNormalWide",
            [](Rng &r) {
                const double u1 = 1.0 - r.uniformDouble(), u2 = r.uniformDouble();
                const double z = std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
                return static_cast<std::uint64_t>(std::exp(11.0 + 2.5 * z));
            }},
        DistributionCase {"Bimodal",
            [](Rng &r) {
                return r.percentDraw(90) ? 20 * kUs + r.uniform(5 * kUs)
                                         : 8 * kMs + r.uniform(4 * kMs);
            }},
        DistributionCase {"HeavyTailToHours",
            [](Rng &r) {
                const double u = 1.0 - r.uniformDouble();
                return static_cast<std::uint64_t>(std::min(5000.0 / std::pow(u, 1.5), 4e12));
            }}),
    [](const ::testing::TestParamInfo<DistributionCase> &info) {
        return std::string(info.param.name);
    });

TEST(LatencyHistogram, EmptyReportsZeros)
{
    const LatencyHistogram h;
    EXPECT_TRUE(h.empty());
    EXPECT_EQ(h.count(), 0u);
    EXPECT_EQ(h.minNs(), 0u);
    EXPECT_EQ(h.maxNs(), 0u);
    EXPECT_DOUBLE_EQ(h.meanNs(), 0.0);
    EXPECT_DOUBLE_EQ(h.percentileNs(50), 0.0);
    EXPECT_TRUE(h.nonEmptyBuckets().empty());
}

TEST(LatencyHistogram, ValuesBeyondRangeKeepExactMaxSumAndMean)
{
    LatencyHistogram h;
    const std::uint64_t huge = 1ULL << 50;
    h.record(100);
    h.record(huge);
    EXPECT_EQ(h.maxNs(), huge);
    EXPECT_EQ(h.sumNs(), huge + 100);
    EXPECT_DOUBLE_EQ(h.meanNs(), static_cast<double>(huge + 100) / 2);
    EXPECT_DOUBLE_EQ(h.percentileNs(100), static_cast<double>(huge));
    EXPECT_EQ(h.bucketCount(LatencyHistogram::kBucketCount - 1), 1u);
}

TEST(LatencyHistogram, NonEmptyBucketsListEveryCountInOrder)
{
    Rng rng(7);
    LatencyHistogram h;
    for (int i = 0; i < 1000; ++i)
        h.record(rng.uniform(10 * kMs));
    const auto buckets = h.nonEmptyBuckets();
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < buckets.size(); ++i) {
        EXPECT_GT(buckets[i].count, 0u);
        EXPECT_EQ(buckets[i].count, h.bucketCount(buckets[i].index));
        EXPECT_EQ(buckets[i].lowNs, LatencyHistogram::bucketLow(buckets[i].index));
        EXPECT_EQ(buckets[i].highNs, LatencyHistogram::bucketHigh(buckets[i].index));
        if (i > 0) {
            EXPECT_GT(buckets[i].index, buckets[i - 1].index);
        }
        total += buckets[i].count;
    }
    EXPECT_EQ(total, h.count());
}

// ---------------------------------------------------------------- merge / subtract

TEST(LatencyHistogram, MergeEqualsRecordingEverything)
{
    Rng rng(99);
    std::vector<std::uint64_t> a(3000), b(5000);
    for (auto &v : a)
        v = rng.uniform(2 * kMs);
    for (auto &v : b)
        v = 50 * kUs + rng.uniform(50 * kMs);
    LatencyHistogram merged = histogramOf(a);
    merged.merge(histogramOf(b));
    std::vector<std::uint64_t> all = a;
    all.insert(all.end(), b.begin(), b.end());
    EXPECT_EQ(merged, histogramOf(all));

    LatencyHistogram intoEmpty;
    intoEmpty.merge(histogramOf(a));
    EXPECT_EQ(intoEmpty, histogramOf(a));
}

TEST(LatencyHistogram, SubtractGivesTheDeltaOfCumulativeSnapshots)
{
    Rng rng(5);
    std::vector<std::uint64_t> first(2000), second(3000);
    for (auto &v : first)
        v = rng.uniform(kS);
    for (auto &v : second)
        v = 1000 + rng.uniform(kMs);
    LatencyHistogram earlier = histogramOf(first);
    LatencyHistogram later = earlier;
    for (const auto v : second)
        later.record(v);

    LatencyHistogram delta = later;
    delta.subtract(earlier);
    const LatencyHistogram expected = histogramOf(second);
    EXPECT_EQ(delta.count(), expected.count());
    EXPECT_EQ(delta.sumNs(), expected.sumNs());
    for (std::size_t i = 0; i < LatencyHistogram::kBucketCount; ++i)
        ASSERT_EQ(delta.bucketCount(i), expected.bucketCount(i)) << i;
    // Extremes cannot be subtracted: they keep the later snapshot's, which bound the delta.
    EXPECT_EQ(delta.minNs(), later.minNs());
    EXPECT_EQ(delta.maxNs(), later.maxNs());
    EXPECT_LE(delta.minNs(), expected.minNs());
    EXPECT_GE(delta.maxNs(), expected.maxNs());
    // With the exact interval extremes supplied, the delta is the interval's histogram.
    delta.setMinMaxNs(expected.minNs(), expected.maxNs());
    EXPECT_EQ(delta, expected);
}

TEST(LatencyHistogram, SubtractToNothingIsEmpty)
{
    const LatencyHistogram h = histogramOf({5, 500, 50'000});
    LatencyHistogram delta = h;
    delta.subtract(h);
    EXPECT_EQ(delta, LatencyHistogram {});
    EXPECT_EQ(delta.minNs(), 0u);
    EXPECT_EQ(delta.maxNs(), 0u);
}

TEST(LatencyHistogram, FitExtremesKeepsEachInsideTheExtremeBucket)
{
    const LatencyHistogram exact = histogramOf({2000, 3000, 40'000});
    const std::size_t low = LatencyHistogram::bucketIndex(2000);
    const std::size_t high = LatencyHistogram::bucketIndex(40'000);

    // Extremes that belong to the span's own values are kept exactly.
    LatencyHistogram h = exact;
    std::uint64_t minNs = 2000, maxNs = 40'000;
    h.fitExtremes(minNs, maxNs);
    EXPECT_EQ(minNs, 2000u);
    EXPECT_EQ(maxNs, 40'000u);
    EXPECT_EQ(h, exact);

    // Extremes of values whose buckets are in a neighbouring span (taken while the
    // worker recorded): each moves to the edge of the extreme bucket, and the histogram
    // takes them.
    minNs = 1000;
    maxNs = 90'000;
    h.fitExtremes(minNs, maxNs);
    EXPECT_EQ(minNs, LatencyHistogram::bucketLow(low));
    EXPECT_EQ(maxNs, LatencyHistogram::bucketHigh(high));
    EXPECT_EQ(h.minNs(), minNs);
    EXPECT_EQ(h.maxNs(), maxNs);
    minNs = 30'000; // above the lowest bucket: a value in it had its extreme taken before
    maxNs = 2500;
    h.fitExtremes(minNs, maxNs);
    EXPECT_EQ(minNs, LatencyHistogram::bucketHigh(low));
    EXPECT_EQ(maxNs, LatencyHistogram::bucketLow(high));

    // A span without values has no extremes, whatever was taken.
    LatencyHistogram empty;
    minNs = 1000;
    maxNs = 2000;
    empty.fitExtremes(minNs, maxNs);
    EXPECT_EQ(minNs, UINT64_MAX);
    EXPECT_EQ(maxNs, 0u);
}

TEST(LatencyHistogram, ClearEmpties)
{
    LatencyHistogram h = histogramOf({1, 2, 3 * kMs});
    h.clear();
    EXPECT_EQ(h, LatencyHistogram {});
}

// ---------------------------------------------------------------- Iometer bins

TEST(IometerBins, EdgesAreLowerInclusiveUpperExclusive)
{
    for (std::size_t bin = 1; bin < IometerBins::kBinCount; ++bin) {
        const std::uint64_t edge = IometerBins::kLowerEdgesNs[bin];
        EXPECT_EQ(IometerBins::binIndex(edge - 1), bin - 1) << "just below edge " << edge;
        EXPECT_EQ(IometerBins::binIndex(edge), bin) << "at edge " << edge;
        EXPECT_EQ(IometerBins::binIndex(edge + 1), bin) << "just above edge " << edge;
        EXPECT_EQ(IometerBins::upperEdgeNs(bin - 1), edge);
    }
}

TEST(IometerBins, EdgesMatchIometer)
{
    struct Case {
        std::uint64_t ns;
        std::size_t bin;
    };
    const Case cases[] = {
        {0, 0},
        {49'999, 0},
        {50 * kUs, 1},
        {100 * kUs, 2},
        {200 * kUs, 3},
        {500 * kUs, 4},
        {1 * kMs, 5},
        {2 * kMs, 6},
        {5 * kMs, 7},
        {10 * kMs, 8},
        {15 * kMs, 9},
        {20 * kMs, 10},
        {30 * kMs, 11},
        {50 * kMs, 12},
        {100 * kMs, 13},
        {200 * kMs, 14},
        {500 * kMs, 15},
        {1 * kS, 16},
        {2 * kS, 17},
        {4'700 * kMs - 1, 17},
        {4'700 * kMs, 18},
        {5 * kS, 19},
        {10 * kS - 1, 19},
        {10 * kS, 20},
        {60 * kS, 20},
        {~0ULL, 20},
    };
    for (const auto &c : cases)
        EXPECT_EQ(IometerBins::binIndex(c.ns), c.bin) << "ns=" << c.ns;
}

TEST(IometerBins, TenSecondsAndMoreLandInTheLastBin)
{
    IometerBins bins;
    bins.record(10 * kS);
    bins.record(3600 * kS);
    bins.record(~0ULL);
    EXPECT_EQ(bins.counts[20], 3u);
    EXPECT_EQ(bins.total(), 3u);
    EXPECT_EQ(IometerBins::upperEdgeNs(20), ~0ULL);
}

TEST(IometerBins, LabelsAreDistinctAndNamed)
{
    std::set<std::string_view> labels;
    for (std::size_t i = 0; i < IometerBins::kBinCount; ++i) {
        EXPECT_FALSE(IometerBins::label(i).empty());
        labels.insert(IometerBins::label(i));
    }
    EXPECT_EQ(labels.size(), IometerBins::kBinCount);
    EXPECT_EQ(IometerBins::label(0), "0-50us");
    EXPECT_EQ(IometerBins::label(18), "4.7-5s");
    EXPECT_EQ(IometerBins::label(20), ">=10s");
}

TEST(IometerBins, MergeAndSubtract)
{
    IometerBins a, b, all;
    Rng rng(3);
    for (int i = 0; i < 5000; ++i) {
        const std::uint64_t v = rng.uniform(20 * kS);
        (i % 3 ? a : b).record(v);
        all.record(v);
    }
    IometerBins merged = a;
    merged.merge(b);
    EXPECT_EQ(merged, all);
    merged.subtract(a);
    EXPECT_EQ(merged, b);
    EXPECT_EQ(all.total(), 5000u);
}

// ---------------------------------------------------------------- atomic, live

TEST(AtomicLatencyHistogram, SnapshotEqualsPlainHistogram)
{
    AtomicLatencyHistogram live;
    LatencyHistogram plain;
    IometerBins plainBins;
    Rng rng(11);
    for (int i = 0; i < 10'000; ++i) {
        const std::uint64_t v = rng.uniform(12 * kS);
        live.record(v);
        plain.record(v);
        plainBins.record(v);
    }
    LatencyHistogram snap;
    IometerBins snapBins;
    live.snapshotInto(snap, snapBins);
    EXPECT_EQ(snap, plain);
    EXPECT_EQ(snapBins, plainBins);
    EXPECT_EQ(live.count(), 10'000u);

    live.reset();
    live.snapshotInto(snap, snapBins);
    EXPECT_EQ(snap, LatencyHistogram {});
    EXPECT_EQ(snapBins, IometerBins {});
}

TEST(AtomicLatencyHistogram, IntervalExtremesResetOnTake)
{
    AtomicLatencyHistogram live;
    EXPECT_EQ(live.takeIntervalMinNs(), AtomicLatencyHistogram::kNoIntervalMin);
    EXPECT_EQ(live.takeIntervalMaxNs(), AtomicLatencyHistogram::kNoIntervalMax);
    live.record(500);
    live.record(300);
    live.record(900);
    EXPECT_EQ(live.takeIntervalMinNs(), 300u);
    EXPECT_EQ(live.takeIntervalMaxNs(), 900u);
    EXPECT_EQ(live.takeIntervalMinNs(), AtomicLatencyHistogram::kNoIntervalMin);
    EXPECT_EQ(live.takeIntervalMaxNs(), AtomicLatencyHistogram::kNoIntervalMax);
    live.record(700);
    EXPECT_EQ(live.takeIntervalMinNs(), 700u);
    EXPECT_EQ(live.takeIntervalMaxNs(), 700u);
    // Cumulative extremes are unaffected by takes.
    LatencyHistogram snap;
    IometerBins bins;
    live.snapshotInto(snap, bins);
    EXPECT_EQ(snap.minNs(), 300u);
    EXPECT_EQ(snap.maxNs(), 900u);
}

TEST(AtomicLatencyHistogram, ConcurrentReaderSeesMonotonicCountsAndFinalSnapshotIsExact)
{
    constexpr int kValues = 400'000;
    AtomicLatencyHistogram live;
    std::atomic<bool> done {false};
    // Deterministic values the test can replay.
    auto valueAt = [](std::uint64_t i) { return mix64(i) % (15 * kS); };

    std::thread writer([&] {
        for (int i = 0; i < kValues; ++i)
            live.record(valueAt(static_cast<std::uint64_t>(i)));
        done.store(true, std::memory_order_release);
    });

    LatencyHistogram previous, current;
    IometerBins previousBins, currentBins;
    std::uint64_t intervalMin = AtomicLatencyHistogram::kNoIntervalMin;
    std::uint64_t intervalMax = AtomicLatencyHistogram::kNoIntervalMax;
    int snapshots = 0;
    bool monotonic = true;
    while (!done.load(std::memory_order_acquire)) {
        live.snapshotInto(current, currentBins);
        ++snapshots;
        monotonic = monotonic && current.count() >= previous.count()
            && current.sumNs() >= previous.sumNs();
        for (std::size_t i = 0; i < LatencyHistogram::kBucketCount && monotonic; ++i)
            monotonic = current.bucketCount(i) >= previous.bucketCount(i);
        for (std::size_t i = 0; i < IometerBins::kBinCount && monotonic; ++i)
            monotonic = currentBins.counts[i] >= previousBins.counts[i];
        intervalMin = std::min(intervalMin, live.takeIntervalMinNs());
        intervalMax = std::max(intervalMax, live.takeIntervalMaxNs());
        previous = current;
        previousBins = currentBins;
    }
    writer.join();
    EXPECT_TRUE(monotonic);
    EXPECT_GE(snapshots, 1);
    intervalMin = std::min(intervalMin, live.takeIntervalMinNs());
    intervalMax = std::max(intervalMax, live.takeIntervalMaxNs());

    LatencyHistogram expected;
    IometerBins expectedBins;
    for (int i = 0; i < kValues; ++i) {
        expected.record(valueAt(static_cast<std::uint64_t>(i)));
        expectedBins.record(valueAt(static_cast<std::uint64_t>(i)));
    }
    live.snapshotInto(current, currentBins);
    EXPECT_EQ(current, expected);
    EXPECT_EQ(currentBins, expectedBins);
    // No extreme is lost to a concurrent take: every value counts in some interval.
    EXPECT_EQ(intervalMin, expected.minNs());
    EXPECT_EQ(intervalMax, expected.maxNs());
}

TEST(SparseLatencyHistogram, KeepsEveryNonEmptyBucketAndGivesTheSameHistogramBack)
{
    LatencyHistogram h;
    Rng rng(7);
    for (int i = 0; i < 5000; ++i)
        h.record(1000 + rng.next() % 5'000'000);
    const auto sparse = SparseLatencyHistogram::of(h, h.minNs(), h.maxNs());
    EXPECT_EQ(sparse.count(), h.count());
    EXPECT_LT(sparse.indices.size(), LatencyHistogram::kBucketCount / 2)
        << "only the buckets that were used";
    EXPECT_TRUE(std::is_sorted(sparse.indices.begin(), sparse.indices.end()));
    EXPECT_EQ(sparse.dense(), h);
    EXPECT_TRUE(SparseLatencyHistogram::of(LatencyHistogram {}, 0, 0).empty());
}

TEST(SparseLatencyHistogram, MergedBucketByBucketItsPercentilesAreThoseOfEveryIoTogether)
{
    // Two hosts, one fast and one slow: the merged p99 is the p99 of all the I/O, which
    // neither host's own p99 nor their mean is.
    LatencyHistogram fast, slow, both;
    Rng rng(11);
    for (int i = 0; i < 9000; ++i) {
        const std::uint64_t ns = 50'000 + rng.next() % 20'000;
        fast.record(ns);
        both.record(ns);
    }
    for (int i = 0; i < 1000; ++i) {
        const std::uint64_t ns = 3'000'000 + rng.next() % 1'000'000;
        slow.record(ns);
        both.record(ns);
    }
    auto merged = SparseLatencyHistogram::of(fast, fast.minNs(), fast.maxNs());
    merged.merge(SparseLatencyHistogram::of(slow, slow.minNs(), slow.maxNs()));
    EXPECT_EQ(merged.dense(), both);
    EXPECT_DOUBLE_EQ(merged.dense().percentileNs(99), both.percentileNs(99));
    EXPECT_GT(merged.dense().percentileNs(99), fast.percentileNs(99) * 10);

    auto empty = SparseLatencyHistogram {};
    empty.merge(merged);
    EXPECT_EQ(empty, merged) << "merging into nothing gives the other";
}
