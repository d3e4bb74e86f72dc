// SPDX-License-Identifier: GPL-3.0-or-later
// A run as one self-contained HTML file that a colleague opens in any browser, without
// IOPrism: what ran (the specs, workers and targets), where (the machine and its
// devices), all steps at a glance, each step's table with its device verdict, the series
// table when the run was one, and the plots, embedded as images.
//
// Core writes the document; the plots are drawn by the GUI, which passes them in as
// base64 PNG (the CLI writes the report without plots).
#pragma once

#include "core/report/compare.h"
#include "core/report/environment.h"
#include "core/run/results.h"

#include <span>
#include <string>
#include <vector>

namespace ioprism::core {

struct ReportImage {
    std::string title; // the figure's caption, e.g. "Throughput"
    std::string pngBase64; // the PNG file, base64-encoded
};

std::string writeHtmlReport(
    const RunResult &result, const Environment &environment, std::span<const ReportImage> images);

// A comparison of runs (core/report/compare.h) as one self-contained HTML file: the runs
// (start, description, host, engine, targets, outcome), what differs between their setups,
// the curves overlaid (the given images, the GUI's plot; without any, drawn here as an
// inline SVG, so the CLI's report has them too), the delta table with each change
// coloured better or worse, and each run's full setup and environment. `labels` name the
// runs, one per run.
std::string writeComparisonHtml(const Comparison &comparison,
    const std::vector<const RunResult *> &runs, const std::vector<std::string> &labels,
    std::span<const ReportImage> images);

// Text safe inside HTML elements and attribute values.
std::string htmlEscape(std::string_view text);

} // namespace ioprism::core
