// SPDX-License-Identifier: GPL-3.0-or-later
// The kept interval history: bounded memory, and merges that keep every exact figure
// exact (percentiles become upper bounds).
#include "core/run/interval_history.h"

#include <gtest/gtest.h>

using namespace ioprism::core;

namespace {

IntervalSample sample(std::size_t step, double start, double seconds, std::uint64_t ios,
    double meanUs, double p99Us, double maxUs)
{
    IntervalSample s;
    s.step = step;
    s.stepName = "step " + std::to_string(step);
    s.startSeconds = start;
    s.endSeconds = start + seconds;
    Figures f;
    f.seconds = seconds;
    f.total.ios = f.read.ios = ios;
    f.total.bytes = f.read.bytes = ios * 4096;
    f.total.iops = f.read.iops = double(ios) / seconds;
    f.total.latency = {10, meanUs, maxUs, meanUs, p99Us, p99Us, p99Us, p99Us};
    f.read.latency = f.total.latency;
    f.inFlightAtEnd = std::uint32_t(ios % 7);
    s.scopes.push_back({{Scope::Kind::All, -1, -1, "All", {}}, f});
    s.scopes.push_back(
        {{Scope::Kind::Target, 0, 0, "Worker 1 / /var/tmp/a-rather-long-test-file-name.dat",
             "/var/tmp/a-rather-long-test-file-name.dat"},
            f});
    s.cpu.valid = true;
    s.cpu.busyPercent = double(ios % 50);
    s.devices.available = true;
    s.devices.total.valid = true;
    s.devices.total.seconds = seconds;
    s.devices.total.readIos = ios;
    s.devices.total.readsPerSecond = double(ios) / seconds;
    s.devices.total.readAwaitMs = meanUs / 1000;
    s.devices.total.utilPercent = 50;
    s.devices.verdict.verdict = Verdict::Agree;
    return s;
}

} // namespace

TEST(IntervalHistory, MergingTwoIntervalsKeepsExactFiguresExact)
{
    const auto a = sample(0, 1.0, 1.0, 1000, 100, 400, 900);
    auto b = sample(0, 2.0, 0.5, 3000, 200, 300, 5000);
    b.cpu.busyPercent = 20;
    b.devices.total.utilPercent = 100;
    b.devices.verdict.verdict = Verdict::OtherTraffic;
    const IntervalSample m = mergeConsecutive(a, b);
    EXPECT_EQ(m.mergedIntervals, 2u);
    EXPECT_DOUBLE_EQ(m.startSeconds, 1.0);
    EXPECT_DOUBLE_EQ(m.endSeconds, 2.5);
    const auto &f = m.scopes[1].figures.total;
    EXPECT_EQ(f.ios, 4000u);
    EXPECT_NEAR(f.iops, 4000 / 1.5, 1e-9);
    EXPECT_NEAR(f.latency.meanUs, (1000 * 100.0 + 3000 * 200.0) / 4000, 1e-9);
    EXPECT_EQ(f.latency.maxUs, 5000.0);
    EXPECT_EQ(f.latency.minUs, 10.0);
    EXPECT_EQ(f.latency.p99Us, 400.0) << "an upper bound: the larger part";
    EXPECT_EQ(m.scopes[1].scope.targetPath, "/var/tmp/a-rather-long-test-file-name.dat");
    EXPECT_EQ(m.scopes[0].figures.inFlightAtEnd, 3000u % 7) << "at the end of the span";
    EXPECT_NEAR(m.cpu.busyPercent, (1000 % 50 * 1.0 + 20 * 0.5) / 1.5, 1e-9);
    EXPECT_NEAR(m.devices.total.readsPerSecond, 4000 / 1.5, 1e-9);
    EXPECT_NEAR(m.devices.total.readAwaitMs, (1000 * 0.1 + 3000 * 0.2) / 4000, 1e-12);
    EXPECT_NEAR(m.devices.total.utilPercent, (50 * 1.0 + 100 * 0.5) / 1.5, 1e-9);
    EXPECT_EQ(m.devices.verdict.verdict, Verdict::OtherTraffic)
        << "a part that disagreed is never hidden";
}

TEST(IntervalHistory, UnderItsBudgetEveryIntervalIsKeptAsSampled)
{
    IntervalHistory h(1 << 20);
    for (int i = 0; i < 100; ++i)
        h.add(sample(0, i * 0.1, 0.1, 10, 100, 200, 300));
    ASSERT_EQ(h.samples().size(), 100u);
    EXPECT_EQ(h.samples()[42].mergedIntervals, 1u);
}

