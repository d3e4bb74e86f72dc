// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editors/editors.h"

#include "core/profile/units.h"
#include "ui/format.h"
#include "ui/models/spec_lines_model.h"
#include "ui/models/targets_model.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpression>
#include <QSpinBox>

#include <array>
#include <climits>
#include <functional>
#include <optional>

namespace ioprism::ui {

namespace {

constexpr std::array<std::uint64_t, 5> kUnits
    = {1, core::kKiB, core::kMiB, core::kGiB, 1024 * core::kGiB};

QHBoxLayout *compactLayout(QWidget *widget)
{
    auto *layout = new QHBoxLayout(widget);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    widget->setAutoFillBackground(true);
    return layout;
}

// The bytes of a size typed with its unit ("1m", "1000B"), or nullopt for a bare number
// (its unit is the editor's) or text that is no size.
std::optional<std::uint64_t> typedSize(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (!std::any_of(trimmed.begin(), trimmed.end(), [](QChar c) { return c.isLetter(); }))
        return std::nullopt;
    return core::parseSize(toStdString(trimmed));
}

// The number box of a SizeEditor: digits, or a size with its unit as the CLI reads it.
// A size typed with its unit is handed to `unitTyped`, which sets the editor's unit and
// answers the number in it: the box keeps the number, the unit box the unit.
class SizeNumberBox : public QSpinBox
{
public:
    using QSpinBox::QSpinBox;
    std::function<int(std::uint64_t bytes)> unitTyped;

protected:
    QValidator::State validate(QString &text, int & /*pos*/) const override
    {
        const QString t = text.trimmed();
        if (t.isEmpty())
            return QValidator::Intermediate;
        if (!specialValueText().isEmpty() && t == specialValueText())
            return QValidator::Acceptable;
        if (core::parseSize(toStdString(t)))
            return QValidator::Acceptable;
        // On the way to one: a number, then the start of a unit (k, Ki, KiB; m, MB...).
        static const QRegularExpression partial(
            QStringLiteral("^[0-9]+(\\.[0-9]*)?\\s*([kmgt]i?b?|b)?$"),
            QRegularExpression::CaseInsensitiveOption);
        return partial.match(t).hasMatch() ? QValidator::Intermediate : QValidator::Invalid;
    }
    int valueFromText(const QString &text) const override
    {
        if (const auto typed = typedSize(text); typed && unitTyped)
            return unitTyped(*typed);
        bool ok = false;
        const qulonglong n = text.trimmed().toULongLong(&ok);
        return ok ? int(std::min<qulonglong>(n, qulonglong(maximum()))) : minimum();
    }
};

} // namespace

// ---------------------------------------------------------------- SizeEditor

SizeEditor::SizeEditor(QWidget *parent)
    : QWidget(parent)
    , m_number(new SizeNumberBox(this))
    , m_unit(new QComboBox(this))
{
    static_cast<SizeNumberBox *>(m_number)->unitTyped = [this](std::uint64_t bytes) {
        const auto [unit, number] = unitAndNumber(bytes);
        m_unit->setCurrentIndex(int(unit));
        return number;
    };
    auto *layout = compactLayout(this);
    m_number->setRange(0, INT_MAX);
    m_number->setToolTip(tr("Number of units, or a size with its unit (512B, 4k, 64KiB, 1m, "
                            "1.5GiB): units are binary, as in the CLI"));
    m_number->setAccelerated(true);
    for (const char *unit : {"B", "KiB", "MiB", "GiB", "TiB"})
        m_unit->addItem(QLatin1String(unit));
    m_unit->setToolTip(tr("Binary units: 1 KiB = 1024 B"));
    layout->addWidget(m_number, 1);
    layout->addWidget(m_unit);
    setFocusProxy(m_number);
    connect(m_number, &QSpinBox::valueChanged, this, [this] { emit bytesChanged(bytes()); });

    connect(m_unit, &QComboBox::currentIndexChanged, this, [this] { emit bytesChanged(bytes()); });
}

std::pair<std::size_t, int> SizeEditor::unitAndNumber(std::uint64_t bytes)
{
    std::size_t unit = 0;
    // The largest unit that holds it exactly, as long as the number fits the spin box.
    for (std::size_t u = kUnits.size(); u-- > 0;)
        if (bytes % kUnits[u] == 0 && bytes / kUnits[u] <= static_cast<std::uint64_t>(INT_MAX)) {
            unit = u;
            break;
        }
    if (bytes == 0)
        unit = 1; // "0 KiB" reads better than "0 B" and the next number typed is KiB
    return {unit, static_cast<int>(std::min<std::uint64_t>(bytes / kUnits[unit], INT_MAX))};
}

void SizeEditor::setBytes(std::uint64_t bytes)
{
    const auto [unit, number] = unitAndNumber(bytes);
    m_unit->setCurrentIndex(static_cast<int>(unit));
    m_number->setValue(number);
}

std::uint64_t SizeEditor::bytes() const
{
    return static_cast<std::uint64_t>(m_number->value())
        * kUnits[static_cast<std::size_t>(m_unit->currentIndex())];
}

void SizeEditor::setZeroText(const QString &text)
{
    m_number->setSpecialValueText(text);
}

// ---------------------------------------------------------------- DistributionEditor

DistributionEditor::DistributionEditor(QWidget *parent)
    : QWidget(parent)
    , m_kind(new QComboBox(this))
    , m_parameter(new QDoubleSpinBox(this))
    , m_zones(new QLineEdit(this))
{
    auto *layout = compactLayout(this);
    m_kind->addItem(tr("uniform"), int(core::DistributionKind::Uniform));
    m_kind->addItem(tr("zipf"), int(core::DistributionKind::Zipf));
    m_kind->addItem(tr("pareto"), int(core::DistributionKind::Pareto));
    m_kind->addItem(tr("normal"), int(core::DistributionKind::Normal));
    m_kind->addItem(tr("hot zones"), int(core::DistributionKind::HotZones));
    m_kind->setToolTip(tr("How random offsets spread over the region (fio's random_distribution)"));
    m_parameter->setDecimals(3);
    m_parameter->setRange(0, 1000);
    m_zones->setPlaceholderText(tr("access%:region% ..., e.g. 80:20 20:80"));
    m_zones->setToolTip(tr("Hot zones in order from offset 0: share of accesses : share of the "
                           "region, each summing to 100"));
    layout->addWidget(m_kind);
    layout->addWidget(m_parameter, 1);
    layout->addWidget(m_zones, 2);
    setFocusProxy(m_kind);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &DistributionEditor::updateFields);
    updateFields();
}

