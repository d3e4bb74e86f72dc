// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/live_plots.h"

#include "core/run/interval_history.h"
#include "ui/format.h"
#include "ui/plots/frame_pacer.h"
#include "ui/plots/latency_heat_map.h"
#include "ui/plots/qcp_library.h"
#include "ui/plots/steady_state_overlay.h"
#include "ui/style.h"

#include <QGridLayout>
#include <QMenu>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ioprism::ui {

namespace {

// A logarithmic latency axis (values in µs) whose ticks always cover the range in view:
// QCPAxisTickerLog puts ticks only at powers of ten, so a range inside one decade
// (400–1000 µs) had none or one. Ticks go at 1-2-5 × 10^k; at 1 × 10^k alone when the
// range spans many decades; at every integer × 10^k when 1-2-5 gives fewer than two.
// Labels carry their unit by magnitude, like the tables: "500 µs", "2 ms", "1.5 s".
class LatencyTicker : public QCPAxisTicker
{
protected:
    int getSubTickCount(double) override { return 0; }

    QString getTickLabel(double tick, const QLocale &locale, QChar, int) override
    {
        if (tick >= 1e6)
            return locale.toString(tick / 1e6, 'g', 3) + QStringLiteral(" s");
        if (tick >= 1e3)
            return locale.toString(tick / 1e3, 'g', 3) + QStringLiteral(" ms");
        return locale.toString(tick, 'g', 3) + QStringLiteral(" µs");
    }

    QVector<double> createTickVector(double tickStep, const QCPRange &range) override
    {
        const double lower = std::max(range.lower, 1e-3);
        const double upper = std::max(range.upper, lower);
        const auto ticksWith = [&](std::initializer_list<double> mantissas) {
            QVector<double> ticks;
            for (int e = static_cast<int>(std::floor(std::log10(lower)));
                 e <= static_cast<int>(std::ceil(std::log10(upper))); ++e)
                for (double m : mantissas) {
                    const double tick = m * std::pow(10.0, e);
                    if (tick >= lower * 0.999 && tick <= upper * 1.001)
                        ticks << tick;
                }
            return ticks;
        };
        QVector<double> ticks = ticksWith({1, 2, 5});
        if (ticks.size() > 8)
            ticks = ticksWith({1});
        else if (ticks.size() < 2)
            ticks = ticksWith({1, 2, 3, 4, 5, 6, 7, 8, 9});
        if (ticks.size() < 2) // a very narrow range: linear ticks
            ticks = QCPAxisTicker::createTickVector(tickStep, range);
        return ticks;
    }
};

} // namespace

