// SPDX-License-Identifier: GPL-3.0-or-later
// The window as a user drives it: first launch, a full run on the null engine that fills
// the Live and Results pages, exports, and the raw-device safety rules.
#include "core/null_engine.h"
#include "core/profile/presets.h"
#include "support/test_support.h"
#include "ui/main_window.h"
#include "ui/message_bar.h"
#include "ui/models/profile_document.h"
#include "ui/models/results_model.h"
#include "ui/pages/live_page.h"
#include "ui/pages/results_page.h"
#include "ui/pages/setup_page.h"
#include "ui/results_keeper.h"
#include "ui/run/run_controller.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QSpinBox>

#include <filesystem>
#include <gtest/gtest.h>
#include <vector>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using namespace std::chrono_literals;

MainWindowOptions isolated(const test::TempDir &dir, bool restore = false)
{
    MainWindowOptions options;
    options.restoreSession = restore;
    options.dataDirectory = QString::fromStdString(dir.path().string());
    return options;
}

TEST(MainWindow, FirstLaunchStartsFromTheQuickPresetWithATestFileInTheDataFolder)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), isolated(dir, true));
    const auto &profile = window.document()->profile();
    core::Problems problems;
    const auto quick = core::loadPreset("quick", problems);
    ASSERT_TRUE(quick);
    EXPECT_EQ(profile.specs, quick->specs);
    ASSERT_EQ(window.document()->workerCount(), 1);
    const auto &targets = window.document()->worker(0)->targets;
    ASSERT_EQ(targets.size(), 1u);
    EXPECT_EQ(std::filesystem::path(targets[0].path).parent_path(), dir.path());
    EXPECT_FALSE(window.document()->hasErrors());
    EXPECT_TRUE(window.startAction()->isEnabled());
    EXPECT_FALSE(window.stopAction()->isEnabled());
}

TEST(MainWindow, AFirstLaunchFitsTheScreensAvailableArea)
{
    // A 1024x700 screen: the window and its frame stay on it (the status bar visible).
    const QSize small = fitWindowSize(QSize(1440, 900), QSize(1024, 700));
    EXPECT_LE(small.width() + 16, 1024);
    EXPECT_LE(small.height() + 48, 700);
    EXPECT_EQ(fitWindowSize(QSize(1440, 900), QSize(2560, 1400)), QSize(1440, 900));

    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), isolated(dir, true));
    ASSERT_NE(window.screen(), nullptr);
    const QSize available = window.screen()->availableGeometry().size();
    EXPECT_LE(window.width(), available.width());
    EXPECT_LE(window.height(), available.height());
    EXPECT_LE(window.minimumWidth(), available.width());
    EXPECT_LE(window.minimumHeight(), available.height());
}

TEST(MainWindow, TheLastProfileIsRestoredOnTheNextLaunch)
{
    test::ensureApp();
    test::TempDir dir;
    core::Profile edited;
    {
        MainWindow window(ioprism::test::testServices(), isolated(dir, true));
        window.document()->mutableProfile().setup.description = "kept for next time";
        window.document()->commitValues(nullptr);
        edited = window.document()->profile();
        window.close();
    }
    MainWindow again(ioprism::test::testServices(), isolated(dir, true));
    EXPECT_EQ(again.document()->profile(), edited);
    EXPECT_TRUE(again.document()->isModified());
}

TEST(MainWindow, TheEngineIsSavedAsItsKindAndRestoredOnTheNextLaunch)
{
    // The page offers core::EngineKind values (one declaration for platform and GUI);
    // their numbers are what the settings hold.
    test::ensureApp();
    test::TempDir dir;
    {
        MainWindow window(ioprism::test::testServices(), isolated(dir));
        EXPECT_EQ(window.setupPage()->engine(), core::EngineKind::Auto);
        EXPECT_TRUE(window.setupPage()->setEngine(core::EngineKind::Sync));
        EXPECT_FALSE(window.setupPage()->setEngine(core::EngineKind::Iocp))
            << "the services offer Linux's engines and null";
        EXPECT_EQ(window.setupPage()->engine(), core::EngineKind::Sync);
    }
    EXPECT_EQ(QSettings().value(QStringLiteral("run/engine")).toInt(), int(core::EngineKind::Sync));
    {
        MainWindow window(ioprism::test::testServices(), isolated(dir));
        EXPECT_EQ(window.setupPage()->engine(), core::EngineKind::Sync);
    }
    QSettings().setValue(QStringLiteral("run/engine"), int(core::EngineKind::Iocp));
    MainWindow window(ioprism::test::testServices(), isolated(dir));
    EXPECT_EQ(window.setupPage()->engine(), core::EngineKind::Auto)
        << "a kind the page does not offer falls back to Automatic";
}

