// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/main_window.h"

#include "core/library/run_library.h"
#include "core/profile/icf.h"
#include "core/profile/presets.h"
#include "core/profile/profile_file.h"
#include "core/profile/profile_json.h"
#include "core/report/csv.h"
#include "core/report/html_report.h"
#include "core/report/results_json.h"
#include "core/report/results_reader.h"
#include "core/run/plan.h"
#include "core/run/run.h"
#include "ui/editors/field_marks.h"
#include "ui/editors/worker_panel.h"
#include "ui/format.h"
#include "ui/help.h"
#include "ui/icons.h"
#include "ui/message_bar.h"
#include "ui/models/history_model.h"
#include "ui/models/managers.h"
#include "ui/models/profile_defaults.h"
#include "ui/models/profile_document.h"
#include "ui/models/targets_model.h"
#include "ui/pages/compare_page.h"
#include "ui/pages/history_page.h"
#include "ui/pages/live_page.h"
#include "ui/pages/results_page.h"
#include "ui/pages/series_page.h"
#include "ui/pages/setup_page.h"
#include "ui/pages/specs_page.h"
#include "ui/pages/target_dialogs.h"
#include "ui/pages/targets_page.h"
#include "ui/plots/qcp_library.h"
#include "ui/plots/series_data.h"
#include "ui/profile_files.h"
#include "ui/results_exports.h"
#include "ui/results_keeper.h"
#include "ui/run/run_controller.h"
#include "ui/run/run_status.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QDateTime>
#include <QDesktopServices>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSaveFile>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStorageInfo>
#include <QTabWidget>
#include <QThread>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>
#include <QWhatsThis>

#include <algorithm>
#include <array>
#include <cmath>

namespace ioprism::ui {

namespace {
// The message bar's topic for why Start refused: it goes when the profile changes.
const QString kRunRefusalTopic = QStringLiteral("run-refusal");
} // namespace

QSize fitWindowSize(QSize preferred, QSize available)
{
    // Room for a typical frame and title bar: the size set is the client area's.
    const QSize frame(16, 48);
    const QSize room = (available - frame).expandedTo(QSize(320, 240));
    return preferred.boundedTo(room);
}

namespace {

QString phaseName(core::RunPhase phase)
{
    switch (phase) {
    case core::RunPhase::Idle:
        return MainWindow::tr("idle");
    case core::RunPhase::Preparing:
        return MainWindow::tr("preparing");
    case core::RunPhase::Preconditioning:
        return MainWindow::tr("preconditioning");
    case core::RunPhase::RampUp:
        return MainWindow::tr("ramp-up");
    case core::RunPhase::Measuring:
        return MainWindow::tr("running");
    case core::RunPhase::Stopping:
        return MainWindow::tr("stopping");
    case core::RunPhase::Done:
        return MainWindow::tr("done");
    case core::RunPhase::Pausing:
        return MainWindow::tr("pausing");
    }
    return {};
}

} // namespace

MainWindow::MainWindow(PlatformServices services, MainWindowOptions options, QWidget *parent)
    : QMainWindow(parent)
    , m_services(std::move(services))
    , m_options(std::move(options))
    , m_document(new ProfileDocument(this))
    , m_managers(new Managers(this))
    , m_controller(new RunController(servicesWithManagers(m_services, m_managers), this))
    , m_messageBar(new MessageBar(this))
    , m_tabs(new QTabWidget(this))
    , m_workerPanel(new WorkerPanel(m_document, this))
    , m_targetsPage(new TargetsPage(m_document, this))
    , m_specsPage(new SpecsPage(m_document, this))
    , m_setupPage(new SetupPage(m_document, m_services.engines, this))
    , m_livePage(new LivePage(this))
    , m_resultsPage(new ResultsPage(this))
    , m_seriesPage(new SeriesPage(this))
    , m_historyPage(new HistoryPage(this))
    , m_comparePage(new ComparePage(this))
    , m_keeper(new ResultsKeeper(this))
{
    m_targetsPage->model()->setTargetCheck(m_services.targetExists);
    m_targetsPage->model()->setPathComparison(m_services.samePath);
    m_targetsPage->model()->setFileReader(m_services.readFileHead);
    setWindowIcon(icon(IconId::App));
    // The available area of the screen the window opens on; a test platform may have none.
    const QSize available = screen() ? screen()->availableGeometry().size() : QSize(1440, 900);
    setMinimumSize(fitWindowSize(QSize(960, 640), available));
    resize(fitWindowSize(QSize(1440, 900), available));
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    createPages();
    m_files = std::make_unique<ProfileFiles>(ProfileFiles::Parts {this, m_document, m_messageBar,
        m_services, nullptr, [this](const QString &path) { askOpen(path); }});
    m_exports = std::make_unique<ResultsExports>(ResultsExports::Parts {
        this, m_messageBar, m_keeper, m_livePage, m_resultsPage, m_seriesPage, m_comparePage});
    QDockWidget *dock = createDock();
    createActions();
    createMenus();
    m_presetsMenu->menuAction()->setToolTip(tr("Apply a built-in set of specs"));
    if (auto *view = menuBar()->findChild<QMenu *>(QStringLiteral("viewMenu")))
        view->insertAction(view->actions().value(0), dock->toggleViewAction());
    createToolBar();
    createStatusBar();

    connectPages();
    connectRuns();

    QDir().mkpath(dataDirectory());
    refreshTargets();
    restoreSession();
    m_workerPanel->setCurrentWorker(m_document->workerCount() > 0 ? 0 : -1);
    m_targetsPage->setWorker(m_workerPanel->currentWorker());
    m_specsPage->setWorker(m_workerPanel->currentWorker());
    updateTitle();
    updateRunActions();
}

void MainWindow::createPages()
{
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_messageBar);
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_targetsPage, icon(IconId::Disk), tr("&Targets"));
    m_tabs->addTab(m_specsPage, icon(IconId::Specs), tr("Access &Specifications"));
    m_tabs->addTab(m_setupPage, icon(IconId::Setup), tr("Test Set&up"));
    m_tabs->addTab(m_livePage, icon(IconId::Plot), tr("&Live"));
    m_tabs->addTab(m_resultsPage, icon(IconId::Results), tr("&Results"));
    m_tabs->addTab(m_seriesPage, icon(IconId::Plot), tr("Ser&ies"));
    m_tabs->addTab(m_historyPage, icon(IconId::Results), tr("&History"));
    m_tabs->addTab(m_comparePage, icon(IconId::Plot), tr("&Compare"));
    connect(m_comparePage, &ComparePage::exportReportRequested, this, [this] {
        askExport(tr("Export the comparison"), tr("HTML files (*.html)"), QStringLiteral("html"),
            [this](const QString &p) { return exportComparisonReport(p); });
    });
    m_tabs->setTabToolTip(
        TargetsTab, tr("Disks, partitions and test files of the selected worker"));
    m_tabs->setTabToolTip(
        SpecsTab, tr("Access specifications and the selected worker's run order"));
    m_tabs->setTabToolTip(SetupTab,
        tr("Run time, ramp-up, sampling interval, seed, Iometer's cycling, series, engine"));
    m_tabs->setTabToolTip(LiveTab, tr("Live figures and plots of the running test"));
    m_tabs->setTabToolTip(ResultsTab, tr("Results of the last run, step by step"));
    m_tabs->setTabToolTip(
        SeriesTab, tr("The series' curves or heat map over the swept parameters, point by point"));
    m_tabs->setTabVisible(SeriesTab, false);
    m_tabs->setTabToolTip(
        HistoryTab, tr("Every run kept: open, compare, rename, tag, annotate, delete, run again"));
    m_tabs->setTabToolTip(CompareTab,
        tr("Runs side by side: curves overlaid, the change of each figure, what differs"));
    m_tabs->setTabVisible(CompareTab, false);
    setAcceptDrops(true); // profiles, .icf files and results files dropped on the window
}

