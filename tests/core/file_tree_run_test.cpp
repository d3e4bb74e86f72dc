// SPDX-License-Identifier: GPL-3.0-or-later
// File trees and Iometer's connection rate in the worker loop, on the null engine
// wrapped in one that records every open, close and I/O: each tree operation opens a
// file of the tree, does one I/O on it and closes it; a connection does its transactions
// and is reopened with nothing in flight; pre-initialisation is in no figure.
#include "core/null_engine.h"
#include "core/report/csv.h"
#include "core/run/run.h"
#include "core/workload/file_tree.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <mutex>
#include <set>

#include "tests/support/session_doubles.h"
#include "tests/support/test_backend.h"

using namespace ioprism::core;
using namespace std::chrono_literals;
using BenchRun = ioprism::core::Run;

namespace {

// What every engine of the run did, in order.
struct EngineLog {
    std::mutex mutex;
    std::vector<std::string> opened; // paths, per openFile
    std::uint64_t closes = 0;
    std::uint64_t ios = 0;
    // Per connection of file index 0 (connection rate): I/Os between two opens.
    std::vector<std::uint64_t> iosPerConnection {0};
    std::vector<std::string> errors;
};

class RecordingEngine final : public ioprism::test::NullForwardingEngine
{
public:
    explicit RecordingEngine(EngineLog &log)
        : m_log(log)
    { }
    std::string_view name() const override { return "recording"; }
    Status openFile(std::uint32_t index, const EngineFile &file) override
    {
        auto st = NullForwardingEngine::openFile(index, file);
        std::lock_guard lock(m_log.mutex);
        if (!st)
            m_log.errors.push_back(st.error().toString());
        m_log.opened.push_back(file.path);
        if (index == 0)
            m_log.iosPerConnection.push_back(0);
        return st;
    }
    Status closeFile(std::uint32_t index) override
    {
        auto st = NullForwardingEngine::closeFile(index);
        std::lock_guard lock(m_log.mutex);
        if (!st)
            m_log.errors.push_back(st.error().toString());
        ++m_log.closes;
        return st;
    }
    bool queue(IoRequest *r) override
    {
        std::lock_guard lock(m_log.mutex);
        ++m_log.ios;
        if (r->fileIndex == 0)
            ++m_log.iosPerConnection.back();
        return NullForwardingEngine::queue(r);
    }

private:
    EngineLog &m_log;
};

class RecordingBackend final : public IoBackend
{
public:
    EngineLog log;
    std::string engineName() const override { return "recording"; }
    std::vector<std::string> notices() const override { return {}; }
    Result<TargetInfo> prepareTarget(
        const Target &t, const PrepareOptions &o, const PrepareProgress &p) override
    {
        return m_null.prepareTarget(t, o, p);
    }
    Result<std::unique_ptr<IoEngine>> makeEngine() override
    {
        return std::unique_ptr<IoEngine>(std::make_unique<RecordingEngine>(log));
    }

private:
    NullBackend m_null;
};

using ioprism::test::NullSink;

Profile treeProfile(std::uint32_t qd, std::uint64_t preInit)
{
    Profile p;
    p.setup.runTime = 0s;
    p.setup.interval = 100ms;
    AccessSpec spec;
    spec.name = "4K random";
    SpecLine line;
    line.transferSizeBytes = 4096;
    line.alignmentBytes = 4096;
    line.percentRead = 50;
    line.percentRandom = 100;
    spec.lines.push_back(line);
    p.specs.push_back(spec);
    Worker w;
    w.name = "Worker 1";
    w.outstandingIos = qd;
    w.assignedSpecs = {"4K random"};
    w.seed = 7;
    Target t;
    t.kind = TargetKind::FileTree;
    t.path = "/trees/t";
    t.tree = FileTree {.depth = 3, .filesPerLevel = 4, .fileSizeBytes = 1 * kMiB};
    t.tree.preInitOperations = preInit;
    w.targets.push_back(t);
    p.hosts.push_back(Host {.workers = {w}});
    return p;
}

// Runs the profile with this many I/Os per target on the backend's recording engines.
RunResult runOn(RecordingBackend &backend, const Profile &profile, std::uint64_t ioLimit)
{
    NullCounterSource counters;
    NullSink sink;
    return BenchRun(profile, backend, counters, sink, {.ioLimitPerTarget = ioLimit}).execute();
}

} // namespace

