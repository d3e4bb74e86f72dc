// SPDX-License-Identifier: GPL-3.0-or-later
// What each SweepParameter is, in one table: its names (JSON, CLI, CSV column, titles),
// the kind of its values (a size, a count, a percentage) and the field a point sets.
//
// Code that needs a fact about a parameter asks sweepTraits(p) instead of switching
// over the enum, so a new parameter is one row here (and the few places that act on
// it: the planner's field, validation's rule). The table is indexed by the enum's
// underlying value; the static_asserts in sweep_parameter.cpp fail the build when a row
// is out of order, and sweepParameterIndex's switch (-Wswitch, an error in every
// preset) fails it when an enumerator has no row.
#pragma once

#include "core/profile/profile.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace ioprism::core {

// How a parameter's values read and parse.
enum class SweepValueKind {
    Size, // bytes: written with a binary unit ("4KiB"), parsed by parseSize
    Count, // a whole number of things (I/Os in flight, workers)
    Percent, // 0 ... 100
};

// Where a point's value goes (core/run/plan.cpp).
enum class SweepField {
    LineTransferSize, // every spec line's transfer size (and an alignment equal to it)
    LinePercentRead, // every spec line's % read
    LinePercentRandom, // every spec line's % random
    TargetDepth, // every target in use: its outstanding I/Os
    WorkerCopies, // how many copies of each worker run
    TargetZone, // the part of every target's region the point's I/O is in
};

struct SweepParameterTraits {
    SweepParameter parameter;
    std::string_view name; // JSON and messages: "transferSize" (names.h reads it)
    std::string_view cliName; // parseSweep's and formatSweep's: "bs"
    // Other spellings parseSweep reads (lower case), fio's and Iometer's among them.
    std::array<std::string_view, 2> cliAliases;
    std::string_view csvColumn; // the series CSV's value column: "transfer_size_bytes"
    std::string_view title; // an axis title in reports: "transfer size"
    std::string_view columnTitle; // the CLI summary's column: "size"
    std::string_view defaultAxis; // the axis the GUI starts with: "512..1M:x2"
    // describeSweepValue's words around a count or percent: prefix, then the value,
    // then the suffix for 1 or for any other value ("QD 32", "1 worker", "70 % read").
    std::string_view prefix;
    std::string_view suffixOne;
    std::string_view suffixMany;
    SweepValueKind kind;
    SweepField field;
    // Whether a plot spaces this parameter's values on a log scale when they grow by
    // doubling (sizes, depths, workers), or always linearly (percentages).
    bool logScale;
};

inline constexpr std::array<SweepParameterTraits, 6> kSweepParameterTraits {{
    {SweepParameter::TransferSize, "transferSize", "bs", {"size", "transfersize"},
        "transfer_size_bytes", "transfer size", "size", "512..1M:x2", "", "", "",
        SweepValueKind::Size, SweepField::LineTransferSize, true},
    {SweepParameter::OutstandingIos, "outstandingIos", "qd", {"iodepth", "outstandingios"},
        "outstanding_ios", "outstanding I/Os (queue depth)", "QD", "1..32:x2", "QD ", "", "",
        SweepValueKind::Count, SweepField::TargetDepth, true},
    {SweepParameter::Workers, "workers", "workers", {"threads", "numjobs"}, "workers", "workers",
        "workers", "1..8:x2", "", " worker", " workers", SweepValueKind::Count,
        SweepField::WorkerCopies, true},
    {SweepParameter::PercentRead, "percentRead", "read", {"rwmixread", "percentread"},
        "percent_read", "% read", "% read", "0..100:+25", "", " % read", " % read",
        SweepValueKind::Percent, SweepField::LinePercentRead, false},
    {SweepParameter::PercentRandom, "percentRandom", "random", {"percentrandom", ""},
        "percent_random", "% random", "% random", "0..100:+25", "", " % random", " % random",
        SweepValueKind::Percent, SweepField::LinePercentRandom, false},
    {SweepParameter::Position, "position", "position", {"offset", "zone"}, "position_percent",
        "position (% of the target)", "position", "0..90:+10", "at ", " %", " %",
        SweepValueKind::Percent, SweepField::TargetZone, false},
}};

// The row of `parameter`. A value outside the enum (a cast gone wrong) gets the first.
const SweepParameterTraits &sweepTraits(SweepParameter parameter);

// Every parameter, in declaration order (for lists and tests).
std::span<const SweepParameterTraits> sweepParameterTraits();

} // namespace ioprism::core