LivePlots::LivePlots(QWidget *parent)
    : PlotPanel(PlotCount, parent)
{
    m_pacer = new FramePacer(this, [this] {
        for (int p = 0; p < plotCount(); ++p)
            plotAt(p)->replot(QCustomPlot::rpQueuedReplot);
    });

    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);

    auto *throughput = makePlot(ThroughputPlot, tr("Throughput"), tr("MB/s"));
    auto &t = m_series[ThroughputPlot];
    t.unit = QStringLiteral("MB/s");
    t.app = {addGraph(throughput, tr("read"), series::read(), false),
        addGraph(throughput, tr("write"), series::write(), false)};
    t.device = {addGraph(throughput, tr("device read"), series::read(), true),
        addGraph(throughput, tr("device write"), series::write(), true)};

    auto *iops = makePlot(IopsPlot, tr("IOPS"), tr("I/O per second"));
    auto &i = m_series[IopsPlot];
    i.unit = tr("IOPS");
    i.app = {addGraph(iops, tr("total"), series::total(), false),
        addGraph(iops, tr("read"), series::read(), false),
        addGraph(iops, tr("write"), series::write(), false)};
    i.device = {addGraph(iops, tr("device"), series::device(), true)};

    // The unit is on each tick (µs, ms or s by magnitude), not in the axis title.
    auto *latency = makePlot(LatencyPlot, tr("Latency"), tr("latency"));
    auto &l = m_series[LatencyPlot];
    l.unit = QStringLiteral("µs");
    l.logScale = true;
    latency->yAxis->setScaleType(QCPAxis::stLogarithmic);
    latency->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new LatencyTicker));
    latency->yAxis->setRange(10, 10000);
    l.app = {addGraph(latency, tr("p50"), series::p50(), false),
        addGraph(latency, tr("p99"), series::p99(), false),
        addGraph(latency, tr("p99.9"), series::p999(), false)};
    l.device = {addGraph(latency, tr("device await"), series::device(), true)};
    m_heatMap = std::make_unique<LatencyHeatMap>(latency, kMaxPointsPerGraph);
    m_steadyState = std::make_unique<SteadyStateOverlay>();
    connect(latency, &QCustomPlot::beforeReplot, this, [this] { m_heatMap->update(); });

    auto *cpu = makePlot(CpuPlot, tr("CPU"), tr("% of all CPUs"));
    auto &c = m_series[CpuPlot];
    c.unit = QStringLiteral("%");
    cpu->yAxis->setRange(0, 100);
    c.app = {addGraph(cpu, tr("user"), series::user(), false),
        addGraph(cpu, tr("system"), series::system(), false),
        addGraph(cpu, tr("iowait"), series::iowait(), false)};
    c.device = {addGraph(cpu, tr("device %util"), series::device(), true)};

    layout->addWidget(throughput, 0, 0);
    layout->addWidget(iops, 0, 1);
    layout->addWidget(latency, 1, 0);
    layout->addWidget(cpu, 1, 1);

    // Link the time axes: panning or zooming one plot moves the others.
    for (std::size_t a = 0; a < m_series.size(); ++a) {
        connect(plotAt(int(a))->xAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this,
            [this, a](const QCPRange &range) {
                if (m_syncingRanges)
                    return;
                m_syncingRanges = true;
                for (std::size_t b = 0; b < m_series.size(); ++b)
                    if (b != a) {
                        plotAt(int(b))->xAxis->setRange(range);
                        plotAt(int(b))->replot(QCustomPlot::rpQueuedReplot);
                    }
                m_syncingRanges = false;
            });
    }
    clear(); // also gives each plot its hover tracer
}

LivePlots::~LivePlots() = default;

void LivePlots::setHeatMapVisible(bool visible)
{
    if (visible == m_heatMap->isVisible())
        return;
    m_heatMap->setVisible(visible);
    if (m_following)
        follow();
    replotAll();
}

bool LivePlots::isHeatMapVisible() const
{
    return m_heatMap->isVisible();
}

QCustomPlot *LivePlots::makePlot(PlotId id, const QString &title, const QString &yLabel)
{
    auto *plot = createPlot(id, QStringLiteral("plot%1").arg(int(id)), QSize(280, 180), title);
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot->setToolTip(tr("%1 over time. Drag to pan, wheel to zoom (both pause following), "
                        "double-click to follow the newest sample again; right-click to save.")
                         .arg(title));
    plot->xAxis->setLabel(tr("time (s)"));
    plot->yAxis->setLabel(yLabel);
    plot->xAxis->setRange(0, 10);
    plot->yAxis->setRange(0, 1);
    putLegendUnderTitle(plot, QMargins(8, 0, 8, 0));
    plot->legend->setColumnSpacing(12);
    plot->legend->setRowSpacing(0);
    // Before each frame: legends wrap to the width, step labels elide to their room.
    connect(plot, &QCustomPlot::beforeReplot, this, [this, id] { wrapLegend(id); });
    connect(plot, &QCustomPlot::afterLayout, this, [this, id] { layoutStepLabels(id); });

    connect(plot, &QCustomPlot::mousePress, this, [this](QMouseEvent *) { setFollowing(false); });
    connect(plot, &QCustomPlot::mouseWheel, this, [this](QWheelEvent *) { setFollowing(false); });
    connect(
        plot, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent *) { setFollowing(true); });
    return plot;
}

