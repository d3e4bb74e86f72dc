// SPDX-License-Identifier: GPL-3.0-or-later
// Steady state in the GUI (docs/ssd-testing.md): the Test setup page's "Stop at steady state" box
// writes the profile's rule (and shows one read from a file), says what Start will run,
// and marks a field core refuses; the SNIA PTS preset runs from the window with it.
#include "core/profile/profile_json.h"
#include "ui/main_window.h"
#include "ui/message_bar.h"
#include "ui/models/profile_document.h"
#include "ui/pages/live_page.h"
#include "ui/pages/setup_page.h"
#include "ui/pages/steady_state_box.h"
#include "ui/plots/live_plots.h"
#include "ui/plots/steady_state_overlay.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using namespace std::chrono_literals;

using test::choose;
using test::marked;
using test::type;

} // namespace

TEST(SetupPageSteadyState, TheBoxWritesTheRuleIntoTheProfileAndShowsOneReadFromAFile)
{
    test::ensureApp();
    ProfileDocument document;
    core::Profile p = test::smallProfile(30s, 1s);
    p.setup.rampUp = 5s;
    document.setProfile(p);
    SetupPage page(&document, nullPlatformServices().engines);
    SteadyStateBox *box = page.steadyStateBox();
    ASSERT_NE(box, nullptr);
    EXPECT_FALSE(box->isChecked());
    EXPECT_FALSE(box->toolTip().isEmpty());
    for (QWidget *field :
        std::initializer_list<QWidget *> {box->ruleField(), box->metricField(), box->roundField(),
            box->windowField(), box->limitField(), box->rangeField(), box->slopeField()})
        EXPECT_FALSE(field->toolTip().isEmpty()) << field->objectName().toStdString();

    // Ticked: PTS's parameters, and the plan says the steps run until steady.
    box->setChecked(true);
    ASSERT_TRUE(document.profile().setup.steadyState);
    EXPECT_EQ(*document.profile().setup.steadyState, core::SteadyStateSetup {});
    EXPECT_EQ(page.planText(),
        QStringLiteral("Start runs 1 step, each until steady (at most 25 rounds of 1m, after a "
                       "5s ramp-up): 25m5s at most"));

    choose(box->ruleField(), int(core::SteadyStateRule::FioDeviation));
    EXPECT_FALSE(box->slopeField()->isEnabled()) << "fio's deviation rule has no slope test";
    EXPECT_TRUE(box->rangeField()->isEnabled());
    choose(box->metricField(), int(core::SteadyStateMetric::P99Latency));
    type(box->roundField(), QStringLiteral("30s"));
    box->windowField()->setValue(4);
    box->limitField()->setValue(12);
    box->rangeField()->setValue(7.5);
    const core::SteadyStateSetup &steady = *document.profile().setup.steadyState;
    EXPECT_EQ(steady.criteria.rule, core::SteadyStateRule::FioDeviation);
    EXPECT_EQ(steady.metric, core::SteadyStateMetric::P99Latency);
    EXPECT_EQ(steady.roundTime, 30s);
    EXPECT_EQ(steady.criteria.windowRounds, 4u);
    EXPECT_EQ(steady.criteria.roundLimit, 12u);
    EXPECT_DOUBLE_EQ(steady.criteria.rangeLimit, 0.075);

    // Saved as JSON and opened in another window, the box shows the same.
    core::Problems problems;
    auto back = core::parseProfileJson(core::writeProfileJson(document.profile()), problems);
    ASSERT_TRUE(back) << (problems.empty() ? "" : problems[0].toString());
    EXPECT_EQ(back->setup, document.profile().setup);
    ProfileDocument other;
    SetupPage shown(&other, nullPlatformServices().engines);
    other.setProfile(*back);
    SteadyStateBox *again = shown.steadyStateBox();
    EXPECT_TRUE(again->isChecked());
    EXPECT_EQ(again->ruleField()->currentData().toInt(), int(core::SteadyStateRule::FioDeviation));
    EXPECT_EQ(
        again->metricField()->currentData().toInt(), int(core::SteadyStateMetric::P99Latency));
    EXPECT_EQ(again->roundField()->text(), QStringLiteral("30s"));
    EXPECT_EQ(again->windowField()->value(), 4);
    EXPECT_EQ(again->limitField()->value(), 12);
    EXPECT_DOUBLE_EQ(again->rangeField()->value(), 7.5);
    EXPECT_EQ(shown.planText(),
        QStringLiteral("Start runs 1 step, each until steady (at most 12 rounds of 30s, after a "
                       "5s ramp-up): 6m5s at most"));

    // Unticked: no rule, the run time again.
    box->setChecked(false);
    EXPECT_FALSE(document.profile().setup.steadyState);
    EXPECT_EQ(page.planText(), QStringLiteral("Start runs 1 step × (5s ramp-up + 30s) = 35s"));
}

