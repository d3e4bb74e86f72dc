// SPDX-License-Identifier: GPL-3.0-or-later
// The Series page: the curves (one swept parameter) or the heat map and curves (two) of
// a series run, drawn point by point as the run reports each step's result, then from
// the finished result.
//
// While a run goes the page keeps a partial result of its own: the profile and the
// planned steps (core::plannedSteps, then the run's checked plan, and each step's
// PlannedStep as it ends)
// and, per finished step, its All figures, CPU and devices (no histograms), from which
// core::seriesPoints makes the points.
#pragma once

#include "ui/metatypes.h"

#include <QWidget>

class QLabel;

namespace ioprism::ui {

class SeriesPlots;

class SeriesPage : public QWidget
{
    Q_OBJECT
public:
    explicit SeriesPage(QWidget *parent = nullptr);

    // A run of `profile` starts: the axes are drawn empty, the points come with addStep.
    void beginRun(const core::Profile &profile);
    // The run's checked plan (RunController::planReady): the steps that will run, which
    // may be fewer than planned before (points a target cannot do are left out).
    void setPlan(const std::vector<core::PlannedStep> &steps);
    // A step ended (RunController::stepFinished).
    void addStep(const core::StepResult &step, const core::PlannedStep &planned);
    // The finished result (or one opened later): drawn the same way. Null clears.
    void setResult(const RunResultPtr &result);
    void clear();

    SeriesPlots *plots() const { return m_plots; }
    QString headline() const;
    // Points drawn so far.
    std::size_t pointCount() const;

private:
    void redraw(const core::RunResult &result, bool finished);

    SeriesPlots *m_plots = nullptr;
    QLabel *m_headline = nullptr;
    core::RunResult m_partial; // the run in progress, as far as it went
    std::size_t m_plannedSteps = 0;
};

} // namespace ioprism::ui
