// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI on a Windows machine, faked through PlatformServices (ui/ knows no OS): drives
// (\\.\PhysicalDrive1), volumes (\\.\D:) and test files (C:\ioprism-test.dat) are listed,
// shown, added and checked before Start exactly as the platform names them, with no
// separator turned or cut and no Linux rule (/dev/, '/') applied to them. Nothing here
// opens a device: the backend is the null one and every device question is cancelled.
#include "app/gui/gui_platform.h"
#include "platform/common/target_resolution.h"
#include "support/test_support.h"
#include "ui/main_window.h"
#include "ui/message_bar.h"
#include "ui/models/profile_document.h"
#include "ui/models/targets_model.h"
#include "ui/pages/target_dialogs.h"
#include "ui/pages/targets_page.h"
#include "ui/run/run_controller.h"

#include <QAbstractButton>
#include <QMessageBox>

#include <algorithm>
#include <cctype>
#include <gtest/gtest.h>
#include <string>
#include <utility>
#include <vector>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using namespace std::chrono_literals;

const std::string kBusyDrive = R"(\\.\PhysicalDrive1)"; // holds the mounted D:
const std::string kFreeDrive = R"(\\.\PhysicalDrive2)"; // nothing mounted
const std::string kVolume = R"(\\.\D:)";
const std::string kTestFile = R"(C:\ioprism-test.dat)";

core::TargetKind windowsKind(const std::string &path)
{
    if (path.rfind(R"(\\.\PhysicalDrive)", 0) == 0)
        return core::TargetKind::PhysicalDrive;
    if (path.size() == 6 && path.rfind(R"(\\.\)", 0) == 0 && path[5] == ':')
        return core::TargetKind::Volume;
    return core::TargetKind::TestFile;
}

// What app::listTargets gives on Windows: drives and their volumes by their device
// paths, a test-file location at the root of each writable volume.
std::vector<TargetCandidate> windowsTargets()
{
    TargetCandidate busy;
    busy.kind = core::TargetKind::PhysicalDrive;
    busy.path = kBusyDrive;
    busy.name = "PhysicalDrive1";
    busy.model = "Samsung SSD 870 (NVMe)";
    busy.sizeBytes = 500 * core::kGiB;
    busy.rotational = false;
    busy.mountPoints = {R"(D:\)"};
    TargetCandidate free = busy;
    free.path = kFreeDrive;
    free.name = "PhysicalDrive2";
    free.model = "WDC WD40EFRX (SATA)";
    free.rotational = true;
    free.mountPoints = {};
    TargetCandidate volume;
    volume.kind = core::TargetKind::Volume;
    volume.path = kVolume;
    volume.name = R"(\\?\Volume{1b2c3d4e-0000-0000-0000-100000000000}\)";
    volume.model = busy.model;
    volume.sizeBytes = 400 * core::kGiB;
    volume.mountPoints = {R"(D:\)"};
    TargetCandidate file;
    file.kind = core::TargetKind::TestFile;
    file.path = kTestFile;
    file.name = R"(C:\ (NTFS))";
    file.fsType = "NTFS";
    file.mountPoints = {R"(C:\)"};
    file.sizeBytes = 200 * core::kGiB;
    file.freeBytes = 100 * core::kGiB;
    return {file, busy, volume, free};
}

// Windows' spelling rules (platform::sameTargetPath there): any letter case, either
// separator. ASCII is enough for these names.
bool sameWindowsPath(const std::string &a, const std::string &b)
{
    const auto fold = [](char c) {
        return c == '/' ? '\\' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    };
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [&](char x, char y) {
        return fold(x) == fold(y);
    });
}

PlatformServices windowsServices()
{
    PlatformServices s = test::testServices();
    s.engines = {core::EngineKind::Auto, core::EngineKind::Iocp, core::EngineKind::Null};
    s.listTargets = windowsTargets;
    s.detectTargetKind = windowsKind;
    s.samePath = sameWindowsPath;
    s.targetAccess = [](const std::string &, bool) { return core::TargetAccess {}; };
    return s;
}

QString cell(const TargetsModel &model, int row, int column, int role = Qt::DisplayRole)
{
    return model.index(row, column).data(role).toString();
}

core::Profile writing(const std::string &path, core::TargetKind kind)
{
    core::Profile profile = test::smallProfile(1s, 100ms); // 30 % writes
    auto &target = profile.hosts[0].workers[0].targets[0];
    target.kind = kind;
    target.path = path;
    target.region.sizeBytes = 64 * core::kMiB;
    return profile;
}

QMessageBox *deviceQuestion(MainWindow &window)
{
    QMessageBox *box = nullptr;
    test::waitUntil(
        [&] {
            box = window.findChild<QMessageBox *>(QStringLiteral("deviceWritesDialog"));
            return box && box->isVisible();
        },
        2s);
    return box;
}

