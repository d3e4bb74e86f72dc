// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 26 item 4: on Windows a raw drive opens only for an administrator, and IOPrism
// runs asInvoker. Start then offers "Restart as Administrator", which carries the profile
// (in a file the new process opens) and the Targets page over. The platform is faked
// here: a PhysicalDrive target Denied, needing elevation, and a restart that is recorded.
#include "core/profile/profile_json.h"
#include "support/test_support.h"
#include "ui/main_window.h"
#include "ui/message_bar.h"
#include "ui/models/profile_document.h"

#include <QAbstractButton>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QSignalSpy>

#include <filesystem>
#include <gtest/gtest.h>
#include <optional>
#include <string>
#include <vector>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using namespace std::chrono_literals;

const std::string kDrive = R"(\\.\PhysicalDrive1)";

core::Profile onPhysicalDrive()
{
    core::Profile profile = test::smallProfile(1s, 100ms);
    auto &target = profile.hosts[0].workers[0].targets[0];
    target.kind = core::TargetKind::BlockDevice;
    target.path = kDrive;
    target.region.sizeBytes = 64 * core::kMiB;
    return profile;
}

// The platform of a Windows user who is not elevated: the drive is Denied; with
// `elevationHelps`, administrator rights would open it. Each restart asked for is
// recorded in `restarts` and answered with `answer`.
struct FakeWindows {
    bool elevationHelps = true;
    std::optional<core::OpError> answer; // nullopt: the restart started
    std::vector<std::vector<std::string>> restarts;

    PlatformServices services()
    {
        PlatformServices s = test::testServices();
        s.targetAccess = [](const std::string &path, bool) {
            return path == kDrive ? core::TargetAccess {core::TargetAccess::Way::Denied,
                       "Only an administrator may open " + kDrive}
                                  : core::TargetAccess {};
        };
        s.needsElevation
            = [this](const core::Target &t) { return elevationHelps && t.path == kDrive; };
        s.restartElevated = [this](const std::vector<std::string> &arguments) -> core::Status {
            restarts.push_back(arguments);
            if (answer)
                return *answer;
            return core::Ok {};
        };
        return s;
    }
};

QMessageBox *restartDialog(MainWindow &window)
{
    QMessageBox *box = nullptr;
    test::waitUntil(
        [&] {
            box = window.findChild<QMessageBox *>(QStringLiteral("restartElevatedDialog"));
            return box && box->isVisible();
        },
        5s);
    return box;
}

QAbstractButton *restartButton(QMessageBox *box)
{
    for (auto *button : box->buttons())
        if (box->buttonRole(button) == QMessageBox::AcceptRole)
            return button;
    return nullptr;
}

TEST(RestartElevated, StartOffersItAndTheRestartCarriesTheProfileAndThePage)
{
    test::ensureApp();
    test::TempDir dir;
    FakeWindows fake;
    MainWindow window(fake.services(), test::isolatedOptions(dir.path()));
    window.document()->setProfile(onPhysicalDrive());
    window.document()->setModified(true); // edits saved nowhere: they go over too
    window.show();
    QSignalSpy restarted(&window, &MainWindow::restartedElevated);

    EXPECT_FALSE(window.startRun());
    EXPECT_EQ(window.messageBar()->currentLevel(), MessageBar::Level::Error);
    QMessageBox *box = restartDialog(window);
    ASSERT_NE(box, nullptr);
    EXPECT_EQ(box->icon(), QMessageBox::Warning);
    EXPECT_TRUE(box->text().contains(QString::fromStdString(kDrive))) << box->text().toStdString();
    EXPECT_TRUE(box->text().contains(QStringLiteral("administrator's consent")));
    QAbstractButton *restart = restartButton(box);
    ASSERT_NE(restart, nullptr);
    EXPECT_EQ(restart->text(), QStringLiteral("Restart as Administrator"));
    EXPECT_FALSE(restart->toolTip().isEmpty());
    ASSERT_NE(box->button(QMessageBox::Cancel), nullptr);
    restart->click();
    QCoreApplication::processEvents();

    const QString file = QDir(QString::fromStdString(dir.path().string()))
                             .absoluteFilePath(QStringLiteral("restart-as-administrator.json"));
    ASSERT_EQ(fake.restarts.size(), 1U);
    // The new process is given the file as Windows writes paths, with backslashes.
    EXPECT_EQ(fake.restarts[0],
        (std::vector<std::string> {
            QDir::toNativeSeparators(file).toStdString(), "--page", "targets"}));
    ASSERT_TRUE(QFileInfo::exists(file));
    QFile saved(file);
    ASSERT_TRUE(saved.open(QIODevice::ReadOnly));
    core::Problems problems;
    const auto reread = core::parseProfileJson(saved.readAll().toStdString(), problems);
    ASSERT_TRUE(reread.has_value());
    EXPECT_EQ(*reread, window.document()->profile());
    EXPECT_EQ(reread->hosts[0].workers[0].targets[0].path, kDrive);
    // The window's own document is as it was: still untitled and modified.
    EXPECT_TRUE(window.document()->filePath().isEmpty());
    EXPECT_TRUE(window.document()->isModified());

    ASSERT_EQ(restarted.count(), 1);
    EXPECT_FALSE(window.isVisible()) << "the window closes: the new process has the profile";
}

