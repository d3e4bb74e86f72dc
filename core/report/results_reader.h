// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a results JSON (docs/results.md) back into the RunResult it was written from:
// what `show`, `compare`, the run library and (later) the GUI open.
//
// The file is a document like a profile: it is validated at this boundary, and every
// refusal is one message that says what is wrong and where (a syntax error or a cut-off
// file by line and column, a wrong "format", a "version" newer than this build reads, a
// missing or mistyped field by its JSON path: `steps[1].scopes[0].read.iops: expected a
// number, found a string`). No function here throws, whatever the input.
//
// Versions: 3 (with the plan), 2 (intervals as columns, no plan) and 1 (one object per
// interval) are read; a later one is refused as written by a newer IOPrism.
//
// Round trip: for a file that writeResultsJson wrote, writing what was read gives the same
// text byte for byte (tests/core/results_reader_test.cpp); a version 1 or 2 file is
// written as version 3, with the same figures. The file keeps figures, not
// every raw count, so some of the RunResult is rebuilt rather than read:
// - the All scope's measurement (histograms, bytes, errors, exact extremes, sum, elapsed
//   time) is rebuilt from its figures and "histogram_ns", so that runTotal() and the
//   summary computed from it come out as written; other scopes keep their figures and
//   their Iometer bins (in read.bins), not their histograms;
// - an interval's I/O count is its IOPS times its length (intervals carry rates only);
// - the plan is read from "plan" (core/run/resolved_plan_json.h): nothing plans the run
//   again. Versions 1 and 2 kept no plan: theirs is the simplest the file tells (the
//   profile and its specs, the steps' names, cycles and series points, one worker
//   carrying every target's facts in file order), so their Iometer CSV has no access
//   specifications, regions or queue depths;
// - an error's code is read as a system error code (its text comes from this machine).
#pragma once

#include "core/run/results.h"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ioprism::core {

struct ResultsRead {
    std::optional<RunResult> result; // with result->environment filled; nullopt on error
    std::string error; // why it could not be read; "" when it was
    // The document's "version" when it had one (so that callers can tell a file from a
    // newer IOPrism from a damaged one); 0 when there was none.
    int version = 0;
    bool newerVersion = false; // the version is above kResultsFormatVersion

    bool ok() const { return result.has_value(); }
};

ResultsRead readResultsJson(std::string_view text);

enum class RunOutcome { Complete, Stopped, Failed };
std::string_view toString(RunOutcome outcome); // "complete", "stopped", "failed"
// Failed: the run has an error; stopped: stopped by the user, or a step was cut short.
RunOutcome runOutcome(const RunResult &result);

// What a list of runs shows of one: read from a results JSON with the same checks as
// readResultsJson (syntax, format, version, the types of what it reads), but without
// building the intervals and histograms, which are most of a long run's file.
struct ResultsHeadline {
    std::chrono::system_clock::time_point startedAt;
    std::string profileName; // the profile's description, else its specs' names
    std::vector<std::string> targets; // target paths, in the plan's order
    std::vector<std::string> deviceModels; // per target: its device's model, "" unknown
    std::string engine;
    std::string toolVersion;
    // The figures of one step, never the whole run's "summary": a run's steps are unlike
    // (queue depths, block sizes, reads then writes), and an average over them describes
    // none of them. Of a run of one step, that step (the same as its summary); of several,
    // the step with the most IOPS (the first of equals), so that the four figures are one
    // step's. NaN where the file has null, and all NaN when no step completed an I/O.
    double iops = 0;
    double megabytesPerSecond = 0;
    double meanLatencyUs = 0;
    double p99LatencyUs = 0;
    std::optional<std::size_t> figureStep; // the step the figures are of (index in steps)
    std::string figureStepName; // its name ("" when no figureStep)
    Verdict verdict = Verdict::NoDeviceCounters; // the most notable of the steps'
    // Failed: the run has an error; stopped: stopped by the user (or a step cut short).
    RunOutcome outcome = RunOutcome::Complete;
    std::string error; // the run's error text (failed only)
    std::size_t steps = 0;
};

struct ResultsHeadlineRead {
    std::optional<ResultsHeadline> headline;
    std::string error;
};
ResultsHeadlineRead readResultsHeadline(std::string_view text);

// What the headline's figures are of, for a list that shows them: "" for a run of one step
// (its figures are the run's) or without figures; "best of 12: Random read, QD 32" for a
// run of several steps. The GUI says the same in its own, translated words.
std::string headlineFigureLabel(const ResultsHeadline &headline);

// `text` cut to at most `maxChars` characters (UTF-8 code points, a sequence never split),
// ending in "…" when it was cut: a run's error in a one-line list, whole in its tooltip
// or `show`.
std::string shortenedText(std::string_view text, std::size_t maxChars);

// Line and column (both from 1, columns in bytes) of a byte offset into `text`, for
// messages about a place in a file.
struct TextPosition {
    std::size_t line = 1;
    std::size_t column = 1;
};
TextPosition textPosition(std::string_view text, std::size_t byteOffset);

} // namespace ioprism::core
