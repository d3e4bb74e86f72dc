// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/topology_model.h"

#include "core/profile/names.h"
#include "ui/format.h"
#include "ui/icons.h"
#include "ui/models/managers.h"
#include "ui/models/profile_defaults.h"
#include "ui/models/profile_document.h"
#include "ui/style.h"

#include <QBrush>
#include <QGuiApplication>
#include <QPalette>
#include <QSysInfo>

#include <algorithm>

namespace ioprism::ui {

namespace {
// internalId: 0 = the host, 1 = a worker (parent: the host), 2 + w = a target of worker w,
// kOtherHostId = another manager of the profile (a top-level row after this host's).
constexpr quintptr kHostId = 0;
constexpr quintptr kWorkerId = 1;
constexpr quintptr kTargetBase = 2;
constexpr quintptr kOtherHostId = ~quintptr {0};

bool isTarget(quintptr id)
{
    return id >= kTargetBase && id != kOtherHostId;
}
} // namespace

TopologyModel::TopologyModel(ProfileDocument *document, QObject *parent)
    : QAbstractItemModel(parent)
    , m_document(document)
{
    connect(document, &ProfileDocument::profileReset, this, [this] {
        beginResetModel();
        endResetModel();
    });
    connect(document, &ProfileDocument::structureChanged, this, [this](const QObject *origin) {
        if (origin == this)
            return;
        beginResetModel();
        endResetModel();
    });
    connect(document, &ProfileDocument::valuesChanged, this, [this](const QObject *origin) {
        if (origin != this)
            refreshProblems();
    });
    connect(document, &ProfileDocument::problemsChanged, this, &TopologyModel::refreshProblems);
}

QModelIndex TopologyModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, row == 0 ? kHostId : kOtherHostId);
    if (parent.internalId() == kHostId)
        return createIndex(row, column, kWorkerId);
    if (parent.internalId() == kWorkerId)
        return createIndex(row, column, kTargetBase + static_cast<quintptr>(parent.row()));
    return {};
}

QModelIndex TopologyModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == kHostId || child.internalId() == kOtherHostId)
        return {};
    if (child.internalId() == kWorkerId)
        return createIndex(0, 0, kHostId);
    return createIndex(static_cast<int>(child.internalId() - kTargetBase), 0, kWorkerId);
}

int TopologyModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid()) // this host, then every other manager of the profile
        return std::max<int>(1, static_cast<int>(m_document->profile().hosts.size()));
    if (parent.column() != 0)
        return 0;
    if (parent.internalId() == kHostId)
        return m_document->workerCount();
    if (parent.internalId() == kWorkerId) {
        const auto *worker = m_document->worker(parent.row());
        return worker ? static_cast<int>(worker->targets.size()) : 0;
    }
    return 0;
}

int TopologyModel::columnCount(const QModelIndex &) const
{
    return 1;
}

QVariant TopologyModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    // The internal id says the row's level: another host, this host, a worker, or a
    // target of the worker kTargetBase + w.
    const quintptr id = index.internalId();
    if (id == kOtherHostId)
        return otherHostData(index.row(), role);
    if (id == kHostId)
        return hostData(role);
    if (id == kWorkerId)
        return workerData(index.row(), role);
    return targetData(static_cast<int>(id - kTargetBase), index.row(), role);
}

QVariant TopologyModel::hostData(int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        return tr("This host (%1)").arg(QSysInfo::machineHostName());
    case Qt::ToolTipRole:
        return tr("The machine IOPrism runs on. Its workers run their assigned access "
                  "specifications together, step by step.");
    case Qt::DecorationRole:
        return icon(IconId::Host);
    case WorkerIndexRole:
    case TargetIndexRole:
        return -1;
    default:
        return {};
    }
}

QVariant TopologyModel::workerData(int row, int role) const
{
    const auto *worker = m_document->worker(row);
    if (!worker)
        return {};
    const auto path = ProfileDocument::workerPath(static_cast<std::size_t>(row));
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        return toQString(worker->name);
    case Qt::ToolTipRole: {
        QString tip = tr("%1: %2, %3 per target, %4 assigned. Double-click or F2 to rename.")
                          .arg(toQString(worker->name),
                              tr("%n targets", nullptr, int(worker->targets.size())),
                              tr("%n outstanding I/Os", nullptr, int(worker->outstandingIos)),
                              tr("%n specs", nullptr, int(worker->assignedSpecs.size())));
        const auto problems = m_document->problemsAt(path);
        if (!problems.empty())
            tip += QLatin1Char('\n') + problemsText(problems);
        return tip;
    }
    case Qt::DecorationRole:
        return icon(IconId::Worker);
    case Qt::BackgroundRole:
        return problemBrush(m_document->problemsAt(path));
    case WorkerIndexRole:
        return row;
    case TargetIndexRole:
        return -1;
    default:
        return {};
    }
}

