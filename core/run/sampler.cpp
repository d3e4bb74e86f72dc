// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/sampler.h"

#include "core/run/device_report.h"

namespace ioprism::core {

namespace {

double sampleSeconds(Sampler::Clock::time_point from, Sampler::Clock::time_point to)
{
    return std::chrono::duration<double>(to - from).count();
}

std::int64_t sampleNs(Sampler::Clock::time_point t)
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

} // namespace

Sampler::Sampler(
    Config config, CounterSource &counters, WriteBalance balance, Clock::time_point start)
    : m_config(std::move(config))
    , m_counters(counters)
    , m_lastTick(start)
    , m_balance(balance)
    , m_measureBalance(balance)
{
    m_scopes.push_back({Scope::Kind::All, -1, -1, "All", {}});
    m_live.push_back(nullptr);
    m_comparedScope.push_back(false);
    for (const auto &w : m_config.workers) {
        m_scopes.push_back({Scope::Kind::Worker, w.planWorker, -1, w.name, {}});
        m_live.push_back(nullptr);
        m_comparedScope.push_back(false);
        for (std::size_t t = 0; t < w.targets.size(); ++t) {
            const auto &target = w.targets[t];
            m_scopes.push_back({Scope::Kind::Target, w.planWorker, target.planTarget,
                w.name + " / " + target.path, target.path});
            m_live.push_back(target.counters);
            m_comparedScope.push_back(target.compared);
        }
    }
    m_previous.resize(m_scopes.size());
    m_deltas.resize(m_scopes.size());
    m_totals.resize(m_scopes.size());
    m_last = m_counters.sample();
    m_measureStart = m_last;
}

VerdictInput Sampler::appBytes(const std::vector<Measurement> &m, WriteBalance balance) const
{
    VerdictInput in;
    in.buffered = m_config.comparedBuffered;
    in.opensFiles = m_config.opensFiles;
    for (std::size_t i = 0; i < m.size(); ++i)
        if (m_comparedScope[i]) {
            in.appReadBytes += m[i].read.bytes;
            in.appWriteBytes += m[i].write.bytes;
            if (m[i].connections)
                in.opens
                    += m[i].connections->open.histogram.count() + m[i].connections->open.errors;
        }
    in.writeBacklogBytes = balance.backlogBytes;
    in.writeCreditBytes = balance.creditBytes;
    in.inFlightWriteBytes = m_config.inFlightWriteBytes;
    in.writeSpanBytes = m_config.writeSpanBytes;
    return in;
}

IntervalSample Sampler::tick(Clock::time_point now, RunPhase phase)
{
    IntervalSample sample;
    sample.runId = m_config.runId;
    sample.step = m_config.step;
    sample.stepName = m_config.stepName;
    sample.phase = phase;
    sample.startSeconds = sampleSeconds(m_config.runStart, m_lastTick);
    sample.endSeconds = sampleSeconds(m_config.runStart, now);
    const auto elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(now - m_lastTick);
    const std::int64_t nowNs = sampleNs(now);
    const std::int64_t stallNs = m_config.stallThreshold.count();

    // Targets first, then each worker and All as sums over the same span. The buffers
    // are the sampler's own, reused: a tick allocates only what the sample keeps.
    std::size_t workerScope = 0;
    for (std::size_t i = 0; i < m_scopes.size(); ++i) {
        Measurement &d = m_deltas[i];
        d = Measurement {};
        switch (m_scopes[i].kind) {
        case Scope::Kind::All:
        case Scope::Kind::Host: // a sampler samples one host: hosts meet in mergeHostRuns
            break;
        case Scope::Kind::Worker:
            workerScope = i;
            break;
        case Scope::Kind::Target:
            takeSnapshot(*m_live[i], m_current);
            takeInFlight(*m_live[i], nowNs, stallNs, m_current);
            d = deltaOf(m_previous[i], m_current);
            std::swap(m_previous[i], m_current);
            m_deltas[workerScope].add(d);
            m_deltas[0].add(d);
            break;
        }
    }

    CounterSnapshot counters = m_counters.sample();
    sample.cpu = cpuFigures(m_last.cpu, counters.cpu);
    sample.devices = makeDeviceReport(m_config.deviceMap, m_last, counters, elapsed,
        appBytes(m_deltas, m_balance), m_config.verdict, m_deltas[0]);
    if (sample.devices.available)
        m_balance
            = {sample.devices.verdict.writeBacklogBytes, sample.devices.verdict.writeCreditBytes};
    m_last = std::move(counters);

    const auto &all = m_deltas[0];
    sample.readLatency
        = SparseLatencyHistogram::of(all.read.histogram, all.read.minNs, all.read.maxNs);
    sample.writeLatency
        = SparseLatencyHistogram::of(all.write.histogram, all.write.minNs, all.write.maxNs);
    sample.scopes.reserve(m_scopes.size());
    for (std::size_t i = 0; i < m_scopes.size(); ++i) {
        m_deltas[i].elapsed = elapsed;
        sample.scopes.push_back({m_scopes[i], computeFigures(m_deltas[i])});
    }
    sample.cpuEffectiveness = iopsPerCpuPercent(sample.scopes[0].figures.total.iops, sample.cpu);
    // Preconditioning has no ramp-up: all of it is its figures (kept apart by the run).
    if (phase == RunPhase::Measuring || phase == RunPhase::Preconditioning) {
        m_measured += elapsed;
        for (std::size_t i = 0; i < m_scopes.size(); ++i)
            m_totals[i].append(m_deltas[i]);
    }
    m_lastTick = now;
    return sample;
}

void Sampler::startMeasuring()
{
    m_measureStart = m_last;
    m_measureBalance = m_balance;
    m_measureStartBytes = 0;
    for (const auto &m : m_previous)
        m_measureStartBytes += m.read.bytes + m.write.bytes;
}

std::uint64_t Sampler::measuredBytesNow() const
{
    std::uint64_t bytes = 0;
    for (const LiveTargetCounters *live : m_live)
        if (live)
            bytes += live->read.bytes.load() + live->write.bytes.load();
    return bytes - std::min(bytes, m_measureStartBytes);
}

StepResult Sampler::stepResult(bool complete) const
{
    StepResult sr;
    sr.step = m_config.step;
    sr.stepName = m_config.stepName;
    sr.measuredSeconds = std::chrono::duration<double>(m_measured).count();
    sr.complete = complete;
    sr.cpu = cpuFigures(m_measureStart.cpu, m_last.cpu);
    for (std::size_t i = 0; i < m_scopes.size(); ++i) {
        Measurement total = m_totals[i];
        total.elapsed = m_measured;
        sr.scopes.push_back({m_scopes[i], total, computeFigures(total)});
    }
    sr.cpuEffectiveness = iopsPerCpuPercent(sr.scopes[0].figures.total.iops, sr.cpu);
    sr.devices = makeDeviceReport(m_config.deviceMap, m_measureStart, m_last, m_measured,
        appBytes(m_totals, m_measureBalance), m_config.verdict, m_totals[0]);
    return sr;
}

} // namespace ioprism::core
