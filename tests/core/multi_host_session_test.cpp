// SPDX-License-Identifier: GPL-3.0-or-later
// A run on three hosts as one session: each host a LocalRunSession in this process (and,
// in the loopback cases, behind a LoopbackRunSession, so that the session codec carries
// every event and result as it would from an agent), their steps started together by the
// barrier, and "All managers" checked exactly against the hosts' own results.
#include "core/null_engine.h"
#include "core/run/loopback_session.h"
#include "core/run/multi_host_session.h"
#include "core/stats/figures.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <future>
#include <gtest/gtest.h>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/session_doubles.h"
#include "tests/support/test_backend.h"
#include "tests/support/test_profiles.h"
#include "tests/support/test_support.h"

using namespace ioprism::core;
using namespace std::chrono_literals;

namespace {

// The null backend, but after `healthyEngines` engines (a first step's), each engine
// fails its `failAt`-th I/O with EIO: the host fails in the middle of a later step.
class FailingLaterBackend final : public IoBackend
{
public:
    FailingLaterBackend(int healthyEngines, std::uint64_t failAt)
        : m_healthy(healthyEngines)
        , m_failAt(failAt)
    { }
    std::string engineName() const override { return "null"; }
    std::vector<std::string> notices() const override { return {}; }
    bool reachesDevices() const override { return false; }
    Result<TargetInfo> prepareTarget(const Target &target, const PrepareOptions &options,
        const PrepareProgress &progress) override
    {
        return m_inner.prepareTarget(target, options, progress);
    }
    Result<std::unique_ptr<IoEngine>> makeEngine() override
    {
        if (m_made++ < m_healthy)
            return m_inner.makeEngine();
        return std::unique_ptr<IoEngine>(std::make_unique<ioprism::test::FailingEngine>(m_failAt));
    }

private:
    NullBackend m_inner;
    const int m_healthy;
    const std::uint64_t m_failAt;
    std::atomic<int> m_made {0};
};

// A host's hooks: the null engine (or, `healthyEngines` >= 0, one whose later engines
// fail an I/O).
LocalRunHooks hostHooks(const std::string &hostName, int healthyEngines = -1)
{
    LocalRunHooks hooks;
    hooks.makeBackend = [healthyEngines](EngineKind) -> std::unique_ptr<IoBackend> {
        if (healthyEngines >= 0)
            return std::make_unique<FailingLaterBackend>(healthyEngines, 300);
        return std::make_unique<NullBackend>();
    };
    hooks.describe.describeSystem = [hostName] {
        Environment e;
        e.hostName = hostName;
        e.toolVersion = "0.1.0";
        return e;
    };
    return hooks;
}

// A profile of three hosts ("a", "b", "c"), each two workers of two targets running two
// specs; each host's workers named after it, so that the merged plan shows who ran what.
Profile threeHostProfile(std::uint64_t seed = 11)
{
    Profile p = ioprism::test::twoWorkerProfile("three hosts", 20ms, seed);
    const Host model = p.hosts[0];
    p.hosts.clear();
    for (const char *name : {"a", "b", "c"}) {
        Host h = model;
        h.name = name;
        for (auto &w : h.workers)
            w.name = std::string(name) + "-" + w.name;
        p.hosts.push_back(h);
    }
    return p;
}

RunRequest requestFor(Profile profile, std::uint64_t iosPerTarget)
{
    RunRequest r;
    r.profile = std::move(profile);
    r.engine = EngineKind::Null;
    r.settings.runId = 77;
    r.settings.ioLimitPerTarget = iosPerTarget;
    r.settings.deviceTailLimit = 0ms;
    return r;
}

// What one host did, seen from inside it: its own result (before any merge or codec) and
// the start time its gate got for each step.
struct HostRecord {
    std::mutex mutex;
    std::optional<RunResult> result;
    std::vector<StepStart> starts;
};

// A LocalRunSession whose gate is the barrier's, recording what the host did.
struct RecordedHost final : RunSession {
    RecordedHost(LocalRunHooks hooks, RunSink &next, HostRecord &record, StepBarrier &barrier,
        std::size_t party)
        : keep(next, record)
        , local(gated(std::move(hooks), record, barrier, party), keep)
    { }
    static LocalRunHooks gated(
        LocalRunHooks hooks, HostRecord &record, StepBarrier &barrier, std::size_t party)
    {
        hooks.describe.stepGate = [&record, &barrier, party](std::size_t step) {
            const StepStart start = barrier.arriveAndWait(party, step);
            std::lock_guard lock(record.mutex);
            record.starts.push_back(start);
            return start;
        };
        return hooks;
    }
    void start(RunRequest r) override { local.start(std::move(r)); }
    void stop() override { local.stop(); }
    void stopNow() override { local.stopNow(); }
    void wait() override { local.wait(); }
    ioprism::test::KeepResult<HostRecord> keep;
    LocalRunSession local;
};

// Host `name` in this process, or behind the session codec (`loopback`).
HostSessionMaker recordedHost(
    std::string name, std::string agent, LocalRunHooks hooks, HostRecord &record, bool loopback)
{
    HostSessionMaker maker;
    maker.name = std::move(name);
    maker.agent = std::move(agent);
    maker.make = [hooks, &record, loopback](RunSink &sink, StepBarrier &barrier,
                     std::size_t party) -> std::unique_ptr<RunSession> {
        if (!loopback)
            return std::make_unique<RecordedHost>(hooks, sink, record, barrier, party);
        const RunSessionFactory farSide = [hooks, &record, &barrier, party](RunSink &relay) {
            return std::unique_ptr<RunSession>(
                std::make_unique<RecordedHost>(hooks, relay, record, barrier, party));
        };
        return std::make_unique<LoopbackRunSession>(farSide, sink);
    };
    return maker;
}

// What the merging session said, in order.
struct MergedLog final : RunSink {
    void onStarted(const std::string &) override
    {
        add([&] { ++started; });
    }
    void onPlan(const ResolvedPlan &p) override
    {
        add([&] { plans.push_back(p); });
    }
    void onInterval(const IntervalSample &s) override
    {
        add([&] { intervals.push_back(s); });
    }
    void onStepResult(const StepResult &s, const PlannedStep &) override
    {
        add([&] { steps.push_back(s); });
    }
    void onNotice(const std::string &t) override
    {
        add([&] { notices.push_back(t); });
    }
    void onPrepareProgress(
        const std::string &path, std::uint64_t, std::uint64_t, PrepareWork) override
    {
        add([&] { progressPaths.push_back(path); });
    }
    void onPhase(RunPhase p, std::size_t s, const std::string &) override
    {
        add([&] { phases.emplace_back(p, s); });
    }
    void onFinished(RunResult &&r) override
    {
        add([&] {
            ++finished;
            result = std::move(r);
        });
    }
    template<typename F> void add(F f)
    {
        std::lock_guard lock(mutex);
        f();
        changed.notify_all();
    }
    // Waits (generously) until `ready` holds.
    template<typename P> bool waitFor(P ready)
    {
        std::unique_lock lock(mutex);
        return changed.wait_for(lock, 60s, ready);
    }
    std::mutex mutex;
    std::condition_variable changed;
    int started = 0;
    int finished = 0;
    std::vector<ResolvedPlan> plans;
    std::vector<IntervalSample> intervals;
    std::vector<StepResult> steps;
    std::vector<std::string> notices;
    std::vector<std::string> progressPaths;
    std::vector<std::pair<RunPhase, std::size_t>> phases;
    RunResult result;
};

using ioprism::test::waitWithin;

const ScopeFigures &allOf(const IntervalSample &s)
{
    return s.scopes.front();
}

} // namespace

