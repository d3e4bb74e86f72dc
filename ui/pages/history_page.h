// SPDX-License-Identifier: GPL-3.0-or-later
// The History page: every run kept in the run library, newest first, sortable by any
// column and filtered by a text found in any of them. Open one (double-click) to see it
// on the Live, Results and Series pages as at its end; compare two or more; load a run's
// profile to run it again; rename, tag, annotate (in place) or delete runs.
#pragma once

#include "core/profile/input_file.h"

#include <QStringList>
#include <QWidget>

#include <filesystem>

class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace ioprism::ui {

class HistoryModel;

class HistoryPage : public QWidget
{
    Q_OBJECT
public:
    explicit HistoryPage(QWidget *parent = nullptr);

    // The library's folder; empty: saving is off or there is no data folder here, and
    // the page says so.
    void setDirectory(const std::filesystem::path &directory, core::InputFileReader read);
    void refresh();

    HistoryModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QLineEdit *filter() const { return m_filter; }
    // Results files of the selected rows (damaged ones left out), in the table's order.
    QStringList selectedFiles() const;
    // Deletes the selected runs after asking (asynchronously); `confirm` false: at once.
    void deleteSelected(bool confirm = true);

signals:
    void openRequested(const QString &resultsFile);
    void compareRequested(const QStringList &resultsFiles);
    void runAgainRequested(const QString &resultsFile);
    void message(const QString &text); // an error for the message bar

private:
    // The constructor's pieces, in the order it calls them.
    QPushButton *makeBar(QHBoxLayout *bar);
    void makeTable();
    void connectTable();
    void connectButtons(QPushButton *refresh);

    void updateButtons();

    HistoryModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QLineEdit *m_filter = nullptr;
    QTableView *m_table = nullptr;
    QLabel *m_where = nullptr;
    QPushButton *m_open = nullptr;
    QPushButton *m_compare = nullptr;
    QPushButton *m_runAgain = nullptr;
    QPushButton *m_delete = nullptr;
};

} // namespace ioprism::ui
