// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/specs_page.h"

#include "core/profile/validation.h"
#include "ui/editors/editors.h"
#include "ui/editors/field_marks.h"
#include "ui/format.h"
#include "ui/icons.h"
#include "ui/models/assigned_specs_model.h"
#include "ui/models/profile_document.h"
#include "ui/models/spec_library_model.h"
#include "ui/models/spec_lines_model.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace ioprism::ui {

namespace {

QToolButton *button(QWidget *parent, IconId id, const QString &text, const QString &tip)
{
    auto *b = new QToolButton(parent);
    b->setIcon(icon(id));
    b->setText(text);
    b->setToolTip(tip);
    b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    return b;
}

} // namespace

SpecsPage::SpecsPage(ProfileDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_library(new SpecLibraryModel(document, this))
    , m_assigned(new AssignedSpecsModel(document, this))
    , m_lines(new SpecLinesModel(document, this))
    , m_libraryTable(new QTableView(this))
    , m_assignedList(new QTableView(this))
    , m_linesTable(new QTableView(this))
    , m_editor(new QGroupBox(this))
    , m_name(new QLineEdit(this))
    , m_queueDepth(new QSpinBox(this))
    , m_threads(new QSpinBox(this))
    , m_presetHint(new QLabel(this))
    , m_copyPreset(new QPushButton(tr("Copy to my specs"), this))
    , m_assignedTitle(new QLabel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    layout->addWidget(splitter);

    // ---- library | assign buttons | assigned. Made in this order, which is the order
    // of the focus chain (Tab).
    auto *top = new QWidget(splitter);
    auto *topLayout = new QHBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(makeLibraryBox(top), 3);
    topLayout->addLayout(makeAssignButtons(top));
    topLayout->addWidget(makeAssignedBox(top), 2);

    // ---- spec editor
    auto *editorLayout = new QVBoxLayout(m_editor);
    editorLayout->addLayout(makeSpecSettings());
    editorLayout->addLayout(makePresetHint());
    editorLayout->addWidget(makeLinesTable(), 1);
    editorLayout->addLayout(makeLineButtons());

    splitter->addWidget(top);
    splitter->addWidget(m_editor);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);

    connectDocument();
    restoreLibrarySelection();
}

// The library's table (the profile's specs, then the presets') and its New, Duplicate
// and Delete buttons.
QGroupBox *SpecsPage::makeLibraryBox(QWidget *parent)
{
    auto *libraryBox = new QGroupBox(tr("Library"), parent);
    auto *libraryLayout = new QVBoxLayout(libraryBox);
    m_libraryTable->setModel(m_library);
    m_libraryTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_libraryTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_libraryTable->setEditTriggers(
        QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
    m_libraryTable->verticalHeader()->hide();
    m_libraryTable->setWordWrap(false);
    m_libraryTable->horizontalHeader()->setSectionResizeMode(
        SpecLibraryModel::NameColumn, QHeaderView::Interactive);
    m_libraryTable->horizontalHeader()->setSectionResizeMode(
        SpecLibraryModel::SummaryColumn, QHeaderView::Stretch);
    m_libraryTable->horizontalHeader()->setSectionResizeMode(
        SpecLibraryModel::SourceColumn, QHeaderView::ResizeToContents);
    m_libraryTable->setColumnWidth(SpecLibraryModel::NameColumn, 200);
    m_libraryTable->setToolTip(tr("The profile's specifications, then the presets' (in italics). "
                                  "Select one to edit it below; double-click to assign it."));
    libraryLayout->addWidget(m_libraryTable);
    auto *libraryButtons = new QHBoxLayout;
    auto *newSpec = button(
        libraryBox, IconId::Add, tr("New"), tr("A new specification with one default line"));
    auto *duplicateSpec = button(libraryBox, IconId::Duplicate, tr("Duplicate"),
        tr("A copy of the selected specification in this profile"));
    auto *deleteSpec = button(libraryBox, IconId::Remove, tr("Delete"),
        tr("Delete the selected specification from this profile (and from every worker)"));
    libraryButtons->addWidget(newSpec);
    libraryButtons->addWidget(duplicateSpec);
    libraryButtons->addWidget(deleteSpec);
    libraryButtons->addStretch();
    libraryLayout->addLayout(libraryButtons);

    connect(newSpec, &QToolButton::clicked, this, [this] {
        const int spec = m_library->addSpec();
        selectSpec(m_document->profile().specs[static_cast<std::size_t>(spec)].name);
    });
    connect(duplicateSpec, &QToolButton::clicked, this, [this] {
        const int spec = m_library->duplicateSpec(currentLibraryRow());
        if (spec >= 0)
            selectSpec(m_document->profile().specs[static_cast<std::size_t>(spec)].name);
    });
    connect(deleteSpec, &QToolButton::clicked, this, [this] {
        const int row = currentLibraryRow();
        if (m_library->removeSpec(row)) {
            m_currentSpec.clear();
            const int next = std::min(row, m_library->rowCount() - 1);
            if (next >= 0)
                m_libraryTable->selectRow(next);
        }
    });
    // A double-click on a name it may edit renames the spec; anywhere else it assigns.
    connect(m_libraryTable, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        if (index.column() != SpecLibraryModel::NameColumn || !(index.flags() & Qt::ItemIsEditable))
            assignSelected();
    });
    return libraryBox;
}

