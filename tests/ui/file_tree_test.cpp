// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 15, item 6 (the GUI): a file-tree target is added on the Targets page (in
// ioprism-tree inside the chosen folder, or IOPrism's own tree there again), its shape is
// edited beside the table with the total shown and core's problems on its fields, and it
// is saved as a fileTree target; the worker's connection rate is set in its settings; a
// run's files opened per second and open, close and open-to-close times are on the
// Results, Live and Series pages.
#include "core/null_engine.h"
#include "core/profile/profile_json.h"
#include "core/profile/validation.h"
#include "core/report/results_json.h"
#include "core/report/results_reader.h"
#include "core/run/run.h"
#include "core/run/series_result.h"
#include "core/workload/file_tree.h"
#include "support/test_support.h"
#include "ui/editors/editors.h"
#include "ui/editors/worker_panel.h"
#include "ui/format.h"
#include "ui/main_window.h"
#include "ui/message_bar.h"
#include "ui/models/files_model.h"
#include "ui/models/profile_document.h"
#include "ui/models/step_summary_model.h"
#include "ui/models/targets_model.h"
#include "ui/pages/compare_page.h"
#include "ui/pages/live_page.h"
#include "ui/pages/results_page.h"
#include "ui/pages/targets_page.h"
#include "ui/plots/qcp_library.h"
#include "ui/plots/series_data.h"
#include "ui/plots/series_plot.h"
#include "ui/translations.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QGroupBox>
#include <QLabel>
#include <QMessageBox>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QToolButton>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

// core's message for a field path, as validateProfile words it.
// The small profile on a file tree (the null engine opens nothing on disk).
core::Profile treeProfile(const fs::path &folder)
{
    core::Profile p = test::smallProfile(0s, 100ms);
    core::Target &t = p.hosts[0].workers[0].targets[0];
    t.kind = core::TargetKind::FileTree;
    t.path = folder.string();
    t.tree = core::FileTree {.depth = 2, .filesPerLevel = 3, .fileSizeBytes = 1 * core::kMiB};
    return p;
}

core::RunResult runLimitedOnNullEngine(
    const core::Profile &profile, std::uint64_t iosPerTarget = 300)
{
    core::RunSettings options;
    options.ioLimitPerTarget = iosPerTarget;
    core::NullBackend backend;
    core::NullCounterSource counters;
    core::RunSink sink;
    core::RunResult r = core::Run(profile, backend, counters, sink, options).execute();
    EXPECT_FALSE(r.error) << r.error->toString();
    return r;
}

