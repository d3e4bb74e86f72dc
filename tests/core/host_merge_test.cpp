// SPDX-License-Identifier: GPL-3.0-or-later
// Hosts in the result: two real runs of one request, as two hosts (agents, MPI ranks)
// finish them, merged into one result whose All is exact, with per-host rows that the
// results file, the session codec and Iometer's CSV (MANAGER rows) all keep.
#include "core/null_engine.h"
#include "core/report/csv.h"
#include "core/report/results_json.h"
#include "core/report/results_reader.h"
#include "core/run/host_merge.h"
#include "core/run/run_session.h"
#include "core/run/session_codec.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_profiles.h"

using namespace ioprism::core;
using namespace std::chrono_literals;

namespace {

struct FinishedResult final : RunSink {
    void onFinished(RunResult &&r) override
    {
        std::lock_guard lock(mutex);
        result = std::move(r);
    }
    std::mutex mutex;
    RunResult result;
};

// One host's run: the null engine, the host's own name, its own I/O count.
RunResult runOn(const std::string &hostName, std::uint64_t iosPerTarget, int specs = 2,
    std::uint64_t stonewallBytes = 0)
{
    LocalRunHooks hooks;
    hooks.makeBackend
        = [](EngineKind) -> std::unique_ptr<IoBackend> { return std::make_unique<NullBackend>(); };
    hooks.describe.describeSystem = [hostName] {
        Environment e;
        e.hostName = hostName;
        e.toolVersion = "0.1.0";
        return e;
    };
    hooks.removeTestFile = [](const std::string &) -> Status { return Ok {}; };
    RunRequest request;
    request.profile = ioprism::test::twoWorkerProfile("hosts", 20ms, 7, specs);
    request.engine = EngineKind::Null;
    request.settings.runId = 9;
    request.settings.ioLimitPerTarget = iosPerTarget;
    request.settings.deviceTailLimit = 0ms;
    request.settings.stonewallBytes = stonewallBytes;
    if (stonewallBytes > 0) // a step of an amount: a run time that bounds it, far off
        request.profile.setup.runTime = std::chrono::seconds(60);
    FinishedResult sink;
    {
        LocalRunSession session(hooks, sink);
        session.start(request);
        session.wait();
    }
    return std::move(sink.result);
}

RunResult mergedOfTwo()
{
    RunResult a = runOn("host-a", 2000);
    RunResult b = runOn("host-b", 1000);
    EXPECT_FALSE(a.error) << a.error->toString();
    EXPECT_FALSE(b.error) << b.error->toString();
    auto merged = mergeHostRuns({{"", -1, "", std::move(a)}, {"", 1, "db2:7400", std::move(b)}});
    EXPECT_TRUE(merged.ok()) << (merged.ok() ? "" : merged.error().toString());
    return merged.ok() ? std::move(*merged) : RunResult {};
}

const ScopeResult &allOf(const StepResult &step)
{
    return step.scopes.front();
}

} // namespace

