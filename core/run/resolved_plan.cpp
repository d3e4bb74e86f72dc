// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/resolved_plan.h"

#include "core/profile/units.h"

#include <algorithm>
#include <fmt/format.h>
#include <system_error>

namespace ioprism::core {

const AccessSpec *ResolvedPlan::specOf(std::size_t worker, std::size_t step) const
{
    if (worker >= workers.size() || step >= workers[worker].specPerStep.size())
        return nullptr;
    const int spec = workers[worker].specPerStep[step];
    return spec >= 0 && std::size_t(spec) < specs.size() ? &specs[std::size_t(spec)] : nullptr;
}

std::vector<TargetInfo> ResolvedPlan::targetInfos() const
{
    std::vector<TargetInfo> infos;
    for (const auto &w : workers)
        for (const auto &t : w.targets)
            infos.push_back(t.info);
    return infos;
}

namespace {

// The size I/O may use: a test file as asked (or smaller, when an existing file could
// not grow); a device or partition whole.
std::uint64_t usableSize(const ResolvedTarget &t)
{
    return t.target.kind == TargetKind::TestFile
        ? std::min(t.info.sizeBytes, t.target.testFileSizeBytes)
        : t.info.sizeBytes;
}

// Problems with direct-I/O alignment of one line on one target, as "field: message"
// or "". `linePath` is the line's field path ("specs[1].lines[0]"), so that the refusal
// names the field like every other validation message.
std::string alignmentProblem(const SpecLine &line, const std::string &linePath,
    const std::string &regionPath, const TargetInfo &info, const Region &region)
{
    const std::uint64_t a = info.directIoOffsetAlignBytes;
    const std::string rule = " is not a multiple of the direct-I/O alignment "
        + describeExactSize(a) + " of " + info.path;
    if (line.transferSizeBytes % a)
        return linePath + ".transferSize: " + describeExactSize(line.transferSizeBytes) + rule
            + " (use a multiple of it, or buffered mode)";
    if (line.alignmentBytes % a)
        return linePath + ".alignment: " + describeExactSize(line.alignmentBytes) + rule;
    if (line.replySizeBytes % a)
        return linePath + ".reply: " + describeExactSize(line.replySizeBytes) + rule;
    if (region.offsetBytes % a)
        return regionPath + ".offset: " + describeExactSize(region.offsetBytes) + rule;
    return {};
}

} // namespace

ResolvedPlan describePlan(
    const RunPlan &plan, const std::function<TargetInfo(const std::string &path)> &infoOf)
{
    ResolvedPlan r;
    r.profile = plan.effectiveProfile;
    r.steps = plan.steps;
    r.specs = plan.specs;
    for (std::size_t wi = 0; wi < plan.workers.size(); ++wi) {
        const auto &pw = plan.workers[wi];
        ResolvedWorker w;
        w.name = pw.name;
        w.profileWorker = pw.profileWorker;
        w.copyIndex = pw.copyIndex;
        w.seed = pw.seed;
        w.dataPattern = pw.dataPattern;
        w.cpuAffinity = pw.cpuAffinity;
        w.specPerStep = pw.specPerStep;
        for (const auto &pt : pw.targets) {
            ResolvedTarget t {pt.target, infoOf(pt.target.path), pt.target.region};
            const std::uint64_t size = usableSize(t);
            if (t.region.sizeBytes == 0 && t.region.offsetBytes < size)
                t.region.sizeBytes = size - t.region.offsetBytes;
            w.targets.push_back(std::move(t));
        }
        w.outstandingIos = pw.depthPerStep;
        r.workers.push_back(std::move(w));
    }
    return r;
}

namespace {

std::string regionPathOf(const ResolvedWorker &w, std::size_t ti)
{
    return "hosts[0].workers[" + std::to_string(w.profileWorker) + "].targets[" + std::to_string(ti)
        + "].region";
}

// A region is the user's statement of where I/O may land: one that does not fit is
// refused, never silently shortened.
std::optional<OpError> regionProblem(const ResolvedWorker &w, std::size_t ti)
{
    const auto invalid = std::make_error_code(std::errc::invalid_argument);
    const ResolvedTarget &t = w.targets[ti];
    const std::uint64_t size = usableSize(t);
    const Region &asked = t.target.region;
    const std::string regionPath = regionPathOf(w, ti);
    if (asked.offsetBytes >= size)
        return OpError {invalid, "check region", t.info.path,
            regionPath + ": offset " + describeExactSize(asked.offsetBytes)
                + " is beyond the end of the target (" + describeExactSize(size) + ")"};
    if (asked.sizeBytes > size - asked.offsetBytes)
        return OpError {invalid, "check region", t.info.path,
            regionPath + ": offset " + describeExactSize(asked.offsetBytes) + " + size "
                + describeExactSize(asked.sizeBytes) + " ends "
                + describeExactSize(asked.offsetBytes + asked.sizeBytes - size)
                + " beyond the end of the target (" + describeExactSize(size)
                + "): make it fit, or give size 0 for \"to the end\""};
    return std::nullopt;
}

// The first line of a step's spec that target `ti` of worker `w` cannot run (a transfer
// larger than its region, direct I/O off its alignment), or nullopt; nothing when the
// worker idles in the step or does not use the target in it.
std::optional<OpError> stepProblem(
    const ResolvedPlan &plan, const ResolvedWorker &w, std::size_t ti, std::size_t step)
{
    if (step >= w.specPerStep.size() || w.specPerStep[step] < 0 || w.outstandingIos[step][ti] == 0)
        return std::nullopt;
    const ResolvedTarget &t = w.targets[ti];
    const std::string regionPath = regionPathOf(w, ti);
    const std::size_t si = std::size_t(w.specPerStep[step]);
    const auto &spec = plan.specs[si];
    for (std::size_t li = 0; li < spec.lines.size(); ++li) {
        const auto &line = spec.lines[li];
        // A series' variant of a spec is named by the series and its line.
        const std::string linePath = si < plan.profile.specs.size()
            ? "specs[" + std::to_string(si) + "].lines[" + std::to_string(li) + "]"
            : "setup.series (step \"" + plan.steps[step].name + "\", line " + std::to_string(li + 1)
                + ")";
        const auto tooLarge = [&](const char *field, std::uint64_t bytes) {
            return fmt::format("{}.{}: {} is larger than the region {} of {} ({})", linePath, field,
                describeExactSize(bytes), describeExactSize(t.region.sizeBytes), t.info.path,
                regionPath);
        };
        std::string problem;
        if (line.transferSizeBytes > t.region.sizeBytes)
            problem = tooLarge("transferSize", line.transferSizeBytes);
        else if (line.replySizeBytes > t.region.sizeBytes)
            problem = tooLarge("reply", line.replySizeBytes);
        else if (t.target.cacheMode == CacheMode::Direct)
            problem = alignmentProblem(line, linePath, regionPath, t.info, t.region);
        if (!problem.empty())
            return OpError {{}, "check alignment", t.info.path, problem};
    }
    return std::nullopt;
}

std::optional<OpError> stepProblem(const ResolvedPlan &plan, std::size_t step)
{
    for (const auto &w : plan.workers)
        for (std::size_t ti = 0; ti < w.targets.size(); ++ti)
            if (auto problem = stepProblem(plan, w, ti, step))
                return problem;
    return std::nullopt;
}

} // namespace

std::optional<OpError> checkPlan(const ResolvedPlan &plan)
{
    for (const auto &w : plan.workers)
        for (std::size_t ti = 0; ti < w.targets.size(); ++ti)
            if (auto problem = regionProblem(w, ti))
                return problem;
    for (std::size_t step = 0; step < plan.stepCount(); ++step)
        if (auto problem = stepProblem(plan, step))
            return problem;
    return std::nullopt;
}

std::vector<SkippedPoint> skipPointsTargetsCannotRun(ResolvedPlan &plan)
{
    std::vector<SkippedPoint> skipped;
    for (std::size_t step = plan.stepCount(); step-- > 0;) {
        // Only a series' points: a cycling step a target cannot run fails the check.
        if (!seriesPointOf(plan.profile.setup, plan.steps[step]))
            continue;
        const auto problem = stepProblem(plan, step);
        if (!problem)
            continue;
        skipped.insert(skipped.begin(), {plan.steps[step].name, *problem});
        plan.steps.erase(plan.steps.begin() + std::ptrdiff_t(step));
        for (auto &w : plan.workers) {
            w.specPerStep.erase(w.specPerStep.begin() + std::ptrdiff_t(step));
            w.outstandingIos.erase(w.outstandingIos.begin() + std::ptrdiff_t(step));
        }
    }
    return skipped;
}

} // namespace ioprism::core