QDockWidget *MainWindow::createDock()
{
    auto *dock = new QDockWidget(tr("Topology"), this);
    dock->setObjectName(QStringLiteral("topologyDock"));
    dock->setWidget(m_workerPanel);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable
        | QDockWidget::DockWidgetClosable);
    dock->setToolTip(tr("This host, its workers and their targets"));
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    // A quarter of a small window at most, so the pages keep their columns at 1024 pixels.
    resizeDocks({dock}, {std::min(300, width() / 4)}, Qt::Horizontal);

    return dock;
}

// What the pages ask of the window: files, history runs, exports.
void MainWindow::connectPages()
{
    connect(m_workerPanel, &WorkerPanel::currentWorkerChanged, this, [this](int worker) {
        m_targetsPage->setWorker(worker);
        m_specsPage->setWorker(worker);
    });
    connect(m_targetsPage, &TargetsPage::refreshRequested, this, &MainWindow::refreshTargets);
    std::function<void()> restart;
    if (m_services.needsElevation && m_services.restartElevated)
        restart = [this] { restartElevated(); };
    m_targetsPage->dialogs()->setContext(
        {dataDirectory(), m_services.detectTargetKind, m_services.readFileHead,
            m_services.targetAccess, m_messageBar, m_services.needsElevation, restart});
    connect(m_setupPage, &SetupPage::engineChanged, this, [](core::EngineKind engine) {
        QSettings().setValue(QStringLiteral("run/engine"), int(engine));
    });
    connect(m_setupPage, &SetupPage::pollingChanged, this, [this] { savePolling(); });
    connect(m_setupPage, &SetupPage::reapBatchChanged, this,
        [](std::uint32_t batch) { QSettings().setValue(QStringLiteral("run/reapBatch"), batch); });
    connect(m_document, &ProfileDocument::modifiedChanged, this, &MainWindow::updateTitle);
    // Why Start refused describes the profile as it was: it goes when the profile changes
    // (an edit, a preset, another file), and Start says anew what still stands in the way.
    const auto clearRefusal = [this] { m_messageBar->clearTopic(kRunRefusalTopic); };
    connect(m_document, &ProfileDocument::profileReset, this, clearRefusal);
    connect(m_document, &ProfileDocument::structureChanged, this, clearRefusal);
    connect(m_document, &ProfileDocument::valuesChanged, this, clearRefusal);
    connect(m_document, &ProfileDocument::problemsChanged, this, clearRefusal);
    connect(m_document, &ProfileDocument::filePathChanged, this, &MainWindow::updateTitle);

    m_historyPage->setDirectory(m_options.runLibraryDirectory.toStdString(), m_services.readFile);
    connect(m_historyPage, &HistoryPage::openRequested, this, [this](const QString &file) {
        askDiscardResults(tr("opening another run"), [this, file](bool) { openResults(file); });
    });
    connect(m_historyPage, &HistoryPage::compareRequested, this, &MainWindow::compareFiles);
    connect(m_historyPage, &HistoryPage::runAgainRequested, this, [this](const QString &file) {
        askDiscardChanges([this, file] { loadProfileOfResults(file); });
    });
    connect(m_historyPage, &HistoryPage::message, this,
        [this](const QString &text) { m_messageBar->showMessage(MessageBar::Level::Error, text); });
    connect(m_livePage->plots(), &LivePlots::exportRequested, this, [this](LivePlots::PlotId id) {
        askExport(tr("Save the %1 plot").arg(m_livePage->plots()->plotTitle(id)),
            tr("PNG image (*.png);;PDF document (*.pdf)"), QStringLiteral("png"),
            [this, id](const QString &path) { return exportPlot(id, path); });
    });
    connect(
        m_seriesPage->plots(), &SeriesPlots::exportRequested, this, [this](SeriesPlots::PlotId id) {
            askExport(tr("Save the %1").arg(m_seriesPage->plots()->plotTitle(id).toLower()),
                tr("PNG image (*.png);;PDF document (*.pdf)"), QStringLiteral("png"),
                [this, id](const QString &path) { return exportSeriesPlot(id, path); });
        });
    connect(m_resultsPage, &ResultsPage::exportHistogramRequested, this, [this] {
        askExport(tr("Save the latency histogram"), tr("PNG image (*.png);;PDF document (*.pdf)"),
            QStringLiteral("png"), [this](const QString &path) { return exportHistogram(path); });
    });
}

