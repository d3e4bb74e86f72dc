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
#include "ui/pages/targets_page.h"
#include "ui/plots/series_data.h"
#include "ui/run/run_controller.h"

#include <QAction>
#include <QApplication>
#include <QBuffer>
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
#include <qcustomplot.h>

#include <algorithm>
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

constexpr int kMaxRecentFiles = 8;

QString phaseName(core::RunPhase phase)
{
    switch (phase) {
    case core::RunPhase::Idle:
        return MainWindow::tr("idle");
    case core::RunPhase::Preparing:
        return MainWindow::tr("preparing");
    case core::RunPhase::RampUp:
        return MainWindow::tr("ramp-up");
    case core::RunPhase::Measuring:
        return MainWindow::tr("running");
    case core::RunPhase::Stopping:
        return MainWindow::tr("stopping");
    case core::RunPhase::Done:
        return MainWindow::tr("done");
    }
    return {};
}

} // namespace

MainWindow::MainWindow(PlatformServices services, MainWindowOptions options, QWidget *parent)
    : QMainWindow(parent)
    , m_services(std::move(services))
    , m_options(std::move(options))
    , m_document(new ProfileDocument(this))
    , m_controller(new RunController(m_services, this))
    , m_messageBar(new MessageBar(this))
    , m_tabs(new QTabWidget(this))
    , m_workerPanel(new WorkerPanel(m_document, this))
    , m_targetsPage(new TargetsPage(m_document, this))
    , m_specsPage(new SpecsPage(m_document, this))
    , m_setupPage(new SetupPage(m_document, this))
    , m_livePage(new LivePage(this))
    , m_resultsPage(new ResultsPage(this))
    , m_seriesPage(new SeriesPage(this))
    , m_historyPage(new HistoryPage(this))
    , m_comparePage(new ComparePage(this))
{
    m_targetsPage->model()->setTargetCheck(m_services.targetExists);
    m_targetsPage->model()->setFileReader(m_services.readFileHead);
    setWindowIcon(icon(IconId::App));
    // The available area of the screen the window opens on; a test platform may have none.
    const QSize available = screen() ? screen()->availableGeometry().size() : QSize(1440, 900);
    setMinimumSize(fitWindowSize(QSize(960, 640), available));
    resize(fitWindowSize(QSize(1440, 900), available));
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

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

    auto *dock = new QDockWidget(tr("Topology"), this);
    dock->setObjectName(QStringLiteral("topologyDock"));
    dock->setWidget(m_workerPanel);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable
        | QDockWidget::DockWidgetClosable);
    dock->setToolTip(tr("This host, its workers and their targets"));
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    // A quarter of a small window at most, so the pages keep their columns at 1024 pixels.
    resizeDocks({dock}, {std::min(300, width() / 4)}, Qt::Horizontal);

    createActions();
    createMenus();
    m_presetsMenu->menuAction()->setToolTip(tr("Apply a built-in set of specs"));
    if (auto *view = menuBar()->findChild<QMenu *>(QStringLiteral("viewMenu")))
        view->insertAction(view->actions().value(0), dock->toggleViewAction());
    createToolBar();
    createStatusBar();

    connect(m_workerPanel, &WorkerPanel::currentWorkerChanged, this, [this](int worker) {
        m_targetsPage->setWorker(worker);
        m_specsPage->setWorker(worker);
    });
    connect(m_targetsPage, &TargetsPage::refreshRequested, this, &MainWindow::refreshTargets);
    connect(m_targetsPage, &TargetsPage::addTestFileRequested, this, [this] {
        auto *dialog = new QFileDialog(this, tr("Test file location"), dataDirectory(),
            tr("Test files (*.dat *.tst);;All files (*)"));
        dialog->setAcceptMode(QFileDialog::AcceptSave);
        dialog->setOption(QFileDialog::DontConfirmOverwrite);
        dialog->selectFile(QString::fromLatin1(kTestFileName));
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &file) {
            addTestFile(toStdString(QDir::toNativeSeparators(file)));
        });
        dialog->open();
    });
    connect(m_targetsPage, &TargetsPage::addFileTreeRequested, this, [this] {
        auto *dialog = new QFileDialog(this, tr("Folder for the file tree"), dataDirectory());
        dialog->setObjectName(QStringLiteral("fileTreeFolderDialog"));
        dialog->setFileMode(QFileDialog::Directory);
        dialog->setOption(QFileDialog::ShowDirsOnly);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &folder) {
            addFileTree(toStdString(QDir::toNativeSeparators(folder)));
        });
        dialog->open();
    });
    connect(m_targetsPage, &TargetsPage::repointRequested, this, &MainWindow::askRepoint);
    connect(m_setupPage, &SetupPage::engineChanged, this, [](core::EngineKind engine) {
        QSettings().setValue(QStringLiteral("run/engine"), int(engine));
    });
    connect(m_document, &ProfileDocument::modifiedChanged, this, &MainWindow::updateTitle);
    // Why Start refused describes the profile as it was: it goes when the profile changes
    // (an edit, a preset, another file), and Start says anew what still stands in the way.
    const auto clearRefusal = [this] { m_messageBar->clearTopic(kRunRefusalTopic); };
    connect(m_document, &ProfileDocument::profileReset, this, clearRefusal);
    connect(m_document, &ProfileDocument::structureChanged, this, clearRefusal);
    connect(m_document, &ProfileDocument::valuesChanged, this, clearRefusal);
    connect(m_document, &ProfileDocument::problemsChanged, this, clearRefusal);
    connect(m_document, &ProfileDocument::filePathChanged, this, &MainWindow::updateTitle);

    connect(m_controller, &RunController::phaseChanged, this, &MainWindow::onPhase);
    connect(m_controller, &RunController::prepareProgress, this, &MainWindow::onPrepareProgress);
    connect(m_controller, &RunController::intervalReady, m_livePage, &LivePage::addSample);
    connect(m_controller, &RunController::planReady, this,
        [this](quint64, const std::vector<core::PlannedStep> &steps) {
            // The checked plan may leave out series points a target cannot run.
            m_stepCount = static_cast<int>(steps.size());
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
    connect(m_controller, &RunController::runningChanged, this, &MainWindow::updateRunActions);
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

    m_statusTimer = new QTimer(this);
    m_statusTimer->setInterval(250);
    connect(m_statusTimer, &QTimer::timeout, this, &MainWindow::tickStatus);

    QDir().mkpath(dataDirectory());
    refreshTargets();
    restoreSession();
    m_workerPanel->setCurrentWorker(m_document->workerCount() > 0 ? 0 : -1);
    m_targetsPage->setWorker(m_workerPanel->currentWorker());
    m_specsPage->setWorker(m_workerPanel->currentWorker());
    updateTitle();
    updateRunActions();
}

MainWindow::~MainWindow() = default;

// ---------------------------------------------------------------- actions and menus

void MainWindow::createActions()
{
    auto make = [this](
                    IconId id, const QString &text, const QKeySequence &key, const QString &tip) {
        auto *action = new QAction(icon(id), text, this);
        if (!key.isEmpty())
            action->setShortcut(key);
        action->setToolTip(
            key.isEmpty() ? tip : tr("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
        action->setStatusTip(tip);
        return action;
    };
    // The keys the user guide lists, the same on every platform: QKeySequence::SaveAs
    // (and Quit on Windows) is empty on some platforms and themes, so Ctrl+Shift+S did
    // nothing and the menu showed no key.
    m_new = make(IconId::New, tr("&New"), QKeySequence(Qt::CTRL | Qt::Key_N),
        tr("A new profile: one worker per CPU, Iometer's default spec"));
    m_open = make(IconId::Open, tr("&Open…"), QKeySequence(Qt::CTRL | Qt::Key_O),
        tr("Open a profile (.json) or import an Iometer configuration (.icf)"));
    m_save = make(
        IconId::Save, tr("&Save"), QKeySequence(Qt::CTRL | Qt::Key_S), tr("Save the profile"));
    m_saveAs = make(IconId::SaveAs, tr("Save &As…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
        tr("Save the profile as .json, or export it as an Iometer .icf"));
    m_start = make(IconId::Start, tr("&Start"), QKeySequence(Qt::Key_F5), tr("Run the profile"));
    m_stop = make(IconId::Stop, tr("S&top"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
        tr("Stop the run; what was measured is kept. In-flight I/O is waited for until the "
           "stop deadline; press Stop again to stop waiting for a device that does not "
           "complete it"));
    m_exportCsv = make(IconId::Export, tr("Results &CSV (Iometer layout)…"), {},
        tr("Save the results as an Iometer-layout CSV file"));
    m_exportTimeSeries = make(IconId::Export, tr("&Time series CSV…"), {},
        tr("Save every interval of every scope as one CSV row"));
    m_exportJson = make(
        IconId::Export, tr("Results &JSON…"), {}, tr("Save everything the run produced as JSON"));
    m_exportReport = make(IconId::Export, tr("&Report (HTML)…"), {},
        tr("Save the run as one HTML file that opens in any browser: what ran, where, all "
           "steps, each step's table and the plots"));
    m_quit = make(IconId::Stop, tr("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q),
        tr("Quit IOPrism (the profile is kept for next time)"));
    m_quit->setIcon(QIcon());
    m_quit->setMenuRole(QAction::QuitRole);
    m_removeTestFiles = new QAction(tr("&Remove Test Files After the Run"), this);
    m_removeTestFiles->setCheckable(true);
    m_removeTestFiles->setChecked(
        QSettings().value(QStringLiteral("run/removeTestFiles"), false).toBool());
    m_removeTestFiles->setToolTip(
        tr("After each run, delete the test files IOPrism made (like the command line's "
           "--remove-test-files); the next run makes and fills them again. Files IOPrism "
           "did not make are never deleted."));
    m_removeTestFiles->setStatusTip(m_removeTestFiles->toolTip());
    m_removeTestFiles->setEnabled(static_cast<bool>(m_services.removeTestFile));
    connect(m_removeTestFiles, &QAction::toggled, this,
        [](bool on) { QSettings().setValue(QStringLiteral("run/removeTestFiles"), on); });
    m_saveRuns = new QAction(tr("&Keep Every Run in the History"), this);
    m_saveRuns->setCheckable(true);
    m_saveRuns->setChecked(QSettings().value(QStringLiteral("run/saveRuns"), true).toBool());
    m_saveRuns->setToolTip(tr("Save each run's results (complete, stopped or failed) in the run "
                              "library when it ends, where the History page and the command "
                              "line's history list them"));
    m_saveRuns->setStatusTip(m_saveRuns->toolTip());
    m_saveRuns->setEnabled(!m_options.runLibraryDirectory.isEmpty());
    connect(m_saveRuns, &QAction::toggled, this,
        [](bool on) { QSettings().setValue(QStringLiteral("run/saveRuns"), on); });

    connect(m_new, &QAction::triggered, this, &MainWindow::newProfile);
    connect(m_open, &QAction::triggered, this, &MainWindow::askOpenFile);
    connect(m_save, &QAction::triggered, this, [this] { askSaveFile(false); });
    connect(m_saveAs, &QAction::triggered, this, [this] { askSaveFile(true); });
    connect(m_start, &QAction::triggered, this,
        [this] { askDiscardResults(tr("starting the next run"), [this](bool) { startRun(); }); });
    connect(m_stop, &QAction::triggered, this, &MainWindow::stopRun);
    connect(m_quit, &QAction::triggered, this, &QWidget::close);
    connect(m_exportCsv, &QAction::triggered, this, [this] {
        askExport(tr("Export results CSV"), tr("CSV files (*.csv)"), QStringLiteral("csv"),
            [this](const QString &p) { return exportResultsCsv(p); });
    });
    connect(m_exportTimeSeries, &QAction::triggered, this, [this] {
        askExport(tr("Export time series CSV"), tr("CSV files (*.csv)"), QStringLiteral("csv"),
            [this](const QString &p) { return exportTimeSeriesCsv(p); });
    });
    connect(m_exportJson, &QAction::triggered, this, [this] {
        askExport(tr("Export results JSON"), tr("JSON files (*.json)"), QStringLiteral("json"),
            [this](const QString &p) { return exportResultsJson(p); });
    });
    connect(m_exportReport, &QAction::triggered, this, [this] {
        askExport(tr("Export a report"), tr("HTML files (*.html)"), QStringLiteral("html"),
            [this](const QString &p) { return exportReport(p); });
    });
    for (int p = 0; p < LivePlots::PlotCount; ++p) {
        const auto id = static_cast<LivePlots::PlotId>(p);
        auto *action = new QAction(tr("%1 plot…").arg(m_livePage->plots()->plotTitle(id)), this);
        action->setToolTip(
            tr("Save the live %1 plot as PNG or PDF").arg(m_livePage->plots()->plotTitle(id)));
        connect(action, &QAction::triggered, this,
            [this, id] { emit m_livePage->plots()->exportRequested(id); });
        m_exportPlots << action;
    }
    auto *histogram = new QAction(tr("Latency histogram…"), this);
    histogram->setToolTip(tr("Save the results' latency histogram as PNG or PDF"));
    connect(histogram, &QAction::triggered, m_resultsPage, &ResultsPage::exportHistogramRequested);
    m_exportPlots << histogram;
    for (int p = 0; p < SeriesPlots::PlotCount; ++p) {
        const auto id = static_cast<SeriesPlots::PlotId>(p);
        const QString title = m_seriesPage->plots()->plotTitle(id);
        auto *action = new QAction(tr("%1…").arg(title), this);
        action->setToolTip(tr("Save the %1 plot as PNG or PDF").arg(title.toLower()));
        connect(action, &QAction::triggered, this,
            [this, id] { emit m_seriesPage->plots()->exportRequested(id); });
        m_exportSeriesPlots << action;
    }
}

void MainWindow::createMenus()
{
    auto *file = menuBar()->addMenu(tr("&File"));
    file->setToolTipsVisible(true);
    file->addAction(m_new);
    file->addAction(m_open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setToolTipsVisible(true);
    file->addAction(m_save);
    file->addAction(m_saveAs);
    file->addSeparator();
    m_exportMenu = file->addMenu(icon(IconId::Export), tr("&Export"));
    m_exportMenu->setToolTipsVisible(true);
    m_exportMenu->addAction(m_exportCsv);
    m_exportMenu->addAction(m_exportTimeSeries);
    m_exportMenu->addAction(m_exportJson);
    m_exportMenu->addAction(m_exportReport);
    m_exportMenu->addSeparator();
    for (auto *action : m_exportPlots)
        m_exportMenu->addAction(action);
    m_exportMenu->addSeparator();
    for (auto *action : m_exportSeriesPlots)
        m_exportMenu->addAction(action);
    file->addSeparator();
    file->addAction(m_quit);

    m_presetsMenu = menuBar()->addMenu(tr("&Presets"));
    m_presetsMenu->setToolTipsVisible(true);
    QString group;
    for (const auto &preset : presetCatalogue()) {
        if (preset.group != group) {
            m_presetsMenu->addSection(preset.group);
            group = preset.group;
        }
        auto *action = m_presetsMenu->addAction(preset.title);
        action->setToolTip(preset.description);
        action->setStatusTip(preset.description);
        const std::string name = preset.name;
        connect(action, &QAction::triggered, this, [this, name] { applyPreset(name); });
    }

    auto *run = menuBar()->addMenu(tr("&Run"));
    run->setToolTipsVisible(true);
    run->addAction(m_start);
    run->addAction(m_stop);
    run->addSeparator();
    run->addAction(m_removeTestFiles);
    run->addAction(m_saveRuns);

    auto *view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    auto *follow = view->addAction(icon(IconId::Follow), tr("&Follow the newest sample"));
    follow->setCheckable(true);
    follow->setChecked(true);
    follow->setToolTip(tr("Keep the newest interval in view on the live plots"));
    connect(follow, &QAction::toggled, m_livePage->plots(), &LivePlots::setFollowing);
    connect(m_livePage->plots(), &LivePlots::followingChanged, follow, &QAction::setChecked);
    view->addSeparator();
    const QStringList pages = {tr("Targets"), tr("Access Specifications"), tr("Test Setup"),
        tr("Live"), tr("Results"), tr("Series")};
    for (int p = 0; p < pages.size(); ++p) {
        auto *action = view->addAction(pages[p]);
        action->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + p)));
        connect(action, &QAction::triggered, this, [this, p] { showPage(static_cast<Page>(p)); });
        if (p == SeriesTab) {
            m_showSeries = action;
            action->setToolTip(tr("The series' curves or heat map (after a series run)"));
            action->setEnabled(false);
        }
    }

    auto *help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    m_userGuide = help->addAction(tr("&User Guide"), this, [this] { openUserGuide(); });
    m_userGuide->setShortcut(QKeySequence(Qt::Key_F1));
    m_userGuide->setStatusTip(tr("Open the user guide, which describes every page and control"));
    // Shift+F1, then click a control: its "What's this?" text, or else its tooltip.
    WhatsThisFromToolTip::install();
    QAction *whatsThis = QWhatsThis::createAction(this);
    whatsThis->setText(tr("What's &This?"));
    whatsThis->setObjectName(QStringLiteral("whatsThisAction"));
    help->addAction(whatsThis);
    help->addSeparator();
    help->addAction(tr("&About IOPrism"), this, [this] {
        auto *box = new AboutDialog(this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    // Qt's own box runs exec(), the one nested event loop of the GUI: nothing follows it,
    // so nothing can act on state that changed while it was open.
    help->addAction(tr("About &Qt"), this, [] { QApplication::aboutQt(); });
    updateRecentMenu();
}

void MainWindow::createToolBar()
{
    auto *bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_new);
    bar->addAction(m_open);
    bar->addAction(m_save);
    bar->addSeparator();
    auto *presets = new QToolButton(bar);
    presets->setIcon(icon(IconId::Preset));
    presets->setText(tr("Presets"));
    presets->setToolTip(tr("Apply a built-in set of specs (CrystalDiskMark, Iometer, workload "
                           "patterns); your workers and targets are kept"));
    presets->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    presets->setPopupMode(QToolButton::InstantPopup);
    presets->setMenu(m_presetsMenu);
    bar->addWidget(presets);
    bar->addSeparator();
    bar->addAction(m_start);
    bar->addAction(m_stop);
    bar->addSeparator();
    auto *exports = new QToolButton(bar);
    exports->setIcon(icon(IconId::Export));
    exports->setText(tr("Export"));
    exports->setToolTip(tr("Save the results as CSV or JSON, or a plot as PNG or PDF"));
    exports->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    exports->setPopupMode(QToolButton::InstantPopup);
    exports->setMenu(m_exportMenu);
    bar->addWidget(exports);
}

void MainWindow::createStatusBar()
{
    m_statusLabel = new QLabel(tr("Idle"), this);
    m_statusLabel->setToolTip(tr("What the run is doing: preparing, ramp-up, running, stopping"));
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(240);
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    m_progress->setToolTip(tr("Progress of the whole run (all steps)"));
    statusBar()->addWidget(m_statusLabel, 1);
    statusBar()->addPermanentWidget(m_progress);
}

// ---------------------------------------------------------------- session

QString MainWindow::dataDirectory() const
{
    if (!m_options.dataDirectory.isEmpty())
        return m_options.dataDirectory;
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
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
}

void MainWindow::closeEvent(QCloseEvent *event)
{
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
        data.mountPoints = {toStdString(storage.rootPath())};
    }
    const bool listed = std::any_of(candidates.begin(), candidates.end(),
        [&](const TargetCandidate &c) { return c.path == data.path; });
    if (!listed)
        candidates.insert(candidates.begin(), data);
    m_targetsPage->model()->setCandidates(std::move(candidates));
}

void MainWindow::addTestFile(const std::string &path)
{
    const auto kind = m_services.detectTargetKind ? m_services.detectTargetKind(path)
                                                  : core::TargetKind::TestFile;
    addTarget(path, kind, std::nullopt, QStringLiteral("addTestFileDialog"));
}

void MainWindow::addFileTree(const std::string &folder)
{
    if (!m_document->worker(m_targetsPage->model()->worker()))
        return;
    const FileTreePlace place = fileTreePlace(folder, m_services.readFileHead);
    if (place.path.empty()) {
        m_messageBar->showMessage(MessageBar::Level::Warning, place.refusal);
        return;
    }
    addTarget(place.path, core::TargetKind::FileTree, place.existing,
        QStringLiteral("addFileTreeDialog"));
    const QString where = toQString(place.path);
    m_messageBar->showMessage(MessageBar::Level::Information,
        place.existing
            ? tr("The file tree IOPrism made in %1 (%2) is used again.")
                  .arg(where, fileTreeShapeText(*place.existing))
            : tr("The file tree goes in %1: IOPrism makes it before the first run.").arg(where));
}

void MainWindow::addTarget(const std::string &path, core::TargetKind kind,
    const std::optional<core::FileTree> &tree, const QString &dialogName)
{
    auto *model = m_targetsPage->model();
    const auto *worker = m_document->worker(model->worker());
    if (!worker)
        return;
    QStringList others;
    for (const auto &t : worker->targets)
        if (t.path != path)
            others << toQString(t.path);
    if (others.isEmpty()) {
        model->addPath(path, kind, tree);
        return;
    }
    // A second target changes what the worker measures: never add one silently.
    const bool isTree = kind == core::TargetKind::FileTree;
    const QString workerName = toQString(worker->name);
    auto *box = new QMessageBox(QMessageBox::Question,
        isTree ? tr("Add a file tree") : tr("Add a test file"),
        tr("%1 already uses %n target(s): %2.", nullptr, int(others.size()))
                .arg(workerName, others.join(QStringLiteral(", ")))
            + QLatin1Char('\n')
            + tr("Use %1 instead, or as one more target (the worker then spreads its I/O "
                 "over all of them)?")
                  .arg(toQString(path)),
        QMessageBox::Cancel, this);
    box->setObjectName(dialogName);
    auto *replace
        = box->addButton(isTree ? tr("Use only the new tree") : tr("Use only the new file"),
            QMessageBox::AcceptRole);
    replace->setObjectName(QStringLiteral("replaceTargets"));
    replace->setToolTip(tr("The worker's other targets are unticked"));
    auto *add = box->addButton(tr("Add as another target"), QMessageBox::YesRole);
    add->setObjectName(QStringLiteral("addBesideTargets"));
    add->setToolTip(isTree ? tr("The worker uses the new tree and its present targets")
                           : tr("The worker uses the new file and its present targets"));
    box->setDefaultButton(replace);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, replace, add, path, kind, tree] {
        auto *targets = m_targetsPage->model();
        if (box->clickedButton() == replace) {
            const int row = targets->addPath(path, kind, tree);
            for (int r = 0; r < targets->rowCount(); ++r)
                if (r != row && targets->index(r, 0).data(TargetsModel::AssignedRole).toBool())
                    targets->setData(targets->index(r, TargetsModel::TargetColumn), Qt::Unchecked,
                        Qt::CheckStateRole);
        } else if (box->clickedButton() == add) {
            targets->addPath(path, kind, tree);
        }
    });
    box->open();
}

void MainWindow::askRepoint(int row)
{
    auto *model = m_targetsPage->model();
    const QString from = model->index(row, 0).data(TargetsModel::PathRole).toString();
    if (!model->index(row, 0).data(TargetsModel::AssignedRole).toBool())
        return;
    auto *dialog = new QInputDialog(this);
    dialog->setObjectName(QStringLiteral("repointDialog"));
    dialog->setWindowTitle(tr("Re-point %1").arg(from));
    dialog->setLabelText(tr("Where %1 points on this machine (the worker keeps the target and "
                            "its settings):")
                             .arg(from));
    dialog->setToolTip(tr("A disk, a partition or a test-file location of this machine, or a "
                          "file you choose"));
    // Each with what tells it apart (model, size, in use, free space): a bare /dev/sdb
    // does not say which disk it is.
    QStringList items;
    for (const auto &c : model->candidates())
        items << TargetsModel::describeCandidate(c);
    const QString elsewhere = tr("A test file elsewhere…");
    items << elsewhere;
    dialog->setComboBoxItems(items);
    dialog->setComboBoxEditable(false);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto repoint = [this, from](const std::string &to, core::TargetKind kind) {
        auto *targets = m_targetsPage->model();
        for (int r = 0; r < targets->rowCount(); ++r) {
            if (targets->index(r, 0).data(TargetsModel::PathRole).toString() != from)
                continue;
            targets->repoint(r, to, kind);
            m_messageBar->showMessage(MessageBar::Level::Information,
                tr("%1 now points at %2.").arg(from, toQString(to)));
            return;
        }
    };
    connect(dialog, &QInputDialog::textValueSelected, this,
        [this, items, elsewhere, repoint](const QString &choice) {
            if (choice != elsewhere) {
                const auto &candidates = m_targetsPage->model()->candidates();
                const auto i = static_cast<std::size_t>(items.indexOf(choice));
                if (i < candidates.size())
                    repoint(candidates[i].path, candidates[i].kind);
                return;
            }
            auto *files = new QFileDialog(this, tr("Test file location"), dataDirectory(),
                tr("Test files (*.dat *.tst);;All files (*)"));
            files->setObjectName(QStringLiteral("repointFileDialog"));
            files->setAcceptMode(QFileDialog::AcceptSave);
            files->setOption(QFileDialog::DontConfirmOverwrite);
            files->selectFile(QString::fromLatin1(kTestFileName));
            files->setAttribute(Qt::WA_DeleteOnClose);
            connect(files, &QFileDialog::fileSelected, this, [this, repoint](const QString &file) {
                const std::string path = toStdString(QDir::toNativeSeparators(file));
                repoint(path,
                    m_services.detectTargetKind ? m_services.detectTargetKind(path)
                                                : core::TargetKind::TestFile);
            });
            files->open();
        });
    dialog->open();
}

void MainWindow::updateTitle()
{
    const QString path = m_document->filePath();
    setWindowFilePath(path);
    const QString name = path.isEmpty() ? tr("Untitled") : QFileInfo(path).fileName();
    setWindowTitle(tr("%1[*] — IOPrism").arg(name));
    setWindowModified(m_document->isModified());
}

QStringList MainWindow::recentFiles() const
{
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

void MainWindow::addRecentFile(const QString &path)
{
    QStringList files = recentFiles();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    QSettings().setValue(QStringLiteral("recentFiles"), files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        auto *action
            = m_recentMenu->addAction(tr("&%1 %2").arg(i + 1).arg(QFileInfo(files[i]).fileName()));
        action->setToolTip(files[i]);
        const QString &path = files[i];
        connect(action, &QAction::triggered, this, [this, path] { askOpen(path); });
    }
    if (!files.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear the list"), this, [this] {
            QSettings().remove(QStringLiteral("recentFiles"));
            updateRecentMenu();
        });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
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
    const int worker = m_workerPanel->currentWorker();
    // Its description and spec names in the UI's language: they become the profile's.
    *preset = localizedPreset(*preset, name);
    m_document->setProfile(ui::applyPreset(m_document->profile(), *preset,
                               toStdString(QDir::toNativeSeparators(defaultTestFile()))),
        path);
    m_document->setModified(true);
    m_workerPanel->setCurrentWorker(std::max(0, worker));
    m_messageBar->showMessage(MessageBar::Level::Information,
        tr("Applied the preset \"%1\": %2; your workers and targets are kept.")
            .arg(toQString(name), tr("%n specs", nullptr, int(preset->specs.size()))),
        toQString(preset->setup.description));
    return true;
}

// A results file says so in its first lines ("format": "ioprism-results"); a profile or
// an .icf does not. Read only the head: a results file can be tens of MB. Through the
// bounded reader: a FIFO or a device dropped on the window never blocks it.
bool MainWindow::looksLikeResults(const QString &path) const
{
    if (!m_services.readFileHead)
        return false;
    const core::InputFileText head
        = m_services.readFileHead(QFileInfo(path).filesystemFilePath(), 4096);
    return !head.problem && head.text.find("\"format\"") != std::string::npos
        && head.text.find("\"ioprism-results\"") != std::string::npos;
}

std::optional<core::RunResult> MainWindow::readResults(const QString &path)
{
    const core::InputFileText file = m_services.readFile
        ? m_services.readFile(
            QFileInfo(path).filesystemFilePath(), core::kMaxResultsFileBytes, "results files")
        : core::InputFileText {{}, core::Problem {core::Severity::Error, {}, "no file reader"},
            core::InputFileFailure::Unreadable};
    if (file.problem) {
        m_messageBar->showMessage(MessageBar::Level::Error,
            tr("%1 cannot be read: %2")
                .arg(QFileInfo(path).fileName(), toQString(file.problem->message)));
        return std::nullopt;
    }
    core::ResultsRead read = core::readResultsJson(file.text);
    if (!read.ok()) {
        m_messageBar->showMessage(MessageBar::Level::Error,
            tr("%1 cannot be opened: %2").arg(QFileInfo(path).fileName(), toQString(read.error)));
        return std::nullopt;
    }
    return std::move(read.result);
}

bool MainWindow::saveToLibrary(const RunResultPtr &result)
{
    if (!result || m_options.runLibraryDirectory.isEmpty() || !m_saveRuns->isChecked())
        return false;
    const core::RunLibrary library(
        m_options.runLibraryDirectory.toStdString(), m_services.readFile);
    const std::string text = core::writeResultsJson(*result, environmentFor(*result));
    if (auto id = library.save(*result, text); !id) {
        m_messageBar->showMessage(MessageBar::Level::Error,
            tr("The run could not be kept in the history: %1")
                .arg(toQString(id.error().toString())),
            tr("Export it now (File › Export › Results JSON) to keep it."));
        return false;
    }
    m_historyPage->refresh();
    return true;
}

void MainWindow::clearResults()
{
    m_lastResult.reset();
    m_resultUnsaved = false;
    m_livePlotsShowLastResult = false;
    m_livePage->clear();
    m_resultsPage->setResult(nullptr);
    m_seriesPage->clear();
    m_seriesRun = false;
    m_tabs->setTabVisible(SeriesTab, false);
    m_showSeries->setEnabled(false);
    updateRunActions();
}

void MainWindow::askDiscardResults(
    const QString &action, const std::function<void(bool discarded)> &then)
{
    if (!hasUnsavedResults()) {
        then(false);
        return;
    }
    const bool libraryOn = !m_options.runLibraryDirectory.isEmpty() && m_saveRuns->isChecked();
    auto *box = new QMessageBox(QMessageBox::Question, tr("Results not saved"),
        tr("The results of the last run are not saved anywhere. Save them before %1?").arg(action),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box->setInformativeText((libraryOn ? tr("They could not be kept in the history.")
                                       : tr("Run › Keep Every Run in the History is off."))
        + QLatin1Char(' ')
        + tr("Saved as a results file, File › Open shows them again as they are now; "
             "discarded, they are lost."));
    box->button(QMessageBox::Save)->setText(tr("Save Results…"));
    box->button(QMessageBox::Save)
        ->setToolTip(tr("Save the results as a results JSON file, then go on"));
    box->button(QMessageBox::Discard)->setToolTip(tr("Go on without the results"));
    box->button(QMessageBox::Cancel)->setToolTip(tr("Keep the results and do nothing"));
    box->setDefaultButton(QMessageBox::Save);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, then] {
        const auto choice = box->standardButton(box->clickedButton());
        if (choice == QMessageBox::Discard) {
            m_resultUnsaved = false;
            then(true);
        } else if (choice == QMessageBox::Save) {
            askExport(tr("Save the results"), tr("JSON files (*.json)"), QStringLiteral("json"),
                [this, then](const QString &path) {
                    if (!exportResultsJson(path))
                        return false; // the message bar says why; nothing goes on
                    // After the dialog has returned: `then` may close the window.
                    QTimer::singleShot(0, this, [then] { then(false); });
                    return true;
                });
        }
    });
    box->open();
}

void MainWindow::askOpen(const QString &path)
{
    askDiscardChanges([this, path] {
        askDiscardResults(tr("opening another file"), [this, path](bool discarded) {
            if (discarded && !looksLikeResults(path))
                clearResults(); // a results file replaces them itself
            openFile(path);
        });
    });
}

bool MainWindow::openResults(const QString &path)
{
    std::optional<core::RunResult> read = readResults(path);
    if (!read)
        return false;
    if (m_controller->isRunning()) {
        m_messageBar->showMessage(
            MessageBar::Level::Warning, tr("A run is going on: open the results when it ends."));
        return false;
    }
    showResult(std::make_shared<core::RunResult>(std::move(*read)));
    m_resultUnsaved = false; // it is that file
    const QString when = QLocale().toString(
        QDateTime::fromSecsSinceEpoch(std::chrono::duration_cast<std::chrono::seconds>(
            m_lastResult->startedAt.time_since_epoch())
                                          .count()),
        QLocale::ShortFormat);
    m_livePage->setHeadline(tr("Opened: the run of %1 (%2)").arg(when, QFileInfo(path).fileName()));
    m_statusLabel->setText(tr("Idle · opened %1").arg(QFileInfo(path).fileName()));
    showPage(m_seriesRun ? SeriesTab : ResultsTab);
    return true;
}

bool MainWindow::loadProfileOfResults(const QString &path)
{
    std::optional<core::RunResult> read = readResults(path);
    if (!read)
        return false;
    // Unsaved: the profile came from a results file, not from a profile file.
    m_document->setProfile(read->plan.profile);
    m_workerPanel->setCurrentWorker(0);
    m_messageBar->showMessage(MessageBar::Level::Information,
        tr("The profile of %1 is loaded, as it ran (seeds included): Start runs it again.")
            .arg(QFileInfo(path).fileName()));
    showPage(SetupTab);
    return true;
}

bool MainWindow::compareFiles(const QStringList &paths)
{
    if (paths.size() < 2) {
        m_messageBar->showMessage(
            MessageBar::Level::Warning, tr("Choose two or more runs to compare."));
        return false;
    }
    std::vector<RunResultPtr> runs;
    QStringList labels;
    for (const QString &path : paths) {
        std::optional<core::RunResult> read = readResults(path);
        if (!read)
            return false;
        runs.push_back(std::make_shared<core::RunResult>(std::move(*read)));
        // The user's name for a library run, else the file's name without .json.
        QString label = QFileInfo(path).completeBaseName();
        if (m_historyPage->model()->library()) {
            const auto metadata = m_historyPage->model()->library()->metadata(toStdString(label));
            if (metadata && !metadata->name.empty())
                label = toQString(metadata->name);
        }
        labels << label;
    }
    m_comparePage->setRuns(std::move(runs), labels);
    m_tabs->setTabVisible(CompareTab, true);
    showPage(CompareTab);
    return true;
}

void MainWindow::showResult(const RunResultPtr &result)
{
    m_lastResult = result;
    m_livePlotsShowLastResult = true;
    m_livePage->clear();
    for (const auto &sample : result->intervals)
        m_livePage->addSample(sample);
    m_resultsPage->setResult(result);
    m_seriesRun = showsAsSeries(result->plan.profile);
    if (m_seriesRun) {
        m_seriesPage->beginRun(result->plan.profile);
        m_seriesPage->setResult(result);
    } else {
        m_seriesPage->clear();
    }
    m_tabs->setTabVisible(SeriesTab, m_seriesRun);
    m_showSeries->setEnabled(m_seriesRun);
    updateRunActions();
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
    if (looksLikeResults(path))
        return openResults(path);
    // The loader the CLI uses: bounded reading (a directory, a device or a huge file is
    // refused unread) and the format told by the content, not the name.
    core::Problems problems;
    std::optional<core::Profile> profile
        = core::loadProfileFile(m_services.readFile, QFileInfo(path).filesystemFilePath(),
            m_services.targetExists, problems, m_services.iometerVolumeIsHere);
    if (!profile && problems.size() == 1 && !QFileInfo(path).isFile()) {
        QStringList files = recentFiles();
        if (files.removeAll(QFileInfo(path).absoluteFilePath()) > 0) {
            QSettings().setValue(QStringLiteral("recentFiles"), files);
            updateRecentMenu();
        }
    }
    QStringList details;
    for (const auto &p : problems) // a problem of the whole file is named after the file
        details << (p.path.empty() ? QFileInfo(path).fileName() + QStringLiteral(": ") : QString())
                + (profile ? problemText(p, *profile) : toQString(p.toString()));
    if (!profile) {
        m_messageBar->showMessage(MessageBar::Level::Error,
            tr("%1 cannot be opened: %2.")
                .arg(QFileInfo(path).fileName(), tr("%n problems", nullptr, int(problems.size()))),
            details.join(QLatin1Char('\n')));
        return false;
    }
    m_document->setProfile(std::move(*profile), path);
    m_workerPanel->setCurrentWorker(0);
    addRecentFile(path);
    if (!problems.empty())
        m_messageBar->showMessage(MessageBar::Level::Warning,
            tr("%1 was opened with %2.")
                .arg(QFileInfo(path).fileName(), tr("%n warnings", nullptr, int(problems.size()))),
            details.join(QLatin1Char('\n')));
    return true;
}

bool MainWindow::saveFile(const QString &path)
{
    const bool icf = path.endsWith(QLatin1String(".icf"), Qt::CaseInsensitive);
    core::Problems warnings;
    const std::string text = icf ? core::writeIcf(m_document->profile(), warnings)
                                 : core::writeProfileJson(m_document->profile());
    if (!writeTextFile(path, text))
        return false;
    m_document->setFilePath(path);
    m_document->setModified(false);
    addRecentFile(path);
    if (!warnings.empty()) {
        QStringList details;
        for (const auto &w : warnings)
            details << toQString(w.toString());
        m_messageBar->showMessage(MessageBar::Level::Warning,
            tr("Saved as an Iometer file: %1 the .icf format cannot carry were left out (they stay "
               "in "
               "this window; save as .json to keep them).")
                .arg(tr("%n settings", nullptr, int(warnings.size()))),
            details.join(QLatin1Char('\n')));
    }
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

bool MainWindow::writeTextFile(const QString &path, const std::string &text)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)
        || file.write(text.data(), static_cast<qint64>(text.size()))
            != static_cast<qint64>(text.size())
        || !file.commit()) {
        m_messageBar->showMessage(MessageBar::Level::Error,
            tr("Cannot write %1.").arg(QDir::toNativeSeparators(path)), file.errorString());
        return false;
    }
    return true;
}

