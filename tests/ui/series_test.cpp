// SPDX-License-Identifier: GPL-3.0-or-later
// Series and Iometer's cycling in the GUI: the Test Setup page writes the test type, the
// cyclings and the series into the profile (and reads them back from its JSON), says
// what Start will run, and marks bad series fields; the Series view draws a series that
// really ran on core's null engine (a point per series point, the swept values on x,
// whiskers for trials, a heat map cell per point of a matrix with its hover text), and
// grows point by point as the run reports each step.
#include "core/counters.h"
#include "core/null_engine.h"
#include "core/profile/profile_json.h"
#include "core/report/results_json.h"
#include "core/report/results_reader.h"
#include "core/run/run.h"
#include "core/run/series_result.h"
#include "support/test_support.h"
#include "ui/format.h"
#include "ui/main_window.h"
#include "ui/models/profile_document.h"
#include "ui/pages/series_page.h"
#include "ui/pages/setup_page.h"
#include "ui/plots/qcp_library.h"
#include "ui/plots/series_data.h"
#include "ui/plots/series_plot.h"
#include "ui/run/run_controller.h"
#include "ui/style.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QSpinBox>
#include <QToolTip>

#include <gtest/gtest.h>
#include <numeric>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using namespace std::chrono_literals;

using test::choose;
using test::marked;
using test::type;

core::SweepAxis generated(
    core::SweepParameter p, std::uint64_t from, std::uint64_t to, std::uint32_t multiply)
{
    core::SweepAxis a;
    a.parameter = p;
    a.from = from;
    a.to = to;
    a.multiply = multiply;
    return a;
}

// The small profile with a series: each point stops after `ios` I/Os per target, so a
// run on the null engine takes milliseconds.
core::Profile seriesProfile(
    std::vector<core::SweepAxis> axes, std::uint32_t repeat = 1, std::uint64_t ios = 200)
{
    core::Profile p = test::smallProfile(0s, 100ms);
    p.setup.series = core::Series {};
    p.setup.series->axes = std::move(axes);
    p.setup.series->repeat = repeat;
    p.setup.series->ios = ios;
    return p;
}

core::RunResult runOnNullEngine(const core::Profile &profile, core::RunSettings options = {})
{
    core::NullBackend backend;
    core::NullCounterSource counters;
    core::RunSink sink;
    core::RunResult r = core::Run(profile, backend, counters, sink, options).execute();
    EXPECT_FALSE(r.error) << r.error->toString();
    return r;
}

// ---------------------------------------------------------------- the Test Setup page

TEST(SetupPageSeries, TheTestTypeCyclingAndSeriesGoIntoTheProfileAndComeBackFromItsJson)
{
    test::ensureApp();
    ProfileDocument document;
    document.setProfile(test::smallProfile());
    SetupPage page(&document, nullPlatformServices().engines);

    // Iometer's cycling: only the fields the type uses are enabled.
    const auto &qd = page.cyclingFields(SetupPage::QueueDepthCycling);
    const auto &workers = page.cyclingFields(SetupPage::WorkerCycling);
    EXPECT_EQ(page.testTypeField()->count(), 8);
    EXPECT_FALSE(qd.start->isEnabled()) << "Normal uses no cycling";
    choose(page.testTypeField(), int(core::TestType::CycleOutstandingIos));
    EXPECT_EQ(document.profile().setup.testType, core::TestType::CycleOutstandingIos);
    EXPECT_TRUE(qd.start->isEnabled());
    EXPECT_TRUE(qd.end->isEnabled());
    EXPECT_FALSE(workers.start->isEnabled());
    qd.start->setValue(1);
    qd.step->setValue(2);
    qd.end->setValue(64);
    choose(qd.stepType, int(core::StepType::Exponential));
    const core::Cycling expected {1, 2, 64, core::StepType::Exponential};
    EXPECT_EQ(document.profile().setup.queueDepthCycling, expected);
    choose(page.testTypeField(), int(core::TestType::CycleWorkersAndTargets));
    EXPECT_TRUE(workers.start->isEnabled());
    EXPECT_TRUE(page.cyclingFields(SetupPage::TargetCycling).step->isEnabled());
    EXPECT_FALSE(qd.end->isEnabled());
    workers.step->setValue(3);
    EXPECT_EQ(document.profile().setup.workerCycling.step, 3u);
    choose(page.testTypeField(), int(core::TestType::Normal));

    // A series: off until ticked; then its axes, trials, I/Os, targets in turn, stagger.
    EXPECT_FALSE(document.profile().setup.series);
    page.seriesBox()->setChecked(true);
    ASSERT_TRUE(document.profile().setup.series);
    ASSERT_EQ(document.profile().setup.series->axes.size(), 1u);
    EXPECT_EQ(document.profile().setup.series->axes[0],
        generated(core::SweepParameter::TransferSize, 512, core::kMiB, 2))
        << "the first axis starts as 512 B ... 1 MiB, doubling";
    type(page.axisFields(0).values, QStringLiteral("4k,64k,1m"));
    page.secondAxisField()->setChecked(true);
    choose(page.axisFields(1).parameter, int(core::SweepParameter::OutstandingIos));
    type(page.axisFields(1).values, QStringLiteral("1..8:x2"));
    page.repeatField()->setValue(3);
    type(page.iosField(), QStringLiteral("1000"));
    page.targetsInTurnField()->setChecked(true);
    type(page.workerStaggerField(), QStringLiteral("5s"));

    const core::Series &series = *document.profile().setup.series;
    ASSERT_EQ(series.axes.size(), 2u);
    EXPECT_EQ(series.axes[0].values, (std::vector<std::uint64_t> {4096, 65536, core::kMiB}));
    EXPECT_EQ(series.axes[1], generated(core::SweepParameter::OutstandingIos, 1, 8, 2));
    EXPECT_EQ(series.repeat, 3u);
    EXPECT_EQ(series.ios, 1000u);
    EXPECT_TRUE(series.targetsInTurn);
    EXPECT_EQ(series.workerStagger, 5s);
    EXPECT_EQ(page.axisFields(1).preview->text(), QStringLiteral("4 values: 1, 2, 4, 8"));

    // Saved as JSON and opened in another window, the page shows the same.
    core::Problems problems;
    auto back = core::parseProfileJson(core::writeProfileJson(document.profile()), problems);
    ASSERT_TRUE(back) << (problems.empty() ? "" : problems[0].toString());
    EXPECT_EQ(back->setup, document.profile().setup);
    ProfileDocument other;
    SetupPage shown(&other, nullPlatformServices().engines);
    other.setProfile(*back);
    EXPECT_TRUE(shown.seriesBox()->isChecked());
    EXPECT_EQ(shown.axisFields(0).parameter->currentData().toInt(),
        int(core::SweepParameter::TransferSize));
    EXPECT_EQ(shown.axisFields(0).values->text(), QStringLiteral("4KiB,64KiB,1MiB"));
    EXPECT_TRUE(shown.secondAxisField()->isChecked());
    EXPECT_EQ(shown.axisFields(1).parameter->currentData().toInt(),
        int(core::SweepParameter::OutstandingIos));
    EXPECT_EQ(shown.axisFields(1).values->text(), QStringLiteral("1..8:x2"));
    EXPECT_EQ(shown.repeatField()->value(), 3);
    EXPECT_EQ(shown.iosField()->text(), QStringLiteral("1000"));
    EXPECT_TRUE(shown.targetsInTurnField()->isChecked());
    EXPECT_EQ(shown.workerStaggerField()->text(), QStringLiteral("5s"));
    EXPECT_EQ(shown.cyclingFields(SetupPage::QueueDepthCycling).end->value(), 64);
    EXPECT_EQ(shown.cyclingFields(SetupPage::WorkerCycling).step->value(), 3);
    EXPECT_EQ(shown.testTypeField()->currentData().toInt(), int(core::TestType::Normal));

    // Unticking the series removes it (and the second axis alone is dropped likewise).
    page.secondAxisField()->setChecked(false);
    EXPECT_EQ(document.profile().setup.series->axes.size(), 1u);
    page.seriesBox()->setChecked(false);
    EXPECT_FALSE(document.profile().setup.series);
}

