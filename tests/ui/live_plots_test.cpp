// SPDX-License-Identifier: GPL-3.0-or-later
// The live plots: follow mode, the user's zoom pausing it, the sliding window of points,
// the device-overlay hook; and the results page's column choice.
#include "ui/models/results_model.h"
#include "ui/pages/live_page.h"
#include "ui/pages/results_page.h"
#include "ui/plots/frame_pacer.h"
#include "ui/plots/live_plots.h"
#include "ui/plots/qcp_library.h"

#include <QSettings>
#include <QTest>

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

core::IntervalSample sampleAt(double endSeconds, std::size_t step = 0)
{
    core::IntervalSample s;
    s.runId = 1;
    s.step = step;
    s.stepName = "step";
    s.startSeconds = endSeconds - 0.1;
    s.endSeconds = endSeconds;
    core::ScopeFigures all;
    all.figures.total.ios = 1000;
    all.figures.total.iops = 10000 + endSeconds;
    all.figures.read.megabytesPerSecond = 40;
    all.figures.total.latency.p50Us = 80;
    all.figures.total.latency.p99Us = 300;
    all.figures.total.latency.p99_9Us = 900;
    s.scopes.push_back(all);
    s.cpu.valid = true;
    s.cpu.userPercent = 10;
    return s;
}

TEST(LivePlots, FollowingSlidesTheTimeAxisAndTheUsersZoomPausesIt)
{
    test::ensureApp();
    LivePlots plots;
    for (int i = 1; i <= 2000; ++i) // 200 s at 100 ms
        plots.addSample(sampleAt(i * 0.1));
    const QCPRange following = plots.plot(LivePlots::IopsPlot)->xAxis->range();
    EXPECT_NEAR(following.upper, 200.0, 1e-6);
    EXPECT_NEAR(following.lower, 200.0 - LivePlots::kFollowWindowSeconds, 1e-6);
    // The y axis fits the visible data.
    EXPECT_GT(plots.plot(LivePlots::IopsPlot)->yAxis->range().upper, 10200.0);

    // The user pans one plot: following pauses, every time axis moves with it.
    plots.setFollowing(false);
    plots.plot(LivePlots::LatencyPlot)->xAxis->setRange(10, 20);
    for (int p = 0; p < LivePlots::PlotCount; ++p)
        EXPECT_EQ(plots.plot(static_cast<LivePlots::PlotId>(p))->xAxis->range(), QCPRange(10, 20))
            << p;
    plots.addSample(sampleAt(200.1));
    EXPECT_EQ(plots.plot(LivePlots::IopsPlot)->xAxis->range(), QCPRange(10, 20));

    plots.setFollowing(true);
    EXPECT_NEAR(plots.plot(LivePlots::IopsPlot)->xAxis->range().upper, 200.1, 1e-6);
}

TEST(LivePlots, EachGraphKeepsASlidingWindowOfPoints)
{
    test::ensureApp();
    LivePlots plots;
    const int total = LivePlots::kMaxPointsPerGraph * 2;
    for (int i = 1; i <= total; ++i)
        plots.addSample(sampleAt(i * 0.1));
    const int kept = plots.pointCount(LivePlots::IopsPlot, LivePlots::TotalIops);
    EXPECT_GE(kept, LivePlots::kMaxPointsPerGraph);
    EXPECT_LE(kept, LivePlots::kMaxPointsPerGraph + LivePlots::kMaxPointsPerGraph / 10);
    // The newest points are the ones kept.
    auto data = plots.plot(LivePlots::IopsPlot)->graph(LivePlots::TotalIops)->data();
    EXPECT_NEAR((data->constEnd() - 1)->key, total * 0.1, 1e-6);
    plots.clear();
    EXPECT_EQ(plots.pointCount(LivePlots::IopsPlot, LivePlots::TotalIops), 0);
}

