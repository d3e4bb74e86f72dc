// SPDX-License-Identifier: GPL-3.0-or-later
// Comparing runs (docs/cli.md "compare", docs/results.md "Comparing runs"): the same step
// or series point in each run, its headline figures with the change against a baseline
// run and whether that change is better or worse, what is in one run but not another,
// and what differs between the runs' setups. Plain values: the CLI prints them, the CSV
// and JSON writers below write them, and the GUI can show them.
#pragma once

#include "core/profile/profile.h"
#include "core/run/results.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ioprism::core {

// FilesPerSecond is files opened per second (a file tree's operations, Iometer's
// connection rate): only in a comparison of runs that opened files (Comparison::metrics).
enum class CompareMetric { Iops, MegabytesPerSecond, MeanLatencyUs, P99LatencyUs, FilesPerSecond };
inline constexpr std::array<CompareMetric, 5> kCompareMetrics
    = {CompareMetric::Iops, CompareMetric::MegabytesPerSecond, CompareMetric::MeanLatencyUs,
        CompareMetric::P99LatencyUs, CompareMetric::FilesPerSecond};

// "iops", "mbps", "mean_latency_us", "p99_latency_us", "files_per_s": CSV and JSON names.
std::string_view metricKey(CompareMetric metric);
// "IOPS", "MB/s", "mean latency", "p99 latency", "files/s": for people.
std::string_view metricLabel(CompareMetric metric);
// More I/O, bytes and files per second are better; more latency is worse.
bool higherIsBetter(CompareMetric metric);
// A value as the CLI and the reports print it: "24019", "98.4", "182 µs"; "-" for NaN.
std::string formatMetric(CompareMetric metric, double value);

// How a value compares with the baseline's, in the metric's sense.
enum class ChangeSense { Baseline, Better, Worse, Same, Unknown };
std::string_view toString(ChangeSense sense); // "baseline", "better", "worse", "same", "n/a"

struct MetricValues {
    // Indexed by the metric, in kCompareMetrics' order. NaN: not measured (no I/O; no
    // files opened by the step's targets).
    std::array<double, kCompareMetrics.size()> values {};
    double operator[](CompareMetric m) const { return values[std::size_t(m)]; }
};

struct Change {
    double absolute = 0; // value - baseline (NaN when either is missing)
    double percent = 0; // of the baseline (NaN when the baseline is 0 or missing)
    ChangeSense sense = ChangeSense::Unknown;
};
Change changeOf(CompareMetric metric, double baseline, double value);

// One step (or series point) as found in the runs.
struct CompareRow {
    enum class Kind { Step, Point };
    Kind kind = Kind::Step;
    std::string name; // what to call it: the step's name, or "spec: values [on target]"
    std::string spec; // the spec's name
    std::string pointValues; // a point's swept values, "outstandingIos=8 transferSize=4096"
    std::string target; // a point's target (targets in turn); "" = all
    std::vector<std::optional<MetricValues>> runs; // per run; nullopt: not in that run
    bool matched() const;
};

struct SetupDifference {
    std::string what; // "cache mode", "engine", "kernel", "device model (target 1)"...
    std::string path; // where it is in the results JSON: "profile.hosts[0]...cache"
    std::vector<std::string> values; // per run; "(none)" where a run has no such field
};

struct Comparison {
    std::size_t baseline = 0; // index of the run the changes are against
    // The metrics to show, in order: what every writer and page iterates. Files per second
    // only when a row of some run has it, so that comparing runs that open no files reads
    // as it always did.
    std::vector<CompareMetric> metrics;
    std::vector<CompareRow> rows; // in the order the baseline ran them, then the others'
    std::vector<SetupDifference> differences;
};

// Two or more runs, compared against runs[baseline] (which must be a valid index).
// Steps are matched by name (a name that repeats within a run by its occurrence), series
// points by spec, swept values and target, and take the median of their trials.
Comparison compareRuns(const std::vector<const RunResult *> &runs, std::size_t baseline);

// The curves a comparison overlays (the Compare page, the comparison report): per run, the
// IOPS of the first spec's (and target's) series points over the swept parameter (the
// median of their trials) when every run is a series of one same parameter; else the All
// scope's IOPS of each measured interval over the time it ended (s).
struct ComparisonCurves {
    std::optional<SweepParameter> axis; // the swept parameter; nullopt: over time
    bool logX = false; // sizes, depths, counts: a logarithmic x axis (not percentages)
    std::vector<std::vector<std::pair<double, double>>> runs; // (x, IOPS), per run
    std::vector<std::uint64_t> ticks; // every run's swept values, sorted (axis only)
};
ComparisonCurves comparisonCurves(const std::vector<const RunResult *> &runs);

// The colour of run `index` in every comparison ("#1f77b4": blue for the first), distinct
// for eight runs, then again.
std::string_view runColor(std::size_t index);

// The files of `compare --csv` and `compare --json` (columns and fields: docs/results.md).
// `labels` name the runs (their file or library id), one per run.
std::string writeComparisonCsv(const Comparison &comparison,
    const std::vector<const RunResult *> &runs, const std::vector<std::string> &labels);
std::string writeComparisonJson(const Comparison &comparison,
    const std::vector<const RunResult *> &runs, const std::vector<std::string> &labels);

} // namespace ioprism::core