TEST(FileTreeTargets, AddFileTreeAsksForAFolderAndMakesTheTreeInIoprismTreeInsideIt)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    window.document()->setProfile(test::smallProfile());
    window.show();
    window.showPage(MainWindow::TargetsTab);
    TargetsPage *page = window.targetsPage();
    auto *model = page->model();
    model->setWorker(0);
    EXPECT_FALSE(page->treePanel()->isVisibleTo(&window)) << "no tree: no tree panel";

    // The button beside "Add test file…" asks for a folder.
    auto *button = page->findChild<QToolButton *>(QStringLiteral("addFileTree"));
    ASSERT_NE(button, nullptr);
    EXPECT_FALSE(button->toolTip().isEmpty());
    button->click();
    auto *dialog = window.findChild<QFileDialog *>(QStringLiteral("fileTreeFolderDialog"));
    ASSERT_NE(dialog, nullptr);
    EXPECT_EQ(dialog->fileMode(), QFileDialog::Directory);
    const fs::path chosen = dir.path() / "bench";
    fs::create_directories(chosen);
    std::ofstream(chosen / "notes.txt") << "the user's own file";
    emit dialog->fileSelected(QString::fromStdString(chosen.string()));

    // The worker had a test file: the tree replaces it or joins it, as the user says.
    auto *box = window.findChild<QMessageBox *>(QStringLiteral("addFileTreeDialog"));
    ASSERT_NE(box, nullptr);
    box->findChild<QAbstractButton *>(QStringLiteral("replaceTargets"))->click();
    const auto &targets = window.document()->worker(0)->targets;
    ASSERT_EQ(targets.size(), 1u);
    EXPECT_EQ(targets[0].kind, core::TargetKind::FileTree);
    // Never among the user's files: in ioprism-tree inside the chosen folder.
    const std::string treePath = (chosen / kFileTreeFolderName).string();
    EXPECT_EQ(targets[0].path, treePath);
    EXPECT_EQ(targets[0].tree, core::FileTree {});

    const int row = test::targetRow(*model, treePath);
    ASSERT_GE(row, 0);
    EXPECT_EQ(
        model->index(row, TargetsModel::KindColumn).data().toString(), QStringLiteral("File tree"));
    EXPECT_TRUE(model->index(row, 0).data(TargetsModel::FileTreeRole).toBool());
    // Free space where it goes, as for a test file.
    EXPECT_FALSE(model->index(row, TargetsModel::FreeColumn).data().toString().isEmpty());

    // The panel edits its shape and says the total.
    EXPECT_TRUE(page->treePanel()->isVisibleTo(&window));
    EXPECT_EQ(page->treeRow(), row);
    EXPECT_TRUE(
        page->treeTotal()->text().contains(QStringLiteral("3 levels × 4 files × 4 MiB = 48 MiB")))
        << page->treeTotal()->text().toStdString();
    page->treeDepthField()->setValue(2);
    page->treeFilesField()->setValue(5);
    page->treeFileSizeField()->setBytes(1 * core::kMiB);
    page->treePreInitField()->setValue(500);
    const core::FileTree edited {
        .depth = 2, .filesPerLevel = 5, .fileSizeBytes = 1 * core::kMiB, .preInitOperations = 500};
    EXPECT_EQ(targets[0].tree, edited);
    const QString shape = QStringLiteral("2 levels × 5 files × 1 MiB = 10 MiB");
    EXPECT_TRUE(page->treeTotal()->text().contains(shape))
        << page->treeTotal()->text().toStdString();
    EXPECT_TRUE(page->treeTotal()->text().contains(QStringLiteral("(10 files)")));
    EXPECT_EQ(model->index(row, TargetsModel::FileSizeColumn).data().toString(),
        QStringLiteral("2 × 5 × 1 MiB = 10 MiB"));
    // Cache mode works as for a test file.
    EXPECT_TRUE(model->setData(
        model->index(row, TargetsModel::CacheColumn), int(core::CacheMode::Buffered)));
    EXPECT_EQ(targets[0].cacheMode, core::CacheMode::Buffered);
    EXPECT_FALSE(window.document()->hasErrors());

    // Saved as a fileTree target with its shape.
    const QString file = QString::fromStdString((dir.path() / "tree-profile.json").string());
    ASSERT_TRUE(window.saveFile(file));
    QFile saved(file);
    ASSERT_TRUE(saved.open(QIODevice::ReadOnly));
    const std::string json = saved.readAll().toStdString();
    EXPECT_NE(json.find("\"fileTree\""), std::string::npos) << json;
    core::Problems problems;
    const auto read = core::parseProfileJson(json, problems);
    ASSERT_TRUE(read) << (problems.empty() ? std::string() : problems.front().message);
    const core::Target &t = read->hosts[0].workers[0].targets[0];
    EXPECT_EQ(t.kind, core::TargetKind::FileTree);
    EXPECT_EQ(t.path, treePath);
    EXPECT_EQ(t.tree, edited);
    EXPECT_EQ(t.cacheMode, core::CacheMode::Buffered);
}

