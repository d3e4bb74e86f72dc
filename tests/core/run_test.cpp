// SPDX-License-Identifier: GPL-3.0-or-later
// The run on the null engine: exact counts, steps, stop, errors, refusals before I/O.
#include "core/null_engine.h"
#include "core/report/csv.h"
#include "core/run/plan.h"
#include "core/run/run.h"
#include "support/test_backend.h"
#include "support/test_profiles.h"

#include <gtest/gtest.h>
#include <thread>

using namespace ioprism::core;
using namespace std::chrono_literals;
// testing::Test has a member named Run.
using BenchRun = ioprism::core::Run;
using ioprism::test::makeSpec;
using ioprism::test::NullForwardingEngine;
using ioprism::test::TestBackend;

namespace {

Profile makeProfile(std::vector<AccessSpec> specs, std::vector<std::string> assigned,
    int targets = 1, std::uint32_t qd = 4)
{
    Profile p;
    p.setup.runTime = 0s; // until stopped (or the I/O limit)
    p.setup.interval = 100ms;
    p.specs = std::move(specs);
    Host h;
    Worker w;
    w.name = "Worker 1";
    w.outstandingIos = qd;
    w.assignedSpecs = std::move(assigned);
    w.seed = 42;
    for (int t = 0; t < targets; ++t) {
        Target target;
        target.path = "target" + std::to_string(t);
        target.testFileSizeBytes = 64 * kMiB;
        w.targets.push_back(target);
    }
    h.workers.push_back(w);
    p.hosts.push_back(h);
    return p;
}

struct PhaseRecordingSink : RunSink {
    std::vector<IntervalSample> samples;
    std::vector<RunPhase> phases;
    std::vector<std::string> notices;
    void onNotice(const std::string &text) override { notices.push_back(text); }
    void onInterval(const IntervalSample &s) override { samples.push_back(s); }
    void onPhase(RunPhase p, std::size_t, const std::string &) override { phases.push_back(p); }
};

std::uint64_t sumIntervals(const RunResult &r, std::size_t step, bool reads)
{
    std::uint64_t n = 0;
    for (const auto &s : r.intervals)
        if (s.step == step && s.phase == RunPhase::Measuring)
            n += reads ? s.scopes[0].figures.read.ios : s.scopes[0].figures.write.ios;
    return n;
}

} // namespace

TEST(Run, NullEngineExactCountsPerScope)
{
    auto profile = makeProfile({makeSpec("4K read", 4096, 100, 100)}, {"4K read"}, 2, 8);
    NullBackend backend;
    NullCounterSource counters;
    PhaseRecordingSink sink;
    BenchRun run(profile, backend, counters, sink, {.ioLimitPerTarget = 20000});
    const RunResult r = run.execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(r.steps.size(), 1u);
    const auto &step = r.steps[0];
    ASSERT_EQ(step.scopes.size(), 4u); // All, Worker 1, 2 targets
    EXPECT_EQ(step.scopes[0].figures.read.ios, 40000u);
    EXPECT_EQ(step.scopes[0].figures.write.ios, 0u);
    EXPECT_EQ(step.scopes[0].figures.read.bytes, 40000u * 4096);
    EXPECT_EQ(step.scopes[1].scope.kind, Scope::Kind::Worker);
    EXPECT_EQ(step.scopes[1].figures.read.ios, 40000u);
    EXPECT_EQ(step.scopes[2].figures.read.ios, 20000u);
    EXPECT_EQ(step.scopes[3].figures.read.ios, 20000u);
    // The rate is the count over the measured time: multiplied back, it gives the count
    // to within rounding (a product of doubles is rarely exact; under Wine one run in four
    // was off in the last bit). Half an I/O still catches a rate taken over another span.
    EXPECT_NEAR(step.scopes[0].figures.transactionsPerSecond * step.measuredSeconds, 40000.0, 0.5);
    // Intervals add up to the totals: nothing lost between samples.
    EXPECT_EQ(sumIntervals(r, 0, true), 40000u);
    EXPECT_EQ(sink.samples.size(), r.intervals.size());
    EXPECT_EQ(r.engine, "null");
    EXPECT_EQ(sink.phases.back(), RunPhase::Done);
    // The intervals count from the moment the run's clock started: after the run's start
    // (its targets prepared), kept on the wall clock.
    ASSERT_TRUE(r.timeOriginAt);
    EXPECT_GE(*r.timeOriginAt, r.startedAt);
    EXPECT_LE(*r.timeOriginAt, std::chrono::system_clock::now());
}

