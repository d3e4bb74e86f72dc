// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/assigned_specs_model.h"

#include "ui/format.h"
#include "ui/models/profile_defaults.h"
#include "ui/models/profile_document.h"
#include "ui/style.h"

namespace ioprism::ui {

AssignedSpecsModel::AssignedSpecsModel(ProfileDocument *document, QObject *parent)
    : QAbstractListModel(parent)
    , m_document(document)
{
    // A new profile, or another host's workers (the same row is another worker): the row
    // kept within the workers there, the list made again.
    const auto reshown = [this] {
        if (m_worker >= m_document->workerCount())
            m_worker = m_document->workerCount() - 1;
        if (m_worker < 0 && m_document->workerCount() > 0)
            m_worker = 0;
        reset();
    };
    connect(document, &ProfileDocument::profileReset, this, reshown);
    connect(document, &ProfileDocument::currentHostChanged, this, reshown);
    connect(document, &ProfileDocument::structureChanged, this, [this](const QObject *origin) {
        if (origin == this)
            return;
        if (m_worker >= m_document->workerCount())
            m_worker = m_document->workerCount() - 1;
        reset();
    });
    connect(document, &ProfileDocument::problemsChanged, this, [this] {
        if (rowCount() > 0)
            emit dataChanged(index(0), index(rowCount() - 1));
    });
}

void AssignedSpecsModel::setWorker(int worker)
{
    if (worker == m_worker)
        return;
    m_worker = worker;
    reset();
}

void AssignedSpecsModel::reset()
{
    beginResetModel();
    endResetModel();
}

int AssignedSpecsModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    const auto *worker = m_document->worker(m_worker);
    return worker ? static_cast<int>(worker->assignedSpecs.size()) : 0;
}

QVariant AssignedSpecsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto *worker = m_document->worker(m_worker);
    const std::string &name = worker->assignedSpecs[static_cast<std::size_t>(index.row())];
    const auto problems
        = m_document->problemsAt(m_document->workerPath(static_cast<std::size_t>(m_worker))
            + ".specs[" + std::to_string(index.row()) + "]");
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        // The step number is the vertical header: a row's own data never changes
        // when others are inserted or removed.
        return toQString(name);
    case Qt::ToolTipRole: {
        QString tip = tr("Step %1 of the run for this worker").arg(index.row() + 1);
        if (const auto *spec = core::findSpec(m_document->profile(), name))
            tip += QStringLiteral(": ") + specSummary(*spec);
        if (!problems.empty())
            tip += QLatin1Char('\n') + problemsText(problems);
        return tip;
    }
    case Qt::BackgroundRole:
        return problemBrush(problems);
    default:
        return {};
    }
}

Qt::ItemFlags AssignedSpecsModel::flags(const QModelIndex &index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
}

QVariant AssignedSpecsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && section == 0 && role == Qt::DisplayRole)
        return tr("Access specification");
    if (orientation == Qt::Vertical && role == Qt::DisplayRole && section >= 0
        && section < rowCount())
        return section + 1;
    if (orientation == Qt::Vertical && role == Qt::ToolTipRole)
        return tr("Step number");
    return {};
}

bool AssignedSpecsModel::moveRows(const QModelIndex &sourceParent, int sourceRow, int count,
    const QModelIndex &destinationParent, int destinationChild)
{
    auto *worker = m_document->mutableWorker(m_worker);
    if (!worker || sourceParent.isValid() || destinationParent.isValid() || count != 1)
        return false;
    const int rows = rowCount();
    if (sourceRow < 0 || sourceRow >= rows || destinationChild < 0 || destinationChild > rows)
        return false;
    if (destinationChild == sourceRow || destinationChild == sourceRow + 1)
        return false;
    if (!beginMoveRows({}, sourceRow, sourceRow, {}, destinationChild))
        return false;
    auto &specs = worker->assignedSpecs;
    const std::string moving = specs[static_cast<std::size_t>(sourceRow)];
    specs.erase(specs.begin() + sourceRow);
    const int to = destinationChild > sourceRow ? destinationChild - 1 : destinationChild;
    specs.insert(specs.begin() + to, moving);
    endMoveRows();
    m_document->commitValues(this); // no other model's rows depend on it
    return true;
}

bool AssignedSpecsModel::removeRows(int row, int count, const QModelIndex &parent)
{
    auto *worker = m_document->mutableWorker(m_worker);
    if (!worker || parent.isValid() || row < 0 || count < 1 || row + count > rowCount())
        return false;
    beginRemoveRows({}, row, row + count - 1);
    auto &specs = worker->assignedSpecs;
    specs.erase(specs.begin() + row, specs.begin() + row + count);
    endRemoveRows();
    m_document->commitValues(this); // no other model's rows depend on it
    return true;
}

int AssignedSpecsModel::assign(const std::string &name, int row)
{
    auto *worker = m_document->mutableWorker(m_worker);
    if (!worker)
        return -1;
    const int rows = rowCount();
    if (row < 0 || row > rows)
        row = rows;
    beginInsertRows({}, row, row);
    worker->assignedSpecs.insert(worker->assignedSpecs.begin() + row, name);
    endInsertRows();
    m_document->commitValues(this); // no other model's rows depend on it
    return row;
}

bool AssignedSpecsModel::moveUp(int row)
{
    return row > 0 && moveRows({}, row, 1, {}, row - 1);
}

bool AssignedSpecsModel::moveDown(int row)
{
    return row + 1 < rowCount() && moveRows({}, row, 1, {}, row + 2);
}

} // namespace ioprism::ui
