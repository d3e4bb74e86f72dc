// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/host_merge.h"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <string>

namespace ioprism::core {

namespace {

std::string hostNameOf(const HostRun &run)
{
    return run.name.empty() ? run.result.environment.hostName : run.name;
}

OpError mergeRefused(const std::string &host, std::string detail)
{
    return {std::make_error_code(std::errc::invalid_argument), "merge the hosts' results", host,
        std::move(detail)};
}

// Hosts that ran another plan cannot be added step by step: their steps would not be the
// same work.
std::optional<OpError> planMismatch(const std::vector<HostRun> &runs)
{
    const auto &first = runs.front().result.plan.steps;
    const std::string firstName = hostNameOf(runs.front());
    for (std::size_t h = 1; h < runs.size(); ++h) {
        const auto &steps = runs[h].result.plan.steps;
        if (steps.size() != first.size())
            return mergeRefused(hostNameOf(runs[h]),
                fmt::format(
                    "it planned {} steps, {} planned {}", steps.size(), firstName, first.size()));
        for (std::size_t s = 0; s < steps.size(); ++s)
            if (steps[s].name != first[s].name)
                return mergeRefused(hostNameOf(runs[h]),
                    fmt::format("its step {} is \"{}\", {}'s is \"{}\"", s + 1, steps[s].name,
                        firstName, first[s].name));
    }
    return std::nullopt;
}

// Where each host's scopes land in the merged result.
struct HostPlace {
    int index = 0;
    std::string name;
    int workerOffset = 0; // its first worker in the merged plan
};

Scope placed(Scope scope, const HostPlace &place)
{
    scope.host = place.index;
    if (scope.worker >= 0)
        scope.worker += place.workerOffset;
    scope.label = place.name + " / " + scope.label;
    return scope;
}

Scope hostScope(const HostPlace &place)
{
    return Scope {Scope::Kind::Host, -1, -1, place.name, {}, place.index};
}

// The hosts' mean, as Iometer's ALL row over several managers.
CpuFigures meanCpu(const std::vector<const CpuFigures *> &parts)
{
    return weightedCpu(parts, std::vector<double>(parts.size(), 1.0));
}

// ------------------------------------------------------------------------ steps

// Step s of every host that has it (a host that stopped early has fewer).
std::vector<const StepResult *> stepsAt(const std::vector<HostRun> &runs, std::size_t s)
{
    std::vector<const StepResult *> out(runs.size(), nullptr);
    for (std::size_t h = 0; h < runs.size(); ++h)
        for (const auto &step : runs[h].result.steps)
            if (step.step == s)
                out[h] = &step;
    return out;
}

StepResult mergeStep(
    const std::vector<const StepResult *> &parts, const std::vector<HostPlace> &places)
{
    StepResult merged;
    Measurement all;
    bool first = true;
    std::vector<const CpuFigures *> cpus;
    merged.complete = true;
    for (std::size_t h = 0; h < parts.size(); ++h) {
        const StepResult *part = parts[h];
        if (!part || part->scopes.empty()) {
            merged.complete = false; // this host never measured the step
            merged.hosts.emplace_back();
            continue;
        }
        merged.step = part->step;
        merged.stepName = part->stepName;
        merged.measuredSeconds = std::max(merged.measuredSeconds, part->measuredSeconds);
        merged.setupSeconds = std::max(merged.setupSeconds, part->setupSeconds);
        merged.drainSeconds = std::max(merged.drainSeconds, part->drainSeconds);
        merged.complete = merged.complete && part->complete;
        const ScopeResult &hostAll = part->scopes.front();
        if (first)
            all = hostAll.measurement;
        else
            all.add(hostAll.measurement); // same span: the longest elapsed is kept
        first = false;
        cpus.push_back(&part->cpu);
        merged.hosts.push_back({part->cpu, part->cpuEffectiveness, part->devices});
    }
    merged.scopes.push_back(
        {Scope {Scope::Kind::All, -1, -1, "All", {}}, all, computeFigures(all)});
    for (std::size_t h = 0; h < parts.size(); ++h) {
        if (!parts[h] || parts[h]->scopes.empty())
            continue;
        const auto &scopes = parts[h]->scopes;
        merged.scopes.push_back(
            {hostScope(places[h]), scopes.front().measurement, scopes.front().figures});
        for (std::size_t i = 1; i < scopes.size(); ++i)
            merged.scopes.push_back(
                {placed(scopes[i].scope, places[h]), scopes[i].measurement, scopes[i].figures});
    }
    merged.cpu = meanCpu(cpus);
    merged.cpuEffectiveness
        = iopsPerCpuPercent(merged.scopes.front().figures.total.iops, merged.cpu);
    return merged; // merged.devices: unavailable, devices are judged per host
}

// ------------------------------------------------------------------------ intervals

// The figures of spans side by side (hosts over the same interval): counts add, rates
// are the sums over the longest span, and the latency is exact from `exact` when given.
DirectionFigures sideBySide(const std::vector<const DirectionFigures *> &parts, double seconds,
    const SparseLatencyHistogram &exact)
{
    DirectionFigures m;
    double maxUs = 0;
    for (const DirectionFigures *p : parts) {
        m.ios += p->ios;
        m.bytes += p->bytes;
        m.errors += p->errors;
        m.stalledIos += p->stalledIos;
        m.oldestInFlightUs = std::max(m.oldestInFlightUs, p->oldestInFlightUs);
        maxUs = std::max(maxUs, p->latency.maxUs); // in-flight ages included
    }
    if (seconds > 0) {
        m.iops = double(m.ios) / seconds;
        m.megabytesPerSecond = double(m.bytes) / 1e6 / seconds;
        m.mebibytesPerSecond = double(m.bytes) / 1048576.0 / seconds;
    }
    if (!exact.empty())
        m.latency = exactLatency(exact, maxUs);
    else
        m.latency.maxUs = maxUs;
    return m;
}

Figures allOfInterval(const std::vector<const IntervalSample *> &parts,
    const SparseLatencyHistogram &read, const SparseLatencyHistogram &write)
{
    Figures m;
    for (const IntervalSample *p : parts)
        m.seconds = std::max(m.seconds, p->scopes.front().figures.seconds);
    std::vector<const DirectionFigures *> reads, writes, totals;
    double transactions = 0;
    for (const IntervalSample *p : parts) {
        const Figures &f = p->scopes.front().figures;
        reads.push_back(&f.read);
        writes.push_back(&f.write);
        totals.push_back(&f.total);
        transactions += f.transactionsPerSecond * f.seconds;
        m.inFlightAtEnd += f.inFlightAtEnd;
        // Opens and closes keep no histogram per interval: their percentiles are the
        // larger of the hosts' (an upper bound).
        m.connections = mergeConnections(m.connections, f.connections, m.seconds);
    }
    SparseLatencyHistogram both = read;
    both.merge(write);
    m.read = sideBySide(reads, m.seconds, read);
    m.write = sideBySide(writes, m.seconds, write);
    m.total = sideBySide(totals, m.seconds, both);
    m.transactionsPerSecond = m.seconds > 0 ? transactions / m.seconds : 0;
    return m;
}

// The k-th interval of a step on every host that has it, side by side.
IntervalSample mergeInterval(
    const std::vector<const IntervalSample *> &parts, const std::vector<HostPlace> &places)
{
    IntervalSample merged;
    const IntervalSample *any = nullptr;
    std::vector<const IntervalSample *> present;
    std::vector<const CpuFigures *> cpus;
    for (const IntervalSample *p : parts) {
        if (!p || p->scopes.empty())
            continue;
        if (!any) {
            any = p;
            merged.startSeconds = p->startSeconds;
        }
        present.push_back(p);
        cpus.push_back(&p->cpu);
        merged.startSeconds = std::min(merged.startSeconds, p->startSeconds);
        merged.endSeconds = std::max(merged.endSeconds, p->endSeconds);
        merged.mergedIntervals = std::max(merged.mergedIntervals, p->mergedIntervals);
        merged.readLatency.merge(p->readLatency);
        merged.writeLatency.merge(p->writeLatency);
    }
    merged.runId = any->runId;
    merged.step = any->step;
    merged.stepName = any->stepName;
    merged.phase = any->phase;
    merged.scopes.push_back({Scope {Scope::Kind::All, -1, -1, "All", {}},
        allOfInterval(present, merged.readLatency, merged.writeLatency)});
    for (std::size_t h = 0; h < parts.size(); ++h) {
        if (!parts[h] || parts[h]->scopes.empty())
            continue;
        const auto &scopes = parts[h]->scopes;
        merged.scopes.push_back({hostScope(places[h]), scopes.front().figures});
        for (std::size_t i = 1; i < scopes.size(); ++i)
            merged.scopes.push_back({placed(scopes[i].scope, places[h]), scopes[i].figures});
    }
    merged.cpu = meanCpu(cpus);
    merged.cpuEffectiveness
        = iopsPerCpuPercent(merged.scopes.front().figures.total.iops, merged.cpu);
    return merged;
}

// Per step, the hosts' intervals in order; merged while every host that measured the
// step has its k-th (a host's last partial interval beyond the others' is left out).
std::vector<IntervalSample> mergeIntervals(
    const std::vector<HostRun> &runs, const std::vector<HostPlace> &places)
{
    std::map<std::size_t, std::vector<std::vector<const IntervalSample *>>> byStep;
    for (std::size_t h = 0; h < runs.size(); ++h)
        for (const auto &sample : runs[h].result.intervals) {
            auto &hosts = byStep[sample.step];
            hosts.resize(runs.size());
            hosts[h].push_back(&sample);
        }
    std::vector<IntervalSample> merged;
    for (const auto &[step, hosts] : byStep) {
        std::size_t count = SIZE_MAX;
        for (const auto &samples : hosts)
            if (!samples.empty())
                count = std::min(count, samples.size());
        for (std::size_t k = 0; k < count; ++k) {
            std::vector<const IntervalSample *> parts(runs.size(), nullptr);
            for (std::size_t h = 0; h < runs.size(); ++h)
                if (k < hosts[h].size())
                    parts[h] = hosts[h][k];
            merged.push_back(mergeInterval(parts, places));
        }
    }
    return merged;
}

// ------------------------------------------------------------------------ the run

void mergeOutcome(RunResult &merged, const RunResult &part, const HostPlace &place)
{
    for (const auto &notice : part.notices)
        merged.notices.push_back(place.name + ": " + notice);
    if (part.error && !merged.error) {
        merged.error = part.error;
        merged.error->operation = "on " + place.name + ": " + merged.error->operation;
    }
    merged.stoppedByUser = merged.stoppedByUser || part.stoppedByUser;
    if (part.stuckIo) {
        StuckIo &stuck = merged.stuckIo ? *merged.stuckIo : merged.stuckIo.emplace();
        stuck.ios += part.stuckIo->ios;
        stuck.oldestSeconds = std::max(stuck.oldestSeconds, part.stuckIo->oldestSeconds);
        for (const auto &target : part.stuckIo->targets)
            stuck.targets.push_back(place.name + ":" + target);
    }
    for (const auto &path : part.testFileRemoval.removed)
        merged.testFileRemoval.removed.push_back(place.name + ":" + path);
    for (const auto &failed : part.testFileRemoval.failed)
        merged.testFileRemoval.failed.push_back(failed);
}

} // namespace

Result<RunResult> mergeHostRuns(std::vector<HostRun> runs)
{
    if (runs.empty())
        return mergeRefused({}, "no host's result to merge");
    if (runs.size() == 1)
        return std::move(runs.front().result);
    if (auto mismatch = planMismatch(runs))
        return *mismatch;

    std::vector<HostPlace> places;
    int workers = 0;
    for (std::size_t h = 0; h < runs.size(); ++h) {
        places.push_back({int(h), hostNameOf(runs[h]), workers});
        workers += int(runs[h].result.plan.workers.size());
    }

    const RunResult &first = runs.front().result;
    RunResult merged;
    merged.runId = first.runId;
    merged.plan = first.plan;
    merged.plan.workers.clear();
    merged.engine = first.engine;
    merged.startedAt = first.startedAt;
    merged.environment = first.environment;
    merged.deviceMap = first.deviceMap;
    merged.deviceTail = first.deviceTail;
    for (std::size_t h = 0; h < runs.size(); ++h) {
        const RunResult &part = runs[h].result;
        for (auto worker : part.plan.workers) {
            worker.name = places[h].name + " / " + worker.name;
            merged.plan.workers.push_back(std::move(worker));
        }
        merged.startedAt = std::min(merged.startedAt, part.startedAt);
        if (part.engine != merged.engine)
            merged.notices.push_back(fmt::format("{} ran the {} engine, {} the {} engine",
                places[h].name, part.engine, places.front().name, merged.engine));
        mergeOutcome(merged, part, places[h]);
        merged.hosts.push_back({places[h].name, runs[h].rank, runs[h].agent, part.environment,
            part.deviceMap, part.deviceTail});
    }
    for (std::size_t s = 0; s < merged.plan.steps.size(); ++s) {
        const auto parts = stepsAt(runs, s);
        if (std::any_of(parts.begin(), parts.end(), [](const StepResult *p) { return p; }))
            merged.steps.push_back(mergeStep(parts, places));
    }
    merged.intervals = mergeIntervals(runs, places);
    return merged;
}

} // namespace ioprism::core
