// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/steady_state.h"

#include "core/enum_names.h"
#include "core/stats/figures.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace ioprism::core {

std::string_view steadyStateRuleName(SteadyStateRule rule)
{
    switch (rule) {
    case SteadyStateRule::Pts:
        return "pts";
    case SteadyStateRule::FioDeviation:
        return "fio-deviation";
    case SteadyStateRule::FioSlope:
        return "fio-slope";
    }
    return "pts";
}

std::optional<SteadyStateRule> parseSteadyStateRule(std::string_view name)
{
    for (auto rule :
        {SteadyStateRule::Pts, SteadyStateRule::FioDeviation, SteadyStateRule::FioSlope})
        if (steadyStateRuleName(rule) == name)
            return rule;
    return std::nullopt;
}

std::string_view toString(SteadyState state)
{
    switch (state) {
    case SteadyState::Measuring:
        return "stopped";
    case SteadyState::Steady:
        return "steady";
    case SteadyState::NotReached:
        return "not_reached";
    }
    return "";
}

std::optional<SteadyState> steadyStateFromString(std::string_view name)
{
    return enumFromName<SteadyState>(name);
}

SteadyStateWindow fitSteadyStateWindow(
    std::span<const double> window, std::size_t first, const SteadyStateCriteria &criteria)
{
    SteadyStateWindow w;
    w.first = first;
    w.count = window.size();
    if (window.empty())
        return w;
    const double n = double(window.size());
    double sum = 0;
    for (double v : window)
        sum += v;
    w.mean = sum / n;
    const auto [lo, hi] = std::minmax_element(window.begin(), window.end());
    w.minimum = *lo;
    w.maximum = *hi;
    // Least squares through (i, figure), i = 0 .. n-1: slope = sum((i - i_mean)(y - y_mean))
    // / sum((i - i_mean)^2).
    const double iMean = (n - 1) / 2;
    double sxy = 0;
    double sxx = 0;
    double deviation = 0;
    for (std::size_t i = 0; i < window.size(); ++i) {
        const double di = double(i) - iMean;
        sxy += di * (window[i] - w.mean);
        sxx += di * di;
        deviation = std::max(deviation, std::abs(window[i] - w.mean));
    }
    w.slopePerRound = sxx > 0 ? sxy / sxx : 0;
    // A mean of zero (a device that did nothing) or below is never steady: a share of it
    // means nothing.
    if (!(w.mean > 0))
        return w;
    w.rangeShare = (w.maximum - w.minimum) / w.mean;
    w.excursionShare = std::abs(w.slopePerRound) * (n - 1) / w.mean;
    w.deviationShare = deviation / w.mean;
    // PTS's tests are met within their limits; fio's below them, strictly, as fio tests.
    switch (criteria.rule) {
    case SteadyStateRule::Pts:
        w.rangeMet = w.rangeShare <= criteria.rangeLimit;
        w.slopeMet = w.excursionShare <= criteria.slopeLimit;
        break;
    case SteadyStateRule::FioDeviation:
        w.rangeMet = w.deviationShare < criteria.rangeLimit;
        w.slopeMet = true;
        break;
    case SteadyStateRule::FioSlope:
        w.rangeMet = true;
        w.slopeMet = std::abs(w.slopePerRound) / w.mean < criteria.slopeLimit;
        break;
    }
    return w;
}

namespace {

std::string percentText(double share)
{
    return fmt::format("{:.1f} %", share * 100);
}

// "range 12.3 % of the mean (limit 20 %), slope excursion 4.1 % (limit 10 %)"
std::string steadyTests(const SteadyStateWindow &w, const SteadyStateCriteria &c)
{
    if (!(w.mean > 0))
        return "their mean is not above zero";
    switch (c.rule) {
    case SteadyStateRule::Pts:
        return fmt::format("range {} of the mean (limit {}), slope excursion {} (limit {})",
            percentText(w.rangeShare), percentText(c.rangeLimit), percentText(w.excursionShare),
            percentText(c.slopeLimit));
    case SteadyStateRule::FioDeviation:
        return fmt::format("largest deviation {} of the mean (limit {})",
            percentText(w.deviationShare), percentText(c.rangeLimit));
    case SteadyStateRule::FioSlope:
        return fmt::format("slope {} of the mean per round (limit {})",
            percentText(std::abs(w.slopePerRound) / w.mean), percentText(c.slopeLimit));
    }
    return {};
}

std::string roundsText(const SteadyStateWindow &w)
{
    return fmt::format("rounds {}-{}", w.first + 1, w.first + w.count);
}

} // namespace

