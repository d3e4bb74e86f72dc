// From a profile to what the run executes: the workers (with CrystalDiskMark-style
// "threads" copies), their targets, and the spec each worker runs in each step.
//
// Iometer's rule: specs assigned to a worker run in order, and all workers run their
// Nth spec together (step N). A worker with fewer specs idles in later steps. Only the
// first host runs (the local machine); the others are reported as ignored.
#pragma once

#include "core/profile/problem.h"
#include "core/profile/profile.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ioprism::core {

struct PlannedTarget {
    Target target;
    std::uint32_t outstandingIos = 1; // effective for this worker (before spec overrides)
};

struct PlannedWorker {
    std::string name; // "Worker 1", a copy: "Worker 1 #2"
    std::size_t profileWorker = 0; // index in hosts[0].workers
    std::uint32_t copyIndex = 0; // 0 = the worker itself
    std::vector<PlannedTarget> targets;
    // Per step: the spec this worker runs, or -1 when it idles in that step.
    std::vector<int> specPerStep;
    std::uint64_t seed = 0; // effective (a fixed seed, or the random one drawn for this run)
    DataPattern dataPattern;
    std::vector<std::uint32_t> cpuAffinity;
};

struct RunPlan {
    std::vector<PlannedWorker> workers;
    std::size_t stepCount = 0;
    std::vector<std::string> stepNames; // "spec A" or "spec A + spec B" when workers differ
    Profile effectiveProfile; // with the seeds actually used filled in

    // Outstanding I/Os of worker w on target t in step s (spec queueDepth override).
    std::uint32_t outstandingIos(
        const Profile &p, std::size_t w, std::size_t t, std::size_t s) const;
};

// Builds the plan; problems (errors) when the profile cannot run, e.g. no host.
// randomSeed supplies seeds for workers without a fixed one.
std::optional<RunPlan> makeRunPlan(
    const Profile &profile, std::uint64_t randomSeed, Problems &problems);

} // namespace ioprism::core
