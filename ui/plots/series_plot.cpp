// SPDX-License-Identifier: GPL-3.0-or-later
// SeriesPlots: its pages, its state and the hover; the drawing of the curves is in
// series_curves.cpp, of the matrix in series_matrix.cpp, their axes in series_axes.cpp.
#include "ui/plots/series_plot.h"

#include "ui/format.h"
#include "ui/plots/qcp_library.h"
#include "ui/plots/series_axes.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ioprism::ui {

SeriesPlots::SeriesPlots(QWidget *parent)
    : PlotPanel(PlotCount, parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    layout->addWidget(m_stack);

    m_empty = new QLabel(tr("No series has run yet. Tick \"Run a series\" on the Test Setup "
                            "page (or choose the test type \"Cycle outstanding I/Os\") and "
                            "press Start: each point is drawn here as it finishes."),
        this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(makeCurvesPage());
    m_stack->addWidget(makeMatrixPage());

    connect(m_metricCombo, &QComboBox::currentIndexChanged, this,
        [this] { setHeatMetric(static_cast<Metric>(m_metricCombo->currentData().toInt())); });
    connect(m_familyCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            setFamily(index);
    });
    clear();
}

QWidget *SeriesPlots::makeCurvesPage()
{
    auto *curves = new QWidget(this);
    auto *curvesLayout = new QVBoxLayout(curves);
    curvesLayout->setContentsMargins(0, 0, 0, 0);
    auto *curvesBar = new QHBoxLayout;
    m_iopsLogCheck = new QCheckBox(tr("&Log scale for IOPS"), curves);
    m_iopsLogCheck->setToolTip(
        tr("Draw IOPS on a logarithmic axis: IOPS that span orders of magnitude (small to "
           "large transfers, one to many outstanding I/Os) stay readable at both ends, and "
           "the IOPS curve no longer lies on the MB/s curve where the two are proportional"));
    connect(m_iopsLogCheck, &QCheckBox::toggled, this, &SeriesPlots::setIopsLogScale);
    curvesBar->addWidget(m_iopsLogCheck);
    curvesBar->addStretch();
    curvesLayout->addLayout(curvesBar);
    auto *curvesSplit = new QSplitter(Qt::Vertical, curves);
    curvesSplit->addWidget(makePlot(ThroughputPlot, true));
    curvesSplit->addWidget(makePlot(LatencyPlot, true));
    curvesLayout->addWidget(curvesSplit, 1);

    // The x axes of the two curves' plots line up, whatever the width of their y axes'
    // labels (IOPS "1.5M" beside latency "20"; MB/s on the right of one plot only). A
    // margin group shares the margins of its axis rects; the plots are two widgets, so
    // each reads the other's labels of its last replot, and alignCurvePlots() replots
    // them again when those changed.
    QCustomPlot *tp = plot(ThroughputPlot);
    QCustomPlot *lp = plot(LatencyPlot);
    auto *group = new QCPMarginGroup(tp);
    tp->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    lp->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    for (QCustomPlot *p : {tp, lp})
        connect(p, &QCustomPlot::afterReplot, this, [this] {
            if (m_alignQueued)
                return;
            const QMargins a = plot(ThroughputPlot)->axisRect()->margins();
            const QMargins b = plot(LatencyPlot)->axisRect()->margins();
            if (a.left() == b.left() && a.right() == b.right())
                return;
            m_alignQueued = true;
            QMetaObject::invokeMethod(this, &SeriesPlots::alignCurvePlots, Qt::QueuedConnection);
        });
    return curves;
}

QWidget *SeriesPlots::makeMatrixPage()
{
    auto *matrix = new QWidget(this);
    auto *matrixLayout = new QVBoxLayout(matrix);
    matrixLayout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout;
    auto *metricLabel = new QLabel(tr("&Heat map of:"), matrix);
    m_metricCombo = new QComboBox(matrix);
    m_metricCombo->addItem(tr("IOPS"), IopsMetric);
    m_metricCombo->addItem(tr("MB/s"), MegabytesMetric);
    m_metricCombo->addItem(tr("p99 latency"), P99Metric);
    m_metricCombo->setToolTip(
        tr("The figure the heat map colours and the curves beside it show: the median of "
           "each point's trials"));
    metricLabel->setBuddy(m_metricCombo);
    bar->addWidget(metricLabel);
    bar->addWidget(m_metricCombo);
    m_familyLabel = new QLabel(tr("&Workload:"), matrix);
    m_familyCombo = new QComboBox(matrix);
    m_familyCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_familyCombo->setToolTip(tr("The access specification (and target, when the targets run "
                                 "in turn) whose matrix is shown"));
    m_familyLabel->setBuddy(m_familyCombo);
    bar->addSpacing(16);
    bar->addWidget(m_familyLabel);
    bar->addWidget(m_familyCombo);
    bar->addStretch();
    matrixLayout->addLayout(bar);
    auto *split = new QSplitter(Qt::Horizontal, matrix);
    split->addWidget(makePlot(HeatMapPlot, false));
    split->addWidget(makePlot(CurvesPlot, true));
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({1000, 1000}); // halves, whatever the plots' size hints
    matrixLayout->addWidget(split, 1);

    // The heat map's colour legend, beside its axis rect and aligned with it.
    auto *heat = plot(HeatMapPlot);
    m_colorScale = new QCPColorScale(heat);
    m_colorScale->setType(QCPAxis::atRight);
    m_colorScale->setBarWidth(14);
    m_colorScale->setGradient(heatGradient());
    m_colorScale->axis()->setTicker(QSharedPointer<CompactTicker>(new CompactTicker));
    heat->plotLayout()->addElement(1, 1, m_colorScale);
    auto *margins = new QCPMarginGroup(heat);
    heat->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    m_colorScale->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    heat->setToolTip(tr("Each cell is a point of the matrix, its colour the chosen figure. "
                        "Hover over a cell for its exact figures; right-click to save."));
    return matrix;
}

