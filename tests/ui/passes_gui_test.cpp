// SPDX-License-Identifier: GPL-3.0-or-later
// CrystalDiskMark's passes and its pause between tests in the GUI: the Test setup page's
// controls write the profile and the plan line counts them; a run from the window keeps
// every pass, and the summary grid shows each test's best pass with the passes' mean and
// spread, a click showing that pass.
#include "core/null_engine.h"
#include "ui/main_window.h"
#include "ui/models/profile_document.h"
#include "ui/models/results_model.h"
#include "ui/models/step_summary_model.h"
#include "ui/pages/results_page.h"
#include "ui/pages/setup_page.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QSpinBox>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

#include "manager_support.h"
#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using namespace std::chrono_literals;

// smallProfile with a second test (a write).
core::Profile twoTests(std::chrono::seconds runTime)
{
    core::Profile p = test::smallProfile(runTime, 100ms);
    core::AccessSpec write = p.specs[0];
    write.name = "RND4K QD4 write";
    write.lines[0].percentRead = 0;
    p.specs.push_back(write);
    p.hosts[0].workers[0].assignedSpecs.push_back(write.name);
    return p;
}

} // namespace

TEST(SetupPagePasses, TheControlsWriteThePassesAndThePauseAndThePlanCountsThem)
{
    test::ensureApp();
    ProfileDocument document;
    document.setProfile(twoTests(10s));
    SetupPage page(&document, nullPlatformServices().engines);
    QSpinBox *passes = page.passesField();
    QLineEdit *pause = page.pauseField();
    ASSERT_NE(passes, nullptr);
    ASSERT_NE(pause, nullptr);
    EXPECT_FALSE(passes->toolTip().isEmpty());
    EXPECT_FALSE(pause->toolTip().isEmpty());
    EXPECT_EQ(passes->value(), 1);
    EXPECT_EQ(page.planText(), QStringLiteral("Start runs 2 steps × 10s = 20s"));

    passes->setValue(3);
    test::type(pause, QStringLiteral("5s"));
    EXPECT_EQ(document.profile().setup.passes, 3u);
    EXPECT_EQ(document.profile().setup.pauseBetweenTests, 5s);
    EXPECT_EQ(page.planText(),
        QStringLiteral("Start runs 6 steps × 10s = 1m (2 tests of 3 passes each), plus 1 pause "
                       "of 5s between tests (5s)"));

    // A pause that is not whole seconds is marked and not taken.
    test::type(pause, QStringLiteral("1.5s"));
    EXPECT_TRUE(test::marked(pause));
    EXPECT_EQ(document.profile().setup.pauseBetweenTests, 5s);

    // A profile read from a file shows its passes and pause.
    core::Profile read = twoTests(10s);
    read.setup.passes = 5;
    read.setup.pauseBetweenTests = 30s;
    document.setProfile(read);
    EXPECT_EQ(passes->value(), 5);
    EXPECT_EQ(pause->text(), QStringLiteral("30s"));
}

TEST(SetupPagePasses, PassesOfASeriesAreMarkedWithWhyAndTheFieldIsOffForOne)
{
    test::ensureApp();
    ProfileDocument document;
    core::Profile p = twoTests(1s);
    p.setup.passes = 2;
    p.setup.series = core::Series {};
    p.setup.series->axes.push_back(
        {.parameter = core::SweepParameter::OutstandingIos, .values = {1, 4}});
    document.setProfile(p);
    SetupPage page(&document, nullPlatformServices().engines);
    // Refused by core, said where it is set (and still editable, to put it right).
    EXPECT_TRUE(test::marked(page.passesField()));
    EXPECT_TRUE(page.passesField()->toolTip().contains(QStringLiteral("repeat")))
        << page.passesField()->toolTip().toStdString();
    EXPECT_TRUE(page.passesField()->isEnabled());
    page.passesField()->setValue(1);
    EXPECT_FALSE(test::marked(page.passesField()));
    EXPECT_FALSE(page.passesField()->isEnabled()) << "a series repeats with its Repetitions";
}

TEST(PassesFromTheWindow, EveryPassIsKeptAndTheGridShowsEachTestsBestWithItsSpread)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    core::Profile p = twoTests(1s);
    p.setup.passes = 2;
    p.setup.pauseBetweenTests = 1s;
    p.hosts[0].workers[0].targets[0].path = (dir.path() / "ioprism-test.dat").string();
    p.hosts[0].workers[0].targets[0].testFileSizeBytes = 8 * core::kMiB;
    window.document()->setProfile(p);
    const RunResultPtr finished = runOnce(window);
    ASSERT_TRUE(finished);
    ASSERT_FALSE(finished->error) << finished->error->toString();
    ASSERT_EQ(finished->steps.size(), 4u);
    EXPECT_EQ(finished->steps[1].stepName, "RND4K QD4, pass 2/2");

    ResultsPage *page = window.resultsPage();
    page->setResult(finished);
    QTableView *grid = page->summaryGrid();
    ASSERT_EQ(grid->model()->rowCount(), 2) << "a row per test, not per pass";
    const auto cell
        = [&](int row, int column) { return grid->model()->index(row, column).data().toString(); };
    EXPECT_EQ(cell(0, StepSummaryModel::StepColumn), QStringLiteral("RND4K QD4"));
    EXPECT_EQ(cell(1, StepSummaryModel::PassesColumn), QStringLiteral("best of 2"));
    for (const int column : {StepSummaryModel::PassesColumn, StepSummaryModel::PassMeanColumn,
             StepSummaryModel::PassSpreadColumn}) {
        EXPECT_FALSE(grid->isColumnHidden(column)) << column;
        EXPECT_FALSE(grid->model()
                         ->headerData(column, Qt::Horizontal, Qt::ToolTipRole)
                         .toString()
                         .isEmpty());
    }
    // The best pass is the one with the most MB/s, and a click shows it.
    const auto &rows = static_cast<StepSummaryModel *>(grid->model())->rows();
    const std::size_t best = rows[1].step;
    ASSERT_TRUE(best == 2 || best == 3);
    const double other = finished->steps[best == 2 ? 3 : 2].scopes[0].figures.total.iops;
    EXPECT_GE(finished->steps[best].scopes[0].figures.total.iops, other);
    QTest::mouseClick(grid->viewport(), Qt::LeftButton, {},
        grid->visualRect(grid->model()->index(1, 0)).center());
    EXPECT_EQ(page->model()->step(), int(best));
    // Another pass chosen below keeps its test's row selected.
    page->setStep(best == 2 ? 3 : 2);
    EXPECT_EQ(grid->currentIndex().row(), 1);
}

} // namespace ioprism::ui
