// SPDX-License-Identifier: GPL-3.0-or-later
// A step's write against the bytes written (issue 30 item 3; SNIA WSAT's view, GNOME
// Disks' write benchmark): each interval's write MB/s (left axis) and its mean and p99
// write latency (right axis) at the bytes written by the interval's end, and where the
// write rate fell off a cliff (core/stats/write_cliff.h) a line at the bytes written
// before it, with the rates before and after in words. Bytes in GiB from 1 GiB on, else
// MiB; latency in µs, or ms from 10 ms on.
//
// The Results page shows it for a step whose write was judged (StepResult::writeCliff),
// from the same intervals the judgement and the HTML report's plot were made of
// (core::stepWriteIntervals): what is drawn is what was judged. A run read from its file
// keeps each interval's mean latency only: its p99 line is then left out, never drawn
// as 0.
#pragma once

#include "core/run/results.h"

#include <QCoreApplication>
#include <QString>

#include <optional>

class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;

namespace ioprism::ui {

class WriteBytesPlot
{
    Q_DECLARE_TR_FUNCTIONS(WriteBytesPlot)
public:
    explicit WriteBytesPlot(QCustomPlot *plot);

    // Draws step `stepIndex` (an index in result.steps) and returns true when its write
    // was judged; otherwise clears the plot and returns false.
    bool show(const core::RunResult &result, std::size_t stepIndex);

    QCustomPlot *plot() const { return m_plot; }
    // For tests: the points of each line, the cliff's position on x (in the axis's
    // unit; nullopt without a cliff) and the words under the title.
    int ratePoints() const;
    int meanPoints() const;
    int p99Points() const;
    std::optional<double> cliffAt() const;
    QString caption() const { return m_caption; }
    double bytesPerUnit() const { return m_unit; } // of the x axis: 1 GiB or 1 MiB

private:
    QCustomPlot *m_plot;
    QCPGraph *m_rate = nullptr;
    QCPGraph *m_mean = nullptr;
    QCPGraph *m_p99 = nullptr;
    QCPItemStraightLine *m_cliff = nullptr;
    QCPItemText *m_label = nullptr;
    QString m_caption;
    double m_unit = 1;
};

} // namespace ioprism::ui
