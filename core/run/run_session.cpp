// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/run_session.h"

#include <exception>
#include <fmt/format.h>

namespace ioprism::core {

RunResult failedRunResult(std::uint64_t runId, std::string operation, std::string detail)
{
    RunResult result;
    result.runId = runId;
    result.startedAt = std::chrono::system_clock::now();
    result.error = OpError {{}, std::move(operation), {}, std::move(detail)};
    return result;
}

namespace {

// The run's test files (never a device), each once, removed as the request asked.
void removeTestFiles(RunResult &result, const std::function<Status(const std::string &)> &remove)
{
    for (const auto &t : result.plan.targetInfos()) {
        if (t.isDevice)
            continue;
        if (!remove) {
            result.testFileRemoval.failed.push_back(
                {{}, "remove test file", t.path, "not supported here"});
            continue;
        }
        if (auto status = remove(t.path); status)
            result.testFileRemoval.removed.push_back(t.path);
        else
            result.testFileRemoval.failed.push_back(status.error());
    }
}

} // namespace

LocalRunSession::LocalRunSession(LocalRunHooks hooks, RunSink &sink)
    : m_hooks(std::move(hooks))
    , m_sink(sink)
{ }

LocalRunSession::~LocalRunSession()
{
    stopNow();
    wait();
}

void LocalRunSession::start(RunRequest request)
{
    if (m_thread.joinable())
        return; // one run per session
    m_thread
        = std::thread([this, request = std::move(request)]() mutable { body(std::move(request)); });
}

void LocalRunSession::stop()
{
    std::lock_guard lock(m_mutex);
    m_stopRequested = true;
    if (m_run)
        m_run->requestStop();
}

void LocalRunSession::endStep(std::size_t step)
{
    std::lock_guard lock(m_mutex);
    if (m_run)
        m_run->requestEndStep(step);
}

void LocalRunSession::stopNow()
{
    std::lock_guard lock(m_mutex);
    m_stopRequested = m_stopNowRequested = true;
    if (m_run)
        m_run->requestStopNow();
}

void LocalRunSession::wait()
{
    if (m_thread.joinable() && m_thread.get_id() != std::this_thread::get_id())
        m_thread.join();
}

void LocalRunSession::body(RunRequest request)
{
    RunResult result;
    try {
        result = execute(request);
    } catch (const std::exception &e) {
        result = failedRunResult(request.settings.runId, "run", e.what());
    } catch (...) {
        result = failedRunResult(request.settings.runId, "run", "unexpected failure");
    }
    // After the engines, the backend and what it held are gone (Windows cannot delete a
    // file that is open).
    if (request.removeTestFiles)
        removeTestFiles(result, m_hooks.removeTestFile);
    // Everything the run owned is released by now: whoever joins this thread after the
    // report does not wait.
    m_sink.onFinished(std::move(result));
}

RunResult LocalRunSession::execute(RunRequest &request)
{
    const std::uint64_t runId = request.settings.runId;
    std::unique_ptr<IoBackend> backend
        = m_hooks.makeBackend ? m_hooks.makeBackend(request.engine) : nullptr;
    if (!backend)
        return failedRunResult(runId, "make the I/O engine",
            fmt::format(
                "the {} engine is not available on this platform", engineKindName(request.engine)));
    std::unique_ptr<CounterSource> counters
        = m_hooks.makeCounters ? m_hooks.makeCounters() : nullptr;
    if (!counters)
        counters = std::make_unique<NullCounterSource>();

    Run run(std::move(request.profile), *backend, *counters, m_sink, request.settings,
        m_hooks.describe);
    {
        std::lock_guard lock(m_mutex);
        m_run = &run;
        if (m_stopNowRequested)
            run.requestStopNow();
        else if (m_stopRequested)
            run.requestStop();
    }
    RunResult result = run.execute();
    {
        std::lock_guard lock(m_mutex);
        m_run = nullptr;
    }
    if (!request.commandLine.empty())
        result.environment.commandLine = request.commandLine;
    return result;
}

RunSessionFactory localRunSessions(LocalRunHooks hooks)
{
    return [hooks = std::move(hooks)](RunSink &sink) -> std::unique_ptr<RunSession> {
        return std::make_unique<LocalRunSession>(hooks, sink);
    };
}

} // namespace ioprism::core