TEST(SetupPageSeries, ThePlanSaysHowManyStepsStartRunsAndHowLong)
{
    test::ensureApp();
    ProfileDocument document;
    core::Profile p
        = seriesProfile({generated(core::SweepParameter::TransferSize, 512, 4096, 2)}, 2, 0);
    p.setup.runTime = 30s;
    p.setup.rampUp = 1s;
    document.setProfile(p);
    SetupPage page(&document, nullPlatformServices().engines);
    EXPECT_EQ(page.planText(),
        QStringLiteral("Start runs 8 steps × (1s ramp-up + 30s) = 4m8s: 4 points × 2 trials × 1 "
                       "access specification"));

    page.repeatField()->setValue(3);
    EXPECT_TRUE(page.planText().startsWith(QStringLiteral("Start runs 12 steps × (1s ramp-up + "
                                                          "30s) = 6m12s")))
        << page.planText().toStdString();

    type(page.iosField(), QStringLiteral("5000"));
    EXPECT_EQ(page.planText(),
        QStringLiteral("Start runs 12 steps, each until its I/Os are done (5,000 per worker and "
                       "target) after a 1s ramp-up: 4 points × 3 trials × 1 access "
                       "specification"));

    // No series: Iometer's steps, one per spec (and per cycling step).
    page.seriesBox()->setChecked(false);
    EXPECT_EQ(page.planText(), QStringLiteral("Start runs 1 step × (1s ramp-up + 30s) = 31s"));
    choose(page.testTypeField(), int(core::TestType::CycleOutstandingIos));
    page.cyclingFields(SetupPage::QueueDepthCycling).end->setValue(4);
    EXPECT_EQ(page.planText(), QStringLiteral("Start runs 4 steps × (1s ramp-up + 30s) = 2m4s"))
        << "QD 1, 2, 3, 4";
}

TEST(SetupPageSeries, BadSeriesFieldsAreMarkedWithCoresMessage)
{
    test::ensureApp();
    ProfileDocument document;
    document.setProfile(
        seriesProfile({generated(core::SweepParameter::TransferSize, 512, 4096, 2)}));
    SetupPage page(&document, nullPlatformServices().engines);
    QLineEdit *values = page.axisFields(0).values;
    EXPECT_FALSE(marked(values));

    // Readable, but core refuses it: marked with the message at its field path.
    choose(page.axisFields(0).parameter, int(core::SweepParameter::OutstandingIos));
    type(values, QStringLiteral("0..8:x2"));
    EXPECT_EQ(document.profile().setup.series->axes[0].from, 0u);
    EXPECT_TRUE(marked(values));
    EXPECT_TRUE(
        values->toolTip().contains(QStringLiteral("must not be 0 when the step multiplies")))
        << values->toolTip().toStdString();

    // Not readable at all: marked with the reader's message, the profile keeps its axis.
    type(values, QStringLiteral("1..lots"));
    EXPECT_TRUE(marked(values));
    EXPECT_EQ(document.profile().setup.series->axes[0].from, 0u);
    EXPECT_TRUE(page.axisFields(0).preview->text().startsWith(QStringLiteral("Not readable")));

    type(values, QStringLiteral("1..8:x2"));
    EXPECT_FALSE(marked(values)) << values->toolTip().toStdString();

    // The same parameter twice is marked on the second axis's parameter.
    page.secondAxisField()->setChecked(true);
    choose(page.axisFields(1).parameter, int(core::SweepParameter::OutstandingIos));
    EXPECT_TRUE(marked(page.axisFields(1).parameter));
    choose(page.axisFields(1).parameter, int(core::SweepParameter::PercentRead));
    EXPECT_FALSE(marked(page.axisFields(1).parameter));

    // A series with a cycling test type: both places say so.
    choose(page.testTypeField(), int(core::TestType::CycleWorkers));
    EXPECT_TRUE(marked(page.testTypeField()));
    EXPECT_TRUE(marked(values));
    EXPECT_TRUE(page.testTypeField()->toolTip().contains(QStringLiteral("cannot run together")));
    choose(page.testTypeField(), int(core::TestType::Normal));
    EXPECT_FALSE(marked(page.testTypeField()));

    // Zero trials: the repetitions.
    page.repeatField()->setValue(0);
    EXPECT_TRUE(marked(page.repeatField()));
    EXPECT_TRUE(page.repeatField()->toolTip().contains(QStringLiteral("0 is below 1")));

    // An exponential cycling step of 1 runs as +1, as in Iometer: marked with a warning
    // that says so.
    choose(page.testTypeField(), int(core::TestType::CycleOutstandingIos));
    page.seriesBox()->setChecked(false);
    const auto &qd = page.cyclingFields(SetupPage::QueueDepthCycling);
    choose(qd.stepType, int(core::StepType::Exponential));
    qd.step->setValue(1);
    EXPECT_TRUE(marked(qd.step));
    EXPECT_TRUE(qd.step->toolTip().contains(QStringLiteral("runs as a linear step of 1")))
        << qd.step->toolTip().toStdString();
}

