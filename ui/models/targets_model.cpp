// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/targets_model.h"

#include "core/workload/file_tree.h"
#include "ui/format.h"
#include "ui/icons.h"
#include "ui/models/managers.h"
#include "ui/models/profile_defaults.h"
#include "ui/models/profile_document.h"
#include "ui/style.h"

#include <QApplication>
#include <QBrush>
#include <QDir>
#include <QFileInfo>
#include <QFont>
#include <QPalette>
#include <QStorageInfo>
#include <QStyle>

#include <algorithm>

namespace ioprism::ui {

namespace {

QString kindText(core::TargetKind kind)
{
    switch (kind) {
    case core::TargetKind::TestFile:
        return TargetsModel::tr("Test file");
    case core::TargetKind::BlockDevice:
        return TargetsModel::tr("Disk");
    case core::TargetKind::Partition:
        return TargetsModel::tr("Partition");
    case core::TargetKind::Volume:
        return TargetsModel::tr("Volume");
    case core::TargetKind::PhysicalDrive:
        return TargetsModel::tr("Physical drive");
    case core::TargetKind::FileTree:
        return TargetsModel::tr("File tree");
    }
    return {};
}

IconId iconOf(core::TargetKind kind)
{
    if (kind == core::TargetKind::FileTree)
        return IconId::FileTree;
    return core::isRawDevice(kind) ? IconId::Disk : IconId::TestFile;
}

using Way = core::TargetAccess::Way;

// What the Access column says of a raw device: the worse of reading and writing, since
// which of them a worker does depends on its specs, not on the row.
enum class AccessState { Yours, AsksPermission, ReadOnly, NoAccess };

AccessState accessState(const TargetCandidate &c)
{
    if (c.readAccess.way == Way::Denied)
        return AccessState::NoAccess;
    if (c.writeAccess.way == Way::Denied)
        return AccessState::ReadOnly;
    if (c.readAccess.way == Way::Broker || c.writeAccess.way == Way::Broker)
        return AccessState::AsksPermission;
    return AccessState::Yours;
}

// One way of opening, for the tooltip: the platform's own text, else what Direct means.
QString accessLine(const QString &what, const core::TargetAccess &access)
{
    QString how;
    switch (access.way) {
    case Way::Direct:
        how = TargetsModel::tr("your own rights suffice");
        break;
    case Way::Broker:
        how = access.text.empty()
            ? TargetsModel::tr("the system asks for your permission first (udisks2)")
            : toQString(access.text);
        break;
    case Way::Denied:
        how = toQString(access.text);
        break;
    }
    return TargetsModel::tr("%1: %2").arg(what, how);
}

// The field of a target a column edits, as validation paths name it.
const char *fieldOf(int column, const core::Target &target)
{
    if (column == TargetsModel::FileSizeColumn && target.kind == core::TargetKind::FileTree)
        return "tree";
    switch (column) {
    case TargetsModel::TargetColumn:
        return "path";
    case TargetsModel::OutstandingColumn:
        return "outstandingIos";
    case TargetsModel::RegionStartColumn:
        return "region.offset";
    case TargetsModel::RegionSizeColumn:
        return "region.size";
    case TargetsModel::FileSizeColumn:
        return "fileSize";
    case TargetsModel::CacheColumn:
        return "cache";
    case TargetsModel::WriteThroughColumn:
        return "writeThrough";
    default:
        return nullptr;
    }
}

} // namespace

std::optional<core::FileTree> existingFileTree(
    const std::string &path, const FileHeadReader &readHead)
{
    // A marker is one short line: anything longer than this is not ours. One byte more
    // is read to tell a marker of exactly the limit from a longer file.
    constexpr std::size_t kLongestMarkerBytes = 4096;
    if (!readHead)
        return std::nullopt;
    const core::InputFileText marker = readHead(
        toFilesystemPath(toQString(core::fileTreeMarkerPath(path))), kLongestMarkerBytes + 1);
    if (marker.problem || marker.text.size() > kLongestMarkerBytes)
        return std::nullopt;
    return core::parseFileTreeMarker(marker.text);
}

FileTreePlace fileTreePlace(const std::string &chosenFolder, const FileHeadReader &readHead)
{
    FileTreePlace place;
    const QFileInfo chosen(toQString(chosenFolder));
    if (chosenFolder.empty()) {
        place.refusal = TargetsModel::tr("No folder chosen for the file tree.");
        return place;
    }
    if (chosen.exists() && !chosen.isDir()) {
        place.refusal = TargetsModel::tr("%1 is a file: a file tree needs a folder to be made in.")
                            .arg(QDir::toNativeSeparators(chosen.filePath()));
        return place;
    }
    QString folder = QDir::cleanPath(chosen.filePath());
    if (chosen.isDir() && !existingFileTree(toStdString(folder), readHead))
        folder = QDir(folder).filePath(QLatin1String(kFileTreeFolderName));
    place.path = toStdString(QDir::toNativeSeparators(folder));
    place.existing = existingFileTree(place.path, readHead);
    return place;
}

namespace {
// Whether `path` is `root` or inside it, in the agent's spelling ('/' or '\\').
bool isUnder(const std::string &path, const std::string &root)
{
    if (root.empty() || path.size() < root.size() || path.compare(0, root.size(), root) != 0)
        return false;
    const auto separator = [](char c) { return c == '/' || c == '\\'; };
    return path.size() == root.size() || separator(root.back()) || separator(path[root.size()]);
}

core::TargetKind agentDeviceKind(const std::string &path)
{
    if (path.find("PhysicalDrive") != std::string::npos)
        return core::TargetKind::PhysicalDrive;
    if (path.starts_with("\\\\.\\"))
        return core::TargetKind::Volume;
    return core::TargetKind::BlockDevice;
}
} // namespace

std::vector<TargetCandidate> agentCandidates(const core::InventoryMessage &inventory)
{
    std::vector<TargetCandidate> out;
    const auto allowed = [&](const std::string &path) {
        return std::any_of(inventory.roots.begin(), inventory.roots.end(),
            [&](const std::string &root) { return isUnder(path, root); });
    };
    // The agent refuses a target outside its allow list: only what it allows is offered.
    for (const auto &d : inventory.devices) {
        if (!allowed(d.path))
            continue;
        TargetCandidate c;
        c.kind = agentDeviceKind(d.path);
        c.path = d.path;
        c.name = d.path;
        c.model = d.model;
        c.sizeBytes = d.sizeBytes;
        if (!d.inUse.empty())
            c.inUse = {d.inUse};
        out.push_back(std::move(c));
    }
    for (const auto &root : inventory.roots) {
        // A device (or the folder of devices) is no place for a test file.
        if (root == "/dev" || root.starts_with("/dev/") || root.starts_with("\\\\.\\")
            || std::any_of(inventory.devices.begin(), inventory.devices.end(),
                [&](const core::InventoryDevice &d) { return d.path == root; }))
            continue;
        const char separator
            = root.find('\\') != std::string::npos && root.find('/') == std::string::npos ? '\\'
                                                                                          : '/';
        TargetCandidate c;
        c.kind = core::TargetKind::TestFile;
        c.path = root + (root.back() == separator ? "" : std::string(1, separator)) + kTestFileName;
        c.name = root;
        // The file system that holds the folder: the longest mount point above it.
        const core::InventoryMount *holder = nullptr;
        for (const auto &m : inventory.mounts)
            if (isUnder(root, m.mountPoint)
                && (!holder || m.mountPoint.size() > holder->mountPoint.size()))
                holder = &m;
        if (holder) {
            c.fsType = holder->fsType;
            c.freeBytes = holder->freeBytes;
            c.sizeBytes = holder->totalBytes;
            c.mountPoints = {holder->mountPoint};
        }
        out.push_back(std::move(c));
    }
    return out;
}

TargetsModel::TargetsModel(ProfileDocument *document, QObject *parent)
    : QAbstractTableModel(parent)
    , m_document(document)
{
    // A new profile, or another host's workers (the same worker row is another worker,
    // on another machine): the row kept within the workers there, the table made again.
    const auto reshown = [this] {
        m_worker = std::min(m_worker, m_document->workerCount() - 1);
        if (m_worker < 0 && m_document->workerCount() > 0)
            m_worker = 0;
        rebuild();
    };
    connect(document, &ProfileDocument::profileReset, this, reshown);
    connect(document, &ProfileDocument::currentHostChanged, this, reshown);
    connect(document, &ProfileDocument::structureChanged, this, [this](const QObject *origin) {
        if (origin == this)
            return;
        if (m_worker >= m_document->workerCount())
            m_worker = m_document->workerCount() - 1;
        rebuild();
    });
    connect(document, &ProfileDocument::valuesChanged, this, [this](const QObject *origin) {
        if (origin != this)
            refreshAll();
    });
    connect(document, &ProfileDocument::problemsChanged, this, &TargetsModel::refreshAll);
}

void TargetsModel::setCandidates(std::vector<TargetCandidate> candidates)
{
    m_candidates = std::move(candidates);
    rebuild();
}

void TargetsModel::setManagers(const Managers *managers)
{
    if (m_managers)
        disconnect(m_managers, nullptr, this, nullptr);
    m_managers = managers;
    if (managers)
        connect(managers, &Managers::changed, this, [this] {
            if (remoteHost())
                rebuild();
        });
    if (remoteHost())
        rebuild();
}

bool TargetsModel::remoteHost() const
{
    return m_document->currentHost() > 0;
}

const std::vector<TargetCandidate> &TargetsModel::hostCandidates() const
{
    return remoteHost() ? m_remoteCandidates : m_candidates;
}

QString TargetsModel::hostName() const
{
    return managerName(m_document->profile(), static_cast<std::size_t>(m_document->currentHost()));
}

TargetsModel::Added &TargetsModel::added()
{
    // This machine's under a key no host id has; another manager's under its id.
    const auto &hosts = m_document->profile().hosts;
    const auto host = static_cast<std::size_t>(m_document->currentHost());
    const std::uint64_t key = host == 0 || host >= hosts.size() ? UINT64_MAX : hosts[host].id;
    return m_added[key];
}

QString TargetsModel::describeCandidate(const TargetCandidate &c)
{
    QStringList facts;
    if (core::isRawDevice(c.kind)) {
        if (!c.model.empty())
            facts << toQString(c.model);
        if (c.sizeBytes)
            facts << capacityText(c.sizeBytes);
        if (c.rotational)
            facts << (*c.rotational ? tr("HDD") : tr("SSD"));
        QStringList reasons;
        for (const auto &m : c.mountPoints)
            reasons << tr("mounted at %1").arg(toQString(m));
        for (const auto &u : c.inUse)
            reasons << toQString(u);
        if (!reasons.isEmpty())
            facts << tr("in use: %1").arg(reasons.join(QStringLiteral(", ")));
    } else {
        const QString where = c.mountPoints.empty() ? QString() : toQString(c.mountPoints.front());
        const QString fs = c.fsType.empty() ? where
            : where.isEmpty()               ? toQString(c.fsType)
                              : QStringLiteral("%1 (%2)").arg(where, toQString(c.fsType));
        const QString kind
            = c.kind == core::TargetKind::FileTree ? tr("file tree") : tr("test file");
        facts << (fs.isEmpty() ? kind : tr("%1 on %2").arg(kind, fs));
        if (c.freeBytes)
            facts << tr("%1 free").arg(capacityText(c.freeBytes));
    }
    return facts.isEmpty() ? toQString(c.path)
                           : tr("%1 — %2").arg(toQString(c.path), facts.join(QStringLiteral(", ")));
}

const TargetCandidate *TargetsModel::candidateFor(const std::string &path) const
{
    for (const auto &c : m_candidates)
        if (samePath(c.path, path))
            return &c;
    return nullptr;
}

void TargetsModel::setWorker(int worker)
{
    if (worker == m_worker)
        return;
    m_worker = worker;
    rebuild();
}

void TargetsModel::setTargetCheck(std::function<bool(const core::Target &)> exists)
{
    m_exists = std::move(exists);
}

void TargetsModel::setPathComparison(
    std::function<bool(const std::string &, const std::string &)> same)
{
    m_samePath = std::move(same);
    rebuild();
}

void TargetsModel::setFileReader(FileHeadReader readHead)
{
    m_readHead = std::move(readHead);
    rebuild(); // the trees' present sizes are known now
}

std::optional<core::FileTree> TargetsModel::existingTree(const std::string &path) const
{
    return existingFileTree(path, m_readHead);
}

int TargetsModel::addPath(
    const std::string &path, core::TargetKind kind, const std::optional<core::FileTree> &tree)
{
    auto found = std::find_if(m_rows.begin(), m_rows.end(),
        [&](const Row &r) { return samePath(r.candidate.path, path); });
    int row = static_cast<int>(found - m_rows.begin());
    Added &paths = added();
    if (std::none_of(
            paths.begin(), paths.end(), [&](const auto &a) { return samePath(a.first, path); }))
        paths.emplace_back(path, kind);
    if (found == m_rows.end()) {
        Row extra;
        extra.candidate.path = path;
        extra.candidate.name = path;
        extra.candidate.kind = kind;
        describeLocation(extra);
        beginInsertRows({}, row, row);
        m_rows.push_back(extra);
        endInsertRows();
    }
    setData(index(row, TargetColumn), Qt::Checked, Qt::CheckStateRole);
    if (tree) {
        core::FileTree shape = *tree;
        if (const core::Target *t = target(row))
            shape.preInitOperations = t->tree.preInitOperations;
        setTree(row, shape);
    }
    // A folder that does not exist is marked now; the run creates no folders. Another
    // host's path is not looked for here: its agent checks it.
    if (core::Target *t = mutableTarget(row);
        t && m_exists && !remoteHost() && !t->unresolved && !m_exists(*t)) {
        t->unresolved = true;
        m_document->commitValues(this);
        refreshAll();
    }
    return row;
}

int TargetsModel::repoint(int row, const std::string &path, core::TargetKind kind)
{
    core::Target *t = mutableTarget(row);
    if (!t || path.empty())
        return -1;
    // A re-pointed file the user added is offered under its new name only.
    for (auto &a : added())
        if (samePath(a.first, t->path))
            a = {path, kind};
    t->path = path;
    t->kind = kind;
    t->unresolved = m_exists && !remoteHost() && !m_exists(*t);
    rebuild();
    m_document->commitStructure(this);
    for (std::size_t r = 0; r < m_rows.size(); ++r)
        if (samePath(m_rows[r].candidate.path, path))
            return static_cast<int>(r);
    return -1;
}

std::string TargetsModel::targetFieldPath(int row) const
{
    const int t = targetIndex(row);
    if (t < 0)
        return {};
    return m_document->targetPath(static_cast<std::size_t>(m_worker), static_cast<std::size_t>(t));
}

const TargetCandidate *TargetsModel::rowCandidate(int row) const
{
    if (row < 0 || row >= static_cast<int>(m_rows.size()))
        return nullptr;
    return &m_rows[static_cast<std::size_t>(row)].candidate;
}

bool TargetsModel::setTree(int row, const core::FileTree &tree)
{
    core::Target *t = mutableTarget(row);
    if (!t || t->kind != core::TargetKind::FileTree || t->tree == tree)
        return false;
    t->tree = tree;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    m_document->commitValues(this);
    return true;
}

void TargetsModel::describeLocation(Row &row) const
{
    TargetCandidate &c = row.candidate;
    // Another host's path names nothing here: what is known of it is its agent's.
    if (core::isRawDevice(c.kind) || c.path.empty() || remoteHost())
        return;
    const QFileInfo file(toQString(c.path));
    const bool tree = c.kind == core::TargetKind::FileTree;
    if (tree) {
        if (const auto made = existingTree(c.path))
            row.fileBytes = made->totalBytes();
    } else if (file.isFile()) {
        row.fileBytes = static_cast<std::uint64_t>(file.size());
    }
    if (row.listed || file.isRelative())
        return; // the listing knows its file systems; a relative name is no place yet
    // A tree's folder may not be made yet: its parent then holds it.
    const QDir folder = tree && file.isDir() ? QDir(file.absoluteFilePath()) : file.absoluteDir();
    if (!folder.exists())
        return;
    const QStorageInfo storage(folder.absolutePath());
    if (!storage.isValid() || !storage.isReady())
        return;
    c.sizeBytes = static_cast<std::uint64_t>(std::max<qint64>(0, storage.bytesTotal()));
    c.freeBytes = static_cast<std::uint64_t>(std::max<qint64>(0, storage.bytesAvailable()));
    c.fsType = storage.fileSystemType().toStdString();
    c.mountPoints = {toStdString(QDir::toNativeSeparators(storage.rootPath()))};
}

void TargetsModel::rebuild()
{
    beginResetModel();
    m_rows.clear();
    m_remoteCandidates.clear();
    if (remoteHost() && m_managers) {
        const auto &hosts = m_document->profile().hosts;
        const auto host = static_cast<std::size_t>(m_document->currentHost());
        if (const ReachedManager *m
            = host < hosts.size() ? m_managers->boundTo(hosts[host].id) : nullptr;
            m && m->info.inventory)
            m_remoteCandidates = agentCandidates(*m->info.inventory);
    }
    for (const auto &c : hostCandidates()) {
        Row listed {c, true, std::nullopt};
        describeLocation(listed);
        m_rows.push_back(std::move(listed));
    }
    if (const auto *worker = m_document->worker(m_worker)) {
        for (const auto &t : worker->targets) {
            const bool known = std::any_of(m_rows.begin(), m_rows.end(),
                [&](const Row &r) { return samePath(r.candidate.path, t.path); });
            if (known)
                continue;
            Row extra;
            extra.candidate.path = t.path;
            extra.candidate.name = t.path;
            extra.candidate.kind = t.kind;
            // An unresolved name (`C: "System"`) is no place on this machine.
            if (!t.unresolved)
                describeLocation(extra);
            m_rows.push_back(extra);
        }
    }
    for (const auto &[path, kind] : added()) {
        const std::string &p = path; // structured bindings cannot be captured in C++20
        if (std::any_of(m_rows.begin(), m_rows.end(),
                [&](const Row &r) { return samePath(r.candidate.path, p); }))
            continue;
        Row extra;
        extra.candidate.path = path;
        extra.candidate.name = path;
        extra.candidate.kind = kind;
        describeLocation(extra);
        m_rows.push_back(extra);
    }
    endResetModel();
}

int TargetsModel::targetIndex(int row) const
{
    const auto *worker = m_document->worker(m_worker);
    if (!worker || row < 0 || row >= static_cast<int>(m_rows.size()))
        return -1;
    const std::string &path = m_rows[static_cast<std::size_t>(row)].candidate.path;
    for (std::size_t i = 0; i < worker->targets.size(); ++i)
        if (samePath(worker->targets[i].path, path))
            return static_cast<int>(i);
    return -1;
}

const core::Target *TargetsModel::target(int row) const
{
    const int t = targetIndex(row);
    return t < 0 ? nullptr : &m_document->worker(m_worker)->targets[static_cast<std::size_t>(t)];
}

core::Target *TargetsModel::mutableTarget(int row)
{
    const int t = targetIndex(row);
    return t < 0 ? nullptr
                 : &m_document->mutableWorker(m_worker)->targets[static_cast<std::size_t>(t)];
}

int TargetsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int TargetsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TargetsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows[static_cast<std::size_t>(index.row())];
    const TargetCandidate &c = row.candidate;
    const core::Target *t = target(index.row());
    const int column = index.column();