namespace {

// The engine box's entries: (kind, text, tooltip).
struct EngineEntry {
    core::EngineKind kind;
    QString text;
    QString toolTip;
};

std::vector<EngineEntry> engineEntries(const MainWindow &window)
{
    const QComboBox *box = window.setupPage()->engineField();
    std::vector<EngineEntry> entries;
    for (int i = 0; i < box->count(); ++i)
        entries.push_back({static_cast<core::EngineKind>(box->itemData(i).toInt()),
            box->itemText(i), box->itemData(i, Qt::ToolTipRole).toString()});
    return entries;
}

} // namespace

TEST(MainWindow, TheEnginesOfferedAreThePlatformsWithWhatAutoMeansThere)
{
    test::ensureApp();
    test::TempDir dir;
    {
        // Linux's list (nullPlatformServices): Auto is io_uring, else sync; no IOCP.
        MainWindow window(ioprism::test::testServices(), isolated(dir));
        const auto entries = engineEntries(window);
        ASSERT_EQ(entries.size(), 4u);
        EXPECT_EQ(entries[0].kind, core::EngineKind::Auto);
        EXPECT_EQ(entries[0].text, QStringLiteral("Automatic: io_uring, else sync"));
        EXPECT_EQ(entries[1].kind, core::EngineKind::IoUring);
        EXPECT_EQ(entries[2].kind, core::EngineKind::Sync);
        EXPECT_EQ(entries[3].kind, core::EngineKind::Null);
        for (const auto &e : entries)
            EXPECT_FALSE(e.toolTip.isEmpty()) << e.text.toStdString();
        EXPECT_FALSE(window.setupPage()->setEngine(core::EngineKind::Iocp));
    }
    // Windows' list: Auto is IOCP; io_uring and sync are not offered.
    auto windows = ioprism::test::testServices();
    windows.engines = {core::EngineKind::Auto, core::EngineKind::Iocp, core::EngineKind::Null};
    {
        MainWindow window(windows, isolated(dir));
        const auto entries = engineEntries(window);
        ASSERT_EQ(entries.size(), 3u);
        EXPECT_EQ(entries[0].text, QStringLiteral("Automatic: IOCP"));
        EXPECT_EQ(entries[1].kind, core::EngineKind::Iocp);
        EXPECT_TRUE(entries[1].text.contains(QStringLiteral("IOCP")));
        EXPECT_EQ(entries[2].kind, core::EngineKind::Null);
        for (const auto &e : entries)
            EXPECT_FALSE(e.toolTip.isEmpty()) << e.text.toStdString();
        EXPECT_FALSE(window.setupPage()->setEngine(core::EngineKind::IoUring));
        EXPECT_FALSE(window.setupPage()->setEngine(core::EngineKind::Sync));
        EXPECT_EQ(window.setupPage()->engine(), core::EngineKind::Auto);
        EXPECT_TRUE(window.setupPage()->setEngine(core::EngineKind::Iocp));
        EXPECT_EQ(window.setupPage()->engine(), core::EngineKind::Iocp);
        EXPECT_EQ(window.setupPage()->engineField()->currentText(), entries[1].text);
    }
    EXPECT_EQ(QSettings().value(QStringLiteral("run/engine")).toInt(), int(core::EngineKind::Iocp));
    {
        MainWindow window(windows, isolated(dir));
        EXPECT_EQ(window.setupPage()->engine(), core::EngineKind::Iocp) << "restored";
    }
    {
        // The same settings on Linux: IOCP is not offered, so Automatic.
        MainWindow window(ioprism::test::testServices(), isolated(dir));
        EXPECT_EQ(window.setupPage()->engine(), core::EngineKind::Auto);
    }
    // A Linux engine saved, then the Windows list: Automatic (IOCP).
    QSettings().setValue(QStringLiteral("run/engine"), int(core::EngineKind::Sync));
    MainWindow window(windows, isolated(dir));
    EXPECT_EQ(window.setupPage()->engine(), core::EngineKind::Auto);
}

