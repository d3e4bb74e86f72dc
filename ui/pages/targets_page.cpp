// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/targets_page.h"

#include "ui/editors/editors.h"
#include "ui/format.h"
#include "ui/icons.h"
#include "ui/models/profile_document.h"
#include "ui/models/targets_model.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace ioprism::ui {

TargetsPage::TargetsPage(ProfileDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_model(new TargetsModel(document, this))
    , m_table(new QTableView(this))
    , m_title(new QLabel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto *bar = new QHBoxLayout;
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    bar->addWidget(m_title, 1);
    auto *addFile = new QToolButton(this);
    addFile->setIcon(icon(IconId::TestFile));
    addFile->setText(tr("Add test file…"));
    addFile->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    addFile->setToolTip(tr("Choose where a test file goes (any folder) and assign it to the "
                           "selected worker"));
    bar->addWidget(addFile);
    auto *refresh = new QToolButton(this);
    refresh->setIcon(icon(IconId::Refresh));
    refresh->setText(tr("Refresh"));
    refresh->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    refresh->setToolTip(tr("List disks, partitions and mounted file systems again"));
    bar->addWidget(refresh);
    layout->addLayout(bar);

    m_table->setModel(m_model);
    m_table->setItemDelegate(new TargetDelegate(m_table));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
        | QAbstractItemView::SelectedClicked);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(
        TargetsModel::ModelColumn, QHeaderView::Interactive);
    m_table->setToolTip(tr("Tick a target to let the selected worker use it; double-click a "
                           "setting of a ticked target to change it; right-click a ticked "
                           "target to re-point it"));
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, &TargetsPage::showContextMenu);
    // An imported target not found here: double-clicking its name re-points it.
    connect(m_table, &QAbstractItemView::doubleClicked, this, [this](const QModelIndex &index) {
        if (index.column() == TargetsModel::TargetColumn
            && index.data(TargetsModel::UnresolvedRole).toBool())
            emit repointRequested(index.row());
    });
    layout->addWidget(m_table, 1);

    auto *note
        = new QLabel(tr("Raw disks and partitions are read and written directly: IOPrism "
                        "asks before it writes to one and refuses while it is mounted or in use."),
            this);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(note);

    connect(refresh, &QToolButton::clicked, this, &TargetsPage::refreshRequested);
    connect(addFile, &QToolButton::clicked, this, &TargetsPage::addTestFileRequested);
    connect(document, &ProfileDocument::valuesChanged, this, &TargetsPage::updateTitle);
    connect(document, &ProfileDocument::profileReset, this, &TargetsPage::updateTitle);
    connect(m_model, &QAbstractItemModel::modelReset, this, &TargetsPage::updateTitle);
    updateTitle();
}

void TargetsPage::setWorker(int worker)
{
    m_model->setWorker(worker);
    updateTitle();
}

void TargetsPage::showContextMenu(const QPoint &pos)
{
    const QModelIndex index = m_table->indexAt(pos);
    if (!index.isValid())
        return;
    auto *menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->setToolTipsVisible(true);
    QAction *repoint = menu->addAction(tr("Re-point…"));
    repoint->setObjectName(QStringLiteral("repointAction"));
    const bool assigned = index.data(TargetsModel::AssignedRole).toBool();
    repoint->setEnabled(assigned);
    repoint->setToolTip(assigned
            ? tr("Point this target at another device or file; the worker keeps it with its "
                 "settings")
            : tr("Only a ticked target can be re-pointed"));
    const int row = index.row();
    connect(repoint, &QAction::triggered, this, [this, row] { emit repointRequested(row); });
    menu->popup(m_table->viewport()->mapToGlobal(pos));
}

void TargetsPage::updateTitle()
{
    const auto *worker = m_document->worker(m_model->worker());
    m_title->setText(worker ? tr("Targets of %1").arg(toQString(worker->name))
                            : tr("Select a worker in the topology to choose its targets"));
}

} // namespace ioprism::ui