void MainWindow::askDiscardChanges(const std::function<void()> &then)
{
    if (!m_document->isModified()) {
        then();
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Question, tr("Unsaved changes"),
        tr("The profile has changes that are not saved. Discard them?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box->setDefaultButton(QMessageBox::Save);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, then] {
        const auto choice = box->standardButton(box->clickedButton());
        if (choice == QMessageBox::Discard) {
            then();
        } else if (choice == QMessageBox::Save) {
            if (!m_document->filePath().isEmpty() && saveFile(m_document->filePath()))
                then();
            else
                askSaveFile(true);
        }
    });
    box->open();
}

void MainWindow::askOpenFile()
{
    askDiscardChanges([this] {
        askDiscardResults(
            tr("opening another file"), [this](bool discarded) { openFileDialog(discarded); });
    });
}

void MainWindow::openFileDialog(bool resultsDiscarded)
{
    const QString dir
        = QSettings().value(QStringLiteral("paths/profiles"), QDir::homePath()).toString();
    auto *dialog = new QFileDialog(this, tr("Open a profile"), dir,
        tr("Profiles (*.json *.icf);;IOPrism profiles (*.json);;Iometer "
           "configurations (*.icf);;All files (*)"));
    dialog->setAcceptMode(QFileDialog::AcceptOpen);
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(
        dialog, &QFileDialog::fileSelected, this, [this, resultsDiscarded](const QString &file) {
            QSettings().setValue(QStringLiteral("paths/profiles"), QFileInfo(file).absolutePath());
            if (resultsDiscarded && !looksLikeResults(file))
                clearResults(); // a results file replaces them itself
            openFile(file);
        });
    dialog->open();
}

