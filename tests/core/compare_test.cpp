// SPDX-License-Identifier: GPL-3.0-or-later
// Comparing runs (core/report/compare.h) on hand-made results: matching by step name,
// the sense of each metric's change, unmatched steps kept, setup differences named.
#include "core/null_engine.h"
#include "core/report/compare.h"
#include "core/report/html_report.h"
#include "core/run/run.h"
#include "support/test_support.h"

#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace ioprism::core;
using namespace std::chrono_literals;
using ioprism::test::occurrences;
using testing::HasSubstr;

namespace {

// A step whose All scope did `ios` reads in 1 s, each taking `latencyUs`.
StepResult step(const std::string &name, std::uint64_t ios, std::uint64_t latencyUs)
{
    Measurement m;
    for (std::uint64_t i = 0; i < ios; ++i)
        m.read.histogram.record(latencyUs * 1000);
    m.read.bytes = ios * 4096;
    m.elapsed = 1s;
    StepResult s;
    s.stepName = name;
    s.measuredSeconds = 1;
    s.scopes.push_back({Scope {Scope::Kind::All, -1, -1, "All", {}}, m, computeFigures(m)});
    return s;
}

RunResult run(CacheMode cache, std::uint64_t seed, std::string engine)
{
    RunResult r;
    r.engine = std::move(engine);
    Worker w;
    w.name = "Worker 1";
    w.seed = seed;
    Target t;
    t.path = "t.dat";
    t.cacheMode = cache;
    w.targets.push_back(t);
    Host h;
    h.workers.push_back(w);
    r.plan.profile.hosts.push_back(h);
    return r;
}

const CompareRow *rowNamed(const Comparison &c, const std::string &name)
{
    for (const auto &row : c.rows)
        if (row.name == name)
            return &row;
    return nullptr;
}

} // namespace

TEST(Compare, MoreIopsIsBetterAndMoreLatencyIsWorse)
{
    RunResult a = run(CacheMode::Direct, 1, "io_uring");
    a.steps = {step("4K read", 1000, 100)};
    RunResult b = run(CacheMode::Direct, 1, "io_uring");
    b.steps = {step("4K read", 1200, 150)};
    const Comparison c = compareRuns({&a, &b}, 0);
    ASSERT_EQ(c.rows.size(), 1u);
    const CompareRow &row = c.rows[0];
    EXPECT_TRUE(row.matched());
    const double baseIops = (*row.runs[0])[CompareMetric::Iops];
    const double iops = (*row.runs[1])[CompareMetric::Iops];
    const Change more = changeOf(CompareMetric::Iops, baseIops, iops);
    EXPECT_DOUBLE_EQ(more.absolute, 200);
    EXPECT_DOUBLE_EQ(more.percent, 20);
    EXPECT_EQ(more.sense, ChangeSense::Better);
    const Change slower = changeOf(CompareMetric::MeanLatencyUs,
        (*row.runs[0])[CompareMetric::MeanLatencyUs], (*row.runs[1])[CompareMetric::MeanLatencyUs]);
    EXPECT_DOUBLE_EQ(slower.absolute, 50);
    EXPECT_EQ(slower.sense, ChangeSense::Worse);
    // Against the other run as the baseline, the senses turn round.
    EXPECT_EQ(changeOf(CompareMetric::Iops, iops, baseIops).sense, ChangeSense::Worse);
    EXPECT_EQ(changeOf(CompareMetric::P99LatencyUs, 150, 100).sense, ChangeSense::Better);
    EXPECT_EQ(changeOf(CompareMetric::MegabytesPerSecond, 5, 5).sense, ChangeSense::Same);
    EXPECT_EQ(changeOf(CompareMetric::MeanLatencyUs, NAN, 5).sense, ChangeSense::Unknown);
    EXPECT_TRUE(std::isnan(changeOf(CompareMetric::Iops, 0, 5).percent));
    EXPECT_TRUE(c.differences.empty());
}

namespace {

// The step of `step()` on a file tree that opened `files` files in its second.
StepResult treeStep(const std::string &name, std::uint64_t files)
{
    StepResult s = step(name, files, 100);
    ConnectionFigures c;
    c.open.count = c.close.count = c.connection.count = files;
    c.open.perSecond = c.close.perSecond = c.connection.perSecond = double(files);
    s.scopes.front().figures.connections = c;
    return s;
}

} // namespace

