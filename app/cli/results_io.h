// SPDX-License-Identifier: GPL-3.0-or-later
// Opening saved runs from the command line: a results JSON by its path, or a run of the
// library by its id (or a unique start of it), as `show` and `compare` take them.
// Messages go to the caller; nothing here exits or throws.
#pragma once

#include "core/library/run_library.h"
#include "core/run/results.h"

#include <optional>
#include <string>

namespace ioprism::cli {

// The run library of this user (platform::runLibraryDirectory), or nullopt with `error`
// saying why there is none (no HOME, no LOCALAPPDATA).
std::optional<core::RunLibrary> userRunLibrary(std::string &error);

// True when `argument` names a results file (an existing file whose start names the
// format "ioprism-results", damaged or not) or, when it is no file, a run of the library.
bool namesSavedRun(const std::string &argument);

struct OpenedRun {
    core::RunResult result;
    std::string label; // the path as given, or the library id
};

// Reads the results of `argument` (a path or a library id). On failure, nullopt and an
// `error` naming the file: "r.json: truncated: ...".
std::optional<OpenedRun> openSavedRun(const std::string &argument, std::string &error);

// `show` of a saved run: a header, then the tables `run` printed when it ended.
// Exit code: 0, or 2 with the message on stderr.
int showSavedRun(const std::string &argument);

} // namespace ioprism::cli
