// SPDX-License-Identifier: GPL-3.0-or-later
// The sampler and the write-back tail on a fake clock: live counters bumped by the test
// (as a worker would), a scripted CounterSource, and time points chosen by the test, so
// interval boundaries, deltas, phases and the write balance are exact.
#include "core/run/device_tail.h"
#include "core/run/sampler.h"

#include <deque>
#include <gtest/gtest.h>

using namespace ioprism::core;
using namespace std::chrono_literals;
using Clock = Sampler::Clock;

namespace {

// The worker's side: one I/O of `bytes` that took `latencyNs`.
void complete(LiveTargetCounters &live, IoDirection d, std::uint64_t bytes, std::uint64_t latencyNs)
{
    live.direction(d).histogram.record(latencyNs);
    live.direction(d).bytes.add(bytes);
    live.transactions.add(1);
}

// One target device ("dev0", in the total). Each sample() adds the next scripted step
// to the cumulative counters; with no script left, the device stays still.
class FakeDevice final : public CounterSource
{
public:
    struct Step {
        std::uint64_t readBytes = 0;
        std::uint64_t writeBytes = 0;
        std::uint64_t inFlight = 0;
    };
    std::deque<Step> script;
    int samples = 0;

    static DeviceMap map()
    {
        DeviceMap m;
        m.devices = {{"dev0", DeviceRole::Target, "", true}};
        m.targets = {{"t0", 0, ""}};
        return m;
    }
    DeviceMap watchTargets(const std::vector<std::string> &) override { return map(); }
    CounterSnapshot sample() override
    {
        ++samples;
        Step s;
        if (!script.empty()) {
            s = script.front();
            script.pop_front();
        }
        m_counters.readSectors += s.readBytes / 512;
        m_counters.readIos += s.readBytes / 4096;
        m_counters.writeSectors += s.writeBytes / 512;
        m_counters.writeIos += s.writeBytes / 4096;
        m_counters.inFlight = s.inFlight;
        m_counters.fieldCount = 17;
        CounterSnapshot snap;
        snap.disks = {{true, m_counters}};
        return snap;
    }

private:
    DiskCounters m_counters;
};

struct TargetCountersFixture {
    // Worker 0 has targets a and b; worker 3 (plan index) has target c.
    LiveTargetCounters a, b, c;
    Clock::time_point start = Clock::time_point(1000s);

    Sampler::Config config(bool compared = false)
    {
        Sampler::Config cfg;
        cfg.runId = 7;
        cfg.step = 2;
        cfg.stepName = "4K";
        cfg.workers = {{0, "Worker 1", {{"a", &a, compared, 0}, {"b", &b, false, 1}}},
            {3, "Worker 2", {{"c", &c, false}}}};
        cfg.runStart = start - 5s;
        cfg.stallThreshold = 1s;
        if (compared)
            cfg.deviceMap = FakeDevice::map();
        return cfg;
    }
};

const ScopeFigures &scope(const IntervalSample &s, std::size_t i)
{
    return s.scopes.at(i);
}

} // namespace

TEST(Sampler, ScopesAreAllThenEachWorkerFollowedByItsTargets)
{
    TargetCountersFixture f;
    NullCounterSource counters;
    Sampler sampler(f.config(), counters, {}, f.start);
    const auto &scopes = sampler.scopes();
    ASSERT_EQ(scopes.size(), 6u);
    EXPECT_EQ(scopes[0].kind, Scope::Kind::All);
    EXPECT_EQ(scopes[1].label, "Worker 1");
    EXPECT_EQ(scopes[2].label, "Worker 1 / a");
    EXPECT_EQ(scopes[2].target, 0);
    EXPECT_EQ(scopes[3].targetPath, "b");
    EXPECT_EQ(scopes[4].worker, 3);
    EXPECT_EQ(scopes[5].label, "Worker 2 / c");
}

