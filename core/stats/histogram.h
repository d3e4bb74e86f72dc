// SPDX-License-Identifier: GPL-3.0-or-later
// Latency histograms: the log-linear histogram behind every percentile and heat map,
// Iometer's 21 fixed bins, and the single-writer atomic variant a worker records into
// while the sampler reads it.
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

namespace ioprism::core {

// ---------------------------------------------------------------- Iometer's bins

// Iometer's latency histogram, counted exactly from the recorded values (never derived
// from the log-linear buckets, whose edges do not fall on Iometer's).
//
// Edges: every bin is [lower edge, next lower edge): the lower edge is inclusive and the
// upper edge exclusive, so exactly 50 us lands in "50-100 us" and exactly 10 s lands in
// ">= 10 s", the last bin, which holds every value of 10 s or more. (Iometer's own
// code mishandled this last bin; here nothing is lost: the bins always sum to the
// number of recorded values.)
struct IometerBins {
    static constexpr std::size_t kBinCount = 21;

    // Lower edge of each bin in nanoseconds; bin i is [kLowerEdgesNs[i], kLowerEdgesNs[i+1]).
    static constexpr std::array<std::uint64_t, kBinCount> kLowerEdgesNs = {
        0ULL, // 0-50 us
        50'000ULL, // 50-100 us
        100'000ULL, // 100-200 us
        200'000ULL, // 200-500 us
        500'000ULL, // 0.5-1 ms
        1'000'000ULL, // 1-2 ms
        2'000'000ULL, // 2-5 ms
        5'000'000ULL, // 5-10 ms
        10'000'000ULL, // 10-15 ms
        15'000'000ULL, // 15-20 ms
        20'000'000ULL, // 20-30 ms
        30'000'000ULL, // 30-50 ms
        50'000'000ULL, // 50-100 ms
        100'000'000ULL, // 100-200 ms
        200'000'000ULL, // 200-500 ms
        500'000'000ULL, // 0.5-1 s
        1'000'000'000ULL, // 1-2 s
        2'000'000'000ULL, // 2-4.7 s
        4'700'000'000ULL, // 4.7-5 s
        5'000'000'000ULL, // 5-10 s
        10'000'000'000ULL, // >= 10 s
    };

    std::array<std::uint64_t, kBinCount> counts {};

    // Branch-free: counts the edges at or below ns (the compiler vectorises it), which
    // is as fast as a binary search on 20 edges and has no unpredictable branch.
    static constexpr std::size_t binIndex(std::uint64_t ns) noexcept
    {
        std::size_t index = 0;
        for (std::size_t i = 1; i < kBinCount; ++i)
            index += ns >= kLowerEdgesNs[i] ? 1 : 0;
        return index;
    }
    static constexpr std::uint64_t lowerEdgeNs(std::size_t bin) noexcept
    {
        return kLowerEdgesNs[bin];
    }
    // Exclusive upper edge; the last bin has none (UINT64_MAX).
    static constexpr std::uint64_t upperEdgeNs(std::size_t bin) noexcept
    {
        return bin + 1 < kBinCount ? kLowerEdgesNs[bin + 1]
                                   : std::numeric_limits<std::uint64_t>::max();
    }
    // ASCII label for reports and CSV headers, e.g. "0-50us", "4.7-5s", ">=10s".
    static std::string_view label(std::size_t bin) noexcept;

    void record(std::uint64_t ns) noexcept { ++counts[binIndex(ns)]; }
    void merge(const IometerBins &other) noexcept;
    // Removes an earlier cumulative snapshot of the same counters (counts saturate at 0
    // if `earlier` is not a prefix of this one, which is a caller bug).
    void subtract(const IometerBins &earlier) noexcept;
    void clear() noexcept { counts = {}; }
    std::uint64_t total() const noexcept;

