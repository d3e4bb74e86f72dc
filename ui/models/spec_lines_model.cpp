// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/spec_lines_model.h"

#include "core/profile/units.h"
#include "core/profile/validation.h"
#include "ui/format.h"
#include "ui/metatypes.h"
#include "ui/models/profile_document.h"
#include "ui/style.h"

#include <QLocale>

#include <numeric>

namespace ioprism::ui {

QString distributionText(const core::RandomDistribution &d)
{
    const QLocale locale;
    switch (d.kind) {
    case core::DistributionKind::Uniform:
        return SpecLinesModel::tr("uniform");
    case core::DistributionKind::Zipf:
        return SpecLinesModel::tr("zipf θ=%1").arg(locale.toString(d.zipfTheta, 'g', 4));
    case core::DistributionKind::Pareto:
        return SpecLinesModel::tr("pareto h=%1").arg(locale.toString(d.paretoH, 'g', 4));
    case core::DistributionKind::Normal:
        return SpecLinesModel::tr("normal σ=%1 %")
            .arg(locale.toString(d.normalSigmaPercent, 'g', 4));
    case core::DistributionKind::HotZones: {
        QStringList zones;
        for (const auto &z : d.hotZones)
            zones << QStringLiteral("%1/%2").arg(
                locale.toString(z.accessPercent, 'g', 4), locale.toString(z.regionPercent, 'g', 4));
        return SpecLinesModel::tr("zones %1").arg(zones.join(QLatin1Char(' ')));
    }
    }
    return {};
}

QString rateLimitText(const core::RateLimit &r)
{
    QStringList parts;
    if (r.iops > 0)
        parts << SpecLinesModel::tr("≤ %1 IOPS").arg(iopsText(r.iops));
    if (r.megabytesPerSecond > 0)
        parts << QStringLiteral("≤ ") + megabytesPerSecondText(r.megabytesPerSecond);
    return parts.isEmpty() ? SpecLinesModel::tr("unlimited") : parts.join(QStringLiteral(", "));
}

QString dataPatternText(const core::DataPattern &p)
{
    switch (p.kind) {
    case core::DataPatternKind::RepeatingBytes:
        return SpecLinesModel::tr("repeating 0x%1").arg(p.repeatingByte, 2, 16, QLatin1Char('0'));
    case core::DataPatternKind::PseudoRandom:
        return SpecLinesModel::tr("pseudo-random");
    case core::DataPatternKind::FullRandom:
        return SpecLinesModel::tr("full random");
    case core::DataPatternKind::Zeros:
        return SpecLinesModel::tr("zeros");
    case core::DataPatternKind::Compressible:
        return SpecLinesModel::tr("compressible %1 %").arg(p.compressiblePercent);
    }
    return {};
}

QString linePatternText(const LinePattern &p)
{
    return p.own ? dataPatternText(p.pattern) : SpecLinesModel::tr("worker's");
}

const char *SpecLinesModel::fieldName(int column)
{
    switch (column) {
    case SizeColumn:
        return "transferSize";
    case ShareColumn:
        return "share";
    case ReadColumn:
        return "percentRead";
    case RandomColumn:
        return "percentRandom";
    case DelayColumn:
        return "delay";
    case BurstColumn:
        return "burst";
    case AlignmentColumn:
        return "alignment";
    case ReplyColumn:
        return "reply";
    case DistributionColumn:
        return "distribution";
    case RateLimitColumn:
        return "rateLimit";
    case ThinkTimeColumn:
        return "thinkTime";
    case DataPatternColumn:
        return "dataPattern";
    default:
        return "";
    }
}

SpecLinesModel::SpecLinesModel(ProfileDocument *document, QObject *parent)
    : QAbstractTableModel(parent)
    , m_document(document)
{
    auto resetIfGone = [this] {
        beginResetModel();
        if (m_spec >= static_cast<int>(m_document->profile().specs.size()))
            m_spec = -1;
        endResetModel();
    };
    connect(document, &ProfileDocument::profileReset, this, resetIfGone);
    connect(document, &ProfileDocument::structureChanged, this,
        [this, resetIfGone](const QObject *origin) {
            if (origin != this)
                resetIfGone();
        });
    connect(document, &ProfileDocument::valuesChanged, this, [this](const QObject *origin) {
        if (origin != this)
            refreshAll();
    });
    connect(document, &ProfileDocument::problemsChanged, this, &SpecLinesModel::refreshAll);
}

void SpecLinesModel::setSpec(int spec)
{
    if (spec >= static_cast<int>(m_document->profile().specs.size()))
        spec = -1;
    if (spec == m_spec && !m_readOnly)
        return;
    beginResetModel();
    m_spec = spec;
    m_readOnly.reset();
    endResetModel();
}

void SpecLinesModel::showReadOnly(const core::AccessSpec &spec)
{
    beginResetModel();
    m_spec = -1;
    m_readOnly = spec;
    endResetModel();
}

const core::AccessSpec *SpecLinesModel::shown() const
{
    if (m_readOnly)
        return &*m_readOnly;
    if (m_spec < 0)
        return nullptr;
    return &m_document->profile().specs[static_cast<std::size_t>(m_spec)];
}

int SpecLinesModel::rowCount(const QModelIndex &parent) const
{
    const core::AccessSpec *spec = shown();
    if (parent.isValid() || !spec)
        return 0;
    return static_cast<int>(spec->lines.size());
}

int SpecLinesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SpecLinesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int column = index.column();
    switch (role) {
    case Qt::BackgroundRole:
    case Qt::ToolTipRole:
    case ProblemsRole:
    case HasErrorRole:
        return problemData(index.row(), column, role);
    case Qt::TextAlignmentRole:
        if (column <= ReplyColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::DisplayRole:
    case Qt::EditRole:
        return lineValue(
            shown()->lines[static_cast<std::size_t>(index.row())], column, role == Qt::EditRole);
    default:
        return {};
    }
}

// A cell's problems (as its colour, its tooltip before the column's, as text or as
// whether any is an error). A preset's line has none: it cannot be edited, its tooltip
// says how to edit a copy.
QVariant SpecLinesModel::problemData(int row, int column, int role) const
{
    if (m_readOnly) {
        if (role == Qt::ToolTipRole)
            return tr("%1 (a built-in spec: copy it to your specs to edit it)")
                .arg(headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString());
        if (role == ProblemsRole || role == HasErrorRole)
            return role == HasErrorRole ? QVariant(false) : QVariant(QString());
        return {};
    }
    const auto spec = static_cast<std::size_t>(m_spec);
    core::Problems problems = m_document->problemsAt(
        ProfileDocument::linePath(spec, static_cast<std::size_t>(row)) + "." + fieldName(column));
    // The shares are checked together (their sum): the Share cells show the lines' problems.
    if (column == ShareColumn)
        for (const auto &p :
            m_document->problemsAt(ProfileDocument::specPath(spec) + ".lines", false))
            problems.push_back(p);
    if (role == Qt::BackgroundRole)
        return problemBrush(problems);
    if (role == HasErrorRole)
        return core::hasErrors(problems);
    if (role == ProblemsRole)
        return problemsText(problems);
    QString tip = headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString();
    if (!problems.empty())
        tip = problemsText(problems) + QStringLiteral("\n\n") + tip;
    return tip;
}

// A line's field as shown (text) or as edited (the number or the value type its editor
// takes: SpecLineDelegate).
QVariant SpecLinesModel::lineValue(const core::SpecLine &line, int column, bool edit) const
{
    switch (column) {
    case SizeColumn:
        return edit ? QVariant(qulonglong(line.transferSizeBytes))
                    : QVariant(exactSizeText(line.transferSizeBytes));
    case ShareColumn:
        return edit ? QVariant(qulonglong(line.sharePercent))
                    : QVariant(QStringLiteral("%1 %").arg(line.sharePercent));
    case ReadColumn:
        return edit ? QVariant(qulonglong(line.percentRead))
                    : QVariant(QStringLiteral("%1 %").arg(line.percentRead));
    case RandomColumn:
        return edit ? QVariant(qulonglong(line.percentRandom))
                    : QVariant(QStringLiteral("%1 %").arg(line.percentRandom));
    case DelayColumn:
        return durationText(line.delay);
    case BurstColumn:
        return edit ? QVariant(qulonglong(line.burstLength))
                    : QVariant(QString::number(line.burstLength));
    case AlignmentColumn:
        if (edit)
            return qulonglong(line.alignmentBytes);
        return line.alignmentBytes ? exactSizeText(line.alignmentBytes) : tr("sector");
    case ReplyColumn:
        if (edit)
            return qulonglong(line.replySizeBytes);
        return line.replySizeBytes ? exactSizeText(line.replySizeBytes) : tr("none");
    case DistributionColumn:
        return edit ? QVariant::fromValue(line.distribution)
                    : QVariant(distributionText(line.distribution));
    case RateLimitColumn:
        return edit ? QVariant::fromValue(line.rateLimit) : QVariant(rateLimitText(line.rateLimit));
    case ThinkTimeColumn:
        return durationText(line.thinkTime);
    case DataPatternColumn: {
        LinePattern pattern {
            line.dataPattern.has_value(), line.dataPattern.value_or(core::DataPattern {})};
        return edit ? QVariant::fromValue(pattern) : QVariant(linePatternText(pattern));
    }
    default:
        return {};
    }
}

namespace {

// setData()'s columns by the kind of value they take; each returns false, changing
// nothing, for a value it cannot take.

// The sizes and counts: a number (the editor's) or a text with a unit ("4k").
bool setCountField(core::SpecLine &line, int column, const QVariant &value)
{
    auto percentLike = [&](std::uint32_t &field) {
        const auto n = countFromVariant(value);
        if (!n || *n > UINT32_MAX)
            return false;
        field = static_cast<std::uint32_t>(*n);
        return true;
    };
    auto size = [&](std::uint64_t &field) {
        const auto bytes = sizeFromVariant(value);
        if (!bytes)
            return false;
        field = *bytes;
        return true;
    };
    switch (column) {
    case SpecLinesModel::SizeColumn: {
        // Iometer keeps alignment equal to the transfer size unless set apart.
        const std::uint64_t before = line.transferSizeBytes;
        const bool ok = size(line.transferSizeBytes);
        if (ok && line.alignmentBytes == before)
            line.alignmentBytes = line.transferSizeBytes;
        return ok;
    }
    case SpecLinesModel::ShareColumn:
        return percentLike(line.sharePercent);
    case SpecLinesModel::ReadColumn:
        return percentLike(line.percentRead);
    case SpecLinesModel::RandomColumn:
        return percentLike(line.percentRandom);
    case SpecLinesModel::BurstColumn:
        return percentLike(line.burstLength);
    case SpecLinesModel::AlignmentColumn:
        return size(line.alignmentBytes);
    case SpecLinesModel::ReplyColumn:
        return size(line.replySizeBytes);
    default:
        return false;
    }
}

// The delay (whole milliseconds, as Iometer keeps it) and the think time (microseconds):
// a number in that unit, or a text with a unit ("2ms").
bool setTimeField(core::SpecLine &line, int column, const QVariant &value)
{
    if (column == SpecLinesModel::DelayColumn) {
        const auto d = value.typeId() == QMetaType::QString
            ? core::parseDuration(
                toStdString(value.toString().trimmed()), core::DurationUnit::Milliseconds)
            : std::optional<std::chrono::microseconds>(
                std::chrono::milliseconds(value.toLongLong()));
        if (d && *d >= std::chrono::microseconds(0) && d->count() % 1000 == 0) {
            line.delay = std::chrono::duration_cast<std::chrono::milliseconds>(*d);
            return true;
        }
        return false;
    }
    const auto d = value.typeId() == QMetaType::QString
        ? core::parseDuration(
            toStdString(value.toString().trimmed()), core::DurationUnit::Microseconds)
        : std::optional<std::chrono::microseconds>(std::chrono::microseconds(value.toLongLong()));
    if (d && *d >= std::chrono::microseconds(0)) {
        line.thinkTime = *d;
        return true;
    }
    return false;
}

// The fields their own editors edit whole: a value of their type.
bool setChoiceField(core::SpecLine &line, int column, const QVariant &value)
{
    switch (column) {
    case SpecLinesModel::DistributionColumn:
        if (!value.canConvert<core::RandomDistribution>())
            return false;
        line.distribution = value.value<core::RandomDistribution>();
        return true;
    case SpecLinesModel::RateLimitColumn:
        if (!value.canConvert<core::RateLimit>())
            return false;
        line.rateLimit = value.value<core::RateLimit>();
        return true;
    case SpecLinesModel::DataPatternColumn: {
        if (!value.canConvert<LinePattern>())
            return false;
        const auto p = value.value<LinePattern>();
        if (p.own)
            line.dataPattern = p.pattern;
        else
            line.dataPattern.reset();
        return true;
    }
    default:
        return false;
    }
}

} // namespace

bool SpecLinesModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || m_readOnly
        || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    auto &line = m_document->mutableProfile()
                     .specs[static_cast<std::size_t>(m_spec)]
                     .lines[static_cast<std::size_t>(index.row())];
    bool ok = false;
    switch (index.column()) {
    case DelayColumn:
    case ThinkTimeColumn:
        ok = setTimeField(line, index.column(), value);
        break;
    case DistributionColumn:
    case RateLimitColumn:
    case DataPatternColumn:
        ok = setChoiceField(line, index.column(), value);
        break;
    default:
        ok = setCountField(line, index.column(), value);
        break;
    }
    if (!ok)
        return false;
    emit dataChanged(this->index(index.row(), 0), this->index(index.row(), ColumnCount - 1));
    m_document->commitValues(this);
    return true;
}

