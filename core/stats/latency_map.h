// SPDX-License-Identifier: GPL-3.0-or-later
// Latency over time: the distribution of each interval's latencies in coarse bands, the
// columns of a heat map (time on x, log latency on y, count as colour) in which a stall,
// garbage collection or a write cliff shows at a glance. Drawn on the Live page (behind
// the latency percentiles), in the HTML report, and kept in the results file.
//
// Bands are geometric: kLatencyBandsPerOctave per power of two, band b holding latencies
// in [2^(b/4), 2^((b+1)/4)) ns (b >= 0; latencies below 1 ns fall in band 0), so a log
// latency axis has every band the same height. They come from an interval's histograms
// (core/stats/histogram.h): each log-linear bucket is counted in the band of its midpoint.
// A bucket is at most 1/64 of its value wide, so a count sits at most one bucket (1.6 %)
// from its band; the counts add up to the interval's I/Os exactly.
#pragma once

#include "core/stats/histogram.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ioprism::core {

constexpr unsigned kLatencyBandsPerOctave = 4;
// The highest band a latency can fall in, with room: a histogram tracks latencies up to
// 2^43 ns (band 172, about 2 h 26 min); larger ones are counted at its top.
constexpr std::uint32_t kMaxLatencyBand = 255;

// The band a latency (or a histogram bucket's midpoint) falls in, at most kMaxLatencyBand.
std::uint32_t latencyBandOf(double ns);
// A band's lower edge, in ns (its upper edge is the next band's lower edge).
double latencyBandLowNs(std::uint32_t band);

// One interval's I/Os by band: counts[i] in band first + i, from the first non-empty band
// to the last (both non-empty, bands between may be 0); empty when nothing completed.
struct LatencyBands {
    std::uint32_t first = 0;
    std::vector<std::uint64_t> counts;

    bool empty() const { return counts.empty(); }
    std::uint32_t last() const { return first + static_cast<std::uint32_t>(counts.size()) - 1; }
    std::uint64_t total() const;
    std::uint64_t countIn(std::uint32_t band) const; // 0 outside [first, last]
    void add(std::uint32_t band, std::uint64_t count);
    void merge(const LatencyBands &other);
    friend bool operator==(const LatencyBands &, const LatencyBands &) = default;
};

// The bands of a histogram's I/Os.
LatencyBands latencyBandsOf(const SparseLatencyHistogram &histogram);

// The heat maps' colours, one scale for the GUI's (the latency map, the series matrix)
// and the report's: t in [0, 1] from the least to the most (the latency maps put counts
// on a log scale), through viridis' dark violet, blue, teal and green to yellow, a ramp
// that is perceptually even and stays readable in grey and for the common colour-vision
// deficiencies.
struct HeatColorStop {
    double position = 0; // 0 ... 1
    std::uint8_t red = 0;
    std::uint8_t green = 0;
    std::uint8_t blue = 0;
};
inline constexpr std::array<HeatColorStop, 5> kHeatColorStops {{
    {0.00, 68, 1, 84},
    {0.25, 59, 82, 139},
    {0.50, 33, 145, 140},
    {0.75, 94, 201, 98},
    {1.00, 253, 231, 37},
}};
// The color at t (clamped to [0, 1]), interpolated between the stops, as 0xRRGGBB.
std::uint32_t heatColor(double t);

} // namespace ioprism::core