void MainWindow::askSaveFile(bool forceDialog, bool preferJson)
{
    const QString current = m_document->filePath();
    const bool currentIsIcf = current.endsWith(QLatin1String(".icf"), Qt::CaseInsensitive);
    if (!forceDialog && !current.isEmpty() && currentIsIcf) {
        // Saving over an .icf drops what the format cannot carry (a spec's own queue depth:
        // Q8T1 becomes QD1 in Iometer): ask first, offering JSON, rather than say so after.
        core::Problems lost;
        core::writeIcf(m_document->profile(), lost);
        if (!lost.empty()) {
            QStringList details;
            for (const auto &w : lost)
                details << QStringLiteral("• ")
                        + problemText(w, m_document->profile()).toHtmlEscaped();
            auto *box = new QMessageBox(QMessageBox::Warning, tr("Save as an Iometer file?"),
                tr("%1 cannot carry %2 of this profile; saving over it leaves them out:<br>%3"
                   "<br><br>Save as an IOPrism profile (.json) to keep them?")
                    .arg(QFileInfo(current).fileName().toHtmlEscaped(),
                        tr("%n settings", nullptr, int(lost.size())),
                        details.join(QStringLiteral("<br>"))),
                QMessageBox::Cancel, this);
            box->setObjectName(QStringLiteral("lossyIcfSave"));
            auto *json = box->addButton(tr("Save as JSON…"), QMessageBox::AcceptRole);
            auto *anyway = box->addButton(tr("Leave them out"), QMessageBox::DestructiveRole);
            box->setDefaultButton(json);
            box->setAttribute(Qt::WA_DeleteOnClose);
            connect(box, &QMessageBox::finished, this, [this, box, json, anyway, current] {
                if (box->clickedButton() == json)
                    askSaveFile(true, true);
                else if (box->clickedButton() == anyway)
                    saveFile(current);
            });
            box->open();
            return;
        }
    }
    if (!forceDialog && !current.isEmpty()) {
        saveFile(current);
        return;
    }
    const QString dir = current.isEmpty()
        ? QSettings().value(QStringLiteral("paths/profiles"), QDir::homePath()).toString()
        : QFileInfo(current).absolutePath();
    const QString json = tr("IOPrism profile (*.json)");
    const QString icf = tr("Iometer configuration (*.icf)");
    auto *dialog
        = new QFileDialog(this, tr("Save the profile"), dir, json + QStringLiteral(";;") + icf);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QStringLiteral("json"));
    if (!current.isEmpty())
        dialog->selectFile(preferJson && currentIsIcf
                ? QFileInfo(current).completeBaseName() + QStringLiteral(".json")
                : QFileInfo(current).fileName());
    if (currentIsIcf && !preferJson) {
        dialog->selectNameFilter(icf);
        dialog->setDefaultSuffix(QStringLiteral("icf"));
    }
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::filterSelected, dialog, [dialog, icf](const QString &filter) {
        dialog->setDefaultSuffix(filter == icf ? QStringLiteral("icf") : QStringLiteral("json"));
    });
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &file) {
        QSettings().setValue(QStringLiteral("paths/profiles"), QFileInfo(file).absolutePath());
        saveFile(file);
    });
    dialog->open();
}

