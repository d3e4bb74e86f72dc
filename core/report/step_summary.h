// SPDX-License-Identifier: GPL-3.0-or-later
// All steps of a run at a glance, in the manner CrystalDiskMark made familiar: one row per
// step with its read and write MB/s, IOPS, mean and p99 latency and the device's verdict.
// The GUI shows it above the detailed table and copies it; the text forms are written
// here so that a copy, an export and the command line say the same.
#pragma once

#include "core/run/results.h"

#include <optional>
#include <string>
#include <vector>

namespace ioprism::core {

// A figure over the passes of a test (TestSetup::passes).
struct PassSpread {
    double mean = 0;
    double min = 0;
    double max = 0;
};

struct StepSummaryRow {
    std::size_t step = 0; // index in RunResult::steps; with passes, the best pass's
    std::string name; // the step's name ("SEQ1M Q8T1 Read", "Random read, QD 8")
    double readMegabytesPerSecond = 0;
    double writeMegabytesPerSecond = 0;
    double iops = 0; // read and write together
    std::uint64_t ios = 0; // 0: no I/O completed (latencies are then meaningless)
    double meanLatencyUs = 0;
    double p99LatencyUs = 0;
    // Files opened per second (a file tree; targets reopened, Iometer's connection rate):
    // unset when the step opened none. The tables add a Files/s column when a row has it.
    std::optional<double> filesPerSecond;
    bool deviceCompared = false; // the device's counters were read over the step
    Verdict verdict = Verdict::NoDeviceCounters;
    bool complete = true; // false: the step was cut short (with passes: a pass, or passes)
    // CrystalDiskMark's passes: a test run `plannedPasses` times is one row, its figures
    // those of its best pass (the most MB/s, reads and writes together, as CrystalDiskMark
    // reports; among the passes that ran to their end, when any did), `name` the test's
    // (without ", pass k/N"). `passSteps`: every pass measured, as indices in
    // RunResult::steps; the spreads are over those the best was chosen among. A step
    // without passes: passes 1.
    std::uint32_t passes = 1;
    std::uint32_t plannedPasses = 1;
    std::vector<std::size_t> passSteps;
    PassSpread megabytesPerSecondSpread; // reads and writes together, decimal MB/s
    PassSpread iopsSpread;
};

// One row per step; the passes of a test (PlannedStep::pass) together in one row.
std::vector<StepSummaryRow> stepSummary(const RunResult &result);

enum class TableFormat {
    Text, // columns aligned with spaces, for a terminal or a plain-text mail
    Csv, // quoted as the other CSV files (core/report/csv.h), numbers without units (units
         // in the header), for spreadsheets
    Markdown, // a pipe table, for issues, wikis and chats
    Html, // a <table>, which word processors and spreadsheets paste as a table
};

// The rows as a table with a header line; text and Markdown give latencies with an
// adaptive unit ("412 µs", "1.25 ms"), CSV in µs. Ends with a newline. When a row has
// passes, three columns follow: "best of N", the passes' mean MB/s and their min–max
// (CSV: passes, planned_passes and the mean, min and max of MB/s and of IOPS).
std::string formatStepSummary(const std::vector<StepSummaryRow> &rows, TableFormat format);

} // namespace ioprism::core