// The run controller's reports, on the status bar and the pages.
void MainWindow::connectRuns()
{
    connect(m_controller, &RunController::phaseChanged, this, &MainWindow::onPhase);
    connect(m_controller, &RunController::prepareProgress, this, &MainWindow::onPrepareProgress);
    connect(m_controller, &RunController::intervalReady, m_livePage, &LivePage::addSample);
    connect(m_controller, &RunController::steadyStateChanged, this,
        [this](quint64, int step, const core::SteadyStateRecord &record) {
            m_livePage->plots()->setSteadyState(step, record);
        });
    connect(m_controller, &RunController::planReady, this,
        [this](quint64, const std::vector<core::PlannedStep> &steps) {
            // The checked plan may leave out series points a target cannot run.
            m_status->setStepCount(static_cast<int>(steps.size()));
            if (m_seriesRun)
                m_seriesPage->setPlan(steps);
        });
    connect(m_controller, &RunController::stepFinished, this,
        [this](quint64, const core::StepResult &step, const core::PlannedStep &planned) {
            if (m_seriesRun)
                m_seriesPage->addStep(step, planned);
        });
    connect(m_controller, &RunController::notice, this, [this](quint64, const QString &text) {
        m_messageBar->showMessage(MessageBar::Level::Information, text);
    });
    connect(m_controller, &RunController::finished, this, &MainWindow::onFinished);
    connect(m_controller, &RunController::runningChanged, this, &MainWindow::updateRunActions);
}

MainWindow::~MainWindow() = default;

// ---------------------------------------------------------------- session

QString MainWindow::dataDirectory() const
{
    if (!m_options.dataDirectory.isEmpty())
        return m_options.dataDirectory;
    // The local, not the roaming, application data: on Windows a roaming profile would copy
    // a 1 GiB test file at every logon, and the run library (platform::runLibraryDirectory)
    // is under %LOCALAPPDATA% too. On Linux both are ~/.local/share/<application>.
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
}

QString MainWindow::defaultTestFile() const
{
    return QDir(dataDirectory()).filePath(QString::fromLatin1(kTestFileName));
}

