// SPDX-License-Identifier: GPL-3.0-or-later
// Steps that start together: the controller's StepBarrier (released all at once, or not
// at all), and a run's step gate (asked before every step, its start time kept, a stop
// honoured while waiting).
#include "core/null_engine.h"
#include "core/run/run.h"
#include "core/run/step_gate.h"

#include <atomic>
#include <condition_variable>
#include <future>
#include <gtest/gtest.h>
#include <mutex>
#include <thread>
#include <vector>

#include "tests/support/test_profiles.h"

using namespace ioprism::core;
using namespace std::chrono_literals;
using BenchRun = ioprism::core::Run; // testing::Test has a member named Run
using SteadyClock = std::chrono::steady_clock;

namespace {

// What one party was released with, and how often.
struct Released {
    std::mutex mutex;
    std::vector<StepStart> starts;
    StepBarrier::Release callback()
    {
        return [this](StepStart s) {
            std::lock_guard lock(mutex);
            starts.push_back(s);
        };
    }
    std::size_t count()
    {
        std::lock_guard lock(mutex);
        return starts.size();
    }
};

} // namespace

TEST(StepBarrier, ReleasesOnlyWhenEveryPartyArrivedWithOneStartTime)
{
    StepBarrier barrier(3, 20ms);
    Released a, b, c;
    const auto before = SteadyClock::now();
    barrier.arrive(0, 0, a.callback());
    barrier.arrive(2, 0, c.callback());
    EXPECT_EQ(a.count(), 0u);
    EXPECT_EQ(c.count(), 0u);
    EXPECT_FALSE(barrier.lastStart());
    barrier.arrive(1, 0, b.callback()); // the last: releases all, on this thread
    const auto after = SteadyClock::now();
    ASSERT_EQ(a.count(), 1u);
    ASSERT_EQ(b.count(), 1u);
    ASSERT_EQ(c.count(), 1u);
    ASSERT_TRUE(a.starts[0]);
    EXPECT_EQ(a.starts[0], b.starts[0]);
    EXPECT_EQ(a.starts[0], c.starts[0]);
    EXPECT_EQ(barrier.lastStart(), a.starts[0]);
    // The lead after the last arrival.
    EXPECT_GE(*a.starts[0], before + 20ms);
    EXPECT_LE(*a.starts[0], after + 20ms);
}

TEST(StepBarrier, StepsInSequenceEachReleasedWhenAllArrive)
{
    StepBarrier barrier(2, 0ms);
    Released a, b;
    for (std::size_t step = 0; step < 4; ++step) {
        barrier.arrive(1, step, b.callback());
        EXPECT_EQ(b.count(), step) << "step " << step << " waits for party 0";
        barrier.arrive(0, step, a.callback());
        ASSERT_EQ(a.count(), step + 1);
        ASSERT_EQ(b.count(), step + 1);
        EXPECT_EQ(a.starts[step], b.starts[step]);
        if (step > 0) {
            EXPECT_GE(*a.starts[step], *a.starts[step - 1]);
        }
    }
}

TEST(StepBarrier, CancelReleasesTheWaitingAndEveryLaterArrivalWithNothing)
{
    StepBarrier barrier(3, 0ms);
    Released a, b, c;
    barrier.arrive(0, 0, a.callback());
    barrier.arrive(1, 0, b.callback());
    EXPECT_FALSE(barrier.cancelled());
    barrier.cancel();
    EXPECT_TRUE(barrier.cancelled());
    ASSERT_EQ(a.count(), 1u);
    ASSERT_EQ(b.count(), 1u);
    EXPECT_FALSE(a.starts[0]);
    EXPECT_FALSE(b.starts[0]);
    barrier.arrive(2, 0, c.callback());
    ASSERT_EQ(c.count(), 1u);
    EXPECT_FALSE(c.starts[0]) << "after cancel, released at once with nullopt";
    EXPECT_FALSE(barrier.arriveAndWait(0, 1));
    EXPECT_FALSE(barrier.lastStart());
}

TEST(StepBarrier, TheLastMissingPartyLeavingReleasesTheOthers)
{
    StepBarrier barrier(3, 0ms);
    Released a, b;
    barrier.arrive(0, 0, a.callback());
    barrier.arrive(1, 0, b.callback());
    EXPECT_EQ(a.count(), 0u);
    barrier.leave(2); // its run ended: the step no longer waits for it
    ASSERT_EQ(a.count(), 1u);
    ASSERT_EQ(b.count(), 1u);
    EXPECT_TRUE(a.starts[0]);
    EXPECT_EQ(a.starts[0], b.starts[0]);
    // Later steps do not wait for it either.
    barrier.arrive(0, 1, a.callback());
    EXPECT_EQ(a.count(), 1u);
    barrier.arrive(1, 1, b.callback());
    EXPECT_EQ(a.count(), 2u);
    EXPECT_TRUE(a.starts[1]);
}

