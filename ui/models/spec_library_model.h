// SPDX-License-Identifier: GPL-3.0-or-later
// The access-specification library: the profile's own specs (editable), then the specs
// of the built-in presets that the profile does not have (read-only, in italics), which
// become the profile's when assigned or copied.
#pragma once

#include "core/profile/profile.h"

#include <QAbstractTableModel>

#include <string>

namespace ioprism::ui {

class ProfileDocument;

class SpecLibraryModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, SummaryColumn, SourceColumn, ColumnCount };
    enum Roles {
        ProfileSpecRole = Qt::UserRole + 1, // int: index in profile.specs, -1 for a preset's
        SpecNameRole, // QString
    };

    explicit SpecLibraryModel(ProfileDocument *document, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Index in profile.specs of a row; -1 for a preset's spec.
    int profileSpec(int row) const;
    // The spec of any row (the profile's or a preset's); nullptr for a bad row.
    const core::AccessSpec *specAt(int row) const;
    // The row of profile spec `spec`.
    int rowOfProfileSpec(int spec) const { return spec; }
    // The row of the spec with this name, or -1.
    int rowOfName(const std::string &name) const;

    // A new spec with Iometer's default line. Returns its profile index.
    int addSpec();
    // A copy of any row's spec (a preset's too) in the profile. Returns its profile index.
    int duplicateSpec(int row);
    // Makes a preset's spec the profile's (nothing for a profile spec). Returns its
    // profile index, -1 for a bad row.
    int adoptSpec(int row);
    // Removes a profile spec and its assignments. False for a preset's spec.
    bool removeSpec(int row);

private:
    // Preset specs not in the profile (by name), recomputed on every change.
    void rebuildPresetRows();
    void resetAll();

    ProfileDocument *m_document;
    std::vector<std::size_t> m_presetRows; // indices into presetSpecLibrary()
};

} // namespace ioprism::ui