TEST(FileTreeRun, EachOperationOpensATreeFileDoesOneIoAndClosesIt)
{
    const Profile profile = treeProfile(4, 0);
    RecordingBackend backend;
    const RunResult r = runOn(backend, profile, 3000);
    ASSERT_FALSE(r.error) << r.error->toString();
    EXPECT_TRUE(backend.log.errors.empty()) << backend.log.errors.front();
    ASSERT_EQ(r.steps.size(), 1u);
    const Figures &all = r.steps[0].scopes[0].figures;
    EXPECT_EQ(all.total.ios, 3000u);
    ASSERT_TRUE(all.connections.has_value());
    EXPECT_EQ(all.connections->open.count, 3000u);
    EXPECT_EQ(all.connections->close.count, 3000u);
    EXPECT_EQ(all.connections->connection.count, 3000u);
    EXPECT_GT(all.connections->open.perSecond, 0);
    // An operation lasts at least its open and its close.
    EXPECT_GE(all.connections->connection.latency.meanUs,
        all.connections->open.latency.meanUs + all.connections->close.latency.meanUs);
    // Every open names a file of the tree, and all twelve were used.
    const auto files = fileTreeFiles("/trees/t", profile.hosts[0].workers[0].targets[0].tree);
    const std::set<std::string> tree(files.begin(), files.end());
    std::map<std::string, int> uses;
    for (const auto &path : backend.log.opened) {
        EXPECT_TRUE(tree.contains(path)) << path;
        ++uses[path];
    }
    EXPECT_EQ(uses.size(), 12u);
    EXPECT_EQ(backend.log.opened.size(), 3000u);
    EXPECT_EQ(backend.log.closes, 3000u);
    // The worker and target scopes carry the same figures.
    EXPECT_EQ(r.steps[0].scopes.back().figures.connections->open.count, 3000u);
}

TEST(FileTreeRun, EveryIntervalRowSaysFilesPerSecond)
{
    const Profile profile = treeProfile(1, 0);
    RecordingBackend backend;
    const RunResult r = runOn(backend, profile, 2000);
    ASSERT_FALSE(r.error) << r.error->toString();
    const std::string csv = writeTimeSeriesCsv(r);
    const auto header = csv.substr(0, csv.find('\n'));
    ASSERT_TRUE(header.ends_with(",files_per_s,open_mean_us,close_mean_us,operation_mean_us,"
                                 "operation_max_us"));
    std::uint64_t opened = 0;
    double files = 0, seconds = 0;
    for (const auto &sample : r.intervals) {
        ASSERT_TRUE(sample.scopes[0].figures.connections.has_value());
        opened += sample.scopes[0].figures.connections->open.count;
        files += sample.scopes[0].figures.connections->open.perSecond
            * sample.scopes[0].figures.seconds;
        seconds += sample.scopes[0].figures.seconds;
    }
    // Nothing lost between intervals: they add up to the step.
    EXPECT_EQ(opened, 2000u);
    EXPECT_NEAR(files, 2000.0, 1.0);
    // Each row ends with a files-per-second figure.
    for (std::size_t at = csv.find('\n'); at + 1 < csv.size(); at = csv.find('\n', at + 1)) {
        const auto line = csv.substr(at + 1, csv.find('\n', at + 1) - at - 1);
        std::size_t commas = 0, from = line.size();
        while (commas < 5 && from > 0)
            if (line[--from] == ',')
                ++commas;
        EXPECT_NE(line[from + 1], ',') << line;
    }
}

TEST(FileTreeRun, PreInitialisationRunsBeforeTheStepAndCountsInNoFigure)
{
    const Profile profile = treeProfile(2, 500);
    RecordingBackend backend;
    const RunResult r = runOn(backend, profile, 1000);
    ASSERT_FALSE(r.error) << r.error->toString();
    EXPECT_TRUE(backend.log.errors.empty()) << backend.log.errors.front();
    EXPECT_EQ(backend.log.ios, 1500u);
    EXPECT_EQ(backend.log.opened.size(), 1500u);
    const Figures &all = r.steps[0].scopes[0].figures;
    EXPECT_EQ(all.total.ios, 1000u);
    EXPECT_EQ(all.connections->open.count, 1000u);
}

namespace {

// Stops the run at its first pre-initialisation report (said from the control thread
// before the workers are waited for): no timing decides what the run sees.
struct StopAtPreInitSink : RunSink {
    BenchRun *run = nullptr;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> preInit; // done, total
    std::vector<RunPhase> phases;
    std::size_t intervals = 0;
    void onPrepareProgress(
        const std::string &path, std::uint64_t done, std::uint64_t total, PrepareWork work) override
    {
        if (work != PrepareWork::PreInitialising)
            return;
        EXPECT_EQ(path, "/trees/t");
        preInit.emplace_back(done, total);
        if (run)
            run->requestStop();
    }
    void onPhase(RunPhase phase, std::size_t, const std::string &) override
    {
        phases.push_back(phase);
    }
    void onInterval(const IntervalSample &) override { ++intervals; }
};

} // namespace

