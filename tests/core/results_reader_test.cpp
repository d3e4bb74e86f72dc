// SPDX-License-Identifier: GPL-3.0-or-later
// Reading results JSON back (core/report/results_reader.h): the round trip on the golden
// file and on runs of the null engine, and one test per class of refusal, each checking
// the message says what and where.
#include "core/null_engine.h"
#include "core/report/csv.h"
#include "core/report/results_json.h"
#include "core/report/results_reader.h"
#include "core/run/run.h"
#include "core/run/series_result.h"
#include "support/session_doubles.h"
#include "support/test_backend.h"
#include "support/test_profiles.h"
#include "support/test_support.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace ioprism::core;
using ioprism::test::makeSpec;
using ioprism::test::readFile;
using namespace std::chrono_literals;
using testing::HasSubstr;

namespace {

// A results document without what format 3 added (the plan), and with its version
// number left out: what a file of an older format and the same run have in common.
nlohmann::ordered_json withoutPlan(nlohmann::ordered_json doc)
{
    doc.erase("plan");
    doc.erase("version");
    return doc;
}

std::string resultsFixture(const char *name)
{
    return readFile(ioprism::test::sourceDir() / "tests" / "fixtures" / "results" / name);
}

std::string goldenResults()
{
    return readFile(ioprism::test::sourceDir() / "tests" / "golden" / "report" / "results.json");
}

// Read, then written again: the text the reader must reproduce.
std::string rewrite(const std::string &text)
{
    const ResultsRead read = readResultsJson(text);
    EXPECT_TRUE(read.ok()) << read.error;
    if (!read.ok())
        return {};
    return writeResultsJson(*read.result, read.result->environment);
}

// The run saved, read back and saved again: the same text, and the same time series and
// Iometer CSV as the run itself (every row, and the rows the profile's record filter
// keeps), which is what File > Open and `export` write. The read, for the caller's own
// checks.
ResultsRead savedAndReadBack(const RunResult &run)
{
    const std::string text = writeResultsJson(run, run.environment);
    EXPECT_EQ(rewrite(text), text);
    ResultsRead read = readResultsJson(text);
    EXPECT_TRUE(read.ok()) << read.error;
    if (read.ok()) {
        const RunResult &again = *read.result;
        EXPECT_EQ(writeTimeSeriesCsv(again), writeTimeSeriesCsv(run));
        EXPECT_EQ(writeIometerCsv(again, again.environment, RecordFilter::All),
            writeIometerCsv(run, run.environment, RecordFilter::All));
        EXPECT_EQ(again.plan.profile.setup.recordFilter, run.plan.profile.setup.recordFilter);
        const RecordFilter own = run.plan.profile.setup.recordFilter;
        EXPECT_EQ(writeIometerCsv(again, again.environment, own),
            writeIometerCsv(run, run.environment, own));
    }
    return read;
}

using ioprism::test::NullSink;

// How a run on the null engine goes: the engine fails I/O number `failAt` (which stops
// the run); the targets have this direct-I/O `alignment` (else the null backend's);
// `sink` sees the run, and `beforeExecute` is given it before it starts.
struct NullRunOptions {
    std::uint64_t failAt = 0;
    std::uint32_t alignment = 0;
    RunSink *sink = nullptr;
    std::function<void(Run &)> beforeExecute;
};

// `profile` run on the null engine, each step `ioLimit` I/Os per worker and target.
RunResult runOnNullEngine(
    const Profile &profile, std::uint64_t ioLimit, const NullRunOptions &how = {})
{
    NullBackend nullBackend;
    ioprism::test::TestBackend testBackend;
    testBackend.failAt = how.failAt;
    if (how.alignment)
        testBackend.alignment = how.alignment;
    IoBackend &backend
        = how.failAt || how.alignment ? static_cast<IoBackend &>(testBackend) : nullBackend;
    NullCounterSource counters;
    NullSink quiet;
    RunSettings options;
    options.ioLimitPerTarget = ioLimit;
    RunHooks hooks;
    hooks.describeSystem = [] {
        Environment e;
        e.hostName = "test-host";
        e.toolVersion = "0.1.0";
        return e;
    };
    Run run(profile, backend, counters, how.sink ? *how.sink : quiet, options, hooks);
    if (how.beforeExecute)
        how.beforeExecute(run);
    return run.execute();
}

// A run on the null engine; with `failAt`, the engine fails that I/O (which stops the run).
RunResult nullRun(std::uint32_t percentRead, std::uint64_t ioLimit, bool series,
    bool connections = false, std::uint64_t failAt = 0)
{
    Profile p;
    p.setup.description = "null round trip";
    p.setup.runTime = 0s;
    p.setup.interval = 100ms;
    AccessSpec spec;
    spec.name = "8K mix";
    SpecLine line;
    line.transferSizeBytes = 8192;
    line.alignmentBytes = 8192;
    line.percentRead = percentRead;
    line.percentRandom = 50;
    spec.lines.push_back(line);
    p.specs.push_back(spec);
    Host h;
    Worker w;
    w.name = "Worker 1";
    w.outstandingIos = 4;
    w.assignedSpecs = {"8K mix"};
    w.seed = 7;
    for (int t = 0; t < 2; ++t) {
        Target target;
        target.path = "target" + std::to_string(t);
        target.testFileSizeBytes = 64 * kMiB;
        w.targets.push_back(target);
    }
    if (connections) {
        // The first target reconnects every 10 transactions; the second is a file tree.
        w.testConnectionRate = true;
        w.transactionsPerConnection = 10;
        w.targets[1].kind = TargetKind::FileTree;
        w.targets[1].tree.fileSizeBytes = 1 * kMiB;
    }
    h.workers.push_back(w);
    p.hosts.push_back(h);
    if (series) {
        Series s;
        SweepAxis axis;
        axis.parameter = SweepParameter::OutstandingIos;
        axis.values = {1, 4};
        s.axes.push_back(axis);
        s.repeat = 2;
        s.ios = ioLimit;
        p.setup.series = s;
    }
    return runOnNullEngine(p, ioLimit, {.failAt = failAt});
}

} // namespace

TEST(ResultsReader, TheGoldenFileReadsBackToTheSameText)
{
    const std::string golden = goldenResults();
    ASSERT_FALSE(golden.empty());
    EXPECT_EQ(rewrite(golden), golden);
}