// ---------------------------------------------------------------- runs

bool MainWindow::startRun()
{
    if (m_controller->isRunning())
        return false;
    const auto &profile = m_document->profile();
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

    // Raw devices this user may not open: said now, with what would help, rather than
    // after the user agreed to destroy the data.
    QStringList denied;
    const auto *model = m_targetsPage->model();
    for (int w = 0; w < m_document->workerCount() && m_services.accessProblem; ++w) {
        const auto *worker = m_document->worker(w);
        bool writes = false;
        for (const auto &name : worker->assignedSpecs)
            if (const auto *spec = core::findSpec(profile, name); spec && core::specWrites(*spec))
                writes = true;
        for (const auto &target : worker->targets) {
            if (target.kind == core::TargetKind::TestFile
                || target.kind == core::TargetKind::FileTree)
                continue; // the run's own checks say where a file cannot be made
            const std::string why = m_services.accessProblem(target.path, writes);
            if (!why.empty() && !denied.contains(toQString(why)))
                denied << toQString(why);
        }
    }
    if (!denied.isEmpty()) {
        m_messageBar->showMessage(MessageBar::Level::Error,
            tr("The profile cannot run: %1").arg(denied.first()), denied.join(QLatin1Char('\n')),
            kRunRefusalTopic);
        return false;
    }

    // Raw devices that a spec writes: refused while in use, else confirmed by the user.
    QStringList refused, confirm;
    for (int w = 0; w < m_document->workerCount(); ++w) {
        const auto *worker = m_document->worker(w);
        bool writes = false;
        for (const auto &name : worker->assignedSpecs)
            if (const auto *spec = core::findSpec(profile, name); spec && core::specWrites(*spec))
                writes = true;
        if (!writes)
            continue;
        for (const auto &target : worker->targets) {
            // Files IOPrism makes (a test file, a tree) are no raw device.
            if (target.kind == core::TargetKind::TestFile
                || target.kind == core::TargetKind::FileTree)
                continue;
            const QString path = toQString(target.path);
            const TargetCandidate *c = model->candidateFor(target.path);
            QStringList inUse;
            if (c) {
                for (const auto &m : c->mountPoints)
                    inUse << tr("mounted at %1").arg(toQString(m));
                for (const auto &u : c->inUse)
                    inUse << toQString(u);
            }
            if (!inUse.isEmpty()) {
                refused << tr("%1: %2").arg(path, inUse.join(QStringLiteral(", ")));
                continue;
            }
            QString line = QStringLiteral("<b>%1</b>").arg(path.toHtmlEscaped());
            if (c && c->sizeBytes)
                line += QStringLiteral(", ") + capacityText(c->sizeBytes);
            if (c && !c->model.empty())
                line += QStringLiteral(", ") + toQString(c->model).toHtmlEscaped();
            if (!confirm.contains(line))
                confirm << line;
        }
    }
    if (!refused.isEmpty()) {
        m_messageBar->showMessage(MessageBar::Level::Error,
            tr("Writing to a raw device is refused while it is in use: unmount it "
               "first, or untick it."),
            refused.join(QLatin1Char('\n')), kRunRefusalTopic);
        return false;
    }
    if (!confirm.isEmpty()) {
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Write to raw devices?"),
            tr("The test writes directly to:<br>%1<br><br>Everything stored on %2 "
               "will be destroyed. Continue?")
                .arg(confirm.join(QStringLiteral("<br>")),
                    confirm.size() == 1 ? tr("this device") : tr("these devices")),
            QMessageBox::Cancel, this);
        auto *erase = box->addButton(tr("Destroy the data and run"), QMessageBox::DestructiveRole);
        box->setDefaultButton(QMessageBox::Cancel);
        box->setAttribute(Qt::WA_DeleteOnClose);
        connect(box, &QMessageBox::finished, this, [this, box, erase] {
            if (box->clickedButton() == erase)
                beginRun(true);
        });
        box->open();
        return true;
    }
    beginRun(false);
    return true;
}

