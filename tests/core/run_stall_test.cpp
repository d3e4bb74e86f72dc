// SPDX-License-Identifier: GPL-3.0-or-later
// A device that stops completing I/O: the run reports the stall while it goes, counts the
// age of what is still in flight in the latency maximum, stops waiting at its deadline
// (or at once when asked twice), and names the stuck I/O in the result.
#include "core/null_engine.h"
#include "core/run/run.h"
#include "support/test_backend.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <gtest/gtest.h>
#include <mutex>
#include <thread>

using namespace ioprism::core;
using namespace std::chrono_literals;
using BenchRun = ioprism::core::Run;

namespace {

// The device's side: it completes nothing until released. The test releases it at the
// end so the workers the run left behind can finish and end.
struct Device {
    std::mutex mutex;
    std::condition_variable changed;
    bool released = false; // guarded by mutex
    std::atomic<int> enginesAlive {0};

    void release()
    {
        std::lock_guard lock(mutex);
        released = true;
        changed.notify_all();
    }
    // Waits until every engine made is gone (its worker ended), for a clean exit.
    bool waitForEnginesGone(std::chrono::seconds limit)
    {
        const auto end = std::chrono::steady_clock::now() + limit;
        while (enginesAlive > 0 && std::chrono::steady_clock::now() < end)
            std::this_thread::sleep_for(10ms);
        return enginesAlive == 0;
    }
};

// Accepts I/O and completes none of it while the device is not released.
class StuckEngine final : public IoEngine
{
public:
    explicit StuckEngine(Device &d)
        : m_device(d)
    {
        ++m_device.enginesAlive;
    }
    ~StuckEngine() override { --m_device.enginesAlive; }
    std::string_view name() const override { return "stuck"; }
    EngineCapabilities capabilities() const override { return m_inner.capabilities(); }
    Status init(const EngineConfig &c, std::span<const EngineFile> f) override
    {
        return m_inner.init(c, f);
    }
    std::span<std::byte> buffer(std::uint32_t i) override { return m_inner.buffer(i); }
    Status openFile(std::uint32_t index, const EngineFile &file) override
    {
        return m_inner.openFile(index, file);
    }
    Status closeFile(std::uint32_t index) override { return m_inner.closeFile(index); }
    bool queue(IoRequest *r) override { return m_inner.queue(r); }
    Status commit() override { return m_inner.commit(); }
    Result<std::uint32_t> reap(
        std::span<IoRequest *> out, std::uint32_t min, std::chrono::nanoseconds timeout) override
    {
        std::unique_lock lock(m_device.mutex);
        if (!m_device.changed.wait_for(lock, timeout, [&] { return m_device.released; }))
            return 0u;
        lock.unlock();
        return m_inner.reap(out, min, timeout);
    }

private:
    Device &m_device;
    NullEngine m_inner;
};

class StuckBackend final : public IoBackend
{
public:
    explicit StuckBackend(Device &d)
        : m_device(d)
    { }
    std::string engineName() const override { return "stuck"; }
    std::vector<std::string> notices() const override { return {}; }
    Result<TargetInfo> prepareTarget(
        const Target &t, const PrepareOptions &, const PrepareProgress &) override
    {
        TargetInfo info;
        info.path = t.path;
        info.sizeBytes = t.testFileSizeBytes;
        return info;
    }
    Result<std::unique_ptr<IoEngine>> makeEngine() override
    {
        return std::unique_ptr<IoEngine>(std::make_unique<StuckEngine>(m_device));
    }

private:
    Device &m_device;
};

struct RecordingSink : RunSink {
    std::mutex mutex;
    std::vector<IntervalSample> samples;
    std::vector<std::string> notices;
    void onNotice(const std::string &text) override
    {
        std::lock_guard lock(mutex);
        notices.push_back(text);
    }
    void onInterval(const IntervalSample &s) override
    {
        std::lock_guard lock(mutex);
        samples.push_back(s);
    }
};

Profile stuckProfile(std::uint32_t qd, std::chrono::milliseconds runTime)
{
    Profile p;
    p.setup.runTime = std::chrono::duration_cast<std::chrono::seconds>(runTime);
    p.setup.interval = 100ms;
    AccessSpec spec;
    spec.name = "4K write";
    SpecLine line;
    line.transferSizeBytes = 4096;
    line.percentRead = 0;
    line.percentRandom = 100;
    spec.lines.push_back(line);
    p.specs.push_back(spec);
    Host h;
    Worker w;
    w.name = "Worker 1";
    w.outstandingIos = qd;
    w.assignedSpecs = {"4K write"};
    Target t;
    t.path = "stuck-target";
    t.testFileSizeBytes = 64 * kMiB;
    w.targets.push_back(t);
    h.workers.push_back(w);
    p.hosts.push_back(h);
    return p;
}

} // namespace