// Assign and Remove, between the library and the worker's run order.
QVBoxLayout *SpecsPage::makeAssignButtons(QWidget *parent)
{
    auto *middle = new QVBoxLayout;
    middle->addStretch();
    auto *assign = button(parent, IconId::Assign, tr("Assign"),
        tr("Append the selected spec to the worker's run order"));
    auto *unassign = button(parent, IconId::Unassign, tr("Remove"),
        tr("Remove the selected step from the worker's run order"));
    middle->addWidget(assign);
    middle->addWidget(unassign);
    middle->addStretch();
    connect(assign, &QToolButton::clicked, this, &SpecsPage::assignSelected);
    connect(unassign, &QToolButton::clicked, this, [this] {
        const QModelIndex current = m_assignedList->currentIndex();
        if (current.isValid())
            m_assigned->removeRows(current.row(), 1);
    });
    return middle;
}

// The selected worker's run order, with Up and Down to reorder it.
QGroupBox *SpecsPage::makeAssignedBox(QWidget *parent)
{
    auto *assignedBox = new QGroupBox(tr("Assigned to the worker"), parent);
    auto *assignedLayout = new QVBoxLayout(assignedBox);
    assignedLayout->addWidget(m_assignedTitle);
    m_assignedList->setModel(m_assigned);
    m_assignedList->setSelectionMode(QAbstractItemView::SingleSelection);
    m_assignedList->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_assignedList->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_assignedList->horizontalHeader()->setStretchLastSection(true);
    m_assignedList->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_assignedList->setToolTip(tr("The selected worker's specs in run order: step N of a run is "
                                  "every worker's Nth spec"));
    assignedLayout->addWidget(m_assignedList);
    auto *orderButtons = new QHBoxLayout;
    auto *up = button(assignedBox, IconId::Up, tr("Up"), tr("Run this spec earlier"));
    auto *down = button(assignedBox, IconId::Down, tr("Down"), tr("Run this spec later"));
    orderButtons->addWidget(up);
    orderButtons->addWidget(down);
    orderButtons->addStretch();
    assignedLayout->addLayout(orderButtons);
    connect(up, &QToolButton::clicked, this, [this] {
        const int row = m_assignedList->currentIndex().row();
        if (m_assigned->moveUp(row))
            m_assignedList->setCurrentIndex(m_assigned->index(row - 1));
    });
    connect(down, &QToolButton::clicked, this, [this] {
        const int row = m_assignedList->currentIndex().row();
        if (m_assigned->moveDown(row))
            m_assignedList->setCurrentIndex(m_assigned->index(row + 1));
    });
    return assignedBox;
}