// Files opened per second is a metric of its own (higher is better), in every output of
// a comparison, but only when some run's steps opened files: a comparison of runs that
// open none has the four metrics it always had.
TEST(Compare, FilesPerSecondIsComparedOnlyWhenARunOpenedFiles)
{
    RunResult plainA = run(CacheMode::Direct, 1, "io_uring");
    plainA.steps = {step("4K read", 1000, 100)};
    RunResult plainB = plainA;
    const Comparison plain = compareRuns({&plainA, &plainB}, 0);
    EXPECT_EQ(plain.metrics,
        (std::vector<CompareMetric> {CompareMetric::Iops, CompareMetric::MegabytesPerSecond,
            CompareMetric::MeanLatencyUs, CompareMetric::P99LatencyUs}));
    EXPECT_THAT(writeComparisonCsv(plain, {&plainA, &plainB}, {"a", "b"}),
        testing::Not(HasSubstr("files_per_s")));
    EXPECT_THAT(writeComparisonJson(plain, {&plainA, &plainB}, {"a", "b"}),
        testing::Not(HasSubstr("files_per_s")));
    EXPECT_THAT(writeComparisonHtml(plain, {&plainA, &plainB}, {"a", "b"}, {}),
        testing::Not(HasSubstr("files/s")));

    RunResult a = run(CacheMode::Direct, 1, "io_uring");
    a.steps = {treeStep("tree", 800), step("4K read", 1000, 100)};
    RunResult b = run(CacheMode::Buffered, 1, "io_uring");
    b.steps = {treeStep("tree", 1000), step("4K read", 1000, 100)};
    const Comparison c = compareRuns({&a, &b}, 0);
    ASSERT_EQ(c.metrics.size(), 5u);
    EXPECT_EQ(c.metrics.back(), CompareMetric::FilesPerSecond);
    EXPECT_EQ(metricKey(CompareMetric::FilesPerSecond), "files_per_s");
    EXPECT_EQ(metricLabel(CompareMetric::FilesPerSecond), "files/s");
    EXPECT_TRUE(higherIsBetter(CompareMetric::FilesPerSecond));
    EXPECT_EQ(formatMetric(CompareMetric::FilesPerSecond, 1234.4), "1234");
    const CompareRow *tree = rowNamed(c, "tree");
    ASSERT_NE(tree, nullptr);
    const Change more
        = changeOf(CompareMetric::FilesPerSecond, (*tree->runs[0])[CompareMetric::FilesPerSecond],
            (*tree->runs[1])[CompareMetric::FilesPerSecond]);
    EXPECT_DOUBLE_EQ(more.absolute, 200);
    EXPECT_DOUBLE_EQ(more.percent, 25);
    EXPECT_EQ(more.sense, ChangeSense::Better);
    // A step that opened no files has no files/s (not 0 files/s).
    EXPECT_TRUE(std::isnan((*rowNamed(c, "4K read")->runs[1])[CompareMetric::FilesPerSecond]));

    const std::string csv = writeComparisonCsv(c, {&a, &b}, {"a.json", "b.json"});
    EXPECT_THAT(
        csv, HasSubstr("step,tree,tree,,,1,files_per_s,higher,2,b.json,0,1000,800,200,25,better"));
    EXPECT_THAT(csv, HasSubstr("step,4K read,4K read,,,1,files_per_s,higher,2,b.json,0,,,,,n/a"));
    const auto json = nlohmann::json::parse(writeComparisonJson(c, {&a, &b}, {"a", "b"}));
    const auto &files = json.at("rows")[0].at("metrics").at("files_per_s");
    EXPECT_EQ(files.at("better_when"), "higher");
    EXPECT_EQ(files.at("values"), nlohmann::json::parse("[800.0, 1000.0]"));
    EXPECT_EQ(files.at("sense")[1], "better");
    const std::string html = writeComparisonHtml(c, {&a, &b}, {"a", "b"}, {});
    EXPECT_EQ(occurrences(html, "<th>files/s</th><th>Change</th>"), 1u);
    EXPECT_THAT(html,
        HasSubstr("<td class=\"n\">1000</td><td class=\"n better\" "
                  "title=\"better\">+25.0 %</td>"));
    EXPECT_THAT(html, HasSubstr("higher IOPS, MB/s and files/s are better"));

    // Against a run that opened none, the metric is there, the plain run's values empty.
    const Comparison mixed = compareRuns({&plainA, &a}, 0);
    ASSERT_EQ(mixed.metrics.size(), 5u);
    EXPECT_THAT(writeComparisonCsv(mixed, {&plainA, &a}, {"plain", "tree"}),
        HasSubstr("step,4K read,4K read,,,1,files_per_s,higher,1,plain,1,,,,,baseline"));
}

