// SPDX-License-Identifier: GPL-3.0-or-later
// The main window: topology dock, pages (Targets, Access Specifications, Test Setup,
// Live, Results), menus, toolbar, status bar and the message bar.
//
// Every dialog is opened with open() (window-modal, asynchronous), never exec(): the
// GUI thread runs no nested event loop. Errors go to the non-modal message bar.
#pragma once

#include "ui/help.h"
#include "ui/icons.h"
#include "ui/metatypes.h"
#include "ui/platform_services.h"
#include "ui/plots/live_plots.h"
#include "ui/plots/series_plot.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QSize>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QTabWidget;
class QTimer;

namespace ioprism::ui {

class LivePage;
class ManagerDialog;
class Managers;
class MessageBar;
class ProfileDocument;
class ComparePage;
class HistoryPage;
class ResultsPage;
class RunController;
class ProfileFiles;
class ResultsExports;
class ResultsKeeper;
class RunStatus;
class SeriesPage;
class SetupPage;
class SpecsPage;
class TargetsPage;
class WorkerPanel;

struct MainWindowOptions {
    // Restore the last session (window layout, the last profile) from QSettings; a
    // first launch (nothing saved) starts from the quick preset.
    bool restoreSession = true;
    // Where the first launch puts its test file; "" = QStandardPaths::AppLocalDataLocation
    // (a folder this user can write on every platform, never roamed on Windows).
    QString dataDirectory;
    // The run library's folder (platform::runLibraryDirectory, shared with the CLI);
    // "" = no library: runs are not kept and History lists nothing.
    QString runLibraryDirectory;
};

// The window's first size: `preferred`, made smaller where the screen's available area
// (without panels and docks) is smaller, with room for the window manager's frame and
// title bar, so that a first launch on a 1024x700 screen keeps the status bar on screen.
QSize fitWindowSize(QSize preferred, QSize available);

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    // The Series tab is shown while the last run started is a series (or Iometer's
    // queue-depth cycling), hidden otherwise.
    enum Page {
        TargetsTab,
        SpecsTab,
        SetupTab,
        LiveTab,
        ResultsTab,
        SeriesTab,
        HistoryTab,
        CompareTab
    };

    explicit MainWindow(
        PlatformServices services, MainWindowOptions options = {}, QWidget *parent = nullptr);
    ~MainWindow() override;

    // ---- what the menus do, callable directly (tests, command line)
    // Results files are read off the GUI thread (ResultsKeeper::readResults), the status
    // bar saying "Opening…" meanwhile: openResults, loadProfileOfResults and compareFiles
    // only begin, and end with resultsOpened, profileOfResultsLoaded or runsCompared, or
    // with openFailed (the message bar says why). The latest of them wins: one asked for
    // while another reads drops the earlier, which ends with no signal at all.
    //
    // A .json profile or an .icf import (read here: they are small, at most 4 MiB), or a
    // results JSON (openResults). False when a profile could not be opened; true for a
    // results file, whose reading has begun.
    bool openFile(const QString &path);
    // A results JSON on the Live, Results and Series pages, as at the end of its run; a
    // file that is damaged, cut off or from a newer IOPrism is refused with the reason.
    void openResults(const QString &path);
    // The profile a results file ran (as it ran, seeds included) into the editor.
    void loadProfileOfResults(const QString &path);
    // Two or more results files on the Compare page, the first as the baseline (refused
    // with the reason when one cannot be read). False, at once, for fewer than two.
    bool compareFiles(const QStringList &paths);
    bool saveFile(const QString &path); // .json, or .icf export (warnings in the message bar)
    void newProfile();
    bool applyPreset(const std::string &name);
    // Assigns a test file to the selected worker; when the worker has other targets, asks
    // whether the file replaces them or joins them (a dialog, "addTestFileDialog").
    void addTestFile(const std::string &path);
    // Assigns a file tree chosen in `folder` to the selected worker: made in the folder
    // when IOPrism made a tree there before, else in ioprism-tree inside it (the command
    // line's rule, fileTreePlace); asks like addTestFile ("addFileTreeDialog").
    void addFileTree(const std::string &folder);
    // Asks where the target of a Targets-page row should point ("repointDialog").
    void askRepoint(int row);
    // Starts the profile (after the raw-device confirmation when one is written).
    // Returns false when the profile cannot run (the message bar says why).
    bool startRun();
    void stopRun();
    bool exportResultsCsv(const QString &path);
    bool exportTimeSeriesCsv(const QString &path);
    // The results files are written off the GUI thread (ResultsKeeper): true when the
    // write was started; a write that fails says so in the message bar. `then` runs once
    // the results JSON is written.
    bool exportResultsJson(const QString &path, const std::function<void()> &then = {});
    // The run as one self-contained HTML file (core/report/html_report.h) with the plots
    // of the Live, Results and Series pages embedded as PNG.
    bool exportReport(const QString &path);
    // The comparison on the Compare page as one HTML file (core::writeComparisonHtml),
    // with the page's plot embedded as PNG.
    bool exportComparisonReport(const QString &path);
    bool exportPlot(LivePlots::PlotId plot, const QString &path);
    bool exportHistogram(const QString &path);
    bool exportSeriesPlot(SeriesPlots::PlotId plot, const QString &path);
    // Saves the window of the Live and Results pages (after a run) into `directory`, and
    // of the Series page (series.png) when the run was a series.
    void saveScreenshots(const QString &directory, const std::function<void()> &done);
    void showPage(Page page);
    // The page a command line names (--page): targets, specs, setup, live, results,
    // series, history, compare; nullopt for another name.
    static std::optional<Page> pageNamed(const QString &name);
    static QStringList pageNames();
    // Help > User Guide (F1): opens the installed guide with the desktop's handler, or
    // says in the message bar where it was looked for. False when it was not opened.
    bool openUserGuide(const QStringList &candidates);
    bool openUserGuide() { return openUserGuide(userGuideCandidates()); }
    // Tests: stop each step after this many I/Os per target (0 = no limit).
    void setIoLimitPerTarget(std::uint64_t limit) { m_ioLimitPerTarget = limit; }