void MainWindow::restoreSession()
{
    QSettings settings;
    // A stored kind this page does not offer (an old or foreign settings file) falls back
    // to Automatic, the page's first entry.
    if (!m_setupPage->setEngine(static_cast<core::EngineKind>(
            settings.value(QStringLiteral("run/engine"), int(core::EngineKind::Auto)).toInt())))
        m_setupPage->setEngine(core::EngineKind::Auto);
    m_setupPage->setPolling(
        {.completions = settings.value(QStringLiteral("run/pollCompletions"), false).toBool(),
            .submissions = settings.value(QStringLiteral("run/pollSubmissions"), false).toBool()});
    m_setupPage->setReapBatch(settings.value(QStringLiteral("run/reapBatch"), 1u).toUInt());
    if (m_options.restoreSession) {
        restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
        restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
        const QString text = settings.value(QStringLiteral("session/profile")).toString();
        if (!text.isEmpty()) {
            core::Problems problems;
            if (auto profile = core::parseProfileJson(toStdString(text), problems)) {
                m_document->setProfile(std::move(*profile),
                    settings.value(QStringLiteral("session/filePath")).toString());
                m_document->setModified(
                    settings.value(QStringLiteral("session/modified")).toBool());
                return;
            }
            m_messageBar->showMessage(MessageBar::Level::Warning,
                tr("The last session's profile could not be read; starting from the quick preset."),
                problemsText(problems));
        }
    }
    // First launch: nothing to set up. One worker, the quick preset, a test file in the
    // user's data folder.
    m_document->setProfile(
        firstLaunchProfile(toStdString(QDir::toNativeSeparators(defaultTestFile()))));
}

void MainWindow::saveSession() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("session/profile"),
        toQString(core::writeProfileJson(m_document->profile())));
    settings.setValue(QStringLiteral("session/filePath"), m_document->filePath());
    settings.setValue(QStringLiteral("session/modified"), m_document->isModified());
    settings.setValue(QStringLiteral("run/engine"), int(m_setupPage->engine()));
    settings.setValue(QStringLiteral("run/reapBatch"), m_setupPage->reapBatch());
    savePolling();
}

// The boxes as ticked (a box greyed out by the engine keeps its tick for io_uring).
void MainWindow::savePolling() const
{
    QSettings settings;
    if (const QCheckBox *box = m_setupPage->pollCompletionsField())
        settings.setValue(QStringLiteral("run/pollCompletions"), box->isChecked());
    if (const QCheckBox *box = m_setupPage->pollSubmissionsField())
        settings.setValue(QStringLiteral("run/pollSubmissions"), box->isChecked());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // Results being written (into the history, a results file) are not cut off: the
    // window closes once they are, and asks first if they could not be.
    if (m_keeper->isBusy()) {
        event->ignore();
        if (!m_closeWhenKept) {
            m_closeWhenKept = true;
            connect(
                m_keeper, &ResultsKeeper::idle, this,
                [this] {
                    m_closeWhenKept = false;
                    close();
                },
                Qt::SingleShotConnection);
        }
        return;
    }
    // Results saved nowhere are not lost without asking (the profile is kept in the
    // settings, edits included: no question about it).
    if (hasUnsavedResults() && !m_quitConfirmed) {
        event->ignore();
        askDiscardResults(tr("quitting"), [this](bool) {
            m_quitConfirmed = true;
            close();
        });
        return;
    }
    saveSession();
    m_controller->stop();
    event->accept();
}

void MainWindow::refreshTargets()
{
    std::vector<TargetCandidate> candidates;
    if (m_services.listTargets)
        candidates = m_services.listTargets();
    // The user's data folder always offers a test-file location (the first launch's).
    TargetCandidate data;
    data.kind = core::TargetKind::TestFile;
    data.path = toStdString(QDir::toNativeSeparators(defaultTestFile()));
    data.name = toStdString(tr("data folder"));
    const QStorageInfo storage(dataDirectory());
    if (storage.isValid()) {
        data.sizeBytes = static_cast<std::uint64_t>(storage.bytesTotal());
        data.freeBytes = static_cast<std::uint64_t>(storage.bytesAvailable());
        data.fsType = storage.fileSystemType().toStdString();
        data.mountPoints = {toStdString(QDir::toNativeSeparators(storage.rootPath()))};
    }
    const bool listed
        = std::any_of(candidates.begin(), candidates.end(), [&](const TargetCandidate &c) {
              return m_targetsPage->model()->samePath(c.path, data.path);
          });
    if (!listed)
        candidates.insert(candidates.begin(), data);
    m_targetsPage->model()->setCandidates(std::move(candidates));
}

void MainWindow::addTestFile(const std::string &path)
{
    m_targetsPage->dialogs()->addTestFile(path);
}

void MainWindow::addFileTree(const std::string &folder)
{
    m_targetsPage->dialogs()->addFileTree(folder);
}

void MainWindow::askRepoint(int row)
{
    m_targetsPage->dialogs()->askRepoint(row);
}

void MainWindow::updateTitle()
{
    const QString path = m_document->filePath();
    setWindowFilePath(path);
    const QString name = path.isEmpty() ? tr("Untitled") : QFileInfo(path).fileName();
    setWindowTitle(tr("%1[*] — IOPrism").arg(name));
    setWindowModified(m_document->isModified());
}

// ---------------------------------------------------------------- profiles

void MainWindow::newProfile()
{
    askDiscardChanges([this] {
        askDiscardResults(tr("starting a new profile"), [this](bool discarded) {
            if (discarded)
                clearResults();
            const int cpus = std::max(1, QThread::idealThreadCount());
            m_document->setProfile(
                ui::newProfile(cpus, toStdString(QDir::toNativeSeparators(defaultTestFile()))));
            m_workerPanel->setCurrentWorker(0);
            showPage(TargetsTab);
        });
    });
}

