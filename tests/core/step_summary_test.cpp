// SPDX-License-Identifier: GPL-3.0-or-later
// The summary grid: one row per step from a real run's steps, and its text, CSV and
// Markdown forms (what the GUI copies to the clipboard and exports).
#include "core/null_engine.h"
#include "core/report/html_report.h"
#include "core/report/step_summary.h"
#include "core/run/run.h"

#include <gtest/gtest.h>
#include <sstream>

#include "tests/support/session_doubles.h"

namespace ioprism::core {
namespace {

using std::chrono_literals::operator""ms;
using std::chrono_literals::operator""s;

using ioprism::test::NullSink;

RunResult twoStepRun()
{
    Profile p;
    p.setup.runTime = 0s;
    p.setup.interval = 100ms;
    for (const int read : {100, 0}) {
        AccessSpec spec;
        spec.name = read ? "SEQ1M, read" : "SEQ1M | write";
        SpecLine line;
        line.transferSizeBytes = 1 << 20;
        line.alignmentBytes = 4096;
        line.percentRead = std::uint32_t(read);
        spec.lines.push_back(line);
        p.specs.push_back(spec);
    }
    Worker w;
    w.name = "Worker 1";
    w.outstandingIos = 2;
    w.assignedSpecs = {"SEQ1M, read", "SEQ1M | write"};
    Target t;
    t.path = "t0";
    t.testFileSizeBytes = 64 * kMiB;
    w.targets.push_back(t);
    p.hosts.push_back({});
    p.hosts[0].workers.push_back(w);
    RunSettings options;
    options.ioLimitPerTarget = 300;
    NullBackend backend;
    NullCounterSource counters;
    NullSink sink;
    return Run(p, backend, counters, sink, options).execute();
}

TEST(StepSummary, OneRowPerStepWithItsReadAndWriteFigures)
{
    const RunResult r = twoStepRun();
    ASSERT_FALSE(r.error) << r.error->toString();
    const auto rows = stepSummary(r);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].name, "SEQ1M, read");
    EXPECT_GT(rows[0].readMegabytesPerSecond, 0);
    EXPECT_EQ(rows[0].writeMegabytesPerSecond, 0);
    EXPECT_EQ(rows[1].readMegabytesPerSecond, 0);
    EXPECT_GT(rows[1].writeMegabytesPerSecond, 0);
    for (const auto &row : rows) {
        EXPECT_EQ(row.ios, 300u);
        EXPECT_DOUBLE_EQ(row.iops, r.steps[row.step].scopes[0].figures.total.iops);
        EXPECT_DOUBLE_EQ(row.p99LatencyUs, r.steps[row.step].scopes[0].figures.total.latency.p99Us);
        EXPECT_FALSE(row.deviceCompared) << "the null engine reaches no device";
    }
}

