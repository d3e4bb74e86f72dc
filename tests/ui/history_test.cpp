// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 13 in the GUI: every run kept in the run library, listed on the History page
// after a restart beside the command line's runs, opened as at its end, renamed,
// filtered, deleted, run again; damaged and future files refused with the reason.
#include "core/library/run_library.h"
#include "core/null_engine.h"
#include "core/report/results_json.h"
#include "core/run/run.h"
#include "platform/common/input_file_reader.h"
#include "support/test_support.h"
#include "ui/format.h"
#include "ui/main_window.h"
#include "ui/message_bar.h"
#include "ui/models/history_model.h"
#include "ui/models/profile_document.h"
#include "ui/models/results_model.h"
#include "ui/pages/compare_page.h"
#include "ui/pages/history_page.h"
#include "ui/pages/live_page.h"
#include "ui/pages/results_page.h"
#include "ui/plots/qcp_library.h"

#include <QApplication>
#include <QFileDialog>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

#include <cerrno>
#include <fstream>
#include <gtest/gtest.h>

#include "manager_support.h"
#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using namespace std::chrono_literals;

// A run as the command line saves it: into the same folder, through the same library.
void saveAsTheCliDoes(const std::filesystem::path &folder)
{
    core::Profile p = test::smallProfile(0s, 100ms);
    p.setup.description = "from the command line";
    core::RunSettings options;
    options.ioLimitPerTarget = 100;
    core::NullBackend backend;
    core::NullCounterSource counters;
    core::RunSink sink;
    const core::RunResult r = core::Run(p, backend, counters, sink, options).execute();
    const core::RunLibrary library(folder, ioprism::platform::readInputFile);
    ASSERT_TRUE(library.save(r, core::writeResultsJson(r, r.environment)));
}

TEST(History, GuiAndCliRunsAreKeptListedAfterARestartAndOpenAsAtTheirEnd)
{
    test::ensureApp();
    test::TempDir dir;
    RunResultPtr first;
    {
        MainWindow window(ioprism::test::testServices(), withLibrary(dir));
        window.document()->setProfile(test::smallProfile(1s, 100ms));
        first = runOnce(window);
        ASSERT_TRUE(first && !first->error);
        core::Profile second = test::smallProfile(1s, 100ms);
        second.setup.description = "the second";
        window.document()->setProfile(second);
        ASSERT_TRUE(runOnce(window));
        EXPECT_EQ(window.historyPage()->model()->rowCount(), 2) << "listed as they end";
    }
    saveAsTheCliDoes(dir.path() / "runs");

    MainWindow again(ioprism::test::testServices(), withLibrary(dir)); // quit and start again
    HistoryPage *history = again.historyPage();
    ASSERT_EQ(history->model()->rowCount(), 3);
    QStringList profiles;
    for (int r = 0; r < 3; ++r)
        profiles << history->model()->index(r, HistoryModel::ProfileColumn).data().toString();
    EXPECT_TRUE(profiles.contains(QStringLiteral("from the command line")));
    EXPECT_TRUE(profiles.contains(QStringLiteral("the second")));

    // Open the first GUI run: the Results page as at its end, the Live page's plots too.
    int firstRow = -1;
    for (int r = 0; r < 3; ++r)
        if (history->model()->run(r).headline.profileName != "from the command line"
            && history->model()->run(r).headline.profileName != "the second")
            firstRow = r;
    ASSERT_GE(firstRow, 0);
    const QString file = QString::fromStdString(history->model()->run(firstRow).path.string());
    ASSERT_TRUE(test::openResultsFile(again, file))
        << again.messageBar()->currentText().toStdString();
    const RunResultPtr opened = again.resultsPage()->result();
    ASSERT_TRUE(opened);
    ASSERT_EQ(opened->steps.size(), first->steps.size());
    EXPECT_DOUBLE_EQ(opened->steps[0].scopes[0].figures.total.iops,
        first->steps[0].scopes[0].figures.total.iops);
    EXPECT_EQ(again.resultsPage()->model()->rowCount(), 3);
    EXPECT_EQ(opened->intervals.size(), first->intervals.size());
    EXPECT_GT(again.livePage()->plots()->pointCount(LivePlots::IopsPlot, LivePlots::TotalIops), 0);

    // Run again: its profile, as it ran.
    ASSERT_TRUE(test::waitForSignal(
        again, &MainWindow::profileOfResultsLoaded, [&] { again.loadProfileOfResults(file); }));
    EXPECT_EQ(again.document()->profile().specs, first->plan.profile.specs);
}