QVariant TopologyModel::targetData(int w, int row, int role) const
{
    const auto *worker = m_document->worker(w);
    if (!worker || row >= static_cast<int>(worker->targets.size()))
        return {};
    const auto &target = worker->targets[static_cast<std::size_t>(row)];
    const auto path
        = ProfileDocument::targetPath(static_cast<std::size_t>(w), static_cast<std::size_t>(row));
    switch (role) {
    case Qt::DisplayRole:
        return toQString(target.path);
    case Qt::ToolTipRole: {
        QString tip = target.kind == core::TargetKind::TestFile
            ? tr("Test file %1 (%2)")
                  .arg(toQString(target.path), exactSizeText(target.testFileSizeBytes))
            : target.kind == core::TargetKind::FileTree
            ? tr("File tree %1 (%2)").arg(toQString(target.path), fileTreeShapeText(target.tree))
            : tr("Raw device %1").arg(toQString(target.path));
        const auto problems = m_document->problemsAt(path);
        if (!problems.empty())
            tip += QLatin1Char('\n') + problemsText(problems);
        return tip;
    }
    case Qt::DecorationRole:
        return icon(target.kind == core::TargetKind::TestFile ? IconId::TestFile
                : target.kind == core::TargetKind::FileTree   ? IconId::FileTree
                                                              : IconId::Disk);
    case Qt::BackgroundRole:
        return problemBrush(m_document->problemsAt(path));
    case WorkerIndexRole:
        return w;
    case TargetIndexRole:
        return row;
    default:
        return {};
    }
}

bool TopologyModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid)
        || index.internalId() != kWorkerId)
        return false;
    auto *worker = m_document->mutableWorker(index.row());
    const std::string name = toStdString(value.toString().trimmed());
    if (!worker || name.empty() || name == worker->name)
        return false;
    worker->name = name;
    emit dataChanged(index, index);
    m_document->commitValues(this);
    return true;
}

Qt::ItemFlags TopologyModel::flags(const QModelIndex &index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.internalId() == kWorkerId)
        f |= Qt::ItemIsEditable;
    if (isTarget(index.internalId()) || index.internalId() == kOtherHostId)
        f |= Qt::ItemNeverHasChildren;
    return f;
}

QVariant TopologyModel::otherHostData(int host, int role) const
{
    const auto &hosts = m_document->profile().hosts;
    if (host <= 0 || host >= static_cast<int>(hosts.size()))
        return {};
    const core::Host &h = hosts[static_cast<std::size_t>(host)];
    const QString name = h.name.empty() ? QString::number(h.id) : toQString(h.name);
    if (const ReachedManager *m = m_managers ? m_managers->boundTo(h.id) : nullptr)
        return boundHostData(host, *m, role);
    switch (role) {
    case Qt::DisplayRole:
        return tr("Manager %1: not run here (%2)")
            .arg(name, tr("%n workers", nullptr, int(h.workers.size())));
    case Qt::ToolTipRole: {
        QStringList lines;
        lines << tr("Another manager of this profile (an Iometer file can name several). "
                    "IOPrism runs the first manager's workers on this machine; this one's are "
                    "kept in the profile, so that saving it as .icf keeps them, and their "
                    "problems do not stop a run.");
        for (const auto &w : h.workers) {
            QStringList targets;
            for (const auto &t : w.targets)
                targets << toQString(t.path);
            lines << tr("%1: %2").arg(toQString(w.name),
                targets.isEmpty() ? tr("no targets") : targets.join(QStringLiteral(", ")));
        }
        const auto problems = m_document->problemsAt("hosts[" + std::to_string(host) + "]");
        if (!problems.empty())
            lines << problemsText(problems);
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::DecorationRole:
        return icon(IconId::Host);
    case Qt::ForegroundRole:
        return QBrush(QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text));
    case WorkerIndexRole:
    case TargetIndexRole:
        return -1;
    default:
        return {};
    }
}

