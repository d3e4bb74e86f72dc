// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/latency_heat_map.h"

#include "ui/plots/qcp_library.h"
#include "ui/plots/series_axes.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ioprism::ui {

namespace {

double bandLowUs(std::uint32_t band)
{
    return core::latencyBandLowNs(band) / 1e3;
}

} // namespace

LatencyHeatMap::LatencyHeatMap(QCustomPlot *plot, std::size_t maxIntervals)
    : m_maxIntervals(maxIntervals)
{
    const QString layer = QStringLiteral("heatmap");
    if (!plot->layer(layer))
        plot->addLayer(layer, plot->layer(QStringLiteral("main")), QCustomPlot::limBelow);
    m_map = new QCPColorMap(plot->xAxis, plot->yAxis);
    m_map->setLayer(layer);
    m_map->setName(QObject::tr("I/Os by latency"));
    m_map->removeFromLegend();
    m_map->setGradient(heatGradient());
    m_map->setDataScaleType(QCPAxis::stLogarithmic);
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false);
    m_map->setSelectable(QCP::stNone);
    m_map->setAntialiased(false);
}

void LatencyHeatMap::clear()
{
    m_intervals.clear();
    m_map->data()->clear();
    m_dirty = false;
}

void LatencyHeatMap::addInterval(
    double startSeconds, double endSeconds, const core::LatencyBands &bands)
{
    if (!(endSeconds > startSeconds)
        || (!m_intervals.empty() && startSeconds < m_intervals.back().startSeconds))
        return; // no span, or out of order (a new run without clear())
    m_intervals.push_back({startSeconds, endSeconds, bands});
    if (m_intervals.size() > m_maxIntervals + m_maxIntervals / 10)
        m_intervals.erase(
            m_intervals.begin(), m_intervals.end() - static_cast<std::ptrdiff_t>(m_maxIntervals));
    m_dirty = true;
}

void LatencyHeatMap::setVisible(bool visible)
{
    m_map->setVisible(visible);
}

bool LatencyHeatMap::isVisible() const
{
    return m_map->visible();
}

void LatencyHeatMap::update()
{
    if (!m_dirty || !isVisible())
        return;
    m_dirty = false;
    QCPColorMapData *data = m_map->data();
    std::uint32_t low = std::numeric_limits<std::uint32_t>::max(), high = 0;
    std::vector<double> lengths;
    lengths.reserve(m_intervals.size());
    for (const auto &interval : m_intervals) {
        lengths.push_back(interval.endSeconds - interval.startSeconds);
        if (interval.bands.empty())
            continue;
        low = std::min(low, interval.bands.first);
        high = std::max(high, interval.bands.last());
    }
    if (low > high) {
        data->clear();
        return;
    }
    high = std::max(high, low + 1); // two rows at least: one row has no height in QCP
    // The median interval: a step's short last interval does not shrink the cells.
    const auto middle = lengths.begin() + static_cast<std::ptrdiff_t>(lengths.size() / 2);
    std::nth_element(lengths.begin(), middle, lengths.end());
    const double typicalSeconds = *middle;
    const double t0 = m_intervals.front().startSeconds;
    const double t1 = std::max_element(
        m_intervals.begin(), m_intervals.end(), [](const Interval &a, const Interval &b) {
            return a.endSeconds < b.endSeconds;
        })->endSeconds;
    // Clamped as a double: a tiny interval must not overflow the int.
    const int cells = static_cast<int>(
        std::clamp(std::round((t1 - t0) / typicalSeconds), 2.0, double(kMaxCells)));
    const double cellSeconds = (t1 - t0) / cells;
    const int rows = static_cast<int>(high - low + 1);
    m_gridStartSeconds = t0;
    m_cellSeconds = cellSeconds;
    m_lowBand = low;
    data->setSize(cells, rows);
    // QCP puts the first and last cells' centres on the range's ends and extends the
    // image by half a cell in pixels: the centres of the lowest and highest bands (their
    // geometric middles on the log axis) make it span exactly [t0, t1] and [low edge,
    // high edge], each row a band.
    const double halfBandRatio = std::exp2(0.5 / core::kLatencyBandsPerOctave);
    data->setRange(QCPRange(t0 + cellSeconds / 2, t1 - cellSeconds / 2),
        QCPRange(bandLowUs(low) * halfBandRatio, bandLowUs(high) * halfBandRatio));
    data->fill(std::numeric_limits<double>::quiet_NaN());
    double most = 1;
    for (const auto &interval : m_intervals) {
        if (interval.bands.empty())
            continue;
        const double length = interval.endSeconds - interval.startSeconds;
        const int first = std::clamp(
            static_cast<int>(std::floor((interval.startSeconds - t0) / cellSeconds)), 0, cells - 1);
        const int last
            = std::clamp(static_cast<int>(std::ceil((interval.endSeconds - t0) / cellSeconds)),
                first + 1, cells);
        for (int k = first; k < last; ++k) {
            const double overlap = std::min(interval.endSeconds, t0 + (k + 1) * cellSeconds)
                - std::max(interval.startSeconds, t0 + k * cellSeconds);
            if (!(overlap > 0))
                continue;
            const double share = overlap / length;
            for (std::size_t b = 0; b < interval.bands.counts.size(); ++b) {
                if (interval.bands.counts[b] == 0)
                    continue;
                const int row = static_cast<int>(interval.bands.first + b - low);
                const double before = data->cell(k, row);
                const double value
                    = (std::isnan(before) ? 0 : before) + double(interval.bands.counts[b]) * share;
                data->setCell(k, row, value);
                most = std::max(most, value);
            }
        }
    }
    m_map->setDataRange(QCPRange(1, std::max(most, 2.0)));
}

double LatencyHeatMap::drawnValue(double seconds, double latencyUs) const
{
    QCPColorMapData *data = m_map->data(); // cell() is not const in QCP
    const double column = std::floor((seconds - m_gridStartSeconds) / m_cellSeconds);
    const double row = double(core::latencyBandOf(latencyUs * 1e3)) - double(m_lowBand);
    if (!(column >= 0 && column < data->keySize() && row >= 0 && row < data->valueSize()))
        return std::numeric_limits<double>::quiet_NaN();
    return data->cell(static_cast<int>(column), static_cast<int>(row));
}

std::optional<std::pair<double, double>> LatencyHeatMap::latencyRangeUs(
    double lowerSeconds, double upperSeconds) const
{
    std::uint32_t low = std::numeric_limits<std::uint32_t>::max(), high = 0;
    for (const auto &interval : m_intervals) {
        if (interval.bands.empty() || interval.endSeconds < lowerSeconds
            || interval.startSeconds > upperSeconds)
            continue;
        low = std::min(low, interval.bands.first);
        high = std::max(high, interval.bands.last());
    }
    if (low > high)
        return std::nullopt;
    return std::pair {bandLowUs(low), bandLowUs(high + 1)};
}

std::optional<LatencyHeatMap::BandCount> LatencyHeatMap::intervalBandAt(
    double endSeconds, double latencyUs) const
{
    const auto it = std::find_if(m_intervals.begin(), m_intervals.end(),
        [&](const Interval &i) { return std::abs(i.endSeconds - endSeconds) < 1e-9; });
    if (it == m_intervals.end() || !(latencyUs > 0))
        return std::nullopt;
    const std::uint32_t band = core::latencyBandOf(latencyUs * 1e3);
    const std::uint64_t ios = it->bands.countIn(band);
    if (ios == 0)
        return std::nullopt;
    return BandCount {bandLowUs(band), bandLowUs(band + 1), ios};
}

} // namespace ioprism::ui
