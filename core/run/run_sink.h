// SPDX-License-Identifier: GPL-3.0-or-later
// What a run reports as it goes, to whoever drives it: the GUI's controller, the CLI's
// terminal, an agent's connection, an MPI rank's reduction. The same events whether the
// run is in this process (core/run/run.h) or behind a run session on another host
// (core/run/run_session.h): every argument is a value the session codecs carry.
#pragma once

#include "core/run/results.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace ioprism::core {

// What a preparation progress report counts.
enum class PrepareWork {
    Filling, // a test file or tree being created and filled: bytes
    PreInitialising, // a tree's unmeasured operations before the first step: operations
    // The run's preconditioning (TestSetup::precondition), path "": bytes moved of those
    // planned, or for a time, milliseconds of it.
    Preconditioning,
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
    // A step under a steady-state rule (TestSetup::steadyState) ended a round: its rounds so
    // far and the rule's judgement on them, as StepResult::steadyState will keep them.
    virtual void onSteadyState(std::size_t /*step*/, const SteadyStateRecord & /*record*/) { }
    // The run has begun: the engine each worker starts with is known ("io_uring",
    // "sync"...), before preparation.
    virtual void onStarted(const std::string & /*engine*/) { }
    // `auto` chose another engine for the workers once the targets were prepared
    // (IoBackend::chooseEngine; a notice says why): said before onPlan, and only when it
    // differs from the one onStarted named.
    virtual void onEngineChosen(const std::string & /*engine*/) { }
    // The run has ended, with everything it measured: said once, last, by a run session
    // (core/run/run_session.h), never by Run itself (whose execute() returns the result).
    virtual void onFinished(RunResult && /*result*/) { }
};

} // namespace ioprism::core
