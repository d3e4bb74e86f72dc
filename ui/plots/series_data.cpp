// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/series_data.h"

#include "core/profile/series.h"
#include "core/run/plan.h"
#include "ui/format.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <map>
#include <optional>
#include <set>
#include <utility>

namespace ioprism::ui {

bool showsAsSeries(const core::Profile &profile)
{
    return profile.setup.series.has_value() || core::cyclingAxis(profile.setup).has_value();
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

SeriesData makeSeriesData(const core::RunResult &result)
{
    SeriesData data;
    const core::TestSetup &setup = result.plan.profile.setup;
    if (setup.series) {
        for (const auto &axis : setup.series->axes)
            data.axes.push_back({axis.parameter, core::sweepValues(axis)});
        data.repeat = setup.series->repeat;
        data.points = core::seriesPoints(result);
    } else if (const auto axis = core::cyclingAxis(setup)) {
        // Iometer's queue-depth or worker cycling: the planner gave each step its point
        // (core::setCyclingPoints; the reader did for files written before), so it is a
        // one-axis series whose values are those of the first spec index's steps.
        data.points = core::seriesPoints(result);
        std::vector<std::uint64_t> values;
        std::optional<std::size_t> first;
        for (const auto &step : result.plan.steps)
            if (step.point && !step.point->values.empty()
                && first.value_or(step.specIndex) == step.specIndex) {
                first = step.specIndex;
                values.push_back(step.point->values.front());
            }
        if (values.empty())
            return data;
        data.cycling = true;
        data.axes.push_back({*axis, std::move(values)});
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
