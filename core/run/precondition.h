// SPDX-License-Identifier: GPL-3.0-or-later
// Preconditioning (TestSetup::precondition; SNIA PTS 1.1/2.0, "workload independent"
// and "workload dependent" preconditioning): what a run writes before its first step so
// that an SSD is measured as it will be in use, not fresh out of the box or with an
// empty SLC cache.
//
// It runs as one step of a plan of its own, on the run's workers and targets (the step
// machinery samples it, stops it and drains it like any step), in the phase
// Preconditioning; its result is kept apart (RunResult::preconditioning), in no step's
// figures and no total.
//
// Choices where PTS leaves it to the tester (docs/ssd-testing.md):
// - Sequential: 128 KiB writes at QD 32 on each target, the capacity multiple times
//   its region, every target at once, in whole transfers from the region's start (a
//   tail shorter than 128 KiB is not written). A region shared by several workers (same
//   path, same region) is written by the first of them only, so that it is written the
//   multiple, not the multiple per worker; workers with their own regions of one device
//   write each their own.
// - Workload: the first step's own workers, specs and queue depths, for a time, or until
//   each worker-target pair has moved its share of the multiple (a target's region over
//   the workers that use it, at the spec's mean transfer size): reads count too, as the
//   workload's own I/O is what conditions the drive.
#pragma once

#include "core/profile/profile.h"
#include "core/run/resolved_plan.h"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace ioprism::core {

inline constexpr std::uint64_t kPreconditionTransferBytes = 128 * kKiB;
inline constexpr std::uint32_t kPreconditionQueueDepth = 32;

struct PreconditionStep {
    ResolvedPlan plan; // the run's workers and targets, one step: the preconditioning
    // Per plan worker, per target: the I/Os it does there (0: no limit, or not used).
    std::vector<std::vector<std::uint64_t>> ioLimits;
    std::uint64_t plannedBytes = 0; // over all targets; 0 for a time
    TestSetup setup; // what its step runs by: no ramp-up; the time, or until done
};

// The preconditioning step of a resolved plan, or why it cannot be made (the first
// step runs no I/O to precondition with).
std::variant<PreconditionStep, std::string> preconditionStep(
    const ResolvedPlan &plan, const TestSetup &setup);

// "Preconditioning: 128 KiB sequential writes, 2x capacity"
std::string preconditionName(const PreconditionSetup &p);

} // namespace ioprism::core