// io_uring's polling modes are refused by a backend that has none (here the null engine),
// before anything is prepared: a run asked to poll must never run without it in silence.
TEST(Run, PollingAskedOfABackendWithoutItIsRefusedBeforeAnyTargetIsPrepared)
{
    auto profile = makeProfile({makeSpec("4K read", 4096, 100, 100)}, {"4K read"}, 1, 4);
    for (const EnginePolling polling :
        {EnginePolling {.completions = true}, EnginePolling {.submissions = true}}) {
        NullBackend backend;
        NullCounterSource counters;
        PhaseRecordingSink sink;
        const RunResult r = BenchRun(
            profile, backend, counters, sink, {.ioLimitPerTarget = 100, .polling = polling})
                                .execute();
        ASSERT_TRUE(r.error);
        EXPECT_EQ(r.error->operation, "engine polling");
        EXPECT_NE(r.error->detail.find("the null engine has neither"), std::string::npos)
            << r.error->toString();
        EXPECT_TRUE(r.steps.empty());
        EXPECT_TRUE(r.plan.workers.empty()); // not even planned
        EXPECT_EQ(std::count(sink.phases.begin(), sink.phases.end(), RunPhase::Preparing), 0);
    }
    // Without polling the same run runs.
    NullBackend backend;
    NullCounterSource counters;
    PhaseRecordingSink sink;
    const RunResult r
        = BenchRun(profile, backend, counters, sink, {.ioLimitPerTarget = 100}).execute();
    EXPECT_FALSE(r.error);
}

namespace {

// The null engine, noting the fewest and the most completions each reap was asked to
// wait for (shared by every worker's engine).
struct ReapAsks {
    std::atomic<std::uint32_t> fewest {UINT32_MAX};
    std::atomic<std::uint32_t> most {0};
};

class ReapRecordingEngine final : public NullForwardingEngine
{
public:
    explicit ReapRecordingEngine(ReapAsks &asks)
        : m_asks(asks)
    { }
    Result<std::uint32_t> reap(
        std::span<IoRequest *> out, std::uint32_t min, std::chrono::nanoseconds t) override
    {
        std::uint32_t seen = m_asks.fewest.load();
        while (min < seen && !m_asks.fewest.compare_exchange_weak(seen, min)) { }
        seen = m_asks.most.load();
        while (min > seen && !m_asks.most.compare_exchange_weak(seen, min)) { }
        return NullForwardingEngine::reap(out, min, t);
    }

private:
    ReapAsks &m_asks;
};

class ReapRecordingBackend final : public NullBackend
{
public:
    ReapAsks asks;
    Result<std::unique_ptr<IoEngine>> makeEngine() override
    {
        return std::unique_ptr<IoEngine>(std::make_unique<ReapRecordingEngine>(asks));
    }
};

} // namespace

// RunSettings::reapBatch (--reap-batch, fio's iodepth_batch_complete_min): the workers
// ask their engines for that many completions at once, never for more than they have in
// flight, and the results say what was asked; by default each I/O is taken alone.
TEST(Run, TheReapBatchIsWhatTheWorkersWaitForAndTheResultsSayIt)
{
    // One worker, two targets at QD 8: 16 in flight.
    auto profile = makeProfile({makeSpec("4K read", 4096, 100, 100)}, {"4K read"}, 2, 8);
    for (const auto &[batch, most] : {std::pair {1u, 1u}, {6u, 6u}, {64u, 16u}}) {
        ReapRecordingBackend backend;
        NullCounterSource counters;
        PhaseRecordingSink sink;
        const RunResult r = BenchRun(
            profile, backend, counters, sink, {.ioLimitPerTarget = 2000, .reapBatch = batch})
                                .execute();
        ASSERT_FALSE(r.error) << r.error->toString();
        EXPECT_EQ(r.steps.at(0).scopes.at(0).figures.read.ios, 4000u) << "batch " << batch;
        EXPECT_EQ(backend.asks.most.load(), most) << "batch " << batch;
        if (batch == 1) {
            EXPECT_EQ(backend.asks.fewest.load(), 1u);
        }
        EXPECT_EQ(r.environment.reapBatch, batch);
    }
}