void DistributionEditor::updateFields()
{
    const auto kind = static_cast<core::DistributionKind>(m_kind->currentData().toInt());
    m_parameter->setVisible(kind == core::DistributionKind::Zipf
        || kind == core::DistributionKind::Pareto || kind == core::DistributionKind::Normal);
    m_zones->setVisible(kind == core::DistributionKind::HotZones);
    const QSignalBlocker block(m_parameter);
    switch (kind) {
    case core::DistributionKind::Zipf:
        m_parameter->setPrefix(QStringLiteral("θ "));
        m_parameter->setSuffix(QString());
        m_parameter->setValue(m_value.zipfTheta);
        m_parameter->setToolTip(tr("Zipf theta: above 0, not 1; larger = more skewed"));
        break;
    case core::DistributionKind::Pareto:
        m_parameter->setPrefix(QStringLiteral("h "));
        m_parameter->setSuffix(QString());
        m_parameter->setValue(m_value.paretoH);
        m_parameter->setToolTip(tr("Pareto h: between 0 and 1; smaller = more skewed"));
        break;
    case core::DistributionKind::Normal:
        m_parameter->setPrefix(QStringLiteral("σ "));
        m_parameter->setSuffix(QStringLiteral(" %"));
        m_parameter->setValue(m_value.normalSigmaPercent);
        m_parameter->setToolTip(tr("Standard deviation, % of the region, centred on it"));
        break;
    default:
        break;
    }
}

void DistributionEditor::setDistribution(const core::RandomDistribution &distribution)
{
    m_value = distribution;
    m_kind->setCurrentIndex(m_kind->findData(int(distribution.kind)));
    m_zones->setText(hotZonesText(distribution.hotZones));
    updateFields();
}

core::RandomDistribution DistributionEditor::distribution() const
{
    core::RandomDistribution d = m_value;
    d.kind = static_cast<core::DistributionKind>(m_kind->currentData().toInt());
    switch (d.kind) {
    case core::DistributionKind::Zipf:
        d.zipfTheta = m_parameter->value();
        break;
    case core::DistributionKind::Pareto:
        d.paretoH = m_parameter->value();
        break;
    case core::DistributionKind::Normal:
        d.normalSigmaPercent = m_parameter->value();
        break;
    case core::DistributionKind::HotZones: {
        std::vector<core::HotZone> zones;
        if (parseHotZones(m_zones->text(), zones))
            d.hotZones = zones;
        break;
    }
    default:
        break;
    }
    return d;
}

