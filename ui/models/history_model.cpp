// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/history_model.h"

#include "ui/format.h"
#include "ui/plots/device_overlay.h"

#include <QDateTime>
#include <QLocale>
#include <QStringList>

#include <cmath>

namespace ioprism::ui {

HistoryModel::HistoryModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void HistoryModel::setDirectory(const std::filesystem::path &directory, core::InputFileReader read)
{
    if (directory.empty())
        m_library.reset();
    else
        m_library.emplace(directory, std::move(read));
    refresh();
}

void HistoryModel::refresh()
{
    beginResetModel();
    // Headlines of files already listed are kept, and the library keeps the others in its
    // headline cache: only new or changed runs are read.
    m_runs = m_library ? m_library->list(m_runs) : std::vector<core::RunHeadline> {};
    endResetModel();
}

int HistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int HistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {

QString numberOrDash(double value, const std::function<QString(double)> &text)
{
    return std::isfinite(value) ? text(value) : QStringLiteral("–");
}

QString outcomeText(core::RunOutcome outcome)
{
    switch (outcome) {
    case core::RunOutcome::Complete:
        return HistoryModel::tr("complete");
    case core::RunOutcome::Stopped:
        return HistoryModel::tr("stopped");
    case core::RunOutcome::Failed:
        return HistoryModel::tr("failed");
    }
    return {};
}

// A failed run's reason in its row; the tooltip has it whole.
constexpr std::size_t kErrorChars = 60;

QString outcomeCell(const core::ResultsHeadline &h)
{
    if (h.outcome != core::RunOutcome::Failed || h.error.empty())
        return outcomeText(h.outcome);
    return HistoryModel::tr("failed: %1").arg(toQString(core::shortenedText(h.error, kErrorChars)));
}

// What the figures are of: the only step's name, or "best of 12: <step>" of several (the
// step with the most IOPS: core::ResultsHeadline), as `history` says it.
QString figureText(const core::ResultsHeadline &h)
{
    if (!h.figureStep)
        return QStringLiteral("–");
    if (h.steps < 2)
        return toQString(h.figureStepName);
    return HistoryModel::tr("best of %1: %2")
        .arg(QLocale().toString(static_cast<qulonglong>(h.steps)), toQString(h.figureStepName));
}

QString targetsText(const core::ResultsHeadline &h)
{
    QStringList parts;
    for (std::size_t i = 0; i < h.targets.size(); ++i) {
        QString text = toQString(h.targets[i]);
        if (i < h.deviceModels.size() && !h.deviceModels[i].empty())
            text += QStringLiteral(" (%1)").arg(toQString(h.deviceModels[i]));
        parts << text;
    }
    return parts.join(QStringLiteral(", "));
}

QString tagsText(const std::vector<std::string> &tags)
{
    QStringList parts;
    for (const auto &t : tags)
        parts << toQString(t);
    return parts.join(QStringLiteral(", "));
}

} // namespace

QVariant HistoryModel::display(const core::RunHeadline &run, int column) const
{
    const core::ResultsHeadline &h = run.headline;
    if (run.damaged) {
        if (column == DateColumn)
            return toQString(run.id);
        if (column == ProfileColumn)
            return tr("damaged: %1").arg(toQString(run.damage));
        if (column == NameColumn)
            return toQString(run.metadata.name);
        return {};
    }
    switch (column) {
    case DateColumn:
        return QLocale().toString(
            QDateTime::fromSecsSinceEpoch(
                std::chrono::duration_cast<std::chrono::seconds>(h.startedAt.time_since_epoch())
                    .count()),
            QLocale::ShortFormat);
    case NameColumn:
        return toQString(run.metadata.name);
    case ProfileColumn:
        return toQString(h.profileName);
    case TargetsColumn:
        return targetsText(h);
    case IopsColumn:
        return numberOrDash(h.iops, iopsText);
    case MegabytesColumn:
        return numberOrDash(h.megabytesPerSecond, megabytesPerSecondText);
    case MeanColumn:
        return numberOrDash(h.meanLatencyUs, latencyText);
    case P99Column:
        return numberOrDash(h.p99LatencyUs, latencyText);
    case FigureColumn:
        return figureText(h);
    case DeviceColumn:
        return h.verdict == core::Verdict::NoDeviceCounters ? QStringLiteral("–")
                                                            : verdictText(h.verdict);
    case OutcomeColumn:
        return outcomeCell(h);
    case TagsColumn:
        return tagsText(run.metadata.tags);
    case NotesColumn:
        return toQString(run.metadata.notes);
    default:
        return {};
    }
}

QVariant HistoryModel::sortValue(const core::RunHeadline &run, int column) const
{
    const core::ResultsHeadline &h = run.headline;
    const auto number = [](double v) { return std::isfinite(v) ? v : -1.0; };
    switch (column) {
    case DateColumn:
        return static_cast<qlonglong>(
            std::chrono::duration_cast<std::chrono::seconds>(h.startedAt.time_since_epoch())
                .count());
    case IopsColumn:
        return number(h.iops);
    case MegabytesColumn:
        return number(h.megabytesPerSecond);
    case MeanColumn:
        return number(h.meanLatencyUs);
    case P99Column:
        return number(h.p99LatencyUs);
    default:
        return display(run, column).toString().toLower();
    }
}

QVariant HistoryModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const core::RunHeadline &run = m_runs[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return display(run, index.column());
    case Qt::EditRole:
        if (index.column() == TagsColumn)
            return tagsText(run.metadata.tags);
        return display(run, index.column());
    case SortRole:
        return sortValue(run, index.column());
    case Qt::TextAlignmentRole:
        return index.column() >= IopsColumn && index.column() <= P99Column
            ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
            : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (run.damaged)
            return tr("%1 cannot be read: %2")
                .arg(toQString(run.path.string()), toQString(run.damage));
        if (index.column() == DeviceColumn)
            return verdictMeaning(run.headline.verdict);
        if (index.column() == OutcomeColumn && !run.headline.error.empty())
            return toQString(run.headline.error);
        if (index.column() >= IopsColumn && index.column() <= FigureColumn
            && run.headline.figureStep)
            return run.headline.steps < 2
                ? tr("The figures of the run's only step, %1")
                      .arg(toQString(run.headline.figureStepName))
                : tr("The figures of step %1, %2: of the run's %3 steps, the one with the most "
                     "IOPS. Open the run for every step.")
                      .arg(
                          QLocale().toString(static_cast<qulonglong>(*run.headline.figureStep) + 1),
                          toQString(run.headline.figureStepName),
                          QLocale().toString(static_cast<qulonglong>(run.headline.steps)));
        return tr("%1 · %2 · engine %3 · IOPrism %4 · %n steps. Double-click to open it.", nullptr,
            static_cast<int>(run.headline.steps))
            .arg(toQString(run.id), toQString(run.path.string()), toQString(run.headline.engine),
                toQString(run.headline.toolVersion));
    default:
        return {};
    }
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case DateColumn:
            return tr("Date");
        case NameColumn:
            return tr("Name");
        case ProfileColumn:
            return tr("Profile");
        case TargetsColumn:
            return tr("Targets");
        case IopsColumn:
            return tr("IOPS");
        case MegabytesColumn:
            return tr("MB/s");
        case MeanColumn:
            return tr("Mean latency");
        case P99Column:
            return tr("p99 latency");
        case FigureColumn:
            return tr("Figures of");
        case DeviceColumn:
            return tr("Device");
        case OutcomeColumn:
            return tr("Outcome");
        case TagsColumn:
            return tr("Tags");
        case NotesColumn:
            return tr("Notes");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case NameColumn:
            return tr("Your name for the run (double-click to edit)");
        case TagsColumn:
            return tr("Tags, separated by commas (double-click to edit)");
        case NotesColumn:
            return tr("Notes (double-click to edit)");
        case IopsColumn:
        case MegabytesColumn:
        case MeanColumn:
        case P99Column:
        case FigureColumn:
            return tr("Of one step, named in Figures of: the run's only step, or of several "
                      "the one with the most IOPS (never an average of unlike steps)");
        case DeviceColumn:
            return tr("The most notable device verdict of the run's steps");
        case OutcomeColumn:
            return tr("Complete, stopped (by you, or a step cut short) or failed, with its "
                      "reason");
        default:
            return tr("When the run started (your time zone)");
        }
    }
    return {};
}

