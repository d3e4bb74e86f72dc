// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/series_page.h"

#include "core/run/plan.h"
#include "ui/format.h"
#include "ui/plots/series_data.h"
#include "ui/plots/series_plot.h"

#include <QLabel>
#include <QVBoxLayout>

namespace ioprism::ui {

SeriesPage::SeriesPage(QWidget *parent)
    : QWidget(parent)
    , m_plots(new SeriesPlots(this))
    , m_headline(new QLabel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    QFont bold = m_headline->font();
    bold.setBold(true);
    m_headline->setFont(bold);
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_headline->setToolTip(tr("What the series sweeps and how far it has run"));
    layout->addWidget(m_headline);
    layout->addWidget(m_plots, 1);
    clear();
}

void SeriesPage::clear()
{
    m_partial = core::RunResult {};
    m_plannedSteps = 0;
    m_plots->clear();
    m_headline->setText(tr("No series yet"));
}

void SeriesPage::beginRun(const core::Profile &profile)
{
    m_partial = core::RunResult {};
    m_partial.plan.profile = profile;
    m_partial.plan.steps = core::plannedSteps(profile);
    m_plannedSteps = m_partial.plan.steps.size();
    redraw(m_partial, false);
}

void SeriesPage::setPlan(const std::vector<core::PlannedStep> &steps)
{
    m_partial.plan.steps = steps;
    m_plannedSteps = steps.size();
    redraw(m_partial, false);
}

void SeriesPage::addStep(const core::StepResult &step, const core::PlannedStep &planned)
{
    // What the run planned wins over what was planned before it started.
    if (m_partial.plan.steps.size() <= step.step)
        m_partial.plan.steps.resize(step.step + 1);
    m_partial.plan.steps[step.step] = planned;
    m_partial.steps.push_back(seriesStep(step));
    redraw(m_partial, false);
}

void SeriesPage::setResult(const RunResultPtr &result)
{
    if (!result) {
        clear();
        return;
    }
    m_partial = core::RunResult {}; // the finished result replaces the partial one
    m_plannedSteps = result->plan.steps.size();
    redraw(*result, true);
}

void SeriesPage::redraw(const core::RunResult &result, bool finished)
{
    SeriesData data = makeSeriesData(result);
    QString what;
    if (data.isSeries()) {
        QStringList axes;
        for (const auto &axis : data.axes)
            axes << tr("%1 (%n values)", nullptr, int(axis.values.size()))
                        .arg(sweepParameterText(axis.parameter));
        what = data.cycling ? tr("Iometer's cycling: %1").arg(axes.join(QString()))
                            : tr("Series over %1").arg(axes.join(tr(" × ")));
        if (data.repeat > 1)
            what += tr(", %n trials", nullptr, int(data.repeat));
        if (!data.families.empty()) {
            QStringList names;
            for (const auto &f : data.families)
                names << f.name;
            what += QStringLiteral(" · ") + names.join(QStringLiteral(", "));
        }
        const std::size_t done = result.steps.size();
        if (finished) {
            what += QStringLiteral(" — ")
                + (result.error ? tr("stopped by an error after %1 of %n steps", nullptr,
                                      int(m_plannedSteps))
                                      .arg(done)
                        : result.stoppedByUser
                        ? tr("stopped after %1 of %n steps", nullptr, int(m_plannedSteps)).arg(done)
                        : tr("%n steps done", nullptr, int(done)));
        } else {
            what += QStringLiteral(" — ")
                + tr("%1 of %n steps done", nullptr, int(m_plannedSteps)).arg(done);
        }
    } else {
        what = tr("This run is no series: the Results page has its steps");
    }
    m_headline->setText(what);
    m_plots->setData(std::move(data));
}

QString SeriesPage::headline() const
{
    return m_headline->text();
}

std::size_t SeriesPage::pointCount() const
{
    return m_plots->data().points.size();
}

} // namespace ioprism::ui