QCPGraph *LivePlots::addGraph(
    QCustomPlot *plot, const QString &name, const QColor &color, bool dashed)
{
    QCPGraph *graph = plot->addGraph();
    graph->setName(name);
    // One pixel wide: the raster engine draws such lines (antialiased, solid or dashed)
    // on its fast path, at a cost that does not grow with the width of the line. (At a
    // device pixel ratio above 1 the pen is scaled and may leave that path; measured
    // at a ratio of 1 only.) Wider
    // pens go through the path stroker: measured with bench/gui-vs-cli, 2 px lines made
    // the GUI thread's cost grow with the points in view, to 61 % of a core after 30 s
    // at 100 ms sampling; 1 px lines stay at about 6 % (docs/performance.md).
    QPen pen(color, 1.0);
    if (dashed)
        pen.setStyle(Qt::DashLine);
    graph->setPen(pen);
    graph->setAdaptiveSampling(true);
    if (dashed) {
        // Device overlays appear (and enter the legend) with their first point.
        graph->setVisible(false);
        graph->removeFromLegend();
    }
    return graph;
}

QString LivePlots::plotTitle(PlotId id) const
{
    switch (id) {
    case ThroughputPlot:
        return tr("Throughput");
    case IopsPlot:
        return tr("IOPS");
    case LatencyPlot:
        return tr("Latency");
    case CpuPlot:
        return tr("CPU");
    default:
        return {};
    }
}

void LivePlots::clear()
{
    for (std::size_t p = 0; p < m_series.size(); ++p) {
        auto &entry = m_series[p];
        QCustomPlot *plot = plotAt(int(p));
        for (auto *graph : entry.app)
            graph->data()->clear();
        for (auto *graph : entry.device) {
            graph->data()->clear();
            graph->setVisible(false);
            graph->removeFromLegend();
        }
        // Step markers and ramp-up shading go; the hover tracer is made again.
        plot->clearItems();
        addTracer(int(p));
        m_rampRects[p] = nullptr;
        plot->xAxis->setRange(0, 10);
        if (entry.logScale)
            plot->yAxis->setRange(10, 10000);
        else if (p != CpuPlot)
            plot->yAxis->setRange(0, 1);
    }
    m_lastKey = 0;
    m_lastStep = -1;
    m_stepStart = 0;
    m_steps.clear();
    m_requestSizes.clear();
    m_heatMap->clear();
    m_steadyState->forget(); // its items went with clearItems()
    setFollowing(true);
    replotAll();
}

void LivePlots::addPoint(QCPGraph *graph, double key, double value)
{
    auto data = graph->data();
    data->add(QCPGraphData(key, value));
    // Sliding window, trimmed in chunks so the cost per sample stays constant.
    if (data->size() > kMaxPointsPerGraph + kMaxPointsPerGraph / 10) {
        const double cut = (data->constEnd() - kMaxPointsPerGraph)->key;
        data->removeBefore(cut);
    }
}

void LivePlots::addSample(
    const core::IntervalSample &sample, const std::optional<DeviceOverlayPoint> &device)
{
    if (sample.scopes.empty())
        return;
    markStep(sample);
    if (sample.phase == core::RunPhase::RampUp)
        extendRampUp(sample);
    const double key = sample.endSeconds;
    const core::Figures &f = sample.scopes.front().figures;
    // A key that goes back (a new run without clear()) would unsort the data: ignore it.
    if (key < m_lastKey)
        return;
    m_lastKey = key;

    const auto &t = m_series[ThroughputPlot].app;
    addPoint(t[ReadMegabytes], key, f.read.megabytesPerSecond);
    addPoint(t[WriteMegabytes], key, f.write.megabytesPerSecond);
    const auto &i = m_series[IopsPlot].app;
    addPoint(i[TotalIops], key, f.total.iops);
    addPoint(i[ReadIops], key, f.read.iops);
    addPoint(i[WriteIops], key, f.write.iops);
    // No completed I/O: no latency. NaN leaves a gap (a log axis cannot show 0).
    const auto &l = m_series[LatencyPlot].app;
    const bool any = f.total.ios > 0;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    addPoint(l[P50], key, any ? f.total.latency.p50Us : nan);
    addPoint(l[P99], key, any ? f.total.latency.p99Us : nan);
    addPoint(l[P999], key, any ? f.total.latency.p99_9Us : nan);
    m_heatMap->addInterval(
        sample.startSeconds, sample.endSeconds, core::intervalLatencyBands(sample));
    if (sample.cpu.valid) {
        const auto &c = m_series[CpuPlot].app;
        addPoint(c[CpuUser], key, sample.cpu.userPercent);
        addPoint(c[CpuSystem], key, sample.cpu.systemPercent);
        addPoint(c[CpuIowait], key, sample.cpu.iowaitPercent);
    }
    if (device)
        addDevicePoint(*device);
    if (m_following)
        follow();
    requestReplot();
}