TEST(FileTreeTargets, IoprismsOwnTreeIsUsedAgainWithItsShapeAndAFileIsRefused)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    core::Profile profile = test::smallProfile();
    profile.hosts[0].workers[0].targets.clear();
    window.document()->setProfile(profile);
    window.targetsPage()->model()->setWorker(0);

    // A tree IOPrism made before, chosen itself or through its parent folder.
    const core::FileTree made {.depth = 2, .filesPerLevel = 3, .fileSizeBytes = 64 * core::kKiB};
    const fs::path tree = dir.path() / "old" / kFileTreeFolderName;
    fs::create_directories(tree);
    std::ofstream(core::fileTreeMarkerPath(tree.string())) << core::fileTreeMarkerText(made);
    const auto readHead = ioprism::test::testServices().readFileHead;
    const FileTreePlace viaParent = fileTreePlace((dir.path() / "old").string(), readHead);
    EXPECT_EQ(viaParent.path, tree.string());
    ASSERT_TRUE(viaParent.existing);
    EXPECT_TRUE(core::sameFileTreeShape(*viaParent.existing, made));

    window.addFileTree(tree.string());
    const auto &targets = window.document()->worker(0)->targets;
    ASSERT_EQ(targets.size(), 1u);
    EXPECT_EQ(targets[0].path, tree.string()) << "its own folder, not ioprism-tree inside it";
    EXPECT_TRUE(core::sameFileTreeShape(targets[0].tree, made));
    const int row = test::targetRow(*window.targetsPage()->model(), tree.string());
    ASSERT_GE(row, 0);
    EXPECT_EQ(window.targetsPage()->model()->index(row, TargetsModel::SizeColumn).data().toString(),
        capacityText(made.totalBytes()))
        << "the tree as it is now";

    // A file is no place for a tree: nothing is added, the message bar says why.
    const fs::path file = dir.path() / "a-file.dat";
    std::ofstream(file) << "x";
    const FileTreePlace refused = fileTreePlace(file.string(), readHead);
    EXPECT_TRUE(refused.path.empty());
    EXPECT_TRUE(refused.refusal.contains(QStringLiteral("is a file")));
    window.addFileTree(file.string());
    EXPECT_EQ(targets.size(), 1u);
    EXPECT_TRUE(window.messageBar()->currentText().contains(QStringLiteral("is a file")))
        << window.messageBar()->currentText().toStdString();
}

// Issue 23, item 10: the marker is read through the bounded reader. A FIFO named like a
// marker (anyone can make one in a shared folder) once blocked the window for good when
// the folder was chosen: QFile::open waited for a writer that never came.
TEST(FileTreeTargets, AMarkerThatIsAFifoIsNoTreeAndDoesNotBlockTheWindow)
{
    test::ensureApp();
    test::TempDir dir;
    const fs::path folder = dir.path() / "shared";
    fs::create_directories(folder);
    const std::string marker = core::fileTreeMarkerPath(folder.string());
    if (std::system(("mkfifo '" + marker + "'").c_str()) != 0)
        GTEST_SKIP() << "mkfifo is not available here";

    const auto readHead = ioprism::test::testServices().readFileHead;
    auto place
        = std::async(std::launch::async, [&] { return fileTreePlace(folder.string(), readHead); });
    if (place.wait_for(10s) != std::future_status::ready) {
        ADD_FAILURE() << "reading the marker blocked on the FIFO";
        std::ofstream release(marker); // a writer lets the blocked open return
        place.wait();
        return;
    }
    const FileTreePlace chosen = place.get();
    EXPECT_EQ(chosen.path, (folder / kFileTreeFolderName).string())
        << "not IOPrism's tree: a new one goes in ioprism-tree inside the folder";
    EXPECT_FALSE(chosen.existing);
    EXPECT_FALSE(existingFileTree(folder.string(), readHead));
    EXPECT_FALSE(existingFileTree(folder.string(), {})) << "no reader: no marker is read";
}