void MainWindow::beginRun(bool allowDeviceWrites)
{
    const auto &profile = m_document->profile();
    core::RunRequest request;
    request.profile = profile;
    request.engine = m_setupPage->engine();
    request.settings.allowDeviceWrites = allowDeviceWrites;
    request.settings.ioLimitPerTarget = m_ioLimitPerTarget;
    request.removeTestFiles = m_removeTestFiles->isChecked() && m_services.removeTestFile;

    // Cycling makes several steps of one spec: count what the plan will run.
    m_stepCount = static_cast<int>(core::plannedSteps(profile).size());
    m_stepSeconds = profile.setup.runTime.count() > 0
        ? static_cast<double>(profile.setup.runTime.count() + profile.setup.rampUp.count())
        : 0;
    m_step = 0;
    m_stepName.clear();
    m_phase = core::RunPhase::Preparing;
    m_phaseClock.start();
    m_stopClock.invalidate();
    m_progress->setFormat(QStringLiteral("%p%"));
    m_progress->setToolTip(tr("Progress of the whole run (all steps)"));

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
    m_controller->start(std::move(request));
    showPage(LiveTab);
    m_statusTimer->start();
    tickStatus();
    updateRunActions();
}

void MainWindow::stopRun()
{
    if (!m_controller->isRunning())
        return;
    // A second Stop asks the run to stop waiting for in-flight I/O: the countdown stays.
    if (!m_stopClock.isValid())
        m_stopClock.start();
    m_controller->stop();
    m_phase = core::RunPhase::Stopping;
    tickStatus();
}

