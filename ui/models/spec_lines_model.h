// SPDX-License-Identifier: GPL-3.0-or-later
// The lines of one access specification, Iometer's spec editor as a table: transfer
// size, % of spec, % read, % random, delay, burst, alignment, reply, and the extensions
// (random distribution, rate limit, think time, data pattern).
//
// Validation is live: every edit is stored as typed (even 140 % read) and the document
// re-validates; a cell with a problem gets a red (error) or amber (warning) background
// and core's message in its tooltip. Problems of the whole line set (shares that do not
// sum to 100) show on every share cell.
#pragma once

#include "core/profile/profile.h"

#include <QAbstractTableModel>
#include <QString>

#include <optional>
#include <string>

namespace ioprism::ui {

class ProfileDocument;
struct LinePattern;

// Cell texts of the extension columns: "uniform", "zipf θ=1.2", "≤ 1,000 IOPS",
// "worker's", "compressible 50 %".
QString distributionText(const core::RandomDistribution &distribution);
QString rateLimitText(const core::RateLimit &rateLimit);
QString dataPatternText(const core::DataPattern &pattern);
QString linePatternText(const LinePattern &pattern);

class SpecLinesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        SizeColumn,
        ShareColumn,
        ReadColumn,
        RandomColumn,
        DelayColumn,
        BurstColumn,
        AlignmentColumn,
        ReplyColumn,
        DistributionColumn,
        RateLimitColumn,
        ThinkTimeColumn,
        DataPatternColumn,
        ColumnCount
    };
    enum Roles {
        ProblemsRole = Qt::UserRole + 1, // QString: the cell's problems, "" when none
        HasErrorRole, // bool
    };

    explicit SpecLinesModel(ProfileDocument *document, QObject *parent = nullptr);

    // The spec edited (index in profile.specs; -1 = none).
    void setSpec(int spec);
    int spec() const { return m_spec; }
    // Shows a spec that is not the profile's (a built-in one) read-only: its lines are
    // listed, nothing is editable. setSpec() ends it.
    void showReadOnly(const core::AccessSpec &spec);
    bool isReadOnly() const { return m_readOnly.has_value(); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool moveRows(const QModelIndex &sourceParent, int sourceRow, int count,
        const QModelIndex &destinationParent, int destinationChild) override;
    bool removeRows(int row, int count, const QModelIndex &parent = {}) override;

    // A new line with Iometer's defaults after `row` (-1: at the end), taking the share
    // the others leave. Returns its row, or -1 (no spec, or 100 lines already).
    int addLine(int row = -1);
    bool moveUp(int row);
    bool moveDown(int row);

    // The validation field name of a column ("percentRead").
    static const char *fieldName(int column);

private:
    void refreshAll();
    // The spec shown: the profile's m_spec, the read-only one, or nullptr.
    const core::AccessSpec *shown() const;
    // data()'s parts: a cell's problems (colour, tooltip, text, error) and its value.
    QVariant problemData(int row, int column, int role) const;
    QVariant lineValue(const core::SpecLine &line, int column, bool edit) const;

    ProfileDocument *m_document;
    int m_spec = -1;
    std::optional<core::AccessSpec> m_readOnly;
};

} // namespace ioprism::ui
