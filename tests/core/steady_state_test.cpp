// SPDX-License-Identifier: GPL-3.0-or-later
// The steady-state rules (core/stats/steady_state.h) on rounds made to pass or fail each
// test of a rule on its own, and the round limit.
#include "core/stats/steady_state.h"

#include <gtest/gtest.h>
#include <vector>

namespace ioprism::core {
namespace {

SteadyStateCriteria ptsRule()
{
    return {};
}

TEST(SteadyState, FlatRoundsAreSteadyInTheFirstWindow)
{
    const std::vector<double> rounds {100, 102, 98, 101, 99};
    const auto r = judgeSteadyState(rounds, ptsRule());
    EXPECT_EQ(r.state, SteadyState::Steady);
    ASSERT_TRUE(r.window);
    EXPECT_EQ(r.window->first, 0u);
    EXPECT_EQ(r.window->count, 5u);
    EXPECT_DOUBLE_EQ(r.window->mean, 100);
    EXPECT_NEAR(r.window->rangeShare, 0.04, 1e-12);
    EXPECT_EQ(r.rounds, 5u);
    EXPECT_NE(r.explanation.find("steady in rounds 1-5"), std::string::npos) << r.explanation;
}

// Table: each row meets one of the PTS rule's two tests and fails the other, or both.
struct PtsCase {
    const char *name;
    std::vector<double> rounds;
    bool rangeMet;
    bool slopeMet;
};

TEST(SteadyState, ThePtsRuleNeedsBothItsRangeAndItsSlope)
{
    const std::vector<PtsCase> cases {
        // Range 30 / 112 = 26.8 % of the mean, but no trend: the least-squares slope is 0.
        {"alternating", {100, 130, 100, 130, 100}, false, true},
        // Range 16 / 98 = 16.3 %, but a steady climb of 4 a round: excursion 16 / 98.
        {"climbing", {90, 94, 98, 102, 106}, true, false},
        // Range 40 %, excursion 40 %.
        {"steep", {80, 90, 100, 110, 120}, false, false},
        // Inside both: range 19 / 100.5 = 18.9 %, excursion 0.5 x 4 / 100.5 = 2 %.
        {"inside", {92, 111, 100, 99, 100.5}, true, true},
    };
    for (const auto &c : cases) {
        const auto w = fitSteadyStateWindow(c.rounds, 0, ptsRule());
        EXPECT_EQ(w.rangeMet, c.rangeMet) << c.name << ": range " << w.rangeShare;
        EXPECT_EQ(w.slopeMet, c.slopeMet) << c.name << ": excursion " << w.excursionShare;
        const auto r = judgeSteadyState(c.rounds, ptsRule());
        EXPECT_EQ(r.state, c.rangeMet && c.slopeMet ? SteadyState::Steady : SteadyState::Measuring)
            << c.name;
    }
}

TEST(SteadyState, TheSlopeIsTheLeastSquaresLinesAndItsExcursionSpansTheWindow)
{
    const std::vector<double> rounds {90, 94, 98, 102, 106};
    const auto w = fitSteadyStateWindow(rounds, 3, ptsRule());
    EXPECT_EQ(w.first, 3u);
    EXPECT_DOUBLE_EQ(w.slopePerRound, 4);
    EXPECT_NEAR(w.excursionShare, 16.0 / 98.0, 1e-12);
    EXPECT_NEAR(w.rangeShare, 16.0 / 98.0, 1e-12);
    EXPECT_NEAR(w.deviationShare, 8.0 / 98.0, 1e-12);
}

TEST(SteadyState, TheFirstSteadyWindowIsTheOneAfterTheRampAsARunWouldStopThere)
{
    // A fresh drive's rounds fall, then settle; more settled rounds follow.
    const std::vector<double> rounds {200, 170, 140, 120, 105, 101, 100, 99, 100, 101, 100, 99};
    const auto r = judgeSteadyState(rounds, ptsRule());
    ASSERT_EQ(r.state, SteadyState::Steady);
    // Rounds 4-8 (index 3: 120 ... 99): range 21 / 105, exactly 20 % and so within PTS's
    // limit, but a slope excursion of 17.9 %: no. Rounds 5-9 (index 4): 105,
    // 101, 100, 99, 100: range 5.9 %, slope -1.2 a round, excursion 4.8 %: the first.
    EXPECT_EQ(r.window->first, 4u);
    EXPECT_EQ(r.rounds, 9u) << "judged after round 9, where a run stops";
}

TEST(SteadyState, AtTheRoundLimitWithoutAWindowItIsNotReachedNeverSteady)
{
    std::vector<double> rounds;
    for (int i = 0; i < 25; ++i)
        rounds.push_back(1000 - 30.0 * i); // falls 3 % of the first a round: never level
    auto r = judgeSteadyState(std::span(rounds).first(24), ptsRule());
    EXPECT_EQ(r.state, SteadyState::Measuring);
    r = judgeSteadyState(rounds, ptsRule());
    EXPECT_EQ(r.state, SteadyState::NotReached);
    ASSERT_TRUE(r.window);
    EXPECT_EQ(r.window->first, 20u) << "the last window before the limit";
    EXPECT_EQ(r.rounds, 25u);
    EXPECT_NE(r.explanation.find("steady state not reached in 25 rounds"), std::string::npos)
        << r.explanation;
    EXPECT_NE(r.explanation.find("rounds 21-25"), std::string::npos) << r.explanation;

    // Rounds past the limit are not looked at: a steady window there does not count.
    for (int i = 0; i < 5; ++i)
        rounds.push_back(500);
    EXPECT_EQ(judgeSteadyState(rounds, ptsRule()).state, SteadyState::NotReached);
}

TEST(SteadyState, AWindowThatEndsOnTheLimitIsStillSteady)
{
    std::vector<double> rounds(20, 0.0);
    for (int i = 0; i < 20; ++i)
        rounds[std::size_t(i)] = i % 2 ? 150 : 50; // range 100 %
    for (int i = 0; i < 5; ++i)
        rounds.push_back(100);
    const auto r = judgeSteadyState(rounds, ptsRule());
    EXPECT_EQ(r.state, SteadyState::Steady);
    EXPECT_EQ(r.window->first, 20u);
}

TEST(SteadyState, PtsLimitsAreMetOnTheLimitAndFiosOnlyBelowIt)
{
    // Range exactly 20 % of the mean (100), slope excursion 4 %; largest deviation 10 %.
    const std::vector<double> rounds {90, 110, 100, 100, 100};
    EXPECT_EQ(judgeSteadyState(rounds, ptsRule()).state, SteadyState::Steady);
    SteadyStateCriteria fio;
    fio.rule = SteadyStateRule::FioDeviation;
    fio.rangeLimit = 0.10;
    EXPECT_EQ(judgeSteadyState(rounds, fio).state, SteadyState::Measuring);
    fio.rangeLimit = 0.11;
    EXPECT_EQ(judgeSteadyState(rounds, fio).state, SteadyState::Steady);
}

TEST(SteadyState, FewerRoundsThanAWindowAreStillMeasuring)
{
    const std::vector<double> rounds {100, 100, 100};
    const auto r = judgeSteadyState(rounds, ptsRule());
    EXPECT_EQ(r.state, SteadyState::Measuring);
    EXPECT_FALSE(r.window);
    EXPECT_NE(r.explanation.find("3 of the 5 rounds"), std::string::npos) << r.explanation;
}

TEST(SteadyState, ADeviceThatDidNothingIsNotSteady)
{
    const std::vector<double> rounds {0, 0, 0, 0, 0};
    const auto r = judgeSteadyState(rounds, ptsRule());
    EXPECT_EQ(r.state, SteadyState::Measuring);
    EXPECT_NE(r.explanation.find("not above zero"), std::string::npos) << r.explanation;
}

TEST(SteadyState, FiosDeviationRuleWantsEveryRoundNearTheMean)
{
    SteadyStateCriteria fio;
    fio.rule = SteadyStateRule::FioDeviation;
    fio.rangeLimit = 0.10;
    // Every round within 10 % of the mean (100).
    const std::vector<double> within {91, 109, 92, 108, 100};
    EXPECT_EQ(judgeSteadyState(within, fio).state, SteadyState::Steady);
    // One round 12 off a mean of 103.
    const std::vector<double> outlier {100, 100, 100, 100, 115};
    const auto r = judgeSteadyState(outlier, fio);
    EXPECT_EQ(r.state, SteadyState::Measuring);
    EXPECT_NEAR(r.window->deviationShare, 12.0 / 103.0, 1e-12);
    EXPECT_NE(r.explanation.find("largest deviation"), std::string::npos) << r.explanation;
}

TEST(SteadyState, FiosSlopeRuleLooksAtTheSlopeAlone)
{
    SteadyStateCriteria fio;
    fio.rule = SteadyStateRule::FioSlope;
    fio.slopeLimit = 0.01; // 1 % of the mean per round
    // Noisy but level: slope 0 -> steady, where PTS would refuse the 40 % range.
    const std::vector<double> level {100, 80, 120, 80, 100};
    EXPECT_EQ(judgeSteadyState(level, fio).state, SteadyState::Steady);
    EXPECT_EQ(judgeSteadyState(level, ptsRule()).state, SteadyState::Measuring);
    // 2 a round on a mean of 100: 2 %.
    const std::vector<double> rising {96, 98, 100, 102, 104};
    EXPECT_EQ(judgeSteadyState(rising, fio).state, SteadyState::Measuring);
    // 0.5 a round: 0.5 % per round, below the limit, although the line moves 2 % of the
    // mean across the window (the slope is per round, not the window's excursion).
    const std::vector<double> creeping {99, 99.5, 100, 100.5, 101};
    EXPECT_EQ(judgeSteadyState(creeping, fio).state, SteadyState::Steady);
}

TEST(SteadyState, RuleNamesReadBack)
{
    for (auto rule :
        {SteadyStateRule::Pts, SteadyStateRule::FioDeviation, SteadyStateRule::FioSlope})
        EXPECT_EQ(parseSteadyStateRule(steadyStateRuleName(rule)), rule);
    EXPECT_FALSE(parseSteadyStateRule("iops:20%"));
}

} // namespace
} // namespace ioprism::core
