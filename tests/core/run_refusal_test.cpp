// SPDX-License-Identifier: GPL-3.0-or-later
// Refusals before any I/O that need the real target: a region past the end of the
// target, and test files that fit one by one but not together.
#include "core/run/run.h"
#include "support/test_backend.h"

#include <gtest/gtest.h>

using namespace ioprism::core;
using namespace std::chrono_literals;
using BenchRun = ioprism::core::Run;

namespace {

Profile deviceProfile(Region region)
{
    Profile p;
    p.setup.runTime = 1s;
    AccessSpec spec;
    spec.name = "4K read";
    SpecLine line;
    line.transferSizeBytes = 4096;
    line.percentRead = 100;
    spec.lines.push_back(line);
    p.specs.push_back(spec);
    Host h;
    Worker w;
    w.name = "Worker 1";
    w.assignedSpecs = {"4K read"};
    Target t;
    t.kind = TargetKind::BlockDevice;
    t.path = "/dev/test";
    t.testFileSizeBytes = 64 * kMiB; // the test backend's device size
    t.region = region;
    w.targets.push_back(t);
    h.workers.push_back(w);
    p.hosts.push_back(h);
    return p;
}

struct NoSink : RunSink {
};

} // namespace

TEST(RunRefusal, ARegionPastTheEndOfTheTargetIsRefusedWithItsFieldPath)
{
    ioprism::test::TestBackend backend;
    NullCounterSource counters;
    NoSink sink;
    BenchRun run(
        deviceProfile({.offsetBytes = 32 * kMiB, .sizeBytes = 64 * kMiB}), backend, counters, sink);
    const RunResult r = run.execute();
    ASSERT_TRUE(r.error.has_value());
    EXPECT_EQ(r.error->detail,
        "hosts[0].workers[0].targets[0].region: offset 32 MiB + size 64 MiB ends 32 MiB beyond "
        "the end of the target (64 MiB): make it fit, or give size 0 for \"to the end\"");
    EXPECT_TRUE(r.steps.empty()) << "no I/O";
}

TEST(RunRefusal, ARegionThatFitsOrRunsToTheEndIsKept)
{
    for (const Region region : {Region {.offsetBytes = 32 * kMiB, .sizeBytes = 32 * kMiB},
             Region {.offsetBytes = 32 * kMiB, .sizeBytes = 0}}) {
        ioprism::test::TestBackend backend;
        NullCounterSource counters;
        NoSink sink;
        RunSettings options;
        options.ioLimitPerTarget = 100;
        BenchRun run(deviceProfile(region), backend, counters, sink, options);
        const RunResult r = run.execute();
        EXPECT_FALSE(r.error.has_value()) << r.error->toString();
        ASSERT_EQ(r.steps.size(), 1u);
        EXPECT_EQ(r.steps[0].scopes[0].figures.read.ios, 100u);
    }
}

TEST(ResolvedPlan, TheResultCarriesWhatRanPerWorkerTargetAndStep)
{
    Profile p = deviceProfile({.offsetBytes = 16 * kMiB, .sizeBytes = 0});
    AccessSpec deep = p.specs[0];
    deep.name = "deep";
    deep.queueDepth = 32;
    p.specs.push_back(deep);
    p.hosts[0].workers[0].assignedSpecs = {"4K read", "deep"};
    p.hosts[0].workers[0].outstandingIos = 4;
    ioprism::test::TestBackend backend;
    NullCounterSource counters;
    NoSink sink;
    RunSettings options;
    options.ioLimitPerTarget = 10;
    BenchRun run(p, backend, counters, sink, options);
    const RunResult r = run.execute();
    ASSERT_FALSE(r.error.has_value()) << r.error->toString();
    const ResolvedPlan &plan = r.plan;
    ASSERT_EQ(plan.stepCount(), 2u);
    ASSERT_EQ(plan.workers.size(), 1u);
    const auto &w = plan.workers[0];
    ASSERT_EQ(w.targets.size(), 1u);
    EXPECT_EQ(w.targets[0].target.region.sizeBytes, 0u) << "as asked";
    EXPECT_EQ(w.targets[0].region.offsetBytes, 16 * kMiB);
    EXPECT_EQ(w.targets[0].region.sizeBytes, 48 * kMiB) << "resolved: to the end";
    EXPECT_EQ(w.targets[0].info.sizeBytes, 64 * kMiB);
    EXPECT_EQ(w.outstandingIos[0][0], 4u);
    EXPECT_EQ(w.outstandingIos[1][0], 32u) << "the spec's queue depth";
    EXPECT_EQ(plan.specOf(0, 1)->name, "deep");
    EXPECT_EQ(plan.specOf(0, 2), nullptr);
    ASSERT_TRUE(plan.profile.hosts[0].workers[0].seed.has_value()) << "the seed used is kept";
    EXPECT_EQ(plan.targetInfos().size(), 1u);
}