void MainWindow::onPhase(quint64, core::RunPhase phase, int step, const QString &stepName)
{
    if (phase == core::RunPhase::Done)
        return; // finished() follows with the result
    m_phase = phase;
    m_livePage->setPhase(phase, step);
    if (phase == core::RunPhase::RampUp || phase == core::RunPhase::Measuring) {
        m_step = step;
        m_stepName = stepName;
        m_phaseClock.restart();
        m_livePage->setHeadline(tr("Step %1 of %2: %3 — %4")
                                    .arg(step + 1)
                                    .arg(std::max(m_stepCount, step + 1))
                                    .arg(stepName, phaseName(phase)));
    } else if (phase == core::RunPhase::Stopping) {
        m_livePage->setHeadline(
            tr("Step %1: %2 — finishing in-flight I/O").arg(step + 1).arg(stepName));
    }
    tickStatus();
}

void MainWindow::onPrepareProgress(
    quint64, const QString &path, quint64 done, quint64 total, bool preInitialising)
{
    m_phase = core::RunPhase::Preparing;
    const int percent = total ? static_cast<int>(done * 100 / total) : 0;
    if (preInitialising) {
        // The trees' unmeasured operations before the first step: a long wait that must
        // not look like a hang (Stop ends it).
        m_statusLabel->setText(
            tr("Pre-initialising %1: %2 %").arg(QDir::toNativeSeparators(path)).arg(percent));
        m_progress->setRange(0, 100);
        m_progress->setValue(percent);
        m_livePage->setHeadline(tr("Pre-initialising %1 (%2 of %3 operations, not measured)")
                                    .arg(QDir::toNativeSeparators(path))
                                    .arg(done)
                                    .arg(total));
        return;
    }
    m_statusLabel->setText(
        tr("Preparing %1: %2 %").arg(QDir::toNativeSeparators(path)).arg(percent));
    m_progress->setRange(0, 100);
    m_progress->setValue(percent);
    m_livePage->setHeadline(
        tr("Preparing the test file %1 (%2 of %3)")
            .arg(QDir::toNativeSeparators(path), capacityText(done), capacityText(total)));
}