    ProfileDocument *document() const { return m_document; }
    RunController *runController() const { return m_controller; }
    // Managers on other hosts (ui/main_window_managers.cpp): the bindings, and the
    // actions that add one, bind an .icf's manager, or remove one.
    Managers *managers() const { return m_managers; }
    QAction *addManagerAction() const { return m_addManager; }
    // Opens the manager dialog for host `hostId` (0: a new manager), non-modal.
    ManagerDialog *askManager(std::uint32_t hostId = 0);
    void removeManager(std::uint32_t hostId);
    WorkerPanel *workerPanel() const { return m_workerPanel; }
    TargetsPage *targetsPage() const { return m_targetsPage; }
    SpecsPage *specsPage() const { return m_specsPage; }
    SetupPage *setupPage() const { return m_setupPage; }
    LivePage *livePage() const { return m_livePage; }
    ResultsPage *resultsPage() const { return m_resultsPage; }
    HistoryPage *historyPage() const { return m_historyPage; }
    ComparePage *comparePage() const { return m_comparePage; }
    SeriesPage *seriesPage() const { return m_seriesPage; }
    bool isPageShown(Page page) const;
    MessageBar *messageBar() const { return m_messageBar; }
    QAction *startAction() const { return m_start; }
    QAction *newAction() const { return m_new; }
    QAction *openAction() const { return m_open; }
    // Run › Keep Every Run in the History (kept in the settings).
    QAction *saveRunsAction() const { return m_saveRuns; }
    QAction *saveAction() const { return m_save; }
    // The results shown were saved nowhere (not kept in the history, not exported as a
    // results JSON, not opened from a file): Start, New, Open and Quit ask before they
    // discard them.
    bool hasUnsavedResults() const { return m_resultUnsaved && m_lastResult; }
    QAction *stopAction() const { return m_stop; }
    QAction *userGuideAction() const { return m_userGuide; }
    // Run > Remove Test Files After the Run (kept in the settings), like the CLI's
    // --remove-test-files: after a run, the test files IOPrism made are deleted.
    QAction *removeTestFilesAction() const { return m_removeTestFiles; }
    QString progressText() const; // what the progress bar shows ("stopped at 40 %")
    QString statusText() const;
    int progressValue() const;
    QStringList recentFiles() const;
    const RunResultPtr &lastResult() const { return m_lastResult; }
    // Writes the results files and the history's runs off the GUI thread.
    ResultsKeeper *resultsKeeper() const { return m_keeper; }

signals:
    void runFinished(ioprism::ui::RunResultPtr result);
    // The ends of the results files' reads (see openFile).
    void resultsOpened(const QString &path);
    void profileOfResultsLoaded(const QString &path);
    void runsCompared(const QStringList &paths);
    void openFailed(const QString &path);
    // The program was started again with administrator rights (Restart as Administrator),
    // with `arguments`: this window closes now, without asking about unsaved edits (the
    // profile went to the new process). The application ends when its last window is
    // closed, so a test can watch this without ending.
    void restartedElevated(const QStringList &arguments);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    // A finished or opened run on the Live, Results and Series pages.
    void showResult(const RunResultPtr &result);
    // Starts keeping the run in the history (true), then `then` once it is kept or could
    // not be; false, and no `then`, when the history is off.
    bool saveToLibrary(const RunResultPtr &result, const std::function<void()> &then);
    // The Live, Results and Series pages back to "no run yet".
    void clearResults();
    // Reads results files off the GUI thread, then `then` with their runs in the order of
    // `paths`; a file that cannot be read: the reason in the message bar and openFailed,
    // no `then`. Neither when a later read was asked for meanwhile.
    void readResults(
        const QStringList &paths, const std::function<void(std::vector<RunResultPtr> runs)> &then);
    bool looksLikeResults(const QString &path) const;
    void createPages();
    QDockWidget *createDock();
    void connectPages();
    void connectRuns();
    QAction *makeAction(
        IconId id, const QString &text, const QKeySequence &key, const QString &tip);
    void createActions();
    void createFileActions();
    void createRunActions();
    void createExportActions();
    void createMenus();
    void createViewMenu();
    void createHelpMenu();
    void createToolBar();
    void createStatusBar();
    void restoreSession();
    void saveSession() const;
    void savePolling() const;
    void refreshTargets();
    void updateTitle();
    void updateRunActions();
    void reportTestFileRemoval(const core::TestFileRemoval &removal);
    QString dataDirectory() const;
    QString defaultTestFile() const;

