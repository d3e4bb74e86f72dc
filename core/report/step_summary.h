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

struct StepSummaryRow {
    std::size_t step = 0; // index in RunResult::steps
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
    bool complete = true; // false: the step was cut short
};

std::vector<StepSummaryRow> stepSummary(const RunResult &result);

enum class TableFormat {
    Text, // columns aligned with spaces, for a terminal or a plain-text mail
    Csv, // quoted as the other CSV files (core/report/csv.h), numbers without units (units
         // in the header), for spreadsheets
    Markdown, // a pipe table, for issues, wikis and chats
    Html, // a <table>, which word processors and spreadsheets paste as a table
};

// The rows as a table with a header line; text and Markdown give latencies with an
// adaptive unit ("412 µs", "1.25 ms"), CSV in µs. Ends with a newline.
std::string formatStepSummary(const std::vector<StepSummaryRow> &rows, TableFormat format);

} // namespace ioprism::core
