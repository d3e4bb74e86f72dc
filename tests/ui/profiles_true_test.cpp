// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 14, items 2 (b) to (g) and 4: imported and preset profiles that stay true, and the facts
// the Targets page shows for a test file.
#include "support/test_support.h"
#include "ui/editors/worker_panel.h"
#include "ui/format.h"
#include "ui/main_window.h"
#include "ui/models/profile_document.h"
#include "ui/models/spec_library_model.h"
#include "ui/models/spec_lines_model.h"
#include "ui/models/targets_model.h"
#include "ui/pages/specs_page.h"
#include "ui/pages/targets_page.h"

#include <QAbstractButton>
#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QStorageInfo>
#include <QTableView>

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

namespace fs = std::filesystem;

// A machine with one disk, on which a test file exists where its folder does.
PlatformServices fakeMachine()
{
    PlatformServices services = ioprism::test::testServices();
    services.listTargets = [] {
        TargetCandidate disk;
        disk.kind = core::TargetKind::BlockDevice;
        disk.path = "/dev/vdz";
        disk.name = "vdz";
        disk.model = "virtio_blk";
        disk.sizeBytes = 8 * core::kGiB;
        return std::vector<TargetCandidate> {disk};
    };
    services.targetExists = [](const core::Target &t) {
        if (t.kind != core::TargetKind::TestFile)
            return t.path == "/dev/vdz";
        std::error_code ec;
        return fs::is_directory(fs::path(t.path).parent_path(), ec);
    };
    return services;
}

// (b) An .icf's "sdb" could only be unticked: double-click or the context menu re-point
// it, and the worker keeps the target's settings.
TEST(ProfilesStayTrue, AnUnresolvedTargetIsRepointedKeepingItsSettings)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(fakeMachine(), test::isolatedOptions(dir));
    core::Profile profile = test::smallProfile();
    core::Target &sdb = profile.hosts[0].workers[0].targets[0];
    sdb.kind = core::TargetKind::BlockDevice;
    sdb.path = "sdb";
    sdb.unresolved = true;
    sdb.outstandingIos = 7;
    sdb.region = {1 * core::kMiB, 64 * core::kMiB};
    window.document()->setProfile(profile);
    auto *model = window.targetsPage()->model();
    model->setWorker(0);
    const int row = test::targetRow(*model, "sdb");
    ASSERT_GE(row, 0);
    EXPECT_TRUE(model->index(row, 0).data(TargetsModel::UnresolvedRole).toBool());
    EXPECT_TRUE(window.document()->hasErrors());

    // The context menu offers it.
    QTableView *table = window.targetsPage()->table();
    window.show();
    emit table->customContextMenuRequested(table->visualRect(model->index(row, 0)).center());
    auto *menu = window.targetsPage()->findChild<QMenu *>();
    ASSERT_NE(menu, nullptr);
    auto *action = menu->findChild<QAction *>(QStringLiteral("repointAction"));
    ASSERT_NE(action, nullptr);
    EXPECT_TRUE(action->isEnabled());
    EXPECT_FALSE(action->toolTip().isEmpty());
    menu->close();

    // Double-clicking its name asks where it points.
    emit table->doubleClicked(model->index(row, TargetsModel::TargetColumn));
    auto *dialog = window.findChild<QInputDialog *>(QStringLiteral("repointDialog"));
    ASSERT_NE(dialog, nullptr);
    // Each choice says which disk it is, not just its path.
    const QString vdz
        = QStringLiteral("/dev/vdz — virtio_blk, %1").arg(capacityText(8 * core::kGiB));
    EXPECT_TRUE(dialog->comboBoxItems().contains(vdz))
        << dialog->comboBoxItems().join(u'|').toStdString();
    dialog->setTextValue(vdz);
    dialog->accept();

    const auto &targets = window.document()->worker(0)->targets;
    ASSERT_EQ(targets.size(), 1u);
    EXPECT_EQ(targets[0].path, "/dev/vdz");
    EXPECT_EQ(targets[0].kind, core::TargetKind::BlockDevice);
    EXPECT_FALSE(targets[0].unresolved);
    EXPECT_EQ(targets[0].outstandingIos, 7u);
    EXPECT_EQ(targets[0].region, (core::Region {1 * core::kMiB, 64 * core::kMiB}));
    EXPECT_EQ(test::targetRow(*model, "sdb"), -1) << "the foreign name's row is gone";
    EXPECT_TRUE(model->index(test::targetRow(*model, "/dev/vdz"), 0)
                    .data(TargetsModel::AssignedRole)
                    .toBool());
    EXPECT_FALSE(window.document()->hasErrors());
}