// ---------------------------------------------------------------- the Series view

TEST(SeriesView, ACurveHasAPointPerSeriesPointAtItsValueWithWhiskersForTrials)
{
    test::ensureApp();
    const auto r = runOnNullEngine(
        seriesProfile({generated(core::SweepParameter::TransferSize, 512, 8192, 2)}, 3));
    const auto points = core::seriesPoints(r);
    ASSERT_EQ(points.size(), 5u);

    SeriesPlots plots;
    plots.setData(makeSeriesData(r));
    EXPECT_EQ(plots.shownPlots(),
        (std::vector<SeriesPlots::PlotId> {SeriesPlots::ThroughputPlot, SeriesPlots::LatencyPlot}));
    QCPGraph *iops = plots.iopsGraph(0);
    ASSERT_TRUE(iops);
    EXPECT_FALSE(plots.iopsGraph(1)) << "one spec, one target: one family";
    ASSERT_EQ(iops->data()->size(), 5);
    // The small profile reads and writes: its reads and writes are drawn apart.
    ASSERT_FALSE(plots.megabytesGraph(0));
    QCPGraph *reads = plots.readMegabytesGraph(0);
    QCPGraph *writes = plots.writeMegabytesGraph(0);
    ASSERT_TRUE(reads && writes);
    ASSERT_EQ(reads->data()->size(), 5);
    ASSERT_EQ(writes->data()->size(), 5);
    ASSERT_EQ(plots.latencyGraph(0, SeriesPlots::P99Latency)->data()->size(), 5);
    for (int i = 0; i < 5; ++i) {
        const auto &p = points[std::size_t(i)];
        EXPECT_EQ(iops->data()->at(i)->key, double(512u << i));
        EXPECT_EQ(iops->data()->at(i)->value, p.iops.median);
        EXPECT_EQ(reads->data()->at(i)->value, p.readMegabytesPerSecond.median);
        EXPECT_EQ(writes->data()->at(i)->value, p.writeMegabytesPerSecond.median);
    }
    // Sizes on a log₂ axis, labelled in binary units.
    QCustomPlot *tp = plots.plot(SeriesPlots::ThroughputPlot);
    EXPECT_EQ(tp->xAxis->scaleType(), QCPAxis::stLogarithmic);
    auto ticker = tp->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    ASSERT_TRUE(ticker);
    EXPECT_EQ(ticker->ticks().value(512), QStringLiteral("512 B"));
    EXPECT_EQ(ticker->ticks().value(8192), QStringLiteral("8 KiB"));
    EXPECT_TRUE(tp->yAxis2->visible()) << "MB/s on the right";
    EXPECT_EQ(reads->valueAxis(), tp->yAxis2);

    // Three trials: whiskers from the smallest to the largest.
    QCPErrorBars *whiskers = plots.iopsWhiskers(0);
    ASSERT_TRUE(whiskers);
    ASSERT_EQ(whiskers->dataCount(), 5);
    for (int i = 0; i < 5; ++i) {
        const auto &p = points[std::size_t(i)];
        const QCPErrorBarsData bar = whiskers->data()->at(i);
        EXPECT_DOUBLE_EQ(bar.errorMinus, p.iops.median - p.iops.min);
        EXPECT_DOUBLE_EQ(bar.errorPlus, p.iops.max - p.iops.median);
    }

    // One trial: no whiskers.
    const auto once = runOnNullEngine(
        seriesProfile({generated(core::SweepParameter::TransferSize, 512, 8192, 2)}, 1));
    plots.setData(makeSeriesData(once));
    EXPECT_FALSE(plots.iopsWhiskers(0));
    EXPECT_EQ(plots.iopsGraph(0)->data()->size(), 5);
}

TEST(SeriesView, EachSpecAndEachTargetInTurnIsAFamilyOfCurvesAndHoverReadsThemAll)
{
    test::ensureApp();
    core::Profile p
        = seriesProfile({generated(core::SweepParameter::OutstandingIos, 1, 4, 2)}, 1, 100);
    p.specs[0].queueDepth.reset(); // the series sets the depth
    core::AccessSpec writes = p.specs[0];
    writes.name = "RND4K write";
    writes.lines[0].percentRead = 0;
    p.specs.push_back(writes);
    auto &worker = p.hosts[0].workers[0];
    worker.assignedSpecs.push_back(writes.name);
    core::Target second = worker.targets[0];
    second.path = "/nonexistent/ioprism-null-target-2.dat";
    worker.targets.push_back(second);
    p.setup.series->targetsInTurn = true;
    const auto r = runOnNullEngine(p);
    const SeriesData data = makeSeriesData(r);
    ASSERT_EQ(data.families.size(), 4u) << "2 specs x 2 targets";
    // Named by file name, which tells the two apart (a legend of full paths was cut off
    // before the part that differs); the family keeps the path.
    EXPECT_EQ(data.families[1].name, QStringLiteral("RND4K QD4 on ioprism-null-target-2.dat"));
    EXPECT_EQ(data.families[1].target, "/nonexistent/ioprism-null-target-2.dat");
    EXPECT_EQ(data.families[2].specIndex, 1u);

    SeriesPlots plots;
    plots.resize(1200, 800);
    plots.setData(data);
    for (int f = 0; f < 4; ++f) {
        ASSERT_TRUE(plots.iopsGraph(f)) << f;
        EXPECT_EQ(plots.iopsGraph(f)->data()->size(), 3) << "QD 1, 2, 4";
        EXPECT_EQ(plots.iopsGraph(f)->name(),
            QStringLiteral("IOPS · ") + data.families[std::size_t(f)].name);
    }
    EXPECT_FALSE(plots.iopsGraph(4));

    plots.show();
    ASSERT_TRUE(test::waitUntil([&] { return plots.isVisible(); }, 5s));
    QCustomPlot *tp = plots.plot(SeriesPlots::ThroughputPlot);
    tp->replot();
    const QPoint at(int(tp->xAxis->coordToPixel(2)) + 3, tp->axisRect()->center().y());
    const QString text = plots.hoverText(SeriesPlots::ThroughputPlot, at);
    EXPECT_TRUE(text.startsWith(QStringLiteral("<b>QD 2</b>"))) << text.toStdString();
    for (const auto &f : data.families)
        EXPECT_TRUE(text.contains(QStringLiteral("IOPS · ") + f.name)) << f.name.toStdString();
    const auto &point = data.points[data.families[0].points[1]];
    EXPECT_TRUE(text.contains(iopsText(point.iops.median) + QStringLiteral(" IOPS")));
    plots.hide();

    // Two targets of one file name in different folders keep their full paths.
    worker.targets[1].path = "/other" + worker.targets[0].path;
    const SeriesData same = makeSeriesData(runOnNullEngine(p));
    ASSERT_EQ(same.families.size(), 4u);
    EXPECT_EQ(same.families[1].name,
        QStringLiteral("RND4K QD4 on ") + QString::fromStdString(worker.targets[1].path));
}

