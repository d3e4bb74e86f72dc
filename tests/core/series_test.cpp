// SPDX-License-Identifier: GPL-3.0-or-later
// Series (IOPrism's sweeps): axis values, the CLI's form, validation with field paths,
// the profile JSON, the steps a series plans, and the points a run's steps make.
#include "core/null_engine.h"
#include "core/profile/profile_json.h"
#include "core/profile/series.h"
#include "core/profile/validation.h"
#include "core/report/csv.h"
#include "core/report/results_json.h"
#include "core/run/plan.h"
#include "core/run/run.h"
#include "core/run/series_result.h"
#include "support/session_doubles.h"
#include "support/test_backend.h"

#include <gtest/gtest.h>

namespace ioprism::core {
namespace {

using std::chrono_literals::operator""h;
using std::chrono_literals::operator""ms;
using std::chrono_literals::operator""s;

SweepAxis generated(SweepParameter p, std::uint64_t from, std::uint64_t to, std::uint32_t multiply,
    std::uint64_t add = 0)
{
    SweepAxis a;
    a.parameter = p;
    a.from = from;
    a.to = to;
    a.multiply = multiply;
    a.add = add;
    return a;
}

TEST(SweepValues, MultiplyAddAndListAreInclusiveOfTheEnd)
{
    using P = SweepParameter;
    EXPECT_EQ(sweepValues(generated(P::TransferSize, 512, 16 * kMiB, 2)).size(), 16u)
        << "512 B ... 16 MiB by doubling: the iops tool's 16 sizes";
    EXPECT_EQ(sweepValues(generated(P::OutstandingIos, 1, 256, 2)),
        (std::vector<std::uint64_t> {1, 2, 4, 8, 16, 32, 64, 128, 256}));
    EXPECT_EQ(sweepValues(generated(P::PercentRead, 0, 100, 0, 25)),
        (std::vector<std::uint64_t> {0, 25, 50, 75, 100}));
    EXPECT_EQ(sweepValues(generated(P::OutstandingIos, 3, 100, 2)),
        (std::vector<std::uint64_t> {3, 6, 12, 24, 48, 96}));
    SweepAxis listed;
    listed.values = {4096, 65536};
    EXPECT_EQ(sweepValues(listed), listed.values);
    EXPECT_TRUE(sweepValues(generated(P::TransferSize, 0, 4096, 2)).empty())
        << "0 cannot be multiplied";
    EXPECT_EQ(sweepValues(generated(P::TransferSize, 1, UINT64_MAX, 2)).size(), 64u)
        << "stops before it overflows";
}

struct ParseCase {
    const char *text;
    const char *formatted; // "" = a parse error
};

class ParseSweep : public testing::TestWithParam<ParseCase>
{
};

TEST_P(ParseSweep, ReadsTheCliFormAndWritesItBack)
{
    std::string error;
    const auto axis = parseSweep(GetParam().text, error);
    if (std::string(GetParam().formatted).empty()) {
        EXPECT_FALSE(axis) << formatSweep(*axis);
        EXPECT_FALSE(error.empty());
        return;
    }
    ASSERT_TRUE(axis) << error;
    EXPECT_EQ(formatSweep(*axis), GetParam().formatted);
}

INSTANTIATE_TEST_SUITE_P(Cli, ParseSweep,
    testing::Values(ParseCase {"bs=512..16M:x2", "bs=512..16MiB:x2"},
        ParseCase {"bs=512..16M", "bs=512..16MiB:x2"}, // x2 unless told
        ParseCase {"qd=1..256:x2", "qd=1..256:x2"}, ParseCase {"iodepth=1..32:+1", "qd=1..32:+1"},
        ParseCase {"read=0..100:+25", "read=0..100:+25"},
        ParseCase {"numjobs=1,2,4", "workers=1,2,4"},
        ParseCase {"bs=4k,64k,1m", "bs=4KiB,64KiB,1MiB"},
        ParseCase {"random=0,100", "random=0,100"}, ParseCase {"bs", ""},
        ParseCase {"colour=1..2", ""}, ParseCase {"bs=4k..1m:x1", ""},
        ParseCase {"bs=4k..1m:/2", ""}, ParseCase {"qd=1..x:x2", ""}, ParseCase {"qd=1,,2", ""},
        ParseCase {"qd=1..8:+0", ""}));

Profile seriesProfile(std::vector<SweepAxis> axes, int targets = 1)
{
    Profile p;
    p.setup.runTime = 1s;
    AccessSpec spec;
    spec.name = "rand read";
    SpecLine line;
    line.transferSizeBytes = 4096;
    line.alignmentBytes = 4096;
    line.percentRead = 100;
    line.percentRandom = 100;
    spec.lines.push_back(line);
    p.specs.push_back(spec);
    Host h;
    Worker w;
    w.name = "Worker 1";
    w.outstandingIos = 4;
    w.assignedSpecs = {"rand read"};
    for (int t = 0; t < targets; ++t) {
        Target target;
        target.path = "t" + std::to_string(t);
        target.testFileSizeBytes = 64 * kMiB;
        w.targets.push_back(target);
    }
    h.workers.push_back(w);
    p.hosts.push_back(h);
    p.setup.series = Series {};
    p.setup.series->axes = std::move(axes);
    return p;
}

TEST(SeriesPlan, ATransferSizeCurveRunsOneStepPerSizeWithTheSpecAtThatSize)
{
    const auto p = seriesProfile({generated(SweepParameter::TransferSize, 512, 4096, 2)});
    Problems problems;
    const auto plan = makeRunPlan(p, 1, problems);
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->stepCount(), 4u);
    const std::uint64_t sizes[] = {512, 1024, 2048, 4096};
    for (std::size_t s = 0; s < 4; ++s) {
        const auto &spec = plan->specs[std::size_t(plan->workers[0].specPerStep[s])];
        EXPECT_EQ(spec.lines[0].transferSizeBytes, sizes[s]);
        EXPECT_EQ(spec.lines[0].alignmentBytes, sizes[s]) << "aligned on its size, as it was";
        EXPECT_EQ(spec.name, "rand read");
        ASSERT_TRUE(plan->steps[s].point);
        EXPECT_EQ(plan->steps[s].point->values, (std::vector<std::uint64_t> {sizes[s]}));
        EXPECT_EQ(plan->workers[0].depthPerStep[s], (std::vector<std::uint32_t> {4}));
    }
    EXPECT_EQ(plan->steps[0].name, "rand read, 512 B");
    EXPECT_EQ(plan->steps[3].name, "rand read, 4 KiB");
    EXPECT_EQ(plan->specs.size(), 4u) << "the profile's spec (4 KiB) is reused for 4 KiB";
}

TEST(SeriesPlan, AMatrixRunsTheFirstAxisOuterAndEveryTrialInTurn)
{
    auto p = seriesProfile({generated(SweepParameter::TransferSize, 4096, 8192, 2),
        generated(SweepParameter::OutstandingIos, 1, 4, 0, 3)});
    p.setup.series->repeat = 2;
    Problems problems;
    const auto plan = makeRunPlan(p, 1, problems);
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->stepCount(), 8u) << "2 sizes x 2 depths x 2 trials";
    std::vector<std::string> names;
    for (const auto &s : plan->steps)
        names.push_back(s.cycle);
    EXPECT_EQ(names,
        (std::vector<std::string> {"4 KiB, QD 1, trial 1/2", "4 KiB, QD 4, trial 1/2",
            "8 KiB, QD 1, trial 1/2", "8 KiB, QD 4, trial 1/2", "4 KiB, QD 1, trial 2/2",
            "4 KiB, QD 4, trial 2/2", "8 KiB, QD 1, trial 2/2", "8 KiB, QD 4, trial 2/2"}));
    EXPECT_EQ(plan->workers[0].depthPerStep[1], (std::vector<std::uint32_t> {4}));
    EXPECT_EQ(plan->steps[5].point->index, 1u);
    EXPECT_EQ(plan->steps[5].point->trial, 1u);
}