    switch (role) {
    case AssignedRole:
        return t != nullptr;
    case RawDeviceRole:
        return core::isRawDevice(c.kind);
    case PathRole:
        return toQString(c.path);
    case UnresolvedRole:
        return t != nullptr && t->unresolved;
    case FileTreeRole:
        return c.kind == core::TargetKind::FileTree;
    case InUseRole:
        return inUseText(c);
    default:
        break;
    }

    const core::Problems problems = t ? cellProblems(index.row(), column, *t) : core::Problems {};
    if (role == Qt::BackgroundRole)
        return problemBrush(problems);
    if (role == Qt::FontRole && !row.listed && column == TargetColumn) {
        QFont font;
        font.setItalic(true);
        return font;
    }
    // A device this user may not open at all is greyed: it cannot be run as it is (the
    // check before Start refuses it; the Access column's tooltip says what would help).
    if (role == Qt::ForegroundRole && core::isRawDevice(c.kind) && column != AccessColumn
        && accessState(c) == AccessState::NoAccess)
        return QPalette().brush(QPalette::Disabled, QPalette::Text);
    if (column <= AccessColumn)
        return candidateData(row, t, column, role, problems);
    // Per-target settings: shown and editable on assigned rows only.
    if (role == Qt::ToolTipRole)
        return settingToolTip(c, column, problems);
    if (!t)
        return {};
    return settingData(*t, column, role);
}

