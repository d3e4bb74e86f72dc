// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/describe.h"

#include "core/profile/depth.h"
#include "core/profile/names.h"
#include "core/profile/series.h"
#include "core/profile/units.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ioprism::core {

namespace {

bool sweeps(const TestSetup &s, SweepParameter parameter)
{
    return s.series
        && std::any_of(s.series->axes.begin(), s.series->axes.end(),
            [&](const SweepAxis &a) { return a.parameter == parameter; });
}

// "1 MiB", "4 KiB/64 KiB", "512 B..1 MiB": the sizes of a spec's lines, each once, exact
// (sizes someone gave: two of them never read the same).
std::string lineSizes(const AccessSpec &spec)
{
    std::vector<std::uint64_t> sizes;
    for (const auto &l : spec.lines)
        if (std::find(sizes.begin(), sizes.end(), l.transferSizeBytes) == sizes.end())
            sizes.push_back(l.transferSizeBytes);
    if (sizes.empty())
        return {};
    if (sizes.size() > 3) {
        const auto [lo, hi] = std::minmax_element(sizes.begin(), sizes.end());
        return describeExactSize(*lo) + ".." + describeExactSize(*hi);
    }
    std::string out;
    for (const auto size : sizes)
        out += (out.empty() ? "" : "/") + describeExactSize(size);
    return out;
}

std::string targetText(const Target &t)
{
    std::string out = fmt::format("{} ({}", t.path, toString(t.cacheMode));
    if (t.kind == TargetKind::TestFile)
        out += fmt::format(", {} test file", describeExactSize(t.testFileSizeBytes));
    else if (t.kind == TargetKind::FileTree)
        out += fmt::format(", tree of {} levels x {} files of {}", t.tree.depth,
            t.tree.filesPerLevel, describeExactSize(t.tree.fileSizeBytes));
    else
        out += fmt::format(", {}", targetKindWords(t.kind));
    if (t.unresolved)
        out += ", not found on this machine";
    return out + ")";
}

std::string axesText(const Series &series)
{
    std::string axes;
    for (const auto &axis : series.axes)
        axes += (axes.empty() ? "" : " x ") + formatSweep(axis);
    const std::size_t points = seriesPointCount(series);
    return fmt::format("{} ({} point{})", axes, points, points == 1 ? "" : "s");
}

} // namespace

std::string describeRun(const Profile &p)
{
    std::vector<const Worker *> workers;
    for (const auto &h : p.hosts)
        for (const auto &w : h.workers)
            workers.push_back(&w);
    if (workers.empty())
        return "no workers";
    const auto &s = p.setup;
    // What a series or Iometer's cycling sets per step is no fact of the spec.
    const bool sizeSwept = sweeps(s, SweepParameter::TransferSize);
    const bool depthCycled = depthIsSwept(s);

    std::vector<std::string> named;
    std::string specs;
    std::vector<std::string> paths;
    std::string targets;
    for (const Worker *w : workers) {
        for (const auto &name : w->assignedSpecs) {
            if (isIdleSpec(p, name) || std::find(named.begin(), named.end(), name) != named.end())
                continue;
            named.push_back(name);
            const auto *spec = findSpec(p, name);
            specs += (specs.empty() ? "" : ", ") + name;
            if (spec && !sizeSwept) {
                if (const std::string sizes = lineSizes(*spec); !sizes.empty())
                    specs += " (" + sizes + ")";
            }
            if (!depthCycled) {
                // Each depth the worker's targets run this spec at, once: "QD 4/8".
                std::vector<std::uint32_t> depths;
                const auto add = [&](const Target *t) {
                    const auto qd = configuredDepth(spec, *w, t).outstandingIos;
                    if (std::find(depths.begin(), depths.end(), qd) == depths.end())
                        depths.push_back(qd);
                };
                if (w->targets.empty())
                    add(nullptr);
                for (const auto &t : w->targets)
                    add(&t);
                specs += fmt::format(" at QD {}", fmt::join(depths, "/"));
            }
            if (spec && spec->threads.value_or(1) > 1)
                specs += fmt::format(" x{} threads", *spec->threads);
        }
        for (const auto &t : w->targets) {
            if (std::find(paths.begin(), paths.end(), t.path) != paths.end())
                continue;
            paths.push_back(t.path);
            targets += (targets.empty() ? "" : ", ") + targetText(t);
        }
    }
    const bool ios = s.series && s.series->ios > 0;
    const std::string unit = s.series ? "point" : s.testType != TestType::Normal ? "step" : "spec";
    std::string time = ios ? fmt::format("{} I/Os per worker and target per point", s.series->ios)
        : s.runTime.count() > 0 ? fmt::format("{} measured per {}", formatDuration(s.runTime), unit)
                                : std::string("until stopped");
    if (s.steadyState && !ios) {
        const SteadyStateSetup &steady = *s.steadyState;
        const SteadyStateCriteria &c = steady.criteria;
        const std::string limits = c.rule == SteadyStateRule::FioDeviation
            ? fmt::format("{:g} %", c.rangeLimit * 100)
            : c.rule == SteadyStateRule::FioSlope
            ? fmt::format("{:g} %", c.slopeLimit * 100)
            : fmt::format("{:g} % and {:g} %", c.rangeLimit * 100, c.slopeLimit * 100);
        time = fmt::format("until steady per {} ({} on {}, {}: rounds of {}, a window of {}, "
                           "at most {} rounds)",
            unit, steadyStateRuleName(c.rule), steadyStateMetricName(steady.metric), limits,
            formatDuration(steady.roundTime), c.windowRounds, c.roundLimit);
    }
    if (s.series) {
        time = fmt::format("series {}{}; {}", axesText(*s.series),
            s.series->repeat > 1 ? fmt::format(", {} trials", s.series->repeat) : std::string(),
            time);
    } else if (s.testType != TestType::Normal) {
        const auto &c = s.queueDepthCycling;
        const std::string depths = depthCycled ? fmt::format(" (QD {}..{} {}{})", c.start, c.end,
                                       c.stepType == StepType::Exponential ? "x" : "+", c.step)
                                               : std::string();
        time = fmt::format("Iometer test type {}{}; {}", toString(s.testType), depths, time);
    }
    const std::string ramp = s.rampUp.count() > 0 && !ios
        ? fmt::format(" after {} ramp-up", formatDuration(s.rampUp))
        : std::string();
    const bool inTurn = s.series && s.series->targetsInTurn && paths.size() > 1;
    std::string precondition;
    if (const auto &p = s.precondition)
        precondition = p->kind == PreconditionKind::Sequential
            ? fmt::format("; preconditioned first by 128 KiB sequential writes, {:g}x each "
                          "target's capacity",
                p->capacityMultiple)
            : p->time.count() > 0
            ? fmt::format("; preconditioned first by the first step's workload for {}",
                formatDuration(p->time))
            : fmt::format("; preconditioned first by the first step's workload, {:g}x each "
                          "target's capacity",
                p->capacityMultiple);
    std::string passes;
    if (s.passes > 1)
        passes = fmt::format(", {} passes each", s.passes);
    if (s.pauseBetweenTests.count() > 0)
        passes += fmt::format(
            ", a pause of {} between {}s", formatDuration(s.pauseBetweenTests), unit);
    return fmt::format("{}; {} worker{}; {}{}{}; on {}{}{}", specs.empty() ? "no specs" : specs,
        workers.size(), workers.size() == 1 ? "" : "s", time, ramp, passes,
        targets.empty() ? "no targets" : targets, inTurn ? ", in turn" : "", precondition);
}

} // namespace ioprism::core
