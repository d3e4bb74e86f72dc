// SPDX-License-Identifier: GPL-3.0-or-later
// What a run produces: live interval samples and, per step (spec), the totals.
// Plain values: they cross from the run's threads to the CLI or the GUI by copy.
#pragma once

#include "core/counters.h"
#include "core/engine.h"
#include "core/profile/profile.h"
#include "core/report/environment.h"
#include "core/run/resolved_plan.h"
#include "core/stats/device_figures.h"
#include "core/stats/figures.h"
#include "core/stats/latency_map.h"
#include "core/stats/latency_verdict.h"
#include "core/stats/verdict.h"
#include "core/stats/write_cliff.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ioprism::core {

// Preconditioning: the targets written before the first step (TestSetup::precondition),
// sampled like a step but kept apart from every step (RunResult::preconditioning).
// Pausing: TestSetup::pauseBetweenTests before a test's first step (last, so that the
// numbers the session protocol carries for the others stay as they were).
enum class RunPhase {
    Idle,
    Preparing,
    Preconditioning,
    RampUp,
    Measuring,
    Stopping,
    Done,
    Pausing
};

// Result rows, as Iometer has them: ALL, each worker, each target of each worker; and in
// a run of several hosts (core/run/host_merge.h) each host (Iometer's MANAGER) before
// its workers and targets.
struct Scope {
    enum class Kind { All, Worker, Target, Host };
    Kind kind = Kind::All;
    int worker = -1; // index in the plan's workers
    int target = -1; // index in that worker's targets
    std::string label; // "All", "Worker 1", "Worker 1 / /dev/loop0"; "db1 / Worker 1"
    std::string targetPath;
    int host = -1; // index in RunResult::hosts; -1: All, or a run of one host
    friend bool operator==(const Scope &, const Scope &) = default;
};

struct ScopeFigures {
    Scope scope;
    Figures figures;
    friend bool operator==(const ScopeFigures &, const ScopeFigures &) = default;
};

// What the devices did over one span (an interval, or the measured part of a step):
// every watched device, the total of the devices carrying the targets, and the verdict
// comparing that total with the application's bytes (core/stats/verdict.h).
struct DeviceReport {
    bool available = false; // device counters were read at both ends of the span
    std::vector<DeviceFigures> devices; // one per RunResult::deviceMap.devices entry
    // The devices carrying the targets, each once (WatchedDevice::inTotal): rates and
    // bytes add up; awaits are per request over all of them; %util is the busiest one's.
    DeviceFigures total;
    DeviceVerdict verdict; // verdict == NoDeviceCounters when !available
    // The application's latency beside the devices' own service time, and whose time the
    // difference is; whether a worker was CPU-bound (core/stats/latency_verdict.h).
    LatencyJudgement latency;
    friend bool operator==(const DeviceReport &, const DeviceReport &) = default;
};

// The devices after the last step: sampled at the run's interval until they are idle
// (nothing in flight and nothing written for one interval) or the limit passes, to see
// the write-back the application's writes left behind.
struct DeviceTail {
    bool sampled = false; // false: no device counters, or the run failed
    double seconds = 0; // how long the tail was sampled (0: idle at once)
    bool idle = false; // the devices were idle when it ended (else the limit passed)
    std::uint64_t pendingWriteBytes = 0; // write-back backlog when the last step ended
    std::uint64_t flushedWriteBytes = 0; // written by the target devices during the tail
    std::uint64_t remainingWriteBytes = 0; // backlog still not seen at the devices after it
    std::vector<DeviceFigures> devices; // over the whole tail, per watched device
    DeviceFigures total;

    // Worth a line for the user: the run waited for the devices, and there is something
    // to say in the 0.1 MB the text shows (owed or written after the end). A few KiB owed
    // at a sample boundary, or a wait for another process's I/O, are not.
    bool worthReporting() const
    {
        return sampled && seconds > 0 && pendingWriteBytes + flushedWriteBytes >= 100'000;
    }
    friend bool operator==(const DeviceTail &, const DeviceTail &) = default;
};

// A host a run ran on: Iometer's manager; an agent, or an MPI rank. A run of one host
// leaves RunResult::hosts empty: that host is the result's own environment, devices and
// tail. A run merged from several (mergeHostRuns) lists every host, the first being the
// one whose environment, devices and tail the result carries at its top.
struct RunHost {
    std::string name; // the manager's name: the profile's host name, else the machine's
    int rank = -1; // the MPI rank; -1: not under MPI
    std::string agent; // the agent's address ("db1:7400"); "": the controller's process
    Environment environment;
    DeviceMap deviceMap;
    DeviceTail deviceTail;
    // Its monotonic clock against the controller's, as measured when the run started
    // (core/run/step_gate.h ClockOffset): host time = controller time + clockOffsetNs,
    // within +- clockUncertaintyNs (nanoseconds). Both 0 for a host on the controller's
    // own clock (its process, or a rank of the same machine).
    std::int64_t clockOffsetNs = 0;
    std::int64_t clockUncertaintyNs = 0;
    friend bool operator==(const RunHost &, const RunHost &) = default;
};

// One host's part of a step of a run of several hosts: the CPU and devices are that
// host's own (a device verdict compares a host's devices with that host's I/O).
struct HostShare {
    CpuFigures cpu;
    double cpuEffectiveness = 0;
    DeviceReport devices;
    bool endedByAmount = false; // this host moved the stonewall amount (StepResult)
    friend bool operator==(const HostShare &, const HostShare &) = default;
};