TEST(IntervalHistory, MemoryStaysWithinTheBudgetHoweverLongTheRun)
{
    const std::size_t budget = 256 << 10;
    IntervalHistory h(budget);
    const std::size_t one = approximateBytes(sample(0, 0, 0.1, 10, 100, 200, 300));
    std::uint64_t ios = 0;
    for (int i = 0; i < 200'000; ++i) { // 5.5 hours at 100 ms
        h.add(sample(0, i * 0.1, 0.1, 10, 100, 200, 300));
        ios += 10;
        ASSERT_LE(h.bytes(), budget + one) << "after " << i << " intervals";
    }
    // Nothing lost: every I/O is still in the history, and it covers the whole run.
    std::uint64_t kept = 0;
    std::uint32_t intervals = 0;
    for (const auto &s : h.samples()) {
        kept += s.scopes[0].figures.total.ios;
        intervals += s.mergedIntervals;
    }
    EXPECT_EQ(kept, ios);
    EXPECT_EQ(intervals, 200'000u);
    EXPECT_DOUBLE_EQ(h.samples().front().startSeconds, 0.0);
    EXPECT_NEAR(h.samples().back().endSeconds, 20'000.0, 1e-6);
    EXPECT_GE(h.samples().size(), budget / one / 2) << "at least half the budget is used: a curve";
}

TEST(IntervalHistory, StepsAndPhasesAreNeverMergedTogether)
{
    IntervalHistory h(1); // over budget at once: merge whatever can be
    h.add(sample(0, 0, 1, 10, 100, 200, 300));
    h.add(sample(0, 1, 1, 10, 100, 200, 300));
    auto ramp = sample(1, 2, 1, 10, 100, 200, 300);
    ramp.phase = RunPhase::RampUp;
    h.add(ramp);
    h.add(sample(1, 3, 1, 10, 100, 200, 300));
    ASSERT_EQ(h.samples().size(), 3u);
    EXPECT_EQ(h.samples()[0].mergedIntervals, 2u);
    EXPECT_EQ(h.samples()[1].phase, RunPhase::RampUp);
    EXPECT_EQ(h.samples()[2].step, 1u);
}

// Files opened and closed (a tree, the connection rate) merge like I/O: counts and errors
// add up, the rate is over both spans, the mean is weighted by the counts and the
// longest stays the longest; a span without connection figures adds nothing.
TEST(IntervalHistory, MergingKeepsTheFilesOpenedAndClosedExact)
{
    auto a = sample(0, 1.0, 1.0, 1000, 100, 400, 900);
    auto b = sample(0, 2.0, 0.5, 3000, 200, 300, 5000);
    ConnectionFigures ca;
    ca.open = {.count = 100, .errors = 1, .perSecond = 100, .latency = {}};
    ca.open.latency.meanUs = 10;
    ca.open.latency.maxUs = 40;
    ca.connection = ca.open;
    ConnectionFigures cb;
    cb.open = {.count = 300, .errors = 0, .perSecond = 600, .latency = {}};
    cb.open.latency.meanUs = 30;
    cb.open.latency.maxUs = 35;
    a.scopes[1].figures.connections = ca;
    b.scopes[1].figures.connections = cb;
    const IntervalSample m = mergeConsecutive(a, b);
    ASSERT_TRUE(m.scopes[1].figures.connections.has_value());
    const ConnectionFigures &c = *m.scopes[1].figures.connections;
    EXPECT_EQ(c.open.count, 400u);
    EXPECT_EQ(c.open.errors, 1u);
    EXPECT_DOUBLE_EQ(c.open.perSecond, 400 / 1.5);
    EXPECT_DOUBLE_EQ(c.open.latency.meanUs, (100 * 10 + 300 * 30) / 400.0);
    EXPECT_DOUBLE_EQ(c.open.latency.maxUs, 40);
    // Only the first span had connections ended: the second's none leave them as they were.
    EXPECT_EQ(c.connection.count, 100u);
    EXPECT_DOUBLE_EQ(c.connection.latency.meanUs, 10);
    EXPECT_DOUBLE_EQ(c.connection.perSecond, 100 / 1.5);
    EXPECT_EQ(c.close.count, 0u);
    // A scope without them in either span gets none.
    EXPECT_FALSE(m.scopes[0].figures.connections.has_value());
}

TEST(IntervalHistory, MergedIntervalsKeepAllsPercentilesExactFromTheirHistograms)
{
    // Two intervals whose All holds its reads' histogram: 1000 I/Os at 100 µs, then 3000
    // at 300 µs. The union's p50 is 300 µs; the larger of the parts' p50s would be too,
    // but their p99 bound (400 µs from the figures) is not the union's.
    auto a = sample(0, 1.0, 1.0, 1000, 100, 400, 900);
    auto b = sample(0, 2.0, 1.0, 3000, 300, 300, 5000);
    const auto histogramOf = [](std::uint64_t ios, std::uint64_t ns) {
        LatencyHistogram h;
        for (std::uint64_t i = 0; i < ios; ++i)
            h.record(ns);
        return SparseLatencyHistogram::of(h, ns, ns);
    };
    a.readLatency = histogramOf(1000, 100'000);
    b.readLatency = histogramOf(3000, 300'000);
    const IntervalSample m = mergeConsecutive(a, b);
    const auto &all = m.scopes[0].figures;
    LatencyHistogram both;
    for (int i = 0; i < 1000; ++i)
        both.record(100'000);
    for (int i = 0; i < 3000; ++i)
        both.record(300'000);
    const LatencyFigures expected = latencyFigures(both, 100'000, 300'000);
    EXPECT_EQ(all.read.latency.p99Us, expected.p99Us) << "exact, not the 400 µs bound";
    EXPECT_EQ(all.total.latency.p50Us, expected.p50Us);
    EXPECT_EQ(all.read.latency.maxUs, 5000.0) << "the figures' larger maximum is kept";
    EXPECT_EQ(m.scopes[1].figures.total.latency.p99Us, 400.0) << "a target keeps the bound";
}