bool parseHotZones(const QString &text, std::vector<core::HotZone> &zones)
{
    zones.clear();
    const QStringList parts
        = text.split(QRegularExpression(QStringLiteral("[\\s,;]+")), Qt::SkipEmptyParts);
    for (const QString &part : parts) {
        const QStringList pair = part.split(QLatin1Char(':'));
        if (pair.size() != 2)
            return false;
        bool okAccess = false, okRegion = false;
        const double access = QLocale::c().toDouble(pair[0].trimmed(), &okAccess);
        const double region = QLocale::c().toDouble(pair[1].trimmed(), &okRegion);
        if (!okAccess || !okRegion)
            return false;
        zones.push_back({access, region});
    }
    return true;
}

QString hotZonesText(const std::vector<core::HotZone> &zones)
{
    QStringList parts;
    for (const auto &z : zones)
        parts << QStringLiteral("%1:%2").arg(QLocale::c().toString(z.accessPercent, 'g', 6),
            QLocale::c().toString(z.regionPercent, 'g', 6));
    return parts.join(QLatin1Char(' '));
}

// ---------------------------------------------------------------- RateLimitEditor

RateLimitEditor::RateLimitEditor(QWidget *parent)
    : QWidget(parent)
    , m_iops(new QDoubleSpinBox(this))
    , m_megabytes(new QDoubleSpinBox(this))
{
    auto *layout = compactLayout(this);
    m_iops->setRange(0, 1e9);
    m_iops->setDecimals(0);
    m_iops->setSuffix(tr(" IOPS"));
    m_iops->setSpecialValueText(tr("any IOPS"));
    m_iops->setToolTip(tr("Upper bound on I/Os per second; 0 = unlimited"));
    m_megabytes->setRange(0, 1e7);
    m_megabytes->setDecimals(1);
    m_megabytes->setSuffix(tr(" MB/s"));
    m_megabytes->setSpecialValueText(tr("any MB/s"));
    m_megabytes->setToolTip(tr("Upper bound on throughput (MB = 10^6 bytes); 0 = unlimited"));
    layout->addWidget(m_iops, 1);
    layout->addWidget(m_megabytes, 1);
    setFocusProxy(m_iops);
}

void RateLimitEditor::setRateLimit(const core::RateLimit &limit)
{
    m_iops->setValue(limit.iops);
    m_megabytes->setValue(limit.megabytesPerSecond);
}

core::RateLimit RateLimitEditor::rateLimit() const
{
    return {m_iops->value(), m_megabytes->value()};
}

// ---------------------------------------------------------------- DataPatternEditor

DataPatternEditor::DataPatternEditor(bool allowInherit, QWidget *parent)
    : QWidget(parent)
    , m_allowInherit(allowInherit)
    , m_kind(new QComboBox(this))
    , m_parameter(new QSpinBox(this))
{
    auto *layout = compactLayout(this);
    if (allowInherit)
        m_kind->addItem(tr("worker's"), -1);
    m_kind->addItem(tr("full random"), int(core::DataPatternKind::FullRandom));
    m_kind->addItem(tr("pseudo-random"), int(core::DataPatternKind::PseudoRandom));
    m_kind->addItem(tr("repeating byte"), int(core::DataPatternKind::RepeatingBytes));
    m_kind->addItem(tr("zeros"), int(core::DataPatternKind::Zeros));
    m_kind->addItem(tr("compressible"), int(core::DataPatternKind::Compressible));
    m_kind->setToolTip(tr("What writes contain. Full random defeats compression and "
                          "deduplication; zeros and repeating bytes do not."));
    layout->addWidget(m_kind, 1);
    layout->addWidget(m_parameter);
    setFocusProxy(m_kind);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        updateFields();
        emit patternChanged();
    });
    connect(m_parameter, &QSpinBox::valueChanged, this, &DataPatternEditor::patternChanged);
    updateFields();
}

