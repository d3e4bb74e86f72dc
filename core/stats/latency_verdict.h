// SPDX-License-Identifier: GPL-3.0-or-later
// Whose latency is it? The application's mean latency per direction beside the device's
// own service time over the same span, and where the difference goes.
//
// The device's service time is iostat's await (diskstats' read or write ticks per
// completed request: from the request's arrival in the block layer to its completion,
// the device's queue included). The application's latency is IOPrism's own, from
// submission to completion on its monotonic clock. The difference is the host's path:
// the system call, a hand-off to a kernel thread, the wait for a CPU to reap the
// completion. A direction AGREES when
//
//   app mean - device await <= absoluteMarginUs + relativeMargin * device await
//                              + resolution
//
// where the resolution is what the kernel's millisecond ticks can hide: 1 ms over the
// span's device requests (1000 / requests, in us). The margins are the path every I/O
// takes anyway: a system call and a completion, a few microseconds on the machines we
// measure (zram through the sync engine: 1.8 us against the device's 1.5 us), so 20 us
// leaves room for a slow CPU and the relative 25 % for a device whose own figure is
// coarse (a disk's await in whole milliseconds). Beyond that, the cause, from facts the
// OS gives about this process's threads over the span (core/counters.h ThreadTimes):
//
//   io_uring's kernel I/O workers (iou-wrk) ran for this process for at least
//   kernelWorkerUsPerIo of CPU per I/O (and the absolute margin is then only
//   handOffMarginUs: the cause is known)  kernel I/O workers: the device did not take
//                                          the I/O without blocking (no nowait
//                                          support), so io_uring handed each one to a
//                                          worker thread and its latency is the
//                                          hand-off's
//   otherwise, IOPrism's threads waited for a CPU (run-queue delay) at least
//   starvedShare of the difference per I/O CPU-starved: the host was busy
//   otherwise                              host path: the time is spent between
//                                          IOPrism and the device, by no cause IOPrism
//                                          can read
//
// A direction is compared only where the device did the application's I/O (the byte
// verdict of that direction agrees), each side moved at least minimumIos, and the device
// reports times; otherwise it is "not comparable", "too few I/Os" or "no device times".
//
// The CPU-bound judgement is separate: a worker thread that was runnable (on a CPU, or
// waiting for one) for at least cpuBoundShare of the span never waited for its device:
// it measured the host, not the device (more workers, or an engine that costs less CPU
// per I/O, would move the figure). Runnable rather than running, so that a second process
// sharing the CPU does not hide it.
#pragma once

#include "core/counters.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ioprism::core {

enum class LatencyVerdict {
    NoDeviceTimes,
    TooFewIos,
    NotComparable,
    Agree,
    HostPath,
    CpuStarved,
    KernelWorkers,
};

// "no device times", "too few I/Os", "not comparable", "agree", "host path",
// "CPU-starved", "kernel I/O workers": the names used in results files and on screen.
std::string_view toString(LatencyVerdict verdict);
std::optional<LatencyVerdict> latencyVerdictFromString(std::string_view name);

struct LatencyPolicy {
    double absoluteMarginUs = 20;
    // When io_uring's workers ran for the I/O (a fact, not a guess), any difference
    // beyond this is theirs: the hand-off is named however fast the CPU made it.
    double handOffMarginUs = 2;
    double relativeMargin = 0.25; // of the device's await
    std::uint64_t minimumIos = 100; // per direction, on each side
    // io_uring's workers ran for at least this much CPU per I/O: the I/O was handed to
    // them (an I/O issued inline costs the workers nothing; one handed over costs a few
    // microseconds of theirs at least).
    double kernelWorkerUsPerIo = 0.5;
    // IOPrism's threads waited for a CPU at least this share of the difference per I/O.
    double starvedShare = 0.5;
    double cpuBoundShare = 0.95; // of the span, runnable (on a CPU or waiting for one)
    friend bool operator==(const LatencyPolicy &, const LatencyPolicy &) = default;
};

// One direction over a span.
struct LatencyDirectionInput {
    bool comparable = true; // the device did this I/O (its byte verdict agrees)
    std::uint64_t appIos = 0;
    double appMeanUs = 0;
    std::uint64_t deviceIos = 0;
    double deviceAwaitUs = 0;
};

// The process's threads over the span (deltas of ThreadTimes, matched by thread id).
struct ThreadSpan {
    bool known = false; // the OS said (Linux)
    std::uint64_t kernelWorkerCpuNs = 0;
    std::uint32_t kernelWorkers = 0; // seen in the span
    std::uint64_t ownWaitNs = 0; // IOPrism's threads, runnable but not running
    // The IOPrism worker thread longest runnable (on a CPU, or waiting for one): it did
    // not wait for the device that long.
    std::uint64_t busiestWorkerRunnableNs = 0;
    std::uint32_t workers = 0; // IOPrism worker threads seen in the span
    friend bool operator==(const ThreadSpan &, const ThreadSpan &) = default;
};

// What the threads did between two snapshots: a thread in both counts its difference; a
// thread only in the later one (started in the span) counts whole; one that ended in the
// span is lost (its last part uncounted: an undercount, never an invention).
ThreadSpan threadSpan(
    const std::vector<ThreadTimes> &earlier, const std::vector<ThreadTimes> &later);

// A thread's kind from its name: IOPrism's workers and the sync engine's I/O threads
// are Worker, io_uring's "iou-wrk-<id>" KernelIoWorker, the rest Other.
ThreadTimes::Kind threadKindOf(std::string_view name);
// /proc/<pid>/task/<id>/schedstat: "<on-CPU ns> <run-queue wait ns> <timeslices>".
std::optional<ThreadTimes> parseSchedstat(std::string_view text);

struct LatencyInput {
    bool deviceTimes = false; // the devices report service times (diskstats with ticks)
    LatencyDirectionInput read;
    LatencyDirectionInput write;
    ThreadSpan threads;
    double seconds = 0; // length of the span
};

struct LatencyDirection {
    LatencyVerdict verdict = LatencyVerdict::NoDeviceTimes;
    double appMeanUs = 0;
    double deviceAwaitUs = 0;
    double extraUs = 0; // app mean - device await (negative: the device's is longer)
    friend bool operator==(const LatencyDirection &, const LatencyDirection &) = default;
};

struct LatencyJudgement {
    LatencyVerdict verdict = LatencyVerdict::NoDeviceTimes; // the headline
    LatencyDirection read;
    LatencyDirection write;
    // The facts behind a cause, per I/O of the span (both directions).
    double kernelWorkerUsPerIo = 0;
    double waitUsPerIo = 0;
    // The busiest IOPrism worker thread's share of the span runnable (0..1; 0: unknown).
    double busiestWorkerRunnableShare = 0;
    bool cpuBound = false;
    friend bool operator==(const LatencyJudgement &, const LatencyJudgement &) = default;
};

LatencyJudgement judgeLatency(const LatencyInput &input, const LatencyPolicy &policy = {});

// Headline order: kernel I/O workers 6, CPU-starved 5, host path 4, agree 3, not
// comparable 2, too few I/Os 1, no device times 0.
int notability(LatencyVerdict verdict);

} // namespace ioprism::core
