// SPDX-License-Identifier: GPL-3.0-or-later
// The status bar's account of the run shown: what it does (preparing, ramp-up, running,
// stopping) in a label, and how far the whole run has come on a progress bar. The
// reckoning is core::RunProgress's, the one the CLI's ETA uses; this object only says it
// in words, once at each report and every 250 ms in between (the clock of a step).
//
// Not a QObject: its texts keep MainWindow's translation context (the German .ts files
// carry them there), and the window forwards the run controller's reports to it.
#pragma once

#include "core/run/run_progress.h"
#include "ui/metatypes.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QString>

#include <optional>

class QAction;
class QLabel;
class QProgressBar;
class QStatusBar;
class QTimer;
class QWidget;

namespace ioprism::ui {

class RunStatus
{
    Q_DECLARE_TR_FUNCTIONS(ioprism::ui::MainWindow)
public:
    // Adds the label and the progress bar to `bar`; `stop` is the Stop action, whose
    // tooltip says what a second Stop does while the run stops. Both belong to `owner`.
    RunStatus(QStatusBar *bar, QAction *stop, QWidget *owner);

    // A run of `profile` begins: preparing, a busy bar.
    void begin(const core::Profile &profile);
    // The checked plan's step count (a series may lose points a target cannot do).
    void setStepCount(int stepCount);
    void setPhase(core::RunPhase phase, int step, const QString &stepName);
    // Stop was pressed: the countdown to giving up on in-flight I/O starts (a second Stop
    // keeps it).
    void stopAsked();
    // `work`: a core::PrepareWork (RunController::prepareProgress).
    void setPrepareProgress(const QString &path, quint64 done, quint64 total, int work);
    // "Preconditioning: 1.2 GiB of 8 GiB written · ETA 3:10, in no step's figures": the
    // amount (or, for a time, the time) and the time left at the pace so far.
    QString preconditionText(quint64 done, quint64 total) const;
    // The run ended: the bar says done, stopped at or failed at; the label says `headline`.
    void finish(const RunResultPtr &result, const QString &headline);
    // The label alone ("Idle · opened a.json").
    void setText(const QString &text);

    // The run shown's step count, for the Live page's headline.
    int stepCount() const { return m_progress ? static_cast<int>(m_progress->stepCount()) : 0; }
    QString text() const;
    int progressValue() const;
    QString progressText() const;

private:
    void tick();
    QString stoppingText();
    void showFraction();

    QLabel *m_label;
    QProgressBar *m_bar;
    QAction *m_stop;
    QTimer *m_timer;
    std::optional<core::RunProgress> m_progress; // the run shown, from its start
    QString m_stepName;
    QElapsedTimer m_preconditionClock; // since preconditioning began: its ETA's pace
    bool m_preconditionByTime = false; // its progress counts milliseconds, not bytes
    QElapsedTimer m_stopClock; // since Stop was pressed: the countdown to giving up
};

} // namespace ioprism::ui
