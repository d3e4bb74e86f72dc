// SPDX-License-Identifier: GPL-3.0-or-later
// Plots drawn as inline SVG for the HTML reports, from the results rather than from the
// GUI's plots, so that they need no display and look the same for a run opened from its
// file: the pieces of an axis (shared with the comparison's curves), and the heat map of
// latency over time.
#pragma once

#include "core/run/results.h"
#include "core/run/step_findings.h"

#include <span>
#include <string>

namespace ioprism::core {

// Round steps for an axis over `span`: 1, 2 or 5 times a power of ten, about `count`.
double niceStep(double span, int count);
// A tick's number, short: "250", "12k", "3.5M".
std::string axisNumber(double v);

// Latency over time as a heat map (core/stats/latency_map.h): time on x, latency on a log
// y axis, each interval's I/Os per band as color (per sampling interval, log scale), the
// steps' starts marked; "" when no interval completed an I/O. A long run's intervals are
// drawn in about kMaxLatencyMapColumns columns (adjacent intervals of a step added
// together; each step starts a column of its own).
inline constexpr std::size_t kMaxLatencyMapColumns = 480;
std::string latencyMapSvg(std::span<const IntervalSample> intervals);

// A write against the bytes written (SNIA's write saturation view, GNOME Disks' write
// plot): above, each interval's write MB/s at the bytes written by its end, with the
// cliff judged on them (where, and the rates before and after as level lines); below,
// each interval's mean and p99 write latency. "" without two intervals that wrote.
std::string writeCliffSvg(
    std::span<const StepWriteInterval> written, const WriteCliffJudgement &judged);

} // namespace ioprism::core