TEST(FileTreeTargets, TheTreesProblemsShowOnItsFieldsWithCoresMessage)
{
    test::ensureApp();
    ProfileDocument document;
    document.setProfile(treeProfile("/var/tmp/ioprism-gui-test-tree"));
    TargetsPage page(&document);
    page.setWorker(0);
    ASSERT_EQ(page.treeRow(), 0);
    QSpinBox *depth = page.treeDepthField();
    QSpinBox *files = page.treeFilesField();
    EXPECT_FALSE(depth->property("ioprismInvalid").toBool());

    // Stored as typed, so core names the rule.
    depth->setValue(0);
    EXPECT_EQ(document.worker(0)->targets[0].tree.depth, 0u);
    const std::string base = ProfileDocument::hostTargetPath(0, 0, 0) + ".tree";
    const std::string depthMessage = test::coreMessage(document.profile(), base + ".depth");
    ASSERT_FALSE(depthMessage.empty());
    EXPECT_TRUE(depth->property("ioprismInvalid").toBool());
    EXPECT_TRUE(depth->toolTip().contains(toQString(depthMessage)));
    EXPECT_FALSE(files->property("ioprismInvalid").toBool()) << "only the field at fault";
    // The table's cell of the shape is marked too.
    const QModelIndex cell = page.model()->index(0, TargetsModel::FileSizeColumn);
    EXPECT_TRUE(cell.data(Qt::ToolTipRole).toString().contains(toQString(depthMessage)));

    depth->setValue(3);
    EXPECT_FALSE(depth->property("ioprismInvalid").toBool());
    files->setValue(400'000); // 1.2 million files
    const std::string filesMessage = test::coreMessage(document.profile(), base + ".filesPerLevel");
    ASSERT_FALSE(filesMessage.empty());
    EXPECT_TRUE(files->property("ioprismInvalid").toBool());
    EXPECT_TRUE(files->toolTip().contains(toQString(filesMessage)));
    EXPECT_TRUE(document.hasErrors());

    page.treeFileSizeField()->setBytes(0);
    EXPECT_TRUE(page.treeFileSizeField()->property("ioprismInvalid").toBool());
}

TEST(ConnectionRate, TheWorkersControlsWriteTestConnectionRateAndTransactionsPerConnection)
{
    test::ensureApp();
    ProfileDocument document;
    document.setProfile(test::smallProfile());
    WorkerPanel panel(&document);
    panel.setCurrentWorker(0);
    QCheckBox *rate = panel.connectionRateField();
    QSpinBox *transactions = panel.transactionsField();
    EXPECT_EQ(rate->text().remove(QLatin1Char('&')), QStringLiteral("Test connection rate"));
    EXPECT_FALSE(rate->toolTip().isEmpty());
    EXPECT_FALSE(transactions->toolTip().isEmpty());
    EXPECT_FALSE(rate->isChecked());
    EXPECT_FALSE(transactions->isEnabled()) << "a count without the rate means nothing";

    rate->setChecked(true);
    EXPECT_TRUE(document.worker(0)->testConnectionRate);
    EXPECT_TRUE(transactions->isEnabled());
    transactions->setValue(10);
    EXPECT_EQ(document.worker(0)->transactionsPerConnection, 10u);

    // And back from the profile, as another editor or a file sets it.
    document.mutableWorker(0)->testConnectionRate = false;
    document.mutableWorker(0)->transactionsPerConnection = 25;
    document.commitValues(nullptr);
    EXPECT_FALSE(rate->isChecked());
    EXPECT_EQ(transactions->value(), 25);
    EXPECT_FALSE(transactions->isEnabled());
}

// Found by a GUI review: a profile's count loaded into the panel kept the wording for 1
// ("16 transaction"), as the signal that words the suffix is blocked while loading.
TEST(ConnectionRate, ALoadedCountIsWordedForItsNumber)
{
    test::ensureApp();
    // What ensureApp installs; left installed for the tests after this one.
    ASSERT_TRUE(installTranslations(QLocale(QLocale::English, QLocale::UnitedStates)).ioprism);
    ProfileDocument document;
    core::Profile profile = test::smallProfile();
    profile.hosts[0].workers[0].testConnectionRate = true;
    profile.hosts[0].workers[0].transactionsPerConnection = 16;
    document.setProfile(profile);
    WorkerPanel panel(&document);
    panel.setCurrentWorker(0);
    const QString suffix = panel.transactionsField()->suffix();
    EXPECT_EQ(suffix, QStringLiteral(" transactions"));
}

TEST(FileTreeResults, ARunOfATreeShowsItsFilesOnTheResultsAndLivePages)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    core::Profile profile = treeProfile(dir.path() / "tree");
    window.document()->setProfile(profile);
    window.setIoLimitPerTarget(500);
    window.show();
    RunResultPtr finished;
    QObject::connect(&window, &MainWindow::runFinished, [&](RunResultPtr r) { finished = r; });
    ASSERT_TRUE(window.startRun());
    ASSERT_TRUE(test::waitUntil([&] { return finished != nullptr; }, 30s));
    ASSERT_FALSE(finished->error) << finished->error->toString();
    ASSERT_FALSE(finished->steps.empty());
    const auto &all = finished->steps[0].scopes[0].figures;
    ASSERT_TRUE(all.connections) << "the run of a tree has connection figures";

    ResultsPage *page = window.resultsPage();
    window.showPage(MainWindow::ResultsTab);
    EXPECT_TRUE(page->filesBox()->isVisibleTo(&window));
    EXPECT_EQ(page->filesBox()->title(), QStringLiteral("Files opened and closed"));
    const FilesModel *files = page->filesModel();
    EXPECT_EQ(files->naming(), FilesModel::Naming::Files);
    ASSERT_EQ(files->rowCount(), 3) << "All, the worker, its tree";
    EXPECT_EQ(files->headerData(FilesModel::RateColumn, Qt::Horizontal).toString(),
        QStringLiteral("Files opened/s"));
    EXPECT_EQ(files->headerData(FilesModel::OperationMeanColumn, Qt::Horizontal).toString(),
        QStringLiteral("Operation mean"));
    const auto value = [&](int row, int column) {
        return files->index(row, column).data(FilesModel::ValueRole).toDouble();
    };
    EXPECT_EQ(files->index(0, FilesModel::ScopeColumn).data().toString(), QStringLiteral("All"));
    EXPECT_GT(value(0, FilesModel::RateColumn), 0);
    EXPECT_DOUBLE_EQ(value(0, FilesModel::RateColumn), all.connections->open.perSecond);
    EXPECT_DOUBLE_EQ(value(0, FilesModel::OpenMeanColumn), all.connections->open.latency.meanUs);
    EXPECT_DOUBLE_EQ(value(0, FilesModel::OpenP99Column), all.connections->open.latency.p99Us);
    EXPECT_DOUBLE_EQ(value(0, FilesModel::CloseMaxColumn), all.connections->close.latency.maxUs);
    EXPECT_DOUBLE_EQ(
        value(0, FilesModel::OperationP99Column), all.connections->connection.latency.p99Us);
    EXPECT_EQ(files->index(0, FilesModel::OpenMeanColumn).data().toString(),
        latencyText(all.connections->open.latency.meanUs));
    EXPECT_TRUE(files->index(2, FilesModel::ScopeColumn)
                    .data()
                    .toString()
                    .contains(toQString(profile.hosts[0].workers[0].targets[0].path)));

    // The summary grid says files per second.
    EXPECT_TRUE(page->summaryModel()->hasFiles());
    EXPECT_FALSE(page->summaryGrid()->isColumnHidden(StepSummaryModel::FilesColumn));
    EXPECT_EQ(page->summaryModel()->index(0, StepSummaryModel::FilesColumn).data().toString(),
        iopsText(all.connections->open.perSecond));

    // The Live page's files line.
    EXPECT_TRUE(window.livePage()->filesText().contains(QStringLiteral("opened/s")))
        << window.livePage()->filesText().toStdString();

    // Saved and opened again, the run has its files line back (its intervals keep them).
    const auto saved = dir.path() / "tree-run.json";
    std::ofstream(saved, std::ios::binary)
        << core::writeResultsJson(*finished, finished->environment);
    window.livePage()->clear();
    EXPECT_TRUE(window.livePage()->filesText().isEmpty());
    ASSERT_TRUE(test::openResultsFile(window, QString::fromStdString(saved.string())))
        << window.messageBar()->currentText().toStdString();
    window.showPage(MainWindow::LiveTab);
    ASSERT_TRUE(test::waitUntil([&] { return !window.livePage()->filesText().isEmpty(); }, 5s));
    EXPECT_TRUE(window.livePage()->filesText().contains(QStringLiteral("opened/s")));

    // A run without files has neither.
    window.document()->setProfile(test::smallProfile(0s, 100ms));
    finished.reset();
    ASSERT_TRUE(window.startRun());
    ASSERT_TRUE(test::waitUntil([&] { return finished != nullptr; }, 30s));
    EXPECT_FALSE(page->filesBox()->isVisibleTo(&window));
    EXPECT_EQ(page->filesModel()->rowCount(), 0);
    EXPECT_TRUE(page->summaryGrid()->isColumnHidden(StepSummaryModel::FilesColumn));
    EXPECT_TRUE(window.livePage()->filesText().isEmpty());
}