TEST(MainWindow, AFullRunOnTheNullEngineFillsLiveAndResultsAndExports)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), isolated(dir));
    window.document()->setProfile(test::smallProfile(1s, 100ms));
    RunResultPtr finished;
    QObject::connect(&window, &MainWindow::runFinished, [&](RunResultPtr r) { finished = r; });

    ASSERT_TRUE(window.startRun());
    EXPECT_TRUE(window.runController()->isRunning());
    EXPECT_FALSE(window.startAction()->isEnabled());
    EXPECT_TRUE(window.stopAction()->isEnabled());
    ASSERT_TRUE(test::waitUntil([&] { return finished != nullptr; }, 30s));
    ASSERT_FALSE(finished->error) << finished->error->toString();

    auto *plots = window.livePage()->plots();
    EXPECT_GT(plots->pointCount(LivePlots::ThroughputPlot, LivePlots::ReadMegabytes), 0);
    EXPECT_GT(plots->pointCount(LivePlots::IopsPlot, LivePlots::TotalIops), 0);
    EXPECT_GT(plots->pointCount(LivePlots::LatencyPlot, LivePlots::P99), 0);
    window.show();
    window.showPage(MainWindow::LiveTab); // the Live page draws the latest figures when shown
    EXPECT_NE(window.livePage()->figureText(LivePage::IopsFigure), QStringLiteral("—"));

    auto *results = window.resultsPage()->model();
    ASSERT_EQ(results->rowCount(), 3);
    for (int row = 0; row < 3; ++row)
        EXPECT_GT(
            results->index(row, ResultsModel::IopsColumn).data(ResultsModel::ValueRole).toDouble(),
            0.0);
    EXPECT_NEAR(window.resultsPage()->histogramTotal(), 100.0, 0.01); // % of I/Os in the bins
    EXPECT_TRUE(window.statusText().startsWith(QStringLiteral("Idle")));
    EXPECT_EQ(window.progressValue(), 100);
    EXPECT_TRUE(window.startAction()->isEnabled());

    const auto csv = dir.path() / "r.csv";
    const auto series = dir.path() / "t.csv";
    const auto json = dir.path() / "r.json";
    const auto png = dir.path() / "iops.png";
    const auto pdf = dir.path() / "latency.pdf";
    const auto histogram = dir.path() / "histogram.png";
    EXPECT_TRUE(window.exportResultsCsv(QString::fromStdString(csv.string())));
    EXPECT_TRUE(window.exportTimeSeriesCsv(QString::fromStdString(series.string())));
    EXPECT_TRUE(window.exportResultsJson(QString::fromStdString(json.string())));
    EXPECT_TRUE(window.exportPlot(LivePlots::IopsPlot, QString::fromStdString(png.string())));
    EXPECT_TRUE(window.exportPlot(LivePlots::LatencyPlot, QString::fromStdString(pdf.string())));
    EXPECT_TRUE(window.exportHistogram(QString::fromStdString(histogram.string())));
    // Results files are written off the GUI thread (ResultsKeeper).
    ASSERT_TRUE(test::waitUntil([&] { return !window.resultsKeeper()->isBusy(); }, 30s));
    for (const auto &file : {csv, series, json, png, pdf, histogram})
        EXPECT_GT(std::filesystem::file_size(file), 100u) << file;

    // The report: one HTML file with the plots in it, each a PNG that decodes.
    const auto html = dir.path() / "report.html";
    ASSERT_TRUE(window.exportReport(QString::fromStdString(html.string())));
    // Results files are written off the GUI thread (ResultsKeeper).
    ASSERT_TRUE(test::waitUntil([&] { return !window.resultsKeeper()->isBusy(); }, 30s));
    QFile file(QString::fromStdString(html.string()));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    EXPECT_TRUE(text.contains(QStringLiteral("<h2>All steps</h2>")));
    EXPECT_TRUE(text.contains(QStringLiteral("RND4K QD4")));
    const QString marker = QStringLiteral("data:image/png;base64,");
    EXPECT_EQ(text.count(marker), LivePlots::PlotCount + 1) << "four live plots and the histogram";
    const auto start = text.indexOf(marker) + marker.size();
    const QByteArray embedded = QByteArray::fromBase64(
        text.mid(start, text.indexOf(QLatin1Char('"'), start) - start).toLatin1());
    QImage image;
    ASSERT_TRUE(image.loadFromData(embedded, "PNG"));
    EXPECT_EQ(image.width(), 960);
}

