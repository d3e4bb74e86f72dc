// SPDX-License-Identifier: GPL-3.0-or-later
// The selected worker's assigned access specifications, in run order (Iometer's
// "Assigned Access Specifications"): step N of a run is every worker's Nth spec.
#pragma once

#include <QAbstractListModel>

#include <string>

namespace ioprism::ui {

class ProfileDocument;

class AssignedSpecsModel : public QAbstractListModel
{
    Q_OBJECT
public:
    explicit AssignedSpecsModel(ProfileDocument *document, QObject *parent = nullptr);

    void setWorker(int worker);
    int worker() const { return m_worker; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool moveRows(const QModelIndex &sourceParent, int sourceRow, int count,
        const QModelIndex &destinationParent, int destinationChild) override;
    bool removeRows(int row, int count, const QModelIndex &parent = {}) override;

    // Assigns a spec (by name) at `row` (-1: at the end). Returns the row, or -1.
    int assign(const std::string &name, int row = -1);
    bool moveUp(int row);
    bool moveDown(int row);

private:
    void reset();

    ProfileDocument *m_document;
    int m_worker = -1;
};

} // namespace ioprism::ui