void MainWindow::tickStatus()
{
    const double t
        = m_phaseClock.isValid() ? static_cast<double>(m_phaseClock.elapsed()) / 1000.0 : 0;
    const auto &setup = m_document->profile().setup;
    const double ramp = static_cast<double>(setup.rampUp.count());
    const double runTime = static_cast<double>(setup.runTime.count());
    QString text;
    switch (m_phase) {
    case core::RunPhase::Idle:
    case core::RunPhase::Done:
        text = tr("Idle");
        m_progress->setRange(0, 100);
        break;
    case core::RunPhase::Preparing:
        if (m_statusLabel->text().startsWith(tr("Preparing"))
            || m_statusLabel->text().startsWith(tr("Pre-initialising")))
            return; // the per-file or pre-initialisation progress is shown
        text = tr("Preparing the targets…");
        m_progress->setRange(0, 0); // busy
        break;
    case core::RunPhase::RampUp:
        text = tr("Step %1 of %2 · %3 · ramp-up %4 of %5")
                   .arg(m_step + 1)
                   .arg(std::max(m_stepCount, m_step + 1))
                   .arg(m_stepName, clockText(std::min(t, ramp)), clockText(ramp));
        break;
    case core::RunPhase::Measuring:
        text = runTime > 0
            ? tr("Step %1 of %2 · %3 · running %4 of %5")
                  .arg(m_step + 1)
                  .arg(std::max(m_stepCount, m_step + 1))
                  .arg(m_stepName, clockText(std::min(t, runTime)), clockText(runTime))
            : tr("Step %1 · %2 · running %3 (until stopped)")
                  .arg(m_step + 1)
                  .arg(m_stepName, clockText(t));
        break;
    case core::RunPhase::Stopping: {
        // What Stop waits for, and for how long at most (RunOptions' defaults: the stop
        // deadline for in-flight I/O, then a tail of device sampling for write-back).
        const core::RunSettings defaults;
        const double waited
            = m_stopClock.isValid() ? static_cast<double>(m_stopClock.elapsed()) / 1000.0 : 0;
        const double deadline = std::chrono::duration<double>(defaults.stopTimeout).count();
        const double tail = std::chrono::duration<double>(defaults.deviceTailLimit).count();
        const int left = static_cast<int>(std::ceil(std::max(0.0, deadline - waited)));
        text = tr("Stopping: waiting for the in-flight I/O to complete (gives up in %n s), "
                  "then up to %1 s for the device's write-back; press Stop again to stop "
                  "waiting",
            nullptr, left)
                   .arg(QLocale().toString(tail, 'f', 0));
        m_stop->setToolTip(tr("Stop waiting for in-flight I/O and the device's write-back: "
                              "the results are reported now, any I/O still in flight is "
                              "named in them"));
        break;
    }
    }
    m_statusLabel->setText(text);
    if (m_phase == core::RunPhase::RampUp || m_phase == core::RunPhase::Measuring) {
        if (m_stepSeconds > 0 && m_stepCount > 0) {
            const double inStep = m_phase == core::RunPhase::RampUp ? std::min(t, ramp)
                                                                    : ramp + std::min(t, runTime);
            const double done = (m_step * m_stepSeconds + inStep) / (m_stepCount * m_stepSeconds);
            m_progress->setRange(0, 100);
            m_progress->setValue(static_cast<int>(std::clamp(done, 0.0, 1.0) * 100));
        } else {
            m_progress->setRange(0, 0);
        }
    }
}

