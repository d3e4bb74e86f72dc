// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/agent/clock_sync.h"

namespace ioprism::core {

std::optional<ClockOffset> estimateClockOffset(std::span<const ClockSample> samples)
{
    std::optional<ClockSample> best;
    std::size_t usable = 0;
    for (const auto &s : samples) {
        if (s.controllerReceived < s.controllerSent)
            continue;
        ++usable;
        const auto roundTrip = s.controllerReceived - s.controllerSent;
        if (!best || roundTrip < best->controllerReceived - best->controllerSent)
            best = s;
    }
    if (!best)
        return std::nullopt;
    const auto roundTrip = best->controllerReceived - best->controllerSent;
    // (t1 + t3) / 2 without overflow: t1 + (t3 - t1) / 2.
    const auto midpoint = best->controllerSent + roundTrip / 2;
    ClockOffset estimate;
    estimate.offset = best->agent - midpoint;
    // Rounded up: the bound must not be below the truth for an odd round trip.
    estimate.uncertainty = (roundTrip + std::chrono::nanoseconds(1)) / 2;
    estimate.samples = usable;
    return estimate;
}

} // namespace ioprism::core