void LivePlots::setSteadyState(int step, const core::SteadyStateRecord &record)
{
    PlotId id = LatencyPlot;
    switch (record.setup.metric) {
    case core::SteadyStateMetric::Iops:
        id = IopsPlot;
        break;
    case core::SteadyStateMetric::MegabytesPerSecond:
        id = ThroughputPlot;
        break;
    case core::SteadyStateMetric::MeanLatency:
    case core::SteadyStateMetric::P99Latency:
    case core::SteadyStateMetric::P99_9Latency:
        break;
    }
    m_steadyState->show(plotAt(id), step, record);
    requestReplot();
}

void LivePlots::addDevicePoint(const DeviceOverlayPoint &point)
{
    const double key = point.endSeconds;
    m_requestSizes.push_back({key, point.appRequestBytes, point.deviceRequestBytes});
    if (m_requestSizes.size() > kMaxPointsPerGraph + kMaxPointsPerGraph / 10)
        m_requestSizes.erase(m_requestSizes.begin(),
            m_requestSizes.end() - static_cast<std::ptrdiff_t>(kMaxPointsPerGraph));
    auto show = [&](QCPGraph *graph, double value) {
        if (!graph->visible()) {
            graph->setVisible(true);
            graph->addToLegend();
        }
        addPoint(graph, key, value);
    };
    const auto &t = m_series[ThroughputPlot].device;
    show(t[0], point.readMegabytesPerSecond);
    show(t[1], point.writeMegabytesPerSecond);
    show(m_series[IopsPlot].device[0], point.iops);
    show(m_series[LatencyPlot].device[0],
        point.awaitMs > 0 ? point.awaitMs * 1000.0 : std::numeric_limits<double>::quiet_NaN());
    show(m_series[CpuPlot].device[0], point.utilPercent);
}

void LivePlots::markStep(const core::IntervalSample &sample)
{
    // Preconditioning (before the first step, whose number its samples share) is marked
    // as a span of its own, by its name.
    const bool precondition = sample.phase == core::RunPhase::Preconditioning;
    const int step = precondition ? kPreconditionMark : static_cast<int>(sample.step);
    if (step == m_lastStep)
        return;
    m_lastStep = step;
    m_stepStart = sample.startSeconds;
    StepMark mark;
    mark.startSeconds = sample.startSeconds;
    mark.label = precondition
        ? toQString(sample.stepName)
        : QStringLiteral("%1. %2").arg(step + 1).arg(toQString(sample.stepName));
    for (std::size_t p = 0; p < m_series.size(); ++p) {
        auto *plot = plotAt(int(p));
        auto *marker = new QCPItemStraightLine(plot);
        marker->setLayer(QStringLiteral("grid"));
        marker->setPen(QPen(Qt::black, 1, Qt::DashDotLine));
        useTextColor(marker, 110);
        marker->point1->setCoords(sample.startSeconds, 0);
        marker->point2->setCoords(sample.startSeconds, 1);
        auto *label = new QCPItemText(plot);
        label->setLayer(QStringLiteral("grid"));
        label->setClipToAxisRect(true);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(sample.startSeconds, 0.0);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        useTextColor(label, 110);
        QFont small = font();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        label->setFont(small);
        label->setText(mark.label);
        mark.items[p] = label;
    }
    m_steps.push_back(mark);
    m_rampRects.fill(nullptr);
}

