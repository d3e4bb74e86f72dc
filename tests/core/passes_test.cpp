// SPDX-License-Identifier: GPL-3.0-or-later
// CrystalDiskMark's passes and its interval between tests (TestSetup::passes and
// pauseBetweenTests): the plan's consecutive passes, the profile's checks and file, the
// summary's best pass with the passes' mean and spread, and a real run's pause.
#include "core/null_engine.h"
#include "core/profile/profile_json.h"
#include "core/profile/validation.h"
#include "core/report/results_json.h"
#include "core/report/results_reader.h"
#include "core/report/step_summary.h"
#include "core/run/plan.h"
#include "core/run/run.h"
#include "core/run/run_progress.h"
#include "core/run/series_result.h"

#include <algorithm>
#include <atomic>
#include <gtest/gtest.h>
#include <mutex>
#include <string>
#include <vector>

namespace ioprism::core {
namespace {

using namespace std::chrono_literals;

AccessSpec specOf(const std::string &name, std::uint32_t read)
{
    AccessSpec spec;
    spec.name = name;
    SpecLine line;
    line.transferSizeBytes = 64 * 1024;
    line.alignmentBytes = 4096;
    line.percentRead = read;
    spec.lines.push_back(line);
    return spec;
}

// Two tests (a read and a write), one worker on one test file.
Profile twoTests(std::uint32_t passes)
{
    Profile p;
    p.setup.runTime = 0s;
    p.setup.interval = 100ms;
    p.setup.passes = passes;
    p.specs = {specOf("Read", 100), specOf("Write", 0)};
    Worker w;
    w.name = "Worker 1";
    w.outstandingIos = 2;
    w.seed = 1;
    w.assignedSpecs = {"Read", "Write"};
    Target t;
    t.path = "t0";
    t.testFileSizeBytes = 64 * kMiB;
    w.targets.push_back(t);
    p.hosts.push_back({});
    p.hosts[0].workers.push_back(w);
    return p;
}

bool hasProblemAt(const Problems &problems, const std::string &path)
{
    return std::any_of(problems.begin(), problems.end(),
        [&](const Problem &p) { return p.severity == Severity::Error && p.path == path; });
}

TEST(Passes, EachStepRunsItsPassesInARowEachNamed)
{
    Problems problems;
    const auto plan = makeRunPlan(twoTests(3), 0, problems);
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->steps.size(), 6u);
    const std::vector<std::string> names {"Read, pass 1/3", "Read, pass 2/3", "Read, pass 3/3",
        "Write, pass 1/3", "Write, pass 2/3", "Write, pass 3/3"};
    for (std::size_t s = 0; s < 6; ++s) {
        EXPECT_EQ(plan->steps[s].name, names[s]);
        EXPECT_EQ(plan->steps[s].pass, s % 3);
        EXPECT_EQ(plan->steps[s].specName, s < 3 ? "Read" : "Write");
        // The worker runs the same spec at the same depth in every pass of a test.
        EXPECT_EQ(plan->workers[0].specPerStep[s], s < 3 ? 0 : 1);
        EXPECT_EQ(plan->workers[0].depthPerStep[s], std::vector<std::uint32_t> {2});
    }
    // One pass is the plan as it always was.
    const auto one = makeRunPlan(twoTests(1), 0, problems);
    ASSERT_TRUE(one);
    ASSERT_EQ(one->steps.size(), 2u);
    EXPECT_EQ(one->steps[1].name, "Write");
    EXPECT_EQ(one->steps[1].pass, 0u);
}

TEST(Passes, QueueDepthCyclingHasEachPassAsATrialOfItsPoint)
{
    Profile p = twoTests(2);
    p.hosts[0].workers[0].assignedSpecs = {"Read"};
    p.setup.testType = TestType::CycleOutstandingIos;
    p.setup.queueDepthCycling
        = {.start = 1, .step = 2, .end = 4, .stepType = StepType::Exponential};
    Problems problems;
    const auto plan = makeRunPlan(p, 0, problems);
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->steps.size(), 6u); // QD 1, 2, 4, each twice
    for (std::size_t s = 0; s < 6; ++s) {
        ASSERT_TRUE(plan->steps[s].point);
        EXPECT_EQ(plan->steps[s].point->index, s / 2);
        EXPECT_EQ(plan->steps[s].point->trial, s % 2);
        EXPECT_EQ(plan->steps[s].point->values, std::vector<std::uint64_t> {1u << (s / 2)});
    }
    EXPECT_EQ(plan->steps[3].name, "Read, QD 2, pass 2/2");
}

