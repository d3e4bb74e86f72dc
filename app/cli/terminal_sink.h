// SPDX-License-Identifier: GPL-3.0-or-later
// What `ioprism-cli run` prints while a run goes: a RunSink that writes phase, interval
// and point lines, the preparing bar, notices and the verbose plan, and writes the time
// series as the run goes. Its ETA is core::RunProgress's, the reckoning the GUI's
// progress bar uses.
#pragma once

#include "core/report/environment.h"
#include "core/run/run_progress.h"
#include "core/run/run_sink.h"

#include <cstddef>
#include <cstdint>
#include <iostream>
#include <map>
#include <ostream>
#include <set>
#include <string>

namespace ioprism::cli {

// What the sink prints, and where. The human text (phase, interval and point lines, the
// verbose plan) goes to `human`: stdout, or stderr when a results file goes to stdout.
// Notices always go to stderr. The preparing bar, redrawn with '\r', is drawn only on a
// terminal; elsewhere each test file being written is one line.
struct SinkOptions {
    std::ostream *human = &std::cout;
    bool quiet = false;
    bool verbose = false;
    bool progressBar = false; // stderr is a terminal
    std::ostream *timeseries = nullptr; // written as the run goes; null when not asked
    std::string engineOption; // --engine as given, for the verbose engine line
    std::string outputsLine; // the verbose "outputs:" line, said once the engine is known
    // What describeDevice found per target (by its opened path), for the verbose plan.
    const std::map<std::string, core::DeviceFacts> *devices = nullptr;
};

// Called on the run's control thread only, one call at a time.
class TerminalSink final : public core::RunSink
{
public:
    TerminalSink(SinkOptions options, const core::Profile &profile);

    void onPhase(core::RunPhase phase, std::size_t step, const std::string &stepName) override;
    void onStarted(const std::string &engine) override;
    void onEngineChosen(const std::string &engine) override;
    void onPlan(const core::ResolvedPlan &plan) override;
    void onFinished(core::RunResult &&result) override { m_result = std::move(result); }
    void onStepResult(const core::StepResult &step, const core::PlannedStep &planned) override;
    void onPrepareProgress(const std::string &path, std::uint64_t done, std::uint64_t total,
        core::PrepareWork work) override;
    void onInterval(const core::IntervalSample &s) override;
    void onNotice(const std::string &text) override;

    // What the run reported last (once the session has finished).
    core::RunResult takeResult() { return std::move(m_result); }
    // The step that was running (or last ran), for the message when a stop cuts it.
    std::size_t currentStep() const { return m_currentStep; }
    std::size_t stepCount() const { return m_stepCount; }
    // Why the time series stopped being written ("" while it is fine).
    const std::string &timeseriesError() const { return m_timeseriesError; }

private:
    void preInitProgress(const std::string &path, std::uint64_t done, std::uint64_t total);
    void preconditionProgress(std::uint64_t done, std::uint64_t total);
    void drawBar(const std::string &what, int percent, const std::string &after);
    std::string stepText(std::size_t step, const std::string &stepName) const;
    std::string noticeSource() const;
    std::string eta(std::size_t step, core::RunProgress::Clock::time_point now) const;

    SinkOptions m_options;
    std::ostream &m_out;
    core::TestSetup m_setup;
    std::string m_engine; // the engine each worker starts with, for the verbose plan
    core::RunResult m_result;
    std::size_t m_stepCount = 0; // from the checked plan (onPlan), before any step
    std::size_t m_stepsDone = 0;
    std::size_t m_currentStep = 0;
    core::RunPhase m_phase = core::RunPhase::Idle;
    std::size_t m_phaseStep = 0;
    std::string m_phaseStepName;
    core::RunProgress m_progress; // the time left, from the steps' times or their pace
    std::string m_timeseriesError;
    bool m_progressShown = false;
    int m_lastPercent = -1;
    std::string m_lastPath;
    std::set<std::string> m_preparingSaid; // the paths said "-- preparing" (no progress bar)
    int m_preInitPercent = -1; // the last pre-initialisation progress said, and where
    std::string m_preInitPath;
    int m_preconditionPercent = -1; // the last preconditioning progress said
    core::RunProgress::Clock::time_point m_preconditionStart {};
};

} // namespace ioprism::cli