// Outside the anonymous namespace: the test classes TEST_P derives from it are not in it,
// and GCC refuses (-Wsubobject-linkage) such a base when the file is #included, as a
// unity batch includes it.
class MultiHost : public testing::TestWithParam<bool>
{
};

// Three hosts, one profile, exact I/O counts: All is the sum of the hosts' own results,
// its p99 the p99 of their histograms merged bucket by bucket, and every step started at
// the same barrier time on every host.
TEST_P(MultiHost, AllManagersIsExactlyTheHostsTogether)
{
    const bool loopback = GetParam();
    HostRecord records[3];
    std::vector<HostSessionMaker> hosts;
    const char *names[] = {"a", "b", "c"};
    for (int h = 0; h < 3; ++h)
        hosts.push_back(
            recordedHost(names[h], loopback ? std::string("10.0.0.") + char('1' + h) + ":7355" : "",
                hostHooks(std::string("machine-") + names[h]), records[h], loopback));
    MergedLog log;
    {
        MultiHostRunSession session(std::move(hosts), log, 20ms);
        session.start(requestFor(threeHostProfile(), 1500));
        waitWithin(session);
    }
    ASSERT_EQ(log.finished, 1);
    EXPECT_EQ(log.started, 1);
    const RunResult &m = log.result;
    ASSERT_FALSE(m.error) << m.error->toString();
    std::vector<RunResult> own;
    for (auto &r : records) {
        ASSERT_TRUE(r.result);
        ASSERT_FALSE(r.result->error) << r.result->error->toString();
        own.push_back(*r.result);
    }

    // Who ran what: each host its own host of the profile.
    ASSERT_EQ(m.hosts.size(), 3u);
    for (std::size_t h = 0; h < 3; ++h) {
        EXPECT_EQ(m.hosts[h].name, names[h]);
        EXPECT_EQ(m.hosts[h].environment.hostName, std::string("machine-") + names[h]);
        EXPECT_EQ(
            m.hosts[h].agent, loopback ? std::string("10.0.0.") + char('1' + h) + ":7355" : "");
        EXPECT_EQ(m.hosts[h].clockOffsetNs, 0) << "the same clock";
        ASSERT_EQ(own[h].plan.workers.size(), 2u);
        EXPECT_EQ(own[h].plan.workers[0].name, std::string(names[h]) + "-Worker 1");
    }
    ASSERT_EQ(m.plan.workers.size(), 6u);
    EXPECT_EQ(m.plan.workers[4].name, "c / c-Worker 1");
    ASSERT_EQ(log.plans.size(), 1u) << "the plan said once, merged";
    EXPECT_EQ(log.plans[0].workers.size(), 6u);

    ASSERT_EQ(m.steps.size(), 2u);
    for (std::size_t s = 0; s < 2; ++s) {
        const ScopeResult &all = m.steps[s].scopes.front();
        std::uint64_t ios = 0;
        double iops = 0;
        LatencyHistogram reads;
        std::uint64_t minNs = UINT64_MAX, maxNs = 0;
        for (const RunResult &r : own) {
            const ScopeResult &hostAll = r.steps[s].scopes.front();
            ios += hostAll.figures.total.ios;
            iops += hostAll.figures.total.iops;
            reads.merge(hostAll.measurement.read.histogram);
            minNs = std::min(minNs, hostAll.measurement.read.minNs);
            maxNs = std::max(maxNs, hostAll.measurement.read.maxNs);
        }
        EXPECT_EQ(ios, 3u * 2u * 2u * 1500u) << "3 hosts x 2 workers x 2 targets x the limit";
        EXPECT_EQ(all.figures.total.ios, ios) << "step " << s;
        EXPECT_EQ(all.figures.total.iops, iops) << "step " << s << ": the sum of the hosts'";
        ASSERT_GT(reads.count(), 0u);
        EXPECT_EQ(all.figures.read.latency.p99Us, latencyFigures(reads, minNs, maxNs).p99Us);
        EXPECT_EQ(all.measurement.read.histogram, reads) << "bucket by bucket";
        // Every host's step started at the one time the barrier gave.
        std::lock_guard lock(records[0].mutex);
        ASSERT_EQ(records[0].starts.size(), 2u);
        ASSERT_TRUE(records[0].starts[s]);
        for (std::size_t h = 1; h < 3; ++h) {
            std::lock_guard other(records[h].mutex);
            ASSERT_EQ(records[h].starts.size(), 2u);
            EXPECT_EQ(records[h].starts[s], records[0].starts[s]) << "host " << h << " step " << s;
        }
    }

    // What was said live is what the result keeps: the same merged steps and intervals.
    ASSERT_EQ(log.steps.size(), 2u);
    EXPECT_TRUE(log.steps[0] == m.steps[0]);
    EXPECT_TRUE(log.steps[1] == m.steps[1]);
    ASSERT_EQ(log.intervals.size(), m.intervals.size());
    for (std::size_t i = 0; i < m.intervals.size(); ++i)
        EXPECT_TRUE(log.intervals[i] == m.intervals[i]) << "interval " << i;
    // Each interval of a step adds the hosts' k-th: together, every I/O of the step.
    for (std::size_t s = 0; s < 2; ++s) {
        std::uint64_t merged = 0, hostsTotal = 0;
        for (const auto &sample : log.intervals)
            if (sample.step == s)
                merged += allOf(sample).figures.total.ios;
        for (const RunResult &r : own)
            for (const auto &sample : r.intervals)
                if (sample.step == s)
                    hostsTotal += allOf(sample).figures.total.ios;
        EXPECT_EQ(merged, hostsTotal) << "step " << s << ": no interval left out";
    }
    // Phases in order, each once; Done last.
    ASSERT_FALSE(log.phases.empty());
    EXPECT_EQ(log.phases.back().first, RunPhase::Done);
    for (std::size_t i = 1; i + 1 < log.phases.size(); ++i)
        EXPECT_TRUE(log.phases[i - 1].second < log.phases[i].second
            || (log.phases[i - 1].second == log.phases[i].second
                && int(log.phases[i - 1].first) < int(log.phases[i].first)))
            << "phase " << i;
}