TEST(SeriesView, DepthsThatDoubleAreOnALogAxisAndPercentagesOnALinearOne)
{
    test::ensureApp();
    SeriesData data;
    data.axes.push_back({core::SweepParameter::OutstandingIos, {1, 2, 4, 8}});
    SeriesPlots plots;
    plots.setData(data);
    EXPECT_EQ(plots.plot(SeriesPlots::ThroughputPlot)->xAxis->scaleType(), QCPAxis::stLogarithmic);
    data.axes[0].values = {1, 2, 3, 4};
    plots.setData(data);
    EXPECT_EQ(plots.plot(SeriesPlots::ThroughputPlot)->xAxis->scaleType(), QCPAxis::stLinear);
    data.axes[0] = {core::SweepParameter::PercentRead, {0, 50, 100}};
    plots.setData(data);
    EXPECT_EQ(plots.plot(SeriesPlots::ThroughputPlot)->xAxis->scaleType(), QCPAxis::stLinear);
}

// A rate-by-position sweep: a hundred positions on a linear axis, labelled every tenth
// (0 %, 10 % ... 90 %) rather than every ninth, and titled by what the axis is.
TEST(SeriesView, AHundredPositionsAreLabelledEveryTenPercent)
{
    test::ensureApp();
    SeriesData data;
    std::vector<std::uint64_t> positions(100);
    std::iota(positions.begin(), positions.end(), 0);
    data.axes.push_back({core::SweepParameter::Position, positions});
    SeriesPlots plots;
    plots.setData(data);
    QCPAxis *x = plots.plot(SeriesPlots::ThroughputPlot)->xAxis;
    EXPECT_EQ(x->scaleType(), QCPAxis::stLinear);
    EXPECT_EQ(x->label(), QStringLiteral("position (% of each target)"));
    auto ticker = x->ticker().dynamicCast<QCPAxisTickerText>();
    ASSERT_TRUE(ticker);
    QList<double> expected;
    for (int p = 0; p < 100; p += 10)
        expected.push_back(p);
    EXPECT_EQ(ticker->ticks().keys(), expected);
    EXPECT_EQ(ticker->ticks().value(30), QStringLiteral("30 %"));
}

