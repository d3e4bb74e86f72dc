// SPDX-License-Identifier: GPL-3.0-or-later
// The topology tree, as Iometer shows it: this host, its workers, each worker's targets.
//
// Rows: one host at the top level (the first host of the profile: the one that runs);
// its children are the workers; a worker's children are its targets. Worker names are
// editable. Problems of a worker or target colour the row and fill its tooltip.
#pragma once

#include <QAbstractItemModel>

#include <cstdint>

namespace ioprism::ui {

class Managers;
struct ReachedManager;
class ProfileDocument;

class TopologyModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Roles {
        WorkerIndexRole = Qt::UserRole + 1, // int, -1 for the host
        TargetIndexRole, // int, -1 for a host or worker
    };

    explicit TopologyModel(ProfileDocument *document, QObject *parent = nullptr);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The managers bound to the profile's other hosts: a bound host's row names its
    // manager (host, OS, version, CPUs; the tooltip: clock, fingerprint, inventory) and
    // runs; an unbound one is "not run here".
    void setManagers(const Managers *managers);
    // The profile's host a top-level row shows (row 0: this host).
    std::uint32_t hostIdAt(int row) const;

    QModelIndex hostIndex() const;
    QModelIndex workerIndex(int worker) const;

    // Worker operations (Iometer's buttons). Each returns the new worker's row or -1.
    int addWorker();
    int duplicateWorker(int worker);
    bool removeWorker(int worker);

private:
    // A row of another manager (hosts[host], host >= 1): shown, not run here.
    QVariant otherHostData(int host, int role) const;
    // Another host bound to a manager: it runs there.
    QVariant boundHostData(int host, const ReachedManager &manager, int role) const;
    // This host's row, a worker's, and a target's (the worker `w`'s target `row`).
    QVariant hostData(int role) const;
    QVariant workerData(int row, int role) const;
    QVariant targetData(int w, int row, int role) const;
    void refreshProblems();

    ProfileDocument *m_document;
    const Managers *m_managers = nullptr;
};

} // namespace ioprism::ui
