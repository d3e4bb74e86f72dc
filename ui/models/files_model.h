// SPDX-License-Identifier: GPL-3.0-or-later
// The files a step opened and closed, beside Iometer's results table: for each scope
// whose targets opened files (a file tree: every operation is open, one I/O, close;
// Iometer's connection rate: a target closed and opened again every N transactions),
// files opened (or connections) per second and the open, close and open-to-close times
// (mean, p99, max), from core's ConnectionFigures.
//
// The words follow what ran: "files" and "operation" for trees, Iometer's "connections"
// for the connection rate, neutral ones when a run has both.
#pragma once

#include "ui/metatypes.h"

#include <QAbstractTableModel>

#include <vector>

namespace ioprism::ui {

class FilesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        ScopeColumn,
        RateColumn, // files opened per second; connections per second for the connection rate
        OpenMeanColumn,
        OpenP99Column,
        OpenMaxColumn,
        CloseMeanColumn,
        CloseP99Column,
        CloseMaxColumn,
        OperationMeanColumn, // open to close: a tree's whole operation, or a connection
        OperationP99Column,
        OperationMaxColumn,
        ErrorsColumn, // opens and closes that failed
        ColumnCount
    };
    enum Roles {
        ValueRole = Qt::UserRole + 1, // double: the raw figure (latencies in µs)
    };
    // What the run opened and closed: the words of the headers.
    enum class Naming { Files, Connections, Both };

    explicit FilesModel(QObject *parent = nullptr);

    void setResult(RunResultPtr result);
    void setStep(int step); // index into result->steps
    Naming naming() const { return m_naming; }
    // The result (any step) has connection figures: the page shows the table.
    bool hasFigures() const { return m_any; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void collect();
    bool cellFigures(const core::ConnectionFigures &c, int column, const core::PhaseFigures *&phase,
        double &value) const;

    RunResultPtr m_result;
    int m_step = -1;
    Naming m_naming = Naming::Files;
    bool m_any = false;
    std::vector<const core::ScopeResult *> m_rows; // scopes of the step with connections
};

} // namespace ioprism::ui
