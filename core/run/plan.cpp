#include "core/run/plan.h"

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
} // namespace

std::uint32_t RunPlan::outstandingIos(
    const Profile &p, std::size_t w, std::size_t t, std::size_t s) const
{
    const auto &worker = workers.at(w);
    const int spec = worker.specPerStep.at(s);
    if (spec >= 0 && p.specs[std::size_t(spec)].queueDepth)
        return *p.specs[std::size_t(spec)].queueDepth;
    return worker.targets.at(t).outstandingIos;
}

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
    for (const auto &w : host.workers)
        plan.stepCount = std::max(plan.stepCount, w.assignedSpecs.size());

    auto specIndex = [&](const std::string &name) -> int {
        for (std::size_t i = 0; i < profile.specs.size(); ++i)
            if (profile.specs[i].name == name)
                return int(i);
        return -1;
    };

    for (std::size_t wi = 0; wi < host.workers.size(); ++wi) {
        auto &w = host.workers[wi];
        if (!w.seed)
            w.seed = mix(randomSeed + wi);
        std::vector<int> specs(plan.stepCount, -1);
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
            pw.specPerStep = specs;
            // A copy only takes part in steps whose spec asks for that many threads.
            for (auto &s : pw.specPerStep)
                if (s >= 0 && c >= profile.specs[std::size_t(s)].threads.value_or(1))
                    s = -1;
            plan.workers.push_back(std::move(pw));
        }
    }
    if (hasErrors(problems))
        return std::nullopt;

    for (std::size_t s = 0; s < plan.stepCount; ++s) {
        std::vector<std::string> names;
        for (const auto &w : plan.workers)
            if (w.specPerStep[s] >= 0) {
                const auto &n = profile.specs[std::size_t(w.specPerStep[s])].name;
                if (std::find(names.begin(), names.end(), n) == names.end())
                    names.push_back(n);
            }
        std::string label;
        for (const auto &n : names)
            label += (label.empty() ? "" : " + ") + n;
        plan.stepNames.push_back(label);
    }
    return plan;
}

} // namespace ioprism::core
