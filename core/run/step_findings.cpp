// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/step_findings.h"

#include "core/profile/units.h"
#include "core/run/precondition.h"

#include <fmt/format.h>

namespace ioprism::core {

std::string steadyStateFigureText(double figure, SteadyStateMetric metric)
{
    return fmt::format("{:.{}f}", figure, metric == SteadyStateMetric::Iops ? 0 : 1);
}

std::string describeSteadyStateVerdict(const SteadyStateRecord &steady)
{
    const SteadyStateResult &judged = steady.result;
    if (judged.state == SteadyState::Measuring)
        return fmt::format("ended after {} round{} of {} s, before a verdict ({})",
            steady.rounds.size(), steady.rounds.size() == 1 ? "" : "s",
            double(steady.setup.roundTime.count()) / 1e3, judged.explanation);
    std::string text = judged.explanation;
    if (judged.window) {
        const SteadyStateMetric metric = steady.setup.metric;
        const bool latency = steadyStateMetricUnit(metric) == "µs";
        text += fmt::format("; the window's mean {} {}{}",
            steadyStateFigureText(judged.window->mean, metric), steadyStateMetricUnit(metric),
            latency ? " (" + std::string(steadyStateMetricName(metric)) + ")" : "");
    }
    return text;
}

std::string describePreconditioning(const PreconditionResult &pre)
{
    const StepResult &step = pre.step;
    const DirectionFigures none;
    const DirectionFigures &moved = step.scopes.empty() ? none : step.scopes.front().figures.total;
    std::string text = fmt::format("{}: {} moved{} in {:.1f} s, {:.1f} MB/s, in none of the "
                                   "steps' figures",
        preconditionName(pre.setup), describeSize(moved.bytes),
        pre.plannedBytes > 0 ? " of " + describeSize(pre.plannedBytes) : std::string(),
        step.measuredSeconds, moved.megabytesPerSecond);
    if (step.writeCliff && step.writeCliff->cliff)
        text += "; its write rate fell off a cliff " + describeWriteCliff(*step.writeCliff);
    if (!step.complete)
        text += "; stopped before it was done";
    return text;
}

std::vector<StepWriteInterval> stepWriteIntervals(
    std::span<const IntervalSample> intervals, std::size_t step, RunPhase phase)
{
    std::vector<StepWriteInterval> out;
    std::uint64_t bytes = 0;
    for (const auto &sample : intervals) {
        if (sample.step != step || sample.phase != phase || sample.scopes.empty())
            continue;
        const DirectionFigures &written = sample.scopes.front().figures.write;
        bytes += written.bytes;
        out.push_back(
            {.bytesWritten = bytes, .startSeconds = sample.startSeconds, .write = written});
    }
    return out;
}

std::string describeWriteCliff(const WriteCliffJudgement &judged)
{
    if (!judged.cliff)
        return {};
    const WriteCliff &cliff = *judged.cliff;
    return fmt::format(
        "after {} written ({:.1f} s in), {:.1f} MB/s before, {:.1f} MB/s after ({:.0f} % lower)",
        describeSize(cliff.bytesBefore), judged.cliffSeconds, cliff.rateBefore, cliff.rateAfter,
        cliff.drop * 100);
}

} // namespace ioprism::core