bool MainWindow::applyPreset(const std::string &name)
{
    core::Problems problems;
    auto preset = core::loadPreset(name, problems);
    if (!preset) {
        m_messageBar->showMessage(MessageBar::Level::Error,
            tr("The preset \"%1\" cannot be loaded.").arg(toQString(name)), problemsText(problems));
        return false;
    }
    const QString path = m_document->filePath();
    const int host = m_document->currentHost();
    const int worker = m_workerPanel->currentWorker();
    // Its description and spec names in the UI's language: they become the profile's.
    *preset = localizedPreset(*preset, name);
    m_document->setProfile(ui::applyPreset(m_document->profile(), *preset,
                               toStdString(QDir::toNativeSeparators(defaultTestFile()))),
        path);
    m_document->setModified(true);
    // The same profile with other specs: the manager and worker edited stay so.
    m_document->setCurrentHost(host);
    m_workerPanel->setCurrentWorker(std::max(0, worker));
    m_messageBar->showMessage(MessageBar::Level::Information,
        tr("Applied the preset \"%1\": %2; your workers and targets are kept.")
            .arg(toQString(name), tr("%n specs", nullptr, int(preset->specs.size()))),
        toQString(preset->setup.description));
    return true;
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls() && !event->mimeData()->urls().isEmpty()
        && event->mimeData()->urls().first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const auto urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile())
        return;
    event->acceptProposedAction();
    const QString path = urls.first().toLocalFile();
    // After the drop has returned: opening may ask about unsaved results.
    QTimer::singleShot(0, this, [this, path] {
        askDiscardResults(tr("opening another file"), [this, path](bool discarded) {
            if (discarded && !looksLikeResults(path))
                clearResults();
            openFile(path);
        });
    });
}

bool MainWindow::openFile(const QString &path)
{
    if (looksLikeResults(path)) {
        openResults(path);
        return true;
    }
    // A profile or an .icf is at most 4 MiB (core::kMaxProfileFileBytes): read here.
    if (!m_files->open(path))
        return false;
    m_workerPanel->setCurrentWorker(0);
    return true;
}

bool MainWindow::saveFile(const QString &path)
{
    return m_files->save(path);
}

QStringList MainWindow::recentFiles() const
{
    return m_files->recentFiles();
}

void MainWindow::askSaveFile(bool forceDialog)
{
    m_files->askSave(forceDialog);
}

void MainWindow::askDiscardChanges(const std::function<void()> &then)
{
    m_files->askDiscardChanges(then);
}

void MainWindow::openFileDialog(bool resultsDiscarded)
{
    m_files->askOpenPath([this, resultsDiscarded](const QString &file) {
        if (resultsDiscarded && !looksLikeResults(file))
            clearResults(); // a results file replaces them itself
        openFile(file);
    });
}

void MainWindow::askOpenFile()
{
    askDiscardChanges([this] {
        askDiscardResults(
            tr("opening another file"), [this](bool discarded) { openFileDialog(discarded); });
    });
}

// ---------------------------------------------------------------- runs

bool MainWindow::startRun()
{
    if (m_controller->isRunning())
        return false;
    // A field whose text could not be read leaves the profile at its last readable value:
    // running that would run what the window does not show.
    if (const QStringList unreadable = unreadableFields(this); !unreadable.isEmpty()) {
        m_messageBar->showMessage(MessageBar::Level::Error,
            tr("The profile cannot run: %n field(s) hold text that is not a value (red fields "
               "show where).",
                nullptr, int(unreadable.size())),
            unreadable.join(QLatin1Char('\n')), kRunRefusalTopic);
        return false;
    }
    if (m_document->hasErrors()) {
        QStringList details;
        QString firstError;
        int errors = 0;
        // Named as the window names things (the spec, the worker, the field's label), not
        // by the profile's JSON paths.
        const core::Profile &profile = m_document->profile();
        for (const auto &p : m_document->problems()) {
            details << problemText(p, profile);
            if (p.severity == core::Severity::Error && errors++ == 0)
                firstError = problemText(p, profile);
        }
        // One problem is named in the bar itself; more are counted, the first named.
        m_messageBar->showMessage(MessageBar::Level::Error,
            errors == 1 ? tr("The profile cannot run: %1").arg(firstError)
                        : tr("The profile cannot run: %1 to fix (red cells show where), the first: "
                             "%2")
                              .arg(tr("%n problems", nullptr, errors), firstError),
            details.join(QLatin1Char('\n')), kRunRefusalTopic);
        return false;
    }
    // The managers on other hosts: each connected, each one's workers valid there.
    if (const QString refusal = m_managers->refusal(m_document->profile()); !refusal.isEmpty()) {
        m_messageBar->showMessage(MessageBar::Level::Error, refusal, {}, kRunRefusalTopic);
        return false;
    }

    // Raw devices: refused when this user may not open them or one is in use, else
    // confirmed by the user (the Targets page asks).
    if (m_targetsPage->dialogs()->refuseDevices(kRunRefusalTopic))
        return false;
    m_targetsPage->dialogs()->confirmDeviceWrites(
        [this](bool allowDeviceWrites) { beginRun(allowDeviceWrites); });
    return true;
}

