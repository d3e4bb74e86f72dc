// What a run produces: live interval samples and, per step (spec), the totals.
// Plain values: they cross from the run's threads to the CLI or the GUI by copy.
#pragma once

#include "core/counters.h"
#include "core/engine.h"
#include "core/spec/profile.h"
#include "core/stats/figures.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ioprism::core {

enum class RunPhase { Idle, Preparing, RampUp, Measuring, Stopping, Done };

// Result rows, as Iometer has them: ALL, each worker, each target of each worker.
struct Scope {
    enum class Kind { All, Worker, Target };
    Kind kind = Kind::All;
    int worker = -1; // index in the plan's workers
    int target = -1; // index in that worker's targets
    std::string label; // "All", "Worker 1", "Worker 1 / /dev/loop0"
    std::string targetPath;
};

struct ScopeFigures {
    Scope scope;
    Figures figures;
};

struct IntervalSample {
    std::uint64_t runId = 0;
    std::size_t step = 0;
    std::string stepName;
    RunPhase phase = RunPhase::Measuring; // RampUp or Measuring
    double startSeconds = 0; // since the first step started (our monotonic clock)
    double endSeconds = 0;
    std::vector<ScopeFigures> scopes; // [0] is All
    CpuFigures cpu;
    double cpuEffectiveness = 0; // IOPS per busy CPU %
};

struct ScopeResult {
    Scope scope;
    Measurement measurement; // histograms kept for percentiles and Iometer bins
    Figures figures;
};

struct StepResult {
    std::size_t step = 0;
    std::string stepName;
    double measuredSeconds = 0;
    bool complete = true; // false when stopped early or failed
    std::vector<ScopeResult> scopes; // [0] is All
    CpuFigures cpu;
    double cpuEffectiveness = 0;
};

struct RunResult {
    std::uint64_t runId = 0;
    Profile effectiveProfile; // with the seeds actually used
    std::string engine;
    std::vector<std::string> notices;
    std::vector<TargetInfo> targets; // per plan worker, per target (flattened in order)
    std::chrono::system_clock::time_point startedAt; // wall clock, for reports only
    std::vector<StepResult> steps;
    std::vector<IntervalSample> intervals;
    std::optional<OpError> error; // the first error; the run stopped because of it
    bool stoppedByUser = false;
};

} // namespace ioprism::core
