// SPDX-License-Identifier: GPL-3.0-or-later
// SeriesPlots, one axis: IOPS and MB/s above, latency below, a family of curves per spec
// (and target in turn), with whiskers over the trials and the device's figures.
#include "ui/format.h"
#include "ui/plots/qcp_library.h"
#include "ui/plots/series_axes.h"
#include "ui/plots/series_plot.h"
#include "ui/style.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ioprism::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

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
// A figure of each point as a curve draws it: the median, and the whiskers' reach below
// and above it (to the smallest and the largest trial).
struct StatColumns {
    QVector<double> values, minus, plus;
    void add(const core::TrialStat &s)
    {
        values << s.median;
        minus << s.median - s.min;
        plus << s.max - s.median;
    }
};

} // namespace

// What one family's curves are drawn from.
struct SeriesPlots::CurveFamily {
    std::size_t index = 0;
    std::vector<const core::SeriesPointResult *> points; // by the swept value
    QVector<double> x; // the swept value of each point
    QString suffix; // " · its name" when there are several families
    QColor own; // its colour when there are several
    bool single = true; // the only family: the colours say which figure a curve is
    bool whiskers = false; // some point ran several trials
    bool files = false; // some point opened files
};

// The extremes of what the curves show, for the axes' ranges.
struct SeriesPlots::CurveRanges {
    double maxIops = 0;
    double minIops = std::numeric_limits<double>::max();
    double maxMb = 0;
    double minLatency = std::numeric_limits<double>::max();
    double maxLatency = 0;
};

void SeriesPlots::drawCurves()
{
    CurveRanges ranges;
    const LatencyUnit unit = setUpCurveAxes(ranges);
    const bool whiskers = std::any_of(m_data.points.begin(), m_data.points.end(),
        [](const core::SeriesPointResult &p) { return p.trials.size() > 1; });
    for (std::size_t f = 0; f < m_data.families.size(); ++f) {
        const SeriesFamily &family = m_data.families[f];
        CurveFamily c;
        c.index = f;
        for (std::size_t i : family.points)
            c.points.push_back(&m_data.points[i]);
        std::sort(c.points.begin(), c.points.end(),
            [](const auto *a, const auto *b) { return a->values.front() < b->values.front(); });
        for (const auto *p : c.points)
            c.x << double(p->values.front());
        c.single = m_data.families.size() == 1;
        c.suffix = c.single ? QString() : QStringLiteral(" · ") + family.name;
        c.own = paletteColor(f);
        c.whiskers = whiskers;
        c.files = hasFiles();
        FamilyGraphs g;
        drawThroughputCurves(c, g, ranges);
        drawLatencyCurves(c, unit.divisor, g, ranges);
        m_familyGraphs.push_back(g);
    }
    setCurveRanges(ranges, unit.divisor);
}

LatencyUnit SeriesPlots::setUpCurveAxes(CurveRanges &ranges)
{
    QCustomPlot *tp = plot(ThroughputPlot);
    QCustomPlot *lp = plot(LatencyPlot);
    const SeriesAxisValues &axis = m_data.axes.front();
    configureParameterAxis(tp->xAxis, axis);
    configureParameterAxis(lp->xAxis, axis);
    const QString over = sweepParameterText(axis.parameter);
    titleOf(ThroughputPlot)
        ->setText(m_data.cycling ? tr("IOPS and MB/s by queue depth (Iometer's cycling)")
                                 : tr("IOPS and MB/s by %1").arg(over));
    titleOf(LatencyPlot)
        ->setText(tr("Latency by %1").arg(m_data.cycling ? tr("queue depth") : over));

    tp->yAxis2->setVisible(true);
    tp->yAxis2->setLabel(tr("MB/s"));
    tp->yAxis2->setTicker(QSharedPointer<QCPAxisTicker>(new CompactTicker));
    tp->yAxis2->setTickLabels(true);
    tp->yAxis2->grid()->setVisible(false);
    // With one family the IOPS curves' colour names the axis they are read against.
    const bool single = m_data.families.size() == 1;
    tp->yAxis->setLabelColor(single ? series::total() : palette().color(QPalette::WindowText));
    tp->yAxis2->setLabelColor(palette().color(QPalette::WindowText));
    tp->yAxis->setLabel(m_iopsLog ? tr("IOPS (log scale)") : tr("IOPS"));

    // The latency axis: its unit from the middle of what it shows.
    double minPlotted = std::numeric_limits<double>::max();
    for (const auto &p : m_data.points) {
        const auto take = [&](const core::TrialStat &s) {
            ranges.maxLatency = std::max(ranges.maxLatency, s.max);
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
    LatencyUnit unit = latencyAxisUnit(minPlotted, ranges.maxLatency);
    m_latencyDivisor = unit.divisor;
    lp->yAxis->setScaleType(QCPAxis::stLogarithmic);
    lp->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new Log125Ticker));
    lp->yAxis->setSubTicks(false);
    lp->yAxis->setLabel(tr("latency (%1)").arg(unit.name));
    return unit;
}

