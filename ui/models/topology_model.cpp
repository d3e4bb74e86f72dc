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
#include <QFont>
#include <QGuiApplication>
#include <QPalette>
#include <QSysInfo>

#include <algorithm>

namespace ioprism::ui {

namespace {
// internalId: the row's level in the low two bits, its host (the index into
// profile().hosts) above them, and for a target its worker's row above that; the row
// itself is the index's row. A 32-bit quintptr holds 16384 hosts and 65536 workers per
// host, far more than anyone edits (and than validation lets run).
enum class Level : quintptr { Host = 0, Worker = 1, Target = 2 };
constexpr quintptr kLevelBits = 2;
constexpr quintptr kHostBits = 14;
constexpr int kMaxHosts = 1 << kHostBits;
constexpr int kMaxWorkers = 1 << 16;

quintptr makeId(Level level, int host, int worker = 0)
{
    return static_cast<quintptr>(level) | (static_cast<quintptr>(host) << kLevelBits)
        | (static_cast<quintptr>(worker) << (kLevelBits + kHostBits));
}

Level levelOf(const QModelIndex &index)
{
    return static_cast<Level>(index.internalId() & ((quintptr {1} << kLevelBits) - 1));
}

int hostOf(const QModelIndex &index)
{
    return static_cast<int>((index.internalId() >> kLevelBits) & (kMaxHosts - 1));
}

int workerOf(const QModelIndex &index)
{
    return static_cast<int>((index.internalId() >> (kLevelBits + kHostBits)) & (kMaxWorkers - 1));
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
    connect(document, &ProfileDocument::currentHostChanged, this, &TopologyModel::refreshHosts);
}

QModelIndex TopologyModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, makeId(Level::Host, row));
    if (levelOf(parent) == Level::Host)
        return createIndex(row, column, makeId(Level::Worker, parent.row()));
    if (levelOf(parent) == Level::Worker)
        return createIndex(row, column, makeId(Level::Target, hostOf(parent), parent.row()));
    return {};
}

QModelIndex TopologyModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || levelOf(child) == Level::Host)
        return {};
    const int host = hostOf(child);
    if (levelOf(child) == Level::Worker)
        return createIndex(host, 0, makeId(Level::Host, host));
    return createIndex(workerOf(child), 0, makeId(Level::Worker, host));
}

const core::Worker *TopologyModel::workerAt(int host, int worker) const
{
    const auto &hosts = m_document->profile().hosts;
    if (host < 0 || host >= static_cast<int>(hosts.size()))
        return nullptr;
    const auto &workers = hosts[static_cast<std::size_t>(host)].workers;
    if (worker < 0 || worker >= static_cast<int>(workers.size()))
        return nullptr;
    return &workers[static_cast<std::size_t>(worker)];
}

int TopologyModel::rowCount(const QModelIndex &parent) const
{
    const auto &hosts = m_document->profile().hosts;
    if (!parent.isValid()) // this host, then every other manager of the profile
        return std::clamp<int>(static_cast<int>(hosts.size()), 1, kMaxHosts);
    if (parent.column() != 0)
        return 0;
    if (levelOf(parent) == Level::Host) {
        const auto host = static_cast<std::size_t>(parent.row());
        return host < hosts.size()
            ? std::min<int>(static_cast<int>(hosts[host].workers.size()), kMaxWorkers)
            : 0;
    }
    if (levelOf(parent) == Level::Worker) {
        const auto *worker = workerAt(hostOf(parent), parent.row());
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
    const Level level = levelOf(index);
    const int host = level == Level::Host ? index.row() : hostOf(index);
    if (role == HostIndexRole)
        return host;
    if (level == Level::Host) {
        // The manager whose workers the editors show, bold among the others.
        if (role == Qt::FontRole && host == m_document->currentHost()
            && m_document->profile().hosts.size() > 1) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return host == 0 ? hostData(role) : otherHostData(host, role);
    }
    if (level == Level::Worker)
        return workerData(host, index.row(), role);
    return targetData(host, workerOf(index), index.row(), role);
}

QVariant TopologyModel::hostData(int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        return tr("This host (%1)").arg(QSysInfo::machineHostName());
    case Qt::ToolTipRole: {
        QString tip = tr("The machine IOPrism runs on. Its workers run their assigned access "
                         "specifications together, step by step.");
        if (m_document->profile().hosts.size() > 1)
            tip += QLatin1Char('\n') + selectHint();
        return tip;
    }
    case Qt::DecorationRole:
        return icon(IconId::Host);
    case WorkerIndexRole:
    case TargetIndexRole:
        return -1;
    default:
        return {};
    }
}

QString TopologyModel::selectHint()
{
    return tr("Select this manager or one of its workers to edit its workers: the worker "
              "buttons, the worker's settings, the Targets page and the run order then act "
              "on this manager's.");
}

QVariant TopologyModel::workerData(int host, int row, int role) const
{
    const auto *worker = workerAt(host, row);
    if (!worker)
        return {};
    const auto path = ProfileDocument::hostWorkerPath(
        static_cast<std::size_t>(host), static_cast<std::size_t>(row));
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

QVariant TopologyModel::targetData(int host, int w, int row, int role) const
{
    const auto *worker = workerAt(host, w);
    if (!worker || row >= static_cast<int>(worker->targets.size()))
        return {};
    const auto &target = worker->targets[static_cast<std::size_t>(row)];
    const auto path = ProfileDocument::hostTargetPath(
        static_cast<std::size_t>(host), static_cast<std::size_t>(w), static_cast<std::size_t>(row));
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
        || levelOf(index) != Level::Worker || !workerAt(hostOf(index), index.row()))
        return false;
    // Any host's worker: renaming one in the tree does not make its host the current one.
    auto &worker = m_document->mutableProfile()
                       .hosts[static_cast<std::size_t>(hostOf(index))]
                       .workers[static_cast<std::size_t>(index.row())];
    const std::string name = toStdString(value.toString().trimmed());
    if (name.empty() || name == worker.name)
        return false;
    worker.name = name;
    emit dataChanged(index, index);
    m_document->commitValues(this);
    return true;
}

Qt::ItemFlags TopologyModel::flags(const QModelIndex &index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (levelOf(index) == Level::Worker)
        f |= Qt::ItemIsEditable;
    if (levelOf(index) == Level::Target)
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
        lines << selectHint();
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
        lines << selectHint();
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

QModelIndex TopologyModel::hostIndex(int host) const
{
    return index(host, 0);
}

QModelIndex TopologyModel::workerIndex(int worker) const
{
    return workerIndex(m_document->currentHost(), worker);
}

QModelIndex TopologyModel::workerIndex(int host, int worker) const
{
    return index(worker, 0, hostIndex(host));
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
    beginInsertRows(hostIndex(m_document->currentHost()), row, row);
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
    refreshHosts();
    for (int h = 0; h < rowCount(); ++h) {
        const QModelIndex host = hostIndex(h);
        const int workers = rowCount(host);
        if (workers == 0)
            continue;
        emit dataChanged(index(0, 0, host), index(workers - 1, 0, host));
        for (int w = 0; w < workers; ++w) {
            const QModelIndex worker = index(w, 0, host);
            const int targets = rowCount(worker);
            if (targets > 0)
                emit dataChanged(index(0, 0, worker), index(targets - 1, 0, worker));
        }
    }
}

void TopologyModel::refreshHosts()
{
    emit dataChanged(index(0, 0), index(rowCount() - 1, 0));
}

} // namespace ioprism::ui
