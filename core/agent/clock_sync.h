// SPDX-License-Identifier: GPL-3.0-or-later
// The offset of an agent's monotonic clock against the controller's, from round trips
// (NTP's clock filter, simplified to what one connection needs).
//
// A sample is one `clock` exchange: the controller's time when it sent the request (t1),
// the agent's time when it answered (t2), the controller's time when the answer came
// back (t3). If the two legs took the same time, the agent's clock read t2 at the
// controller's (t1 + t3) / 2, so offset = t2 - (t1 + t3) / 2. Whatever the split of the
// round trip between the legs, the true offset lies within +- (t3 - t1) / 2 of that: the
// error bound is half the round trip. The sample with the shortest round trip therefore
// has the smallest bound, and a sample delayed by a busy network or a descheduled thread
// (a long round trip, an asymmetric one) is simply not chosen.
#pragma once

#include "core/run/step_gate.h"

#include <chrono>
#include <optional>
#include <span>

namespace ioprism::core {

struct ClockSample {
    std::chrono::nanoseconds controllerSent {0}; // t1, controller's clock
    std::chrono::nanoseconds agent {0}; // t2, agent's clock
    std::chrono::nanoseconds controllerReceived {0}; // t3, controller's clock
};

// The estimate from the sample of shortest round trip: offset (agent = controller +
// offset), uncertainty (half that round trip) and the number of usable samples. A
// sample received before it was sent (a damaged one) is not used; nullopt when none is
// usable.
std::optional<ClockOffset> estimateClockOffset(std::span<const ClockSample> samples);

// How many samples a connection measures when it opens and before each run.
inline constexpr std::size_t kClockSamplesPerSync = 8;

} // namespace ioprism::core
