// SPDX-License-Identifier: GPL-3.0-or-later
// The History page's table: every run in the run library (core/library/run_library.h),
// one row each with its date, name, profile, targets and their devices, headline
// figures and the step they are of, device verdict, outcome (a failed run's with its
// reason), tags and notes. Name, tags and notes are edited in
// place and written to the run's sidecar; a damaged file is a row that says why.
#pragma once

#include "core/library/run_library.h"

#include <QAbstractTableModel>

#include <filesystem>
#include <optional>

namespace ioprism::ui {

class HistoryModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        DateColumn,
        NameColumn,
        ProfileColumn,
        TargetsColumn,
        IopsColumn,
        MegabytesColumn,
        MeanColumn,
        P99Column,
        FigureColumn, // the step the four figures before it are of
        DeviceColumn,
        OutcomeColumn,
        TagsColumn,
        NotesColumn,
        ColumnCount
    };
    // The value a column sorts by (numbers as numbers, dates as time).
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit HistoryModel(QObject *parent = nullptr);

    // The library's folder; empty: no library (nothing listed).
    // `read` reads the library's files (PlatformServices::readFile).
    void setDirectory(const std::filesystem::path &directory, core::InputFileReader read);
    const std::optional<core::RunLibrary> &library() const { return m_library; }
    void refresh(); // lists the folder again
    const core::RunHeadline &run(int row) const { return m_runs[static_cast<std::size_t>(row)]; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role) override;

signals:
    // Writing the sidecar failed: what and why, for the message bar.
    void editFailed(const QString &message);

private:
    QVariant display(const core::RunHeadline &run, int column) const;
    QVariant sortValue(const core::RunHeadline &run, int column) const;

    std::optional<core::RunLibrary> m_library;
    std::vector<core::RunHeadline> m_runs;
};

} // namespace ioprism::ui
