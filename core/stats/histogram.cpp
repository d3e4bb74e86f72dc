// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/histogram.h"

#include <algorithm>
#include <cmath>

namespace ioprism::core {

namespace {

constexpr std::array<std::string_view, IometerBins::kBinCount> kIometerLabels = {
    "0-50us",
    "50-100us",
    "100-200us",
    "200-500us",
    "0.5-1ms",
    "1-2ms",
    "2-5ms",
    "5-10ms",
    "10-15ms",
    "15-20ms",
    "20-30ms",
    "30-50ms",
    "50-100ms",
    "100-200ms",
    "200-500ms",
    "0.5-1s",
    "1-2s",
    "2-4.7s",
    "4.7-5s",
    "5-10s",
    ">=10s",
};

constexpr std::uint64_t saturatingSub(std::uint64_t a, std::uint64_t b) noexcept
{
    return a > b ? a - b : 0;
}

} // namespace

// ---------------------------------------------------------------- IometerBins

std::string_view IometerBins::label(std::size_t bin) noexcept
{
    return bin < kBinCount ? kIometerLabels[bin] : std::string_view {};
}

void IometerBins::merge(const IometerBins &other) noexcept
{
    for (std::size_t i = 0; i < kBinCount; ++i)
        counts[i] += other.counts[i];
}

void IometerBins::subtract(const IometerBins &earlier) noexcept
{
    for (std::size_t i = 0; i < kBinCount; ++i)
        counts[i] = saturatingSub(counts[i], earlier.counts[i]);
}

std::uint64_t IometerBins::total() const noexcept
{
    std::uint64_t sum = 0;
    for (const auto c : counts)
        sum += c;
    return sum;
}

// ---------------------------------------------------------------- LatencyHistogram

double LatencyHistogram::percentileNs(double p) const noexcept
{
    if (m_count == 0)
        return 0.0;
    if (!(p > 0.0)) // also catches NaN
        return static_cast<double>(m_minNs);
    if (p >= 100.0)
        return static_cast<double>(m_maxNs);

    // Nearest rank, 1-based: the smallest rank r with r >= p/100 * count.
    const double exactRank = p / 100.0 * static_cast<double>(m_count);
    auto rank = static_cast<std::uint64_t>(std::ceil(exactRank));
    rank = std::clamp<std::uint64_t>(rank, 1, m_count);

    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < kBucketCount; ++i) {
        seen += m_buckets[i];
        if (seen >= rank)
            return std::clamp(
                bucketMidpoint(i), static_cast<double>(m_minNs), static_cast<double>(m_maxNs));
    }
    // Only reachable when the buckets hold fewer values than m_count (a histogram made
    // inconsistent by a saturated subtract): the largest value is the best answer.
    return static_cast<double>(m_maxNs);
}

void LatencyHistogram::merge(const LatencyHistogram &other) noexcept
{
    for (std::size_t i = 0; i < kBucketCount; ++i)
        m_buckets[i] += other.m_buckets[i];
    m_count += other.m_count;
    m_sumNs += other.m_sumNs;
    m_minNs = std::min(m_minNs, other.m_minNs);
    m_maxNs = std::max(m_maxNs, other.m_maxNs);
}

void LatencyHistogram::subtract(const LatencyHistogram &earlier) noexcept
{
    for (std::size_t i = 0; i < kBucketCount; ++i)
        m_buckets[i] = saturatingSub(m_buckets[i], earlier.m_buckets[i]);
    m_count = saturatingSub(m_count, earlier.m_count);
    m_sumNs = saturatingSub(m_sumNs, earlier.m_sumNs);
    if (m_count == 0)
        clear();
}

void LatencyHistogram::setMinMaxNs(std::uint64_t minNs, std::uint64_t maxNs) noexcept
{
    if (m_count == 0)
        return;
    m_minNs = minNs;
    m_maxNs = maxNs;
}

void LatencyHistogram::fitExtremes(std::uint64_t &minNs, std::uint64_t &maxNs) noexcept
{
    std::size_t lowest = 0;
    while (lowest < kBucketCount && m_buckets[lowest] == 0)
        ++lowest;
    if (m_count == 0 || lowest == kBucketCount) {
        minNs = std::numeric_limits<std::uint64_t>::max();
        maxNs = 0;
        return;
    }
    std::size_t highest = kBucketCount - 1;
    while (m_buckets[highest] == 0)
        --highest;
    minNs = std::clamp(minNs, bucketLow(lowest), bucketHigh(lowest));
    maxNs = std::clamp(maxNs, bucketLow(highest), bucketHigh(highest));
    m_minNs = minNs;
    m_maxNs = maxNs;
}

bool LatencyHistogram::addBucket(
    std::uint64_t lowNs, std::uint64_t highNs, std::uint64_t count) noexcept
{
    const std::size_t i = bucketIndex(lowNs);
    if (i >= kBucketCount || bucketLow(i) != lowNs || bucketHigh(i) != highNs)
        return false;
    if (count > std::numeric_limits<std::uint64_t>::max() - m_count)
        return false;
    if (count == 0)
        return true;
    m_buckets[i] += count;
    m_count += count;
    // Until the caller sets the exact extremes, the bucket bounds bound every value.
    m_minNs = std::min(m_minNs, lowNs);
    m_maxNs = std::max(m_maxNs, highNs);
    return true;
}

void LatencyHistogram::setSumNs(std::uint64_t sumNs) noexcept
{
    if (m_count != 0)
        m_sumNs = sumNs;
}

void LatencyHistogram::clear() noexcept
{
    m_buckets = {};
    m_count = 0;
    m_sumNs = 0;
    m_minNs = std::numeric_limits<std::uint64_t>::max();
    m_maxNs = 0;
}