// A saved tree run opened again shows the Live page's files line that the run showed
// live: the same text, from the intervals the file keeps. The samples are the golden run's
// (read from its file) with files opened and closed in them, fed to a Live page as a run
// feeds it, so that the figures and the text are known.
TEST(FileTreeResults, AReopenedTreeRunShowsTheFilesLineItShowedLive)
{
    test::ensureApp();
    test::TempDir dir;
    const auto golden = core::readResultsJson(
        test::readFile(test::sourceDir() / "tests" / "golden" / "report" / "results.json"));
    ASSERT_TRUE(golden.ok()) << golden.error;
    core::RunResult run = *golden.result;
    ASSERT_FALSE(run.intervals.empty());
    for (auto &sample : run.intervals) {
        core::ConnectionFigures files;
        files.open = {.count = 2469, .errors = 0, .perSecond = 1234.5, .latency = {}};
        files.open.latency.meanUs = 12.345;
        files.open.latency.maxUs = 99.5;
        files.close = {.count = 2468, .errors = 0, .perSecond = 1234.0, .latency = {}};
        files.close.latency.meanUs = 6.75;
        files.close.latency.maxUs = 40;
        files.connection = files.close;
        files.connection.latency.meanUs = 1500.25;
        files.connection.latency.maxUs = 9000;
        for (auto &scope : sample.scopes)
            if (scope.scope.kind != core::Scope::Kind::Target || scope.scope.target == 1)
                scope.figures.connections = files;
    }

    LivePage live;
    live.show(); // a hidden page is drawn when shown, not before
    for (const auto &sample : run.intervals)
        live.addSample(sample); // as RunController::intervalReady delivers them
    ASSERT_TRUE(test::waitUntil([&] { return !live.filesText().isEmpty(); }, 5s));
    const QString liveText = live.filesText();
    EXPECT_EQ(liveText,
        LivePage::tr("Files: %1 opened/s · open %2 · close %3 · open to close %4 (means)")
            .arg(iopsText(1234.5), latencyText(12.345), latencyText(6.75), latencyText(1500.25)));

    const auto path = dir.path() / "tree.json";
    std::ofstream(path, std::ios::binary) << core::writeResultsJson(run, run.environment);
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    window.show();
    ASSERT_TRUE(test::openResultsFile(window, QString::fromStdString(path.string())))
        << window.messageBar()->currentText().toStdString();
    window.showPage(MainWindow::LiveTab);
    ASSERT_TRUE(test::waitUntil([&] { return !window.livePage()->filesText().isEmpty(); }, 5s));
    EXPECT_EQ(window.livePage()->filesText(), liveText);

    // The run as it was saved before (no files in its intervals) shows no files line.
    const auto plain = dir.path() / "plain.json";
    std::ofstream(plain, std::ios::binary)
        << core::writeResultsJson(*golden.result, golden.result->environment);
    ASSERT_TRUE(test::openResultsFile(window, QString::fromStdString(plain.string())));
    window.showPage(MainWindow::LiveTab);
    // Drawn: the figures are the last interval's (21.2 IOPS), and there is no files line.
    ASSERT_TRUE(test::waitUntil(
        [&] {
            return window.livePage()->figureText(LivePage::IopsFigure)
                == iopsText(run.intervals.back().scopes.front().figures.total.iops)
                + QStringLiteral(" ") + LivePage::tr("IOPS");
        },
        5s))
        << window.livePage()->figureText(LivePage::IopsFigure).toStdString();
    EXPECT_TRUE(window.livePage()->filesText().isEmpty());
}