TEST(HostMerge, AllIsTheExactSumOfTheHostsAndItsPercentilesThoseOfEveryIo)
{
    const RunResult a = runOn("host-a", 2000);
    const RunResult b = runOn("host-b", 1000);
    auto merged = mergeHostRuns({{"", -1, "", a}, {"", 1, "db2:7400", b}});
    ASSERT_TRUE(merged.ok()) << merged.error().toString();
    const RunResult &m = *merged;

    ASSERT_EQ(m.hosts.size(), 2u);
    EXPECT_EQ(m.hosts[0].name, "host-a");
    EXPECT_EQ(m.hosts[1].name, "host-b");
    EXPECT_EQ(m.hosts[1].rank, 1);
    EXPECT_EQ(m.hosts[1].agent, "db2:7400");
    EXPECT_EQ(m.hosts[1].environment.hostName, "host-b");
    ASSERT_EQ(m.plan.workers.size(), 4u) << "every host's workers";
    EXPECT_EQ(m.plan.workers[2].name, "host-b / Worker 1");

    ASSERT_EQ(m.steps.size(), 2u);
    for (std::size_t s = 0; s < 2; ++s) {
        const StepResult &step = m.steps[s];
        // 2 workers x 2 targets on each host: 8000 I/Os on host-a, 4000 on host-b.
        EXPECT_EQ(allOf(step).figures.total.ios, 12000u) << "step " << s;
        EXPECT_EQ(allOf(step).figures.total.ios,
            allOf(a.steps[s]).figures.total.ios + allOf(b.steps[s]).figures.total.ios);
        EXPECT_EQ(allOf(step).figures.total.bytes,
            allOf(a.steps[s]).figures.total.bytes + allOf(b.steps[s]).figures.total.bytes);
        // The percentiles of every I/O of both hosts: the histograms merged, not the p99s.
        LatencyHistogram reads = allOf(a.steps[s]).measurement.read.histogram;
        reads.merge(allOf(b.steps[s]).measurement.read.histogram);
        const LatencyFigures expected = latencyFigures(reads,
            std::min(
                allOf(a.steps[s]).measurement.read.minNs, allOf(b.steps[s]).measurement.read.minNs),
            std::max(allOf(a.steps[s]).measurement.read.maxNs,
                allOf(b.steps[s]).measurement.read.maxNs));
        EXPECT_EQ(allOf(step).figures.read.latency.p99Us, expected.p99Us);
        EXPECT_EQ(allOf(step).figures.read.latency.p50Us, expected.p50Us);
        // Rates: the sum of the hosts' own, as Iometer's All managers; the time the
        // longest host's.
        EXPECT_EQ(allOf(step).figures.total.iops,
            allOf(a.steps[s]).figures.total.iops + allOf(b.steps[s]).figures.total.iops);
        EXPECT_EQ(allOf(step).figures.read.megabytesPerSecond,
            allOf(a.steps[s]).figures.read.megabytesPerSecond
                + allOf(b.steps[s]).figures.read.megabytesPerSecond);
        EXPECT_EQ(allOf(step).figures.seconds,
            std::max(allOf(a.steps[s]).figures.seconds, allOf(b.steps[s]).figures.seconds));

        // All, then each host with its workers and targets.
        ASSERT_EQ(step.scopes.size(), 1u + 2u * 7u);
        EXPECT_EQ(step.scopes[1].scope.kind, Scope::Kind::Host);
        EXPECT_EQ(step.scopes[1].scope.label, "host-a");
        EXPECT_EQ(step.scopes[1].figures, allOf(a.steps[s]).figures);
        EXPECT_EQ(step.scopes[2].scope.label, "host-a / Worker 1");
        EXPECT_EQ(step.scopes[2].scope.host, 0);
        EXPECT_EQ(step.scopes[8].scope.kind, Scope::Kind::Host);
        EXPECT_EQ(step.scopes[8].figures, allOf(b.steps[s]).figures);
        EXPECT_EQ(step.scopes[9].scope.worker, 2) << "host-b's first worker in the merged plan";
        EXPECT_EQ(step.scopes[9].scope.host, 1);
        ASSERT_EQ(step.hosts.size(), 2u);
        EXPECT_EQ(step.hosts[1].cpu, b.steps[s].cpu);
        EXPECT_FALSE(step.devices.available) << "devices are judged per host";
    }

    // Intervals: the k-th of a step on each host side by side, percentiles exact. Which
    // interval holds reads depends on how the threads were scheduled, so every pair of
    // the first step is checked, and the pairs together must have read.
    const auto firstStep = [](const RunResult &r) {
        std::vector<const IntervalSample *> v;
        for (const IntervalSample &i : r.intervals)
            if (i.step == 0)
                v.push_back(&i);
        return v;
    };
    const auto ia = firstStep(a), ib = firstStep(b), im = firstStep(m);
    ASSERT_FALSE(ia.empty());
    ASSERT_FALSE(ib.empty());
    ASSERT_EQ(im.size(), std::max(ia.size(), ib.size())) << "every interval measured is kept";
    for (std::size_t k = 0; k < std::min(ia.size(), ib.size()); ++k) {
        const IntervalSample &merged = *im[k];
        EXPECT_EQ(merged.scopes.front().figures.total.ios,
            ia[k]->scopes.front().figures.total.ios + ib[k]->scopes.front().figures.total.ios)
            << "interval " << k;
        EXPECT_EQ(
            merged.readLatency.count(), ia[k]->readLatency.count() + ib[k]->readLatency.count())
            << "interval " << k;
        SparseLatencyHistogram both = ia[k]->readLatency;
        both.merge(ib[k]->readLatency);
        if (!both.empty()) {
            EXPECT_EQ(merged.scopes.front().figures.read.latency.p99Us,
                latencyFigures(both.dense(), both.minNs, both.maxNs).p99Us)
                << "interval " << k;
        }
    }
    const auto readsIn = [](const std::vector<const IntervalSample *> &v) {
        std::uint64_t n = 0;
        for (const IntervalSample *i : v)
            n += i->readLatency.count();
        return n;
    };
    EXPECT_GT(readsIn(im), 0u) << "the first step reads";
    EXPECT_EQ(readsIn(im), readsIn(ia) + readsIn(ib))
        << "no interval's reads lost or counted twice";
}

