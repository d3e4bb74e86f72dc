// SPDX-License-Identifier: GPL-3.0-or-later
// The Results page's summary grid (issue 13 item 3): one row per step, the detail follows
// the row clicked, and Ctrl+C puts a table on the clipboard that pastes as one.
#include "core/null_engine.h"
#include "core/run/run.h"
#include "ui/format.h"
#include "ui/models/results_model.h"
#include "ui/models/step_summary_model.h"
#include "ui/pages/results_page.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QMimeData>
#include <QScrollBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using namespace std::chrono_literals;

RunResultPtr threeSteps(const std::string &prefix = {})
{
    core::Profile p = test::smallProfile(0s, 100ms);
    for (const std::string &name : {prefix + "second", prefix + "third"}) {
        core::AccessSpec spec = p.specs[0];
        spec.name = name;
        p.specs.push_back(spec);
        p.hosts[0].workers[0].assignedSpecs.push_back(name);
    }
    core::RunSettings options;
    options.ioLimitPerTarget = 100;
    core::NullBackend backend;
    core::NullCounterSource counters;
    core::RunSink sink;
    auto r = std::make_shared<core::RunResult>(
        core::Run(p, backend, counters, sink, options).execute());
    EXPECT_FALSE(r->error) << r->error->toString();
    return r;
}

TEST(SummaryGrid, EveryRowIsShownWhenTheColumnsScrollSideways)
{
    // A 1024x700 screen leaves the page about 620 pixels wide: the columns scroll
    // sideways, and the scroll bar must not hide a row.
    test::ensureApp();
    ResultsPage page;
    page.resize(620, 560);
    page.show();
    const RunResultPtr result
        = threeSteps("a spec name as long as the ones Iometer's own files carry, ");
    page.setResult(result);
    QApplication::processEvents();
    QTableView *grid = page.summaryGrid();
    ASSERT_GT(grid->horizontalHeader()->length(), grid->viewport()->width())
        << "the page is meant to be too narrow for the columns";
    EXPECT_GE(grid->viewport()->height(), 3 * grid->verticalHeader()->defaultSectionSize());
    EXPECT_EQ(grid->verticalScrollBar()->maximum(), 0) << "no row is scrolled out of view";
    const QRect last = grid->visualRect(grid->model()->index(2, 0));
    EXPECT_LE(last.bottom(), grid->viewport()->height());
}

TEST(SummaryGrid, OneRowPerStepAndAClickShowsThatStepsDetails)
{
    test::ensureApp();
    ResultsPage page;
    page.resize(1200, 800);
    page.show();
    const RunResultPtr result = threeSteps();
    ASSERT_EQ(result->steps.size(), 3u);
    page.setResult(result);
    QTableView *grid = page.summaryGrid();
    ASSERT_EQ(grid->model()->rowCount(), 3);
    EXPECT_EQ(grid->model()->index(2, StepSummaryModel::StepColumn).data().toString(),
        QStringLiteral("third"));
    EXPECT_EQ(grid->model()->index(1, StepSummaryModel::IopsColumn).data().toString(),
        iopsText(result->steps[1].scopes[0].figures.total.iops));
    EXPECT_FALSE(grid->model()
                     ->index(0, StepSummaryModel::DeviceColumn)
                     .data(Qt::ToolTipRole)
                     .toString()
                     .isEmpty());

    QTest::mouseClick(grid->viewport(), Qt::LeftButton, {},
        grid->visualRect(grid->model()->index(2, 0)).center());
    EXPECT_EQ(page.model()->step(), 2) << "the detailed table shows the step clicked";
    page.setStep(1);
    EXPECT_EQ(grid->currentIndex().row(), 1) << "and the grid follows the step chosen below";
}

TEST(SummaryGrid, CtrlCCopiesATableThatPastesAsOneAndExportWritesTheFormatOfTheExtension)
{
    test::ensureApp();
    ResultsPage page;
    page.show();
    page.setResult(threeSteps());
    QTableView *grid = page.summaryGrid();
    grid->setFocus();
    QApplication::clipboard()->clear();
    QTest::keyClick(grid, Qt::Key_C, Qt::ControlModifier);
    const QMimeData *mime = QApplication::clipboard()->mimeData();
    ASSERT_TRUE(mime);
    EXPECT_TRUE(mime->hasHtml());
    EXPECT_TRUE(mime->html().startsWith(QStringLiteral("<table>"))) << mime->html().toStdString();
    EXPECT_EQ(mime->html().count(QStringLiteral("<tr>")), 4) << "a header and three steps";
    EXPECT_TRUE(mime->text().startsWith(QStringLiteral("Step"))) << mime->text().toStdString();
    EXPECT_EQ(mime->text().count(QLatin1Char('\n')), 4);
    EXPECT_TRUE(mime->data(QStringLiteral("text/csv")).startsWith("step,read_mb_per_s"));

    page.copySummary(ResultsPage::CopyForm::Markdown);
    EXPECT_TRUE(QApplication::clipboard()->text().startsWith(QStringLiteral("| Step |")));

    QTemporaryDir dir;
    ASSERT_TRUE(page.exportSummary(dir.filePath(QStringLiteral("s.csv"))));
    QFile csv(dir.filePath(QStringLiteral("s.csv")));
    ASSERT_TRUE(csv.open(QIODevice::ReadOnly));
    EXPECT_EQ(csv.readAll().count('\n'), 4);
    ASSERT_TRUE(page.exportSummary(dir.filePath(QStringLiteral("s.md"))));
    QFile md(dir.filePath(QStringLiteral("s.md")));
    ASSERT_TRUE(md.open(QIODevice::ReadOnly));
    EXPECT_TRUE(md.readAll().startsWith("| Step |"));
    EXPECT_FALSE(page.exportSummary(dir.filePath(QStringLiteral("missing/s.txt"))));
}

} // namespace
} // namespace ioprism::ui
