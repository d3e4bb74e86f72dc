// SPDX-License-Identifier: GPL-3.0-or-later
// Iometer's results table for one step of a run: rows All, each worker, each target
// (indented under its worker), and selectable figure columns with their units.
#pragma once

#include "ui/metatypes.h"

#include <QAbstractTableModel>

namespace ioprism::ui {

class ResultsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        ScopeColumn,
        IopsColumn,
        ReadIopsColumn,
        WriteIopsColumn,
        MegabytesColumn, // MB/s, decimal
        ReadMegabytesColumn,
        WriteMegabytesColumn,
        MebibytesColumn, // MiB/s, binary
        MeanLatencyColumn,
        MaxLatencyColumn,
        P50Column,
        P90Column,
        P99Column,
        P999Column,
        P9999Column,
        ErrorsColumn,
        CpuColumn,
        CpuEffectivenessColumn,
        ColumnCount
    };
    enum Roles {
        ValueRole = Qt::UserRole + 1, // double: the raw figure (latencies in µs)
        ScopeKindRole, // int: core::Scope::Kind
    };

    explicit ResultsModel(QObject *parent = nullptr);

    void setResult(RunResultPtr result);
    const RunResultPtr &result() const { return m_result; }
    void setStep(int step); // index into result->steps
    int step() const { return m_step; }
    int stepCount() const;
    // The scope result of a row, or nullptr.
    const core::ScopeResult *scopeAt(int row) const;

    // Columns a new user sees; the others are one right-click away.
    static bool shownByDefault(int column);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const core::StepResult *currentStep() const;
    static QVariant headerText(int section); // Qt::DisplayRole
    static QVariant headerToolTip(int section); // Qt::ToolTipRole

    RunResultPtr m_result;
    int m_step = -1;
};

} // namespace ioprism::ui
