// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 26 through the window: an unprivileged user benchmarks a raw device it may not
// open, which udisks2 opens after polkit allows it. Disabled: it needs a loop device, a
// system bus with udisks2 and polkit, and a user without the right to open the node, so
// tests/e2e/broker_test.cpp runs it (as that user, under Xvfb, with a private system bus)
// with IOPRISM_BROKER_DEVICE=/dev/loopN:
//   ui_tests --gtest_also_run_disabled_tests --gtest_filter=DISABLED_BrokerGui.*
// The window is built on the application's own services (app/gui/gui_platform.h), as
// the application builds it: the listing, the check before Start and the run are real.
#include "app/gui/gui_platform.h"
#include "support/test_support.h"
#include "ui/main_window.h"
#include "ui/message_bar.h"
#include "ui/models/profile_document.h"
#include "ui/models/targets_model.h"
#include "ui/pages/targets_page.h"
#include "ui/run/run_controller.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QMessageBox>
#include <QTest>

#include <cstdlib>
#include <gtest/gtest.h>
#include <string>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using namespace std::chrono_literals;

// A profile of one worker on `device` with one spec: all reads, or all writes. The run
// is short: the test is about who opens the device, not about its speed.
core::Profile deviceProfile(const std::string &device, bool write)
{
    core::Profile profile = test::smallProfile(1s, 100ms);
    auto &spec = profile.specs[0];
    spec.name = write ? "Write 4K QD4" : "Read 4K QD4";
    spec.lines[0].percentRead = write ? 0 : 100;
    auto &worker = profile.hosts[0].workers[0];
    worker.assignedSpecs = {spec.name};
    auto &target = worker.targets[0];
    target.kind = core::TargetKind::BlockDevice;
    target.path = device;
    // A small region: the loop device's size is the e2e test's choice.
    target.region.sizeBytes = 4 * core::kMiB;
    return profile;
}

// The Targets page's row of `device`, or -1.
// Clicks Start as the user does, and returns the run's result once it ends (null when
// it did not end in time). `answer` is called meanwhile for a question the window asks.
RunResultPtr runFromStart(MainWindow &window, const std::function<void()> &answer = {})
{
    RunResultPtr finished;
    const auto connection = QObject::connect(
        &window, &MainWindow::runFinished, [&](const RunResultPtr &r) { finished = r; });
    window.startAction()->trigger();
    if (answer)
        answer();
    // A refusal (the message bar says why) ends it here, not after the long wait.
    const auto *controller = window.runController();
    test::waitUntil([&] { return finished != nullptr || controller->isRunning(); }, 5s);
    // Generous: polkit, udisks2 and a loop device on a loaded CI machine.
    if (controller->isRunning())
        test::waitUntil([&] { return finished != nullptr; }, 120s);
    QObject::disconnect(connection);
    return finished;
}

// The device's target info in the result (what preparing it found), or null.
const core::TargetInfo *deviceInfo(
    const RunResultPtr &result, const std::string &device, std::vector<core::TargetInfo> &infos)
{
    infos = result->plan.targetInfos();
    for (const auto &info : infos)
        if (info.path == device)
            return &info;
    return nullptr;
}

// The windows and dialogs on screen, for a failure that found none it expected.
QString shownWindows()
{
    QStringList shown;
    for (const QWidget *w : QApplication::topLevelWidgets()) {
        if (!w->isVisible())
            continue;
        shown << QStringLiteral("%1 \"%2\" (%3)")
                     .arg(QString::fromLatin1(w->metaObject()->className()), w->windowTitle(),
                         w->objectName());
        if (const auto *box = qobject_cast<const QMessageBox *>(w))
            shown.last()
                += QStringLiteral(": ") + box->text() + QLatin1Char(' ') + box->informativeText();
    }
    return shown.join(QStringLiteral(", "));
}

TEST(DISABLED_BrokerGui, ReadThenConfirmedWrite)
{
    const char *device = std::getenv("IOPRISM_BROKER_DEVICE");
    if (!device || !*device)
        GTEST_FAIL() << "run by tests/e2e/broker_test.cpp, which sets IOPRISM_BROKER_DEVICE "
                        "to a loop device, udisks2 and polkit on a private system bus, and "
                        "runs this as a user who may not open the device";
    const std::string path = device;
    test::ensureApp();
    test::TempDir dir;
    // A run library, as the application has: the window then keeps each run and asks
    // nothing about the previous results before the next run.
    MainWindowOptions options = test::isolatedOptions(dir.path());
    options.runLibraryDirectory = QString::fromStdString((dir.path() / "library").string());
    MainWindow window(app::platformServices(), options);
    window.resize(1200, 800);
    window.show();

    // The Targets page says before anything runs that the system will ask.
    const TargetsModel *targets = window.targetsPage()->model();
    const int row = test::targetRow(*targets, path);
    ASSERT_GE(row, 0) << path << " is not listed on the Targets page";
    const QModelIndex access = targets->index(row, TargetsModel::AccessColumn);
    EXPECT_EQ(access.data().toString(), QStringLiteral("Asks permission"))
        << access.data(Qt::ToolTipRole).toString().toStdString();

    // Reading: no question from the window (nothing is destroyed); udisks2 opens it.
    window.document()->setProfile(deviceProfile(path, false));
    const RunResultPtr read = runFromStart(window);
    ASSERT_NE(read, nullptr) << "the read run did not end: "
                             << window.messageBar()->currentText().toStdString();
    ASSERT_FALSE(read->error) << read->error->toString();
    std::vector<core::TargetInfo> infos;
    const core::TargetInfo *readInfo = deviceInfo(read, path, infos);
    ASSERT_NE(readInfo, nullptr);
    EXPECT_EQ(readInfo->openedBy, "udisks2");

    // Writing: the window asks first, naming the device and that the system asks next;
    // the user agrees with the dialog's own button.
    window.document()->setProfile(deviceProfile(path, true));
    bool asked = false;
    const RunResultPtr written = runFromStart(window, [&] {
        QMessageBox *box = nullptr;
        test::waitUntil(
            [&] {
                box = window.findChild<QMessageBox *>(QStringLiteral("deviceWritesDialog"));
                return box && box->isVisible();
            },
            10s);
        if (!box)
            return;
        asked = true;
        EXPECT_TRUE(box->text().contains(QString::fromStdString(path)))
            << box->text().toStdString();
        EXPECT_TRUE(box->text().contains(QStringLiteral("udisks2"))) << box->text().toStdString();
        for (QAbstractButton *button : box->buttons())
            if (box->buttonRole(button) == QMessageBox::DestructiveRole)
                QTest::mouseClick(button, Qt::LeftButton);
    });
    ASSERT_TRUE(asked) << "no confirmation before writing: "
                       << window.messageBar()->currentText().toStdString()
                       << "; windows shown: " << shownWindows().toStdString();
    ASSERT_NE(written, nullptr) << "the write run did not end: "
                                << window.messageBar()->currentText().toStdString();
    ASSERT_FALSE(written->error) << written->error->toString();
    const core::TargetInfo *writeInfo = deviceInfo(written, path, infos);
    ASSERT_NE(writeInfo, nullptr);
    EXPECT_EQ(writeInfo->openedBy, "udisks2");
    EXPECT_NE(writeInfo->openFlags.find("O_EXCL"), std::string::npos) << writeInfo->openFlags;
    EXPECT_FALSE(window.runController()->isRunning());
}

} // namespace
} // namespace ioprism::ui