TEST(LivePlots, DeviceOverlaysAppearOnlyWhenDeviceFiguresArrive)
{
    test::ensureApp();
    LivePlots plots;
    const int deviceGraph = 2; // after read and write MB/s
    QCPGraph *graph = plots.plot(LivePlots::ThroughputPlot)->graph(deviceGraph);
    plots.addSample(sampleAt(0.1));
    EXPECT_FALSE(graph->visible());
    EXPECT_EQ(plots.pointCount(LivePlots::ThroughputPlot, deviceGraph), 0);

    DeviceOverlayPoint point;
    point.startSeconds = 0.1;
    point.endSeconds = 0.2;
    point.readMegabytesPerSecond = 39;
    point.iops = 9000;
    point.awaitMs = 0.2;
    point.utilPercent = 55;
    plots.addSample(sampleAt(0.2), point);
    EXPECT_TRUE(graph->visible());
    EXPECT_EQ(plots.pointCount(LivePlots::ThroughputPlot, deviceGraph), 1);
    EXPECT_DOUBLE_EQ(
        plots.plot(LivePlots::LatencyPlot)->graph(3)->data()->constBegin()->value, 200.0); // µs
    EXPECT_EQ(graph->pen().style(), Qt::DashLine);
}

// Frames are paced: a burst of samples is drawn once now and once more when the pacing
// interval has passed, never once per sample; hidden plots are drawn when shown.
TEST(LivePlots, ReplotsArePacedAndSkippedWhileHidden)
{
    test::ensureApp();
    LivePlots plots;
    plots.resize(800, 600);
    plots.show();
    QCustomPlot *iops = plots.plot(LivePlots::IopsPlot);
    int replots = 0;
    QObject::connect(iops, &QCustomPlot::afterReplot, [&replots] { ++replots; });
    QCoreApplication::processEvents();
    QTest::qWait(FramePacer::kDefaultInterval.count() + 50);
    replots = 0;

    plots.addSample(sampleAt(0.1));
    QCoreApplication::processEvents();
    EXPECT_EQ(replots, 1) << "the first sample after a quiet spell is drawn at once";
    for (int i = 2; i <= 6; ++i)
        plots.addSample(sampleAt(i * 0.1));
    QCoreApplication::processEvents();
    EXPECT_EQ(replots, 1) << "samples within the pacing interval wait for the next frame";
    EXPECT_TRUE(QTest::qWaitFor([&] { return replots == 2; }, 5000));
    QTest::qWait(FramePacer::kDefaultInterval.count() + 50);
    EXPECT_EQ(replots, 2) << "one frame shows the whole burst";

    plots.hide();
    replots = 0;
    for (int i = 7; i <= 20; ++i)
        plots.addSample(sampleAt(i * 0.1));
    QTest::qWait(FramePacer::kDefaultInterval.count() + 50);
    EXPECT_EQ(replots, 0) << "nothing is drawn while the plots are hidden";
    plots.show();
    QCoreApplication::processEvents();
    EXPECT_EQ(replots, 1) << "the pending frame is drawn when the plots are shown";
    EXPECT_NEAR(iops->xAxis->range().upper, 10.0, 1e-9); // following: at least 10 s shown
    EXPECT_EQ(plots.pointCount(LivePlots::IopsPlot, LivePlots::TotalIops), 20);
}

// The pacer itself, with an interval long enough that a loaded machine cannot blur it.
TEST(FramePacer, DrawsAtOnceThenAtThePaceAndNeverWhileHidden)
{
    test::ensureApp();
    constexpr std::chrono::milliseconds interval {600};
    QWidget widget;
    int draws = 0;
    auto *pacer = new FramePacer(
        &widget, [&draws] { ++draws; }, interval);
    widget.show();

    pacer->request();
    EXPECT_EQ(draws, 1) << "the first request after a quiet spell draws at once";
    for (int i = 0; i < 5; ++i)
        pacer->request();
    EXPECT_EQ(draws, 1) << "requests within the interval wait for one frame";
    EXPECT_TRUE(pacer->isPending());

    widget.hide(); // before the frame is due
    QTest::qWait(interval.count() + 200);
    EXPECT_EQ(draws, 1) << "a frame that falls due while hidden is not drawn";
    EXPECT_TRUE(pacer->isPending());
    widget.show();
    EXPECT_EQ(draws, 2) << "it is drawn when the widget is shown";
    EXPECT_FALSE(pacer->isPending());

    pacer->request();
    EXPECT_EQ(draws, 2) << "a request just after a frame waits for the interval";
    EXPECT_TRUE(QTest::qWaitFor([&] { return draws == 3; }, 5000));

    pacer->request(); // within the interval after frame 3: scheduled...
    pacer->cancel(); // ...then the data is reset by the owner
    QTest::qWait(interval.count() + 200);
    EXPECT_EQ(draws, 3) << "a cancelled frame is not drawn";
    EXPECT_FALSE(pacer->isPending());
}

