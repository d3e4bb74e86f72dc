// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/series_plot.h"

#include "core/profile/series.h"
#include "ui/format.h"
#include "ui/plots/plot_file.h"
#include "ui/style.h"

#include <QCheckBox>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace ioprism::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// At most this many labelled ticks on a parameter axis; more values label every nth.
constexpr std::size_t kMaxAxisLabels = 12;
// Cells of a heat map up to this many per side carry their value as text.
constexpr std::size_t kMaxLabelledCells = 12;

// Categorical colours for curve families and the matrix's curves (matplotlib's tab10,
// the first three being the read, write and total colours of the other plots).
QColor paletteColor(std::size_t i)
{
    static const QColor colors[] = {QColor(31, 119, 180), QColor(255, 127, 14), QColor(44, 160, 44),
        QColor(214, 39, 40), QColor(148, 103, 189), QColor(140, 86, 75), QColor(227, 119, 194),
        QColor(127, 127, 127), QColor(188, 189, 34), QColor(23, 190, 207)};
    return colors[i % std::size(colors)];
}

QCPScatterStyle::ScatterShape familyShape(std::size_t i)
{
    static const QCPScatterStyle::ScatterShape shapes[] = {QCPScatterStyle::ssDisc,
        QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle, QCPScatterStyle::ssDiamond,
        QCPScatterStyle::ssCross, QCPScatterStyle::ssTriangleInverted, QCPScatterStyle::ssStar};
    return shapes[i % std::size(shapes)];
}

QColor latencyColor(int which)
{
    switch (which) {
    case SeriesPlots::MeanLatency:
        return QColor(148, 103, 189);
    case SeriesPlots::P50Latency:
        return series::p50();
    case SeriesPlots::P99Latency:
        return series::p99();
    default:
        return series::p999();
    }
}

QString latencyName(int which)
{
    switch (which) {
    case SeriesPlots::MeanLatency:
        return SeriesPlots::tr("mean");
    case SeriesPlots::P50Latency:
        return SeriesPlots::tr("p50");
    case SeriesPlots::P99Latency:
        return SeriesPlots::tr("p99");
    default:
        return SeriesPlots::tr("p99.9");
    }
}

const core::TrialStat &latencyStat(const core::SeriesPointResult &p, int which)
{
    switch (which) {
    case SeriesPlots::MeanLatency:
        return p.meanLatencyUs;
    case SeriesPlots::P50Latency:
        return p.p50LatencyUs;
    case SeriesPlots::P99Latency:
        return p.p99LatencyUs;
    default:
        return p.p99_9LatencyUs;
    }
}

// Tick labels that stay short: 1.5M, 250k, 1,200, 0.5.
QString compactTickLabel(double tick, const QLocale &locale)
{
    const double a = std::abs(tick);
    if (a >= 1e6)
        return locale.toString(tick / 1e6, 'g', 3) + QLatin1Char('M');
    if (a >= 1e4)
        return locale.toString(tick / 1e3, 'g', 4) + QLatin1Char('k');
    return locale.toString(tick, 'g', 4);
}

class CompactTicker : public QCPAxisTicker
{
protected:
    QString getTickLabel(double tick, const QLocale &locale, QChar, int) override
    {
        return compactTickLabel(tick, locale);
    }
};

// A tick of a log axis as a plain number, never in exponent notation ('g' writes 1000 as
// "1e+03"): "0.05", "2", "1000", "20,000".
QString plainTickLabel(double tick, const QLocale &locale)
{
    if (tick >= 100)
        return locale.toString(tick, 'f', 0);
    int decimals = 0;
    while (decimals < 6
        && std::abs(tick * std::pow(10.0, decimals) - std::round(tick * std::pow(10.0, decimals)))
            > 1e-9 * std::pow(10.0, decimals))
        ++decimals;
    return locale.toString(tick, 'f', decimals);
}

// Ticks at 1, 2 and 5 of each decade on a logarithmic axis: a latency or IOPS curve spans
// one or two decades, where the usual 1, 10, 100 leave two or three labels (and
// QCPAxisTickerLog falls back to linear ticks below 1.6 decades, none at the bottom).
QVector<double> log125Ticks(const QCPRange &range)
{
    QVector<double> ticks;
    if (range.lower <= 0 || range.upper <= range.lower)
        return ticks;
    const double decades = std::log10(range.upper / range.lower);
    // Over many decades 1, 2, 5 crowds: keep the decades only.
    const bool all = decades <= 3.5;
    for (int e = int(std::floor(std::log10(range.lower)));
         e <= int(std::ceil(std::log10(range.upper))); ++e)
        for (const double m : {1.0, 2.0, 5.0}) {
            if (!all && m != 1.0)
                continue;
            const double v = m * std::pow(10.0, e);
            if (v >= range.lower && v <= range.upper)
                ticks << v;
        }
    return ticks;
}

class Log125Ticker : public QCPAxisTicker
{
protected:
    QVector<double> createTickVector(double, const QCPRange &range) override
    {
        return log125Ticks(range);
    }
    QString getTickLabel(double tick, const QLocale &locale, QChar, int) override
    {
        return plainTickLabel(tick, locale);
    }
};

// The IOPS axis on a log scale: 1, 2, 5 of each decade, labelled as the linear axis is
// (100k, not 10⁵).
class CompactLogTicker : public QCPAxisTickerLog
{
protected:
    QVector<double> createTickVector(double, const QCPRange &range) override
    {
        return log125Ticks(range);
    }
    QString getTickLabel(double tick, const QLocale &locale, QChar, int) override
    {
        return compactTickLabel(tick, locale);
    }
};