// The spec's own settings: name, queue depth and threads, each committed when changed.
QHBoxLayout *SpecsPage::makeSpecSettings()
{
    auto *settings = new QHBoxLayout;
    auto *nameLabel = new QLabel(tr("&Name:"), m_editor);
    nameLabel->setBuddy(m_name);
    settings->addWidget(nameLabel);
    settings->addWidget(m_name, 2);
    auto *qdLabel = new QLabel(tr("&Queue depth:"), m_editor);
    qdLabel->setBuddy(m_queueDepth);
    settings->addWidget(qdLabel);
    m_queueDepth->setRange(0, 99999);
    m_queueDepth->setSpecialValueText(tr("worker's"));
    settings->addWidget(m_queueDepth);
    auto *threadsLabel = new QLabel(tr("&Threads:"), m_editor);
    threadsLabel->setBuddy(m_threads);
    settings->addWidget(threadsLabel);
    m_threads->setRange(0, 9999);
    m_threads->setSpecialValueText(tr("1"));
    settings->addWidget(m_threads);
    return settings;
}

// A preset is read-only: the hint says so, beside the button that copies it into the
// profile to edit.
QHBoxLayout *SpecsPage::makePresetHint()
{
    auto *hint = new QHBoxLayout;
    m_presetHint->setWordWrap(true);
    hint->addWidget(m_presetHint, 1);
    m_copyPreset->setIcon(icon(IconId::Duplicate));
    m_copyPreset->setToolTip(tr("Copy this built-in spec into the profile to edit it"));
    hint->addWidget(m_copyPreset);
    connect(m_copyPreset, &QPushButton::clicked, this, [this] {
        const int spec = m_library->adoptSpec(currentLibraryRow());
        if (spec >= 0)
            selectSpec(m_document->profile().specs[static_cast<std::size_t>(spec)].name);
    });
    return hint;
}

QTableView *SpecsPage::makeLinesTable()
{
    m_linesTable->setModel(m_lines);
    m_linesTable->setItemDelegate(new SpecLineDelegate(m_linesTable));
    m_linesTable->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_linesTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_linesTable->setEditTriggers(QAbstractItemView::DoubleClicked
        | QAbstractItemView::EditKeyPressed | QAbstractItemView::AnyKeyPressed);
    m_linesTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_linesTable->horizontalHeader()->setMinimumSectionSize(70);
    m_linesTable->setToolTip(tr("The spec's lines. Double-click a cell (or type) to edit it; a red "
                                "cell has a problem, named in its tooltip."));
    return m_linesTable;
}

// Add, remove and move the spec's lines; they act on the line of the current cell and
// keep the cell's column when a line moves. Kept in m_lineButtons, as a preset's lines
// cannot be edited.
QHBoxLayout *SpecsPage::makeLineButtons()
{
    auto *lineButtons = new QHBoxLayout;
    auto *addLine = button(
        m_editor, IconId::Add, tr("Add line"), tr("Add a line after the selected one (up to 100)"));
    auto *removeLine
        = button(m_editor, IconId::Remove, tr("Remove line"), tr("Remove the selected line"));
    auto *lineUp = button(m_editor, IconId::Up, tr("Up"), tr("Move the selected line up"));
    auto *lineDown = button(m_editor, IconId::Down, tr("Down"), tr("Move the selected line down"));
    m_lineButtons = {addLine, removeLine, lineUp, lineDown};
    lineButtons->addWidget(addLine);
    lineButtons->addWidget(removeLine);
    lineButtons->addWidget(lineUp);
    lineButtons->addWidget(lineDown);
    lineButtons->addStretch();

    auto currentLine = [this] {
        return m_linesTable->currentIndex().isValid() ? m_linesTable->currentIndex().row() : -1;
    };
    connect(addLine, &QToolButton::clicked, this, [this, currentLine] {
        const int row = m_lines->addLine(currentLine());
        if (row >= 0)
            m_linesTable->setCurrentIndex(m_lines->index(row, 0));
    });
    connect(removeLine, &QToolButton::clicked, this, [this, currentLine] {
        const int row = currentLine();
        if (row >= 0)
            m_lines->removeRows(row, 1);
    });
    connect(lineUp, &QToolButton::clicked, this, [this, currentLine] {
        const int row = currentLine();
        const int column = m_linesTable->currentIndex().column();
        if (m_lines->moveUp(row))
            m_linesTable->setCurrentIndex(m_lines->index(row - 1, column));
    });
    connect(lineDown, &QToolButton::clicked, this, [this, currentLine] {
        const int row = currentLine();
        const int column = m_linesTable->currentIndex().column();
        if (m_lines->moveDown(row))
            m_linesTable->setCurrentIndex(m_lines->index(row + 1, column));
    });
    return lineButtons;
}