TEST(Compare, StepsInOneRunOnlyAreKeptAsUnmatched)
{
    RunResult a = run(CacheMode::Direct, 1, "io_uring");
    a.steps = {step("4K read", 1000, 100), step("64K write", 10, 900)};
    RunResult b = run(CacheMode::Direct, 1, "io_uring");
    b.steps = {step("1M read", 5, 2000), step("4K read", 900, 110)};
    const Comparison c = compareRuns({&a, &b}, 0);
    ASSERT_EQ(c.rows.size(), 3u);
    // The baseline's order first, then what only the other run has.
    EXPECT_EQ(c.rows[0].name, "4K read");
    EXPECT_EQ(c.rows[1].name, "64K write");
    EXPECT_EQ(c.rows[2].name, "1M read");
    EXPECT_TRUE(c.rows[0].matched());
    EXPECT_FALSE(c.rows[1].matched());
    EXPECT_TRUE(c.rows[1].runs[0].has_value());
    EXPECT_FALSE(c.rows[1].runs[1].has_value());
    EXPECT_FALSE(c.rows[2].runs[0].has_value());
    // A step without I/O has no latency to compare (not 0).
    RunResult idle = run(CacheMode::Direct, 1, "io_uring");
    idle.steps = {step("4K read", 0, 0)};
    const Comparison withIdle = compareRuns({&a, &idle}, 1);
    EXPECT_TRUE(
        std::isnan((*rowNamed(withIdle, "4K read")->runs[1])[CompareMetric::MeanLatencyUs]));
}

TEST(Compare, ARepeatedStepNameIsMatchedByOccurrence)
{
    RunResult a = run(CacheMode::Direct, 1, "io_uring");
    a.steps = {step("4K read", 1000, 100), step("4K read", 2000, 100)};
    RunResult b = a;
    const Comparison c = compareRuns({&a, &b}, 0);
    ASSERT_EQ(c.rows.size(), 2u);
    EXPECT_EQ(c.rows[1].name, "4K read (#2)");
    EXPECT_DOUBLE_EQ((*c.rows[1].runs[1])[CompareMetric::Iops], 2000);
}

// A run of three passes per test (CrystalDiskMark's) is compared by each test's best pass,
// under the test's name: it matches a run of one pass, and the best of its passes is what
// is compared.
TEST(Compare, ARunInPassesIsComparedByEachTestsBestPass)
{
    RunResult once = run(CacheMode::Direct, 1, "io_uring");
    once.steps = {step("4K read", 1000, 100), step("4K write", 500, 200)};
    RunResult passes = run(CacheMode::Direct, 1, "io_uring");
    passes.plan.profile.setup.passes = 3;
    const std::vector<std::uint64_t> ios {1100, 1300, 1200, 600, 550, 500};
    for (std::size_t i = 0; i < ios.size(); ++i) {
        const std::string test = i < 3 ? "4K read" : "4K write";
        PlannedStep planned;
        planned.specName = test;
        planned.pass = std::uint32_t(i % 3);
        planned.cycle = "pass " + std::to_string(i % 3 + 1) + "/3";
        planned.name = test + ", " + planned.cycle;
        passes.plan.steps.push_back(planned);
        StepResult s = step(planned.name, ios[i], 100);
        s.step = i;
        passes.steps.push_back(s);
    }
    const Comparison c = compareRuns({&once, &passes}, 0);
    ASSERT_EQ(c.rows.size(), 2u) << "a row per test, matched by the test's name";
    EXPECT_TRUE(c.rows[0].matched());
    EXPECT_TRUE(c.rows[1].matched());
    EXPECT_DOUBLE_EQ((*c.rows[0].runs[1])[CompareMetric::Iops], 1300) << "the best pass";
    EXPECT_DOUBLE_EQ((*c.rows[1].runs[1])[CompareMetric::Iops], 600);
}

