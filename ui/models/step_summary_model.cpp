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

int StepSummaryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int StepSummaryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {

QColor toneColor(BadgeTone tone)
{
    switch (tone) {
    case BadgeTone::Good:
        return QColor(0x2f, 0x9e, 0x44);
    case BadgeTone::Notice:
        return QColor(0xc2, 0x7c, 0x0e);
    case BadgeTone::Bad:
        return QColor(0xd9, 0x48, 0x0f);
    case BadgeTone::Neutral:
        break;
    }
    return {};
}

} // namespace

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
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() == StepColumn || index.column() == DeviceColumn
            ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
            : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && index.column() == DeviceColumn && row.deviceCompared) {
        const QColor c = toneColor(verdictTone(row.verdict));
        return c.isValid() ? QVariant(c) : QVariant();
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == DeviceColumn)
            return row.deviceCompared ? verdictMeaning(row.verdict)
                                      : tr("No device counters for this step");
        if (index.column() == FilesColumn)
            return headerData(FilesColumn, Qt::Horizontal, Qt::ToolTipRole);
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
        default:
            return tr("The step: the access specification(s) the workers ran together");
        }
    }
    return {};
}

} // namespace ioprism::ui
