// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/terminal_sink.h"

#include "app/cli/output_files.h"
#include "app/cli/summary.h"
#include "core/profile/units.h"
#include "core/report/csv.h"

#include <cerrno>
#include <cmath>
#include <fmt/format.h>
#include <system_error>

namespace ioprism::cli {

using namespace ioprism::core;

TerminalSink::TerminalSink(SinkOptions options, const Profile &profile)
    : m_options(std::move(options))
    , m_out(*m_options.human)
    , m_setup(profile.setup)
    , m_progress(profile.setup)
{ }

void TerminalSink::onPhase(RunPhase phase, std::size_t step, const std::string &stepName)
{
    if (m_progressShown) {
        std::cerr << "\n";
        m_progressShown = false;
    }
    m_phase = phase;
    m_phaseStep = step;
    m_phaseStepName = stepName;
    // The pace counts steps, not the test files' preparation (RunProgress's first step).
    const auto now = RunProgress::Clock::now();
    m_progress.setPhase(phase, step, now);
    if (phase == RunPhase::RampUp || phase == RunPhase::Measuring)
        m_currentStep = step;
    if (phase == RunPhase::Preconditioning) {
        m_preconditionStart = now;
        m_preconditionPercent = -1;
    }
    if (m_options.quiet)
        return;
    const std::string where = stepText(step, stepName);
    if (phase == RunPhase::Preconditioning)
        m_out << "-- " << stepName << " (before the steps, in none of their figures)\n";
    else if (phase == RunPhase::Pausing)
        m_out << "-- pause of " << formatDuration(m_setup.pauseBetweenTests) << " before " << where
              << " (no I/O)\n";
    else if (phase == RunPhase::RampUp)
        m_out << "-- " << where << ": ramp-up" << eta(step, now) << "\n";
    else if (phase == RunPhase::Measuring && !(m_setup.rampUp.count() > 0))
        m_out << "-- " << where << ": measuring" << eta(step, now) << "\n";
    else if (phase == RunPhase::Measuring)
        m_out << "-- " << where << ": measuring\n";
    m_out.flush();
}

void TerminalSink::onStarted(const std::string &engine)
{
    m_engine = engine;
    if (!m_options.verbose)
        return;
    m_out << "engine: " << engine << " (--engine " << m_options.engineOption << ")\n"
          << m_options.outputsLine;
    m_out.flush();
}

void TerminalSink::onEngineChosen(const std::string &engine)
{
    m_engine = engine; // the plan line names it; the notice before it said why
    if (m_options.verbose)
        m_out << "engine: " << engine << " (--engine " << m_options.engineOption
              << ", for these targets)\n";
}

void TerminalSink::onPlan(const ResolvedPlan &plan)
{
    m_stepCount = plan.stepCount();
    m_progress.setStepCount(m_stepCount);
    if (!m_options.verbose)
        return;
    static const std::map<std::string, DeviceFacts> kNone;
    m_out << planText(plan, m_engine, m_options.devices ? *m_options.devices : kNone);
    m_out.flush();
}

void TerminalSink::onStepResult(const StepResult &step, const PlannedStep &planned)
{
    ++m_stepsDone;
    if (m_options.quiet || !m_setup.series)
        return;
    m_out << pointLine(step, planned, *m_setup.series, m_stepsDone, m_stepCount) << "\n";
    m_out.flush();
}

void TerminalSink::onPrepareProgress(
    const std::string &path, std::uint64_t done, std::uint64_t total, PrepareWork work)
{
    if (m_options.quiet || total == 0)
        return;
    if (work == PrepareWork::PreInitialising)
        return preInitProgress(path, done, total);
    if (work == PrepareWork::Preconditioning)
        return preconditionProgress(done, total);
    if (!m_options.progressBar) {
        // A log or a pipe: one line per test file, no redraws. Once per path: the hosts of
        // a run on several prepare at the same time, and their reports interleave.
        if (m_preparingSaid.insert(path).second) {
            m_out << fmt::format("-- preparing {} ({})\n", path, describeSize(total));
            m_out.flush();
        }
        return;
    }
    const int percent = int(100 * done / total);
    if (percent == m_lastPercent && path == m_lastPath)
        return;
    m_lastPercent = percent;
    m_lastPath = path;
    drawBar("preparing " + path, percent, fmt::format("of {}", formatSize(total)));
}

void TerminalSink::onInterval(const IntervalSample &s)
{
    if (m_options.timeseries) {
        auto &timeseries = *m_options.timeseries;
        errno = 0;
        timeseries << timeSeriesRows(s);
        timeseries.flush();
        if (!timeseries && m_timeseriesError.empty())
            m_timeseriesError = errno ? std::generic_category().message(errno) : "write failed";
    }
    if (!m_options.quiet) {
        m_out << intervalLine(s) << "\n";
        m_out.flush();
    }
}

void TerminalSink::onNotice(const std::string &text)
{
    if (m_progressShown) {
        std::cerr << "\n";
        m_progressShown = false;
    }
    if (m_options.verbose)
        std::cerr << "notice (" << noticeSource() << "): " << text << "\n";
    else
        std::cerr << "notice: " << text << "\n";
}

// A tree's pre-initialisation (operations, not bytes): a bar on a terminal; in a log
// or a pipe a line when it starts and at each tenth, so that a long warm-up is
// never silent and a log stays short.
void TerminalSink::preInitProgress(const std::string &path, std::uint64_t done, std::uint64_t total)
{
    const int percent = int(100 * done / total);
    if (!m_options.progressBar) {
        if (path == m_preInitPath && percent / 10 == m_preInitPercent / 10)
            return;
        m_preInitPath = path;
        m_preInitPercent = percent;
        m_out << fmt::format(
            "-- pre-initialising {}: {} of {} operations (not measured)\n", path, done, total);
        m_out.flush();
        return;
    }
    if (percent == m_preInitPercent && path == m_preInitPath)
        return;
    m_preInitPercent = percent;
    m_preInitPath = path;
    drawBar("pre-initialising " + path, percent, fmt::format("({} of {} operations)", done, total));
}

// Bytes moved of those planned (or milliseconds of its time), with the time left at the
// pace so far: a line per tenth in a log, a bar on a terminal.
void TerminalSink::preconditionProgress(std::uint64_t done, std::uint64_t total)
{
    const int percent = int(100 * done / total);
    const auto now = RunProgress::Clock::now();
    const double elapsed = std::chrono::duration<double>(now - m_preconditionStart).count();
    const auto left = timeLeftAtPace(done, total, elapsed);
    const std::string eta = left && done < total
        ? ", ETA " + etaText(std::chrono::seconds(std::llround(left->count())))
        : std::string();
    const bool byTime = m_setup.precondition && m_setup.precondition->forATime();
    const std::string amount = byTime
        ? std::string()
        : fmt::format(" ({} of {})", describeSize(done), describeSize(total));
    if (!m_options.progressBar) {
        if (percent / 10 == m_preconditionPercent / 10)
            return;
        m_preconditionPercent = percent;
        m_out << fmt::format("-- preconditioning: {}%{}{}\n", percent, amount, eta);
        m_out.flush();
        return;
    }
    if (percent == m_preconditionPercent)
        return;
    m_preconditionPercent = percent;
    drawBar("preconditioning", percent, amount + eta);
}

// "\rWHAT [#####.....]  42% AFTER" on stderr, redrawn in place (a terminal only).
void TerminalSink::drawBar(const std::string &what, int percent, const std::string &after)
{
    const int width = 30, filled = percent * width / 100;
    std::cerr << fmt::format("\r{} [{}{}] {:3}% {}", what, std::string(std::size_t(filled), '#'),
        std::string(std::size_t(width - filled), '.'), percent, after);
    m_progressShown = true;
}

// One step: its name. Several (cycling, a series): which of how many.
std::string TerminalSink::stepText(std::size_t step, const std::string &stepName) const
{
    return m_stepCount > 1 ? fmt::format(
               "{} {}/{} {}", m_setup.series ? "point" : "step", step + 1, m_stepCount, stepName)
                           : stepName;
}

// When a notice came, which is where it came from as far as the sink can tell: the
// run reports each one as it happens (core/run/run.h has no source field).
std::string TerminalSink::noticeSource() const
{
    switch (m_phase) {
    case RunPhase::Idle:
        return "setting up the engine and the plan";
    case RunPhase::Preparing:
        return "preparing the targets";
    case RunPhase::Preconditioning:
        return "preconditioning";
    case RunPhase::RampUp:
        return stepText(m_phaseStep, m_phaseStepName) + ", ramp-up";
    case RunPhase::Measuring:
        return stepText(m_phaseStep, m_phaseStepName) + ", measuring";
    case RunPhase::Stopping:
        return "end of " + stepText(m_phaseStep, m_phaseStepName);
    case RunPhase::Done:
        return "after the run";
    case RunPhase::Pausing:
        return "the pause before " + stepText(m_phaseStep, m_phaseStepName);
    }
    return "run";
}

// ", ETA 1m10s": time left from the run time, or, for points of a number of I/Os,
// from the pace so far (core::RunProgress). Said as a step begins, from the second on.
std::string TerminalSink::eta(std::size_t step, RunProgress::Clock::time_point now) const
{
    if (m_stepCount < 2 || step == 0)
        return {};
    const auto left = m_progress.timeLeft(now);
    if (!left)
        return {};
    return ", ETA " + etaText(std::chrono::seconds(std::llround(left->count())));
}

} // namespace ioprism::cli