// Why writing a disk or partition is refused ("" for files: nothing is in their way).
QString TargetsModel::inUseText(const TargetCandidate &c) const
{
    QStringList reasons;
    for (const auto &m : c.mountPoints)
        reasons << tr("mounted at %1").arg(toQString(m));
    for (const auto &u : c.inUse)
        reasons << toQString(u);
    return core::isRawDevice(c.kind) ? reasons.join(QStringLiteral(", ")) : QString();
}

// The problems validation finds in the field a cell edits: the Target cell also shows
// the target's own, and the region cells the worker's default region's, which they
// stand for when the target gives none.
// A test file or file tree that would not fit where it goes, marked in the Free column
// before Start (the run would refuse it while preparing, after the files before it).
core::Problems TargetsModel::spaceProblems(const Row &row, const core::Target &t) const
{
    const TargetCandidate &c = row.candidate;
    // Raw devices take no space; a file system whose size is unknown says nothing.
    if (core::isRawDevice(c.kind) || c.sizeBytes == 0)
        return {};
    const std::uint64_t wanted
        = t.kind == core::TargetKind::FileTree ? t.tree.totalBytes() : t.testFileSizeBytes;
    const std::uint64_t there = row.fileBytes.value_or(0);
    if (wanted <= there || wanted - there <= c.freeBytes)
        return {};
    const QString where = c.mountPoints.empty() ? QString() : toQString(c.mountPoints.front());
    return {{core::Severity::Error, {},
        tr("Not enough space: %1 more is needed here, and %2 is free on %3. Make it smaller "
           "or choose another place.")
            .arg(capacityText(wanted - there), capacityText(c.freeBytes), where)
            .toStdString()}};
}

