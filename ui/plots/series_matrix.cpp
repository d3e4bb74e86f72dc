// SPDX-License-Identifier: GPL-3.0-or-later
// SeriesPlots, two axes: the heat map of a matrix, the family of curves beside it, and
// the figures of a cell on hover.
#include "ui/format.h"
#include "ui/plots/qcp_library.h"
#include "ui/plots/series_axes.h"
#include "ui/plots/series_plot.h"
#include "ui/style.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace ioprism::ui {

namespace {

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();
// Cells of a heat map up to this many per side carry their value as text.
constexpr std::size_t kMaxLabelledCells = 12;

// A cell's figure in a few characters: "153k", "1,234", "85 µs".
QString cellLabel(SeriesPlots::Metric metric, double value)
{
    const QLocale locale;
    switch (metric) {
    case SeriesPlots::IopsMetric:
    case SeriesPlots::FilesMetric:
        if (value >= 1e6)
            return locale.toString(value / 1e6, 'f', value >= 1e7 ? 0 : 1) + QLatin1Char('M');
        if (value >= 1e4)
            return locale.toString(value / 1e3, 'f', 0) + QLatin1Char('k');
        if (value >= 1e3)
            return locale.toString(value / 1e3, 'f', 1) + QLatin1Char('k');
        return locale.toString(value, 'f', 0);
    case SeriesPlots::MegabytesMetric:
        return locale.toString(value, 'f', value >= 100 ? 0 : 1);
    case SeriesPlots::P99Metric:
    case SeriesPlots::OperationP99Metric:
        return latencyText(value);
    }
    return {};
}

QString statText(const core::TrialStat &s, const std::function<QString(double)> &text, bool range)
{
    if (!range || s.min == s.max)
        return text(s.median);
    return SeriesPlots::tr("%1 (%2 – %3)").arg(text(s.median), text(s.min), text(s.max));
}

} // namespace

double SeriesPlots::metricValue(const core::SeriesPointResult &point) const
{
    switch (m_metric) {
    case IopsMetric:
        return point.iops.median;
    case MegabytesMetric:
        return point.megabytesPerSecond.median;
    case P99Metric:
        return point.p99LatencyUs.median > 0 ? point.p99LatencyUs.median : kNoValue;
    case FilesMetric:
        return point.connectionsValid ? point.filesPerSecond.median : kNoValue;
    case OperationP99Metric:
        return point.connectionsValid && point.operationP99Us.median > 0
            ? point.operationP99Us.median
            : kNoValue;
    }
    return kNoValue;
}

const core::TrialStat &SeriesPlots::metricStat(const core::SeriesPointResult &point) const
{
    switch (m_metric) {
    case IopsMetric:
        break;
    case MegabytesMetric:
        return point.megabytesPerSecond;
    case P99Metric:
        return point.p99LatencyUs;
    case FilesMetric:
        return point.filesPerSecond;
    case OperationP99Metric:
        return point.operationP99Us;
    }
    return point.iops;
}

QString SeriesPlots::metricLabel() const
{
    switch (m_metric) {
    case IopsMetric:
        return tr("IOPS");
    case MegabytesMetric:
        return tr("MB/s");
    case P99Metric:
        return tr("p99 latency");
    case FilesMetric:
        return tr("files/s");
    case OperationP99Metric:
        return tr("operation p99 latency");
    }
    return {};
}

void SeriesPlots::drawMatrix()
{
    resetPlot(HeatMapPlot);
    resetPlot(CurvesPlot);
    m_matrixCurves.clear();
    m_colorMap = nullptr;
    m_cells.clear();
    if (m_data.families.empty()) {
        // Nothing ran yet: the empty matrix, its axes already labelled.
        drawHeatMap(SeriesFamily {});
        drawMatrixCurves(SeriesFamily {});
        return;
    }
    const auto &family = m_data.families[std::size_t(
        std::clamp(m_family, 0, static_cast<int>(m_data.families.size()) - 1))];
    drawHeatMap(family);
    drawMatrixCurves(family);
}

