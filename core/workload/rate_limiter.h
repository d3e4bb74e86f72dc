// SPDX-License-Identifier: GPL-3.0-or-later
// IOPS and bandwidth caps (fio's rate_iops / rate), as a token bucket on a clock the
// caller supplies, so it is tested with a fake clock and costs no system call.
#pragma once

#include "core/profile/profile.h"

#include <chrono>
#include <cstdint>

namespace ioprism::core {

// A token bucket per limit, written in virtual-time form (GCRA): each limit keeps the
// theoretical time `paidUntil` at which everything started so far is paid for at the
// configured rate; an I/O costs 1 / iops seconds on the IOPS limit and bytes / (MB/s x
// 10^6) seconds on the bandwidth limit (decimal megabytes, as the profile says).
//
//  - An I/O may start once now >= paidUntil - burstTolerance on every limit; its cost
//    is charged when it starts (consume). So an I/O larger than the burst allowance
//    still runs, and the one after it waits until it is paid for: the long-term rate is
//    exact, never above the cap, for any mix of sizes.
//  - Burst tolerance (default 1 ms): after an idle period the bucket holds at most
//    burstTolerance worth of budget, i.e. at most burstTolerance x rate + 1 I/Os can
//    start back to back. It also absorbs wake-up lateness up to that amount: a worker
//    that sleeps until earliestStart() and wakes up to 1 ms late loses no rate.
//  - Both limits set: the slower one governs each I/O. Both 0: unlimited, earliestStart
//    returns now and consume does nothing.
//  - Time is any monotonic nanosecond count (the worker's steady clock); it must not go
//    backwards between calls.
//
// One limiter per rate-limited stream (the worker keeps one per line that has a
// RateLimit). Not thread-safe.
class RateLimiter
{
public:
    static constexpr std::chrono::nanoseconds kDefaultBurstTolerance {1'000'000};

    explicit RateLimiter(const RateLimit &limit,
        std::chrono::nanoseconds burstTolerance = kDefaultBurstTolerance) noexcept;

    bool unlimited() const noexcept { return !m_iops.active && !m_bandwidth.active; }

    // When the next I/O of `bytes` bytes may start: `now` if it may start at once, or a
    // later time to wait for. The charge happens at start, so the answer does not depend
    // on `bytes` today; the parameter keeps the contract open to a size-aware policy.
    std::chrono::nanoseconds earliestStart(
        std::chrono::nanoseconds now, std::uint32_t bytes) const noexcept;

    // Charges an I/O of `bytes` bytes started at `now` (normally the value
    // earliestStart returned, or the actual start time if later).
    void consume(std::chrono::nanoseconds now, std::uint32_t bytes) noexcept;

private:
    struct Bucket {
        bool active = false;
        double costPerIoNs = 0; // IOPS limit
        double costPerByteNs = 0; // bandwidth limit
        // paidUntil = wholeNs + fractionNs, kept split so that long runs on a large
        // clock value keep sub-nanosecond accuracy (a double alone has ~0.1 ns
        // resolution at 10^15 ns and 128 ns at 10^18).
        std::int64_t wholeNs = 0;
        double fractionNs = 0; // [0, 1)
        bool started = false;
    };

    static std::int64_t earliest(
        const Bucket &b, std::int64_t now, std::int64_t tolerance) noexcept;
    static void charge(Bucket &b, std::int64_t now, double costNs) noexcept;

    Bucket m_iops;
    Bucket m_bandwidth;
    std::int64_t m_toleranceNs;
};

} // namespace ioprism::core
