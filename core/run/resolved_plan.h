// SPDX-License-Identifier: GPL-3.0-or-later
// What a run executes once its targets are prepared: every worker with its targets (as
// the profile gives them, what the platform found, and where I/O lands), and per step
// the spec each worker runs and its queue depth on each target.
//
// The run executes it, RunResult carries it, and the report writers read it: nothing
// after preparation plans again. describePlan() builds it without judging it (reports of
// hand-made results use that too); checkPlan() applies the rules that need the real
// targets (a region within its target; a transfer within its region; direct-I/O
// alignment), each refusal naming the field path.
#pragma once

#include "core/engine.h"
#include "core/result.h"
#include "core/run/plan.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ioprism::core {

struct ResolvedTarget {
    Target target; // as the profile gives it (its region as asked: size 0 = to the end)
    TargetInfo info; // what preparing it found
    Region region; // where I/O lands: within the target; sizeBytes > 0 once checked
    friend bool operator==(const ResolvedTarget &, const ResolvedTarget &) = default;
};

struct ResolvedWorker {
    std::string name; // "Worker 1", a copy: "Worker 1 #2"
    std::size_t profileWorker = 0; // index in hosts[0].workers
    std::uint32_t copyIndex = 0;
    std::uint64_t seed = 0;
    DataPattern dataPattern;
    std::vector<std::uint32_t> cpuAffinity;
    std::vector<ResolvedTarget> targets;
    std::vector<int> specPerStep; // index in the profile's specs; -1: idle in that step
    std::vector<std::vector<std::uint32_t>> outstandingIos; // [step][target]; 0 = not used
    friend bool operator==(const ResolvedWorker &, const ResolvedWorker &) = default;
};

struct ResolvedPlan {
    Profile profile; // the effective profile: the seeds used filled in (held here only)
    // The specs steps run: the profile's, then a series' variants (RunPlan::specs).
    std::vector<AccessSpec> specs;
    std::vector<PlannedStep> steps; // names, spec index and what each step cycles
    std::vector<ResolvedWorker> workers;

    std::size_t stepCount() const { return steps.size(); }
    // The spec a worker runs in a step, or null when it idles (or out of range).
    const AccessSpec *specOf(std::size_t worker, std::size_t step) const;
    // Every target's info, per worker per target, in order.
    std::vector<TargetInfo> targetInfos() const;
    friend bool operator==(const ResolvedPlan &, const ResolvedPlan &) = default;
};

// The plan with its targets' facts; `infoOf(path)` gives what preparing a target found.
// Regions are resolved (size 0 = to the end of the target) but not judged.
ResolvedPlan describePlan(
    const RunPlan &plan, const std::function<TargetInfo(const std::string &path)> &infoOf);

// The first rule the real targets break, or nullopt.
std::optional<OpError> checkPlan(const ResolvedPlan &plan);

// A series may reach sizes some target cannot do (512 B on a device with 4 KiB sectors,
// 16 MiB on a 4 MiB region): those points are taken out of the plan, each with why,
// so the rest of the curve runs. Steps that are not series points are left to checkPlan.
struct SkippedPoint {
    std::string step; // the step's name
    OpError why;
};
std::vector<SkippedPoint> skipPointsTargetsCannotRun(ResolvedPlan &plan);

} // namespace ioprism::core