TEST(SeriesView, AMatrixHasAHeatMapCellPerPointWithItsFiguresOnHover)
{
    test::ensureApp();
    const auto r = runOnNullEngine(
        seriesProfile({generated(core::SweepParameter::TransferSize, 4096, 16384, 2),
            generated(core::SweepParameter::OutstandingIos, 1, 2, 2)}));
    const auto points = core::seriesPoints(r);
    ASSERT_EQ(points.size(), 6u);

    SeriesPlots plots;
    plots.resize(1400, 700);
    plots.setData(makeSeriesData(r));
    EXPECT_EQ(plots.shownPlots(),
        (std::vector<SeriesPlots::PlotId> {SeriesPlots::HeatMapPlot, SeriesPlots::CurvesPlot}));
    QCPColorMap *map = plots.colorMap();
    ASSERT_TRUE(map);
    EXPECT_EQ(map->data()->keySize(), 3) << "columns: the sizes";
    EXPECT_EQ(map->data()->valueSize(), 2) << "rows: the depths";
    // The cell of 8 KiB at QD 2 is point 3 (the first axis outer).
    const auto &p = points[3];
    ASSERT_EQ(p.values, (std::vector<std::uint64_t> {8192, 2}));
    EXPECT_DOUBLE_EQ(map->data()->cell(1, 1), p.iops.median);
    for (int x = 0; x < 3; ++x)
        for (int y = 0; y < 2; ++y)
            EXPECT_FALSE(std::isnan(map->data()->cell(x, y))) << x << "," << y;

    const QString text = plots.cellText(1, 1);
    EXPECT_TRUE(text.contains(QStringLiteral("transfer size 8 KiB"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("outstanding I/Os per target 2")));
    EXPECT_TRUE(text.contains(QStringLiteral("IOPS: ") + iopsText(p.iops.median)));
    EXPECT_TRUE(text.contains(QStringLiteral("p99 ") + latencyText(p.p99LatencyUs.median)));

    // The hover: the cell under the pointer, and the tooltip shows it.
    plots.show();
    ASSERT_TRUE(test::waitUntil([&] { return plots.isVisible(); }, 5s));
    QCustomPlot *heat = plots.plot(SeriesPlots::HeatMapPlot);
    heat->replot();
    const QPoint centre(int(heat->xAxis->coordToPixel(1)), int(heat->yAxis->coordToPixel(1)));
    EXPECT_EQ(plots.hoverText(SeriesPlots::HeatMapPlot, centre), text);
    QMouseEvent move(QEvent::MouseMove, QPointF(centre), heat->mapToGlobal(QPointF(centre)),
        Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(heat, &move);
    EXPECT_EQ(QToolTip::text(), text);
    plots.hide();

    // One curve per depth, each over the sizes.
    ASSERT_TRUE(plots.matrixCurve(0));
    ASSERT_TRUE(plots.matrixCurve(1));
    EXPECT_FALSE(plots.matrixCurve(2));
    EXPECT_EQ(plots.matrixCurve(1)->name(), QStringLiteral("QD 2"));
    ASSERT_EQ(plots.matrixCurve(1)->data()->size(), 3);
    EXPECT_EQ(plots.matrixCurve(1)->data()->at(1)->key, 8192.0);
    EXPECT_EQ(plots.matrixCurve(1)->data()->at(1)->value, p.iops.median);

    // The heat map of p99 latency.
    plots.metricField()->setCurrentIndex(plots.metricField()->findData(SeriesPlots::P99Metric));
    EXPECT_EQ(plots.heatMetric(), SeriesPlots::P99Metric);
    ASSERT_TRUE(plots.colorMap());
    EXPECT_DOUBLE_EQ(plots.colorMap()->data()->cell(1, 1), p.p99LatencyUs.median)
        << "null-engine latencies are below 1 ms: in µs";
}

TEST(SeriesView, QueueDepthCyclingIsShownAsACurveOverTheDepths)
{
    test::ensureApp();
    core::Profile p = test::smallProfile(0s, 100ms);
    p.specs[0].queueDepth.reset();
    p.setup.testType = core::TestType::CycleOutstandingIos;
    p.setup.queueDepthCycling = {1, 2, 8, core::StepType::Exponential};
    core::RunSettings options;
    options.ioLimitPerTarget = 200;
    const auto r = runOnNullEngine(p, options);
    ASSERT_EQ(r.steps.size(), 4u);
    EXPECT_TRUE(showsAsSeries(p));
    const SeriesData data = makeSeriesData(r);
    ASSERT_TRUE(data.isSeries());
    EXPECT_TRUE(data.cycling);
    ASSERT_EQ(data.points.size(), 4u);
    SeriesPlots plots;
    plots.setData(data);
    ASSERT_EQ(plots.iopsGraph(0)->data()->size(), 4);
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(plots.iopsGraph(0)->data()->at(i)->key, double(1 << i)) << "QD 1, 2, 4, 8";
}

TEST(SeriesView, WorkerCyclingIsShownAsACurveOverTheWorkersEachStepRuns)
{
    test::ensureApp();
    core::Profile p = test::smallProfile(0s, 100ms);
    auto &workers = p.hosts[0].workers;
    workers.resize(1);
    for (int i = 2; i <= 4; ++i) {
        workers.push_back(workers.front());
        workers.back().name = "Worker " + std::to_string(i);
    }
    p.setup.testType = core::TestType::CycleWorkers;
    p.setup.workerCycling = {1, 2, 4, core::StepType::Exponential};
    core::RunSettings options;
    options.ioLimitPerTarget = 200;
    const auto r = runOnNullEngine(p, options);
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(r.steps.size(), 3u) << "1, 2, 4 workers";
    EXPECT_TRUE(showsAsSeries(p));
    const SeriesData data = makeSeriesData(r);
    ASSERT_TRUE(data.isSeries());
    EXPECT_TRUE(data.cycling);
    ASSERT_EQ(data.axes.size(), 1u);
    EXPECT_EQ(data.axes[0].parameter, core::SweepParameter::Workers);
    EXPECT_EQ(data.axes[0].values, (std::vector<std::uint64_t> {1, 2, 4}));
    SeriesPlots plots;
    plots.setData(data);
    ASSERT_EQ(plots.iopsGraph(0)->data()->size(), 3);
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(plots.iopsGraph(0)->data()->at(i)->key, double(1 << i)) << "1, 2, 4 workers";
}

// The Series view plots cycling from the points the planner gave the steps; a file
// written before it did (its plan's cycling steps without a point) is given the same by
// its reader, and shows the same curve.
TEST(SeriesView, AnOldCyclingFileShowsTheSameSeriesAsANewOne)
{
    test::ensureApp();
    core::Profile p = test::smallProfile(0s, 100ms);
    p.specs[0].queueDepth.reset();
    p.setup.testType = core::TestType::CycleOutstandingIos;
    p.setup.queueDepthCycling = {1, 2, 8, core::StepType::Exponential};
    core::RunSettings options;
    options.ioLimitPerTarget = 200;
    const auto r = runOnNullEngine(p, options);
    ASSERT_FALSE(r.error) << r.error->toString();
    const std::string text = core::writeResultsJson(r, r.environment);
    nlohmann::ordered_json old = nlohmann::ordered_json::parse(text);
    for (auto &step : old["plan"]["steps"])
        step["point"] = nullptr;
    const core::ResultsRead fresh = core::readResultsJson(text);
    const core::ResultsRead before = core::readResultsJson(old.dump(1));
    ASSERT_TRUE(fresh.ok()) << fresh.error;
    ASSERT_TRUE(before.ok()) << before.error;
    for (const core::RunResult *result : {&r, &*fresh.result, &*before.result}) {
        const SeriesData data = makeSeriesData(*result);
        ASSERT_TRUE(data.cycling);
        ASSERT_EQ(data.axes.size(), 1u);
        EXPECT_EQ(data.axes[0].parameter, core::SweepParameter::OutstandingIos);
        EXPECT_EQ(data.axes[0].values, (std::vector<std::uint64_t> {1, 2, 4, 8}));
        ASSERT_EQ(data.points.size(), 4u);
        for (std::size_t i = 0; i < 4; ++i) {
            EXPECT_EQ(data.points[i].point, i);
            EXPECT_EQ(data.points[i].values, (std::vector<std::uint64_t> {1u << i}));
            EXPECT_EQ(data.points[i].trials, (std::vector<std::size_t> {i}));
            EXPECT_EQ(data.points[i].iops.median, r.steps[i].scopes.front().figures.total.iops);
        }
        ASSERT_EQ(data.families.size(), 1u);
        EXPECT_EQ(data.families[0].points.size(), 4u);
    }
}

TEST(SeriesView, PointsAppearOneByOneAsTheRunReportsEachStep)
{
    test::ensureApp();
    const core::Profile profile
        = seriesProfile({generated(core::SweepParameter::TransferSize, 512, 8192, 2)}, 2);
    RunController controller(ioprism::test::testServices());
    SeriesPage page;
    page.beginRun(profile);
    EXPECT_EQ(page.pointCount(), 0u);
    EXPECT_EQ(page.plots()->shownPlots().size(), 2u) << "the axes are there before any point";
    std::size_t planned = 0;
    QObject::connect(&controller, &RunController::planReady, &page,
        [&](quint64, const std::vector<core::PlannedStep> &steps) {
            planned = steps.size();
            page.setPlan(steps);
        });
    std::vector<std::size_t> pointsSeen;
    QObject::connect(&controller, &RunController::stepFinished, &page,
        [&](quint64, const core::StepResult &step, const core::PlannedStep &planned) {
            page.addStep(step, planned);
            pointsSeen.push_back(std::size_t(page.plots()->iopsGraph(0)->data()->size()));
        });
    RunResultPtr result;
    QObject::connect(&controller, &RunController::finished, [&](RunResultPtr r) { result = r; });
    core::RunRequest request;
    request.profile = profile;
    controller.start(request);
    ASSERT_TRUE(test::waitUntil([&] { return result != nullptr; }, 30s));
    ASSERT_FALSE(result->error) << result->error->toString();
    EXPECT_EQ(planned, 10u) << "the checked plan arrives before the steps";
    // Five points, twice: the curve grows to five, then the second trial adds none.
    EXPECT_EQ(pointsSeen, (std::vector<std::size_t> {1, 2, 3, 4, 5, 5, 5, 5, 5, 5}));
    EXPECT_TRUE(page.plots()->iopsWhiskers(0)) << "two trials";
    EXPECT_TRUE(page.headline().contains(QStringLiteral("10 of 10 steps done")))
        << page.headline().toStdString();

    page.setResult(result);
    EXPECT_EQ(page.pointCount(), 5u);
    EXPECT_TRUE(page.headline().contains(QStringLiteral("10 steps done")));
}

TEST(SeriesView, TheWindowShowsTheSeriesPageForASeriesRunOnly)
{
    // Neither clears nor writes the settings (the engine choice is not touched: the null
    // services run every engine on the null backend), so the window tests that check
    // what the settings keep are not disturbed when ctest runs them alongside.
    test::ensureApp();
    test::TempDir dir;
    MainWindowOptions options;
    options.restoreSession = false;
    options.dataDirectory = QString::fromStdString(dir.path().string());
    MainWindow window(ioprism::test::testServices(), options);
    RunResultPtr finished;
    QObject::connect(&window, &MainWindow::runFinished, [&](RunResultPtr r) { finished = r; });

    window.document()->setProfile(
        seriesProfile({generated(core::SweepParameter::TransferSize, 4096, 8192, 2),
            generated(core::SweepParameter::OutstandingIos, 1, 4, 2)}));
    ASSERT_TRUE(window.startRun());
    ASSERT_TRUE(test::waitUntil([&] { return finished != nullptr; }, 30s));
    ASSERT_FALSE(finished->error) << finished->error->toString();
    EXPECT_TRUE(window.isPageShown(MainWindow::SeriesTab)) << "a series ends on its page";
    EXPECT_EQ(window.seriesPage()->pointCount(), 6u);
    ASSERT_TRUE(window.seriesPage()->plots()->colorMap());
    EXPECT_EQ(window.seriesPage()->plots()->colorMap()->data()->keySize(), 2);
    EXPECT_EQ(window.seriesPage()->plots()->colorMap()->data()->valueSize(), 3);
    const QString png = QString::fromStdString((dir.path() / "heat.png").string());
    EXPECT_TRUE(window.exportSeriesPlot(SeriesPlots::HeatMapPlot, png));
    EXPECT_GT(QFileInfo(png).size(), 1000);

    finished.reset();
    window.document()->setProfile(test::smallProfile(1s, 100ms));
    ASSERT_TRUE(window.startRun());
    ASSERT_TRUE(test::waitUntil([&] { return finished != nullptr; }, 30s));
    EXPECT_FALSE(window.isPageShown(MainWindow::SeriesTab));
    window.showPage(MainWindow::SeriesTab);
    EXPECT_FALSE(window.isPageShown(MainWindow::SeriesTab)) << "hidden without a series";
    EXPECT_TRUE(window.isPageShown(MainWindow::ResultsTab));
}

} // namespace
} // namespace ioprism::ui

