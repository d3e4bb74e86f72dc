// SPDX-License-Identifier: GPL-3.0-or-later
// Pure parsers for the Linux block-layer statistics: /proc/diskstats and
// /sys/block/<dev>/stat (Documentation/admin-guide/iostats.rst).
//
// Kernels have printed four layouts, and a reader must take all of them:
//   * 4 statistics fields: partitions on kernels before 2.6.25 (reads, sectors read,
//     writes, sectors written);
//   * 11 fields: the classic set (kernels up to 4.17);
//   * 15 fields: plus discards (4.18+);
//   * 17 fields: plus flushes (5.5+).
// /proc/diskstats puts "major minor name" in front of them (7, 14, 18 or 20 words).
// Counts between the known ones (a future kernel adding a field) are read up to the
// largest known layout they contain; the rest is ignored.
//
// No allocation on the per-sample path: parseDiskStatFields and parseDiskstatsLine
// work on the caller's text.
#pragma once

#include "core/counters.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ioprism::core {

// The statistics fields of one device (the content of /sys/block/<dev>/stat, or what
// follows the name on a /proc/diskstats line). nullopt when there are fewer than 4
// numbers, between 5 and 10, or a word is not a number.
std::optional<DiskCounters> parseDiskStatFields(std::string_view text);

struct DiskstatsLine {
    std::uint32_t major = 0;
    std::uint32_t minor = 0;
    std::string_view name; // points into the parsed text
    DiskCounters counters;
};

// One /proc/diskstats line; nullopt when it is malformed.
std::optional<DiskstatsLine> parseDiskstatsLine(std::string_view line);

struct DiskstatsEntry {
    std::uint32_t major = 0;
    std::uint32_t minor = 0;
    std::string name;
    DiskCounters counters;
};

// A whole /proc/diskstats; malformed lines are skipped.
std::vector<DiskstatsEntry> parseDiskstats(std::string_view text);

// The counters of the device named `name` in a /proc/diskstats text, without building
// the whole table; nullopt when it is not there.
std::optional<DiskCounters> findInDiskstats(std::string_view text, std::string_view name);

// The read_bytes of a /proc/<pid>/io text: the bytes that process asked its block devices
// to read (its own I/O, the metadata reads made on its behalf, read-ahead); nullopt when
// the line is missing or malformed.
std::optional<std::uint64_t> parseProcIoReadBytes(std::string_view text);

} // namespace ioprism::core