Qt::ItemFlags SpecLinesModel::flags(const QModelIndex &index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return Qt::NoItemFlags;
    if (m_readOnly)
        return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable | Qt::ItemNeverHasChildren;
}

QVariant SpecLinesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Vertical) {
        if (role == Qt::DisplayRole && section >= 0 && section < rowCount())
            return section + 1;
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
        case SizeColumn:
            return tr("Size");
        case ShareColumn:
            return tr("% of spec");
        case ReadColumn:
            return tr("% read");
        case RandomColumn:
            return tr("% random");
        case DelayColumn:
            return tr("Delay");
        case BurstColumn:
            return tr("Burst");
        case AlignmentColumn:
            return tr("Alignment");
        case ReplyColumn:
            return tr("Reply");
        case DistributionColumn:
            return tr("Distribution");
        case RateLimitColumn:
            return tr("Rate limit");
        case ThinkTimeColumn:
            return tr("Think time");
        case DataPatternColumn:
            return tr("Data pattern");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case SizeColumn:
            return tr("Transfer size of each I/O (512, 4k, 64KiB, 1M...)");
        case ShareColumn:
            return tr("Share of this spec's I/Os that follow this line; the lines sum to 100 %");
        case ReadColumn:
            return tr("Percentage of reads (the rest are writes), 0 to 100");
        case RandomColumn:
            return tr("Percentage of random offsets (the rest are sequential), 0 to 100");
        case DelayColumn:
            return tr("Pause before each burst (e.g. 0, 5ms, 1s)");
        case BurstColumn:
            return tr("Number of I/Os in each burst");
        case AlignmentColumn:
            return tr("Offsets are multiples of this; 0 = the device's sector");
        case ReplyColumn:
            return tr("Size of the reply I/O after each request; 0 = no reply");
        case DistributionColumn:
            return tr("How random offsets spread over the region: uniform (Iometer), zipf, pareto, "
                      "normal, hot zones");
        case RateLimitColumn:
            return tr("Upper bound on IOPS and MB/s for this line; unlimited by default");
        case ThinkTimeColumn:
            return tr("Pause after each I/O completes, before the next (e.g. 0, 100us, 2ms)");
        case DataPatternColumn:
            return tr("What writes contain: the worker's pattern, or this line's own");
        default:
            return {};
        }
    }
    return {};
}