void SeriesPlots::drawThroughputCurves(const CurveFamily &c, FamilyGraphs &g, CurveRanges &r)
{
    QCustomPlot *tp = plot(ThroughputPlot);
    const auto &pts = c.points;
    // The colours say which figure a curve is when there is one family, which family
    // it belongs to when there are several; the pens say it always: IOPS dashed with
    // hollow diamonds, MB/s solid with filled marks, the device wide and pale.
    const QColor iopsColor = c.single ? series::total() : c.own;
    g.iops = addCurve(
        tp, tp->yAxis, tr("IOPS") + c.suffix, iopsColor, Qt::DashLine, QCPScatterStyle::ssNone);
    g.iops->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(iopsColor, 1.5), Qt::NoBrush, 9));
    // A family that both read and wrote draws its reads and its writes apart, each to
    // be read against the device's figure of the same direction (its total against the
    // device's parts compares nothing).
    const bool mixed = std::any_of(pts.begin(), pts.end(), [](const auto *p) {
        return p->readMegabytesPerSecond.max > 0;
    }) && std::any_of(pts.begin(), pts.end(), [](const auto *p) {
        return p->writeMegabytesPerSecond.max > 0;
    });
    StatColumns iops, mb, rd, wr;
    for (const auto *p : pts) {
        iops.add(p->iops);
        if (m_iopsLog && !(p->iops.median > 0))
            iops.values.back() = kNaN;
        mb.add(p->megabytesPerSecond);
        rd.add(p->readMegabytesPerSecond);
        wr.add(p->writeMegabytesPerSecond);
        r.maxIops = std::max(r.maxIops, p->iops.max);
        if (p->iops.min > 0)
            r.minIops = std::min(r.minIops, p->iops.min);
        // The MB/s axis spans what is drawn on it: a mixed spec's total is not.
        r.maxMb = std::max(r.maxMb,
            mixed ? std::max(p->readMegabytesPerSecond.max, p->writeMegabytesPerSecond.max)
                  : p->megabytesPerSecond.max);
    }
    g.iops->setData(c.x, iops.values, true);
    if (mixed) {
        g.readMegabytes = addCurve(tp, tp->yAxis2, tr("read MB/s") + c.suffix,
            c.single ? series::read() : c.own, Qt::SolidLine, QCPScatterStyle::ssDisc);
        g.readMegabytes->setData(c.x, rd.values, true);
        // Several families share a colour each: the write curve is told from the read
        // one by its pen too.
        g.writeMegabytes = addCurve(tp, tp->yAxis2, tr("write MB/s") + c.suffix,
            c.single ? series::write() : c.own, c.single ? Qt::SolidLine : Qt::DashDotLine,
            QCPScatterStyle::ssSquare);
        g.writeMegabytes->setData(c.x, wr.values, true);
    } else {
        g.megabytes = addCurve(tp, tp->yAxis2, tr("MB/s") + c.suffix,
            c.single ? series::read() : c.own, Qt::SolidLine, QCPScatterStyle::ssDisc);
        g.megabytes->setData(c.x, mb.values, true);
    }
    if (c.files)
        drawFilesCurve(c, g, r);
    if (c.whiskers) {
        g.iopsBars = addWhiskers(g.iops, iops.minus, iops.plus);
        if (g.megabytes)
            addWhiskers(g.megabytes, mb.minus, mb.plus);
        if (g.readMegabytes)
            addWhiskers(g.readMegabytes, rd.minus, rd.plus);
        if (g.writeMegabytes)
            addWhiskers(g.writeMegabytes, wr.minus, wr.plus);
    }
    drawDeviceCurves(c, g, r);
}

