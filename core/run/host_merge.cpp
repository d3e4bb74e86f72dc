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

OpError mergeRefused(const std::string &host, std::string detail)
{
    return {std::make_error_code(std::errc::invalid_argument), "merge the hosts' results", host,
        std::move(detail)};
}

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

// ------------------------------------------------------------------------ rates

// The hosts' rates side by side: each host's over its own measured time, added (Iometer's
// "All managers"). Summed in the hosts' order, so that a check summing them the same way
// gets the same bits.
void sumDirectionRates(DirectionFigures &m, const std::vector<const DirectionFigures *> &parts)
{
    m.iops = m.megabytesPerSecond = m.mebibytesPerSecond = 0;
    for (const DirectionFigures *p : parts) {
        m.iops += p->iops;
        m.megabytesPerSecond += p->megabytesPerSecond;
        m.mebibytesPerSecond += p->mebibytesPerSecond;
    }
}

void sumRates(Figures &m, const std::vector<const Figures *> &parts)
{
    std::vector<const DirectionFigures *> reads, writes, totals;
    m.transactionsPerSecond = 0;
    for (const Figures *p : parts) {
        reads.push_back(&p->read);
        writes.push_back(&p->write);
        totals.push_back(&p->total);
        m.transactionsPerSecond += p->transactionsPerSecond;
    }
    sumDirectionRates(m.read, reads);
    sumDirectionRates(m.write, writes);
    sumDirectionRates(m.total, totals);
}

} // namespace

// ------------------------------------------------------------------------ steps

StepResult mergeHostSteps(
    const std::vector<const StepResult *> &parts, const std::vector<HostPlace> &places)
{
    StepResult merged;
    Measurement all;
    bool first = true;
    std::vector<const CpuFigures *> cpus;
    std::vector<const Figures *> figures;
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
        figures.push_back(&hostAll.figures);
        merged.hosts.push_back(
            {part->cpu, part->cpuEffectiveness, part->devices, part->endedByAmount});
        merged.endedByAmount = merged.endedByAmount || part->endedByAmount;
    }
    Figures allFigures = computeFigures(all);
    sumRates(allFigures, figures);
    merged.scopes.push_back({Scope {Scope::Kind::All, -1, -1, "All", {}}, all, allFigures});
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

namespace {

// ------------------------------------------------------------------------ intervals

// The figures of spans side by side (hosts over the same interval): counts and rates
// add, and the latency is exact from `exact` when given.
DirectionFigures sideBySide(
    const std::vector<const DirectionFigures *> &parts, const SparseLatencyHistogram &exact)
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
    sumDirectionRates(m, parts);
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
    for (const IntervalSample *p : parts) {
        const Figures &f = p->scopes.front().figures;
        reads.push_back(&f.read);
        writes.push_back(&f.write);
        totals.push_back(&f.total);
        m.transactionsPerSecond += f.transactionsPerSecond;
        m.inFlightAtEnd += f.inFlightAtEnd;
        // Opens and closes keep no histogram per interval: their percentiles are the
        // larger of the hosts' (an upper bound).
        m.connections = mergeConnections(m.connections, f.connections, m.seconds);
    }
    SparseLatencyHistogram both = read;
    both.merge(write);
    m.read = sideBySide(reads, read);
    m.write = sideBySide(writes, write);
    m.total = sideBySide(totals, both);
    return m;
}

} // namespace

// The k-th interval of a step on every host that has it, side by side.
IntervalSample mergeHostIntervals(
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

namespace {

// Per step, the hosts' intervals in order; the k-th merged over the hosts that have a
// k-th (a host that ended the step earlier, or failed in it, has fewer): every interval
// measured is kept.
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
        std::size_t count = 0;
        for (const auto &samples : hosts)
            count = std::max(count, samples.size());
        for (std::size_t k = 0; k < count; ++k) {
            std::vector<const IntervalSample *> parts(runs.size(), nullptr);
            for (std::size_t h = 0; h < runs.size(); ++h)
                if (k < hosts[h].size())
                    parts[h] = hosts[h][k];
            merged.push_back(mergeHostIntervals(parts, places));
        }
    }
    return merged;
}

// ------------------------------------------------------------------------ the run

