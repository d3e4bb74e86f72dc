// SPDX-License-Identifier: GPL-3.0-or-later
// From a profile to what the run executes: the workers (with CrystalDiskMark-style
// "threads" copies), their targets, and per step the spec each worker runs and the
// depth of each of its targets.
//
// Iometer's rule: specs assigned to a worker run in order, and all workers run their
// Nth spec together (spec index N). A worker with fewer specs idles at later indices.
// The test type's cycling (core/run/cycling.h) makes one or more steps of each index:
// which workers and targets take part, at which depth. Only the first host runs (the
// local machine); the others are reported as ignored.
#pragma once

#include "core/profile/problem.h"
#include "core/profile/profile.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ioprism::core {

struct PlannedTarget {
    Target target;
    std::uint32_t outstandingIos = 1; // as configured (before spec overrides and cycling)
};

struct PlannedWorker {
    std::string name; // "Worker 1", a copy: "Worker 1 #2"
    std::size_t profileWorker = 0; // index in hosts[0].workers
    std::uint32_t copyIndex = 0; // 0 = the worker itself
    std::vector<PlannedTarget> targets;
    // Per step: the spec this worker runs, or -1 when it idles in that step.
    std::vector<int> specPerStep;
    // Per step, per target: the outstanding I/Os it runs at; 0 = not used in that step.
    std::vector<std::vector<std::uint32_t>> depthPerStep;
    std::uint64_t seed = 0; // effective (a fixed seed, or the random one drawn for this run)
    DataPattern dataPattern;
    std::vector<std::uint32_t> cpuAffinity;
};

// A step of a series, or of Iometer's queue-depth or worker cycling (a one-axis series,
// cyclingAxis()): which point, which trial, the values of its axes.
struct StepPoint {
    // The point within its spec index's series: the same in every trial; targets in
    // turn are points of their own. Cycling: the step's place among its spec index's.
    std::size_t index = 0;
    std::uint32_t trial = 0; // 0-based; in cycling, the step's pass (TestSetup::passes)
    std::vector<std::uint64_t> values; // per axis of setup.series, or the cycling's one
    std::string target; // targets in turn: the one this point runs on; "" = all
    friend bool operator==(const StepPoint &, const StepPoint &) = default;
};

struct PlannedStep {
    // "spec A", or "spec A + spec B" when workers differ, then what the step cycles:
    // "spec A, QD 8". Unique within a plan only with cycling; never empty.
    std::string name;
    std::string specName; // the spec(s) alone: Iometer's "Access Specification Name"
    std::size_t specIndex = 0; // the Nth assigned spec of every worker
    std::string cycle; // what this step cycles ("QD 8", "2 workers"); "" in a normal test
    std::uint32_t workers = 0; // the workers taking part (not idle)
    // A series' step, or a step of queue-depth or worker cycling: its point. Only a
    // series' is written as a point (seriesPointOf).
    std::optional<StepPoint> point;
    // Per worker and target: stop after this many I/Os (0 = the run time), and worker n
    // starts n x workerStagger after the first (a series' ios and workerStagger).
    std::uint64_t ioLimit = 0;
    std::chrono::milliseconds workerStagger {0};
    // CrystalDiskMark's passes (TestSetup::passes): the 0-based pass of its test; the
    // passes of a test are consecutive steps, pass 0 first. A step with pass 0 starts a
    // test (after TestSetup::pauseBetweenTests, but for the first).
    std::uint32_t pass = 0;
    friend bool operator==(const PlannedStep &, const PlannedStep &) = default;
};

struct RunPlan {
    std::vector<PlannedWorker> workers;
    // The specs steps run (specPerStep indexes it): the profile's, then the variants a
    // series makes (a spec at a point's transfer size, % read or % random).
    std::vector<AccessSpec> specs;
    std::vector<PlannedStep> steps;
    Profile effectiveProfile; // with the seeds actually used filled in

    std::size_t stepCount() const { return steps.size(); }
};

// Builds the plan; problems (errors) when the profile cannot run, e.g. no host.
// randomSeed supplies seeds for workers without a fixed one.
std::optional<RunPlan> makeRunPlan(
    const Profile &profile, std::uint64_t randomSeed, Problems &problems);

// Iometer's queue-depth and worker cycling are one-axis series: the parameter their
// steps' points have the value of (the depth every target runs at; the workers taking
// part). nullopt for the other test types and with a series (whose axes say it).
std::optional<SweepParameter> cyclingAxis(const TestSetup &setup);

// Gives each step of queue-depth or worker cycling without a point its point, from the
// cycling settings and the steps in plan order: the k-th step of a spec index is point k
// of it; its value is the k-th depth of queueDepthValues() (core/run/cycling.h), or the
// workers the step runs. The planner sets them so; a results file written before it did
// (its cycling steps have none) gets the same from its reader. A step that cycles
// nothing (Iometer's pause) gets none, nor a worker step whose worker count is unknown
// (0: files of format 1 and 2 do not keep it).
void setCyclingPoints(const TestSetup &setup, std::vector<PlannedStep> &steps);

// The step's point when it is a series' (setup.series), else null. What writes series
// data a cycling run did not have before its steps carried points (the steps' "point" in
// the results, the Iometer CSV's specs per point, compare's point rows, the skipping of
// points a target cannot run) asks this, so that a cycling run's outputs stay Iometer's.
inline const StepPoint *seriesPointOf(const TestSetup &setup, const PlannedStep &step)
{
    return setup.series && step.point ? &*step.point : nullptr;
}

// The steps a profile runs (names, spec index, what each cycles), or none when it cannot
// be planned: for "step 3 of 12" and the time a run will take, before it starts.
std::vector<PlannedStep> plannedSteps(const Profile &profile);

} // namespace ioprism::core
