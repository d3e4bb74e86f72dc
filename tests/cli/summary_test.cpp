// SPDX-License-Identifier: GPL-3.0-or-later
// The CLI's text: interval lines and the description of a run made from options.
#include "app/cli/summary.h"
#include "core/profile/presets.h"
#include "core/run/host_merge.h"
#include "support/host_runs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace ioprism::core;
using ioprism::cli::describeRun;
using ioprism::cli::intervalLine;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// One interval of "4K read" with `ios` reads, compared with a device.
IntervalSample sample(std::uint64_t ios, Verdict read, Verdict write)
{
    IntervalSample s;
    s.stepName = "4K read";
    s.endSeconds = 3;
    Figures f;
    f.seconds = 1;
    f.read.ios = f.total.ios = ios;
    f.total.iops = double(ios);
    f.total.latency.meanUs = ios ? 120 : 0;
    f.total.latency.p99Us = ios ? 900 : 0;
    s.scopes.push_back({Scope {Scope::Kind::All, -1, -1, "All", {}}, f});
    s.devices.available = true;
    s.devices.verdict.read.verdict = read;
    s.devices.verdict.write.verdict = write;
    // The core's headline for agree and idle alike (core/stats/verdict.h).
    s.devices.verdict.verdict = Verdict::Agree;
    return s;
}

} // namespace

TEST(IntervalLine, AnIntervalWithIoShowsItsLatencyAndVerdict)
{
    const std::string line = intervalLine(sample(1000, Verdict::Agree, Verdict::Idle));
    EXPECT_THAT(line, HasSubstr("lat mean    120 µs p99    900 µs"));
    EXPECT_THAT(line, HasSubstr("agree"));
    EXPECT_THAT(line, Not(HasSubstr("no I/O")));
}

TEST(IntervalLine, AnIntervalWithoutIoSaysSoAndClaimsNoAgreement)
{
    const std::string line = intervalLine(sample(0, Verdict::Idle, Verdict::Idle));
    EXPECT_THAT(line, HasSubstr("no I/O"));
    EXPECT_THAT(line, Not(HasSubstr("lat mean")));
    EXPECT_THAT(line, Not(HasSubstr("µs")));
    EXPECT_THAT(line, Not(HasSubstr("agree")));
    EXPECT_THAT(line, HasSubstr("MB/s idle"));
}

TEST(IntervalLine, DeviceTrafficWithoutOursIsStillReported)
{
    // Nothing from us, but the device moved data: the verdict says so.
    auto s = sample(0, Verdict::OtherTraffic, Verdict::Idle);
    s.devices.verdict.verdict = Verdict::OtherTraffic;
    EXPECT_THAT(intervalLine(s), HasSubstr("other traffic"));
}

// A series point of 1000 operations lasts milliseconds: its time says so, not "0.0 s".
TEST(ResultTable, AStepShorterThanASecondSaysItsMilliseconds)
{
    RunResult r;
    StepResult step;
    step.stepName = "Random read, 64 KiB";
    step.measuredSeconds = 0.0112;
    step.complete = true;
    r.steps.push_back(step);
    EXPECT_THAT(
        ioprism::cli::resultTable(r), HasSubstr("== Random read, 64 KiB: 11.2 ms measured\n"));
    r.steps[0].measuredSeconds = 10;
    EXPECT_THAT(
        ioprism::cli::resultTable(r), HasSubstr("== Random read, 64 KiB: 10.0 s measured\n"));
}

// A step under a steady-state rule: its verdict with the window's mean, and every
// round's figure with the window's in brackets; a step stopped before a verdict says so.
TEST(ResultTable, AStepUnderASteadyStateRuleShowsItsVerdictAndRounds)
{
    RunResult r;
    StepResult step;
    step.stepName = "4K random write";
    step.measuredSeconds = 360;
    SteadyStateRecord steady;
    steady.setup.roundTime = std::chrono::minutes(1);
    const std::vector<double> figures {52000, 41000, 40500, 40100, 40800, 40300};
    for (std::size_t i = 0; i < figures.size(); ++i)
        steady.rounds.push_back({double(i) * 60, double(i + 1) * 60, figures[i]});
    steady.result = judgeSteadyState(figures, steady.setup.criteria);
    ASSERT_EQ(steady.result.state, SteadyState::Steady) << steady.result.explanation;
    step.steadyState = steady;
    r.steps.push_back(step);
    const std::string table = ioprism::cli::resultTable(r);
    EXPECT_THAT(
        table, HasSubstr("steady state (pts on iops, rounds of 1m): steady in rounds 2-6: "));
    EXPECT_THAT(table, HasSubstr("; the window's mean 40540 IOPS\n"));
    EXPECT_THAT(table, HasSubstr("  rounds (IOPS): 52000 [41000 40500 40100 40800 40300]\n"));

    r.steps[0].steadyState->rounds.resize(2);
    r.steps[0].steadyState->result
        = judgeSteadyState(std::vector<double> {52000, 41000}, steady.setup.criteria);
    EXPECT_THAT(ioprism::cli::resultTable(r),
        HasSubstr("rounds of 1m): ended after 2 rounds of 60 s, before a verdict (measuring: 2 of "
                  "the 5 rounds of a window)\n"
                  "  rounds (IOPS): 52000 41000\n"));
}

