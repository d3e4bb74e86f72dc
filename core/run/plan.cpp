#include "core/run/plan.h"

#include "core/run/cycling.h"

#include <algorithm>

namespace ioprism::core {

namespace {
// splitmix64: spreads one seed into independent per-worker seeds.
std::uint64_t mix(std::uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// The steps of spec index `index`: one per cycling step (core/run/cycling.h), each with
// every worker's spec and target depths, named after the specs its workers run.
void addSteps(RunPlan &plan, const Profile &profile, const std::vector<std::vector<int>> &specAt,
    std::size_t index)
{
    const bool normal = profile.setup.testType == TestType::Normal;
    std::vector<CyclingWorker> workers;
    for (std::size_t w = 0; w < plan.workers.size(); ++w) {
        const PlannedWorker &pw = plan.workers[w];
        const int spec = specAt[w][index];
        const Worker &source = profile.hosts[0].workers[pw.profileWorker];
        CyclingWorker cw;
        cw.eligible
            = spec >= 0 && (normal || (source.type == WorkerType::Disk && !pw.targets.empty()));
        for (const auto &t : pw.targets)
            cw.depths.push_back(spec >= 0 && profile.specs[std::size_t(spec)].queueDepth
                    ? *profile.specs[std::size_t(spec)].queueDepth
                    : t.outstandingIos);
        workers.push_back(std::move(cw));
    }
    for (auto &step : cyclingSteps(profile.setup, workers)) {
        std::vector<std::string> names;
        for (std::size_t w = 0; w < plan.workers.size(); ++w) {
            const auto &depths = step.depths[w];
            const bool active
                = std::any_of(depths.begin(), depths.end(), [](std::uint32_t d) { return d > 0; })
                || (normal && specAt[w][index] >= 0 && depths.empty());
            const int spec = active ? specAt[w][index] : -1;
            plan.workers[w].specPerStep.push_back(spec);
            plan.workers[w].depthPerStep.push_back(std::move(step.depths[w]));
            if (spec >= 0) {
                const auto &n = profile.specs[std::size_t(spec)].name;
                if (std::find(names.begin(), names.end(), n) == names.end())
                    names.push_back(n);
            }
        }
        PlannedStep planned;
        for (const auto &n : names)
            planned.specName += (planned.specName.empty() ? "" : " + ") + n;
        planned.specIndex = index;
        planned.cycle = step.label;
        planned.name
            = planned.cycle.empty() ? planned.specName : planned.specName + ", " + planned.cycle;
        plan.steps.push_back(std::move(planned));
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

    // Per planned worker: the spec it runs at each spec index (-1: idle).
    std::vector<std::vector<int>> specAt;
    for (std::size_t wi = 0; wi < host.workers.size(); ++wi) {
        auto &w = host.workers[wi];
        if (!w.seed)
            w.seed = mix(randomSeed + wi);
        std::vector<int> specs(specIndexCount, -1);
        std::uint32_t copies = 1;
        for (std::size_t s = 0; s < w.assignedSpecs.size(); ++s) {
            const int idx = specIndex(w.assignedSpecs[s]);
            if (idx < 0) {
                problems.push_back({Severity::Error,
                    "hosts[0].workers[" + std::to_string(wi) + "].specs[" + std::to_string(s) + "]",
                    "\"" + w.assignedSpecs[s] + "\" is not a defined access specification"});
                continue;
            }
            specs[s] = idx;
            copies = std::max(copies, profile.specs[std::size_t(idx)].threads.value_or(1));
        }
        for (std::uint32_t c = 0; c < copies; ++c) {
            PlannedWorker pw;
            pw.name = c == 0 ? w.name : w.name + " #" + std::to_string(c + 1);
            pw.profileWorker = wi;
            pw.copyIndex = c;
            pw.seed = c == 0 ? *w.seed : mix(*w.seed + c);
            pw.dataPattern = w.dataPattern;
            pw.cpuAffinity = w.cpuAffinity;
            for (const auto &t : w.targets) {
                PlannedTarget planned {t, t.outstandingIos.value_or(w.outstandingIos)};
                // A target without a region of its own runs on the worker's (Iometer's
                // per-worker disk size and starting sector).
                if (t.region == Region {})
                    planned.target.region = w.defaultRegion;
                pw.targets.push_back(std::move(planned));
            }
            // A copy only takes part in steps whose spec asks for that many threads.
            std::vector<int> mine = specs;
            for (auto &s : mine)
                if (s >= 0 && c >= profile.specs[std::size_t(s)].threads.value_or(1))
                    s = -1;
            specAt.push_back(std::move(mine));
            plan.workers.push_back(std::move(pw));
        }
    }
    if (hasErrors(problems))
        return std::nullopt;
    for (std::size_t i = 0; i < specIndexCount; ++i)
        addSteps(plan, profile, specAt, i);
    return plan;
}

std::vector<PlannedStep> plannedSteps(const Profile &profile)
{
    Problems problems;
    auto plan = makeRunPlan(profile, 0, problems);
    return plan ? std::move(plan->steps) : std::vector<PlannedStep> {};
}

} // namespace ioprism::core