// The unit a set of latencies reads best in: µs below 1 ms, ms below 1 s, then s, as
// latencyText() writes each figure.
struct LatencyUnit {
    double divisor = 1;
    QString name;
};
LatencyUnit latencyUnit(double maxUs)
{
    if (maxUs >= 1e6)
        return {1e6, QStringLiteral("s")};
    if (maxUs >= 1e3)
        return {1e3, QStringLiteral("ms")};
    return {1, QStringLiteral("µs")};
}
// The unit of a log axis over [minUs, maxUs]: the one its middle (the geometric mean)
// reads in, so most ticks and figures read as the rest of the screen writes them; a p99.9
// of 1.2 ms no longer puts a 60 µs median in "0.06 ms".
LatencyUnit latencyAxisUnit(double minUs, double maxUs)
{
    if (!(minUs > 0) || minUs > maxUs)
        return latencyUnit(maxUs);
    return latencyUnit(std::sqrt(minUs * maxUs));
}

// Sizes always on a log₂ axis (they are swept by doubling); depths and workers when
// they double (or more) from value to value; percentages linearly.
bool logScale(const SeriesAxisValues &axis)
{
    std::vector<std::uint64_t> v = axis.values;
    std::sort(v.begin(), v.end());
    if (v.size() < 2 || v.front() == 0)
        return false;
    switch (axis.parameter) {
    case core::SweepParameter::TransferSize:
        return v.back() >= 4 * v.front();
    case core::SweepParameter::OutstandingIos:
    case core::SweepParameter::Workers:
        for (std::size_t i = 1; i < v.size(); ++i)
            if (double(v[i]) < 1.9 * double(v[i - 1]))
                return false;
        return true;
    default:
        return false;
    }
}

// The x axis of a parameter: log₂ or linear, a labelled tick at each value (every nth
// when there are many), the parameter as its title.
void configureParameterAxis(QCPAxis *axis, const SeriesAxisValues &values)
{
    const bool log = logScale(values);
    axis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    std::vector<std::uint64_t> v = values.values;
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    const std::size_t stride
        = std::max<std::size_t>(1, (v.size() + kMaxAxisLabels - 1) / kMaxAxisLabels);
    for (std::size_t i = 0; i < v.size(); i += stride)
        ticker->addTick(double(v[i]), sweepValueText(values.parameter, v[i]));
    ticker->setSubTickCount(0);
    axis->setTicker(ticker);
    axis->setLabel(sweepParameterText(values.parameter)
        + (log ? SeriesPlots::tr(" (log₂ scale)") : QString()));
    if (v.empty()) {
        axis->setRange(0, 1);
    } else if (log) {
        axis->setRange(double(v.front()) / 1.4, double(v.back()) * 1.4);
    } else {
        const double span = double(v.back() - v.front());
        const double pad = std::max(span * 0.05, 0.5);
        axis->setRange(double(v.front()) - pad, double(v.back()) + pad);
    }
}

// The cells of a matrix axis: one tick per index, labelled with its value.
void configureCellAxis(QCPAxis *axis, const SeriesAxisValues &values)
{
    axis->setScaleType(QCPAxis::stLinear);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const std::size_t n = values.values.size();
    const std::size_t stride = std::max<std::size_t>(1, (n + kMaxAxisLabels - 1) / kMaxAxisLabels);
    for (std::size_t i = 0; i < n; i += stride)
        ticker->addTick(double(i), sweepValueText(values.parameter, values.values[i]));
    ticker->setSubTickCount(0);
    axis->setTicker(ticker);
    axis->setLabel(sweepParameterText(values.parameter));
    axis->setRange(-0.5, double(n) - 0.5);
    axis->grid()->setVisible(false);
}

// A value of the second axis as a curve's name: "QD 8", "4 KiB", "70 % read".
QString curveName(core::SweepParameter parameter, std::uint64_t value)
{
    if (parameter == core::SweepParameter::TransferSize)
        return exactSizeText(value);
    return toQString(core::describeSweepValue(parameter, value));
}

// What one curve of the matrix stands for, in a title: "one curve per queue depth".
QString curveUnit(core::SweepParameter parameter)
{
    switch (parameter) {
    case core::SweepParameter::TransferSize:
        return SeriesPlots::tr("transfer size");
    case core::SweepParameter::OutstandingIos:
        return SeriesPlots::tr("queue depth");
    case core::SweepParameter::Workers:
        return SeriesPlots::tr("worker count");
    case core::SweepParameter::PercentRead:
        return SeriesPlots::tr("% read");
    case core::SweepParameter::PercentRandom:
        return SeriesPlots::tr("% random");
    }
    return {};
}

// Perceptually even, readable on light and dark backgrounds (viridis' stops).
QCPColorGradient heatGradient()
{
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(68, 1, 84));
    g.setColorStopAt(0.25, QColor(59, 82, 139));
    g.setColorStopAt(0.5, QColor(33, 145, 140));
    g.setColorStopAt(0.75, QColor(94, 201, 98));
    g.setColorStopAt(1.0, QColor(253, 231, 37));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setNanHandling(QCPColorGradient::nhTransparent);
    g.setLevelCount(256);
    return g;
}

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

