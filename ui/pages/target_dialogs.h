// SPDX-License-Identifier: GPL-3.0-or-later
// The Targets page's questions: where a test file or a file tree goes, whether a new
// target replaces the worker's others, where a target is re-pointed, and, before a run,
// whether raw devices may be opened and written (refused while in use, else confirmed:
// "Destroy the data and run"). The window asks; this object asks the user.
//
// Every dialog is window-modal and asynchronous (open(), never exec()): an answer comes
// back through a callback. The texts keep MainWindow's translation context, where the
// German .ts files carry them.
#pragma once

#include "core/profile/profile.h"
#include "ui/platform_services.h"

#include <QCoreApplication>
#include <QString>

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace ioprism::ui {

class MessageBar;
class ProfileDocument;
class TargetsPage;

class TargetDialogs
{
    Q_DECLARE_TR_FUNCTIONS(ioprism::ui::MainWindow)
public:
    // What the dialogs need from the window: the user's data folder (test files go there
    // first), the platform's target checks and the bar where they say what happened.
    struct Context {
        QString dataDirectory;
        std::function<core::TargetKind(const std::string &)> detectTargetKind;
        FileHeadReader readFileHead;
        std::function<core::TargetAccess(const std::string &path, bool write)> targetAccess;
        MessageBar *messageBar = nullptr;
        // A Denied target that administrator rights would open (PlatformServices), and
        // what restarts the window with them; either empty: no restart is offered.
        std::function<bool(const core::Target &)> needsElevation;
        std::function<void()> restartElevated;
    };

    TargetDialogs(TargetsPage *page, ProfileDocument *document);
    void setContext(Context context) { m_context = std::move(context); }

    // Asks where a test file goes, then adds it (addTestFile). For another manager's
    // worker (TargetsModel::remoteHost), asks for a path typed: the file dialogs of this
    // machine cannot show that host's files.
    void askTestFile();
    // Asks for the folder of a file tree, then adds it (addFileTree).
    void askFileTreeFolder();
    // Assigns a test file to the selected worker: when the worker has other targets,
    // asks whether the file replaces them or joins them ("addTestFileDialog").
    void addTestFile(const std::string &path);
    // Assigns a file tree chosen in `folder` to the selected worker (fileTreePlace's
    // rule); asks like addTestFile ("addFileTreeDialog").
    void addFileTree(const std::string &folder);
    // Asks where the target of a Targets-page row should point ("repointDialog").
    void askRepoint(int row);

    // Raw devices the profile cannot use as it is: one this user may not open, not even
    // through the broker (Denied; Broker passes: the run asks the user then), or one a
    // spec writes while it is in use. Says why in the message bar under `topic` and
    // returns true; false when nothing stands in the way. When administrator rights would
    // open the devices refused (Windows), also asks whether to restart with them
    // ("restartElevatedDialog"; Restart as Administrator calls Context::restartElevated).
    bool refuseDevices(const QString &topic);
    // Before raw devices are written: asks the user ("Destroy the data and run") and
    // calls `run(true)` when they agree; with no raw device written, `run(false)` at once.
    void confirmDeviceWrites(const std::function<void(bool allowDeviceWrites)> &run);

private:
    struct DeviceWrites {
        QStringList refused; // in use: "path: mounted at /mnt"
        QStringList confirm; // to confirm: "<b>path</b>, size, model, contents"
        bool broker = false; // one of them is opened through the broker (udisks2)
    };
    DeviceWrites deviceWrites() const;
    QString deviceLine(const QString &path, const TargetCandidate *candidate) const;
    QStringList deniedDevices();
    void askRestartElevated(const QStringList &devices);
    // Another manager's path, typed ("remotePathDialog"): a test file or a device, or with
    // `tree` the folder of a file tree.
    void askRemotePath(bool tree);
    void addTarget(const std::string &path, core::TargetKind kind,
        const std::optional<core::FileTree> &tree, const QString &dialogName);
    QWidget *window() const;

    TargetsPage *m_page;
    ProfileDocument *m_document;
    Context m_context;
    // How each raw target of the profile can be opened, as the last check before Start
    // found (deniedDevices): the question that follows says when the broker will ask,
    // without asking the broker again.
    std::map<std::string, core::TargetAccess> m_checked;
    // The Denied devices of that check that administrator rights would open.
    QStringList m_needElevation;
};

} // namespace ioprism::ui