// A profile saved and unchanged goes over by its own file, so the new window shows its
// name and saves to it.
TEST(RestartElevated, ASavedProfileGoesOverByItsOwnFile)
{
    test::ensureApp();
    test::TempDir dir;
    FakeWindows fake;
    MainWindow window(fake.services(), test::isolatedOptions(dir.path()));
    window.document()->setProfile(onPhysicalDrive());
    const QString own = QString::fromStdString((dir.path() / "mine.json").string());
    ASSERT_TRUE(window.saveFile(own));
    EXPECT_FALSE(window.startRun());
    QMessageBox *box = restartDialog(window);
    ASSERT_NE(box, nullptr);
    restartButton(box)->click();
    QCoreApplication::processEvents();
    ASSERT_EQ(fake.restarts.size(), 1U);
    EXPECT_EQ(fake.restarts[0][0],
        QDir::toNativeSeparators(QFileInfo(own).absoluteFilePath()).toStdString());
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "restart-as-administrator.json"));
}

TEST(RestartElevated, ADeclinedRestartLeavesTheWindowAndSaysWhy)
{
    test::ensureApp();
    test::TempDir dir;
    FakeWindows fake;
    fake.answer = core::OpError {std::make_error_code(std::errc::operation_canceled),
        "ShellExecuteExW", "", "the request for administrator rights was declined"};
    MainWindow window(fake.services(), test::isolatedOptions(dir.path()));
    window.document()->setProfile(onPhysicalDrive());
    window.show();
    QSignalSpy restarted(&window, &MainWindow::restartedElevated);
    EXPECT_FALSE(window.startRun());
    QMessageBox *box = restartDialog(window);
    ASSERT_NE(box, nullptr);
    restartButton(box)->click();
    QCoreApplication::processEvents();
    EXPECT_EQ(fake.restarts.size(), 1U);
    EXPECT_EQ(restarted.count(), 0);
    EXPECT_TRUE(window.isVisible());
    EXPECT_EQ(window.messageBar()->currentLevel(), MessageBar::Level::Error);
    EXPECT_TRUE(window.messageBar()->currentText().contains(QStringLiteral("declined")))
        << window.messageBar()->currentText().toStdString();
}

TEST(RestartElevated, CancelKeepsTheRefusal)
{
    test::ensureApp();
    test::TempDir dir;
    FakeWindows fake;
    MainWindow window(fake.services(), test::isolatedOptions(dir.path()));
    window.document()->setProfile(onPhysicalDrive());
    EXPECT_FALSE(window.startRun());
    QMessageBox *box = restartDialog(window);
    ASSERT_NE(box, nullptr);
    box->button(QMessageBox::Cancel)->click();
    QCoreApplication::processEvents();
    EXPECT_TRUE(fake.restarts.empty());
    EXPECT_EQ(window.messageBar()->currentLevel(), MessageBar::Level::Error);
    EXPECT_TRUE(window.messageBar()->currentText().contains(QStringLiteral("administrator")));
}

// Linux: needsElevation says false (udisks2 opens devices there): only the refusal.
TEST(RestartElevated, NotOfferedWhereElevationWouldNotHelp)
{
    test::ensureApp();
    test::TempDir dir;
    FakeWindows fake;
    fake.elevationHelps = false;
    MainWindow window(fake.services(), test::isolatedOptions(dir.path()));
    window.document()->setProfile(onPhysicalDrive());
    EXPECT_FALSE(window.startRun());
    QCoreApplication::processEvents();
    EXPECT_EQ(window.findChild<QMessageBox *>(), nullptr);
    EXPECT_EQ(window.messageBar()->currentLevel(), MessageBar::Level::Error);
    EXPECT_TRUE(window.messageBar()->currentText().contains(
        QStringLiteral("The profile cannot run: Only an administrator may open")));
    EXPECT_TRUE(fake.restarts.empty());
}

// --page NAME (the restart passes "--page targets").
TEST(RestartElevated, PagesAreNamedForTheCommandLine)
{
    test::ensureApp();
    test::TempDir dir;
    EXPECT_EQ(MainWindow::pageNamed(QStringLiteral("targets")), MainWindow::TargetsTab);
    EXPECT_EQ(MainWindow::pageNamed(QStringLiteral("Results")), MainWindow::ResultsTab);
    EXPECT_EQ(MainWindow::pageNamed(QStringLiteral("setup")), MainWindow::SetupTab);
    EXPECT_EQ(MainWindow::pageNamed(QStringLiteral("nosuch")), std::nullopt);
    EXPECT_TRUE(MainWindow::pageNames().contains(QStringLiteral("specs")));
    MainWindow window(test::testServices(), test::isolatedOptions(dir.path()));
    for (const auto &name : MainWindow::pageNames()) {
        const auto page = MainWindow::pageNamed(name);
        ASSERT_TRUE(page.has_value()) << name.toStdString();
        // Shown only while there is a series, or a comparison.
        if (*page == MainWindow::SeriesTab || *page == MainWindow::CompareTab)
            continue;
        window.showPage(*page);
        EXPECT_TRUE(window.isPageShown(*page)) << name.toStdString();
    }
}

} // namespace
} // namespace ioprism::ui