// Iometer's pause (every worker Idle at a spec index) has its passes too, and no point:
// not when planned, nor when a results file's plan is read (setCyclingPoints again).
TEST(Passes, IometersPauseRunsItsPassesWithoutAPoint)
{
    Profile p = twoTests(2);
    p.hosts[0].workers[0].assignedSpecs = {"Read", "Idle", "Write"};
    p.setup.testType = TestType::CycleOutstandingIos;
    p.setup.queueDepthCycling
        = {.start = 1, .step = 2, .end = 2, .stepType = StepType::Exponential};
    Problems problems;
    const auto plan = makeRunPlan(p, 0, problems);
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->steps.size(), 10u); // Read at QD 1 and 2, the pause, Write: twice each
    std::vector<PlannedStep> steps = plan->steps;
    for (std::size_t s : {4u, 5u}) {
        EXPECT_EQ(steps[s].name, "Idle, pass " + std::to_string(s - 3) + "/2");
        EXPECT_FALSE(steps[s].point);
    }
    setCyclingPoints(p.setup, steps);
    EXPECT_EQ(steps, plan->steps) << "read back, the plan is the same: the pause has no point";
}

TEST(Passes, TheProfileRefusesNoPassTooManyAndPassesOfASeries)
{
    for (const std::uint32_t passes : {0u, 101u}) {
        Profile p = twoTests(passes);
        EXPECT_TRUE(hasProblemAt(validateProfile(p), "setup.passes")) << passes;
    }
    EXPECT_FALSE(hasProblemAt(validateProfile(twoTests(100)), "setup.passes"));
    Profile series = twoTests(2);
    series.setup.series = Series {};
    series.setup.series->axes.push_back(
        {.parameter = SweepParameter::OutstandingIos, .values = {1, 4}});
    EXPECT_TRUE(hasProblemAt(validateProfile(series), "setup.passes"));
    series.setup.passes = 1;
    EXPECT_FALSE(hasProblemAt(validateProfile(series), "setup.passes"));

    Profile pause = twoTests(1);
    pause.setup.pauseBetweenTests = -1s;
    EXPECT_TRUE(hasProblemAt(validateProfile(pause), "setup.pauseBetweenTests"));
    pause.setup.pauseBetweenTests = 25h;
    EXPECT_TRUE(hasProblemAt(validateProfile(pause), "setup.pauseBetweenTests"));
    pause.setup.pauseBetweenTests = 5s;
    EXPECT_FALSE(hasProblemAt(validateProfile(pause), "setup.pauseBetweenTests"));
}

TEST(Passes, AProfileFileKeepsThemAndOneWithoutReadsAsBefore)
{
    Profile p = twoTests(5);
    p.setup.pauseBetweenTests = 5s;
    const std::string text = writeProfileJson(p);
    EXPECT_NE(text.find("\"passes\": 5"), std::string::npos) << text;
    EXPECT_NE(text.find("\"pauseBetweenTests\": \"5s\""), std::string::npos) << text;
    Problems problems;
    const auto read = parseProfileJson(text, problems);
    ASSERT_TRUE(read) << (problems.empty() ? "" : problems.front().toString());
    EXPECT_EQ(read->setup.passes, 5u);
    EXPECT_EQ(read->setup.pauseBetweenTests, 5s);
    const std::string plain = writeProfileJson(twoTests(1));
    EXPECT_EQ(plain.find("passes"), std::string::npos);
    EXPECT_EQ(plain.find("pauseBetweenTests"), std::string::npos);
}

// A run's result made by hand: `rates` MB/s per step of one test of that many passes
// (64 KiB reads), `complete` per step.
RunResult passesResult(
    const std::vector<double> &rates, const std::vector<bool> &complete, std::uint32_t planned)
{
    Profile profile = twoTests(planned);
    profile.hosts[0].workers[0].assignedSpecs = {"Read"};
    Problems problems;
    RunResult r;
    const auto plan = makeRunPlan(profile, 0, problems);
    r.plan.profile = plan->effectiveProfile;
    r.plan.steps = plan->steps;
    for (std::size_t i = 0; i < rates.size(); ++i) {
        StepResult s;
        s.step = i;
        s.stepName = plan->steps[i].name;
        s.complete = complete[i];
        ScopeResult all;
        all.figures.read.megabytesPerSecond = rates[i];
        all.figures.total.iops = rates[i] * 1e6 / 65536;
        all.figures.total.ios = 1000;
        all.figures.total.latency.meanUs = 1000 / rates[i]; // a pass of its own latency
        s.scopes.push_back(all);
        r.steps.push_back(s);
    }
    return r;
}