// The null backend, but a test file in a directory that does not exist is refused while
// preparing, as the platform backends refuse it.
class MissingDirectoryBackend final : public core::IoBackend
{
public:
    std::string engineName() const override { return "null"; }
    std::vector<std::string> notices() const override { return {}; }
    bool reachesDevices() const override { return false; }
    core::Result<core::TargetInfo> prepareTarget(const core::Target &target,
        const core::PrepareOptions &options, const core::PrepareProgress &progress) override
    {
        if (target.path.find("/missing/") != std::string::npos)
            return core::OpError {std::make_error_code(std::errc::no_such_file_or_directory),
                "create test file", target.path, "the directory does not exist"};
        return m_null.prepareTarget(target, options, progress);
    }
    core::Result<std::unique_ptr<core::IoEngine>> makeEngine() override
    {
        return m_null.makeEngine();
    }

private:
    core::NullBackend m_null;
};

// The null backend, taking whatever polling a run asks for and keeping what it was asked.
class PollingRecordingBackend final : public core::IoBackend
{
public:
    explicit PollingRecordingBackend(std::shared_ptr<std::vector<core::EnginePolling>> asked)
        : m_asked(std::move(asked))
    { }
    std::string engineName() const override { return "null"; }
    std::vector<std::string> notices() const override { return {}; }
    bool reachesDevices() const override { return false; }
    std::optional<core::OpError> setPolling(const core::EnginePolling &polling) override
    {
        m_asked->push_back(polling);
        return std::nullopt;
    }
    core::Result<core::TargetInfo> prepareTarget(const core::Target &target,
        const core::PrepareOptions &options, const core::PrepareProgress &progress) override
    {
        return m_null.prepareTarget(target, options, progress);
    }
    core::Result<std::unique_ptr<core::IoEngine>> makeEngine() override
    {
        return m_null.makeEngine();
    }

private:
    std::shared_ptr<std::vector<core::EnginePolling>> m_asked;
    core::NullBackend m_null;
};

