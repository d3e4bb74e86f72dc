// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/precondition.h"

#include "core/profile/units.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <tuple>

namespace ioprism::core {

namespace {

// What preconditioning writes is a target's region: workers with the same path but
// their own regions (Iometer's per-worker slices of one disk) write each their own.
using RegionKey = std::tuple<std::string, std::uint64_t, std::uint64_t>;
RegionKey regionKey(const ResolvedTarget &t)
{
    return {t.target.path, t.region.offsetBytes, t.region.sizeBytes};
}

// The I/Os that move `multiple` x `bytes` in transfers of `transfer` bytes, at least one.
std::uint64_t iosFor(double multiple, std::uint64_t bytes, double transfer)
{
    const double ios = std::ceil(multiple * double(bytes) / std::max(transfer, 1.0));
    return ios >= 1.8e19 ? UINT64_MAX : std::max<std::uint64_t>(1, std::uint64_t(ios));
}

// A spec's mean transfer size over its lines' shares (a reply counts as a transfer).
double meanTransferBytes(const AccessSpec &spec)
{
    double weighted = 0, shares = 0;
    for (const SpecLine &l : spec.lines) {
        weighted += double(l.sharePercent) * double(l.transferSizeBytes);
        shares += l.sharePercent;
    }
    return shares > 0 ? weighted / shares : 0;
}

AccessSpec sequentialWrites()
{
    AccessSpec spec;
    spec.name = "Preconditioning 128K SEQ write";
    SpecLine line;
    line.transferSizeBytes = kPreconditionTransferBytes;
    line.sharePercent = 100;
    line.percentRead = 0;
    line.percentRandom = 0;
    line.alignmentBytes = 0; // the device's sector: sequential from the region's start
    spec.lines.push_back(line);
    spec.queueDepth = kPreconditionQueueDepth;
    return spec;
}

} // namespace

std::string preconditionName(const PreconditionSetup &p)
{
    if (p.kind == PreconditionKind::Sequential)
        return fmt::format(
            "Preconditioning: 128 KiB sequential writes, {:g}x capacity", p.capacityMultiple);
    if (p.forATime())
        return fmt::format("Preconditioning: the workload for {}", formatDuration(p.time));
    return fmt::format("Preconditioning: the workload, {:g}x capacity", p.capacityMultiple);
}

std::variant<PreconditionStep, std::string> preconditionStep(
    const ResolvedPlan &plan, const TestSetup &setup)
{
    const PreconditionSetup &p = *setup.precondition;
    PreconditionStep pre;
    pre.setup = setup;
    pre.setup.rampUp = std::chrono::seconds(0);
    pre.setup.runTime = p.kind == PreconditionKind::Workload ? p.time : std::chrono::seconds(0);
    pre.setup.steadyState.reset();
    pre.setup.series.reset(); // its step is no point of a series
    pre.plan.profile = plan.profile;
    pre.plan.specs = plan.specs;
    PlannedStep step;
    step.name = preconditionName(p);
    const bool byCapacity = !p.forATime();

    // Which worker writes each target: the first that has it (sequential), or every
    // worker that uses it in the first step (workload), and how many share it.
    std::map<RegionKey, std::uint32_t> sharers;
    if (p.kind == PreconditionKind::Workload) {
        if (plan.steps.empty())
            return std::string("the run has no step whose workload could precondition");
        for (const ResolvedWorker &w : plan.workers)
            if (w.specPerStep.at(0) >= 0)
                for (std::size_t t = 0; t < w.targets.size(); ++t)
                    if (w.outstandingIos.at(0).at(t) > 0)
                        ++sharers[regionKey(w.targets[t])];
        if (sharers.empty())
            return "the first step (" + plan.steps.front().name
                + ") does no I/O: there is no workload to precondition with";
        step.specName = plan.steps.front().specName;
        step.specIndex = plan.steps.front().specIndex;
    } else {
        pre.plan.specs.push_back(sequentialWrites());
        step.specName = pre.plan.specs.back().name;
        step.specIndex = 0;
    }
    const int sequentialSpec = int(pre.plan.specs.size()) - 1;

    std::map<RegionKey, bool> written;
    for (const ResolvedWorker &w : plan.workers) {
        ResolvedWorker &pw = pre.plan.workers.emplace_back(w);
        auto &limits = pre.ioLimits.emplace_back(w.targets.size(), 0);
        std::vector<std::uint32_t> depths(w.targets.size(), 0);
        int spec = -1;
        for (std::size_t t = 0; t < w.targets.size(); ++t) {
            const ResolvedTarget &rt = w.targets[t];
            const std::uint64_t region = rt.region.sizeBytes;
            if (p.kind == PreconditionKind::Sequential) {
                if (written[regionKey(rt)])
                    continue;
                written[regionKey(rt)] = true;
                // Whole transfers from the region's start: a tail shorter than one is
                // not written, and a region shorter than one cannot be.
                if (region < kPreconditionTransferBytes)
                    return fmt::format("{}: its region of {} is smaller than one 128 KiB "
                                       "preconditioning write",
                        rt.target.path, describeExactSize(region));
                spec = sequentialSpec;
                depths[t] = kPreconditionQueueDepth;
                limits[t] = iosFor(p.capacityMultiple, region, double(kPreconditionTransferBytes));
                pre.plannedBytes += limits[t] * kPreconditionTransferBytes;
            } else {
                if (w.specPerStep.at(0) < 0 || w.outstandingIos.at(0).at(t) == 0)
                    continue;
                spec = w.specPerStep[0];
                depths[t] = w.outstandingIos[0][t];
                if (byCapacity) {
                    const double mean = meanTransferBytes(pre.plan.specs.at(std::size_t(spec)));
                    limits[t]
                        = iosFor(p.capacityMultiple / double(sharers[regionKey(rt)]), region, mean);
                    pre.plannedBytes += std::uint64_t(double(limits[t]) * mean);
                }
            }
            step.ioLimit = std::max(step.ioLimit, limits[t]);
        }
        pw.specPerStep = {spec};
        pw.outstandingIos = {spec >= 0 ? depths : std::vector<std::uint32_t>(depths.size(), 0)};
        if (spec >= 0)
            ++step.workers;
    }
    pre.plan.steps = {step};
    return pre;
}

} // namespace ioprism::core
