// SPDX-License-Identifier: GPL-3.0-or-later
// The JSON results file (docs/results.md): everything a run produced, in one document
// that other tools can read without knowing IOPrism's internals.
//
//   {"format": "ioprism-results", "version": 3, "run_id", "started_at", "tool",
//    "environment", "profile" (the effective profile, seeds included), "plan" (what the
//    run executed: core/run/resolved_plan_json.h), "summary", "steps", "intervals",
//    "device_counters", "error", "stoppedByUser"}
//
// Numbers are always finite: a value that is not (which the figures never produce, but
// a hand-made RunResult could hold) is written as null, and so is anything that was not
// measured (CPU figures where the platform has no counters). A count or rate that was
// measured and is zero is written as 0.
#pragma once

#include "core/report/environment.h"
#include "core/run/results.h"
#include "core/stats/figures.h"

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ioprism::core {

inline constexpr std::string_view kResultsFormatName = "ioprism-results";
// 3: the file keeps the plan the run executed ("plan"), so that nothing reading it plans
// again. 2: the intervals are columns (one array per field); 1 had one object per interval
// and scope. All three are read (core/report/results_reader.h); only 3 is written.
inline constexpr int kResultsFormatVersion = 3;

// The All scope of the whole run: the sum of every step's All measurement (bytes, I/Os,
// errors, transactions, merged histograms and Iometer bins, exact extremes), with
// `elapsed` the total measured time of all steps, so that computeFigures() gives rates
// over the measured seconds and percentiles over every recorded I/O. `inFlightAtEnd` is
// the last step's. Empty when the run has no step.
Measurement runTotal(const RunResult &result);

// Mean of the steps' CPU busy % weighted by their measured seconds, over the steps whose
// CPU figures are valid; negative when none is (no counters on this platform).
double runCpuBusyPercent(const RunResult &result);

// UTC calendar fields of a wall-clock time, for the reports' timestamps (UTC so that a
// file reads the same wherever it is opened, and golden files do not depend on TZ).
struct UtcTime {
    int year = 1970;
    unsigned month = 1, day = 1, hour = 0, minute = 0, second = 0, millisecond = 0;
};
UtcTime utcTime(std::chrono::system_clock::time_point time);

// Names shared by the JSON and CSV reports.
std::string_view runPhaseName(RunPhase phase); // "ramp_up", "measuring", ...
std::string_view scopeKindName(Scope::Kind kind); // "all", "worker", "target"

// The file text, laid out as core/report/json_text.h says (2-space indent, arrays of
// plain values on one line), with a trailing newline. Strings that are not valid UTF-8
// (a path in another encoding) are written with U+FFFD replacements. The intervals,
// most of a long run's file, are streamed into the text as columns, not built as a
// document first: an hour at 1 s intervals takes tens of milliseconds
// (docs/performance.md, "Saving a run").
std::string writeResultsJson(const RunResult &result, const Environment &environment);

// The same document, parsed back from that text (for tests and tools that look into it;
// writeResultsJson is the fast way to the file).
nlohmann::ordered_json resultsToJson(const RunResult &result, const Environment &environment);

} // namespace ioprism::core