void LivePlots::layoutStepLabels(PlotId id)
{
    const auto p = static_cast<std::size_t>(id);
    QCPAxis *x = plotAt(id)->xAxis;
    const double right = x->axisRect()->right();
    constexpr int kPadLeft = 4;
    // Two rows: even steps on the first, odd ones on the second, so a label has the room
    // up to the step after next; what does not fit is elided (the hover shows it whole).
    for (std::size_t i = 0; i < m_steps.size(); ++i) {
        QCPItemText *label = m_steps[i].items[p];
        if (!label)
            continue;
        const QFontMetrics metrics(label->font());
        const int row = static_cast<int>(i % 2);
        label->setPadding(QMargins(kPadLeft, 2 + row * metrics.height(), 0, 0));
        const double start = x->coordToPixel(m_steps[i].startSeconds);
        const double end = i + 2 < m_steps.size()
            ? std::min(right, x->coordToPixel(m_steps[i + 2].startSeconds))
            : right;
        const int room = static_cast<int>(end - start) - kPadLeft - 4;
        QString text = metrics.elidedText(m_steps[i].label, Qt::ElideRight, std::max(room, 0));
        if (text.size() <= 1) { // "" or "…": the step number alone, if even that fits
            const QString number = QString::number(i + 1);
            text = metrics.horizontalAdvance(number) <= room ? number : QString();
        }
        label->setText(text);
    }
}

void LivePlots::wrapLegend(PlotId id)
{
    QCustomPlot *plot = plotAt(id);
    QCPLegend *legend = plot->legend;
    const int count = legend->itemCount();
    if (count == 0)
        return;
    std::vector<int> widths;
    for (int i = 0; i < count; ++i)
        if (auto *item = legend->item(i))
            widths.push_back(item->minimumOuterSizeHint().width());
    const int available = plot->width() - legend->margins().left() - legend->margins().right();
    // The most columns whose widest names, side by side, fit the plot's width: names are
    // never cut, the legend takes another row instead.
    int columns = static_cast<int>(widths.size());
    for (; columns > 1; --columns) {
        int total = legend->columnSpacing() * (columns - 1);
        for (int c = 0; c < columns; ++c) {
            int widest = 0;
            for (std::size_t i = static_cast<std::size_t>(c); i < widths.size();
                 i += static_cast<std::size_t>(columns))
                widest = std::max(widest, widths[i]);
            total += widest;
        }
        if (total <= available)
            break;
    }
    if (legend->wrap() != columns || legend->columnCount() > columns) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLegend::foColumnsFirst, true);
    }
}

void LivePlots::extendRampUp(const core::IntervalSample &sample)
{
    if (!m_steps.empty())
        m_steps.back().rampEndSeconds = sample.endSeconds;
    for (std::size_t p = 0; p < m_series.size(); ++p) {
        auto *plot = plotAt(int(p));
        if (!m_rampRects[p]) {
            auto *rect = new QCPItemRect(plot);
            rect->setLayer(QStringLiteral("grid"));
            rect->setPen(Qt::NoPen);
            useTextColor(rect, 22);
            rect->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
            rect->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
            rect->topLeft->setCoords(m_stepStart, 0);
            m_rampRects[p] = rect;
        }

        m_rampRects[p]->bottomRight->setCoords(sample.endSeconds, 1);
    }
}

void LivePlots::setFollowing(bool following)
{
    if (following == m_following)
        return;
    m_following = following;
    if (following) {
        follow();
        replotAll();
    }
    emit followingChanged(following);
}