TEST(HostMerge, OneHostIsItsOwnResult)
{
    const RunResult a = runOn("host-a", 500);
    auto merged = mergeHostRuns({{"", -1, "", a}});
    ASSERT_TRUE(merged.ok());
    EXPECT_EQ(*merged, a);
    EXPECT_TRUE(merged->hosts.empty()) << "a run of one host lists no hosts";
}

TEST(HostMerge, HostsThatRanAnotherPlanAreRefusedNamingTheHost)
{
    auto merged = mergeHostRuns(
        {{"", -1, "", runOn("host-a", 500)}, {"", -1, "", runOn("host-b", 500, 1)}});
    ASSERT_FALSE(merged.ok());
    EXPECT_EQ(merged.error().path, "host-b");
    EXPECT_NE(
        merged.error().toString().find("it planned 1 steps, host-a planned 2"), std::string::npos)
        << merged.error().toString();
    EXPECT_FALSE(mergeHostRuns({}).ok());
}

TEST(HostMerge, TheResultsFileKeepsEveryHostAndReadsBackTheSame)
{
    const RunResult m = mergedOfTwo();
    ASSERT_EQ(m.hosts.size(), 2u);
    const std::string text = writeResultsJson(m, m.environment);
    const ResultsRead read = readResultsJson(text);
    ASSERT_TRUE(read.result) << read.error;
    const RunResult &r = *read.result;
    EXPECT_EQ(r.hosts, m.hosts);
    ASSERT_EQ(r.steps.size(), m.steps.size());
    for (std::size_t s = 0; s < m.steps.size(); ++s) {
        EXPECT_EQ(r.steps[s].hosts, m.steps[s].hosts);
        ASSERT_EQ(r.steps[s].scopes.size(), m.steps[s].scopes.size());
        for (std::size_t i = 0; i < m.steps[s].scopes.size(); ++i)
            EXPECT_EQ(r.steps[s].scopes[i].scope, m.steps[s].scopes[i].scope) << s << "/" << i;
        // Each host keeps its full histogram: its percentiles stay exact after reading.
        EXPECT_EQ(r.steps[s].scopes[8].measurement.read.histogram,
            m.steps[s].scopes[8].measurement.read.histogram);
    }
    ASSERT_EQ(r.intervals.size(), m.intervals.size());
    EXPECT_EQ(r.intervals.front().scopes.back().scope, m.intervals.front().scopes.back().scope);
    EXPECT_EQ(writeResultsJson(r, r.environment), text) << "what was read writes the same text";

    // A run of one host writes no host index and no hosts: its files are as before.
    const RunResult one = runOn("host-a", 200);
    const std::string oneText = writeResultsJson(one, one.environment);
    EXPECT_EQ(oneText.find("\n  \"hosts\": "), std::string::npos) << "no top-level hosts";
    EXPECT_NE(text.find("\n  \"hosts\": "), std::string::npos);
    EXPECT_EQ(oneText.find("\"host\":"), std::string::npos);
}

