// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/step_summary.h"

#include "core/profile/units.h"
#include "core/report/csv.h"
#include "core/report/html_report.h"

#include <algorithm>
#include <fmt/format.h>

namespace ioprism::core {

namespace {

StepSummaryRow rowOf(const StepResult &step, std::size_t index)
{
    StepSummaryRow row;
    row.step = index;
    row.name = step.stepName;
    row.complete = step.complete;
    row.deviceCompared = step.devices.available;
    row.verdict = step.devices.verdict.verdict;
    if (!step.scopes.empty()) {
        const Figures &f = step.scopes.front().figures;
        row.readMegabytesPerSecond = f.read.megabytesPerSecond;
        row.writeMegabytesPerSecond = f.write.megabytesPerSecond;
        row.iops = f.total.iops;
        row.ios = f.total.ios;
        row.meanLatencyUs = f.total.latency.meanUs;
        row.p99LatencyUs = f.total.latency.p99Us;
        if (f.connections)
            row.filesPerSecond = f.connections->open.perSecond;
    }
    return row;
}

PassSpread spreadOf(const std::vector<double> &values)
{
    PassSpread s;
    if (values.empty())
        return s;
    const auto [min, max] = std::minmax_element(values.begin(), values.end());
    s.min = *min;
    s.max = *max;
    double sum = 0;
    for (const double v : values)
        sum += v;
    s.mean = sum / double(values.size());
    return s;
}

// The passes of one test (consecutive steps of the plan) as one row: the best pass's
// figures, the spreads over them all.
StepSummaryRow testRow(
    const RunResult &result, const std::vector<std::size_t> &passes, std::uint32_t planned)
{
    const auto rate = [&](std::size_t i) {
        const StepSummaryRow r = rowOf(result.steps[i], i);
        return std::pair {r.readMegabytesPerSecond + r.writeMegabytesPerSecond, r.iops};
    };
    const bool anyComplete = std::any_of(
        passes.begin(), passes.end(), [&](std::size_t i) { return result.steps[i].complete; });
    std::size_t best = passes.front();
    bool found = false;
    for (const std::size_t i : passes) {
        if (anyComplete && !result.steps[i].complete)
            continue;
        if (!found || rate(i) > rate(best))
            best = i;
        found = true;
    }
    StepSummaryRow row = rowOf(result.steps[best], best);
    // "SEQ1M Q8T1 Read, pass 3/5": the test is "SEQ1M Q8T1 Read".
    if (const std::size_t s = result.steps[best].step; s < result.plan.steps.size()) {
        const std::string suffix
            = fmt::format(", pass {}/{}", result.plan.steps[s].pass + 1, planned);
        if (row.name.ends_with(suffix))
            row.name.resize(row.name.size() - suffix.size());
    }
    row.passes = std::uint32_t(passes.size());
    row.plannedPasses = planned;
    row.passSteps = passes;
    row.complete = passes.size() >= planned
        && std::all_of(
            passes.begin(), passes.end(), [&](std::size_t i) { return result.steps[i].complete; });
    // The spread is over the passes the best was chosen among: a pass cut short by Stop
    // measured a fraction of its time, and its figure is no pass's.
    std::vector<double> mb, iops;
    for (const std::size_t i : passes) {
        if (anyComplete && !result.steps[i].complete)
            continue;
        mb.push_back(rate(i).first);
        iops.push_back(rate(i).second);
    }
    row.megabytesPerSecondSpread = spreadOf(mb);
    row.iopsSpread = spreadOf(iops);
    return row;
}

} // namespace

std::vector<StepSummaryRow> stepSummary(const RunResult &result)
{
    const auto &planned = result.plan.steps;
    const std::uint32_t passes = result.plan.profile.setup.passesPerTest();
    std::vector<StepSummaryRow> rows;
    std::vector<std::size_t> test; // the passes of the test being gathered
    std::size_t lastPlanned = 0;
    const auto flush = [&] {
        if (!test.empty())
            rows.push_back(testRow(result, test, passes));
        test.clear();
    };
    for (std::size_t i = 0; i < result.steps.size(); ++i) {
        const std::size_t s = result.steps[i].step;
        const std::uint32_t pass = s < planned.size() ? planned[s].pass : 0;
        if (passes <= 1 || s >= planned.size()) {
            flush();
            rows.push_back(rowOf(result.steps[i], i));
            continue;
        }
        // A later pass of the test gathered: the next step of the plan.
        if (pass == 0 || test.empty() || s != lastPlanned + 1)
            flush();
        test.push_back(i);
        lastPlanned = s;
    }
    flush();
    return rows;
}

namespace {

const std::vector<std::string> kTitles {
    "Step", "Read MB/s", "Write MB/s", "IOPS", "Mean latency", "p99 latency", "Device"};
const std::vector<std::string> kCsvTitles {"step", "read_mb_per_s", "write_mb_per_s", "iops",
    "mean_latency_us", "p99_latency_us", "device_verdict", "complete"};
// After IOPS, when a row opened files.
constexpr std::size_t kFilesColumn = 4;
const char *const kFilesTitle = "Files/s";
const char *const kFilesCsvTitle = "files_per_s";
// After the device's verdict, when a row is a test of several passes.
const std::vector<std::string> kPassTitles {"Passes", "Mean MB/s", "MB/s min–max"};
const std::vector<std::string> kPassCsvTitles {"passes", "planned_passes", "mean_mb_per_s",
    "min_mb_per_s", "max_mb_per_s", "mean_iops", "min_iops", "max_iops"};

bool anyPasses(const std::vector<StepSummaryRow> &rows)
{
    return std::any_of(
        rows.begin(), rows.end(), [](const StepSummaryRow &r) { return r.plannedPasses > 1; });
}

// "best of 5"; "best of 3 (of 5)" when the run ended before the test's last pass.
std::string passesCell(const StepSummaryRow &row)
{
    if (row.plannedPasses <= 1)
        return "-";
    return row.passes < row.plannedPasses
        ? fmt::format("best of {} (of {})", row.passes, row.plannedPasses)
        : fmt::format("best of {}", row.passes);
}

bool anyFiles(const std::vector<StepSummaryRow> &rows)
{
    return std::any_of(rows.begin(), rows.end(),
        [](const StepSummaryRow &r) { return r.filesPerSecond.has_value(); });
}

std::string verdictCell(const StepSummaryRow &row)
{
    return row.deviceCompared ? std::string(toString(row.verdict)) : std::string("-");
}

std::vector<std::string> textCells(const StepSummaryRow &row, bool files, bool passes)
{
    const bool io = row.ios > 0;
    std::vector<std::string> cells {row.complete ? row.name : row.name + " (cut short)",
        fmt::format("{:.1f}", row.readMegabytesPerSecond),
        fmt::format("{:.1f}", row.writeMegabytesPerSecond), fmt::format("{:.0f}", row.iops),
        io ? formatLatencyUs(row.meanLatencyUs) : "-", io ? formatLatencyUs(row.p99LatencyUs) : "-",
        verdictCell(row)};
    if (files)
        cells.insert(cells.begin() + kFilesColumn,
            row.filesPerSecond ? fmt::format("{:.0f}", *row.filesPerSecond) : "-");
    if (passes) {
        const PassSpread &mb = row.megabytesPerSecondSpread;
        const bool several = row.plannedPasses > 1;
        cells.push_back(passesCell(row));
        cells.push_back(several ? fmt::format("{:.1f}", mb.mean) : "-");
        cells.push_back(several ? fmt::format("{:.1f}–{:.1f}", mb.min, mb.max) : "-");
    }
    return cells;
}

std::string markdownCell(const std::string &text)
{
    std::string out;
    for (const char c : text)
        out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

std::string htmlTable(const std::vector<std::vector<std::string>> &cells)
{
    std::string out = "<table>\n";
    for (std::size_t r = 0; r < cells.size(); ++r) {
        out += "<tr>";
        for (std::size_t c = 0; c < cells[r].size(); ++c) {
            const char *tag = r == 0 ? "th" : "td";
            out += fmt::format("<{}{}>{}</{}>", tag, c > 0 && r > 0 ? " align=\"right\"" : "",
                htmlEscape(cells[r][c]), tag);
        }
        out += "</tr>\n";
    }
    return out + "</table>\n";
}

std::string csvTable(const std::vector<StepSummaryRow> &rows)
{
    const bool files = anyFiles(rows);
    const bool passes = anyPasses(rows);
    std::vector<std::string> titles = kCsvTitles;
    if (files)
        titles.insert(titles.begin() + kFilesColumn, kFilesCsvTitle);
    if (passes)
        titles.insert(titles.end(), kPassCsvTitles.begin(), kPassCsvTitles.end());
    std::string out;
    for (std::size_t c = 0; c < titles.size(); ++c)
        out += (c ? "," : "") + titles[c];
    out += "\n";
    for (const auto &row : rows) {
        const bool io = row.ios > 0;
        const std::string filesCell = !files ? std::string()
            : row.filesPerSecond             ? fmt::format("{:.3f},", *row.filesPerSecond)
                                             : std::string(",");
        out += fmt::format("{},{:.3f},{:.3f},{:.3f},{}{},{},{},{}", csvField(row.name),
            row.readMegabytesPerSecond, row.writeMegabytesPerSecond, row.iops, filesCell,
            io ? fmt::format("{:.3f}", row.meanLatencyUs) : std::string(),
            io ? fmt::format("{:.3f}", row.p99LatencyUs) : std::string(),
            row.deviceCompared ? std::string(toString(row.verdict)) : std::string(),
            row.complete ? 1 : 0);
        if (passes) {
            const PassSpread &mb = row.megabytesPerSecondSpread;
            const PassSpread &iops = row.iopsSpread;
            out += row.plannedPasses > 1
                ? fmt::format(",{},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f}", row.passes,
                    row.plannedPasses, mb.mean, mb.min, mb.max, iops.mean, iops.min, iops.max)
                : std::string(",1,1,,,,,,");
        }
        out += "\n";
    }
    return out;
}

} // namespace

std::string formatStepSummary(const std::vector<StepSummaryRow> &rows, TableFormat format)
{
    if (format == TableFormat::Csv)
        return csvTable(rows);
    const bool files = anyFiles(rows);
    const bool passes = anyPasses(rows);
    std::vector<std::string> titles = kTitles;
    if (files)
        titles.insert(titles.begin() + kFilesColumn, kFilesTitle);
    if (passes)
        titles.insert(titles.end(), kPassTitles.begin(), kPassTitles.end());
    std::vector<std::vector<std::string>> cells {titles};
    for (const auto &row : rows)
        cells.push_back(textCells(row, files, passes));
    if (format == TableFormat::Html)
        return htmlTable(cells);
    if (format == TableFormat::Markdown) {
        std::string out;
        for (std::size_t r = 0; r < cells.size(); ++r) {
            out += "|";
            for (const auto &cell : cells[r])
                out += " " + markdownCell(cell) + " |";
            out += "\n";
            if (r == 0) {
                out += "|";
                for (std::size_t c = 0; c < titles.size(); ++c)
                    out += c == 0 ? " --- |" : " ---: |";
                out += "\n";
            }
        }
        return out;
    }
    // Text: the name left-aligned, figures right-aligned, each column as wide as its
    // widest cell (counted in code points: "µs" is two bytes, one column).
    const auto width = [](const std::string &s) {
        return std::size_t(std::count_if(s.begin(), s.end(),
            [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
    };
    std::vector<std::size_t> widths(titles.size(), 0);
    for (const auto &line : cells)
        for (std::size_t c = 0; c < line.size(); ++c)
            widths[c] = std::max(widths[c], width(line[c]));
    std::string out;
    for (const auto &line : cells) {
        std::string text;
        for (std::size_t c = 0; c < line.size(); ++c) {
            const std::string pad(widths[c] - width(line[c]), ' ');
            text += c == 0 ? line[c] + pad : "  " + pad + line[c];
        }
        out += text + "\n";
    }
    return out;
}

} // namespace ioprism::core
