// SPDX-License-Identifier: GPL-3.0-or-later
// RunProgress on a fake clock: the test says when each phase begins and asks at chosen
// time points, so every fraction and time left is exact.
#include "core/run/run_progress.h"

#include <gtest/gtest.h>

using namespace ioprism::core;
using namespace std::chrono_literals;
using Clock = RunProgress::Clock;

namespace {

TestSetup timedSetup(std::chrono::seconds rampUp, std::chrono::seconds runTime)
{
    TestSetup setup;
    setup.rampUp = rampUp;
    setup.runTime = runTime;
    return setup;
}

double seconds(const std::optional<std::chrono::duration<double>> &d)
{
    return d ? d->count() : -1;
}

} // namespace

TEST(RunProgress, NothingIsKnownBeforeTheFirstStep)
{
    const Clock::time_point t0 {};
    RunProgress progress(timedSetup(5s, 10s), 4);
    EXPECT_FALSE(progress.fraction(t0));
    EXPECT_FALSE(progress.timeLeft(t0));
    progress.setPhase(RunPhase::Preparing, 0, t0);
    EXPECT_FALSE(progress.fraction(t0 + 3s)); // preparing: a busy bar
    EXPECT_DOUBLE_EQ(progress.phaseSeconds(t0 + 3s), 3);
}

struct TimedCase {
    const char *name;
    RunPhase phase;
    std::size_t step;
    std::chrono::seconds into; // since the phase began
    double fraction;
    double secondsLeft;
};

class RunProgressTimed : public testing::TestWithParam<TimedCase>
{
};

// Four steps of 5 s ramp-up + 10 s: 60 s in all.
TEST_P(RunProgressTimed, CountsTheStepsTimes)
{
    const TimedCase &c = GetParam();
    const Clock::time_point t0 {};
    RunProgress progress(timedSetup(5s, 10s), 4);
    progress.setPhase(RunPhase::Preparing, 0, t0);
    progress.setPhase(c.phase, c.step, t0 + 100s);
    ASSERT_TRUE(progress.timed());
    EXPECT_DOUBLE_EQ(progress.fraction(t0 + 100s + c.into).value_or(-1), c.fraction) << c.name;
    EXPECT_DOUBLE_EQ(seconds(progress.timeLeft(t0 + 100s + c.into)), c.secondsLeft) << c.name;
}

INSTANTIATE_TEST_SUITE_P(Steps, RunProgressTimed,
    testing::Values(TimedCase {"start", RunPhase::RampUp, 0, 0s, 0.0, 60},
        TimedCase {"ramp-up", RunPhase::RampUp, 0, 3s, 3.0 / 60, 57},
        TimedCase {"ramp-up overrun", RunPhase::RampUp, 0, 9s, 5.0 / 60, 55},
        TimedCase {"measuring", RunPhase::Measuring, 1, 4s, 24.0 / 60, 36},
        TimedCase {"last step", RunPhase::Measuring, 3, 10s, 1.0, 0},
        TimedCase {"past the end", RunPhase::Measuring, 3, 30s, 1.0, 0}));

TEST(RunProgress, MeasuringAfterTheRampUpIsTheSameStep)
{
    const Clock::time_point t0 {};
    RunProgress progress(timedSetup(5s, 10s), 2);
    progress.setPhase(RunPhase::RampUp, 0, t0);
    progress.setPhase(RunPhase::Measuring, 0, t0 + 5s);
    EXPECT_DOUBLE_EQ(progress.phaseSeconds(t0 + 7s), 2);
    EXPECT_DOUBLE_EQ(progress.fraction(t0 + 7s).value_or(-1), 7.0 / 30);
    EXPECT_DOUBLE_EQ(seconds(progress.timeLeft(t0 + 7s)), 23);
}

TEST(RunProgress, TheCheckedPlanCountsTheSteps)
{
    const Clock::time_point t0 {};
    RunProgress progress(timedSetup(0s, 10s), 4);
    progress.setStepCount(2); // a series lost two points no target could do
    progress.setPhase(RunPhase::Measuring, 1, t0);
    EXPECT_DOUBLE_EQ(progress.fraction(t0 + 5s).value_or(-1), 0.75);
    EXPECT_DOUBLE_EQ(seconds(progress.timeLeft(t0 + 5s)), 5);
}

TEST(RunProgress, StoppingHasNoFraction)
{
    const Clock::time_point t0 {};
    RunProgress progress(timedSetup(0s, 10s), 1);
    progress.setPhase(RunPhase::Measuring, 0, t0);
    progress.setPhase(RunPhase::Stopping, 0, t0 + 4s);
    EXPECT_FALSE(progress.fraction(t0 + 5s));
    // The clock of the step goes on: Stop came 4 s into it.
    EXPECT_DOUBLE_EQ(progress.phaseSeconds(t0 + 5s), 5);
}

TEST(RunProgress, UntilStoppedHasNoFractionAndNoPaceBeforeAStepEnds)
{
    const Clock::time_point t0 {};
    RunProgress progress(timedSetup(0s, 0s), 3);
    progress.setPhase(RunPhase::Measuring, 0, t0);
    EXPECT_FALSE(progress.timed());
    EXPECT_FALSE(progress.fraction(t0 + 5s));
    EXPECT_FALSE(progress.timeLeft(t0 + 5s));
}

// A series of a number of I/Os per point: the run time does not end a point, the pace of
// the points done so far tells the time left.
TEST(RunProgress, PointsOfANumberOfIosGoAtThePaceSoFar)
{
    const Clock::time_point t0 {};
    TestSetup setup = timedSetup(0s, 30s);
    setup.series = Series {};
    setup.series->ios = 1000;
    RunProgress progress(setup, 5);
    EXPECT_FALSE(progress.timed());
    progress.setPhase(RunPhase::Measuring, 0, t0 + 50s); // after 50 s of preparation
    EXPECT_FALSE(progress.timeLeft(t0 + 55s));
    progress.setPhase(RunPhase::Measuring, 1, t0 + 54s);
    progress.setPhase(RunPhase::Measuring, 2, t0 + 58s); // 4 s a point
    EXPECT_FALSE(progress.fraction(t0 + 58s));
    EXPECT_DOUBLE_EQ(seconds(progress.timeLeft(t0 + 58s)), 12); // three points left
    EXPECT_DOUBLE_EQ(seconds(progress.timeLeft(t0 + 59s)), 11);
    EXPECT_DOUBLE_EQ(seconds(progress.timeLeft(t0 + 90s)), 0); // a slow point: never below 0
}
