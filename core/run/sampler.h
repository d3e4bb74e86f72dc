// SPDX-License-Identifier: GPL-3.0-or-later
// One step's sampler: the step's scopes (All, each active worker, each of its targets),
// the previous cumulative snapshot of every worker's counters, the running totals of
// the measured phase, and the write balance against the devices.
//
// The run's Asio timer calls tick(now) at each interval boundary, on the run's control
// thread; the sampler itself has no clock and no timer, so tests drive it with a fake
// clock, live counters they bump themselves and a scripted CounterSource.
//
// What a tick does: for every target of every worker, a snapshot of its cumulative
// counters (LiveTargetCounters, lock-free) and of the I/O still in flight; the delta
// against the previous snapshot is the interval; workers and All are sums of their
// targets over the same span. The CounterSource is sampled on the same boundary, so CPU
// and device figures cover exactly the same span as the application's.
#pragma once

#include "core/counters.h"
#include "core/run/results.h"
#include "core/stats/live_counters.h"
#include "core/stats/verdict.h"

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ioprism::core {

class Sampler
{
public:
    using Clock = std::chrono::steady_clock;

    struct TargetCounters {
        std::string path; // the profile's target path (scopes and reports name it)
        LiveTargetCounters *counters
            = nullptr; // owned by the step; read (and its interval extremes taken) here
        bool compared = false; // carried by a watched device: its bytes meet the device's
        int planTarget = 0; // index in the plan worker's targets (Scope::target)
    };
    struct WorkerCounters {
        int planWorker = 0; // index in the plan (Scope::worker)
        std::string name;
        std::vector<TargetCounters> targets;
    };
    struct Config {
        std::uint64_t runId = 0;
        std::size_t step = 0;
        std::string stepName;
        std::vector<WorkerCounters> workers; // the step's active workers, in plan order
        bool comparedBuffered = false; // a compared target is written through the cache
        bool opensFiles = false; // a target opens and closes files (VerdictInput::opensFiles)
        std::uint64_t inFlightWriteBytes = 0; // the limit of the devices' credit
        // The limit of the backlog (VerdictInput::writeSpanBytes).
        std::uint64_t writeSpanBytes = std::numeric_limits<std::uint64_t>::max();
        DeviceMap deviceMap; // the run's watched devices
        VerdictPolicy verdict;
        std::chrono::nanoseconds stallThreshold {0}; // in-flight I/O older is "stalled"
        Clock::time_point runStart; // sample times are seconds since this
    };

    // `start` is the step's first boundary; `balance` the write balance the previous
    // step left. Takes the first counter snapshot.
    Sampler(Config config, CounterSource &counters, WriteBalance balance, Clock::time_point start);

    const std::vector<Scope> &scopes() const { return m_scopes; }
    Clock::time_point lastTick() const { return m_lastTick; }

    // Samples [lastTick(), now) in `phase`: figures per scope, CPU, devices and the
    // verdict; a measuring interval also counts in the step's totals.
    IntervalSample tick(Clock::time_point now, RunPhase phase);
    // Ramp-up ended at the last tick: the step's CPU, devices and write balance start
    // from there.
    void startMeasuring();
    // The bytes read and written since measuring began (since the step began, without a
    // ramp-up), from the live counters now, between ticks: stonewalling's check
    // (RunSettings::stonewallBytes).
    std::uint64_t measuredBytesNow() const;
    // The step's totals over its measuring intervals.
    StepResult stepResult(bool complete) const;
    // What the next step inherits: the backlog of application writes not yet seen at the
    // devices. The devices' lead (credit) is dropped: at the end of a step it is I/O the
    // workers drained after the last sample, which no step counts.
    WriteBalance balanceForNextStep() const { return {m_balance.backlogBytes, 0}; }

private:
    VerdictInput appBytes(const std::vector<Measurement> &m, WriteBalance balance) const;

    Config m_config;
    CounterSource &m_counters;
    std::vector<Scope> m_scopes;
    std::vector<bool> m_comparedScope; // target scopes whose bytes meet the devices'
    std::vector<LiveTargetCounters *> m_live; // per target scope, in scope order
    std::vector<Measurement> m_previous; // per target scope: the last snapshot
    std::vector<Measurement> m_deltas; // per scope, reused by every tick
    std::vector<Measurement> m_totals; // per scope, over the measuring intervals
    Measurement m_current; // scratch for one snapshot
    std::chrono::nanoseconds m_measured {0};
    Clock::time_point m_lastTick;
    CounterSnapshot m_last, m_measureStart;
    WriteBalance m_balance, m_measureBalance;
    std::uint64_t m_measureStartBytes = 0;
};

} // namespace ioprism::core
