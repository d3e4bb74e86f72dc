// SPDX-License-Identifier: GPL-3.0-or-later
// The profile's files: open (.json or an Iometer .icf, through the loader the CLI uses),
// save (with the question before an .icf drops what it cannot carry), the question
// before unsaved edits are discarded, and File › Open Recent. The window decides what a
// file is (a results file goes elsewhere) and what follows; this object reads, writes
// and asks.
//
// Every dialog is window-modal and asynchronous (open(), never exec()). Not a QObject:
// its texts keep MainWindow's translation context, where the German .ts files carry them.
#pragma once

#include "ui/platform_services.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <functional>
#include <string>

class QMainWindow;
class QMenu;

namespace ioprism::ui {

class MessageBar;
class ProfileDocument;

class ProfileFiles
{
    Q_DECLARE_TR_FUNCTIONS(ioprism::ui::MainWindow)
public:
    struct Parts {
        QMainWindow *window = nullptr; // the dialogs' parent; its status bar says "Saved"
        ProfileDocument *document = nullptr;
        MessageBar *messageBar = nullptr;
        PlatformServices services; // the bounded file reader and the target checks
        QMenu *recentMenu = nullptr; // File › Open Recent, set once the menu is made
        std::function<void(const QString &path)> openRecent; // a recent file chosen
    };
    explicit ProfileFiles(Parts parts);
    void setRecentMenu(QMenu *menu) { m_parts.recentMenu = menu; }

    // A profile file into the document; false (the problems in the message bar) when it
    // cannot be read.
    bool open(const QString &path);
    // The document into `path`: .json, or an .icf export (what it leaves out is said).
    bool save(const QString &path);
    // Saves to the profile's file, or asks where (always with forceDialog); over an .icf
    // that cannot carry the whole profile, asks first and offers JSON (preferJson then
    // proposes the same name as .json).
    void askSave(bool forceDialog, bool preferJson = false);
    // With unsaved edits, asks (Save, Discard, Cancel) before `then`.
    void askDiscardChanges(const std::function<void()> &then);
    // The open dialog; `opened(path)` with the file chosen.
    void askOpenPath(const std::function<void(const QString &path)> &opened);

    QStringList recentFiles() const;
    void addRecentFile(const QString &path);
    void updateRecentMenu();
    // `text` into `path`, whole or not at all; false with why in the message bar.
    bool writeTextFile(const QString &path, const std::string &text);

private:
    Parts m_parts;
};

} // namespace ioprism::ui