TEST(Run, MixedReadWriteAddsUp)
{
    auto profile = makeProfile({makeSpec("mix", 8192, 70, 50)}, {"mix"}, 1, 16);
    NullBackend backend;
    NullCounterSource counters;
    PhaseRecordingSink sink;
    const RunResult r
        = BenchRun(profile, backend, counters, sink, {.ioLimitPerTarget = 50000}).execute();
    ASSERT_FALSE(r.error);
    const auto &all = r.steps[0].scopes[0].figures;
    EXPECT_EQ(all.read.ios + all.write.ios, 50000u);
    EXPECT_NEAR(double(all.read.ios) / 50000, 0.70, 0.02);
    EXPECT_EQ(sumIntervals(r, 0, true), all.read.ios);
    EXPECT_EQ(sumIntervals(r, 0, false), all.write.ios);
}

TEST(Run, AssignedSpecsRunInOrderAsSteps)
{
    auto profile
        = makeProfile({makeSpec("A", 4096, 100, 0), makeSpec("B", 65536, 0, 0)}, {"A", "B"});
    NullBackend backend;
    NullCounterSource counters;
    PhaseRecordingSink sink;
    const RunResult r
        = BenchRun(profile, backend, counters, sink, {.ioLimitPerTarget = 1000}).execute();
    ASSERT_FALSE(r.error);
    ASSERT_EQ(r.steps.size(), 2u);
    EXPECT_EQ(r.steps[0].stepName, "A");
    EXPECT_EQ(r.steps[1].stepName, "B");
    EXPECT_EQ(r.steps[0].scopes[0].figures.read.bytes, 1000u * 4096);
    EXPECT_EQ(r.steps[1].scopes[0].figures.write.bytes, 1000u * 65536);
}

TEST(Run, SpecThreadsMakeWorkerCopies)
{
    auto spec = makeSpec("RND4K Q32T4", 4096, 100, 100);
    spec.threads = 4;
    spec.queueDepth = 32;
    auto profile = makeProfile({spec}, {spec.name});
    NullBackend backend;
    NullCounterSource counters;
    PhaseRecordingSink sink;
    const RunResult r
        = BenchRun(profile, backend, counters, sink, {.ioLimitPerTarget = 100}).execute();
    ASSERT_FALSE(r.error);
    // All + 4 workers + 4 targets.
    ASSERT_EQ(r.steps[0].scopes.size(), 9u);
    EXPECT_EQ(r.steps[0].scopes[0].figures.read.ios, 400u);
    EXPECT_EQ(r.steps[0].scopes[3].scope.label, "Worker 1 #2");
}

TEST(Run, BackendNoticesFromMakingAndPreparingReachTheSinkAndTheResultOnce)
{
    auto profile = makeProfile({makeSpec("4K read", 4096, 100, 100)}, {"4K read"}, 2);
    TestBackend backend;
    backend.noticeLog = {"io_uring unavailable (EPERM): using the sync engine"};
    backend.noticeWhilePreparing = true;
    NullCounterSource counters;
    PhaseRecordingSink sink;
    const RunResult r
        = BenchRun(profile, backend, counters, sink, {.ioLimitPerTarget = 10}).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(r.notices.size(), 3u);
    EXPECT_EQ(r.notices[0], "io_uring unavailable (EPERM): using the sync engine");
    EXPECT_EQ(r.notices[1].rfind("prepared ", 0), 0u) << r.notices[1];
    EXPECT_EQ(r.notices[2].rfind("prepared ", 0), 0u) << r.notices[2];
    EXPECT_EQ(sink.notices, r.notices);
}

// A counter source that would report a device for every target.
class OneDiskCounterSource final : public CounterSource
{
public:
    int watchCalls = 0;
    CounterSnapshot sample() override
    {
        CounterSnapshot s;
        s.disks.resize(m_map.devices.size());
        for (auto &d : s.disks)
            d.valid = true;
        return s;
    }
    DeviceMap watchTargets(const std::vector<std::string> &paths) override
    {
        ++watchCalls;
        m_map = {};
        m_map.devices.push_back({"sda", DeviceRole::Target, "", true});
        for (const auto &p : paths)
            m_map.targets.push_back({p, 0, ""});
        return m_map;
    }

private:
    DeviceMap m_map;
};

