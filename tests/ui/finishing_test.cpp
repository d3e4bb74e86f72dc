// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 14, item 5: finishing a run. The test files can be removed after the run (the
// CLI's --remove-test-files), the progress bar says that a run was stopped, and Stop
// says what it waits for.
#include "support/test_support.h"
#include "ui/main_window.h"
#include "ui/models/profile_document.h"
#include "ui/run/run_controller.h"

#include <QAction>
#include <QMenuBar>
#include <QSettings>

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using namespace std::chrono_literals;

TEST(Finishing, AStoppedRunSaysSoAndItsTestFilesAreRemovedWhenAsked)
{
    test::ensureApp();
    QSettings().remove(QStringLiteral("run/removeTestFiles"));
    test::TempDir dir;
    PlatformServices services = ioprism::test::testServices();
    std::vector<std::string> removed;
    services.removeTestFile = [&removed](const std::string &path) -> core::Status {
        removed.push_back(path);
        return core::Ok {};
    };
    MainWindowOptions options;
    options.restoreSession = false;
    options.dataDirectory = QString::fromStdString(dir.path().string());
    MainWindow window(services, options);
    // The option is offered in the Run menu, off by default, and kept.
    QAction *option = window.removeTestFilesAction();
    ASSERT_NE(option, nullptr);
    EXPECT_TRUE(option->isEnabled());
    EXPECT_FALSE(option->isChecked());
    EXPECT_FALSE(option->toolTip().isEmpty());
    option->setChecked(true);
    EXPECT_TRUE(QSettings().value(QStringLiteral("run/removeTestFiles")).toBool());

    window.document()->setProfile(test::smallProfile(60s, 100ms));
    RunResultPtr finished;
    QObject::connect(&window, &MainWindow::runFinished, [&](RunResultPtr r) { finished = r; });
    ASSERT_TRUE(window.startRun());
    ASSERT_TRUE(test::waitUntil(
        [&] {
            return window.livePage() && window.progressValue() >= 0
                && window.statusText().contains(QStringLiteral("running"));
        },
        10s));
    window.stopRun();
    // Stop says what it waits for and how to stop waiting.
    EXPECT_TRUE(window.statusText().contains(QStringLiteral("in-flight I/O")))
        << window.statusText().toStdString();
    EXPECT_TRUE(window.statusText().contains(QStringLiteral("Stop again")))
        << window.statusText().toStdString();
    ASSERT_TRUE(test::waitUntil([&] { return finished != nullptr; }, 20s));
    EXPECT_TRUE(finished->stoppedByUser);
    EXPECT_TRUE(window.progressText().startsWith(QStringLiteral("stopped at")))
        << window.progressText().toStdString();
    ASSERT_EQ(removed.size(), 1u);
    EXPECT_EQ(removed[0], "/nonexistent/ioprism-null-target.dat");
    QSettings().remove(QStringLiteral("run/removeTestFiles"));
}

TEST(Finishing, WithoutTheOptionNoTestFileIsRemoved)
{
    test::ensureApp();
    QSettings().remove(QStringLiteral("run/removeTestFiles"));
    test::TempDir dir;
    PlatformServices services = ioprism::test::testServices();
    int calls = 0;
    services.removeTestFile = [&calls](const std::string &) -> core::Status {
        ++calls;
        return core::Ok {};
    };
    MainWindowOptions options;
    options.restoreSession = false;
    options.dataDirectory = QString::fromStdString(dir.path().string());
    MainWindow window(services, options);
    window.document()->setProfile(test::smallProfile(1s, 100ms));
    RunResultPtr finished;
    QObject::connect(&window, &MainWindow::runFinished, [&](RunResultPtr r) { finished = r; });
    ASSERT_TRUE(window.startRun());
    ASSERT_TRUE(test::waitUntil([&] { return finished != nullptr; }, 20s));
    EXPECT_EQ(calls, 0);
    EXPECT_EQ(window.progressText(), QStringLiteral("done"));
}

} // namespace
} // namespace ioprism::ui