TEST(SeriesPlan, TargetsInTurnRunEachPointOnEachTargetAlone)
{
    auto p = seriesProfile({generated(SweepParameter::OutstandingIos, 1, 2, 2)}, 2);
    p.setup.series->targetsInTurn = true;
    Problems problems;
    const auto plan = makeRunPlan(p, 1, problems);
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->stepCount(), 4u);
    EXPECT_EQ(plan->workers[0].depthPerStep[0], (std::vector<std::uint32_t> {1, 0}));
    EXPECT_EQ(plan->workers[0].depthPerStep[1], (std::vector<std::uint32_t> {0, 1}));
    EXPECT_EQ(plan->workers[0].depthPerStep[2], (std::vector<std::uint32_t> {2, 0}));
    EXPECT_EQ(plan->steps[1].point->target, "t1");
    EXPECT_EQ(plan->steps[1].cycle, "QD 1 on t1");
}

TEST(SeriesPlan, AWorkersSeriesRunsThatManyCopiesOfEachWorker)
{
    const auto p = seriesProfile({generated(SweepParameter::Workers, 1, 4, 2)});
    Problems problems;
    const auto plan = makeRunPlan(p, 1, problems);
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->workers.size(), 4u);
    ASSERT_EQ(plan->stepCount(), 3u);
    for (std::size_t s = 0; s < 3; ++s) {
        std::size_t active = 0;
        for (const auto &w : plan->workers)
            active += w.specPerStep[s] >= 0;
        EXPECT_EQ(active, std::size_t(1) << s);
    }
}