SeriesPlots::SeriesPlots(QWidget *parent)
    : QWidget(parent)
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
    m_stack->addWidget(curves);

    // The x axes of the two curves' plots line up, whatever the width of their y axes'
    // labels (IOPS "1.5M" beside latency "20"; MB/s on the right of one plot only). A
    // margin group shares the margins of its axis rects; the plots are two widgets, so
    // each reads the other's labels of its last replot, and alignCurvePlots() replots
    // them again when those changed.
    {
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
                QMetaObject::invokeMethod(
                    this, &SeriesPlots::alignCurvePlots, Qt::QueuedConnection);
            });
    }

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
    m_stack->addWidget(matrix);

    // The heat map's colour legend, beside its axis rect and aligned with it.
    auto *heat = plot(HeatMapPlot);
    m_colorScale = new QCPColorScale(heat);
    m_colorScale->setType(QCPAxis::atRight);
    m_colorScale->setBarWidth(14);
    m_colorScale->setGradient(heatGradient());
    QSharedPointer<CompactTicker> scaleTicker(new CompactTicker);
    m_colorScale->axis()->setTicker(scaleTicker);
    heat->plotLayout()->addElement(1, 1, m_colorScale);
    auto *margins = new QCPMarginGroup(heat);
    heat->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    m_colorScale->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    heat->setToolTip(tr("Each cell is a point of the matrix, its colour the chosen figure. "
                        "Hover over a cell for its exact figures; right-click to save."));

    connect(m_metricCombo, &QComboBox::currentIndexChanged, this,
        [this] { setHeatMetric(static_cast<Metric>(m_metricCombo->currentData().toInt())); });
    connect(m_familyCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            setFamily(index);
    });
    clear();
}