TEST(Passes, TheSummaryShowsTheBestPassWithThePassesMeanAndSpread)
{
    const RunResult r = passesResult({400, 520, 480}, {true, true, true}, 3);
    const auto rows = stepSummary(r);
    ASSERT_EQ(rows.size(), 1u);
    const StepSummaryRow &row = rows[0];
    EXPECT_EQ(row.name, "Read");
    EXPECT_EQ(row.step, 1u) << "the best pass: the most MB/s";
    EXPECT_DOUBLE_EQ(row.readMegabytesPerSecond, 520);
    EXPECT_DOUBLE_EQ(row.meanLatencyUs, 1000.0 / 520) << "the best pass's own latency";
    EXPECT_EQ(row.passes, 3u);
    EXPECT_EQ(row.plannedPasses, 3u);
    EXPECT_EQ(row.passSteps, (std::vector<std::size_t> {0, 1, 2}));
    EXPECT_DOUBLE_EQ(row.megabytesPerSecondSpread.mean, 1400.0 / 3);
    EXPECT_DOUBLE_EQ(row.megabytesPerSecondSpread.min, 400);
    EXPECT_DOUBLE_EQ(row.megabytesPerSecondSpread.max, 520);
    EXPECT_DOUBLE_EQ(row.iopsSpread.max, 520 * 1e6 / 65536);
    EXPECT_TRUE(row.complete);

    const std::string text = formatStepSummary(rows, TableFormat::Text);
    EXPECT_NE(text.find("best of 3"), std::string::npos) << text;
    EXPECT_NE(text.find("466.7"), std::string::npos) << text; // the mean
    EXPECT_NE(text.find("400.0–520.0"), std::string::npos) << text;
    const std::string csv = formatStepSummary(rows, TableFormat::Csv);
    EXPECT_NE(csv.find(",passes,planned_passes,mean_mb_per_s,min_mb_per_s,max_mb_per_s,"
                       "mean_iops,min_iops,max_iops\n"),
        std::string::npos)
        << csv;
    EXPECT_NE(csv.find(",3,3,466.667,400.000,520.000,"), std::string::npos) << csv;
}

TEST(Passes, APassCutShortIsNeverTheBestAndARunStoppedEarlySaysHowManyRan)
{
    // The second pass was stopped: its figure (the most MB/s) is over a fraction of its
    // time and is not the best; the test is not complete.
    const RunResult r = passesResult({400, 900}, {true, false}, 3);
    const auto rows = stepSummary(r);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].step, 0u);
    EXPECT_DOUBLE_EQ(rows[0].readMegabytesPerSecond, 400);
    EXPECT_EQ(rows[0].passes, 2u);
    EXPECT_FALSE(rows[0].complete);
    EXPECT_DOUBLE_EQ(rows[0].megabytesPerSecondSpread.max, 400) << "nor in the spread";
    EXPECT_DOUBLE_EQ(rows[0].megabytesPerSecondSpread.mean, 400);
    const std::string text = formatStepSummary(rows, TableFormat::Text);
    EXPECT_NE(text.find("best of 2 (of 3)"), std::string::npos) << text;
    EXPECT_NE(text.find("Read (cut short)"), std::string::npos) << text;
}

// Remembers every phase it hears, and stops the run when the pause begins if asked to.
struct PhaseSink final : RunSink {
    Run *run = nullptr;
    bool stopInPause = false;
    std::mutex mutex;
    std::vector<std::pair<RunPhase, std::size_t>> phases;
    void onPhase(RunPhase phase, std::size_t step, const std::string &) override
    {
        {
            std::lock_guard lock(mutex);
            phases.emplace_back(phase, step);
        }
        if (phase == RunPhase::Pausing && stopInPause && run)
            run->requestStop();
    }
    std::vector<std::size_t> pausedBefore()
    {
        std::vector<std::size_t> steps;
        for (const auto &[phase, step] : phases)
            if (phase == RunPhase::Pausing)
                steps.push_back(step);
        return steps;
    }
};

RunSettings fixedIos()
{
    RunSettings settings;
    settings.ioLimitPerTarget = 200; // each step ends when its I/Os are done
    return settings;
}