// The new process opens this file as a command line's profile. The document's own file
// keeps its name in the title and in Save; a profile with edits (or never saved) goes
// to a copy, written as Save writes JSON.
QString MainWindow::profileForRestart()
{
    const QString own = m_document->filePath();
    if (!own.isEmpty() && !m_document->isModified())
        return QFileInfo(own).absoluteFilePath();
    const QDir data(dataDirectory());
    if (!data.mkpath(QStringLiteral("."))) {
        m_messageBar->showMessage(MessageBar::Level::Error,
            tr("Cannot restart as administrator: the profile cannot be saved in %1")
                .arg(QDir::toNativeSeparators(data.absolutePath())),
            {}, kRunRefusalTopic);
        return {};
    }
    QString copy = data.absoluteFilePath(QStringLiteral("restart-as-administrator.json"));
    if (!m_files->writeTextFile(copy, core::writeProfileJson(m_document->profile())))
        return {};
    return copy;
}

void MainWindow::restartElevated()
{
    if (!m_services.restartElevated)
        return;
    const QString profile = profileForRestart();
    if (profile.isEmpty())
        return;
    const QStringList arguments {
        QDir::toNativeSeparators(profile), QStringLiteral("--page"), QStringLiteral("targets")};
    std::vector<std::string> list;
    for (const auto &a : arguments)
        list.push_back(toStdString(a));
    if (const core::Status started = m_services.restartElevated(list); !started) {
        m_messageBar->showMessage(MessageBar::Level::Error,
            tr("IOPrism did not restart as administrator: %1")
                .arg(toQString(started.error().toString())),
            {}, kRunRefusalTopic);
        return;
    }
    // The profile is in the new process: no question about unsaved edits or results may
    // keep this one open beside it.
    m_quitConfirmed = true;
    emit restartedElevated(arguments);
    close();
}

void MainWindow::beginRun(bool allowDeviceWrites)
{
    const auto &profile = m_document->profile();
    core::RunRequest request;
    request.profile = profile;
    request.engine = m_setupPage->engine();
    request.settings.polling = m_setupPage->polling();
    request.settings.reapBatch = m_setupPage->reapBatch();
    request.settings.allowDeviceWrites = allowDeviceWrites;
    request.settings.ioLimitPerTarget = m_ioLimitPerTarget;
    request.removeTestFiles = m_removeTestFiles->isChecked() && m_services.removeTestFile;

    m_status->begin(profile);

    m_livePage->clear();
    m_livePlotsShowLastResult = false;
    m_livePage->setHeadline(tr("Preparing the targets…"));
    // The last run's results stay on the Results page (and exportable) until this run
    // has measured something: a start that fails before measuring must not lose them.
    // A series (or queue-depth cycling) is drawn point by point on its own page.
    m_seriesRun = showsAsSeries(profile);
    if (m_seriesRun)
        m_seriesPage->beginRun(profile);
    else
        m_seriesPage->clear();
    m_tabs->setTabVisible(SeriesTab, m_seriesRun);
    m_showSeries->setEnabled(m_seriesRun);
    m_controller->start(m_managers->prepare(std::move(request)));
    showPage(LiveTab);
    updateRunActions();
}

void MainWindow::stopRun()
{
    if (!m_controller->isRunning())
        return;
    m_controller->stop();
    m_status->stopAsked();
}

void MainWindow::onPhase(quint64, core::RunPhase phase, int step, const QString &stepName)
{
    if (phase == core::RunPhase::Done)
        return; // finished() follows with the result
    m_status->setPhase(phase, step, stepName);
    m_livePage->setPhase(phase, step);
    if (phase == core::RunPhase::RampUp || phase == core::RunPhase::Measuring) {
        m_livePage->setHeadline(tr("Step %1 of %2: %3 — %4")
                                    .arg(step + 1)
                                    .arg(std::max(m_status->stepCount(), step + 1))
                                    .arg(stepName, phaseName(phase)));
    } else if (phase == core::RunPhase::Preconditioning) {
        m_livePage->setHeadline(
            tr("%1 — before the steps, in none of their figures").arg(stepName));
    } else if (phase == core::RunPhase::Stopping) {
        m_livePage->setHeadline(
            tr("Step %1: %2 — finishing in-flight I/O").arg(step + 1).arg(stepName));
    } else if (phase == core::RunPhase::Pausing) {
        m_livePage->setHeadline(
            tr("Pause before step %1: %2 — no I/O, so that the drive can drain its cache")
                .arg(step + 1)
                .arg(stepName));
    }
}

void MainWindow::onPrepareProgress(
    quint64, const QString &path, quint64 done, quint64 total, int work)
{
    m_status->setPrepareProgress(path, done, total, work);
    if (work == static_cast<int>(core::PrepareWork::Preconditioning)) {
        m_livePage->setHeadline(m_status->preconditionText(done, total));
        return;
    }
    if (work == static_cast<int>(core::PrepareWork::PreInitialising)) {
        m_livePage->setHeadline(tr("Pre-initialising %1 (%2 of %3 operations, not measured)")
                                    .arg(QDir::toNativeSeparators(path))
                                    .arg(done)
                                    .arg(total));
        return;
    }
    m_livePage->setHeadline(
        tr("Preparing the test file %1 (%2 of %3)")
            .arg(QDir::toNativeSeparators(path), capacityText(done), capacityText(total)));
}

