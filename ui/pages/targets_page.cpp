// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/targets_page.h"

#include "core/workload/file_tree.h"
#include "ui/editors/editors.h"
#include "ui/editors/field_marks.h"
#include "ui/format.h"
#include "ui/icons.h"
#include "ui/models/profile_document.h"
#include "ui/models/targets_model.h"
#include "ui/pages/target_dialogs.h"
#include "ui/style.h"

#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSpinBox>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <type_traits>

namespace ioprism::ui {

TargetsPage::TargetsPage(ProfileDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_model(new TargetsModel(document, this))
    , m_table(new QTableView(this))
    , m_title(new QLabel(this))
    , m_remoteNote(new QLabel(this))
    , m_dialogs(std::make_unique<TargetDialogs>(this, document))
{
    // The page's own questions: where a file or a tree goes, where a target is re-pointed.
    connect(this, &TargetsPage::addTestFileRequested, this, [this] { m_dialogs->askTestFile(); });
    connect(
        this, &TargetsPage::addFileTreeRequested, this, [this] { m_dialogs->askFileTreeFolder(); });
    connect(this, &TargetsPage::repointRequested, this,
        [this](int row) { m_dialogs->askRepoint(row); });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto *bar = new QHBoxLayout;
    m_title->setObjectName(QStringLiteral("targetsTitle"));
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    bar->addWidget(m_title, 1);
    auto *addFile = new QToolButton(this);
    addFile->setIcon(icon(IconId::TestFile));
    addFile->setText(tr("Add test file…"));
    addFile->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    addFile->setToolTip(tr("Choose where a test file goes (any folder) and assign it to the "
                           "selected worker. For a worker of another manager, type its path on "
                           "that host (a test file, disk or partition)."));
    bar->addWidget(addFile);
    auto *addTree = new QToolButton(this);
    addTree->setObjectName(QStringLiteral("addFileTree"));
    addTree->setIcon(icon(IconId::FileTree));
    addTree->setText(tr("Add file tree…"));
    addTree->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    addTree->setToolTip(tr("Choose a folder for a file tree (io_profile's many files: each I/O "
                           "opens a file, reads or writes it once, closes it) and assign it to "
                           "the selected worker. IOPrism makes the tree in %1 inside that folder, "
                           "or reuses the tree it made there before. For a worker of another "
                           "manager, type the folder's path on that host.")
                            .arg(QLatin1String(kFileTreeFolderName)));
    bar->addWidget(addTree);
    auto *refresh = new QToolButton(this);
    refresh->setIcon(icon(IconId::Refresh));
    refresh->setText(tr("Refresh"));
    refresh->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    refresh->setToolTip(tr("List disks, partitions and mounted file systems again"));
    bar->addWidget(refresh);
    layout->addLayout(bar);

    setUpTable();
    layout->addWidget(m_table, 1);
    layout->addWidget(makeTreePanel());

    auto *note
        = new QLabel(tr("Raw disks and partitions are read and written directly: IOPrism "
                        "asks before it writes to one and refuses while it is mounted or in use."),
            this);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(note);
    // Another manager's worker: its targets are that host's, which this machine cannot see.
    m_remoteNote->setObjectName(QStringLiteral("remoteTargetsNote"));
    m_remoteNote->setWordWrap(true);
    m_remoteNote->setToolTip(tr("The Targets page edits the worker selected in the topology, "
                                "on its manager's host"));
    m_remoteNote->hide();
    layout->addWidget(m_remoteNote);

    connect(refresh, &QToolButton::clicked, this, &TargetsPage::refreshRequested);
    connect(addFile, &QToolButton::clicked, this, &TargetsPage::addTestFileRequested);
    connect(addTree, &QToolButton::clicked, this, &TargetsPage::addFileTreeRequested);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &TargetsPage::loadTree);
    connect(m_model, &QAbstractItemModel::modelReset, this, &TargetsPage::loadTree);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &TargetsPage::loadTree);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &TargetsPage::loadTree);
    connect(document, &ProfileDocument::problemsChanged, this, &TargetsPage::loadTree);
    connect(document, &ProfileDocument::valuesChanged, this, &TargetsPage::updateTitle);
    connect(document, &ProfileDocument::profileReset, this, &TargetsPage::updateTitle);
    connect(document, &ProfileDocument::currentHostChanged, this, &TargetsPage::updateTitle);
    connect(m_model, &QAbstractItemModel::modelReset, this, &TargetsPage::updateTitle);
    updateTitle();
    loadTree();
}