TEST(WindowsPaths, TheTargetsPageShowsDrivesVolumesAndTestFilesAsTheyAreNamed)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(windowsServices(), test::isolatedOptions(dir.path()));
    const TargetsModel &model = *window.targetsPage()->model();

    const int drive = test::targetRow(model, kBusyDrive);
    const int volume = test::targetRow(model, kVolume);
    const int file = test::targetRow(model, kTestFile);
    ASSERT_GE(drive, 0);
    ASSERT_GE(volume, 0);
    ASSERT_GE(file, 0);
    EXPECT_EQ(cell(model, drive, TargetsModel::TargetColumn), QString::fromStdString(kBusyDrive));
    EXPECT_EQ(cell(model, drive, TargetsModel::KindColumn), QStringLiteral("Physical drive"));
    EXPECT_EQ(cell(model, drive, TargetsModel::MountColumn), QStringLiteral(R"(D:\)"));
    EXPECT_TRUE(model.index(drive, 0).data(TargetsModel::RawDeviceRole).toBool());
    EXPECT_EQ(cell(model, volume, TargetsModel::TargetColumn), QString::fromStdString(kVolume));
    EXPECT_EQ(cell(model, volume, TargetsModel::KindColumn), QStringLiteral("Volume"));
    EXPECT_TRUE(model.index(volume, 0).data(TargetsModel::RawDeviceRole).toBool());
    EXPECT_EQ(cell(model, file, TargetsModel::TargetColumn), QString::fromStdString(kTestFile));
    EXPECT_EQ(cell(model, file, TargetsModel::KindColumn), QStringLiteral("Test file"));
    EXPECT_EQ(cell(model, file, TargetsModel::MountColumn), QStringLiteral(R"(C:\ (NTFS))"));
    EXPECT_FALSE(model.index(file, 0).data(TargetsModel::RawDeviceRole).toBool());

    // The re-point list names each with what tells it apart.
    ASSERT_NE(model.candidateFor(kTestFile), nullptr);
    ASSERT_NE(model.candidateFor(kBusyDrive), nullptr);
    EXPECT_EQ(TargetsModel::describeCandidate(*model.candidateFor(kTestFile)),
        QStringLiteral(R"(C:\ioprism-test.dat — test file on C:\ (NTFS), 100 GiB free)"));
    EXPECT_EQ(TargetsModel::describeCandidate(*model.candidateFor(kBusyDrive)),
        QStringLiteral(R"(\\.\PhysicalDrive1 — Samsung SSD 870 (NVMe), 500 GiB, SSD, )"
                       R"(in use: mounted at D:\)"));
}

TEST(WindowsPaths, ATypedPathKeepsItsBackslashesAndThePlatformSaysWhatItIs)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(windowsServices(), test::isolatedOptions(dir.path()));
    window.document()->setProfile(test::smallProfile());
    window.document()->mutableProfile().hosts[0].workers[0].targets.clear();
    window.document()->commitStructure(nullptr);
    window.targetsPage()->model()->setWorker(0);
    TargetDialogs &dialogs = *window.targetsPage()->dialogs();

    const std::string elsewhere = R"(E:ench\ioprism-test.dat)";
    dialogs.addTestFile(elsewhere);
    dialogs.addTestFile(kFreeDrive); // typed or chosen: the platform tells a drive
    QCoreApplication::processEvents();
    // The second asks whether it replaces the first: it joins it.
    if (auto *box = window.findChild<QMessageBox *>(QStringLiteral("addTestFileDialog"))) {
        for (auto *button : box->buttons())
            if (button->objectName() == QStringLiteral("addBesideTargets"))
                button->click();
    }
    QCoreApplication::processEvents();
    const auto &targets = window.document()->profile().hosts[0].workers[0].targets;
    ASSERT_EQ(targets.size(), 2U);
    EXPECT_EQ(targets[0].path, elsewhere);
    EXPECT_EQ(targets[0].kind, core::TargetKind::TestFile);
    EXPECT_EQ(targets[1].path, kFreeDrive);
    EXPECT_EQ(targets[1].kind, core::TargetKind::PhysicalDrive);

    const TargetsModel &model = *window.targetsPage()->model();
    const int row = test::targetRow(model, elsewhere);
    ASSERT_GE(row, 0);
    EXPECT_EQ(cell(model, row, TargetsModel::TargetColumn), QString::fromStdString(elsewhere));
    EXPECT_TRUE(cell(model, row, TargetsModel::TargetColumn, Qt::ToolTipRole)
                    .contains(QString::fromStdString(elsewhere)));
}

