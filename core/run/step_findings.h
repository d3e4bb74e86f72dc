// SPDX-License-Identifier: GPL-3.0-or-later
// What a step found beyond its figures, in the one wording every place that says it uses
// (the notice as the step ends, the CLI's summary, the HTML report): its verdict under a
// steady-state rule, and the cliff its write rate fell off.
#pragma once

#include "core/run/results.h"
#include "core/stats/steady_state.h"
#include "core/stats/write_cliff.h"

#include <span>
#include <string>
#include <vector>

namespace ioprism::core {

// The rule's verdict with the window's mean ("steady state after 7 rounds: rounds 3-7
// range 4.1 % ...; the window's mean 40540 IOPS"), or, for a step that ended before one,
// how many rounds it measured and where the rule stood.
std::string describeSteadyStateVerdict(const SteadyStateRecord &steady);

// A round's figure as every place writes it: whole IOPS ("40540"), MB/s and µs to a
// tenth ("412.3").
std::string steadyStateFigureText(double figure, SteadyStateMetric metric);

// One interval of a step's write: the bytes written from the step's first interval of the
// phase to the end of this one, when it began, and its write figures (the All scope's).
struct StepWriteInterval {
    std::uint64_t bytesWritten = 0;
    double startSeconds = 0;
    DirectionFigures write;
};

// The intervals of `step` in `phase` (Measuring; Preconditioning for a run's
// preconditioning), in order, as the write cliff is judged on them and drawn.
std::vector<StepWriteInterval> stepWriteIntervals(
    std::span<const IntervalSample> intervals, std::size_t step, RunPhase phase);

// "after 117 MiB written (12.3 s in), 41.0 MB/s before, 10.2 MB/s after (75 % lower)";
// "" when the judged write had no cliff.
std::string describeWriteCliff(const WriteCliffJudgement &judged);

// "Preconditioning: 128 KiB sequential writes, 2x capacity: 2 GiB moved of 2 GiB in
// 35.2 s, 61.0 MB/s, in none of the steps' figures", with a cliff its write fell off and
// whether it was stopped before it was done.
std::string describePreconditioning(const PreconditionResult &pre);

} // namespace ioprism::core