void DataPatternEditor::updateFields()
{
    const int kind = m_kind->currentData().toInt();
    const QSignalBlocker block(m_parameter);
    if (kind == int(core::DataPatternKind::RepeatingBytes)) {
        m_parameter->setVisible(true);
        m_parameter->setRange(0, 255);
        m_parameter->setDisplayIntegerBase(16);
        m_parameter->setPrefix(QStringLiteral("0x"));
        m_parameter->setSuffix(QString());
        m_parameter->setToolTip(tr("The byte value every write repeats"));
    } else if (kind == int(core::DataPatternKind::Compressible)) {
        m_parameter->setVisible(true);
        m_parameter->setRange(0, 100);
        m_parameter->setDisplayIntegerBase(10);
        m_parameter->setPrefix(QString());
        m_parameter->setSuffix(QStringLiteral(" %"));
        m_parameter->setToolTip(tr("Compresses to about this share of its size (1 to 99 %)"));
    } else {
        m_parameter->setVisible(false);
    }
}

void DataPatternEditor::setPattern(const LinePattern &pattern)
{
    const int kind = pattern.own || !m_allowInherit ? int(pattern.pattern.kind) : -1;
    {
        const QSignalBlocker block(m_kind);
        m_kind->setCurrentIndex(std::max(0, m_kind->findData(kind)));
    }
    updateFields();
    const QSignalBlocker block(m_parameter);
    if (pattern.pattern.kind == core::DataPatternKind::RepeatingBytes)
        m_parameter->setValue(pattern.pattern.repeatingByte);
    else if (pattern.pattern.kind == core::DataPatternKind::Compressible)
        m_parameter->setValue(static_cast<int>(pattern.pattern.compressiblePercent));
}

LinePattern DataPatternEditor::pattern() const
{
    LinePattern p;
    const int kind = m_kind->currentData().toInt();
    p.own = kind >= 0;
    if (!p.own)
        return p;
    p.pattern.kind = static_cast<core::DataPatternKind>(kind);
    if (p.pattern.kind == core::DataPatternKind::RepeatingBytes)
        p.pattern.repeatingByte = static_cast<std::uint8_t>(m_parameter->value());
    else if (p.pattern.kind == core::DataPatternKind::Compressible)
        p.pattern.compressiblePercent = static_cast<std::uint32_t>(m_parameter->value());
    return p;
}

// ---------------------------------------------------------------- SpecLineDelegate

QWidget *SpecLineDelegate::createEditor(
    QWidget *parent, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    switch (index.column()) {
    case SpecLinesModel::SizeColumn:
    case SpecLinesModel::AlignmentColumn:
    case SpecLinesModel::ReplyColumn: {
        auto *editor = new SizeEditor(parent);
        if (index.column() == SpecLinesModel::AlignmentColumn)
            editor->setZeroText(tr("sector"));
        else if (index.column() == SpecLinesModel::ReplyColumn)
            editor->setZeroText(tr("none"));
        return editor;
    }
    case SpecLinesModel::ShareColumn:
    case SpecLinesModel::ReadColumn:
    case SpecLinesModel::RandomColumn: {
        // Wider than 0..100 on purpose: what is typed is stored and validated live (the
        // cell turns red with core's message), rather than silently clamped.
        auto *spin = new QSpinBox(parent);
        spin->setRange(0, 99999);
        spin->setSuffix(QStringLiteral(" %"));
        spin->setToolTip(index.data(Qt::ToolTipRole).toString());
        return spin;
    }
    case SpecLinesModel::BurstColumn: {
        auto *spin = new QSpinBox(parent);
        spin->setRange(0, INT_MAX);
        return spin;
    }
    case SpecLinesModel::DelayColumn:
    case SpecLinesModel::ThinkTimeColumn: {
        auto *edit = new QLineEdit(parent);
        edit->setPlaceholderText(index.column() == SpecLinesModel::DelayColumn
                ? tr("e.g. 0, 5ms, 1s")
                : tr("e.g. 0, 100us, 2ms"));
        return edit;
    }
    case SpecLinesModel::DistributionColumn:
        return new DistributionEditor(parent);
    case SpecLinesModel::RateLimitColumn:
        return new RateLimitEditor(parent);
    case SpecLinesModel::DataPatternColumn:
        return new DataPatternEditor(true, parent);
    default:
        return QStyledItemDelegate::createEditor(parent, option, index);
    }
}