// Peak mode (issue 31): two boxes beside the engine where io_uring is offered, greyed
// out (and not sent) for an engine that cannot be io_uring, kept in the settings, and
// what Start sends to the run; the reap batch beside them, for every engine.
TEST(MainWindow, PeakModeIsOfferedWithIoUringSentWithTheRunAndKept)
{
    test::ensureApp();
    test::TempDir dir;
    auto asked = std::make_shared<std::vector<core::EnginePolling>>();
    PlatformServices services = ioprism::test::testServices();
    services.makeBackend = [asked](core::EngineKind) -> std::unique_ptr<core::IoBackend> {
        return std::make_unique<PollingRecordingBackend>(asked);
    };
    {
        MainWindow window(services, isolated(dir));
        SetupPage *page = window.setupPage();
        QCheckBox *completions = page->pollCompletionsField();
        QCheckBox *submissions = page->pollSubmissionsField();
        ASSERT_TRUE(completions && submissions);
        EXPECT_FALSE(completions->toolTip().isEmpty());
        EXPECT_TRUE(completions->toolTip().contains(QStringLiteral("queue/io_poll")));
        EXPECT_FALSE(submissions->toolTip().isEmpty());
        EXPECT_TRUE(completions->isEnabled());
        EXPECT_EQ(page->polling(), core::EnginePolling {});
        completions->setChecked(true);
        EXPECT_EQ(page->polling(), (core::EnginePolling {.completions = true}));
        ASSERT_TRUE(page->setEngine(core::EngineKind::Sync));
        EXPECT_FALSE(completions->isEnabled());
        EXPECT_FALSE(submissions->isEnabled());
        EXPECT_EQ(page->polling(), core::EnginePolling {}) << "the sync engine has no polling";
        ASSERT_TRUE(page->setEngine(core::EngineKind::IoUring));
        EXPECT_TRUE(completions->isEnabled());
        submissions->setChecked(true);
        EXPECT_EQ(
            page->polling(), (core::EnginePolling {.completions = true, .submissions = true}));

        ASSERT_NE(page->reapBatchField(), nullptr);
        EXPECT_FALSE(page->reapBatchField()->toolTip().isEmpty());
        EXPECT_EQ(page->reapBatch(), 1u);
        page->reapBatchField()->setValue(4);

        window.document()->setProfile(test::smallProfile(1s, 100ms));
        RunResultPtr finished;
        QObject::connect(&window, &MainWindow::runFinished, [&](RunResultPtr r) { finished = r; });
        ASSERT_TRUE(window.startRun());
        ASSERT_TRUE(test::waitUntil([&] { return finished != nullptr; }, 30s));
        EXPECT_EQ(finished->environment.reapBatch, 4u) << "the reap batch reached the run";
        ASSERT_EQ(asked->size(), 1u);
        EXPECT_EQ(asked->back(), (core::EnginePolling {.completions = true, .submissions = true}));
    }
    {
        MainWindow window(services, isolated(dir));
        EXPECT_EQ(window.setupPage()->polling(),
            (core::EnginePolling {.completions = true, .submissions = true}))
            << "restored from the settings";
        EXPECT_EQ(window.setupPage()->reapBatch(), 4u);
    }
    // Windows: no io_uring, no peak mode.
    auto windows = ioprism::test::testServices();
    windows.engines = {core::EngineKind::Auto, core::EngineKind::Iocp, core::EngineKind::Null};
    MainWindow window(windows, isolated(dir));
    EXPECT_EQ(window.setupPage()->pollCompletionsField(), nullptr);
    EXPECT_EQ(window.setupPage()->polling(), core::EnginePolling {});
}

// Issue 13 item 7: a Start that fails before measuring (a missing directory) keeps the
// previous run's results on the Results page, exportable, and says so.
TEST(MainWindow, AStartThatFailsBeforeMeasuringKeepsThePreviousResults)
{
    test::ensureApp();
    test::TempDir dir;
    PlatformServices services = ioprism::test::testServices();
    services.makeBackend = [](core::EngineKind) -> std::unique_ptr<core::IoBackend> {
        return std::make_unique<MissingDirectoryBackend>();
    };
    MainWindow window(services, isolated(dir));
    window.document()->setProfile(test::smallProfile(1s, 100ms));
    RunResultPtr finished;
    QObject::connect(&window, &MainWindow::runFinished, [&](RunResultPtr r) { finished = r; });
    ASSERT_TRUE(window.startRun());
    ASSERT_TRUE(test::waitUntil([&] { return finished != nullptr; }, 30s));
    ASSERT_FALSE(finished->error) << finished->error->toString();
    const RunResultPtr first = finished;
    ASSERT_EQ(window.resultsPage()->model()->rowCount(), 3);

    core::Profile missing = test::smallProfile(1s, 100ms);
    missing.hosts[0].workers[0].targets[0].path = dir.path().string() + "/missing/t.dat";
    window.document()->setProfile(missing);
    finished.reset();
    ASSERT_TRUE(window.startRun());
    ASSERT_TRUE(test::waitUntil([&] { return finished != nullptr; }, 30s));
    ASSERT_TRUE(finished->error);
    EXPECT_TRUE(finished->steps.empty());
    EXPECT_EQ(window.resultsPage()->result(), first) << "the previous results are still shown";
    EXPECT_EQ(window.resultsPage()->model()->rowCount(), 3);
    const auto json = dir.path() / "kept.json";
    EXPECT_TRUE(window.exportResultsJson(QString::fromStdString(json.string())));
    // Results files are written off the GUI thread (ResultsKeeper).
    ASSERT_TRUE(test::waitUntil([&] { return !window.resultsKeeper()->isBusy(); }, 30s));
    EXPECT_GT(std::filesystem::file_size(json), 100u);
    EXPECT_TRUE(window.statusText().contains(QStringLiteral("previous run")))
        << window.statusText().toStdString();
}