using ioprism::test::oneStepHostRun;

TEST(ResultTable, ARunOfSeveralHostsShowsEachHostUnderAllAndItsOwnCpu)
{
    auto merged = mergeHostRuns({{"", -1, "", oneStepHostRun("db1", 1000, 20)},
        {"", -1, "", oneStepHostRun("db2", 3000, 60)}});
    ASSERT_TRUE(merged.ok()) << merged.error().toString();
    const std::string table = ioprism::cli::resultTable(*merged);
    EXPECT_THAT(table, HasSubstr("\nAll "));
    EXPECT_THAT(table, HasSubstr("\ndb1 "));
    EXPECT_THAT(table, HasSubstr("\n  db2 / Worker 1 "));
    EXPECT_THAT(table, HasSubstr("CPU (hosts' mean): 40.0% busy"));
    EXPECT_THAT(table, HasSubstr("CPU on db1: 20.0% busy"));
    EXPECT_THAT(table, HasSubstr("CPU on db2: 60.0% busy"));
    // One host: no host rows, and the CPU line as it always was.
    const std::string one = ioprism::cli::resultTable(oneStepHostRun("db1", 1000, 20));
    EXPECT_THAT(one, Not(HasSubstr("\ndb1 ")));
    EXPECT_THAT(one, HasSubstr("\nCPU: 20.0% busy"));
}

TEST(DescribeRun, SaysWhatRunsWhereAndForHowLong)
{
    Problems problems;
    auto p = loadPreset("quick", problems);
    ASSERT_TRUE(p) << problems.size();
    auto &w = p->hosts[0].workers[0];
    w.assignedSpecs.resize(1);
    w.outstandingIos = 4;
    for (auto &s : p->specs)
        s.queueDepth.reset();
    p->setup.runTime = std::chrono::seconds(10);
    p->setup.rampUp = std::chrono::seconds(2);
    const Worker first = w;
    p->hosts[0].workers.push_back(first);
    const std::string text = describeRun(*p);
    EXPECT_EQ(text,
        first.assignedSpecs[0]
            + " (1 MiB) at QD 4; 2 workers; 10s measured per spec after 2s ramp-up; on "
              "ioprism-test.dat (direct, 512 MiB test file)");
}

namespace {

// Two steps, five workers: four that do the same, one idle in the first step and at two
// depths on its two targets in the second.
ResolvedPlan twoStepPlan()
{
    ResolvedPlan plan;
    plan.specs.resize(2);
    plan.specs[0].name = "A";
    plan.specs[1].name = "B";
    plan.steps.resize(2);
    plan.steps[0].name = "A";
    plan.steps[1].name = "B";
    plan.steps[1].ioLimit = 1000;
    for (int w = 0; w < 5; ++w) {
        ResolvedWorker worker;
        worker.name = "Worker " + std::to_string(w + 1);
        worker.seed = 40 + std::uint64_t(w);
        ResolvedTarget t;
        t.target.path = w == 4 ? "/dev/sdz" : w == 3 ? "tree" : "t.dat";
        if (w == 3)
            t.target.kind = TargetKind::FileTree;
        t.info.path = t.target.path;
        t.info.isDevice = w == 4;
        t.info.sizeBytes = 1u << 30;
        t.region = {4096, 1u << 20};
        worker.targets.push_back(t);
        worker.specPerStep = {w == 4 ? -1 : 0, 1};
        worker.outstandingIos = {{8}, {w == 4 ? 2u : 8u}};
        if (w == 4) {
            worker.targets.push_back(t);
            worker.outstandingIos[1].push_back(4);
        }
        plan.workers.push_back(worker);
    }
    return plan;
}

} // namespace

TEST(PlanText, ListsWorkersTargetsWithTheirDevicesAndEachStep)
{
    DeviceFacts sdz;
    sdz.name = "sdz";
    sdz.model = "Test Disk";
    sdz.rotational = true;
    const std::string text = ioprism::cli::planText(twoStepPlan(), "io_uring", {{"/dev/sdz", sdz}});
    EXPECT_THAT(
        text, HasSubstr("plan: 2 steps, 5 workers; each worker starts with the io_uring engine"));
    EXPECT_THAT(text, HasSubstr("  Worker 5: seed 44"));
    EXPECT_THAT(
        text, HasSubstr("    t.dat (test file, direct, 1 GiB; I/O at offsets 4KiB to 1028KiB; "));
    EXPECT_THAT(text, HasSubstr("      on device unknown\n"));
    EXPECT_THAT(text, HasSubstr("    tree (file tree, direct, 1 GiB; "));
    EXPECT_THAT(text, HasSubstr("    /dev/sdz (raw device, "));
    EXPECT_THAT(text, HasSubstr("      on device sdz (Test Disk, HDD)\n"));
    // Workers doing the same are named together; a long run of them by its ends.
    EXPECT_THAT(text,
        HasSubstr("  step 1/2 A: Worker 1 .. Worker 4 (4 workers): A at QD 8; Worker 5: idle\n"));
    EXPECT_THAT(text,
        HasSubstr("  step 2/2 B: Worker 1 .. Worker 4 (4 workers): B at QD 8; Worker 5: B at QD "
                  "2, 4 (1000 I/Os per worker and target)\n"));
}
