// SPDX-License-Identifier: GPL-3.0-or-later
// The plumbing the live and the series plots share (issue 25, item 8): hovering draws a
// tracer at the value read out and leaving the plot hides it, saving writes PNG or PDF
// without the tracer, and the right-click menu offers to save. With IOPRISM_TEST_SHOTS=DIR
// the plots are also saved as pictures, to compare before and after a change by eye.
#include "ui/plots/live_plots.h"
#include "ui/plots/qcp_library.h"
#include "ui/plots/series_plot.h"

#include <QContextMenuEvent>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QMouseEvent>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

core::IntervalSample liveSample(double endSeconds, std::size_t step, const std::string &name,
    core::RunPhase phase = core::RunPhase::Measuring)
{
    core::IntervalSample s;
    s.runId = 1;
    s.step = step;
    s.stepName = name;
    s.phase = phase;
    s.startSeconds = endSeconds - 1.0;
    s.endSeconds = endSeconds;
    core::ScopeFigures all;
    const double wave = 1.0 + 0.2 * std::sin(endSeconds / 2.0);
    all.figures.total.ios = 1000;
    all.figures.total.iops = (step + 1) * 1000.0 * wave;
    all.figures.read.iops = all.figures.total.iops * 0.7;
    all.figures.write.iops = all.figures.total.iops * 0.3;
    all.figures.read.megabytesPerSecond = all.figures.read.iops * 0.064;
    all.figures.write.megabytesPerSecond = all.figures.write.iops * 0.064;
    all.figures.total.latency.p50Us = 300 * wave * double(step + 1);
    all.figures.total.latency.p99Us = 900 * wave * double(step + 1);
    all.figures.total.latency.p99_9Us = 2500 * wave * double(step + 1);
    s.scopes.push_back(all);
    s.cpu.valid = true;
    s.cpu.userPercent = 12 * wave;
    s.cpu.systemPercent = 20 * wave;
    s.cpu.iowaitPercent = 5 * wave;
    return s;
}

// Three steps, the second with a ramp-up, the device's figures from the second on.
void fillLivePlots(LivePlots &plots)
{
    const char *names[] = {"SEQ1M Q8T1 read", "RND4K Q32T1 mixed", "RND4K Q1T1 write"};
    for (std::size_t step = 0; step < 3; ++step)
        for (int i = 1; i <= 10; ++i) {
            const double end = double(step) * 10 + i;
            const auto phase
                = step == 1 && i <= 3 ? core::RunPhase::RampUp : core::RunPhase::Measuring;
            const core::IntervalSample s = liveSample(end, step, names[step], phase);
            if (step == 0) {
                plots.addSample(s);
                continue;
            }
            DeviceOverlayPoint d;
            d.startSeconds = s.startSeconds;
            d.endSeconds = end;
            d.readMegabytesPerSecond = s.scopes[0].figures.read.megabytesPerSecond * 1.1;
            d.writeMegabytesPerSecond = s.scopes[0].figures.write.megabytesPerSecond * 1.3;
            d.iops = s.scopes[0].figures.total.iops * 2;
            d.awaitMs = 0.4 * double(step);
            d.utilPercent = 60;
            d.deviceRequestBytes = 32768;
            d.appRequestBytes = 65536;
            plots.addSample(s, d);
        }
}

core::TrialStat constant(double v)
{
    core::TrialStat s;
    s.median = s.min = s.max = v;
    return s;
}

// Sizes (4 KiB to 64 KiB) by depths (1, 4): a matrix with a labelled cell each.
SeriesData matrixData()
{
    SeriesData data;
    data.axes.push_back({core::SweepParameter::TransferSize, {4096, 16384, 65536}});
    data.axes.push_back({core::SweepParameter::OutstandingIos, {1, 4}});
    SeriesFamily family;
    family.name = QStringLiteral("RND");
    for (std::uint64_t size : data.axes[0].values)
        for (std::uint64_t qd : data.axes[1].values) {
            core::SeriesPointResult p;
            p.specName = "RND";
            p.point = data.points.size();
            p.values = {size, qd};
            p.trials = {p.point};
            const double iops = 40000.0 * double(qd) * 4096 / double(size);
            p.iops = constant(iops);
            p.megabytesPerSecond = constant(iops * double(size) / 1e6);
            p.readMegabytesPerSecond = p.megabytesPerSecond;
            p.meanLatencyUs = constant(80.0 * double(qd));
            p.p50LatencyUs = constant(70.0 * double(qd));
            p.p99LatencyUs = constant(300.0 * double(qd));
            p.p99_9LatencyUs = constant(600.0 * double(qd));
            family.points.push_back(data.points.size());
            data.points.push_back(std::move(p));
        }
    data.families.push_back(family);
    return data;
}

