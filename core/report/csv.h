// SPDX-License-Identifier: GPL-3.0-or-later
// The two CSV outputs (columns in docs/results.md):
//
//  * the Iometer-layout results file, which tools written for Iometer 1.1.0 read: the
//    test header ('Test Type, 'Version, 'Time Stamp), then per step the access
//    specifications and a 'Results block with Iometer's columns and row types (ALL,
//    MANAGER, PROCESSOR, WORKER, DISK), then "'End Test" (or "Aborted test");
//  * the tidy time series: one header line, then one row per interval per scope, which
//    the CLI streams while the run goes (timeSeriesHeader + timeSeriesRows) and
//    writeTimeSeriesCsv produces at once, through the same code;
//  * the tidy series: one row per point of a series (core/run/series_result.h), its
//    swept values as columns, then its figures as the median of its trials.
//
// Fields are quoted as RFC 4180 says (a field holding a comma, a double quote, CR or LF
// is enclosed in double quotes, with inner quotes doubled). Lines end with "\n".
#pragma once

#include "core/profile/profile.h"
#include "core/report/environment.h"
#include "core/run/results.h"

#include <string>
#include <string_view>

namespace ioprism::core {

// One CSV field, quoted if it needs to be.
std::string csvField(std::string_view text);

// The Iometer-layout results file. `filter` drops rows as Iometer's "Record Results"
// does: NoTargets drops DISK rows, NoWorkers drops WORKER rows, NoTargetsNoWorkers
// both, None every result row (the file keeps its header and step blocks).
std::string writeIometerCsv(
    const RunResult &result, const Environment &environment, RecordFilter filter);

// The time series: the header line, the rows of one interval (one per scope), and the
// whole run's file (the header, then the rows of every interval in order).
std::string timeSeriesHeader();
std::string timeSeriesRows(const IntervalSample &sample);
std::string writeTimeSeriesCsv(const RunResult &result);

// The series: a header line, then one row per point (seriesPoints); only the header
// when the run was no series.
std::string writeSeriesCsv(const RunResult &result);

} // namespace ioprism::core