void mergeOutcome(RunResult &merged, const HostRun &run, const HostPlace &place)
{
    const RunResult &part = run.result;
    for (const auto &notice : part.notices)
        merged.notices.push_back(place.name + ": " + notice);
    if (part.error && !merged.error)
        merged.error = hostError(*part.error, place.name, run.agent);
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

std::string hostNameOf(const HostRun &run)
{
    return run.name.empty() ? run.result.environment.hostName : run.name;
}

OpError hostError(OpError error, const std::string &name, const std::string &agent)
{
    error.operation
        = "host " + name + (agent.empty() ? "" : " (" + agent + ")") + ": " + error.operation;
    return error;
}

std::vector<HostPlace> hostPlaces(
    const std::vector<std::string> &names, const std::vector<const ResolvedPlan *> &plans)
{
    std::vector<HostPlace> places;
    int workers = 0;
    for (std::size_t h = 0; h < names.size(); ++h) {
        places.push_back({int(h), names[h], workers});
        if (h < plans.size() && plans[h])
            workers += int(plans[h]->workers.size());
    }
    return places;
}

std::optional<OpError> hostPlanMismatch(
    const std::vector<const ResolvedPlan *> &plans, const std::vector<std::string> &names)
{
    const auto planned = [&](std::size_t h) { return plans[h] && !plans[h]->steps.empty(); };
    std::size_t ref = 0;
    while (ref < plans.size() && !planned(ref))
        ++ref;
    for (std::size_t h = ref + 1; h < plans.size(); ++h) {
        if (!planned(h))
            continue;
        const auto &first = plans[ref]->steps;
        const auto &steps = plans[h]->steps;
        if (steps.size() != first.size())
            return mergeRefused(names[h],
                fmt::format(
                    "it planned {} steps, {} planned {}", steps.size(), names[ref], first.size()));
        for (std::size_t s = 0; s < steps.size(); ++s)
            if (steps[s].name != first[s].name)
                return mergeRefused(names[h],
                    fmt::format("its step {} is \"{}\", {}'s is \"{}\"", s + 1, steps[s].name,
                        names[ref], first[s].name));
    }
    return std::nullopt;
}

ResolvedPlan mergeHostPlans(
    const std::vector<const ResolvedPlan *> &plans, const std::vector<HostPlace> &places)
{
    ResolvedPlan merged;
    for (const ResolvedPlan *plan : plans)
        if (plan && !plan->steps.empty()) {
            merged = *plan;
            break;
        }
    if (merged.steps.empty() && !plans.empty() && plans.front())
        merged = *plans.front();
    merged.workers.clear();
    for (std::size_t h = 0; h < plans.size(); ++h) {
        if (!plans[h])
            continue;
        for (auto worker : plans[h]->workers) {
            worker.name = places[h].name + " / " + worker.name;
            merged.workers.push_back(std::move(worker));
        }
    }
    return merged;
}

namespace {

// The hosts of `runs` that are one machine, by host name, each machine with two or more.
std::vector<std::pair<std::string, std::vector<std::size_t>>> sharedMachines(
    const std::vector<HostRun> &runs)
{
    std::vector<std::pair<std::string, std::vector<std::size_t>>> machines;
    for (std::size_t h = 0; h < runs.size(); ++h) {
        const std::string &machine = runs[h].result.environment.hostName;
        if (machine.empty())
            continue;
        auto it = std::find_if(
            machines.begin(), machines.end(), [&](const auto &m) { return m.first == machine; });
        if (it == machines.end())
            machines.push_back({machine, {h}});
        else
            it->second.push_back(h);
    }
    std::erase_if(machines, [](const auto &m) { return m.second.size() < 2; });
    return machines;
}

// Each step's device verdict of the hosts that share a machine, judged against their I/O
// together (mergeHostRuns says why). Only what each host's verdict kept is known here —
// the bytes of each direction — so the write backlog of one step is not carried into the
// next, as a run of one host carries it: a machine's write-back is judged step by step.
void judgeSharedMachines(RunResult &merged, const std::vector<HostRun> &runs,
    const std::vector<HostPlace> &places, const VerdictPolicy &policy)
{
    for (const auto &[machine, members] : sharedMachines(runs)) {
        bool judged = false;
        for (auto &step : merged.steps) {
            if (step.hosts.size() != runs.size())
                continue;
            const DeviceReport &first = step.hosts[members.front()].devices;
            if (!first.available)
                continue;
            VerdictInput together;
            together.deviceReadBytes = first.verdict.read.deviceBytes;
            together.deviceWriteBytes = first.verdict.write.deviceBytes;
            together.seconds = step.measuredSeconds;
            for (const std::size_t h : members) {
                together.appReadBytes += step.hosts[h].devices.verdict.read.appBytes;
                together.appWriteBytes += step.hosts[h].devices.verdict.write.appBytes;
            }
            const DeviceVerdict verdict = judgeDevice(together, policy);
            for (const std::size_t h : members)
                if (step.hosts[h].devices.available)
                    step.hosts[h].devices.verdict = verdict;
            judged = true;
        }
        if (!judged)
            continue;
        std::vector<std::string> names;
        names.reserve(members.size());
        for (const std::size_t h : members)
            names.push_back(places[h].name);
        merged.notices.push_back(fmt::format("{} run on one host, {}: its devices are judged "
                                             "against the I/O of all of them together",
            fmt::join(names, ", "), machine));
    }
}

} // namespace

Result<RunResult> mergeHostRuns(std::vector<HostRun> runs, const VerdictPolicy &policy)
{
    if (runs.empty())
        return mergeRefused({}, "no host's result to merge");
    if (runs.size() == 1)
        return std::move(runs.front().result);
    std::vector<std::string> names;
    std::vector<const ResolvedPlan *> plans;
    for (const auto &run : runs) {
        names.push_back(hostNameOf(run));
        plans.push_back(&run.result.plan);
    }
    if (auto mismatch = hostPlanMismatch(plans, names))
        return *mismatch;
    const std::vector<HostPlace> places = hostPlaces(names, plans);

    const RunResult &first = runs.front().result;
    RunResult merged;
    merged.runId = first.runId;
    merged.plan = mergeHostPlans(plans, places);
    merged.engine = first.engine;
    merged.startedAt = first.startedAt;
    merged.environment = first.environment;
    merged.deviceMap = first.deviceMap;
    merged.deviceTail = first.deviceTail;
    for (std::size_t h = 0; h < runs.size(); ++h) {
        const RunResult &part = runs[h].result;
        merged.startedAt = std::min(merged.startedAt, part.startedAt);
        if (part.timeOriginAt)
            merged.timeOriginAt
                = std::min(merged.timeOriginAt.value_or(*part.timeOriginAt), *part.timeOriginAt);
        if (part.engine != merged.engine && !part.engine.empty())
            merged.notices.push_back(fmt::format("{} ran the {} engine, {} the {} engine",
                places[h].name, part.engine, places.front().name, merged.engine));
        mergeOutcome(merged, runs[h], places[h]);
        const ClockOffset clock = runs[h].clockOffset.value_or(ClockOffset {});
        merged.hosts.push_back({places[h].name, runs[h].rank, runs[h].agent, part.environment,
            part.deviceMap, part.deviceTail, clock.offset.count(), clock.uncertainty.count()});
    }
    for (std::size_t s = 0; s < merged.plan.steps.size(); ++s) {
        std::vector<const StepResult *> parts(runs.size(), nullptr);
        for (std::size_t h = 0; h < runs.size(); ++h)
            for (const auto &step : runs[h].result.steps)
                if (step.step == s)
                    parts[h] = &step;
        if (std::none_of(parts.begin(), parts.end(), [](const StepResult *p) { return p; }))
            continue;
        merged.steps.push_back(mergeHostSteps(parts, places));
        // A host that ended in the middle of the step (it failed, its agent went away)
        // has no totals for it: its intervals are kept, but All is over the others, and
        // the reader must know.
        for (std::size_t h = 0; h < runs.size(); ++h) {
            const auto &intervals = runs[h].result.intervals;
            if (!parts[h] && std::any_of(intervals.begin(), intervals.end(), [s](const auto &i) {
                    return i.step == s;
                }))
                merged.notices.push_back(fmt::format("{} ended during {} without its totals: its "
                                                     "intervals are in the time series; the "
                                                     "step's All is over the other hosts",
                    places[h].name, merged.plan.steps[s].name));
        }
    }
    merged.intervals = mergeIntervals(runs, places);
    judgeSharedMachines(merged, runs, places, policy);
    return merged;
}

} // namespace ioprism::core
