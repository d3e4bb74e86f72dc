// SPDX-License-Identifier: GPL-3.0-or-later
// Cell editors: a size with a unit picker, the spec-line extension editors, and the
// delegates that choose them per column of the spec-line and target tables.
#pragma once

#include "core/profile/profile.h"
#include "ui/metatypes.h"

#include <QStyledItemDelegate>
#include <QWidget>

#include <cstddef>
#include <cstdint>
#include <utility>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace ioprism::ui {

// A byte count as a number and a binary unit (B, KiB, MiB, GiB, TiB).
// A size as a number and a binary unit. A unit may also be typed into the number
// ("1m", "1000B", "64 KiB", "1.5g"), read exactly as the CLI reads sizes
// (core::parseSize): the editor then shows it in its own unit. Text that is no size
// cannot be typed; nothing is guessed.
class SizeEditor : public QWidget
{
    Q_OBJECT
public:
    explicit SizeEditor(QWidget *parent = nullptr);
    void setBytes(std::uint64_t bytes);
    std::uint64_t bytes() const;
    QSpinBox *numberField() const { return m_number; }
    // Text the number shows for 0 ("sector", "none", "to the end"); "" shows "0".
    void setZeroText(const QString &text);

signals:
    void bytesChanged(std::uint64_t bytes);

private:
    // The unit (index into the unit box) and number that show `bytes` exactly.
    static std::pair<std::size_t, int> unitAndNumber(std::uint64_t bytes);
    QSpinBox *m_number;
    QComboBox *m_unit;
};

class DistributionEditor : public QWidget
{
    Q_OBJECT
public:
    explicit DistributionEditor(QWidget *parent = nullptr);
    void setDistribution(const core::RandomDistribution &distribution);
    core::RandomDistribution distribution() const;

private:
    void updateFields();
    QComboBox *m_kind;
    QDoubleSpinBox *m_parameter;
    QLineEdit *m_zones;
    core::RandomDistribution m_value;
};

class RateLimitEditor : public QWidget
{
    Q_OBJECT
public:
    explicit RateLimitEditor(QWidget *parent = nullptr);
    void setRateLimit(const core::RateLimit &limit);
    core::RateLimit rateLimit() const;

private:
    QDoubleSpinBox *m_iops;
    QDoubleSpinBox *m_megabytes;
};

// A data pattern; with allowInherit the first choice is "the worker's".
class DataPatternEditor : public QWidget
{
    Q_OBJECT
public:
    explicit DataPatternEditor(bool allowInherit, QWidget *parent = nullptr);
    void setPattern(const LinePattern &pattern);
    LinePattern pattern() const;

signals:
    void patternChanged();

private:
    void updateFields();
    bool m_allowInherit;
    QComboBox *m_kind;
    QSpinBox *m_parameter;
};

// Editors of the spec-line table (SpecLinesModel columns).
class SpecLineDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &option,
        const QModelIndex &index) const override;
    void setEditorData(QWidget *editor, const QModelIndex &index) const override;
    void setModelData(
        QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const override;
    void updateEditorGeometry(QWidget *editor, const QStyleOptionViewItem &option,
        const QModelIndex &index) const override;
};

// Editors of the targets table (TargetsModel columns).
class TargetDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &option,
        const QModelIndex &index) const override;
    void setEditorData(QWidget *editor, const QModelIndex &index) const override;
    void setModelData(
        QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const override;
    void updateEditorGeometry(QWidget *editor, const QStyleOptionViewItem &option,
        const QModelIndex &index) const override;
};

// Parses "50:10 30:20 20:70" (access % : region %, space separated) into hot zones.
bool parseHotZones(const QString &text, std::vector<core::HotZone> &zones);
QString hotZonesText(const std::vector<core::HotZone> &zones);

} // namespace ioprism::ui