TEST(ResultsReader, TheGoldenFileGivesItsRunBack)
{
    const ResultsRead read = readResultsJson(goldenResults());
    ASSERT_TRUE(read.ok()) << read.error;
    const RunResult &r = *read.result;
    EXPECT_EQ(read.version, 3);
    EXPECT_EQ(r.runId, 7u);
    ASSERT_EQ(r.steps.size(), 2u);
    EXPECT_EQ(r.steps[0].stepName, "4K read");
    EXPECT_FALSE(r.steps[1].complete);
    EXPECT_TRUE(r.stoppedByUser);
    EXPECT_EQ(r.engine, "io_uring");
    EXPECT_EQ(r.environment.hostName, "golden-host");
    ASSERT_EQ(r.plan.targetInfos().size(), 2u);
    EXPECT_EQ(r.plan.targetInfos()[1].path, "/var/tmp/a,b.dat");
    ASSERT_EQ(r.plan.profile.specs.size(), 2u);
    // The All scope's measurement is rebuilt exactly: 100 + 21 reads in step 0, with the
    // 12 s read in the histogram and as the exact maximum.
    const Measurement &m = r.steps[0].scopes[0].measurement;
    EXPECT_EQ(m.read.histogram.count(), 121u);
    EXPECT_EQ(m.read.maxNs, 12'000'000'000u);
    EXPECT_EQ(m.elapsed, 10s);
    const Figures again = computeFigures(m);
    EXPECT_EQ(again.read.latency.p99Us, r.steps[0].scopes[0].figures.read.latency.p99Us);
    EXPECT_EQ(again.read.latency.meanUs, r.steps[0].scopes[0].figures.read.latency.meanUs);
    EXPECT_EQ(r.intervals.size(), 4u);
    EXPECT_EQ(r.intervals[0].phase, RunPhase::RampUp);
    // The intervals do not repeat the target paths; their scopes get them from the steps
    // (the time series has them as a column).
    EXPECT_EQ(r.intervals[1].scopes.at(3).scope.targetPath, "/var/tmp/a,b.dat");
    EXPECT_EQ(r.intervals[3].scopes.at(2).scope.targetPath, "/dev/loop0");
    EXPECT_EQ(r.intervals[3].scopes.at(1).scope.targetPath, "");
}

// An I/O still in flight at the end, older than every completed one: the figures' max is
// its age, the percentiles stay within the completed I/Os. Read back, the percentiles are
// the run's own, not bounded by the age (a flaky export was the sign: p99.99 rose from
// the largest completed I/O to its bucket's midpoint).
TEST(ResultsReader, AnIoInFlightOlderThanEveryCompletedOneLeavesThePercentilesAsTheyWere)
{
    const ResultsRead golden = readResultsJson(goldenResults());
    ASSERT_TRUE(golden.ok()) << golden.error;
    RunResult run = *golden.result;
    ScopeResult &all = run.steps[0].scopes[0];
    ASSERT_EQ(all.scope.kind, Scope::Kind::All);
    // 999 reads of 100 us and one just above a bucket's low bound, so that its bucket's
    // midpoint lies above it: bounded by the age, p99.99 would be that midpoint.
    const std::size_t bucket = LatencyHistogram::bucketIndex(40'000'000);
    const std::uint64_t largestNs = LatencyHistogram::bucketLow(bucket) + 1;
    ASSERT_GT(LatencyHistogram::bucketMidpoint(bucket), double(largestNs));
    DirectionMeasurement read;
    read.bytes = 1000 * 4096;
    for (int i = 0; i < 999; ++i)
        read.histogram.record(100'000);
    read.histogram.record(largestNs);
    read.minNs = 100'000;
    read.maxNs = largestNs;
    read.oldestInFlightNs = 3 * largestNs;
    all.measurement.read = read;
    all.figures = computeFigures(all.measurement);
    ASSERT_DOUBLE_EQ(all.figures.read.latency.p99_99Us, double(largestNs) * 1e-3);
    ASSERT_DOUBLE_EQ(all.figures.read.latency.maxUs, double(3 * largestNs) * 1e-3);

    const std::string text = writeResultsJson(run, run.environment);
    EXPECT_THAT(text, HasSubstr("\"completed_max_ns\""));
    const ResultsRead back = readResultsJson(text);
    ASSERT_TRUE(back.ok()) << back.error;
    const ScopeResult &again = back.result->steps[0].scopes[0];
    EXPECT_EQ(again.measurement.read.maxNs, largestNs);
    EXPECT_EQ(again.measurement.read.oldestInFlightNs, 3 * largestNs);
    EXPECT_EQ(computeFigures(again.measurement).read.latency, all.figures.read.latency);
    EXPECT_EQ(writeResultsJson(*back.result, back.result->environment), text);
}

// A completed maximum outside the histogram's buckets is no file IOPrism wrote.
TEST(ResultsReader, ACompletedMaximumOutsideTheHistogramIsRefusedByItsPath)
{
    auto doc = nlohmann::ordered_json::parse(goldenResults());
    auto &histogram = doc["steps"][0]["scopes"][0]["histogram_ns"];
    histogram["completed_max_ns"]["read"] = 1;
    const ResultsRead read = readResultsJson(doc.dump(2));
    ASSERT_FALSE(read.ok());
    EXPECT_THAT(read.error, HasSubstr("histogram_ns.read"));
    EXPECT_THAT(read.error, HasSubstr("completed_max_ns"));
}

// Files of format version 1 (intervals as one object per interval) are still read: the
// golden run as version 1 wrote it gives the same run as the version 2 golden file.
TEST(ResultsReader, AVersionOneFileGivesTheSameRun)
{
    const std::string v1 = resultsFixture("v1.json");
    ASSERT_NE(v1.find("\"version\": 1,"), std::string::npos);
    const ResultsRead read = readResultsJson(v1);
    ASSERT_TRUE(read.ok()) << read.error;
    EXPECT_EQ(read.version, 1);
    ASSERT_EQ(read.result->intervals.size(), 4u);
    const ScopeFigures &idle = read.result->intervals[1].scopes[3];
    EXPECT_EQ(idle.scope.label, "Worker 1 / /var/tmp/a,b.dat");
    EXPECT_EQ(idle.figures.total.latency.meanUs, 77.5);
    // Written again, it is the golden file but for the interval columns added to format 2
    // since (each direction's counts, errors and mean, the latency bands), which version 1
    // did not keep, and the plan of format 3.
    auto withoutAdded = [](const std::string &text) {
        auto doc = withoutPlan(nlohmann::ordered_json::parse(text));
        doc.at("intervals").erase("latency_bands");
        for (auto &scope : doc.at("intervals").at("scopes"))
            for (const char *added : {"read_ios", "write_ios", "read_errors", "write_errors",
                     "read_latency_us", "write_latency_us"})
                scope.erase(added);
        return doc.dump(1);
    };
    EXPECT_EQ(withoutAdded(writeResultsJson(*read.result, read.result->environment)),
        withoutAdded(goldenResults()));
    // What it did not keep is not made up: each direction's mean is unknown (an empty
    // field in the time series), its count comes from its rate.
    EXPECT_TRUE(std::isnan(idle.figures.read.latency.meanUs));
    const ScopeFigures &all = read.result->intervals[0].scopes[0];
    EXPECT_EQ(all.figures.read.ios, 2u);
    EXPECT_TRUE(readResultsHeadline(v1).headline);
}

// A file of format 2 (tests/fixtures/results/v2.json: the golden run as version 2 wrote
// it) reads, and written again is the golden file but for the plan, which version 2 did
// not keep. Its plan is the simplest one the file tells (docs/results.md): the profile's
// specs, the steps as the file names them, one worker holding every target's facts and
// running no spec at no depth. Nothing plans the run again.
TEST(ResultsReader, AVersionTwoFileReadsWithThePlanItHas)
{
    const std::string v2 = resultsFixture("v2.json");
    ASSERT_NE(v2.find("\"version\": 2,"), std::string::npos);
    ASSERT_EQ(v2.find("\"plan\""), std::string::npos);
    const ResultsRead read = readResultsJson(v2);
    ASSERT_TRUE(read.ok()) << read.error;
    EXPECT_EQ(read.version, 2);
    const std::string again = writeResultsJson(*read.result, read.result->environment);
    // Nor the latency bands, kept since (a file without them has none: `null`).
    auto withoutBands = [](const std::string &text) {
        auto doc = withoutPlan(nlohmann::ordered_json::parse(text));
        EXPECT_TRUE(doc.at("intervals").contains("latency_bands"));
        doc.at("intervals").erase("latency_bands");
        return doc.dump(1);
    };
    EXPECT_EQ(withoutBands(again), withoutBands(goldenResults()));
    EXPECT_EQ(nlohmann::ordered_json::parse(again).at("intervals").at("latency_bands"), nullptr);
    const ResolvedPlan &plan = read.result->plan;
    ASSERT_EQ(plan.steps.size(), 2u);
    EXPECT_EQ(plan.steps[1].name, "64K, mixed");
    ASSERT_EQ(plan.specs.size(), 2u);
    ASSERT_EQ(plan.workers.size(), 1u);
    ASSERT_EQ(plan.workers[0].targets.size(), 2u);
    EXPECT_EQ(plan.workers[0].targets[1].info.path, "/var/tmp/a,b.dat");
    EXPECT_EQ(plan.workers[0].targets[1].info.logicalBlockBytes, 4096u);
    EXPECT_TRUE(plan.workers[0].specPerStep.empty());
    EXPECT_EQ(plan.specOf(0, 0), nullptr);
    EXPECT_TRUE(readResultsHeadline(v2).headline);
}

// Format 3 keeps the plan the run executed, and the reader takes it as it is: a plan no
// profile would make (a spec per step the profile does not assign, a depth of 3) comes
// back the same, and so do the Iometer CSV rows written from it.
TEST(ResultsReader, AVersionThreeFileGivesItsPlanBackAsWritten)
{
    RunResult run = *readResultsJson(goldenResults()).result;
    ResolvedWorker &w = run.plan.workers.at(0);
    w.name = "Worker 1";
    w.seed = 18446744073709551615ull;
    w.cpuAffinity = {1, 3};
    w.dataPattern = {DataPatternKind::Compressible, 7, 30};
    w.specPerStep = {1, -1};
    w.outstandingIos = {{3, 1}, {0, 0}};
    w.targets[0].region = {4096, 8192};
    run.plan.steps[1].point = StepPoint {2, 1, {4096, 8}, "/dev/loop0"};
    run.plan.steps[1].ioLimit = 1000;
    run.plan.steps[1].workerStagger = std::chrono::milliseconds {250};
    const std::string text = writeResultsJson(run, run.environment);
    const ResultsRead read = readResultsJson(text);
    ASSERT_TRUE(read.ok()) << read.error;
    const ResolvedPlan &plan = read.result->plan;
    ASSERT_EQ(plan.workers.size(), 1u);
    EXPECT_EQ(plan.workers[0].seed, w.seed);
    EXPECT_EQ(plan.workers[0].cpuAffinity, w.cpuAffinity);
    EXPECT_EQ(plan.workers[0].dataPattern, w.dataPattern);
    EXPECT_EQ(plan.workers[0].specPerStep, w.specPerStep);
    EXPECT_EQ(plan.workers[0].outstandingIos, w.outstandingIos);
    EXPECT_EQ(plan.workers[0].targets[0].region.sizeBytes, 8192u);
    EXPECT_EQ(plan.steps[1].point, run.plan.steps[1].point);
    EXPECT_EQ(plan.steps[1].workerStagger, std::chrono::milliseconds {250});
    EXPECT_EQ(plan.specs, run.plan.specs);
    EXPECT_EQ(writeResultsJson(*read.result, read.result->environment), text);
    EXPECT_EQ(writeIometerCsv(*read.result, read.result->environment, RecordFilter::All),
        writeIometerCsv(run, run.environment, RecordFilter::All));
}

// The plan is read like the rest of the file: a damaged field is named by its path.
TEST(ResultsReader, ADamagedPlanIsRefusedByItsPath)
{
    const auto damaged = [](const std::function<void(nlohmann::ordered_json &)> &edit) {
        auto doc = nlohmann::ordered_json::parse(goldenResults());
        edit(doc.at("plan"));
        return readResultsJson(doc.dump(2)).error;
    };
    EXPECT_EQ(damaged([](auto &p) { p.erase("workers"); }), "plan.workers: missing");
    EXPECT_EQ(damaged([](auto &p) { p["workers"][0]["seed"] = "42"; }),
        "plan.workers[0].seed: expected a whole number, found a string");
    EXPECT_EQ(damaged([](auto &p) { p["workers"][0]["spec_per_step"] = {-2}; }),
        "plan.workers[0].spec_per_step[0]: -2 is not a spec index (-1 for none)");
    EXPECT_EQ(damaged([](auto &p) { p["workers"][0]["data_pattern"]["kind"] = "sparkles"; }),
        "plan.workers[0].data_pattern.kind: \"sparkles\" is not one of: repeatingBytes, "
        "pseudoRandom, fullRandom, zeros, compressible");
    EXPECT_EQ(damaged([](auto &p) { p["specs"][0]["lines"][0]["percentRead"] = "x"; }),
        "plan.specs[0].lines[0].percentRead: expected a whole number from 0 to 4294967295, "
        "got \"x\"");
    EXPECT_EQ(damaged([](auto &p) {
        p["workers"][0]["outstanding_ios"] = {{1, 2, 3}};
    }),
        "plan.workers[0].outstanding_ios[0]: expected 2 values (one per target), found 3");
    EXPECT_EQ(damaged([](auto &p) { p["steps"][0]["point"] = 3; }),
        "plan.steps[0].point: expected an object, found a number");
}

// Found by the fuzzer: an interval kept as rates (no counts) that lasted no time but has
// a latency came back as one I/O in all and none in either direction, so written again
// (counts per direction) it lost its latency. The I/O is counted in its direction.
TEST(ResultsReader, AnIntervalOfRatesWithALatencyKeepsItWrittenAgain)
{
    auto doc = nlohmann::ordered_json::parse(goldenResults());
    auto &intervals = doc.at("intervals");
    for (auto &scope : intervals.at("scopes"))
        for (const char *added : {"read_ios", "write_ios", "read_errors", "write_errors",
                 "read_latency_us", "write_latency_us"})
            scope.erase(added);
    intervals.at("start_s")[0] = intervals.at("end_s")[0].get<double>() + 1; // no time
    const ResultsRead read = readResultsJson(doc.dump());
    ASSERT_TRUE(read.ok()) << read.error;
    const Figures &all = read.result->intervals[0].scopes[0].figures;
    ASSERT_GT(all.total.latency.meanUs, 0);
    EXPECT_EQ(all.read.ios + all.write.ios, 1u);
    const std::string written = writeResultsJson(*read.result, read.result->environment);
    const ResultsRead again = readResultsJson(written);
    ASSERT_TRUE(again.ok()) << again.error;
    EXPECT_EQ(again.result->intervals[0].scopes[0].figures.total.latency.meanUs,
        all.total.latency.meanUs);
    EXPECT_EQ(writeResultsJson(*again.result, again.result->environment), written);
}

TEST(ResultsReader, AColumnOfIntervalsNamesItsPathWhenItIsWrong)
{
    const std::string text = goldenResults();
    auto doc = nlohmann::ordered_json::parse(text);
    doc["intervals"]["scopes"][2]["iops"].erase(3);
    EXPECT_EQ(readResultsJson(doc.dump()).error,
        "intervals.scopes[2].iops: expected 4 values (one per interval), found 3");

    doc = nlohmann::ordered_json::parse(text);
    doc["intervals"]["scopes"][0]["latency_us"]["p99"][1] = "slow";
    EXPECT_EQ(readResultsJson(doc.dump()).error,
        "intervals.scopes[0].latency_us.p99[1]: expected a number, found a string");

    doc = nlohmann::ordered_json::parse(text);
    doc["intervals"]["phase"][2] = "sleeping";
    EXPECT_EQ(
        readResultsJson(doc.dump()).error, "intervals.phase[2]: \"sleeping\" is not a known value");

    doc = nlohmann::ordered_json::parse(text);
    doc["intervals"]["cpu"]["busy_percent"][0] = true;
    EXPECT_EQ(readResultsJson(doc.dump()).error,
        "intervals.cpu.busy_percent[0]: expected a number, found a boolean");

    doc = nlohmann::ordered_json::parse(text);
    doc["intervals"]["scopes"][1]["first"] = 2;
    EXPECT_EQ(readResultsJson(doc.dump()).error,
        "intervals.scopes[1]: first 2 and count 4 go beyond the 4 intervals");

    // A count that the columns do not have is not believed (nor allocated).
    doc = nlohmann::ordered_json::parse(text);
    doc["intervals"]["count"] = 4'000'000'000'000ULL;
    EXPECT_EQ(readResultsJson(doc.dump()).error,
        "intervals.step: expected 4000000000000 values (one per interval), found 4");

    doc = nlohmann::ordered_json::parse(text);
    doc["intervals"]["scopes"][0].erase("write_mbps");
    EXPECT_EQ(readResultsJson(doc.dump()).error, "intervals.scopes[0].write_mbps: missing");
}

// A step whose workers differ (here: the second interval loses a scope) starts a new
// stretch of columns; each interval gets its own scopes back, in their order.
TEST(ResultsReader, IntervalsWithDifferentScopesReadBackInTheirOrder)
{
    ResultsRead read = readResultsJson(goldenResults());
    ASSERT_TRUE(read.ok()) << read.error;
    RunResult r = std::move(*read.result);
    r.intervals[3].scopes.erase(r.intervals[3].scopes.begin() + 1);
    std::swap(r.intervals[3].scopes[1], r.intervals[3].scopes[2]);
    const std::string text = writeResultsJson(r, r.environment);
    const auto doc = nlohmann::ordered_json::parse(text);
    ASSERT_EQ(doc.at("intervals").at("scopes").size(), 4u + 3u);
    EXPECT_EQ(doc.at("intervals").at("scopes")[4].at("first"), 3);
    const ResultsRead again = readResultsJson(text);
    ASSERT_TRUE(again.ok()) << again.error;
    ASSERT_EQ(again.result->intervals[3].scopes.size(), 3u);
    EXPECT_EQ(again.result->intervals[3].scopes[1].scope.label, "Worker 1 / /var/tmp/a,b.dat");
    EXPECT_EQ(again.result->intervals[2].scopes.size(), 4u);
    EXPECT_EQ(writeResultsJson(*again.result, again.result->environment), text);
}

TEST(ResultsReader, ANullEngineRunReadsBackToTheSameText)
{
    const RunResult run = nullRun(70, 20000, false);
    ASSERT_FALSE(run.error) << run.error->toString();
    EXPECT_TRUE(savedAndReadBack(run).ok());
}

// A file tree and a file reconnecting (Iometer's connection rate): the connection columns
// of the Iometer CSV come back too.
TEST(ResultsReader, ConnectionFiguresReadBackToTheSameText)
{
    const RunResult run = nullRun(50, 2000, false, true);
    ASSERT_FALSE(run.error) << run.error->toString();
    const std::string text = writeResultsJson(run, run.environment);
    ASSERT_THAT(text, HasSubstr("\"connections\""));
    const ResultsRead read = savedAndReadBack(run);
    ASSERT_TRUE(read.ok()) << read.error;
    const auto &scopes = read.result->steps.at(0).scopes;
    ASSERT_TRUE(scopes.back().figures.connections.has_value()); // the tree
    EXPECT_EQ(scopes.back().figures.connections->open.count, 2000u);
    ASSERT_TRUE(scopes.at(2).figures.connections.has_value()); // the reconnecting file
    EXPECT_EQ(scopes.at(2).figures.connections->connection.count, 200u);
    // The intervals have them too, for every scope that opened files: the Live page of the
    // run read back shows its files line.
    ASSERT_FALSE(read.result->intervals.empty());
    for (const auto &sample : read.result->intervals)
        for (const auto &scope : sample.scopes)
            EXPECT_TRUE(scope.figures.connections.has_value()) << scope.scope.label;
    std::uint64_t opened = 0;
    for (const auto &sample : read.result->intervals)
        opened += sample.scopes.back().figures.connections->open.count;
    EXPECT_EQ(opened, 2000u) << "every file the tree opened, in some interval";
}

namespace {

// Files opened and closed in an interval, as a tree's sampler reports them: `opens` over
// `seconds`, each phase's mean and longest time; `closes` may lag behind.
ConnectionFigures filesOf(std::uint64_t opens, std::uint64_t closes, double seconds, double meanUs)
{
    ConnectionFigures c;
    const auto phase = [&](std::uint64_t count, std::uint64_t errors, double mean) {
        PhaseFigures p;
        p.count = count;
        p.errors = errors;
        p.perSecond = double(count) / seconds;
        if (count > 0) {
            p.latency.minUs = mean / 2;
            p.latency.meanUs = mean;
            p.latency.maxUs = mean * 7 + 0.001;
            p.latency.p99Us = mean * 3;
        }
        return p;
    };
    c.open = phase(opens, 1, meanUs);
    c.close = phase(closes, 0, meanUs / 3);
    c.connection = phase(closes, 0, meanUs * 5 + 123.456789);
    return c;
}

// The i-th row of a time-series CSV's last five columns (the files opened and closed).
std::vector<std::string> fileColumns(const std::string &csv)
{
    std::vector<std::string> out;
    std::istringstream lines(csv);
    for (std::string line; std::getline(lines, line);) {
        std::size_t at = line.size();
        for (int commas = 0; commas < 5 && at != std::string::npos; ++commas)
            at = line.rfind(',', at - 1);
        out.push_back(at == std::string::npos ? line : line.substr(at + 1));
    }
    return out;
}

} // namespace

// The intervals keep a scope's files opened and closed (format 2's added "connections"
// columns): a run with them in its intervals writes, reads back and writes again to the
// same text, and the run read back gives the time series of the run as it was. The golden
// run (every other figure already as read from a file) with a tree on its second target,
// hand-made figures: rates and means with more digits than the file keeps, an interval
// without figures, and phases with none ended.
TEST(ResultsReader, FilesOpenedInEachIntervalReadBackToTheSameTimeSeries)
{
    const ResultsRead golden = readResultsJson(goldenResults());
    ASSERT_TRUE(golden.ok()) << golden.error;
    RunResult run = *golden.result;
    ASSERT_EQ(run.intervals.size(), 4u);
    for (std::size_t i = 0; i < run.intervals.size(); ++i) {
        auto &scopes = run.intervals[i].scopes;
        ASSERT_EQ(scopes.size(), 4u);
        const double seconds = run.intervals[i].endSeconds - run.intervals[i].startSeconds;
        if (i == 1)
            continue; // the tree's scopes have no figures in this interval
        const ConnectionFigures files
            = i == 2 ? filesOf(0, 0, seconds, 0) : filesOf(1000 + 37 * i, 999, seconds, 41.2345678);
        scopes[0].figures.connections = files; // All
        scopes[1].figures.connections = files; // Worker 1
        scopes[3].figures.connections = files; // its tree
    }
    const std::string text = writeResultsJson(run, run.environment);
    const auto doc = nlohmann::ordered_json::parse(text);
    const auto &scopes = doc.at("intervals").at("scopes");
    ASSERT_EQ(scopes.size(), 4u);
    EXPECT_FALSE(scopes[2].contains("connections")) << "the target that opened no files";
    const auto &open = scopes[3].at("connections").at("open");
    EXPECT_EQ(open.at("count"), nlohmann::ordered_json::parse("[1000, null, 0, 1111]"));
    EXPECT_TRUE(open.at("latency_us").at("mean")[2].is_null()) << "none ended";

    // Saved, read back and saved again: the same text, and the time series of the run read
    // back is the original's, every column of it.
    const ResultsRead read = savedAndReadBack(run);
    ASSERT_TRUE(read.ok());
    const RunResult &again = *read.result;
    EXPECT_FALSE(again.intervals[1].scopes[3].figures.connections.has_value());
    EXPECT_FALSE(again.intervals[0].scopes[2].figures.connections.has_value());
    ASSERT_TRUE(again.intervals[3].scopes[3].figures.connections.has_value());
    const ConnectionFigures &c = *again.intervals[3].scopes[3].figures.connections;
    EXPECT_EQ(c.open.count, 1111u);
    EXPECT_EQ(c.open.errors, 1u);
    EXPECT_EQ(c.close.count, 999u);
    EXPECT_EQ(c.open.latency.meanUs, 41.235) << "to the nanosecond";
    const std::string series = writeTimeSeriesCsv(run);
    const auto files = fileColumns(series);
    EXPECT_EQ(
        files[0], "files_per_s,open_mean_us,close_mean_us,operation_mean_us,operation_max_us");
    // A row per scope per interval after the header: interval i's scope s is row 1 + 4i + s.
    EXPECT_EQ(files[1 + 4 * 1 + 3], ",,,,") << "interval 1 has no figures";
    EXPECT_EQ(files[1 + 4 * 2 + 2], ",,,,") << "interval 2, Worker 1 / target0: no files";
    EXPECT_EQ(files[1 + 4 * 2 + 3], "0.000,,,,") << "interval 2: nothing ended";
    EXPECT_EQ(files[1 + 4 * 3 + 3],
        fmt::format("{:.3f},41.235,13.745,329.630,2307.408",
            1111 / (run.intervals[3].endSeconds - run.intervals[3].startSeconds)));

    // Damaged, they are refused by their path like every other column.
    auto damaged = doc;
    damaged["intervals"]["scopes"][3]["connections"]["close"]["count"][0] = nullptr;
    EXPECT_EQ(readResultsJson(damaged.dump()).error,
        "intervals.scopes[3].connections.close.count[0]: expected a whole number, found null");
    damaged = doc;
    damaged["intervals"]["scopes"][3]["connections"]["open"]["latency_us"]["max"].erase(0);
    EXPECT_EQ(readResultsJson(damaged.dump()).error,
        "intervals.scopes[3].connections.open.latency_us.max: expected 4 values (one per "
        "interval), found 3");
}

// The time series of a run read back from its results file is the run's, every column
// and every digit: the intervals keep each direction's I/Os, errors and mean latency. A
// run of the null engine with reads and writes mixed, stopped by a failed I/O.
TEST(ResultsReader, ARunReadBackWritesTheTimeSeriesOfTheRun)
{
    const RunResult run = nullRun(50, 20000, false, false, 15000);
    ASSERT_TRUE(run.error) << "the failed I/O stops the run";
    ASSERT_FALSE(run.intervals.empty());
    std::uint64_t reads = 0, writes = 0, errors = 0;
    for (const auto &sample : run.intervals) {
        const Figures &all = sample.scopes.at(0).figures;
        reads += all.read.ios;
        writes += all.write.ios;
        errors += all.read.errors + all.write.errors;
    }
    EXPECT_GT(reads, 0u);
    EXPECT_GT(writes, 0u);
    EXPECT_EQ(errors, 1u);

    const ResultsRead read = savedAndReadBack(run);
    ASSERT_TRUE(read.ok());
    // Each interval's counts come back exact (not from the rate).
    ASSERT_EQ(read.result->intervals.size(), run.intervals.size());
    for (std::size_t i = 0; i < run.intervals.size(); ++i)
        for (std::size_t s = 0; s < run.intervals[i].scopes.size(); ++s) {
            const Figures &was = run.intervals[i].scopes[s].figures;
            const Figures &is = read.result->intervals[i].scopes.at(s).figures;
            EXPECT_EQ(is.read.ios, was.read.ios);
            EXPECT_EQ(is.write.ios, was.write.ios);
            EXPECT_EQ(is.total.ios, was.total.ios);
            EXPECT_EQ(is.read.errors, was.read.errors);
            EXPECT_EQ(is.write.errors, was.write.errors);
        }
}

// A figure halfway between two values at the last place the file keeps: the file rounds it
// half away from zero, and the time series shows that same value, live and read back
// (0.3695 is just below half as a double: printed alone it would be 0.369, but the file
// keeps 0.370). Figures the series shows to fewer places than the file keeps are shown
// from the kept value too, or a reread could not give the same digits.
TEST(ResultsReader, AHalfwayFigureIsTheSameInTheTimeSeriesLiveAndReadBack)
{
    const ResultsRead golden = readResultsJson(goldenResults());
    ASSERT_TRUE(golden.ok()) << golden.error;
    RunResult run = *golden.result;
    ASSERT_EQ(run.intervals.size(), 4u);
    IntervalSample &sample = run.intervals[2];
    ASSERT_TRUE(sample.cpu.valid);
    sample.startSeconds = 2.0004999996; // kept 2.0005: shown 2.001
    sample.endSeconds = 3.0005;
    sample.cpu.userPercent = 12.3449996; // kept 12.345: shown 12.35
    sample.cpuEffectiveness = 0.1115;
    Figures &all = sample.scopes.at(0).figures;
    ASSERT_GT(all.total.ios, 0u);
    all.total.latency.p99_99Us = 0.3695;
    all.total.latency.meanUs = 2.0005;
    all.read.latency.meanUs = 1.0625; // exact in binary: fmt alone would round to even
    all.read.iops = 0.0125;
    all.total.megabytesPerSecond = 0.0084996; // kept 0.0085: shown 0.009
    all.total.oldestInFlightUs = 4.0625;
    // Device counters on that interval, with halfway figures of every kind.
    DeviceReport &d = sample.devices;
    d.available = true;
    d.total.valid = true;
    d.total.hasTimes = d.total.hasDiscards = d.total.hasFlushes = true;
    d.total.seconds = 1;
    d.total.readsPerSecond = 100.0005;
    d.total.readMegabytesPerSecond = 0.4094996;
    d.total.averageRequestBytes = 4095.95;
    d.total.readAwaitMs = 0.1234996;
    d.total.queueSize = 0.0625;
    d.total.utilPercent = 1.125;
    d.total.flushesPerSecond = 2.0625;
    d.verdict.verdict = Verdict::Agree;
    d.verdict.read = {Verdict::Agree, 4096, 4096, 1.00004999};
    d.verdict.write = {Verdict::Idle, 0, 0, 0};

    ASSERT_TRUE(savedAndReadBack(run).ok());
    const std::string live = writeTimeSeriesCsv(run);

    // Interval 2's All row: the fields by their header names.
    std::istringstream lines(live);
    std::string line;
    std::getline(lines, line);
    const auto split = [](const std::string &row) {
        std::vector<std::string> fields;
        std::istringstream in(row);
        for (std::string field; std::getline(in, field, ',');)
            fields.push_back(field);
        if (!row.empty() && row.back() == ',')
            fields.emplace_back();
        return fields;
    };
    const auto header = split(line);
    for (int row = 0; row <= 4 * 2; ++row)
        std::getline(lines, line);
    const auto fields = split(line);
    ASSERT_EQ(fields.size(), header.size()) << line;
    const auto field = [&](std::string_view name) {
        const auto at = std::find(header.begin(), header.end(), name);
        return at == header.end() ? std::string("(no column)")
                                  : fields[std::size_t(at - header.begin())];
    };
    EXPECT_EQ(field("scope"), "All");
    EXPECT_EQ(field("start_s"), "2.001");
    EXPECT_EQ(field("end_s"), "3.001");
    EXPECT_EQ(field("cpu_user_pct"), "12.35");
    EXPECT_EQ(field("cpu_effectiveness"), "0.112");
    EXPECT_EQ(field("lat_p99_99_us"), "0.370");
    EXPECT_EQ(field("lat_mean_us"), "2.001");
    EXPECT_EQ(field("read_lat_mean_us"), "1.063");
    EXPECT_EQ(field("read_iops"), "0.013");
    EXPECT_EQ(field("mbps"), "0.009");
    EXPECT_EQ(field("oldest_in_flight_us"), "4.063");
    EXPECT_EQ(field("dev_read_iops"), "100.001");
    EXPECT_EQ(field("dev_read_mbps"), "0.410");
    EXPECT_EQ(field("dev_avg_request_bytes"), "4096.0");
    EXPECT_EQ(field("dev_read_await_ms"), "0.124");
    EXPECT_EQ(field("dev_queue_size"), "0.063");
    EXPECT_EQ(field("dev_util_pct"), "1.13");
    EXPECT_EQ(field("dev_flush_iops"), "2.063");
    EXPECT_EQ(field("dev_read_ratio"), "1.0001");
}

TEST(ResultsReader, ASeriesRunReadsBackToTheSameText)
{
    const RunResult run = nullRun(100, 2000, true);
    ASSERT_FALSE(run.error) << run.error->toString();
    ASSERT_EQ(run.steps.size(), 4u); // 2 points x 2 trials
    const std::string text = writeResultsJson(run, run.environment);
    ASSERT_THAT(text, HasSubstr("\"series\""));
    EXPECT_TRUE(savedAndReadBack(run).ok());
}

TEST(ResultsReader, ARefusedRunKeepsItsProfileAndError)
{
    RunResult r;
    r.plan.profile.setup.description = "refused";
    r.error = makeOpError(13, "open", "/dev/sdz", "not allowed");
    r.environment.toolVersion = "0.1.0";
    const std::string text = writeResultsJson(r, r.environment);
    const ResultsRead read = readResultsJson(text);
    ASSERT_TRUE(read.ok()) << read.error;
    ASSERT_TRUE(read.result->error);
    EXPECT_EQ(read.result->error->operation, "open");
    EXPECT_EQ(read.result->error->code.value(), 13);
    EXPECT_EQ(read.result->plan.profile.setup.description, "refused");
    EXPECT_EQ(writeResultsJson(*read.result, read.result->environment), text);
}

// ------------------------------------------------------------------ the Iometer CSV back

namespace {

Target sizedTestFile(const std::string &path, std::uint64_t sizeBytes, Region region = {})
{
    Target t;
    t.path = path;
    t.testFileSizeBytes = sizeBytes;
    t.region = region;
    return t;
}

Worker worker(const std::string &name, std::uint32_t outstandingIos, std::uint64_t seed,
    std::vector<std::string> specs, std::vector<Target> targets)
{
    Worker w;
    w.name = name;
    w.outstandingIos = outstandingIos;
    w.seed = seed;
    w.assignedSpecs = std::move(specs);
    w.targets = std::move(targets);
    return w;
}

Profile profileOf(std::vector<AccessSpec> specs, std::vector<Worker> workers)
{
    Profile p;
    p.setup.description = "read back as it ran";
    p.setup.runTime = 0s;
    p.setup.interval = 100ms;
    p.specs = std::move(specs);
    Host h;
    h.workers = std::move(workers);
    p.hosts.push_back(std::move(h));
    return p;
}

// Two workers at different depths, on targets with regions of their own, a worker's
// default region, a device, a path both workers use, a target's own depth, a spec's
// depth and its copies of a worker ("threads"), a worker idle at a spec index; the
// profile records no worker rows.
Profile manyWorkersProfile()
{
    AccessSpec sequential = makeSpec("64K seq", 65536, 50, 0);
    sequential.queueDepth = 3;
    sequential.threads = 2;
    Target ownDepth = sizedTestFile("shared.dat", 32 * kMiB, {1 * kMiB, 8 * kMiB});
    ownDepth.outstandingIos = 6;
    Target device;
    device.kind = TargetKind::BlockDevice;
    device.path = "/dev/null-device";
    device.region = {4 * kMiB, 64 * kMiB};
    Worker second = worker("Worker 2", 8, 12, {"4K random", std::string(kIdleSpecName)},
        {sizedTestFile("second.dat", 16 * kMiB), sizedTestFile("shared.dat", 32 * kMiB)});
    second.defaultRegion = {2 * kMiB, 4 * kMiB};
    Profile p = profileOf({makeSpec("4K random", 4096, 70, 100), sequential},
        {worker("Worker 1", 2, 11, {"4K random", "64K seq"}, {ownDepth, device}), second});
    p.setup.recordFilter = RecordFilter::NoWorkers;
    return p;
}

// The rows of one type ("DISK") of an Iometer CSV.
std::vector<std::string> rowsOf(const std::string &csv, const std::string &type)
{
    std::vector<std::string> rows;
    std::istringstream lines(csv);
    for (std::string line; std::getline(lines, line);)
        if (line.starts_with(type + ","))
            rows.push_back(line);
    return rows;
}

struct StopAfterFirstStep : RunSink {
    Run *run = nullptr;
    void onStepResult(const StepResult &, const PlannedStep &) override { run->requestStop(); }
};

} // namespace

// The golden results file read back writes the golden Iometer CSV (both were written
// from the same run: tests/core/report_test.cpp).
TEST(ResultsReader, TheGoldenFileWritesTheGoldenIometerCsv)
{
    const ResultsRead read = readResultsJson(goldenResults());
    ASSERT_TRUE(read.ok()) << read.error;
    EXPECT_EQ(writeIometerCsv(*read.result, read.result->environment, RecordFilter::All),
        readFile(ioprism::test::sourceDir() / "tests" / "golden" / "report" / "iometer.csv"));
}

// Each worker's specs, queue depths and regions come back from the file: the access
// specifications, Starting Sector, Maximum Size and Queue Depth of every row.
TEST(ResultsReader, SeveralWorkersAtTheirOwnDepthsWriteTheirIometerCsvBack)
{
    const RunResult run = runOnNullEngine(manyWorkersProfile(), 300);
    ASSERT_FALSE(run.error) << run.error->toString();
    ASSERT_EQ(run.steps.size(), 2u);
    const ResultsRead read = savedAndReadBack(run);
    ASSERT_TRUE(read.ok());
    const std::string csv
        = writeIometerCsv(*read.result, read.result->environment, RecordFilter::All);
    EXPECT_THAT(csv, HasSubstr("'Access specification name,default assignment\n4K random,0\n"));
    EXPECT_THAT(csv, HasSubstr("'Access specification name,default assignment\n64K seq,0\n"));
    // Worker 1's file from sector 2048 (1 MiB), 16384 sectors (8 MiB), at its own depth 6.
    const auto disks = rowsOf(csv, "DISK");
    ASSERT_FALSE(disks.empty());
    EXPECT_THAT(disks.front(), HasSubstr(",2048,16384,6,"));
}

// Iometer's cycling makes several steps of a spec index: which workers and targets take
// part, at which depth. Every test type, read back, writes the CSV the run wrote.
TEST(ResultsReader, EveryCyclingTestTypeWritesItsIometerCsvBack)
{
    for (const TestType type : {TestType::Normal, TestType::CycleTargets, TestType::CycleWorkers,
             TestType::IncrementTargetsParallel, TestType::IncrementTargetsSerial,
             TestType::CycleWorkersAndTargets, TestType::CycleOutstandingIos,
             TestType::CycleOutstandingIosAndTargets}) {
        SCOPED_TRACE(static_cast<int>(type));
        Profile p
            = profileOf({makeSpec("4K random", 4096, 70, 100), makeSpec("16K read", 16384, 100, 0)},
                {worker("Worker 1", 2, 21, {"4K random", "16K read"},
                     {sizedTestFile("a.dat", 8 * kMiB), sizedTestFile("b.dat", 8 * kMiB)}),
                    worker("Worker 2", 5, 22, {"4K random"},
                        {sizedTestFile("c.dat", 8 * kMiB), sizedTestFile("a.dat", 8 * kMiB)})});
        p.setup.testType = type;
        p.setup.queueDepthCycling = {1, 2, 4, StepType::Exponential};
        const RunResult run = runOnNullEngine(p, 50);
        ASSERT_FALSE(run.error) << run.error->toString();
        EXPECT_TRUE(savedAndReadBack(run).ok());
    }
}

// A series over transfer sizes where one point is not a multiple of the target's direct-I/O
// alignment: the run skips it, and the steps read back are the ones that ran (with their
// variants of the spec).
TEST(ResultsReader, ASeriesWithASkippedPointWritesItsIometerCsvBack)
{
    Profile p = profileOf({makeSpec("sizes", 4096, 50, 100)},
        {worker("Worker 1", 4, 31, {"sizes"}, {sizedTestFile("sectors.dat", 8 * kMiB)})});
    Series s;
    SweepAxis axis;
    axis.parameter = SweepParameter::TransferSize;
    axis.values = {4096, 512, 65536};
    s.axes.push_back(axis);
    s.repeat = 2;
    s.ios = 40;
    p.setup.series = s;
    const RunResult run = runOnNullEngine(p, 0, {.alignment = 4096});
    ASSERT_FALSE(run.error) << run.error->toString();
    ASSERT_EQ(run.steps.size(), 4u) << "2 points of 3, 2 trials";
    ASSERT_THAT(run.notices.at(0), HasSubstr("skipped 2 points"));
    EXPECT_TRUE(savedAndReadBack(run).ok());
}

// Files written before the planner set each cycling step's point (format 3 until then,
// with a "point" of null in the plan's cycling steps; format 2, without a plan) read with
// the points a new file keeps: the same plan steps, the same series points (what the
// GUI's Series view plots). And a cycling run's outputs are Iometer's as before: no
// "point" in its steps, no "series".
TEST(ResultsReader, AnOldCyclingFileReadsWithThePointsANewOneKeeps)
{
    const auto pointsText = [](const RunResult &r) {
        std::string text;
        for (const auto &p : seriesPoints(r)) {
            text += fmt::format("{}:{} {} [", p.specIndex, p.point, p.specName);
            for (const auto v : p.values)
                text += fmt::format(" {}", v);
            text += " ] trials";
            for (const auto t : p.trials)
                text += fmt::format(" {}", t);
            text += fmt::format(" iops {}\n", p.iops.median);
        }
        return text;
    };
    for (const TestType type : {TestType::CycleOutstandingIos, TestType::CycleWorkers}) {
        SCOPED_TRACE(static_cast<int>(type));
        Profile p
            = profileOf({makeSpec("4K random", 4096, 70, 100), makeSpec("16K read", 16384, 100, 0)},
                {worker("Worker 1", 2, 21, {"4K random", "16K read"},
                     {sizedTestFile("a.dat", 8 * kMiB), sizedTestFile("b.dat", 8 * kMiB)}),
                    worker("Worker 2", 5, 22, {"4K random"}, {sizedTestFile("c.dat", 8 * kMiB)})});
        p.setup.testType = type;
        p.setup.queueDepthCycling = {1, 2, 4, StepType::Exponential};
        const RunResult run = runOnNullEngine(p, 50);
        ASSERT_FALSE(run.error) << run.error->toString();
        const std::string text = writeResultsJson(run, run.environment);
        nlohmann::ordered_json old = nlohmann::ordered_json::parse(text);
        EXPECT_FALSE(old.contains("series"));
        for (const auto &step : old["steps"])
            EXPECT_FALSE(step.contains("point")) << step["name"];
        for (auto &step : old["plan"]["steps"]) {
            EXPECT_FALSE(step["point"].is_null()) << step["name"];
            step["point"] = nullptr; // as the planner wrote it before
        }
        const ResultsRead fresh = readResultsJson(text);
        const ResultsRead before = readResultsJson(old.dump(1));
        ASSERT_TRUE(fresh.ok()) << fresh.error;
        ASSERT_TRUE(before.ok()) << before.error;
        EXPECT_EQ(before.result->plan.steps, fresh.result->plan.steps);
        EXPECT_EQ(before.result->plan.steps, run.plan.steps);
        const std::string points = pointsText(run);
        EXPECT_EQ(
            std::count(points.begin(), points.end(), '\n'), type == TestType::CycleWorkers ? 3 : 6)
            << points;
        EXPECT_EQ(pointsText(*fresh.result), points);
        EXPECT_EQ(pointsText(*before.result), points);
        EXPECT_EQ(writeResultsJson(*before.result, before.result->environment), text)
            << "written again, an old file is a new one";
        if (type == TestType::CycleWorkers)
            continue; // format 2 kept no step's worker count: its points are unknown
        old.erase("plan");
        old["version"] = 2;
        const ResultsRead v2 = readResultsJson(old.dump(1));
        ASSERT_TRUE(v2.ok()) << v2.error;
        EXPECT_EQ(pointsText(*v2.result), points);
    }
}

// A run stopped after its first step ends its CSV as aborted, read back too (the file
// has the steps that ran, the plan had more).
TEST(ResultsReader, AStoppedRunWritesItsIometerCsvBack)
{
    StopAfterFirstStep sink;
    const RunResult run = runOnNullEngine(manyWorkersProfile(), 100,
        {.sink = &sink, .beforeExecute = [&](ioprism::core::Run &r) { sink.run = &r; }});
    ASSERT_TRUE(run.stoppedByUser);
    ASSERT_EQ(run.steps.size(), 1u);
    const std::string live = writeIometerCsv(run, run.environment, RecordFilter::All);
    EXPECT_TRUE(live.ends_with("Aborted test\n"));
    EXPECT_TRUE(savedAndReadBack(run).ok());
}

// Stopped before its targets were prepared, or refused by the plan's check: no step ran,
// and the CSV read back still ends as the run's did.
TEST(ResultsReader, RunsThatNeverStartedWriteTheirIometerCsvBack)
{
    const RunResult stopped = runOnNullEngine(manyWorkersProfile(), 100,
        {.beforeExecute = [](ioprism::core::Run &r) { r.requestStop(); }});
    ASSERT_TRUE(stopped.stoppedByUser);
    ASSERT_TRUE(stopped.steps.empty());
    EXPECT_TRUE(savedAndReadBack(stopped).ok());

    // 512 B transfers, direct, on targets aligned on 4 KiB.
    Profile unaligned = manyWorkersProfile();
    unaligned.specs[0] = makeSpec("4K random", 512, 70, 100);
    const RunResult refused = runOnNullEngine(unaligned, 100, {.alignment = 4096});
    ASSERT_TRUE(refused.error);
    EXPECT_EQ(refused.error->operation, "check alignment");
    ASSERT_FALSE(refused.plan.workers.empty()) << "refused once its targets were prepared";
    EXPECT_TRUE(savedAndReadBack(refused).ok());
}

// A step's closing time stamp: the run started between two milliseconds (the file keeps
// the millisecond) and the step ended just past one. Live and read back, the CSV counts
// from the millisecond the file keeps.
TEST(ResultsReader, AStepsTimeStampIsTheSameLiveAndReadBack)
{
    const ResultsRead golden = readResultsJson(goldenResults());
    ASSERT_TRUE(golden.ok()) << golden.error;
    RunResult run = *golden.result;
    run.startedAt += 900us; // 12:30:15.250900
    ASSERT_EQ(run.intervals.at(2).step, 0u);
    run.intervals[2].endSeconds = 11.0002; // 12:30:26.2511 from the exact start
    const std::string live = writeIometerCsv(run, run.environment, RecordFilter::All);
    EXPECT_THAT(live, HasSubstr("'Time Stamp\n2024-05-01 12:30:15:250\n"));
    EXPECT_THAT(live, HasSubstr("'Time Stamp\n2024-05-01 12:30:26:250\n"));
    EXPECT_TRUE(savedAndReadBack(run).ok());
}

// The intervals count from the moment the run's clock started, after its targets were
// prepared (which may take minutes): the file keeps that moment, and a step's time stamp
// in the Iometer CSV counts from it, live and read back; a file without it (written
// before it was kept) counts from the run's start, as above.
TEST(ResultsReader, TheTimeOriginIsKeptAndTheStepsTimeStampsCountFromIt)
{
    const ResultsRead golden = readResultsJson(goldenResults());
    ASSERT_TRUE(golden.ok()) << golden.error;
    EXPECT_FALSE(golden.result->timeOriginAt) << "the golden file predates it";
    RunResult run = *golden.result;
    run.timeOriginAt = run.startedAt + 95s + 400us; // 12:30:15.250 + 1:35.0004, 12:31:50.2504
    ASSERT_EQ(run.intervals.at(2).step, 0u);
    // 12:32:01.2511 from the exact origin, .2507 from the millisecond the file keeps.
    run.intervals[2].endSeconds = 11.0007;
    const std::string text = writeResultsJson(run, run.environment);
    EXPECT_THAT(text, HasSubstr("\"time_origin_at\": \"2024-05-01T12:31:50.250Z\""));
    const ResultsRead back = readResultsJson(text);
    ASSERT_TRUE(back.ok()) << back.error;
    EXPECT_EQ(back.result->timeOriginAt,
        std::chrono::floor<std::chrono::milliseconds>(*run.timeOriginAt));
    for (const RunResult *r : std::initializer_list<const RunResult *> {&run, &*back.result}) {
        const std::string csv = writeIometerCsv(*r, r->environment, RecordFilter::All);
        EXPECT_THAT(csv, HasSubstr("'Time Stamp\n2024-05-01 12:30:15:250\n")) << "the run's start";
        EXPECT_THAT(csv, HasSubstr("'Time Stamp\n2024-05-01 12:32:01:250\n")) << "the step's end";
    }
}

// A file read back may say a step ran for 1e300 s; its time stamp stops ~30 years on
// rather than overflowing the clock (UBSan reports the overflow in the sanitizer build).
TEST(ResultsReader, AStepOfAbsurdLengthStillWritesItsIometerCsv)
{
    const ResultsRead golden = readResultsJson(goldenResults());
    ASSERT_TRUE(golden.ok()) << golden.error;
    RunResult run = *golden.result;
    ASSERT_EQ(run.intervals.at(2).step, 0u);
    run.intervals[2].endSeconds = 1e300;
    const std::string csv = writeIometerCsv(run, run.environment, RecordFilter::All);
    EXPECT_THAT(csv, HasSubstr("'Time Stamp\n2056-01-"));
}

// ------------------------------------------------------------------ refusals

TEST(ResultsReader, ATruncatedFileSaysWhereItEnds)
{
    const std::string golden = goldenResults();
    const std::string cut = golden.substr(0, 1000);
    const ResultsRead read = readResultsJson(cut);
    EXPECT_FALSE(read.ok());
    EXPECT_THAT(read.error, HasSubstr("truncated"));
    const TextPosition end = textPosition(cut, cut.size());
    EXPECT_THAT(read.error, HasSubstr(fmt::format("line {}", end.line)));
}

TEST(ResultsReader, TextThatIsNotJsonIsSaidToBeNotJson)
{
    EXPECT_THAT(readResultsJson("Iometer,1.1.0\n").error, HasSubstr("not JSON"));
    EXPECT_THAT(readResultsJson("").error, HasSubstr("empty"));
    const ResultsRead bad = readResultsJson("{\"format\": \"ioprism-results\",\n \"version\": x}");
    EXPECT_THAT(bad.error, HasSubstr("not valid JSON at line 2"));
}

TEST(ResultsReader, AFutureVersionNamesItsVersionAndANewerIOPrism)
{
    std::string text = goldenResults();
    const auto at = text.find("\"version\": 3");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 12, "\"version\": 4");
    const ResultsRead read = readResultsJson(text);
    EXPECT_FALSE(read.ok());
    EXPECT_TRUE(read.newerVersion);
    EXPECT_EQ(read.version, 4);
    EXPECT_THAT(read.error, HasSubstr("version 4"));
    EXPECT_THAT(read.error, HasSubstr("newer IOPrism"));
}

TEST(ResultsReader, AnotherFormatIsRefusedByName)
{
    EXPECT_THAT(readResultsJson(R"({"format": "ioprism-profile", "version": 1})").error,
        HasSubstr("profile, not a results file"));
    EXPECT_THAT(readResultsJson(R"({"format": "fio", "version": 1})").error,
        HasSubstr("\"fio\" is not \"ioprism-results\""));
    EXPECT_THAT(readResultsJson(R"({"jobs": []})").error, HasSubstr("no \"format\""));
    EXPECT_THAT(readResultsJson("[1, 2]").error, HasSubstr("an array, not an object"));
}

TEST(ResultsReader, AWrongTypeNamesItsJsonPath)
{
    std::string text = goldenResults();
    // The first scope's read IOPS of the second step, as a string.
    const ResultsRead good = readResultsJson(text);
    ASSERT_TRUE(good.ok());
    auto doc = nlohmann::ordered_json::parse(text);
    doc["steps"][1]["scopes"][0]["read"]["iops"] = "fast";
    ResultsRead read = readResultsJson(doc.dump());
    EXPECT_FALSE(read.ok());
    EXPECT_EQ(read.error, "steps[1].scopes[0].read.iops: expected a number, found a string");

    doc = nlohmann::ordered_json::parse(text);
    doc["environment"].erase("kernel");
    read = readResultsJson(doc.dump());
    EXPECT_EQ(read.error, "environment.kernel: missing");

    doc = nlohmann::ordered_json::parse(text);
    doc["steps"][0]["scopes"][0]["histogram_ns"]["read"][0] = {1, 7, 3};
    read = readResultsJson(doc.dump());
    EXPECT_THAT(read.error, HasSubstr("steps[0].scopes[0].histogram_ns.read[0]: not a bucket"));

    doc = nlohmann::ordered_json::parse(text);
    doc["profile"]["specs"][0]["lines"][0]["percentRead"] = "all";
    read = readResultsJson(doc.dump());
    EXPECT_THAT(read.error, HasSubstr("profile: specs[0].lines[0].percentRead"));
}

// Found by the fuzzer: a start in the year 0886 overflowed the system clock's nanoseconds.
TEST(ResultsReader, AStartOutsideTheClocksRangeIsRefusedByItsPath)
{
    auto doc = nlohmann::ordered_json::parse(goldenResults());
    for (const char *when :
        {"0886-05-01T12:30:15.250Z", "1969-12-31T23:59:59.999Z", "2201-01-01T00:00:00.000Z"}) {
        doc["started_at"] = when;
        EXPECT_THAT(readResultsJson(doc.dump()).error,
            HasSubstr(std::string("started_at: \"") + when + "\" is not a time a run can have"));
        EXPECT_THAT(readResultsHeadline(doc.dump()).error, HasSubstr("started_at"));
    }
    doc["started_at"] = "2200-12-31T23:59:59.999Z";
    EXPECT_TRUE(readResultsJson(doc.dump()).ok());
}

// Found by the fuzzer: an All scope without its histogram was accepted, and what was
// then written (an empty histogram beside figures of 70 I/Os) did not read back.
TEST(ResultsReader, AnAllScopeWithoutItsHistogramIsRefusedByItsPath)
{
    auto doc = nlohmann::ordered_json::parse(goldenResults());
    doc["steps"][1]["scopes"][0].erase("histogram_ns");
    const ResultsRead read = readResultsJson(doc.dump());
    EXPECT_FALSE(read.ok());
    EXPECT_EQ(
        read.error, "steps[1].scopes[0].histogram_ns: missing: the All scope keeps its histogram");
}

// Issue 24: the golden run's two steps are unlike (4K reads, 64K mixed), and the average
// over both (its summary, 15.1 IOPS) describes neither: the headline is the step with the
// most IOPS, named, with the latencies of that same step.
TEST(ResultsReader, TheHeadlineIsTheBestStepNamedNotTheAverageOfUnlikeSteps)
{
    const ResultsHeadlineRead read = readResultsHeadline(goldenResults());
    ASSERT_TRUE(read.headline) << read.error;
    const ResultsHeadline &h = *read.headline;
    const auto full = readResultsJson(goldenResults());
    ASSERT_TRUE(full.ok()) << full.error;
    const Figures best = full.result->steps[1].scopes[0].figures;
    ASSERT_GT(best.total.iops, full.result->steps[0].scopes[0].figures.total.iops);
    EXPECT_NE(h.iops, computeFigures(runTotal(*full.result)).total.iops) << "not the average";
    EXPECT_EQ(h.iops, best.total.iops);
    EXPECT_EQ(h.megabytesPerSecond, best.total.megabytesPerSecond);
    EXPECT_EQ(h.meanLatencyUs, best.total.latency.meanUs);
    EXPECT_EQ(h.p99LatencyUs, best.total.latency.p99Us);
    ASSERT_TRUE(h.figureStep);
    EXPECT_EQ(*h.figureStep, 1u);
    EXPECT_EQ(h.figureStepName, "64K, mixed");
    EXPECT_EQ(headlineFigureLabel(h), "best of 2: 64K, mixed");
    EXPECT_EQ(h.outcome, RunOutcome::Stopped);
    EXPECT_EQ(h.steps, 2u);
    ASSERT_EQ(h.targets.size(), 2u);
    EXPECT_EQ(h.deviceModels[0], "loop: /var/tmp/img");
    EXPECT_EQ(h.engine, "io_uring");
    // Damage in the intervals, which the headline does not build, is still found.
    std::string text = goldenResults();
    const auto at = text.find("\"intervals\"");
    ASSERT_NE(at, std::string::npos);
    text.insert(text.find('[', at) + 1, "}");
    EXPECT_FALSE(readResultsHeadline(text).headline);
}

TEST(ResultsReader, TheHeadlineOfOneStepIsThatStepsFiguresUnlabelled)
{
    auto doc = nlohmann::json::parse(goldenResults());
    doc["steps"].erase(1);
    const ResultsHeadlineRead read = readResultsHeadline(doc.dump());
    ASSERT_TRUE(read.headline) << read.error;
    const ResultsHeadline &h = *read.headline;
    const auto &all = doc["steps"][0]["scopes"][0]["total"];
    EXPECT_EQ(h.iops, all["iops"].get<double>());
    EXPECT_EQ(h.megabytesPerSecond, all["mbps"].get<double>());
    EXPECT_EQ(h.p99LatencyUs, all["latency_us"]["p99"].get<double>());
    EXPECT_EQ(h.figureStep, std::optional<std::size_t>(0));
    EXPECT_EQ(h.figureStepName, "4K read");
    EXPECT_EQ(headlineFigureLabel(h), "") << "a run of one step: its figures are the run's";

    // No step completed an I/O (a run refused at its start): no figure at all, not zeros.
    for (auto &step : doc["steps"])
        for (auto &scope : step["scopes"])
            scope["total"]["ios"] = 0;
    const ResultsHeadlineRead none = readResultsHeadline(doc.dump());
    ASSERT_TRUE(none.headline) << none.error;
    EXPECT_FALSE(none.headline->figureStep);
    EXPECT_TRUE(std::isnan(none.headline->iops));
    EXPECT_TRUE(std::isnan(none.headline->p99LatencyUs));
    EXPECT_EQ(headlineFigureLabel(*none.headline), "");
}

TEST(ResultsReader, AShortenedTextNeverSplitsACharacter)
{
    const std::string ellipsis = "\xE2\x80\xA6"; // U+2026
    const std::string umlaut = "\xC3\xA4"; // U+00E4: two bytes, one character
    EXPECT_EQ(shortenedText("short", 10), "short");
    EXPECT_EQ(shortenedText("exactly10!", 10), "exactly10!");
    EXPECT_EQ(shortenedText("eleven char", 10), "eleven ch" + ellipsis);
    EXPECT_EQ(shortenedText(umlaut + umlaut + umlaut + umlaut, 3), umlaut + umlaut + ellipsis);
    EXPECT_EQ(shortenedText(umlaut + umlaut + umlaut, 3), umlaut + umlaut + umlaut);
}
