// SPDX-License-Identifier: GPL-3.0-or-later
// Iometer's Test Setup cycling: which workers and targets take part in each step of one
// access-spec index, and at what queue depth, for each of the eight test types, as
// Iometer 1.1.0's code runs them (GalileoView.cpp; docs/cycling.md has the rules and a
// table of examples).
//
// A pure function of the test setup and the workers of one spec index: the plan calls
// it once per spec index (the counters start again for each), and the tests call it
// with tables of workers and the step sequences Iometer would run.
#pragma once

#include "core/profile/profile.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ioprism::core {

// A worker as cycling sees it, in the order of the manager's worker list.
struct CyclingWorker {
    // Takes part in cycling: a disk worker with a spec at this index and a target.
    bool eligible = false;
    // Per target, in list order: the depth it runs at when cycling does not set one.
    std::vector<std::uint32_t> depths;
};

struct CyclingStep {
    // [worker][target]: the depth of each target in this step; 0 = not used. A worker
    // with no target in use is idle in the step.
    std::vector<std::vector<std::uint32_t>> depths;
    // What this step cycles, for its name: "QD 8", "2 workers", "3 targets each",
    // "3 targets", "2 workers x 3 targets each", "3 targets each, QD 8"; "" for NORMAL.
    std::string label;
};

// The steps of one spec index, in the order Iometer runs them. No eligible worker: no
// step, in NORMAL too (Iometer's Normal() then activates no target); the plan adds
// Iometer's pause when a worker is Idle at that index (CalcRunCount).
std::vector<CyclingStep> cyclingSteps(
    const TestSetup &setup, const std::vector<CyclingWorker> &workers);

// The values a worker or target cycling takes, up to `limit` (what "all" is): start,
// then linear (+step) or exponential (start x step^k) steps, capped at `limit`; the
// sequence ends with the first value at or past the limit, so the last step is "all"
// even off the step grid. A start or step of 0 counts as 1; an exponential step of 1
// steps by +1 (Iometer's code does both).
std::vector<std::uint32_t> cyclingCounts(const Cycling &cycling, std::uint32_t limit);

// The queue depths of queue-depth cycling: start, then steps while the value is at most
// `end` (inclusive; a value past it is not run).
std::vector<std::uint32_t> queueDepthValues(const Cycling &cycling);

} // namespace ioprism::core