// (d) A folder that does not exist was accepted and failed only at Start.
TEST(ProfilesStayTrue, ATestFileInAMissingFolderIsMarkedWhenChosen)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(fakeMachine(), test::isolatedOptions(dir));
    core::Profile profile = test::smallProfile();
    profile.hosts[0].workers[0].targets.clear();
    window.document()->setProfile(profile);
    auto *model = window.targetsPage()->model();
    model->setWorker(0);
    const std::string missing = (dir.path() / "no-such-folder" / "iobw.tst").string();
    window.addTestFile(missing);
    const int row = test::targetRow(*model, missing);
    ASSERT_GE(row, 0);
    EXPECT_TRUE(model->index(row, 0).data(TargetsModel::AssignedRole).toBool());
    EXPECT_TRUE(model->index(row, 0).data(TargetsModel::UnresolvedRole).toBool());
    EXPECT_TRUE(window.document()->hasErrors());
    EXPECT_TRUE(model->index(row, 0)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("does not exist")));

    const std::string fine = (dir.path() / "iobw.tst").string();
    window.addTestFile(fine);
    auto *box = window.findChild<QMessageBox *>(QStringLiteral("addTestFileDialog"));
    ASSERT_NE(box, nullptr);
    box->findChild<QAbstractButton *>(QStringLiteral("replaceTargets"))->click();
    EXPECT_FALSE(
        model->index(test::targetRow(*model, fine), 0).data(TargetsModel::UnresolvedRole).toBool());
    EXPECT_FALSE(window.document()->hasErrors());
}

// (g) Adding a test file left the default target ticked: two targets, silently.
TEST(ProfilesStayTrue, AddingATestFileAsksWhetherItReplacesTheWorkersTargets)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(fakeMachine(), test::isolatedOptions(dir));
    core::Profile profile = test::smallProfile();
    const std::string first = (dir.path() / "first.dat").string();
    profile.hosts[0].workers[0].targets[0].path = first;
    window.document()->setProfile(profile);
    window.targetsPage()->model()->setWorker(0);
    const auto &targets = window.document()->worker(0)->targets;

    const std::string second = (dir.path() / "second.dat").string();
    window.addTestFile(second);
    auto *box = window.findChild<QMessageBox *>(QStringLiteral("addTestFileDialog"));
    ASSERT_NE(box, nullptr);
    EXPECT_EQ(targets.size(), 1u) << "nothing changes before the answer";
    auto *add = box->findChild<QAbstractButton *>(QStringLiteral("addBesideTargets"));
    ASSERT_NE(add, nullptr);
    EXPECT_FALSE(add->toolTip().isEmpty());
    add->click();
    ASSERT_EQ(targets.size(), 2u);

    const std::string third = (dir.path() / "third.dat").string();
    window.addTestFile(third);
    box = test::findVisible<QMessageBox>(window, QStringLiteral("addTestFileDialog"));
    ASSERT_NE(box, nullptr);
    box->findChild<QAbstractButton *>(QStringLiteral("replaceTargets"))->click();
    ASSERT_EQ(targets.size(), 1u);
    EXPECT_EQ(targets[0].path, third);
}

