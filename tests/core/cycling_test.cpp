// SPDX-License-Identifier: GPL-3.0-or-later
// Iometer's cycling: the step sequence of every test type, against the steps Iometer
// 1.1.0's code runs (REFERENCE.md, "Iometer cycling"), and the plan built from them.
#include "core/profile/validation.h"
#include "core/run/cycling.h"
#include "core/run/plan.h"

#include <gtest/gtest.h>

namespace ioprism::core {
namespace {

// "2,2|0,0": each worker's target depths, workers separated by '|'.
std::string depthsText(const std::vector<std::vector<std::uint32_t>> &depths)
{
    std::string text;
    for (std::size_t w = 0; w < depths.size(); ++w) {
        if (w > 0)
            text += "|";
        for (std::size_t t = 0; t < depths[w].size(); ++t)
            text.append(t > 0 ? "," : "").append(std::to_string(depths[w][t]));
    }
    return text;
}

std::vector<std::string> stepsText(
    const TestSetup &setup, const std::vector<CyclingWorker> &workers)
{
    std::vector<std::string> out;
    for (const auto &s : cyclingSteps(setup, workers))
        out.push_back(depthsText(s.depths) + " " + s.label);
    return out;
}

Cycling linear(std::uint32_t start, std::uint32_t step, std::uint32_t end = 1)
{
    return {start, step, end, StepType::Linear};
}

Cycling exponential(std::uint32_t start, std::uint32_t step, std::uint32_t end = 1)
{
    return {start, step, end, StepType::Exponential};
}

struct CountCase {
    Cycling cycling;
    std::uint32_t limit;
    std::vector<std::uint32_t> expected;
};

class CyclingCounts : public testing::TestWithParam<CountCase>
{
};

TEST_P(CyclingCounts, StepToTheLimitAndEndWithAll)
{
    EXPECT_EQ(cyclingCounts(GetParam().cycling, GetParam().limit), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Iometer, CyclingCounts,
    testing::Values(CountCase {linear(1, 1), 3, {1, 2, 3}},
        CountCase {linear(2, 2), 5, {2, 4, 5}}, // the last step is "all", off the grid
        CountCase {exponential(1, 2), 5, {1, 2, 4, 5}},
        CountCase {exponential(3, 2), 20, {3, 6, 12, 20}},
        CountCase {exponential(1, 1), 3, {1, 2, 3}}, // exponential x1 steps by +1
        CountCase {linear(0, 0), 2, {1, 2}}, // 0 counts as 1
        CountCase {linear(7, 1), 3, {3}}, // a start past the limit: one step, all
        CountCase {linear(1, 1), 0, {}}));

struct DepthCase {
    Cycling cycling;
    std::vector<std::uint32_t> expected;
};

class QueueDepthValues : public testing::TestWithParam<DepthCase>
{
};

TEST_P(QueueDepthValues, EndIsInclusiveAndAValuePastItIsNotRun)
{
    EXPECT_EQ(queueDepthValues(GetParam().cycling), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Iometer, QueueDepthValues,
    testing::Values(DepthCase {exponential(1, 2, 100), {1, 2, 4, 8, 16, 32, 64}},
        DepthCase {exponential(3, 2, 100), {3, 6, 12, 24, 48, 96}},
        DepthCase {linear(1, 4, 10), {1, 5, 9}},
        DepthCase {exponential(1, 2, 32), {1, 2, 4, 8, 16, 32}}, DepthCase {linear(4, 1, 4), {4}},
        DepthCase {exponential(2, 4, 256), {2, 8, 32, 128}}));

struct TypeCase {
    const char *name;
    TestType type;
    Cycling workers, targets, queueDepth;
    std::vector<CyclingWorker> list;
    std::vector<std::string> expected;
};

class CyclingSteps : public testing::TestWithParam<TypeCase>
{
};

TEST_P(CyclingSteps, RunIometersStepsInIometersOrder)
{
    const auto &c = GetParam();
    TestSetup setup;
    setup.testType = c.type;
    setup.workerCycling = c.workers;
    setup.targetCycling = c.targets;
    setup.queueDepthCycling = c.queueDepth;
    EXPECT_EQ(stepsText(setup, c.list), c.expected);
}

// Two workers with two targets each at depth 1 and 2; a third one-target worker that is
// not eligible (no spec at this index) never takes part.
const std::vector<CyclingWorker> kTwoByTwo {{true, {1, 2}}, {true, {1, 2}}, {false, {5}}};
const std::vector<CyclingWorker> kThreeSingle {{true, {1}}, {true, {1}}, {true, {1}}};
const std::vector<CyclingWorker> kUneven {{true, {1, 1, 1}}, {true, {1}}};

INSTANTIATE_TEST_SUITE_P(Iometer, CyclingSteps,
    testing::Values(TypeCase {"Normal", TestType::Normal, {}, {}, {}, kTwoByTwo, {"1,2|1,2|0 "}},
        TypeCase {"CycleTargets", TestType::CycleTargets, {}, linear(1, 1), {}, kUneven,
            {"1,0,0|1 1 target each", "1,1,0|1 2 targets each", "1,1,1|1 3 targets each"}},
        TypeCase {"CycleTargetsExponential", TestType::CycleTargets, {}, exponential(1, 2), {},
            {{true, {1, 1, 1, 1, 1}}},
            {"1,0,0,0,0 1 target each", "1,1,0,0,0 2 targets each", "1,1,1,1,0 4 targets each",
                "1,1,1,1,1 5 targets each"}},
        TypeCase {"CycleWorkers", TestType::CycleWorkers, linear(1, 1), {}, {}, kThreeSingle,
            {"1|0|0 1 worker", "1|1|0 2 workers", "1|1|1 3 workers"}},
        TypeCase {"CycleWorkersSkipsIneligible", TestType::CycleWorkers, linear(1, 1), {}, {},
            {{false, {1}}, {true, {1}}, {true, {1}}}, {"0|1|0 1 worker", "0|1|1 2 workers"}},
        TypeCase {"IncrementTargetsParallel", TestType::IncrementTargetsParallel, {}, linear(1, 1),
            {}, kTwoByTwo,
            {"1,0|0,0|0 1 target", "1,2|0,0|0 2 targets", "1,2|1,0|0 3 targets",
                "1,2|1,2|0 4 targets"}},
        TypeCase {"IncrementTargetsSerialWithOneManager", TestType::IncrementTargetsSerial, {},
            linear(2, 2), {}, kTwoByTwo, {"1,2|0,0|0 2 targets", "1,2|1,2|0 4 targets"}},
        TypeCase {"CycleWorkersAndTargets", TestType::CycleWorkersAndTargets, linear(1, 1),
            linear(1, 1), {}, kTwoByTwo,
            {"1,0|0,0|0 1 worker x 1 target each", "1,2|0,0|0 1 worker x 2 targets each",
                "1,0|1,0|0 2 workers x 1 target each", "1,2|1,2|0 2 workers x 2 targets each"}},
        TypeCase {"CycleOutstandingIos", TestType::CycleOutstandingIos, {}, {},
            exponential(1, 2, 8), kTwoByTwo,
            {"1,1|1,1|0 QD 1", "2,2|2,2|0 QD 2", "4,4|4,4|0 QD 4", "8,8|8,8|0 QD 8"}},
        TypeCase {"CycleOutstandingIosAndTargets", TestType::CycleOutstandingIosAndTargets, {},
            linear(1, 1), linear(1, 3, 4), kTwoByTwo,
            {"1,0|1,0|0 1 target each, QD 1", "4,0|4,0|0 1 target each, QD 4",
                "1,1|1,1|0 2 targets each, QD 1", "4,4|4,4|0 2 targets each, QD 4"}},
        TypeCase {"NoEligibleWorkerNoStep", TestType::CycleWorkers, linear(1, 1), {}, {},
            {{false, {1}}}, {}}),
    [](const testing::TestParamInfo<TypeCase> &info) { return std::string(info.param.name); });

// ---- the plan: specs in order, each with the whole cycling sequence

AccessSpec spec(const std::string &name)
{
    AccessSpec s;
    s.name = name;
    s.lines.push_back({});
    return s;
}

Worker worker(const std::string &name, std::size_t targets, std::vector<std::string> specs)
{
    Worker w;
    w.name = name;
    for (std::size_t t = 0; t < targets; ++t)
        w.targets.push_back({.path = name + "-t" + std::to_string(t)});
    w.assignedSpecs = std::move(specs);
    return w;
}

TEST(CyclingPlan, OutstandingIosOneToThirtyTwoRunsSixStepsPerSpecInSpecOrder)
{
    // REFERENCE.md's worked example: W1 and W2 with two targets each, specs A then B.
    Profile p;
    p.specs = {spec("A"), spec("B")};
    p.hosts.push_back({});
    p.hosts[0].workers = {worker("W1", 2, {"A", "B"}), worker("W2", 2, {"A", "B"})};
    p.setup.testType = TestType::CycleOutstandingIos;
    p.setup.queueDepthCycling = exponential(1, 2, 32);
    Problems problems;
    const auto plan = makeRunPlan(p, 1, problems);
    ASSERT_TRUE(plan) << (problems.empty() ? "" : problems[0].toString());
    ASSERT_EQ(plan->stepCount(), 12u);
    const std::uint32_t q[] = {1, 2, 4, 8, 16, 32};
    for (std::size_t s = 0; s < 12; ++s) {
        const auto &step = plan->steps[s];
        EXPECT_EQ(step.specName, s < 6 ? "A" : "B");
        EXPECT_EQ(step.specIndex, s < 6 ? 0u : 1u);
        EXPECT_EQ(step.name, step.specName + ", QD " + std::to_string(q[s % 6]));
        std::uint32_t outstanding = 0;
        for (const auto &w : plan->workers) {
            EXPECT_EQ(w.specPerStep[s], s < 6 ? 0 : 1);
            for (std::uint32_t d : w.depthPerStep[s])
                outstanding += d;
        }
        EXPECT_EQ(outstanding, 4 * q[s % 6]) << "step " << s;
    }
}

TEST(CyclingPlan, AWorkerWithNoTargetInUseIdlesInThatStep)
{
    Profile p;
    p.specs = {spec("A")};
    p.hosts.push_back({});
    p.hosts[0].workers = {worker("W1", 1, {"A"}), worker("W2", 1, {"A"}), worker("W3", 1, {"A"})};
    p.setup.testType = TestType::CycleWorkers;
    Problems problems;
    const auto plan = makeRunPlan(p, 1, problems);
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->stepCount(), 3u);
    for (std::size_t s = 0; s < 3; ++s)
        for (std::size_t w = 0; w < 3; ++w)
            EXPECT_EQ(plan->workers[w].specPerStep[s], w <= s ? 0 : -1)
                << "step " << s << " worker " << w;
    EXPECT_EQ(plan->steps[1].name, "A, 2 workers");
}

// Iometer's built-in "Idle" spec: the worker does nothing in that step while the others
// run; no definition is needed, and a spec the profile defines as "Idle" is used as is.
TEST(CyclingPlan, AWorkerAssignedIometersIdleSpecIdlesInThatStep)
{
    Profile p;
    p.specs = {spec("A"), spec("B")};
    p.hosts.push_back({});
    p.hosts[0].workers = {worker("W1", 1, {"A", "Idle"}), worker("W2", 1, {"Idle", "B"})};
    EXPECT_TRUE(validateProfile(p).empty()) << validateProfile(p).front().toString();
    Problems problems;
    const auto plan = makeRunPlan(p, 1, problems);
    ASSERT_TRUE(plan) << problems.front().toString();
    EXPECT_TRUE(problems.empty());
    ASSERT_EQ(plan->stepCount(), 2u);
    EXPECT_EQ(plan->workers[0].specPerStep, (std::vector<int> {0, -1}));
    EXPECT_EQ(plan->workers[1].specPerStep, (std::vector<int> {-1, 1}));
    EXPECT_EQ(plan->steps[0].name, "A");
    EXPECT_EQ(plan->steps[1].name, "B");
    EXPECT_EQ(plan->steps[1].workers, 1u);

    p.specs.push_back(spec("Idle")); // defined: an ordinary spec
    const auto defined = makeRunPlan(p, 1, problems);
    ASSERT_TRUE(defined);
    EXPECT_EQ(defined->workers[0].specPerStep, (std::vector<int> {0, 2}));

    p.specs.pop_back();
    p.hosts[0].workers[1].assignedSpecs = {"idle", "B"}; // Iometer's name is "Idle"
    EXPECT_FALSE(validateProfile(p).empty());
}

// Iometer's CalcRunCount: a spec index at which every worker was set Idle is still one
// run, a pause of the run time between the specs around it; an index nobody was given a
// spec at (or only workers without targets) is not.
TEST(CyclingPlan, ASpecIndexWhereEveryWorkerIsIdleIsAPauseStep)
{
    Profile p;
    p.specs = {spec("A"), spec("B")};
    p.hosts.push_back({});
    p.hosts[0].workers = {worker("W1", 2, {"A", "Idle", "B"}), worker("W2", 1, {"A", "Idle"})};
    p.setup.testType = TestType::CycleOutstandingIos;
    p.setup.queueDepthCycling = exponential(1, 2, 4);
    for (const TestType type : {TestType::CycleOutstandingIos, TestType::Normal}) {
        p.setup.testType = type;
        Problems problems;
        const auto plan = makeRunPlan(p, 1, problems);
        ASSERT_TRUE(plan);
        const std::size_t perSpec = type == TestType::Normal ? 1 : 3;
        ASSERT_EQ(plan->stepCount(), 2 * perSpec + 1) << "A's steps, the pause, B's steps";
        const auto &pause = plan->steps[perSpec];
        EXPECT_EQ(pause.specIndex, 1u);
        EXPECT_EQ(pause.workers, 0u);
        EXPECT_EQ(pause.name, "Idle");
        for (const auto &w : plan->workers)
            EXPECT_EQ(w.specPerStep[perSpec], -1);
    }

    // Without an Idle, an index where nobody runs is no step (Normal() sets no target).
    p.hosts[0].workers = {worker("W1", 2, {"A"}), worker("W2", 0, {"A", "B"})};
    for (const TestType type : {TestType::CycleOutstandingIos, TestType::Normal}) {
        p.setup.testType = type;
        Problems problems;
        const auto plan = makeRunPlan(p, 1, problems);
        ASSERT_TRUE(plan);
        EXPECT_EQ(plan->stepCount(), type == TestType::Normal ? 1u : 3u);
    }
}

TEST(CyclingPlan, ANetworkWorkerIdlesInANormalTestWithAWarning)
{
    Profile p;
    p.specs = {spec("A")};
    p.hosts.push_back({});
    p.hosts[0].workers = {worker("W1", 1, {"A"}), worker("N1", 1, {"A"})};
    p.hosts[0].workers[1].type = WorkerType::Network;
    const auto problems = validateProfile(p);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].severity, Severity::Warning);
    EXPECT_EQ(problems[0].path, "hosts[0].workers[1].type");
    Problems planProblems;
    const auto plan = makeRunPlan(p, 1, planProblems);
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->stepCount(), 1u);
    EXPECT_EQ(plan->workers[0].specPerStep, (std::vector<int> {0}));
    EXPECT_EQ(plan->workers[1].specPerStep, (std::vector<int> {-1})) << "no disk I/O";
    EXPECT_EQ(plan->steps[0].workers, 1u);
}