core::Problems TargetsModel::cellProblems(int row, int column, const core::Target &t) const
{
    if (column == FreeColumn)
        return spaceProblems(m_rows[static_cast<std::size_t>(row)], t);
    core::Problems problems;
    const char *field = fieldOf(column, t);
    if (!field)
        return problems;
    const std::string base = m_document->targetPath(
        static_cast<std::size_t>(m_worker), static_cast<std::size_t>(targetIndex(row)));
    problems = m_document->problemsAt(base + "." + field);
    if (column == TargetColumn)
        for (const auto &p : m_document->problemsAt(base, false))
            problems.push_back(p);
    if (column == RegionStartColumn || column == RegionSizeColumn) {
        const std::string region = m_document->workerPath(static_cast<std::size_t>(m_worker))
            + ".defaultRegion" + (column == RegionStartColumn ? ".offset" : ".size");
        for (const auto &p : m_document->problemsAt(region))
            problems.push_back(p);
    }
    return problems;
}

// The columns that describe the candidate itself (what it is, where, how big), on every
// row, assigned or not.
QVariant TargetsModel::candidateData(const Row &row, const core::Target *t, int column, int role,
    const core::Problems &problems) const
{
    const TargetCandidate &c = row.candidate;
    switch (column) {
    case TargetColumn:
        switch (role) {
        case Qt::DisplayRole:
            return toQString(c.path);
        case Qt::CheckStateRole:
            return t ? Qt::Checked : Qt::Unchecked;
        case Qt::DecorationRole:
            return icon(iconOf(c.kind));
        case Qt::ToolTipRole:
            return targetToolTip(c, t, problems);
        default:
            return {};
        }
    case KindColumn:
        if (role == Qt::DisplayRole)
            return kindText(c.kind);
        if (role == Qt::ToolTipRole)
            return tr("Whole disk, partition, or a test file or file tree on a mounted file "
                      "system");
        return {};
    case ModelColumn:
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
            return toQString(c.model);
        return {};
    case SizeColumn:
        return sizeData(row, role);
    case MediaColumn:
        if (role == Qt::DisplayRole && c.rotational)
            return *c.rotational ? tr("HDD") : tr("SSD");
        if (role == Qt::ToolTipRole)
            return tr("HDD: rotational; SSD: not rotational (as the system reports it)");
        return {};
    case MountColumn:
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
            QStringList mounts;
            for (const auto &m : c.mountPoints)
                mounts << toQString(m);
            QString text = mounts.join(QStringLiteral(", "));
            if (!c.fsType.empty())
                text += QStringLiteral(" (%1)").arg(toQString(c.fsType));
            return text;
        }
        return {};
    case FreeColumn:
        if (role == Qt::ToolTipRole && !problems.empty())
            return freeData(c, role).toString() + QLatin1Char('\n') + problemsText(problems);
        return freeData(c, role);
    case AccessColumn:
        return accessData(c, role);
    default:
        return {};
    }
}

