// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/files_model.h"

#include "ui/format.h"

#include <QFont>
#include <QLocale>

#include <algorithm>

namespace ioprism::ui {

namespace {

// Which words fit the run: trees open files, the connection rate reopens its targets.
FilesModel::Naming namingOf(const core::RunResult &result)
{
    bool trees = false, connections = false;
    const auto &hosts = result.plan.profile.hosts;
    for (const auto &worker : result.plan.workers) {
        const bool rate = !hosts.empty() && worker.profileWorker < hosts.front().workers.size()
            && hosts.front().workers[worker.profileWorker].testConnectionRate;
        for (const auto &t : worker.targets) {
            if (t.target.kind == core::TargetKind::FileTree)
                trees = true;
            else if (rate)
                connections = true;
        }
    }
    if (trees && connections)
        return FilesModel::Naming::Both;
    return connections ? FilesModel::Naming::Connections : FilesModel::Naming::Files;
}

} // namespace

FilesModel::FilesModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void FilesModel::setResult(RunResultPtr result)
{
    beginResetModel();
    m_result = std::move(result);
    m_step = m_result && !m_result->steps.empty() ? 0 : -1;
    m_naming = m_result ? namingOf(*m_result) : Naming::Files;
    m_any = m_result
        && std::any_of(m_result->steps.begin(), m_result->steps.end(), [](const auto &step) {
               return std::any_of(step.scopes.begin(), step.scopes.end(),
                   [](const auto &scope) { return scope.figures.connections.has_value(); });
           });
    collect();
    endResetModel();
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void FilesModel::setStep(int step)
{
    if (!m_result || step < 0 || step >= static_cast<int>(m_result->steps.size()))
        step = -1;
    if (step == m_step)
        return;
    beginResetModel();
    m_step = step;
    collect();
    endResetModel();
}

void FilesModel::collect()
{
    m_rows.clear();
    if (!m_result || m_step < 0)
        return;
    for (const auto &scope : m_result->steps[static_cast<std::size_t>(m_step)].scopes)
        if (scope.figures.connections)
            m_rows.push_back(&scope);
}

int FilesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int FilesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FilesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const core::ScopeResult &scope = *m_rows[static_cast<std::size_t>(index.row())];
    const core::ConnectionFigures &c = *scope.figures.connections;
    const int column = index.column();

    if (role == Qt::FontRole && scope.scope.kind == core::Scope::Kind::All) {
        QFont font;
        font.setBold(true);
        return font;
    }
    if (role == Qt::TextAlignmentRole)
        return column == ScopeColumn ? int(Qt::AlignLeft | Qt::AlignVCenter)
                                     : int(Qt::AlignRight | Qt::AlignVCenter);
    if (column == ScopeColumn) {
        if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
            return {};
        return scopeRowText(scope.scope);
    }

    const core::PhaseFigures *phase = nullptr;
    double value = 0;
    if (!cellFigures(c, column, phase, value))
        return {};
    if (role == ValueRole)
        return value;
    if (role == Qt::ToolTipRole) {
        if (column == RateColumn)
            return m_naming == Naming::Connections
                ? tr("%L1 connections (opened, used and closed) in %2 s")
                      .arg(static_cast<qulonglong>(c.connection.count))
                      .arg(QLocale().toString(scope.figures.seconds, 'f', 1))
                : tr("%L1 files opened in %2 s")
                      .arg(static_cast<qulonglong>(c.open.count))
                      .arg(QLocale().toString(scope.figures.seconds, 'f', 1));
        return headerData(column, Qt::Horizontal, Qt::ToolTipRole);
    }
    if (role != Qt::DisplayRole)
        return {};
    if (column == RateColumn)
        return iopsText(value);
    if (column == ErrorsColumn)
        return QString::number(c.open.errors + c.close.errors);
    return phase->count == 0 ? QStringLiteral("—") : latencyText(value);
}

// The phase a figure column is of (none for Errors) and its value: the rate of
// connections or of opens, a latency (mean, p99, max: the columns come in threes), or
// the count of errors. False for a column that is no figure's.
bool FilesModel::cellFigures(const core::ConnectionFigures &c, int column,
    const core::PhaseFigures *&phase, double &value) const
{
    switch (column) {
    case RateColumn:
        phase = m_naming == Naming::Connections ? &c.connection : &c.open;
        value = phase->perSecond;
        return true;
    case OpenMeanColumn:
    case OpenP99Column:
    case OpenMaxColumn:
        phase = &c.open;
        break;
    case CloseMeanColumn:
    case CloseP99Column:
    case CloseMaxColumn:
        phase = &c.close;
        break;
    case OperationMeanColumn:
    case OperationP99Column:
    case OperationMaxColumn:
        phase = &c.connection;
        break;
    case ErrorsColumn:
        value = static_cast<double>(c.open.errors + c.close.errors);
        return true;
    default:
        return false;
    }
    switch ((column - OpenMeanColumn) % 3) {
    case 0:
        value = phase->latency.meanUs;
        break;
    case 1:
        value = phase->latency.p99Us;
        break;
    default:
        value = phase->latency.maxUs;
        break;
    }
    return true;
}

Qt::ItemFlags FilesModel::flags(const QModelIndex &index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
}

QVariant FilesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    // The open-to-close phase: a tree's operation, Iometer's connection.
    const QString whole = m_naming == Naming::Files ? tr("Operation")
        : m_naming == Naming::Connections           ? tr("Connection")
                                                    : tr("Open to close");
    if (role == Qt::DisplayRole) {
        switch (section) {
        case ScopeColumn:
            return tr("Scope");
        case RateColumn:
            return m_naming == Naming::Files      ? tr("Files opened/s")
                : m_naming == Naming::Connections ? tr("Connections/s")
                                                  : tr("Opened/s");
        case OpenMeanColumn:
            return tr("Open mean");
        case OpenP99Column:
            return tr("Open p99");
        case OpenMaxColumn:
            return tr("Open max");
        case CloseMeanColumn:
            return tr("Close mean");
        case CloseP99Column:
            return tr("Close p99");
        case CloseMaxColumn:
            return tr("Close max");
        case OperationMeanColumn:
            return tr("%1 mean").arg(whole);
        case OperationP99Column:
            return tr("%1 p99").arg(whole);
        case OperationMaxColumn:
            return tr("%1 max").arg(whole);
        case ErrorsColumn:
            return tr("Errors");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ScopeColumn:
            return tr("All, each worker, each target that opened and closed files");
        case RateColumn:
            return m_naming == Naming::Files
                ? tr("Files opened per second: on a file tree each operation opens a file, "
                     "does one I/O on it and closes it")
                : m_naming == Naming::Connections
                ? tr("Iometer's \"Connections per Second\": connections (an open, "
                     "transactions per connection transactions, a close) that ended per "
                     "second")
                : tr("Files (a tree's) or targets (the connection rate's) opened per second");
        case OpenMeanColumn:
        case OpenP99Column:
        case OpenMaxColumn:
            return tr("Time to open a file: the file system's lookup and open, on IOPrism's "
                      "own clock (p99 within 0.8 %, max exact)");
        case CloseMeanColumn:
        case CloseP99Column:
        case CloseMaxColumn:
            return tr("Time to close a file (p99 within 0.8 %, max exact)");
        case OperationMeanColumn:
        case OperationP99Column:
        case OperationMaxColumn:
            return m_naming == Naming::Files
                ? tr("The whole operation, from the start of the open to the end of the "
                     "close: what an application opening a file for one I/O waits")
                : m_naming == Naming::Connections
                ? tr("Iometer's connection time: from the start of an open to the end of "
                     "its close, with the transactions between them")
                : tr("From the start of an open to the end of its close: a tree's "
                     "operation, or a connection with its transactions");
        case ErrorsColumn:
            return tr("Opens and closes that failed");
        default:
            return {};
        }
    }
    return {};
}

} // namespace ioprism::ui
