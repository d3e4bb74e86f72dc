// SPDX-License-Identifier: GPL-3.0-or-later
// Counters a worker bumps on its hot path and the sampler reads concurrently.
//
// Locking rule: exactly ONE writer (the worker thread that owns the target) and any
// number of readers. Every field is a std::atomic accessed with relaxed order; the
// writer uses load + store (no locked read-modify-write: it is the only writer), so
// bumping costs what a plain increment costs. Values are cumulative; the sampler turns
// two snapshots into a delta, so a reader never resets anything the writer owns except
// the per-interval extremes, which AtomicLatencyHistogram hands over with an exchange.
// A snapshot may see an I/O in one field and not yet in another; it is then counted in
// the next interval, never lost.
#pragma once

#include "core/io_direction.h"
#include "core/stats/figures.h"
#include "core/stats/histogram.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace ioprism::core {

class RelaxedCounter
{
public:
    void add(std::uint64_t d)
    {
        m_v.store(m_v.load(std::memory_order_relaxed) + d, std::memory_order_relaxed);
    }
    std::uint64_t load() const { return m_v.load(std::memory_order_relaxed); }

private:
    std::atomic<std::uint64_t> m_v {0};
};

struct LiveDirection {
    AtomicLatencyHistogram histogram;
    RelaxedCounter bytes;
    RelaxedCounter errors;
};

struct LivePhase {
    AtomicLatencyHistogram histogram;
    RelaxedCounter errors;
};

// A target's opens, closes and connections (ConnectionMeasurement).
struct LiveConnections {
    LivePhase open;
    LivePhase close;
    LivePhase connection;
};

// One worker's counters for one target.
struct LiveTargetCounters {
    LiveDirection read;
    LiveDirection write;
    // Made by the run for targets that open and close files while measured; null else.
    std::unique_ptr<LiveConnections> connections;
    RelaxedCounter transactions;
    std::atomic<std::uint32_t> inFlight {0}; // submitted, not yet completed
    // One entry per outstanding-I/O slot of this target: 0 while the slot is idle, else
    // the submit time (the worker's steady clock, ns) with the lowest bit set for a
    // write. The worker stores at submit and at completion; the sampler reads it to see
    // how long the oldest I/O has been in flight (takeInFlight), which the completions
    // alone never show while a device is stuck.
    std::vector<std::atomic<std::int64_t>> inFlightSince;

    LiveDirection &direction(IoDirection d) { return d == IoDirection::Read ? read : write; }
};

// Reads the cumulative counters and takes (resets) the interval extremes.
void takeSnapshot(LiveTargetCounters &live, Measurement &out);

// The encoding of an inFlightSince entry, in one place: 0 is an idle slot; otherwise the
// submit time with its lowest bit replaced by the direction (1 = write). A submit time
// is never 0 or 1 on the steady clock, and losing its lowest nanosecond costs nothing.
inline std::int64_t encodeInFlight(std::int64_t submitNs, IoDirection direction)
{
    return (submitNs & ~std::int64_t(1)) | (direction == IoDirection::Write ? 1 : 0);
}
inline std::int64_t inFlightSubmitNs(std::int64_t entry)
{
    return entry & ~std::int64_t(1);
}
inline IoDirection inFlightDirection(std::int64_t entry)
{
    return (entry & 1) ? IoDirection::Write : IoDirection::Read;
}

// The I/O in flight at `nowNs` (same clock as the worker's stamps): the oldest age per
// direction and how many are older than stallNs (0: count none).
void takeInFlight(
    const LiveTargetCounters &live, std::int64_t nowNs, std::int64_t stallNs, Measurement &out);

// later - earlier for counts, bytes and histograms; extremes come from `later` (they
// were taken per interval); outstanding and the in-flight figures from `later`.
Measurement deltaOf(const Measurement &earlier, const Measurement &later);

} // namespace ioprism::core
