// SPDX-License-Identifier: GPL-3.0-or-later
// The latency heat map behind the Live page's latency percentiles
// (core/stats/latency_map.h): each interval's I/Os by latency band as colour, time on x,
// the latency plot's log axis (µs) on y, so that a stall, garbage collection or a write
// cliff shows as the distribution moving, not only as a percentile line.
//
// How it is drawn: a QCPColorMap of uniform cells, rebuilt before a frame when intervals
// came in (at most four frames a second: FramePacer). Its rows are the bands: QCP spaces
// rows evenly in pixels between the pixels of the first and last rows' centres, and since
// the axis is logarithmic, equal rows in pixels are equal ratios of latency, as the bands
// are (2^(1/4) each). Its columns are as long as the shortest interval (at most
// kMaxCells across): an interval spanning several (a long run's merged intervals, read
// back) spreads its counts evenly over them, several in one column add up, so a cell holds
// the I/Os of its band over its stretch of time and one colour is one rate anywhere. Cells
// without I/O are transparent. Counts are coloured on a log scale from 1 to the fullest
// cell, in the report's colours (kHeatColourStops).
#pragma once

#include "core/stats/latency_map.h"

#include <QtGlobal>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>

class QCustomPlot;
class QCPColorMap;
class QCPRange;

namespace ioprism::ui {

class LatencyHeatMap
{
public:
    static constexpr std::size_t kMaxColumns = 6000; // as the live graphs' points
    static constexpr int kMaxCells = 4000; // across the map's width

    // On `plot`'s x axis (s) and y axis (µs, logarithmic), on a layer of its own between
    // the grid and the graphs, outside the legend.
    explicit LatencyHeatMap(QCustomPlot *plot);

    void clear();
    void addInterval(double startSeconds, double endSeconds, const core::LatencyBands &bands);
    void setVisible(bool visible);
    bool isVisible() const;
    // Before a frame: the map's cells from the kept intervals, when they changed.
    void update();

    // The latencies (µs, band edges) with I/O in the intervals that overlap [lower, upper]
    // seconds; nullopt when none did.
    std::optional<std::pair<double, double>> latencyRangeUs(double lower, double upper) const;
    // The I/Os of the interval at `seconds` in the band holding `latencyUs`.
    struct Cell {
        double lowUs = 0;
        double highUs = 0;
        std::uint64_t count = 0;
    };
    std::optional<Cell> cellAt(double seconds, double latencyUs) const;

    // What the map's cell at (`seconds`, `latencyUs`) holds as drawn (after update()):
    // the I/Os of that band over the cell's time, NaN where there are none. (QCPColorMapData::coordToCell cannot
    // tell: it spaces rows evenly in µs, the map in log µs.)
    double drawnValue(double seconds, double latencyUs) const;

    QCPColorMap *colorMap() const { return m_map; }
    int intervalCount() const { return static_cast<int>(m_columns.size()); }

private:
    struct Column {
        double startSeconds = 0;
        double endSeconds = 0;
        core::LatencyBands bands;
    };
    std::deque<Column> m_columns;
    QCPColorMap *m_map = nullptr;
    bool m_dirty = false;
    // The grid as last drawn: the first column's start, a column's width, the lowest band.
    double m_t0 = 0;
    double m_columnSeconds = 1;
    std::uint32_t m_lowBand = 0;
};

} // namespace ioprism::ui