void MainWindow::onFinished(const RunResultPtr &result)
{
    // The run made or grew its test files: the Targets page shows their sizes now.
    m_targetsPage->model()->refreshFacts();
    // A run that measured nothing (refused while preparing) leaves the previous results
    // in place, on the Results and Series pages alike.
    const bool keepPrevious = result && result->steps.empty() && m_lastResult;
    if (keepPrevious) {
        m_seriesRun = showsAsSeries(m_lastResult->plan.profile);
        if (m_seriesRun)
            m_seriesPage->setResult(m_lastResult);
        m_tabs->setTabVisible(SeriesTab, m_seriesRun);
        m_showSeries->setEnabled(m_seriesRun);
    } else {
        m_lastResult = result;
        m_livePlotsShowLastResult = true;
        m_resultsPage->setResult(result);
        if (m_seriesRun)
            m_seriesPage->setResult(result);
    }
    // Kept in the history off the GUI thread (ResultsKeeper): runFinished says the run
    // ended once it is kept, or could not be.
    const bool keeping = saveToLibrary(result, [this, result] { emit runFinished(result); });
    // What a run measured and nothing keeps is not discarded without asking (a run that
    // measured nothing left the previous results, and their state, in place).
    if (!keepPrevious)
        m_resultUnsaved = !keeping && result && !result->steps.empty();
    if (result)
        reportTestFileRemoval(result->testFileRemoval);
    QString headline;
    if (result->error) {
        QStringList details;
        details << placesInWords(toQString(result->error->toString()), result->plan.profile);
        for (const auto &n : result->notices)
            details << tr("notice: %1").arg(toQString(n));
        m_messageBar->showMessage(MessageBar::Level::Error,
            tr("The run stopped with an error: %1")
                .arg(placesInWords(toQString(result->error->toString()), result->plan.profile)),
            details.join(QLatin1Char('\n')));
        headline = !result->steps.empty()
            ? tr("The run stopped with an error; the results cover what was measured")
            : keepPrevious ? tr("The run failed before measuring; the Results page keeps the "
                                "previous run's results")
                           : tr("The run failed before measuring");
    } else if (result->stoppedByUser) {
        headline = tr("Stopped: the results cover the time measured");
    } else {
        headline = tr("Done: %1 measured").arg(tr("%n steps", nullptr, int(result->steps.size())));
    }
    m_livePage->setHeadline(headline);
    m_status->finish(result, headline);
    if (!result->error && !result->steps.empty() && m_tabs->currentIndex() == LiveTab)
        showPage(m_seriesRun ? SeriesTab : ResultsTab);
    updateRunActions();
    if (!keeping)
        emit runFinished(result);
}

void MainWindow::updateRunActions()
{
    const bool running = m_controller->isRunning();
    m_start->setEnabled(!running);
    m_stop->setEnabled(running);
    const bool results = m_lastResult != nullptr;
    m_exportCsv->setEnabled(results);
    m_exportTimeSeries->setEnabled(results);
    m_exportJson->setEnabled(results);
    m_exportReport->setEnabled(results);
    m_exportPlots.last()->setEnabled(results);
    const auto shown = m_seriesPage->plots()->shownPlots();
    for (int p = 0; p < m_exportSeriesPlots.size(); ++p)
        m_exportSeriesPlots[p]->setEnabled(m_seriesRun
            && std::find(shown.begin(), shown.end(), static_cast<SeriesPlots::PlotId>(p))
                != shown.end());
}

QString MainWindow::statusText() const
{
    return m_status->text();
}

int MainWindow::progressValue() const
{
    return m_status->progressValue();
}

QString MainWindow::progressText() const
{
    return m_status->progressText();
}

// The run removed its test files when it ended, as asked at its start
// (core::RunRequest::removeTestFiles).
void MainWindow::reportTestFileRemoval(const core::TestFileRemoval &removal)
{
    QStringList removed;
    QStringList failed;
    for (const auto &path : removal.removed)
        removed << QDir::toNativeSeparators(toQString(path));
    for (const auto &error : removal.failed)
        failed << toQString(error.toString());
    if (!failed.isEmpty())
        m_messageBar->showMessage(MessageBar::Level::Warning,
            tr("%n test file(s) could not be removed after the run", nullptr,
                static_cast<int>(failed.size())),
            failed.join(QLatin1Char('\n')));
    else if (!removed.isEmpty())
        m_messageBar->showMessage(MessageBar::Level::Information,
            tr("Removed %n test file(s) after the run", nullptr, static_cast<int>(removed.size())),
            removed.join(QLatin1Char('\n')));
}

void MainWindow::showPage(Page page)
{
    if (!m_tabs->isTabVisible(page))
        return; // the Series page without a series
    m_tabs->setCurrentIndex(page);
}

