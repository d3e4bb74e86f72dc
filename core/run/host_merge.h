// SPDX-License-Identifier: GPL-3.0-or-later
// A run on several hosts as one result, as Iometer shows "All managers": each host ran
// the same plan in its own session (an agent, an MPI rank) and finished its own
// RunResult; the merge puts them side by side and adds them into All.
//
// The totals are exact, never averages of averages:
// - a step's All is the sum of the hosts' All measurements: I/Os and bytes add, the
//   latency histograms merge bucket by bucket (the p99 of all hosts' I/O, not the mean
//   of their p99s), and the rates are over the longest host's measured time, as IOR
//   reports a cluster (earliest start to latest end);
// - an interval's All adds the hosts' k-th interval of that step the same way, its
//   percentiles from the intervals' mergeable histograms (IntervalSample::readLatency);
// - the CPU of a step or interval is the hosts' mean (each host's own is in its
//   HostShare and Host scope row); devices are judged per host (a device verdict
//   compares a host's devices with that host's I/O), so All has no device verdict.
#pragma once

#include "core/result.h"
#include "core/run/results.h"

#include <vector>

namespace ioprism::core {

// One host's finished run, with who the host is (its environment, devices and tail are
// taken from the result).
struct HostRun {
    std::string name; // "" = the result's environment.hostName
    int rank = -1;
    std::string agent;
    RunResult result;
};

// The hosts' runs as one result: scopes All, then per host its Host scope, workers and
// targets (labels "name / Worker 1", Scope::host set); RunResult::hosts and each step's
// hosts in the order given; the plan's workers are every host's in that order. One run is
// returned as it is. Refused: no run, or hosts that ran different plans (another number
// or names of steps), naming the first host that differs.
Result<RunResult> mergeHostRuns(std::vector<HostRun> runs);

} // namespace ioprism::core