// (e) A built-in spec showed an empty, greyed line table.
TEST(ProfilesStayTrue, ABuiltInSpecShowsItsLinesReadOnlyWithCopyToMySpecs)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    window.document()->setProfile(test::smallProfile());
    window.show();
    window.showPage(MainWindow::SpecsTab);
    SpecsPage *page = window.specsPage();
    const auto *library = page->libraryModel();
    int row = -1;
    for (int r = 0; r < library->rowCount() && row < 0; ++r)
        if (library->profileSpec(r) < 0)
            row = r;
    ASSERT_GE(row, 0) << "the library lists built-in specs";
    const core::AccessSpec *builtIn = library->specAt(row);
    ASSERT_NE(builtIn, nullptr);
    page->selectSpec(builtIn->name);

    const auto *lines = page->linesModel();
    EXPECT_TRUE(lines->isReadOnly());
    ASSERT_EQ(lines->rowCount(), static_cast<int>(builtIn->lines.size()));
    EXPECT_TRUE(page->linesTable()->isEnabled());
    const QModelIndex size = lines->index(0, SpecLinesModel::SizeColumn);
    EXPECT_FALSE(size.data().toString().isEmpty());
    EXPECT_FALSE(lines->flags(size) & Qt::ItemIsEditable);
    EXPECT_FALSE(const_cast<SpecLinesModel *>(lines)->setData(size, 512));

    QPushButton *copy = nullptr;
    for (auto *b : page->findChildren<QPushButton *>())
        if (b->text() == QStringLiteral("Copy to my specs"))
            copy = b;
    ASSERT_NE(copy, nullptr);
    EXPECT_TRUE(copy->isVisible());
    EXPECT_FALSE(copy->toolTip().isEmpty());
    const std::size_t specs = window.document()->profile().specs.size();
    copy->click();
    EXPECT_EQ(window.document()->profile().specs.size(), specs + 1);
    EXPECT_FALSE(lines->isReadOnly());
    EXPECT_TRUE(lines->flags(lines->index(0, SpecLinesModel::SizeColumn)) & Qt::ItemIsEditable);
}

// (f) "Outstanding I/Os: 1" sat beside steps that ran at the spec's Q32, unexplained.
TEST(ProfilesStayTrue, TheWorkerSaysWhichDepthEachSpecRunsAtAndWhy)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    core::Profile profile = test::smallProfile(); // "RND4K QD4": the spec's depth is 4
    core::AccessSpec own = profile.specs[0];
    own.name = "own depth";
    own.queueDepth.reset();
    profile.specs.push_back(own);
    profile.hosts[0].workers[0].outstandingIos = 1;
    profile.hosts[0].workers[0].assignedSpecs = {"RND4K QD4", "own depth"};
    window.document()->setProfile(profile);
    window.show();
    WorkerPanel *panel = window.workerPanel();
    panel->setCurrentWorker(0);
    QLabel *note = panel->depthNote();
    ASSERT_NE(note, nullptr);
    EXPECT_TRUE(note->isVisibleTo(panel));
    EXPECT_TRUE(note->text().contains(
        QStringLiteral("\"RND4K QD4\" runs at 4 outstanding I/Os: the spec's queue depth")))
        << note->text().toStdString();
    EXPECT_TRUE(note->text().contains(
        QStringLiteral("\"own depth\" runs at 1 outstanding I/O: this worker's value")))
        << note->text().toStdString();
    EXPECT_FALSE(note->toolTip().isEmpty());

    // Iometer's cycling sets the depth of every step; a series replaces the test type
    // (core::depthIsSwept), and then the specs' depths hold again.
    window.document()->mutableProfile().setup.testType = core::TestType::CycleOutstandingIos;
    window.document()->commitValues(nullptr);
    EXPECT_TRUE(note->text().contains(QStringLiteral("Iometer's cycling sets the depth")))
        << note->text().toStdString();
    core::Series series;
    series.axes.push_back(
        {.parameter = core::SweepParameter::TransferSize, .values = {4096, 8192}});
    window.document()->mutableProfile().setup.series = series;
    window.document()->commitValues(nullptr);
    EXPECT_FALSE(note->text().contains(QStringLiteral("Iometer's cycling")))
        << note->text().toStdString();
    EXPECT_TRUE(note->text().contains(QStringLiteral("the spec's queue depth")))
        << note->text().toStdString();
    window.document()->mutableProfile().setup.series.reset();
    window.document()->mutableProfile().setup.testType = core::TestType::Normal;

    // No spec overrides the worker: nothing to explain.
    window.document()->mutableProfile().specs[0].queueDepth.reset();
    window.document()->commitValues(nullptr);
    EXPECT_FALSE(note->isVisibleTo(panel));
}