QCustomPlot *SeriesPlots::makePlot(PlotId id, bool legend)
{
    auto *plot = new QCustomPlot(this);
    auto &entry = m_plots[std::size_t(id)];
    entry.plot = plot;
    plot->setObjectName(QStringLiteral("seriesPlot%1").arg(int(id)));
    plot->setMinimumSize(320, 220);
    plot->setMouseTracking(true);
    plot->setContextMenuPolicy(Qt::DefaultContextMenu);
    if (id != HeatMapPlot)
        plot->setToolTip(tr("Each point is the median of its trials (whiskers: smallest to "
                            "largest). Hover for the figures at a value; right-click to save."));

    plot->plotLayout()->insertRow(0);
    entry.title = new QCPTextElement(
        plot, QString(), QFont(font().family(), font().pointSize() + 1, QFont::Bold));
    plot->plotLayout()->addElement(0, 0, entry.title);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    plot->plotLayout()->setRowSpacing(0);
    QFont legendFont = font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
    plot->legend->setFont(legendFont);
    // Background, axes, titles and legend text from the palette, and again on every
    // change of it; changeEvent() then draws the series again for the colours its own
    // drawing takes from the palette.
    followPalette(plot);
    if (legend) {
        // The legend goes in a row of its own under the title, so it never hides data.
        plot->legend->setVisible(true);
        plot->axisRect()->insetLayout()->take(plot->legend);
        plot->plotLayout()->insertRow(1);
        plot->plotLayout()->addElement(1, 0, plot->legend);
        plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
        plot->legend->setWrap(4);
        plot->legend->setBorderPen(Qt::NoPen);
        plot->legend->setBrush(Qt::NoBrush);
        plot->legend->setMargins(QMargins(60, 0, 10, 0));
        plot->plotLayout()->setRowStretchFactor(1, 0.001);
    }

    // The device's curves are drawn under the application's (the "main" layer).
    plot->addLayer(
        QStringLiteral("device"), plot->layer(QStringLiteral("main")), QCustomPlot::limBelow);
    connect(plot, &QCustomPlot::mouseMove, this,
        [this, id](QMouseEvent *event) { showHover(id, event->pos()); });
    plot->installEventFilter(this);
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
    auto &entry = m_plots[std::size_t(id)];
    QCustomPlot *p = entry.plot;
    p->clearPlottables();
    p->clearItems();
    auto *tracer = new QCPItemStraightLine(p);
    tracer->setPen(QPen(Qt::black, 1, Qt::DashLine));
    useTextColor(tracer, 120);
    tracer->setVisible(false);
    tracer->setLayer(QStringLiteral("overlay"));
    entry.tracer = tracer;
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
        for (auto &entry : m_plots)
            entry.plot->replot(QCustomPlot::rpQueuedReplot);
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

// ---------------------------------------------------------------- one axis: curves

void SeriesPlots::drawCurves()
{
    QCustomPlot *tp = plot(ThroughputPlot);
    QCustomPlot *lp = plot(LatencyPlot);
    const SeriesAxisValues &axis = m_data.axes.front();
    configureParameterAxis(tp->xAxis, axis);
    configureParameterAxis(lp->xAxis, axis);
    const QString over = sweepParameterText(axis.parameter);
    m_plots[ThroughputPlot].title->setText(m_data.cycling
            ? tr("IOPS and MB/s by queue depth (Iometer's cycling)")
            : tr("IOPS and MB/s by %1").arg(over));
    m_plots[LatencyPlot].title->setText(
        tr("Latency by %1").arg(m_data.cycling ? tr("queue depth") : over));

    tp->yAxis->setLabel(tr("IOPS"));
    tp->yAxis2->setVisible(true);
    tp->yAxis2->setLabel(tr("MB/s"));
    tp->yAxis2->setTicker(QSharedPointer<QCPAxisTicker>(new CompactTicker));
    tp->yAxis2->setTickLabels(true);
    tp->yAxis2->grid()->setVisible(false);

    const bool single = m_data.families.size() == 1;
    const bool whiskers = std::any_of(m_data.points.begin(), m_data.points.end(),
        [](const core::SeriesPointResult &p) { return p.trials.size() > 1; });
    // The colours say which figure a curve is when there is one family, which family
    // it belongs to when there are several; the pens say it always: IOPS dashed with
    // hollow diamonds, MB/s solid with filled marks, the device wide and pale.
    const QColor iopsColor = series::total();
    const QColor mbColor = series::read();
    tp->yAxis->setLabelColor(single ? iopsColor : palette().color(QPalette::WindowText));
    tp->yAxis2->setLabelColor(palette().color(QPalette::WindowText));
    tp->yAxis->setLabel(m_iopsLog ? tr("IOPS (log scale)") : tr("IOPS"));

    // The latency axis: its unit from the middle of what it shows.
    double maxLatency = 0, minPlotted = std::numeric_limits<double>::max();
    for (const auto &p : m_data.points) {
        const auto take = [&](const core::TrialStat &s) {
            maxLatency = std::max(maxLatency, s.max);
            if (s.median > 0)
                minPlotted = std::min(minPlotted, s.min > 0 ? s.min : s.median);
        };
        for (int l = 0; l < LatencyCount; ++l)
            take(latencyStat(p, l));
        if (p.connectionsValid) {
            take(p.operationMeanUs);
            take(p.operationP99Us);
        }
    }
    const bool files = hasFiles();
    const LatencyUnit unit = latencyAxisUnit(minPlotted, maxLatency);
    m_latencyDivisor = unit.divisor;
    lp->yAxis->setScaleType(QCPAxis::stLogarithmic);
    lp->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new Log125Ticker));
    lp->yAxis->setSubTicks(false);
    lp->yAxis->setLabel(tr("latency (%1)").arg(unit.name));

    double maxIops = 0, minIops = std::numeric_limits<double>::max(), maxMb = 0;
    auto addCurve
        = [](QCustomPlot *plot, QCPAxis *valueAxis, const QString &name, const QColor &color,
              Qt::PenStyle style, QCPScatterStyle::ScatterShape shape) {
              auto *graph = plot->addGraph(plot->xAxis, valueAxis);
              graph->setName(name);
              graph->setPen(QPen(color, 2, style));
              if (shape != QCPScatterStyle::ssNone)
                  graph->setScatterStyle(QCPScatterStyle(shape, color, color, 6));
              return graph;
          };
    // IOPS is told from MB/s by more than its colour (a family's curves share one): a
    // dashed pen and hollow diamonds.
    const auto addIopsCurve = [&](const QString &name, const QColor &color) {
        auto *graph = addCurve(tp, tp->yAxis, name, color, Qt::DashLine, QCPScatterStyle::ssNone);
        graph->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(color, 1.5), Qt::NoBrush, 9));
        return graph;
    };
    auto addWhiskers
        = [](QCPGraph *graph, const QVector<double> &minus, const QVector<double> &plus) {
              auto *bars = new QCPErrorBars(graph->keyAxis(), graph->valueAxis());
              bars->setDataPlottable(graph);
              bars->setErrorType(QCPErrorBars::etValueError);
              QColor c = graph->pen().color();
              bars->setPen(QPen(c, 1));
              bars->setWhiskerWidth(7);
              bars->setSymbolGap(0);
              bars->removeFromLegend();
              bars->setData(minus, plus);
              return bars;
          };

    double minLatency = std::numeric_limits<double>::max();
    for (std::size_t f = 0; f < m_data.families.size(); ++f) {
        const SeriesFamily &family = m_data.families[f];
        std::vector<const core::SeriesPointResult *> pts;
        for (std::size_t i : family.points)
            pts.push_back(&m_data.points[i]);
        std::sort(pts.begin(), pts.end(),
            [](const auto *a, const auto *b) { return a->values.front() < b->values.front(); });
        const QString suffix = single ? QString() : QStringLiteral(" · ") + family.name;
        const QColor own = paletteColor(f);
        FamilyGraphs g;
        g.iops = addIopsCurve(tr("IOPS") + suffix, single ? iopsColor : own);
        // A family that both read and wrote draws its reads and its writes apart, each to
        // be read against the device's figure of the same direction (its total against the
        // device's parts compares nothing).
        const bool mixed = std::any_of(pts.begin(), pts.end(), [](const auto *p) {
            return p->readMegabytesPerSecond.max > 0;
        }) && std::any_of(pts.begin(), pts.end(), [](const auto *p) {
            return p->writeMegabytesPerSecond.max > 0;
        });
        QVector<double> x, iops, iopsMinus, iopsPlus, devRead, devWrite;
        QVector<double> mb, mbMinus, mbPlus, rd, rdMinus, rdPlus, wr, wrMinus, wrPlus;
        bool deviceRead = false, deviceWrite = false;
        for (const auto *p : pts) {
            const double key = double(p->values.front());
            x << key;
            iops << (m_iopsLog && !(p->iops.median > 0) ? kNaN : p->iops.median);
            iopsMinus << p->iops.median - p->iops.min;
            iopsPlus << p->iops.max - p->iops.median;
            const auto stat = [](const core::TrialStat &s, QVector<double> &v,
                                  QVector<double> &minus, QVector<double> &plus) {
                v << s.median;
                minus << s.median - s.min;
                plus << s.max - s.median;
            };
            stat(p->megabytesPerSecond, mb, mbMinus, mbPlus);
            stat(p->readMegabytesPerSecond, rd, rdMinus, rdPlus);
            stat(p->writeMegabytesPerSecond, wr, wrMinus, wrPlus);
            devRead << (p->deviceValid ? p->deviceReadMegabytesPerSecond.median : kNaN);
            devWrite << (p->deviceValid ? p->deviceWriteMegabytesPerSecond.median : kNaN);
            maxIops = std::max(maxIops, p->iops.max);
            if (p->iops.min > 0)
                minIops = std::min(minIops, p->iops.min);
            // The MB/s axis spans what is drawn on it: a mixed spec's total is not.
            maxMb = std::max(maxMb,
                mixed ? std::max(p->readMegabytesPerSecond.max, p->writeMegabytesPerSecond.max)
                      : p->megabytesPerSecond.max);
            if (p->deviceValid) {
                maxMb = std::max({maxMb, p->deviceReadMegabytesPerSecond.median,
                    p->deviceWriteMegabytesPerSecond.median});
                // A direction the device barely moved in (a journal's writes under a read
                // test) is noise beside the curves, not a curve of its own.
                const double floor = std::max(0.05, 0.01 * p->megabytesPerSecond.median);
                deviceRead |= p->deviceReadMegabytesPerSecond.median > floor;
                deviceWrite |= p->deviceWriteMegabytesPerSecond.median > floor;
            }
        }
        g.iops->setData(x, iops, true);
        if (mixed) {
            g.readMegabytes = addCurve(tp, tp->yAxis2, tr("read MB/s") + suffix,
                single ? series::read() : own, Qt::SolidLine, QCPScatterStyle::ssDisc);
            g.readMegabytes->setData(x, rd, true);
            // Several families share a colour each: the write curve is told from the read
            // one by its pen too.
            g.writeMegabytes = addCurve(tp, tp->yAxis2, tr("write MB/s") + suffix,
                single ? series::write() : own, single ? Qt::SolidLine : Qt::DashDotLine,
                QCPScatterStyle::ssSquare);
            g.writeMegabytes->setData(x, wr, true);
        } else {
            g.megabytes = addCurve(tp, tp->yAxis2, tr("MB/s") + suffix, single ? mbColor : own,
                Qt::SolidLine, QCPScatterStyle::ssDisc);
            g.megabytes->setData(x, mb, true);
        }
        if (files) {
            // Files opened per second on the IOPS axis: a tree opens one file per I/O, the
            // connection rate one per so many.
            QVector<double> opened, openedMinus, openedPlus;
            for (const auto *p : pts) {
                const core::TrialStat &f = p->filesPerSecond;
                opened << (p->connectionsValid ? f.median : kNaN);
                openedMinus << (p->connectionsValid ? f.median - f.min : 0);
                openedPlus << (p->connectionsValid ? f.max - f.median : 0);
                if (p->connectionsValid)
                    maxIops = std::max(maxIops, f.max);
                if (p->connectionsValid && f.min > 0)
                    minIops = std::min(minIops, f.min);
            }
            g.files = addCurve(tp, tp->yAxis, tr("files/s") + suffix,
                single ? QColor(23, 190, 207) : own, Qt::DotLine, QCPScatterStyle::ssTriangle);
            g.files->setProperty("ioprismFiles", true);
            g.files->setData(x, opened, true);
            if (whiskers)
                addWhiskers(g.files, openedMinus, openedPlus);
        }
        if (whiskers) {
            g.iopsBars = addWhiskers(g.iops, iopsMinus, iopsPlus);
            if (g.megabytes)
                addWhiskers(g.megabytes, mbMinus, mbPlus);
            if (g.readMegabytes)
                addWhiskers(g.readMegabytes, rdMinus, rdPlus);
            if (g.writeMegabytes)
                addWhiskers(g.writeMegabytes, wrMinus, wrPlus);
        }
        // The device's figures go under the application's, wider and paler, so that
        // where they agree (the usual case) both stay visible.
        const auto deviceCurve = [&](const QString &name, QColor color, Qt::PenStyle style,
                                     const QVector<double> &values) {
            auto *graph = addCurve(tp, tp->yAxis2, name, color, style, QCPScatterStyle::ssNone);
            color.setAlpha(150);
            graph->setPen(QPen(color, 3.5, style, Qt::FlatCap));
            graph->setLayer(QStringLiteral("device"));
            graph->setData(x, values, true);
            return graph;
        };
        if (deviceRead)
            g.deviceRead = deviceCurve(tr("device read MB/s") + suffix,
                single ? series::read().lighter(125) : own.lighter(125), Qt::DashLine, devRead);
        if (deviceWrite)
            g.deviceWrite = deviceCurve(tr("device write MB/s") + suffix,
                single ? series::write().lighter(125) : own.lighter(150), Qt::DotLine, devWrite);

        for (int l = 0; l < LatencyCount; ++l) {
            QVector<double> y, minus, plus;
            for (const auto *p : pts) {
                const core::TrialStat &s = latencyStat(*p, l);
                // No completed I/O: no latency; NaN leaves a gap (a log axis has no 0).
                const bool any = s.median > 0;
                y << (any ? s.median / unit.divisor : kNaN);
                minus << (any ? (s.median - s.min) / unit.divisor : 0);
                plus << (any ? (s.max - s.median) / unit.divisor : 0);
                if (any)
                    minLatency = std::min(minLatency, s.min > 0 ? s.min : s.median);
            }
            auto *graph = addCurve(lp, lp->yAxis, latencyName(l) + suffix, latencyColor(l),
                Qt::SolidLine, single ? QCPScatterStyle::ssDisc : familyShape(f));
            graph->setData(x, y, true);
            if (whiskers)
                addWhiskers(graph, minus, plus);
            g.latency[std::size_t(l)] = graph;
        }
        // The whole operation (open to close), dashed beside the I/O's own latency.
        for (int o = 0; files && o < 2; ++o) {
            QVector<double> y, minus, plus;
            for (const auto *p : pts) {
                const core::TrialStat &s = o == 0 ? p->operationMeanUs : p->operationP99Us;
                const bool any = p->connectionsValid && s.median > 0;
                y << (any ? s.median / unit.divisor : kNaN);
                minus << (any ? (s.median - s.min) / unit.divisor : 0);
                plus << (any ? (s.max - s.median) / unit.divisor : 0);
                if (any)
                    minLatency = std::min(minLatency, s.min > 0 ? s.min : s.median);
            }
            auto *graph = addCurve(lp, lp->yAxis,
                (o == 0 ? tr("operation mean") : tr("operation p99")) + suffix,
                latencyColor(o == 0 ? MeanLatency : P99Latency), Qt::DashLine,
                single ? QCPScatterStyle::ssTriangle : familyShape(f));
            graph->setData(x, y, true);
            if (whiskers)
                addWhiskers(graph, minus, plus);
            g.operation[std::size_t(o)] = graph;
        }
        m_familyGraphs.push_back(g);
    }
    if (m_iopsLog) {
        tp->yAxis->setScaleType(QCPAxis::stLogarithmic);
        tp->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new CompactLogTicker));
        tp->yAxis->setSubTicks(false);
        if (maxIops > 0)
            tp->yAxis->setRange(minIops / 2, maxIops * 2);
        else
            tp->yAxis->setRange(1, 1000);
    } else {
        // More headroom than MB/s: where IOPS and MB/s are proportional (a queue-depth
        // curve at one transfer size) each axis would scale its curve onto the other's,
        // and the IOPS curve would vanish under the MB/s one.
        tp->yAxis->setRange(0, maxIops > 0 ? maxIops * 1.5 : 1);
    }
    tp->yAxis2->setRange(0, maxMb > 0 ? maxMb * 1.12 : 1);
    if (maxLatency > 0) {
        const double lo = minLatency / unit.divisor;
        const double hi = maxLatency / unit.divisor;
        lp->yAxis->setRange(lo / 1.6, std::max(hi * 1.6, lo * 10));
    } else {
        lp->yAxis->setRange(1, 1000);
    }
    tp->replot(QCustomPlot::rpQueuedReplot);
    lp->replot(QCustomPlot::rpQueuedReplot);
}

