// SPDX-License-Identifier: GPL-3.0-or-later
// The one bounded reader of files from outside (core/profile/input_file.h says why):
// profiles, .icf files, results files, the run library's entries, its headline cache and
// sidecars, file-tree markers. Every reader of such a file in the CLI, the GUI and the
// platform layer goes through here; core is handed readInputFile as an InputFileReader.
//
// How it stays bounded and never blocks:
//   - the file is opened without blocking (O_NONBLOCK on Linux: opening a FIFO with no
//     writer would otherwise wait forever), then the type and size are taken from the
//     opened descriptor (fstat; GetFileType + GetFileInformationByHandle on Windows), not
//     from the path, so nothing can be swapped in between the check and the open;
//   - only regular files are read (a link is followed, and then its target must be one);
//   - a file over the limit is refused before reading, and the read stops at limit + 1
//     bytes in case it grows meanwhile.
// Nothing here throws.
#pragma once

#include "core/profile/input_file.h"

#include <cstddef>
#include <filesystem>
#include <string_view>

namespace ioprism::platform {

// An InputFileReader: the text of `path` when it is a regular file of at most `maxBytes`.
core::InputFileText readInputFile(
    const std::filesystem::path &path, std::uint64_t maxBytes, std::string_view kindPlural);

// The first `bytes` bytes of `path` (all of it when shorter), under the same rules except
// the size limit: for telling what a file is by its start ("format": "ioprism-results").
core::InputFileText readInputFileHead(const std::filesystem::path &path, std::size_t bytes);

} // namespace ioprism::platform