TEST(Run, TheNullEngineWatchesNoDeviceAndSaysWhy)
{
    auto profile = makeProfile({makeSpec("4K read", 4096, 100, 100)}, {"4K read"});
    NullBackend backend;
    OneDiskCounterSource counters;
    PhaseRecordingSink sink;
    const RunResult r
        = BenchRun(profile, backend, counters, sink, {.ioLimitPerTarget = 1000}).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    EXPECT_EQ(counters.watchCalls, 0);
    EXPECT_TRUE(r.deviceMap.devices.empty());
    ASSERT_EQ(r.deviceMap.targets.size(), 1u);
    EXPECT_FALSE(r.deviceMap.targets[0].device);
    EXPECT_EQ(r.deviceMap.targets[0].note, "the null engine does no device I/O");
    EXPECT_FALSE(r.steps[0].devices.available);
    EXPECT_EQ(r.steps[0].devices.verdict.verdict, Verdict::NoDeviceCounters);

    // A backend that does device I/O is compared with the device.
    TestBackend real;
    OneDiskCounterSource watched;
    const RunResult d
        = BenchRun(profile, real, watched, sink, {.ioLimitPerTarget = 1000}).execute();
    ASSERT_FALSE(d.error) << d.error->toString();
    EXPECT_EQ(watched.watchCalls, 1);
    EXPECT_EQ(d.deviceMap.devices.size(), 1u);
}

TEST(Run, StopKeepsWhatWasMeasured)
{
    auto profile = makeProfile({makeSpec("A", 4096, 100, 100)}, {"A"});
    NullBackend backend;
    NullCounterSource counters;
    PhaseRecordingSink sink;
    BenchRun run(profile, backend, counters, sink);
    std::jthread stopper([&] {
        std::this_thread::sleep_for(350ms);
        run.requestStop();
    });
    const RunResult r = run.execute();
    EXPECT_TRUE(r.stoppedByUser);
    EXPECT_FALSE(r.error);
    ASSERT_EQ(r.steps.size(), 1u);
    EXPECT_FALSE(r.steps[0].complete);
    EXPECT_GT(r.steps[0].scopes[0].figures.read.ios, 0u);
    EXPECT_EQ(sumIntervals(r, 0, true), r.steps[0].scopes[0].figures.read.ios);
    EXPECT_GE(r.intervals.size(), 3u); // 100 ms samples over ~350 ms
    EXPECT_NEAR(r.steps[0].measuredSeconds, 0.35, 0.2);
}

TEST(Run, RampUpIsSampledButNotCounted)
{
    auto profile = makeProfile({makeSpec("A", 4096, 100, 100)}, {"A"});
    profile.setup.rampUp = 1s;
    profile.setup.runTime = 1s;
    profile.setup.interval = 250ms;
    NullBackend backend;
    NullCounterSource counters;
    PhaseRecordingSink sink;
    const RunResult r = BenchRun(profile, backend, counters, sink).execute();
    ASSERT_FALSE(r.error);
    std::uint64_t ramp = 0, measured = 0;
    for (const auto &s : r.intervals)
        (s.phase == RunPhase::RampUp ? ramp : measured) += s.scopes[0].figures.read.ios;
    EXPECT_GT(ramp, 0u);
    EXPECT_EQ(measured, r.steps[0].scopes[0].figures.read.ios);
    EXPECT_NEAR(r.steps[0].measuredSeconds, 1.0, 0.05);
    EXPECT_TRUE(r.steps[0].complete);
}

TEST(Run, FirstIoErrorStopsTheRunAndKeepsResults)
{
    auto profile = makeProfile({makeSpec("A", 4096, 100, 100)}, {"A"}, 1, 1);
    TestBackend backend;
    backend.failAt = 100;
    NullCounterSource counters;
    PhaseRecordingSink sink;
    const RunResult r = BenchRun(profile, backend, counters, sink).execute();
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->operation, "read");
    EXPECT_EQ(r.error->code.value(), 5);
    EXPECT_NE(r.error->toString().find("target0"), std::string::npos);
    ASSERT_EQ(r.steps.size(), 1u);
    EXPECT_EQ(r.steps[0].scopes[0].figures.read.ios, 99u);
    EXPECT_EQ(r.steps[0].scopes[0].figures.read.errors, 1u);
}

// A counter source that, at its `at`th sample (the sampler's first is taken when the
// step starts), fails the next I/O and waits until the worker that failed it has ended:
// the failed I/O is counted and the stop asked for after the sampler read the workers'
// counters and before it decides whether the step ends, the window a loaded machine
// leaves open by chance.
class FailWhileSampling final : public CounterSource
{
public:
    FailWhileSampling(ioprism::test::ArmedFailure &failure, int at)
        : m_failure(failure)
        , m_at(at)
    { }
    bool workerEndedInTime = false;
    CounterSnapshot sample() override
    {
        if (++m_calls == m_at) {
            m_failure.armed = true;
            // Bounded, so that a broken worker fails the test instead of hanging it.
            const auto until = std::chrono::steady_clock::now() + 60s;
            while (!m_failure.engineGone && std::chrono::steady_clock::now() < until)
                std::this_thread::sleep_for(1ms);
            workerEndedInTime = m_failure.engineGone;
        }
        return {};
    }

private:
    ioprism::test::ArmedFailure &m_failure;
    int m_at;
    int m_calls = 0;
};