namespace ioprism::ui {
namespace {

// Issue 24, item 14: a heat-map label is black or white by the cell's luminance, the one
// that reads better, along the whole gradient (HSL lightness put white on bright
// yellow-green cells, where it cannot be read).
TEST(SeriesView, HeatMapLabelsTakeTheColourThatReadsBetterOnTheirCell)
{
    test::ensureApp();
    const auto r = runOnNullEngine(
        seriesProfile({generated(core::SweepParameter::TransferSize, 4096, 16384, 2),
            generated(core::SweepParameter::OutstandingIos, 1, 2, 2)}));
    SeriesPlots plots;
    plots.resize(1400, 700);
    plots.setData(makeSeriesData(r));
    QCPColorMap *map = plots.colorMap();
    ASSERT_TRUE(map);
    QCPColorGradient gradient = map->gradient();
    for (int i = 0; i <= 100; ++i) {
        const QColor cell = QColor::fromRgb(gradient.color(i / 100.0, QCPRange(0, 1)));
        const QColor label = labelColorOn(cell);
        const QColor other = label == QColor(Qt::black) ? QColor(Qt::white) : QColor(Qt::black);
        EXPECT_GE(contrastRatio(cell, label), contrastRatio(cell, other)) << i;
        EXPECT_GE(contrastRatio(cell, label), 4.5) << "WCAG AA at " << i;
    }
    EXPECT_EQ(labelColorOn(QColor(255, 255, 0)), QColor(Qt::black)) << "bright yellow";
    EXPECT_EQ(labelColorOn(QColor(180, 222, 44)), QColor(Qt::black)) << "viridis' yellow-green";
    EXPECT_EQ(labelColorOn(QColor(68, 1, 84)), QColor(Qt::white)) << "viridis' dark end";
    // Every label the heat map draws follows the rule.
    QCustomPlot *heat = plots.plot(SeriesPlots::HeatMapPlot);
    int labels = 0;
    for (int i = 0; i < heat->itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(heat->item(i))) {
            ++labels;
            EXPECT_TRUE(text->color() == QColor(Qt::black) || text->color() == QColor(Qt::white));
        }
    EXPECT_EQ(labels, 6);
}

} // namespace
} // namespace ioprism::ui