void MainWindow::onFinished(const RunResultPtr &result)
{
    m_statusTimer->stop();
    m_phase = core::RunPhase::Done;
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
    m_progress->setRange(0, 100);
    m_progress->setValue(
        result && !result->error && !result->stoppedByUser ? 100 : m_progress->value());
    // A stopped or failed run says so on the bar rather than freezing at a percentage.
    if (result && result->error) {
        m_progress->setFormat(tr("failed at %p%"));
        m_progress->setToolTip(tr("The run stopped with an error at this point of the run"));
    } else if (result && result->stoppedByUser) {
        m_progress->setFormat(tr("stopped at %p%"));
        m_progress->setToolTip(tr("The run was stopped at this point; the results cover "
                                  "the time measured"));
    } else {
        m_progress->setFormat(tr("done"));
        m_progress->setToolTip(tr("The run measured every step"));
    }
    m_stop->setToolTip(tr("Stop the run; what was measured is kept. In-flight I/O is waited "
                          "for until the stop deadline; press Stop again to stop waiting for "
                          "a device that does not complete it"));
    m_stopClock.invalidate();
    const bool kept = saveToLibrary(result);
    // What a run measured and nothing keeps is not discarded without asking (a run that
    // measured nothing left the previous results, and their state, in place).
    if (!keepPrevious)
        m_resultUnsaved = !kept && result && !result->steps.empty();
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
    m_statusLabel->setText(tr("Idle · %1").arg(headline));
    if (!result->error && !result->steps.empty() && m_tabs->currentIndex() == LiveTab)
        showPage(m_seriesRun ? SeriesTab : ResultsTab);
    updateRunActions();
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
    return m_statusLabel->text();
}

int MainWindow::progressValue() const
{
    return m_progress->value();
}

QString MainWindow::progressText() const
{
    return m_progress->text();
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

core::Environment MainWindow::environmentFor(const core::RunResult &result) const
{
    // Described by the run when it started (core::RunHooks::describeSystem); a result
    // made elsewhere (tests) may have none, and then still names the tool.
    core::Environment environment = result.environment;
    if (environment.toolVersion.empty())
        environment.toolVersion = IOPRISM_VERSION;
    return environment;
}

bool MainWindow::exportResultsCsv(const QString &path)
{
    if (!m_lastResult)
        return false;
    return writeTextFile(path,
        core::writeIometerCsv(*m_lastResult, environmentFor(*m_lastResult),
            m_lastResult->plan.profile.setup.recordFilter));
}

bool MainWindow::exportTimeSeriesCsv(const QString &path)
{
    if (!m_lastResult)
        return false;
    return writeTextFile(path, core::writeTimeSeriesCsv(*m_lastResult));
}

bool MainWindow::exportResultsJson(const QString &path)
{
    if (!m_lastResult)
        return false;
    if (!writeTextFile(path, core::writeResultsJson(*m_lastResult, environmentFor(*m_lastResult))))
        return false;
    m_resultUnsaved = false; // File › Open shows them again
    return true;
}

namespace {

core::ReportImage reportImage(QCustomPlot *plot, const QString &title)
{
    // A fixed size, whatever the window's: the report reads the same on every screen.
    const QPixmap pixmap = plot->toPixmap(960, 480, 1.0);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    pixmap.save(&buffer, "PNG");
    return {toStdString(title), png.toBase64().toStdString()};
}

} // namespace

bool MainWindow::exportReport(const QString &path)
{
    if (!m_lastResult)
        return false;
    std::vector<core::ReportImage> images;
    if (m_livePlotsShowLastResult)
        for (int p = 0; p < LivePlots::PlotCount; ++p) {
            const auto id = static_cast<LivePlots::PlotId>(p);
            images.push_back(
                reportImage(m_livePage->plots()->plot(id), m_livePage->plots()->plotTitle(id)));
        }
    if (m_seriesRun)
        for (const auto id : m_seriesPage->plots()->shownPlots())
            images.push_back(
                reportImage(m_seriesPage->plots()->plot(id), m_seriesPage->plots()->plotTitle(id)));
    if (m_resultsPage->histogramTotal() > 0)
        images.push_back(reportImage(m_resultsPage->histogram(),
            tr("Latency histogram of the step shown on the Results page")));
    return writeTextFile(
        path, core::writeHtmlReport(*m_lastResult, environmentFor(*m_lastResult), images));
}

bool MainWindow::exportComparisonReport(const QString &path)
{
    const auto &runs = m_comparePage->runs();
    if (runs.size() < 2)
        return false;
    std::vector<const core::RunResult *> results;
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        results.push_back(runs[i].get());
        labels.push_back(toStdString(m_comparePage->labels().value(static_cast<int>(i))));
    }
    const core::ReportImage image = reportImage(m_comparePage->plot(),
        m_comparePage->overSeries() ? tr("IOPS of each run over the swept parameter")
                                    : tr("IOPS of each run over time"));
    return writeTextFile(
        path, core::writeComparisonHtml(m_comparePage->comparison(), results, labels, {&image, 1}));
}

bool MainWindow::exportPlot(LivePlots::PlotId plot, const QString &path)
{
    if (m_livePage->plots()->savePlot(plot, path))
        return true;
    m_messageBar->showMessage(
        MessageBar::Level::Error, tr("Cannot write %1.").arg(QDir::toNativeSeparators(path)));
    return false;
}

bool MainWindow::exportSeriesPlot(SeriesPlots::PlotId plot, const QString &path)
{
    if (m_seriesPage->plots()->savePlot(plot, path))
        return true;
    m_messageBar->showMessage(
        MessageBar::Level::Error, tr("Cannot write %1.").arg(QDir::toNativeSeparators(path)));
    return false;
}

bool MainWindow::exportHistogram(const QString &path)
{
    if (m_resultsPage->saveHistogram(path))
        return true;
    m_messageBar->showMessage(
        MessageBar::Level::Error, tr("Cannot write %1.").arg(QDir::toNativeSeparators(path)));
    return false;
}

void MainWindow::askExport(const QString &title, const QString &filter, const QString &suffix,
    const std::function<bool(const QString &)> &write)
{
    const QString dir
        = QSettings().value(QStringLiteral("paths/exports"), QDir::homePath()).toString();
    auto *dialog = new QFileDialog(this, title, dir, filter);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(suffix);
    dialog->selectFile(
        QStringLiteral("ioprism-%1.%2")
            .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")), suffix));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::filterSelected, dialog, [dialog](const QString &selected) {
        if (selected.contains(QLatin1String("*.pdf")))
            dialog->setDefaultSuffix(QStringLiteral("pdf"));
        else if (selected.contains(QLatin1String("*.png")))
            dialog->setDefaultSuffix(QStringLiteral("png"));
    });
    connect(dialog, &QFileDialog::fileSelected, this, [this, write](const QString &file) {
        QSettings().setValue(QStringLiteral("paths/exports"), QFileInfo(file).absolutePath());
        if (write(file))
            statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(file)), 4000);
    });
    dialog->open();
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