// The Compare page's delta table takes its metrics from core's comparison: files opened
// per second is a column (with its change) when the runs opened files, and not otherwise.
TEST(FileTreeResults, TheComparePageComparesFilesPerSecondOfTreeRuns)
{
    test::ensureApp();
    test::TempDir dir;
    const core::Profile tree = treeProfile(dir.path() / "tree");
    const auto a = std::make_shared<core::RunResult>(runLimitedOnNullEngine(tree));
    const auto b = std::make_shared<core::RunResult>(runLimitedOnNullEngine(tree));
    ASSERT_FALSE(a->error);
    ASSERT_FALSE(b->error);
    ComparePage page;
    page.setRuns({a, b}, {QStringLiteral("a"), QStringLiteral("b")});
    QTableWidget *delta = page.deltaTable();
    // Step or point, run, then a value and its change per metric: five metrics.
    ASSERT_EQ(delta->columnCount(), 2 + 2 * 5);
    EXPECT_EQ(delta->horizontalHeaderItem(10)->text(),
        ComparePage::tr("Files/s", "files opened per second"));
    EXPECT_EQ(delta->horizontalHeaderItem(11)->text(), ComparePage::tr("Change"));
    ASSERT_EQ(delta->rowCount(), 2);
    const double files = a->steps[0].scopes[0].figures.connections->open.perSecond;
    EXPECT_EQ(delta->item(0, 10)->text(), iopsText(files));
    EXPECT_EQ(delta->item(0, 11)->text(), ComparePage::tr("baseline"));
    EXPECT_FALSE(delta->item(1, 10)->text().isEmpty());

    // Runs that open no files: the four metrics they always had.
    const auto plainA
        = std::make_shared<core::RunResult>(runLimitedOnNullEngine(test::smallProfile(0s, 100ms)));
    const auto plainB = std::make_shared<core::RunResult>(*plainA);
    page.setRuns({plainA, plainB}, {QStringLiteral("a"), QStringLiteral("b")});
    EXPECT_EQ(page.deltaTable()->columnCount(), 2 + 2 * 4);
}