// ---------------------------------------------------------------- two axes: a matrix

double SeriesPlots::metricValue(const core::SeriesPointResult &point) const
{
    switch (m_metric) {
    case IopsMetric:
        return point.iops.median;
    case MegabytesMetric:
        return point.megabytesPerSecond.median;
    case P99Metric:
        return point.p99LatencyUs.median > 0 ? point.p99LatencyUs.median : kNaN;
    case FilesMetric:
        return point.connectionsValid ? point.filesPerSecond.median : kNaN;
    case OperationP99Metric:
        return point.connectionsValid && point.operationP99Us.median > 0
            ? point.operationP99Us.median
            : kNaN;
    }
    return kNaN;
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
    m_plots[HeatMapPlot].title->setText(
        family.name.isEmpty() ? metricLabel() : tr("%1 · %2").arg(metricLabel(), family.name));

    m_cells.assign(std::size_t(nx), std::vector<int>(std::size_t(ny), -1));
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

    // The cells' figures; latency in the unit of its magnitude (the cells' labels and
    // the hover say their own).
    std::vector<std::vector<double>> values(
        std::size_t(nx), std::vector<double>(std::size_t(ny), kNaN));
    double lo = std::numeric_limits<double>::max(), hi = 0;
    for (int x = 0; x < nx; ++x)
        for (int y = 0; y < ny; ++y) {
            const int i = m_cells[std::size_t(x)][std::size_t(y)];
            const double v = i < 0 ? kNaN : metricValue(m_data.points[std::size_t(i)]);
            values[std::size_t(x)][std::size_t(y)] = v;
            if (!std::isnan(v)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        }
    const LatencyUnit unit = latencyAxisUnit(lo, hi);
    const double divisor = latencyMetric() ? unit.divisor : 1;
    if (hi < lo) { // no cell yet
        lo = 0;
        hi = 1;
    } else {
        lo /= divisor;
        hi /= divisor;
        if (hi <= lo) {
            lo = lo > 0 ? lo * 0.9 : 0;
            hi = hi > 0 ? hi * 1.1 : 1;
        }
    }
    m_colorMap = new QCPColorMap(hp->xAxis, hp->yAxis);
    m_colorMap->setInterpolate(false);
    m_colorMap->setTightBoundary(false);
    m_colorMap->data()->setSize(std::max(nx, 1), std::max(ny, 1));
    m_colorMap->data()->setRange(
        QCPRange(0, std::max(nx - 1, 0)), QCPRange(0, std::max(ny - 1, 0)));
    for (int x = 0; x < nx; ++x)
        for (int y = 0; y < ny; ++y)
            m_colorMap->data()->setCell(x, y, values[std::size_t(x)][std::size_t(y)] / divisor);
    // Figures that span orders of magnitude (IOPS from 512 B to 1 MiB) get a log scale,
    // so the small ones are not all one colour.
    const bool logColors = lo > 0 && hi / lo > 20;
    const auto scaleType = logColors ? QCPAxis::stLogarithmic : QCPAxis::stLinear;
    m_colorMap->setGradient(heatGradient());
    m_colorMap->setColorScale(m_colorScale);
    m_colorMap->setDataScaleType(scaleType);
    m_colorMap->setDataRange(QCPRange(lo, hi));
    m_colorScale->setDataScaleType(scaleType);
    m_colorScale->setDataRange(QCPRange(lo, hi));
    QCPAxis *scaleAxis = m_colorScale->axis();
    if (logColors)
        scaleAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog));
    else
        scaleAxis->setTicker(QSharedPointer<QCPAxisTicker>(new CompactTicker));
    scaleAxis->setNumberFormat(QStringLiteral("gb"));
    scaleAxis->setLabel(
        latencyMetric() ? tr("%1 (%2)").arg(metricLabel(), unit.name) : metricLabel());
    scaleAxis->setTickLabelColor(palette().color(QPalette::WindowText));
    scaleAxis->setLabelColor(palette().color(QPalette::WindowText));
    scaleAxis->setBasePen(QPen(palette().color(QPalette::WindowText)));
    scaleAxis->setTickPen(QPen(palette().color(QPalette::WindowText)));
    scaleAxis->setSubTickPen(QPen(palette().color(QPalette::WindowText)));

    if (nx <= int(kMaxLabelledCells) && ny <= int(kMaxLabelledCells)) {
        QCPColorGradient gradient = heatGradient(); // color() is not const
        QFont small = font();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        for (int x = 0; x < nx; ++x)
            for (int y = 0; y < ny; ++y) {
                const int i = m_cells[std::size_t(x)][std::size_t(y)];
                if (i < 0)
                    continue;
                const double v = values[std::size_t(x)][std::size_t(y)];
                if (std::isnan(v))
                    continue;
                auto *label = new QCPItemText(hp);
                label->position->setCoords(x, y);
                label->setText(cellLabel(m_metric, v));
                label->setFont(small);
                // Black or white by the cell's luminance (yellow needs black).
                const QColor cell
                    = QColor::fromRgb(gradient.color(v / divisor, QCPRange(lo, hi), logColors));
                label->setColor(labelColorOn(cell));
                label->setClipToAxisRect(true);
            }
    }
    hp->rescaleAxes(false);
    hp->xAxis->setRange(-0.5, nx - 0.5);
    hp->yAxis->setRange(-0.5, ny - 0.5);
    hp->replot(QCustomPlot::rpQueuedReplot);
}

