// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/depth.h"

#include <algorithm>

namespace ioprism::core {

bool isDepthCyclingTestType(TestType type)
{
    return type == TestType::CycleOutstandingIos || type == TestType::CycleOutstandingIosAndTargets;
}

bool depthIsSwept(const TestSetup &setup)
{
    if (setup.series)
        return std::any_of(setup.series->axes.begin(), setup.series->axes.end(),
            [](const SweepAxis &a) { return a.parameter == SweepParameter::OutstandingIos; });
    return isDepthCyclingTestType(setup.testType);
}

EffectiveDepth configuredDepth(const AccessSpec *spec, const Worker &worker, const Target *target)
{
    if (spec && spec->queueDepth)
        return {*spec->queueDepth, DepthSource::Spec};
    if (target && target->outstandingIos)
        return {*target->outstandingIos, DepthSource::Target};
    return {worker.outstandingIos, DepthSource::Worker};
}

EffectiveDepth effectiveDepth(
    const TestSetup &setup, const AccessSpec *spec, const Worker &worker, const Target *target)
{
    EffectiveDepth depth = configuredDepth(spec, worker, target);
    if (depthIsSwept(setup))
        depth.source = DepthSource::Swept;
    return depth;
}

void setOutstandingIosEverywhere(Profile &profile, std::uint32_t outstandingIos)
{
    for (auto &host : profile.hosts)
        for (auto &w : host.workers) {
            w.outstandingIos = outstandingIos;
            for (auto &t : w.targets)
                t.outstandingIos.reset();
        }
    for (auto &s : profile.specs)
        s.queueDepth.reset();
}

} // namespace ioprism::core
