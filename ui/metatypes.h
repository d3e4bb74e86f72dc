// SPDX-License-Identifier: GPL-3.0-or-later
// Core value types carried in QVariant (editor values of the spec-line extensions) and
// in signals.
#pragma once

#include "core/profile/profile.h"
#include "core/run/plan.h"
#include "core/run/results.h"

#include <QMetaType>

#include <memory>
#include <vector>

namespace ioprism::ui {

// A line's data pattern: its own, or (own == false) the worker's.
struct LinePattern {
    bool own = false;
    core::DataPattern pattern;
};

using RunResultPtr = std::shared_ptr<const core::RunResult>;

} // namespace ioprism::ui

Q_DECLARE_METATYPE(ioprism::core::RandomDistribution)
Q_DECLARE_METATYPE(ioprism::core::RateLimit)
Q_DECLARE_METATYPE(ioprism::core::RunPhase)
Q_DECLARE_METATYPE(ioprism::core::IntervalSample)
Q_DECLARE_METATYPE(ioprism::core::StepResult)
Q_DECLARE_METATYPE(ioprism::core::PlannedStep)
Q_DECLARE_METATYPE(ioprism::core::SteadyStateRecord)
Q_DECLARE_METATYPE(std::vector<ioprism::core::PlannedStep>)
Q_DECLARE_METATYPE(ioprism::ui::LinePattern)
Q_DECLARE_METATYPE(ioprism::ui::RunResultPtr)