TEST(SeriesValidation, ProblemsNameTheSeriesFieldPath)
{
    auto p = seriesProfile({generated(SweepParameter::OutstandingIos, 0, 8, 2)});
    p.setup.series->axes.push_back(generated(SweepParameter::OutstandingIos, 1, 2, 0, 1));
    p.setup.series->repeat = 0;
    p.setup.testType = TestType::CycleWorkers;
    std::vector<std::string> texts;
    for (const auto &problem : validateProfile(p))
        texts.push_back(problem.toString());
    const auto has = [&](const std::string &prefix) {
        return std::any_of(texts.begin(), texts.end(),
            [&](const std::string &t) { return t.starts_with(prefix); });
    };
    EXPECT_TRUE(has("setup.series.axes: a series and Iometer's cycling")) << texts.size();
    EXPECT_TRUE(has("setup.series.axes[0].from: must not be 0 when the step multiplies"));
    EXPECT_TRUE(has("setup.series.axes[1].parameter: the same parameter as axes[0]"));
    EXPECT_TRUE(has("setup.series.repeat: 0 is below 1"));
}

TEST(SeriesValidation, AStaggerThatKeepsWorkersFromStartingIsAWarningThatCountsThem)
{
    // 1 profile worker x up to 4 copies, started 400 ms apart, in points of 1 s: the
    // copies start at 0, 0.4, 0.8 and 1.2 s, so one of the four does no I/O.
    SweepAxis copies;
    copies.parameter = SweepParameter::Workers;
    copies.values = {1, 2, 4};
    auto p = seriesProfile({copies});
    p.setup.runTime = 1s;
    p.setup.series->workerStagger = 400ms;
    const auto problems = validateProfile(p);
    const auto it = std::find_if(problems.begin(), problems.end(),
        [](const Problem &q) { return q.path == "setup.series.workerStagger"; });
    ASSERT_NE(it, problems.end());
    EXPECT_EQ(it->severity, Severity::Warning);
    EXPECT_NE(it->message.find("4 workers started 400ms apart"), std::string::npos) << it->message;
    EXPECT_NE(it->message.find("1 of them do no I/O"), std::string::npos) << it->message;

    // Within the point, or a point of a number of I/Os (which waits for every worker):
    // nothing to say.
    p.setup.series->workerStagger = 300ms;
    for (const auto &q : validateProfile(p))
        EXPECT_NE(q.path, "setup.series.workerStagger") << q.toString();
    p.setup.series->workerStagger = 2s;
    p.setup.series->ios = 100;
    for (const auto &q : validateProfile(p))
        EXPECT_NE(q.path, "setup.series.workerStagger") << q.toString();
}