// One axis: the queue depths 1 to 16, with three trials (whiskers) and the device's.
SeriesData curveData()
{
    SeriesData data;
    data.axes.push_back({core::SweepParameter::OutstandingIos, {1, 2, 4, 8, 16}});
    SeriesFamily family;
    family.name = QStringLiteral("RND4K");
    for (std::uint64_t qd : data.axes[0].values) {
        core::SeriesPointResult p;
        p.specName = "RND4K";
        p.point = data.points.size();
        p.values = {qd};
        p.trials = {0, 1, 2};
        const double iops = 20000.0 * double(std::min<std::uint64_t>(qd, 8));
        p.iops = constant(iops);
        p.iops.min = iops * 0.9;
        p.iops.max = iops * 1.05;
        p.megabytesPerSecond = constant(iops * 4096 / 1e6);
        p.readMegabytesPerSecond = p.megabytesPerSecond;
        p.deviceValid = true;
        p.deviceReadMegabytesPerSecond = constant(iops * 4096 / 1e6 * 1.02);
        p.meanLatencyUs = constant(50.0 * double(qd));
        p.p50LatencyUs = constant(45.0 * double(qd));
        p.p99LatencyUs = constant(150.0 * double(qd));
        p.p99_9LatencyUs = constant(250.0 * double(qd));
        family.points.push_back(data.points.size());
        data.points.push_back(std::move(p));
    }
    data.families.push_back(family);
    return data;
}

// The tracer: the one dashed straight line of a plot (step markers are dash-dotted).
QCPItemStraightLine *tracerOf(QCustomPlot *plot)
{
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *line = qobject_cast<QCPItemStraightLine *>(plot->item(i)))
            if (line->pen().style() == Qt::DashLine)
                return line;
    return nullptr;
}

void hoverAt(QCustomPlot *plot, const QPoint &pos)
{
    QMouseEvent move(QEvent::MouseMove, QPointF(pos), plot->mapToGlobal(QPointF(pos)), Qt::NoButton,
        Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(plot, &move);
}

void leave(QCustomPlot *plot)
{
    QEvent leave(QEvent::Leave);
    QCoreApplication::sendEvent(plot, &leave);
}

void save(QWidget &widget, const QString &name)
{
    if (const char *shots = std::getenv("IOPRISM_TEST_SHOTS"))
        widget.grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(name));
}

TEST(PlotPanel, HoverOverLivePlotsDrawsATracerAndLeavingHidesIt)
{
    test::ensureApp();
    LivePlots plots;
    plots.resize(1000, 700);
    plots.show();
    fillLivePlots(plots);
    plots.relayout();
    for (int p = 0; p < LivePlots::PlotCount; ++p) {
        QCustomPlot *plot = plots.plot(static_cast<LivePlots::PlotId>(p));
        QCPItemStraightLine *tracer = tracerOf(plot);
        ASSERT_TRUE(tracer) << p;
        EXPECT_FALSE(tracer->visible()) << p;
        const QPoint middle = plot->axisRect()->rect().center();
        hoverAt(plot, middle);
        EXPECT_TRUE(tracer->visible()) << p;
        // The tracer stands at the sample read out, the one nearest the pointer.
        const double key = plot->xAxis->pixelToCoord(middle.x());
        EXPECT_NEAR(tracer->point1->coords().x(), key, 0.5) << p;
        EXPECT_DOUBLE_EQ(tracer->point1->coords().x(), tracer->point2->coords().x()) << p;
        if (p == LivePlots::ThroughputPlot) {
            plot->replot();
            save(plots, QStringLiteral("live-hover.png"));
        }
        leave(plot);
        EXPECT_FALSE(tracer->visible()) << p;
    }
    plots.relayout();
    save(plots, QStringLiteral("live.png"));
}

TEST(PlotPanel, HoverOverSeriesCurvesDrawsATracerAtTheNearestValue)
{
    test::ensureApp();
    SeriesPlots plots;
    plots.resize(1100, 800);
    plots.show();
    plots.setData(curveData());
    for (auto id : plots.shownPlots()) {
        QCustomPlot *plot = plots.plot(id);
        plot->replot();
        QCPItemStraightLine *tracer = tracerOf(plot);
        ASSERT_TRUE(tracer) << id;
        EXPECT_FALSE(tracer->visible());
        const QPoint atFour(int(plot->xAxis->coordToPixel(4.3)), plot->axisRect()->center().y());
        hoverAt(plot, atFour);
        EXPECT_TRUE(tracer->visible()) << id;
        EXPECT_DOUBLE_EQ(tracer->point1->coords().x(), 4.0) << id;
        EXPECT_FALSE(plots.hoverText(id, atFour).isEmpty()) << id;
        leave(plot);
        EXPECT_FALSE(tracer->visible()) << id;
    }
    plots.plot(SeriesPlots::ThroughputPlot)->replot();
    plots.plot(SeriesPlots::LatencyPlot)->replot();
    plots.plot(SeriesPlots::ThroughputPlot)->replot();
    save(plots, QStringLiteral("series-curves.png"));
}

