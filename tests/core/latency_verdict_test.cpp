// SPDX-License-Identifier: GPL-3.0-or-later
// The latency verdict (core/stats/latency_verdict.h): the application's mean latency
// beside the device's await, the margins, and the cause named from the threads' facts.
#include "core/stats/latency_verdict.h"

#include <gtest/gtest.h>

using namespace ioprism::core;

namespace {

constexpr double kSeconds = 1.0;

LatencyDirectionInput reads(std::uint64_t ios, double appUs, double deviceUs)
{
    return {true, ios, appUs, ios, deviceUs};
}

ThreadTimes thread(
    std::int64_t id, ThreadTimes::Kind kind, std::uint64_t cpuNs, std::uint64_t waitNs)
{
    return {id, kind, cpuNs, waitNs};
}

struct Row {
    const char *name;
    LatencyDirectionInput read;
    ThreadSpan threads;
    LatencyVerdict expected;
};

ThreadSpan threads(std::uint64_t kernelWorkerCpuNs, std::uint64_t ownWaitNs)
{
    ThreadSpan t;
    t.known = true;
    t.kernelWorkerCpuNs = kernelWorkerCpuNs;
    t.kernelWorkers = kernelWorkerCpuNs > 0 ? 1 : 0;
    t.ownWaitNs = ownWaitNs;
    t.workers = 1;
    t.busiestWorkerRunnableNs = 500'000'000;
    return t;
}

} // namespace