void SeriesPlots::drawHeatMap(const SeriesFamily &family)
{
    QCustomPlot *hp = plot(HeatMapPlot);
    const SeriesAxisValues &ax = m_data.axes[0];
    const SeriesAxisValues &ay = m_data.axes[1];
    const int nx = static_cast<int>(ax.values.size());
    const int ny = static_cast<int>(ay.values.size());
    configureCellAxis(hp->xAxis, ax);
    configureCellAxis(hp->yAxis, ay);
    titleOf(HeatMapPlot)
        ->setText(
            family.name.isEmpty() ? metricLabel() : tr("%1 · %2").arg(metricLabel(), family.name));
    placeCells(family);

    // The cells' figures; latency in the unit of its magnitude (the cells' labels and
    // the hover say their own).
    HeatScale scale;
    scale.values.assign(std::size_t(nx), std::vector<double>(std::size_t(ny), kNoValue));
    double lo = std::numeric_limits<double>::max(), hi = 0;
    for (int x = 0; x < nx; ++x)
        for (int y = 0; y < ny; ++y) {
            const int i = m_cells[std::size_t(x)][std::size_t(y)];
            const double v = i < 0 ? kNoValue : metricValue(m_data.points[std::size_t(i)]);
            scale.values[std::size_t(x)][std::size_t(y)] = v;
            if (!std::isnan(v)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        }
    const LatencyUnit unit = latencyAxisUnit(lo, hi);
    scale.divisor = latencyMetric() ? unit.divisor : 1;
    scale.unitName = unit.name;
    if (hi < lo) { // no cell yet
        lo = 0;
        hi = 1;
    } else {
        lo /= scale.divisor;
        hi /= scale.divisor;
        if (hi <= lo) {
            lo = lo > 0 ? lo * 0.9 : 0;
            hi = hi > 0 ? hi * 1.1 : 1;
        }
    }
    scale.lo = lo;
    scale.hi = hi;
    // Figures that span orders of magnitude (IOPS from 512 B to 1 MiB) get a log scale,
    // so the small ones are not all one colour.
    scale.log = lo > 0 && hi / lo > 20;
    colourHeatMap(scale);
    if (nx <= int(kMaxLabelledCells) && ny <= int(kMaxLabelledCells))
        labelCells(scale);
    hp->rescaleAxes(false);
    hp->xAxis->setRange(-0.5, nx - 0.5);
    hp->yAxis->setRange(-0.5, ny - 0.5);
    hp->replot(QCustomPlot::rpQueuedReplot);
}

void SeriesPlots::placeCells(const SeriesFamily &family)
{
    const SeriesAxisValues &ax = m_data.axes[0];
    const SeriesAxisValues &ay = m_data.axes[1];
    m_cells.assign(ax.values.size(), std::vector<int>(ay.values.size(), -1));
    for (std::size_t i : family.points) {
        const auto &p = m_data.points[i];
        if (p.values.size() < 2)
            continue;
        const auto cx = std::find(ax.values.begin(), ax.values.end(), p.values[0]);
        const auto cy = std::find(ay.values.begin(), ay.values.end(), p.values[1]);
        if (cx != ax.values.end() && cy != ay.values.end())
            m_cells[std::size_t(cx - ax.values.begin())][std::size_t(cy - ay.values.begin())]
                = static_cast<int>(i);
    }
}

void SeriesPlots::colourHeatMap(const HeatScale &scale)
{
    QCustomPlot *hp = plot(HeatMapPlot);
    const int nx = static_cast<int>(m_data.axes[0].values.size());
    const int ny = static_cast<int>(m_data.axes[1].values.size());
    m_colorMap = new QCPColorMap(hp->xAxis, hp->yAxis);
    m_colorMap->setInterpolate(false);
    m_colorMap->setTightBoundary(false);
    m_colorMap->data()->setSize(std::max(nx, 1), std::max(ny, 1));
    m_colorMap->data()->setRange(
        QCPRange(0, std::max(nx - 1, 0)), QCPRange(0, std::max(ny - 1, 0)));
    for (int x = 0; x < nx; ++x)
        for (int y = 0; y < ny; ++y)
            m_colorMap->data()->setCell(
                x, y, scale.values[std::size_t(x)][std::size_t(y)] / scale.divisor);
    const auto scaleType = scale.log ? QCPAxis::stLogarithmic : QCPAxis::stLinear;
    m_colorMap->setGradient(heatGradient());
    m_colorMap->setColorScale(m_colorScale);
    m_colorMap->setDataScaleType(scaleType);
    m_colorMap->setDataRange(QCPRange(scale.lo, scale.hi));
    m_colorScale->setDataScaleType(scaleType);
    m_colorScale->setDataRange(QCPRange(scale.lo, scale.hi));
    QCPAxis *scaleAxis = m_colorScale->axis();
    if (scale.log)
        scaleAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog));
    else
        scaleAxis->setTicker(QSharedPointer<QCPAxisTicker>(new CompactTicker));
    scaleAxis->setNumberFormat(QStringLiteral("gb"));
    scaleAxis->setLabel(
        latencyMetric() ? tr("%1 (%2)").arg(metricLabel(), scale.unitName) : metricLabel());
    const QColor text = palette().color(QPalette::WindowText);
    scaleAxis->setTickLabelColor(text);
    scaleAxis->setLabelColor(text);
    scaleAxis->setBasePen(QPen(text));
    scaleAxis->setTickPen(QPen(text));
    scaleAxis->setSubTickPen(QPen(text));
}

