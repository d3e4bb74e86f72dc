// SPDX-License-Identifier: GPL-3.0-or-later
// A run on several hosts as one result, as Iometer shows "All managers": each host ran
// the same plan in its own session (an agent, an MPI rank) and finished its own
// RunResult; the merge puts them side by side and adds them into All. The same pieces
// merge a run live (core/run/multi_host_session.h: the plans, each step's k-th
// intervals, each step's results, as the hosts report them) and merge the finished runs
// (mergeHostRuns), so what a live view showed is what the result keeps.
//
// The totals are exact, never averages of averages:
// - a step's All is the sum of the hosts' All measurements: I/Os and bytes add, the
//   latency histograms merge bucket by bucket (the p99 of all hosts' I/O, not the mean
//   of their p99s); the rates (IOPS, MB/s, transactions/s) are the sums of the hosts'
//   rates, each over its own measured time, as Iometer's "All managers" (the hosts
//   start and end each step together at the step gate, core/run/step_gate.h, so their
//   measured times are the same span); the step's measured time is the longest host's;
// - an interval's All adds the hosts' k-th interval of that step the same way, its
//   percentiles from the intervals' mergeable histograms (IntervalSample::readLatency);
// - the CPU of a step or interval is the hosts' mean (each host's own is in its
//   HostShare and Host scope row); devices are judged per host (a device verdict
//   compares a host's devices with that host's I/O), so All has no device verdict.
//
// Partial runs: a host whose run ended early (an error, a disconnection, a stop) has
// fewer steps or intervals than the others. Nothing measured is dropped: a step's All
// is over the hosts that have that step (the merged step is then not complete), the
// k-th interval of a step over the hosts that have a k-th, and the merged run carries
// the first failing host's error, named with the host (hostError).
#pragma once

#include "core/result.h"
#include "core/run/results.h"
#include "core/run/step_gate.h"
#include "core/stats/verdict.h"

#include <optional>
#include <string>
#include <vector>

namespace ioprism::core {

// One host's finished run, with who the host is (its environment, devices and tail are
// taken from the result).
struct HostRun {
    std::string name; // "" = the result's environment.hostName
    int rank = -1;
    std::string agent;
    RunResult result;
    // The host's monotonic clock against the controller's, as its session measured it
    // (RunSession::clockOffset); nullopt: the controller's own clock.
    std::optional<ClockOffset> clockOffset;
};

// The name a host's rows carry: HostRun::name, else its environment's host name.
std::string hostNameOf(const HostRun &run);

// A host's error as the merged run's error: the operation prefixed with the host, so that
// toString() says "host db2 (10.0.0.2:7355): open /mnt/x: No such file or directory"
// (without the parentheses for a host in this process, `agent` "").
OpError hostError(OpError error, const std::string &name, const std::string &agent);

// Where a host's rows land in a merged result.
struct HostPlace {
    int index = 0; // in RunResult::hosts and StepResult::hosts; Scope::host
    std::string name; // its rows' labels: "db1", "db1 / Worker 1"
    int workerOffset = 0; // its first worker in the merged plan
};

// Each host's place, from its name and plan (`plans[h]` nullptr: no plan yet, no
// workers): its workers follow those of the hosts before it.
std::vector<HostPlace> hostPlaces(
    const std::vector<std::string> &names, const std::vector<const ResolvedPlan *> &plans);

// Hosts that ran different plans (another number of steps, or other step names) cannot
// be added step by step: the refusal names the first host that differs. A host without
// steps (it failed before planning; nullptr) is not compared: it ran nothing.
std::optional<OpError> hostPlanMismatch(
    const std::vector<const ResolvedPlan *> &plans, const std::vector<std::string> &names);

// The hosts' plans as one: the profile and steps of the first host that has steps, and
// every host's workers in the hosts' order, named "db1 / Worker 1".
ResolvedPlan mergeHostPlans(
    const std::vector<const ResolvedPlan *> &plans, const std::vector<HostPlace> &places);

// The k-th interval of one step on each host (nullptr: that host has none) as one: All,
// then each host's Host scope, workers and targets. At least one part must be set.
IntervalSample mergeHostIntervals(
    const std::vector<const IntervalSample *> &parts, const std::vector<HostPlace> &places);

// One step's results on each host (nullptr: that host has none; the merged step is then
// not complete) as one, with each host's CPU and devices in StepResult::hosts. At least
// one part must be set.
StepResult mergeHostSteps(
    const std::vector<const StepResult *> &parts, const std::vector<HostPlace> &places);

// The hosts' runs as one result: scopes All, then per host its Host scope, workers and
// targets (labels "name / Worker 1", Scope::host set); RunResult::hosts and each step's
// hosts in the order given; the plan's workers are every host's in that order. One run is
// returned as it is. Refused: no run, or hosts that ran different plans
// (hostPlanMismatch). Hosts that ended early are merged as above (partial runs).
//
// Hosts that are one machine (the same host name: MPI ranks, agents side by side) share
// its devices, and each compared them with its own I/O alone, which reads as another
// process's traffic. Their steps' device verdicts are judged again, with `policy`, against
// the I/O of all of them together (the device's bytes are the machine's, the first such
// host's), and a notice says which hosts were judged together.
Result<RunResult> mergeHostRuns(std::vector<HostRun> runs, const VerdictPolicy &policy = {});

} // namespace ioprism::core