    friend bool operator==(const IometerBins &, const IometerBins &) = default;
};

// ---------------------------------------------------------------- log-linear histogram

// Log-linear latency histogram over nanoseconds (the HdrHistogram / fio layout).
//
// Layout. Let M = kSubBucketBits = 6. Values below 2^(M+1) = 128 ns each get their own
// bucket (exact). A value v >= 128 with highest set bit b (2^b <= v < 2^(b+1), b >= 7)
// falls in the power-of-two range [2^b, 2^(b+1)), which is split into 2^M = 64 linear
// sub-buckets of width w = 2^(b-M). With shift s = max(bit_width(v), M+1) - (M+1) the
// index is s * 64 + (v >> s): one bit_width, one max and one shift, no table.
//
// Error bound. A bucket of width w = 2^s (s >= 1) starts at low = m * 2^s with
// 64 <= m < 128, so every value v in it satisfies v >= low >= 64 w. Reporting the
// bucket's midpoint (low + high) / 2 with high = low + w - 1 is off by at most
// (w - 1) / 2 < w / 2, so the relative error is below (w / 2) / (64 w) = 1 / 2^(M+1)
// = 1/128 < 0.79 %. Buckets below 128 ns have width 1 and are exact. The bound holds for
// every percentile, since the value at a given rank lies in the bucket that the rank
// falls in, and clamping the midpoint to [min, max] only moves it closer.
//
// Range. Values up to kMaxTrackedNs = 2^43 - 1 ns (about 2 h 26 min) are bucketed as
// above (2432 buckets, 19 KiB); larger values are counted in the last bucket, where the
// bound no longer holds, but sum, mean and max stay exact.
//
// Not thread-safe: one writer, or copies. See AtomicLatencyHistogram for live reading.
class LatencyHistogram
{
public:
    static constexpr unsigned kSubBucketBits = 6; // M
    static constexpr std::uint64_t kSubBucketCount = 1ULL << kSubBucketBits; // 64
    static constexpr unsigned kMaxValueBits = 43;
    static constexpr std::uint64_t kMaxTrackedNs = (1ULL << kMaxValueBits) - 1;
    static constexpr std::size_t kBucketCount
        = (kMaxValueBits - kSubBucketBits + 1) * kSubBucketCount;
    // Relative error bound of percentileNs() for values up to kMaxTrackedNs.
    static constexpr double kRelativeErrorBound = 1.0 / (2 * kSubBucketCount);

    static constexpr std::size_t bucketIndex(std::uint64_t ns) noexcept
    {
        const std::uint64_t v = ns < kMaxTrackedNs ? ns : kMaxTrackedNs;
        const unsigned width = static_cast<unsigned>(std::bit_width(v));
        const unsigned shift
            = (width > kSubBucketBits + 1 ? width : kSubBucketBits + 1) - (kSubBucketBits + 1);
        return static_cast<std::size_t>(shift * kSubBucketCount + (v >> shift));
    }
    // Smallest value that maps to bucket i.
    static constexpr std::uint64_t bucketLow(std::size_t i) noexcept
    {
        if (i < 2 * kSubBucketCount)
            return i;
        const unsigned shift = static_cast<unsigned>(i / kSubBucketCount - 1);
        return (i % kSubBucketCount + kSubBucketCount) << shift;
    }
    // Largest value that maps to bucket i (inclusive). For the last bucket this is
    // kMaxTrackedNs, although larger values are counted there too.
    static constexpr std::uint64_t bucketHigh(std::size_t i) noexcept
    {
        if (i < 2 * kSubBucketCount)
            return i;
        const unsigned shift = static_cast<unsigned>(i / kSubBucketCount - 1);
        return ((i % kSubBucketCount + kSubBucketCount + 1) << shift) - 1;
    }
    static constexpr double bucketMidpoint(std::size_t i) noexcept
    {
        return (static_cast<double>(bucketLow(i)) + static_cast<double>(bucketHigh(i))) / 2.0;
    }

    // Hot path: no allocation; the only branches are the min/max updates (cmov).
    void record(std::uint64_t ns) noexcept
    {
        ++m_buckets[bucketIndex(ns)];
        ++m_count;
        m_sumNs += ns;
        m_minNs = ns < m_minNs ? ns : m_minNs;
        m_maxNs = ns > m_maxNs ? ns : m_maxNs;
    }

    std::uint64_t count() const noexcept { return m_count; }
    // Exact sum of the recorded values (wraps only after 584 years of latency).
    std::uint64_t sumNs() const noexcept { return m_sumNs; }
    // Exact extremes; 0 when empty. After subtract(), see there.
    std::uint64_t minNs() const noexcept { return m_count ? m_minNs : 0; }
    std::uint64_t maxNs() const noexcept { return m_maxNs; }
    double meanNs() const noexcept
    {
        return m_count ? static_cast<double>(m_sumNs) / static_cast<double>(m_count) : 0.0;
    }
    bool empty() const noexcept { return m_count == 0; }

    // The value at percentile p (0..100, clamped), nearest-rank definition: the value of
    // rank ceil(p/100 * count) in sorted order, reported as its bucket's midpoint clamped
    // to [min, max] (relative error < kRelativeErrorBound). p <= 0 gives min and
    // p >= 100 gives max, exactly. 0 when empty.
    double percentileNs(double p) const noexcept;

    std::uint64_t bucketCount(std::size_t i) const noexcept { return m_buckets[i]; }

    // Adds every value recorded in `other`: the result equals recording both streams.
    void merge(const LatencyHistogram &other) noexcept;