QCustomPlot *SeriesPlots::makePlot(PlotId id, bool legend)
{
    auto *plot
        = createPlot(id, QStringLiteral("seriesPlot%1").arg(int(id)), QSize(320, 220), QString());
    if (id != HeatMapPlot)
        plot->setToolTip(tr("Each point is the median of its trials (whiskers: smallest to "
                            "largest). Hover for the figures at a value; right-click to save."));
    // The palette also colours some axis labels by their curves: changeEvent() draws the
    // series again when it changes.
    if (legend) {
        putLegendUnderTitle(plot, QMargins(60, 0, 10, 0));
        plot->legend->setWrap(4);
    }
    // The device's curves are drawn under the application's (the "main" layer).
    plot->addLayer(
        QStringLiteral("device"), plot->layer(QStringLiteral("main")), QCustomPlot::limBelow);
    return plot;
}

void SeriesPlots::alignCurvePlots()
{
    // Two rounds at most: after the first each plot has laid out with the other's current
    // labels, which a replot does not change (they follow the axis range and height).
    for (int round = 0; round < 2; ++round) {
        QCustomPlot *tp = plot(ThroughputPlot);
        QCustomPlot *lp = plot(LatencyPlot);
        const QMargins a = tp->axisRect()->margins();
        const QMargins b = lp->axisRect()->margins();
        if (round > 0 && a.left() == b.left() && a.right() == b.right())
            break;
        m_alignQueued = true; // the replots' afterReplot queues nothing more
        tp->replot(QCustomPlot::rpImmediateRefresh);
        lp->replot(QCustomPlot::rpImmediateRefresh);
    }
    m_alignQueued = false;
}

void SeriesPlots::setIopsLogScale(bool log)
{
    if (m_iopsLogCheck->isChecked() != log) {
        const QSignalBlocker block(m_iopsLogCheck);
        m_iopsLogCheck->setChecked(log);
    }
    if (log == m_iopsLog)
        return;
    m_iopsLog = log;
    if (m_data.isSeries() && !m_data.isMatrix()) {
        resetPlot(ThroughputPlot);
        resetPlot(LatencyPlot);
        m_familyGraphs.clear();
        drawCurves();
    }
}

void SeriesPlots::resetPlot(PlotId id)
{
    QCustomPlot *p = plot(id);
    p->clearPlottables();
    p->clearItems();
    addTracer(id);
    p->yAxis2->setVisible(false);
    p->yAxis->setScaleType(QCPAxis::stLinear);
    p->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new CompactTicker));
    p->yAxis->setSubTicks(true);
    p->xAxis->setScaleType(QCPAxis::stLinear);
    p->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    p->xAxis->grid()->setVisible(true);
    p->yAxis->grid()->setVisible(true);
}

QString SeriesPlots::plotTitle(PlotId id) const
{
    switch (id) {
    case ThroughputPlot:
        return tr("Series IOPS and MB/s");
    case LatencyPlot:
        return tr("Series latency");
    case HeatMapPlot:
        return tr("Series heat map");
    case CurvesPlot:
        return tr("Series curves");
    default:
        return {};
    }
}

std::vector<SeriesPlots::PlotId> SeriesPlots::shownPlots() const
{
    if (!m_data.isSeries())
        return {};
    if (m_data.isMatrix())
        return {HeatMapPlot, CurvesPlot};
    return {ThroughputPlot, LatencyPlot};
}

void SeriesPlots::clear()
{
    setData({});
}