// The table of targets: ticked, edited in place, re-pointed from its context menu.
void TargetsPage::setUpTable()
{
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
    // An imported target not found here: double-clicking its name re-points it. A tree's
    // shape is edited in the panel below: double-clicking it goes there.
    connect(m_table, &QAbstractItemView::doubleClicked, this, [this](const QModelIndex &index) {
        if (index.column() == TargetsModel::TargetColumn
            && index.data(TargetsModel::UnresolvedRole).toBool())
            emit repointRequested(index.row());
        if (index.column() == TargetsModel::FileSizeColumn
            && index.data(TargetsModel::FileTreeRole).toBool()
            && index.data(TargetsModel::AssignedRole).toBool()) {
            loadTree();
            m_treeDepth->setFocus(Qt::OtherFocusReason);
            m_treeDepth->selectAll();
        }
    });
}

TargetsPage::~TargetsPage() = default;

void TargetsPage::setWorker(int worker)
{
    m_model->setWorker(worker);
    updateTitle();
    loadTree();
}

QGroupBox *TargetsPage::makeTreePanel()
{
    m_treeBox = new QGroupBox(this);
    m_treeBox->setObjectName(QStringLiteral("fileTreePanel"));
    m_treeBox->setToolTip(tr("The shape of the selected file tree (or of the worker's first): "
                             "IOPrism makes it before the first run and reuses it while its "
                             "shape stays the same"));
    auto *grid = new QGridLayout(m_treeBox);
    const auto field = [&](int column, const QString &label, QWidget *widget) {
        auto *text = new QLabel(label, m_treeBox);
        text->setBuddy(widget);
        grid->addWidget(text, 0, column * 2);
        grid->addWidget(widget, 0, column * 2 + 1);
    };
    // Ranges wider than the rules: a value core refuses is stored and marked with core's
    // message, never silently clamped.
    m_treeDepth = new QSpinBox(m_treeBox);
    m_treeDepth->setObjectName(QStringLiteral("treeDepth"));
    m_treeDepth->setRange(0, 999);
    field(0, tr("L&evels:"), m_treeDepth);
    m_treeFiles = new QSpinBox(m_treeBox);
    m_treeFiles->setObjectName(QStringLiteral("treeFilesPerLevel"));
    m_treeFiles->setRange(0, 99'999'999);
    m_treeFiles->setGroupSeparatorShown(true);
    field(1, tr("F&iles per level:"), m_treeFiles);
    m_treeFileSize = new SizeEditor(m_treeBox);
    m_treeFileSize->setObjectName(QStringLiteral("treeFileSize"));
    field(2, tr("File si&ze:"), m_treeFileSize);
    m_treePreInit = new QSpinBox(m_treeBox);
    m_treePreInit->setObjectName(QStringLiteral("treePreInit"));
    m_treePreInit->setRange(0, INT_MAX);
    m_treePreInit->setGroupSeparatorShown(true);
    m_treePreInit->setSpecialValueText(tr("none"));
    m_treePreInit->setSuffix(tr(" operations"));
    field(3, tr("Pre-initialisation:"), m_treePreInit);
    grid->setColumnStretch(8, 1);
    m_treeTotal = new QLabel(m_treeBox);
    m_treeTotal->setObjectName(QStringLiteral("treeTotal"));
    m_treeTotal->setTextFormat(Qt::RichText);
    m_treeTotal->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_treeTotal->setToolTip(tr("The whole tree (levels × files per level × file size) beside "
                               "the free space of its file system: IOPrism checks the space "
                               "before it writes anything"));
    grid->addWidget(m_treeTotal, 1, 0, 1, 9);

    connect(m_treeDepth, &QSpinBox::valueChanged, this, &TargetsPage::commitTree);
    connect(m_treeFiles, &QSpinBox::valueChanged, this, &TargetsPage::commitTree);
    connect(m_treeFileSize, &SizeEditor::bytesChanged, this, &TargetsPage::commitTree);
    connect(m_treePreInit, &QSpinBox::valueChanged, this, &TargetsPage::commitTree);
    m_treeBox->hide();
    return m_treeBox;
}