TEST(SeriesValidation, ASizeLargerThanATestFileIsRefusedAtItsValue)
{
    auto p = seriesProfile({});
    SweepAxis listed;
    listed.values = {4096, 128 * kMiB};
    p.setup.series->axes.push_back(listed);
    std::vector<std::string> texts;
    for (const auto &problem : validateProfile(p))
        texts.push_back(problem.toString());
    ASSERT_EQ(texts.size(), 1u);
    EXPECT_TRUE(texts[0].starts_with("setup.series.axes[0].values[1]: 128 MiB is larger than"))
        << texts[0];
}

TEST(SeriesJson, RoundTripsAndReadsSizesWithUnits)
{
    auto p = seriesProfile({generated(SweepParameter::TransferSize, 512, 16 * kMiB, 2)});
    p.setup.series->axes.push_back(SweepAxis {SweepParameter::PercentRead, {0, 70, 100}});
    p.setup.series->repeat = 3;
    p.setup.series->ios = 1000;
    p.setup.series->targetsInTurn = true;
    p.setup.series->workerStagger = 5s;
    const std::string text = writeProfileJson(p);
    EXPECT_NE(text.find("\"to\": \"16MiB\""), std::string::npos) << text;
    Problems problems;
    const auto back = parseProfileJson(text, problems);
    ASSERT_TRUE(back) << (problems.empty() ? "" : problems[0].toString());
    EXPECT_EQ(back->setup.series, p.setup.series);
    const auto without = parseProfileJson(writeProfileJson(seriesProfile({})), problems);
    ASSERT_TRUE(without);
}

TEST(SeriesJson, AWrongFieldNamesItsPath)
{
    auto p = seriesProfile({generated(SweepParameter::TransferSize, 512, 4096, 2)});
    std::string text = writeProfileJson(p);
    const auto at = text.find("\"from\": 512");
    ASSERT_NE(at, std::string::npos) << text;
    text.replace(at, 11, "\"from\": \"lots\"");
    Problems problems;
    EXPECT_FALSE(parseProfileJson(text, problems));
    ASSERT_FALSE(problems.empty());
    EXPECT_EQ(problems[0].path, "setup.series.axes[0].from");
}

using ioprism::test::NullSink;

TEST(SeriesRun, EveryPointIsAStepWithItsOwnIosAndThePointsSummariseTheTrials)
{
    auto p = seriesProfile({generated(SweepParameter::TransferSize, 512, 2048, 2)}, 2);
    p.setup.runTime = 0s;
    p.setup.interval = 100ms;
    p.setup.series->ios = 200;
    p.setup.series->repeat = 3;
    NullBackend backend;
    NullCounterSource counters;
    NullSink sink;
    const RunResult r = ioprism::core::Run(p, backend, counters, sink).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(r.steps.size(), 9u);
    for (const auto &step : r.steps) {
        EXPECT_EQ(step.scopes[0].figures.read.ios, 400u) << step.stepName << ": 200 per target";
        EXPECT_TRUE(step.complete);
    }
    const auto points = seriesPoints(r);
    ASSERT_EQ(points.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(points[i].values, (std::vector<std::uint64_t> {512u << i}));
        EXPECT_EQ(points[i].trials, (std::vector<std::size_t> {i, i + 3, i + 6}));
        EXPECT_GT(points[i].iops.median, 0);
        EXPECT_LE(points[i].iops.min, points[i].iops.median);
        EXPECT_GE(points[i].iops.max, points[i].iops.median);
        // MB/s = IOPS x size on every trial, so on the median too.
        EXPECT_NEAR(points[i].megabytesPerSecond.median,
            points[i].iops.median * double(512u << i) / 1e6,
            points[i].megabytesPerSecond.median * 1e-9);
    }
}

