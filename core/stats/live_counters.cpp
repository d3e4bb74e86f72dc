// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/live_counters.h"

#include <algorithm>

namespace ioprism::core {

static void takeDirection(LiveDirection &live, DirectionMeasurement &out)
{
    live.histogram.snapshotInto(out.histogram, out.bins);
    out.bytes = live.bytes.load();
    out.errors = live.errors.load();
    out.minNs = live.histogram.takeIntervalMinNs();
    out.maxNs = live.histogram.takeIntervalMaxNs();
}

static void takePhase(LivePhase &live, PhaseMeasurement &out)
{
    IometerBins unused;
    live.histogram.snapshotInto(out.histogram, unused);
    out.errors = live.errors.load();
    out.minNs = live.histogram.takeIntervalMinNs();
    out.maxNs = live.histogram.takeIntervalMaxNs();
}

void takeSnapshot(LiveTargetCounters &live, Measurement &out)
{
    if (live.connections) {
        auto &c = out.connections ? *out.connections : out.connections.emplace();
        takePhase(live.connections->open, c.open);
        takePhase(live.connections->close, c.close);
        takePhase(live.connections->connection, c.connection);
    } else {
        out.connections.reset();
    }
    takeDirection(live.read, out.read);
    takeDirection(live.write, out.write);
    out.transactions = live.transactions.load();
    out.inFlightAtEnd = live.inFlight.load(std::memory_order_relaxed);
}

void takeInFlight(
    const LiveTargetCounters &live, std::int64_t nowNs, std::int64_t stallNs, Measurement &out)
{
    for (auto *d : {&out.read, &out.write}) {
        d->oldestInFlightNs = 0;
        d->stalledIos = 0;
    }
    for (const auto &slot : live.inFlightSince) {
        const std::int64_t since = slot.load(std::memory_order_relaxed);
        if (since == 0)
            continue;
        auto &d = inFlightDirection(since) == IoDirection::Write ? out.write : out.read;
        const std::int64_t age = std::max<std::int64_t>(nowNs - inFlightSubmitNs(since), 0);
        d.oldestInFlightNs = std::max(d.oldestInFlightNs, std::uint64_t(age));
        if (stallNs > 0 && age >= stallNs)
            ++d.stalledIos;
    }
}

static DirectionMeasurement deltaDirection(
    const DirectionMeasurement &a, const DirectionMeasurement &b)
{
    DirectionMeasurement d = b;
    d.histogram.subtract(a.histogram);
    d.histogram.fitExtremes(d.minNs, d.maxNs);
    d.bins.subtract(a.bins);
    d.bytes = b.bytes - a.bytes;
    d.errors = b.errors - a.errors;
    return d;
}

static PhaseMeasurement deltaPhase(const PhaseMeasurement &a, const PhaseMeasurement &b)
{
    PhaseMeasurement d = b;
    d.histogram.subtract(a.histogram);
    d.histogram.fitExtremes(d.minNs, d.maxNs);
    d.errors = b.errors - a.errors;
    return d;
}

Measurement deltaOf(const Measurement &earlier, const Measurement &later)
{
    Measurement d;
    if (later.connections) {
        const ConnectionMeasurement none;
        const ConnectionMeasurement &a = earlier.connections ? *earlier.connections : none;
        d.connections = ConnectionMeasurement {.open = deltaPhase(a.open, later.connections->open),
            .close = deltaPhase(a.close, later.connections->close),
            .connection = deltaPhase(a.connection, later.connections->connection)};
    }
    d.read = deltaDirection(earlier.read, later.read);
    d.write = deltaDirection(earlier.write, later.write);
    d.transactions = later.transactions - earlier.transactions;
    d.inFlightAtEnd = later.inFlightAtEnd;
    return d;
}

} // namespace ioprism::core