// The I/O error that stops a run is in its step and its time series, also when it comes
// while an interval's sample is being taken: the step does not end on a stop its last
// sample does not show. Reads and errors of the intervals add up to the step's.
TEST(Run, AnIoErrorDuringASampleIsInTheStepAndTheIntervals)
{
    auto profile = makeProfile({makeSpec("A", 4096, 100, 100)}, {"A"}, 1, 1);
    ioprism::test::ArmedFailure failure;
    TestBackend backend;
    backend.armedFailure = &failure;
    FailWhileSampling counters(failure, 2); // the first interval's sample
    PhaseRecordingSink sink;
    const RunResult r = BenchRun(profile, backend, counters, sink).execute();
    ASSERT_TRUE(counters.workerEndedInTime);
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->operation, "read");
    ASSERT_EQ(r.steps.size(), 1u);
    const Figures &step = r.steps[0].scopes[0].figures;
    EXPECT_EQ(step.read.errors, 1u) << "the failed I/O is counted";
    std::uint64_t errors = 0;
    for (const auto &s : r.intervals)
        errors += s.scopes[0].figures.read.errors;
    EXPECT_EQ(errors, 1u);
    EXPECT_EQ(sumIntervals(r, 0, true), step.read.ios);
    EXPECT_GE(r.intervals.size(), 2u) << "the stop took a sample of its own";
}

TEST(Run, MisalignedDirectIoIsRefusedBeforeAnyIo)
{
    auto profile = makeProfile({makeSpec("2K", 2048, 100, 100)}, {"2K"});
    TestBackend backend;
    backend.alignment = 4096;
    NullCounterSource counters;
    PhaseRecordingSink sink;
    const RunResult r = BenchRun(profile, backend, counters, sink).execute();
    ASSERT_TRUE(r.error);
    // The refusal names the field like every validation message does.
    EXPECT_EQ(r.error->detail,
        "specs[0].lines[0].transferSize: 2 KiB is not a multiple of the direct-I/O "
        "alignment 4 KiB of target0 (use a multiple of it, or buffered mode)");
    EXPECT_TRUE(r.steps.empty());
    EXPECT_TRUE(r.intervals.empty());
}

TEST(Run, BufferedModeSkipsTheAlignmentCheck)
{
    auto profile = makeProfile({makeSpec("2K", 2048, 100, 100)}, {"2K"});
    profile.hosts[0].workers[0].targets[0].cacheMode = CacheMode::Buffered;
    TestBackend backend;
    backend.alignment = 4096;
    NullCounterSource counters;
    PhaseRecordingSink sink;
    const RunResult r
        = BenchRun(profile, backend, counters, sink, {.ioLimitPerTarget = 10}).execute();
    EXPECT_FALSE(r.error);
}

TEST(RunPlan, UndefinedSpecIsAnError)
{
    auto profile = makeProfile({makeSpec("A", 4096, 100, 100)}, {"A", "nope"});
    Problems problems;
    EXPECT_FALSE(makeRunPlan(profile, 1, problems));
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].toString(),
        "hosts[0].workers[0].specs[1]: \"nope\" is not a defined access specification");
}

TEST(RunPlan, RandomSeedIsRecordedFixedSeedKept)
{
    auto profile = makeProfile({makeSpec("A", 4096, 100, 100)}, {"A"});
    profile.hosts[0].workers.push_back(profile.hosts[0].workers[0]);
    profile.hosts[0].workers[1].seed.reset();
    Problems problems;
    auto plan = makeRunPlan(profile, 7, problems);
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->effectiveProfile.hosts[0].workers[0].seed, 42u);
    ASSERT_TRUE(plan->effectiveProfile.hosts[0].workers[1].seed);
    EXPECT_EQ(plan->workers[1].seed, *plan->effectiveProfile.hosts[0].workers[1].seed);
}