TEST(FileTreeResults, TheConnectionRateIsShownInIometersWords)
{
    test::ensureApp();
    core::Profile profile = test::smallProfile(0s, 100ms);
    profile.hosts[0].workers[0].testConnectionRate = true;
    profile.hosts[0].workers[0].transactionsPerConnection = 10;
    auto result = std::make_shared<core::RunResult>(runLimitedOnNullEngine(profile));
    const auto &all = result->steps.at(0).scopes.at(0).figures;
    ASSERT_TRUE(all.connections);

    ResultsPage page;
    page.setResult(result);
    EXPECT_EQ(page.filesModel()->naming(), FilesModel::Naming::Connections);
    EXPECT_EQ(page.filesBox()->title(), QStringLiteral("Connections (Iometer's connection rate)"));
    const FilesModel *files = page.filesModel();
    EXPECT_EQ(files->headerData(FilesModel::RateColumn, Qt::Horizontal).toString(),
        QStringLiteral("Connections/s"));
    EXPECT_EQ(files->headerData(FilesModel::OperationMaxColumn, Qt::Horizontal).toString(),
        QStringLiteral("Connection max"));
    ASSERT_GE(files->rowCount(), 1);
    // Iometer's connections per second: connections that ended, each of 10 transactions.
    EXPECT_DOUBLE_EQ(files->index(0, FilesModel::RateColumn).data(FilesModel::ValueRole).toDouble(),
        all.connections->connection.perSecond);
    EXPECT_GT(all.connections->connection.count, 0u);
}

