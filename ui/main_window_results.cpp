// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's results shown: a finished or opened run on the Live, Results and Series
// pages, the question before unsaved results are discarded, results files opened and
// compared, and the run kept in the history (written off the GUI thread by the
// ResultsKeeper). The window's wiring is in main_window.cpp.
#include "core/library/run_library.h"
#include "core/profile/icf.h"
#include "core/profile/presets.h"
#include "core/profile/profile_file.h"
#include "core/profile/profile_json.h"
#include "core/report/csv.h"
#include "core/report/html_report.h"
#include "core/report/results_json.h"
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

// A results file says so in its first lines ("format": "ioprism-results"); a profile or
// an .icf does not. Read only the head: a results file can be tens of MB. Through the
// bounded reader: a FIFO or a device dropped on the window never blocks it.
bool MainWindow::looksLikeResults(const QString &path) const
{
    if (!m_services.readFileHead)
        return false;
    const core::InputFileText head = m_services.readFileHead(toFilesystemPath(path), 4096);
    return !head.problem && head.text.find("\"format\"") != std::string::npos
        && head.text.find("\"ioprism-results\"") != std::string::npos;
}

void MainWindow::readResults(
    const QStringList &paths, const std::function<void(std::vector<RunResultPtr> runs)> &then)
{
    // A long run's file takes seconds to parse: the keeper reads it off the GUI thread
    // and the status bar says so meanwhile. The label as it was comes back when the
    // read ends, unless something else (a run) has written it since.
    QStringList names;
    for (const QString &path : paths)
        names << QFileInfo(path).fileName();
    const QString busy = tr("Opening %1…").arg(names.join(QStringLiteral(", ")));
    if (!m_keeper->isReading())
        m_statusBeforeReading = m_status->text();
    m_status->setText(busy);
    m_keeper->readResults(paths, m_services.readFile,
        [this, busy, paths, then](const std::vector<ResultsFileRead> &files) {
            if (m_status->text() == busy)
                m_status->setText(m_statusBeforeReading);
            std::vector<RunResultPtr> runs;
            for (const ResultsFileRead &file : files) {
                const QString name = QFileInfo(file.path).fileName();
                if (file.failure == ResultsFileRead::Failure::Unreadable) {
                    m_messageBar->showMessage(MessageBar::Level::Error,
                        tr("%1 cannot be read: %2").arg(name, file.problem));
                } else if (file.failure == ResultsFileRead::Failure::NotOpened) {
                    m_messageBar->showMessage(MessageBar::Level::Error,
                        tr("%1 cannot be opened: %2").arg(name, file.problem));
                }
                if (!file.ok()) {
                    emit openFailed(file.path);
                    return;
                }
                runs.push_back(file.result);
            }
            if (runs.size() == static_cast<std::size_t>(paths.size()))
                then(std::move(runs));
        });
}

bool MainWindow::saveToLibrary(const RunResultPtr &result, const std::function<void()> &then)
{
    if (!result || m_options.runLibraryDirectory.isEmpty() || !m_saveRuns->isChecked())
        return false;
    m_keeper->saveToLibrary(result, environmentOf(*result),
        m_options.runLibraryDirectory.toStdString(), m_services.readFile,
        [this, result, then](const QString &error) {
            if (error.isEmpty()) {
                m_historyPage->refresh();
            } else {
                m_messageBar->showMessage(MessageBar::Level::Error,
                    tr("The run could not be kept in the history: %1").arg(error),
                    tr("Export it now (File › Export › Results JSON) to keep it."));
                // Counted as kept while it was being saved: not any more.
                if (m_lastResult == result && !result->steps.empty())
                    m_resultUnsaved = true;
            }
            if (then)
                then();
        });
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
                    // Once written (a failure: the message bar says why, nothing goes on),
                    // after the dialog has returned: `then` may close the window.
                    return exportResultsJson(path,
                        [this, then] { QTimer::singleShot(0, this, [then] { then(false); }); });
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

void MainWindow::openResults(const QString &path)
{
    readResults({path}, [this, path](std::vector<RunResultPtr> runs) {
        // A run started while the file was read keeps the pages.
        if (m_controller->isRunning()) {
            m_messageBar->showMessage(MessageBar::Level::Warning,
                tr("A run is going on: open the results when it ends."));
            emit openFailed(path);
            return;
        }
        showResult(runs.front());
        m_resultUnsaved = false; // it is that file
        const QString when = QLocale().toString(
            QDateTime::fromSecsSinceEpoch(std::chrono::duration_cast<std::chrono::seconds>(
                m_lastResult->startedAt.time_since_epoch())
                                              .count()),
            QLocale::ShortFormat);
        m_livePage->setHeadline(
            tr("Opened: the run of %1 (%2)").arg(when, QFileInfo(path).fileName()));
        m_status->setText(tr("Idle · opened %1").arg(QFileInfo(path).fileName()));
        showPage(m_seriesRun ? SeriesTab : ResultsTab);
        emit resultsOpened(path);
    });
}

void MainWindow::loadProfileOfResults(const QString &path)
{
    readResults({path}, [this, path](std::vector<RunResultPtr> runs) {
        // Unsaved: the profile came from a results file, not from a profile file.
        m_document->setProfile(runs.front()->plan.profile);
        m_workerPanel->setCurrentWorker(0);
        m_messageBar->showMessage(MessageBar::Level::Information,
            tr("The profile of %1 is loaded, as it ran (seeds included): Start runs it again.")
                .arg(QFileInfo(path).fileName()));
        showPage(SetupTab);
        emit profileOfResultsLoaded(path);
    });
}

bool MainWindow::compareFiles(const QStringList &paths)
{
    if (paths.size() < 2) {
        m_messageBar->showMessage(
            MessageBar::Level::Warning, tr("Choose two or more runs to compare."));
        return false;
    }
    readResults(paths, [this, paths](std::vector<RunResultPtr> runs) {
        QStringList labels;
        for (const QString &path : paths) {
            // The user's name for a library run, else the file's name without .json.
            QString label = QFileInfo(path).completeBaseName();
            if (m_historyPage->model()->library()) {
                const auto metadata
                    = m_historyPage->model()->library()->metadata(toStdString(label));
                if (metadata && !metadata->name.empty())
                    label = toQString(metadata->name);
            }
            labels << label;
        }
        m_comparePage->setRuns(std::move(runs), labels);
        m_tabs->setTabVisible(CompareTab, true);
        showPage(CompareTab);
        emit runsCompared(paths);
    });
    return true;
}

void MainWindow::showResult(const RunResultPtr &result)
{
    m_lastResult = result;
    m_livePlotsShowLastResult = true;
    m_livePage->clear();
    for (const auto &sample : result->intervals)
        m_livePage->addSample(sample);
    // A run's steady-state rounds as they were drawn live, from what its steps kept.
    for (const auto &step : result->steps)
        if (step.steadyState)
            m_livePage->plots()->setSteadyState(int(step.step), *step.steadyState);
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

} // namespace ioprism::ui
