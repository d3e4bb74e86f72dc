// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/spec_library_model.h"

#include "ui/format.h"
#include "ui/models/profile_defaults.h"
#include "ui/models/profile_document.h"
#include "ui/style.h"

#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include <algorithm>

namespace ioprism::ui {

SpecLibraryModel::SpecLibraryModel(ProfileDocument *document, QObject *parent)
    : QAbstractTableModel(parent)
    , m_document(document)
{
    rebuildPresetRows();
    connect(document, &ProfileDocument::profileReset, this, &SpecLibraryModel::resetAll);
    connect(document, &ProfileDocument::structureChanged, this, [this](const QObject *origin) {
        if (origin != this)
            resetAll();
    });
    connect(document, &ProfileDocument::problemsChanged, this, [this] {
        if (rowCount() > 0)
            emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    });
}

void SpecLibraryModel::rebuildPresetRows()
{
    m_presetRows.clear();
    const auto &library = presetSpecLibrary();
    for (std::size_t i = 0; i < library.size(); ++i)
        if (!core::findSpec(m_document->profile(), library[i].spec.name))
            m_presetRows.push_back(i);
}

void SpecLibraryModel::resetAll()
{
    beginResetModel();
    rebuildPresetRows();
    endResetModel();
}

int SpecLibraryModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    return static_cast<int>(m_document->profile().specs.size() + m_presetRows.size());
}

int SpecLibraryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

int SpecLibraryModel::profileSpec(int row) const
{
    const int specs = static_cast<int>(m_document->profile().specs.size());
    return row >= 0 && row < specs ? row : -1;
}

const core::AccessSpec *SpecLibraryModel::specAt(int row) const
{
    if (row < 0 || row >= rowCount())
        return nullptr;
    const auto &profile = m_document->profile();
    if (const int spec = profileSpec(row); spec >= 0)
        return &profile.specs[static_cast<std::size_t>(spec)];
    return &presetSpecLibrary()[m_presetRows[static_cast<std::size_t>(row) - profile.specs.size()]]
                .spec;
}

int SpecLibraryModel::rowOfName(const std::string &name) const
{
    for (int row = 0; row < rowCount(); ++row)
        if (data(index(row, NameColumn), SpecNameRole).toString() == toQString(name))
            return row;
    return -1;
}

QVariant SpecLibraryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int spec = profileSpec(index.row());
    const auto &specs = m_document->profile().specs;
    const core::AccessSpec *s = nullptr;
    std::string preset;
    if (spec >= 0) {
        s = &specs[static_cast<std::size_t>(spec)];
    } else {
        const std::size_t p = static_cast<std::size_t>(index.row()) - specs.size();
        if (p >= m_presetRows.size())
            return {};
        const auto &entry = presetSpecLibrary()[m_presetRows[p]];
        s = &entry.spec;
        preset = entry.preset;
    }
    const core::Problems problems = spec >= 0
        ? m_document->problemsAt(ProfileDocument::specPath(static_cast<std::size_t>(spec)))
        : core::Problems {};

    switch (role) {
    case ProfileSpecRole:
        return spec;
    case SpecNameRole:
        return toQString(s->name);
    case Qt::FontRole:
        if (spec < 0) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        return {};
    case Qt::ForegroundRole:
        if (spec < 0)
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::BackgroundRole:
        return index.column() == NameColumn ? problemBrush(problems) : QVariant();
    default:
        break;
    }

    switch (index.column()) {
    case NameColumn:
        if (role == Qt::DisplayRole || role == Qt::EditRole)
            return toQString(s->name);
        if (role == Qt::ToolTipRole) {
            QString tip = spec >= 0
                ? tr("An access specification of this profile. Double-click the name to rename it; "
                     "edit its lines below.")
                : tr("Built-in spec from the \"%1\" preset: assign it or copy it to use it.")
                      .arg(toQString(preset));
            if (!problems.empty())
                tip += QLatin1Char('\n') + problemsText(problems);
            return tip;
        }
        return {};
    case SummaryColumn:
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
            return specSummary(*s);
        return {};
    case SourceColumn:
        if (role == Qt::DisplayRole)
            return spec >= 0 ? tr("profile") : tr("preset: %1").arg(toQString(preset));
        if (role == Qt::ToolTipRole)
            return tr("Where the spec comes from: this profile, or a built-in preset");
        return {};
    default:
        return {};
    }
}

