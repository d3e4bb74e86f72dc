// SPDX-License-Identifier: GPL-3.0-or-later
// What the GUI tests of managers on other hosts do as a user: Add Manager… and Bind to
// Agent… through the dialog, a run to its end, the message bar read. Shared by the tests
// with in-process agents (agents_test.cpp) and with real ioprism-agent processes
// (linux_agents_test.cpp).
#pragma once

#include "support/test_support.h"
#include "ui/main_window.h"
#include "ui/message_bar.h"
#include "ui/models/managers.h"
#include "ui/models/profile_document.h"
#include "ui/pages/manager_dialog.h"
#include "ui/run/run_controller.h"

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>

#include <fstream>
#include <gtest/gtest.h>
#include <string>

#include "ui_test_support.h"

namespace ioprism::ui {

using namespace std::chrono_literals;

inline MainWindowOptions withLibrary(const test::TempDir &dir)
{
    MainWindowOptions options = test::isolatedOptions(dir.path());
    options.runLibraryDirectory = QString::fromStdString((dir.path() / "runs").string());
    return options;
}

inline std::string tokenFile(const test::TempDir &dir, const std::string &token)
{
    const auto path = dir.path() / ("token-" + token);
    std::ofstream(path) << token << "\n";
    return path.string();
}

// Add Manager… as a user does it: the dialog, its fields, Connect; then waits for the
// answer (delivered queued from the connecting thread). True when the manager was added.
inline bool addManager(MainWindow &window, const std::string &address, const std::string &token,
    QString *error = nullptr)
{
    ManagerDialog *dialog = window.askManager(0);
    if (!dialog)
        return false;
    QPointer<ManagerDialog> guard(dialog);
    dialog->addressField()->setText(QString::fromStdString(address));
    dialog->tokenFileField()->setText(QString::fromStdString(token));
    dialog->plaintextField()->setChecked(true);
    const auto before = window.document()->profile().hosts.size();
    dialog->connectToManager();
    EXPECT_TRUE(test::waitUntil([&] { return !guard || !guard->isConnecting(); }, 60s));
    if (guard && error)
        *error = guard->errorLabel()->text();
    const bool added = window.document()->profile().hosts.size() > before;
    if (guard)
        guard->reject();
    return added;
}

inline RunResultPtr runOnce(MainWindow &window)
{
    RunResultPtr finished;
    auto connection = QObject::connect(
        &window, &MainWindow::runFinished, [&](RunResultPtr r) { finished = r; });
    EXPECT_TRUE(window.startRun()) << window.messageBar()->currentText().toStdString();
    EXPECT_TRUE(test::waitUntil([&] { return finished != nullptr; }, 120s));
    QObject::disconnect(connection);
    return finished;
}

// True when a message the bar shows now (the first or a stacked one) contains `text`.
inline bool barSays(MainWindow &window, const QString &text)
{
    MessageBar *bar = window.messageBar();
    for (int i = 0; i < bar->shownCount(); ++i)
        if (bar->textAt(i).contains(text))
            return true;
    return false;
}

inline std::uint64_t ios(const core::ScopeResult &scope)
{
    return scope.measurement.read.histogram.count() + scope.measurement.write.histogram.count();
}

} // namespace ioprism::ui