void LivePlots::follow()
{
    const double upper = std::max(m_lastKey, 10.0);
    const double lower = std::max(0.0, upper - kFollowWindowSeconds);
    m_syncingRanges = true;
    for (std::size_t p = 0; p < m_series.size(); ++p) {
        auto &entry = m_series[p];
        QCustomPlot *plot = plotAt(int(p));
        plot->xAxis->setRange(lower, upper);
        if (p == CpuPlot)
            continue; // fixed 0..100 %
        bool found = false;
        QCPRange range;
        for (auto *graph : entry.app) {
            bool ok = false;
            const QCPRange r = graph->getValueRange(ok, QCP::sdBoth, QCPRange(lower, upper));
            if (ok) {
                range = found
                    ? QCPRange(std::min(range.lower, r.lower), std::max(range.upper, r.upper))
                    : r;
                found = true;
            }
        }
        for (auto *graph : entry.device) {
            bool ok = false;
            if (!graph->visible())
                continue;
            const QCPRange r = graph->getValueRange(ok, QCP::sdBoth, QCPRange(lower, upper));
            if (ok) {
                range = found
                    ? QCPRange(std::min(range.lower, r.lower), std::max(range.upper, r.upper))
                    : r;
                found = true;
            }
        }
        // The heat map's bands: a stall's outliers far above the p99.9 stay in view.
        if (p == LatencyPlot && m_heatMap->isVisible())
            if (const auto map = m_heatMap->latencyRangeUs(lower, upper)) {
                range = found ? QCPRange(
                            std::min(range.lower, map->first), std::max(range.upper, map->second))
                              : QCPRange(map->first, map->second);
                found = true;
            }
        if (!found)
            continue;
        if (entry.logScale) {
            const double lo = std::max(range.lower, 0.1);
            plot->yAxis->setRange(lo / 1.5, std::max(range.upper * 1.5, lo * 10));
        } else {
            plot->yAxis->setRange(0, range.upper > 0 ? range.upper * 1.2 : 1);
        }
    }
    m_syncingRanges = false;
}

void LivePlots::replotAll()
{
    m_pacer->drawNow();
}

void LivePlots::requestReplot()
{
    m_pacer->request();
}

int LivePlots::pointCount(PlotId id, int graph) const
{
    const auto &entry = m_series[static_cast<std::size_t>(id)];
    const int appCount = static_cast<int>(entry.app.size());
    if (graph < 0)
        return 0;
    if (graph < appCount)
        return entry.app[static_cast<std::size_t>(graph)]->data()->size();
    const int d = graph - appCount;
    if (d < static_cast<int>(entry.device.size()))
        return entry.device[static_cast<std::size_t>(d)]->data()->size();
    return 0;
}

bool LivePlots::savePlot(PlotId id, const QString &fileName)
{
    return exportPlot(id, fileName, plotTitle(id));
}

QString LivePlots::stepLabelText(PlotId id, int step) const
{
    if (step < 0 || step >= stepCount())
        return {};
    const auto *label = m_steps[static_cast<std::size_t>(step)].items[static_cast<std::size_t>(id)];
    return label ? label->text() : QString();
}

QString LivePlots::stepFullName(int step) const
{
    return step >= 0 && step < stepCount() ? m_steps[static_cast<std::size_t>(step)].label
                                           : QString();
}

void LivePlots::relayout()
{
    for (int p = 0; p < plotCount(); ++p)
        plotAt(p)->replot(QCustomPlot::rpImmediateRefresh);
}

bool LivePlots::nearestKey(PlotId id, double key, double &nearest) const
{
    const auto &entry = m_series[static_cast<std::size_t>(id)];
    bool any = false;
    auto consider = [&](const QCPGraph *graph) {
        if (!graph->visible() || graph->data()->isEmpty())
            return;
        auto it = graph->data()->findBegin(key, false);
        if (it == graph->data()->constEnd())
            --it;
        if (it != graph->data()->constBegin()) {
            auto before = it - 1;
            if (std::abs(before->key - key) < std::abs(it->key - key))
                it = before;
        }
        if (!any || std::abs(it->key - key) < std::abs(nearest - key))
            nearest = it->key;
        any = true;
    };
    for (const auto *graph : entry.app)
        consider(graph);
    for (const auto *graph : entry.device)
        consider(graph);
    return any;
}