void SpecLineDelegate::setEditorData(QWidget *editor, const QModelIndex &index) const
{
    const QVariant value = index.data(Qt::EditRole);
    if (auto *size = qobject_cast<SizeEditor *>(editor))
        size->setBytes(value.toULongLong());
    else if (auto *spin = qobject_cast<QSpinBox *>(editor))
        spin->setValue(static_cast<int>(std::min<qulonglong>(value.toULongLong(), INT_MAX)));
    else if (auto *edit = qobject_cast<QLineEdit *>(editor))
        edit->setText(value.toString());
    else if (auto *d = qobject_cast<DistributionEditor *>(editor))
        d->setDistribution(value.value<core::RandomDistribution>());
    else if (auto *r = qobject_cast<RateLimitEditor *>(editor))
        r->setRateLimit(value.value<core::RateLimit>());
    else if (auto *p = qobject_cast<DataPatternEditor *>(editor))
        p->setPattern(value.value<LinePattern>());
    else
        QStyledItemDelegate::setEditorData(editor, index);
}

void SpecLineDelegate::setModelData(
    QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const
{
    if (auto *size = qobject_cast<SizeEditor *>(editor))
        model->setData(index, qulonglong(size->bytes()));
    else if (auto *spin = qobject_cast<QSpinBox *>(editor)) {
        spin->interpretText();
        model->setData(index, qulonglong(spin->value()));
    } else if (auto *edit = qobject_cast<QLineEdit *>(editor))
        model->setData(index, edit->text());
    else if (auto *d = qobject_cast<DistributionEditor *>(editor))
        model->setData(index, QVariant::fromValue(d->distribution()));
    else if (auto *r = qobject_cast<RateLimitEditor *>(editor))
        model->setData(index, QVariant::fromValue(r->rateLimit()));
    else if (auto *p = qobject_cast<DataPatternEditor *>(editor))
        model->setData(index, QVariant::fromValue(p->pattern()));
    else
        QStyledItemDelegate::setModelData(editor, model, index);
}

void SpecLineDelegate::updateEditorGeometry(
    QWidget *editor, const QStyleOptionViewItem &option, const QModelIndex &) const
{
    // Composite editors need more room than the cell: widen them, keep the row.
    QRect r = option.rect;
    r.setWidth(std::max(r.width(), editor->sizeHint().width()));
    r.setHeight(std::max(r.height(), editor->sizeHint().height()));
    editor->setGeometry(r);
}

// ---------------------------------------------------------------- TargetDelegate

QWidget *TargetDelegate::createEditor(
    QWidget *parent, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    switch (index.column()) {
    case TargetsModel::RegionStartColumn:
    case TargetsModel::RegionSizeColumn:
    case TargetsModel::FileSizeColumn: {
        auto *editor = new SizeEditor(parent);
        if (index.column() == TargetsModel::RegionSizeColumn)
            editor->setZeroText(tr("to the end"));
        return editor;
    }
    case TargetsModel::OutstandingColumn: {
        auto *spin = new QSpinBox(parent);
        spin->setRange(0, 99999);
        spin->setSpecialValueText(tr("worker's"));
        return spin;
    }
    case TargetsModel::CacheColumn: {
        auto *combo = new QComboBox(parent);
        combo->addItem(tr("Direct"), int(core::CacheMode::Direct));
        combo->addItem(tr("Buffered"), int(core::CacheMode::Buffered));
        return combo;
    }
    default:
        return QStyledItemDelegate::createEditor(parent, option, index);
    }
}

void TargetDelegate::setEditorData(QWidget *editor, const QModelIndex &index) const
{
    const QVariant value = index.data(Qt::EditRole);
    if (auto *size = qobject_cast<SizeEditor *>(editor))
        size->setBytes(value.toULongLong());
    else if (auto *spin = qobject_cast<QSpinBox *>(editor))
        spin->setValue(value.toInt());
    else if (auto *combo = qobject_cast<QComboBox *>(editor))
        combo->setCurrentIndex(combo->findData(value.toInt()));
    else
        QStyledItemDelegate::setEditorData(editor, index);
}

void TargetDelegate::setModelData(
    QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const
{
    if (auto *size = qobject_cast<SizeEditor *>(editor))
        model->setData(index, qulonglong(size->bytes()));
    else if (auto *spin = qobject_cast<QSpinBox *>(editor)) {
        spin->interpretText();
        model->setData(index, spin->value());
    } else if (auto *combo = qobject_cast<QComboBox *>(editor))
        model->setData(index, combo->currentData());
    else
        QStyledItemDelegate::setModelData(editor, model, index);
}

void TargetDelegate::updateEditorGeometry(
    QWidget *editor, const QStyleOptionViewItem &option, const QModelIndex &) const
{
    QRect r = option.rect;
    r.setWidth(std::max(r.width(), editor->sizeHint().width()));
    editor->setGeometry(r);
}

} // namespace ioprism::ui
