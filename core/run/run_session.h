// SPDX-License-Identifier: GPL-3.0-or-later
// One interface for a run wherever it runs: in this process (LocalRunSession), on an
// agent on another host, on the ranks of an MPI job. The GUI's RunController and the CLI
// drive a RunSession and do not know which kind it is; each new place a run can live is
// one more implementation beside LocalRunSession (docs/architecture.md).
//
// The shape is fio's client_ops and Qt Creator's RunControl: start() returns at once; the
// run reports through its RunSink (core/run/run_sink.h) on a thread of the session's
// (never the caller's), ending with exactly one onFinished(RunResult), its last report.
// stop() and stopNow() may be called from any thread at any time, before the run has
// begun or after it has ended. Every event and the request are plain values that the
// session codecs (core/run/session_codec.h) carry across a process boundary.
#pragma once

#include "core/counters.h"
#include "core/engine.h"
#include "core/run/run.h"
#include "core/run/run_request.h"
#include "core/run/run_sink.h"
#include "core/run/step_gate.h"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace ioprism::core {

class RunSession
{
public:
    virtual ~RunSession() = default;

    // Starts the run asked for; returns at once. Called once per session.
    virtual void start(RunRequest request) = 0;
    // Stop: each step's in-flight I/O is waited for until the stop deadline; what was
    // measured is kept and reported.
    virtual void stop() = 0;
    // Stop, and stop waiting for in-flight I/O now (a device that does not complete it).
    virtual void stopNow() = 0;
    // Blocks until the run has reported onFinished (at once if it never started).
    virtual void wait() = 0;
    // Stonewalling: ends step `step` now if it is the one running (Run::requestEndStep);
    // the run goes on with the next step. Thread-safe; does not block.
    virtual void endStep(std::size_t /*step*/) { }

    // The run's host clock against this process's, for a session on another host (an
    // agent): what its steps' start times were corrected by. nullopt: the same clock.
    virtual std::optional<ClockOffset> clockOffset() const { return std::nullopt; }
};

// Makes a session that reports to `sink` (which must outlive it).
using RunSessionFactory = std::function<std::unique_ptr<RunSession>(RunSink &sink)>;

// What a run in this process needs from it: the platform layer's engines, counters,
// descriptions and test-file removal. core has none of them; the GUI and the CLI pass
// the platform's.
struct LocalRunHooks {
    // nullptr when the engine is not available on this platform.
    std::function<std::unique_ptr<IoBackend>(EngineKind)> makeBackend;
    // Device and CPU counters; unset or nullptr: none (core::NullCounterSource).
    std::function<std::unique_ptr<CounterSource>()> makeCounters;
    RunHooks describe;
    // Removes one test file IOPrism made (refuses anything else); unset: the request's
    // removeTestFiles is refused with a reason in RunResult::testFileRemoval.
    std::function<Status(const std::string &path)> removeTestFile;
};

// A run on a thread of this process: the backend and counters made for the request's
// engine, a core::Run executed, the test files removed when asked, the result reported.
// Nothing escapes the thread: an exception becomes the result's error.
class LocalRunSession final : public RunSession
{
public:
    LocalRunSession(LocalRunHooks hooks, RunSink &sink);
    // Stops the run without waiting for in-flight I/O and joins its thread: destroying a
    // session never leaves a run writing behind it.
    ~LocalRunSession() override;
    LocalRunSession(const LocalRunSession &) = delete;
    LocalRunSession &operator=(const LocalRunSession &) = delete;

    void start(RunRequest request) override;
    void stop() override;
    void stopNow() override;
    void wait() override;
    void endStep(std::size_t step) override;

private:
    void body(RunRequest request);
    RunResult execute(RunRequest &request);

    LocalRunHooks m_hooks;
    RunSink &m_sink;
    // Guards m_run (set while it executes) and the stop requests made before it existed.
    std::mutex m_mutex;
    Run *m_run = nullptr;
    bool m_stopRequested = false;
    bool m_stopNowRequested = false;
    std::thread m_thread;
};

// The result of a run that ended before it began (a request that could not be read, an
// engine this platform lacks): its error, and nothing measured.
RunResult failedRunResult(std::uint64_t runId, std::string operation, std::string detail);

// A factory of LocalRunSessions with these hooks.
RunSessionFactory localRunSessions(LocalRunHooks hooks);

} // namespace ioprism::core