TEST(MainWindow, AnInvalidProfileDoesNotStartAndSaysWhy)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), isolated(dir));
    core::Profile profile = test::smallProfile();
    profile.specs[0].lines[0].percentRead = 140;
    window.document()->setProfile(profile);
    EXPECT_FALSE(window.startRun());
    EXPECT_FALSE(window.runController()->isRunning());
    EXPECT_EQ(window.messageBar()->currentLevel(), MessageBar::Level::Error);
    // Named as the window names it: the spec, its line and the column's label.
    const QString expected = QStringLiteral("spec “%1”, line 1, % read: 140 is above 100")
                                 .arg(QString::fromStdString(profile.specs[0].name));
    EXPECT_TRUE(window.messageBar()->currentDetails().contains(expected))
        << window.messageBar()->currentDetails().toStdString();
    EXPECT_FALSE(window.messageBar()->currentDetails().contains(QStringLiteral("specs[0]")));
}

PlatformServices servicesWithDevice(bool mounted)
{
    PlatformServices services = ioprism::test::testServices();
    services.listTargets = [mounted] {
        TargetCandidate disk;
        disk.kind = core::TargetKind::BlockDevice;
        disk.path = "/dev/fakedisk";
        disk.model = "Fake SSD 1000";
        disk.sizeBytes = 8 * core::kGiB;
        if (mounted)
            disk.mountPoints = {"/mnt/fake"};
        return std::vector<TargetCandidate> {disk};
    };
    return services;
}

core::Profile writingToDevice()
{
    core::Profile profile = test::smallProfile(1s, 100ms);
    auto &target = profile.hosts[0].workers[0].targets[0];
    target.kind = core::TargetKind::BlockDevice;
    target.path = "/dev/fakedisk";
    target.region.sizeBytes = 64 * core::kMiB; // the null backend sizes a device by its region
    return profile; // the spec is 70 % read: it writes
}

TEST(MainWindow, WritingToAMountedDeviceIsRefused)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(servicesWithDevice(true), isolated(dir));
    window.document()->setProfile(writingToDevice());
    EXPECT_FALSE(window.startRun());
    EXPECT_FALSE(window.runController()->isRunning());
    EXPECT_EQ(window.messageBar()->currentLevel(), MessageBar::Level::Error);
    EXPECT_TRUE(window.messageBar()->currentDetails().contains(
        QStringLiteral("/dev/fakedisk: mounted at /mnt/fake")));
}

// Issue 24 item 15: a user without the right to open the device heard "destroy the data?"
// first and "Permission denied" after. The rights are checked before anything is asked.
TEST(MainWindow, ADeviceThisUserMayNotOpenIsSaidBeforeTheDestroyDialog)
{
    test::ensureApp();
    test::TempDir dir;
    PlatformServices services = servicesWithDevice(false);
    std::vector<std::pair<std::string, bool>> asked;
    services.targetAccess = [&](const std::string &path, bool write) {
        asked.emplace_back(path, write);
        return path == "/dev/fakedisk" ? core::TargetAccess {core::TargetAccess::Way::Denied,
                   "alice may not write /dev/fakedisk: the node is root:disk 0660"}
                                       : core::TargetAccess {};
    };
    MainWindow window(services, isolated(dir));
    window.document()->setProfile(writingToDevice());
    EXPECT_FALSE(window.startRun());
    EXPECT_EQ(window.findChild<QMessageBox *>(), nullptr) << "nothing is asked";
    EXPECT_FALSE(window.runController()->isRunning());
    EXPECT_EQ(window.messageBar()->currentLevel(), MessageBar::Level::Error);
    EXPECT_TRUE(window.messageBar()->currentText().contains(QStringLiteral("root:disk 0660")))
        << window.messageBar()->currentText().toStdString();
    ASSERT_FALSE(asked.empty());
    EXPECT_EQ(asked.front(), (std::pair<std::string, bool> {"/dev/fakedisk", true}));
    // IOPRISM_TEST_SHOTS=DIR keeps a picture of the refusal, to look at.
    if (const char *shots = std::getenv("IOPRISM_TEST_SHOTS")) {
        window.resize(1100, 500);
        window.show();
        QApplication::processEvents();
        window.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/device-rights.png"));
    }
}