void SeriesPlots::setHeatMetric(Metric metric)
{
    if (m_metricCombo->currentData().toInt() != metric) {
        const QSignalBlocker block(m_metricCombo);
        m_metricCombo->setCurrentIndex(m_metricCombo->findData(metric));
    }
    if (metric == m_metric)
        return;
    m_metric = metric;
    if (m_data.isMatrix())
        drawMatrix();
}

void SeriesPlots::setFamily(int family)
{
    if (family == m_family)
        return;
    m_family = family;
    if (m_familyCombo->currentIndex() != family) {
        const QSignalBlocker block(m_familyCombo);
        m_familyCombo->setCurrentIndex(family);
    }
    if (m_data.isMatrix())
        drawMatrix();
}

void SeriesPlots::setData(SeriesData data)
{
    m_data = std::move(data);
    {
        const QSignalBlocker block(m_familyCombo);
        const QString current = m_familyCombo->currentText();
        m_familyCombo->clear();
        for (const auto &f : m_data.families)
            m_familyCombo->addItem(f.name);
        const int again = m_familyCombo->findText(current);
        m_family = std::clamp(again >= 0 ? again : m_family, 0,
            std::max(0, static_cast<int>(m_data.families.size()) - 1));
        m_familyCombo->setCurrentIndex(m_family);
    }
    updateMetricChoices();
    const bool several = m_data.families.size() > 1;
    m_familyCombo->setVisible(several);
    m_familyLabel->setVisible(several);

    for (int p = 0; p < PlotCount; ++p)
        resetPlot(static_cast<PlotId>(p));
    m_familyGraphs.clear();
    m_matrixCurves.clear();
    m_colorMap = nullptr;
    m_cells.clear();
    if (!m_data.isSeries()) {
        m_stack->setCurrentIndex(0);
        for (int p = 0; p < PlotCount; ++p)
            plotAt(p)->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    if (m_data.isMatrix()) {
        m_stack->setCurrentIndex(2);
        drawMatrix();
    } else {
        m_stack->setCurrentIndex(1);
        drawCurves();
    }
}

bool SeriesPlots::hasFiles() const
{
    return std::any_of(m_data.points.begin(), m_data.points.end(),
        [](const core::SeriesPointResult &p) { return p.connectionsValid; });
}

void SeriesPlots::updateMetricChoices()
{
    // The files figures are offered when some point has them.
    const bool files = hasFiles();
    if ((m_metricCombo->findData(FilesMetric) >= 0) == files)
        return;
    const QSignalBlocker block(m_metricCombo);
    if (files) {
        m_metricCombo->addItem(tr("files/s"), FilesMetric);
        m_metricCombo->addItem(tr("operation p99 latency"), OperationP99Metric);
    } else {
        m_metricCombo->removeItem(m_metricCombo->findData(OperationP99Metric));
        m_metricCombo->removeItem(m_metricCombo->findData(FilesMetric));
        if (m_metric == FilesMetric || m_metric == OperationP99Metric)
            m_metric = IopsMetric;
    }
    m_metricCombo->setCurrentIndex(m_metricCombo->findData(m_metric));
}

// ---------------------------------------------------------------- lookups, hover, export

const SeriesPlots::FamilyGraphs *SeriesPlots::familyGraphs(int family) const
{
    return family >= 0 && family < int(m_familyGraphs.size()) ? &m_familyGraphs[std::size_t(family)]
                                                              : nullptr;
}

QCPGraph *SeriesPlots::iopsGraph(int family) const
{
    const FamilyGraphs *g = familyGraphs(family);
    return g ? g->iops : nullptr;
}

QCPGraph *SeriesPlots::megabytesGraph(int family) const
{
    const FamilyGraphs *g = familyGraphs(family);
    return g ? g->megabytes : nullptr;
}

QCPGraph *SeriesPlots::readMegabytesGraph(int family) const
{
    const FamilyGraphs *g = familyGraphs(family);
    return g ? g->readMegabytes : nullptr;
}

QCPGraph *SeriesPlots::writeMegabytesGraph(int family) const
{
    const FamilyGraphs *g = familyGraphs(family);
    return g ? g->writeMegabytes : nullptr;
}

QCPGraph *SeriesPlots::deviceReadGraph(int family) const
{
    const FamilyGraphs *g = familyGraphs(family);
    return g ? g->deviceRead : nullptr;
}

QCPGraph *SeriesPlots::deviceWriteGraph(int family) const
{
    const FamilyGraphs *g = familyGraphs(family);
    return g ? g->deviceWrite : nullptr;
}

QCPGraph *SeriesPlots::latencyGraph(int family, Latency which) const
{
    const FamilyGraphs *g = familyGraphs(family);
    return g ? g->latency[std::size_t(which)] : nullptr;
}

QCPGraph *SeriesPlots::filesGraph(int family) const
{
    const FamilyGraphs *g = familyGraphs(family);
    return g ? g->files : nullptr;
}

QCPGraph *SeriesPlots::operationGraph(int family, bool p99) const
{
    const FamilyGraphs *g = familyGraphs(family);
    return g ? g->operation[p99 ? 1 : 0] : nullptr;
}

QCPErrorBars *SeriesPlots::iopsWhiskers(int family) const
{
    const FamilyGraphs *g = familyGraphs(family);
    return g ? g->iopsBars : nullptr;
}

QCPGraph *SeriesPlots::matrixCurve(int secondAxisValue) const
{
    return secondAxisValue >= 0 && secondAxisValue < int(m_matrixCurves.size())
        ? m_matrixCurves[std::size_t(secondAxisValue)]
        : nullptr;
}

double SeriesPlots::nearestValue(PlotId id, int x) const
{
    // Nearest in pixels: a log axis is not even in values.
    const QCustomPlot *p = plot(id);
    double key = std::numeric_limits<double>::quiet_NaN();
    double best = std::numeric_limits<double>::max();
    for (std::uint64_t v : m_data.axes[0].values) {
        const double d = std::abs(p->xAxis->coordToPixel(double(v)) - x);
        if (d < best) {
            best = d;
            key = double(v);
        }
    }
    return key;
}

QString SeriesPlots::hoverText(PlotId id, const QPoint &pos) const
{
    const QCustomPlot *p = plot(id);
    if (!m_data.isSeries() || !p->axisRect()->rect().contains(pos))
        return {};
    if (id == HeatMapPlot) {
        if (!m_data.isMatrix())
            return {};
        const int column = static_cast<int>(std::lround(p->xAxis->pixelToCoord(pos.x())));
        const int row = static_cast<int>(std::lround(p->yAxis->pixelToCoord(pos.y())));
        return cellText(column, row);
    }
    const double key = nearestValue(id, pos.x());
    if (std::isnan(key))
        return {};
    QStringList lines;
    for (int g = 0; g < p->graphCount(); ++g) {
        const QCPGraph *graph = p->graph(g);
        auto it = graph->data()->findBegin(key, false);
        if (it == graph->data()->constEnd() || it->key != key || std::isnan(it->value))
            continue;
        QString value;
        if (id == LatencyPlot)
            value = latencyText(it->value * m_latencyDivisor);
        else if (id == CurvesPlot && latencyMetric())
            value = latencyText(it->value * m_curvesDivisor);
        else if (graph->valueAxis() == p->yAxis2
            || (id == CurvesPlot && m_metric == MegabytesMetric))
            value = megabytesPerSecondText(it->value);
        else if (graph->property("ioprismFiles").toBool()
            || (id == CurvesPlot && m_metric == FilesMetric))
            value = tr("%1 files/s").arg(iopsText(it->value));
        else
            value = iopsText(it->value) + QStringLiteral(" IOPS");
        lines << hoverLine(graph, value);
    }
    if (lines.isEmpty())
        return {};
    const SeriesAxisValues &axis = m_data.axes[0];
    return QStringLiteral("<b>%1</b><br>%2")
        .arg(curveName(axis.parameter, static_cast<std::uint64_t>(key)),
            lines.join(QStringLiteral("<br>")));
}

QString SeriesPlots::hoverAt(int index, const QPoint &pos, double &tracerKey) const
{
    const auto id = static_cast<PlotId>(index);
    QString text = hoverText(id, pos);
    // The tracer marks the value read out; a cell of the heat map needs none.
    if (!text.isEmpty() && id != HeatMapPlot)
        tracerKey = nearestValue(id, pos.x());
    return text;
}

bool SeriesPlots::readsOutAt(int index, const QPoint &pos) const
{
    return m_data.isSeries() && PlotPanel::readsOutAt(index, pos);
}

void SeriesPlots::fillContextMenu(QMenu *menu, int index)
{
    const auto id = static_cast<PlotId>(index);
    menu->addAction(tr("Save the %1 as PNG or PDF…").arg(plotTitle(id).toLower()), this,
        [this, id] { emit exportRequested(id); });
}

bool SeriesPlots::savePlot(PlotId id, const QString &fileName)
{
    return exportPlot(id, fileName, plotTitle(id));
}

void SeriesPlots::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    // The plots restyle themselves (followPalette); the drawing also colours some axis
    // labels by their curves, so it is drawn again
    // once, after every widget has its new palette (an application-wide change reaches
    // the widgets one by one, in no set order).
    if (event->type() != QEvent::PaletteChange || m_redrawQueued)
        return;
    m_redrawQueued = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_redrawQueued = false;
            SeriesData data = m_data;
            setData(std::move(data));
        },
        Qt::QueuedConnection);
}

} // namespace ioprism::ui
