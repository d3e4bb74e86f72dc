// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/latency_verdict.h"

#include "core/enum_names.h"

#include <algorithm>
#include <charconv>
#include <system_error>
#include <unordered_map>

namespace ioprism::core {

std::string_view toString(LatencyVerdict v)
{
    switch (v) {
    case LatencyVerdict::NoDeviceTimes:
        return "no device times";
    case LatencyVerdict::TooFewIos:
        return "too few I/Os";
    case LatencyVerdict::NotComparable:
        return "not comparable";
    case LatencyVerdict::Agree:
        return "agree";
    case LatencyVerdict::HostPath:
        return "host path";
    case LatencyVerdict::CpuStarved:
        return "CPU-starved";
    case LatencyVerdict::KernelWorkers:
        return "kernel I/O workers";
    }
    return "";
}

std::optional<LatencyVerdict> latencyVerdictFromString(std::string_view name)
{
    return enumFromName<LatencyVerdict>(name);
}

int notability(LatencyVerdict v)
{
    return static_cast<int>(v); // declared in headline order
}

ThreadTimes::Kind threadKindOf(std::string_view name)
{
    while (!name.empty() && (name.back() == '\n' || name.back() == ' '))
        name.remove_suffix(1);
    if (name == kWorkerThreadName || name == kSyncIoThreadName)
        return ThreadTimes::Kind::Worker;
    if (name.starts_with("iou-wrk-"))
        return ThreadTimes::Kind::KernelIoWorker;
    return ThreadTimes::Kind::Other;
}

std::optional<ThreadTimes> parseSchedstat(std::string_view text)
{
    ThreadTimes t;
    std::uint64_t *fields[] = {&t.cpuNs, &t.waitNs};
    for (std::uint64_t *field : fields) {
        while (!text.empty() && text.front() == ' ')
            text.remove_prefix(1);
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *field);
        if (ec != std::errc {} || end == text.data())
            return std::nullopt;
        text.remove_prefix(std::size_t(end - text.data()));
    }
    return t;
}

ThreadSpan threadSpan(
    const std::vector<ThreadTimes> &earlier, const std::vector<ThreadTimes> &later)
{
    std::unordered_map<std::int64_t, const ThreadTimes *> before;
    before.reserve(earlier.size());
    for (const ThreadTimes &t : earlier)
        before.emplace(t.id, &t);
    ThreadSpan span;
    span.known = true;
    for (const ThreadTimes &t : later) {
        std::uint64_t cpuNs = t.cpuNs;
        std::uint64_t waitNs = t.waitNs;
        if (const auto it = before.find(t.id); it != before.end()) {
            // The same id with less time is a new thread that reused it: count it whole.
            if (it->second->cpuNs <= cpuNs && it->second->waitNs <= waitNs) {
                cpuNs -= it->second->cpuNs;
                waitNs -= it->second->waitNs;
            }
        }
        switch (t.kind) {
        case ThreadTimes::Kind::KernelIoWorker:
            span.kernelWorkerCpuNs += cpuNs;
            ++span.kernelWorkers;
            break;
        case ThreadTimes::Kind::Worker:
            // On a CPU or waiting for one: a thread that never blocked, however many
            // other processes shared its CPU.
            span.busiestWorkerRunnableNs = std::max(span.busiestWorkerRunnableNs, cpuNs + waitNs);
            ++span.workers;
            span.ownWaitNs += waitNs;
            break;
        case ThreadTimes::Kind::Other:
            span.ownWaitNs += waitNs;
            break;
        }
    }
    return span;
}

namespace {

LatencyDirection judgeDirection(const LatencyDirectionInput &d, bool deviceTimes,
    const LatencyPolicy &policy, LatencyVerdict cause)
{
    LatencyDirection out;
    out.appMeanUs = d.appMeanUs;
    out.deviceAwaitUs = d.deviceAwaitUs;
    out.extraUs = d.appMeanUs - d.deviceAwaitUs;
    if (!deviceTimes)
        out.verdict = LatencyVerdict::NoDeviceTimes;
    else if (d.appIos < policy.minimumIos || d.deviceIos < policy.minimumIos)
        out.verdict = LatencyVerdict::TooFewIos;
    else if (!d.comparable)
        out.verdict = LatencyVerdict::NotComparable;
    else {
        // The kernel counts ticks in whole milliseconds: 1 ms over the requests.
        const double resolutionUs = 1000.0 / double(d.deviceIos);
        const double marginUs = cause == LatencyVerdict::KernelWorkers ? policy.handOffMarginUs
                                                                       : policy.absoluteMarginUs;
        const double allowedUs = marginUs + policy.relativeMargin * d.deviceAwaitUs + resolutionUs;
        out.verdict = out.extraUs <= allowedUs ? LatencyVerdict::Agree : cause;
    }
    return out;
}

} // namespace

LatencyJudgement judgeLatency(const LatencyInput &in, const LatencyPolicy &policy)
{
    LatencyJudgement j;
    const std::uint64_t ios = in.read.appIos + in.write.appIos;
    if (ios > 0 && in.threads.known) {
        j.kernelWorkerUsPerIo = double(in.threads.kernelWorkerCpuNs) * 1e-3 / double(ios);
        j.waitUsPerIo = double(in.threads.ownWaitNs) * 1e-3 / double(ios);
    }
    if (in.threads.known && in.seconds > 0)
        j.busiestWorkerRunnableShare
            = std::min(1.0, double(in.threads.busiestWorkerRunnableNs) * 1e-9 / in.seconds);
    j.cpuBound = in.threads.workers > 0 && j.busiestWorkerRunnableShare >= policy.cpuBoundShare;

    // The cause of a difference beyond the margins: the same facts serve both directions
    // (the process's threads are not per direction); the CPU-starved test asks for a
    // wait of at least a share of the largest difference.
    const double largestExtraUs = std::max(
        in.read.appMeanUs - in.read.deviceAwaitUs, in.write.appMeanUs - in.write.deviceAwaitUs);
    LatencyVerdict cause = LatencyVerdict::HostPath;
    if (in.threads.known && j.kernelWorkerUsPerIo >= policy.kernelWorkerUsPerIo)
        cause = LatencyVerdict::KernelWorkers;
    else if (in.threads.known && largestExtraUs > 0
        && j.waitUsPerIo >= policy.starvedShare * largestExtraUs)
        cause = LatencyVerdict::CpuStarved;

    j.read = judgeDirection(in.read, in.deviceTimes, policy, cause);
    j.write = judgeDirection(in.write, in.deviceTimes, policy, cause);
    // A direction the application did not use is no comparison: the headline is the
    // other's (TooFewIos for an unused direction ranks below any comparison).
    j.verdict = notability(j.read.verdict) >= notability(j.write.verdict) ? j.read.verdict
                                                                          : j.write.verdict;
    return j;
}

} // namespace ioprism::core