// The check before Start: a volume that is mounted, and a drive holding one, are refused
// for writing, named as Windows names them; a free drive is asked about by its name.
TEST(WindowsPaths, WritesToAMountedVolumeOrItsDriveAreRefusedAndAFreeDriveIsAskedAbout)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(windowsServices(), test::isolatedOptions(dir.path()));
    window.show();

    for (const auto &[path, kind] : {std::pair {kVolume, core::TargetKind::Volume},
             std::pair {kBusyDrive, core::TargetKind::PhysicalDrive}}) {
        window.document()->setProfile(writing(path, kind));
        EXPECT_FALSE(window.startRun()) << path;
        EXPECT_EQ(window.messageBar()->currentLevel(), MessageBar::Level::Error) << path;
        EXPECT_TRUE(window.messageBar()->currentText().contains(QStringLiteral("in use")))
            << window.messageBar()->currentText().toStdString();
        EXPECT_EQ(window.messageBar()->currentDetails(),
            QString::fromStdString(path) + QStringLiteral(R"(: mounted at D:\)"));
        EXPECT_EQ(window.findChild<QMessageBox *>(QStringLiteral("deviceWritesDialog")), nullptr)
            << "refused before anyone is asked";
    }

    window.document()->setProfile(writing(kFreeDrive, core::TargetKind::PhysicalDrive));
    window.startRun();
    QMessageBox *box = deviceQuestion(window);
    ASSERT_NE(box, nullptr) << window.messageBar()->currentText().toStdString();
    EXPECT_TRUE(box->text().contains(QStringLiteral(R"(<b>\\.\PhysicalDrive2</b>)")))
        << box->text().toStdString();
    EXPECT_TRUE(box->text().contains(QStringLiteral("WDC WD40EFRX"))) << box->text().toStdString();
    EXPECT_FALSE(box->text().contains(QStringLiteral("udisks2"))) << "no broker on Windows";
    box->button(QMessageBox::Cancel)->click();
    QCoreApplication::processEvents();
    EXPECT_FALSE(window.runController()->isRunning());
}

// A profile names a listed drive and test file in its own spelling (another letter case,
// forward slashes): they are those rows, with their facts, and the drive's mounted volume
// still refuses writing before anyone is asked.
TEST(WindowsPaths, AProfilesOwnSpellingOfAListedTargetIsThatTarget)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(windowsServices(), test::isolatedOptions(dir.path()));
    window.show();
    const TargetsModel &model = *window.targetsPage()->model();
    const int rows = model.rowCount();

    const std::string drive = R"(\\.\physicaldrive1)";
    window.document()->setProfile(writing(drive, core::TargetKind::PhysicalDrive));
    window.targetsPage()->model()->setWorker(0);
    EXPECT_EQ(model.rowCount(), rows) << "no second row for the same drive";
    const int row = test::targetRow(model, kBusyDrive);
    ASSERT_GE(row, 0);
    EXPECT_TRUE(model.index(row, 0).data(TargetsModel::AssignedRole).toBool());
    ASSERT_NE(model.candidateFor(drive), nullptr);
    EXPECT_EQ(model.candidateFor(drive)->path, kBusyDrive);
    EXPECT_FALSE(window.startRun());
    EXPECT_EQ(window.messageBar()->currentDetails(),
        QString::fromStdString(drive) + QStringLiteral(R"(: mounted at D:\)"));

    core::Profile onFile = test::smallProfile();
    onFile.hosts[0].workers[0].targets[0].path = "c:/IOPRISM-TEST.dat";
    window.document()->setProfile(onFile);
    EXPECT_EQ(model.rowCount(), rows);
    const int fileRow = test::targetRow(model, kTestFile);
    ASSERT_GE(fileRow, 0);
    EXPECT_TRUE(model.index(fileRow, 0).data(TargetsModel::AssignedRole).toBool());
    EXPECT_EQ(cell(model, fileRow, TargetsModel::MountColumn), QStringLiteral(R"(C:\ (NTFS))"));
}

// The real listing: each disk and partition (volume) has the kind this platform gives its
// path, so a Windows drive is offered as a PhysicalDrive (which the Windows backend opens)
// and never as a Linux BlockDevice (which it refuses).
TEST(WindowsPaths, TheMachinesListingGivesEachDeviceThePlatformsKind)
{
    test::ensureApp();
    int raw = 0;
    for (const TargetCandidate &c : app::listTargets()) {
        if (c.kind == core::TargetKind::TestFile || c.kind == core::TargetKind::FileTree)
            continue;
        ++raw;
        EXPECT_EQ(c.kind, platform::detectTargetKind(c.path)) << c.path;
    }
    if (raw == 0)
        GTEST_SKIP() << "no disk is listed here";
}

} // namespace
} // namespace ioprism::ui
