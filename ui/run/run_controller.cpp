// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/run/run_controller.h"

#include <QMetaObject>

#include <algorithm>

namespace ioprism::ui {

namespace {

// Called on the run's control thread: copy, post, return. Never blocks.
class QueuedSink final : public core::RunSink
{
public:
    QueuedSink(RunController *controller, std::uint64_t runId)
        : m_controller(controller)
        , m_runId(runId)
    { }
    void onPhase(core::RunPhase phase, std::size_t step, const std::string &stepName) override
    {
        m_controller->postPhase(m_runId, phase, step, stepName);
    }
    void onPrepareProgress(const std::string &path, std::uint64_t done, std::uint64_t total,
        core::PrepareWork work) override
    {
        // Progress comes per block written: pass on whole percent changes only.
        const int percent = total ? static_cast<int>(done * 100 / total) : 0;
        if (percent == m_lastPercent && path == m_lastPath)
            return;
        m_lastPercent = percent;
        m_lastPath = path;
        m_controller->postPrepareProgress(m_runId, path, done, total, static_cast<int>(work));
    }
    void onPlan(const core::ResolvedPlan &plan) override
    {
        m_controller->postPlan(m_runId, plan.steps);
    }
    void onInterval(const core::IntervalSample &sample) override
    {
        m_controller->postInterval(sample);
    }
    void onStepResult(const core::StepResult &step, const core::PlannedStep &planned) override
    {
        m_controller->postStepResult(m_runId, step, planned);
    }
    void onNotice(const std::string &text) override { m_controller->postNotice(m_runId, text); }
    void onSteadyState(std::size_t step, const core::SteadyStateRecord &record) override
    {
        m_controller->postSteadyState(m_runId, step, record);
    }
    void onFinished(core::RunResult &&result) override
    {
        m_controller->postFinished(
            m_runId, std::make_shared<const core::RunResult>(std::move(result)));
    }

private:
    RunController *m_controller;
    std::uint64_t m_runId;
    int m_lastPercent = -1;
    std::string m_lastPath;
};

} // namespace

RunController::RunController(PlatformServices services, QObject *parent)
    : QObject(parent)
    , m_makeSession(services.makeRunSession ? std::move(services.makeRunSession)
                                            : core::localRunSessions(localRunHooks(services)))
{
    qRegisterMetaType<core::RunPhase>();
    qRegisterMetaType<core::IntervalSample>();
    qRegisterMetaType<core::StepResult>();
    qRegisterMetaType<core::PlannedStep>();
    qRegisterMetaType<core::SteadyStateRecord>();
    qRegisterMetaType<std::vector<core::PlannedStep>>();
    qRegisterMetaType<RunResultPtr>();
}

RunController::~RunController()
{
    // Closing the window does not wait for a device that stopped completing I/O; each
    // session joins its run as it goes. The runs' last posts target this object and are
    // discarded with it.
    for (auto &run : m_runs)
        run.session->stopNow();
    m_runs.clear();
}

std::uint64_t RunController::start(core::RunRequest request)
{
    // A run still going is replaced: ask it to stop; its session ends when its final
    // report arrives. Its samples no longer reach the screen.
    for (auto &run : m_runs) {
        if (!run.stopAsked)
            run.session->stop();
        run.stopAsked = true;
    }

    const std::uint64_t id = m_nextRunId++;
    m_shownRunId = id;
    request.settings.runId = id;
    ActiveRun active;
    active.id = id;
    active.sink = std::make_unique<QueuedSink>(this, id);
    active.session = m_makeSession(*active.sink);
    core::RunSession &session = *active.session;
    m_runs.push_back(std::move(active));
    session.start(std::move(request));
    setRunning(true);
    emit started(id);
    return id;
}

void RunController::stop()
{
    // The user's Stop: a second one does not wait for I/O a stuck device never completes.
    for (auto &run : m_runs)
        if (run.id == m_shownRunId) {
            if (run.stopAsked)
                run.session->stopNow();
            else
                run.session->stop();
            run.stopAsked = true;
        }
}

void RunController::postPhase(
    std::uint64_t runId, core::RunPhase phase, std::size_t step, std::string stepName)
{
    QMetaObject::invokeMethod(
        this,
        [this, runId, phase, step, name = std::move(stepName)] {
            if (runId == m_shownRunId)
                emit phaseChanged(
                    runId, phase, static_cast<int>(step), QString::fromStdString(name));
        },
        Qt::QueuedConnection);
}

void RunController::postPrepareProgress(
    std::uint64_t runId, std::string path, std::uint64_t done, std::uint64_t total, int work)
{
    QMetaObject::invokeMethod(
        this,
        [this, runId, path = std::move(path), done, total, work] {
            if (runId == m_shownRunId)
                emit prepareProgress(runId, QString::fromStdString(path), done, total, work);
        },
        Qt::QueuedConnection);
}

void RunController::postPlan(std::uint64_t runId, std::vector<core::PlannedStep> steps)
{
    QMetaObject::invokeMethod(
        this,
        [this, runId, steps = std::move(steps)] {
            if (runId == m_shownRunId)
                emit planReady(runId, steps);
        },
        Qt::QueuedConnection);
}

void RunController::postInterval(core::IntervalSample sample)
{
    // The sample is moved into the functor: one copy per interval (made by the sink's
    // caller), none on the GUI thread.
    QMetaObject::invokeMethod(
        this,
        [this, sample = std::move(sample)] {
            if (sample.runId == m_shownRunId)
                emit intervalReady(sample);
        },
        Qt::QueuedConnection);
}

void RunController::postStepResult(
    std::uint64_t runId, core::StepResult step, core::PlannedStep planned)
{
    // Once per step (not per interval): the copy of its histograms is not on a hot path.
    QMetaObject::invokeMethod(
        this,
        [this, runId, step = std::move(step), planned = std::move(planned)] {
            if (runId == m_shownRunId)
                emit stepFinished(runId, step, planned);
        },
        Qt::QueuedConnection);
}

void RunController::postSteadyState(
    std::uint64_t runId, std::size_t step, core::SteadyStateRecord record)
{
    // Once per round (a minute by PTS's default): a few dozen numbers.
    QMetaObject::invokeMethod(
        this,
        [this, runId, step, record = std::move(record)] {
            if (runId == m_shownRunId)
                emit steadyStateChanged(runId, static_cast<int>(step), record);
        },
        Qt::QueuedConnection);
}

void RunController::postNotice(std::uint64_t runId, std::string text)
{
    QMetaObject::invokeMethod(
        this,
        [this, runId, text = std::move(text)] {
            if (runId == m_shownRunId)
                emit notice(runId, QString::fromStdString(text));
        },
        Qt::QueuedConnection);
}

void RunController::postFinished(std::uint64_t runId, RunResultPtr result)
{
    QMetaObject::invokeMethod(
        this,
        [this, runId, result = std::move(result)] {
            endSession(runId);
            if (runId != m_shownRunId)
                return;
            setRunning(false);
            emit finished(result);
        },
        Qt::QueuedConnection);
}

void RunController::endSession(std::uint64_t runId)
{
    auto it = std::find_if(
        m_runs.begin(), m_runs.end(), [&](const ActiveRun &r) { return r.id == runId; });
    if (it == m_runs.end())
        return;
    // The session posted this as its last act: it is returning, the join is immediate.
    m_runs.erase(it);
}

void RunController::setRunning(bool running)
{
    if (running == m_running)
        return;
    m_running = running;
    emit runningChanged(running);
}

} // namespace ioprism::ui