    void beginRun(bool allowDeviceWrites);
    void createManagerActions();
    void onManagerReached(std::uint32_t hostId, const ReachedManager &manager);
    void showTopologyMenu(const QPoint &at);
    // Restart as Administrator: the profile into a file the new process opens, the
    // restart, then this window closes; an error (declined) in the message bar.
    void restartElevated();
    // The profile file for the elevated process: the document's own when that is saved
    // and unmodified, else a copy in the data folder; "" (the bar says why) when not saved.
    QString profileForRestart();
    void onPhase(quint64 runId, core::RunPhase phase, int step, const QString &stepName);
    void onPrepareProgress(
        quint64 runId, const QString &path, quint64 done, quint64 total, int work);
    void onFinished(const RunResultPtr &result);

    // Asynchronous file dialogs (open(), no nested event loop).
    void askOpenFile();
    void openFileDialog(bool resultsDiscarded);
    // Saves to the profile's file, or asks where (always with forceDialog); over an .icf
    // that cannot carry the whole profile, asks first and offers JSON (preferJson then
    // proposes the same name as .json).
    void askSaveFile(bool forceDialog);
    void askExport(const QString &title, const QString &filter, const QString &suffix,
        const std::function<bool(const QString &)> &write);
    void askDiscardChanges(const std::function<void()> &then);
    // Before `action` ("quitting") discards unsaved results: Save Results… (a results
    // JSON, then `then`), Discard (`then(true)`) or Cancel (nothing). Without unsaved
    // results, `then(false)` at once.
    void askDiscardResults(const QString &action, const std::function<void(bool discarded)> &then);
    // Open, Open Recent, a drop: the profile's and the results' questions, then the file.
    void askOpen(const QString &path);

    PlatformServices m_services;
    MainWindowOptions m_options;
    ProfileDocument *m_document;
    Managers *m_managers; // before m_controller: its session factory uses it
    RunController *m_controller;
    MessageBar *m_messageBar;
    QTabWidget *m_tabs;
    WorkerPanel *m_workerPanel;
    TargetsPage *m_targetsPage;
    SpecsPage *m_specsPage;
    SetupPage *m_setupPage;
    LivePage *m_livePage;
    ResultsPage *m_resultsPage;
    SeriesPage *m_seriesPage;
    HistoryPage *m_historyPage = nullptr;
    ComparePage *m_comparePage = nullptr;
    ResultsKeeper *m_keeper;

    QAction *m_new = nullptr;
    QAction *m_open = nullptr;
    QAction *m_save = nullptr;
    QAction *m_saveAs = nullptr;
    QAction *m_addManager = nullptr;
    QAction *m_start = nullptr;
    QAction *m_stop = nullptr;
    QAction *m_exportCsv = nullptr;
    QAction *m_exportTimeSeries = nullptr;
    QAction *m_exportJson = nullptr;
    QAction *m_exportReport = nullptr;
    QList<QAction *> m_exportPlots;
    QList<QAction *> m_exportSeriesPlots; // per SeriesPlots::PlotId
    QAction *m_showSeries = nullptr; // View > Series
    QAction *m_quit = nullptr;
    QAction *m_removeTestFiles = nullptr;
    QAction *m_saveRuns = nullptr; // keep every run in the run library (History)
    QAction *m_userGuide = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_presetsMenu = nullptr;
    QMenu *m_exportMenu = nullptr;

    std::unique_ptr<ProfileFiles> m_files; // open, save, recent files of the profile
    std::unique_ptr<ResultsExports> m_exports; // File › Export and the pages' exports
    std::unique_ptr<RunStatus> m_status; // the status bar's label and progress bar
    QString m_statusBeforeReading; // the label before "Opening…", back when the read ends

    RunResultPtr m_lastResult;
    bool m_resultUnsaved = false; // m_lastResult is in no file (see hasUnsavedResults)
    bool m_quitConfirmed = false; // Quit was asked about the unsaved results and confirmed
    bool m_closeWhenKept = false; // a close waits for the results being written
    std::uint64_t m_ioLimitPerTarget = 0;
    bool m_seriesRun = false; // the run shown is a series: the Series page draws it
    bool m_livePlotsShowLastResult = false; // the Live page's plots are m_lastResult's run
};

} // namespace ioprism::ui
