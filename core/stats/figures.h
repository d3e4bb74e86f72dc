// SPDX-License-Identifier: GPL-3.0-or-later
// Measurements (raw counts and histograms over a span of time) and the figures derived
// from them (IOPS, MB/s, latency percentiles). One derivation serves intervals, run
// totals, every scope (all / worker / target), the CLI, the GUI and the reports.
#pragma once

#include "core/stats/histogram.h"

#include <chrono>
#include <cstdint>
#include <optional>

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
    friend bool operator==(const DirectionMeasurement &, const DirectionMeasurement &) = default;
};

// One kind of work that is not a transfer, over a span: opening a file, closing it, or a
// whole connection (a file's open to its close). One entry per call that ended in the
// span; errors are calls that failed (not in the histogram).
struct PhaseMeasurement {
    LatencyHistogram histogram;
    std::uint64_t errors = 0;
    // Exact extremes over the span; minNs == UINT64_MAX when nothing ended in it.
    std::uint64_t minNs = UINT64_MAX;
    std::uint64_t maxNs = 0;

    void add(const PhaseMeasurement &other);
    friend bool operator==(const PhaseMeasurement &, const PhaseMeasurement &) = default;
};

// Files opened and closed while the target is measured: a file tree's operations (each
// a connection of one transaction: open, I/O, close) and Iometer's connection rate (a
// connection of transactionsPerConnection transactions). Connections are counted when
// they close; the connection histogram holds each one's open-to-close time, which on a
// tree is the whole operation.
struct ConnectionMeasurement {
    PhaseMeasurement open;
    PhaseMeasurement close;
    PhaseMeasurement connection;

    void add(const ConnectionMeasurement &other);
    friend bool operator==(const ConnectionMeasurement &, const ConnectionMeasurement &) = default;
};

struct Measurement {
    DirectionMeasurement read;
    DirectionMeasurement write;
    // Set for targets that open and close files while measured (none for the others).
    std::optional<ConnectionMeasurement> connections;
    std::uint64_t transactions = 0; // a request with its reply counts once
    std::uint32_t inFlightAtEnd = 0; // I/Os in flight at the end of the span
    std::chrono::nanoseconds elapsed {0};

    // Adds another scope's measurement over the SAME span (elapsed is kept).
    void add(const Measurement &other);
    // Adds the measurement of the span that follows (elapsed adds up; inFlightAtEnd is
    // the later one's).
    void append(const Measurement &later);
    friend bool operator==(const Measurement &, const Measurement &) = default;
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
    friend bool operator==(const LatencyFigures &, const LatencyFigures &) = default;
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
    friend bool operator==(const DirectionFigures &, const DirectionFigures &) = default;
};

struct PhaseFigures {
    std::uint64_t count = 0; // calls that ended in the span
    std::uint64_t errors = 0;
    double perSecond = 0;
    LatencyFigures latency;
    friend bool operator==(const PhaseFigures &, const PhaseFigures &) = default;
};

// See ConnectionMeasurement. open.perSecond is "files opened per second";
// connection.perSecond and connection.latency are Iometer's connection figures.
struct ConnectionFigures {
    PhaseFigures open;
    PhaseFigures close;
    PhaseFigures connection;
    friend bool operator==(const ConnectionFigures &, const ConnectionFigures &) = default;
};

struct Figures {
    double seconds = 0;
    DirectionFigures read;
    DirectionFigures write;
    DirectionFigures total; // reads and writes together
    double transactionsPerSecond = 0;
    // I/Os in flight when the span ended (a measured count: the configured queue depth
    // is the plan's ResolvedWorker::outstandingIos). Written as "outstanding" in files.
    std::uint32_t inFlightAtEnd = 0;
    std::optional<ConnectionFigures> connections; // when the measurement has them
    friend bool operator==(const Figures &, const Figures &) = default;
};

LatencyFigures latencyFigures(
    const LatencyHistogram &histogram, std::uint64_t minNs, std::uint64_t maxNs);
Figures computeFigures(const Measurement &m);
// The latency of two spans' figures together (spans that follow each other, or hosts
// side by side), from each one's figures and count: min, mean and max are exact;
// percentiles of a union are not a function of the parts' percentiles, so the larger is
// kept, an upper bound (exactLatency gives them exactly where a histogram was kept).
LatencyFigures mergeLatency(
    const LatencyFigures &x, std::uint64_t countX, const LatencyFigures &y, std::uint64_t countY);
// Files opened and closed in two spans together, with rates over `seconds` (the spans'
// sum when they follow each other, the longest when side by side); nullopt when neither
// has any.
std::optional<ConnectionFigures> mergeConnections(const std::optional<ConnectionFigures> &a,
    const std::optional<ConnectionFigures> &b, double seconds);

// A direction's latency from its mergeable histogram (IntervalSample::readLatency): the
// exact percentiles of every I/O it holds, whatever spans or hosts were merged into it.
// `maxUs` keeps a larger maximum the figures had (the age of I/O still in flight).
LatencyFigures exactLatency(const SparseLatencyHistogram &histogram, double maxUs);
// The All scope of an interval whose histograms hold its I/O: its percentiles made exact
// (a merge of figures alone gives only an upper bound). A direction whose histogram does
// not hold every one of its I/Os (a file written before intervals kept them) is kept.
void makeLatencyExact(
    Figures &all, const SparseLatencyHistogram &read, const SparseLatencyHistogram &write);

// Nanosecond counts back from the figures made of them: a latency kept in µs
// (double(ns) * 1e-3) and the sum of `count` latencies behind their mean in µs
// (double(sum) / double(count) * 1e-3). Below 2^50 ns (13 days) the nearest whole number
// to the inverse is the count, give or take the last bit: the candidates around it are
// tried with the same arithmetic, so the figures made again from it are the ones given.
// 0 for a value that is not positive and finite. A results file keeps figures, not
// counts: what needs a count (the Iometer CSV's raw times) takes it from the figures, so
// a run read back from its file gives the same count as the run did.
std::uint64_t nsFromUs(double us);
std::uint64_t sumNsFromMeanUs(double meanUs, std::uint64_t count);

} // namespace ioprism::core