TEST(LivePlots, LinesAreOnePixelWide)
{
    // Wider pens go through Qt's path stroker, whose cost grows with the points in view
    // (docs/performance.md, "The desktop application's cost").
    test::ensureApp();
    LivePlots plots;
    for (int p = 0; p < LivePlots::PlotCount; ++p) {
        QCustomPlot *plot = plots.plot(static_cast<LivePlots::PlotId>(p));
        for (int g = 0; g < plot->graphCount(); ++g)
            EXPECT_DOUBLE_EQ(plot->graph(g)->pen().widthF(), 1.0) << p << "/" << g;
    }
}

TEST(LivePage, BigFiguresShowTheLastIntervalWithUnits)
{
    test::ensureApp();
    LivePage page;
    page.show(); // a hidden page draws its figures when shown
    EXPECT_EQ(page.figureText(LivePage::IopsFigure), QStringLiteral("—"));
    page.addSample(sampleAt(0.1));
    EXPECT_EQ(page.figureText(LivePage::IopsFigure), QStringLiteral("10,000 IOPS"));
    EXPECT_EQ(page.figureText(LivePage::ReadFigure), QStringLiteral("40.0 MB/s"));
    EXPECT_EQ(page.figureText(LivePage::P99LatencyFigure), QStringLiteral("300.0 µs"));
    EXPECT_TRUE(page.verdictText().contains(QStringLiteral("no device counters")));

    // The visible page does not relayout its figures for every sample: the next one
    // within the pacing interval shows with the next frame.
    auto next = sampleAt(0.2);
    next.scopes.front().figures.total.iops = 55555;
    page.addSample(next);
    EXPECT_EQ(page.figureText(LivePage::IopsFigure), QStringLiteral("10,000 IOPS"));
    EXPECT_TRUE(QTest::qWaitFor(
        [&] { return page.figureText(LivePage::IopsFigure) == QStringLiteral("55,555 IOPS"); },
        5000));

    // A hidden page keeps the latest interval and shows it when shown again.
    page.hide();
    auto later = sampleAt(5.0);
    later.scopes.front().figures.total.iops = 77777;
    page.addSample(later);
    EXPECT_EQ(page.figureText(LivePage::IopsFigure), QStringLiteral("55,555 IOPS"));
    page.show();
    EXPECT_EQ(page.figureText(LivePage::IopsFigure), QStringLiteral("77,777 IOPS"));
}

TEST(ResultsPage, TheColumnChoiceIsKeptForTheNextWindow)
{
    test::ensureApp();
    QSettings().remove(QStringLiteral("results/hiddenColumns"));
    {
        ResultsPage page;
        EXPECT_FALSE(page.isColumnShown(ResultsModel::P90Column)); // not shown by default
        EXPECT_TRUE(page.isColumnShown(ResultsModel::P99Column));
        page.setColumnShown(ResultsModel::P90Column, true);
        page.setColumnShown(ResultsModel::P99Column, false);
        EXPECT_TRUE(page.isColumnShown(ResultsModel::P90Column));
    }
    ResultsPage again;
    EXPECT_TRUE(again.isColumnShown(ResultsModel::P90Column));
    EXPECT_FALSE(again.isColumnShown(ResultsModel::P99Column));
}

TEST(LivePage, AStallShowsABadgeUntilTheIoMovesAgain)
{
    test::ensureApp();
    LivePage page;
    page.show();
    page.addSample(sampleAt(0.1));
    EXPECT_EQ(page.stallText(), QString());
    auto stuck = sampleAt(6.0);
    auto &f = stuck.scopes.front().figures;
    f.total.ios = 0;
    f.total.stalledIos = 32;
    f.total.oldestInFlightUs = 20e6;
    page.addSample(stuck); // shown with the next frame
    const QString expected = QStringLiteral("Stalled: 32 I/Os in flight for 20.00 s");
    EXPECT_TRUE(QTest::qWaitFor([&] { return page.stallText() == expected; }, 5000))
        << page.stallText().toStdString();
    EXPECT_EQ(page.figureText(LivePage::MeanLatencyFigure), QStringLiteral("—"));
    page.addSample(sampleAt(7.0));
    EXPECT_TRUE(QTest::qWaitFor([&] { return page.stallText().isEmpty(); }, 5000));
}

} // namespace
} // namespace ioprism::ui
