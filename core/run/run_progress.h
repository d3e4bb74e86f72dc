// SPDX-License-Identifier: GPL-3.0-or-later
// How far a run has come and how long it has left, from its phases and the profile's
// times: the one reckoning behind the GUI's progress bar (ui/run/run_status.h) and the
// CLI's ETA (app/cli/terminal_sink.h), so that both say the same.
//
// A value fed by what a RunSink hears (the plan's step count, each phase) and asked with
// a time point: it reads no clock itself, so its tests drive it with a fake one, like
// the Sampler's tick(now).
//
// Error bounds: a run of timed steps (runTime > 0, not a series of a number of I/Os) is
// exact up to the time the targets' preparation and each step's stop take, which is not
// counted: the fraction lags by that much and the time left is short by it. A run of
// untimed steps (until stopped, or a number of I/Os per point) has no fraction; its time
// left is the pace of the steps done so far, which is as good as the steps are alike.
#pragma once

#include "core/profile/profile.h"
#include "core/run/results.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace ioprism::core {

class RunProgress
{
public:
    using Clock = std::chrono::steady_clock;

    // The run's times (ramp-up, run time, a series' I/Os per point); steps: the plan's
    // count before the run checks it (core::plannedSteps), 0 when not known yet.
    explicit RunProgress(const TestSetup &setup, std::size_t stepCount = 0);

    // The checked plan's count (RunSink::onPlan): a series may lose points a target
    // cannot do.
    void setStepCount(std::size_t stepCount) { m_stepCount = stepCount; }
    // What the run says it does (RunSink::onPhase). Ramp-up and measuring restart the
    // phase clock; stopping keeps it (the step's time stops counting where it was).
    void setPhase(RunPhase phase, std::size_t step, Clock::time_point now);

    RunPhase phase() const { return m_phase; }
    std::size_t step() const { return m_step; }
    std::size_t stepCount() const { return m_stepCount; }
    // Each step runs for a fixed time: the ramp-up plus the run time.
    bool timed() const { return m_stepSeconds > 0; }
    // The ramp-up and the run time of a step, in seconds (run time 0: until stopped).
    double rampUpSeconds() const { return m_rampUpSeconds; }
    double runTimeSeconds() const { return m_runTimeSeconds; }
    // The pause before each test but the first (TestSetup::pauseBetweenTests), in seconds.
    double pauseSeconds() const { return m_pauseSeconds; }
    // Since the phase began (the run's start for the preparation), in seconds.
    double phaseSeconds(Clock::time_point now) const;

    // The part of the whole run done, 0 to 1, while a step ramps up or measures or the run
    // pauses between tests (the pauses count as the time they take): nullopt
    // when it cannot be told (untimed steps, no step count, not in a step).
    std::optional<double> fraction(Clock::time_point now) const;
    // Time left until the last step ends: nullopt before the first step (for untimed
    // steps, before a step has ended: there is no pace yet) and when the step count is
    // not known.
    std::optional<std::chrono::duration<double>> timeLeft(Clock::time_point now) const;

private:
    // Seconds into the current step: the ramp-up, then the ramp-up plus measuring.
    double secondsInStep(Clock::time_point now) const;
    // The pauses between tests (TestSetup::pauseBetweenTests) before step `step` starts,
    // its own included, in seconds: a test's passes are consecutive steps.
    double pausesBefore(std::size_t step) const;
    // A timed run's seconds done: the steps and pauses before, and the current one's.
    double secondsDone(Clock::time_point now) const;

    double m_rampUpSeconds = 0;
    double m_runTimeSeconds = 0;
    double m_pauseSeconds = 0; // before each test but the first
    std::size_t m_passes = 1; // steps per test
    double m_stepSeconds = 0; // ramp-up + run time of a timed step, else 0
    std::size_t m_stepCount = 0;
    RunPhase m_phase = RunPhase::Idle;
    std::size_t m_step = 0;
    std::optional<Clock::time_point> m_phaseStart;
    std::optional<Clock::time_point> m_firstStepStart; // the pace counts steps only
    std::optional<Clock::time_point> m_stepStart;
};

// Time left for work of `total` units of which `done` took `elapsedSeconds`, at that
// pace (preconditioning's ETA, PrepareWork::Preconditioning): nullopt before any is done.
std::optional<std::chrono::duration<double>> timeLeftAtPace(
    std::uint64_t done, std::uint64_t total, double elapsedSeconds);

} // namespace ioprism::core
