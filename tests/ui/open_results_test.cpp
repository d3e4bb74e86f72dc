// SPDX-License-Identifier: GPL-3.0-or-later
// Issue "One run interface", item 7: results files are read off the GUI thread. A long
// run's file takes seconds to parse; the window says "Opening…" meanwhile and stays
// responsive, shows the run as before when it arrives, refuses a bad file with the same
// words as before, shows only the file asked for last, and can close while a file is read.
//
// Each test holds the reading thread in ResultsKeeper's read hook, so what the window does
// meanwhile is seen without a race: nothing here waits for a time to pass, only for a
// signal (with a generous timeout).
#include "core/null_engine.h"
#include "core/report/results_json.h"
#include "core/report/results_reader.h"
#include "core/run/run.h"
#include "platform/common/input_file_reader.h"
#include "support/test_support.h"
#include "ui/main_window.h"
#include "ui/message_bar.h"
#include "ui/models/profile_document.h"
#include "ui/pages/live_page.h"
#include "ui/pages/results_page.h"
#include "ui/results_keeper.h"

#include <QFileInfo>
#include <QSemaphore>
#include <QSignalSpy>
#include <QThread>

#include <atomic>
#include <fstream>
#include <gtest/gtest.h>
#include <memory>
#include <mutex>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using namespace std::chrono_literals;

constexpr int kGenerousMs = 60000;

// A run of the null engine as the command line makes it, written as a results file.
QString resultsFile(const test::TempDir &dir, const std::string &name)
{
    core::Profile p = test::smallProfile(0s, 100ms);
    p.setup.description = name;
    core::RunSettings options;
    options.ioLimitPerTarget = 100;
    core::NullBackend backend;
    core::NullCounterSource counters;
    core::RunSink sink;
    const core::RunResult r = core::Run(p, backend, counters, sink, options).execute();
    EXPECT_FALSE(r.error);
    const auto path = dir.path() / (name + ".json");
    std::ofstream(path, std::ios::binary) << core::writeResultsJson(r, r.environment);
    return QString::fromStdString(path.string());
}

// Holds the reading thread before it reads `held` (every file when empty): `entered` is
// released when it gets there, and it goes on once `go` is released. Records the thread
// and the files it was asked to read.
struct ReadGate {
    QString held;
    QSemaphore entered;
    QSemaphore go;
    std::mutex mutex;
    QStringList read; // guarded by mutex
    std::atomic<QThread *> thread {nullptr};

    void install(MainWindow &window)
    {
        window.resultsKeeper()->setReadHook([this](const QString &path) {
            {
                const std::lock_guard lock(mutex);
                read << path;
            }
            thread = QThread::currentThread();
            if (!held.isEmpty() && path != held)
                return;
            entered.release();
            // Never forever: a test that fails before releasing `go` still ends.
            go.tryAcquire(1, kGenerousMs);
        });
    }
    // Waits (processing the GUI thread's events) until the reading thread is held.
    bool waitEntered()
    {
        return test::waitUntil([&] { return entered.tryAcquire(); }, 60s);
    }
    QStringList readFiles()
    {
        const std::lock_guard lock(mutex);
        return read;
    }
};