TEST(SeriesRun, EachWorkersLargestBuffersAreReservedBeforeTheFirstPointAndReleasedAtTheEnd)
{
    // 4 KiB ... 64 KiB reads at QD 4 on two targets: the 64 KiB point needs 8 slots of one
    // buffer each (reads only), and that is what the backend may allocate before the first
    // point, so that no point starts by faulting in its buffers.
    auto p = seriesProfile({generated(SweepParameter::TransferSize, 4096, 65536, 2)}, 2);
    p.setup.runTime = 0s;
    p.setup.series->ios = 50;
    test::TestBackend backend;
    NullCounterSource counters;
    NullSink sink;
    const RunResult r = ioprism::core::Run(p, backend, counters, sink).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(r.steps.size(), 5u);
    ASSERT_EQ(backend.reservations.size(), 1u);
    ASSERT_EQ(backend.reservations[0].size(), 1u) << "one worker";
    const EngineConfig &c = backend.reservations[0][0];
    EXPECT_EQ(c.bufferBytes, 65536u);
    EXPECT_EQ(c.queueDepth, 8u);
    EXPECT_EQ(c.bufferCount, 8u);
    EXPECT_EQ(backend.releases, 1);

    // A run that fails in a step gives the reservation back as well.
    test::TestBackend failing;
    failing.failAt = 10;
    const RunResult f = ioprism::core::Run(p, failing, counters, sink).execute();
    ASSERT_TRUE(f.error);
    EXPECT_EQ(failing.reservations.size(), 1u);
    EXPECT_EQ(failing.releases, 1);
}

TEST(TrialStat, MedianOfOddAndEvenCounts)
{
    const auto odd = trialStat({5, 1, 3});
    EXPECT_EQ(odd.median, 3);
    EXPECT_EQ(odd.min, 1);
    EXPECT_EQ(odd.max, 5);
    EXPECT_EQ(trialStat({4, 1, 3, 2}).median, 2.5);
    EXPECT_EQ(trialStat({}).median, 0);
}

} // namespace
} // namespace ioprism::core

namespace ioprism::core {
namespace {

// The series of `p`, each point until 100 I/Os are done, on the null engine.
RunResult runEachPointFor100Ios(Profile p)
{
    p.setup.runTime = std::chrono::seconds(0);
    p.setup.interval = std::chrono::milliseconds(100);
    p.setup.series->ios = 100;
    NullBackend backend;
    NullCounterSource counters;
    NullSink sink;
    return ioprism::core::Run(p, backend, counters, sink).execute();
}

std::vector<std::string> csvLines(const std::string &csv)
{
    std::vector<std::string> lines;
    for (std::size_t b = 0, e; (e = csv.find('\n', b)) != std::string::npos; b = e + 1)
        lines.push_back(csv.substr(b, e - b));
    return lines;
}

// Issue 23, OWASP "CSV Injection": the series CSV names the spec of every point; a spec
// named like a formula is written as text (a leading quote), as in every other CSV.
TEST(CsvInjection, TheSeriesCsvNeutralisesAHostileSpecName)
{
    const std::string hostile = "=HYPERLINK(\"http://x\",\"y\")";
    auto p = seriesProfile({generated(SweepParameter::TransferSize, 4096, 8192, 2)});
    p.specs[0].name = hostile;
    p.hosts[0].workers[0].assignedSpecs = {hostile};
    const RunResult r = runEachPointFor100Ios(std::move(p));
    ASSERT_FALSE(r.error) << r.error->toString();
    const std::string csv = writeSeriesCsv(r);
    const std::string quoted = "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"";
    const auto lines = csvLines(csv);
    ASSERT_EQ(lines.size(), 3u) << csv; // the header and two points
    for (std::size_t i = 1; i < lines.size(); ++i) {
        EXPECT_TRUE(lines[i].starts_with("1,0," + quoted + ",")) << lines[i];
        EXPECT_EQ(lines[i].find(",=HYPERLINK"), std::string::npos) << lines[i];
    }
}

TEST(SeriesOutputs, TheTidyCsvHasOneRowPerPointAndTheJsonItsPoints)
{
    auto p = seriesProfile({generated(SweepParameter::TransferSize, 4096, 16384, 2),
        generated(SweepParameter::OutstandingIos, 1, 2, 2)});
    const RunResult r = runEachPointFor100Ios(std::move(p));
    ASSERT_FALSE(r.error) << r.error->toString();
    const std::string csv = writeSeriesCsv(r);
    const auto lines = csvLines(csv);
    ASSERT_EQ(lines.size(), 7u) << csv;
    EXPECT_TRUE(lines[0].starts_with(
        "run_id,spec_index,spec,point,target,transfer_size_bytes,outstanding_ios,trials,"
        "complete,iops,"))
        << lines[0];
    EXPECT_TRUE(lines[1].starts_with("1,0,rand read,0,,4096,1,1,1,")) << lines[1];
    EXPECT_TRUE(lines[6].starts_with("1,0,rand read,5,,16384,2,1,1,")) << lines[6];

    const auto j = nlohmann::json::parse(writeResultsJson(r, r.environment));
    const auto &points = j.at("series").at("points");
    ASSERT_EQ(points.size(), 6u);
    EXPECT_EQ(points[3].at("values").at("transferSize"), 8192);
    EXPECT_EQ(points[3].at("values").at("outstandingIos"), 2);
    EXPECT_EQ(points[3].at("trials"), nlohmann::json::array({3}));
    EXPECT_EQ(j.at("steps")[3].at("point").at("index"), 3);
    EXPECT_EQ(j.at("steps")[3].at("cycle"), "8 KiB, QD 2");
    for (const auto &pt : points) {
        const double iops = pt.at("iops").at("median").get<double>();
        const double size = pt.at("values").at("transferSize").get<double>();
        EXPECT_NEAR(pt.at("mbps").at("median").get<double>(), iops * size / 1e6, 1e-3)
            << "IOPS x size = MB/s";
    }
}

} // namespace
} // namespace ioprism::core