TEST(Sampler, EachTickIsTheDeltaSinceTheLastBoundaryAndScopesAddUp)
{
    TargetCountersFixture f;
    NullCounterSource counters;
    Sampler sampler(f.config(), counters, {}, f.start);
    for (int i = 0; i < 10; ++i)
        complete(f.a, IoDirection::Read, 4096, 100'000);
    for (int i = 0; i < 5; ++i)
        complete(f.b, IoDirection::Write, 8192, 300'000);
    complete(f.c, IoDirection::Read, 4096, 2'000'000);

    const IntervalSample first = sampler.tick(f.start + 100ms, RunPhase::Measuring);
    EXPECT_EQ(first.runId, 7u);
    EXPECT_EQ(first.step, 2u);
    EXPECT_DOUBLE_EQ(first.startSeconds, 5.0);
    EXPECT_DOUBLE_EQ(first.endSeconds, 5.1);
    EXPECT_EQ(scope(first, 2).figures.read.ios, 10u);
    EXPECT_EQ(scope(first, 3).figures.write.bytes, 5u * 8192);
    EXPECT_EQ(scope(first, 1).figures.total.ios, 15u) << "a worker is the sum of its targets";
    EXPECT_EQ(scope(first, 4).figures.total.ios, 1u);
    EXPECT_EQ(scope(first, 0).figures.total.ios, 16u) << "All is every target";
    EXPECT_NEAR(scope(first, 0).figures.total.iops, 160.0, 1e-9);
    EXPECT_NEAR(scope(first, 0).figures.total.latency.maxUs, 2000.0, 1e-9);

    // The next interval counts only what came after the first boundary; a target that
    // did nothing (its worker ended mid-interval, say) is there with zeros.
    complete(f.a, IoDirection::Read, 4096, 100'000);
    const IntervalSample second = sampler.tick(f.start + 250ms, RunPhase::Measuring);
    EXPECT_DOUBLE_EQ(second.startSeconds, 5.1);
    EXPECT_DOUBLE_EQ(second.endSeconds, 5.25);
    EXPECT_EQ(scope(second, 2).figures.read.ios, 1u);
    EXPECT_EQ(scope(second, 5).figures.total.ios, 0u);
    EXPECT_EQ(scope(second, 5).figures.total.latency.maxUs, 0.0);
    EXPECT_NEAR(scope(second, 0).figures.total.iops, 1 / 0.15, 1e-9);
    EXPECT_NEAR(scope(second, 0).figures.total.latency.maxUs, 100.0, 1e-9)
        << "the extremes are the interval's own";
}

TEST(Sampler, EachIntervalKeepsTheAllScopesLatencyHistogramsOfThatIntervalOnly)
{
    TargetCountersFixture f;
    NullCounterSource counters;
    Sampler sampler(f.config(), counters, {}, f.start);
    for (int i = 0; i < 10; ++i)
        complete(f.a, IoDirection::Read, 4096, 100'000);
    complete(f.c, IoDirection::Read, 4096, 2'000'000);
    for (int i = 0; i < 5; ++i)
        complete(f.b, IoDirection::Write, 8192, 300'000);
    const IntervalSample first = sampler.tick(f.start + 100ms, RunPhase::Measuring);
    EXPECT_EQ(first.readLatency.count(), 11u) << "every target's reads, as All counts them";
    EXPECT_EQ(first.writeLatency.count(), 5u);
    EXPECT_EQ(first.readLatency.minNs, 100'000u);
    EXPECT_EQ(first.readLatency.maxNs, 2'000'000u);
    EXPECT_EQ(first.readLatency.sumNs, 10 * 100'000u + 2'000'000u);
    EXPECT_NEAR(first.readLatency.dense().percentileNs(50) / 1000,
        scope(first, 0).figures.read.latency.p50Us, 1e-9)
        << "the interval's histogram is the one its figures were made of";

    complete(f.a, IoDirection::Read, 4096, 100'000);
    const IntervalSample second = sampler.tick(f.start + 200ms, RunPhase::Measuring);
    EXPECT_EQ(second.readLatency.count(), 1u) << "a delta, not the running total";
    EXPECT_TRUE(second.writeLatency.empty());
    EXPECT_EQ(second.readLatency.maxNs, 100'000u);
}

// A worker records an I/O's bucket and its extremes one after the other, and the
// sampler reads them one after the other: under load an extreme can be taken in one
// interval and its bucket in the next. Each delta keeps its extremes inside its own
// buckets, so a step (the intervals appended) reads back from its file the same.
TEST(Sampler, AnExtremeTakenApartFromItsBucketStaysWithinTheIntervalsBuckets)
{
    Measurement earlier;
    Measurement later;
    later.read.histogram.record(2000);
    later.read.histogram.record(3000);
    later.read.minNs = 1000; // an I/O of 1 µs whose bucket the next interval has
    later.read.maxNs = 3000;
    later.write.minNs = 500; // a write's extremes, its bucket not read yet
    later.write.maxNs = 500;
    const Measurement d = deltaOf(earlier, later);
    EXPECT_EQ(d.read.minNs, LatencyHistogram::bucketLow(LatencyHistogram::bucketIndex(2000)));
    EXPECT_EQ(d.read.histogram.minNs(), d.read.minNs) << "the histogram's extremes are the span's";
    EXPECT_EQ(d.read.maxNs, 3000u);
    EXPECT_EQ(d.read.histogram.maxNs(), 3000u);
    EXPECT_EQ(d.write.minNs, UINT64_MAX) << "no write completed in the span";
    EXPECT_EQ(d.write.maxNs, 0u);
    EXPECT_EQ(computeFigures(d).write.latency.maxUs, 0.0);
}

TEST(Sampler, RampUpIsSampledButOnlyMeasuringIntervalsCountInTheStep)
{
    TargetCountersFixture f;
    NullCounterSource counters;
    Sampler sampler(f.config(), counters, {}, f.start);
    complete(f.a, IoDirection::Read, 4096, 50'000);
    const auto ramp = sampler.tick(f.start + 1s, RunPhase::RampUp);
    EXPECT_EQ(ramp.phase, RunPhase::RampUp);
    EXPECT_EQ(scope(ramp, 0).figures.total.ios, 1u);
    sampler.startMeasuring();
    for (int i = 0; i < 3; ++i)
        complete(f.a, IoDirection::Read, 4096, 70'000);
    sampler.tick(f.start + 1500ms, RunPhase::Measuring);
    complete(f.c, IoDirection::Write, 4096, 90'000);
    sampler.tick(f.start + 2s, RunPhase::Measuring);

    const StepResult step = sampler.stepResult(true);
    EXPECT_EQ(step.step, 2u);
    EXPECT_TRUE(step.complete);
    EXPECT_DOUBLE_EQ(step.measuredSeconds, 1.0);
    EXPECT_EQ(step.scopes[0].figures.read.ios, 3u) << "the ramp-up's I/O is not counted";
    EXPECT_EQ(step.scopes[0].figures.write.ios, 1u);
    EXPECT_NEAR(step.scopes[0].figures.total.iops, 4.0, 1e-9);
    EXPECT_NEAR(step.scopes[0].figures.total.latency.minUs, 70.0, 1e-9);
}

TEST(Sampler, IoStuckInFlightIsStalledAndItsAgeIsTheMaximum)
{
    TargetCountersFixture f;
    f.a.inFlightSince = std::vector<std::atomic<std::int64_t>>(4);
    NullCounterSource counters;
    Sampler sampler(f.config(), counters, {}, f.start);
    const auto submitted = f.start + 100ms;
    const std::int64_t ns
        = std::chrono::duration_cast<std::chrono::nanoseconds>(submitted.time_since_epoch())
              .count();
    f.a.inFlightSince[0] = encodeInFlight(ns, IoDirection::Write);
    f.a.inFlightSince[2] = encodeInFlight(ns, IoDirection::Read);
    // At 600 ms: in flight for 0.5 s, under the 1 s threshold: in the maximum, not stalled.
    const auto early = sampler.tick(f.start + 600ms, RunPhase::Measuring);
    EXPECT_EQ(scope(early, 0).figures.total.ios, 0u);
    EXPECT_EQ(scope(early, 0).figures.total.stalledIos, 0u);
    EXPECT_NEAR(scope(early, 0).figures.write.latency.maxUs, 500'000.0, 1e-6);
    // The counters stall; at 3.1 s both are 3 s old and stalled.
    const auto late = sampler.tick(f.start + 3100ms, RunPhase::Measuring);
    EXPECT_EQ(scope(late, 0).figures.total.stalledIos, 2u);
    EXPECT_EQ(scope(late, 2).figures.read.stalledIos, 1u);
    EXPECT_NEAR(scope(late, 1).figures.total.oldestInFlightUs, 3e6, 1e-6);
    EXPECT_NEAR(scope(late, 0).figures.read.latency.maxUs, 3e6, 1e-6);
    EXPECT_EQ(scope(late, 4).figures.total.stalledIos, 0u) << "worker 2 is not stuck";
    // Both complete (the device came back): nothing in flight any more.
    f.a.inFlightSince[0] = 0;
    f.a.inFlightSince[2] = 0;
    complete(f.a, IoDirection::Read, 4096, 3'100'000'000);
    const auto after = sampler.tick(f.start + 3200ms, RunPhase::Measuring);
    EXPECT_EQ(scope(after, 0).figures.total.stalledIos, 0u);
    // The step remembers the worst: two I/Os stalled (not two per interval), 3.1 s max.
    const StepResult step = sampler.stepResult(true);
    EXPECT_EQ(step.scopes[0].figures.total.stalledIos, 2u);
    EXPECT_NEAR(step.scopes[0].figures.total.latency.maxUs, 3.1e6, 1e-6);
}

TEST(Sampler, ADeviceThatLagsOwesTheWritesAndADeviceThatLeadsHasCredit)
{
    TargetCountersFixture f;
    FakeDevice device;
    // Interval 1: the application writes 1 MiB to target a; the device has seen nothing.
    // Interval 2: the device writes the 1 MiB it owed. Interval 3: the device runs ahead
    // by 64 KiB of I/O that was in flight at the application's boundary.
    device.script = {{}, {0, 0}, {0, 1 << 20}, {0, (1 << 20) + (64 << 10)}};
    Sampler::Config cfg = f.config(true);
    cfg.inFlightWriteBytes = 256 << 10;
    Sampler sampler(std::move(cfg), device, {}, f.start);
    EXPECT_EQ(device.samples, 1) << "the first snapshot is the step's start";
    for (int i = 0; i < 256; ++i)
        complete(f.a, IoDirection::Write, 4096, 100'000);
    const auto lag = sampler.tick(f.start + 1s, RunPhase::Measuring);
    ASSERT_TRUE(lag.devices.available);
    EXPECT_EQ(lag.devices.total.writeBytes, 0u);
    EXPECT_EQ(lag.devices.verdict.writeBacklogBytes, 1u << 20);
    EXPECT_EQ(sampler.balanceForNextStep().backlogBytes, 1u << 20);

    const auto pay = sampler.tick(f.start + 2s, RunPhase::Measuring);
    EXPECT_EQ(pay.devices.total.writeBytes, 1u << 20);
    EXPECT_EQ(pay.devices.verdict.writeBacklogBytes, 0u) << "the flush paid the backlog";

    for (int i = 0; i < 256; ++i)
        complete(f.a, IoDirection::Write, 4096, 100'000);
    const auto lead = sampler.tick(f.start + 3s, RunPhase::Measuring);
    EXPECT_EQ(lead.devices.verdict.writeCreditBytes, 64u << 10);
    EXPECT_EQ(lead.devices.verdict.write.verdict, Verdict::Agree)
        << "a lead within what was in flight is not other traffic";
    // The lead is dropped at the end of the step: the workers drained that I/O.
    EXPECT_EQ(sampler.balanceForNextStep().creditBytes, 0u);
    EXPECT_EQ(device.samples, 4) << "one device sample per boundary, on the same clock";
}

// ---------------------------------------------------------------- the write-back tail

namespace {

struct FakeClock {
    Clock::time_point now = Clock::time_point(500s);
    int sleeps = 0;
    DeviceTailClock clock()
    {
        return {[this] { return now; },
            [this](Clock::time_point t) {
                ++sleeps;
                now = std::max(now, t);
            }};
    }
};

} // namespace

TEST(DeviceTail, NothingOwedAndNothingInFlightEndsAtOnce)
{
    FakeDevice device;
    FakeClock clock;
    const DeviceTail tail = watchDeviceTail(device, FakeDevice::map(), {}, {}, clock.clock(), {});
    EXPECT_TRUE(tail.sampled);
    EXPECT_TRUE(tail.idle);
    EXPECT_EQ(tail.seconds, 0.0);
    EXPECT_EQ(clock.sleeps, 0);
}

TEST(DeviceTail, ABacklogIsWatchedUntilItsFlushEnds)
{
    FakeDevice device;
    FakeClock clock;
    // 8 MiB owed; the device writes 5 MiB, then 3 MiB, then is quiet.
    device.script = {{}, {0, 5 << 20, 4}, {0, 3 << 20, 1}, {0, 0, 0}};
    std::vector<std::string> notices;
    const DeviceTail tail = watchDeviceTail(device, FakeDevice::map(), {8 << 20, 0},
        {.interval = 1000ms, .limit = 10s}, clock.clock(),
        [&](const std::string &n) { notices.push_back(n); });
    EXPECT_TRUE(tail.idle);
    EXPECT_DOUBLE_EQ(tail.seconds, 3.0) << "two intervals of flushing, one quiet";
    EXPECT_EQ(tail.pendingWriteBytes, 8u << 20);
    EXPECT_EQ(tail.flushedWriteBytes, 8u << 20);
    EXPECT_EQ(tail.remainingWriteBytes, 0u);
    ASSERT_EQ(notices.size(), 1u);
    EXPECT_EQ(notices[0].rfind("8.3 MB written by the application not yet seen", 0), 0u);
}

TEST(DeviceTail, ADeviceThatNeverSettlesIsWatchedUntilTheLimit)
{
    FakeDevice device;
    FakeClock clock;
    for (int i = 0; i < 20; ++i)
        device.script.push_back({0, 1 << 20, 8});
    const DeviceTail tail = watchDeviceTail(device, FakeDevice::map(), {32 << 20, 0},
        {.interval = 500ms, .limit = 2s}, clock.clock(), {});
    EXPECT_FALSE(tail.idle);
    EXPECT_DOUBLE_EQ(tail.seconds, 2.0);
    EXPECT_EQ(tail.flushedWriteBytes, 4u << 20) << "four intervals after the first snapshot";
    EXPECT_EQ(tail.remainingWriteBytes, 28u << 20);
}

// A second Stop while the run waits for the device's write-back ends the wait at the
// next sample, with what was seen so far.
TEST(DeviceTail, ASecondStopEndsTheWaitAtTheNextSample)
{
    FakeDevice device;
    FakeClock clock;
    for (int i = 0; i < 20; ++i)
        device.script.push_back({0, 1 << 20, 8});
    DeviceTailClock c = clock.clock();
    bool stopNow = false;
    c.sleepUntil = [&](Clock::time_point t) {
        ++clock.sleeps;
        clock.now = std::max(clock.now, t);
        stopNow = clock.sleeps == 2; // the user presses Stop again during the second wait
    };
    c.skip = [&] { return stopNow; };
    const DeviceTail tail = watchDeviceTail(
        device, FakeDevice::map(), {32 << 20, 0}, {.interval = 500ms, .limit = 10s}, c, {});
    EXPECT_FALSE(tail.idle);
    EXPECT_DOUBLE_EQ(tail.seconds, 1.0) << "two samples, not the 10 s limit";
    EXPECT_EQ(tail.flushedWriteBytes, 2u << 20) << "what was seen is kept";
}

TEST(DeviceTail, NoDevicesOrNoLimitMeansNoTail)
{
    FakeDevice device;
    FakeClock clock;
    EXPECT_FALSE(watchDeviceTail(device, {}, {1 << 30, 0}, {}, clock.clock(), {}).sampled);
    EXPECT_FALSE(
        watchDeviceTail(device, FakeDevice::map(), {1 << 30, 0}, {.limit = 0ms}, clock.clock(), {})
            .sampled);
    EXPECT_EQ(device.samples, 0);
}
