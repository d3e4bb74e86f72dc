// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/run_progress.h"

#include <algorithm>

namespace ioprism::core {

namespace {
double secondsBetween(RunProgress::Clock::time_point from, RunProgress::Clock::time_point to)
{
    return std::max(0.0, std::chrono::duration<double>(to - from).count());
}
} // namespace

RunProgress::RunProgress(const TestSetup &setup, std::size_t stepCount)
    : m_rampUpSeconds(static_cast<double>(setup.rampUp.count()))
    , m_runTimeSeconds(static_cast<double>(setup.runTime.count()))
    , m_pauseSeconds(static_cast<double>(setup.pauseBetweenTests.count()))
    , m_passes(setup.passesPerTest())
    , m_stepCount(stepCount)
{
    // A series of a number of I/Os per point ends each point when its I/Os are done,
    // whatever the run time says.
    const bool countsIos = setup.series && setup.series->ios > 0;
    if (m_runTimeSeconds > 0 && !countsIos)
        m_stepSeconds = m_rampUpSeconds + m_runTimeSeconds;
}

void RunProgress::setPhase(RunPhase phase, std::size_t step, Clock::time_point now)
{
    const bool inStep = phase == RunPhase::RampUp || phase == RunPhase::Measuring;
    if (phase == RunPhase::Pausing) { // before `step`: no step runs
        m_step = step;
        m_phaseStart = now;
    } else if (inStep) {
        if (!m_firstStepStart)
            m_firstStepStart = now;
        // Measuring after a ramp-up is the same step going on.
        if (!m_stepStart || step != m_step || phase == RunPhase::RampUp
            || m_phase != RunPhase::RampUp)
            m_stepStart = now;
        m_step = step;
        m_phaseStart = now;
    } else if (phase == RunPhase::Preparing || phase == RunPhase::Preconditioning
        || !m_phaseStart) {
        m_phaseStart = now;
    }
    m_phase = phase;
}

double RunProgress::phaseSeconds(Clock::time_point now) const
{
    return m_phaseStart ? secondsBetween(*m_phaseStart, now) : 0;
}

double RunProgress::secondsInStep(Clock::time_point now) const
{
    const double t = phaseSeconds(now);
    if (m_phase == RunPhase::RampUp)
        return std::min(t, m_rampUpSeconds);
    return m_rampUpSeconds + std::min(t, m_runTimeSeconds);
}

double RunProgress::pausesBefore(std::size_t step) const
{
    // Whole tests begun before `step` (a test's passes are consecutive): the pauses.
    const std::size_t testsBefore = step / m_passes;
    return static_cast<double>(testsBefore) * m_pauseSeconds;
}

double RunProgress::secondsDone(Clock::time_point now) const
{
    const double before = static_cast<double>(m_step) * m_stepSeconds + pausesBefore(m_step);
    if (m_phase == RunPhase::RampUp || m_phase == RunPhase::Measuring)
        return before + secondsInStep(now);
    if (m_phase == RunPhase::Pausing) // the step's own pause is under way
        return before - m_pauseSeconds + std::min(phaseSeconds(now), m_pauseSeconds);
    return before;
}

std::optional<double> RunProgress::fraction(Clock::time_point now) const
{
    if (!timed() || m_stepCount == 0
        || (m_phase != RunPhase::RampUp && m_phase != RunPhase::Measuring
            && m_phase != RunPhase::Pausing))
        return std::nullopt;
    const double total
        = static_cast<double>(m_stepCount) * m_stepSeconds + pausesBefore(m_stepCount - 1);
    return std::clamp(secondsDone(now) / total, 0.0, 1.0);
}

std::optional<std::chrono::duration<double>> RunProgress::timeLeft(Clock::time_point now) const
{
    if (m_stepCount == 0 || !m_firstStepStart || !m_stepStart)
        return std::nullopt;
    const double stepsLeft
        = static_cast<double>(m_stepCount) - static_cast<double>(std::min(m_step, m_stepCount));
    const double inStep = secondsBetween(*m_stepStart, now);
    if (timed()) {
        const double total
            = static_cast<double>(m_stepCount) * m_stepSeconds + pausesBefore(m_stepCount - 1);
        return std::chrono::duration<double>(std::max(0.0, total - secondsDone(now)));
    }
    if (m_step == 0)
        return std::nullopt; // no step has ended: no pace
    const double pace
        = secondsBetween(*m_firstStepStart, *m_stepStart) / static_cast<double>(m_step);
    return std::chrono::duration<double>(std::max(0.0, stepsLeft * pace - inStep));
}

std::optional<std::chrono::duration<double>> timeLeftAtPace(
    std::uint64_t done, std::uint64_t total, double elapsedSeconds)
{
    if (done == 0 || !(elapsedSeconds > 0))
        return std::nullopt;
    const double left = double(total > done ? total - done : 0);
    return std::chrono::duration<double>(elapsedSeconds * left / double(done));
}

} // namespace ioprism::core
