// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 13, "never lose a result by accident": with Keep Every Run in the History off,
// the results of a run are in no file, and Start, New, Open and Quit ask before they
// discard them (Save Results…, Discard, Cancel); with the history on, nothing is asked.
// The dialogs are driven as a user would: the buttons clicked, the save dialog answered.
#include "core/library/run_library.h"
#include "core/report/results_reader.h"
#include "platform/common/input_file_reader.h"
#include "support/test_support.h"
#include "ui/main_window.h"
#include "ui/models/profile_document.h"
#include "ui/pages/results_page.h"
#include "ui/results_keeper.h"
#include "ui/run/run_controller.h"

#include <QFileDialog>
#include <QMessageBox>
#include <QPushButton>

#include <fstream>
#include <gtest/gtest.h>

#include "manager_support.h"
#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using namespace std::chrono_literals;

// The visible one: a box answered earlier may not be deleted yet.
template<typename Dialog> Dialog *shownDialog(const MainWindow &window)
{
    Dialog *shown = nullptr;
    test::waitUntil(
        [&] {
            for (auto *d : window.findChildren<Dialog *>())
                if (d->isVisible())
                    shown = d;
            return shown != nullptr;
        },
        2s);
    return shown;
}

// The question about the unsaved results, answered with `button` (Cancel, Discard, Save).
bool answer(const MainWindow &window, QMessageBox::StandardButton button)
{
    QMessageBox *box = shownDialog<QMessageBox>(window);
    if (!box || !box->button(button))
        return false;
    EXPECT_EQ(box->windowTitle(), QStringLiteral("Results not saved"));
    EXPECT_TRUE(box->button(QMessageBox::Save) && box->button(QMessageBox::Discard)
        && box->button(QMessageBox::Cancel));
    box->button(button)->click();
    return true;
}

bool noQuestion(const MainWindow &window)
{
    for (auto *box : window.findChildren<QMessageBox *>())
        if (box->isVisible())
            return false;
    return true;
}

RunResultPtr runUntilFinished(MainWindow &window, const std::function<void()> &start)
{
    RunResultPtr finished;
    auto connection = QObject::connect(
        &window, &MainWindow::runFinished, [&](RunResultPtr r) { finished = r; });
    start();
    EXPECT_TRUE(test::waitUntil([&] { return finished != nullptr; }, 30s));
    QObject::disconnect(connection);
    return finished;
}

