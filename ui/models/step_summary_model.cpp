// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/step_summary_model.h"

#include "ui/format.h"
#include "ui/plots/device_overlay.h"

#include <QColor>

#include <algorithm>

namespace ioprism::ui {

StepSummaryModel::StepSummaryModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void StepSummaryModel::setResult(const RunResultPtr &result)
{
    beginResetModel();
    m_rows = result ? core::stepSummary(*result) : std::vector<core::StepSummaryRow> {};
    endResetModel();
}

bool StepSummaryModel::hasFiles() const
{
    return std::any_of(m_rows.begin(), m_rows.end(),
        [](const core::StepSummaryRow &row) { return row.filesPerSecond.has_value(); });
}

bool StepSummaryModel::hasPasses() const
{
    return std::any_of(m_rows.begin(), m_rows.end(),
        [](const core::StepSummaryRow &row) { return row.plannedPasses > 1; });
}

int StepSummaryModel::rowOfStep(int step) const
{
    if (step < 0)
        return -1;
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        const auto &passes = m_rows[r].passSteps;
        if (int(m_rows[r].step) == step
            || std::find(passes.begin(), passes.end(), std::size_t(step)) != passes.end())
            return int(r);
    }
    return -1;
}

int StepSummaryModel::stepOfRow(int row) const
{
    return row >= 0 && row < rowCount() ? int(m_rows[std::size_t(row)].step) : -1;
}

int StepSummaryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int StepSummaryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StepSummaryModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const core::StepSummaryRow &row = m_rows[static_cast<std::size_t>(index.row())];
    const bool io = row.ios > 0;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case StepColumn:
            return row.complete ? toQString(row.name)
                                : tr("%1 (cut short)").arg(toQString(row.name));
        case ReadColumn:
            return megabytesPerSecondText(row.readMegabytesPerSecond);
        case WriteColumn:
            return megabytesPerSecondText(row.writeMegabytesPerSecond);
        case IopsColumn:
            return iopsText(row.iops);
        case FilesColumn:
            return row.filesPerSecond ? iopsText(*row.filesPerSecond) : QStringLiteral("–");
        case MeanColumn:
            return io ? latencyText(row.meanLatencyUs) : QStringLiteral("–");
        case P99Column:
            return io ? latencyText(row.p99LatencyUs) : QStringLiteral("–");
        case DeviceColumn:
            return row.deviceCompared ? verdictText(row.verdict) : QStringLiteral("–");
        case PassesColumn:
            if (row.plannedPasses <= 1)
                return QStringLiteral("–");
            return row.passes < row.plannedPasses
                ? tr("best of %1 (of %2)").arg(row.passes).arg(row.plannedPasses)
                : tr("best of %1").arg(row.passes);
        case PassMeanColumn:
            return row.plannedPasses > 1 ? megabytesPerSecondText(row.megabytesPerSecondSpread.mean)
                                         : QStringLiteral("–");
        case PassSpreadColumn:
            return row.plannedPasses > 1
                ? tr("%1 – %2").arg(megabytesPerSecondText(row.megabytesPerSecondSpread.min),
                    megabytesPerSecondText(row.megabytesPerSecondSpread.max))
                : QStringLiteral("–");
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() == StepColumn || index.column() == DeviceColumn
            ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
            : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && index.column() == DeviceColumn && row.deviceCompared) {
        const QColor c = badgeToneColor(verdictTone(row.verdict));
        return c.isValid() ? QVariant(c) : QVariant();
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == DeviceColumn)
            return row.deviceCompared ? verdictMeaning(row.verdict)
                                      : tr("No device counters for this step");
        if (index.column() == FilesColumn || index.column() == PassMeanColumn
            || index.column() == PassSpreadColumn)
            return headerData(index.column(), Qt::Horizontal, Qt::ToolTipRole);
        if (row.plannedPasses > 1)
            return tr("%1: the best of its %2 passes (step %3). Click to show that pass's "
                      "detailed results below; every pass is in the step list.")
                .arg(toQString(row.name))
                .arg(row.passes)
                .arg(row.step + 1);
        return tr("Step %1: %2. Click to show its detailed results below; Ctrl+C copies the "
                  "grid (right-click for CSV, Markdown or a file).")
            .arg(row.step + 1)
            .arg(toQString(row.name));
    }
    return {};
}

QVariant StepSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case StepColumn:
            return tr("Step");
        case ReadColumn:
            return tr("Read");
        case WriteColumn:
            return tr("Write");
        case IopsColumn:
            return tr("IOPS");
        case FilesColumn:
            return tr("Files/s");
        case MeanColumn:
            return tr("Mean latency");
        case P99Column:
            return tr("p99 latency");
        case DeviceColumn:
            return tr("Device");
        case PassesColumn:
            return tr("Passes");
        case PassMeanColumn:
            return tr("Mean of passes");
        case PassSpreadColumn:
            return tr("Passes min – max");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ReadColumn:
            return tr("Read throughput over the step's measured time (decimal MB/s)");
        case WriteColumn:
            return tr("Write throughput over the step's measured time (decimal MB/s)");
        case IopsColumn:
            return tr("Read and write I/Os per second together");
        case FilesColumn:
            return tr("Files opened per second: a file tree's operations, or targets "
                      "reopened by Iometer's connection rate");
        case MeanColumn:
        case P99Column:
            return tr("Completion latency of all the step's I/Os, on IOPrism's own clock");
        case DeviceColumn:
            return tr("Whether the devices' own counters confirm the application's figures");
        case PassesColumn:
            return tr("The test ran several passes (CrystalDiskMark's count): the figures of "
                      "the row are its best pass's, the one with the most MB/s");
        case PassMeanColumn:
            return tr("The mean throughput of the test's passes, reads and writes together "
                      "(decimal MB/s)");
        case PassSpreadColumn:
            return tr("The smallest and the largest throughput among the test's passes: how "
                      "far one pass can be from another");
        default:
            return tr("The step: the access specification(s) the workers ran together");
        }
    }
    return {};
}

} // namespace ioprism::ui