namespace ioprism::core {
namespace {

struct NoticeSink : RunSink {
    std::vector<std::string> notices;
    std::size_t plannedSteps = 0;
    void onNotice(const std::string &text) override { notices.push_back(text); }
    void onPlan(const ResolvedPlan &plan) override { plannedSteps = plan.stepCount(); }
};

// A spectrum from 512 B on a target whose direct I/O needs 4 KiB: the points it cannot
// run are skipped with a notice naming them and why, and the rest of the curve runs.
TEST(SeriesRun, PointsATargetCannotRunAreSkippedAndSaid)
{
    auto p = seriesProfile({generated(SweepParameter::TransferSize, 512, 8192, 2)});
    p.setup.runTime = std::chrono::seconds(0);
    p.setup.interval = std::chrono::milliseconds(100);
    p.setup.series->ios = 50;
    ioprism::test::TestBackend backend;
    backend.alignment = 4096;
    NullCounterSource counters;
    NoticeSink sink;
    const RunResult r = ioprism::core::Run(p, backend, counters, sink).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(r.steps.size(), 2u);
    EXPECT_EQ(sink.plannedSteps, 2u);
    EXPECT_EQ(r.steps[0].stepName, "rand read, 4 KiB");
    ASSERT_EQ(r.notices.size(), 1u);
    EXPECT_TRUE(r.notices[0].starts_with("skipped 3 points the targets cannot run (rand read, "
                                         "512 B; rand read, 1 KiB; rand read, 2 KiB): "))
        << r.notices[0];
    EXPECT_NE(
        r.notices[0].find("not a multiple of the direct-I/O alignment 4 KiB"), std::string::npos);

    // Nothing left to run is a refusal, not an empty run.
    auto none = seriesProfile({generated(SweepParameter::TransferSize, 512, 2048, 2)});
    none.setup.series->ios = 50;
    const RunResult refused = ioprism::core::Run(none, backend, counters, sink).execute();
    ASSERT_TRUE(refused.error);
    EXPECT_NE(refused.error->toString().find("no point of the series can run"), std::string::npos);
}

} // namespace
} // namespace ioprism::core