struct IntervalSample {
    std::uint64_t runId = 0;
    std::size_t step = 0;
    std::string stepName;
    RunPhase phase = RunPhase::Measuring; // Preconditioning, RampUp or Measuring
    double startSeconds = 0; // since the first step started (our monotonic clock)
    double endSeconds = 0;
    // Sampling intervals this sample covers: 1 as sampled; more once a long run's kept
    // history was merged to stay within its memory budget (core/run/interval_history.h).
    std::uint32_t mergedIntervals = 1;
    std::vector<ScopeFigures> scopes; // [0] is All
    // The All scope's latencies over the interval, per direction: what makes an
    // interval's percentiles mergeable exactly across hosts or ranks (the figures' own
    // percentiles cannot be merged).
    SparseLatencyHistogram readLatency;
    SparseLatencyHistogram writeLatency;
    // The All scope's latencies by band (core/stats/latency_map.h), as read back from a
    // results file, which keeps the bands, not the histograms. Empty in an interval that
    // has its histograms: intervalLatencyBands() gives an interval's bands either way.
    LatencyBands latencyBands;
    CpuFigures cpu;
    double cpuEffectiveness = 0; // IOPS per busy CPU %
    DeviceReport devices;
    friend bool operator==(const IntervalSample &, const IntervalSample &) = default;
};

struct ScopeResult {
    Scope scope;
    Measurement measurement; // histograms kept for percentiles and Iometer bins
    Figures figures;
    friend bool operator==(const ScopeResult &, const ScopeResult &) = default;
};

struct StepResult {
    std::size_t step = 0;
    std::string stepName;
    double measuredSeconds = 0;
    // Around the step, on our clock: from starting its workers until they were ready
    // (engines, buffers, files opened), and from the end of its measurement until its
    // in-flight I/O had completed. Together most of the time between two steps; on
    // several hosts the rest is the wait at the step gate for the other hosts, in neither.
    double setupSeconds = 0;
    double drainSeconds = 0;
    bool complete = true; // false when stopped early or failed
    // Stonewalling (RunSettings::stonewallBytes): the step ended when this host had moved
    // the amount; on several hosts, when the first host had (HostShare says which).
    bool endedByAmount = false;
    // The step's rounds under TestSetup::steadyState and whether they became steady (the
    // step ended at the first steady window, or at the round limit); unset without it.
    std::optional<SteadyStateRecord> steadyState;
    // A step that wrote, over enough intervals to judge (twice WriteCliffCriteria's
    // minimumPoints): whether its write rate fell off a cliff, against the bytes written
    // (core/stats/write_cliff.h). Unset otherwise, and in a run of several hosts.
    std::optional<WriteCliffJudgement> writeCliff;
    std::vector<ScopeResult> scopes; // [0] is All
    CpuFigures cpu;
    double cpuEffectiveness = 0;
    DeviceReport devices; // over the measured time (ramp-up excluded)
    // A run of several hosts: each host's own CPU and devices, as RunResult::hosts (its
    // cpu is then the hosts' mean, and devices unavailable: devices are judged per host).
    std::vector<HostShare> hosts;
    friend bool operator==(const StepResult &, const StepResult &) = default;
};

// What preconditioning did (TestSetup::precondition), before the first step: its
// figures as a step's (over the whole phase: it has no ramp-up), in no step's and in no
// total. Its intervals are in RunResult::intervals with the phase Preconditioning.
struct PreconditionResult {
    PreconditionSetup setup;
    // What it set out to move over all targets (a capacity multiple of their regions);
    // 0 for a time.
    std::uint64_t plannedBytes = 0;
    StepResult step; // step.complete: it moved all it planned, or ran its time
    friend bool operator==(const PreconditionResult &, const PreconditionResult &) = default;
};

// I/O a device never completed: still in flight when the run stopped waiting for it
// (the stop deadline passed, or the user asked twice). It is in no count, but its age is
// in the latency maxima of the intervals it spanned.
struct StuckIo {
    std::uint32_t ios = 0;
    double oldestSeconds = 0;
    std::vector<std::string> targets; // profile paths, each once
    friend bool operator==(const StuckIo &, const StuckIo &) = default;
};

// The test files a run removed when it ended, because its request asked
// (RunRequest::removeTestFiles), and why any could not be.
struct TestFileRemoval {
    std::vector<std::string> removed; // paths as in the profile
    std::vector<OpError> failed;
    friend bool operator==(const TestFileRemoval &, const TestFileRemoval &) = default;
};

struct RunResult {
    std::uint64_t runId = 0;
    // What ran: the effective profile (with the seeds actually used), the steps, and
    // every worker's targets with what preparing them found, their regions, specs and
    // queue depths. Before preparation ends (a refusal) only profile and steps are set.
    ResolvedPlan plan;
    std::string engine;
    std::vector<std::string> notices;
    std::chrono::system_clock::time_point startedAt; // wall clock, for reports only
    // The wall clock when the run's own (monotonic) clock started counting, after the
    // targets were prepared: the intervals' and rounds' seconds count from it, so that they
    // can be laid beside other tools' logs (iostat, sar) or other runs. Unset in files
    // written before it was kept. In a run of several hosts: the earliest host's.
    std::optional<std::chrono::system_clock::time_point> timeOriginAt;
    std::optional<PreconditionResult> preconditioning; // unset: none asked for, or not begun
    std::vector<StepResult> steps;
    std::vector<IntervalSample> intervals;
    DeviceMap deviceMap; // the targets' devices; empty without device counters
    DeviceTail deviceTail;
    std::optional<OpError> error; // the first error; the run stopped because of it
    bool stoppedByUser = false;
    std::optional<StuckIo> stuckIo;
    // Where it ran, described when it started (the engine and notices as they ended):
    // what the reports write, whenever they are written.
    Environment environment;
    TestFileRemoval testFileRemoval;
    std::vector<RunHost> hosts; // empty on one host; see RunHost
    friend bool operator==(const RunResult &, const RunResult &) = default;
};

} // namespace ioprism::core
