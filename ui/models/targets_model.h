// SPDX-License-Identifier: GPL-3.0-or-later
// The targets of the selected worker, Iometer's "Disk Targets" tab: every disk, partition
// and test-file location this machine offers, ticked when the worker uses it, with the
// per-target settings editable on the ticked rows.
//
// Rows: the candidates (setCandidates, from the platform's listing), then the worker's
// targets that are not among them (a file elsewhere, an imported path, a file tree), then
// paths added with addPath(). Rows stay put when unticked, so a mistaken click is undone
// by another. A file tree's shape is too much for one cell: the Size-to-create cell shows
// it with its total, and the Targets page edits it beside the table (setTree).
//
// Another manager's worker (the document's current host is not hosts[0]): its paths are
// on that manager's host, so nothing of this machine is offered or looked at (no local
// listing, no file system facts, no existence check). A manager bound to an agent offers
// what the agent reported when it was reached (agentCandidates); an unbound one offers
// only its workers' targets, and paths are typed (TargetDialogs).
#pragma once

#include "core/agent/agent_messages.h"
#include "core/profile/problem.h"
#include "ui/platform_services.h"

#include <QAbstractTableModel>
#include <QString>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ioprism::ui {

class Managers;
class ProfileDocument;

// The places an agent's host offers, from the inventory it reported: each device its
// allow list (--allow) names, and a test file (kTestFileName) in each folder it allows,
// with the free space of the file system that holds the folder. Paths are the agent's.
std::vector<TargetCandidate> agentCandidates(const core::InventoryMessage &inventory);

// Where a file tree chosen in a folder goes, by the command line's rule (--tree): in the
// folder itself when IOPrism made a tree there before (its marker, .ioprism-tree), else in
// `ioprism-tree` inside it, so a tree is never made among files IOPrism did not make. A
// folder not there yet becomes the tree's own folder. A file is no place for a tree.
struct FileTreePlace {
    std::string path; // the tree's folder; "" when refused
    // The shape of the tree IOPrism made there before (its marker), reused when kept.
    std::optional<core::FileTree> existing;
    QString refusal; // why the folder cannot hold a tree ("" when it can)
};
// `readHead` reads the markers (PlatformServices::readFileHead).
FileTreePlace fileTreePlace(const std::string &chosenFolder, const FileHeadReader &readHead);
// The shape recorded by the marker of a tree IOPrism made at `path`, or nullopt (also
// when `readHead` is empty). The marker is read through the bounded reader: a marker
// that is a FIFO or a device (anyone can make one in a shared folder) would otherwise
// block the window for good when the folder is chosen.
std::optional<core::FileTree> existingFileTree(
    const std::string &path, const FileHeadReader &readHead);

// The folder (inside the chosen one) where a file tree goes unless the chosen folder
// holds one of IOPrism's trees: the command line's name.
inline constexpr const char *kFileTreeFolderName = "ioprism-tree";

class TargetsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        TargetColumn, // path, checkable (assigned to the worker)
        KindColumn,
        ModelColumn,
        SizeColumn,
        MediaColumn, // SSD / HDD
        MountColumn,
        FreeColumn,
        // Raw devices: whether this user may open it now ("Yours"), the system would ask
        // ("Asks permission": udisks2 and polkit), or not at all ("No access", why in the
        // tooltip). Known before Start, so a device nobody will open is not chosen blind.
        AccessColumn,
        OutstandingColumn, // per-target outstanding I/Os (empty: the worker's)
        RegionStartColumn,
        RegionSizeColumn,
        FileSizeColumn, // a test file's size, a file tree's shape (edited beside the table)
        CacheColumn,
        WriteThroughColumn,
        ColumnCount
    };
    enum Roles {
        AssignedRole = Qt::UserRole + 1, // bool
        RawDeviceRole, // bool: a disk or partition, written raw
        InUseRole, // QString: why writing is refused ("" when free)
        PathRole, // QString
        UnresolvedRole, // bool: an assigned target not found on this machine
        FileTreeRole, // bool: the row is a file tree
    };

    explicit TargetsModel(ProfileDocument *document, QObject *parent = nullptr);

    // This machine's places (the platform's listing).
    void setCandidates(std::vector<TargetCandidate> candidates);
    const std::vector<TargetCandidate> &candidates() const { return m_candidates; }
    // The candidate of this machine for a path (samePath), or nullptr.
    const TargetCandidate *candidateFor(const std::string &path) const;
    // The managers bound to the profile's other hosts: a bound host's rows are what its
    // agent reported.
    void setManagers(const Managers *managers);
    // Whether the worker edited is another manager's (its paths are on its host).
    bool remoteHost() const;
    // The places the edited worker's host offers: candidates() for this host, the agent's
    // (agentCandidates) for a bound manager, none for an unbound one.
    const std::vector<TargetCandidate> &hostCandidates() const;
    // How two paths are told to be one target (PlatformServices::samePath); empty: the
    // same bytes. Rows, the worker's targets and the candidates are matched with it, so a
    // profile's own spelling of a listed device is that device's row, with its facts.
    void setPathComparison(std::function<bool(const std::string &, const std::string &)> same);
    bool samePath(const std::string &a, const std::string &b) const
    {
        return m_samePath ? m_samePath(a, b) : a == b;
    }
    // Reads the files' present sizes and their file systems' free space again (after a
    // run made or grew a test file), keeping every row.
    void refreshFacts();
    // One line that tells candidates apart where only a list fits (the Re-point dialog):
    // "/dev/sdb — Samsung SSD 870, 500 GB, SSD, in use: mounted at /data",
    // "/home/u/iobw.tst — test file on /home (ext4), 120 GB free".
    static QString describeCandidate(const TargetCandidate &c);

    void setWorker(int worker);
    int worker() const { return m_worker; }

    // Whether a target can be found on this machine (PlatformServices::targetExists).
    // Paths chosen here (addPath, repoint) are checked with it, so a test file in a
    // folder that does not exist is marked when it is chosen, not at Start.
    void setTargetCheck(std::function<bool(const core::Target &)> exists);
    // How file-tree markers are read (PlatformServices::readFileHead); until it is set,
    // no tree's present size is shown.
    void setFileReader(FileHeadReader readHead);
    // The shape of the tree IOPrism made at `path` (existingFileTree with that reader).
    std::optional<core::FileTree> existingTree(const std::string &path) const;

    // Adds a row for a path (a test file or a file tree the user chose) and assigns it;
    // a tree gets `tree` as its shape when given. Returns its row.
    int addPath(const std::string &path, core::TargetKind kind,
        const std::optional<core::FileTree> &tree = std::nullopt);

    // The worker's target of a row (nullptr when the row is not assigned), its field path
    // as validation names it ("hosts[0].workers[0].targets[1]"), and what the row knows
    // of its place (free space and mount point of a test file's or tree's file system).
    const core::Target *targetAt(int row) const { return target(row); }
    std::string targetFieldPath(int row) const;
    const TargetCandidate *rowCandidate(int row) const;
    // Sets the shape of the file tree of `row` (its pre-initialisation too). False when
    // the row holds no tree of the worker or nothing changed.
    bool setTree(int row, const core::FileTree &tree);

    // Points the worker's target of `row` at another device or file, keeping its settings
    // (region, file size, cache mode, queue depth) and its place in the worker's list.
    // Returns the target's new row, or -1 when the row holds no target of the worker.
    int repoint(int row, const std::string &path, core::TargetKind kind);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        TargetCandidate candidate; // for extra rows: path, kind and describeLocation's facts
        bool listed = false; // from the platform's listing
        // Test files: the size of the file as it is now (nullopt: not created yet); file
        // trees: the size of the tree IOPrism made there (its marker's shape).
        std::optional<std::uint64_t> fileBytes;
    };
    // An extra test-file or tree row's file system facts (mount point, type, size, free
    // space), from the folder that will hold it, and the file's or tree's present size.
    void describeLocation(Row &row) const;
    void rebuild();
    // Index of the worker's target with this row's path, or -1.
    int targetIndex(int row) const;
    const core::Target *target(int row) const;
    core::Target *mutableTarget(int row);
    void refreshAll();
    // data()'s parts: the roles of the whole row, then a cell's problems, the columns
    // describing the candidate, and the assigned target's settings.
    QString inUseText(const TargetCandidate &c) const;
    core::Problems cellProblems(int row, int column, const core::Target &t) const;
    core::Problems spaceProblems(const Row &row, const core::Target &t) const;
    QVariant candidateData(const Row &row, const core::Target *t, int column, int role,
        const core::Problems &problems) const;
    QString targetToolTip(
        const TargetCandidate &c, const core::Target *t, const core::Problems &problems) const;
    QVariant sizeData(const Row &row, int role) const;
    QVariant freeData(const TargetCandidate &c, int role) const;
    QVariant accessData(const TargetCandidate &c, int role) const;
    // The current host's name in texts ("db2").
    QString hostName() const;
    QString settingToolTip(
        const TargetCandidate &c, int column, const core::Problems &problems) const;
    QVariant settingData(const core::Target &t, int column, int role) const;
    QVariant fileSizeData(const core::Target &t, int role) const;
    // setData()'s parts: a row ticked or unticked, a setting edited.
    bool setAssigned(int row, bool assign);
    static bool setSetting(core::Target &t, int column, const QVariant &value, int role);

    ProfileDocument *m_document;
    std::vector<TargetCandidate> m_candidates;
    std::vector<Row> m_rows;
    // Test files and trees the user added this session, ticked or not: offered again
    // after a Refresh or a change of worker, as the listed ones are; per host (addedKey),
    // since a path names a place on its own host.
    using Added = std::vector<std::pair<std::string, core::TargetKind>>;
    std::map<std::uint64_t, Added> m_added;
    Added &added();
    // The places of the current host when it is another manager (hostCandidates).
    std::vector<TargetCandidate> m_remoteCandidates;
    const Managers *m_managers = nullptr;
    std::function<bool(const core::Target &)> m_exists;
    std::function<bool(const std::string &, const std::string &)> m_samePath;
    FileHeadReader m_readHead;
    int m_worker = -1;
};

} // namespace ioprism::ui