TEST(StepBarrier, ALeaveWhileOthersStillMissingReleasesNobody)
{
    StepBarrier barrier(3, 0ms);
    Released a;
    barrier.arrive(0, 0, a.callback());
    barrier.leave(2);
    EXPECT_EQ(a.count(), 0u) << "party 1 has not arrived";
    barrier.leave(2); // twice: nothing more
    EXPECT_EQ(a.count(), 0u);
}

// Real threads through many steps: every party gets every step once, all with the same
// start time, whatever the interleaving (no sleeps: the barrier itself orders them).
TEST(StepBarrier, ThreadsArriveAndWaitThroughManyStepsTogether)
{
    constexpr std::size_t kParties = 4;
    constexpr std::size_t kSteps = 200;
    StepBarrier barrier(kParties, 0ms);
    std::vector<std::vector<StepStart>> starts(kParties);
    {
        std::vector<std::jthread> threads;
        for (std::size_t p = 0; p < kParties; ++p)
            threads.emplace_back([&, p] {
                for (std::size_t step = 0; step < kSteps; ++step)
                    starts[p].push_back(barrier.arriveAndWait(p, step));
            });
    }
    for (std::size_t step = 0; step < kSteps; ++step) {
        ASSERT_TRUE(starts[0][step]) << step;
        for (std::size_t p = 1; p < kParties; ++p)
            ASSERT_EQ(starts[p][step], starts[0][step]) << "party " << p << ", step " << step;
    }
}

// A cancel from another thread ends every wait, whichever step each party is at.
TEST(StepBarrier, CancelFromAnotherThreadEndsEveryWait)
{
    constexpr std::size_t kParties = 3;
    StepBarrier barrier(kParties + 1, 0ms); // the last party never arrives
    std::atomic<std::size_t> ended {0};
    {
        std::vector<std::jthread> threads;
        for (std::size_t p = 0; p < kParties; ++p)
            threads.emplace_back([&, p] {
                EXPECT_FALSE(barrier.arriveAndWait(p, 0));
                ++ended;
            });
        barrier.cancel();
    }
    EXPECT_EQ(ended, kParties);
}

// ------------------------------------------------------------------ the run's gate

namespace {

// Two workers of two targets on the null engine running `assigned` as steps, each step
// until the I/O limit (run time 0).
Profile gatedProfile(std::vector<std::string> assigned)
{
    Profile p = ioprism::test::twoWorkerProfile("gate", 50ms, 3, 1);
    for (auto &w : p.hosts[0].workers)
        w.assignedSpecs = assigned;
    return p;
}

struct PhaseLog final : RunSink {
    void onPhase(RunPhase phase, std::size_t step, const std::string &) override
    {
        std::lock_guard lock(mutex);
        // The first phase of a step is said as its workers are released.
        if ((phase == RunPhase::RampUp || phase == RunPhase::Measuring)
            && stepStarts.size() == step)
            stepStarts.push_back(SteadyClock::now());
    }
    std::mutex mutex;
    std::vector<SteadyClock::time_point> stepStarts; // when each step's first phase was said
};

// Runs execute() on a thread, so that a test can fail instead of hanging.
RunResult executeWithin(BenchRun &run, std::chrono::seconds limit)
{
    auto result = std::async(std::launch::async, [&run] { return run.execute(); });
    if (result.wait_for(limit) != std::future_status::ready) {
        ADD_FAILURE() << "the run did not end within " << limit.count() << " s";
        run.requestStopNow();
    }
    return result.get();
}

} // namespace

TEST(RunStepGate, AskedOncePerStepInOrderAlsoForAnIdleStep)
{
    // Three steps, the middle one Iometer's pause (every worker Idle): no I/O, but the
    // hosts pass its gate together like any other.
    Profile profile = gatedProfile({"4K mix", "Idle", "4K mix"});
    NullBackend backend;
    NullCounterSource counters;
    PhaseLog sink;
    std::mutex mutex;
    std::vector<std::size_t> asked;
    RunHooks hooks;
    hooks.stepGate = [&](std::size_t step) -> StepStart {
        std::lock_guard lock(mutex);
        asked.push_back(step);
        return SteadyClock::now();
    };
    // The pause step ends at its run time: give the steps one.
    profile.setup.runTime = 1s;
    BenchRun run(
        profile, backend, counters, sink, {.ioLimitPerTarget = 500, .deviceTailLimit = 0ms}, hooks);
    const RunResult r = executeWithin(run, 60s);
    ASSERT_FALSE(r.error) << r.error->toString();
    EXPECT_FALSE(r.stoppedByUser);
    EXPECT_EQ(asked, (std::vector<std::size_t> {0, 1, 2}));
    ASSERT_EQ(r.steps.size(), 3u);
}