bool SpecLibraryModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || index.column() != NameColumn
        || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    const int spec = profileSpec(index.row());
    if (spec < 0)
        return false;
    const std::string name = toStdString(value.toString().trimmed());
    auto &profile = m_document->mutableProfile();
    auto &s = profile.specs[static_cast<std::size_t>(spec)];
    if (name.empty() || name == s.name || core::findSpec(profile, name))
        return false;
    // Workers refer to specs by name: a rename follows through their assignments.
    for (auto &host : profile.hosts)
        for (auto &worker : host.workers)
            std::replace(worker.assignedSpecs.begin(), worker.assignedSpecs.end(), s.name, name);
    s.name = name;
    // A renamed spec may now shadow (or stop shadowing) a preset's spec of that name.
    resetAll();
    m_document->commitStructure(this);
    return true;
}

Qt::ItemFlags SpecLibraryModel::flags(const QModelIndex &index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
    if (index.column() == NameColumn && profileSpec(index.row()) >= 0)
        f |= Qt::ItemIsEditable;
    return f;
}

QVariant SpecLibraryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case NameColumn:
            return tr("Name");
        case SummaryColumn:
            return tr("Summary");
        case SourceColumn:
            return tr("Source");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case NameColumn:
            return tr("The spec's name (workers refer to it by name)");
        case SummaryColumn:
            return tr("Transfer size, read and random mix of a one-line spec");
        case SourceColumn:
            return tr("This profile, or a built-in preset");
        default:
            return {};
        }
    }
    return {};
}

int SpecLibraryModel::addSpec()
{
    auto &profile = m_document->mutableProfile();
    core::AccessSpec spec;
    spec.name = uniqueSpecName(profile, "Untitled");
    spec.lines.push_back(core::SpecLine {});
    beginResetModel();
    profile.specs.push_back(spec);
    rebuildPresetRows();
    endResetModel();
    m_document->commitStructure(this);
    return static_cast<int>(profile.specs.size()) - 1;
}

int SpecLibraryModel::duplicateSpec(int row)
{
    if (row < 0 || row >= rowCount())
        return -1;
    const int spec = profileSpec(row);
    auto &profile = m_document->mutableProfile();
    core::AccessSpec copy = spec >= 0
        ? profile.specs[static_cast<std::size_t>(spec)]
        : presetSpecLibrary()[m_presetRows[static_cast<std::size_t>(row) - profile.specs.size()]]
              .spec;
    copy.name = uniqueSpecName(profile, copy.name + " copy");
    beginResetModel();
    profile.specs.push_back(copy);
    rebuildPresetRows();
    endResetModel();
    m_document->commitStructure(this);
    return static_cast<int>(profile.specs.size()) - 1;
}

int SpecLibraryModel::adoptSpec(int row)
{
    if (row < 0 || row >= rowCount())
        return -1;
    const int spec = profileSpec(row);
    if (spec >= 0)
        return spec;
    auto &profile = m_document->mutableProfile();
    const auto &entry
        = presetSpecLibrary()[m_presetRows[static_cast<std::size_t>(row) - profile.specs.size()]];
    beginResetModel();
    profile.specs.push_back(entry.spec);
    rebuildPresetRows();
    endResetModel();
    m_document->commitStructure(this);
    return static_cast<int>(profile.specs.size()) - 1;
}

bool SpecLibraryModel::removeSpec(int row)
{
    const int spec = profileSpec(row);
    if (spec < 0)
        return false;
    auto &profile = m_document->mutableProfile();
    const std::string name = profile.specs[static_cast<std::size_t>(spec)].name;
    beginResetModel();
    profile.specs.erase(profile.specs.begin() + spec);
    for (auto &host : profile.hosts)
        for (auto &worker : host.workers)
            std::erase(worker.assignedSpecs, name);
    rebuildPresetRows();
    endResetModel();
    m_document->commitStructure(this);
    return true;
}

} // namespace ioprism::ui