// A host that ended early (failed in its second step, after some of its intervals):
// nothing measured is dropped, the merged run says which host failed.
TEST(HostMerge, AHostThatEndedEarlyIsMergedPartiallyAndNamed)
{
    const RunResult a = runOn("host-a", 2000);
    RunResult b = runOn("host-b", 1000);
    ASSERT_EQ(b.steps.size(), 2u);
    b.steps.pop_back(); // it never finished its second step...
    std::size_t bSecond = 0;
    for (const auto &sample : b.intervals)
        bSecond += sample.step == 1 ? 1 : 0;
    ASSERT_GT(bSecond, 0u);
    while (!b.intervals.empty() && b.intervals.back().step == 1 && bSecond > 1) {
        b.intervals.pop_back(); // ... and measured only its first interval of it
        --bSecond;
    }
    b.error = OpError {std::make_error_code(std::errc::io_error), "read", "/mnt/x", {}};

    auto merged = mergeHostRuns({{"", -1, "", a}, {"db2", -1, "10.0.0.2:7355", b}});
    ASSERT_TRUE(merged.ok()) << merged.error().toString();
    const RunResult &m = *merged;
    ASSERT_TRUE(m.error);
    EXPECT_EQ(m.error->toString().rfind("host db2 (10.0.0.2:7355): read /mnt/x", 0), 0u)
        << m.error->toString();
    ASSERT_EQ(m.steps.size(), 2u);
    EXPECT_TRUE(m.steps[0].complete);
    EXPECT_FALSE(m.steps[1].complete) << "db2 has no result for it";
    EXPECT_EQ(allOf(m.steps[1]).figures.total.ios, allOf(a.steps[1]).figures.total.ios)
        << "the step's All is over the hosts that have it";
    // Every interval of every host is in the merged ones.
    for (std::size_t s = 0; s < 2; ++s) {
        std::uint64_t merged = 0, hosts = 0;
        for (const auto &sample : m.intervals)
            if (sample.step == s)
                merged += sample.scopes.front().figures.total.ios;
        for (const RunResult *r : std::vector<const RunResult *> {&a, &b})
            for (const auto &sample : r->intervals)
                if (sample.step == s)
                    hosts += sample.scopes.front().figures.total.ios;
        EXPECT_EQ(merged, hosts) << "step " << s;
    }
}

// A host that failed before planning (no steps) ran nothing: the others still merge.
TEST(HostMerge, AHostWithoutAPlanIsNotADifferentPlan)
{
    const RunResult a = runOn("host-a", 500);
    const RunResult failed = failedRunResult(9, "make the I/O engine", "not here");
    auto merged = mergeHostRuns({{"", -1, "", a}, {"db3", -1, "", failed}});
    ASSERT_TRUE(merged.ok()) << merged.error().toString();
    ASSERT_TRUE(merged->error);
    EXPECT_EQ(merged->error->toString(), "host db3: make the I/O engine: not here");
    EXPECT_EQ(merged->plan.steps.size(), a.plan.steps.size());
    EXPECT_EQ(merged->plan.workers.size(), a.plan.workers.size());
    ASSERT_EQ(merged->steps.size(), 2u);
    EXPECT_FALSE(merged->steps[0].complete);
}

