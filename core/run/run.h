// SPDX-License-Identifier: GPL-3.0-or-later
// A run: prepare the targets, then for each step (the Nth assigned spec of every
// worker) ramp up, measure and stop; live interval samples go to a sink as they are
// made, and the result keeps every interval and the totals of each step.
//
// Threads: execute() runs the control plane on the calling thread (a Boost.Asio
// io_context: the sampling timer and the phase timers); each worker is a std::thread
// that owns its engine, buffers and counters, and shares the step's state (counters,
// latches) by shared_ptr, so a worker stuck on a device can be left behind safely. The sampler
// pulls cumulative counters from the workers (core/stats/live_counters.h): the hot path takes no
// lock.
//
// Failure behaviour: the first error (a refused target, an engine that cannot start, a
// worker thread that cannot be made, an I/O error) is stored in the result and stops the
// run cleanly; everything measured until then is kept; no exception leaves execute().
// requestStop() does the same without an error.
#pragma once

#include "core/counters.h"
#include "core/engine.h"
#include "core/profile/profile.h"
#include "core/report/environment.h"
#include "core/run/interval_history.h"
#include "core/run/results.h"
#include "core/run/run_request.h"
#include "core/run/run_sink.h"
#include "core/run/step_gate.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace ioprism::core {

// What a run asks of the process it runs in: unset (tests), the environment names only
// the tool's version, the engine and the targets.
struct RunHooks {
    // Where the run happens, taken when it starts (RunResult::environment): the system
    // before the first target is prepared, each target's device once it is.
    std::function<Environment()> describeSystem;
    std::function<DeviceFacts(const std::string &path)> describeDevice;
    // When each step starts, for a run on several hosts (core/run/step_gate.h); unset:
    // at once.
    StepGate stepGate;
    // This host's step moved RunSettings::stonewallBytes (core/run/step_gate.h); unset:
    // the step just ends.
    StepAmountDone amountDone;
};

class Run
{
public:
    Run(Profile profile, IoBackend &backend, CounterSource &counters, RunSink &sink,
        RunSettings settings = {}, RunHooks hooks = {});
    ~Run();
    Run(const Run &) = delete;
    Run &operator=(const Run &) = delete;

    // Blocks until the run ends (time up, stopped, or failed).
    RunResult execute();
    // Thread-safe; may be called before or during execute().
    void requestStop();
    // Thread-safe: stop, and stop waiting for in-flight I/O now (a second Ctrl-C, a
    // second Stop) instead of at the stop deadline.
    void requestStopNow();
    // Thread-safe: ends step `step` now if it is the one running (another host moved
    // the stonewall amount first, RunSettings::stonewallBytes), as if its time were up:
    // what it measured is kept and the run goes on with the next step. A step that has
    // not started yet, or has ended, is left alone.
    void requestEndStep(std::size_t step);
    RunPhase phase() const { return m_phase.load(); }

    // Shared with the worker threads (defined in run_step.h).
    struct Shared;

private:
    Profile m_profile;
    IoBackend &m_backend;
    CounterSource &m_counters;
    RunSink &m_sink;
    RunSettings m_settings;
    RunHooks m_hooks;
    std::atomic<RunPhase> m_phase {RunPhase::Idle};
    std::shared_ptr<Shared> m_shared; // also held by the workers
    IntervalHistory m_history; // the intervals the result keeps, within their budget
    // The body of execute(); throws only what execute() turns into the run's error.
    void executeInto(RunResult &result);
    struct Execution; // its parts, in run.cpp
};

} // namespace ioprism::core