namespace ioprism::ui {
namespace {

// Issue 24, item 9: the curves of a series read well. The points are made by hand, so
// the figures are the ones the faults showed with (no run, no timing).

core::TrialStat stat(double v)
{
    return {v, v, v};
}

// A queue-depth curve at one transfer size: IOPS and MB/s proportional. `readShare` of
// the bytes read (1: a read spec); the device did what the application asked.
SeriesData depthCurve(double readShare = 1.0, double latencyScaleUs = 50)
{
    SeriesData data;
    data.axes.push_back({core::SweepParameter::OutstandingIos, {1, 2, 4, 8, 16}});
    SeriesFamily family;
    family.name = QStringLiteral("RND4K");
    for (std::size_t i = 0; i < 5; ++i) {
        const std::uint64_t qd = 1u << i;
        core::SeriesPointResult p;
        p.specName = "RND4K";
        p.point = i;
        p.values = {qd};
        p.trials = {i};
        const double iops = 20000.0 * double(std::min<std::uint64_t>(qd, 8));
        const double mb = iops * 4096 / 1e6;
        p.iops = stat(iops);
        p.megabytesPerSecond = stat(mb);
        p.readMegabytesPerSecond = stat(mb * readShare);
        p.writeMegabytesPerSecond = stat(mb * (1 - readShare));
        p.deviceValid = true;
        p.deviceReadMegabytesPerSecond = stat(mb * readShare);
        p.deviceWriteMegabytesPerSecond = stat(mb * (1 - readShare));
        const double us = latencyScaleUs * double(qd);
        p.meanLatencyUs = stat(us);
        p.p50LatencyUs = stat(us * 0.9);
        p.p99LatencyUs = stat(us * 3);
        p.p99_9LatencyUs = stat(us * 5);
        family.points.push_back(data.points.size());
        data.points.push_back(std::move(p));
    }
    data.families.push_back(family);
    return data;
}

TEST(SeriesCurves, IopsAndMegabytesOfAProportionalCurveDifferInPenAndDoNotCoincide)
{
    test::ensureApp();
    SeriesPlots plots;
    plots.resize(1000, 800);
    plots.setData(depthCurve());
    QCPGraph *iops = plots.iopsGraph(0);
    QCPGraph *mb = plots.megabytesGraph(0);
    ASSERT_TRUE(iops && mb);
    EXPECT_NE(iops->pen().style(), mb->pen().style()) << "not only the colour tells them apart";
    EXPECT_NE(iops->scatterStyle().shape(), mb->scatterStyle().shape());
    EXPECT_NE(iops->valueAxis(), mb->valueAxis());
    EXPECT_TRUE(iops->visible() && mb->visible());
    EXPECT_TRUE(plots.plot(SeriesPlots::ThroughputPlot)->legend->visible());
    EXPECT_TRUE(plots.plot(SeriesPlots::ThroughputPlot)->legend->hasItemWithPlottable(iops));

    // Proportional figures on two autoscaled axes lay the IOPS curve exactly under MB/s:
    // at the highest point they are apart by a good part of the plot.
    plots.show();
    ASSERT_TRUE(test::waitUntil([&] { return plots.isVisible(); }, 5s));
    QCustomPlot *tp = plots.plot(SeriesPlots::ThroughputPlot);
    tp->replot();
    const double top = iops->data()->at(4)->value;
    const double topMb = mb->data()->at(4)->value;
    const double apart
        = std::abs(iops->valueAxis()->coordToPixel(top) - mb->valueAxis()->coordToPixel(topMb));
    EXPECT_GT(apart, 0.15 * tp->axisRect()->height()) << apart;
    plots.hide();
}

TEST(SeriesCurves, TheIopsAxisTakesALogScaleFromItsCheckBox)
{
    test::ensureApp();
    SeriesPlots plots;
    plots.setData(depthCurve());
    QCheckBox *log = plots.iopsLogField();
    ASSERT_TRUE(log);
    EXPECT_FALSE(log->toolTip().isEmpty());
    EXPECT_FALSE(log->isChecked());
    QCPAxis *axis = plots.iopsGraph(0)->valueAxis();
    EXPECT_EQ(axis->scaleType(), QCPAxis::stLinear);

    log->setChecked(true);
    EXPECT_TRUE(plots.iopsLogScale());
    axis = plots.iopsGraph(0)->valueAxis();
    EXPECT_EQ(axis->scaleType(), QCPAxis::stLogarithmic);
    EXPECT_TRUE(axis->ticker().dynamicCast<QCPAxisTickerLog>());
    EXPECT_GT(axis->range().lower, 0) << "a log axis starts above 0";
    EXPECT_LE(axis->range().lower, 20000);
    EXPECT_GE(axis->range().upper, 160000);
    EXPECT_EQ(plots.megabytesGraph(0)->valueAxis()->scaleType(), QCPAxis::stLinear)
        << "MB/s stays linear";
    // New data keeps the choice.
    plots.setData(depthCurve());
    EXPECT_EQ(plots.iopsGraph(0)->valueAxis()->scaleType(), QCPAxis::stLogarithmic);

    log->setChecked(false);
    EXPECT_EQ(plots.iopsGraph(0)->valueAxis()->scaleType(), QCPAxis::stLinear);
}

TEST(SeriesCurves, TheUpperAndLowerPlotsHaveTheirXAxesAligned)
{
    test::ensureApp();
    SeriesData data = depthCurve();
    for (auto &p : data.points) // "1.6M" on the IOPS axis, "100" on the latency one
        p.iops = stat(p.iops.median * 10);
    SeriesPlots plots;
    plots.resize(1000, 800);
    plots.setData(data);
    plots.show();
    ASSERT_TRUE(test::waitUntil([&] { return plots.isVisible(); }, 5s));
    QCustomPlot *tp = plots.plot(SeriesPlots::ThroughputPlot);
    QCustomPlot *lp = plots.plot(SeriesPlots::LatencyPlot);
    ASSERT_EQ(tp->width(), lp->width());
    // Each replot lays out with the other's labels of its last replot.
    tp->replot();
    lp->replot();
    tp->replot();
    EXPECT_EQ(tp->axisRect()->left(), lp->axisRect()->left());
    EXPECT_EQ(tp->axisRect()->right(), lp->axisRect()->right()) << "MB/s is on the right of one";
    EXPECT_EQ(tp->xAxis->range(), lp->xAxis->range());
    EXPECT_EQ(tp->xAxis->scaleType(), lp->xAxis->scaleType());
    plots.hide();
}

TEST(SeriesCurves, AMixedSpecComparesItsReadsAndWritesWithTheDevicesReadsAndWrites)
{
    test::ensureApp();
    SeriesPlots plots;
    plots.setData(depthCurve(0.7));
    EXPECT_FALSE(plots.megabytesGraph(0)) << "no total beside the device's parts";
    QCPGraph *read = plots.readMegabytesGraph(0);
    QCPGraph *write = plots.writeMegabytesGraph(0);
    QCPGraph *deviceRead = plots.deviceReadGraph(0);
    QCPGraph *deviceWrite = plots.deviceWriteGraph(0);
    ASSERT_TRUE(read && write && deviceRead && deviceWrite);
    const auto &points = plots.data().points;
    for (int i = 0; i < 5; ++i) {
        EXPECT_DOUBLE_EQ(
            read->data()->at(i)->value, points[std::size_t(i)].readMegabytesPerSecond.median);
        EXPECT_DOUBLE_EQ(
            write->data()->at(i)->value, points[std::size_t(i)].writeMegabytesPerSecond.median);
    }
    // Each pair on one axis, in one hue: read against read, write against write.
    EXPECT_EQ(read->valueAxis(), deviceRead->valueAxis());
    EXPECT_EQ(write->valueAxis(), deviceWrite->valueAxis());
    EXPECT_EQ(read->pen().color().hue(), deviceRead->pen().color().hue());
    EXPECT_EQ(write->pen().color().hue(), deviceWrite->pen().color().hue());
    EXPECT_NE(read->pen().color().hue(), write->pen().color().hue());
    EXPECT_TRUE(read->name().contains(QStringLiteral("read")));
    EXPECT_TRUE(write->name().contains(QStringLiteral("write")));

    // IOPRISM_TEST_SHOTS=DIR keeps a picture of the curves, to look at.
    if (const char *shots = std::getenv("IOPRISM_TEST_SHOTS")) {
        // The device writing more than asked (a journal), so its curve shows apart.
        SeriesData shot = depthCurve(0.7);
        for (auto &point : shot.points)
            point.deviceWriteMegabytesPerSecond = stat(point.writeMegabytesPerSecond.median * 1.35);
        plots.setData(shot);
        plots.resize(1100, 800);
        plots.show();
        plots.plot(SeriesPlots::ThroughputPlot)->replot();
        plots.plot(SeriesPlots::LatencyPlot)->replot();
        plots.plot(SeriesPlots::ThroughputPlot)->replot();
        plots.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/series-mixed.png"));
        plots.setIopsLogScale(true);
        plots.plot(SeriesPlots::ThroughputPlot)->replot();
        plots.plot(SeriesPlots::LatencyPlot)->replot();
        plots.plot(SeriesPlots::ThroughputPlot)->replot();
        plots.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/series-mixed-log.png"));
        plots.setIopsLogScale(false);
        plots.setData(depthCurve(1.0));
        plots.plot(SeriesPlots::ThroughputPlot)->replot();
        plots.plot(SeriesPlots::LatencyPlot)->replot();
        plots.plot(SeriesPlots::ThroughputPlot)->replot();
        plots.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/series-read.png"));
        plots.hide();
    }

    // A spec that only reads keeps one MB/s curve.
    plots.setData(depthCurve(1.0));
    EXPECT_TRUE(plots.megabytesGraph(0));
    EXPECT_FALSE(plots.readMegabytesGraph(0));
    EXPECT_FALSE(plots.writeMegabytesGraph(0));
}

TEST(SeriesCurves, AMixedRunsPointsCarryItsReadAndWriteMegabytesApart)
{
    test::ensureApp();
    core::Profile p
        = seriesProfile({generated(core::SweepParameter::OutstandingIos, 1, 2, 2)}, 1, 400);
    p.specs[0].queueDepth.reset();
    p.specs[0].lines[0].percentRead = 50;
    const auto points = core::seriesPoints(runOnNullEngine(p));
    ASSERT_EQ(points.size(), 2u);
    for (const auto &point : points) {
        EXPECT_GT(point.readMegabytesPerSecond.median, 0);
        EXPECT_GT(point.writeMegabytesPerSecond.median, 0);
        EXPECT_NEAR(point.readMegabytesPerSecond.median + point.writeMegabytesPerSecond.median,
            point.megabytesPerSecond.median, 1e-6 * point.megabytesPerSecond.median + 1e-9);
    }
}

QStringList latencyTickLabels(SeriesPlots &plots)
{
    QCustomPlot *lp = plots.plot(SeriesPlots::LatencyPlot);
    lp->replot();
    const QVector<QString> labels = lp->yAxis->tickVectorLabels();
    return QStringList(labels.begin(), labels.end());
}

TEST(SeriesCurves, TheLatencyAxisIsInTheUnitOfItsData)
{
    test::ensureApp();
    SeriesPlots plots;
    plots.resize(1000, 800);
    plots.setData(depthCurve(1.0, 2000)); // 2 ms to 160 ms
    QCustomPlot *lp = plots.plot(SeriesPlots::LatencyPlot);
    EXPECT_TRUE(lp->yAxis->label().contains(QStringLiteral("(ms)")))
        << lp->yAxis->label().toStdString();
    const double mean = plots.data().points[0].meanLatencyUs.median;
    EXPECT_DOUBLE_EQ(
        plots.latencyGraph(0, SeriesPlots::MeanLatency)->data()->at(0)->value, mean / 1000);

    // Tens to hundreds of µs, a p99.9 past 1 ms: the axis stays in µs, where most of the
    // data is (it was in ms, the median at "0.03").
    plots.setData(depthCurve(1.0, 15)); // mean 15 µs to 240 µs, p99.9 to 1.2 ms
    EXPECT_TRUE(lp->yAxis->label().contains(QStringLiteral("(µs)")))
        << lp->yAxis->label().toStdString();
    EXPECT_DOUBLE_EQ(plots.latencyGraph(0, SeriesPlots::MeanLatency)->data()->at(0)->value, 15);
    // Its ticks are plain numbers, never "1e+03".
    const QStringList labels = latencyTickLabels(plots);
    ASSERT_FALSE(labels.isEmpty());
    for (const auto &label : labels)
        EXPECT_FALSE(label.contains(QLatin1Char('e'))) << label.toStdString();
    EXPECT_TRUE(labels.contains(lp->locale().toString(1000.0, 'f', 0)))
        << labels.join(' ').toStdString();
}

} // namespace
} // namespace ioprism::ui