SteadyStateResult judgeSteadyState(
    std::span<const double> rounds, const SteadyStateCriteria &criteria)
{
    SteadyStateResult result;
    const std::size_t width = std::max<std::size_t>(criteria.windowRounds, 2);
    const std::size_t limit = std::max(criteria.roundLimit, width);
    // The first window that meets the rule, as a run that judged after every round would
    // have stopped there; never past the limit.
    const std::size_t last = std::min(rounds.size(), limit);
    for (std::size_t end = width; end <= last; ++end) {
        const SteadyStateWindow w
            = fitSteadyStateWindow(rounds.subspan(end - width, width), end - width, criteria);
        result.window = w;
        result.rounds = end;
        if (w.rangeMet && w.slopeMet) {
            result.state = SteadyState::Steady;
            result.explanation
                = fmt::format("steady in {}: {}", roundsText(w), steadyTests(w, criteria));
            return result;
        }
    }
    result.rounds = last;
    if (rounds.size() >= limit) {
        result.state = SteadyState::NotReached;
        result.explanation = fmt::format("steady state not reached in {} rounds: {} {}", limit,
            roundsText(*result.window), steadyTests(*result.window, criteria));
    } else if (result.window) {
        result.explanation = fmt::format("not steady yet: {} {}", roundsText(*result.window),
            steadyTests(*result.window, criteria));
    } else {
        result.explanation
            = fmt::format("measuring: {} of the {} rounds of a window", rounds.size(), width);
    }
    return result;
}

std::string_view steadyStateMetricName(SteadyStateMetric metric)
{
    switch (metric) {
    case SteadyStateMetric::Iops:
        return "iops";
    case SteadyStateMetric::MegabytesPerSecond:
        return "mbps";
    case SteadyStateMetric::MeanLatency:
        return "mean";
    case SteadyStateMetric::P99Latency:
        return "p99";
    case SteadyStateMetric::P99_9Latency:
        return "p99.9";
    }
    return "iops";
}

std::optional<SteadyStateMetric> parseSteadyStateMetric(std::string_view name)
{
    for (auto metric : {SteadyStateMetric::Iops, SteadyStateMetric::MegabytesPerSecond,
             SteadyStateMetric::MeanLatency, SteadyStateMetric::P99Latency,
             SteadyStateMetric::P99_9Latency})
        if (steadyStateMetricName(metric) == name)
            return metric;
    return std::nullopt;
}

std::string_view steadyStateMetricUnit(SteadyStateMetric metric)
{
    switch (metric) {
    case SteadyStateMetric::Iops:
        return "IOPS";
    case SteadyStateMetric::MegabytesPerSecond:
        return "MB/s";
    case SteadyStateMetric::MeanLatency:
    case SteadyStateMetric::P99Latency:
    case SteadyStateMetric::P99_9Latency:
        return "µs";
    }
    return "";
}

double steadyStateFigure(const Figures &figures, SteadyStateMetric metric)
{
    const DirectionFigures &total = figures.total;
    switch (metric) {
    case SteadyStateMetric::Iops:
        return total.iops;
    case SteadyStateMetric::MegabytesPerSecond:
        return total.megabytesPerSecond;
    case SteadyStateMetric::MeanLatency:
        return total.latency.meanUs;
    case SteadyStateMetric::P99Latency:
        return total.latency.p99Us;
    case SteadyStateMetric::P99_9Latency:
        return total.latency.p99_9Us;
    }
    return 0;
}

std::vector<double> roundFigures(const std::vector<SteadyStateRound> &rounds)
{
    std::vector<double> figures;
    figures.reserve(rounds.size());
    for (const auto &round : rounds)
        figures.push_back(round.figure);
    return figures;
}

} // namespace ioprism::core
