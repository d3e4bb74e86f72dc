// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/plan.h"

#include "core/profile/depth.h"
#include "core/profile/series.h"
#include "core/profile/sweep_parameter.h"
#include "core/run/cycling.h"
#include "core/workload/rng.h"

#include <algorithm>
#include <map>

namespace ioprism::core {

namespace {
// splitmix64 (core/workload/rng.h): spreads one seed into independent per-worker seeds.
std::uint64_t mix(std::uint64_t x)
{
    return splitMix64Next(x);
}

// Copy `copy` of a worker runs `spec` at a spec index when the spec asks for that many
// threads (or the series point for that many workers): else -1.
int specOfCopy(const Profile &profile, int spec, std::uint32_t copy,
    std::optional<std::uint64_t> workers = std::nullopt)
{
    if (spec < 0)
        return -1;
    const std::uint64_t copies
        = workers.value_or(profile.specs[std::size_t(spec)].threads.value_or(1));
    return copy < copies ? spec : -1;
}

// The depth a target runs at unless cycling or a series sets one (core/profile/depth.h):
// the spec's queue depth (CrystalDiskMark's Q32), else the target's or its worker's.
std::uint32_t stepDepth(const RunPlan &plan, int spec, const Worker &worker, const PlannedTarget &t)
{
    return core::configuredDepth(
        spec >= 0 ? &plan.specs[std::size_t(spec)] : nullptr, worker, &t.target)
        .outstandingIos;
}

// Adds a step: each worker's spec (-1: idle) and target depths (0: not used); a worker
// with no target in use idles. Names the step after the specs its workers run.
void pushStep(RunPlan &plan, std::vector<int> specs, std::vector<std::vector<std::uint32_t>> depths,
    PlannedStep step)
{
    std::vector<std::string> names;
    for (std::size_t w = 0; w < plan.workers.size(); ++w) {
        const bool used = std::any_of(
            depths[w].begin(), depths[w].end(), [](std::uint32_t d) { return d > 0; });
        if (!used)
            specs[w] = -1;
        plan.workers[w].specPerStep.push_back(specs[w]);
        plan.workers[w].depthPerStep.push_back(std::move(depths[w]));
        step.workers += specs[w] >= 0 ? 1 : 0;
        if (specs[w] >= 0) {
            const auto &n = plan.specs[std::size_t(specs[w])].name;
            if (std::find(names.begin(), names.end(), n) == names.end())
                names.push_back(n);
        }
    }
    for (const auto &n : names)
        step.specName += (step.specName.empty() ? "" : " + ") + n;
    if (names.empty()) // every worker idles: Iometer's pause
        step.specName = std::string(kIdleSpecName);
    step.name = step.cycle.empty() ? step.specName : step.specName + ", " + step.cycle;
    plan.steps.push_back(std::move(step));
}

// The steps of spec index `index` in an Iometer test: one per cycling step
// (core/run/cycling.h), each with every worker's spec and target depths.
void addCyclingSteps(RunPlan &plan, const Profile &profile,
    const std::vector<std::vector<int>> &specAt, std::size_t index, bool idleAssigned)
{
    std::vector<CyclingWorker> workers;
    std::vector<int> specs;
    for (std::size_t w = 0; w < plan.workers.size(); ++w) {
        const PlannedWorker &pw = plan.workers[w];
        const Worker &source = profile.hosts[0].workers[pw.profileWorker];
        // A network worker's targets are network endpoints, which IOPrism does not
        // drive yet: it idles in every test type rather than do disk I/O.
        const int spec = source.type == WorkerType::Network
            ? -1
            : specOfCopy(profile, specAt[w][index], pw.copyIndex);
        CyclingWorker cw;
        // Iometer's Normal() and the cycling functions alike take only workers with a
        // spec here and a target: an index where nobody else runs is no step (unless a
        // worker is Idle there, below).
        cw.eligible = spec >= 0 && source.type == WorkerType::Disk && !pw.targets.empty();
        for (const auto &t : pw.targets)
            cw.depths.push_back(stepDepth(plan, spec, source, t));
        workers.push_back(std::move(cw));
        specs.push_back(spec);
    }
    auto steps = cyclingSteps(profile.setup, workers);
    // Iometer's CalcRunCount: a spec index where nobody runs is still one run when a
    // worker was set Idle there on purpose, a pause of the run time (with no Idle, the
    // index is skipped).
    if (steps.empty() && idleAssigned) {
        CyclingStep pause;
        for (const auto &w : workers)
            pause.depths.emplace_back(w.depths.size(), 0u);
        steps.push_back(std::move(pause));
    }
    for (auto &step : steps) {
        PlannedStep planned;
        planned.specIndex = index;
        planned.cycle = step.label;
        pushStep(plan, specs, std::move(step.depths), std::move(planned));
    }
}

// `spec` with a series point's values set on every line, as an index into plan.specs
// (the same variant is kept once).
// Variants already made, by base spec and the point's values: a matrix of 1000 x 100
// points must not compare every new variant with every earlier one.
using VariantIndex = std::map<std::pair<int, std::vector<std::uint64_t>>, int>;

int specVariant(RunPlan &plan, VariantIndex &made, int spec, const std::vector<SweepAxis> &axes,
    const std::vector<std::uint64_t> &values)
{
    auto [found, added] = made.try_emplace({spec, values}, -1);
    if (!added)
        return found->second;
    AccessSpec variant = plan.specs[std::size_t(spec)];
    for (std::size_t a = 0; a < axes.size(); ++a)
        for (auto &line : variant.lines)
            switch (sweepTraits(axes[a].parameter).field) {
            case SweepField::LineTransferSize:
                // A line aligned on its transfer size (Iometer's default) stays so.
                if (line.alignmentBytes == line.transferSizeBytes)
                    line.alignmentBytes = values[a];
                line.transferSizeBytes = values[a];
                break;
            case SweepField::LinePercentRead:
                line.percentRead = std::uint32_t(values[a]);
                break;
            case SweepField::LinePercentRandom:
                line.percentRandom = std::uint32_t(values[a]);
                break;
            case SweepField::TargetDepth: // addSeriesPoint sets the depths
            case SweepField::WorkerCopies: // and the copies of each worker
            case SweepField::TargetZone: // and the step its region (positionZone)
                break;
            }
    if (variant == plan.specs[std::size_t(spec)]) // the point is the spec as it is
        return found->second = spec;
    plan.specs.push_back(std::move(variant));
    return found->second = int(plan.specs.size() - 1);
}

std::optional<std::uint64_t> valueOf(const std::vector<SweepAxis> &axes,
    const std::vector<std::uint64_t> &values, SweepParameter parameter)
{
    for (std::size_t a = 0; a < axes.size(); ++a)
        if (axes[a].parameter == parameter)
            return values[a];
    return std::nullopt;
}

// The distinct targets of the workers that run a spec at `index`, in order (a series'
// targets in turn): a target no such worker uses would make an empty step.
std::vector<std::string> distinctTargets(
    const RunPlan &plan, const std::vector<std::vector<int>> &specAt, std::size_t index)
{
    std::vector<std::string> paths;
    for (std::size_t w = 0; w < plan.workers.size(); ++w)
        if (specAt[w][index] >= 0)
            for (const auto &t : plan.workers[w].targets)
                if (std::find(paths.begin(), paths.end(), t.target.path) == paths.end())
                    paths.push_back(t.target.path);
    return paths;
}

// One step of a series: every worker at this point's values (on one target in turn,
// or all).
void addSeriesPoint(RunPlan &plan, VariantIndex &made, const Profile &profile,
    const std::vector<std::vector<int>> &specAt, std::size_t index,
    const std::vector<std::uint64_t> &values, StepPoint point)
{
    const Series &series = *profile.setup.series;
    const auto workers = valueOf(series.axes, values, SweepParameter::Workers);
    const auto depth = valueOf(series.axes, values, SweepParameter::OutstandingIos);
    std::vector<int> specs;
    std::vector<std::vector<std::uint32_t>> depths;
    for (std::size_t w = 0; w < plan.workers.size(); ++w) {
        const PlannedWorker &pw = plan.workers[w];
        int spec = specOfCopy(profile, specAt[w][index], pw.copyIndex, workers);
        if (spec >= 0)
            spec = specVariant(plan, made, spec, series.axes, values);
        auto &row = depths.emplace_back();
        for (const auto &t : pw.targets)
            row.push_back(spec < 0 || (!point.target.empty() && t.target.path != point.target) ? 0
                    : depth ? std::uint32_t(*depth)
                            : stepDepth(plan, spec, profile.hosts[0].workers[pw.profileWorker], t));
        specs.push_back(spec);
    }
    PlannedStep step;
    step.specIndex = index;
    for (std::size_t a = 0; a < values.size(); ++a)
        step.cycle += (a ? ", " : "") + describeSweepValue(series.axes[a].parameter, values[a]);
    if (!point.target.empty())
        step.cycle += " on " + point.target;
    if (series.repeat > 1)
        step.cycle
            += ", trial " + std::to_string(point.trial + 1) + "/" + std::to_string(series.repeat);
    point.values = values;
    step.point = std::move(point);
    step.ioLimit = series.ios;
    step.workerStagger = series.workerStagger;
    // A point no worker takes part in (none of them on this target) is no step.
    bool any = false;
    for (const auto &row : depths)
        any = any || std::any_of(row.begin(), row.end(), [](std::uint32_t d) { return d > 0; });
    if (any)
        pushStep(plan, std::move(specs), std::move(depths), std::move(step));
}

// The steps of spec index `index` in a series: every trial of every point (the first
// axis outer), each point on every target in turn when asked.
void addSeriesSteps(RunPlan &plan, const Profile &profile,
    const std::vector<std::vector<int>> &specAt, std::size_t index)
{
    const Series &series = *profile.setup.series;
    std::vector<std::vector<std::uint64_t>> grid {{}};
    for (const auto &axis : series.axes) {
        std::vector<std::vector<std::uint64_t>> next;
        for (const auto &prefix : grid)
            for (auto v : sweepValues(axis)) {
                next.push_back(prefix);
                next.back().push_back(v);
            }
        grid = std::move(next);
    }
    const std::vector<std::string> turns = series.targetsInTurn
        ? distinctTargets(plan, specAt, index)
        : std::vector<std::string> {""};
    VariantIndex made;
    for (std::uint32_t trial = 0; trial < std::max<std::uint32_t>(series.repeat, 1); ++trial) {
        std::size_t pointIndex = 0;
        for (const auto &values : grid)
            for (const auto &turn : turns)
                addSeriesPoint(plan, made, profile, specAt, index, values,
                    {.index = pointIndex++, .trial = trial, .values = {}, .target = turn});
    }
}

// A series over workers runs up to its largest value of copies of each worker; 1 without.
std::uint32_t seriesCopies(const Profile &profile)
{
    std::uint32_t copies = 1;
    if (profile.setup.series)
        for (const auto &axis : profile.setup.series->axes)
            if (sweepTraits(axis.parameter).field == SweepField::WorkerCopies)
                for (auto v : sweepValues(axis))
                    copies = std::max(copies, std::uint32_t(std::min<std::uint64_t>(v, 1024)));
    return copies;
}

// Worker `wi`'s copies in the plan, each with its targets; `specs` is its spec at each
// spec index (every copy has the same: which copies run is the step's choice,
// specOfCopy).
void addWorkerCopies(RunPlan &plan, std::vector<std::vector<int>> &specAt, const Worker &w,
    std::size_t wi, const std::vector<int> &specs, std::uint32_t copies)
{
    for (std::uint32_t c = 0; c < copies; ++c) {
        PlannedWorker pw;
        pw.name = c == 0 ? w.name : w.name + " #" + std::to_string(c + 1);
        pw.profileWorker = wi;
        pw.copyIndex = c;
        pw.seed = c == 0 ? *w.seed : mix(*w.seed + c);
        pw.dataPattern = w.dataPattern;
        pw.cpuAffinity = w.cpuAffinity;
        for (const auto &t : w.targets) {
            PlannedTarget planned {t, core::configuredDepth(nullptr, w, &t).outstandingIos};
            // A target without a region of its own runs on the worker's (Iometer's
            // per-worker disk size and starting sector).
            if (t.region == Region {})
                planned.target.region = w.defaultRegion;
            pw.targets.push_back(std::move(planned));
        }
        specAt.push_back(specs);
        plan.workers.push_back(std::move(pw));
    }
}

// CrystalDiskMark's passes: each step `passes` times in a row, each pass named (Iometer's
// pause too, so that every test has its passes).
void repeatPasses(RunPlan &plan, std::uint32_t passes)
{
    if (passes <= 1)
        return;
    std::vector<PlannedStep> steps;
    std::vector<std::vector<int>> specs(plan.workers.size());
    std::vector<std::vector<std::vector<std::uint32_t>>> depths(plan.workers.size());
    for (std::size_t s = 0; s < plan.steps.size(); ++s)
        for (std::uint32_t pass = 0; pass < passes; ++pass) {
            PlannedStep step = plan.steps[s];
            step.pass = pass;
            // A cycling step's point has its passes as trials (the Series view's median).
            if (step.point)
                step.point->trial = pass;
            step.cycle += (step.cycle.empty() ? "" : ", ") + std::string("pass ")
                + std::to_string(pass + 1) + "/" + std::to_string(passes);
            step.name = step.specName + ", " + step.cycle;
            steps.push_back(std::move(step));
            for (std::size_t w = 0; w < plan.workers.size(); ++w) {
                specs[w].push_back(plan.workers[w].specPerStep[s]);
                depths[w].push_back(plan.workers[w].depthPerStep[s]);
            }
        }
    plan.steps = std::move(steps);
    for (std::size_t w = 0; w < plan.workers.size(); ++w) {
        plan.workers[w].specPerStep = std::move(specs[w]);
        plan.workers[w].depthPerStep = std::move(depths[w]);
    }
}

} // namespace

std::optional<RunPlan> makeRunPlan(
    const Profile &profile, std::uint64_t randomSeed, Problems &problems)
{
    if (profile.hosts.empty() || profile.hosts[0].workers.empty()) {
        problems.push_back({Severity::Error, "hosts", "no workers: add a worker"});
        return std::nullopt;
    }
    for (std::size_t h = 1; h < profile.hosts.size(); ++h)
        problems.push_back({Severity::Warning, "hosts[" + std::to_string(h) + "]",
            "only the local host runs; \"" + profile.hosts[h].name + "\" is ignored"});

    RunPlan plan;
    plan.effectiveProfile = profile;
    auto &host = plan.effectiveProfile.hosts[0];
    std::size_t specIndexCount = 0;
    for (const auto &w : host.workers)
        specIndexCount = std::max(specIndexCount, w.assignedSpecs.size());

    auto specIndex = [&](const std::string &name) -> int {
        for (std::size_t i = 0; i < profile.specs.size(); ++i)
            if (profile.specs[i].name == name)
                return int(i);
        return -1;
    };

    // Per planned worker: the spec its worker runs at each spec index (-1: idle).
    std::vector<std::vector<int>> specAt;
    // Spec indexes where a worker of this host is assigned Idle (a pause if nobody runs).
    std::vector<bool> idleAt(specIndexCount, false);
    for (std::size_t wi = 0; wi < host.workers.size(); ++wi) {
        auto &w = host.workers[wi];
        if (!w.seed)
            w.seed = mix(randomSeed + wi);
        std::vector<int> specs(specIndexCount, -1);
        std::uint32_t copies = 1;
        for (std::size_t s = 0; s < w.assignedSpecs.size(); ++s) {
            const int idx = specIndex(w.assignedSpecs[s]);
            if (idx < 0 && isIdleSpec(profile, w.assignedSpecs[s])) {
                idleAt[s] = true;
                continue; // idle at this spec index
            }
            if (idx < 0) {
                problems.push_back({Severity::Error,
                    "hosts[0].workers[" + std::to_string(wi) + "].specs[" + std::to_string(s) + "]",
                    "\"" + w.assignedSpecs[s] + "\" is not a defined access specification"});
                continue;
            }
            specs[s] = idx;
            copies = std::max(copies, profile.specs[std::size_t(idx)].threads.value_or(1));
        }
        addWorkerCopies(plan, specAt, w, wi, specs, std::max(copies, seriesCopies(profile)));
    }
    if (hasErrors(problems))
        return std::nullopt;
    plan.specs = profile.specs;
    for (std::size_t i = 0; i < specIndexCount; ++i) {
        if (profile.setup.series)
            addSeriesSteps(plan, profile, specAt, i);
        else
            addCyclingSteps(plan, profile, specAt, i, idleAt[i]);
    }
    // The plan is the one home of each cycling step's point: the GUI's Series view and
    // the reader of older files take it from here rather than count steps again.
    setCyclingPoints(profile.setup, plan.steps);
    repeatPasses(plan, profile.setup.passesPerTest());
    return plan;
}

std::optional<SweepParameter> cyclingAxis(const TestSetup &setup)
{
    if (setup.series)
        return std::nullopt;
    switch (setup.testType) {
    case TestType::CycleOutstandingIos:
        return SweepParameter::OutstandingIos;
    case TestType::CycleWorkers:
        return SweepParameter::Workers;
    case TestType::Normal:
    case TestType::CycleTargets:
    case TestType::IncrementTargetsParallel:
    case TestType::IncrementTargetsSerial:
    case TestType::CycleWorkersAndTargets:
    case TestType::CycleOutstandingIosAndTargets: // two axes, each step of its own
        break;
    }
    return std::nullopt;
}

void setCyclingPoints(const TestSetup &setup, std::vector<PlannedStep> &steps)
{
    const auto axis = cyclingAxis(setup);
    if (!axis)
        return;
    // The Nth step of a spec index runs the Nth depth (cyclingSteps: one step per depth,
    // in order, the counters starting again at each index).
    const std::vector<std::uint32_t> depths = queueDepthValues(setup.queueDepthCycling);
    std::map<std::size_t, std::size_t> seen; // spec index -> its cycling steps so far
    for (auto &step : steps) {
        // A pause (its cycle is its pass alone, "pass 2/5", with passes), or a step an old
        // file does not describe.
        if (step.cycle.empty() || step.specName == kIdleSpecName)
            continue;
        const std::size_t k = seen[step.specIndex]++;
        const std::uint64_t value = *axis == SweepParameter::OutstandingIos
            ? (k < depths.size() ? depths[k] : 0)
            : step.workers;
        if (value == 0 || step.point)
            continue;
        step.point = StepPoint {.index = k, .trial = 0, .values = {value}, .target = {}};
    }
}

std::vector<PlannedStep> plannedSteps(const Profile &profile)
{
    Problems problems;
    auto plan = makeRunPlan(profile, 0, problems);
    return plan ? std::move(plan->steps) : std::vector<PlannedStep> {};
}

} // namespace ioprism::core
