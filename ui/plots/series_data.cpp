#include "ui/plots/series_data.h"

#include "core/profile/series.h"
#include "core/run/cycling.h"
#include "ui/format.h"

#include <map>
#include <utility>

namespace ioprism::ui {

bool showsAsSeries(const core::Profile &profile)
{
    return profile.setup.series.has_value()
        || profile.setup.testType == core::TestType::CycleOutstandingIos;
}

core::StepResult seriesStep(const core::StepResult &step)
{
    core::StepResult light;
    light.step = step.step;
    light.stepName = step.stepName;
    light.measuredSeconds = step.measuredSeconds;
    light.complete = step.complete;
    light.cpu = step.cpu;
    light.cpuEffectiveness = step.cpuEffectiveness;
    light.devices = step.devices;
    if (!step.scopes.empty()) {
        core::ScopeResult all;
        all.scope = step.scopes.front().scope;
        all.figures = step.scopes.front().figures;
        light.scopes.push_back(std::move(all));
    }
    return light;
}

namespace {

// Queue-depth cycling as a one-axis series: the Nth step of each spec index runs the
// Nth depth (core/run/cycling.h), so it becomes that point.
std::vector<core::SeriesPointResult> cyclingPoints(
    const core::RunResult &result, const std::vector<std::uint64_t> &depths)
{
    core::RunResult view;
    view.plan.steps = result.plan.steps;
    std::map<std::size_t, std::size_t> ordinal; // spec index -> steps seen
    for (auto &step : view.plan.steps) {
        const std::size_t k = ordinal[step.specIndex]++;
        if (k < depths.size())
            step.point = core::StepPoint {k, 0, {depths[k]}, {}};
    }
    view.steps.reserve(result.steps.size());
    for (const auto &step : result.steps)
        view.steps.push_back(seriesStep(step));
    return core::seriesPoints(view);
}

} // namespace

SeriesData makeSeriesData(const core::RunResult &result)
{
    SeriesData data;
    const core::TestSetup &setup = result.plan.profile.setup;
    if (setup.series) {
        for (const auto &axis : setup.series->axes)
            data.axes.push_back({axis.parameter, core::sweepValues(axis)});
        data.repeat = setup.series->repeat;
        data.points = core::seriesPoints(result);
    } else if (setup.testType == core::TestType::CycleOutstandingIos) {
        std::vector<std::uint64_t> depths;
        for (std::uint32_t q : core::queueDepthValues(setup.queueDepthCycling))
            depths.push_back(q);
        if (depths.empty())
            return data;
        data.cycling = true;
        data.axes.push_back({core::SweepParameter::OutstandingIos, depths});
        data.points = cyclingPoints(result, depths);
    } else {
        return data;
    }

    std::map<std::pair<std::size_t, std::string>, std::size_t> families;
    for (std::size_t i = 0; i < data.points.size(); ++i) {
        const auto &p = data.points[i];
        auto [it, added] = families.try_emplace({p.specIndex, p.target}, data.families.size());
        if (added) {
            SeriesFamily family;
            family.specIndex = p.specIndex;
            family.target = p.target;
            family.name = p.target.empty()
                ? toQString(p.specName)
                : QStringLiteral("%1 on %2").arg(toQString(p.specName), toQString(p.target));
            data.families.push_back(std::move(family));
        }
        data.families[it->second].points.push_back(i);
    }
    return data;
}

} // namespace ioprism::ui
