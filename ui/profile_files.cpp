// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/profile_files.h"

#include "core/profile/icf.h"
#include "core/profile/profile_file.h"
#include "core/profile/profile_json.h"
#include "ui/format.h"
#include "ui/message_bar.h"
#include "ui/models/profile_document.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QStatusBar>

namespace ioprism::ui {

namespace {
constexpr int kMaxRecentFiles = 8;
} // namespace

ProfileFiles::ProfileFiles(Parts parts)
    : m_parts(std::move(parts))
{ }

bool ProfileFiles::open(const QString &path)
{
    // The loader the CLI uses: bounded reading (a directory, a device or a huge file is
    // refused unread) and the format told by the content, not the name.
    core::Problems problems;
    std::optional<core::Profile> profile
        = core::loadProfileFile(m_parts.services.readFile, toFilesystemPath(path),
            m_parts.services.targetExists, problems, m_parts.services.iometerVolumeIsHere);
    if (!profile && problems.size() == 1 && !QFileInfo(path).isFile()) {
        QStringList files = recentFiles();
        if (files.removeAll(QFileInfo(path).absoluteFilePath()) > 0) {
            QSettings().setValue(QStringLiteral("recentFiles"), files);
            updateRecentMenu();
        }
    }
    QStringList details;
    for (const auto &p : problems) // a problem of the whole file is named after the file
        details << (p.path.empty() ? QFileInfo(path).fileName() + QStringLiteral(": ") : QString())
                + (profile ? problemText(p, *profile) : toQString(p.toString()));
    if (!profile) {
        m_parts.messageBar->showMessage(MessageBar::Level::Error,
            tr("%1 cannot be opened: %2.")
                .arg(QFileInfo(path).fileName(), tr("%n problems", nullptr, int(problems.size()))),
            details.join(QLatin1Char('\n')));
        return false;
    }
    m_parts.document->setProfile(std::move(*profile), path);
    addRecentFile(path);
    if (!problems.empty())
        m_parts.messageBar->showMessage(MessageBar::Level::Warning,
            tr("%1 was opened with %2.")
                .arg(QFileInfo(path).fileName(), tr("%n warnings", nullptr, int(problems.size()))),
            details.join(QLatin1Char('\n')));
    return true;
}

bool ProfileFiles::save(const QString &path)
{
    const bool icf = path.endsWith(QLatin1String(".icf"), Qt::CaseInsensitive);
    core::Problems warnings;
    const std::string text = icf ? core::writeIcf(m_parts.document->profile(), warnings)
                                 : core::writeProfileJson(m_parts.document->profile());
    if (!writeTextFile(path, text))
        return false;
    m_parts.document->setFilePath(path);
    m_parts.document->setModified(false);
    addRecentFile(path);
    if (!warnings.empty()) {
        QStringList details;
        for (const auto &w : warnings)
            details << toQString(w.toString());
        m_parts.messageBar->showMessage(MessageBar::Level::Warning,
            tr("Saved as an Iometer file: %1 the .icf format cannot carry were left out (they stay "
               "in "
               "this window; save as .json to keep them).")
                .arg(tr("%n settings", nullptr, int(warnings.size()))),
            details.join(QLatin1Char('\n')));
    }
    m_parts.window->statusBar()->showMessage(
        tr("Saved %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

bool ProfileFiles::writeTextFile(const QString &path, const std::string &text)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)
        || file.write(text.data(), static_cast<qint64>(text.size()))
            != static_cast<qint64>(text.size())
        || !file.commit()) {
        m_parts.messageBar->showMessage(MessageBar::Level::Error,
            tr("Cannot write %1.").arg(QDir::toNativeSeparators(path)), file.errorString());
        return false;
    }
    return true;
}

void ProfileFiles::askDiscardChanges(const std::function<void()> &then)
{
    if (!m_parts.document->isModified()) {
        then();
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Question, tr("Unsaved changes"),
        tr("The profile has changes that are not saved. Discard them?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, m_parts.window);
    box->setDefaultButton(QMessageBox::Save);
    box->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(box, &QMessageBox::finished, m_parts.window, [this, box, then] {
        const auto choice = box->standardButton(box->clickedButton());
        if (choice == QMessageBox::Discard) {
            then();
        } else if (choice == QMessageBox::Save) {
            if (!m_parts.document->filePath().isEmpty() && save(m_parts.document->filePath()))
                then();
            else
                askSave(true);
        }
    });
    box->open();
}

void ProfileFiles::askOpenPath(const std::function<void(const QString &)> &opened)
{
    const QString dir
        = QSettings().value(QStringLiteral("paths/profiles"), QDir::homePath()).toString();
    auto *dialog = new QFileDialog(m_parts.window, tr("Open a profile"), dir,
        tr("Profiles (*.json *.icf);;IOPrism profiles (*.json);;Iometer "
           "configurations (*.icf);;All files (*)"));
    dialog->setAcceptMode(QFileDialog::AcceptOpen);
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(
        dialog, &QFileDialog::fileSelected, m_parts.window, [opened](const QString &file) {
            QSettings().setValue(QStringLiteral("paths/profiles"), QFileInfo(file).absolutePath());
            opened(file);
        });
    dialog->open();
}

void ProfileFiles::askSave(bool forceDialog, bool preferJson)
{
    const QString current = m_parts.document->filePath();
    const bool currentIsIcf = current.endsWith(QLatin1String(".icf"), Qt::CaseInsensitive);
    if (!forceDialog && !current.isEmpty() && currentIsIcf) {
        // Saving over an .icf drops what the format cannot carry (a spec's own queue depth:
        // Q8T1 becomes QD1 in Iometer): ask first, offering JSON, rather than say so after.
        core::Problems lost;
        core::writeIcf(m_parts.document->profile(), lost);
        if (!lost.empty()) {
            QStringList details;
            for (const auto &w : lost)
                details << QStringLiteral("• ")
                        + problemText(w, m_parts.document->profile()).toHtmlEscaped();
            auto *box = new QMessageBox(QMessageBox::Warning, tr("Save as an Iometer file?"),
                tr("%1 cannot carry %2 of this profile; saving over it leaves them out:<br>%3"
                   "<br><br>Save as an IOPrism profile (.json) to keep them?")
                    .arg(QFileInfo(current).fileName().toHtmlEscaped(),
                        tr("%n settings", nullptr, int(lost.size())),
                        details.join(QStringLiteral("<br>"))),
                QMessageBox::Cancel, m_parts.window);
            box->setObjectName(QStringLiteral("lossyIcfSave"));
            auto *json = box->addButton(tr("Save as JSON…"), QMessageBox::AcceptRole);
            auto *anyway = box->addButton(tr("Leave them out"), QMessageBox::DestructiveRole);
            box->setDefaultButton(json);
            box->setAttribute(Qt::WA_DeleteOnClose);
            QObject::connect(
                box, &QMessageBox::finished, m_parts.window, [this, box, json, anyway, current] {
                    if (box->clickedButton() == json)
                        askSave(true, true);
                    else if (box->clickedButton() == anyway)
                        save(current);
                });
            box->open();
            return;
        }
    }
    if (!forceDialog && !current.isEmpty()) {
        save(current);
        return;
    }
    const QString dir = current.isEmpty()
        ? QSettings().value(QStringLiteral("paths/profiles"), QDir::homePath()).toString()
        : QFileInfo(current).absolutePath();
    const QString json = tr("IOPrism profile (*.json)");
    const QString icf = tr("Iometer configuration (*.icf)");
    auto *dialog = new QFileDialog(
        m_parts.window, tr("Save the profile"), dir, json + QStringLiteral(";;") + icf);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QStringLiteral("json"));
    if (!current.isEmpty())
        dialog->selectFile(preferJson && currentIsIcf
                ? QFileInfo(current).completeBaseName() + QStringLiteral(".json")
                : QFileInfo(current).fileName());
    if (currentIsIcf && !preferJson) {
        dialog->selectNameFilter(icf);
        dialog->setDefaultSuffix(QStringLiteral("icf"));
    }
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(
        dialog, &QFileDialog::filterSelected, dialog, [dialog, icf](const QString &filter) {
            dialog->setDefaultSuffix(
                filter == icf ? QStringLiteral("icf") : QStringLiteral("json"));
        });
    QObject::connect(
        dialog, &QFileDialog::fileSelected, m_parts.window, [this](const QString &file) {
            QSettings().setValue(QStringLiteral("paths/profiles"), QFileInfo(file).absolutePath());
            save(file);
        });
    dialog->open();
}

QStringList ProfileFiles::recentFiles() const
{
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

void ProfileFiles::addRecentFile(const QString &path)
{
    QStringList files = recentFiles();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    QSettings().setValue(QStringLiteral("recentFiles"), files);
    updateRecentMenu();
}

void ProfileFiles::updateRecentMenu()
{
    m_parts.recentMenu->clear();
    const QStringList files = recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        auto *action = m_parts.recentMenu->addAction(
            tr("&%1 %2").arg(i + 1).arg(QFileInfo(files[i]).fileName()));
        action->setToolTip(QDir::toNativeSeparators(files[i]));
        const QString &path = files[i];
        QObject::connect(action, &QAction::triggered, m_parts.window,
            [this, path] { m_parts.openRecent(path); });
    }
    if (!files.isEmpty()) {
        m_parts.recentMenu->addSeparator();
        m_parts.recentMenu->addAction(tr("Clear the list"), m_parts.window, [this] {
            QSettings().remove(QStringLiteral("recentFiles"));
            updateRecentMenu();
        });
    }
    m_parts.recentMenu->setEnabled(!files.isEmpty());
}

} // namespace ioprism::ui
