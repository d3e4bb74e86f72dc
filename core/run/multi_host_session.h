// SPDX-License-Identifier: GPL-3.0-or-later
// A run on several hosts as one RunSession, as Iometer's GUI drives its managers: one
// session per host (a LocalRunSession in this process, a session on an agent), started
// together, their steps started together by one StepBarrier (core/run/step_gate.h), and
// what they report merged as it comes (core/run/host_merge.h) into the one run the GUI or
// the CLI sees, with exact "All managers" figures and a row per host.
//
// What the sink hears, on the hosts' threads, one call at a time:
// - onStarted once, when the first host has started (its engine);
// - each phase once, when the first host enters it (the earliest: the hosts start each
//   step together, so the others follow within the barrier's lead), never going back;
//   Done once, when every host has finished, just before onFinished;
// - prepare progress per host, the path prefixed with the host's name ("db1:/mnt/f");
// - onPlan once, merged (every host's workers), when every host has sent its plan;
// - the k-th interval of a step merged ("All managers", then each host's rows) when
//   every host has sent its k-th or has ended that step (a host whose step ended
//   earlier, or that failed, has fewer: the interval is then over those that have it);
//   a step's results merged likewise once every host has ended the step;
// - notices prefixed with the host's name ("db2: ...");
// - onFinished once, with the hosts' results merged (mergeHostRuns).
//
// Faults: a host whose run ends with an error, or stops on its own while the others run,
// ends the run: the barrier is cancelled (no host starts another step) and the other
// hosts are stopped (stopNow when the user had asked for it). The result keeps
// everything measured, its error the first failing host's, named with the host
// ("host db2 (10.0.0.2:7355): open ..."). A plan that differs between hosts (another
// number of steps) ends the run the same way, refused by the merge.
#pragma once

#include "core/run/host_merge.h"
#include "core/run/run_session.h"
#include "core/run/session_codec.h"
#include "core/run/step_gate.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace ioprism::core {

// How one host's session is made.
struct HostSessionMaker {
    // The manager's name as its rows show it. "": the profile's name for that host (a
    // profile with a host per session), else the agent's address, else "host N". The
    // live rows need the name before the host's result (and its own name) is in.
    std::string name;
    std::string agent; // "host:port"; "": this process
    // Makes host `party`'s session reporting to `sink`; its steps pass `barrier` as
    // `party` (for a run in this process: RunHooks::stepGate = barrier.arriveAndWait).
    std::function<std::unique_ptr<RunSession>(
        RunSink &sink, StepBarrier &barrier, std::size_t party)>
        make;
    int rank = -1; // the MPI rank (RunHost::rank); -1: not under MPI
    // This host prepares its targets before any other host starts, and the others start
    // once its plan is in (every such host's): a file the hosts share (MPI's
    // --shared-file) is made and filled once, by this host's run, with its progress,
    // free-space check and stop, and the others find it ready. A host that never starts
    // (the first ended before its plan: a failure, a stop) has an empty result.
    bool preparesFirst = false;
};

// A host in this process (tests, and this host beside agents): a LocalRunSession whose
// hooks.describe.stepGate is barrier.arriveAndWait(party, step).
HostSessionMaker localHost(std::string name, LocalRunHooks hooks);

// What each of `hosts` sessions is asked to run: if the profile has as many hosts as
// there are sessions, session i runs a profile whose hosts are {hosts[i]}; if it has one
// host, every session runs that host (the same workload on every manager: shared
// storage). Otherwise nullopt and, in `refusal`, why (naming both counts).
std::optional<std::vector<RunRequest>> requestsPerHost(
    const RunRequest &request, std::size_t hosts, std::string &refusal);

class MultiHostRunSession final : public RunSession
{
public:
    // Makes every host's session now (none starts before start()). `lead`: how far ahead
    // of the last host's arrival each step starts (StepBarrier).
    MultiHostRunSession(std::vector<HostSessionMaker> hosts, RunSink &sink,
        std::chrono::milliseconds lead = std::chrono::milliseconds(100));
    // Stops every host without waiting for in-flight I/O and joins them: no run writes
    // behind a destroyed session.
    ~MultiHostRunSession() override;
    MultiHostRunSession(const MultiHostRunSession &) = delete;
    MultiHostRunSession &operator=(const MultiHostRunSession &) = delete;

    void start(RunRequest request) override;
    // Both go to every host and cancel the barrier.
    void stop() override;
    void stopNow() override;
    void wait() override;
    void endStep(std::size_t step) override;

    // The start of the last step released to the hosts, on this process's clock.
    StepStart lastStepStart() const { return m_barrier.lastStart(); }

private:
    // One host's sink: what its session reports, with its index.
    struct HostSink;
    // What one host has reported that is not merged yet, and how far it is.
    struct HostState {
        bool started = false;
        std::optional<ResolvedPlan> plan;
        std::map<std::size_t, std::vector<IntervalSample>> intervals; // by step, unmerged
        std::map<std::size_t, std::pair<StepResult, PlannedStep>> steps; // unmerged
        std::optional<std::size_t> latestStep; // the last step it reported anything of
        std::optional<RunResult> result; // set when it finished
    };

    void onHostEvent(std::size_t host, SessionEvent event);
    void onHostFinished(std::size_t host, RunResult &&result, std::unique_lock<std::mutex> &lock);
    bool endedStep(std::size_t host, std::size_t step) const;
    // The deferred hosts' requests, taken when every preparesFirst host's plan is in
    // (and nobody stopped); empty otherwise.
    std::vector<std::pair<std::size_t, RunRequest>> takeDeferred();
    bool mergeWhatIsReady();
    void finish();
    void fault(std::size_t host, std::unique_lock<std::mutex> &lock);
    void stopHosts(bool now);

    RunSink &m_sink;
    std::vector<HostSessionMaker> m_makers;
    StepBarrier m_barrier;
    std::vector<std::unique_ptr<HostSink>> m_hostSinks;
    // Made in the constructor, destroyed first: each reports to its HostSink.
    std::vector<std::unique_ptr<RunSession>> m_sessions;
    std::atomic<bool> m_started {false};
    std::atomic<bool> m_stopRequested {false};
    std::atomic<bool> m_stopNowRequested {false};
    std::thread m_refusal; // reports a request refused at start()

    // Guards everything below, and orders the calls to m_sink.
    mutable std::mutex m_mutex;
    std::condition_variable m_finishedChanged;
    bool m_finished = false; // onFinished reported
    std::uint64_t m_runId = 0;
    VerdictPolicy
        m_verdictPolicy; // the request's: the hosts that share a machine are judged with it
    std::vector<std::string> m_names;
    std::vector<HostState> m_hosts;
    // The requests of the hosts that start after the preparesFirst ones, until then.
    std::vector<std::optional<RunRequest>> m_deferred;
    std::optional<std::size_t> m_firstFailure; // the host whose end ended the run
    bool m_startedSaid = false;
    int m_lastPhaseKey = -1; // the last phase said: step * 4 + its order in a step
    std::optional<std::vector<HostPlace>> m_places; // once every plan is in
    std::size_t m_stepCount = 0; // of the merged plan
    std::size_t m_mergeStep = 0; // the step whose intervals are merged next
};

} // namespace ioprism::core
