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

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace ioprism::core {

// What a preparation progress report counts.
enum class PrepareWork {
    Filling, // a test file or tree being created and filled: bytes
    PreInitialising, // a tree's unmeasured operations before the first step: operations
};

// Receives what a run reports, on the run's control thread. Implementations copy and
// hand off (a queued signal in the GUI, a line on stdout in the CLI): never block.
class RunSink
{
public:
    virtual ~RunSink() = default;
    virtual void onPhase(RunPhase /*phase*/, std::size_t /*step*/, const std::string & /*stepName*/)
    { }
    // Preparation before measuring: a target being written (`done` and `total` in bytes),
    // or the file trees' pre-initialisation before a worker's first step (in operations;
    // `path` names the trees). Said from the start (done 0) and as it goes.
    virtual void onPrepareProgress(const std::string & /*path*/, std::uint64_t /*done*/,
        std::uint64_t /*total*/, PrepareWork /*work*/)
    { }
    // The targets are prepared and the plan checked against them: the steps that will
    // run (a series' points a target cannot do are gone from it, with a notice).
    virtual void onPlan(const ResolvedPlan & /*plan*/) { }
    virtual void onInterval(const IntervalSample & /*sample*/) { }
    // A step ended, with its totals (a series' point, a cycling step): said as it ends,
    // so that curves grow point by point.
    virtual void onStepResult(const StepResult & /*step*/, const PlannedStep & /*planned*/) { }
    virtual void onNotice(const std::string & /*text*/) { }
};

struct RunOptions {
    std::uint64_t runId = 1;
    bool allowDeviceWrites = false;
    // Stop each step after this many completed I/Os per worker and target (0 = no
    // limit). For tests with exact counts and for overhead measurements.
    std::uint64_t ioLimitPerTarget = 0;
    // Application vs device comparison: tolerance and noise floor (core/stats/verdict.h).
    VerdictPolicy verdict;
    // Longest time the devices are sampled after the last step for pending write-back
    // (0 = no tail).
    std::chrono::milliseconds deviceTailLimit {5000};
    // An I/O in flight longer than this is reported as stalled in every sample (0 = no
    // reports; its age still counts in the maximum latency).
    std::chrono::milliseconds stallThreshold {5000};
    // After a step ends or Stop, how long to wait for the workers to finish their
    // in-flight I/O before giving up on it: the results are then reported with the
    // stuck I/O named (RunResult::stuckIo) and the workers are left to finish alone.
    std::chrono::milliseconds stopTimeout {15000};
    // Memory for the intervals RunResult keeps (the sink sees every one as it is made):
    // past it, older intervals are merged pairwise (core/run/interval_history.h).
    std::size_t intervalHistoryBytes = 64u << 20;
    // Where the run happens, taken when it starts (RunResult::environment): the system
    // before the first target is prepared, each target's device once it is. Unset
    // (tests), the environment names only the tool's version, the engine and targets.
    std::function<Environment()> describeSystem;
    std::function<DeviceFacts(const std::string &path)> describeDevice;
};

class Run
{
public:
    Run(Profile profile, IoBackend &backend, CounterSource &counters, RunSink &sink,
        RunOptions options = {});
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
    RunPhase phase() const { return m_phase.load(); }

    // Shared with the worker threads (defined in run.cpp).
    struct Shared;

private:
    Profile m_profile;
    IoBackend &m_backend;
    CounterSource &m_counters;
    RunSink &m_sink;
    RunOptions m_options;
    std::atomic<RunPhase> m_phase {RunPhase::Idle};
    std::shared_ptr<Shared> m_shared; // also held by the workers
    IntervalHistory m_history; // the intervals the result keeps, within their budget
    // The body of execute(); throws only what execute() turns into the run's error.
    void executeInto(RunResult &result);
    struct Execution; // its parts, in run.cpp
};

} // namespace ioprism::core