// Item 4: a test file's row showed the file system's size as its size, and a file added
// outside the listed file systems showed no mount point or free space at all.
TEST(TargetsPageFacts, ATestFileShowsItsSizeBesideTheFreeSpaceAndItsMountPoint)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(fakeMachine(), test::isolatedOptions(dir));
    core::Profile profile = test::smallProfile();
    profile.hosts[0].workers[0].targets.clear();
    window.document()->setProfile(profile);
    auto *model = window.targetsPage()->model();
    model->setWorker(0);
    const fs::path file = dir.path() / "existing.dat";
    {
        std::ofstream out(file, std::ios::binary);
        out << std::string(8192, 'x');
    }
    window.addTestFile(file.string());
    const int row = test::targetRow(*model, file.string());
    ASSERT_GE(row, 0);
    EXPECT_EQ(model->index(row, TargetsModel::SizeColumn).data().toString(), capacityText(8192));
    const QStorageInfo storage(QString::fromStdString(dir.path().string()));
    // As the system writes it: C:\ on Windows.
    const QString mountPoint = QDir::toNativeSeparators(storage.rootPath());
    EXPECT_TRUE(
        model->index(row, TargetsModel::MountColumn).data().toString().startsWith(mountPoint))
        << model->index(row, TargetsModel::MountColumn).data().toString().toStdString();
    EXPECT_FALSE(model->index(row, TargetsModel::FreeColumn).data().toString().isEmpty());
    EXPECT_TRUE(model->index(row, TargetsModel::FreeColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(mountPoint));
}

// Issue 24 item 16: Refresh dropped a test file the user added and then unticked; a file
// a run made showed no size until Refresh; a missing folder read "not found".
TEST(TargetsPageFacts, AnAddedFileStaysAfterRefreshAndShowsTheSizeARunGaveIt)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(fakeMachine(), test::isolatedOptions(dir));
    core::Profile profile = test::smallProfile();
    profile.hosts[0].workers[0].targets.clear();
    window.document()->setProfile(profile);
    auto *model = window.targetsPage()->model();
    model->setWorker(0);
    const fs::path file = dir.path() / "later.dat";
    window.addTestFile(file.string());
    int row = test::targetRow(*model, file.string());
    ASSERT_GE(row, 0);
    EXPECT_TRUE(model->index(row, TargetsModel::SizeColumn).data().toString().isEmpty());
    ASSERT_TRUE(model->setData(
        model->index(row, TargetsModel::TargetColumn), Qt::Unchecked, Qt::CheckStateRole));

    QAbstractButton *refresh = nullptr;
    for (auto *b : window.targetsPage()->findChildren<QAbstractButton *>())
        if (b->text() == QStringLiteral("Refresh"))
            refresh = b;
    ASSERT_NE(refresh, nullptr);
    refresh->click();
    row = test::targetRow(*model, file.string());
    ASSERT_GE(row, 0) << "the unticked file the user added is still offered";
    EXPECT_FALSE(model->index(row, 0).data(TargetsModel::AssignedRole).toBool());

    // The file appears (as a run makes it): its size is shown once the facts are read again.
    {
        std::ofstream out(file, std::ios::binary);
        out << std::string(4096, 'x');
    }
    model->refreshFacts();
    row = test::targetRow(*model, file.string());
    ASSERT_GE(row, 0);
    EXPECT_EQ(model->index(row, TargetsModel::SizeColumn).data().toString(), capacityText(4096));
}

TEST(TargetsPageFacts, AMissingFolderIsSaidAsSuchNotAsATargetNotFound)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(fakeMachine(), test::isolatedOptions(dir));
    core::Profile profile = test::smallProfile();
    profile.hosts[0].workers[0].targets.clear();
    window.document()->setProfile(profile);
    auto *model = window.targetsPage()->model();
    model->setWorker(0);
    const fs::path file = dir.path() / "no-such-folder" / "test.dat";
    window.addTestFile(file.string());
    const int row = test::targetRow(*model, file.string());
    ASSERT_GE(row, 0);
    const QString tip
        = model->index(row, TargetsModel::TargetColumn).data(Qt::ToolTipRole).toString();
    EXPECT_TRUE(tip.contains(QStringLiteral("does not exist"))) << tip.toStdString();
    EXPECT_FALSE(tip.contains(QStringLiteral("not found on this machine"), Qt::CaseInsensitive))
        << tip.toStdString();
}

} // namespace
} // namespace ioprism::ui
