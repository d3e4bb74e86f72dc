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
//
// Every field of every CSV file IOPrism writes (these three, `compare --csv`, the step
// summary) goes through csvField, which also neutralises formulas (OWASP, "CSV
// Injection"): a spreadsheet runs a cell that begins with = + - @ (or a tab or CR, which
// some strip first) as a formula, so a spec, worker, host or target named
// =HYPERLINK("http://x","y") would become a link, or worse, in the user's spreadsheet.
// Such a field is written with a leading single quote, which makes it text, and quoted:
// "'=HYPERLINK(""http://x"",""y"")". A number ("-1", "-0.5") is left as it is: data.
#pragma once

#include "core/profile/profile.h"
#include "core/report/environment.h"
#include "core/run/results.h"

#include <string>
#include <string_view>

namespace ioprism::core {

// One CSV field, quoted if it needs to be, with a formula neutralised (above).
std::string csvField(std::string_view text);
// True when a spreadsheet would take `text` as a formula (and csvField neutralises it).
bool csvFieldIsFormula(std::string_view text);

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
