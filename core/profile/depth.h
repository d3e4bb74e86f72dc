// SPDX-License-Identifier: GPL-3.0-or-later
// The outstanding I/Os a target runs at: one home for the precedence that the plan, the
// summary, the HTML report, the worker panel's note and the CLI's --qd all rely on.
//
// From strongest to weakest: a series point or a step of Iometer's queue-depth cycling
// sets the depth of every target in use; else the spec's queue depth (CrystalDiskMark's
// "Q32"); else the target's own value; else its worker's.
#pragma once

#include "core/profile/profile.h"

#include <cstdint>

namespace ioprism::core {

enum class DepthSource {
    Swept, // a series sweeping outstandingIos, or Iometer's cycling, sets it per step
    Spec, // AccessSpec::queueDepth
    Target, // Target::outstandingIos
    Worker, // Worker::outstandingIos
};

struct EffectiveDepth {
    // The depth from the spec, the target or the worker. When `source` is Swept, each
    // step sets its own depth instead and this is the depth the steps override.
    std::uint32_t outstandingIos = 1;
    DepthSource source = DepthSource::Worker;
    friend bool operator==(const EffectiveDepth &, const EffectiveDepth &) = default;
};

// True when each step sets the depth: a series with an outstandingIos axis, or (without
// a series, which replaces the test type) Iometer's queue-depth cycling test types.
bool depthIsSwept(const TestSetup &setup);
// True for the test types that cycle the depth (whether or not a series replaces them).
bool isDepthCyclingTestType(TestType type);

// The depth of `target` of `worker` running `spec` (nullptr: no spec, e.g. idle), and
// where it comes from. `target` may be nullptr for a worker's depth without a target.
EffectiveDepth effectiveDepth(
    const TestSetup &setup, const AccessSpec *spec, const Worker &worker, const Target *target);
// The same without a series or cycling: spec > target > worker.
EffectiveDepth configuredDepth(const AccessSpec *spec, const Worker &worker, const Target *target);

// Makes `outstandingIos` the depth of every target of every worker under every spec
// (the CLI's --qd): sets each worker's and drops the spec and target values above it.
// A series or cycling still sets the depth per step.
void setOutstandingIosEverywhere(Profile &profile, std::uint32_t outstandingIos);

} // namespace ioprism::core
