// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/write_cliff.h"

#include "core/run/series_result.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ioprism::core {

namespace {

// A running median of `width` points (odd), narrower at the ends.
std::vector<double> runningMedian(std::span<const WriteRatePoint> points, std::size_t width)
{
    const std::size_t half = width / 2;
    std::vector<double> out(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        const std::size_t from = i >= half ? i - half : 0;
        const std::size_t to = std::min(points.size(), i + half + 1);
        std::vector<double> around;
        for (std::size_t j = from; j < to; ++j)
            around.push_back(points[j].rate);
        out[i] = trialStat(std::move(around)).median;
    }
    return out;
}

} // namespace

std::optional<WriteCliff> findWriteCliff(
    std::span<const WriteRatePoint> points, const WriteCliffCriteria &criteria)
{
    const std::size_t n = points.size();
    const std::size_t least = std::max<std::size_t>(criteria.minimumPoints, 1);
    if (n < 2 * least)
        return std::nullopt;
    // A rate that is not a number (an interval of no length) has no place on the curve.
    for (const auto &p : points)
        if (!std::isfinite(p.rate))
            return std::nullopt;
    const std::vector<double> smooth
        = runningMedian(points, std::max<std::size_t>(criteria.smoothPoints | 1, 1));

    // Prefix sums of the smoothed rates and their squares: each split's squared deviations
    // in O(1). Relative to the first rate, so that large rates keep their precision.
    const double origin = smooth[0];
    std::vector<double> sum(n + 1, 0);
    std::vector<double> squares(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) {
        const double v = smooth[i] - origin;
        sum[i + 1] = sum[i] + v;
        squares[i + 1] = squares[i] + v * v;
    }
    const auto deviations = [&](std::size_t from, std::size_t to) {
        const double count = double(to - from);
        const double s = sum[to] - sum[from];
        // Never below zero: rounding can take a perfect step's deviations a hair under.
        return std::max(0.0, (squares[to] - squares[from]) - s * s / count);
    };
    std::size_t split = least;
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t k = least; k + least <= n; ++k) {
        const double cost = deviations(0, k) + deviations(k, n);
        if (cost < best) {
            best = cost;
            split = k;
        }
    }

    std::vector<double> before;
    std::vector<double> after;
    for (std::size_t i = 0; i < n; ++i)
        (i < split ? before : after).push_back(points[i].rate);
    WriteCliff cliff;
    cliff.firstSlowPoint = split;
    cliff.bytesBefore = points[split - 1].bytesWritten;
    cliff.rateBefore = trialStat(std::move(before)).median;
    cliff.rateAfter = trialStat(std::move(after)).median;
    if (!(cliff.rateBefore > 0))
        return std::nullopt;
    cliff.drop = 1 - cliff.rateAfter / cliff.rateBefore;
    if (cliff.drop < criteria.minimumDrop)
        return std::nullopt;
    const double midpoint = (cliff.rateBefore + cliff.rateAfter) / 2;
    const auto down = std::count_if(smooth.begin() + std::ptrdiff_t(split), smooth.end(),
        [&](double v) { return v < midpoint; });
    if (double(down) < criteria.stayDownShare * double(n - split))
        return std::nullopt;
    const double gap = cliff.rateBefore - cliff.rateAfter;
    const auto between = std::count_if(smooth.begin(), smooth.end(),
        [&](double v) { return v > cliff.rateAfter + gap / 4 && v < cliff.rateBefore - gap / 4; });
    if (double(between) > criteria.transitionShare * double(n))
        return std::nullopt;
    return cliff;
}

} // namespace ioprism::core
