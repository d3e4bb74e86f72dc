// SPDX-License-Identifier: GPL-3.0-or-later
// Runs benchmarks off the GUI thread and brings what they report to it.
//
// Each run is a core::RunSession (core/run/run_session.h) made by the services' factory:
// in this process today, on an agent tomorrow; this object does not know which. The
// session's sink copies every report (phase, prepare progress, the checked plan, interval
// sample, a step's result as it ends, notice, the result) into a functor posted to this
// object with QMetaObject::invokeMethod(..., Qt::QueuedConnection), tagged with the run's
// id; on the GUI thread the functor emits the signal only if that run is still the one
// shown, so samples of a run that was stopped and replaced are dropped, never drawn.
//
// Nothing here blocks the GUI thread on a run: stop() only asks (RunSession::stop); a
// session is destroyed (its thread joined) when its final report arrives (it has finished
// by then), or when the controller is destroyed (the window closing). No nested event
// loops.
#pragma once

#include "core/run/run_session.h"
#include "ui/metatypes.h"
#include "ui/platform_services.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace ioprism::ui {

class RunController : public QObject
{
    Q_OBJECT
public:
    explicit RunController(PlatformServices services, QObject *parent = nullptr);
    ~RunController() override; // stops every run and joins its thread

    // Starts a run and shows it (a run still going is asked to stop and is no longer
    // shown). Returns the new run's id.
    // The request's run id is set here.
    std::uint64_t start(core::RunRequest request);
    // Asks the shown run to stop; returns at once. What was measured is kept. Asked
    // again, the run stops waiting for in-flight I/O (a device that does not complete it).
    void stop();
    bool isRunning() const { return m_running; }
    std::uint64_t shownRunId() const { return m_shownRunId; }
    // Runs whose sessions have not ended yet (the shown one and stopping ones).
    int activeRunCount() const { return static_cast<int>(m_runs.size()); }

    // Thread-safe: how the runs' sinks report. Public so tests can inject late reports.
    void postPhase(
        std::uint64_t runId, core::RunPhase phase, std::size_t step, std::string stepName);
    // `work`: a core::PrepareWork, what is counted (a test file's bytes, a tree's
    // pre-initialisation operations, preconditioning's bytes or milliseconds).
    void postPrepareProgress(
        std::uint64_t runId, std::string path, std::uint64_t done, std::uint64_t total, int work);
    void postPlan(std::uint64_t runId, std::vector<core::PlannedStep> steps);
    void postInterval(core::IntervalSample sample);
    void postStepResult(std::uint64_t runId, core::StepResult step, core::PlannedStep planned);
    void postNotice(std::uint64_t runId, std::string text);
    void postSteadyState(std::uint64_t runId, std::size_t step, core::SteadyStateRecord record);
    void postFinished(std::uint64_t runId, RunResultPtr result);

signals:
    void started(quint64 runId);
    void phaseChanged(
        quint64 runId, ioprism::core::RunPhase phase, int step, const QString &stepName);
    void prepareProgress(quint64 runId, const QString &path, quint64 done, quint64 total, int work);
    // The targets are prepared and the plan checked against them: the steps that will
    // run (a series' points a target cannot do are left out, with a notice).
    void planReady(quint64 runId, const std::vector<ioprism::core::PlannedStep> &steps);
    void intervalReady(const ioprism::core::IntervalSample &sample);
    // A step ended (a series' point, a cycling step), with its totals and what it ran:
    // the Series view draws each point as it finishes.
    void stepFinished(quint64 runId, const ioprism::core::StepResult &step,
        const ioprism::core::PlannedStep &planned);
    void notice(quint64 runId, const QString &text);
    // A round of a step under a steady-state rule ended: its rounds so far and the rule's
    // judgement (the Live page draws them over the plot of their figure).
    void steadyStateChanged(
        quint64 runId, int step, const ioprism::core::SteadyStateRecord &record);
    void finished(ioprism::ui::RunResultPtr result);
    void runningChanged(bool running);

private:
    struct ActiveRun {
        std::uint64_t id = 0;
        std::unique_ptr<core::RunSink> sink; // outlives the session
        std::unique_ptr<core::RunSession> session;
        bool stopAsked = false;
    };
    void endSession(std::uint64_t runId);
    void setRunning(bool running);

    core::RunSessionFactory m_makeSession;
    std::vector<ActiveRun> m_runs;
    std::uint64_t m_nextRunId = 1;
    std::uint64_t m_shownRunId = 0; // GUI thread only
    bool m_running = false;
};

} // namespace ioprism::ui