// Iometer's cycling runs: each cycling step is a step of its own, with only its workers
// and targets, at its depth; the Iometer CSV has one 'Access specifications block per
// spec and one 'Results block per step, told apart by # Workers, # Disks and Queue Depth.
TEST(RunCycling, OutstandingIosCycleRunsEveryDepthOfEverySpecWithIometersBlocks)
{
    auto profile = makeProfile(
        {makeSpec("A", 4096, 100, 100), makeSpec("B", 4096, 0, 100)}, {"A", "B"}, 2, 1);
    profile.setup.testType = TestType::CycleOutstandingIos;
    profile.setup.queueDepthCycling = {1, 2, 32, StepType::Exponential};
    NullBackend backend;
    NullCounterSource counters;
    PhaseRecordingSink sink;
    const RunResult r
        = BenchRun(profile, backend, counters, sink, {.ioLimitPerTarget = 50}).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(r.steps.size(), 12u);
    for (std::size_t s = 0; s < 12; ++s) {
        const auto &step = r.steps[s];
        EXPECT_EQ(step.stepName,
            (s < 6 ? "A" : "B") + std::string(", QD ") + std::to_string(1u << (s % 6)));
        EXPECT_EQ(step.scopes.size(), 4u) << "All, the worker and its two targets";
        EXPECT_EQ(step.scopes[0].figures.read.ios + step.scopes[0].figures.write.ios, 100u);
    }
    const std::string csv = writeIometerCsv(r, r.environment, RecordFilter::All);
    std::size_t specBlocks = 0, resultBlocks = 0, pos = 0;
    while ((pos = csv.find("'Access specifications\n", pos)) != std::string::npos)
        ++specBlocks, ++pos;
    pos = 0;
    while ((pos = csv.find("'Results\n", pos)) != std::string::npos)
        ++resultBlocks, ++pos;
    EXPECT_EQ(specBlocks, 2u);
    EXPECT_EQ(resultBlocks, 12u);
    EXPECT_TRUE(csv.starts_with("'Test Type,Test Description\n6,")) << csv.substr(0, 60);
    // The ALL rows: spec name, 1 manager, 1 worker, 2 disks, then the step's queue depth.
    const std::vector<std::string> header = [&] {
        std::vector<std::string> cols;
        const auto start = csv.find("'Target Type");
        std::string line = csv.substr(start, csv.find('\n', start) - start);
        for (std::size_t b = 0, e; b <= line.size(); b = e + 1) {
            e = std::min(line.find(',', b), line.size());
            cols.push_back(line.substr(b, e - b));
        }
        return cols;
    }();
    const auto column = [&](const std::string &name) {
        return std::size_t(std::find(header.begin(), header.end(), name) - header.begin());
    };
    std::vector<std::string> depths;
    for (pos = csv.find("\nALL,"); pos != std::string::npos; pos = csv.find("\nALL,", pos + 1)) {
        const std::string line = csv.substr(pos + 1, csv.find('\n', pos + 1) - pos - 1);
        std::vector<std::string> cells;
        for (std::size_t b = 0, e; b <= line.size(); b = e + 1) {
            e = std::min(line.find(',', b), line.size());
            cells.push_back(line.substr(b, e - b));
        }
        ASSERT_GT(cells.size(), column("Queue Depth"));
        EXPECT_EQ(cells[column("# Disks")], "2");
        depths.push_back(
            cells[column("Access Specification Name")] + "@" + cells[column("Queue Depth")]);
    }
    EXPECT_EQ(depths,
        (std::vector<std::string> {"A@1", "A@2", "A@4", "A@8", "A@16", "A@32", "B@1", "B@2", "B@4",
            "B@8", "B@16", "B@32"}));
}

TEST(RunCycling, TargetsNotInAStepAreNeitherOpenedNorReported)
{
    auto profile = makeProfile({makeSpec("A", 4096, 100, 100)}, {"A"}, 3, 2);
    profile.setup.testType = TestType::CycleTargets;
    profile.setup.targetCycling = {1, 1, 1, StepType::Linear};
    NullBackend backend;
    NullCounterSource counters;
    PhaseRecordingSink sink;
    const RunResult r
        = BenchRun(profile, backend, counters, sink, {.ioLimitPerTarget = 10}).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(r.steps.size(), 3u);
    for (std::size_t s = 0; s < 3; ++s) {
        EXPECT_EQ(r.steps[s].scopes.size(), 2 + (s + 1)) << "All, the worker, its targets";
        EXPECT_EQ(r.steps[s].scopes[0].figures.read.ios, 10 * (s + 1));
        EXPECT_EQ(r.steps[s].scopes.back().scope.target, int(s))
            << "a target scope names its index in the worker's targets";
    }
}
