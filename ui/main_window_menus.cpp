// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's shell: its actions, menus, tool bar and status bar (the window's wiring is
// in main_window.cpp). A file of its own because the actions' texts and tooltips are long.
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
#include "ui/main_window.h"
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
#include <cmath>

namespace ioprism::ui {

QAction *MainWindow::makeAction(
    IconId id, const QString &text, const QKeySequence &key, const QString &tip)
{
    auto *action = new QAction(icon(id), text, this);
    if (!key.isEmpty())
        action->setShortcut(key);
    action->setToolTip(
        key.isEmpty() ? tip : tr("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
    action->setStatusTip(tip);
    return action;
}

void MainWindow::createActions()
{
    createFileActions();
    createRunActions();
    createManagerActions();
    createExportActions();
}

// File: New, Open, Save, Save As, Quit.
void MainWindow::createFileActions()
{
    // The keys the user guide lists, the same on every platform: QKeySequence::SaveAs
    // (and Quit on Windows) is empty on some platforms and themes, so Ctrl+Shift+S did
    // nothing and the menu showed no key.
    m_new = makeAction(IconId::New, tr("&New"), QKeySequence(Qt::CTRL | Qt::Key_N),
        tr("A new profile: one worker per CPU, Iometer's default spec"));
    m_open = makeAction(IconId::Open, tr("&Open…"), QKeySequence(Qt::CTRL | Qt::Key_O),
        tr("Open a profile (.json) or import an Iometer configuration (.icf)"));
    m_save = makeAction(
        IconId::Save, tr("&Save"), QKeySequence(Qt::CTRL | Qt::Key_S), tr("Save the profile"));
    m_saveAs = makeAction(IconId::SaveAs, tr("Save &As…"),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
        tr("Save the profile as .json, or export it as an Iometer .icf"));
    m_quit = makeAction(IconId::Stop, tr("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q),
        tr("Quit IOPrism (the profile is kept for next time)"));
    m_quit->setIcon(QIcon());
    m_quit->setMenuRole(QAction::QuitRole);
    connect(m_new, &QAction::triggered, this, &MainWindow::newProfile);
    connect(m_open, &QAction::triggered, this, &MainWindow::askOpenFile);
    connect(m_save, &QAction::triggered, this, [this] { askSaveFile(false); });
    connect(m_saveAs, &QAction::triggered, this, [this] { askSaveFile(true); });
    connect(m_quit, &QAction::triggered, this, &QWidget::close);
}

// Run: Start, Stop and what a run keeps.
void MainWindow::createRunActions()
{
    m_start
        = makeAction(IconId::Start, tr("&Start"), QKeySequence(Qt::Key_F5), tr("Run the profile"));
    m_stop = makeAction(IconId::Stop, tr("S&top"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
        tr("Stop the run; what was measured is kept. In-flight I/O is waited for until the "
           "stop deadline; press Stop again to stop waiting for a device that does not "
           "complete it"));
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

    connect(m_start, &QAction::triggered, this,
        [this] { askDiscardResults(tr("starting the next run"), [this](bool) { startRun(); }); });
    connect(m_stop, &QAction::triggered, this, &MainWindow::stopRun);
}

// File › Export: the results files and the plots.
void MainWindow::createExportActions()
{
    m_exportCsv = makeAction(IconId::Export, tr("Results &CSV (Iometer layout)…"), {},
        tr("Save the results as an Iometer-layout CSV file"));
    m_exportTimeSeries = makeAction(IconId::Export, tr("&Time series CSV…"), {},
        tr("Save every interval of every scope as one CSV row"));
    m_exportJson = makeAction(
        IconId::Export, tr("Results &JSON…"), {}, tr("Save everything the run produced as JSON"));
    m_exportReport = makeAction(IconId::Export, tr("&Report (HTML)…"), {},
        tr("Save the run as one HTML file that opens in any browser: what ran, where, all "
           "steps, each step's table and the plots"));
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
    m_files->setRecentMenu(m_recentMenu);
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
    run->addAction(m_addManager);
    run->addSeparator();
    run->addAction(m_removeTestFiles);
    run->addAction(m_saveRuns);

    createViewMenu();
    createHelpMenu();
    m_files->updateRecentMenu();
}

void MainWindow::createViewMenu()
{
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
}

void MainWindow::createHelpMenu()
{
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
    // Qt's own » button, shown when the window is too narrow for every tool, says nothing.
    if (auto *more = bar->findChild<QToolButton *>(QStringLiteral("qt_toolbar_ext_button")))
        more->setToolTip(tr("The tools the window is too narrow to show"));
}

void MainWindow::createStatusBar()
{
    m_status = std::make_unique<RunStatus>(statusBar(), m_stop, this);
}

} // namespace ioprism::ui
