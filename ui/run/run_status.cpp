// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/run/run_status.h"

#include "core/run/plan.h"
#include "core/run/run_request.h"
#include "core/run/run_sink.h"
#include "ui/format.h"

#include <QAction>
#include <QDir>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QStatusBar>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace ioprism::ui {

namespace {
QString stopToolTip()
{
    return RunStatus::tr("Stop the run; what was measured is kept. In-flight I/O is waited "
                         "for until the stop deadline; press Stop again to stop waiting for "
                         "a device that does not complete it");
}
} // namespace

RunStatus::RunStatus(QStatusBar *bar, QAction *stop, QWidget *owner)
    : m_label(new QLabel(tr("Idle"), owner))
    , m_bar(new QProgressBar(owner))
    , m_stop(stop)
    , m_timer(new QTimer(owner))
{
    m_label->setToolTip(tr("What the run is doing: preparing, ramp-up, running, stopping"));
    m_bar->setMaximumWidth(240);
    m_bar->setRange(0, 100);
    m_bar->setValue(0);
    m_bar->setTextVisible(true);
    m_bar->setToolTip(tr("Progress of the whole run (all steps)"));
    bar->addWidget(m_label, 1);
    bar->addPermanentWidget(m_bar);
    m_timer->setInterval(250);
    QObject::connect(m_timer, &QTimer::timeout, m_label, [this] { tick(); });
}

void RunStatus::begin(const core::Profile &profile)
{
    // Cycling makes several steps of one spec: count what the plan will run.
    m_progress.emplace(profile.setup, core::plannedSteps(profile).size());
    m_preconditionByTime = profile.setup.precondition && profile.setup.precondition->forATime();
    m_preconditionClock.invalidate();
    m_progress->setPhase(core::RunPhase::Preparing, 0, core::RunProgress::Clock::now());
    m_stepName.clear();
    m_stopClock.invalidate();
    m_bar->setFormat(QStringLiteral("%p%"));
    m_bar->setToolTip(tr("Progress of the whole run (all steps)"));
    m_timer->start();
    tick();
}

void RunStatus::setStepCount(int stepCount)
{
    if (m_progress)
        m_progress->setStepCount(static_cast<std::size_t>(std::max(0, stepCount)));
}

void RunStatus::setPhase(core::RunPhase phase, int step, const QString &stepName)
{
    if (!m_progress)
        return;
    m_progress->setPhase(
        phase, static_cast<std::size_t>(std::max(0, step)), core::RunProgress::Clock::now());
    if (phase == core::RunPhase::RampUp || phase == core::RunPhase::Measuring
        || phase == core::RunPhase::Pausing)
        m_stepName = stepName;
    if (phase == core::RunPhase::Preconditioning)
        m_preconditionClock.start();
    tick();
}

void RunStatus::stopAsked()
{
    // A second Stop asks the run to stop waiting for in-flight I/O: the countdown stays.
    if (!m_stopClock.isValid())
        m_stopClock.start();
    if (m_progress)
        m_progress->setPhase(
            core::RunPhase::Stopping, m_progress->step(), core::RunProgress::Clock::now());
    tick();
}

void RunStatus::setPrepareProgress(const QString &path, quint64 done, quint64 total, int work)
{
    const int percent = total ? static_cast<int>(done * 100 / total) : 0;
    if (work == static_cast<int>(core::PrepareWork::Preconditioning)) {
        m_label->setText(preconditionText(done, total));
        m_bar->setRange(0, 100);
        m_bar->setValue(percent);
        return;
    }
    const bool preInitialising = work == static_cast<int>(core::PrepareWork::PreInitialising);
    if (m_progress)
        m_progress->setPhase(core::RunPhase::Preparing, 0, core::RunProgress::Clock::now());
    // The trees' unmeasured operations before the first step: a long wait that must not
    // look like a hang (Stop ends it).
    m_label->setText(preInitialising
            ? tr("Pre-initialising %1: %2 %").arg(QDir::toNativeSeparators(path)).arg(percent)
            : tr("Preparing %1: %2 %").arg(QDir::toNativeSeparators(path)).arg(percent));
    m_bar->setRange(0, 100);
    m_bar->setValue(percent);
}

QString RunStatus::preconditionText(quint64 done, quint64 total) const
{
    const int percent = total ? static_cast<int>(done * 100 / total) : 0;
    const double elapsed = m_preconditionClock.isValid()
        ? static_cast<double>(m_preconditionClock.elapsed()) / 1000.0
        : 0;
    const auto left = core::timeLeftAtPace(done, total, elapsed);
    const QString eta
        = left && done < total ? tr(" · ETA %1").arg(clockText(left->count())) : QString();
    // A time's progress counts milliseconds; an amount's, bytes.
    const QString amount = m_preconditionByTime
        ? tr("%1 of %2").arg(clockText(double(done) / 1000.0), clockText(double(total) / 1000.0))
        : tr("%1 of %2 written").arg(capacityText(done), capacityText(total));
    return tr("Preconditioning: %1 % · %2%3 · in no step's figures").arg(percent).arg(amount, eta);
}

