// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/run/run_controller.h"

#include "core/run/run.h"

#include <QMetaObject>

#include <algorithm>
#include <exception>

namespace ioprism::ui {

// The run's thread creates the Run; the GUI thread may ask it to stop at any moment,
// before it exists or after it is gone. The mutex guards `run` and `stopRequested`.
struct RunController::Handle {
    std::mutex mutex;
    core::Run *run = nullptr;
    bool stopRequested = false;

    // The user's Stop: a second one does not wait for I/O a stuck device never
    // completes. A run being replaced by a new one is only asked once (escalate false).
    void requestStop(bool escalate = true)
    {
        std::lock_guard lock(mutex);
        const bool again = stopRequested;
        stopRequested = true;
        if (run && again && escalate)
            run->requestStopNow();
        else if (run)
            run->requestStop();
    }
    void requestStopNow()
    {
        std::lock_guard lock(mutex);
        stopRequested = true;
        if (run)
            run->requestStopNow();
    }
};

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
        m_controller->postPrepareProgress(
            m_runId, path, done, total, work == core::PrepareWork::PreInitialising);
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

private:
    RunController *m_controller;
    std::uint64_t m_runId;
    int m_lastPercent = -1;
    std::string m_lastPath;
};

RunResultPtr failedResult(std::uint64_t runId, std::string operation, std::string detail)
{
    auto result = std::make_shared<core::RunResult>();
    result->runId = runId;
    result->startedAt = std::chrono::system_clock::now();
    result->error = core::OpError {{}, std::move(operation), {}, std::move(detail)};
    return result;
}

} // namespace

RunController::RunController(PlatformServices services, QObject *parent)
    : QObject(parent)
    , m_services(std::move(services))
{
    qRegisterMetaType<core::RunPhase>();
    qRegisterMetaType<core::IntervalSample>();
    qRegisterMetaType<core::StepResult>();
    qRegisterMetaType<core::PlannedStep>();
    qRegisterMetaType<std::vector<core::PlannedStep>>();
    qRegisterMetaType<RunResultPtr>();
}

RunController::~RunController()
{
    // Closing the window does not wait for a device that stopped completing I/O.
    for (auto &run : m_runs)
        run.handle->requestStopNow();
    // The window is closing: waiting here is what the user asked for. The threads'
    // last posts target this object and are discarded with it.
    for (auto &run : m_runs)
        if (run.thread.joinable())
            run.thread.join();
}

std::uint64_t RunController::start(RunRequest request)
{
    // A run still going is replaced: ask it to stop; its thread is joined when its
    // final report arrives. Its samples no longer reach the screen.
    for (auto &run : m_runs)
        run.handle->requestStop(false);

    const std::uint64_t id = m_nextRunId++;
    m_shownRunId = id;
    ActiveRun active;
    active.id = id;
    active.handle = std::make_shared<Handle>();
    auto handle = active.handle;
    const PlatformServices services = m_services;
    active.thread
        = std::thread([this, id, handle, services, request = std::move(request)]() mutable {
              RunResultPtr result;
              try {
                  std::unique_ptr<core::IoBackend> backend
                      = services.makeBackend ? services.makeBackend(request.engine) : nullptr;
                  std::unique_ptr<core::CounterSource> counters
                      = services.makeCounters ? services.makeCounters() : nullptr;
                  if (!counters)
                      counters = std::make_unique<core::NullCounterSource>();
                  if (!backend) {
                      result = failedResult(id, "make the I/O engine",
                          "this engine is not available on this platform");
                  } else {
                      QueuedSink sink(this, id);
                      core::RunOptions options;
                      options.runId = id;
                      options.allowDeviceWrites = request.allowDeviceWrites;
                      options.ioLimitPerTarget = request.ioLimitPerTarget;
                      options.describeSystem = services.describeSystem;
                      options.describeDevice = services.describeDevice;
                      core::Run run(std::move(request.profile), *backend, *counters, sink, options);
                      {
                          std::lock_guard lock(handle->mutex);
                          handle->run = &run;
                          if (handle->stopRequested)
                              run.requestStop();
                      }
                      auto value = std::make_shared<core::RunResult>(run.execute());
                      {
                          std::lock_guard lock(handle->mutex);
                          handle->run = nullptr;
                      }
                      result = std::move(value);
                  }
              } catch (const std::exception &e) {
                  result = failedResult(id, "run", e.what());
              } catch (...) {
                  result = failedResult(id, "run", "unexpected failure");
              }
              // Everything the run owned is released by now: the GUI thread's join is quick.
              postFinished(id, std::move(result));
          });
    m_runs.push_back(std::move(active));
    setRunning(true);
    emit started(id);
    return id;
}

void RunController::stop()
{
    for (auto &run : m_runs)
        if (run.id == m_shownRunId)
            run.handle->requestStop();
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

void RunController::postPrepareProgress(std::uint64_t runId, std::string path, std::uint64_t done,
    std::uint64_t total, bool preInitialising)
{
    QMetaObject::invokeMethod(
        this,
        [this, runId, path = std::move(path), done, total, preInitialising] {
            if (runId == m_shownRunId)
                emit prepareProgress(
                    runId, QString::fromStdString(path), done, total, preInitialising);
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
            joinFinished(runId);
            if (runId != m_shownRunId)
                return;
            setRunning(false);
            emit finished(result);
        },
        Qt::QueuedConnection);
}

void RunController::joinFinished(std::uint64_t runId)
{
    auto it = std::find_if(
        m_runs.begin(), m_runs.end(), [&](const ActiveRun &r) { return r.id == runId; });
    if (it == m_runs.end())
        return;
    // The thread posted this as its last act: it is returning, the join is immediate.
    if (it->thread.joinable())
        it->thread.join();
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