// Host c's device fails an I/O in the second step: the others are stopped, the result
// names c and keeps what every host measured (the first step whole).
TEST_P(MultiHost, AFailingHostStopsTheOthersAndIsNamed)
{
    const bool loopback = GetParam();
    HostRecord records[3];
    std::vector<HostSessionMaker> hosts;
    hosts.push_back(recordedHost("a", "", hostHooks("machine-a"), records[0], loopback));
    hosts.push_back(recordedHost("b", "", hostHooks("machine-b"), records[1], loopback));
    // Two workers: the first step's two engines are healthy, the second step's are not.
    hosts.push_back(recordedHost(
        "c", loopback ? "10.0.0.3:7355" : "", hostHooks("machine-c", 2), records[2], loopback));
    MergedLog log;
    {
        MultiHostRunSession session(std::move(hosts), log, 20ms);
        session.start(requestFor(threeHostProfile(), 1000));
        waitWithin(session);
    }
    ASSERT_EQ(log.finished, 1);
    const RunResult &m = log.result;
    ASSERT_TRUE(m.error);
    const std::string named = loopback ? "host c (10.0.0.3:7355): " : "host c: ";
    EXPECT_EQ(m.error->toString().rfind(named, 0), 0u) << m.error->toString();
    EXPECT_NE(m.error->toString().find(std::error_code(5, std::system_category()).message()),
        std::string::npos)
        << m.error->toString();
    std::uint64_t ios[2] = {0, 0};
    for (std::size_t h = 0; h < 3; ++h) {
        std::lock_guard lock(records[h].mutex);
        ASSERT_TRUE(records[h].result);
        const RunResult &own = *records[h].result;
        // Every host was released into the second step at the same time; a host that
        // woke for it only after c had failed and it had been stopped did not start it.
        ASSERT_GE(own.steps.size(), h == 2 ? 2u : 1u) << "host " << h;
        ASSERT_LE(own.steps.size(), 2u) << "host " << h;
        for (std::size_t s = 0; s < own.steps.size(); ++s)
            ios[s] += own.steps[s].scopes.front().figures.total.ios;
        ASSERT_EQ(records[h].starts.size(), 2u);
        EXPECT_EQ(records[h].starts[1], records[0].starts[1]);
        if (h < 2) {
            EXPECT_FALSE(own.error) << "host " << h;
        }
    }
    EXPECT_FALSE(records[2].result->steps[1].complete);
    // Everything measured is kept, exactly: the first step whole, the second as far as
    // each host got.
    ASSERT_EQ(m.steps.size(), 2u);
    EXPECT_TRUE(m.steps[0].complete);
    EXPECT_EQ(m.steps[0].scopes.front().figures.total.ios, 3u * 4u * 1000u);
    EXPECT_EQ(ios[0], 3u * 4u * 1000u);
    EXPECT_FALSE(m.steps[1].complete);
    EXPECT_EQ(m.steps[1].scopes.front().figures.total.ios, ios[1]);
    ASSERT_EQ(m.hosts.size(), 3u);
    ASSERT_EQ(log.steps.size(), 2u);
    EXPECT_TRUE(log.steps[0] == m.steps[0]);
    EXPECT_TRUE(log.steps[1] == m.steps[1]);
}