// What Stop waits for, and for how long at most (RunSettings' defaults: the stop
// deadline for in-flight I/O, then a tail of device sampling for write-back).
QString RunStatus::stoppingText()
{
    const core::RunSettings defaults;
    const double waited
        = m_stopClock.isValid() ? static_cast<double>(m_stopClock.elapsed()) / 1000.0 : 0;
    const double deadline = std::chrono::duration<double>(defaults.stopTimeout).count();
    const double tail = std::chrono::duration<double>(defaults.deviceTailLimit).count();
    const int left = static_cast<int>(std::ceil(std::max(0.0, deadline - waited)));
    m_stop->setToolTip(tr("Stop waiting for in-flight I/O and the device's write-back: "
                          "the results are reported now, any I/O still in flight is "
                          "named in them"));
    return tr("Stopping: waiting for the in-flight I/O to complete (gives up in %n s), "
              "then up to %1 s for the device's write-back; press Stop again to stop "
              "waiting",
        nullptr, left)
        .arg(QLocale().toString(tail, 'f', 0));
}

void RunStatus::tick()
{
    const core::RunPhase phase = m_progress ? m_progress->phase() : core::RunPhase::Idle;
    const auto now = core::RunProgress::Clock::now();
    const double t = m_progress ? m_progress->phaseSeconds(now) : 0;
    const int step = m_progress ? static_cast<int>(m_progress->step()) : 0;
    const int steps = std::max(stepCount(), step + 1);
    const double ramp = m_progress ? m_progress->rampUpSeconds() : 0;
    const double runTime = m_progress ? m_progress->runTimeSeconds() : 0;
    switch (phase) {
    case core::RunPhase::Idle:
    case core::RunPhase::Done:
        m_label->setText(tr("Idle"));
        m_bar->setRange(0, 100);
        break;
    case core::RunPhase::Preparing:
        if (m_label->text().startsWith(tr("Preparing"))
            || m_label->text().startsWith(tr("Pre-initialising")))
            return; // the per-file or pre-initialisation progress is shown
        m_label->setText(tr("Preparing the targets…"));
        m_bar->setRange(0, 0); // busy
        break;
    case core::RunPhase::RampUp:
        m_label->setText(tr("Step %1 of %2 · %3 · ramp-up %4 of %5")
                             .arg(step + 1)
                             .arg(steps)
                             .arg(m_stepName, clockText(std::min(t, ramp)), clockText(ramp)));
        break;
    case core::RunPhase::Measuring:
        m_label->setText(runTime > 0
                ? tr("Step %1 of %2 · %3 · running %4 of %5")
                      .arg(step + 1)
                      .arg(steps)
                      .arg(m_stepName, clockText(std::min(t, runTime)), clockText(runTime))
                : tr("Step %1 · %2 · running %3 (until stopped)")
                      .arg(step + 1)
                      .arg(m_stepName, clockText(t)));
        break;
    case core::RunPhase::Preconditioning:
        if (!m_label->text().startsWith(tr("Preconditioning"))) {
            m_label->setText(tr("Preconditioning…"));
            m_bar->setRange(0, 0); // busy until its first progress
        }
        return; // its progress is shown as it comes (setPrepareProgress)
    case core::RunPhase::Stopping:
        m_label->setText(stoppingText());
        break;
    case core::RunPhase::Pausing: {
        const double pause = m_progress->pauseSeconds();
        m_label->setText(tr("Pause before step %1 of %2 · %3 · %4 of %5 (no I/O)")
                             .arg(step + 1)
                             .arg(steps)
                             .arg(m_stepName, clockText(std::min(t, pause)), clockText(pause)));
        break;
    }
    }
    if (phase == core::RunPhase::RampUp || phase == core::RunPhase::Measuring
        || phase == core::RunPhase::Pausing)
        showFraction();
}

void RunStatus::showFraction()
{
    if (const auto done = m_progress->fraction(core::RunProgress::Clock::now())) {
        m_bar->setRange(0, 100);
        m_bar->setValue(static_cast<int>(*done * 100));
    } else {
        m_bar->setRange(0, 0); // untimed steps: busy
    }
}

void RunStatus::finish(const RunResultPtr &result, const QString &headline)
{
    m_timer->stop();
    if (m_progress)
        m_progress->setPhase(
            core::RunPhase::Done, m_progress->step(), core::RunProgress::Clock::now());
    m_bar->setRange(0, 100);
    m_bar->setValue(result && !result->error && !result->stoppedByUser ? 100 : m_bar->value());
    // A stopped or failed run says so on the bar rather than freezing at a percentage.
    if (result && result->error) {
        m_bar->setFormat(tr("failed at %p%"));
        m_bar->setToolTip(tr("The run stopped with an error at this point of the run"));
    } else if (result && result->stoppedByUser) {
        m_bar->setFormat(tr("stopped at %p%"));
        m_bar->setToolTip(tr("The run was stopped at this point; the results cover "
                             "the time measured"));
    } else {
        m_bar->setFormat(tr("done"));
        m_bar->setToolTip(tr("The run measured every step"));
    }
    m_stop->setToolTip(stopToolTip());
    m_stopClock.invalidate();
    m_label->setText(tr("Idle · %1").arg(headline));
}

void RunStatus::setText(const QString &text)
{
    m_label->setText(text);
}

QString RunStatus::text() const
{
    return m_label->text();
}

int RunStatus::progressValue() const
{
    return m_bar->value();
}

QString RunStatus::progressText() const
{
    return m_bar->text();
}

} // namespace ioprism::ui
