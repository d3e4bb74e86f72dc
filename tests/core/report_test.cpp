// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the result outputs: the Iometer-layout CSV, the time-series CSV and the JSON
// results, on a RunResult built by hand with known measurements.
//
// Golden files (tests/golden/report) hold the exact expected outputs; the environment
// and the timestamps are fixed, so they are deterministic. After an intended change of
// a writer, regenerate them with scripts/update-golden.sh (docs/testing.md), then review
// the diff of tests/golden/report before committing it.
#include "core/profile/profile_json.h"
#include "core/report/compare.h"
#include "core/report/csv.h"
#include "core/report/results_json.h"
#include "core/report/results_reader.h"
#include "core/report/step_summary.h"
#include "core/run/plan.h"
#include "support/test_support.h"

#include <cmath>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

using namespace ioprism::core;
using namespace std::chrono_literals;
using testing::HasSubstr;

namespace {

using ioprism::test::kMs;
using ioprism::test::kS;
using ioprism::test::kUs;

// ------------------------------------------------------------------ building results

DirectionMeasurement direction(std::uint64_t bytesPerIo,
    const std::vector<std::uint64_t> &latenciesNs, std::uint64_t errors = 0)
{
    DirectionMeasurement d;
    for (const auto ns : latenciesNs) {
        d.histogram.record(ns);
        d.bins.record(ns);
        d.minNs = std::min(d.minNs, ns);
        d.maxNs = std::max(d.maxNs, ns);
        d.bytes += bytesPerIo;
    }
    d.errors = errors;
    return d;
}

Measurement measurement(DirectionMeasurement read, DirectionMeasurement write,
    std::chrono::nanoseconds elapsed, std::uint32_t inFlightAtEnd = 0)
{
    Measurement m;
    m.read = std::move(read);
    m.write = std::move(write);
    m.transactions = m.read.histogram.count() + m.write.histogram.count();
    m.inFlightAtEnd = inFlightAtEnd;
    m.elapsed = elapsed;
    return m;
}

// Every value of a list repeated n times: enough I/Os for meaningful percentiles.
std::vector<std::uint64_t> repeat(std::initializer_list<std::uint64_t> values, int n)
{
    std::vector<std::uint64_t> out;
    for (int i = 0; i < n; ++i)
        out.insert(out.end(), values.begin(), values.end());
    return out;
}

Profile goldenProfile()
{
    Profile p;
    p.setup.description = "nightly, \"quoted\" check";
    p.setup.runTime = 60s;
    p.setup.rampUp = 1s;
    AccessSpec small;
    small.name = "4K read";
    SpecLine l;
    l.transferSizeBytes = 4096;
    l.alignmentBytes = 4096;
    l.percentRead = 100;
    small.lines.push_back(l);
    AccessSpec mixed;
    mixed.name = "64K, mixed";
    mixed.defaultAssignment = SpecAssignment::Disk;
    l.transferSizeBytes = 65536;
    l.alignmentBytes = 65536;
    l.percentRead = 50;
    l.percentRandom = 0;
    l.sharePercent = 70;
    mixed.lines.push_back(l);
    l.transferSizeBytes = 512;
    l.alignmentBytes = 512;
    l.sharePercent = 30;
    l.delay = 5ms;
    l.burstLength = 4;
    mixed.lines.push_back(l);
    p.specs = {small, mixed};

    Host host;
    host.name = "lab-host";
    Worker w;
    w.name = "Worker 1";
    w.outstandingIos = 8;
    w.seed = 42;
    w.assignedSpecs = {"4K read", "64K, mixed"};
    Target device;
    device.kind = TargetKind::BlockDevice;
    device.path = "/dev/loop0";
    device.region = {1024 * 1024, 64 * kMiB};
    Target file;
    file.kind = TargetKind::TestFile;
    file.path = "/var/tmp/a,b.dat";
    file.testFileSizeBytes = 256 * kMiB;
    file.outstandingIos = 4;
    w.targets = {device, file};
    host.workers = {w};
    p.hosts = {host};
    return p;
}

Scope allScope()
{
    return {Scope::Kind::All, -1, -1, "All", {}};
}
Scope workerScope()
{
    return {Scope::Kind::Worker, 0, -1, "Worker 1", {}};
}
Scope targetScope(int t)
{
    const std::string path = t == 0 ? "/dev/loop0" : "/var/tmp/a,b.dat";
    return {Scope::Kind::Target, 0, t, "Worker 1 / " + path, path};
}

// The scopes of one span from the two targets' measurements.
template<typename Result>
std::vector<Result> scopesOf(const Measurement &t0, const Measurement &t1);

template<>
std::vector<ScopeResult> scopesOf<ScopeResult>(const Measurement &t0, const Measurement &t1)
{
    Measurement both = t0;
    both.add(t1);
    return {{allScope(), both, computeFigures(both)}, {workerScope(), both, computeFigures(both)},
        {targetScope(0), t0, computeFigures(t0)}, {targetScope(1), t1, computeFigures(t1)}};
}

template<>
std::vector<ScopeFigures> scopesOf<ScopeFigures>(const Measurement &t0, const Measurement &t1)
{
    std::vector<ScopeFigures> out;
    for (auto &s : scopesOf<ScopeResult>(t0, t1))
        out.push_back({s.scope, s.figures});
    return out;
}

// The All scope's latency histograms, as the sampler keeps them with an interval (what
// its heat map bands come from).
void keepAllHistograms(IntervalSample &s, const Measurement &t0, const Measurement &t1)
{
    Measurement both = t0;
    both.add(t1);
    s.readLatency
        = SparseLatencyHistogram::of(both.read.histogram, both.read.minNs, both.read.maxNs);
    s.writeLatency
        = SparseLatencyHistogram::of(both.write.histogram, both.write.minNs, both.write.maxNs);
}

CpuFigures cpu(double user, double system, double iowait, double idle, double process)
{
    CpuFigures c;
    c.valid = true;
    c.userPercent = user;
    c.systemPercent = system;
    c.iowaitPercent = iowait;
    c.irqPercent = 0.5;
    c.softirqPercent = 1.5;
    c.idlePercent = idle;
    c.busyPercent = 100 - idle - iowait;
    c.processPercent = process;
    return c;
}

// Two steps on one worker with two targets. Step 0 reads 4 KiB (one read takes 12 s, in
// Iometer's last bin); step 1 mixes 64 KiB reads and writes, with errors, and has no
// CPU figures (a platform without counters).
RunResult goldenResult()
{
    RunResult r;
    r.runId = 7;
    r.engine = "io_uring";
    r.notices = {"io_uring: registered buffers unavailable, using plain buffers"};
    TargetInfo dev;
    dev.path = "/dev/loop0";
    dev.sizeBytes = 128 * kMiB;
    dev.isDevice = true;
    dev.logicalBlockBytes = 512;
    TargetInfo file;
    file.path = "/var/tmp/a,b.dat";
    file.sizeBytes = 256 * kMiB;
    file.logicalBlockBytes = 4096;
    file.createdTestFile = true;
    // The plan that ran: as the run resolves it, from the golden profile and these facts.
    Problems problems;
    const auto plan = makeRunPlan(goldenProfile(), 0, problems);
    r.plan = describePlan(
        *plan, [&](const std::string &path) { return path == dev.path ? dev : file; });
    r.startedAt
        = std::chrono::sys_days {std::chrono::year {2024} / 5 / 1} + 12h + 30min + 15s + 250ms;

    // ---- step 0: 10 s measured
    {
        const auto t0 = measurement(
            direction(4096, repeat({80 * kUs, 120 * kUs, 450 * kUs, 2 * kMs}, 25)), {}, 10s, 8);
        auto slow = repeat({60 * kUs, 95 * kUs}, 10);
        slow.push_back(12 * kS);
        const auto t1 = measurement(direction(4096, slow), {}, 10s, 4);
        StepResult s;
        s.step = 0;
        s.stepName = "4K read";
        s.measuredSeconds = 10;
        s.scopes = scopesOf<ScopeResult>(t0, t1);
        s.cpu = cpu(10, 5, 2, 83, 3.25);
        s.cpuEffectiveness = s.scopes[0].figures.total.iops / s.cpu.busyPercent;
        r.steps.push_back(s);

        // A ramp-up interval (1 s) and two measured ones (5 s each).
        const auto ramp0 = measurement(direction(4096, {70 * kUs, 90 * kUs}), {}, 1s, 8);
        const auto ramp1 = measurement({}, {}, 1s, 4); // idle target: no latency to report
        IntervalSample ramp;
        ramp.runId = 7;
        ramp.step = 0;
        ramp.stepName = s.stepName;
        ramp.phase = RunPhase::RampUp;
        ramp.startSeconds = 0;
        ramp.endSeconds = 1;
        ramp.scopes = scopesOf<ScopeFigures>(ramp0, ramp1);
        keepAllHistograms(ramp, ramp0, ramp1);
        ramp.cpu = cpu(12, 6, 1, 81, 4);
        ramp.cpuEffectiveness = ramp.scopes[0].figures.total.iops / ramp.cpu.busyPercent;
        r.intervals.push_back(ramp);
        for (int i = 0; i < 2; ++i) {
            const auto a = measurement(
                direction(4096, repeat({80 * kUs, 120 * kUs, 450 * kUs, 2 * kMs}, 12 + i)), {}, 5s,
                8);
            auto lat = repeat({60 * kUs, 95 * kUs}, 5);
            if (i == 1)
                lat.push_back(12 * kS);
            const auto b = measurement(direction(4096, lat), {}, 5s, 4);
            IntervalSample m;
            m.runId = 7;
            m.step = 0;
            m.stepName = s.stepName;
            m.phase = RunPhase::Measuring;
            m.startSeconds = 1 + 5.0 * i;
            m.endSeconds = 6 + 5.0 * i;
            m.scopes = scopesOf<ScopeFigures>(a, b);
            keepAllHistograms(m, a, b);
            m.cpu = cpu(10, 5, 2, 83, 3.25);
            m.cpuEffectiveness = m.scopes[0].figures.total.iops / m.cpu.busyPercent;
            r.intervals.push_back(m);
        }
    }
    // ---- step 1: 5 s measured, reads and writes, errors, no CPU figures
    {
        const auto t0 = measurement(direction(65536, repeat({300 * kUs, 700 * kUs}, 20), 1),
            direction(65536, repeat({1500 * kUs, 4 * kMs, 9 * kMs}, 10), 2), 5s, 8);
        const auto t1 = measurement(direction(65536, repeat({250 * kUs}, 30)),
            direction(512, repeat({35 * kMs, 150 * kMs}, 3)), 5s, 4);
        StepResult s;
        s.step = 1;
        s.stepName = "64K, mixed";
        s.measuredSeconds = 5;
        s.complete = false;
        s.scopes = scopesOf<ScopeResult>(t0, t1);
        r.steps.push_back(s);

        IntervalSample m;
        m.runId = 7;
        m.step = 1;
        m.stepName = s.stepName;
        m.phase = RunPhase::Measuring;
        m.startSeconds = 12;
        m.endSeconds = 17;
        m.scopes = scopesOf<ScopeFigures>(t0, t1);
        keepAllHistograms(m, t0, t1);
        r.intervals.push_back(m);
    }
    r.stoppedByUser = true;
    return r;
}

Environment goldenEnvironment()
{
    Environment e;
    e.hostName = "golden-host";
    e.osName = "TestOS 1.0 (golden)";
    e.kernel = "6.1.0-test";
    e.cpuModel = "Test CPU @ 3.00GHz";
    e.cpuCount = 8;
    e.toolVersion = "0.1.0";
    e.engine = "io_uring";
    e.notices = {"io_uring: registered buffers unavailable, using plain buffers"};
    e.commandLine = "ioprism-cli run p.json --json r.json";
    DeviceFacts loop;
    loop.path = "/dev/loop0";
    loop.name = "loop0";
    loop.model = "loop: /var/tmp/img";
    loop.sizeBytes = 128 * kMiB;
    loop.scheduler = "none";
    loop.logicalSectorBytes = 512;
    loop.physicalSectorBytes = 512;
    loop.nrRequests = 128;
    loop.writeCache = "write back";
    DeviceFacts disk = loop;
    disk.path = "/var/tmp/a,b.dat";
    disk.name = "vda";
    disk.model = "QEMU HARDDISK";
    disk.sizeBytes = 100 * kGiB;
    disk.rotational = true;
    disk.scheduler = "mq-deadline";
    e.devices = {loop, disk};
    return e;
}

// ------------------------------------------------------------------ reading outputs

using ioprism::test::lines;
using ioprism::test::splitCsv;

// The result rows of an Iometer CSV, keyed by nothing: every line whose first field is
// one of Iometer's row types.
std::vector<std::vector<std::string>> iometerRows(const std::string &csv)
{
    std::vector<std::vector<std::string>> rows;
    for (const auto &line : lines(csv)) {
        auto f = splitCsv(line);
        if (f[0] == "ALL" || f[0] == "MANAGER" || f[0] == "PROCESSOR" || f[0] == "WORKER"
            || f[0] == "DISK")
            rows.push_back(std::move(f));
    }
    return rows;
}

std::vector<std::string> iometerHeader(const std::string &csv)
{
    for (const auto &line : lines(csv))
        if (line.starts_with("'Target Type,"))
            return splitCsv(line.substr(1));
    return {};
}

// The index of column `name`; its end (header.size()) when there is none, a failure.
std::size_t columnOrEnd(const std::vector<std::string> &header, const std::string &name)
{
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name;
    return std::size_t(it - header.begin());
}

std::map<std::string, int> rowTypeCounts(const std::string &csv)
{
    std::map<std::string, int> counts;
    for (const auto &row : iometerRows(csv))
        ++counts[row[0]];
    return counts;
}

// ------------------------------------------------------------------ golden files

std::filesystem::path reportGoldenPath(const std::string &name)
{
    return ioprism::test::sourceDir() / "tests" / "golden" / "report" / name;
}

void expectGolden(const std::string &name, const std::string &text)
{
    ioprism::test::expectGoldenFile(reportGoldenPath(name), text);
}

// ------------------------------------------------------------------ golden outputs

TEST(ReportGolden, IometerCsvMatchesGolden)
{
    expectGolden(
        "iometer.csv", writeIometerCsv(goldenResult(), goldenEnvironment(), RecordFilter::All));
}

TEST(ReportGolden, TimeSeriesCsvMatchesGolden)
{
    expectGolden("timeseries.csv", writeTimeSeriesCsv(goldenResult()));
}

TEST(ReportGolden, ResultsJsonMatchesGolden)
{
    expectGolden("results.json", writeResultsJson(goldenResult(), goldenEnvironment()));
}

// ------------------------------------------------------------------ run totals

TEST(RunTotal, SumsCountsAndTimesAndMergesHistogramsOfAllSteps)
{
    const RunResult r = goldenResult();
    const Measurement total = runTotal(r);
    const Measurement &a = r.steps[0].scopes[0].measurement;
    const Measurement &b = r.steps[1].scopes[0].measurement;
    EXPECT_EQ(total.elapsed, 15s);
    EXPECT_EQ(total.read.bytes, a.read.bytes + b.read.bytes);
    EXPECT_EQ(total.write.bytes, b.write.bytes);
    EXPECT_EQ(total.read.histogram.count(), a.read.histogram.count() + b.read.histogram.count());
    EXPECT_EQ(total.read.errors + total.write.errors, 3u);
    EXPECT_EQ(total.transactions, a.transactions + b.transactions);
    EXPECT_EQ(total.read.minNs, 60 * kUs);
    EXPECT_EQ(total.read.maxNs, 12 * kS);
    EXPECT_EQ(total.read.bins.counts.back(), 1u);
    EXPECT_EQ(total.write.bins.total(), b.write.histogram.count());
}

TEST(RunTotal, EmptyRunGivesEmptyMeasurement)
{
    const Measurement total = runTotal(RunResult {});
    EXPECT_EQ(total.elapsed, 0s);
    EXPECT_EQ(total.read.histogram.count() + total.write.histogram.count(), 0u);
}

TEST(RunCpuBusyPercent, WeighsStepsByMeasuredTimeAndSkipsInvalidOnes)
{
    RunResult r = goldenResult();
    EXPECT_DOUBLE_EQ(runCpuBusyPercent(r), r.steps[0].cpu.busyPercent); // step 1 has none
    r.steps[1].cpu = cpu(40, 10, 0, 50, 1); // busy 50 % over 5 s, step 0 15 % over 10 s
    EXPECT_DOUBLE_EQ(runCpuBusyPercent(r), (15.0 * 10 + 50.0 * 5) / 15);
    r.steps[0].cpu.valid = false;
    r.steps[1].cpu.valid = false;
    EXPECT_LT(runCpuBusyPercent(r), 0);
}

// ------------------------------------------------------------------ JSON

TEST(ResultsJson, SummaryHasExactlyTheDocumentedKeys)
{
    const auto doc = resultsToJson(goldenResult(), goldenEnvironment());
    std::vector<std::string> keys;
    for (const auto &[key, value] : doc.at("summary").items())
        keys.push_back(key);
    EXPECT_THAT(keys,
        testing::ElementsAre("iops", "read_iops", "write_iops", "mbps", "read_mbps", "write_mbps",
            "bytes_read", "bytes_written", "latency_us", "cpu_percent", "errors"));
    std::vector<std::string> latency;
    for (const auto &[key, value] : doc.at("summary").at("latency_us").items())
        latency.push_back(key);
    EXPECT_THAT(
        latency, testing::ElementsAre("mean", "max", "p50", "p90", "p99", "p99_9", "p99_99"));
}

TEST(ResultsJson, TopLevelHasFormatVersionAndEverySection)
{
    const auto doc = resultsToJson(goldenResult(), goldenEnvironment());
    EXPECT_EQ(doc.at("format"), "ioprism-results");
    EXPECT_EQ(doc.at("version"), 3);
    for (const char *key : {"tool", "environment", "profile", "plan", "summary", "steps",
             "intervals", "error", "stoppedByUser"})
        EXPECT_TRUE(doc.contains(key)) << key;
    EXPECT_EQ(doc.at("started_at"), "2024-05-01T12:30:15.250Z");
    EXPECT_TRUE(doc.at("error").is_null());
    EXPECT_TRUE(doc.at("stoppedByUser").get<bool>());
}

TEST(ResultsJson, SummaryAggregatesEveryStepOverTheMeasuredSeconds)
{
    const RunResult r = goldenResult();
    const auto s = resultsToJson(r, goldenEnvironment()).at("summary");
    std::uint64_t ios = 0, readBytes = 0, writeBytes = 0;
    for (const auto &step : r.steps) {
        const Measurement &m = step.scopes[0].measurement;
        ios += m.read.histogram.count() + m.write.histogram.count();
        readBytes += m.read.bytes;
        writeBytes += m.write.bytes;
    }
    EXPECT_DOUBLE_EQ(s.at("iops").get<double>(), double(ios) / 15.0);
    EXPECT_EQ(s.at("bytes_read").get<std::uint64_t>(), readBytes);
    EXPECT_EQ(s.at("bytes_written").get<std::uint64_t>(), writeBytes);
    EXPECT_DOUBLE_EQ(s.at("mbps").get<double>(), double(readBytes + writeBytes) / 1e6 / 15.0);
    EXPECT_DOUBLE_EQ(s.at("latency_us").at("max").get<double>(), 12e6);
    EXPECT_EQ(s.at("errors").get<std::uint64_t>(), 3u);
    EXPECT_DOUBLE_EQ(s.at("cpu_percent").get<double>(), 15.0);
}

TEST(ResultsJson, CpuPercentIsNullWithoutCounters)
{
    RunResult r = goldenResult();
    for (auto &step : r.steps)
        step.cpu.valid = false;
    const auto doc = resultsToJson(r, goldenEnvironment());
    EXPECT_TRUE(doc.at("summary").at("cpu_percent").is_null());
    EXPECT_TRUE(doc.at("steps")[0].at("cpu").is_null());
    EXPECT_TRUE(doc.at("steps")[0].at("cpu_effectiveness").is_null());
}

TEST(ResultsJson, NonFiniteNumbersAreWrittenAsNull)
{
    RunResult r = goldenResult();
    r.steps[0].measuredSeconds = std::nan("");
    r.steps[0].scopes[1].figures.read.iops = std::numeric_limits<double>::infinity();
    const auto doc = resultsToJson(r, goldenEnvironment());
    EXPECT_TRUE(doc.at("steps")[0].at("measured_seconds").is_null());
    EXPECT_TRUE(doc.at("steps")[0].at("scopes")[1].at("read").at("iops").is_null());
    // And the text parses back (a NaN would not).
    const auto reread = nlohmann::json::parse(writeResultsJson(r, goldenEnvironment()));
    EXPECT_TRUE(reread.at("steps")[0].at("measured_seconds").is_null());
}

TEST(ResultsJson, LatencyIsNullWhereNoIoCompleted)
{
    const auto doc = resultsToJson(goldenResult(), goldenEnvironment());
    const auto &loop0 = doc.at("steps")[0].at("scopes")[2];
    EXPECT_TRUE(loop0.at("write").at("latency_us").at("p99").is_null()); // step 0 only reads
    EXPECT_TRUE(loop0.at("write").at("latency_us").at("min").is_null());
    EXPECT_DOUBLE_EQ(loop0.at("read").at("latency_us").at("max").get<double>(), 2000.0);
    // The idle test file in the first interval: its column has null there.
    const auto &idle = doc.at("intervals").at("scopes")[3];
    EXPECT_EQ(idle.at("label"), "Worker 1 / /var/tmp/a,b.dat");
    EXPECT_TRUE(idle.at("latency_us").at("mean")[0].is_null());
    EXPECT_TRUE(idle.at("latency_us").at("max")[0].is_null());
    EXPECT_DOUBLE_EQ(idle.at("latency_us").at("mean")[1].get<double>(), 77.5);
    EXPECT_DOUBLE_EQ(idle.at("iops")[0].get<double>(), 0.0);
}

TEST(ResultsJson, StepsCarryBinsAndTheAllScopeHistogram)
{
    const RunResult r = goldenResult();
    const auto doc = resultsToJson(r, goldenEnvironment());
    const auto &all = doc.at("steps")[0].at("scopes")[0];
    ASSERT_EQ(all.at("iometer_bins").size(), IometerBins::kBinCount);
    EXPECT_EQ(all.at("iometer_bins").back().at("label"), std::string(IometerBins::label(20)));
    EXPECT_EQ(all.at("iometer_bins").back().at("count"), 1);
    // Buckets are [lowNs, highNs, count] and add up to the reads.
    std::uint64_t count = 0;
    for (const auto &b : all.at("histogram_ns").at("read")) {
        ASSERT_EQ(b.size(), 3u);
        EXPECT_LE(b[0].get<std::uint64_t>(), b[1].get<std::uint64_t>());
        count += b[2].get<std::uint64_t>();
    }
    EXPECT_EQ(count, r.steps[0].scopes[0].measurement.read.histogram.count());
    EXPECT_FALSE(doc.at("steps")[0].at("scopes")[1].contains("histogram_ns"));
}

TEST(ResultsJson, EmbeddedProfileReadsBackAsTheEffectiveProfile)
{
    const RunResult r = goldenResult();
    const auto doc = nlohmann::json::parse(writeResultsJson(r, goldenEnvironment()));
    Problems problems;
    const auto profile = profileFromJson(doc.at("profile"), problems);
    ASSERT_TRUE(profile.has_value());
    EXPECT_EQ(*profile, r.plan.profile);
}

TEST(ResultsJson, ErrorNamesOperationPathAndCode)
{
    RunResult r = goldenResult();
    r.error = makeOpError(28, "write", "/var/tmp/a,b.dat");
    const auto e = resultsToJson(r, goldenEnvironment()).at("error");
    EXPECT_EQ(e.at("operation"), "write");
    EXPECT_EQ(e.at("path"), "/var/tmp/a,b.dat");
    EXPECT_EQ(e.at("code"), 28);
    EXPECT_FALSE(e.at("message").get<std::string>().empty());
}

// ------------------------------------------------------------------ Iometer CSV

TEST(IometerCsv, HeaderFollowsIometerColumnOrderThenBinsThenPercentiles)
{
    const auto header
        = iometerHeader(writeIometerCsv(goldenResult(), goldenEnvironment(), RecordFilter::All));
    ASSERT_EQ(header.size(), 59u + 21u + 15u + 21u); // Iometer, bins, percentiles, device
    EXPECT_THAT(std::vector<std::string>(header.begin(), header.begin() + 10),
        testing::ElementsAre("Target Type", "Target Name", "Access Specification Name",
            "# Managers", "# Workers", "# Disks", "IOps", "Read IOps", "Write IOps",
            "MiBps (Binary)"));
    EXPECT_EQ(header[58], "Segments Retransmitted/Second");
    EXPECT_EQ(header[59], "0 to 50 uS");
    EXPECT_EQ(header[79], " >= 10 s");
    EXPECT_EQ(header[80], "P50 Response Time");
    EXPECT_EQ(header[94], "P99.99 Write Response Time");
}

TEST(IometerCsv, EveryRowHasTheHeadersFieldCount)
{
    const std::string csv = writeIometerCsv(goldenResult(), goldenEnvironment(), RecordFilter::All);
    const auto header = iometerHeader(csv);
    for (const auto &row : iometerRows(csv))
        EXPECT_EQ(row.size(), header.size()) << row[0] << " " << row[1];
}

TEST(IometerCsv, TenSecondBinIsFilledFromTheCounts)
{
    const std::string csv = writeIometerCsv(goldenResult(), goldenEnvironment(), RecordFilter::All);
    const auto header = iometerHeader(csv);
    const std::size_t last = columnOrEnd(header, " >= 10 s");
    const std::size_t fiveToTen = columnOrEnd(header, "5 to 10 s");
    const auto rows = iometerRows(csv);
    // Step 0: ALL, MANAGER, PROCESSOR, WORKER, DISK loop0, DISK file.
    ASSERT_GE(rows.size(), 6u);
    EXPECT_EQ(rows[0][last], "1"); // ALL
    EXPECT_EQ(rows[0][fiveToTen], "0");
    EXPECT_EQ(rows[2][last], ""); // PROCESSOR: no I/O bins
    EXPECT_EQ(rows[3][last], "1"); // WORKER
    EXPECT_EQ(rows[4][last], "0"); // DISK /dev/loop0
    EXPECT_EQ(rows[5][last], "1"); // DISK /var/tmp/a,b.dat
    // The bins of a row add up to its I/Os.
    const std::size_t first = columnOrEnd(header, "0 to 50 uS");
    for (const auto &row : rows) {
        if (row[0] == "PROCESSOR")
            continue;
        std::uint64_t sum = 0;
        for (std::size_t i = first; i <= last; ++i)
            sum += std::stoull(row[i]);
        EXPECT_EQ(sum,
            std::stoull(row[columnOrEnd(header, "Read I/Os")])
                + std::stoull(row[columnOrEnd(header, "Write I/Os")]));
    }
}

TEST(IometerCsv, ResponseTimesAreInMillisecondsLikeIometer)
{
    const std::string csv = writeIometerCsv(goldenResult(), goldenEnvironment(), RecordFilter::All);
    const auto header = iometerHeader(csv);
    const auto rows = iometerRows(csv);
    EXPECT_EQ(rows[0][columnOrEnd(header, "Maximum Response Time")], "12000.000000");
    EXPECT_EQ(rows[0][columnOrEnd(header, "Maximum Read Response Time")], "12000.000000");
    EXPECT_EQ(rows[4][columnOrEnd(header, "Maximum Read Response Time")], "2.000000");
    // Raw times are nanoseconds, and Processor Speed says so (ticks per second).
    EXPECT_EQ(rows[1][columnOrEnd(header, "Processor Speed")], "1000000000");
    EXPECT_EQ(rows[1][columnOrEnd(header, "Maximum Raw Read Response Time")], "12000000000");
    EXPECT_EQ(rows[1][columnOrEnd(header, "Total Raw Run Time")], "10000000000");
    EXPECT_EQ(rows[0][columnOrEnd(header, "Total Raw Run Time")], ""); // ALL has no raw block
}

TEST(IometerCsv, TargetSettingsComeFromThePlan)
{
    const std::string csv = writeIometerCsv(goldenResult(), goldenEnvironment(), RecordFilter::All);
    const auto header = iometerHeader(csv);
    const auto rows = iometerRows(csv);
    const std::size_t start = columnOrEnd(header, "Starting Sector");
    const std::size_t size = columnOrEnd(header, "Maximum Size");
    const std::size_t qd = columnOrEnd(header, "Queue Depth");
    // /dev/loop0: 1 MiB in, 64 MiB, 512-byte sectors, the worker's 8 outstanding I/Os.
    EXPECT_EQ(rows[4][start], "2048");
    EXPECT_EQ(rows[4][size], "131072");
    EXPECT_EQ(rows[4][qd], "8");
    // The test file: 4 KiB sectors, its 256 MiB test-file size, its own 4 I/Os.
    EXPECT_EQ(rows[5][start], "0");
    EXPECT_EQ(rows[5][size], "65536");
    EXPECT_EQ(rows[5][qd], "4");
    // The worker and ALL rows only write a setting their targets share; a queue depth
    // they do not share is -1, as Iometer writes it (a step is told apart by it).
    EXPECT_EQ(rows[3][qd], "-1");
    EXPECT_EQ(rows[0][qd], "-1");
    EXPECT_EQ(rows[3][start], "") << "starting sectors differ: empty, as Iometer leaves it";
    EXPECT_EQ(rows[3][columnOrEnd(header, "Access Specification Name")], "4K read");
}

struct FilterCase {
    RecordFilter filter;
    int workers;
    int disks;
    int managers;
};

class IometerCsvFilter : public testing::TestWithParam<FilterCase>
{
};

TEST_P(IometerCsvFilter, DropsTheRowsTheFilterExcludes)
{
    const auto c = GetParam();
    const auto counts
        = rowTypeCounts(writeIometerCsv(goldenResult(), goldenEnvironment(), c.filter));
    const int all = c.filter == RecordFilter::None ? 0 : 2; // two steps
    auto count = [&](const char *type) { return counts.contains(type) ? counts.at(type) : 0; };
    EXPECT_EQ(count("ALL"), all);
    EXPECT_EQ(count("MANAGER"), c.managers);
    EXPECT_EQ(count("PROCESSOR"), c.managers);
    EXPECT_EQ(count("WORKER"), c.workers);
    EXPECT_EQ(count("DISK"), c.disks);
}

INSTANTIATE_TEST_SUITE_P(AllFilters, IometerCsvFilter,
    testing::Values(FilterCase {RecordFilter::All, 2, 4, 2},
        FilterCase {RecordFilter::NoTargets, 2, 0, 2},
        FilterCase {RecordFilter::NoWorkers, 0, 4, 2},
        FilterCase {RecordFilter::NoTargetsNoWorkers, 0, 0, 2},
        FilterCase {RecordFilter::None, 0, 0, 0}));

TEST(IometerCsv, FieldsWithCommasAndQuotesAreQuoted)
{
    const std::string csv = writeIometerCsv(goldenResult(), goldenEnvironment(), RecordFilter::All);
    EXPECT_THAT(csv, HasSubstr("\n0,\"nightly, \"\"quoted\"\" check\"\n"));
    EXPECT_THAT(csv, HasSubstr("\nDISK,\"/var/tmp/a,b.dat\","));
    EXPECT_THAT(csv, HasSubstr("\n\"64K, mixed\",2\n"));
    const auto rows = iometerRows(csv);
    EXPECT_EQ(rows[5][1], "/var/tmp/a,b.dat");
}

TEST(IometerCsv, HasIometerFileStructure)
{
    const std::string csv = writeIometerCsv(goldenResult(), goldenEnvironment(), RecordFilter::All);
    EXPECT_TRUE(csv.starts_with("'Test Type,Test Description\n0,"));
    EXPECT_THAT(csv, HasSubstr("'Version\nIOPrism 0.1.0\n'Time Stamp\n2024-05-01 12:30:15:250\n"));
    EXPECT_THAT(csv,
        HasSubstr("'Access specifications\n'Access specification name,default assignment\n"
                  "4K read,0\n'size,% of size,% reads,% random,delay,burst,align,reply\n"
                  "4096,100,100,100,0,1,4096,0,\n'End access specifications\n'Results\n"));
    // Step 1 ended 17 s after the start.
    EXPECT_THAT(csv, HasSubstr("'Time Stamp\n2024-05-01 12:30:32:250\n"));
}

TEST(IometerCsv, EndsWithEndTestOrAbortedTest)
{
    RunResult r = goldenResult();
    r.stoppedByUser = false;
    EXPECT_TRUE(
        writeIometerCsv(r, goldenEnvironment(), RecordFilter::All).ends_with("\n'End Test\n"));
    r.error = makeOpError(5, "read", "/dev/loop0");
    EXPECT_TRUE(
        writeIometerCsv(r, goldenEnvironment(), RecordFilter::All).ends_with("\nAborted test\n"));
    r.error.reset();
    r.stoppedByUser = true; // stopped before its 60 s
    EXPECT_TRUE(
        writeIometerCsv(r, goldenEnvironment(), RecordFilter::All).ends_with("\nAborted test\n"));
    r.plan.profile.setup.runTime = 0s; // runs until stopped: a stop is its normal end
    EXPECT_TRUE(
        writeIometerCsv(r, goldenEnvironment(), RecordFilter::All).ends_with("\n'End Test\n"));
}

TEST(IometerCsv, ResultWithoutPlanStillWritesRowsWithEmptySettings)
{
    RunResult r = goldenResult();
    // A run refused before its targets were prepared: no workers resolved.
    r.plan.profile.hosts.clear();
    r.plan.workers.clear();
    const std::string csv = writeIometerCsv(r, goldenEnvironment(), RecordFilter::All);
    const auto header = iometerHeader(csv);
    const auto rows = iometerRows(csv);
    ASSERT_EQ(rows.size(), 12u);
    EXPECT_EQ(rows[4][columnOrEnd(header, "Queue Depth")], "");
    EXPECT_EQ(rows[1][1], "golden-host"); // the manager is this machine
}

// ------------------------------------------------------------------ csvField

struct QuoteCase {
    std::string in;
    std::string out;
};

class CsvFieldQuoting : public testing::TestWithParam<QuoteCase>
{
};

TEST_P(CsvFieldQuoting, QuotesOnlyWhatRfc4180Requires)
{
    EXPECT_EQ(csvField(GetParam().in), GetParam().out);
}

INSTANTIATE_TEST_SUITE_P(Fields, CsvFieldQuoting,
    testing::Values(QuoteCase {"plain", "plain"}, QuoteCase {"", ""}, QuoteCase {"a b", "a b"},
        QuoteCase {"a,b", "\"a,b\""}, QuoteCase {"say \"hi\"", "\"say \"\"hi\"\"\""},
        QuoteCase {"two\nlines", "\"two\nlines\""}, QuoteCase {"cr\r", "\"cr\r\""}));

// ------------------------------------------------------------------ time series

TEST(TimeSeriesCsv, WholeFileIsTheHeaderThenTheStreamedRows)
{
    const RunResult r = goldenResult();
    std::string streamed = timeSeriesHeader();
    for (const auto &s : r.intervals)
        streamed += timeSeriesRows(s);
    EXPECT_EQ(writeTimeSeriesCsv(r), streamed);
}

TEST(TimeSeriesCsv, OneRowPerIntervalPerScopeWithTheHeadersFieldCount)
{
    const RunResult r = goldenResult();
    const auto all = lines(writeTimeSeriesCsv(r));
    const auto header = splitCsv(all.front());
    std::size_t expected = 0;
    for (const auto &s : r.intervals)
        expected += s.scopes.size();
    ASSERT_EQ(all.size(), 1 + expected);
    for (std::size_t i = 1; i < all.size(); ++i)
        EXPECT_EQ(splitCsv(all[i]).size(), header.size()) << all[i];
    EXPECT_EQ(header.front(), "run_id");
    // The device columns, then the files columns, come last.
    EXPECT_EQ(header[header.size() - 6], "write_backlog_bytes");
    EXPECT_EQ(header.back(), "operation_max_us");
}

TEST(TimeSeriesCsv, IdleScopeHasEmptyLatencyAndMissingCpuIsEmpty)
{
    const RunResult r = goldenResult();
    const auto all = lines(writeTimeSeriesCsv(r));
    const auto header = splitCsv(all.front());
    const std::size_t p99 = columnOrEnd(header, "lat_p99_us");
    const std::size_t iops = columnOrEnd(header, "iops");
    const std::size_t busy = columnOrEnd(header, "cpu_busy_pct");
    const std::size_t path = columnOrEnd(header, "path");
    // Interval 0 (ramp-up), scope 3 is the idle test file.
    const auto idle = splitCsv(all[4]);
    EXPECT_EQ(idle[path], "/var/tmp/a,b.dat");
    EXPECT_EQ(idle[columnOrEnd(header, "phase")], "ramp_up");
    EXPECT_EQ(idle[iops], "0.000");
    EXPECT_EQ(idle[p99], "");
    EXPECT_EQ(idle[busy], "18.00");
    // The last interval (step 1) has no CPU figures.
    const auto last = splitCsv(all.back());
    EXPECT_EQ(last[busy], "");
    EXPECT_EQ(last[columnOrEnd(header, "cpu_effectiveness")], "");
    EXPECT_NE(last[p99], "");
}

} // namespace