// What ticking the row does, then why an assigned target cannot be found and the
// problems of its fields.
QString TargetsModel::targetToolTip(
    const TargetCandidate &c, const core::Target *t, const core::Problems &problems) const
{
    QString tip = c.kind == core::TargetKind::FileTree
        ? tr("Tick to let the selected worker use the file tree in %1: each I/O opens a "
             "file of the tree, reads or writes it once and closes it. IOPrism makes "
             "the folders and fills the files (never sparse) before the first run, and "
             "never writes into a folder it did not make.")
              .arg(toQString(c.path))
        : core::isRawDevice(c.kind)
        ? tr("Tick to let the selected worker use %1 raw. Writing to a raw device "
             "destroys its data: IOPrism asks before it writes and refuses while the "
             "device is mounted.")
              .arg(toQString(c.path))
        : tr("Tick to let the selected worker use the test file %1. IOPrism creates "
             "and fills it (never sparse) before the first run.")
              .arg(toQString(c.path));
    if (remoteHost()) {
        // Nothing here can tell whether it is there: said, instead of "not found".
        tip += QLatin1Char('\n')
            + tr("A path on %1, not on this machine: IOPrism cannot look at it from here; "
                 "the agent checks it when the run starts.")
                  .arg(hostName());
    } else if (t && t->unresolved) {
        const QFileInfo file(toQString(c.path));
        // A missing folder is said as such: the file itself is made by the run.
        if (c.kind == core::TargetKind::TestFile && !file.isRelative()
            && !file.absoluteDir().exists())
            tip += QLatin1Char('\n')
                + tr("The folder %1 does not exist: the run creates no folders. Create "
                     "it, or double-click the row to choose another place.")
                      .arg(QDir::toNativeSeparators(file.absolutePath()));
        else
            tip += QLatin1Char('\n')
                + tr("Not found on this machine: double-click it (or use its context "
                     "menu) to re-point it to a device or file.");
    }
    if (!problems.empty())
        tip += QLatin1Char('\n') + problemsText(problems);
    return tip;
}

