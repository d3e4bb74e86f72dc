// SPDX-License-Identifier: GPL-3.0-or-later
// The points of a series, from a run's steps: each point's swept values, the steps of
// its trials (each a full StepResult: intervals, histograms, CPU, devices, verdict) and
// its headline figures as the median of the trials with their min and max.
//
// What the tidy CSV, the results JSON, the CLI's point lines and the GUI's Series view
// read: one home for "what a point measured".
#pragma once

#include "core/run/results.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ioprism::core {

// A figure over the trials of a point: the median (the mean of the two middle ones for
// an even count), the smallest and the largest.
struct TrialStat {
    double median = 0;
    double min = 0;
    double max = 0;
};

TrialStat trialStat(std::vector<double> values);

struct SeriesPointResult {
    std::size_t specIndex = 0;
    std::size_t point = 0; // StepPoint::index
    std::string specName;
    std::vector<std::uint64_t> values; // per axis of setup.series
    std::string target; // targets in turn: the target; "" = all
    std::vector<std::size_t> trials; // indices into RunResult::steps, in trial order
    bool complete = true; // every trial ran to its end
    TrialStat iops, megabytesPerSecond, mebibytesPerSecond;
    // The application's reads and writes apart (decimal MB/s): what a mixed spec's device
    // read and write figures are compared with. Not written to the results files, which
    // keep each trial's step with its read and write figures.
    TrialStat readMegabytesPerSecond, writeMegabytesPerSecond;
    TrialStat meanLatencyUs, p50LatencyUs, p99LatencyUs, p99_9LatencyUs;
    TrialStat cpuBusyPercent, iopsPerCpuPercent;
    TrialStat deviceReadMegabytesPerSecond, deviceWriteMegabytesPerSecond;
    // Files opened and closed (file trees, connection rate): files opened per second
    // and the mean and p99 of the open, the close and the whole operation (connection).
    TrialStat filesPerSecond, openMeanUs, openP99Us, closeMeanUs, closeP99Us;
    TrialStat operationMeanUs, operationP99Us;
    bool connectionsValid = false;
    bool cpuValid = false;
    bool deviceValid = false;
    // The most notable verdict among the trials (the headline order of verdict.h).
    Verdict verdict = Verdict::NoDeviceCounters;
};

// The points of the run's series in the order they first ran (spec index, then point),
// or none when the run was no series. The points of Iometer's queue-depth or worker
// cycling too (its plan's steps carry them, core::setCyclingPoints): the Series view
// plots them; what writes a series' own outputs checks setup.series first, so that a
// cycling run's stay Iometer's (docs/results.md, "Cycling steps' points").
std::vector<SeriesPointResult> seriesPoints(const RunResult &result);

} // namespace ioprism::core