// Issue 23, OWASP "CSV Injection": names from a profile or a results file that begin with
// = + - @ (or a tab or CR) reached CSV cells as formulas (=HYPERLINK in the Iometer
// layout, 22 cells of `compare --csv`). Every writer neutralises them; numbers stay.
TEST(CsvInjection, CsvFieldNeutralisesFormulasButNotNumbers)
{
    EXPECT_EQ(
        csvField("=HYPERLINK(\"http://x\",\"y\")"), "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
    EXPECT_EQ(csvField("@SUM(1)"), "\"'@SUM(1)\"");
    EXPECT_EQ(csvField("+cmd"), "\"'+cmd\"");
    EXPECT_EQ(csvField("-2+3"), "\"'-2+3\"");
    EXPECT_EQ(csvField("\tx"), "\"'\tx\"");
    EXPECT_EQ(csvField("\rx"), "\"'\rx\"");
    for (const char *number : {"-1", "-0.5", "+3", "-1.5e-07", "42", "0.250000"})
        EXPECT_EQ(csvField(number), number);
    EXPECT_EQ(csvField("4K read"), "4K read");
    EXPECT_EQ(csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(csvField(""), "");
}

TEST(CsvInjection, EveryCsvOutputNeutralisesHostileNames)
{
    // The golden run, its names made hostile through its results JSON, as a file would be.
    std::string text = writeResultsJson(goldenResult(), goldenEnvironment());
    const auto replaceAll = [&](const std::string &from, const std::string &to) {
        for (std::size_t at = text.find(from); at != std::string::npos;
             at = text.find(from, at + to.size()))
            text.replace(at, from.size(), to);
    };
    replaceAll("\"4K read\"", "\"=HYPERLINK(\\\"http://x\\\",\\\"y\\\")\"");
    replaceAll("\"Worker 1\"", "\"@SUM(1)\"");
    replaceAll("\"lab-host\"", "\"-host\"");
    replaceAll("/var/tmp/a,b.dat", "+tmp/a,b.dat");
    replaceAll("/dev/loop0", "-dev/loop0");
    replaceAll("nightly, \\\"quoted\\\" check", "=1+1");
    auto read = readResultsJson(text);
    ASSERT_TRUE(read.ok()) << read.error;
    const RunResult &r = *read.result;
    const std::vector<const RunResult *> runs {&r, &r};
    const Comparison comparison = compareRuns(runs, 0);
    const std::map<std::string, std::string> outputs {
        {"iometer", writeIometerCsv(r, r.environment, RecordFilter::All)},
        {"timeseries", writeTimeSeriesCsv(r)},
        {"compare", writeComparisonCsv(comparison, runs, {"=a", "@b"})},
        {"step summary", formatStepSummary(stepSummary(r), TableFormat::Csv)},
    };
    for (const auto &[name, csv] : outputs) {
        std::size_t hostile = 0;
        for (const auto &line : lines(csv))
            for (const auto &cell : splitCsv(line)) {
                if (cell.starts_with("'=") || cell.starts_with("'@") || cell.starts_with("'+")
                    || cell.starts_with("'-"))
                    ++hostile;
                EXPECT_FALSE(csvFieldIsFormula(cell)) << name << ": " << cell;
            }
        EXPECT_GT(hostile, 0u) << name << " has no hostile name to test:\n" << csv;
    }
    // A negative number is still a number: the timeseries' or Iometer's figures unchanged.
    EXPECT_EQ(csvField("-1"), "-1");
}