// A host that fails before its first step (its profile names a spec it does not define:
// refused when planned, or already when the request is read on the far side) stops the
// others at the first gate: nothing measured, the host named.
TEST_P(MultiHost, AHostRefusedAtPreparationStopsTheOthersBeforeAnyStep)
{
    const bool loopback = GetParam();
    HostRecord records[3];
    std::vector<HostSessionMaker> hosts;
    for (const char *name : {"a", "b", "c"})
        hosts.push_back(
            recordedHost(name, "", hostHooks(name), records[std::size_t(name[0] - 'a')], loopback));
    Profile profile = threeHostProfile();
    profile.hosts[1].workers[0].assignedSpecs = {"no such spec"};
    MergedLog log;
    {
        MultiHostRunSession session(std::move(hosts), log, 20ms);
        session.start(requestFor(profile, 1000));
        waitWithin(session);
    }
    ASSERT_EQ(log.finished, 1);
    ASSERT_TRUE(log.result.error);
    EXPECT_EQ(log.result.error->toString().rfind("host b: ", 0), 0u)
        << log.result.error->toString();
    EXPECT_TRUE(log.result.steps.empty());
    for (std::size_t h : {0u, 2u}) {
        std::lock_guard lock(records[h].mutex);
        ASSERT_TRUE(records[h].result);
        EXPECT_FALSE(records[h].result->error);
        EXPECT_TRUE(records[h].result->stoppedByUser);
        EXPECT_TRUE(records[h].result->steps.empty());
    }
}

