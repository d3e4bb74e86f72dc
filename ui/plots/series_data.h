// SPDX-License-Identifier: GPL-3.0-or-later
// What the Series view draws, taken from a run's result: the swept axes with their
// values, and the points (core::seriesPoints: each point's median, min and max over its
// trials). A result that is no series gives no axes.
//
// Iometer's "Cycle outstanding I/Os" and "Cycle workers" are shown the same way, as a
// curve over the queue depth or over the workers each step runs: the plan gives each of
// their steps its point (core::setCyclingPoints). The other cycling types (targets) are
// steps on the Results page.
#pragma once

#include "core/profile/profile.h"
#include "core/run/series_result.h"

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace ioprism::ui {

struct SeriesAxisValues {
    core::SweepParameter parameter = core::SweepParameter::TransferSize;
    std::vector<std::uint64_t> values; // in the order they run
};

// The points of one spec index on one target (targets in turn) or on all: one curve
// family (the IOPS, MB/s and latency curves of one workload).
struct SeriesFamily {
    std::size_t specIndex = 0;
    std::string target; // "" = all targets
    QString name; // "rand read", "rand read on /dev/sdb"
    std::vector<std::size_t> points; // indices into SeriesData::points
};

struct SeriesData {
    std::vector<SeriesAxisValues> axes; // one (a curve) or two (a matrix); none: no series
    std::vector<core::SeriesPointResult> points;
    std::vector<SeriesFamily> families; // in the order they first ran
    std::uint32_t repeat = 1; // trials asked for
    bool cycling = false; // Iometer's queue-depth or worker cycling shown as a series

    bool isSeries() const { return !axes.empty(); }
    bool isMatrix() const { return axes.size() == 2; }
};

// True when a run of this profile is shown on the Series page: a series, or Iometer's
// queue-depth or worker cycling.
bool showsAsSeries(const core::Profile &profile);

// The series of a result (finished, or partial: the steps so far, with plan.profile and
// plan.steps set).
SeriesData makeSeriesData(const core::RunResult &result);

// A step as the Series view keeps it while a run goes: the All scope's figures, the CPU
// and devices, without the histograms (what core::seriesPoints reads).
core::StepResult seriesStep(const core::StepResult &step);

} // namespace ioprism::ui
