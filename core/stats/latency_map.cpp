// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/latency_map.h"

#include <algorithm>
#include <cmath>

namespace ioprism::core {

std::uint32_t latencyBandOf(double ns)
{
    if (!(ns >= 1))
        return 0;
    // A hair above the product: a band's own lower edge, 2^(b/4) computed, lands in b.
    const double band = std::floor(std::log2(ns) * kLatencyBandsPerOctave + 1e-9);
    return static_cast<std::uint32_t>(std::min(band, double(kMaxLatencyBand)));
}

double latencyBandLowNs(std::uint32_t band)
{
    return std::exp2(double(band) / kLatencyBandsPerOctave);
}

std::uint64_t LatencyBands::total() const
{
    std::uint64_t sum = 0;
    for (const auto c : counts)
        sum += c;
    return sum;
}

std::uint64_t LatencyBands::countIn(std::uint32_t band) const
{
    return empty() || band < first || band > last() ? 0 : counts[band - first];
}

void LatencyBands::add(std::uint32_t band, std::uint64_t count)
{
    if (count == 0)
        return;
    if (empty()) {
        first = band;
        counts.assign(1, count);
        return;
    }
    if (band < first) {
        counts.insert(counts.begin(), first - band, 0);
        first = band;
    } else if (band > last()) {
        counts.resize(band - first + 1, 0);
    }
    counts[band - first] += count;
}

void LatencyBands::merge(const LatencyBands &other)
{
    for (std::size_t i = 0; i < other.counts.size(); ++i)
        add(other.first + static_cast<std::uint32_t>(i), other.counts[i]);
}

LatencyBands latencyBandsOf(const SparseLatencyHistogram &histogram)
{
    LatencyBands bands;
    // As dense() does: a histogram from another host is only as long as its shorter
    // list, and an index past the layout has no bucket (never made here).
    const std::size_t n = std::min(histogram.indices.size(), histogram.counts.size());
    for (std::size_t i = 0; i < n; ++i)
        if (histogram.indices[i] < LatencyHistogram::kBucketCount)
            bands.add(latencyBandOf(LatencyHistogram::bucketMidpoint(histogram.indices[i])),
                histogram.counts[i]);
    return bands;
}

std::uint32_t heatColor(double t)
{
    t = std::isnan(t) ? 0 : std::clamp(t, 0.0, 1.0);
    std::size_t upper = 1;
    while (upper + 1 < kHeatColorStops.size() && kHeatColorStops[upper].position < t)
        ++upper;
    const HeatColorStop &a = kHeatColorStops[upper - 1];
    const HeatColorStop &b = kHeatColorStops[upper];
    const double f = (t - a.position) / (b.position - a.position);
    const auto mix = [f](std::uint8_t x, std::uint8_t y) {
        return static_cast<std::uint32_t>(std::lround(x + (double(y) - x) * f));
    };
    return mix(a.red, b.red) << 16 | mix(a.green, b.green) << 8 | mix(a.blue, b.blue);
}

} // namespace ioprism::core