TEST(MainWindow, WritingToADeviceAsksFirstNamingItAndItsSize)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(servicesWithDevice(false), isolated(dir));
    window.document()->setProfile(writingToDevice());
    RunResultPtr finished;
    QObject::connect(&window, &MainWindow::runFinished, [&](RunResultPtr r) { finished = r; });

    ASSERT_TRUE(window.startRun());
    EXPECT_FALSE(window.runController()->isRunning()); // waiting for the answer
    QMessageBox *box = nullptr;
    ASSERT_TRUE(test::waitUntil(
        [&] {
            box = window.findChild<QMessageBox *>();
            return box && box->isVisible();
        },
        5s));
    EXPECT_TRUE(box->text().contains(QStringLiteral("/dev/fakedisk")));
    EXPECT_TRUE(box->text().contains(QStringLiteral("8 GiB")));
    EXPECT_TRUE(box->text().contains(QStringLiteral("Fake SSD 1000")));
    EXPECT_FALSE(box->text().contains(QStringLiteral("udisks2")))
        << "this user opens it: the system asks nothing";
    QAbstractButton *destroy = nullptr;
    for (auto *button : box->buttons())
        if (box->buttonRole(button) == QMessageBox::DestructiveRole)
            destroy = button;
    ASSERT_NE(destroy, nullptr);
    destroy->click();
    ASSERT_TRUE(test::waitUntil([&] { return finished != nullptr; }, 30s));
    EXPECT_FALSE(finished->error) << finished->error->toString();
}

// Issue 26: a device this user may not open but udisks2 may is no refusal: the question
// names what is on the device and says that the system asks next.
TEST(MainWindow, ADeviceTheBrokerOpensIsConfirmedSayingTheSystemAsksNext)
{
    test::ensureApp();
    test::TempDir dir;
    PlatformServices services = servicesWithDevice(false);
    const auto listed = services.listTargets;
    services.listTargets = [listed] {
        auto candidates = listed();
        candidates[0].contents = "ext4 file system “data”";
        return candidates;
    };
    services.targetAccess = [](const std::string &path, bool) {
        return path == "/dev/fakedisk" ? core::TargetAccess {core::TargetAccess::Way::Broker,
                   "udisks2 opens /dev/fakedisk after the system asks you"}
                                       : core::TargetAccess {};
    };
    MainWindow window(services, isolated(dir));
    window.document()->setProfile(writingToDevice());
    ASSERT_TRUE(window.startRun()) << window.messageBar()->currentText().toStdString();
    QMessageBox *box = nullptr;
    ASSERT_TRUE(test::waitUntil(
        [&] {
            box = window.findChild<QMessageBox *>();
            return box && box->isVisible();
        },
        5s));
    EXPECT_TRUE(box->text().contains(QStringLiteral("/dev/fakedisk")));
    EXPECT_TRUE(box->text().contains(QStringLiteral("Fake SSD 1000")));
    EXPECT_TRUE(box->text().contains(QStringLiteral("ext4 file system “data”")))
        << box->text().toStdString();
    EXPECT_TRUE(box->text().contains(QStringLiteral("asks for your permission")))
        << box->text().toStdString();
    EXPECT_TRUE(box->text().contains(QStringLiteral("udisks2")));
    box->button(QMessageBox::Cancel)->click();
    QCoreApplication::processEvents();
    EXPECT_FALSE(window.runController()->isRunning());
}

TEST(MainWindow, DecliningTheDeviceWriteConfirmationDoesNotRun)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(servicesWithDevice(false), isolated(dir));
    window.document()->setProfile(writingToDevice());
    ASSERT_TRUE(window.startRun());
    QMessageBox *box = nullptr;
    ASSERT_TRUE(test::waitUntil(
        [&] {
            box = window.findChild<QMessageBox *>();
            return box && box->isVisible();
        },
        5s));
    box->button(QMessageBox::Cancel)->click();
    QCoreApplication::processEvents();
    EXPECT_FALSE(window.runController()->isRunning());
    EXPECT_EQ(window.runController()->activeRunCount(), 0);
}

} // namespace
} // namespace ioprism::ui
