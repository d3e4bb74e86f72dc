// SPDX-License-Identifier: GPL-3.0-or-later
// The topology tree, as Iometer shows it: the managers, each manager's workers, each
// worker's targets.
//
// Rows: the profile's hosts at the top level (row 0: this host, the one that runs here;
// then the other managers, run on their agents when bound); a host's children are its
// workers; a worker's children are its targets. Worker names are editable. Problems of a
// worker or target colour the row and fill its tooltip. The host the document edits
// (ProfileDocument::currentHost) is shown in bold; the worker operations act on it.
#pragma once

#include <QAbstractItemModel>

#include <cstdint>

namespace ioprism::core {
struct Worker;
}

namespace ioprism::ui {

class Managers;
struct ReachedManager;
class ProfileDocument;

class TopologyModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Roles {
        WorkerIndexRole = Qt::UserRole + 1, // int (within its host), -1 for a host
        TargetIndexRole, // int, -1 for a host or worker
        HostIndexRole, // int: the row's host, an index into profile().hosts
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

    // A host's row (row 0: this host); a worker's of the current host, or of `host`.
    QModelIndex hostIndex(int host = 0) const;
    QModelIndex workerIndex(int worker) const;
    QModelIndex workerIndex(int host, int worker) const;

    // Worker operations (Iometer's buttons), on the document's current host. Each
    // returns the new worker's row or -1.
    int addWorker();
    int duplicateWorker(int worker);
    bool removeWorker(int worker);

private:
    // A row of another manager (hosts[host], host >= 1): shown, not run here.
    QVariant otherHostData(int host, int role) const;
    // Another host bound to a manager: it runs there.
    QVariant boundHostData(int host, const ReachedManager &manager, int role) const;
    // This host's row, a worker's of `host`, and a target's (the worker `w`'s target `row`).
    QVariant hostData(int role) const;
    QVariant workerData(int host, int row, int role) const;
    QVariant targetData(int host, int w, int row, int role) const;
    // The host rows' tooltip line that says what selecting one does.
    static QString selectHint();
    // hosts[host].workers[worker], or null.
    const core::Worker *workerAt(int host, int worker) const;
    void refreshProblems();
    // Every host row (the current one is bold).
    void refreshHosts();

    ProfileDocument *m_document;
    const Managers *m_managers = nullptr;
};

} // namespace ioprism::ui
