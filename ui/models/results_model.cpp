// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/results_model.h"

#include "ui/format.h"

#include <QFont>

#include <optional>

namespace ioprism::ui {

ResultsModel::ResultsModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void ResultsModel::setResult(RunResultPtr result)
{
    beginResetModel();
    m_result = std::move(result);
    m_step = m_result && !m_result->steps.empty() ? 0 : -1;
    endResetModel();
}

void ResultsModel::setStep(int step)
{
    if (step < 0 || step >= stepCount())
        step = -1;
    if (step == m_step)
        return;
    beginResetModel();
    m_step = step;
    endResetModel();
}

int ResultsModel::stepCount() const
{
    return m_result ? static_cast<int>(m_result->steps.size()) : 0;
}

const core::StepResult *ResultsModel::currentStep() const
{
    if (!m_result || m_step < 0 || m_step >= stepCount())
        return nullptr;
    return &m_result->steps[static_cast<std::size_t>(m_step)];
}

const core::ScopeResult *ResultsModel::scopeAt(int row) const
{
    const auto *step = currentStep();
    if (!step || row < 0 || row >= static_cast<int>(step->scopes.size()))
        return nullptr;
    return &step->scopes[static_cast<std::size_t>(row)];
}

bool ResultsModel::shownByDefault(int column)
{
    switch (column) {
    case ReadIopsColumn:
    case WriteIopsColumn:
    case ReadMegabytesColumn:
    case WriteMegabytesColumn:
    case P90Column:
    case P9999Column:
        return false;
    default:
        return true;
    }
}

int ResultsModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    const auto *step = currentStep();
    return step ? static_cast<int>(step->scopes.size()) : 0;
}

int ResultsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {

// All, and each host of a run of several, head the rows beneath them.
bool headsRows(const core::ScopeResult &scope)
{
    return scope.scope.kind == core::Scope::Kind::All
        || scope.scope.kind == core::Scope::Kind::Host;
}

// The raw figure of a column for a scope; empty where it was not measured (CPU outside
// the rows that head a machine's) or the column has no figure (the scope's name).
std::optional<double> figureOf(
    const core::StepResult &step, const core::ScopeResult &scope, int column)
{
    const core::Figures &f = scope.figures;
    switch (column) {
    case ResultsModel::IopsColumn:
        return f.total.iops;
    case ResultsModel::ReadIopsColumn:
        return f.read.iops;
    case ResultsModel::WriteIopsColumn:
        return f.write.iops;
    case ResultsModel::MegabytesColumn:
        return f.total.megabytesPerSecond;
    case ResultsModel::ReadMegabytesColumn:
        return f.read.megabytesPerSecond;
    case ResultsModel::WriteMegabytesColumn:
        return f.write.megabytesPerSecond;
    case ResultsModel::MebibytesColumn:
        return f.total.mebibytesPerSecond;
    case ResultsModel::MeanLatencyColumn:
        return f.total.latency.meanUs;
    case ResultsModel::MaxLatencyColumn:
        return f.total.latency.maxUs;
    case ResultsModel::P50Column:
        return f.total.latency.p50Us;
    case ResultsModel::P90Column:
        return f.total.latency.p90Us;
    case ResultsModel::P99Column:
        return f.total.latency.p99Us;
    case ResultsModel::P999Column:
        return f.total.latency.p99_9Us;
    case ResultsModel::P9999Column:
        return f.total.latency.p99_99Us;
    case ResultsModel::ErrorsColumn:
        return static_cast<double>(f.total.errors);
    case ResultsModel::CpuColumn:
    case ResultsModel::CpuEffectivenessColumn: {
        // CPU is measured for the whole machine: it belongs to the All row, and in a run
        // of several hosts to each host's row (All's is then the hosts' mean).
        const auto h = static_cast<std::size_t>(scope.scope.host);
        const bool hostRow = scope.scope.kind == core::Scope::Kind::Host && h < step.hosts.size();
        const core::CpuFigures &cpu = hostRow ? step.hosts[h].cpu : step.cpu;
        if (!headsRows(scope) || !cpu.valid)
            return std::nullopt;
        return column == ResultsModel::CpuColumn
            ? cpu.busyPercent
            : (hostRow ? step.hosts[h].cpuEffectiveness : step.cpuEffectiveness);
    }
    default:
        return std::nullopt;
    }
}

// A figure as the table shows it, with its unit; a dash where there is none.
QString figureText(const core::ScopeResult &scope, int column, std::optional<double> figure)
{
    if (!figure)
        return QStringLiteral("—");
    const double value = *figure;
    switch (column) {
    case ResultsModel::IopsColumn:
    case ResultsModel::ReadIopsColumn:
    case ResultsModel::WriteIopsColumn:
        return iopsText(value);
    case ResultsModel::MegabytesColumn:
    case ResultsModel::ReadMegabytesColumn:
    case ResultsModel::WriteMegabytesColumn:
        return megabytesPerSecondText(value);
    case ResultsModel::MebibytesColumn:
        return megabytesPerSecondText(value).replace(
            QStringLiteral("MB/s"), QStringLiteral("MiB/s"));
    case ResultsModel::ErrorsColumn:
        return QString::number(scope.figures.total.errors);
    case ResultsModel::CpuColumn:
        return percentText(value);
    case ResultsModel::CpuEffectivenessColumn:
        return iopsText(value);
    default:
        // A latency: with no I/O completed there is none (it would read 0 µs).
        return scope.figures.total.ios == 0 ? QStringLiteral("—") : latencyText(value);
    }
}

} // namespace

