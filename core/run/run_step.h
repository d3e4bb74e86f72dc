// SPDX-License-Identifier: GPL-3.0-or-later
// One step of a run (internal to core/run): its workers set up with their targets and
// live counters, started together, sampled until the step ends, then collected into the
// step's result. run.cpp orchestrates the run around it (plan, prepare, resolve, the
// steps in order, the device tail); this is what each step does.
#pragma once

#include "core/run/precondition.h"
#include "core/run/run.h"
#include "core/stats/verdict.h"

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ioprism::core {

// Defined here, not in run.cpp, because a step's workers and its control loop reach the
// run through it as much as the run itself does.
struct Run::Shared {
    boost::asio::io_context io;
    std::atomic<bool> stopRequested {false};
    std::atomic<bool> stopNow {false}; // stop waiting for in-flight I/O (asked twice)
    std::mutex errorMutex; // guards firstError (errors are rare: never on the hot path)
    std::optional<OpError> firstError;
    std::function<void()> wakeControl; // set while a step runs; called on io's thread
    std::size_t currentStep = 0; // the step running; read and written on io's thread only
    // currentStep while the run preconditions: its one step shares the number 0 with the
    // run's first, so that a late wake from one cannot end the other.
    static constexpr std::size_t kPreconditionStep = SIZE_MAX;

    void requestStop()
    {
        stopRequested = true;
        wake();
    }
    // Ends the current step without stopping the run: a step's workers are done
    // (`step` names it, so a wake that arrives late cannot end the next step), or a
    // stop (no step: whichever runs).
    void wake(std::optional<std::size_t> step = std::nullopt)
    {
        boost::asio::post(io, [this, step] {
            if (wakeControl && (!step || *step == currentStep))
                wakeControl();
        });
    }
    void fail(const OpError &e)
    {
        {
            std::lock_guard lock(errorMutex);
            if (!firstError)
                firstError = e;
        }
        requestStop();
    }
    bool failed()
    {
        std::lock_guard lock(errorMutex);
        return firstError.has_value();
    }
};

namespace run_detail {

// The files of each tree, by the tree's path: listed once per run, shared by every step.
using TreeFiles = std::map<std::string, std::shared_ptr<const std::vector<std::string>>>;

// What a step takes from its run: the run's parts, what was resolved before the first
// step (the plan with its targets' facts, the watched devices), and what one step hands
// to the next. References into the run's Execution, valid while the steps run.
struct StepContext {
    // The workers hold it by shared_ptr: a worker left stuck on a device may outlive the
    // Run.
    const std::shared_ptr<Run::Shared> &shared;
    IoBackend &backend;
    CounterSource &counters;
    RunSink &sink;
    IntervalHistory &history;
    std::atomic<RunPhase> &phase;
    const RunSettings &settings;
    const TestSetup &setup;
    std::chrono::milliseconds interval {};
    // The backend's notices not yet reported (an engine fallback when a worker starts).
    std::function<void()> reportNewNotices;
    // What the step runs: the run's resolved plan, or preconditioning's own.
    const ResolvedPlan &plan;
    // Its device map is read; each step adds its result, notices and stuck I/O.
    RunResult &result;
    const std::map<std::string, bool> &comparedPath; // target path -> on a watched device
    bool comparedBuffered = false;
    std::uint64_t writeSpanBytes = 0; // what the compared targets span (Sampler::Config)
    TreeFiles &treeFiles;
    // Application writes the devices have not shown yet, carried from step to step.
    WriteBalance &writeBalance;
    // When each step starts (RunHooks::stepGate); unset: at once.
    const StepGate &stepGate;
    // This host moved the step's stonewall amount (RunHooks::amountDone); may be unset.
    const StepAmountDone &amountDone;
    // Set while the run preconditions (core/run/precondition.h): the step is that, in
    // the phase Preconditioning, with its I/O limits per worker and target; its result
    // goes to RunResult::preconditioning, not to the steps.
    const PreconditionStep *precondition = nullptr;
};

// One step: its workers started together, sampled until the step ends, then collected
// (or left behind on a device that does not complete their I/O). False when the run
// cannot go on.
bool runStep(
    const StepContext &run, std::size_t step, std::chrono::steady_clock::time_point runStart);

// Names in a notice or an error, as the run and its steps list them.
std::string joined(const std::vector<std::string> &items);

} // namespace run_detail
} // namespace ioprism::core
