// SPDX-License-Identifier: GPL-3.0-or-later
// The Access Specifications page: the library (the profile's specs and the presets')
// beside the selected worker's ordered assignment, and the editor of the selected spec:
// name, CrystalDiskMark-style queue depth and threads, and its lines.
#pragma once

#include <QWidget>

#include <string>
#include <vector>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class QToolButton;
class QGroupBox;
class QHBoxLayout;
class QVBoxLayout;

namespace ioprism::ui {

class AssignedSpecsModel;
class ProfileDocument;
class SpecLibraryModel;
class SpecLinesModel;

class SpecsPage : public QWidget
{
    Q_OBJECT
public:
    explicit SpecsPage(ProfileDocument *document, QWidget *parent = nullptr);

    SpecLibraryModel *libraryModel() const { return m_library; }
    AssignedSpecsModel *assignedModel() const { return m_assigned; }
    SpecLinesModel *linesModel() const { return m_lines; }
    QTableView *linesTable() const { return m_linesTable; }
    QTableView *libraryTable() const { return m_libraryTable; }

    void setWorker(int worker);
    // Selects a spec of the library by name (the editor follows).
    void selectSpec(const std::string &name);

private:
    // "Run order of Worker 1:" (with its manager when the profile has several).
    void updateAssignedTitle();
    // The constructor's parts, made in the order of the focus chain.
    QGroupBox *makeLibraryBox(QWidget *parent);
    QVBoxLayout *makeAssignButtons(QWidget *parent);
    QGroupBox *makeAssignedBox(QWidget *parent);
    QHBoxLayout *makeSpecSettings();
    QHBoxLayout *makePresetHint();
    QTableView *makeLinesTable();
    QHBoxLayout *makeLineButtons();
    void connectDocument();
    void onLibrarySelection();
    void loadSpecEditor();
    void commitSpecSettings();
    void restoreLibrarySelection();
    void assignSelected();
    int currentLibraryRow() const;

    ProfileDocument *m_document;
    SpecLibraryModel *m_library;
    AssignedSpecsModel *m_assigned;
    SpecLinesModel *m_lines;
    QTableView *m_libraryTable;
    QTableView *m_assignedList;
    QTableView *m_linesTable;
    QGroupBox *m_editor;
    QLineEdit *m_name;
    QSpinBox *m_queueDepth;
    QSpinBox *m_threads;
    QLabel *m_presetHint;
    QPushButton *m_copyPreset;
    std::vector<QWidget *> m_lineButtons; // add, remove, up, down: for the profile's specs
    QLabel *m_assignedTitle;
    std::string m_currentSpec; // library selection, by name (rows move on resets)
    bool m_loading = false;
};

} // namespace ioprism::ui