QString LivePlots::hoverText(PlotId id, double key) const
{
    double shownKey = key;
    if (!nearestKey(id, key, shownKey))
        return {};
    const auto &entry = m_series[static_cast<std::size_t>(id)];
    QStringList lines;
    auto describe = [&](const QCPGraph *graph) {
        if (!graph->visible() || graph->data()->isEmpty())
            return;
        auto it = graph->data()->findBegin(shownKey, false);
        if (it == graph->data()->constEnd() || std::abs(it->key - shownKey) > 1e-9)
            return; // no point of this series at that time
        QString value;
        if (std::isnan(it->value))
            value = QStringLiteral("—");
        else if (id == LatencyPlot)
            value = latencyText(it->value);
        else if (id == ThroughputPlot)
            value = megabytesPerSecondText(it->value);
        else if (id == IopsPlot)
            value = iopsText(it->value) + QStringLiteral(" IOPS");
        else
            value = percentText(it->value);
        lines << hoverLine(graph, value);
    };
    for (const auto *graph : entry.app)
        describe(graph);
    for (const auto *graph : entry.device)
        describe(graph);
    QString text
        = QStringLiteral("<b>%1</b>").arg(tr("t = %1 s").arg(QLocale().toString(shownKey, 'f', 1)));
    // The step in full (its label on the plot may be elided), and whether it was ramping.
    const StepMark *step = nullptr;
    for (const auto &mark : m_steps)
        if (mark.startSeconds <= shownKey + 1e-9)
            step = &mark;
    if (step) {
        const bool ramp = shownKey <= step->rampEndSeconds + 1e-9;
        text += QStringLiteral("<br><i>%1</i>")
                    .arg(ramp ? tr("Step %1 (ramp-up)").arg(step->label.toHtmlEscaped())
                              : tr("Step %1").arg(step->label.toHtmlEscaped()));
    }
    text += QStringLiteral("<br>") + lines.join(QStringLiteral("<br>"));
    if (id == IopsPlot && !m_requestSizes.empty()) {
        auto it = std::lower_bound(m_requestSizes.begin(), m_requestSizes.end(), shownKey - 1e-9,
            [](const RequestSizes &r, double k) { return r.key < k; });
        if (it != m_requestSizes.end() && std::abs(it->key - shownKey) < 1e-9) {
            const QString split = requestSplitText(it->appBytes, it->deviceBytes);
            if (!split.isEmpty())
                text += QStringLiteral("<br><br>") + split.toHtmlEscaped();
        }
    }
    return text;
}

QString LivePlots::hoverAt(int index, const QPoint &pos, double &tracerKey) const
{
    const auto id = static_cast<PlotId>(index);
    const QCustomPlot *p = plot(id);
    if (!p->axisRect()->rect().contains(pos))
        return {};
    const double key = p->xAxis->pixelToCoord(pos.x());
    double shownKey = key;
    QString text = hoverText(id, key);
    if (text.isEmpty() || !nearestKey(id, key, shownKey))
        return {};
    tracerKey = shownKey;
    // Under the pointer on the latency plot: the I/Os of the interval read out (the same
    // as the percentiles above) in the heat map's band at the pointer's height.
    if (id == LatencyPlot && m_heatMap->isVisible())
        if (const auto band = m_heatMap->intervalBandAt(shownKey, p->yAxis->pixelToCoord(pos.y())))
            text += QStringLiteral("<br><br>")
                + tr("%Ln I/O(s) in %1 – %2", nullptr,
                    int(std::min<std::uint64_t>(band->ios, std::numeric_limits<int>::max())))
                      .arg(latencyText(band->lowUs), latencyText(band->highUs))
                      .toHtmlEscaped();
    return text;
}

void LivePlots::fillContextMenu(QMenu *menu, int index)
{
    const auto id = static_cast<PlotId>(index);
    menu->addAction(tr("Save %1 plot as PNG or PDF…").arg(plotTitle(id)), this,
        [this, id] { emit exportRequested(id); });
    menu->addAction(tr("Follow the newest sample"), this, [this] { setFollowing(true); })
        ->setEnabled(!m_following);
    if (id == LatencyPlot) {
        QAction *map = menu->addAction(tr("Show the latency heat map"), this,
            [this](bool checked) { setHeatMapVisible(checked); });
        map->setCheckable(true);
        menu->setToolTipsVisible(true);
        map->setChecked(isHeatMapVisible());
        map->setToolTip(tr("Colour each interval's I/Os by latency behind the percentiles "
                           "(brighter: more I/Os, on a log scale)"));
    }
}

} // namespace ioprism::ui
