// SPDX-License-Identifier: GPL-3.0-or-later
// The result files of `ioprism-cli run` (--csv, --json, --timeseries, --series-csv):
// checked before the run, written after it, and saved elsewhere when the requested place
// fails at the end (a disk filled during the run, a directory removed), so that a path
// never costs the user a run's results. The path "-" is stdout (one output at most).
// Messages go to stderr; see docs/cli.md.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace ioprism::cli {

struct OutputFile {
    std::string option; // "--json"
    std::string path; // "-": stdout

    bool isStdout() const { return path == kStdoutPath; }
    // "r.json", or "stdout" for "-": for messages.
    std::string displayName() const { return isStdout() ? std::string("stdout") : path; }

    static constexpr const char *kStdoutPath = "-";
};

// The result files `run` and `export` write, those with a path: --csv, --timeseries,
// --json, --series-csv, in that order.
std::vector<OutputFile> requestedOutputs(const std::string &csvPath,
    const std::string &timeseriesPath, const std::string &jsonPath,
    const std::string &seriesCsvPath);

// True when any of these outputs goes to stdout: the human output then goes to stderr.
bool anyToStdout(const std::vector<OutputFile> &files);

// One message per requested output that cannot be written ("--json: cannot write
// /no/such/dir/r.json: No such file or directory"), per file named by two options, and
// per output sent to stdout after the first (stdout carries one document). Each path is
// tried without changing it: an existing file is opened for appending and left as it was,
// a new one is created and removed again; "-" is not opened.
std::vector<std::string> checkOutputFiles(const std::vector<OutputFile> &files);

// "ioprism-results-20240501-123015": the name, without extension, under which results
// that could not be written where asked are saved; the run's start time, UTC.
std::string fallbackStem(std::chrono::system_clock::time_point startedAt);

// Saves `text` as `fileName` in the working directory or, if that fails, in the temp
// directory; never over an existing file (a "-2", "-3"... suffix is added). Returns
// where it was saved, or nullopt when it could not be saved anywhere.
std::optional<std::string> saveFallbackFile(const std::string &fileName, const std::string &text);

// Reports on stderr that `output` could not be written (`reason`, e.g. "No space left on
// device") and saves `text` by saveFallbackFile, saying where; with an empty
// `fallbackName` only reports (the text can be made again, e.g. by `export`).
void reportAndSaveElsewhere(const OutputFile &output, const std::string &reason,
    const std::string &text, const std::string &fallbackName);

// Writes `text` to `output.path` (stdout for "-"); when that fails, removes what was
// partly written and calls reportAndSaveElsewhere. Returns true only when `output.path`
// itself was written.
bool writeOutputFile(
    const OutputFile &output, const std::string &text, const std::string &fallbackName);

} // namespace ioprism::cli