bool SpecLinesModel::moveRows(const QModelIndex &sourceParent, int sourceRow, int count,
    const QModelIndex &destinationParent, int destinationChild)
{
    if (m_spec < 0 || sourceParent.isValid() || destinationParent.isValid() || count != 1)
        return false;
    const int rows = rowCount();
    if (sourceRow < 0 || sourceRow >= rows || destinationChild < 0 || destinationChild > rows
        || destinationChild == sourceRow || destinationChild == sourceRow + 1)
        return false;
    if (!beginMoveRows({}, sourceRow, sourceRow, {}, destinationChild))
        return false;
    auto &lines = m_document->mutableProfile().specs[static_cast<std::size_t>(m_spec)].lines;
    const core::SpecLine moving = lines[static_cast<std::size_t>(sourceRow)];
    lines.erase(lines.begin() + sourceRow);
    const int to = destinationChild > sourceRow ? destinationChild - 1 : destinationChild;
    lines.insert(lines.begin() + to, moving);
    endMoveRows();
    m_document->commitValues(this); // the spec list keeps its shape
    return true;
}

bool SpecLinesModel::removeRows(int row, int count, const QModelIndex &parent)
{
    if (m_spec < 0 || parent.isValid() || row < 0 || count < 1 || row + count > rowCount())
        return false;
    auto &lines = m_document->mutableProfile().specs[static_cast<std::size_t>(m_spec)].lines;
    beginRemoveRows({}, row, row + count - 1);
    lines.erase(lines.begin() + row, lines.begin() + row + count);
    endRemoveRows();
    m_document->commitValues(this); // the spec list keeps its shape
    return true;
}

int SpecLinesModel::addLine(int row)
{
    if (m_spec < 0)
        return -1;
    auto &lines = m_document->mutableProfile().specs[static_cast<std::size_t>(m_spec)].lines;
    if (lines.size() >= core::kMaxSpecLines)
        return -1;
    core::SpecLine line;
    const std::uint64_t used = std::accumulate(lines.begin(), lines.end(), std::uint64_t {0},
        [](std::uint64_t sum, const core::SpecLine &l) { return sum + l.sharePercent; });
    line.sharePercent = used >= 100 ? 0 : static_cast<std::uint32_t>(100 - used);
    const int rows = static_cast<int>(lines.size());
    const int at = row < 0 || row >= rows ? rows : row + 1;
    beginInsertRows({}, at, at);
    lines.insert(lines.begin() + at, line);
    endInsertRows();
    m_document->commitValues(this); // the spec list keeps its shape
    return at;
}

bool SpecLinesModel::moveUp(int row)
{
    return row > 0 && moveRows({}, row, 1, {}, row - 1);
}

bool SpecLinesModel::moveDown(int row)
{
    return row + 1 < rowCount() && moveRows({}, row, 1, {}, row + 2);
}

void SpecLinesModel::refreshAll()
{
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

} // namespace ioprism::ui
