// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/interval_history.h"

#include <algorithm>

namespace ioprism::core {

namespace {

double weighted(double a, double weightA, double b, double weightB)
{
    const double w = weightA + weightB;
    return w > 0 ? (a * weightA + b * weightB) / w : 0;
}

DirectionFigures mergeDirection(
    const DirectionFigures &a, const DirectionFigures &b, double secondsA, double secondsB)
{
    DirectionFigures m;
    m.ios = a.ios + b.ios;
    m.bytes = a.bytes + b.bytes;
    m.errors = a.errors + b.errors;
    const double seconds = secondsA + secondsB;
    if (seconds > 0) {
        m.iops = double(m.ios) / seconds;
        m.megabytesPerSecond = double(m.bytes) / 1e6 / seconds;
        m.mebibytesPerSecond = double(m.bytes) / 1048576.0 / seconds;
    }
    m.oldestInFlightUs = std::max(a.oldestInFlightUs, b.oldestInFlightUs);
    m.stalledIos = std::max(a.stalledIos, b.stalledIos);
    m.latency = mergeLatency(a.latency, a.ios, b.latency, b.ios);
    return m;
}

Figures mergeFigures(const Figures &a, const Figures &b)
{
    Figures m;
    m.seconds = a.seconds + b.seconds;
    m.read = mergeDirection(a.read, b.read, a.seconds, b.seconds);
    m.write = mergeDirection(a.write, b.write, a.seconds, b.seconds);
    m.total = mergeDirection(a.total, b.total, a.seconds, b.seconds);
    m.transactionsPerSecond
        = weighted(a.transactionsPerSecond, a.seconds, b.transactionsPerSecond, b.seconds);
    m.inFlightAtEnd = b.inFlightAtEnd;
    m.connections = mergeConnections(a.connections, b.connections, m.seconds);
    return m;
}

DeviceFigures mergeDevice(const DeviceFigures &a, const DeviceFigures &b)
{
    DeviceFigures m;
    m.valid = a.valid && b.valid;
    if (!m.valid)
        return m;
    const double sa = a.seconds, sb = b.seconds;
    m.seconds = sa + sb;
    m.readIos = a.readIos + b.readIos;
    m.writeIos = a.writeIos + b.writeIos;
    m.readBytes = a.readBytes + b.readBytes;
    m.writeBytes = a.writeBytes + b.writeBytes;
    m.discardIos = a.discardIos + b.discardIos;
    m.discardBytes = a.discardBytes + b.discardBytes;
    m.flushIos = a.flushIos + b.flushIos;
    // Rates are counts over time: weighting each by its span is the rate of the sums.
    m.readsPerSecond = weighted(a.readsPerSecond, sa, b.readsPerSecond, sb);
    m.writesPerSecond = weighted(a.writesPerSecond, sa, b.writesPerSecond, sb);
    m.readMergesPerSecond = weighted(a.readMergesPerSecond, sa, b.readMergesPerSecond, sb);
    m.writeMergesPerSecond = weighted(a.writeMergesPerSecond, sa, b.writeMergesPerSecond, sb);
    m.readMegabytesPerSecond = weighted(a.readMegabytesPerSecond, sa, b.readMegabytesPerSecond, sb);
    m.writeMegabytesPerSecond
        = weighted(a.writeMegabytesPerSecond, sa, b.writeMegabytesPerSecond, sb);
    m.discardsPerSecond = weighted(a.discardsPerSecond, sa, b.discardsPerSecond, sb);
    m.discardMegabytesPerSecond
        = weighted(a.discardMegabytesPerSecond, sa, b.discardMegabytesPerSecond, sb);
    m.flushesPerSecond = weighted(a.flushesPerSecond, sa, b.flushesPerSecond, sb);
    // Sizes and awaits are per request: weighted by requests.
    m.averageReadRequestBytes = m.readIos ? double(m.readBytes) / double(m.readIos) : 0;
    m.averageWriteRequestBytes = m.writeIos ? double(m.writeBytes) / double(m.writeIos) : 0;
    m.averageRequestBytes = m.readIos + m.writeIos
        ? double(m.readBytes + m.writeBytes) / double(m.readIos + m.writeIos)
        : 0;
    m.readAwaitMs = weighted(a.readAwaitMs, double(a.readIos), b.readAwaitMs, double(b.readIos));
    m.writeAwaitMs
        = weighted(a.writeAwaitMs, double(a.writeIos), b.writeAwaitMs, double(b.writeIos));
    m.flushAwaitMs
        = weighted(a.flushAwaitMs, double(a.flushIos), b.flushAwaitMs, double(b.flushIos));
    // Queue size and utilisation are time averages.
    m.queueSize = weighted(a.queueSize, sa, b.queueSize, sb);
    m.utilPercent = weighted(a.utilPercent, sa, b.utilPercent, sb);
    m.inFlight = b.inFlight;
    m.hasTimes = a.hasTimes && b.hasTimes;
    m.hasDiscards = a.hasDiscards && b.hasDiscards;
    m.hasFlushes = a.hasFlushes && b.hasFlushes;
    return m;
}

// The verdict of a merged span: one that is not agreement outranks agreement (a merged
// sample never hides that a part of it disagreed).
const DeviceVerdict &mergedVerdict(const DeviceVerdict &a, const DeviceVerdict &b)
{
    const auto quiet = [](Verdict v) {
        return v == Verdict::Agree || v == Verdict::Idle || v == Verdict::NoDeviceCounters;
    };
    return quiet(a.verdict) && !quiet(b.verdict) ? b : (quiet(b.verdict) ? a : b);
}

DeviceReport mergeReport(const DeviceReport &a, const DeviceReport &b)
{
    DeviceReport m;
    m.available = a.available && b.available;
    if (a.devices.size() == b.devices.size())
        for (std::size_t i = 0; i < a.devices.size(); ++i)
            m.devices.push_back(mergeDevice(a.devices[i], b.devices[i]));
    m.total = mergeDevice(a.total, b.total);
    m.verdict = m.available ? mergedVerdict(a.verdict, b.verdict) : DeviceVerdict {};
    m.verdict.writeBacklogBytes = b.verdict.writeBacklogBytes;
    m.verdict.writeCreditBytes = b.verdict.writeCreditBytes;
    return m;
}

bool mergeable(const IntervalSample &a, const IntervalSample &b)
{
    return a.step == b.step && a.phase == b.phase && a.scopes.size() == b.scopes.size();
}

} // namespace

std::size_t approximateBytes(const IntervalSample &s)
{
    const auto heap
        = [](const std::string &text) { return text.capacity() > 15 ? text.capacity() + 1 : 0; };
    std::size_t bytes = sizeof(IntervalSample) + heap(s.stepName)
        + s.devices.devices.capacity() * sizeof(DeviceFigures)
        + s.scopes.capacity() * sizeof(ScopeFigures);
    for (const auto &scope : s.scopes)
        bytes += heap(scope.scope.label) + heap(scope.scope.targetPath);
    bytes += s.readLatency.approximateBytes() + s.writeLatency.approximateBytes()
        + s.latencyBands.counts.capacity() * sizeof(std::uint64_t);
    return bytes;
}

LatencyBands intervalLatencyBands(const IntervalSample &sample)
{
    if (sample.readLatency.empty() && sample.writeLatency.empty())
        return sample.latencyBands;
    LatencyBands bands = latencyBandsOf(sample.readLatency);
    bands.merge(latencyBandsOf(sample.writeLatency));
    return bands;
}

IntervalSample mergeConsecutive(const IntervalSample &earlier, const IntervalSample &later)
{
    IntervalSample m;
    m.runId = later.runId;
    m.step = later.step;
    m.stepName = later.stepName;
    m.phase = later.phase;
    m.startSeconds = earlier.startSeconds;
    m.endSeconds = later.endSeconds;
    m.mergedIntervals = earlier.mergedIntervals + later.mergedIntervals;
    const double sa = earlier.endSeconds - earlier.startSeconds;
    const double sb = later.endSeconds - later.startSeconds;
    m.scopes.reserve(later.scopes.size());
    for (std::size_t i = 0; i < later.scopes.size() && i < earlier.scopes.size(); ++i)
        m.scopes.push_back({later.scopes[i].scope,
            mergeFigures(earlier.scopes[i].figures, later.scopes[i].figures)});
    m.cpu = weightedCpu({&earlier.cpu, &later.cpu}, {sa, sb});
    if (!m.scopes.empty())
        m.cpuEffectiveness = iopsPerCpuPercent(m.scopes[0].figures.total.iops, m.cpu);
    m.devices = mergeReport(earlier.devices, later.devices);
    m.readLatency = earlier.readLatency;
    m.readLatency.merge(later.readLatency);
    m.writeLatency = earlier.writeLatency;
    m.writeLatency.merge(later.writeLatency);
    m.latencyBands = earlier.latencyBands;
    m.latencyBands.merge(later.latencyBands);
    if (!m.scopes.empty()) // All's percentiles exact; the other scopes' an upper bound
        makeLatencyExact(m.scopes.front().figures, m.readLatency, m.writeLatency);
    return m;
}

void IntervalHistory::add(IntervalSample sample)
{
    m_bytes += approximateBytes(sample);
    m_samples.push_back(std::move(sample));
    while (m_bytes > m_budgetBytes) {
        const std::size_t before = m_samples.size();
        halve();
        if (m_samples.size() == before)
            break; // nothing left to merge (one sample per step and phase)
    }
}

void IntervalHistory::halve()
{
    std::vector<IntervalSample> merged;
    merged.reserve(m_samples.size() / 2 + 1);
    for (std::size_t i = 0; i < m_samples.size();) {
        if (i + 1 < m_samples.size() && mergeable(m_samples[i], m_samples[i + 1])) {
            merged.push_back(mergeConsecutive(m_samples[i], m_samples[i + 1]));
            i += 2;
        } else {
            merged.push_back(std::move(m_samples[i]));
            i += 1;
        }
    }
    m_samples = std::move(merged);
    m_bytes = 0;
    for (const auto &s : m_samples)
        m_bytes += approximateBytes(s);
}

} // namespace ioprism::core