TEST(RunStepGate, AStartInTheFutureDelaysTheStepAndItsIntervalsCountFromIt)
{
    Profile profile = gatedProfile({"4K mix", "4K mix"});
    NullBackend backend;
    NullCounterSource counters;
    PhaseLog sink;
    std::mutex mutex;
    std::vector<SteadyClock::time_point> given;
    RunHooks hooks;
    hooks.stepGate = [&](std::size_t) -> StepStart {
        std::lock_guard lock(mutex);
        given.push_back(SteadyClock::now() + 300ms);
        return given.back();
    };
    BenchRun run(profile, backend, counters, sink,
        {.ioLimitPerTarget = 2000, .deviceTailLimit = 0ms}, hooks);
    const RunResult r = executeWithin(run, 60s);
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(given.size(), 2u);
    ASSERT_EQ(sink.stepStarts.size(), 2u);
    for (std::size_t s = 0; s < 2; ++s)
        EXPECT_GE(sink.stepStarts[s], given[s]) << "step " << s << " started before its time";
    // Each step's intervals are counted from the time the gate gave: the first intervals
    // of the two steps begin exactly that far apart.
    const IntervalSample *first[2] = {nullptr, nullptr};
    for (const auto &sample : r.intervals)
        if (!first[sample.step])
            first[sample.step] = &sample;
    ASSERT_TRUE(first[0] && first[1]);
    EXPECT_NEAR(first[1]->startSeconds - first[0]->startSeconds,
        std::chrono::duration<double>(given[1] - given[0]).count(), 1e-6);
    EXPECT_GE(first[0]->startSeconds, 0.3 - 1e-6) << "the first step waited for its time";
    // The wait at the gate is not setup.
    for (const auto &step : r.steps)
        EXPECT_LT(step.setupSeconds, 0.3) << "step " << step.step;
}

TEST(RunStepGate, NoStartStopsTheRunAsStopDoesKeepingWhatWasMeasured)
{
    Profile profile = gatedProfile({"4K mix", "4K mix", "4K mix"});
    NullBackend backend;
    NullCounterSource counters;
    PhaseLog sink;
    std::vector<std::size_t> asked;
    RunHooks hooks;
    hooks.stepGate = [&](std::size_t step) -> StepStart {
        asked.push_back(step);
        if (step == 1)
            return std::nullopt;
        return SteadyClock::now();
    };
    BenchRun run(profile, backend, counters, sink,
        {.ioLimitPerTarget = 1000, .deviceTailLimit = 0ms}, hooks);
    const RunResult r = executeWithin(run, 60s);
    EXPECT_FALSE(r.error) << r.error->toString();
    EXPECT_TRUE(r.stoppedByUser);
    EXPECT_EQ(asked, (std::vector<std::size_t> {0, 1})) << "no gate after the refusal";
    ASSERT_EQ(r.steps.size(), 1u);
    EXPECT_TRUE(r.steps[0].complete);
    EXPECT_EQ(r.steps[0].scopes[0].figures.total.ios, 4000u) << "2 workers x 2 targets x 1000";
}

TEST(RunStepGate, AStopDuringALongWaitAtTheGateEndsTheRunPromptly)
{
    Profile profile = gatedProfile({"4K mix"});
    NullBackend backend;
    NullCounterSource counters;
    PhaseLog sink;
    std::mutex mutex;
    std::condition_variable gateAsked;
    bool asked = false;
    RunHooks hooks;
    hooks.stepGate = [&](std::size_t) -> StepStart {
        std::lock_guard lock(mutex);
        asked = true;
        gateAsked.notify_all();
        return SteadyClock::now() + 1h;
    };
    BenchRun run(profile, backend, counters, sink,
        {.ioLimitPerTarget = 1000, .deviceTailLimit = 0ms}, hooks);
    auto result = std::async(std::launch::async, [&run] { return run.execute(); });
    {
        std::unique_lock lock(mutex);
        ASSERT_TRUE(gateAsked.wait_for(lock, 60s, [&] { return asked; }));
    }
    run.requestStop();
    // Slices of 50 ms: "promptly" with a generous margin for a loaded machine.
    ASSERT_EQ(result.wait_for(30s), std::future_status::ready) << "still waiting for the hour";
    const RunResult r = result.get();
    EXPECT_FALSE(r.error);
    EXPECT_TRUE(r.stoppedByUser);
    EXPECT_TRUE(r.steps.empty()) << "the step never started";
    EXPECT_TRUE(sink.stepStarts.empty());
}
