// SPDX-License-Identifier: GPL-3.0-or-later
// The intervals a run keeps, within a memory budget.
//
// Every interval sample goes to the sink as it is made (the CLI line, the GUI, the
// streamed time-series file: full resolution, always). What RunResult keeps for the
// JSON results and the reports is bounded: when the kept samples would exceed the
// budget, adjacent samples of the same step and phase are merged pairwise, so a run of
// any length (a 24-hour run at 100 ms, `--duration 0`) keeps a fixed amount of memory
// and the resolution of its history halves each time it fills.
//
// Merging is exact for counts, bytes, rates, mean, minimum and maximum latency, CPU and
// device rates, awaits, queue size and utilisation (each is a sum, or a rate weighted by
// its own denominator). The All scope's latency histograms (IntervalSample::readLatency,
// writeLatency) are merged bucket by bucket, so All's percentiles stay exact. The other
// scopes keep no histogram per interval, and percentiles cannot be merged from figures:
// theirs are the larger of the two (an upper bound). `mergedIntervals` says how many
// sampling intervals a sample covers. Step totals never come from here: they merge
// histograms and stay exact.
#pragma once

#include "core/run/results.h"

#include <cstddef>
#include <vector>

namespace ioprism::core {

// Rough size of a kept sample: what the budget counts.
std::size_t approximateBytes(const IntervalSample &sample);

// The interval's latencies by band, the heat map's column: from its histograms when it
// has them (a run measured here, or merged from hosts), else as read back from a file.
LatencyBands intervalLatencyBands(const IntervalSample &sample);

// `later` follows `earlier` in the same step and phase: one sample over both spans.
IntervalSample mergeConsecutive(const IntervalSample &earlier, const IntervalSample &later);

class IntervalHistory
{
public:
    explicit IntervalHistory(std::size_t budgetBytes)
        : m_budgetBytes(budgetBytes)
    { }
    void add(IntervalSample sample);
    const std::vector<IntervalSample> &samples() const { return m_samples; }
    std::vector<IntervalSample> take() { return std::move(m_samples); }
    std::size_t bytes() const { return m_bytes; }

private:
    void halve();

    std::size_t m_budgetBytes;
    std::size_t m_bytes = 0;
    std::vector<IntervalSample> m_samples;
};

} // namespace ioprism::core