TEST(UnsavedResults, StartNewOpenAndQuitAskBeforeDiscardingThem)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), withLibrary(dir));
    window.saveRunsAction()->setChecked(false);
    window.document()->setProfile(test::smallProfile(0s, 100ms));
    window.setIoLimitPerTarget(200);
    window.document()->setModified(false);
    window.show();

    const RunResultPtr first = runUntilFinished(window, [&] { EXPECT_TRUE(window.startRun()); });
    ASSERT_TRUE(first && !first->steps.empty());
    EXPECT_TRUE(window.hasUnsavedResults());
    EXPECT_TRUE(
        core::RunLibrary(dir.path() / "runs", ioprism::platform::readInputFile).list().empty())
        << "the history is off";

    // Start asks; Cancel starts nothing and keeps the results.
    window.startAction()->trigger();
    ASSERT_TRUE(answer(window, QMessageBox::Cancel));
    EXPECT_FALSE(window.runController()->isRunning());
    EXPECT_EQ(window.lastResult(), first);
    EXPECT_EQ(window.resultsPage()->result(), first);

    // New asks; Cancel keeps the profile and the results.
    const core::Profile profile = window.document()->profile();
    window.newAction()->trigger();
    ASSERT_TRUE(answer(window, QMessageBox::Cancel));
    EXPECT_EQ(window.document()->profile(), profile);
    EXPECT_EQ(window.lastResult(), first);

    // Open asks before its file dialog; Cancel shows none.
    window.openAction()->trigger();
    ASSERT_TRUE(answer(window, QMessageBox::Cancel));
    for (auto *d : window.findChildren<QFileDialog *>())
        EXPECT_FALSE(d->isVisible());

    // Quit asks, and the window stays until it is answered; Cancel keeps it.
    EXPECT_FALSE(window.close());
    ASSERT_TRUE(answer(window, QMessageBox::Cancel));
    EXPECT_TRUE(window.isVisible());
    EXPECT_EQ(window.lastResult(), first);

    // Save Results… on Start: a save dialog, the results file, then the next run.
    const auto saved = dir.path() / "kept.json";
    RunResultPtr second = runUntilFinished(window, [&] {
        window.startAction()->trigger();
        ASSERT_TRUE(answer(window, QMessageBox::Save));
        QFileDialog *dialog = shownDialog<QFileDialog>(window);
        ASSERT_NE(dialog, nullptr);
        EXPECT_EQ(dialog->acceptMode(), QFileDialog::AcceptSave);
        dialog->selectFile(QString::fromStdString(saved.string()));
        static_cast<QDialog *>(dialog)->accept(); // QFileDialog::accept is protected
    });
    ASSERT_TRUE(second);
    EXPECT_NE(second, first);
    const core::ResultsRead read = core::readResultsJson(test::readFile(saved));
    ASSERT_TRUE(read.ok()) << read.error;
    EXPECT_EQ(read.result->runId, first->runId) << "the first run's results were saved";
    EXPECT_EQ(read.result->steps.size(), first->steps.size());
    EXPECT_TRUE(window.hasUnsavedResults()) << "the second run's are in no file yet";

    // Discard on New: the results go, the new profile comes.
    window.newAction()->trigger();
    ASSERT_TRUE(answer(window, QMessageBox::Discard));
    EXPECT_FALSE(window.lastResult());
    EXPECT_FALSE(window.resultsPage()->result());
    EXPECT_FALSE(window.hasUnsavedResults());
    EXPECT_NE(window.document()->profile(), profile);

    // With the history on, a run is kept when it ends: nothing to ask, Quit included.
    window.saveRunsAction()->setChecked(true);
    window.document()->setProfile(test::smallProfile(0s, 100ms));
    window.document()->setModified(false);
    const RunResultPtr third = runUntilFinished(window, [&] {
        window.startAction()->trigger();
        EXPECT_TRUE(noQuestion(window));
    });
    ASSERT_TRUE(third);
    EXPECT_FALSE(window.hasUnsavedResults());
    EXPECT_EQ(
        core::RunLibrary(dir.path() / "runs", ioprism::platform::readInputFile).list().size(), 1u);
    window.startAction()->trigger();
    EXPECT_TRUE(noQuestion(window));
    EXPECT_TRUE(test::waitUntil([&] { return !window.runController()->isRunning(); }, 30s));
    // A close while the run is being kept in the history waits for it (ResultsKeeper),
    // then closes without asking.
    window.close();
    EXPECT_TRUE(test::waitUntil([&] { return !window.isVisible(); }, 30s));
    EXPECT_TRUE(noQuestion(window));
}

// A results file opened, or exported, is saved: nothing to ask.
TEST(UnsavedResults, ResultsExportedOrOpenedFromAFileAreNotAskedAbout)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), withLibrary(dir));
    window.saveRunsAction()->setChecked(false);
    window.document()->setProfile(test::smallProfile(0s, 100ms));
    window.setIoLimitPerTarget(200);
    window.document()->setModified(false);
    window.show();
    ASSERT_TRUE(runUntilFinished(window, [&] { EXPECT_TRUE(window.startRun()); }));
    ASSERT_TRUE(window.hasUnsavedResults());
    const auto path = dir.path() / "r.json";
    ASSERT_TRUE(window.exportResultsJson(QString::fromStdString(path.string())));
    EXPECT_FALSE(window.hasUnsavedResults());
    window.newAction()->trigger();
    EXPECT_TRUE(noQuestion(window));
    EXPECT_TRUE(window.lastResult()) << "saved results stay where they are";
    // Results files are written off the GUI thread (ResultsKeeper).
    ASSERT_TRUE(test::waitUntil([&] { return !window.resultsKeeper()->isBusy(); }, 30s));

    ASSERT_TRUE(test::openResultsFile(window, QString::fromStdString(path.string())));
    EXPECT_FALSE(window.hasUnsavedResults());
    EXPECT_TRUE(window.close());
}

} // namespace
} // namespace ioprism::ui
