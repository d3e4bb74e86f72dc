// SPDX-License-Identifier: GPL-3.0-or-later
// The ResolvedPlan as JSON: what a results file keeps of the plan its run executed
// (docs/results.md, "plan"), and what a run session's messages will carry.
//
//   {"specs": [...], "steps": [...], "workers": [{..., "targets": [...]}]}
//
// The profile is not in it: a results file holds it apart ("profile"), and so will a run
// request. Specs and targets are written in the profile format (docs/profile-format.md);
// the rest uses the results' snake_case names. Decoding gives back what was encoded,
// checking types and ranges and that each step's depths are one per target, not whether
// the plan is whole: a plan made by hand (tests, reports of made-up runs) may have fewer
// per-step entries than steps, and the plan's users check a step's index before they use
// it (ResolvedPlan::specOf).
#pragma once

#include "core/json/json_reader.h"
#include "core/run/resolved_plan.h"

#include <nlohmann/json.hpp>

namespace ioprism::core {

nlohmann::ordered_json encodeResolvedPlan(const ResolvedPlan &plan);

// The plan encodeResolvedPlan wrote, read from `node` with `profile` as its profile;
// problems go to the node's context, named by their path (`plan.workers[0].seed: ...`).
// encode then decode gives the same plan.
ResolvedPlan decodeResolvedPlan(const JsonNode &node, Profile profile);

// One step of the plan (what a run session's step result says it ran).
nlohmann::ordered_json encodePlannedStep(const PlannedStep &step);
PlannedStep decodePlannedStep(const JsonNode &node);

// What preparing a target found, as a results file's environment.targets and the plan's
// targets keep it.
nlohmann::ordered_json encodeTargetInfo(const TargetInfo &info);
TargetInfo decodeTargetInfo(const JsonNode &node);

} // namespace ioprism::core
