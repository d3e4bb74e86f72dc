// SPDX-License-Identifier: GPL-3.0-or-later
// Steps that start together on several hosts (Iometer's managers, agents, MPI ranks).
//
// Each host runs its own core::Run. Before each step, once the step's workers are ready
// (engines, buffers, files open), the run asks its StepGate when to start: the gate of a
// multi-host run answers once every host is ready for that step, with one start time for
// all of them, a little in the future so that the answer reaches every host first (each
// host's time converted to its own clock with the offset measured for it). The run then
// sleeps until that time and starts its workers, so ramp-up and measurement begin and end
// together everywhere. Preparation (creating and filling test files) is not gated: every
// host prepares at once, and the first step's gate is the barrier after it.
//
// The StepBarrier is the controller's side: it collects the hosts' arrivals for a step
// and releases them all together, or none (a host failed, the user stopped).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

namespace ioprism::core {

// When a step starts on this host's monotonic clock (now or later); nullopt: it does not
// start, and the run stops as if Stop had been pressed (keeping what it measured).
using StepStart = std::optional<std::chrono::steady_clock::time_point>;

// A host's monotonic clock against the controller's: host time = controller time +
// offset, known within +- uncertainty (half the shortest round trip measured, NTP's clock
// filter). Estimated by whoever talks to the host (core/agent), reported in the results.
struct ClockOffset {
    std::chrono::nanoseconds offset {0};
    std::chrono::nanoseconds uncertainty {0};
    std::size_t samples = 0; // round trips measured
    friend bool operator==(const ClockOffset &, const ClockOffset &) = default;
};

// Called on the run's control thread before every step of the plan, in order, once the
// step's workers are ready, and also for a step this host skips (none of its workers
// runs in it), so that every host passes the same gates. Blocks until the step may start.
// The run waits for the returned time in short slices and ends the wait at a Stop. An
// unset gate: every step starts at once (a run on one host).
using StepGate = std::function<StepStart(std::size_t step)>;

// Called on the run's control thread when this host's step `step` has moved its amount
// (RunSettings::stonewallBytes): the step ends here, and a run of several hosts ends it
// on the others too (StepBarrier::stonewall). Must not block.
using StepAmountDone = std::function<void(std::size_t step)>;

// The controller's barrier across `parties` hosts, numbered 0..parties-1. Thread-safe.
class StepBarrier
{
public:
    // Releases one party: the step's start on the controller's clock, or nullopt.
    using Release = std::function<void(StepStart startAt)>;

    // Each step starts `lead` after the last party arrived: long enough for the start
    // message to reach every host (a few round trips), short enough not to be seen.
    StepBarrier(std::size_t parties, std::chrono::milliseconds lead);

    // Party `party` is ready for `step`. When every party that has not left has arrived
    // for that step, every one's `release` is called with the same start time, on the
    // thread of the last to arrive (or of leave()). After cancel(), `release` is called at
    // once with nullopt. A party arrives for steps in increasing order.
    void arrive(std::size_t party, std::size_t step, Release release);

    // The blocking form, for a run in this process: arrives and waits for the release.
    StepStart arriveAndWait(std::size_t party, std::size_t step);

    // No step starts any more: every waiting party and every later arrival is released
    // with nullopt (a host failed or disconnected, the user stopped the run).
    void cancel();
    bool cancelled() const;

    // A party whose run has ended (it finished its steps, or it failed: then the caller
    // cancels too): later steps no longer wait for it.
    void leave(std::size_t party);

    // The start of the last step released, on the controller's clock (for reports).
    StepStart lastStart() const;

    // Stonewalling: `party` has moved its amount in `step` (StepAmountDone). The first
    // party to say so for a step calls `onStonewall` (set before any step starts), which
    // ends that step on every party; later ones for the same step are ignored.
    using OnStonewall = std::function<void(std::size_t party, std::size_t step)>;
    void setOnStonewall(OnStonewall onStonewall);
    void stonewall(std::size_t party, std::size_t step);

private:
    struct Waiting {
        std::size_t step = 0;
        Release release;
    };
    void releaseIfComplete(std::unique_lock<std::mutex> &lock, std::size_t step);

    const std::size_t m_parties;
    const std::chrono::milliseconds m_lead;
    mutable std::mutex m_mutex;
    std::vector<std::optional<Waiting>> m_waiting; // by party
    std::vector<bool> m_left; // by party
    bool m_cancelled = false;
    StepStart m_lastStart;
    OnStonewall m_onStonewall;
    std::optional<std::size_t> m_stonewalledStep; // the last step a party stonewalled
};

} // namespace ioprism::core
