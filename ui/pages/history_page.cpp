// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/history_page.h"

#include "ui/format.h"
#include "ui/models/history_model.h"

#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <set>

namespace ioprism::ui {

HistoryPage::HistoryPage(QWidget *parent)
    : QWidget(parent)
    , m_model(new HistoryModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    // Built top to bottom: the widgets' creation order is the page's tab order.
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto *bar = new QHBoxLayout;
    QPushButton *refresh = makeBar(bar);
    layout->addLayout(bar);
    makeTable();
    layout->addWidget(m_table, 1);
    m_where = new QLabel(this);
    m_where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_where->setToolTip(tr("Where the runs are kept; the command line saves there too"));
    layout->addWidget(m_where);

    connectTable();
    connectButtons(refresh);
    setDirectory({}, {});
}

// The filter, then a button per action on the selected runs; returns Refresh, the one
// button no member keeps (it needs no selection, so updateButtons leaves it alone).
QPushButton *HistoryPage::makeBar(QHBoxLayout *bar)
{
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter: a name, profile, target, device, tag…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("Show only the runs with this text in any column"));
    bar->addWidget(m_filter, 1);
    const auto button = [&](const QString &text, const QString &tip) {
        auto *b = new QPushButton(text, this);
        b->setToolTip(tip);
        bar->addWidget(b);
        return b;
    };
    m_open = button(tr("Open"),
        tr("Show the selected run on the Live, Results and Series pages "
           "as at its end (or double-click it)"));
    m_compare = button(tr("Compare"),
        tr("Compare the selected runs (two or more): curves overlaid, the change of each figure "
           "against the first, and what differs between their setups"));
    m_runAgain = button(tr("Run Again…"),
        tr("Load the selected run's profile (as it ran, seeds included) to run it again"));
    m_delete = button(tr("Delete…"), tr("Delete the selected runs' files from the library"));
    return button(tr("Refresh"),
        tr("List the library's folder again (runs the "
           "command line saved since appear)"));
}

// The table shows the library through the proxy: sorted by the model's sort role (numbers
// as numbers, dates as time, not as their text), filtered on every column, newest first.
void HistoryPage::makeTable()
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(HistoryModel::SortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(HistoryModel::DateColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setToolTip(tr("Every run kept in the library. Double-click a run to open it, or "
                           "its name, tags or notes to edit them; select several to compare."));
}

void HistoryPage::connectTable()
{
    connect(m_filter, &QLineEdit::textChanged, m_proxy,
        [this](const QString &text) { m_proxy->setFilterFixedString(text); });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &HistoryPage::updateButtons);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        updateButtons();
        // Columns fit their contents, up to a width (a long profile name is cut, in
        // full in the tooltip), then the user's own widths.
        m_table->resizeColumnsToContents();
        for (int c = 0; c < m_model->columnCount(); ++c)
            m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), 280));
    });
    connect(m_model, &HistoryModel::editFailed, this, &HistoryPage::message);
    connect(m_table, &QAbstractItemView::doubleClicked, this, [this](const QModelIndex &index) {
        // Name, tags and notes edit in place; elsewhere a double-click opens the run.
        if (m_proxy->flags(index) & Qt::ItemIsEditable)
            return;
        const QStringList files = selectedFiles();
        if (!files.isEmpty())
            emit openRequested(files.first());
    });
}

void HistoryPage::connectButtons(QPushButton *refresh)
{
    connect(m_open, &QPushButton::clicked, this, [this] {
        const QStringList files = selectedFiles();
        if (!files.isEmpty())
            emit openRequested(files.first());
    });
    connect(
        m_compare, &QPushButton::clicked, this, [this] { emit compareRequested(selectedFiles()); });
    connect(m_runAgain, &QPushButton::clicked, this, [this] {
        const QStringList files = selectedFiles();
        if (!files.isEmpty())
            emit runAgainRequested(files.first());
    });
    connect(m_delete, &QPushButton::clicked, this, [this] { deleteSelected(true); });
    connect(refresh, &QPushButton::clicked, this, &HistoryPage::refresh);
}

void HistoryPage::setDirectory(const std::filesystem::path &directory, core::InputFileReader read)
{
    m_model->setDirectory(directory, std::move(read));
    m_where->setText(directory.empty()
            ? tr("Runs are not kept: saving runs to the history is off (Run menu), or this "
                 "machine has no data folder.")
            : tr("Kept in %1").arg(QDir::toNativeSeparators(toQString(directory.string()))));
    updateButtons();
}

void HistoryPage::refresh()
{
    m_model->refresh();
}

QStringList HistoryPage::selectedFiles() const
{
    std::set<int> rows;
    for (const QModelIndex &index : m_table->selectionModel()->selectedRows())
        rows.insert(index.row());
    QStringList files;
    for (const int row : rows) {
        const int source = m_proxy->mapToSource(m_proxy->index(row, 0)).row();
        const auto &run = m_model->run(source);
        if (!run.damaged)
            files << toQString(run.path.string());
    }
    return files;
}

void HistoryPage::deleteSelected(bool confirm)
{
    std::vector<std::string> ids;
    for (const QModelIndex &index : m_table->selectionModel()->selectedRows())
        ids.push_back(m_model->run(m_proxy->mapToSource(index).row()).id);
    if (ids.empty() || !m_model->library())
        return;
    const auto remove = [this, ids] {
        for (const auto &id : ids)
            if (auto st = m_model->library()->remove(id); !st)
                emit message(tr("Cannot delete %1: %2")
                                 .arg(toQString(id), toQString(st.error().toString())));
        m_model->refresh();
    };
    if (!confirm) {
        remove();
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Question, tr("Delete runs?"),
        tr("Delete %n run(s) from the history? Their results files are removed.", nullptr,
            static_cast<int>(ids.size())),
        QMessageBox::Cancel, this);
    auto *yes = box->addButton(tr("Delete"), QMessageBox::DestructiveRole);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [box, yes, remove] {
        if (box->clickedButton() == yes)
            remove();
    });
    box->open();
}

void HistoryPage::updateButtons()
{
    const int selected = static_cast<int>(selectedFiles().size());
    m_open->setEnabled(selected >= 1);
    m_runAgain->setEnabled(selected >= 1);
    m_compare->setEnabled(selected >= 2);
    m_delete->setEnabled(!m_table->selectionModel()->selectedRows().isEmpty());
}

} // namespace ioprism::ui