TEST(History, RenameFilterAndDeleteInPlace)
{
    test::ensureApp();
    test::TempDir dir;
    saveAsTheCliDoes(dir.path() / "runs");
    saveAsTheCliDoes(dir.path() / "runs");
    MainWindow window(ioprism::test::testServices(), withLibrary(dir));
    HistoryPage *history = window.historyPage();
    HistoryModel *model = history->model();
    ASSERT_EQ(model->rowCount(), 2);
    ASSERT_TRUE(model->setData(model->index(0, HistoryModel::NameColumn),
        QStringLiteral("before the firmware update"), Qt::EditRole));
    ASSERT_TRUE(model->setData(
        model->index(0, HistoryModel::TagsColumn), QStringLiteral("nvme, fw 1.2"), Qt::EditRole));
    model->refresh(); // read back from the sidecar
    int named = -1;
    for (int r = 0; r < 2; ++r)
        if (model->run(r).metadata.name == "before the firmware update")
            named = r;
    ASSERT_GE(named, 0);
    EXPECT_EQ(model->run(named).metadata.tags, (std::vector<std::string> {"nvme", "fw 1.2"}));

    history->filter()->setText(QStringLiteral("FIRMWARE"));
    EXPECT_EQ(history->table()->model()->rowCount(), 1) << "any column, any case";
    history->filter()->clear();
    EXPECT_EQ(history->table()->model()->rowCount(), 2);

    history->table()->selectRow(0);
    history->deleteSelected(false);
    EXPECT_EQ(model->rowCount(), 1);
    EXPECT_EQ(
        core::RunLibrary(dir.path() / "runs", ioprism::platform::readInputFile).list().size(), 1u);
}

TEST(History, ADamagedOrFutureFileIsRefusedWithItsReasonAndTheRestStillOpen)
{
    test::ensureApp();
    test::TempDir dir;
    saveAsTheCliDoes(dir.path() / "runs");
    const auto runs = dir.path() / "runs";
    const auto good = core::RunLibrary(runs, ioprism::platform::readInputFile).list().at(0).path;
    std::ifstream in(good);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    std::ofstream(runs / "20990101-000000-cut.json") << text.substr(0, text.size() / 2);
    std::string future = text;
    // The document's own version (the profile inside has one too).
    const std::string version = "\"version\": " + std::to_string(core::kResultsFormatVersion);
    future.replace(future.find(version), version.size(), "\"version\": 99");
    std::ofstream(runs / "20990101-000001-future.json") << future;

    MainWindow window(ioprism::test::testServices(), withLibrary(dir));
    HistoryModel *model = window.historyPage()->model();
    ASSERT_EQ(model->rowCount(), 3);
    int damaged = 0;
    for (int r = 0; r < 3; ++r)
        damaged += model->run(r).damaged ? 1 : 0;
    EXPECT_EQ(damaged, 2);

    EXPECT_TRUE(test::waitForSignal(window, &MainWindow::openFailed, [&] {
        window.openFile(QString::fromStdString((runs / "20990101-000000-cut.json").string()));
    }));
    EXPECT_EQ(window.messageBar()->currentLevel(), MessageBar::Level::Error);
    EXPECT_TRUE(window.messageBar()->currentText().contains(QStringLiteral("cut.json")));
    EXPECT_TRUE(test::waitForSignal(window, &MainWindow::openFailed, [&] {
        window.openFile(QString::fromStdString((runs / "20990101-000001-future.json").string()));
    }));
    bool saysNewer = false;
    for (int i = 0; i < window.messageBar()->shownCount(); ++i)
        saysNewer |= window.messageBar()->textAt(i).contains(QStringLiteral("99"));
    EXPECT_TRUE(saysNewer);
    EXPECT_TRUE(test::openResultsFile(window, QString::fromStdString(good.string())));
    EXPECT_TRUE(window.resultsPage()->result());
}