// The planner is the one home of a cycling step's point (what the Series view plots and
// the plan in the results keeps): queue-depth cycling's k-th step of a spec index is point
// k of that index, at the k-th depth.
TEST(CyclingPlan, QueueDepthCyclingStepsCarryTheirPointPerSpecIndex)
{
    Profile p;
    p.specs = {spec("A"), spec("B"), spec("C")};
    p.hosts.push_back({});
    // C at index 1 only for W2, and an Idle index: a pause, which is no point.
    p.hosts[0].workers = {worker("W1", 2, {"A", "B", "Idle", "A"}), worker("W2", 1, {"A", "C"})};
    p.setup.testType = TestType::CycleOutstandingIos;
    p.setup.queueDepthCycling = exponential(1, 4, 16);
    Problems problems;
    const auto plan = makeRunPlan(p, 1, problems);
    ASSERT_TRUE(plan) << (problems.empty() ? "" : problems[0].toString());
    ASSERT_EQ(plan->stepCount(), 3u * 3 + 1) << "3 depths at indexes 0, 1 and 3; a pause at 2";
    const std::uint64_t q[] = {1, 4, 16};
    std::size_t s = 0;
    for (const std::size_t index : {0u, 1u, 2u, 3u}) {
        if (index == 2) {
            EXPECT_EQ(plan->steps[s].specIndex, 2u);
            EXPECT_EQ(plan->steps[s].point, std::nullopt) << "a pause cycles nothing";
            ++s;
            continue;
        }
        for (std::size_t k = 0; k < 3; ++k, ++s) {
            const auto &step = plan->steps[s];
            SCOPED_TRACE(step.name);
            EXPECT_EQ(step.specIndex, index);
            ASSERT_TRUE(step.point);
            EXPECT_EQ(*step.point, (StepPoint {k, 0, {q[k]}, ""}));
            EXPECT_EQ(seriesPointOf(p.setup, step), nullptr) << "not a series' point";
        }
    }
    EXPECT_EQ(cyclingAxis(p.setup), SweepParameter::OutstandingIos);
}