void TargetsPage::loadTree()
{
    if (m_loadingTree)
        return;
    // The current row's tree, else the worker's first.
    int row = -1;
    const auto isTree = [this](int r) {
        const auto *t = m_model->targetAt(r);
        return t && t->kind == core::TargetKind::FileTree;
    };
    if (const QModelIndex current = m_table->currentIndex();
        current.isValid() && isTree(current.row()))
        row = current.row();
    for (int r = 0; row < 0 && r < m_model->rowCount(); ++r)
        if (isTree(r))
            row = r;
    m_treeRow = row;
    m_treeBox->setVisible(row >= 0);
    if (row < 0)
        return;
    const core::Target &target = *m_model->targetAt(row);
    const core::FileTree &tree = target.tree;
    m_loadingTree = true;
    m_treeBox->setTitle(tr("File tree in %1").arg(toQString(target.path)));
    // Only what differs is set: a field being typed in keeps its text and unit.
    const auto setSpin = [](QSpinBox *spin, std::uint64_t value) {
        const int v
            = static_cast<int>(std::min<std::uint64_t>(value, std::uint64_t(spin->maximum())));
        if (spin->value() != v)
            spin->setValue(v);
    };
    setSpin(m_treeDepth, tree.depth);
    setSpin(m_treeFiles, tree.filesPerLevel);
    if (m_treeFileSize->bytes() != tree.fileSizeBytes)
        m_treeFileSize->setBytes(tree.fileSizeBytes);
    setSpin(m_treePreInit, tree.preInitOperations);

    const std::string base = m_model->targetFieldPath(row) + ".tree";
    markField(m_treeDepth, m_document->problemsAt(base + ".depth"),
        tr("Levels of folders, one inside the other (1 to 64); io_profile's default is 3"));
    markField(m_treeFiles, m_document->problemsAt(base + ".filesPerLevel"),
        tr("Files in each level's folder; io_profile's default is 4. The whole tree holds at "
           "most %L1 files.")
            .arg(static_cast<qulonglong>(core::kMaxFileTreeFiles)));
    markField(m_treeFileSize, m_document->problemsAt(base + ".fileSize"),
        tr("Size of each file, filled with data (never sparse); the region applies within "
           "each file. io_profile's default is 4 MiB."));
    markField(m_treePreInit, m_document->problemsAt(base + ".preInitOperations"),
        tr("Operations over the tree before the first step is measured, done as the first "
           "step's spec does them and recorded nowhere: io_profile warms the file system's "
           "caches so. None: the first step starts cold."));

    QString total = tr("%1 (%n files)", nullptr,
        static_cast<int>(std::min<std::uint64_t>(tree.fileCount(), INT_MAX)))
                        .arg(fileTreeShapeText(tree))
                        .toHtmlEscaped();
    if (const TargetCandidate *c = m_model->rowCandidate(row); c && c->sizeBytes > 0) {
        const QString where
            = c->mountPoints.empty() ? QString() : toQString(c->mountPoints.front());
        total += QStringLiteral(" · ")
            + tr("%1 free on %2").arg(capacityText(c->freeBytes), where).toHtmlEscaped();
        // A tree made there before is replaced or reused: its room counts as free.
        const auto made = m_model->existingTree(target.path);
        if (tree.totalBytes() > c->freeBytes + (made ? made->totalBytes() : 0))
            total += QStringLiteral(" · <span style=\"color:%1\">%2</span>")
                         .arg(errorColor().name(), tr("not enough free space").toHtmlEscaped());
    }
    m_treeTotal->setText(total);
    m_loadingTree = false;
}

void TargetsPage::commitTree()
{
    if (m_loadingTree || m_treeRow < 0)
        return;
    const core::Target *target = m_model->targetAt(m_treeRow);
    if (!target)
        return;
    // A field takes what it shows; a value beyond its range (a profile written by hand)
    // shows clamped and is kept as it is until that field is edited.
    const auto take = [](const QSpinBox *spin, auto &value) {
        using T = std::remove_reference_t<decltype(value)>;
        const auto shown = std::min<std::uint64_t>(value, std::uint64_t(spin->maximum()));
        if (std::uint64_t(spin->value()) != shown)
            value = static_cast<T>(spin->value());
    };
    core::FileTree tree = target->tree;
    take(m_treeDepth, tree.depth);
    take(m_treeFiles, tree.filesPerLevel);
    take(m_treePreInit, tree.preInitOperations);
    tree.fileSizeBytes = m_treeFileSize->bytes();
    m_model->setTree(m_treeRow, tree); // the model's signals bring the panel up to date
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
    const auto &profile = m_document->profile();
    const QString host = managerName(profile, static_cast<std::size_t>(m_document->currentHost()));
    if (!worker)
        m_title->setText(tr("Select a worker in the topology to choose its targets"));
    else if (profile.hosts.size() > 1) // whose worker, among several managers'
        m_title->setText(tr("Targets of %1 on %2").arg(toQString(worker->name), host));
    else
        m_title->setText(tr("Targets of %1").arg(toQString(worker->name)));
    m_remoteNote->setVisible(m_model->remoteHost());
    if (m_model->remoteHost())
        m_remoteNote->setText(m_model->hostCandidates().empty()
                ? tr("These are paths on %1, not on this machine: add one with Add test file… "
                     "or Add file tree… by typing it as that host names it. Bind the manager to "
                     "its agent to have the places it allows listed here.")
                      .arg(host)
                : tr("These are paths on %1, not on this machine: the rows are the places its "
                     "agent allows, as it reported them when it was reached; add others by "
                     "typing them (Add test file…, Add file tree…).")
                      .arg(host));
}

} // namespace ioprism::ui
