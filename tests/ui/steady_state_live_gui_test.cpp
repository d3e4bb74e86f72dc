// SPDX-License-Identifier: GPL-3.0-or-later
// The steady-state rounds drawn live (ui/plots/steady_state_overlay.h): over the plot of
// their figure, a bar per round, the window the rule judged shaded with its fitted line,
// the verdict in words; redrawn at each round, gone with the plots' clear, and drawn the
// same for a run opened from its file.
#include "core/report/results_json.h"
#include "ui/main_window.h"
#include "ui/pages/live_page.h"
#include "ui/plots/live_plots.h"
#include "ui/plots/qcp_library.h"
#include "ui/plots/steady_state_overlay.h"

#include <QFile>

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

// Rounds of 10 s from 5 s on with these figures, judged as a run judges them.
core::SteadyStateRecord recordOf(const std::vector<double> &figures,
    core::SteadyStateMetric metric = core::SteadyStateMetric::Iops,
    core::SteadyStateRule rule = core::SteadyStateRule::Pts)
{
    core::SteadyStateRecord r;
    r.setup.metric = metric;
    r.setup.criteria.rule = rule;
    for (std::size_t i = 0; i < figures.size(); ++i)
        r.rounds.push_back({.startSeconds = 5 + 10.0 * double(i),
            .endSeconds = 15 + 10.0 * double(i),
            .figure = figures[i]});
    r.result = core::judgeSteadyState(core::roundFigures(r.rounds), r.setup.criteria);
    return r;
}

} // namespace

TEST(SteadyStateOverlay, EachRoundIsABarOnItsFiguresPlotAndTheJudgedWindowIsShaded)
{
    test::ensureApp();
    LivePlots plots;
    QCustomPlot *iops = plots.plot(LivePlots::IopsPlot);
    QCustomPlot *latency = plots.plot(LivePlots::LatencyPlot);
    const int itemsBefore = iops->itemCount();
    const int latencyBefore = latency->itemCount();

    // Three rounds: no window yet (PTS's is five).
    plots.setSteadyState(0, recordOf({9000, 8000, 7000}));
    const SteadyStateOverlay &drawn = plots.steadyState();
    EXPECT_EQ(drawn.roundsShown(0), 3);
    EXPECT_EQ(drawn.windowRoundsShown(0), 0);
    EXPECT_EQ(iops->itemCount() - itemsBefore, 3 + 1) << "three bars and the label";
    EXPECT_EQ(drawn.labelText(0),
        QStringLiteral("Steady state (pts on iops): round 3 of at most 25; a window is 5 rounds"));

    // Seven rounds, steady in rounds 3-7: the window shaded and fitted, redrawn in place
    // of the three (never added to them).
    const core::SteadyStateRecord steady = recordOf({9000, 8000, 5000, 5100, 4950, 5050, 5000});
    ASSERT_EQ(steady.result.state, core::SteadyState::Steady);
    plots.setSteadyState(0, steady);
    EXPECT_EQ(drawn.roundsShown(0), 7);
    EXPECT_EQ(drawn.windowRoundsShown(0), 5);
    EXPECT_EQ(iops->itemCount() - itemsBefore, 7 + 3) << "bars, the band, the line, the label";
    EXPECT_TRUE(drawn.labelText(0).contains(QStringLiteral("steady at rounds 3–7")))
        << drawn.labelText(0).toStdString();
    EXPECT_TRUE(drawn.labelText(0).contains(QStringLiteral("(at most 20.0 %)")));
    EXPECT_EQ(latency->itemCount(), latencyBefore) << "an IOPS rule draws on the IOPS plot";

    // A latency metric draws on the latency plot; a second step keeps the first's.
    plots.setSteadyState(1, recordOf({400, 410, 405}, core::SteadyStateMetric::P99Latency));
    EXPECT_EQ(latency->itemCount() - latencyBefore, 3 + 1);
    EXPECT_EQ(drawn.roundsShown(0), 7);

    // An eighth round adds one bar; a record of fewer rounds (another run's step) is drawn
    // anew, nothing of the longer one left.
    plots.setSteadyState(0, recordOf({9000, 8000, 5000, 5100, 4950, 5050, 5000, 5020}));
    EXPECT_EQ(iops->itemCount() - itemsBefore, 8 + 3);
    EXPECT_EQ(drawn.windowRoundsShown(0), 5);
    plots.setSteadyState(0, recordOf({100, 200}));
    EXPECT_EQ(iops->itemCount() - itemsBefore, 2 + 1);
    EXPECT_EQ(drawn.roundsShown(0), 2);

    // The plots cleared for a new run: nothing of the old rounds is left.
    plots.clear();
    EXPECT_EQ(drawn.roundsShown(0), 0);
    EXPECT_EQ(drawn.roundsShown(1), 0);
    plots.setSteadyState(0, recordOf({1, 2}));
    EXPECT_EQ(drawn.roundsShown(0), 2);
}

TEST(SteadyStateOverlay, TheLabelSaysEachRulesTestsAndAVerdictThatWasNotReached)
{
    // Oscillating to PTS's limit: not reached, with the last window's range.
    std::vector<double> swing;
    for (int i = 0; i < 25; ++i)
        swing.push_back(i % 2 ? 4000 : 1000);
    const core::SteadyStateRecord limit = recordOf(swing);
    ASSERT_EQ(limit.result.state, core::SteadyState::NotReached);
    EXPECT_TRUE(SteadyStateOverlay::describe(limit).contains(
        QStringLiteral("not reached in 25 rounds (the last window: rounds 21–25)")))
        << SteadyStateOverlay::describe(limit).toStdString();
    // fio's rules name their own tests.
    const auto deviation = SteadyStateOverlay::describe(recordOf({100, 100, 100, 100, 100},
        core::SteadyStateMetric::Iops, core::SteadyStateRule::FioDeviation));
    EXPECT_TRUE(deviation.contains(QStringLiteral("deviation 0.0 % (below 20.0 %)")))
        << deviation.toStdString();
    const auto slope = SteadyStateOverlay::describe(recordOf(
        {100, 101, 102, 103, 104}, core::SteadyStateMetric::Iops, core::SteadyStateRule::FioSlope));
    EXPECT_TRUE(slope.contains(QStringLiteral("slope 1.0 % of the mean per round (below 10.0 %)")))
        << slope.toStdString();
}

// A run opened from its file draws its rounds as they were drawn live.
TEST(SteadyStateOverlay, ARunOpenedFromItsFileShowsItsRounds)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    core::RunResult r;
    r.plan.profile = test::smallProfile();
    r.plan.profile.setup.steadyState = core::SteadyStateSetup {};
    core::StepResult step;
    step.stepName = "RND4K QD4";
    step.steadyState = recordOf({9000, 8000, 5000, 5100, 4950, 5050, 5000});
    step.scopes.emplace_back();
    r.steps.push_back(step);
    core::PlannedStep planned;
    planned.name = planned.specName = "RND4K QD4";
    r.plan.steps.push_back(planned);
    const QString path = QString::fromStdString((dir.path() / "steady.json").string());
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(core::writeResultsJson(r, r.environment)));
    file.close();
    ASSERT_TRUE(test::openResultsFile(window, path));
    const SteadyStateOverlay &drawn = window.livePage()->plots()->steadyState();
    EXPECT_EQ(drawn.roundsShown(0), 7);
    EXPECT_EQ(drawn.windowRoundsShown(0), 5);
    EXPECT_EQ(drawn.labelText(0), SteadyStateOverlay::describe(*step.steadyState));
}

} // namespace ioprism::ui