void SeriesPlots::drawFilesCurve(const CurveFamily &c, FamilyGraphs &g, CurveRanges &r)
{
    // Files opened per second on the IOPS axis: a tree opens one file per I/O, the
    // connection rate one per so many.
    QCustomPlot *tp = plot(ThroughputPlot);
    QVector<double> opened, openedMinus, openedPlus;
    for (const auto *p : c.points) {
        const core::TrialStat &f = p->filesPerSecond;
        opened << (p->connectionsValid ? f.median : kNaN);
        openedMinus << (p->connectionsValid ? f.median - f.min : 0);
        openedPlus << (p->connectionsValid ? f.max - f.median : 0);
        if (p->connectionsValid)
            r.maxIops = std::max(r.maxIops, f.max);
        if (p->connectionsValid && f.min > 0)
            r.minIops = std::min(r.minIops, f.min);
    }
    g.files = addCurve(tp, tp->yAxis, tr("files/s") + c.suffix,
        c.single ? QColor(23, 190, 207) : c.own, Qt::DotLine, QCPScatterStyle::ssTriangle);
    g.files->setProperty("ioprismFiles", true);
    g.files->setData(c.x, opened, true);
    if (c.whiskers)
        addWhiskers(g.files, openedMinus, openedPlus);
}

void SeriesPlots::drawDeviceCurves(const CurveFamily &c, FamilyGraphs &g, CurveRanges &r)
{
    QCustomPlot *tp = plot(ThroughputPlot);
    QVector<double> devRead, devWrite;
    bool deviceRead = false, deviceWrite = false;
    for (const auto *p : c.points) {
        devRead << (p->deviceValid ? p->deviceReadMegabytesPerSecond.median : kNaN);
        devWrite << (p->deviceValid ? p->deviceWriteMegabytesPerSecond.median : kNaN);
        if (!p->deviceValid)
            continue;
        r.maxMb = std::max({r.maxMb, p->deviceReadMegabytesPerSecond.median,
            p->deviceWriteMegabytesPerSecond.median});
        // A direction the device barely moved in (a journal's writes under a read test)
        // is noise beside the curves, not a curve of its own.
        const double floor = std::max(0.05, 0.01 * p->megabytesPerSecond.median);
        deviceRead |= p->deviceReadMegabytesPerSecond.median > floor;
        deviceWrite |= p->deviceWriteMegabytesPerSecond.median > floor;
    }
    // The device's figures go under the application's, wider and paler, so that where
    // they agree (the usual case) both stay visible.
    const auto deviceCurve = [&](const QString &name, QColor color, Qt::PenStyle style,
                                 const QVector<double> &values) {
        auto *graph = addCurve(tp, tp->yAxis2, name, color, style, QCPScatterStyle::ssNone);
        color.setAlpha(150);
        graph->setPen(QPen(color, 3.5, style, Qt::FlatCap));
        graph->setLayer(QStringLiteral("device"));
        graph->setData(c.x, values, true);
        return graph;
    };
    if (deviceRead)
        g.deviceRead = deviceCurve(tr("device read MB/s") + c.suffix,
            c.single ? series::read().lighter(125) : c.own.lighter(125), Qt::DashLine, devRead);
    if (deviceWrite)
        g.deviceWrite = deviceCurve(tr("device write MB/s") + c.suffix,
            c.single ? series::write().lighter(125) : c.own.lighter(150), Qt::DotLine, devWrite);
}

