// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/cycling.h"

#include <algorithm>

namespace ioprism::core {

namespace {

using Depths = std::vector<std::vector<std::uint32_t>>;

// The next value of a cycling after `value`, the k-th step from `start`.
std::uint64_t nextValue(
    std::uint64_t start, std::uint64_t step, bool exponential, std::uint64_t value, std::uint32_t k)
{
    if (!exponential || step <= 1)
        return value + step;
    std::uint64_t v = start;
    for (std::uint32_t i = 0; i < k && v <= (1ull << 40); ++i)
        v *= step;
    return v;
}

// Eligible workers with their first `perWorker` targets (at most all), the others none.
Depths firstTargets(const std::vector<CyclingWorker> &workers, std::size_t perWorker)
{
    Depths d;
    for (const auto &w : workers) {
        auto &row = d.emplace_back(w.depths.size(), 0);
        if (w.eligible)
            for (std::size_t t = 0; t < std::min(perWorker, w.depths.size()); ++t)
                row[t] = w.depths[t];
    }
    return d;
}

// Of `d`, only the first `count` eligible workers keep their targets.
Depths firstWorkers(const std::vector<CyclingWorker> &workers, Depths d, std::size_t count)
{
    std::size_t seen = 0;
    for (std::size_t w = 0; w < workers.size(); ++w)
        if (workers[w].eligible && seen++ >= count)
            std::fill(d[w].begin(), d[w].end(), 0u);
    return d;
}

// A budget of `count` targets, filled down the eligible workers in list order.
Depths targetBudget(const std::vector<CyclingWorker> &workers, std::size_t count)
{
    Depths d;
    for (const auto &w : workers) {
        auto &row = d.emplace_back(w.depths.size(), 0);
        for (std::size_t t = 0; w.eligible && t < w.depths.size() && count > 0; ++t, --count)
            row[t] = w.depths[t];
    }
    return d;
}

Depths withDepth(Depths d, std::uint32_t q)
{
    for (auto &row : d)
        for (auto &v : row)
            if (v > 0)
                v = q;
    return d;
}

std::size_t eligibleCount(const std::vector<CyclingWorker> &workers)
{
    return std::size_t(std::count_if(
        workers.begin(), workers.end(), [](const CyclingWorker &w) { return w.eligible; }));
}

// The most targets of one eligible worker, among the first `workerCount` eligible ones.
std::size_t mostTargets(const std::vector<CyclingWorker> &workers, std::size_t workerCount)
{
    std::size_t most = 0, seen = 0;
    for (const auto &w : workers)
        if (w.eligible && seen++ < workerCount)
            most = std::max(most, w.depths.size());
    return most;
}

std::size_t totalTargets(const std::vector<CyclingWorker> &workers)
{
    std::size_t total = 0;
    for (const auto &w : workers)
        if (w.eligible)
            total += w.depths.size();
    return total;
}

std::string plural(std::uint32_t n, const char *one, const char *many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string qdLabel(std::uint32_t q)
{
    return "QD " + std::to_string(q);
}

} // namespace

std::vector<std::uint32_t> cyclingCounts(const Cycling &cycling, std::uint32_t limit)
{
    std::vector<std::uint32_t> counts;
    if (limit == 0)
        return counts;
    const std::uint64_t start = std::max<std::uint32_t>(cycling.start, 1);
    const std::uint64_t step = std::max<std::uint32_t>(cycling.step, 1);
    const bool exponential = cycling.stepType == StepType::Exponential;
    std::uint64_t v = start;
    for (std::uint32_t k = 1;; ++k) {
        counts.push_back(std::uint32_t(std::min<std::uint64_t>(v, limit)));
        if (v >= limit)
            break;
        v = nextValue(start, step, exponential, v, k);
    }
    return counts;
}

std::vector<std::uint32_t> queueDepthValues(const Cycling &cycling)
{
    std::vector<std::uint32_t> values;
    const std::uint64_t start = std::max<std::uint32_t>(cycling.start, 1);
    const std::uint64_t step = std::max<std::uint32_t>(cycling.step, 1);
    const std::uint64_t end = std::max<std::uint32_t>(cycling.end, 1);
    const bool exponential = cycling.stepType == StepType::Exponential;
    std::uint64_t v = start;
    for (std::uint32_t k = 1; v <= end; ++k) {
        values.push_back(std::uint32_t(v));
        v = nextValue(start, step, exponential, v, k);
    }
    return values;
}

std::vector<CyclingStep> cyclingSteps(
    const TestSetup &setup, const std::vector<CyclingWorker> &workers)
{
    std::vector<CyclingStep> steps;
    const std::size_t eligible = eligibleCount(workers);
    if (eligible == 0)
        return steps;
    const auto all = firstTargets(workers, SIZE_MAX);
    switch (setup.testType) {
    case TestType::Normal:
        steps.push_back({all, {}});
        break;
    case TestType::CycleTargets:
        for (std::uint32_t n :
            cyclingCounts(setup.targetCycling, std::uint32_t(mostTargets(workers, SIZE_MAX))))
            steps.push_back({firstTargets(workers, n), plural(n, "target each", "targets each")});
        break;
    case TestType::CycleWorkers:
        for (std::uint32_t w : cyclingCounts(setup.workerCycling, std::uint32_t(eligible)))
            steps.push_back({firstWorkers(workers, all, w), plural(w, "worker", "workers")});
        break;
    case TestType::IncrementTargetsParallel:
    case TestType::IncrementTargetsSerial: // the same with one manager
        for (std::uint32_t n :
            cyclingCounts(setup.targetCycling, std::uint32_t(totalTargets(workers))))
            steps.push_back({targetBudget(workers, n), plural(n, "target", "targets")});
        break;
    case TestType::CycleWorkersAndTargets:
        for (std::uint32_t w : cyclingCounts(setup.workerCycling, std::uint32_t(eligible)))
            for (std::uint32_t n :
                cyclingCounts(setup.targetCycling, std::uint32_t(mostTargets(workers, w))))
                steps.push_back({firstWorkers(workers, firstTargets(workers, n), w),
                    plural(w, "worker", "workers") + " x "
                        + plural(n, "target each", "targets each")});
        break;
    case TestType::CycleOutstandingIos:
        for (std::uint32_t q : queueDepthValues(setup.queueDepthCycling))
            steps.push_back({withDepth(all, q), qdLabel(q)});
        break;
    case TestType::CycleOutstandingIosAndTargets:
        for (std::uint32_t n :
            cyclingCounts(setup.targetCycling, std::uint32_t(mostTargets(workers, SIZE_MAX))))
            for (std::uint32_t q : queueDepthValues(setup.queueDepthCycling))
                steps.push_back({withDepth(firstTargets(workers, n), q),
                    plural(n, "target each", "targets each") + ", " + qdLabel(q)});
        break;
    }
    return steps;
}

} // namespace ioprism::core