TEST_P(MultiHost, StopEndsEveryHostPromptly)
{
    const bool loopback = GetParam();
    HostRecord records[3];
    std::vector<HostSessionMaker> hosts;
    for (const char *name : {"a", "b", "c"})
        hosts.push_back(
            recordedHost(name, "", hostHooks(name), records[std::size_t(name[0] - 'a')], loopback));
    MergedLog log;
    MultiHostRunSession session(std::move(hosts), log, 20ms);
    session.start(requestFor(threeHostProfile(), 0)); // no limit, no run time: until stopped
    ASSERT_TRUE(log.waitFor([&] { return log.intervals.size() >= 2; }));
    session.stop();
    waitWithin(session);
    ASSERT_EQ(log.finished, 1);
    EXPECT_FALSE(log.result.error) << log.result.error->toString();
    EXPECT_TRUE(log.result.stoppedByUser);
    ASSERT_EQ(log.result.steps.size(), 1u);
    EXPECT_FALSE(log.result.steps[0].complete);
    EXPECT_GT(log.result.steps[0].scopes.front().figures.total.ios, 0u);
    for (auto &r : records) {
        std::lock_guard lock(r.mutex);
        ASSERT_TRUE(r.result);
        EXPECT_TRUE(r.result->stoppedByUser);
    }
}

TEST_P(MultiHost, AProfileOfAnotherNumberOfHostsIsRefusedNamingBoth)
{
    const bool loopback = GetParam();
    HostRecord records[3];
    std::vector<HostSessionMaker> hosts;
    for (const char *name : {"a", "b", "c"})
        hosts.push_back(
            recordedHost(name, "", hostHooks(name), records[std::size_t(name[0] - 'a')], loopback));
    Profile profile = threeHostProfile();
    profile.hosts.pop_back();
    MergedLog log;
    {
        MultiHostRunSession session(std::move(hosts), log);
        session.start(requestFor(profile, 100));
        waitWithin(session);
    }
    ASSERT_EQ(log.finished, 1);
    ASSERT_TRUE(log.result.error);
    EXPECT_NE(log.result.error->toString().find("2 hosts for 3 managers"), std::string::npos)
        << log.result.error->toString();
    for (auto &r : records)
        EXPECT_FALSE(r.result) << "no host ran";
}

INSTANTIATE_TEST_SUITE_P(InThisProcessAndThroughTheCodec, MultiHost, testing::Bool(),
    [](const testing::TestParamInfo<bool> &info) { return info.param ? "Loopback" : "Local"; });