TEST(LatencyVerdict, EachRowGetsItsVerdict)
{
    const ThreadSpan quiet = threads(0, 0);
    const Row rows[] = {
        // zram through the sync engine: 1.8 us against the device's 1.5 us.
        {"a RAM disk, sync", reads(500'000, 1.8, 1.5), quiet, LatencyVerdict::Agree},
        // An NVMe drive: 80 us against 75 us (within 20 us + 25 %).
        {"NVMe, io_uring inline", reads(100'000, 80, 75), quiet, LatencyVerdict::Agree},
        // A disk: 9 ms against 8 ms (within 25 % of 8 ms).
        {"a disk", reads(1000, 9000, 8000), quiet, LatencyVerdict::Agree},
        // The same disk 12 ms against 8 ms: 4 ms is beyond the margins, no cause known.
        {"a disk with a slow path", reads(1000, 12'000, 8000), quiet, LatencyVerdict::HostPath},
        // The case: zram at QD 1 through io_uring, 68 us against 1.5 us, the
        // kernel workers running 8.8 us per I/O.
        {"zram, io_uring at QD 1", reads(40'000, 68, 1.5), threads(352'000'000, 0),
            LatencyVerdict::KernelWorkers},
        // The same on a fast CPU, 12 us: the hand-off is a fact, so only 2 us are allowed.
        {"zram, io_uring, a fast CPU", reads(40'000, 12, 1.5), threads(160'000'000, 0),
            LatencyVerdict::KernelWorkers},
        // The workers' CPU below 0.5 us per I/O is not a hand-off of every I/O.
        {"workers barely used", reads(40'000, 68, 1.5), threads(4'000'000, 0),
            LatencyVerdict::HostPath},
        // IOPrism's threads waited 40 us per I/O for a CPU: starved.
        {"starved", reads(40'000, 68, 1.5), threads(0, 1'600'000'000), LatencyVerdict::CpuStarved},
        // A wait below half the difference does not explain it.
        {"a little wait", reads(40'000, 68, 1.5), threads(0, 400'000'000),
            LatencyVerdict::HostPath},
        // The resolution of the kernel's millisecond ticks: 150 requests with 3 ms of
        // ticks (20 us each) against an application's 45 us is within 20 + 5 + 6.7 us.
        {"coarse ticks", reads(150, 45, 20), quiet, LatencyVerdict::Agree},
        {"too few", reads(99, 500, 1), quiet, LatencyVerdict::TooFewIos},
        {"not comparable", {false, 10'000, 5, 10'000, 900}, quiet, LatencyVerdict::NotComparable},
        // Without thread facts (Windows), a difference is the host path.
        {"no thread facts", reads(40'000, 68, 1.5), ThreadSpan {}, LatencyVerdict::HostPath},
    };
    for (const Row &row : rows) {
        LatencyInput in;
        in.deviceTimes = true;
        in.read = row.read;
        in.threads = row.threads;
        in.seconds = kSeconds;
        const LatencyJudgement j = judgeLatency(in);
        EXPECT_EQ(j.read.verdict, row.expected) << row.name << ": " << toString(j.read.verdict)
                                                << " instead of " << toString(row.expected);
        // No writes: the headline is the reads'.
        EXPECT_EQ(j.write.verdict, LatencyVerdict::TooFewIos) << row.name;
        EXPECT_EQ(j.verdict, row.expected) << row.name;
    }
}

TEST(LatencyVerdict, WithoutDeviceTimesNothingIsCompared)
{
    LatencyInput in;
    in.read = reads(10'000, 68, 1.5);
    const LatencyJudgement j = judgeLatency(in);
    EXPECT_EQ(j.verdict, LatencyVerdict::NoDeviceTimes);
    EXPECT_EQ(j.read.verdict, LatencyVerdict::NoDeviceTimes);
}

TEST(LatencyVerdict, TheHeadlineIsTheMoreNotableDirection)
{
    LatencyInput in;
    in.deviceTimes = true;
    in.read = reads(10'000, 30, 25);
    in.write = reads(10'000, 300, 25);
    in.threads = threads(0, 0);
    in.seconds = kSeconds;
    const LatencyJudgement j = judgeLatency(in);
    EXPECT_EQ(j.read.verdict, LatencyVerdict::Agree);
    EXPECT_EQ(j.write.verdict, LatencyVerdict::HostPath);
    EXPECT_EQ(j.verdict, LatencyVerdict::HostPath);
    EXPECT_DOUBLE_EQ(j.write.extraUs, 275);
}

TEST(LatencyVerdict, AWorkerThatNeverWaitedForItsDeviceIsCpuBound)
{
    LatencyInput in;
    in.deviceTimes = true;
    in.read = reads(10'000, 2, 1.5);
    in.seconds = 2.0;
    in.threads = threads(0, 0);
    in.threads.busiestWorkerRunnableNs = 1'960'000'000; // 98 % of 2 s
    LatencyJudgement j = judgeLatency(in);
    EXPECT_TRUE(j.cpuBound);
    EXPECT_DOUBLE_EQ(j.busiestWorkerRunnableShare, 0.98);
    in.threads.busiestWorkerRunnableNs = 1'800'000'000; // 90 %
    j = judgeLatency(in);
    EXPECT_FALSE(j.cpuBound);
    // No worker threads known: never CPU-bound.
    in.threads = ThreadSpan {};
    EXPECT_FALSE(judgeLatency(in).cpuBound);
}

TEST(LatencyVerdict, EveryNameReadsBack)
{
    for (int i = 0; !toString(static_cast<LatencyVerdict>(i)).empty(); ++i) {
        const auto v = static_cast<LatencyVerdict>(i);
        EXPECT_EQ(latencyVerdictFromString(toString(v)), v);
    }
    EXPECT_EQ(latencyVerdictFromString("agreed"), std::nullopt);
}

TEST(ThreadSpan, DifferencesByThreadNewThreadsWholeAndKinds)
{
    using K = ThreadTimes::Kind;
    const std::vector<ThreadTimes> before {thread(10, K::Worker, 100, 10),
        thread(11, K::Worker, 500, 0), thread(12, K::Other, 50, 5),
        thread(13, K::KernelIoWorker, 1000, 0)};
    const std::vector<ThreadTimes> after {thread(10, K::Worker, 900, 30),
        thread(11, K::Worker, 800, 0), thread(12, K::Other, 60, 25),
        // 13 ended in the span; 14 started in it and counts whole.
        thread(14, K::KernelIoWorker, 700, 0)};
    const ThreadSpan s = threadSpan(before, after);
    EXPECT_TRUE(s.known);
    EXPECT_EQ(s.busiestWorkerRunnableNs, 820u); // thread 10: 800 on a CPU, 20 waiting
    EXPECT_EQ(s.workers, 2u);
    EXPECT_EQ(s.ownWaitNs, 20u + 0u + 20u);
    EXPECT_EQ(s.kernelWorkerCpuNs, 700u);
    EXPECT_EQ(s.kernelWorkers, 1u);
    // An id reused by a newer thread (less time than before) counts whole.
    const ThreadSpan reused
        = threadSpan({thread(20, K::Worker, 5000, 0)}, {thread(20, K::Worker, 300, 0)});
    EXPECT_EQ(reused.busiestWorkerRunnableNs, 300u);
}
