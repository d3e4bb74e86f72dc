// SPDX-License-Identifier: GPL-3.0-or-later
// The Results page's summary grid: one row per step (core/report/step_summary.h) with its
// read and write MB/s, IOPS, mean and p99 latency and the device verdict, in the manner
// CrystalDiskMark made familiar. The numbers are core's; this model spells them in the
// user's locale and colours the verdict.
#pragma once

#include "core/report/step_summary.h"
#include "ui/metatypes.h"

#include <QAbstractTableModel>

namespace ioprism::ui {

class StepSummaryModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        StepColumn,
        ReadColumn,
        WriteColumn,
        IopsColumn,
        FilesColumn, // files opened per second; the page shows it when a step opened files
        MeanColumn,
        P99Column,
        DeviceColumn,
        // A test of several passes (TestSetup::passes): the page shows these when one is.
        PassesColumn, // "best of 5": the figures before are the best pass's
        PassMeanColumn, // the passes' mean MB/s
        PassSpreadColumn, // their smallest and largest MB/s
        ColumnCount
    };

    explicit StepSummaryModel(QObject *parent = nullptr);

    void setResult(const RunResultPtr &result);
    const std::vector<core::StepSummaryRow> &rows() const { return m_rows; }
    // A step opened files (a file tree, Iometer's connection rate): FilesColumn has figures.
    bool hasFiles() const;
    // A row is a test of several passes: the pass columns have figures.
    bool hasPasses() const;
    // The row of a step (an index in RunResult::steps): its own, or its test's when it is
    // one of several passes; -1 when none.
    int rowOfStep(int step) const;
    // The step a row shows (with passes, its best pass), or -1.
    int stepOfRow(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<core::StepSummaryRow> m_rows;
};

} // namespace ioprism::ui