// One host of the profile, run by every session: the same workload on every manager.
TEST(MultiHostSession, AProfileOfOneHostRunsOnEveryManager)
{
    std::vector<HostSessionMaker> hosts;
    for (const char *name : {"a", "b", "c"})
        hosts.push_back(localHost(name, hostHooks(name)));
    MergedLog log;
    {
        MultiHostRunSession session(std::move(hosts), log, 10ms);
        session.start(requestFor(ioprism::test::twoWorkerProfile("shared", 20ms, 5, 1), 500));
        waitWithin(session);
    }
    ASSERT_FALSE(log.result.error) << log.result.error->toString();
    ASSERT_EQ(log.result.steps.size(), 1u);
    EXPECT_EQ(log.result.steps[0].scopes.front().figures.total.ios, 3u * 4u * 500u);
    ASSERT_EQ(log.result.hosts.size(), 3u);
    EXPECT_EQ(log.result.plan.workers[2].name, "b / Worker 1");
    // Notices and progress name their host.
    for (const auto &path : log.progressPaths)
        EXPECT_TRUE(path.starts_with("a:") || path.starts_with("b:") || path.starts_with("c:"))
            << path;
}

// Preconditioning on a run of one manager (a --manager, or MPI with one rank): its phase
// is passed on before the first step's, whose own phases follow (a drain of the
// preconditioning that read as step 1's end would have hidden them), and the result keeps
// it as that host's run had it.
TEST(MultiHostSession, PreconditioningOnOneManagerComesBeforeTheFirstStepsPhases)
{
    std::vector<HostSessionMaker> hosts;
    hosts.push_back(localHost("a", hostHooks("a")));
    MergedLog log;
    Profile profile = ioprism::test::twoWorkerProfile("preconditioned", 20ms, 5, 1);
    profile.setup.precondition = PreconditionSetup {};
    {
        MultiHostRunSession session(std::move(hosts), log, 10ms);
        session.start(requestFor(profile, 500));
        waitWithin(session);
    }
    ASSERT_FALSE(log.result.error) << log.result.error->toString();
    ASSERT_TRUE(log.result.preconditioning);
    EXPECT_EQ(log.result.preconditioning->step.scopes.front().figures.write.bytes, 4 * 32 * kMiB);
    ASSERT_EQ(log.result.steps.size(), 1u);
    EXPECT_EQ(log.result.steps[0].scopes.front().figures.total.ios, 4u * 500u);
    std::vector<RunPhase> phases;
    for (const auto &[phase, step] : log.phases)
        phases.push_back(phase);
    const auto at = [&](RunPhase p) { return std::find(phases.begin(), phases.end(), p); };
    ASSERT_NE(at(RunPhase::Preconditioning), phases.end());
    ASSERT_NE(at(RunPhase::Measuring), phases.end()) << "the first step's phases are passed on";
    EXPECT_LT(at(RunPhase::Preconditioning), at(RunPhase::Measuring));
}

// A backend whose targets take a while to prepare (`prepareDelay` each), counting them,
// or refusing them (`refuse`): the first host of a shared file.
class SlowPreparingBackend final : public IoBackend
{
public:
    SlowPreparingBackend(
        std::atomic<int> &prepared, std::chrono::milliseconds prepareDelay, bool refuse)
        : m_prepared(prepared)
        , m_delay(prepareDelay)
        , m_refuse(refuse)
    { }
    std::string engineName() const override { return "null"; }
    std::vector<std::string> notices() const override { return {}; }
    bool reachesDevices() const override { return false; }
    Result<TargetInfo> prepareTarget(const Target &target, const PrepareOptions &options,
        const PrepareProgress &progress) override
    {
        std::this_thread::sleep_for(m_delay);
        if (m_refuse)
            return OpError {std::make_error_code(std::errc::no_space_on_device), "create",
                target.path, "no room for the shared file"};
        auto info = m_inner.prepareTarget(target, options, progress);
        ++m_prepared;
        return info;
    }
    Result<std::unique_ptr<IoEngine>> makeEngine() override { return m_inner.makeEngine(); }

private:
    NullBackend m_inner;
    std::atomic<int> &m_prepared;
    const std::chrono::milliseconds m_delay;
    const bool m_refuse;
};

