// SPDX-License-Identifier: GPL-3.0-or-later
// The Targets page (Iometer's "Disk Targets"): disks, partitions and test-file locations
// of this machine, ticked for the selected worker, with per-target settings.
#pragma once

#include <QWidget>

#include <functional>

class QLabel;
class QTableView;

namespace ioprism::ui {

class ProfileDocument;
class TargetsModel;

class TargetsPage : public QWidget
{
    Q_OBJECT
public:
    explicit TargetsPage(ProfileDocument *document, QWidget *parent = nullptr);

    TargetsModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    void setWorker(int worker);

signals:
    void refreshRequested();
    void addTestFileRequested();
    // The user asked to point the target of this model row at another device or file.
    void repointRequested(int row);

private:
    void updateTitle();
    void showContextMenu(const QPoint &pos);

    ProfileDocument *m_document;
    TargetsModel *m_model;
    QTableView *m_table;
    QLabel *m_title;
};

} // namespace ioprism::ui
