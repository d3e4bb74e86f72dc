// SPDX-License-Identifier: GPL-3.0-or-later
// Steady state: when the rounds of a repeated test have stopped moving, as SNIA's Solid
// State Storage Performance Test Specification (PTS) defines it, and fio's two rules for
// those who know them.
//
// A test is run in rounds of a fixed length, and each round gives one figure (IOPS,
// MB/s, or a latency percentile: the caller chooses). After each round the last
// `windowRounds` rounds are judged:
//
//   Pts           the PTS rule, both of:
//                   data excursion   max - min <= rangeLimit (20 %) of the window's mean
//                   slope excursion  the least-squares line's excursion over the window,
//                                    |slope| x (rounds - 1), <= slopeLimit (10 %) of it
//   FioDeviation  fio's `iops:X%`: every round within +-rangeLimit of the window's mean
//                 (below it, strictly, as fio tests)
//   FioSlope      fio's `iops_slope:X%`: the least-squares slope per round below
//                 slopeLimit of the window's mean. fio's slope is per second of its
//                 samples: the two are the same rule when a round lasts one second.
//
// The first window that meets the rule is the steady one, and the test stops there. At
// `roundLimit` rounds (PTS: 25) without one the result is "not reached", never steady:
// the figures of the last window are reported as what they are, with what failed. Every
// round is kept by the caller; this says which of them formed the window.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ioprism::core {

struct Figures;

enum class SteadyStateRule {
    Pts,
    FioDeviation,
    FioSlope,
};

std::string_view steadyStateRuleName(SteadyStateRule rule); // "pts", "fio-deviation", "fio-slope"
std::optional<SteadyStateRule> parseSteadyStateRule(std::string_view name);

struct SteadyStateCriteria {
    SteadyStateRule rule = SteadyStateRule::Pts;
    std::size_t windowRounds = 5; // PTS: 5
    double rangeLimit = 0.20; // PTS's data excursion, fio's deviation: a share of the mean
    double slopeLimit = 0.10; // PTS's slope excursion, fio's slope: a share of the mean
    std::size_t roundLimit = 25; // PTS: 25; at least windowRounds
    friend bool operator==(const SteadyStateCriteria &, const SteadyStateCriteria &) = default;
};

// One window of rounds, fitted.
struct SteadyStateWindow {
    std::size_t first = 0; // the index of its first round (0-based)
    std::size_t count = 0;
    double mean = 0;
    double minimum = 0;
    double maximum = 0;
    double slopePerRound = 0; // of the least-squares line through (index, figure)
    double rangeShare = 0; // (maximum - minimum) / mean
    double excursionShare = 0; // |slopePerRound| x (count - 1) / mean
    double deviationShare = 0; // the largest |figure - mean| / mean
    bool rangeMet = false; // the rule's first test (Pts: data excursion; FioDeviation)
    bool slopeMet = false; // the rule's second test (Pts: slope excursion; FioSlope)
    friend bool operator==(const SteadyStateWindow &, const SteadyStateWindow &) = default;
};

enum class SteadyState {
    Measuring, // fewer rounds than a window, or no steady window yet, below the limit
    Steady,
    NotReached, // the round limit came first
};

// The names the results file gives a step's verdict: "steady", "not_reached", and
// "stopped" for Measuring (a step that ended before the rule's verdict); "" for no value.
std::string_view toString(SteadyState state);
std::optional<SteadyState> steadyStateFromString(std::string_view name);

struct SteadyStateResult {
    SteadyState state = SteadyState::Measuring;
    std::size_t rounds = 0;
    // The window judged last: the steady one, or the last one before the limit.
    std::optional<SteadyStateWindow> window;
    // One line for a person: which rounds, each test's share against its limit.
    std::string explanation;
    friend bool operator==(const SteadyStateResult &, const SteadyStateResult &) = default;
};

// The figures of `window`, the rounds from index `first` on, fitted and tested.
SteadyStateWindow fitSteadyStateWindow(
    std::span<const double> window, std::size_t first, const SteadyStateCriteria &criteria);

// After rounds.size() rounds: steady when the last windowRounds rounds meet the rule.
SteadyStateResult judgeSteadyState(
    std::span<const double> rounds, const SteadyStateCriteria &criteria);

// ---------------------------------------------------------------- in a run

// What a round's figure is: reads and writes together, over the round.
enum class SteadyStateMetric {
    Iops,
    MegabytesPerSecond, // decimal MB/s
    MeanLatency, // µs
    P99Latency, // µs
    P99_9Latency, // µs
};

std::string_view steadyStateMetricName(
    SteadyStateMetric metric); // "iops", "mbps", "mean", "p99", "p99.9"
std::optional<SteadyStateMetric> parseSteadyStateMetric(std::string_view name);
// The unit a person reads the figure in: "IOPS", "MB/s", "µs".
std::string_view steadyStateMetricUnit(SteadyStateMetric metric);
double steadyStateFigure(const Figures &figures, SteadyStateMetric metric);

// A step's stop rule (TestSetup::steadyState): its measurement runs in rounds of
// `roundTime`, judged after each, and ends at the first steady window or at the round
// limit. The step's run time is not used.
struct SteadyStateSetup {
    SteadyStateCriteria criteria;
    SteadyStateMetric metric = SteadyStateMetric::Iops;
    std::chrono::milliseconds roundTime {60'000}; // PTS: one minute
    friend bool operator==(const SteadyStateSetup &, const SteadyStateSetup &) = default;
};

// One round of a step, on the run's clock (seconds since its first step started, as
// IntervalSample), with its figure in the metric's unit.
struct SteadyStateRound {
    double startSeconds = 0;
    double endSeconds = 0;
    double figure = 0;
    friend bool operator==(const SteadyStateRound &, const SteadyStateRound &) = default;
};

// What a step with the rule measured and concluded (StepResult::steadyState): every
// round, and the judgement on them. A step stopped before its verdict keeps the rounds
// it completed, with the judgement Measuring.
struct SteadyStateRecord {
    SteadyStateSetup setup;
    std::vector<SteadyStateRound> rounds;
    SteadyStateResult result;
    friend bool operator==(const SteadyStateRecord &, const SteadyStateRecord &) = default;
};

// The figures of the rounds, in order.
std::vector<double> roundFigures(const std::vector<SteadyStateRound> &rounds);

} // namespace ioprism::core