TEST(FileTreeSeries, FilesPerSecondAndTheOperationLatencyAreDrawnOverTheSweptParameter)
{
    test::ensureApp();
    core::Profile profile = treeProfile("/var/tmp/ioprism-gui-series-tree");
    core::SweepAxis sizes;
    sizes.parameter = core::SweepParameter::TransferSize;
    sizes.from = 4096;
    sizes.to = 16384;
    sizes.multiply = 2;
    profile.setup.series = core::Series {};
    profile.setup.series->axes = {sizes};
    profile.setup.series->ios = 200;
    const auto r = runLimitedOnNullEngine(profile, 0);
    const auto points = core::seriesPoints(r);
    ASSERT_EQ(points.size(), 3u);
    ASSERT_TRUE(points[0].connectionsValid);

    SeriesPlots plots;
    plots.setData(makeSeriesData(r));
    EXPECT_TRUE(plots.hasFiles());
    QCPGraph *files = plots.filesGraph(0);
    ASSERT_NE(files, nullptr);
    ASSERT_EQ(files->data()->size(), 3);
    EXPECT_EQ(files->valueAxis(), plots.plot(SeriesPlots::ThroughputPlot)->yAxis)
        << "on the IOPS axis";
    QCPGraph *operation = plots.operationGraph(0, true);
    ASSERT_NE(operation, nullptr);
    ASSERT_EQ(operation->data()->size(), 3);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(files->data()->at(i)->key, double(4096u << i));
        EXPECT_DOUBLE_EQ(files->data()->at(i)->value, points[std::size_t(i)].filesPerSecond.median);
    }

    // The matrix's chooser offers them when the points have them, and only then.
    core::SweepAxis depths;
    depths.parameter = core::SweepParameter::OutstandingIos;
    depths.from = 1;
    depths.to = 2;
    depths.multiply = 2;
    profile.setup.series->axes = {sizes, depths};
    plots.setData(makeSeriesData(runLimitedOnNullEngine(profile, 0)));
    QComboBox *metric = plots.metricField();
    const int filesItem = metric->findData(SeriesPlots::FilesMetric);
    ASSERT_GE(filesItem, 0);
    EXPECT_GE(metric->findData(SeriesPlots::OperationP99Metric), 0);
    metric->setCurrentIndex(filesItem);
    EXPECT_EQ(plots.heatMetric(), SeriesPlots::FilesMetric);
    const auto matrixPoints = plots.data().points;
    ASSERT_FALSE(matrixPoints.empty());
    EXPECT_DOUBLE_EQ(plots.colorMap()->data()->cell(0, 0), matrixPoints[0].filesPerSecond.median);
    EXPECT_TRUE(plots.cellText(0, 0).contains(QStringLiteral("opened/s")));

    core::Profile plain = test::smallProfile(0s, 100ms);
    plain.setup.series = profile.setup.series;
    plots.setData(makeSeriesData(runLimitedOnNullEngine(plain, 0)));
    EXPECT_FALSE(plots.hasFiles());
    EXPECT_LT(plots.metricField()->findData(SeriesPlots::FilesMetric), 0);
    EXPECT_EQ(plots.heatMetric(), SeriesPlots::IopsMetric) << "back to a figure it has";
}

} // namespace
} // namespace ioprism::ui
