// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a file the user hands us (a profile, an .icf) with a size limit.
//
// Profiles are a few kilobytes; anything far larger is a mistake (the wrong file, a
// device, /dev/zero, a FIFO that never ends) and reading it whole would grow memory
// without bound before the parser could reject it. So only regular files are read, a
// file whose size is over the limit is refused before reading, and the read itself
// stops after limit + 1 bytes, in case the file grows between the check and the read.
// Nothing here throws.
#pragma once

#include "core/profile/problem.h"
#include "core/profile/units.h"

#include <cstdint>
#include <filesystem>
#include <istream>
#include <optional>
#include <string>
#include <string_view>

namespace ioprism::core {

// The largest profile or .icf file read. Real ones are under 100 KiB (an .icf with
// hundreds of access specifications is about 50 KiB); 4 MiB leaves room for generated
// profiles while bounding what the parsers (whose memory grows a few times the input)
// can be made to allocate.
inline constexpr std::uint64_t kMaxProfileFileBytes = std::uint64_t(4) << 20;

// The text of a file, or the problem that kept it from being read.
struct InputFileText {
    std::string text;
    std::optional<Problem> problem; // set (an Error, path "") when the file was not read
};

// Reads `path` whole when it is a regular file of at most `maxBytes` bytes. Otherwise
// `problem` says why, in words meant to follow the file's name ("is a directory, not a
// file"; "1.0 GiB is larger than the 4 MiB limit for profiles", with `kindPlural` =
// "profiles"), except a file that cannot be opened, which keeps the form
// "cannot read PATH: REASON". Never reads more than maxBytes + 1 bytes.
InputFileText readInputFile(
    const std::filesystem::path &path, std::uint64_t maxBytes, std::string_view kindPlural);

// The bounded read itself: everything `in` holds when that is at most `maxBytes` bytes,
// nullopt when it holds more (then exactly maxBytes + 1 bytes were consumed) or a read
// failed. An endless stream is therefore safe to pass.
std::optional<std::string> readAtMost(std::istream &in, std::uint64_t maxBytes);

} // namespace ioprism::core