// Issue 24: the History page shows one named step's figures of a run of unlike steps, not
// their average, and a failed run's reason in its row.
TEST(History, ARunOfSeveralStepsShowsItsBestStepNamedAndAFailedRunItsReason)
{
    test::ensureApp();
    test::TempDir dir;
    const auto runs = dir.path() / "runs";
    std::filesystem::create_directories(runs);
    // Two unlike steps: "4K read" (12.1 IOPS) and "64K, mixed" (21.2 IOPS); the whole
    // run's summary averages them to 15.1 IOPS.
    std::filesystem::copy_file(
        ioprism::test::sourceDir() / "tests" / "golden" / "report" / "results.json",
        runs / "20240501-120000-golden.json");
    core::Profile p = test::smallProfile(0s, 100ms);
    p.setup.description = "failed";
    core::RunSettings options;
    options.ioLimitPerTarget = 100;
    core::NullBackend backend;
    core::NullCounterSource counters;
    core::RunSink sink;
    core::RunResult failed = core::Run(p, backend, counters, sink, options).execute();
    const std::string longPath = "/mnt/lab/" + std::string(80, 'x') + "/target.dat";
    failed.error = core::makeOpError(EIO, "read", longPath);
    const core::RunLibrary library(runs, ioprism::platform::readInputFile);
    ASSERT_TRUE(library.save(failed, core::writeResultsJson(failed, failed.environment)));

    MainWindow window(ioprism::test::testServices(), withLibrary(dir));
    HistoryModel *model = window.historyPage()->model();
    ASSERT_EQ(model->rowCount(), 2);
    const int several = model->run(0).headline.steps == 2 ? 0 : 1;
    const int fail = 1 - several;
    ASSERT_EQ(model->run(several).headline.steps, 2u);
    const auto cell = [&](int row, int column, int role = Qt::DisplayRole) {
        return model->index(row, column).data(role).toString();
    };
    EXPECT_EQ(cell(several, HistoryModel::FigureColumn), QStringLiteral("best of 2: 64K, mixed"));
    EXPECT_EQ(cell(several, HistoryModel::IopsColumn), iopsText(21.2));
    EXPECT_NE(cell(several, HistoryModel::IopsColumn), iopsText(15.133333333333333))
        << "not the average of the two steps";
    EXPECT_EQ(cell(several, HistoryModel::P99Column), latencyText(149946.3675))
        << "the latency of the same step";
    EXPECT_TRUE(cell(several, HistoryModel::IopsColumn, Qt::ToolTipRole)
                    .contains(QStringLiteral("64K, mixed")));

    // The reason, cut to fit the row, whole in the tooltip.
    const QString outcome = cell(fail, HistoryModel::OutcomeColumn);
    EXPECT_TRUE(outcome.startsWith(QStringLiteral("failed: read /mnt/lab/xxx")))
        << outcome.toStdString();
    EXPECT_TRUE(outcome.endsWith(QStringLiteral("\u2026"))) << outcome.toStdString();
    EXPECT_LT(outcome.size(), 80);
    EXPECT_TRUE(cell(fail, HistoryModel::OutcomeColumn, Qt::ToolTipRole)
                    .contains(QString::fromStdString(longPath)));
    // IOPRISM_TEST_SHOTS=DIR keeps a picture of the list, to look at.
    if (const char *shots = std::getenv("IOPRISM_TEST_SHOTS")) {
        window.resize(1400, 500);
        window.showPage(MainWindow::HistoryTab);
        window.show();
        QApplication::processEvents();
        window.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/history-figures.png"));
    }
}

// A transfer-size series on the null engine with the target's cache mode, as a file.
std::filesystem::path seriesRunFile(
    const test::TempDir &dir, core::CacheMode cache, const char *name)
{
    core::Profile p = test::smallProfile(0s, 100ms);
    p.hosts[0].workers[0].targets[0].cacheMode = cache;
    core::Series series;
    core::SweepAxis axis;
    axis.parameter = core::SweepParameter::TransferSize;
    axis.values = {4096, 8192, 16384};
    series.axes.push_back(axis);
    series.ios = 200;
    p.setup.series = series;
    core::NullBackend backend;
    core::NullCounterSource counters;
    core::RunSink sink;
    const core::RunResult r = core::Run(p, backend, counters, sink).execute();
    EXPECT_FALSE(r.error) << r.error->toString();
    const auto path = dir.path() / name;
    std::ofstream(path) << core::writeResultsJson(r, r.environment);
    return path;
}