// Hosts a, b and c on one shared file: a prepares first (SlowPreparingBackend: each
// target `prepareDelay`, or refused), and `onLaterStart` is called as b and c start (make
// their backend). The run's merged log.
void runSharedFile(std::atomic<int> &prepared, std::chrono::milliseconds prepareDelay, bool refuse,
    const std::function<void()> &onLaterStart, MergedLog &log)
{
    std::vector<HostSessionMaker> hosts;
    LocalRunHooks first = hostHooks("a");
    first.makeBackend
        = [&prepared, prepareDelay, refuse](EngineKind) -> std::unique_ptr<IoBackend> {
        return std::make_unique<SlowPreparingBackend>(prepared, prepareDelay, refuse);
    };
    hosts.push_back(localHost("a", first));
    hosts.back().preparesFirst = true;
    for (const char *name : {"b", "c"}) {
        LocalRunHooks later = hostHooks(name);
        later.makeBackend = [&onLaterStart](EngineKind) -> std::unique_ptr<IoBackend> {
            onLaterStart();
            return std::make_unique<NullBackend>();
        };
        hosts.push_back(localHost(name, later));
    }
    MultiHostRunSession session(std::move(hosts), log, 10ms);
    session.start(requestFor(ioprism::test::twoWorkerProfile("shared", 20ms, 5, 1), 500));
    waitWithin(session);
}

// MPI's --shared-file: the first host prepares the file the hosts share before any other
// host starts. Host a's four targets take 100 ms each to prepare; hosts b and c must not
// start (make their backend) before all four are prepared, and then run with a.
TEST(MultiHostSession, AHostThatPreparesFirstRunsAloneUntilItsPlanIsIn)
{
    std::atomic<int> prepared {0};
    std::atomic<int> startedEarly {0}, started {0};
    MergedLog log;
    runSharedFile(
        prepared, 100ms, false,
        [&] {
            ++started;
            if (prepared.load() < 4)
                ++startedEarly;
        },
        log);
    ASSERT_FALSE(log.result.error) << log.result.error->toString();
    EXPECT_EQ(started.load(), 2) << "b and c ran";
    EXPECT_EQ(startedEarly.load(), 0) << "neither started before a's targets were prepared";
    ASSERT_EQ(log.result.steps.size(), 1u);
    EXPECT_EQ(log.result.steps[0].scopes.front().figures.total.ios, 3u * 4u * 500u);
}

// The first host cannot prepare the shared file: the others never start, and the run
// ends at once with its error, naming it.
TEST(MultiHostSession, WhenTheHostThatPreparesFirstFailsTheOthersNeverStart)
{
    std::atomic<int> prepared {0};
    std::atomic<int> started {0};
    MergedLog log;
    runSharedFile(
        prepared, 0ms, true, [&] { ++started; }, log);
    ASSERT_EQ(log.finished, 1);
    ASSERT_TRUE(log.result.error);
    EXPECT_EQ(log.result.error->toString().rfind("host a: ", 0), 0u)
        << log.result.error->toString();
    EXPECT_NE(log.result.error->toString().find("no room for the shared file"), std::string::npos);
    EXPECT_EQ(started.load(), 0);
    EXPECT_TRUE(log.result.steps.empty());
}

// A manager given no name takes its host's name in the profile: the live rows have it
// before any host's result is in, and the result keeps the same.
TEST(MultiHostSession, UnnamedManagersTakeTheProfilesHostNames)
{
    std::vector<HostSessionMaker> hosts;
    for (const char *machine : {"m1", "m2", "m3"})
        hosts.push_back(localHost("", hostHooks(machine)));
    MergedLog log;
    {
        MultiHostRunSession session(std::move(hosts), log, 10ms);
        session.start(requestFor(threeHostProfile(), 200));
        waitWithin(session);
    }
    ASSERT_FALSE(log.result.error) << log.result.error->toString();
    ASSERT_EQ(log.result.hosts.size(), 3u);
    EXPECT_EQ(log.result.hosts[1].name, "b");
    EXPECT_EQ(log.result.hosts[1].environment.hostName, "m2");
    ASSERT_FALSE(log.intervals.empty());
    ASSERT_GE(log.intervals.front().scopes.size(), 2u);
    EXPECT_EQ(log.intervals.front().scopes[1].scope.label, "a") << "a live row, named";
}
