#include "core/stats/live_counters.h"

namespace ioprism::core {

static void takeDirection(LiveDirection &live, DirectionMeasurement &out)
{
    live.histogram.snapshotInto(out.histogram, out.bins);
    out.bytes = live.bytes.load();
    out.errors = live.errors.load();
    out.minNs = live.histogram.takeIntervalMinNs();
    out.maxNs = live.histogram.takeIntervalMaxNs();
}

void takeSnapshot(LiveTargetCounters &live, Measurement &out)
{
    takeDirection(live.read, out.read);
    takeDirection(live.write, out.write);
    out.transactions = live.transactions.load();
    out.outstanding = live.outstanding.load(std::memory_order_relaxed);
}

static DirectionMeasurement deltaDirection(
    const DirectionMeasurement &a, const DirectionMeasurement &b)
{
    DirectionMeasurement d = b;
    d.histogram.subtract(a.histogram);
    d.bins.subtract(a.bins);
    d.bytes = b.bytes - a.bytes;
    d.errors = b.errors - a.errors;
    return d;
}

Measurement deltaOf(const Measurement &earlier, const Measurement &later)
{
    Measurement d;
    d.read = deltaDirection(earlier.read, later.read);
    d.write = deltaDirection(earlier.write, later.write);
    d.transactions = later.transactions - earlier.transactions;
    d.outstanding = later.outstanding;
    return d;
}

} // namespace ioprism::core
