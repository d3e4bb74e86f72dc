// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/figures.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ioprism::core {

void DirectionMeasurement::add(const DirectionMeasurement &o)
{
    bytes += o.bytes;
    errors += o.errors;
    histogram.merge(o.histogram);
    bins.merge(o.bins);
    minNs = std::min(minNs, o.minNs);
    maxNs = std::max(maxNs, o.maxNs);
    oldestInFlightNs = std::max(oldestInFlightNs, o.oldestInFlightNs);
    stalledIos += o.stalledIos;
}

void DirectionMeasurement::append(const DirectionMeasurement &later)
{
    const std::uint32_t stalled = std::max(stalledIos, later.stalledIos);
    add(later);
    stalledIos = stalled;
}

void PhaseMeasurement::add(const PhaseMeasurement &o)
{
    histogram.merge(o.histogram);
    errors += o.errors;
    minNs = std::min(minNs, o.minNs);
    maxNs = std::max(maxNs, o.maxNs);
}

void ConnectionMeasurement::add(const ConnectionMeasurement &o)
{
    open.add(o.open);
    close.add(o.close);
    connection.add(o.connection);
}

// Counts and histograms of a span add up whether the other scope is beside it or after
// it; extremes keep the worst.
static void addConnections(
    std::optional<ConnectionMeasurement> &into, const std::optional<ConnectionMeasurement> &o)
{
    if (!o)
        return;
    if (!into)
        into.emplace();
    into->add(*o);
}

void Measurement::add(const Measurement &o)
{
    addConnections(connections, o.connections);
    read.add(o.read);
    write.add(o.write);
    transactions += o.transactions;
    inFlightAtEnd += o.inFlightAtEnd;
    elapsed = std::max(elapsed, o.elapsed);
}

void Measurement::append(const Measurement &later)
{
    addConnections(connections, later.connections);
    read.append(later.read);
    write.append(later.write);
    transactions += later.transactions;
    inFlightAtEnd = later.inFlightAtEnd;
    elapsed += later.elapsed;
}

LatencyFigures latencyFigures(const LatencyHistogram &h, std::uint64_t minNs, std::uint64_t maxNs)
{
    LatencyFigures f;
    if (h.count() == 0) {
        // Nothing completed: only an I/O still in flight has a latency to show.
        f.maxUs = maxNs != 0 ? double(maxNs) * 1e-3 : 0;
        return f;
    }
    constexpr double us = 1e-3;
    // The exact extremes of the span when the caller has them (interval extremes are
    // taken, not subtracted); otherwise the histogram's own.
    f.minUs = double(minNs != UINT64_MAX ? minNs : h.minNs()) * us;
    f.maxUs = double(maxNs != 0 ? maxNs : h.maxNs()) * us;
    f.meanUs = h.meanNs() * us;
    f.p50Us = h.percentileNs(50) * us;
    f.p90Us = h.percentileNs(90) * us;
    f.p99Us = h.percentileNs(99) * us;
    f.p99_9Us = h.percentileNs(99.9) * us;
    f.p99_99Us = h.percentileNs(99.99) * us;
    // Percentiles are bucket estimates: keep them inside the exact extremes.
    for (double *p : {&f.p50Us, &f.p90Us, &f.p99Us, &f.p99_9Us, &f.p99_99Us})
        *p = std::clamp(*p, f.minUs, f.maxUs);
    return f;
}

static DirectionFigures directionFigures(const DirectionMeasurement &m, double seconds)
{
    DirectionFigures f;
    f.ios = m.histogram.count();
    f.bytes = m.bytes;
    f.errors = m.errors;
    if (seconds > 0) {
        f.iops = double(f.ios) / seconds;
        f.megabytesPerSecond = double(f.bytes) / 1e6 / seconds;
        f.mebibytesPerSecond = double(f.bytes) / 1048576.0 / seconds;
    }
    f.oldestInFlightUs = double(m.oldestInFlightNs) * 1e-3;
    f.stalledIos = m.stalledIos;
    const std::uint64_t completedMaxNs = m.maxNs != 0 ? m.maxNs : m.histogram.maxNs();
    f.latency = latencyFigures(m.histogram, m.minNs, std::max(completedMaxNs, m.oldestInFlightNs));
    return f;
}

static PhaseFigures phaseFigures(const PhaseMeasurement &m, double seconds)
{
    PhaseFigures f;
    f.count = m.histogram.count();
    f.errors = m.errors;
    f.perSecond = seconds > 0 ? double(f.count) / seconds : 0;
    f.latency = latencyFigures(m.histogram, m.minNs, m.maxNs);
    return f;
}