// The library's selection loads the editor; the editor's fields commit into the
// document; the document's changes redraw the editor and the run order's title.
void SpecsPage::connectDocument()
{
    connect(m_libraryTable->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &SpecsPage::onLibrarySelection);
    connect(m_library, &QAbstractItemModel::modelReset, this, &SpecsPage::restoreLibrarySelection);
    connect(m_name, &QLineEdit::editingFinished, this, &SpecsPage::commitSpecSettings);
    connect(m_queueDepth, &QSpinBox::valueChanged, this, &SpecsPage::commitSpecSettings);
    connect(m_threads, &QSpinBox::valueChanged, this, &SpecsPage::commitSpecSettings);
    connect(m_document, &ProfileDocument::problemsChanged, this, &SpecsPage::loadSpecEditor);
    connect(m_document, &ProfileDocument::valuesChanged, this, &SpecsPage::updateAssignedTitle);
}

int SpecsPage::currentLibraryRow() const
{
    const auto rows = m_libraryTable->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : rows.first().row();
}

void SpecsPage::setWorker(int worker)
{
    m_assigned->setWorker(worker);
    updateAssignedTitle();
}

void SpecsPage::updateAssignedTitle()
{
    const auto *worker = m_document->worker(m_assigned->worker());
    const auto &profile = m_document->profile();
    if (!worker)
        m_assignedTitle->setText(tr("No worker selected"));
    else if (profile.hosts.size() > 1) // whose worker, among several managers'
        m_assignedTitle->setText(
            tr("Run order of %1 on %2:")
                .arg(toQString(worker->name),
                    managerName(profile, static_cast<std::size_t>(m_document->currentHost()))));
    else
        m_assignedTitle->setText(tr("Run order of %1:").arg(toQString(worker->name)));
}

void SpecsPage::selectSpec(const std::string &name)
{
    const int row = m_library->rowOfName(name);
    if (row < 0)
        return;
    m_currentSpec = name;
    m_libraryTable->selectRow(row);
    m_libraryTable->scrollTo(m_library->index(row, 0));
    onLibrarySelection();
}

void SpecsPage::restoreLibrarySelection()
{
    int row = m_currentSpec.empty() ? -1 : m_library->rowOfName(m_currentSpec);
    if (row < 0 && m_library->rowCount() > 0)
        row = 0;
    if (row >= 0) {
        const QSignalBlocker block(m_libraryTable->selectionModel());
        m_libraryTable->selectRow(row);
    }
    onLibrarySelection();
}

void SpecsPage::onLibrarySelection()
{
    const int row = currentLibraryRow();
    if (row >= 0)
        m_currentSpec = toStdString(
            m_library->data(m_library->index(row, 0), SpecLibraryModel::SpecNameRole).toString());
    const int spec = row >= 0 ? m_library->profileSpec(row) : -1;
    // A built-in spec shows its lines, read-only: what it does is visible before it is
    // copied or assigned.
    if (const auto *builtIn = m_library->specAt(row); spec < 0 && builtIn)
        m_lines->showReadOnly(*builtIn);
    else
        m_lines->setSpec(spec);
    loadSpecEditor();
}

