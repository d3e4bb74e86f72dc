// SPDX-License-Identifier: GPL-3.0-or-later
// Measurements (raw counts and histograms over a span of time) and the figures derived
// from them (IOPS, MB/s, latency percentiles). One derivation serves intervals, run
// totals, every scope (all / worker / target), the CLI, the GUI and the reports.
#pragma once

#include "core/stats/histogram.h"

#include <chrono>
#include <cstdint>

namespace ioprism::core {

// One direction (reads or writes) over a span.
struct DirectionMeasurement {
    std::uint64_t bytes = 0;
    std::uint64_t errors = 0;
    LatencyHistogram histogram; // one entry per completed I/O; count() = I/Os
    IometerBins bins;
    // Exact extremes over the span; minNs == UINT64_MAX when nothing completed.
    std::uint64_t minNs = UINT64_MAX;
    std::uint64_t maxNs = 0;
    // I/O still in flight when the span ended: the age of the oldest (0: none) and how
    // many had been in flight longer than the run's stall threshold. An I/O the device
    // has not completed has already taken that long, so the oldest age counts in the
    // span's maximum latency (figures.cpp), and a stalled device is never hidden.
    std::uint64_t oldestInFlightNs = 0;
    std::uint32_t stalledIos = 0;

    // Adds another scope's measurement over the SAME span.
    void add(const DirectionMeasurement &other);
    // Adds the measurement of the span that FOLLOWS this one: counts add up, extremes
    // and the in-flight figures keep the worst seen (a stuck I/O is one I/O, however
    // many spans it stays stuck).
    void append(const DirectionMeasurement &later);
};

struct Measurement {
    DirectionMeasurement read;
    DirectionMeasurement write;
    std::uint64_t transactions = 0; // a request with its reply counts once
    std::uint32_t outstanding = 0; // I/Os in flight at the end of the span
    std::chrono::nanoseconds elapsed {0};

    // Adds another scope's measurement over the SAME span (elapsed is kept).
    void add(const Measurement &other);
    // Adds the measurement of the span that follows (elapsed adds up; outstanding is
    // the later one's).
    void append(const Measurement &later);
};

struct LatencyFigures {
    double minUs = 0;
    double meanUs = 0;
    double maxUs = 0;
    double p50Us = 0;
    double p90Us = 0;
    double p99Us = 0;
    double p99_9Us = 0;
    double p99_99Us = 0;
};

struct DirectionFigures {
    std::uint64_t ios = 0;
    std::uint64_t bytes = 0;
    std::uint64_t errors = 0;
    double iops = 0;
    double oldestInFlightUs = 0; // see DirectionMeasurement::oldestInFlightNs
    std::uint32_t stalledIos = 0;
    double megabytesPerSecond = 0; // decimal: 10^6 bytes
    double mebibytesPerSecond = 0; // binary: 2^20 bytes
    LatencyFigures latency;
};

struct Figures {
    double seconds = 0;
    DirectionFigures read;
    DirectionFigures write;
    DirectionFigures total; // reads and writes together
    double transactionsPerSecond = 0;
    std::uint32_t outstanding = 0;
};

LatencyFigures latencyFigures(
    const LatencyHistogram &histogram, std::uint64_t minNs, std::uint64_t maxNs);
Figures computeFigures(const Measurement &m);

} // namespace ioprism::core