// Seen before: a stop during pre-initialisation was ignored until all its operations were
// done, and then a step still started (its Files line made of no operation).
TEST(FileTreeRun, AStopDuringPreInitialisationEndsItAndStartsNoStep)
{
    // More operations than the null engine does in a few seconds: without the stop the
    // step would start afterwards; with it, no step whatever the speed.
    const Profile profile = treeProfile(4, 5'000'000);
    RecordingBackend backend;
    NullCounterSource counters;
    StopAtPreInitSink sink;
    BenchRun run(profile, backend, counters, sink, {.ioLimitPerTarget = 1000});
    sink.run = &run;
    const RunResult r = run.execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    EXPECT_TRUE(r.stoppedByUser);
    EXPECT_TRUE(r.steps.empty()) << "no step starts after a stop";
    EXPECT_EQ(sink.intervals, 0u);
    EXPECT_EQ(std::count(sink.phases.begin(), sink.phases.end(), RunPhase::RampUp)
            + std::count(sink.phases.begin(), sink.phases.end(), RunPhase::Measuring),
        0);
    ASSERT_FALSE(sink.preInit.empty()) << "pre-initialisation says that it began";
    EXPECT_EQ(sink.preInit.front(), std::make_pair(std::uint64_t(0), std::uint64_t(5'000'000)));
    std::lock_guard lock(backend.log.mutex);
    EXPECT_TRUE(backend.log.errors.empty()) << backend.log.errors.front();
    EXPECT_EQ(backend.log.opened.size(), backend.log.closes) << "every file opened was closed";
}

// Pre-initialisation reports its progress in operations, from 0 to all of them, through
// the sink that reports the targets' preparation.
TEST(FileTreeRun, PreInitialisationReportsItsProgressInOperations)
{
    const Profile profile = treeProfile(2, 5000);
    RecordingBackend backend;
    NullCounterSource counters;
    StopAtPreInitSink sink; // no run: it only records
    const RunResult r
        = BenchRun(profile, backend, counters, sink, {.ioLimitPerTarget = 100}).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(r.steps.size(), 1u);
    ASSERT_GE(sink.preInit.size(), 2u);
    EXPECT_EQ(sink.preInit.front(), std::make_pair(std::uint64_t(0), std::uint64_t(5000)));
    EXPECT_EQ(sink.preInit.back(), std::make_pair(std::uint64_t(5000), std::uint64_t(5000)));
    for (std::size_t i = 1; i < sink.preInit.size(); ++i)
        EXPECT_GE(sink.preInit[i].first, sink.preInit[i - 1].first) << "never goes back";
}

TEST(ConnectionRate, TheTargetIsReopenedEveryNTransactionsWithNothingInFlight)
{
    Profile profile = treeProfile(4, 0);
    Worker &w = profile.hosts[0].workers[0];
    w.targets[0].kind = TargetKind::TestFile;
    w.targets[0].path = "file";
    w.targets[0].testFileSizeBytes = 64 * kMiB;
    w.testConnectionRate = true;
    w.transactionsPerConnection = 10;
    RecordingBackend backend;
    const RunResult r = runOn(backend, profile, 1000);
    ASSERT_FALSE(r.error) << r.error->toString();
    // The null engine refuses a close with I/O in flight: none was.
    EXPECT_TRUE(backend.log.errors.empty()) << backend.log.errors.front();
    const auto &perConnection = backend.log.iosPerConnection;
    ASSERT_GE(perConnection.size(), 100u);
    for (std::size_t c = 0; c + 1 < perConnection.size(); ++c)
        EXPECT_EQ(perConnection[c], 10u) << "connection " << c;
    const Figures &all = r.steps[0].scopes[0].figures;
    ASSERT_TRUE(all.connections.has_value());
    EXPECT_EQ(all.connections->connection.count, 100u);
    EXPECT_EQ(all.connections->close.count, 100u);
    EXPECT_EQ(all.connections->open.count, 100u);
    EXPECT_GT(all.connections->connection.perSecond, 0);
}

TEST(ConnectionRate, WithoutItNothingIsReopenedAndThereAreNoConnectionFigures)
{
    Profile profile = treeProfile(4, 0);
    Worker &w = profile.hosts[0].workers[0];
    w.targets[0].kind = TargetKind::TestFile;
    w.targets[0].path = "file";
    w.targets[0].testFileSizeBytes = 64 * kMiB;
    RecordingBackend backend;
    const RunResult r = runOn(backend, profile, 1000);
    ASSERT_FALSE(r.error) << r.error->toString();
    EXPECT_TRUE(backend.log.opened.empty());
    EXPECT_EQ(backend.log.closes, 0u);
    EXPECT_FALSE(r.steps[0].scopes[0].figures.connections.has_value());
}
