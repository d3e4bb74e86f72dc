// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/latency_heat_map.h"

#include "ui/plots/qcp_library.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ioprism::ui {

namespace {

QCPColorGradient heatGradient()
{
    QCPColorGradient gradient;
    gradient.clearColorStops();
    for (const auto &stop : core::kHeatColourStops)
        gradient.setColorStopAt(stop.position, QColor(stop.red, stop.green, stop.blue));
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    return gradient;
}

double bandLowUs(std::uint32_t band)
{
    return core::latencyBandLowNs(band) / 1e3;
}

} // namespace

LatencyHeatMap::LatencyHeatMap(QCustomPlot *plot)
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
    m_columns.clear();
    m_map->data()->clear();
    m_dirty = false;
}

void LatencyHeatMap::addInterval(
    double startSeconds, double endSeconds, const core::LatencyBands &bands)
{
    if (!(endSeconds > startSeconds)
        || (!m_columns.empty() && startSeconds < m_columns.back().startSeconds))
        return; // no span, or out of order (a new run without clear())
    m_columns.push_back({startSeconds, endSeconds, bands});
    // Trimmed in chunks, as the graphs are, so that the cost per interval stays constant.
    if (m_columns.size() > kMaxColumns + kMaxColumns / 10)
        m_columns.erase(
            m_columns.begin(), m_columns.end() - static_cast<std::ptrdiff_t>(kMaxColumns));
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
    if (!m_dirty)
        return;
    m_dirty = false;
    QCPColorMapData *data = m_map->data();
    std::uint32_t low = std::numeric_limits<std::uint32_t>::max(), high = 0;
    double shortest = std::numeric_limits<double>::infinity();
    for (const auto &c : m_columns) {
        shortest = std::min(shortest, c.endSeconds - c.startSeconds);
        if (c.bands.empty())
            continue;
        low = std::min(low, c.bands.first);
        high = std::max(high, c.bands.last());
    }
    if (low > high) {
        data->clear();
        return;
    }
    high = std::max(high, low + 1); // two rows at least: one row has no height in QCP
    const double t0 = m_columns.front().startSeconds;
    const double t1 = m_columns.back().endSeconds;
    const int cells
        = std::clamp(static_cast<int>(std::ceil((t1 - t0) / shortest - 1e-6)), 2, kMaxCells);
    const double width = (t1 - t0) / cells;
    const int rows = static_cast<int>(high - low + 1);
    m_t0 = t0;
    m_columnSeconds = width;
    m_lowBand = low;
    data->setSize(cells, rows);
    // QCP puts the first and last cells' centres on the range's ends and extends the
    // image by half a cell in pixels: the centres of the lowest and highest bands (their
    // geometric middles on the log axis) make it span exactly [t0, t1] and [low edge,
    // high edge], each row a band.
    const double halfBand = std::exp2(0.5 / core::kLatencyBandsPerOctave);
    data->setRange(QCPRange(t0 + width / 2, t1 - width / 2),
        QCPRange(bandLowUs(low) * halfBand, bandLowUs(high) * halfBand));
    data->fill(std::numeric_limits<double>::quiet_NaN());
    double most = 1;
    for (const auto &c : m_columns) {
        if (c.bands.empty())
            continue;
        const int first = std::clamp(
            static_cast<int>(std::floor((c.startSeconds - t0) / width + 1e-6)), 0, cells - 1);
        const int last = std::clamp(
            static_cast<int>(std::ceil((c.endSeconds - t0) / width - 1e-6)), first + 1, cells);
        const double share = 1.0 / (last - first);
        for (std::size_t b = 0; b < c.bands.counts.size(); ++b) {
            if (c.bands.counts[b] == 0)
                continue;
            const int row = static_cast<int>(c.bands.first + b - low);
            for (int k = first; k < last; ++k) {
                const double before = data->cell(k, row);
                const double value
                    = (std::isnan(before) ? 0 : before) + double(c.bands.counts[b]) * share;
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
    const double column = std::floor((seconds - m_t0) / m_columnSeconds);
    const double row = double(core::latencyBandOf(latencyUs * 1e3)) - double(m_lowBand);
    if (!(column >= 0 && column < data->keySize() && row >= 0 && row < data->valueSize()))
        return std::numeric_limits<double>::quiet_NaN();
    return data->cell(static_cast<int>(column), static_cast<int>(row));
}

std::optional<std::pair<double, double>> LatencyHeatMap::latencyRangeUs(
    double lower, double upper) const
{
    std::uint32_t low = std::numeric_limits<std::uint32_t>::max(), high = 0;
    for (const auto &c : m_columns) {
        if (c.bands.empty() || c.endSeconds < lower || c.startSeconds > upper)
            continue;
        low = std::min(low, c.bands.first);
        high = std::max(high, c.bands.last());
    }
    if (low > high)
        return std::nullopt;
    return std::pair {bandLowUs(low), bandLowUs(high + 1)};
}

std::optional<LatencyHeatMap::Cell> LatencyHeatMap::cellAt(double seconds, double latencyUs) const
{
    const auto it = std::find_if(m_columns.begin(), m_columns.end(),
        [&](const Column &c) { return c.startSeconds <= seconds && seconds < c.endSeconds; });
    if (it == m_columns.end() || !(latencyUs > 0))
        return std::nullopt;
    const std::uint32_t band = core::latencyBandOf(latencyUs * 1e3);
    const std::uint64_t count = it->bands.countIn(band);
    if (count == 0)
        return std::nullopt;
    return Cell {bandLowUs(band), bandLowUs(band + 1), count};
}

} // namespace ioprism::ui