    // Turns a cumulative snapshot into the delta since `earlier`, an older snapshot of
    // the same histogram: bucket counts, count and sum become exact deltas (each
    // saturates at 0 if `earlier` is not a prefix, which is a caller bug).
    // Extremes cannot be subtracted: min and max keep this (later) snapshot's values,
    // which still bound every value of the delta (min <= delta min, max >= delta max),
    // so percentiles keep their error bound. Callers that know the exact per-interval
    // extremes (AtomicLatencyHistogram::takeIntervalMinNs/MaxNs) set them with
    // setMinMaxNs(). A delta with no values is reset to the empty state.
    void subtract(const LatencyHistogram &earlier) noexcept;

    // Replaces the extremes (ignored when empty); see subtract().
    void setMinMaxNs(std::uint64_t minNs, std::uint64_t maxNs) noexcept;
    // Makes a span's extremes, taken apart from its buckets (AtomicLatencyHistogram's
    // per-interval ones), agree with the buckets, and sets them as this histogram's: a
    // value recorded while the sampler read may have its bucket in one interval and its
    // extreme in the next. Each extreme is clamped into the extreme non-empty bucket, so
    // it stays within that bucket's width of the truth, and an empty delta has none
    // (UINT64_MAX, 0). Every delta fitted this way keeps min >= the lowest bucket's low
    // edge, which merges preserve, and which is how a results file's reader rebuilds a
    // histogram's extremes: a run reads back equal to itself whatever the timing.
    void fitExtremes(std::uint64_t &minNs, std::uint64_t &maxNs) noexcept;

    // Adds `count` values to the bucket that holds [lowNs, highNs], for rebuilding a
    // histogram from a results file, which keeps only the non-empty buckets (not the
    // values). The sum and extremes are not known from buckets: set them afterwards with
    // setSumNs() and setMinMaxNs(). False, and nothing changed, when [lowNs, highNs] is
    // not exactly one bucket of this layout or the counts would overflow.
    bool addBucket(std::uint64_t lowNs, std::uint64_t highNs, std::uint64_t count) noexcept;
    // Replaces the exact sum of the values (ignored when empty); see addBucket().
    void setSumNs(std::uint64_t sumNs) noexcept;

    void clear() noexcept;

    // Iteration over non-empty buckets, in increasing value order (heat maps, JSON).
    struct Bucket {
        std::size_t index;
        std::uint64_t lowNs; // inclusive
        std::uint64_t highNs; // inclusive
        std::uint64_t count;
        friend bool operator==(const Bucket &, const Bucket &) = default;
    };
    template<class Function> void forEachNonEmptyBucket(Function &&function) const
    {
        for (std::size_t i = 0; i < kBucketCount; ++i)
            if (m_buckets[i] != 0)
                function(Bucket {i, bucketLow(i), bucketHigh(i), m_buckets[i]});
    }
    std::vector<Bucket> nonEmptyBuckets() const;

    friend bool operator==(const LatencyHistogram &, const LatencyHistogram &) = default;

private:
    friend class AtomicLatencyHistogram;

    std::array<std::uint64_t, kBucketCount> m_buckets {};
    std::uint64_t m_count = 0;
    std::uint64_t m_sumNs = 0;
    std::uint64_t m_minNs = std::numeric_limits<std::uint64_t>::max(); // max when empty
    std::uint64_t m_maxNs = 0;
};

// A LatencyHistogram as its non-empty buckets, with its sum and its exact extremes: the
// same counts in a few hundred bytes instead of 19 KiB. What an interval keeps of its
// latencies (IntervalSample) and what crosses to another host: merged bucket by bucket,
// the percentiles of the union are exact, as if one histogram had seen every I/O (a
// cluster's p99 is never an average of p99s).
struct SparseLatencyHistogram {
    std::vector<std::uint32_t> indices; // LatencyHistogram bucket indices, ascending
    std::vector<std::uint64_t> counts; // one per index, never 0
    std::uint64_t sumNs = 0;
    std::uint64_t minNs = std::numeric_limits<std::uint64_t>::max(); // max when empty
    std::uint64_t maxNs = 0;