TEST(CyclingPlan, WorkerCyclingStepsCarryTheWorkersTheyRunAsTheirPoint)
{
    Profile p;
    p.specs = {spec("A"), spec("B")};
    p.hosts.push_back({});
    p.hosts[0].workers = {worker("W1", 1, {"A", "B"}), worker("W2", 1, {"A", "B"}),
        worker("W3", 1, {"A", "B"}), worker("W4", 1, {"A"}), worker("W5", 1, {"A"})};
    p.setup.testType = TestType::CycleWorkers;
    p.setup.workerCycling = exponential(1, 2);
    Problems problems;
    const auto plan = makeRunPlan(p, 1, problems);
    ASSERT_TRUE(plan);
    std::vector<std::pair<std::size_t, StepPoint>> points;
    for (const auto &step : plan->steps) {
        ASSERT_TRUE(step.point) << step.name;
        EXPECT_EQ(step.point->values, (std::vector<std::uint64_t> {step.workers})) << step.name;
        points.emplace_back(step.specIndex, *step.point);
    }
    const std::vector<std::pair<std::size_t, StepPoint>> expected {{0, {0, 0, {1}, ""}},
        {0, {1, 0, {2}, ""}}, {0, {2, 0, {4}, ""}}, {0, {3, 0, {5}, ""}}, {1, {0, 0, {1}, ""}},
        {1, {1, 0, {2}, ""}}, {1, {2, 0, {3}, ""}}};
    EXPECT_EQ(points, expected) << "1, 2, 4, all 5 workers; then 1, 2, all 3";
    EXPECT_EQ(cyclingAxis(p.setup), SweepParameter::Workers);
}