namespace {
// The pages by their command-line names, in the order of the tabs.
constexpr std::array<std::pair<MainWindow::Page, QLatin1StringView>, 8> kPageNames {{
    {MainWindow::TargetsTab, QLatin1StringView("targets")},
    {MainWindow::SpecsTab, QLatin1StringView("specs")},
    {MainWindow::SetupTab, QLatin1StringView("setup")},
    {MainWindow::LiveTab, QLatin1StringView("live")},
    {MainWindow::ResultsTab, QLatin1StringView("results")},
    {MainWindow::SeriesTab, QLatin1StringView("series")},
    {MainWindow::HistoryTab, QLatin1StringView("history")},
    {MainWindow::CompareTab, QLatin1StringView("compare")},
}};
} // namespace

std::optional<MainWindow::Page> MainWindow::pageNamed(const QString &name)
{
    for (const auto &[page, pageName] : kPageNames)
        if (name.compare(pageName, Qt::CaseInsensitive) == 0)
            return page;
    return std::nullopt;
}

QStringList MainWindow::pageNames()
{
    QStringList names;
    for (const auto &entry : kPageNames)
        names << entry.second;
    return names;
}

bool MainWindow::isPageShown(Page page) const
{
    return m_tabs->isTabVisible(page) && m_tabs->currentIndex() == page;
}

// ---------------------------------------------------------------- help

bool MainWindow::openUserGuide(const QStringList &candidates)
{
    const QString guide = findUserGuide(candidates);
    if (guide.isEmpty()) {
        const QString online = homepageUrl() + QStringLiteral("/blob/main/docs/user-guide.md");
        m_messageBar->showMessage(MessageBar::Level::Warning,
            tr("The user guide is not installed. It is online at %1.").arg(online),
            tr("Looked for it in:\n%1").arg(candidates.join(QLatin1Char('\n'))));
        return false;
    }
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(guide))) {
        m_messageBar->showMessage(MessageBar::Level::Warning,
            tr("No program is set up to open the user guide, %1.")
                .arg(QDir::toNativeSeparators(guide)));
        return false;
    }
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(guide)), 4000);
    return true;
}

// ---------------------------------------------------------------- exports

bool MainWindow::exportResultsCsv(const QString &path)
{
    return m_exports->resultsCsv(m_lastResult, path);
}

bool MainWindow::exportTimeSeriesCsv(const QString &path)
{
    return m_exports->timeSeriesCsv(m_lastResult, path);
}

bool MainWindow::exportResultsJson(const QString &path, const std::function<void()> &then)
{
    const RunResultPtr result = m_lastResult;
    const bool started = m_exports->resultsJson(result, path, [this, result, then](bool written) {
        if (!written && m_lastResult == result)
            m_resultUnsaved = true; // the message bar says why
        if (written && then)
            then();
    });
    if (started)
        m_resultUnsaved = false; // being written: File › Open shows them again
    return started;
}

bool MainWindow::exportReport(const QString &path)
{
    return m_exports->report(m_lastResult, m_livePlotsShowLastResult, m_seriesRun, path);
}

bool MainWindow::exportComparisonReport(const QString &path)
{
    return m_exports->comparisonReport(path);
}

bool MainWindow::exportPlot(LivePlots::PlotId plot, const QString &path)
{
    return m_exports->plot(plot, path);
}

bool MainWindow::exportSeriesPlot(SeriesPlots::PlotId plot, const QString &path)
{
    return m_exports->seriesPlot(plot, path);
}

bool MainWindow::exportHistogram(const QString &path)
{
    return m_exports->histogram(path);
}

void MainWindow::askExport(const QString &title, const QString &filter, const QString &suffix,
    const std::function<bool(const QString &)> &write)
{
    m_exports->ask(title, filter, suffix, write);
}

void MainWindow::saveScreenshots(const QString &directory, const std::function<void()> &done)
{
    QDir().mkpath(directory);
    // Each page is shown, laid out and painted by the event loop before it is grabbed.
    showPage(LiveTab);
    QTimer::singleShot(500, this, [this, directory, done] {
        for (int p = 0; p < LivePlots::PlotCount; ++p)
            m_livePage->plots()->plot(static_cast<LivePlots::PlotId>(p))->replot();
        grab().save(QDir(directory).filePath(QStringLiteral("live.png")));
        showPage(ResultsTab);
        QTimer::singleShot(500, this, [this, directory, done] {
            m_resultsPage->histogram()->replot();
            grab().save(QDir(directory).filePath(QStringLiteral("results.png")));
            if (!m_seriesRun) {
                if (done)
                    done();
                return;
            }
            showPage(SeriesTab);
            QTimer::singleShot(500, this, [this, directory, done] {
                for (int p = 0; p < SeriesPlots::PlotCount; ++p)
                    m_seriesPage->plots()->plot(static_cast<SeriesPlots::PlotId>(p))->replot();
                grab().save(QDir(directory).filePath(QStringLiteral("series.png")));
                if (done)
                    done();
            });
        });
    });
}

} // namespace ioprism::ui