// Each host's measured clock offset is kept, in the results file and across the codec.
TEST(HostMerge, EachHostsClockOffsetIsKeptInTheFileAndTheCodec)
{
    RunResult a = runOn("host-a", 200);
    RunResult b = runOn("host-b", 200);
    const ClockOffset measured {
        std::chrono::nanoseconds(-1234567), std::chrono::nanoseconds(8900), 5};
    auto merged
        = mergeHostRuns({{"", -1, "", std::move(a)}, {"", -1, "db2:7400", std::move(b), measured}});
    ASSERT_TRUE(merged.ok());
    const RunResult &m = *merged;
    ASSERT_EQ(m.hosts.size(), 2u);
    EXPECT_EQ(m.hosts[0].clockOffsetNs, 0);
    EXPECT_EQ(m.hosts[0].clockUncertaintyNs, 0);
    EXPECT_EQ(m.hosts[1].clockOffsetNs, -1234567);
    EXPECT_EQ(m.hosts[1].clockUncertaintyNs, 8900);
    const std::string text = writeResultsJson(m, m.environment);
    EXPECT_NE(text.find("\"clock_offset_ns\": -1234567"), std::string::npos);
    const ResultsRead read = readResultsJson(text);
    ASSERT_TRUE(read.result) << read.error;
    EXPECT_EQ(read.result->hosts, m.hosts);
    const auto decoded = decodeEvent(encodeEvent(FinishedEvent {m}));
    ASSERT_TRUE(decoded.value) << decoded.error;
    EXPECT_EQ(std::get<FinishedEvent>(*decoded.value).result.hosts, m.hosts);
}

TEST(HostMerge, TheMergedResultCrossesTheSessionCodecFieldForField)
{
    const RunResult m = mergedOfTwo();
    const auto decoded = decodeEvent(encodeEvent(FinishedEvent {m}));
    ASSERT_TRUE(decoded.value) << decoded.error;
    EXPECT_EQ(std::get<FinishedEvent>(*decoded.value).result, m);
}

// Stonewalling on one host: each step ends once the host has moved the amount (long before
// its run time), with the bytes it really moved; merged with a host that did not reach it,
// the step says it ended by the amount and which host moved it, in the file and the codec.
TEST(HostMerge, AStepOfAnAmountEndsWhenTheHostHasMovedItAndSaysWhichHost)
{
    const std::uint64_t amount = 8 * kMiB;
    RunResult a = runOn("host-a", 0, 2, amount);
    ASSERT_FALSE(a.error) << a.error->toString();
    ASSERT_EQ(a.steps.size(), 2u);
    for (const StepResult &s : a.steps) {
        EXPECT_TRUE(s.endedByAmount) << s.stepName;
        EXPECT_TRUE(s.complete) << s.stepName;
        EXPECT_GE(allOf(s).figures.total.bytes, amount) << s.stepName;
        // Ended by its amount, not by its time (60 s): a step's time is never cut short.
        EXPECT_LT(s.measuredSeconds, 60) << s.stepName;
    }
    RunResult b = runOn("host-b", 1000);
    ASSERT_FALSE(b.steps.front().endedByAmount);
    auto merged = mergeHostRuns({{"", -1, "", std::move(a)}, {"", 1, "db2:7400", std::move(b)}});
    ASSERT_TRUE(merged.ok()) << merged.error().toString();
    const RunResult &m = *merged;
    for (const StepResult &s : m.steps) {
        EXPECT_TRUE(s.endedByAmount);
        ASSERT_EQ(s.hosts.size(), 2u);
        EXPECT_TRUE(s.hosts[0].endedByAmount);
        EXPECT_FALSE(s.hosts[1].endedByAmount);
    }
    const ResultsRead read = readResultsJson(writeResultsJson(m, m.environment));
    ASSERT_TRUE(read.result) << read.error;
    ASSERT_EQ(read.result->steps.size(), m.steps.size());
    EXPECT_TRUE(read.result->steps[0].endedByAmount);
    EXPECT_EQ(read.result->steps[0].hosts, m.steps[0].hosts);
    const auto decoded = decodeEvent(encodeEvent(FinishedEvent {m}));
    ASSERT_TRUE(decoded.value) << decoded.error;
    EXPECT_EQ(std::get<FinishedEvent>(*decoded.value).result, m);
}