// Only queue-depth and worker cycling are one-axis series; the other test types' steps,
// and a series' (whose points are its own), are left as they are.
TEST(CyclingPlan, OtherTestTypesAndSeriesGetNoCyclingPoint)
{
    Profile p;
    p.specs = {spec("A")};
    p.hosts.push_back({});
    p.hosts[0].workers = {worker("W1", 2, {"A"}), worker("W2", 2, {"A"})};
    p.setup.queueDepthCycling = exponential(1, 2, 4);
    for (const TestType type : {TestType::Normal, TestType::CycleTargets,
             TestType::IncrementTargetsParallel, TestType::IncrementTargetsSerial,
             TestType::CycleWorkersAndTargets, TestType::CycleOutstandingIosAndTargets}) {
        p.setup.testType = type;
        EXPECT_EQ(cyclingAxis(p.setup), std::nullopt);
        for (const auto &step : plannedSteps(p))
            EXPECT_EQ(step.point, std::nullopt) << step.name;
    }
    p.setup.testType = TestType::CycleOutstandingIos;
    p.setup.series = Series {};
    p.setup.series->axes.push_back({.parameter = SweepParameter::TransferSize, .values = {512}});
    EXPECT_EQ(cyclingAxis(p.setup), std::nullopt) << "a series' axes say what it sweeps";
    const auto steps = plannedSteps(p);
    ASSERT_EQ(steps.size(), 1u);
    ASSERT_TRUE(steps[0].point);
    EXPECT_EQ(steps[0].point->values, (std::vector<std::uint64_t> {512}));
    EXPECT_NE(seriesPointOf(p.setup, steps[0]), nullptr);
}

TEST(CyclingPlan, ANormalTestIsOneStepPerSpecAsBefore)
{
    Profile p;
    p.specs = {spec("A"), spec("B")};
    p.specs[1].queueDepth = 32;
    p.hosts.push_back({});
    p.hosts[0].workers = {worker("W1", 2, {"A", "B"})};
    p.hosts[0].workers[0].outstandingIos = 4;
    Problems problems;
    const auto plan = makeRunPlan(p, 1, problems);
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->stepCount(), 2u);
    EXPECT_EQ(plan->steps[0].name, "A");
    EXPECT_EQ(plan->steps[1].cycle, "");
    EXPECT_EQ(plan->workers[0].depthPerStep[0], (std::vector<std::uint32_t> {4, 4}));
    EXPECT_EQ(plan->workers[0].depthPerStep[1], (std::vector<std::uint32_t> {32, 32}))
        << "the spec's queue depth overrides the worker's";
}

} // namespace
} // namespace ioprism::core
