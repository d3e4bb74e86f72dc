#include "ui/plots/live_plots.h"

#include "ui/format.h"
#include "ui/plots/frame_pacer.h"
#include "ui/plots/plot_file.h"
#include "ui/style.h"

#include <QContextMenuEvent>
#include <QEvent>
#include <QGridLayout>
#include <QHelpEvent>
#include <QMenu>
#include <QToolTip>
#include <qcustomplot.h>

#include <cmath>

namespace ioprism::ui {

LivePlots::LivePlots(QWidget *parent)
    : QWidget(parent)
{
    m_pacer = new FramePacer(this, [this] {
        for (auto &entry : m_series)
            entry.plot->replot(QCustomPlot::rpQueuedReplot);
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

    auto *latency = makePlot(LatencyPlot, tr("Latency"), tr("latency (µs)"));
    auto &l = m_series[LatencyPlot];
    l.unit = QStringLiteral("µs");
    l.logScale = true;
    latency->yAxis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> logTicker(new QCPAxisTickerLog);
    latency->yAxis->setTicker(logTicker);
    latency->yAxis->setNumberFormat(QStringLiteral("gb"));
    latency->yAxis->setRange(10, 10000);
    l.app = {addGraph(latency, tr("p50"), series::p50(), false),
        addGraph(latency, tr("p99"), series::p99(), false),
        addGraph(latency, tr("p99.9"), series::p999(), false)};
    l.device = {addGraph(latency, tr("device await"), series::device(), true)};

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
        connect(m_series[a].plot->xAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this,
            [this, a](const QCPRange &range) {
                if (m_syncingRanges)
                    return;
                m_syncingRanges = true;
                for (std::size_t b = 0; b < m_series.size(); ++b)
                    if (b != a) {
                        m_series[b].plot->xAxis->setRange(range);
                        m_series[b].plot->replot(QCustomPlot::rpQueuedReplot);
                    }
                m_syncingRanges = false;
            });
    }
    clear();
}

QCustomPlot *LivePlots::makePlot(PlotId id, const QString &title, const QString &yLabel)
{
    auto *plot = new QCustomPlot(this);
    auto &entry = m_series[static_cast<std::size_t>(id)];
    entry.plot = plot;
    plot->setMinimumSize(280, 180);
    plot->setObjectName(QStringLiteral("plot%1").arg(int(id)));
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot->setMouseTracking(true);
    plot->setToolTip(tr("%1 over time. Drag to pan, wheel to zoom (both pause following), "
                        "double-click to follow the newest sample again; right-click to save.")
                         .arg(title));
    plot->setContextMenuPolicy(Qt::DefaultContextMenu);

    plot->plotLayout()->insertRow(0);
    auto *titleElement = new QCPTextElement(
        plot, title, QFont(font().family(), font().pointSize() + 1, QFont::Bold));
    plot->plotLayout()->addElement(0, 0, titleElement);

    plot->xAxis->setLabel(tr("time (s)"));
    plot->yAxis->setLabel(yLabel);
    plot->xAxis->setRange(0, 10);
    plot->yAxis->setRange(0, 1);
    plot->legend->setVisible(true);
    QFont legendFont = font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
    plot->legend->setFont(legendFont);
    // Background, axes, title and legend text from the palette, and again on every
    // change of it (light to dark and back).
    followPalette(plot);
    // The legend goes in a row of its own under the title, so it never hides data.
    plot->axisRect()->insetLayout()->take(plot->legend);
    plot->plotLayout()->insertRow(1);
    plot->plotLayout()->addElement(1, 0, plot->legend);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setBrush(Qt::NoBrush);
    plot->legend->setMargins(QMargins(60, 0, 10, 0));
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    plot->plotLayout()->setRowStretchFactor(1, 0.001);
    plot->plotLayout()->setRowSpacing(0);

    auto *tracer = new QCPItemStraightLine(plot);
    tracer->setPen(QPen(Qt::black, 1, Qt::DashLine));
    useTextColor(tracer, 120);
    tracer->setVisible(false);
    tracer->setLayer(QStringLiteral("overlay"));
    entry.tracer = tracer;

    connect(plot, &QCustomPlot::mousePress, this, [this](QMouseEvent *) { setFollowing(false); });
    connect(plot, &QCustomPlot::mouseWheel, this, [this](QWheelEvent *) { setFollowing(false); });
    connect(
        plot, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent *) { setFollowing(true); });
    connect(plot, &QCustomPlot::mouseMove, this,
        [this, id](QMouseEvent *event) { showHover(id, event->pos()); });
    plot->installEventFilter(this);
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
        for (auto *graph : entry.app)
            graph->data()->clear();
        for (auto *graph : entry.device) {
            graph->data()->clear();
            graph->setVisible(false);
            graph->removeFromLegend();
        }
        // Step markers and ramp-up shading go; the hover tracer stays.
        for (int i = entry.plot->itemCount() - 1; i >= 0; --i)
            if (entry.plot->item(i) != entry.tracer)
                entry.plot->removeItem(i);
        m_rampRects[p] = nullptr;
        entry.plot->xAxis->setRange(0, 10);
        if (entry.logScale)
            entry.plot->yAxis->setRange(10, 10000);
        else if (p != CpuPlot)
            entry.plot->yAxis->setRange(0, 1);
    }
    m_lastKey = 0;
    m_lastStep = -1;
    m_stepStart = 0;
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

void LivePlots::addDevicePoint(const DeviceOverlayPoint &point)
{
    const double key = point.endSeconds;
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
    const int step = static_cast<int>(sample.step);
    if (step == m_lastStep)
        return;
    m_lastStep = step;
    m_stepStart = sample.startSeconds;
    for (auto &entry : m_series) {
        auto *marker = new QCPItemStraightLine(entry.plot);
        marker->setLayer(QStringLiteral("grid"));
        marker->setPen(QPen(Qt::black, 1, Qt::DashDotLine));
        useTextColor(marker, 110);
        marker->point1->setCoords(sample.startSeconds, 0);
        marker->point2->setCoords(sample.startSeconds, 1);
        auto *label = new QCPItemText(entry.plot);
        label->setLayer(QStringLiteral("grid"));
        label->setClipToAxisRect(true);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(sample.startSeconds, 0.0);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setPadding(QMargins(4, 2, 0, 0));
        useTextColor(label, 110);
        QFont small = font();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        label->setFont(small);
        label->setText(QStringLiteral("%1. %2").arg(step + 1).arg(toQString(sample.stepName)));
    }
    m_rampRects.fill(nullptr);
}

void LivePlots::extendRampUp(const core::IntervalSample &sample)
{
    for (std::size_t p = 0; p < m_series.size(); ++p) {
        auto *plot = m_series[p].plot;
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
        entry.plot->xAxis->setRange(lower, upper);
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
        if (!found)
            continue;
        if (entry.logScale) {
            const double lo = std::max(range.lower, 0.1);
            entry.plot->yAxis->setRange(lo / 1.5, std::max(range.upper * 1.5, lo * 10));
        } else {
            entry.plot->yAxis->setRange(0, range.upper > 0 ? range.upper * 1.2 : 1);
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
    auto *p = plot(id);
    auto &entry = m_series[static_cast<std::size_t>(id)];
    entry.tracer->setVisible(false);
    return savePlotFile(p, fileName, plotTitle(id));
}

void LivePlots::showHover(PlotId id, const QPoint &pos)
{
    auto &entry = m_series[static_cast<std::size_t>(id)];
    QCustomPlot *p = entry.plot;
    if (!p->axisRect()->rect().contains(pos)) {
        hideHover(id);
        return;
    }
    const double key = p->xAxis->pixelToCoord(pos.x());
    QStringList lines;
    double shownKey = key;
    bool any = false;
    auto describe = [&](QCPGraph *graph) {
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
        shownKey = it->key;
        any = true;
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
        const QColor color = graph->pen().color();
        lines << QStringLiteral("<span style=\"color:%1\">■</span> %2: <b>%3</b>")
                     .arg(color.name(), graph->name().toHtmlEscaped(), value);
    };
    for (auto *graph : entry.app)
        describe(graph);
    for (auto *graph : entry.device)
        describe(graph);
    if (!any) {
        hideHover(id);
        return;
    }
    entry.tracer->point1->setCoords(shownKey, 0);
    entry.tracer->point2->setCoords(shownKey, 1);
    entry.tracer->setVisible(true);
    p->replot(QCustomPlot::rpQueuedReplot);
    const QString text = QStringLiteral("<b>%1</b><br>%2")
                             .arg(tr("t = %1 s").arg(QLocale().toString(shownKey, 'f', 1)),
                                 lines.join(QStringLiteral("<br>")));
    QToolTip::showText(p->mapToGlobal(pos + QPoint(14, 10)), text, p);
}

void LivePlots::hideHover(PlotId id)
{
    auto &entry = m_series[static_cast<std::size_t>(id)];
    if (entry.tracer->visible()) {
        entry.tracer->setVisible(false);
        entry.plot->replot(QCustomPlot::rpQueuedReplot);
    }
    QToolTip::hideText();
}

bool LivePlots::eventFilter(QObject *watched, QEvent *event)
{
    for (std::size_t p = 0; p < m_series.size(); ++p) {
        if (watched != m_series[p].plot)
            continue;
        const auto id = static_cast<PlotId>(p);
        if (event->type() == QEvent::Leave) {
            hideHover(id);
        } else if (event->type() == QEvent::ToolTip) {
            // Over the data the hover read-out replaces the static tooltip.
            const auto *help = static_cast<QHelpEvent *>(event);
            if (m_series[p].plot->axisRect()->rect().contains(help->pos()))
                return true;
        } else if (event->type() == QEvent::ContextMenu) {
            // popup(), not exec(): no nested event loop on the GUI thread.
            auto *menuEvent = static_cast<QContextMenuEvent *>(event);
            auto *menu = new QMenu(this);
            menu->setAttribute(Qt::WA_DeleteOnClose);
            menu->addAction(tr("Save %1 plot as PNG or PDF…").arg(plotTitle(id)), this,
                [this, id] { emit exportRequested(id); });
            menu->addAction(tr("Follow the newest sample"), this, [this] { setFollowing(true); })
                ->setEnabled(!m_following);
            menu->popup(menuEvent->globalPos());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace ioprism::ui
