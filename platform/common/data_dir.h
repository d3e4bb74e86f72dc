// SPDX-License-Identifier: GPL-3.0-or-later
// Where IOPrism keeps the user's data (the run library, docs/results.md "The run
// library"): the one OS-specific decision about it, made here.
#pragma once

#include "core/result.h"

#include <filesystem>

namespace ioprism::platform {

// The environment variable that replaces the whole data folder (tests, portable use).
inline constexpr const char *kDataDirVariable = "IOPRISM_DATA_DIR";

// The user's IOPrism data folder, not created:
//   $IOPRISM_DATA_DIR when set and not empty, else
//   Linux:   $XDG_DATA_HOME/ioprism (when absolute), else ~/.local/share/ioprism
//   Windows: %LOCALAPPDATA%\IOPrism
// An error (operation "find the data folder") when none of these can be known, e.g. no
// HOME. Never throws.
core::Result<std::filesystem::path> userDataDirectory();

// The folder of the run library: <data folder>/runs.
core::Result<std::filesystem::path> runLibraryDirectory();

} // namespace ioprism::platform