// A device's size; for a test file or a file tree, the size of what is there now (the
// free space of its file system has a column of its own).
QVariant TargetsModel::sizeData(const Row &row, int role) const
{
    const TargetCandidate &c = row.candidate;
    if (c.kind == core::TargetKind::FileTree) {
        // The tree IOPrism made here before, beside the free space of its file system.
        if (role == Qt::DisplayRole)
            return row.fileBytes ? capacityText(*row.fileBytes) : QString();
        if (role == Qt::ToolTipRole)
            return row.fileBytes
                ? tr("The file tree IOPrism made here: %L1 bytes. It is reused when its "
                     "shape is the one asked for, else made again.")
                      .arg(*row.fileBytes)
                : tr("No file tree here yet: IOPrism makes it (folders and filled files) "
                     "before the first run.");
    } else if (!core::isRawDevice(c.kind)) {
        // A test file's own size, beside the free space of its file system.
        if (role == Qt::DisplayRole)
            return row.fileBytes ? capacityText(*row.fileBytes) : QString();
        if (role == Qt::ToolTipRole)
            return row.fileBytes
                ? tr("The test file as it is now: %L1 bytes. IOPrism fills it to the "
                     "test-file size before the run.")
                      .arg(*row.fileBytes)
                : tr("No test file here yet: IOPrism creates it at the test-file size "
                     "before the first run.");
    } else {
        if (role == Qt::DisplayRole)
            return c.sizeBytes ? capacityText(c.sizeBytes) : QString();
        if (role == Qt::ToolTipRole)
            return tr("Device size: %L1 bytes").arg(c.sizeBytes);
    }
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

// The free space of the file system a test file or a file tree goes on.
QVariant TargetsModel::freeData(const TargetCandidate &c, int role) const
{
    if (role == Qt::DisplayRole && !core::isRawDevice(c.kind) && c.freeBytes)
        return capacityText(c.freeBytes);
    if (role == Qt::ToolTipRole && c.kind == core::TargetKind::FileTree) {
        if (c.sizeBytes == 0)
            return tr("Free space where the file tree goes");
        return tr("Free space where the file tree goes: %1 of %2 on the file system "
                  "mounted at %3")
            .arg(capacityText(c.freeBytes), capacityText(c.sizeBytes),
                c.mountPoints.empty() ? QString() : toQString(c.mountPoints.front()));
    }
    if (role == Qt::ToolTipRole) {
        if (core::isRawDevice(c.kind) || c.sizeBytes == 0)
            return tr("Free space where the test file goes");
        return tr("Free space where the test file goes: %1 of %2 on the file system "
                  "mounted at %3")
            .arg(capacityText(c.freeBytes), capacityText(c.sizeBytes),
                c.mountPoints.empty() ? QString() : toQString(c.mountPoints.front()));
    }
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

// Whether this user may open a raw device: a short word, an icon and a colour in the
// message bar's manner (nothing for "Yours", a question for the broker, a warning for
// read only, an error for none), and every detail in the tooltip.
QVariant TargetsModel::accessData(const TargetCandidate &c, int role) const
{
    if (remoteHost()) // who may open it is decided there, by the agent's rights
        return role == Qt::ToolTipRole
            ? tr("Opened on %1 by its agent, with the agent's rights, when the run starts")
                  .arg(hostName())
            : QVariant();
    if (!core::isRawDevice(c.kind))
        return role == Qt::ToolTipRole
            ? tr("IOPrism makes and opens test files and file trees with your own rights")
            : QVariant();
    const AccessState state = accessState(c);
    switch (role) {
    case Qt::DisplayRole:
        switch (state) {
        case AccessState::Yours:
            return tr("Yours");
        case AccessState::AsksPermission:
            return tr("Asks permission");
        case AccessState::ReadOnly:
            return tr("Read only");
        case AccessState::NoAccess:
            return tr("No access");
        }
        return {};
    case Qt::DecorationRole: {
        const QStyle *style = QApplication::style();
        switch (state) {
        case AccessState::Yours:
            return {};
        case AccessState::AsksPermission:
            return style->standardIcon(QStyle::SP_MessageBoxQuestion);
        case AccessState::ReadOnly:
            return style->standardIcon(QStyle::SP_MessageBoxWarning);
        case AccessState::NoAccess:
            return style->standardIcon(QStyle::SP_MessageBoxCritical);
        }
        return {};
    }
    case Qt::ForegroundRole:
        if (state == AccessState::NoAccess)
            return QBrush(errorColor());
        return {};
    case Qt::ToolTipRole:
        return accessLine(tr("Reading"), c.readAccess) + QLatin1Char('\n')
            + accessLine(tr("Writing"), c.writeAccess);
    default:
        return {};
    }
}

// A per-target setting's tooltip, on every row (an unticked row says what ticking it
// would let you set), with the problems of the field.
QString TargetsModel::settingToolTip(
    const TargetCandidate &c, int column, const core::Problems &problems) const
{
    QString tip;
    switch (column) {
    case OutstandingColumn:
        tip = tr("Outstanding I/Os (queue depth) on this target; empty = the worker's "
                 "value. A spec's queue depth (QD in its name) overrides both.");
        break;
    case RegionStartColumn:
        tip = tr("Where the tested region starts (bytes; 4k, 1M, 2G...)");
        break;
    case RegionSizeColumn:
        tip = tr("Size of the tested region; 0 = to the end of the target");
        break;
    case FileSizeColumn:
        tip = c.kind == core::TargetKind::FileTree
            ? tr("The file tree's shape: levels × files per level × size of each file = "
                 "its total. Edit it in the File tree panel under the table "
                 "(double-click here).")
            : tr("Size of the test file IOPrism creates and fills");
        break;
    case CacheColumn:
        tip = tr("Direct: bypass the OS cache (O_DIRECT; FILE_FLAG_NO_BUFFERING on Windows), to "
                 "measure the device. Buffered: through the OS cache.");
        break;
    case WriteThroughColumn:
        tip = tr("Write-through: every write reaches stable storage (O_DSYNC; "
                 "FILE_FLAG_WRITE_THROUGH on Windows)");
        break;
    default:
        break;
    }
    if (!problems.empty())
        tip += QLatin1Char('\n') + problemsText(problems);
    return tip;
}

// An assigned target's settings, as shown and as edited.
QVariant TargetsModel::settingData(const core::Target &t, int column, int role) const
{
    const auto *worker = m_document->worker(m_worker);
    switch (column) {
    case OutstandingColumn:
        if (role == Qt::DisplayRole)
            return t.outstandingIos ? QString::number(*t.outstandingIos)
                                    : tr("worker (%1)").arg(worker->outstandingIos);
        if (role == Qt::EditRole)
            return t.outstandingIos ? int(*t.outstandingIos) : 0;
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case RegionStartColumn:
        if (role == Qt::DisplayRole)
            return exactSizeText(t.region.offsetBytes);
        if (role == Qt::EditRole)
            return qulonglong(t.region.offsetBytes);
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case RegionSizeColumn:
        if (role == Qt::DisplayRole)
            return t.region.sizeBytes ? exactSizeText(t.region.sizeBytes) : tr("to the end");
        if (role == Qt::EditRole)
            return qulonglong(t.region.sizeBytes);
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case FileSizeColumn:
        return fileSizeData(t, role);
    case CacheColumn:
        if (role == Qt::DisplayRole)
            return t.cacheMode == core::CacheMode::Direct ? tr("Direct") : tr("Buffered");
        if (role == Qt::EditRole)
            return static_cast<int>(t.cacheMode);
        return {};
    case WriteThroughColumn:
        if (role == Qt::CheckStateRole)
            return t.writeThrough ? Qt::Checked : Qt::Unchecked;
        return {};
    default:
        return {};
    }
}

// A test file's size (edited in the cell), or a file tree's shape (edited beside the
// table: the cell only shows it).
QVariant TargetsModel::fileSizeData(const core::Target &t, int role) const
{
    // Compact in the table ("3 × 4 × 4 MiB = 48 MiB"); the panel spells it out.
    if (t.kind == core::TargetKind::FileTree && role == Qt::DisplayRole)
        return tr("%1 × %2 × %3 = %4")
            .arg(t.tree.depth)
            .arg(t.tree.filesPerLevel)
            .arg(exactSizeText(t.tree.fileSizeBytes), capacityText(t.tree.totalBytes()));
    if (t.kind != core::TargetKind::TestFile)
        return {};
    if (role == Qt::DisplayRole)
        return exactSizeText(t.testFileSizeBytes);
    if (role == Qt::EditRole)
        return qulonglong(t.testFileSizeBytes);
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

bool TargetsModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    if (!m_document->mutableWorker(m_worker))
        return false;
    if (index.column() == TargetColumn && role == Qt::CheckStateRole)
        return setAssigned(index.row(), value.toInt() == Qt::Checked);

    core::Target *t = mutableTarget(index.row());
    if (!t || !setSetting(*t, index.column(), value, role))
        return false;
    emit dataChanged(index, index);
    m_document->commitValues(this);
    return true;
}

// Ticks (adds the row's target to the worker) or unticks (removes it) a row; false when
// it already was so.
bool TargetsModel::setAssigned(int rowIndex, bool assign)
{
    auto *worker = m_document->mutableWorker(m_worker);
    const Row &row = m_rows[static_cast<std::size_t>(rowIndex)];
    const int existing = targetIndex(rowIndex);
    if (assign == (existing >= 0))
        return false;
    if (assign) {
        core::Target t;
        t.kind = row.candidate.kind;
        t.path = row.candidate.path;
        if (t.kind == core::TargetKind::TestFile && row.candidate.freeBytes > 0) {
            // Leave room on small file systems: at most half the free space.
            const std::uint64_t half = row.candidate.freeBytes / 2 / core::kMiB * core::kMiB;
            if (half >= core::kMiB)
                t.testFileSizeBytes = std::min(t.testFileSizeBytes, half);
        }
        worker->targets.push_back(t);
    } else {
        worker->targets.erase(worker->targets.begin() + existing);
    }
    emit dataChanged(this->index(rowIndex, 0), this->index(rowIndex, ColumnCount - 1));
    m_document->commitStructure(this);
    return true;
}

// An edit of an assigned target's setting; false when the value is refused (or the
// role is not the column's).
bool TargetsModel::setSetting(core::Target &t, int column, const QVariant &value, int role)
{
    switch (column) {
    case OutstandingColumn: {
        if (role != Qt::EditRole)
            return false;
        const auto n = countFromVariant(value);
        if (!n || *n > UINT32_MAX)
            return false;
        if (*n == 0)
            t.outstandingIos.reset();
        else
            t.outstandingIos = static_cast<std::uint32_t>(*n);
        return true;
    }
    case RegionStartColumn:
    case RegionSizeColumn:
    case FileSizeColumn: {
        if (role != Qt::EditRole)
            return false;
        const auto bytes = sizeFromVariant(value);
        if (!bytes)
            return false;
        if (column == RegionStartColumn)
            t.region.offsetBytes = *bytes;
        else if (column == RegionSizeColumn)
            t.region.sizeBytes = *bytes;
        else if (t.kind == core::TargetKind::TestFile)
            t.testFileSizeBytes = *bytes;
        else
            return false;
        return true;
    }
    case CacheColumn:
        if (role != Qt::EditRole)
            return false;
        t.cacheMode = value.toInt() == static_cast<int>(core::CacheMode::Buffered)
            ? core::CacheMode::Buffered
            : core::CacheMode::Direct;
        return true;
    case WriteThroughColumn:
        if (role != Qt::CheckStateRole)
            return false;
        t.writeThrough = value.toInt() == Qt::Checked;
        return true;
    default:
        return false;
    }
}

Qt::ItemFlags TargetsModel::flags(const QModelIndex &index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
    if (m_worker < 0)
        return f;
    const core::Target *t = target(index.row());
    switch (index.column()) {
    case TargetColumn:
        f |= Qt::ItemIsUserCheckable;
        break;
    case OutstandingColumn:
    case RegionStartColumn:
    case RegionSizeColumn:
    case CacheColumn:
        if (t)
            f |= Qt::ItemIsEditable;
        break;
    case FileSizeColumn:
        if (t && t->kind == core::TargetKind::TestFile)
            f |= Qt::ItemIsEditable;
        break;
    case WriteThroughColumn:
        if (t)
            f |= Qt::ItemIsUserCheckable;
        break;
    default:
        break;
    }
    return f;
}

QVariant TargetsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case TargetColumn:
            return tr("Target");
        case KindColumn:
            return tr("Kind");
        case ModelColumn:
            return tr("Model");
        case SizeColumn:
            return tr("Size");
        case MediaColumn:
            return tr("Media");
        case MountColumn:
            return tr("Mounted at");
        case FreeColumn:
            return tr("Free");
        case AccessColumn:
            return tr("Access");
        case OutstandingColumn:
            return tr("Outstanding I/Os");
        case RegionStartColumn:
            return tr("Region start");
        case RegionSizeColumn:
            return tr("Region size");
        case FileSizeColumn:
            return tr("Size to create");
        case CacheColumn:
            return tr("Cache");
        case WriteThroughColumn:
            return tr("Write-through");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case TargetColumn:
            return tr("Tick the targets the selected worker uses");
        case SizeColumn:
            return tr("Size of a disk or partition; for a test file or file tree, as it is now");
        case FreeColumn:
            return tr("Free space on the file system of a test file or file tree");
        case AccessColumn:
            return tr("Whether you may open a disk or partition now (Yours), the system "
                      "asks for your permission when the run starts (Asks permission), "
                      "or it cannot be opened (No access; Read only: not for writing). "
                      "The tooltip of each row says why and what would help.");
        case OutstandingColumn:
            return tr("Queue depth per target (empty: the worker's)");
        case RegionStartColumn:
            return tr("Offset where the tested region starts");
        case RegionSizeColumn:
            return tr("Length of the tested region (0: to the end)");
        case FileSizeColumn:
            return tr("Size of the test file to create, or the shape of the file tree");
        case CacheColumn:
            return tr("Direct I/O (bypass the OS cache) or buffered");
        case WriteThroughColumn:
            return tr("Writes reach stable storage before they complete");
        default:
            return headerData(section, orientation, Qt::DisplayRole);
        }
    }
    return {};
}

void TargetsModel::refreshFacts()
{
    // In place (no reset): the page keeps its selection and scroll position.
    for (auto &row : m_rows) {
        row.fileBytes.reset();
        describeLocation(row);
    }
    refreshAll();
}

void TargetsModel::refreshAll()
{
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

} // namespace ioprism::ui