Figures computeFigures(const Measurement &m)
{
    Figures f;
    f.seconds = std::chrono::duration<double>(m.elapsed).count();
    f.read = directionFigures(m.read, f.seconds);
    f.write = directionFigures(m.write, f.seconds);
    DirectionMeasurement both = m.read;
    both.add(m.write);
    f.total = directionFigures(both, f.seconds);
    f.transactionsPerSecond = f.seconds > 0 ? double(m.transactions) / f.seconds : 0;
    f.inFlightAtEnd = m.inFlightAtEnd;
    if (m.connections)
        f.connections = ConnectionFigures {.open = phaseFigures(m.connections->open, f.seconds),
            .close = phaseFigures(m.connections->close, f.seconds),
            .connection = phaseFigures(m.connections->connection, f.seconds)};
    return f;
}

std::uint64_t nsFromUs(double us)
{
    if (!(us > 0) || !std::isfinite(us) || us * 1e3 >= 9.0e18)
        return 0;
    const auto guess = static_cast<std::uint64_t>(std::llround(us * 1e3));
    for (std::uint64_t c = guess > 2 ? guess - 2 : 0; c <= guess + 2; ++c)
        if (double(c) * 1e-3 == us)
            return c;
    return guess;
}

std::uint64_t sumNsFromMeanUs(double meanUs, std::uint64_t count)
{
    if (count == 0 || !(meanUs > 0) || !std::isfinite(meanUs))
        return 0;
    const long double total = static_cast<long double>(meanUs) * 1e3L * count;
    if (total >= 9.0e18L)
        return std::numeric_limits<std::uint64_t>::max();
    const auto guess = static_cast<std::uint64_t>(std::llround(total));
    for (std::uint64_t c = guess > 2 ? guess - 2 : 0; c <= guess + 2; ++c)
        if (double(c) / double(count) * 1e-3 == meanUs)
            return c;
    return guess;
}

LatencyFigures exactLatency(const SparseLatencyHistogram &histogram, double maxUs)
{
    LatencyFigures l = latencyFigures(histogram.dense(), histogram.minNs, histogram.maxNs);
    l.maxUs = std::max(l.maxUs, maxUs);
    return l;
}

void makeLatencyExact(
    Figures &all, const SparseLatencyHistogram &read, const SparseLatencyHistogram &write)
{
    const auto exact = [](DirectionFigures &d, const SparseLatencyHistogram &h) {
        if (d.ios > 0 && h.count() == d.ios)
            d.latency = exactLatency(h, d.latency.maxUs);
    };
    exact(all.read, read);
    exact(all.write, write);
    SparseLatencyHistogram both = read;
    both.merge(write);
    exact(all.total, both);
}

LatencyFigures mergeLatency(
    const LatencyFigures &x, std::uint64_t countX, const LatencyFigures &y, std::uint64_t countY)
{
    LatencyFigures l;
    if (countX > 0 && countY > 0) {
        l.minUs = std::min(x.minUs, y.minUs);
        l.meanUs
            = (x.meanUs * double(countX) + y.meanUs * double(countY)) / double(countX + countY);
        l.p50Us = std::max(x.p50Us, y.p50Us);
        l.p90Us = std::max(x.p90Us, y.p90Us);
        l.p99Us = std::max(x.p99Us, y.p99Us);
        l.p99_9Us = std::max(x.p99_9Us, y.p99_9Us);
        l.p99_99Us = std::max(x.p99_99Us, y.p99_99Us);
    } else if (countX > 0) {
        l = x;
    } else if (countY > 0) {
        l = y;
    }
    l.maxUs = std::max(x.maxUs, y.maxUs); // in-flight ages included
    return l;
}

namespace {

PhaseFigures mergePhase(const PhaseFigures &a, const PhaseFigures &b, double seconds)
{
    PhaseFigures m;
    m.count = a.count + b.count;
    m.errors = a.errors + b.errors;
    m.perSecond = seconds > 0 ? double(m.count) / seconds : 0;
    m.latency = mergeLatency(a.latency, a.count, b.latency, b.count);
    return m;
}

} // namespace

std::optional<ConnectionFigures> mergeConnections(const std::optional<ConnectionFigures> &a,
    const std::optional<ConnectionFigures> &b, double seconds)
{
    if (!a && !b)
        return std::nullopt;
    const ConnectionFigures none;
    const ConnectionFigures &x = a ? *a : none;
    const ConnectionFigures &y = b ? *b : none;
    return ConnectionFigures {.open = mergePhase(x.open, y.open, seconds),
        .close = mergePhase(x.close, y.close, seconds),
        .connection = mergePhase(x.connection, y.connection, seconds)};
}

} // namespace ioprism::core