TEST(Compare, SetupDifferencesNameCacheModeAndEngineButNotSeeds)
{
    RunResult direct = run(CacheMode::Direct, 1, "io_uring");
    RunResult buffered = run(CacheMode::Buffered, 2, "sync");
    buffered.environment.kernel = "6.18";
    const Comparison c = compareRuns({&direct, &buffered}, 0);
    std::vector<std::string> what;
    for (const auto &d : c.differences)
        what.push_back(d.what);
    EXPECT_THAT(what, testing::UnorderedElementsAre("cache mode", "engine", "kernel"));
    for (const auto &d : c.differences)
        if (d.what == "cache mode") {
            EXPECT_EQ(d.path, "profile.hosts[0].workers[0].targets[0].cache");
            EXPECT_EQ(d.values, (std::vector<std::string> {"direct", "buffered"}));
        }
    // The CSV has the difference as rows of its own, one per run.
    const std::string csv
        = writeComparisonCsv(c, {&direct, &buffered}, {"direct.json", "buffered.json"});
    EXPECT_THAT(csv,
        HasSubstr(
            "setup,cache "
            "mode,,,profile.hosts[0].workers[0].targets[0].cache,,,,2,buffered.json,0,buffered"));
}

namespace {

// A series of the null engine over the queue depths `depths`, 300 I/Os per point.
RunResult nullSeries(std::vector<std::uint64_t> depths)
{
    Profile p;
    p.setup.interval = 100ms;
    AccessSpec spec;
    spec.name = "4K read";
    SpecLine line;
    line.transferSizeBytes = 4096;
    line.alignmentBytes = 4096;
    line.percentRead = 100;
    spec.lines.push_back(line);
    p.specs.push_back(spec);
    Worker w;
    w.name = "Worker 1";
    w.assignedSpecs = {"4K read"};
    w.seed = 3;
    Target t;
    t.path = "t.dat";
    t.testFileSizeBytes = 16 * kMiB;
    w.targets.push_back(t);
    Host h;
    h.workers.push_back(w);
    p.hosts.push_back(h);
    Series s;
    SweepAxis axis;
    axis.parameter = SweepParameter::OutstandingIos;
    axis.values = std::move(depths);
    s.axes.push_back(axis);
    s.ios = 300;
    p.setup.series = s;
    NullBackend backend;
    NullCounterSource counters;
    RunSink sink;
    return Run(p, backend, counters, sink, {}).execute();
}

} // namespace

TEST(Compare, SeriesPointsAreMatchedBySpecAndSweptValues)
{
    const RunResult a = nullSeries({1, 4});
    const RunResult b = nullSeries({1, 8});
    ASSERT_FALSE(a.error);
    ASSERT_FALSE(b.error);
    const Comparison c = compareRuns({&a, &b}, 0);
    ASSERT_EQ(c.rows.size(), 3u);
    for (const auto &row : c.rows)
        EXPECT_EQ(row.kind, CompareRow::Kind::Point);
    EXPECT_EQ(c.rows[0].pointValues, "outstandingIos=1");
    EXPECT_TRUE(c.rows[0].matched());
    EXPECT_EQ(c.rows[1].pointValues, "outstandingIos=4");
    EXPECT_FALSE(c.rows[1].runs[1].has_value());
    EXPECT_EQ(c.rows[2].pointValues, "outstandingIos=8");
    EXPECT_FALSE(c.rows[2].runs[0].has_value());
    EXPECT_THAT(c.rows[0].name, HasSubstr("4K read"));
    // The series axes differ: a setup difference of the profiles.
    bool axis = false;
    for (const auto &d : c.differences)
        axis |= d.path.find("series") != std::string::npos;
    EXPECT_TRUE(axis);
}

// ---------------------------------------------------------------- the comparison report