TEST(Compare, ADirectAndABufferedRunOverlaidWithTheirChangesAndTheCacheModeAmongTheDifferences)
{
    test::ensureApp();
    test::TempDir dir;
    const auto direct = seriesRunFile(dir, core::CacheMode::Direct, "direct.json");
    const auto buffered = seriesRunFile(dir, core::CacheMode::Buffered, "buffered.json");
    MainWindow window(ioprism::test::testServices(), withLibrary(dir));
    ASSERT_TRUE(test::waitForSignal(window, &MainWindow::runsCompared, [&] {
        EXPECT_TRUE(window.compareFiles(
            {QString::fromStdString(direct.string()), QString::fromStdString(buffered.string())}));
    })) << window.messageBar()->currentText().toStdString();
    ComparePage *page = window.comparePage();
    EXPECT_TRUE(page->overSeries());
    ASSERT_EQ(page->plot()->graphCount(), 2);
    EXPECT_EQ(page->plot()->graph(0)->name(), QStringLiteral("direct"));
    EXPECT_EQ(page->plot()->graph(1)->name(), QStringLiteral("buffered"));
    EXPECT_EQ(page->plot()->graph(1)->data()->size(), 3);
    EXPECT_TRUE(page->plot()->legend->visible());

    // Three points in both runs: a line per point and run, each with its change.
    const auto &comparison = page->comparison();
    ASSERT_EQ(comparison.rows.size(), 3u);
    QTableWidget *delta = page->deltaTable();
    ASSERT_EQ(delta->rowCount(), 6);
    EXPECT_EQ(delta->item(0, 3)->text(), QStringLiteral("baseline"));
    const core::Change change = core::changeOf(core::CompareMetric::Iops,
        (*comparison.rows[0].runs[0])[core::CompareMetric::Iops],
        (*comparison.rows[0].runs[1])[core::CompareMetric::Iops]);
    const QColor expected = change.sense == core::ChangeSense::Better ? QColor(0x2f, 0x9e, 0x44)
        : change.sense == core::ChangeSense::Worse                    ? QColor(0xd9, 0x48, 0x0f)
                                                                      : QColor();
    if (expected.isValid()) {
        EXPECT_EQ(delta->item(1, 3)->foreground().color(), expected);
    }
    EXPECT_TRUE(delta->item(1, 3)->text().endsWith(QStringLiteral("%")));

    bool cacheMode = false;
    for (int r = 0; r < page->differencesTable()->rowCount(); ++r)
        cacheMode |= page->differencesTable()->item(r, 0)->text() == QStringLiteral("cache mode");
    EXPECT_TRUE(cacheMode);

    page->setBaseline(1);
    EXPECT_EQ(delta->item(1, 3)->text(), QStringLiteral("baseline"));
    EXPECT_NE(delta->item(0, 3)->text(), QStringLiteral("baseline"));
}

// Export Report… on the Compare page: a save dialog, then one HTML file with the runs, the
// tables and the page's plot embedded as a PNG.
TEST(Compare, ExportReportWritesTheComparisonWithItsPlotEmbedded)
{
    test::ensureApp();
    test::TempDir dir;
    const auto direct = seriesRunFile(dir, core::CacheMode::Direct, "direct.json");
    const auto buffered = seriesRunFile(dir, core::CacheMode::Buffered, "buffered.json");
    MainWindow window(ioprism::test::testServices(), withLibrary(dir));
    ComparePage *page = window.comparePage();
    EXPECT_FALSE(page->exportReportButton()->isEnabled()); // nothing compared yet
    ASSERT_TRUE(test::waitForSignal(window, &MainWindow::runsCompared, [&] {
        EXPECT_TRUE(window.compareFiles(
            {QString::fromStdString(direct.string()), QString::fromStdString(buffered.string())}));
    }));
    QPushButton *button = page->exportReportButton();
    EXPECT_TRUE(button->isEnabled());
    EXPECT_FALSE(button->toolTip().isEmpty());

    QTest::mouseClick(button, Qt::LeftButton);
    QFileDialog *dialog = nullptr;
    ASSERT_TRUE(test::waitUntil(
        [&] {
            dialog = window.findChild<QFileDialog *>();
            return dialog && dialog->isVisible();
        },
        2s));
    EXPECT_EQ(dialog->acceptMode(), QFileDialog::AcceptSave);
    const auto path = dir.path() / "comparison.html";
    dialog->selectFile(QString::fromStdString(path.string()));
    static_cast<QDialog *>(dialog)->accept(); // QFileDialog::accept is protected
    ASSERT_TRUE(test::waitUntil([&] { return std::filesystem::exists(path); }, 5s));

    std::ifstream in(path);
    const std::string html((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(html.find("<h2>Runs</h2>"), std::string::npos);
    EXPECT_NE(html.find("direct"), std::string::npos);
    EXPECT_NE(html.find("buffered"), std::string::npos);
    EXPECT_NE(html.find(">cache mode</td>"), std::string::npos);
    EXPECT_NE(html.find("<h2>Step by step</h2>"), std::string::npos);
    // The page's plot as a PNG: its base64 starts with the PNG signature's.
    const auto image = html.find("src=\"data:image/png;base64,iVBORw0KGgo");
    ASSERT_NE(image, std::string::npos);
    EXPECT_GT(html.find('"', image + 10) - image, 1000u);
    EXPECT_EQ(html.find("<svg"), std::string::npos);
}

} // namespace
} // namespace ioprism::ui