TEST(HostMerge, IometerCsvHasAManagerRowPerHostUnderAll)
{
    const RunResult m = mergedOfTwo();
    const std::string csv = writeIometerCsv(m, m.environment, RecordFilter::All);
    std::istringstream in(csv);
    std::string line;
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream cs(line);
        for (std::string cell; std::getline(cs, cell, ',');)
            cells.push_back(cell);
        if (!cells.empty() && cells[0] == "'Target Type")
            header = cells;
        else if (!cells.empty() && (cells[0] == "ALL" || cells[0] == "MANAGER"))
            rows.push_back(cells);
    }
    ASSERT_FALSE(header.empty());
    const auto column = [&](const std::string &name) {
        return std::size_t(std::find(header.begin(), header.end(), name) - header.begin());
    };
    const std::size_t managers = column("# Managers");
    const std::size_t ios = column("IOps");
    ASSERT_LT(managers, header.size());
    ASSERT_LT(ios, header.size());
    // Per step: ALL (2 managers), then host-a's MANAGER, then host-b's.
    ASSERT_EQ(rows.size(), 6u);
    for (std::size_t s = 0; s < 2; ++s) {
        EXPECT_EQ(rows[3 * s][0], "ALL");
        EXPECT_EQ(rows[3 * s][managers], "2");
        EXPECT_EQ(rows[3 * s + 1][1], "host-a");
        EXPECT_EQ(rows[3 * s + 2][1], "host-b");
        const auto iops = [&](std::size_t row, std::size_t scope) {
            EXPECT_NEAR(std::stod(rows[row][ios]), m.steps[s].scopes[scope].figures.total.iops,
                1e-3 * m.steps[s].scopes[scope].figures.total.iops)
                << "row " << row;
        };
        iops(3 * s, 0); // All
        iops(3 * s + 1, 1); // host-a's Host scope
        iops(3 * s + 2, 8); // host-b's
    }
}

// Several ranks (or agents) on one machine share its devices: each rank's run compared them
// with its own I/O alone and saw the others' as other traffic. Merged, they are judged
// against the I/O of all of them; hosts of other machines keep their own verdicts.
TEST(HostMerge, HostsOnOneMachineAreJudgedAgainstTheirIoTogether)
{
    constexpr std::uint64_t kAppBytes = 64 << 20; // each rank's reads
    // What each rank's own run said: the device read four ranks' bytes, the rank one's.
    const auto sawOthers = [](RunResult run) {
        for (auto &step : run.steps) {
            step.devices.available = true;
            VerdictInput own;
            own.appReadBytes = kAppBytes;
            own.deviceReadBytes = 3 * kAppBytes;
            own.seconds = 1;
            step.devices.verdict = judgeDevice(own);
        }
        return run;
    };
    const RunResult r0 = sawOthers(runOn("vm", 500));
    ASSERT_EQ(r0.steps.front().devices.verdict.verdict, Verdict::OtherTraffic);
    auto merged
        = mergeHostRuns({{"r0@vm", 0, "", r0}, {"r1@vm", 1, "", sawOthers(runOn("vm", 500))},
            {"r2@vm", 2, "", sawOthers(runOn("vm", 500))},
            {"r0@db", 0, "", sawOthers(runOn("db", 500))}});
    ASSERT_TRUE(merged.ok()) << merged.error().toString();
    for (const auto &step : merged->steps) {
        ASSERT_EQ(step.hosts.size(), 4u);
        for (std::size_t h = 0; h < 3; ++h) {
            const DeviceVerdict &v = step.hosts[h].devices.verdict;
            EXPECT_EQ(v.verdict, Verdict::Agree) << "host " << h;
            EXPECT_EQ(v.read.appBytes, 3 * kAppBytes);
            EXPECT_EQ(v.read.deviceBytes, 3 * kAppBytes);
        }
        // db is alone on its machine: what its own run said stands.
        EXPECT_EQ(step.hosts[3].devices.verdict.verdict, Verdict::OtherTraffic);
    }
    const auto &notices = merged->notices;
    EXPECT_NE(std::find(notices.begin(), notices.end(),
                  "r0@vm, r1@vm, r2@vm run on one host, vm: its devices are judged against the "
                  "I/O of all of them together"),
        notices.end());
}