QVariant TopologyModel::boundHostData(int host, const ReachedManager &manager, int role) const
{
    const core::Host &h = m_document->profile().hosts[static_cast<std::size_t>(host)];
    const bool connected = manager.connection->isOpen();
    switch (role) {
    case Qt::DisplayRole:
        return tr("Manager %1; %2%3")
            .arg(Managers::summary(manager.info), tr("%n workers", nullptr, int(h.workers.size())),
                connected ? QString() : tr(": disconnected"));
    case Qt::ToolTipRole: {
        QStringList lines;
        lines << tr("A manager on another host: its workers run there, together with this "
                    "host's, step by step. Its workers start as a copy of this host's (the same "
                    "workload on every manager, e.g. on shared storage).");
        lines << Managers::details(manager.info);
        if (!connected)
            lines << tr("Disconnected: %1").arg(toQString(manager.connection->closedReason()));
        for (const auto &w : h.workers) {
            QStringList targets;
            for (const auto &t : w.targets)
                targets << toQString(t.path);
            lines << tr("%1: %2").arg(toQString(w.name),
                targets.isEmpty() ? tr("no targets") : targets.join(QStringLiteral(", ")));
        }
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::DecorationRole:
        return icon(IconId::Host);
    case Qt::ForegroundRole:
        if (!connected)
            return QBrush(QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text));
        return {};
    case WorkerIndexRole:
    case TargetIndexRole:
        return -1;
    default:
        return {};
    }
}

void TopologyModel::setManagers(const Managers *managers)
{
    if (m_managers)
        disconnect(m_managers, nullptr, this, nullptr);
    m_managers = managers;
    if (managers)
        connect(managers, &Managers::changed, this, [this] {
            const int rows = rowCount();
            if (rows > 1)
                emit dataChanged(index(1, 0), index(rows - 1, 0));
        });
}

std::uint32_t TopologyModel::hostIdAt(int row) const
{
    const auto &hosts = m_document->profile().hosts;
    return row >= 0 && row < static_cast<int>(hosts.size())
        ? hosts[static_cast<std::size_t>(row)].id
        : 0;
}

QVariant TopologyModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && section == 0 && role == Qt::DisplayRole)
        return tr("Topology");
    return {};
}

QModelIndex TopologyModel::hostIndex() const
{
    return index(0, 0);
}

QModelIndex TopologyModel::workerIndex(int worker) const
{
    return index(worker, 0, hostIndex());
}

int TopologyModel::addWorker()
{
    auto &host = m_document->host();
    core::Worker worker;
    worker.name = uniqueWorkerName(host);
    // A new worker starts like the others: Iometer copies the default assignment; we
    // also copy the first worker's targets and specs so a click on Start just works.
    if (!host.workers.empty()) {
        worker.targets = host.workers.front().targets;
        worker.assignedSpecs = host.workers.front().assignedSpecs;
        worker.outstandingIos = host.workers.front().outstandingIos;
    } else {
        for (const auto &spec : m_document->profile().specs)
            if (spec.defaultAssignment == core::SpecAssignment::All
                || spec.defaultAssignment == core::SpecAssignment::Disk)
                worker.assignedSpecs.push_back(spec.name);
    }
    const int row = static_cast<int>(host.workers.size());
    beginInsertRows(hostIndex(), row, row);
    host.workers.push_back(std::move(worker));
    endInsertRows();
    m_document->commitStructure(this);
    return row;
}

int TopologyModel::duplicateWorker(int workerRow)
{
    const auto *source = m_document->worker(workerRow);
    if (!source)
        return -1;
    core::Worker copy = *source;
    auto &host = m_document->host();
    copy.name = uniqueWorkerName(host);
    if (copy.seed)
        copy.seed = *copy.seed + 1; // a copy with the same seed would repeat the same offsets
    // A reset, not an insert: target rows carry their worker's row in their internal id,
    // which a shift of the later workers would leave stale in persistent indexes.
    const int row = workerRow + 1;
    beginResetModel();
    host.workers.insert(host.workers.begin() + row, std::move(copy));
    endResetModel();
    m_document->commitStructure(this);
    return row;
}

bool TopologyModel::removeWorker(int workerRow)
{
    if (!m_document->worker(workerRow))
        return false;
    auto &host = m_document->host();
    beginResetModel(); // see duplicateWorker
    host.workers.erase(host.workers.begin() + workerRow);
    endResetModel();
    m_document->commitStructure(this);
    return true;
}

void TopologyModel::refreshProblems()
{
    // Colours and tooltips of every row follow the problems; the tree is small.
    const QModelIndex host = hostIndex();
    emit dataChanged(host, host);
    const int workers = rowCount(host);
    if (workers == 0)
        return;
    emit dataChanged(index(0, 0, host), index(workers - 1, 0, host));
    for (int w = 0; w < workers; ++w) {
        const QModelIndex worker = index(w, 0, host);
        const int targets = rowCount(worker);
        if (targets > 0)
            emit dataChanged(index(0, 0, worker), index(targets - 1, 0, worker));
    }
}

} // namespace ioprism::ui
