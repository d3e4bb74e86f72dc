// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/series_result.h"

#include <algorithm>
#include <map>
#include <utility>

namespace ioprism::core {

TrialStat trialStat(std::vector<double> values)
{
    TrialStat s;
    if (values.empty())
        return s;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    s.min = values.front();
    s.max = values.back();
    s.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    return s;
}

namespace {

void summarise(SeriesPointResult &p, const RunResult &result)
{
    std::vector<double> iops, mb, mib, readMb, writeMb, mean, p50, p99, p999, cpu, perCpu, devRead,
        devWrite;
    std::vector<double> files, openMean, openP99, closeMean, closeP99, opMean, opP99;
    for (std::size_t i : p.trials) {
        const StepResult &step = result.steps[i];
        p.complete = p.complete && step.complete;
        if (step.scopes.empty())
            continue;
        const DirectionFigures &total = step.scopes.front().figures.total;
        iops.push_back(total.iops);
        mb.push_back(total.megabytesPerSecond);
        mib.push_back(total.mebibytesPerSecond);
        readMb.push_back(step.scopes.front().figures.read.megabytesPerSecond);
        writeMb.push_back(step.scopes.front().figures.write.megabytesPerSecond);
        mean.push_back(total.latency.meanUs);
        p50.push_back(total.latency.p50Us);
        p99.push_back(total.latency.p99Us);
        p999.push_back(total.latency.p99_9Us);
        if (const auto &c = step.scopes.front().figures.connections) {
            p.connectionsValid = true;
            files.push_back(c->open.perSecond);
            openMean.push_back(c->open.latency.meanUs);
            openP99.push_back(c->open.latency.p99Us);
            closeMean.push_back(c->close.latency.meanUs);
            closeP99.push_back(c->close.latency.p99Us);
            opMean.push_back(c->connection.latency.meanUs);
            opP99.push_back(c->connection.latency.p99Us);
        }
        if (step.cpu.valid) {
            p.cpuValid = true;
            cpu.push_back(step.cpu.busyPercent);
            perCpu.push_back(step.cpuEffectiveness);
        }
        if (step.devices.available) {
            p.deviceValid = true;
            devRead.push_back(step.devices.total.readMegabytesPerSecond);
            devWrite.push_back(step.devices.total.writeMegabytesPerSecond);
        }
        if (p.trials.front() == i
            || notability(step.devices.verdict.verdict) > notability(p.verdict))
            p.verdict = step.devices.verdict.verdict;
    }
    p.iops = trialStat(iops);
    p.megabytesPerSecond = trialStat(mb);
    p.mebibytesPerSecond = trialStat(mib);
    p.readMegabytesPerSecond = trialStat(readMb);
    p.writeMegabytesPerSecond = trialStat(writeMb);
    p.meanLatencyUs = trialStat(mean);
    p.p50LatencyUs = trialStat(p50);
    p.p99LatencyUs = trialStat(p99);
    p.p99_9LatencyUs = trialStat(p999);
    p.filesPerSecond = trialStat(files);
    p.openMeanUs = trialStat(openMean);
    p.openP99Us = trialStat(openP99);
    p.closeMeanUs = trialStat(closeMean);
    p.closeP99Us = trialStat(closeP99);
    p.operationMeanUs = trialStat(opMean);
    p.operationP99Us = trialStat(opP99);
    p.cpuBusyPercent = trialStat(cpu);
    p.iopsPerCpuPercent = trialStat(perCpu);
    p.deviceReadMegabytesPerSecond = trialStat(devRead);
    p.deviceWriteMegabytesPerSecond = trialStat(devWrite);
}

} // namespace

std::vector<SeriesPointResult> seriesPoints(const RunResult &result)
{
    std::vector<SeriesPointResult> points;
    std::map<std::pair<std::size_t, std::size_t>, std::size_t> index; // (spec, point) -> i
    for (std::size_t i = 0; i < result.steps.size(); ++i) {
        const std::size_t s = result.steps[i].step;
        if (s >= result.plan.steps.size() || !result.plan.steps[s].point)
            continue;
        const PlannedStep &planned = result.plan.steps[s];
        const StepPoint &point = *planned.point;
        auto [it, added] = index.try_emplace({planned.specIndex, point.index}, points.size());
        if (added) {
            SeriesPointResult p;
            p.specIndex = planned.specIndex;
            p.point = point.index;
            p.specName = planned.specName;
            p.values = point.values;
            p.target = point.target;
            points.push_back(std::move(p));
        }
        points[it->second].trials.push_back(i);
    }
    // A point whose trials did not all run (a stop in a later trial) is not complete.
    const auto &series = result.plan.profile.setup.series;
    // Cycling: each pass of a step is a trial of its point.
    const std::size_t trials = series ? std::max<std::uint32_t>(series->repeat, 1)
                                      : result.plan.profile.setup.passesPerTest();
    for (auto &p : points) {
        summarise(p, result);
        p.complete = p.complete && p.trials.size() >= trials;
    }
    return points;
}

} // namespace ioprism::core