void SeriesPlots::drawLatencyCurves(
    const CurveFamily &c, double divisor, FamilyGraphs &g, CurveRanges &r)
{
    QCustomPlot *lp = plot(LatencyPlot);
    // One curve of latencies in the axis' unit; `valid` says which points have one.
    const auto curve = [&](const QString &name, const QColor &color, Qt::PenStyle style,
                           QCPScatterStyle::ScatterShape shape, auto statOf, auto valid) {
        QVector<double> y, minus, plus;
        for (const auto *p : c.points) {
            const core::TrialStat &s = statOf(*p);
            // No completed I/O: no latency; NaN leaves a gap (a log axis has no 0).
            const bool any = valid(*p) && s.median > 0;
            y << (any ? s.median / divisor : kNaN);
            minus << (any ? (s.median - s.min) / divisor : 0);
            plus << (any ? (s.max - s.median) / divisor : 0);
            if (any)
                r.minLatency = std::min(r.minLatency, s.min > 0 ? s.min : s.median);
        }
        auto *graph = addCurve(lp, lp->yAxis, name + c.suffix, color, style, shape);
        graph->setData(c.x, y, true);
        if (c.whiskers)
            addWhiskers(graph, minus, plus);
        return graph;
    };
    const auto always = [](const core::SeriesPointResult &) { return true; };
    for (int l = 0; l < LatencyCount; ++l)
        g.latency[std::size_t(l)] = curve(
            latencyName(l), latencyColor(l), Qt::SolidLine,
            c.single ? QCPScatterStyle::ssDisc : familyShape(c.index),
            [l](const core::SeriesPointResult &p) -> const core::TrialStat & {
                return latencyStat(p, l);
            },
            always);
    // The whole operation (open to close), dashed beside the I/O's own latency.
    const auto opened = [](const core::SeriesPointResult &p) { return p.connectionsValid; };
    for (int o = 0; c.files && o < 2; ++o)
        g.operation[std::size_t(o)] = curve(
            o == 0 ? tr("operation mean") : tr("operation p99"),
            latencyColor(o == 0 ? MeanLatency : P99Latency), Qt::DashLine,
            c.single ? QCPScatterStyle::ssTriangle : familyShape(c.index),
            [o](const core::SeriesPointResult &p) -> const core::TrialStat & {
                return o == 0 ? p.operationMeanUs : p.operationP99Us;
            },
            opened);
}

void SeriesPlots::setCurveRanges(const CurveRanges &r, double divisor)
{
    QCustomPlot *tp = plot(ThroughputPlot);
    QCustomPlot *lp = plot(LatencyPlot);
    if (m_iopsLog) {
        tp->yAxis->setScaleType(QCPAxis::stLogarithmic);
        tp->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new CompactLogTicker));
        tp->yAxis->setSubTicks(false);
        if (r.maxIops > 0)
            tp->yAxis->setRange(r.minIops / 2, r.maxIops * 2);
        else
            tp->yAxis->setRange(1, 1000);
    } else {
        // More headroom than MB/s: where IOPS and MB/s are proportional (a queue-depth
        // curve at one transfer size) each axis would scale its curve onto the other's,
        // and the IOPS curve would vanish under the MB/s one.
        tp->yAxis->setRange(0, r.maxIops > 0 ? r.maxIops * 1.5 : 1);
    }
    tp->yAxis2->setRange(0, r.maxMb > 0 ? r.maxMb * 1.12 : 1);
    if (r.maxLatency > 0) {
        const double lo = r.minLatency / divisor;
        const double hi = r.maxLatency / divisor;
        lp->yAxis->setRange(lo / 1.6, std::max(hi * 1.6, lo * 10));
    } else {
        lp->yAxis->setRange(1, 1000);
    }
    tp->replot(QCustomPlot::rpQueuedReplot);
    lp->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace ioprism::ui