void SpecsPage::loadSpecEditor()
{
    const int row = currentLibraryRow();
    const int spec = row >= 0 ? m_library->profileSpec(row) : -1;
    const bool preset = row >= 0 && spec < 0;
    m_presetHint->setVisible(preset);
    m_copyPreset->setVisible(preset);
    if (preset)
        m_presetHint->setText(
            tr("\"%1\" is a built-in spec (%2), its lines shown read-only. Copy it to your "
               "specs to edit it, or assign it: assigning copies it too.")
                .arg(toQString(m_currentSpec),
                    m_library->data(m_library->index(row, SpecLibraryModel::SourceColumn))
                        .toString()));
    m_name->setEnabled(spec >= 0);
    m_queueDepth->setEnabled(spec >= 0);
    m_threads->setEnabled(spec >= 0);
    m_linesTable->setEnabled(row >= 0);
    for (auto *lineButton : m_lineButtons)
        lineButton->setEnabled(spec >= 0);
    const QString nameHelp = tr("The spec's name; workers refer to it by name");
    const QString queueDepthHelp = tr(
        "CrystalDiskMark-style queue depth (the Q in Q32T1): every worker running this "
        "spec keeps this many I/Os in flight per target. \"worker's\" = the worker's setting.");
    const QString threadsHelp = tr("CrystalDiskMark-style threads (the T in Q32T16): the spec runs "
                                   "on this many copies of each assigned worker");
    if (spec < 0) {
        // Disabled without a spec of the profile, and still explained.
        markField(m_name, {}, nameHelp);
        markField(m_queueDepth, {}, queueDepthHelp);
        markField(m_threads, {}, threadsHelp);
        m_editor->setTitle(
            row < 0 ? tr("No specification selected") : tr("Built-in specification"));
        return;
    }
    m_loading = true;
    const auto &s = m_document->profile().specs[static_cast<std::size_t>(spec)];
    m_editor->setTitle(tr("Specification \"%1\"").arg(toQString(s.name)));
    if (!m_name->hasFocus())
        m_name->setText(toQString(s.name));
    {
        const QSignalBlocker a(m_queueDepth), b(m_threads);
        m_queueDepth->setValue(s.queueDepth ? static_cast<int>(*s.queueDepth) : 0);
        m_threads->setValue(s.threads ? static_cast<int>(*s.threads) : 0);
    }
    const std::string path = ProfileDocument::specPath(static_cast<std::size_t>(spec));
    markField(m_name, m_document->problemsAt(path + ".name"), nameHelp);
    markField(m_queueDepth, m_document->problemsAt(path + ".queueDepth"), queueDepthHelp);
    markField(m_threads, m_document->problemsAt(path + ".threads"), threadsHelp);
    m_loading = false;
}

void SpecsPage::commitSpecSettings()
{
    if (m_loading)
        return;
    const int row = currentLibraryRow();
    const int spec = row >= 0 ? m_library->profileSpec(row) : -1;
    if (spec < 0)
        return;
    auto &s = m_document->mutableProfile().specs[static_cast<std::size_t>(spec)];
    std::optional<std::uint32_t> qd, threads;
    if (m_queueDepth->value() > 0)
        qd = static_cast<std::uint32_t>(m_queueDepth->value());
    if (m_threads->value() > 0)
        threads = static_cast<std::uint32_t>(m_threads->value());
    if (qd != s.queueDepth || threads != s.threads) {
        s.queueDepth = qd;
        s.threads = threads;
        m_document->commitValues(this);
    }
    const std::string name = toStdString(m_name->text().trimmed());
    if (!name.empty() && name != s.name) {
        const std::string old = m_currentSpec;
        m_currentSpec = name; // the library resets on a rename: reselect by the new name
        if (!m_library->setData(
                m_library->index(row, SpecLibraryModel::NameColumn), toQString(name))) {
            m_currentSpec = old;
            markUnreadable(m_name,
                tr("\"%1\" is already the name of another spec").arg(toQString(name)),
                tr("The spec's name; workers refer to it by name"));
        }
    }
}

void SpecsPage::assignSelected()
{
    const int row = currentLibraryRow();
    if (row < 0 || !m_document->worker(m_assigned->worker()))
        return;
    const int spec = m_library->adoptSpec(row); // a preset's spec becomes the profile's
    if (spec < 0)
        return;
    const std::string name = m_document->profile().specs[static_cast<std::size_t>(spec)].name;
    const int at = m_assigned->assign(name);
    if (at >= 0)
        m_assignedList->setCurrentIndex(m_assigned->index(at));
    selectSpec(name);
}

} // namespace ioprism::ui
