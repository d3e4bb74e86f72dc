// SPDX-License-Identifier: GPL-3.0-or-later
// Files the user or the disk hands us (a profile, an .icf, a results file, a library
// entry): what reading one gives, and the limits. The reading itself needs OS calls (open
// without blocking, check the type of what was opened), so it lives in platform/
// (platform/common/input_file_reader.h, platform::readInputFile); core takes it as an
// InputFileReader wherever core reads a file, and stays free of OS headers.
//
// Why one bounded reader: a library entry that is a link to /dev/zero grew `history` to
// 4 GB and aborted it; a FIFO hung it forever; a 3 GiB sparse file took 25 s. Only regular
// files are read, a file over the limit is refused before reading, and the read stops
// after limit + 1 bytes in case the file grows meanwhile. Nothing here throws.
#pragma once

#include "core/profile/problem.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ioprism::core {

// The largest profile or .icf file read. Real ones are under 100 KiB (an .icf with
// hundreds of access specifications is about 50 KiB); 4 MiB leaves room for generated
// profiles while bounding what the parsers (whose memory grows a few times the input)
// can be made to allocate. Also the limit for the library's small sidecar files.
inline constexpr std::uint64_t kMaxProfileFileBytes = std::uint64_t(4) << 20;

// The largest results file read (a library entry, `show`, `compare`, `export`, the GUI's
// Open). An hour at 1 s intervals of 4 workers with CPU and device counters is 8 MB
// (docs/results.md, "intervals"), and the kept intervals are merged pairwise once their
// memory passes 64 MiB, so even a run of days stays well under 100 MB. 256 MiB is room for
// that several times over, while what the JSON parser allocates (a few times the text)
// stays within a desktop's memory.
inline constexpr std::uint64_t kMaxResultsFileBytes = std::uint64_t(256) << 20;

// Why a file was not read; the library says "unreadable", "vanished", ... by it.
enum class InputFileFailure {
    None,
    Missing, // no such file (or it vanished between a listing and the read)
    PermissionDenied,
    NotRegular, // a directory, FIFO, device or socket (or a link to one)
    TooLarge,
    Unreadable, // any other error opening or reading it
};

// The text of a file, or the problem that kept it from being read.
struct InputFileText {
    std::string text;
    // Set (an Error, path "") when the file was not read: words meant to follow the file's
    // name ("is a directory, not a file"; "is 1.0 GiB; IOPrism reads profiles up to 4 MiB",
    // with kindPlural = "profiles"), except a file that cannot be opened, which keeps the
    // form "cannot read PATH: REASON".
    std::optional<Problem> problem;
    InputFileFailure failure = InputFileFailure::None;
};

// Reads `path` whole when it is a regular file of at most `maxBytes` bytes; never reads
// more than maxBytes + 1 bytes and never blocks on what is not a regular file.
using InputFileReader = std::function<InputFileText(
    const std::filesystem::path &path, std::uint64_t maxBytes, std::string_view kindPlural)>;

} // namespace ioprism::core