TEST(OpenResults, ARealRunsFileIsReadOffTheGuiThreadWhileTheWindowSaysSoThenShownAsAtItsEnd)
{
    test::ensureApp();
    test::TempDir dir;
    // A real short run in the window, saved as the user saves it (File › Export).
    RunResultPtr finished;
    const QString path = QString::fromStdString((dir.path() / "run.json").string());
    {
        MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir.path()));
        window.document()->setProfile(test::smallProfile(0s, 100ms));
        window.setIoLimitPerTarget(200);
        QSignalSpy ran(&window, &MainWindow::runFinished);
        ASSERT_TRUE(window.startRun());
        ASSERT_TRUE(ran.wait(kGenerousMs));
        finished = ran.at(0).at(0).value<RunResultPtr>();
        ASSERT_TRUE(finished && !finished->error);
        ASSERT_TRUE(window.exportResultsJson(path));
        ASSERT_TRUE(test::waitUntil([&] { return !window.resultsKeeper()->isBusy(); }, 60s));
    }

    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir.path()));
    window.show();
    ReadGate gate;
    gate.install(window);
    QSignalSpy opened(&window, &MainWindow::resultsOpened);
    QSignalSpy failed(&window, &MainWindow::openFailed);

    // The read begins and openFile returns: the reading thread is held, so had the file
    // been read here, this would not return.
    EXPECT_TRUE(window.openFile(path));
    ASSERT_TRUE(gate.waitEntered()) << "the read began while the GUI thread went on";
    EXPECT_EQ(window.statusText(), MainWindow::tr("Opening %1…").arg(QStringLiteral("run.json")));
    EXPECT_FALSE(window.resultsPage()->result()) << "nothing shown before it is read";
    EXPECT_TRUE(opened.isEmpty());
    // IOPRISM_TEST_SHOTS=DIR keeps a picture of the busy window, to look at.
    if (const char *shots = std::getenv("IOPRISM_TEST_SHOTS")) {
        QCoreApplication::processEvents();
        window.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/opening.png"));
    }

    gate.go.release();
    ASSERT_TRUE(opened.wait(kGenerousMs)) << window.messageBar()->currentText().toStdString();
    EXPECT_TRUE(failed.isEmpty());
    EXPECT_EQ(opened.at(0).at(0).toString(), path);
    ASSERT_NE(gate.thread.load(), nullptr);
    EXPECT_NE(gate.thread.load(), window.thread()) << "parsed off the GUI thread";

    // As at the end of the run, as before.
    const RunResultPtr shown = window.resultsPage()->result();
    ASSERT_TRUE(shown);
    ASSERT_EQ(shown->steps.size(), finished->steps.size());
    EXPECT_DOUBLE_EQ(shown->steps[0].scopes[0].figures.total.iops,
        finished->steps[0].scopes[0].figures.total.iops);
    EXPECT_EQ(shown->intervals.size(), finished->intervals.size());
    EXPECT_EQ(window.lastResult(), shown);
    EXPECT_FALSE(window.hasUnsavedResults()) << "it is that file";
    EXPECT_TRUE(window.isPageShown(MainWindow::ResultsTab));
    EXPECT_EQ(
        window.statusText(), MainWindow::tr("Idle · opened %1").arg(QStringLiteral("run.json")));
    EXPECT_GT(window.livePage()->plots()->pointCount(LivePlots::IopsPlot, LivePlots::TotalIops), 0);
}

TEST(OpenResults, OnlyTheFileAskedForLastIsShownAndOneAskedForBetweenIsNeverRead)
{
    test::ensureApp();
    test::TempDir dir;
    const QString first = resultsFile(dir, "first");
    const QString between = resultsFile(dir, "between");
    const QString last = resultsFile(dir, "last");
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir.path()));
    ReadGate gate;
    gate.held = first;
    gate.install(window);
    QSignalSpy opened(&window, &MainWindow::resultsOpened);
    QSignalSpy failed(&window, &MainWindow::openFailed);

    EXPECT_TRUE(window.openFile(first));
    ASSERT_TRUE(gate.waitEntered());
    // While the first is read: two more opens, the user changing their mind twice.
    EXPECT_TRUE(window.openFile(between));
    EXPECT_TRUE(window.openFile(last));
    EXPECT_EQ(window.statusText(), MainWindow::tr("Opening %1…").arg(QStringLiteral("last.json")));
    gate.go.release();

    ASSERT_TRUE(opened.wait(kGenerousMs));
    // Reads end in the order asked (one thread): the earlier ones' ends were handled
    // before this one's, and dropped.
    ASSERT_EQ(opened.count(), 1);
    EXPECT_EQ(opened.at(0).at(0).toString(), last);
    EXPECT_TRUE(failed.isEmpty());
    EXPECT_FALSE(window.resultsKeeper()->isReading());
    ASSERT_TRUE(window.resultsPage()->result());
    EXPECT_EQ(window.resultsPage()->result()->plan.profile.setup.description, "last");
    EXPECT_EQ(
        window.statusText(), MainWindow::tr("Idle · opened %1").arg(QStringLiteral("last.json")));
    EXPECT_EQ(gate.readFiles(), (QStringList {first, last})) << "the one between was stale unread";
}

