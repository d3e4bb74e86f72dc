// SPDX-License-Identifier: GPL-3.0-or-later
// core/profile/depth.h: the one precedence of outstanding I/Os (series/cycling > spec >
// target > worker), and the plan, which runs the steps, agreeing with it.
#include "core/profile/depth.h"
#include "core/run/plan.h"

#include <gtest/gtest.h>

namespace ioprism::core {
namespace {

struct Fixture {
    AccessSpec plain; // no queue depth of its own
    AccessSpec q32;
    Worker worker;
    Target own; // with its own depth
    Target inherits; // without
    Fixture()
    {
        plain.name = "plain";
        plain.lines.resize(1);
        q32.name = "Q32";
        q32.lines.resize(1);
        q32.queueDepth = 32;
        own.path = "own.dat";
        own.outstandingIos = 8;
        inherits.path = "inherits.dat";
        worker.name = "Worker 1";
        worker.outstandingIos = 2;
        worker.targets = {own, inherits};
        worker.assignedSpecs = {"plain", "Q32"};
    }
    Profile profile() const
    {
        Profile p;
        p.specs = {plain, q32};
        p.hosts.resize(1);
        p.hosts[0].workers = {worker};
        return p;
    }
};

TEST(EffectiveDepth, SpecOverTargetOverWorker)
{
    const Fixture f;
    const TestSetup normal;
    EXPECT_EQ(
        effectiveDepth(normal, &f.q32, f.worker, &f.own), (EffectiveDepth {32, DepthSource::Spec}));
    EXPECT_EQ(effectiveDepth(normal, &f.plain, f.worker, &f.own),
        (EffectiveDepth {8, DepthSource::Target}));
    EXPECT_EQ(effectiveDepth(normal, &f.plain, f.worker, &f.inherits),
        (EffectiveDepth {2, DepthSource::Worker}));
    EXPECT_EQ(effectiveDepth(normal, nullptr, f.worker, &f.own),
        (EffectiveDepth {8, DepthSource::Target}));
    EXPECT_EQ(effectiveDepth(normal, nullptr, f.worker, nullptr),
        (EffectiveDepth {2, DepthSource::Worker}));
    EXPECT_FALSE(depthIsSwept(normal));
}

TEST(EffectiveDepth, CyclingAndASeriesOverDepthSetItPerStep)
{
    const Fixture f;
    TestSetup cycling;
    cycling.testType = TestType::CycleOutstandingIosAndTargets;
    EXPECT_TRUE(depthIsSwept(cycling));
    EXPECT_EQ(effectiveDepth(cycling, &f.q32, f.worker, &f.own),
        (EffectiveDepth {32, DepthSource::Swept}));
    TestSetup targets;
    targets.testType = TestType::CycleTargets;
    EXPECT_FALSE(depthIsSwept(targets));

    TestSetup series;
    series.series.emplace();
    series.series->axes.push_back({.parameter = SweepParameter::OutstandingIos, .values = {1, 4}});
    EXPECT_TRUE(depthIsSwept(series));
    EXPECT_EQ(effectiveDepth(series, &f.plain, f.worker, &f.inherits).source, DepthSource::Swept);
    // A series replaces the test type: over transfer size, it leaves cycling's depth alone.
    series.series->axes.front().parameter = SweepParameter::TransferSize;
    series.testType = TestType::CycleOutstandingIos;
    EXPECT_FALSE(depthIsSwept(series));
    EXPECT_EQ(effectiveDepth(series, &f.plain, f.worker, &f.own).source, DepthSource::Target);
}

// The plan is what runs: each step's depth per target is the effective depth of the spec
// the worker runs there.
TEST(EffectiveDepth, ThePlanRunsTheEffectiveDepth)
{
    const Fixture f;
    const Profile p = f.profile();
    Problems problems;
    const auto plan = makeRunPlan(p, 1, problems);
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->workers.size(), 1u);
    const PlannedWorker &w = plan->workers[0];
    ASSERT_EQ(w.specPerStep.size(), 2u);
    for (std::size_t step = 0; step < 2; ++step) {
        const AccessSpec &spec = plan->specs[std::size_t(w.specPerStep[step])];
        ASSERT_EQ(w.depthPerStep[step].size(), 2u);
        for (std::size_t t = 0; t < 2; ++t)
            EXPECT_EQ(w.depthPerStep[step][t],
                effectiveDepth(p.setup, &spec, f.worker, &f.worker.targets[t]).outstandingIos)
                << "step " << step << " target " << t;
    }
    EXPECT_EQ(w.depthPerStep[0], (std::vector<std::uint32_t> {8, 2}));
    EXPECT_EQ(w.depthPerStep[1], (std::vector<std::uint32_t> {32, 32}));
}

// A spec's threads run copies of the worker; each copy's seed is splitmix64 of the
// worker's fixed seed plus its copy number (core/workload/rng.h), so a saved profile
// replays the same I/O in every copy.
TEST(PlanSeeds, CopiesOfAWorkerHaveTheirSplitMixSeeds)
{
    Fixture f;
    f.q32.threads = 2;
    f.worker.seed = 42;
    const Profile p = f.profile();
    Problems problems;
    const auto plan = makeRunPlan(p, 1, problems);
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->workers.size(), 2u);
    EXPECT_EQ(plan->workers[0].seed, 42u);
    EXPECT_EQ(plan->workers[1].name, "Worker 1 #2");
    EXPECT_EQ(plan->workers[1].seed, 0xba69ec90eb4fef88ULL); // splitmix64 from state 43
}

// The CLI's --qd: one depth for every target under every spec.
TEST(EffectiveDepth, SetEverywhereIsTheDepthOfEveryTargetUnderEverySpec)
{
    const Fixture f;
    Profile p = f.profile();
    setOutstandingIosEverywhere(p, 5);
    for (const auto &spec : p.specs)
        for (const auto &w : p.hosts[0].workers)
            for (const auto &t : w.targets)
                EXPECT_EQ(effectiveDepth(p.setup, &spec, w, &t),
                    (EffectiveDepth {5, DepthSource::Worker}))
                    << spec.name << " " << t.path;
}

} // namespace
} // namespace ioprism::core
