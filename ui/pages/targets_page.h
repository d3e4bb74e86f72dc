// SPDX-License-Identifier: GPL-3.0-or-later
// The Targets page (Iometer's "Disk Targets"): disks, partitions and test-file locations
// of this machine, ticked for the selected worker, with per-target settings. A file tree's
// shape (levels, files per level, file size, pre-initialisation) is edited in a panel
// under the table, with its total and the free space of its file system: four numbers
// do not fit one cell, and the total is what the user weighs against the free space.
#pragma once

#include <QWidget>

#include <functional>
#include <memory>

class QGroupBox;
class QLabel;
class QSpinBox;
class QTableView;

namespace ioprism::ui {

class ProfileDocument;
class SizeEditor;
class TargetDialogs;
class TargetsModel;

class TargetsPage : public QWidget
{
    Q_OBJECT
public:
    explicit TargetsPage(ProfileDocument *document, QWidget *parent = nullptr);
    ~TargetsPage() override;

    // The page's questions (adding, re-pointing, writing raw devices), which the window
    // asks too: before a run, whether the devices may be written.
    TargetDialogs *dialogs() const { return m_dialogs.get(); }

    TargetsModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    void setWorker(int worker);

    // The file tree panel: hidden unless the worker has a tree. It edits the tree of the
    // current row, or the worker's first tree when the current row is none.
    QGroupBox *treePanel() const { return m_treeBox; }
    int treeRow() const { return m_treeRow; } // the model row it edits; -1: none
    QSpinBox *treeDepthField() const { return m_treeDepth; }
    QSpinBox *treeFilesField() const { return m_treeFiles; }
    SizeEditor *treeFileSizeField() const { return m_treeFileSize; }
    QSpinBox *treePreInitField() const { return m_treePreInit; }
    QLabel *treeTotal() const { return m_treeTotal; }

signals:
    void refreshRequested();
    void addTestFileRequested();
    void addFileTreeRequested();
    // The user asked to point the target of this model row at another device or file.
    void repointRequested(int row);

private:
    void setUpTable();
    void updateTitle();
    void showContextMenu(const QPoint &pos);
    QGroupBox *makeTreePanel();
    void loadTree();
    void commitTree();

    ProfileDocument *m_document;
    TargetsModel *m_model;
    QTableView *m_table;
    QLabel *m_title;
    QLabel *m_remoteNote; // shown for another manager's worker: whose paths these are
    QGroupBox *m_treeBox = nullptr;
    QSpinBox *m_treeDepth = nullptr;
    QSpinBox *m_treeFiles = nullptr;
    SizeEditor *m_treeFileSize = nullptr;
    QSpinBox *m_treePreInit = nullptr;
    QLabel *m_treeTotal = nullptr;
    int m_treeRow = -1;
    bool m_loadingTree = false;
    std::unique_ptr<TargetDialogs> m_dialogs;
};

} // namespace ioprism::ui