TEST(OpenResults, ABadFileIsRefusedWithTheSameWordsAsWhenItWasReadOnTheGuiThread)
{
    test::ensureApp();
    test::TempDir dir;
    const QString good = resultsFile(dir, "good");
    std::string text = test::readFile(good.toStdString());
    const auto cut = dir.path() / "cut.json";
    std::ofstream(cut, std::ios::binary) << text.substr(0, text.size() / 2);
    const QString cutPath = QString::fromStdString(cut.string());
    const auto missing = dir.path() / "missing.json";

    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir.path()));
    const QString before = window.statusText();
    QSignalSpy opened(&window, &MainWindow::resultsOpened);

    // Damaged: the parser's reason, in the window's sentence.
    ASSERT_TRUE(test::waitForSignal(
        window, &MainWindow::openFailed, [&] { EXPECT_TRUE(window.openFile(cutPath)); }));
    const core::ResultsRead parsed = core::readResultsJson(text.substr(0, text.size() / 2));
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(window.messageBar()->currentLevel(), MessageBar::Level::Error);
    EXPECT_EQ(window.messageBar()->currentText(),
        MainWindow::tr("%1 cannot be opened: %2")
            .arg(QStringLiteral("cut.json"), QString::fromStdString(parsed.error)));
    EXPECT_EQ(window.statusText(), before) << "the status bar as it was";
    EXPECT_FALSE(window.resultsPage()->result());

    // Unreadable (gone since it was chosen): the bounded reader's reason.
    window.messageBar()->clearAll(); // messages stack: the next one is then the first
    QSignalSpy failed(&window, &MainWindow::openFailed);
    window.openResults(QString::fromStdString(missing.string()));
    ASSERT_TRUE(failed.wait(kGenerousMs));
    EXPECT_EQ(failed.at(0).at(0).toString(), QString::fromStdString(missing.string()));
    const core::InputFileText unread
        = platform::readInputFile(missing, core::kMaxResultsFileBytes, "results files");
    ASSERT_TRUE(unread.problem);
    EXPECT_EQ(window.messageBar()->currentText(),
        MainWindow::tr("%1 cannot be read: %2")
            .arg(QStringLiteral("missing.json"), QString::fromStdString(unread.problem->message)))
        << window.messageBar()->currentText().toStdString() << "\n"
        << unread.problem->message;

    // Comparing stops at the first file that cannot be read, with its reason.
    QSignalSpy compared(&window, &MainWindow::runsCompared);
    window.messageBar()->clearAll();
    failed.clear();
    EXPECT_TRUE(window.compareFiles({good, cutPath}));
    ASSERT_TRUE(failed.wait(kGenerousMs));
    EXPECT_EQ(failed.at(0).at(0).toString(), cutPath);
    EXPECT_EQ(window.messageBar()->currentText(),
        MainWindow::tr("%1 cannot be opened: %2")
            .arg(QStringLiteral("cut.json"), QString::fromStdString(parsed.error)));
    EXPECT_TRUE(compared.isEmpty());
    EXPECT_TRUE(opened.isEmpty());
}

TEST(OpenResults, TheWindowClosesAndGoesWhileAFileIsReadAndTheReadNeverReachesIt)
{
    test::ensureApp();
    test::TempDir dir;
    const QString path = resultsFile(dir, "late");
    auto window = std::make_unique<MainWindow>(
        ioprism::test::testServices(), test::isolatedOptions(dir.path()));
    window->show();
    ReadGate gate;
    gate.install(*window);
    bool arrived = false;
    QObject::connect(window.get(), &MainWindow::resultsOpened, [&] { arrived = true; });

    EXPECT_TRUE(window->openFile(path));
    ASSERT_TRUE(gate.waitEntered());
    // A read does not hold the window open (a write does: MainWindow::closeEvent).
    EXPECT_TRUE(window->close());
    gate.go.release(); // the read goes on while the window is destroyed
    window.reset(); // waits for the read; its end, posted to the window's keeper, is dropped
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
    EXPECT_FALSE(arrived);
}

} // namespace
} // namespace ioprism::ui