// A round shorter than a sample is refused by core at setup.steadyState.roundTime: the
// field is marked; one that cannot be read is marked at once and the profile keeps its
// round.
TEST(SetupPageSteadyState, ARoundCoreRefusesOrThatCannotBeReadIsMarked)
{
    test::ensureApp();
    ProfileDocument document;
    document.setProfile(test::smallProfile(30s, 1s));
    SetupPage page(&document, nullPlatformServices().engines);
    SteadyStateBox *box = page.steadyStateBox();
    box->setChecked(true);
    EXPECT_FALSE(marked(box->roundField()));
    type(box->roundField(), QStringLiteral("500ms"));
    EXPECT_EQ(document.profile().setup.steadyState->roundTime, 500ms);
    EXPECT_TRUE(marked(box->roundField())) << "shorter than the 1s sampling interval";
    EXPECT_TRUE(box->roundField()->toolTip().contains(QStringLiteral("sampling interval")))
        << box->roundField()->toolTip().toStdString();
    type(box->roundField(), QStringLiteral("2s"));
    EXPECT_FALSE(marked(box->roundField()));
    type(box->roundField(), QStringLiteral("two"));
    EXPECT_TRUE(marked(box->roundField()));
    EXPECT_EQ(document.profile().setup.steadyState->roundTime, 2s);
}

// The SNIA PTS preset from the window: the box is ticked with PTS's parameters and the
// plan says "until steady"; shortened as a user trying it would (rounds of 300 ms), Start
// runs both its tests in rounds to a verdict each, and the verdicts are in view.
TEST(SsdPresets, ThePtsPresetRunsFromTheWindowInRoundsToAVerdictPerTest)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    ASSERT_TRUE(window.applyPreset("ssd-steady-state"));
    SteadyStateBox *box = window.setupPage()->steadyStateBox();
    EXPECT_TRUE(box->isChecked());
    EXPECT_EQ(box->roundField()->text(), QStringLiteral("1m"));
    // The window keeps its own target (a 512 MiB test file): written twice first.
    EXPECT_EQ(window.setupPage()->planText().toStdString(),
        QStringLiteral("First it preconditions every target with 128 KiB sequential writes, 2× "
                       "its capacity: 1 GiB. Start runs 2 steps, each until steady (at most 25 "
                       "rounds of 1m): 50m at most")
            .toStdString());

    core::Profile p = window.document()->profile();
    p.setup.interval = 100ms;
    p.setup.steadyState->roundTime = 300ms;
    p.setup.steadyState->criteria.roundLimit = 6;
    for (auto &target : p.hosts.at(0).workers.at(0).targets) {
        target.path = (dir.path() / "ioprism-test.dat").string();
        target.testFileSizeBytes = 8 * core::kMiB;
    }
    window.document()->setProfile(p);
    RunResultPtr finished;
    QObject::connect(&window, &MainWindow::runFinished, [&](RunResultPtr r) { finished = r; });
    ASSERT_TRUE(window.startRun());
    ASSERT_TRUE(test::waitUntil([&] { return finished != nullptr; }, 60s));
    ASSERT_FALSE(finished->error) << finished->error->toString();
    ASSERT_EQ(finished->steps.size(), 2u);
    // PTS's preconditioning first: the 8 MiB file written twice, kept apart.
    ASSERT_TRUE(finished->preconditioning);
    EXPECT_EQ(finished->preconditioning->step.scopes.front().figures.write.bytes, 16 * core::kMiB);
    const SteadyStateOverlay &drawn = window.livePage()->plots()->steadyState();
    for (const auto &step : finished->steps) {
        ASSERT_TRUE(step.steadyState) << step.stepName;
        EXPECT_NE(step.steadyState->result.state, core::SteadyState::Measuring);
        EXPECT_GE(step.steadyState->rounds.size(), 5u);
        EXPECT_LE(step.steadyState->rounds.size(), 6u);
        // Drawn live on the IOPS plot as each round ended: every round the step kept, the
        // window the rule judged last, and its verdict.
        const int s = int(step.step);
        EXPECT_EQ(drawn.roundsShown(s), int(step.steadyState->rounds.size())) << step.stepName;
        EXPECT_EQ(drawn.windowRoundsShown(s), 5) << step.stepName;
        EXPECT_EQ(drawn.labelText(s), SteadyStateOverlay::describe(*step.steadyState));
    }
    // The verdicts are said where the window says what a run reported.
    bool said = false;
    for (auto *bar : window.findChildren<MessageBar *>())
        for (int i = 0; i < bar->pendingCount(); ++i)
            said = said || bar->textAt(i).contains(QStringLiteral("RND4K Q32T1 Read"));
    EXPECT_TRUE(said);
}

} // namespace ioprism::ui