void SeriesPlots::labelCells(const HeatScale &scale)
{
    QCustomPlot *hp = plot(HeatMapPlot);
    QCPColorGradient gradient = heatGradient(); // color() is not const
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    for (std::size_t x = 0; x < scale.values.size(); ++x)
        for (std::size_t y = 0; y < scale.values[x].size(); ++y) {
            const int i = m_cells[x][y];
            const double v = scale.values[x][y];
            if (i < 0 || std::isnan(v))
                continue;
            auto *label = new QCPItemText(hp);
            label->position->setCoords(double(x), double(y));
            label->setText(cellLabel(m_metric, v));
            label->setFont(small);
            // Black or white by the cell's luminance (yellow needs black).
            const QColor cell = QColor::fromRgb(
                gradient.color(v / scale.divisor, QCPRange(scale.lo, scale.hi), scale.log));
            label->setColor(labelColorOn(cell));
            label->setClipToAxisRect(true);
        }
}

void SeriesPlots::drawMatrixCurves(const SeriesFamily &family)
{
    QCustomPlot *cp = plot(CurvesPlot);
    const SeriesAxisValues &ax = m_data.axes[0];
    const SeriesAxisValues &ay = m_data.axes[1];
    configureParameterAxis(cp->xAxis, ax);
    titleOf(CurvesPlot)
        ->setText(
            tr("%1 by %2, one curve per %3")
                .arg(metricLabel(), sweepParameterText(ax.parameter), curveUnit(ay.parameter)));
    const bool latency = latencyMetric();
    double maxValue = 0, minValue = std::numeric_limits<double>::max();
    for (std::size_t i : family.points) {
        const double v = metricValue(m_data.points[i]);
        if (!std::isnan(v)) {
            maxValue = std::max(maxValue, v);
            minValue = std::min(minValue, v);
        }
    }
    const LatencyUnit unit = latencyAxisUnit(minValue, maxValue);
    m_curvesDivisor = latency ? unit.divisor : 1;
    if (latency) {
        cp->yAxis->setScaleType(QCPAxis::stLogarithmic);
        cp->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new Log125Ticker));
        cp->yAxis->setSubTicks(false);
        cp->yAxis->setLabel(tr("%1 (%2)").arg(metricLabel(), unit.name));
    } else {
        cp->yAxis->setLabel(metricLabel());
    }
    const bool whiskers = std::any_of(m_data.points.begin(), m_data.points.end(),
        [](const core::SeriesPointResult &p) { return p.trials.size() > 1; });
    for (std::size_t j = 0; j < ay.values.size(); ++j) {
        auto *graph = addCurve(cp, cp->yAxis, curveName(ay.parameter, ay.values[j]),
            paletteColor(j), Qt::SolidLine, familyShape(j));
        std::vector<const core::SeriesPointResult *> pts;
        for (std::size_t i : family.points)
            if (m_data.points[i].values.size() >= 2 && m_data.points[i].values[1] == ay.values[j])
                pts.push_back(&m_data.points[i]);
        std::sort(pts.begin(), pts.end(),
            [](const auto *a, const auto *b) { return a->values[0] < b->values[0]; });
        QVector<double> x, y, minus, plus;
        for (const auto *p : pts) {
            const core::TrialStat &s = metricStat(*p);
            x << double(p->values[0]);
            const double v = metricValue(*p);
            y << v / m_curvesDivisor;
            minus << (std::isnan(v) ? 0 : (s.median - s.min) / m_curvesDivisor);
            plus << (std::isnan(v) ? 0 : (s.max - s.median) / m_curvesDivisor);
        }
        graph->setData(x, y, true);
        if (whiskers)
            addWhiskers(graph, minus, plus);
        m_matrixCurves.push_back(graph);
    }
    if (latency) {
        if (maxValue > 0)
            cp->yAxis->setRange(minValue / m_curvesDivisor / 1.6,
                std::max(maxValue * 1.6, minValue * 10) / m_curvesDivisor);
        else
            cp->yAxis->setRange(1, 1000);
    } else {
        cp->yAxis->setRange(0, maxValue > 0 ? maxValue * 1.12 : 1);
    }
    cp->replot(QCustomPlot::rpQueuedReplot);
}