TEST(PlotPanel, HoverOverTheHeatMapReadsACellWithoutATracer)
{
    test::ensureApp();
    SeriesPlots plots;
    plots.resize(1400, 700);
    plots.show();
    plots.setData(matrixData());
    QCustomPlot *heat = plots.plot(SeriesPlots::HeatMapPlot);
    heat->replot();
    const QPoint cell(int(heat->xAxis->coordToPixel(1)), int(heat->yAxis->coordToPixel(1)));
    EXPECT_EQ(plots.hoverText(SeriesPlots::HeatMapPlot, cell), plots.cellText(1, 1));
    hoverAt(heat, cell);
    if (QCPItemStraightLine *tracer = tracerOf(heat)) {
        EXPECT_FALSE(tracer->visible()) << "cells are read out without a line";
    }
    leave(heat);
    plots.plot(SeriesPlots::CurvesPlot)->replot();
    save(plots, QStringLiteral("series-matrix.png"));
}

TEST(PlotPanel, SavingWritesPngOrPdfWithoutTheTracer)
{
    test::ensureApp();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    LivePlots live;
    live.resize(1000, 700);
    live.show();
    fillLivePlots(live);
    QCustomPlot *iops = live.plot(LivePlots::IopsPlot);
    iops->replot();
    hoverAt(iops, iops->axisRect()->rect().center());
    ASSERT_TRUE(tracerOf(iops)->visible());
    ASSERT_TRUE(live.savePlot(LivePlots::IopsPlot, dir.filePath(QStringLiteral("iops.png"))));
    EXPECT_FALSE(tracerOf(iops)->visible()) << "the hover is no part of the picture";
    ASSERT_TRUE(live.savePlot(LivePlots::IopsPlot, dir.filePath(QStringLiteral("iops.PDF"))));
    QFile pdf(dir.filePath(QStringLiteral("iops.PDF")));
    ASSERT_TRUE(pdf.open(QIODevice::ReadOnly));
    EXPECT_TRUE(pdf.read(5).startsWith("%PDF")) << "the extension chooses, in any case";
    QImage png(dir.filePath(QStringLiteral("iops.png")));
    EXPECT_EQ(png.width(), iops->width() * 2) << "twice the screen's resolution";

    SeriesPlots series; // never shown
    series.setData(curveData());
    const QString name = dir.filePath(QStringLiteral("curves.png"));
    ASSERT_TRUE(series.savePlot(SeriesPlots::ThroughputPlot, name));
    EXPECT_FALSE(QImage(name).isNull());
}

TEST(PlotPanel, TheRightClickMenuOffersToSaveThePlot)
{
    test::ensureApp();
    LivePlots live;
    live.resize(1000, 700);
    live.show();
    std::vector<LivePlots::PlotId> asked;
    QObject::connect(
        &live, &LivePlots::exportRequested, [&](LivePlots::PlotId id) { asked.push_back(id); });
    QCustomPlot *latency = live.plot(LivePlots::LatencyPlot);
    QContextMenuEvent menuEvent(
        QContextMenuEvent::Mouse, QPoint(50, 50), latency->mapToGlobal(QPoint(50, 50)));
    QCoreApplication::sendEvent(latency, &menuEvent);
    auto *menu = test::waitUntil(
                     [&] { return live.findChild<QMenu *>() != nullptr; }, std::chrono::seconds(1))
        ? live.findChild<QMenu *>()
        : nullptr;
    ASSERT_TRUE(menu);
    ASSERT_GE(menu->actions().size(), 2);
    EXPECT_TRUE(menu->actions()[0]->text().contains(QStringLiteral("Latency")));
    menu->actions()[0]->trigger();
    EXPECT_EQ(asked, std::vector<LivePlots::PlotId> {LivePlots::LatencyPlot});
    EXPECT_FALSE(menu->actions()[1]->isEnabled()) << "already following";
    menu->close();

    SeriesPlots series;
    series.setData(curveData());
    std::vector<SeriesPlots::PlotId> seriesAsked;
    QObject::connect(&series, &SeriesPlots::exportRequested,
        [&](SeriesPlots::PlotId id) { seriesAsked.push_back(id); });
    QCustomPlot *curves = series.plot(SeriesPlots::LatencyPlot);
    QCoreApplication::sendEvent(curves, &menuEvent);
    auto *seriesMenu = series.findChild<QMenu *>();
    ASSERT_TRUE(seriesMenu);
    ASSERT_EQ(seriesMenu->actions().size(), 1);
    EXPECT_TRUE(seriesMenu->actions()[0]->text().contains(QStringLiteral("series latency")));
    seriesMenu->actions()[0]->trigger();
    EXPECT_EQ(seriesAsked, std::vector<SeriesPlots::PlotId> {SeriesPlots::LatencyPlot});
    seriesMenu->close();
}

} // namespace
} // namespace ioprism::ui
