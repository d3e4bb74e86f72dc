// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/step_summary.h"

#include "core/profile/units.h"
#include "core/report/csv.h"
#include "core/report/html_report.h"

#include <algorithm>
#include <fmt/format.h>

namespace ioprism::core {

std::vector<StepSummaryRow> stepSummary(const RunResult &result)
{
    std::vector<StepSummaryRow> rows;
    for (std::size_t i = 0; i < result.steps.size(); ++i) {
        const StepResult &step = result.steps[i];
        StepSummaryRow row;
        row.step = i;
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
        rows.push_back(std::move(row));
    }
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

bool anyFiles(const std::vector<StepSummaryRow> &rows)
{
    return std::any_of(rows.begin(), rows.end(),
        [](const StepSummaryRow &r) { return r.filesPerSecond.has_value(); });
}

std::string verdictCell(const StepSummaryRow &row)
{
    return row.deviceCompared ? std::string(toString(row.verdict)) : std::string("-");
}

std::vector<std::string> textCells(const StepSummaryRow &row, bool files)
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
    std::vector<std::string> titles = kCsvTitles;
    if (files)
        titles.insert(titles.begin() + kFilesColumn, kFilesCsvTitle);
    std::string out;
    for (std::size_t c = 0; c < titles.size(); ++c)
        out += (c ? "," : "") + titles[c];
    out += "\n";
    for (const auto &row : rows) {
        const bool io = row.ios > 0;
        const std::string filesCell = !files ? std::string()
            : row.filesPerSecond             ? fmt::format("{:.3f},", *row.filesPerSecond)
                                             : std::string(",");
        out += fmt::format("{},{:.3f},{:.3f},{:.3f},{}{},{},{},{}\n", csvField(row.name),
            row.readMegabytesPerSecond, row.writeMegabytesPerSecond, row.iops, filesCell,
            io ? fmt::format("{:.3f}", row.meanLatencyUs) : std::string(),
            io ? fmt::format("{:.3f}", row.p99LatencyUs) : std::string(),
            row.deviceCompared ? std::string(toString(row.verdict)) : std::string(),
            row.complete ? 1 : 0);
    }
    return out;
}

} // namespace

std::string formatStepSummary(const std::vector<StepSummaryRow> &rows, TableFormat format)
{
    if (format == TableFormat::Csv)
        return csvTable(rows);
    const bool files = anyFiles(rows);
    std::vector<std::string> titles = kTitles;
    if (files)
        titles.insert(titles.begin() + kFilesColumn, kFilesTitle);
    std::vector<std::vector<std::string>> cells {titles};
    for (const auto &row : rows)
        cells.push_back(textCells(row, files));
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
