// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/results_model.h"

#include "ui/format.h"

#include <QFont>

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

QVariant ResultsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto *step = currentStep();
    const auto &scope = step->scopes[static_cast<std::size_t>(index.row())];
    const core::Figures &f = scope.figures;
    // All, and each host of a run of several, head the rows beneath them.
    const bool all
        = scope.scope.kind == core::Scope::Kind::All || scope.scope.kind == core::Scope::Kind::Host;

    if (role == ScopeKindRole)
        return static_cast<int>(scope.scope.kind);
    if (role == Qt::FontRole && all) {
        QFont font;
        font.setBold(true);
        return font;
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() == ScopeColumn ? int(Qt::AlignLeft | Qt::AlignVCenter)
                                             : int(Qt::AlignRight | Qt::AlignVCenter);

    double value = 0;
    bool available = true;
    switch (index.column()) {
    case ScopeColumn: {
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
            return scopeRowText(scope.scope);
        return {};
    }
    case IopsColumn:
        value = f.total.iops;
        break;
    case ReadIopsColumn:
        value = f.read.iops;
        break;
    case WriteIopsColumn:
        value = f.write.iops;
        break;
    case MegabytesColumn:
        value = f.total.megabytesPerSecond;
        break;
    case ReadMegabytesColumn:
        value = f.read.megabytesPerSecond;
        break;
    case WriteMegabytesColumn:
        value = f.write.megabytesPerSecond;
        break;
    case MebibytesColumn:
        value = f.total.mebibytesPerSecond;
        break;
    case MeanLatencyColumn:
        value = f.total.latency.meanUs;
        break;
    case MaxLatencyColumn:
        value = f.total.latency.maxUs;
        break;
    case P50Column:
        value = f.total.latency.p50Us;
        break;
    case P90Column:
        value = f.total.latency.p90Us;
        break;
    case P99Column:
        value = f.total.latency.p99Us;
        break;
    case P999Column:
        value = f.total.latency.p99_9Us;
        break;
    case P9999Column:
        value = f.total.latency.p99_99Us;
        break;
    case ErrorsColumn:
        value = static_cast<double>(f.total.errors);
        break;
    case CpuColumn:
    case CpuEffectivenessColumn: {
        // CPU is measured for the whole machine: it belongs to the All row, and in a run
        // of several hosts to each host's row (All's is then the hosts' mean).
        const auto h = static_cast<std::size_t>(scope.scope.host);
        const bool hostRow = scope.scope.kind == core::Scope::Kind::Host && h < step->hosts.size();
        const core::CpuFigures &cpu = hostRow ? step->hosts[h].cpu : step->cpu;
        available = all && cpu.valid;
        value = index.column() == CpuColumn
            ? cpu.busyPercent
            : (hostRow ? step->hosts[h].cpuEffectiveness : step->cpuEffectiveness);
        break;
    }
    default:
        return {};
    }

    if (role == ValueRole)
        return available ? QVariant(value) : QVariant();
    if (role == Qt::ToolTipRole)
        return headerData(index.column(), Qt::Horizontal, Qt::ToolTipRole);
    if (role != Qt::DisplayRole)
        return {};
    if (!available)
        return QStringLiteral("—");
    switch (index.column()) {
    case IopsColumn:
    case ReadIopsColumn:
    case WriteIopsColumn:
        return iopsText(value);
    case MegabytesColumn:
    case ReadMegabytesColumn:
    case WriteMegabytesColumn:
        return megabytesPerSecondText(value);
    case MebibytesColumn:
        return megabytesPerSecondText(value).replace(
            QStringLiteral("MB/s"), QStringLiteral("MiB/s"));
    case ErrorsColumn:
        return QString::number(f.total.errors);
    case CpuColumn:
        return percentText(value);
    case CpuEffectivenessColumn:
        return iopsText(value);
    default:
        return f.total.ios == 0 ? QStringLiteral("—") : latencyText(value);
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
    if (role == Qt::DisplayRole) {
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
    if (role == Qt::ToolTipRole) {
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
    return {};
}

} // namespace ioprism::ui
