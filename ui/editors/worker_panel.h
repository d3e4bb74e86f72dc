// SPDX-License-Identifier: GPL-3.0-or-later
// The topology dock: the managers (this host first), their workers and their targets as a
// tree with Iometer's worker buttons (add, duplicate, remove), and the selected worker's
// settings below. Selecting a manager's row, or a row under it, makes it the document's
// current host: the buttons, the settings and the pages then edit its workers.
#pragma once

#include "core/profile/profile.h"

#include <QWidget>

#include <cstdint>
#include <vector>

class QCheckBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
class QToolButton;
class QTreeView;
class QGroupBox;

namespace ioprism::ui {

class DataPatternEditor;
class ProfileDocument;
class SizeEditor;
class TopologyModel;

class WorkerPanel : public QWidget
{
    Q_OBJECT
public:
    explicit WorkerPanel(ProfileDocument *document, QWidget *parent = nullptr);

    TopologyModel *model() const { return m_model; }
    QTreeView *tree() const { return m_tree; }
    // Under "Outstanding I/Os": the depth each assigned spec really runs at, and why
    // (hidden when every step uses the worker's value).
    QLabel *depthNote() const { return m_depthNote; }
    int currentWorker() const { return m_worker; }
    // Iometer's "Test Connection Rate" and "# of Transactions per Connection".
    QCheckBox *connectionRateField() const { return m_connectionRate; }
    QSpinBox *transactionsField() const { return m_transactions; }
    void setCurrentWorker(int worker);

signals:
    void currentWorkerChanged(int worker);

private:
    // The constructor's parts.
    QHBoxLayout *makeButtons();
    void makeSettingsForm();
    void connectTopology();
    void connectSettings();
    void loadWorker();
    void restoreSelection();
    // The document edits another host: its worker (the one selected, else its first).
    void onHostChanged();
    void commit();
    void updateButtons();
    // The text of m_depthNote ("" when every step uses the worker's value).
    QString depthNoteText(const core::Worker &worker) const;

    ProfileDocument *m_document;
    TopologyModel *m_model;
    QTreeView *m_tree;
    QToolButton *m_add;
    QToolButton *m_duplicate;
    QToolButton *m_remove;
    QGroupBox *m_settings;
    QLineEdit *m_name;
    QSpinBox *m_outstanding;
    QLabel *m_depthNote;
    QLineEdit *m_affinity;
    QLineEdit *m_seed;
    DataPatternEditor *m_pattern;
    SizeEditor *m_regionStart;
    SizeEditor *m_regionSize;
    QCheckBox *m_connectionRate;
    QSpinBox *m_transactions;
    int m_worker = -1;
    // While the tree's selection switches the host: the worker it selected (-1: the
    // host's own row).
    int m_pendingWorker = -1;
    bool m_loading = false;
};

// "0-3,8" -> {0,1,2,3,8}; false when the text is not such a list.
bool parseCpuList(const QString &text, std::vector<std::uint32_t> &cpus);
QString cpuListText(const std::vector<std::uint32_t> &cpus);

} // namespace ioprism::ui