void SeriesPlots::drawMatrixCurves(const SeriesFamily &family)
{
    QCustomPlot *cp = plot(CurvesPlot);
    const SeriesAxisValues &ax = m_data.axes[0];
    const SeriesAxisValues &ay = m_data.axes[1];
    configureParameterAxis(cp->xAxis, ax);
    m_plots[CurvesPlot].title->setText(
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
        auto *graph = cp->addGraph();
        graph->setName(curveName(ay.parameter, ay.values[j]));
        const QColor color = paletteColor(j);
        graph->setPen(QPen(color, 2));
        graph->setScatterStyle(QCPScatterStyle(familyShape(j), color, color, 6));
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
        if (whiskers) {
            auto *bars = new QCPErrorBars(cp->xAxis, cp->yAxis);
            bars->setDataPlottable(graph);
            bars->setPen(QPen(color, 1));
            bars->setWhiskerWidth(7);
            bars->setSymbolGap(0);
            bars->removeFromLegend();
            bars->setData(minus, plus);
        }
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

// ---------------------------------------------------------------- lookups, hover, export

QCPGraph *SeriesPlots::iopsGraph(int family) const
{
    return family >= 0 && family < int(m_familyGraphs.size())
        ? m_familyGraphs[std::size_t(family)].iops
        : nullptr;
}

QCPGraph *SeriesPlots::megabytesGraph(int family) const
{
    return family >= 0 && family < int(m_familyGraphs.size())
        ? m_familyGraphs[std::size_t(family)].megabytes
        : nullptr;
}

QCPGraph *SeriesPlots::readMegabytesGraph(int family) const
{
    return family >= 0 && family < int(m_familyGraphs.size())
        ? m_familyGraphs[std::size_t(family)].readMegabytes
        : nullptr;
}

QCPGraph *SeriesPlots::writeMegabytesGraph(int family) const
{
    return family >= 0 && family < int(m_familyGraphs.size())
        ? m_familyGraphs[std::size_t(family)].writeMegabytes
        : nullptr;
}

QCPGraph *SeriesPlots::deviceReadGraph(int family) const
{
    return family >= 0 && family < int(m_familyGraphs.size())
        ? m_familyGraphs[std::size_t(family)].deviceRead
        : nullptr;
}

QCPGraph *SeriesPlots::deviceWriteGraph(int family) const
{
    return family >= 0 && family < int(m_familyGraphs.size())
        ? m_familyGraphs[std::size_t(family)].deviceWrite
        : nullptr;
}

QCPGraph *SeriesPlots::latencyGraph(int family, Latency which) const
{
    return family >= 0 && family < int(m_familyGraphs.size())
        ? m_familyGraphs[std::size_t(family)].latency[std::size_t(which)]
        : nullptr;
}

QCPGraph *SeriesPlots::filesGraph(int family) const
{
    return family >= 0 && family < int(m_familyGraphs.size())
        ? m_familyGraphs[std::size_t(family)].files
        : nullptr;
}

QCPGraph *SeriesPlots::operationGraph(int family, bool p99) const
{
    return family >= 0 && family < int(m_familyGraphs.size())
        ? m_familyGraphs[std::size_t(family)].operation[p99 ? 1 : 0]
        : nullptr;
}

QCPErrorBars *SeriesPlots::iopsWhiskers(int family) const
{
    return family >= 0 && family < int(m_familyGraphs.size())
        ? m_familyGraphs[std::size_t(family)].iopsBars
        : nullptr;
}

QCPGraph *SeriesPlots::matrixCurve(int secondAxisValue) const
{
    return secondAxisValue >= 0 && secondAxisValue < int(m_matrixCurves.size())
        ? m_matrixCurves[std::size_t(secondAxisValue)]
        : nullptr;
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
    // The value nearest the pointer, in pixels (a log axis is not even in values).
    double key = kNaN;
    double best = std::numeric_limits<double>::max();
    for (std::uint64_t v : m_data.axes[0].values) {
        const double d = std::abs(p->xAxis->coordToPixel(double(v)) - pos.x());
        if (d < best) {
            best = d;
            key = double(v);
        }
    }
    if (std::isnan(key))
        return {};
    QStringList lines;
    for (int g = 0; g < p->graphCount(); ++g) {
        const QCPGraph *graph = p->graph(g);
        auto it = graph->data()->findBegin(key, false);
        if (it == graph->data()->constEnd() || it->key != key || std::isnan(it->value))
            continue;
        QString value;
        const QString name = graph->name();
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
        lines << QStringLiteral("<span style=\"color:%1\">■</span> %2: <b>%3</b>")
                     .arg(graph->pen().color().name(), name.toHtmlEscaped(), value);
    }
    if (lines.isEmpty())
        return {};
    const SeriesAxisValues &axis = m_data.axes[0];
    return QStringLiteral("<b>%1</b><br>%2")
        .arg(curveName(axis.parameter, static_cast<std::uint64_t>(key)),
            lines.join(QStringLiteral("<br>")));
}

void SeriesPlots::showHover(PlotId id, const QPoint &pos)
{
    const QString text = hoverText(id, pos);
    if (text.isEmpty()) {
        hideHover(id);
        return;
    }
    auto &entry = m_plots[std::size_t(id)];
    if (id != HeatMapPlot && entry.tracer) {
        // The tracer marks the value read out.
        double key = 0, best = std::numeric_limits<double>::max();
        for (std::uint64_t v : m_data.axes[0].values) {
            const double d = std::abs(entry.plot->xAxis->coordToPixel(double(v)) - pos.x());
            if (d < best) {
                best = d;
                key = double(v);
            }
        }
        entry.tracer->point1->setCoords(key, 1);
        entry.tracer->point2->setCoords(key, 2);
        entry.tracer->setVisible(true);
        entry.plot->replot(QCustomPlot::rpQueuedReplot);
    }
    QToolTip::showText(entry.plot->mapToGlobal(pos + QPoint(14, 10)), text, entry.plot);
}

void SeriesPlots::hideHover(PlotId id)
{
    auto &entry = m_plots[std::size_t(id)];
    if (entry.tracer && entry.tracer->visible()) {
        entry.tracer->setVisible(false);
        entry.plot->replot(QCustomPlot::rpQueuedReplot);
    }
    QToolTip::hideText();
}

bool SeriesPlots::savePlot(PlotId id, const QString &fileName)
{
    auto &entry = m_plots[std::size_t(id)];
    if (entry.tracer)
        entry.tracer->setVisible(false);
    return savePlotFile(entry.plot, fileName, plotTitle(id));
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

bool SeriesPlots::eventFilter(QObject *watched, QEvent *event)
{
    for (std::size_t p = 0; p < m_plots.size(); ++p) {
        if (watched != m_plots[p].plot)
            continue;
        const auto id = static_cast<PlotId>(p);
        if (event->type() == QEvent::Leave) {
            hideHover(id);
        } else if (event->type() == QEvent::ToolTip) {
            // Over the data the hover read-out replaces the static tooltip.
            const auto *help = static_cast<QHelpEvent *>(event);
            if (m_data.isSeries() && m_plots[p].plot->axisRect()->rect().contains(help->pos()))
                return true;
        } else if (event->type() == QEvent::ContextMenu) {
            // popup(), not exec(): no nested event loop on the GUI thread.
            auto *menuEvent = static_cast<QContextMenuEvent *>(event);
            auto *menu = new QMenu(this);
            menu->setAttribute(Qt::WA_DeleteOnClose);
            menu->addAction(tr("Save the %1 as PNG or PDF…").arg(plotTitle(id).toLower()), this,
                [this, id] { emit exportRequested(id); });
            menu->popup(menuEvent->globalPos());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace ioprism::ui