Qt::ItemFlags HistoryModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid()
        && (index.column() == NameColumn || index.column() == TagsColumn
            || index.column() == NotesColumn))
        f |= Qt::ItemIsEditable;
    return f;
}

bool HistoryModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !index.isValid() || !m_library || index.row() >= rowCount())
        return false;
    core::RunHeadline &run = m_runs[static_cast<std::size_t>(index.row())];
    core::RunMetadata metadata = run.metadata;
    const QString text = value.toString().trimmed();
    switch (index.column()) {
    case NameColumn:
        metadata.name = toStdString(text);
        break;
    case NotesColumn:
        metadata.notes = toStdString(value.toString());
        break;
    case TagsColumn:
        metadata.tags.clear();
        for (const QString &tag : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
            if (!tag.trimmed().isEmpty())
                metadata.tags.push_back(toStdString(tag.trimmed()));
        break;
    default:
        return false;
    }
    if (auto st = m_library->setMetadata(run.id, metadata); !st) {
        emit editFailed(tr("Cannot save the name, tags or notes of %1: %2")
                            .arg(toQString(run.id), toQString(st.error().toString())));
        return false;
    }
    run.metadata = std::move(metadata);
    emit dataChanged(index, index);
    return true;
}

} // namespace ioprism::ui