std::vector<LatencyHistogram::Bucket> LatencyHistogram::nonEmptyBuckets() const
{
    std::vector<Bucket> result;
    forEachNonEmptyBucket([&result](const Bucket &b) { result.push_back(b); });
    return result;
}

// ---------------------------------------------------------------- AtomicLatencyHistogram

void AtomicLatencyHistogram::snapshotInto(
    LatencyHistogram &histogram, IometerBins &bins) const noexcept
{
    // Relaxed loads give no ordering across counters, so a value being recorded may be
    // visible in its bucket but not yet in min/max (or the reverse). The extremes are
    // therefore reconciled with the buckets actually read, below.
    histogram.m_sumNs = m_sumNs.load(std::memory_order_relaxed);
    const std::uint64_t minNs = m_minNs.load(std::memory_order_relaxed);
    const std::uint64_t maxNs = m_maxNs.load(std::memory_order_relaxed);
    std::uint64_t count = 0;
    std::size_t lowestIndex = 0;
    std::size_t highestIndex = 0;
    for (std::size_t i = 0; i < LatencyHistogram::kBucketCount; ++i) {
        const std::uint64_t c = m_buckets[i].load(std::memory_order_relaxed);
        histogram.m_buckets[i] = c;
        count += c;
        if (c != 0) {
            if (count == c)
                lowestIndex = i;
            highestIndex = i;
        }
    }
    histogram.m_count = count;
    if (count == 0) {
        histogram.m_minNs = std::numeric_limits<std::uint64_t>::max();
        histogram.m_maxNs = 0;
    } else {
        // Exact when the writer is quiet (the extreme lies in the extreme bucket). If the
        // extreme read is older than a bucket read, fall back to that bucket's edge,
        // which still bounds every value of the snapshot.
        histogram.m_minNs = minNs <= LatencyHistogram::bucketHigh(lowestIndex)
            ? minNs
            : LatencyHistogram::bucketLow(lowestIndex);
        histogram.m_maxNs = maxNs >= LatencyHistogram::bucketLow(highestIndex)
            ? maxNs
            : LatencyHistogram::bucketHigh(highestIndex);
    }
    for (std::size_t i = 0; i < IometerBins::kBinCount; ++i)
        bins.counts[i] = m_iometerBins[i].load(std::memory_order_relaxed);
}

void AtomicLatencyHistogram::reset() noexcept
{
    for (auto &b : m_buckets)
        b.store(0, std::memory_order_relaxed);
    for (auto &b : m_iometerBins)
        b.store(0, std::memory_order_relaxed);
    m_count.store(0, std::memory_order_relaxed);
    m_sumNs.store(0, std::memory_order_relaxed);
    m_minNs.store(std::numeric_limits<std::uint64_t>::max(), std::memory_order_relaxed);
    m_maxNs.store(0, std::memory_order_relaxed);
    m_intervalMinNs.store(kNoIntervalMin, std::memory_order_relaxed);
    m_intervalMaxNs.store(kNoIntervalMax, std::memory_order_relaxed);
}

SparseLatencyHistogram SparseLatencyHistogram::of(
    const LatencyHistogram &histogram, std::uint64_t minNs, std::uint64_t maxNs)
{
    SparseLatencyHistogram sparse;
    histogram.forEachNonEmptyBucket([&](const LatencyHistogram::Bucket &b) {
        sparse.indices.push_back(static_cast<std::uint32_t>(b.index));
        sparse.counts.push_back(b.count);
    });
    if (!sparse.indices.empty()) {
        sparse.sumNs = histogram.sumNs();
        sparse.minNs = minNs;
        sparse.maxNs = maxNs;
    }
    return sparse;
}

LatencyHistogram SparseLatencyHistogram::dense() const
{
    LatencyHistogram histogram;
    for (std::size_t k = 0; k < indices.size() && k < counts.size(); ++k) {
        const std::size_t i = indices[k];
        if (i < LatencyHistogram::kBucketCount)
            (void)histogram.addBucket(
                LatencyHistogram::bucketLow(i), LatencyHistogram::bucketHigh(i), counts[k]);
    }
    histogram.setSumNs(sumNs);
    histogram.setMinMaxNs(minNs, maxNs);
    return histogram;
}

void SparseLatencyHistogram::merge(const SparseLatencyHistogram &other)
{
    if (other.empty())
        return;
    // Both ascending: one pass, as a merge of sorted lists.
    std::vector<std::uint32_t> mergedIndices;
    std::vector<std::uint64_t> mergedCounts;
    mergedIndices.reserve(indices.size() + other.indices.size());
    mergedCounts.reserve(indices.size() + other.indices.size());
    std::size_t a = 0, b = 0;
    while (a < indices.size() || b < other.indices.size()) {
        if (b == other.indices.size() || (a < indices.size() && indices[a] < other.indices[b])) {
            mergedIndices.push_back(indices[a]);
            mergedCounts.push_back(counts[a++]);
        } else if (a == indices.size() || other.indices[b] < indices[a]) {
            mergedIndices.push_back(other.indices[b]);
            mergedCounts.push_back(other.counts[b++]);
        } else {
            mergedIndices.push_back(indices[a]);
            mergedCounts.push_back(counts[a++] + other.counts[b++]);
        }
    }
    indices = std::move(mergedIndices);
    counts = std::move(mergedCounts);
    sumNs += other.sumNs;
    minNs = std::min(minNs, other.minNs);
    maxNs = std::max(maxNs, other.maxNs);
}

std::uint64_t SparseLatencyHistogram::count() const noexcept
{
    std::uint64_t total = 0;
    for (const auto c : counts)
        total += c;
    return total;
}

} // namespace ioprism::core
