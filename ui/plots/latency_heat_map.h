// SPDX-License-Identifier: GPL-3.0-or-later
// The latency heat map behind the Live page's latency percentiles
// (core/stats/latency_map.h): each interval's I/Os by latency band as color, time on x,
// the latency plot's log axis (µs) on y, so that a stall, garbage collection or a write
// cliff shows as the distribution moving, not only as a percentile line.
//
// How it is drawn: a QCPColorMap of uniform cells, rebuilt before a frame when intervals
// came in (at most four frames a second: FramePacer) and it is shown. Its rows are the
// bands: QCP 2.1 spaces rows evenly in pixels between the pixels of the first and last
// rows' centres, and since the axis is logarithmic, equal rows in pixels are equal ratios
// of latency, as the bands are (2^(1/4) each). Its cells are as long as the typical (the
// median) interval, at most kMaxCells across; each interval gives each cell it overlaps
// the share of its I/Os that the overlap is of its length, so a cell holds its band's
// I/Os over its stretch of time, about one sampling interval's: one color is one rate
// anywhere, whatever the intervals' lengths (a step's short last interval, a long run's
// merged ones read back). Cells without I/O are transparent. Colors are on a log scale
// from one I/O to the fullest cell, in the heat maps' colors (core::kHeatColorStops).
#pragma once

#include "core/stats/latency_map.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

class QCustomPlot;
class QCPColorMap;

namespace ioprism::ui {

class LatencyHeatMap
{
public:
    static constexpr int kMaxCells = 4000; // across the map's width

    // On `plot`'s x axis (s) and y axis (µs, logarithmic), on a layer of its own between
    // the grid and the graphs, outside the legend; the newest `maxIntervals` are kept (the
    // graphs' own limit), trimmed in chunks as the graphs are.
    LatencyHeatMap(QCustomPlot *plot, std::size_t maxIntervals);

    void clear();
    void addInterval(double startSeconds, double endSeconds, const core::LatencyBands &bands);
    void setVisible(bool visible);
    bool isVisible() const;
    // Before a frame: the map's cells from the kept intervals, when they changed and it is
    // shown.
    void update();

    // The latencies (µs, band edges) with I/O in the intervals that overlap
    // [lowerSeconds, upperSeconds]; nullopt when none did.
    std::optional<std::pair<double, double>> latencyRangeUs(
        double lowerSeconds, double upperSeconds) const;
    // The I/Os of the interval that ended at `endSeconds` (the hover's interval) in the
    // band holding `latencyUs`; nullopt when it has none there.
    struct BandCount {
        double lowUs = 0;
        double highUs = 0;
        std::uint64_t ios = 0;
    };
    std::optional<BandCount> intervalBandAt(double endSeconds, double latencyUs) const;

    // For tests: what the cell at (`seconds`, `latencyUs`) holds as drawn (after
    // update()), NaN where there is no I/O (QCPColorMapData::coordToCell cannot tell: it
    // spaces rows evenly in µs, the map in log µs); the intervals kept; the plottable.
    double drawnValue(double seconds, double latencyUs) const;
    int intervalCount() const { return static_cast<int>(m_intervals.size()); }
    QCPColorMap *colorMap() const { return m_map; }

private:
    struct Interval {
        double startSeconds = 0;
        double endSeconds = 0;
        core::LatencyBands bands;
    };
    std::deque<Interval> m_intervals;
    std::size_t m_maxIntervals;
    QCPColorMap *m_map = nullptr;
    bool m_dirty = false;
    // The grid as last drawn: the first cell's start, a cell's length, the lowest band.
    double m_gridStartSeconds = 0;
    double m_cellSeconds = 1;
    std::uint32_t m_lowBand = 0;
};

} // namespace ioprism::ui