QString SeriesPlots::cellText(int column, int row) const
{
    if (!m_data.isMatrix() || column < 0 || row < 0 || column >= int(m_cells.size())
        || row >= int(m_cells[std::size_t(column)].size()))
        return {};
    const SeriesAxisValues &ax = m_data.axes[0];
    const SeriesAxisValues &ay = m_data.axes[1];
    QString text = QStringLiteral("<b>%1 %2 · %3 %4</b>")
                       .arg(sweepParameterText(ax.parameter),
                           sweepValueText(ax.parameter, ax.values[std::size_t(column)]),
                           sweepParameterText(ay.parameter),
                           sweepValueText(ay.parameter, ay.values[std::size_t(row)]));
    const int i = m_cells[std::size_t(column)][std::size_t(row)];
    if (i < 0)
        return text + QStringLiteral("<br>") + tr("not run yet");
    const core::SeriesPointResult &p = m_data.points[std::size_t(i)];
    const bool range = p.trials.size() > 1;
    const auto iops = [](double v) { return iopsText(v); };
    const auto lat = [](double v) { return latencyText(v); };
    QStringList lines;
    lines << text;
    lines << tr("IOPS: %1").arg(statText(p.iops, iops, range));
    lines << tr("MB/s: %1").arg(statText(p.megabytesPerSecond, megabytesPerSecondText, range));
    lines << tr("latency: mean %1, p50 %2, p99 %3, p99.9 %4")
                 .arg(latencyText(p.meanLatencyUs.median), latencyText(p.p50LatencyUs.median),
                     statText(p.p99LatencyUs, lat, range), latencyText(p.p99_9LatencyUs.median));
    if (p.connectionsValid)
        lines << tr("files: %1 opened/s; open %2, close %3, operation %4 (mean), operation "
                    "p99 %5")
                     .arg(statText(p.filesPerSecond, iops, range), latencyText(p.openMeanUs.median),
                         latencyText(p.closeMeanUs.median), latencyText(p.operationMeanUs.median),
                         latencyText(p.operationP99Us.median));
    if (p.deviceValid)
        lines << tr("device: read %1, write %2")
                     .arg(megabytesPerSecondText(p.deviceReadMegabytesPerSecond.median),
                         megabytesPerSecondText(p.deviceWriteMegabytesPerSecond.median));
    lines << (p.trials.size() == 1
            ? tr("1 trial")
            : tr("%n trials, median (min – max)", nullptr, int(p.trials.size())));
    if (!p.complete)
        lines << tr("stopped early");
    return lines.join(QStringLiteral("<br>"));
}

} // namespace ioprism::ui
