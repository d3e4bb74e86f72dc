// SPDX-License-Identifier: GPL-3.0-or-later
// Human-readable text for the terminal: profile summaries, interval lines, result
// tables. Units on every figure.
#pragma once

#include "core/profile/describe.h"
#include "core/profile/profile.h"
#include "core/profile/units.h"
#include "core/report/environment.h"
#include "core/run/resolved_plan.h"
#include "core/run/results.h"

#include <chrono>
#include <map>
#include <string>

namespace ioprism::cli {

std::string describeProfile(const core::Profile &profile);
// What a profile runs, in one line (core/profile/describe.h): the facts shown beside a
// description, never written into one.
using core::describeRun;
std::string intervalLine(const core::IntervalSample &sample);
std::string resultTable(const core::RunResult &result);
// What `run` prints when it ends and `show` prints of a saved run: the step tables
// (resultTable), then the series (seriesTable).
std::string finishedRunTables(const core::RunResult &result);
// "write-back pending — reads: idle (...); writes: write-back pending (app 300.0 MB,
// device 12.0 MB, device/app 0.04)"
std::string verdictText(const core::DeviceVerdict &verdict);
using core::formatLatencyUs; // "1.23 ms", "456 µs", "2.5 s"

// A finished step of a series, in the `iops` tool's manner: "point 3/16  4 KiB  | 91,234
// IO/s  356.4 MiB/s  2990.0 Mbit/s  p99 412 µs  device: agree". `done`/`total` count steps.
// Only for a run with a series (the terminal sink asks setup.series): a cycling step's
// point is the plan's, and a cycling run prints no point lines.
std::string pointLine(const core::StepResult &step, const core::PlannedStep &planned,
    const core::Series &series, std::size_t done, std::size_t total);
// The series of a finished run: one line per point (the median of its trials, min-max
// when repeated), its swept values first; "" when the run was no series.
std::string seriesTable(const core::RunResult &result);
// What --verbose prints before the first step: the engine each worker starts with, every
// worker with its seed and its targets (what preparing them found, the region I/O lands
// in, the device under each: `devices` by the target's opened path, from describeDevice),
// then every step with what each worker runs in it and at which queue depth.
std::string planText(const core::ResolvedPlan &plan, const std::string &engine,
    const std::map<std::string, core::DeviceFacts> &devices);

// "1h2m", "1m10s", "42s": an estimate of time left, to the second.
std::string etaText(std::chrono::seconds seconds);

} // namespace ioprism::cli
