// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/series_data.h"

#include "core/profile/series.h"
#include "core/run/cycling.h"
#include "ui/format.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <map>
#include <set>
#include <utility>

namespace ioprism::ui {

bool showsAsSeries(const core::Profile &profile)
{
    return profile.setup.series.has_value()
        || profile.setup.testType == core::TestType::CycleOutstandingIos
        || profile.setup.testType == core::TestType::CycleWorkers;
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

// Iometer's cycling as a one-axis series: each step's value (its queue depth, or how
// many workers it runs) makes it the point of that value, per spec index.
std::vector<core::SeriesPointResult> cyclingPoints(
    const core::RunResult &result, const std::vector<std::uint64_t> &stepValues)
{
    core::RunResult view;
    view.plan.steps = result.plan.steps;
    std::map<std::size_t, std::size_t> ordinal; // spec index -> steps seen
    for (std::size_t s = 0; s < view.plan.steps.size() && s < stepValues.size(); ++s) {
        auto &step = view.plan.steps[s];
        const std::size_t k = ordinal[step.specIndex]++;
        if (stepValues[s] > 0) // 0: a step past the cycling's values
            step.point = core::StepPoint {k, 0, {stepValues[s]}, {}};
    }
    view.steps.reserve(result.steps.size());
    for (const auto &step : result.steps)
        view.steps.push_back(seriesStep(step));
    return core::seriesPoints(view);
}

// The values of the first spec index's steps, in order: the curve's x values.
std::vector<std::uint64_t> firstSpecValues(
    const core::RunResult &result, const std::vector<std::uint64_t> &stepValues)
{
    std::vector<std::uint64_t> values;
    for (std::size_t s = 0; s < result.plan.steps.size() && s < stepValues.size(); ++s)
        if (result.plan.steps[s].specIndex == result.plan.steps.front().specIndex)
            values.push_back(stepValues[s]);
    return values;
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
    } else if (setup.testType == core::TestType::CycleOutstandingIos
        || setup.testType == core::TestType::CycleWorkers) {
        // Per step: the depth it cycles to (the Nth step of a spec index runs the Nth
        // depth, core/run/cycling.h), or the workers it runs.
        const bool depths = setup.testType == core::TestType::CycleOutstandingIos;
        const auto qd = core::queueDepthValues(setup.queueDepthCycling);
        std::vector<std::uint64_t> stepValues;
        std::map<std::size_t, std::size_t> ordinal;
        for (std::size_t s = 0; s < result.plan.steps.size(); ++s) {
            if (depths) {
                const std::size_t k = ordinal[result.plan.steps[s].specIndex]++;
                stepValues.push_back(k < qd.size() ? qd[k] : 0);
                continue;
            }
            stepValues.push_back(result.plan.steps[s].workers);
        }
        if (stepValues.empty())
            return data;
        data.cycling = true;
        data.axes.push_back(
            {depths ? core::SweepParameter::OutstandingIos : core::SweepParameter::Workers,
                firstSpecValues(result, stepValues)});
        data.points = cyclingPoints(result, stepValues);
    } else {
        return data;
    }

    // A target is named by its last path component when that tells the targets apart
    // (the io_profile preset's ".../iop-direct" and ".../iop-buffered"): a legend of full
    // paths is cut off before the part that differs.
    std::map<std::string, std::string> shortName; // target path -> its last component
    for (const auto &p : data.points)
        if (!p.target.empty())
            shortName.try_emplace(
                p.target, QFileInfo(toQString(p.target)).fileName().toStdString());
    std::set<std::string> distinct;
    for (const auto &[path, name] : shortName)
        distinct.insert(name);
    const bool shortNames = distinct.size() == shortName.size() && !distinct.contains("");
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
                : QCoreApplication::translate("SeriesData", "%1 on %2")
                      .arg(toQString(p.specName),
                          toQString(shortNames ? shortName.at(p.target) : p.target));
            data.families.push_back(std::move(family));
        }
        data.families[it->second].points.push_back(i);
    }
    return data;
}

} // namespace ioprism::ui