TEST(PassesRun, ThePauseComesBeforeEachTestButTheFirstAndNotBetweenPasses)
{
    Profile p = twoTests(2);
    p.setup.pauseBetweenTests = 1s;
    PhaseSink sink;
    NullBackend backend;
    NullCounterSource counters;
    core::Run run(p, backend, counters, sink, fixedIos());
    sink.run = &run;
    const auto before = std::chrono::steady_clock::now();
    const RunResult r = run.execute();
    const auto took = std::chrono::steady_clock::now() - before;
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(r.steps.size(), 4u);
    EXPECT_EQ(r.steps[2].stepName, "Write, pass 1/2");
    EXPECT_EQ(sink.pausedBefore(), std::vector<std::size_t> {2}) << "before the Write test only";
    // The pause is waited in full (a lower bound: nothing can make a sleep shorter).
    EXPECT_GE(took, 1s);
    // Nothing is measured in the pause: no interval of it.
    for (const auto &sample : r.intervals)
        EXPECT_NE(sample.phase, RunPhase::Pausing);
    const auto rows = stepSummary(r);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].name, "Read");
    EXPECT_EQ(rows[1].name, "Write");
    EXPECT_EQ(rows[1].passSteps, (std::vector<std::size_t> {2, 3}));
}

TEST(PassesRun, AStopInThePauseEndsTheRunWithTheTestsMeasured)
{
    Profile p = twoTests(1);
    // Ten minutes: were the Stop not heard in the pause, the test would time out.
    p.setup.pauseBetweenTests = 600s;
    PhaseSink sink;
    sink.stopInPause = true;
    NullBackend backend;
    NullCounterSource counters;
    core::Run run(p, backend, counters, sink, fixedIos());
    sink.run = &run;
    const RunResult r = run.execute();
    EXPECT_FALSE(r.error);
    EXPECT_TRUE(r.stoppedByUser);
    ASSERT_EQ(r.steps.size(), 1u) << "the Read test, measured before the pause";
    EXPECT_TRUE(r.steps[0].complete);
    EXPECT_EQ(sink.pausedBefore(), std::vector<std::size_t> {1});
}

TEST(PassesRun, AResultsFileKeepsEachPassAndItsTestTogether)
{
    Profile p = twoTests(3);
    PhaseSink sink;
    NullBackend backend;
    NullCounterSource counters;
    const RunResult r = core::Run(p, backend, counters, sink, fixedIos()).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(r.steps.size(), 6u);
    const ResultsRead read = readResultsJson(writeResultsJson(r, r.environment));
    ASSERT_TRUE(read.ok()) << read.error;
    EXPECT_EQ(read.result->plan.steps, r.plan.steps);
    const auto rows = stepSummary(*read.result);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1].passSteps, (std::vector<std::size_t> {3, 4, 5}));
    EXPECT_EQ(rows[0].step, stepSummary(r)[0].step);
}

// Four tests of two passes, 1 s ramp-up + 4 s each, 10 s pauses: 8 x 5 s + 3 x 10 s = 70 s.
TEST(PassesProgress, ThePausesCountInTheFractionAndTheTimeLeft)
{
    TestSetup setup;
    setup.rampUp = 1s;
    setup.runTime = 4s;
    setup.passes = 2;
    setup.pauseBetweenTests = 10s;
    const RunProgress::Clock::time_point t0 {};
    RunProgress progress(setup, 8);
    progress.setPhase(RunPhase::RampUp, 0, t0);
    EXPECT_DOUBLE_EQ(progress.timeLeft(t0).value_or(std::chrono::duration<double>(-1)).count(), 70);
    // Step 2 (the second test's first pass) pauses first: 10 s done, 3 s into the pause.
    progress.setPhase(RunPhase::Pausing, 2, t0 + 100s);
    EXPECT_DOUBLE_EQ(progress.fraction(t0 + 103s).value_or(-1), 13.0 / 70);
    EXPECT_DOUBLE_EQ(progress.timeLeft(t0 + 103s)->count(), 57);
    progress.setPhase(RunPhase::Measuring, 3, t0 + 200s);
    // Steps 0-2 (15 s) and one pause (10 s) before step 3, 2 s into it (ramp-up included).
    EXPECT_DOUBLE_EQ(progress.fraction(t0 + 200s).value_or(-1), (15.0 + 10 + 1) / 70);
}

} // namespace
} // namespace ioprism::core