QVariant ResultsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto *step = currentStep();
    const auto &scope = step->scopes[static_cast<std::size_t>(index.row())];
    const int column = index.column();

    switch (role) {
    case ScopeKindRole:
        return static_cast<int>(scope.scope.kind);
    case Qt::FontRole: {
        if (!headsRows(scope))
            return {};
        QFont font;
        font.setBold(true);
        return font;
    }
    case Qt::TextAlignmentRole:
        return column == ScopeColumn ? int(Qt::AlignLeft | Qt::AlignVCenter)
                                     : int(Qt::AlignRight | Qt::AlignVCenter);
    case ValueRole: {
        const auto figure = figureOf(*step, scope, column);
        return figure ? QVariant(*figure) : QVariant();
    }
    case Qt::ToolTipRole:
        // A figure's tooltip says what its column measures; the scope's is its name in
        // full (the column elides it).
        if (column == ScopeColumn)
            return scopeRowText(scope.scope);
        return headerData(column, Qt::Horizontal, Qt::ToolTipRole);
    case Qt::DisplayRole:
        if (column == ScopeColumn)
            return scopeRowText(scope.scope);
        return figureText(scope, column, figureOf(*step, scope, column));
    default:
        return {};
    }
}

Qt::ItemFlags ResultsModel::flags(const QModelIndex &index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
}

QVariant ResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole)
        return headerText(section);
    if (role == Qt::ToolTipRole)
        return headerToolTip(section);
    return {};
}

// Members, not free functions: tr() keeps its strings in the ResultsModel context.
QVariant ResultsModel::headerText(int section)
{
    switch (section) {
    case ScopeColumn:
        return tr("Scope");
    case IopsColumn:
        return tr("IOPS");
    case ReadIopsColumn:
        return tr("Read IOPS");
    case WriteIopsColumn:
        return tr("Write IOPS");
    case MegabytesColumn:
        return tr("MB/s");
    case ReadMegabytesColumn:
        return tr("Read MB/s");
    case WriteMegabytesColumn:
        return tr("Write MB/s");
    case MebibytesColumn:
        return tr("MiB/s");
    case MeanLatencyColumn:
        return tr("Mean latency");
    case MaxLatencyColumn:
        return tr("Max latency");
    case P50Column:
        return tr("p50");
    case P90Column:
        return tr("p90");
    case P99Column:
        return tr("p99");
    case P999Column:
        return tr("p99.9");
    case P9999Column:
        return tr("p99.99");
    case ErrorsColumn:
        return tr("Errors");
    case CpuColumn:
        return tr("CPU");
    case CpuEffectivenessColumn:
        return tr("CPU effectiveness");
    default:
        return {};
    }
}

QVariant ResultsModel::headerToolTip(int section)
{
    switch (section) {
    case ScopeColumn:
        return tr("All workers, each worker, each target of each worker");
    case IopsColumn:
        return tr("I/Os per second, reads and writes");
    case ReadIopsColumn:
        return tr("Reads per second");
    case WriteIopsColumn:
        return tr("Writes per second");
    case MegabytesColumn:
        return tr("Throughput in decimal megabytes (10^6 bytes) per second");
    case ReadMegabytesColumn:
        return tr("Read throughput, MB/s (10^6 bytes)");
    case WriteMegabytesColumn:
        return tr("Write throughput, MB/s (10^6 bytes)");
    case MebibytesColumn:
        return tr("Throughput in binary mebibytes (2^20 bytes) per second");
    case MeanLatencyColumn:
        return tr("Mean completion time of an I/O, submit to reap");
    case MaxLatencyColumn:
        return tr("Longest completion time (exact)");
    case P50Column:
        return tr("Median latency (within 0.8 %)");
    case P90Column:
        return tr("90th percentile latency");
    case P99Column:
        return tr("99th percentile latency");
    case P999Column:
        return tr("99.9th percentile latency");
    case P9999Column:
        return tr("99.99th percentile latency");
    case ErrorsColumn:
        return tr("I/Os that failed");
    case CpuColumn:
        return tr("Busy CPU, % of all CPUs of the machine (All row only)");
    case CpuEffectivenessColumn:
        return tr("IOPS per busy CPU percent: higher is cheaper I/O");
    default:
        return {};
    }
}

} // namespace ioprism::ui