namespace {

// A run of `name`'s step with a few measured intervals of its IOPS.
RunResult runWithCurve(CacheMode cache, std::uint64_t ios, const std::string &extraStep)
{
    RunResult r = run(cache, 1, "io_uring");
    r.plan.profile.setup.description = "4K random read";
    r.steps.push_back(step("4K read", ios, 100));
    if (!extraStep.empty())
        r.steps.push_back(step(extraStep, ios, 100));
    for (int i = 0; i < 3; ++i) {
        IntervalSample s;
        s.phase = RunPhase::Measuring;
        s.startSeconds = i;
        s.endSeconds = i + 1;
        Figures f;
        f.total.iops = double(ios) * (1 + 0.1 * i);
        s.scopes.push_back({Scope {Scope::Kind::All, -1, -1, "All", {}}, f});
        r.intervals.push_back(s);
    }
    return r;
}

std::size_t count(const std::string &text, const std::string &what)
{
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

} // namespace

TEST(ComparisonReport, HasTheRunsTheirDifferencesTheDeltaTableAndTheCurves)
{
    const RunResult a = runWithCurve(CacheMode::Direct, 1000, "");
    const RunResult b = runWithCurve(CacheMode::Buffered, 2000, "64K write");
    const Comparison c = compareRuns({&a, &b}, 0);
    const std::string html = writeComparisonHtml(c, {&a, &b}, {"direct <1>", "buffered"}, {});
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_THAT(html, HasSubstr("</html>\n"));
    // The runs by their names (escaped), in the runs table, the delta table and the legend.
    EXPECT_THAT(html, HasSubstr("direct &lt;1&gt;"));
    EXPECT_EQ(html.find("direct <1>"), std::string::npos);
    EXPECT_GE(count(html, "buffered"), 3u);
    EXPECT_THAT(html, HasSubstr("<h2>Runs</h2>"));
    // What differs, with each run's value.
    EXPECT_THAT(html, HasSubstr("<td title=\"profile.hosts[0].workers[0].targets[0]"));
    EXPECT_THAT(html, HasSubstr(">cache mode</td><td>direct</td><td>buffered</td>"));
    // The delta table: twice the IOPS is better (+100 %); the step only the second run
    // has is shown as missing from the first.
    EXPECT_THAT(html, HasSubstr("<td class=\"n better\" title=\"better\">+100.0 %</td>"));
    EXPECT_THAT(html, HasSubstr("not in this run"));
    EXPECT_THAT(html, HasSubstr("64K write"));
    // The curves: without an image given, an inline SVG with one line per run.
    EXPECT_EQ(count(html, "<svg"), 1u);
    EXPECT_EQ(count(html, "<polyline"), 2u);
    EXPECT_THAT(html, HasSubstr(std::string("stroke=\"") + std::string(runColor(1)) + "\""));
    EXPECT_THAT(html, HasSubstr("time (s)"));
    // Each run's whole setup, folded.
    EXPECT_EQ(count(html, "<details>"), 2u);
    EXPECT_EQ(count(html, "What ran</h3>"), 2u);
    EXPECT_EQ(count(html, "<table>"), count(html, "</table>"));
}

TEST(ComparisonReport, TheGuisPlotReplacesTheDrawnCurves)
{
    const RunResult a = runWithCurve(CacheMode::Direct, 1000, "");
    const RunResult b = runWithCurve(CacheMode::Buffered, 2000, "");
    const Comparison c = compareRuns({&a, &b}, 1);
    const ReportImage image {"IOPS of each run", "iVBORw0KGgo="};
    const std::string html = writeComparisonHtml(c, {&a, &b}, {"a", "b"}, {&image, 1});
    EXPECT_THAT(html,
        HasSubstr("<img alt=\"IOPS of each run\" src=\"data:image/png;base64,"
                  "iVBORw0KGgo=\">"));
    EXPECT_EQ(html.find("<svg"), std::string::npos);
    // The baseline is the second run: the first is measured against it.
    EXPECT_THAT(html, HasSubstr("b <em>(baseline)</em>"));
    EXPECT_THAT(html, HasSubstr("<td class=\"n worse\" title=\"worse\">-50.0 %</td>"));
}

TEST(ComparisonCurves, SeriesOverTheSameParameterAreCurvesOverItsValues)
{
    const RunResult a = nullSeries({1, 4});
    const RunResult b = nullSeries({1, 8});
    const ComparisonCurves curves = comparisonCurves({&a, &b});
    ASSERT_TRUE(curves.axis.has_value());
    EXPECT_EQ(*curves.axis, SweepParameter::OutstandingIos);
    EXPECT_TRUE(curves.logX);
    EXPECT_EQ(curves.ticks, (std::vector<std::uint64_t> {1, 4, 8}));
    ASSERT_EQ(curves.runs.size(), 2u);
    ASSERT_EQ(curves.runs[1].size(), 2u);
    EXPECT_EQ(curves.runs[1][1].first, 8.0);
    EXPECT_GT(curves.runs[1][1].second, 0.0);
    const std::string html
        = writeComparisonHtml(compareRuns({&a, &b}, 0), {&a, &b}, {"a", "b"}, {});
    EXPECT_EQ(count(html, "<circle"), 4u); // a point per series point
    // A run that is not a series: both over time.
    const RunResult plain = runWithCurve(CacheMode::Direct, 1000, "");
    const ComparisonCurves mixed = comparisonCurves({&a, &plain});
    EXPECT_FALSE(mixed.axis.has_value());
    EXPECT_EQ(mixed.runs[1].size(), 3u);
}