namespace ioprism::core {
namespace {

// Staggered workers: worker 2 of a point starts 2 s after worker 1, so no interval that
// ends before then has I/O of it, and a later one has.
TEST(SeriesRun, AStaggeredWorkerDoesNoIoBeforeItsDelay)
{
    auto p = seriesProfile({SweepAxis {SweepParameter::OutstandingIos, {1}}});
    p.hosts[0].workers.push_back(p.hosts[0].workers[0]);
    p.hosts[0].workers[1].name = "Worker 2";
    p.setup.runTime = std::chrono::seconds(3);
    p.setup.interval = std::chrono::milliseconds(250);
    p.setup.series->workerStagger = std::chrono::seconds(2);
    NullBackend backend;
    NullCounterSource counters;
    NullSink sink;
    const RunResult r = ioprism::core::Run(p, backend, counters, sink).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    bool before = false, after = false;
    for (const auto &interval : r.intervals)
        for (const auto &sc : interval.scopes)
            if (sc.scope.kind == Scope::Kind::Worker && sc.scope.worker == 1) {
                if (interval.endSeconds < 1.9) {
                    EXPECT_EQ(sc.figures.total.ios, 0u) << "at " << interval.endSeconds << " s";
                    before = true;
                } else if (interval.startSeconds > 2.1 && sc.figures.total.ios > 0) {
                    after = true;
                }
            }
    EXPECT_TRUE(before);
    EXPECT_TRUE(after) << "worker 2 did I/O once its delay passed";
}

} // namespace
} // namespace ioprism::core

namespace ioprism::core {
namespace {

TEST(SeriesValidation, EveryGeneratedValueAndTheLimitsAreChecked)
{
    const auto texts = [](const Profile &p) {
        std::vector<std::string> out;
        for (const auto &problem : validateProfile(p, {.sectorSizeBytes = 512}))
            out.push_back(problem.toString());
        return out;
    };
    // 512 B + 768 B reaches 1280 B: off the 512-byte sector although both ends are on it.
    auto p = seriesProfile({generated(SweepParameter::TransferSize, 512, 2048, 0, 768)});
    auto t = texts(p);
    ASSERT_EQ(t.size(), 1u);
    EXPECT_TRUE(t[0].starts_with("setup.series.axes[0]: 1280 B is not a multiple")) << t[0];
    // Exactly 1024 values is within the limit; 1025 is not.
    p = seriesProfile({generated(SweepParameter::OutstandingIos, 1, 1024, 0, 1)});
    p.setup.series->axes[0].to = 1024;
    EXPECT_TRUE(texts(p).empty());
    p.setup.series->axes[0].to = 1025;
    p.setup.series->axes[0].parameter = SweepParameter::Workers;
    p.setup.series->axes[0].to = 1025;
    EXPECT_FALSE(texts(p).empty());
    // Values and a range together are one or the other.
    p = seriesProfile({SweepAxis {SweepParameter::OutstandingIos, {1, 2}, 1, 8, 2, 0}});
    t = texts(p);
    ASSERT_FALSE(t.empty());
    EXPECT_EQ(t[0], "setup.series.axes[0]: give the values, or from, to and a step, not both");
    // Targets in turn multiply the steps: 2 x 5000 points x 2 targets is over 10 000.
    p = seriesProfile({generated(SweepParameter::OutstandingIos, 1, 1000, 0, 1)}, 2);
    p.setup.series->repeat = 6;
    p.setup.series->targetsInTurn = true;
    t = texts(p);
    ASSERT_FALSE(t.empty());
    EXPECT_TRUE(t[0].starts_with("setup.series: 1000 points x 6 trials x 2 targets in turn"))
        << t[0];
    // A stagger is at most an hour (n x it must not overflow).
    p = seriesProfile({SweepAxis {SweepParameter::OutstandingIos, {1}}});
    p.setup.series->workerStagger = std::chrono::hours(2);
    t = texts(p);
    ASSERT_EQ(t.size(), 1u);
    EXPECT_EQ(t[0], "setup.series.workerStagger: 2h is above 1h");
}

TEST(SweepValues, AMultiplyThatWouldOverflowEndsTheValues)
{
    const auto v = sweepValues(
        generated(SweepParameter::TransferSize, 10'000'000'000'000'000'000u, UINT64_MAX, 3));
    EXPECT_EQ(v, (std::vector<std::uint64_t> {10'000'000'000'000'000'000u}));
}

} // namespace
} // namespace ioprism::core