TEST(RunStall, StuckIoIsReportedCountedInTheMaximumAndNamedAtTheEnd)
{
    Device device;
    StuckBackend backend(device);
    NullCounterSource counters;
    RecordingSink sink;
    RunSettings options;
    options.stallThreshold = 200ms;
    options.stopTimeout = 300ms;
    BenchRun run(stuckProfile(8, 1000ms), backend, counters, sink, options);
    const RunResult r = run.execute();

    // While it went: intervals past the threshold say how many I/Os are stalled, and a
    // notice said so once.
    const auto stalled = std::count_if(r.intervals.begin(), r.intervals.end(),
        [](const IntervalSample &s) { return s.scopes[0].figures.total.stalledIos == 8; });
    EXPECT_GE(stalled, 1);
    const auto said = std::count_if(sink.notices.begin(), sink.notices.end(),
        [](const std::string &n) { return n.find("8 I/Os in flight for more than 0.2 s") == 0; });
    EXPECT_EQ(said, 1) << "the stall is said once while it lasts";
    // The last interval: nothing completed, yet its maximum latency is the I/Os' age.
    const auto &last = r.intervals.back().scopes[0].figures;
    EXPECT_EQ(last.total.ios, 0u);
    EXPECT_GE(last.write.latency.maxUs, 900'000.0);
    EXPECT_GE(last.write.oldestInFlightUs, 900'000.0);
    // The step's maximum includes it too: an honest 1 s, not the 0 of no completion.
    ASSERT_EQ(r.steps.size(), 1u);
    EXPECT_GE(r.steps[0].scopes[0].figures.total.latency.maxUs, 900'000.0);
    EXPECT_EQ(r.steps[0].scopes[0].figures.total.stalledIos, 8u) << "8 I/Os, however many spans";

    // At the end: the run stopped waiting at its deadline and named what is stuck.
    ASSERT_TRUE(r.stuckIo.has_value());
    EXPECT_EQ(r.stuckIo->ios, 8u);
    EXPECT_GE(r.stuckIo->oldestSeconds, 1.0);
    EXPECT_EQ(r.stuckIo->targets, std::vector<std::string> {"stuck-target"});
    ASSERT_TRUE(r.error.has_value());
    EXPECT_EQ(r.error->code, std::errc::timed_out);
    EXPECT_NE(r.error->detail.find("8 I/Os not completed by the device within the stop deadline"),
        std::string::npos)
        << r.error->toString();
    EXPECT_TRUE(std::any_of(r.notices.begin(), r.notices.end(), [](const std::string &n) {
        return n.find("8 I/Os still in flight at the end of step \"4K write\"") == 0;
    }));

    device.release();
    EXPECT_TRUE(device.waitForEnginesGone(60s)) << "the workers left behind end when it frees";
}

TEST(RunStall, AskedTwiceTheRunStopsWaitingAtOnce)
{
    Device device;
    StuckBackend backend(device);
    NullCounterSource counters;
    RecordingSink sink;
    RunSettings options;
    options.stopTimeout = std::chrono::hours(1); // only the second request can end the wait
    BenchRun run(stuckProfile(4, 0ms), backend, counters, sink, options);
    std::thread stopper([&] {
        // Stop once a sample has shown the I/O in flight, then again.
        for (;;) {
            {
                std::lock_guard lock(sink.mutex);
                if (!sink.samples.empty())
                    break;
            }
            std::this_thread::sleep_for(10ms);
        }
        run.requestStop();
        std::this_thread::sleep_for(200ms);
        run.requestStopNow();
    });
    const RunResult r = run.execute();
    stopper.join();
    EXPECT_TRUE(r.stoppedByUser);
    EXPECT_FALSE(r.error.has_value()) << "the user chose to stop: no error";
    ASSERT_TRUE(r.stuckIo.has_value());
    EXPECT_EQ(r.stuckIo->ios, 4u);
    ASSERT_EQ(r.steps.size(), 1u);
    device.release();
    EXPECT_TRUE(device.waitForEnginesGone(60s));
}

namespace {

// Stops the run at the first report of pre-initialisation (on the control thread).
struct StopAtPreInitRecorder : RecordingSink {
    BenchRun *run = nullptr;
    void onPrepareProgress(
        const std::string &, std::uint64_t, std::uint64_t, PrepareWork work) override
    {
        if (work == PrepareWork::PreInitialising && run)
            run->requestStop();
    }
};

} // namespace

// Seen before: a stop during a tree's pre-initialisation waited for every operation, and
// a device that completed nothing held the run until a second stop. Now the stop
// deadline applies as at a step's end: the stuck I/O is named and the run ends.
TEST(RunStall, AStopDuringPreInitialisationWaitsForInFlightIoOnlyUntilTheStopDeadline)
{
    Device device;
    StuckBackend backend(device);
    NullCounterSource counters;
    StopAtPreInitRecorder sink;
    RunSettings options;
    options.stopTimeout = 300ms;
    Profile profile = stuckProfile(8, 1000ms);
    Target &t = profile.hosts[0].workers[0].targets[0];
    t.kind = TargetKind::FileTree;
    t.path = "stuck-tree";
    t.tree = FileTree {.depth = 2, .filesPerLevel = 2, .fileSizeBytes = 1 * kMiB};
    t.tree.preInitOperations = 1000;
    BenchRun run(profile, backend, counters, sink, options);
    sink.run = &run;
    // Only if the deadline were ignored: end the wait so the test fails instead of hanging.
    std::mutex m;
    std::condition_variable cv;
    bool ended = false;
    std::thread watchdog([&] {
        std::unique_lock lock(m);
        if (!cv.wait_for(lock, 60s, [&] { return ended; }))
            run.requestStopNow();
    });
    const RunResult r = run.execute();
    {
        std::lock_guard lock(m);
        ended = true;
        cv.notify_all();
    }
    watchdog.join();
    EXPECT_TRUE(r.steps.empty()) << "no step starts after a stop";
    ASSERT_TRUE(r.stuckIo.has_value()) << "the pre-initialisation's stuck I/O is named";
    EXPECT_EQ(r.stuckIo->ios, 8u);
    EXPECT_EQ(r.stuckIo->targets, std::vector<std::string> {"stuck-tree"});
    ASSERT_TRUE(r.error.has_value()) << "as at a step's end: the device did not complete";
    EXPECT_EQ(r.error->code, std::errc::timed_out);
    EXPECT_NE(r.error->detail.find("within the stop deadline of 0.3 s"), std::string::npos)
        << r.error->toString();
    device.release();
    EXPECT_TRUE(device.waitForEnginesGone(60s));
}

TEST(RunStall, IoThatCompletesIsNeverReportedStuck)
{
    ioprism::test::TestBackend backend;
    NullCounterSource counters;
    RecordingSink sink;
    RunSettings options;
    options.ioLimitPerTarget = 2000;
    options.stallThreshold = 1ms;
    BenchRun run(stuckProfile(8, 0ms), backend, counters, sink, options);
    const RunResult r = run.execute();
    EXPECT_FALSE(r.error.has_value()) << r.error->toString();
    EXPECT_FALSE(r.stuckIo.has_value());
    ASSERT_EQ(r.steps.size(), 1u);
    EXPECT_EQ(r.steps[0].scopes[0].figures.write.ios, 2000u);
}