TEST(StepSummary, TextCsvAndMarkdownCarryEveryRowAndQuoteTheirSeparators)
{
    const auto rows = stepSummary(twoStepRun());
    ASSERT_EQ(rows.size(), 2u);

    const std::string csv = formatStepSummary(rows, TableFormat::Csv);
    std::istringstream lines(csv);
    std::string line;
    std::getline(lines, line);
    EXPECT_EQ(line,
        "step,read_mb_per_s,write_mb_per_s,iops,mean_latency_us,p99_latency_us,"
        "device_verdict,complete");
    std::getline(lines, line);
    EXPECT_EQ(line.rfind("\"SEQ1M, read\",", 0), 0u) << line;
    EXPECT_EQ(line.substr(line.size() - 2), ",1") << "complete, no device verdict";
    std::getline(lines, line);
    EXPECT_EQ(line.rfind("SEQ1M | write,0.000,", 0), 0u) << line;

    const std::string md = formatStepSummary(rows, TableFormat::Markdown);
    EXPECT_EQ(md.rfind("| Step | Read MB/s | Write MB/s | IOPS | Mean latency | p99 latency | "
                       "Device |\n| --- | ---: |",
                  0),
        0u)
        << md;
    EXPECT_NE(md.find("| SEQ1M \\| write |"), std::string::npos) << "a pipe in a name is escaped";

    const std::string html = formatStepSummary(rows, TableFormat::Html);
    EXPECT_EQ(html.rfind("<table>\n<tr><th>Step</th><th>Read MB/s</th>", 0), 0u) << html;
    EXPECT_NE(
        html.find("<tr><td>SEQ1M | write</td><td align=\"right\">0.0</td>"), std::string::npos)
        << html;

    const std::string text = formatStepSummary(rows, TableFormat::Text);
    std::istringstream textLines(text);
    std::vector<std::string> all;
    while (std::getline(textLines, line))
        all.push_back(line);
    ASSERT_EQ(all.size(), 3u);
    // Aligned: every line as wide as the header, counting "µs" as two columns, not three.
    const auto columns = [](const std::string &l) {
        return std::count_if(l.begin(), l.end(),
            [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
    };
    EXPECT_NE(all[1].find("µs"), std::string::npos);
    EXPECT_EQ(columns(all[1]), columns(all[0])) << all[0] << "\n" << all[1];
    EXPECT_EQ(columns(all[2]), columns(all[0])) << all[0] << "\n" << all[2];
}

TEST(StepSummary, AStepWithoutIoShowsNoLatencyAndACutStepIsMarked)
{
    StepSummaryRow row;
    row.name = "idle";
    row.complete = false;
    const std::string text = formatStepSummary({row}, TableFormat::Text);
    EXPECT_NE(text.find("idle (cut short)"), std::string::npos) << text;
    const std::string csv = formatStepSummary({row}, TableFormat::Csv);
    EXPECT_NE(csv.find("idle,0.000,0.000,0.000,,,,0\n"), std::string::npos) << csv;
}

// A step that opened files (a file tree, the connection rate) adds a Files/s column after
// IOPS in every form; a row without files says so ("-", an empty CSV field).
TEST(StepSummary, FilesPerSecondIsAColumnOnlyWhenAStepOpenedFiles)
{
    StepSummaryRow tree;
    tree.name = "tree";
    tree.iops = 2000;
    tree.ios = 100;
    tree.meanLatencyUs = 10;
    tree.p99LatencyUs = 20;
    tree.filesPerSecond = 1999.6;
    StepSummaryRow plain = tree;
    plain.name = "plain";
    plain.filesPerSecond.reset();

    const std::string csv = formatStepSummary({tree, plain}, TableFormat::Csv);
    EXPECT_EQ(csv,
        "step,read_mb_per_s,write_mb_per_s,iops,files_per_s,mean_latency_us,p99_latency_us,"
        "device_verdict,complete\n"
        "tree,0.000,0.000,2000.000,1999.600,10.000,20.000,,1\n"
        "plain,0.000,0.000,2000.000,,10.000,20.000,,1\n");
    const std::string md = formatStepSummary({tree, plain}, TableFormat::Markdown);
    EXPECT_EQ(md.rfind("| Step | Read MB/s | Write MB/s | IOPS | Files/s | Mean latency |", 0), 0u)
        << md;
    EXPECT_NE(md.find("| tree | 0.0 | 0.0 | 2000 | 2000 |"), std::string::npos) << md;
    EXPECT_NE(md.find("| plain | 0.0 | 0.0 | 2000 | - |"), std::string::npos) << md;

    const std::string without = formatStepSummary({plain}, TableFormat::Text);
    EXPECT_EQ(without.find("Files/s"), std::string::npos) << without;
    EXPECT_EQ(formatStepSummary({plain}, TableFormat::Csv).find("files_per_s"), std::string::npos);
}

// The shareable report: every part present, and every text from the run escaped (a spec
// or host name can hold markup).
TEST(HtmlReport, HasTheSummaryEachStepThePlotsAndTheMachineAllEscaped)
{
    RunResult r = twoStepRun();
    ASSERT_FALSE(r.error);
    r.plan.profile.setup.description = "Disk <script>alert(1)</script> & more";
    Environment e;
    e.hostName = "host<1>";
    e.kernel = "6.1.0";
    e.toolVersion = "0.1.0";
    DeviceFacts d;
    d.path = "t0";
    d.model = "Model \"X\"";
    e.devices.push_back(d);
    const std::vector<ReportImage> images {{"T&P", "AAAA"}};
    const std::string html = writeHtmlReport(r, e, images);
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_EQ(html.find("<script>"), std::string::npos) << "markup from the run is escaped";
    EXPECT_NE(
        html.find("Disk &lt;script&gt;alert(1)&lt;/script&gt; &amp; more"), std::string::npos);
    EXPECT_NE(html.find("<h2>All steps</h2>\n<table>"), std::string::npos);
    EXPECT_NE(html.find("<h3>1. SEQ1M, read</h3>"), std::string::npos);
    EXPECT_NE(html.find("<h3>2. SEQ1M | write</h3>"), std::string::npos);
    EXPECT_NE(html.find("<td>All</td>"), std::string::npos);
    EXPECT_NE(html.find("src=\"data:image/png;base64,AAAA\"><figcaption>T&amp;P</figcaption>"),
        std::string::npos);
    EXPECT_NE(html.find("host&lt;1&gt;"), std::string::npos);
    EXPECT_NE(html.find("Model &quot;X&quot;"), std::string::npos);
    EXPECT_NE(html.find("</html>"), std::string::npos);
}

} // namespace
} // namespace ioprism::core