    // `minNs`/`maxNs`: the span's exact extremes (a histogram's own are those of what it
    // recorded, which a delta of two snapshots does not know).
    static SparseLatencyHistogram of(
        const LatencyHistogram &histogram, std::uint64_t minNs, std::uint64_t maxNs);
    LatencyHistogram dense() const;
    void merge(const SparseLatencyHistogram &other);
    std::uint64_t count() const noexcept;
    bool empty() const noexcept { return indices.empty(); }
    std::size_t approximateBytes() const noexcept
    {
        return sizeof(*this) + indices.size() * (sizeof(std::uint32_t) + sizeof(std::uint64_t));
    }
    friend bool operator==(const SparseLatencyHistogram &, const SparseLatencyHistogram &)
        = default;
};

// ---------------------------------------------------------------- live, single writer

// The worker's live histogram: written by ONE thread (the worker), read concurrently by
// any number of readers (the sampler).
//
// Locking rule: no lock. Every counter is a relaxed std::atomic. Because there is a
// single writer, the counters are bumped with a relaxed load + store (a plain add on
// x86/ARM, no lock prefix); a second writer would lose counts. Each counter only grows,
// and relaxed atomics are coherent per location, so a reader never sees a counter go
// backwards and deltas of successive snapshots are never negative. A snapshot is not
// atomic as a whole: values recorded while it is being read may appear in some counters
// and not yet in others (the snapshot's count is the sum of the buckets it read, so its
// percentiles stay consistent); once the writer is quiet, the snapshot is exact.
//
// Per-interval extremes are the exception: the sampler resets them with exchange(), so
// the writer updates them with a CAS, and only when it sees a new extreme (rare after the
// first few I/Os of an interval). A value recorded while the sampler takes the extremes
// may count toward the neighbouring interval's extremes.
class alignas(64) AtomicLatencyHistogram
{
public:
    // What takeIntervalMinNs() returns when nothing was recorded since the last take.
    static constexpr std::uint64_t kNoIntervalMin = std::numeric_limits<std::uint64_t>::max();
    // What takeIntervalMaxNs() returns when nothing was recorded since the last take.
    static constexpr std::uint64_t kNoIntervalMax = 0;

    AtomicLatencyHistogram() = default;
    AtomicLatencyHistogram(const AtomicLatencyHistogram &) = delete;
    AtomicLatencyHistogram &operator=(const AtomicLatencyHistogram &) = delete;

    // Writer thread only.
    void record(std::uint64_t ns) noexcept
    {
        bump(m_buckets[LatencyHistogram::bucketIndex(ns)], 1);
        bump(m_iometerBins[IometerBins::binIndex(ns)], 1);
        bump(m_count, 1);
        bump(m_sumNs, ns);
        if (ns < m_minNs.load(std::memory_order_relaxed))
            m_minNs.store(ns, std::memory_order_relaxed);
        if (ns > m_maxNs.load(std::memory_order_relaxed))
            m_maxNs.store(ns, std::memory_order_relaxed);
        std::uint64_t seen = m_intervalMinNs.load(std::memory_order_relaxed);
        while (ns < seen
            && !m_intervalMinNs.compare_exchange_weak(seen, ns, std::memory_order_relaxed)) { }
        seen = m_intervalMaxNs.load(std::memory_order_relaxed);
        while (ns > seen
            && !m_intervalMaxNs.compare_exchange_weak(seen, ns, std::memory_order_relaxed)) { }
    }

    // Any thread. Cumulative values since construction (or reset()); see the class
    // comment for consistency.
    void snapshotInto(LatencyHistogram &histogram, IometerBins &bins) const noexcept;
    // Number of values recorded so far (any thread).
    std::uint64_t count() const noexcept { return m_count.load(std::memory_order_relaxed); }

    // Any thread (normally the sampler, once per interval): the extreme recorded since
    // the previous take, resetting it. kNoIntervalMin / kNoIntervalMax when none.
    std::uint64_t takeIntervalMinNs() noexcept
    {
        return m_intervalMinNs.exchange(kNoIntervalMin, std::memory_order_relaxed);
    }
    std::uint64_t takeIntervalMaxNs() noexcept
    {
        return m_intervalMaxNs.exchange(kNoIntervalMax, std::memory_order_relaxed);
    }

    // Only while no thread records or reads (between runs).
    void reset() noexcept;

private:
    static void bump(std::atomic<std::uint64_t> &counter, std::uint64_t amount) noexcept
    {
        counter.store(counter.load(std::memory_order_relaxed) + amount, std::memory_order_relaxed);
    }

    std::array<std::atomic<std::uint64_t>, LatencyHistogram::kBucketCount> m_buckets {};
    std::array<std::atomic<std::uint64_t>, IometerBins::kBinCount> m_iometerBins {};
    std::atomic<std::uint64_t> m_count {0};
    std::atomic<std::uint64_t> m_sumNs {0};
    std::atomic<std::uint64_t> m_minNs {std::numeric_limits<std::uint64_t>::max()};
    std::atomic<std::uint64_t> m_maxNs {0};
    std::atomic<std::uint64_t> m_intervalMinNs {kNoIntervalMin};
    std::atomic<std::uint64_t> m_intervalMaxNs {kNoIntervalMax};
};

} // namespace ioprism::core
