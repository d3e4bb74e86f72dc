// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/target_dialogs.h"

#include "core/profile/validation.h"
#include "ui/format.h"
#include "ui/message_bar.h"
#include "ui/models/profile_defaults.h"
#include "ui/models/profile_document.h"
#include "ui/models/targets_model.h"
#include "ui/pages/targets_page.h"

#include <QDir>
#include <QFileDialog>
#include <QInputDialog>
#include <QMessageBox>
#include <QPushButton>

namespace ioprism::ui {

namespace {
// Whether the worker's targets are written: a spec it runs writes, or the run
// preconditions every target first (core/run/precondition.h), whatever the specs do.
bool workerWrites(const core::Profile &profile, const core::Worker &worker)
{
    if (profile.setup.precondition)
        return true;
    for (const auto &name : worker.assignedSpecs)
        if (const auto *spec = core::findSpec(profile, name); spec && core::specWrites(*spec))
            return true;
    return false;
}

// A path typed for another host: a device by its name (/dev/..., \\.\...), else a file.
core::TargetKind remoteTargetKind(const std::string &path)
{
    if (path.starts_with("\\\\.\\"))
        return path.find("PhysicalDrive") != std::string::npos ? core::TargetKind::PhysicalDrive
                                                               : core::TargetKind::Volume;
    if (path.starts_with("/dev/"))
        return core::TargetKind::BlockDevice;
    return core::TargetKind::TestFile;
}

FileTreePlace remoteFileTreePlace(std::string folder)
{
    const char separator
        = folder.find('\\') != std::string::npos && folder.find('/') == std::string::npos ? '\\'
                                                                                          : '/';
    while (folder.size() > 1 && folder.back() == separator)
        folder.pop_back();
    const std::string name = kFileTreeFolderName;
    FileTreePlace place;
    if (folder.empty()) {
        place.refusal = TargetsModel::tr("No folder chosen for the file tree.");
        return place;
    }
    const bool named = folder.size() >= name.size()
        && folder.compare(folder.size() - name.size(), name.size(), name) == 0;
    place.path = named
        ? folder
        : folder + (folder.back() == separator ? "" : std::string(1, separator)) + name;
    return place;
}

// The workers that run on this machine: hosts[0]'s (another manager's devices are its
// agent's to check).
std::vector<const core::Worker *> localWorkers(const core::Profile &profile)
{
    std::vector<const core::Worker *> workers;
    if (!profile.hosts.empty())
        for (const auto &w : profile.hosts.front().workers)
            workers.push_back(&w);
    return workers;
}

// Files IOPrism makes (a test file, a tree) are no raw device: the run's own checks say
// where a file cannot be made.
bool isMadeByUs(const core::Target &target)
{
    return target.kind == core::TargetKind::TestFile || target.kind == core::TargetKind::FileTree;
}
} // namespace

TargetDialogs::TargetDialogs(TargetsPage *page, ProfileDocument *document)
    : m_page(page)
    , m_document(document)
{ }

QWidget *TargetDialogs::window() const
{
    return m_page->window();
}

// Another manager's path: typed, since no dialog of this machine can show that host's
// files (its agent's places are rows of the table already).
void TargetDialogs::askRemotePath(bool tree)
{
    auto *model = m_page->model();
    const QString host
        = managerName(m_document->profile(), static_cast<std::size_t>(m_document->currentHost()));
    auto *dialog = new QInputDialog(window());
    dialog->setObjectName(QStringLiteral("remotePathDialog"));
    dialog->setInputMode(QInputDialog::TextInput);
    dialog->setWindowTitle(tree ? tr("File tree on %1").arg(host) : tr("Target on %1").arg(host));
    dialog->setLabelText(tree
            ? tr("The folder for the file tree, as a path on %1 (IOPrism makes the tree in "
                 "%2 inside it):")
                  .arg(host, QLatin1String(kFileTreeFolderName))
            : tr("The test file, disk or partition, as a path on %1:").arg(host));
    dialog->setToolTip(tr("A path on %1, not on this machine: type it as that host names it "
                          "(/srv/test.dat, /dev/sdb, D:\\test.dat). The agent there checks "
                          "it and its allow list when the run starts.")
                           .arg(host));
    // A start: the folder of the agent's first place (else of the worker's first target).
    std::string hint;
    for (const auto &c : model->hostCandidates())
        if (!core::isRawDevice(c.kind)) {
            hint = c.path;
            break;
        }
    if (const auto *worker = m_document->worker(model->worker());
        hint.empty() && worker && !worker->targets.empty())
        hint = worker->targets.front().path;
    dialog->setTextValue(toQString(hint));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(
        dialog, &QInputDialog::textValueSelected, m_page, [this, tree](const QString &text) {
            const std::string path = toStdString(text.trimmed());
            if (path.empty())
                return;
            if (tree)
                addFileTree(path);
            else
                addTestFile(path);
        });
    dialog->open();
}

void TargetDialogs::askTestFile()
{
    if (m_page->model()->remoteHost()) {
        askRemotePath(false);
        return;
    }
    auto *dialog = new QFileDialog(window(), tr("Test file location"), m_context.dataDirectory,
        tr("Test files (*.dat *.tst);;All files (*)"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setOption(QFileDialog::DontConfirmOverwrite);
    dialog->selectFile(QString::fromLatin1(kTestFileName));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(dialog, &QFileDialog::fileSelected, m_page,
        [this](const QString &file) { addTestFile(toStdString(QDir::toNativeSeparators(file))); });
    dialog->open();
}

void TargetDialogs::askFileTreeFolder()
{
    if (m_page->model()->remoteHost()) {
        askRemotePath(true);
        return;
    }
    auto *dialog
        = new QFileDialog(window(), tr("Folder for the file tree"), m_context.dataDirectory);
    dialog->setObjectName(QStringLiteral("fileTreeFolderDialog"));
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(dialog, &QFileDialog::fileSelected, m_page, [this](const QString &folder) {
        addFileTree(toStdString(QDir::toNativeSeparators(folder)));
    });
    dialog->open();
}

void TargetDialogs::addTestFile(const std::string &path)
{
    // Another host's path is not looked at here: a device is told by its name.
    const auto kind = m_page->model()->remoteHost() ? remoteTargetKind(path)
        : m_context.detectTargetKind                ? m_context.detectTargetKind(path)
                                                    : core::TargetKind::TestFile;
    addTarget(path, kind, std::nullopt, QStringLiteral("addTestFileDialog"));
}

void TargetDialogs::addFileTree(const std::string &folder)
{
    if (!m_document->worker(m_page->model()->worker()))
        return;
    // Another host's folder cannot be read for IOPrism's marker: the tree goes in
    // ioprism-tree inside it (the command line's rule for a folder IOPrism did not
    // make), unless that is the folder named.
    const FileTreePlace place = m_page->model()->remoteHost()
        ? remoteFileTreePlace(folder)
        : fileTreePlace(folder, m_context.readFileHead);
    if (place.path.empty()) {
        m_context.messageBar->showMessage(MessageBar::Level::Warning, place.refusal);
        return;
    }
    addTarget(place.path, core::TargetKind::FileTree, place.existing,
        QStringLiteral("addFileTreeDialog"));
    const QString where = toQString(place.path);
    m_context.messageBar->showMessage(MessageBar::Level::Information,
        place.existing
            ? tr("The file tree IOPrism made in %1 (%2) is used again.")
                  .arg(where, fileTreeShapeText(*place.existing))
            : tr("The file tree goes in %1: IOPrism makes it before the first run.").arg(where));
}

void TargetDialogs::addTarget(const std::string &path, core::TargetKind kind,
    const std::optional<core::FileTree> &tree, const QString &dialogName)
{
    auto *model = m_page->model();
    const auto *worker = m_document->worker(model->worker());
    if (!worker)
        return;
    QStringList others;
    for (const auto &t : worker->targets)
        if (!model->samePath(t.path, path))
            others << toQString(t.path);
    if (others.isEmpty()) {
        model->addPath(path, kind, tree);
        return;
    }
    // A second target changes what the worker measures: never add one silently.
    const bool isTree = kind == core::TargetKind::FileTree;
    const QString workerName = toQString(worker->name);
    auto *box = new QMessageBox(QMessageBox::Question,
        isTree ? tr("Add a file tree") : tr("Add a test file"),
        tr("%1 already uses %n target(s): %2.", nullptr, int(others.size()))
                .arg(workerName, others.join(QStringLiteral(", ")))
            + QLatin1Char('\n')
            + tr("Use %1 instead, or as one more target (the worker then spreads its I/O "
                 "over all of them)?")
                  .arg(toQString(path)),
        QMessageBox::Cancel, window());
    box->setObjectName(dialogName);
    auto *replace
        = box->addButton(isTree ? tr("Use only the new tree") : tr("Use only the new file"),
            QMessageBox::AcceptRole);
    replace->setObjectName(QStringLiteral("replaceTargets"));
    replace->setToolTip(tr("The worker's other targets are unticked"));
    auto *add = box->addButton(tr("Add as another target"), QMessageBox::YesRole);
    add->setObjectName(QStringLiteral("addBesideTargets"));
    add->setToolTip(isTree ? tr("The worker uses the new tree and its present targets")
                           : tr("The worker uses the new file and its present targets"));
    box->setDefaultButton(replace);
    box->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(
        box, &QMessageBox::finished, m_page, [this, box, replace, add, path, kind, tree] {
            auto *targets = m_page->model();
            if (box->clickedButton() == replace) {
                const int row = targets->addPath(path, kind, tree);
                for (int r = 0; r < targets->rowCount(); ++r)
                    if (r != row && targets->index(r, 0).data(TargetsModel::AssignedRole).toBool())
                        targets->setData(targets->index(r, TargetsModel::TargetColumn),
                            Qt::Unchecked, Qt::CheckStateRole);
            } else if (box->clickedButton() == add) {
                targets->addPath(path, kind, tree);
            }
        });
    box->open();
}

void TargetDialogs::askRepoint(int row)
{
    auto *model = m_page->model();
    const QString from = model->index(row, 0).data(TargetsModel::PathRole).toString();
    if (!model->index(row, 0).data(TargetsModel::AssignedRole).toBool())
        return;
    auto *dialog = new QInputDialog(window());
    dialog->setObjectName(QStringLiteral("repointDialog"));
    dialog->setWindowTitle(tr("Re-point %1").arg(from));
    const bool remote = model->remoteHost();
    const QString host
        = managerName(m_document->profile(), static_cast<std::size_t>(m_document->currentHost()));
    if (remote) {
        // Another manager's target: the places its agent reported, or a path typed.
        dialog->setLabelText(tr("Where %1 points on %2 (the worker keeps the target and its "
                                "settings):")
                                 .arg(from, host));
        dialog->setToolTip(tr("A place the agent of %1 reported, or a path on that host typed "
                              "as it names it; nothing of this machine is offered")
                               .arg(host));
    } else {
        dialog->setLabelText(tr("Where %1 points on this machine (the worker keeps the target "
                                "and its settings):")
                                 .arg(from));
        dialog->setToolTip(tr("A disk, a partition or a test-file location of this machine, "
                              "or a file you choose"));
    }
    // Each with what tells it apart (model, size, in use, free space): a bare /dev/sdb
    // does not say which disk it is.
    QStringList items;
    for (const auto &c : model->hostCandidates())
        items << TargetsModel::describeCandidate(c);
    const QString elsewhere = remote ? tr("A path typed…") : tr("A test file elsewhere…");
    items << elsewhere;
    dialog->setComboBoxItems(items);
    dialog->setComboBoxEditable(false);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto repoint = [this, from](const std::string &to, core::TargetKind kind) {
        auto *targets = m_page->model();
        for (int r = 0; r < targets->rowCount(); ++r) {
            if (targets->index(r, 0).data(TargetsModel::PathRole).toString() != from)
                continue;
            targets->repoint(r, to, kind);
            m_context.messageBar->showMessage(MessageBar::Level::Information,
                tr("%1 now points at %2.").arg(from, toQString(to)));
            return;
        }
    };
    QObject::connect(dialog, &QInputDialog::textValueSelected, m_page,
        [this, items, elsewhere, repoint, remote, host, from](const QString &choice) {
            if (choice != elsewhere) {
                const auto &candidates = m_page->model()->hostCandidates();
                const auto i = static_cast<std::size_t>(items.indexOf(choice));
                if (i < candidates.size())
                    repoint(candidates[i].path, candidates[i].kind);
                return;
            }
            if (remote) {
                auto *typed = new QInputDialog(window());
                typed->setObjectName(QStringLiteral("repointPathDialog"));
                typed->setInputMode(QInputDialog::TextInput);
                typed->setWindowTitle(tr("Re-point %1").arg(from));
                typed->setLabelText(
                    tr("The test file, disk or partition, as a path on %1:").arg(host));
                typed->setToolTip(tr("A path on %1, not on this machine: type it as that host "
                                     "names it (/srv/test.dat, /dev/sdb, D:\\test.dat). The "
                                     "agent there checks it and its allow list when the run "
                                     "starts.")
                                      .arg(host));
                typed->setTextValue(from);
                typed->setAttribute(Qt::WA_DeleteOnClose);
                QObject::connect(typed, &QInputDialog::textValueSelected, m_page,
                    [repoint](const QString &text) {
                        const std::string path = toStdString(text.trimmed());
                        if (!path.empty())
                            repoint(path, remoteTargetKind(path));
                    });
                typed->open();
                return;
            }
            auto *files = new QFileDialog(window(), tr("Test file location"),
                m_context.dataDirectory, tr("Test files (*.dat *.tst);;All files (*)"));
            files->setObjectName(QStringLiteral("repointFileDialog"));
            files->setAcceptMode(QFileDialog::AcceptSave);
            files->setOption(QFileDialog::DontConfirmOverwrite);
            files->selectFile(QString::fromLatin1(kTestFileName));
            files->setAttribute(Qt::WA_DeleteOnClose);
            QObject::connect(
                files, &QFileDialog::fileSelected, m_page, [this, repoint](const QString &file) {
                    const std::string path = toStdString(QDir::toNativeSeparators(file));
                    repoint(path,
                        m_context.detectTargetKind ? m_context.detectTargetKind(path)
                                                   : core::TargetKind::TestFile);
                });
            files->open();
        });
    dialog->open();
}

// Raw devices this user may not open, not even through the broker: said before the run,
// with what would help, rather than after the user agreed to destroy the data. A device
// the broker would open passes (the run asks the user then); the answers are kept for the
// question that follows, which says so.
QStringList TargetDialogs::deniedDevices()
{
    QStringList denied;
    m_checked.clear();
    m_needElevation.clear();
    if (!m_context.targetAccess)
        return denied;
    const core::Profile &profile = m_document->profile();
    // This machine's devices: hosts[0] runs here, whichever manager is being edited.
    for (const core::Worker *worker : localWorkers(profile)) {
        const bool writes = workerWrites(profile, *worker);
        for (const auto &target : worker->targets) {
            if (isMadeByUs(target))
                continue;
            const core::TargetAccess access = m_context.targetAccess(target.path, writes);
            // Workers sharing a device: the answer for the one that needs most (a
            // reader's "yours" must not hide a writer's "the system asks").
            const auto known = m_checked.find(target.path);
            if (known == m_checked.end()
                || static_cast<int>(access.way) > static_cast<int>(known->second.way))
                m_checked[target.path] = access;
            const QString why = toQString(access.text);
            if (access.way != core::TargetAccess::Way::Denied)
                continue;
            if (!denied.contains(why))
                denied << why;
            const QString path = toQString(target.path);
            if (m_context.needsElevation && m_context.needsElevation(target)
                && !m_needElevation.contains(path))
                m_needElevation << path;
        }
    }
    return denied;
}

// One device in the question before it is written: its path, size, model and what is on
// it, so that the user recognises the device, not only its name.
QString TargetDialogs::deviceLine(const QString &path, const TargetCandidate *c) const
{
    QString line = QStringLiteral("<b>%1</b>").arg(path.toHtmlEscaped());
    if (c && c->sizeBytes)
        line += QStringLiteral(", ") + capacityText(c->sizeBytes);
    if (c && !c->model.empty())
        line += QStringLiteral(", ") + toQString(c->model).toHtmlEscaped();
    if (c && !c->contents.empty())
        line += QStringLiteral(", ") + tr("holds: %1").arg(toQString(c->contents).toHtmlEscaped());
    return line;
}

// Raw devices that a spec writes: refused while in use, else to be confirmed.
TargetDialogs::DeviceWrites TargetDialogs::deviceWrites() const
{
    DeviceWrites writes;
    const core::Profile &profile = m_document->profile();
    const auto *model = m_page->model();
    for (const core::Worker *worker : localWorkers(profile)) {
        if (!workerWrites(profile, *worker))
            continue;
        for (const auto &target : worker->targets) {
            if (isMadeByUs(target))
                continue;
            const QString path = toQString(target.path);
            const TargetCandidate *c = model->candidateFor(target.path);
            QStringList inUse;
            if (c) {
                for (const auto &m : c->mountPoints)
                    inUse << tr("mounted at %1").arg(toQString(m));
                for (const auto &u : c->inUse)
                    inUse << toQString(u);
            }
            if (!inUse.isEmpty()) {
                writes.refused << tr("%1: %2").arg(path, inUse.join(QStringLiteral(", ")));
                continue;
            }
            // Who opens it, as the check before Start found (else as the listing did).
            const auto checked = m_checked.find(target.path);
            const auto way = checked != m_checked.end() ? checked->second.way
                : c                                     ? c->writeAccess.way
                                                        : core::TargetAccess::Way::Direct;
            writes.broker = writes.broker || way == core::TargetAccess::Way::Broker;
            const QString line = deviceLine(path, c);
            if (!writes.confirm.contains(line))
                writes.confirm << line;
        }
    }
    return writes;
}

bool TargetDialogs::refuseDevices(const QString &topic)
{
    // Safety first, privilege second: what IOPrism refuses to write is said before
    // anyone (udisks2 included) is asked whether the device could be opened.
    if (const QStringList refused = deviceWrites().refused; !refused.isEmpty()) {
        m_context.messageBar->showMessage(MessageBar::Level::Error,
            tr("Writing to a raw device is refused while it is in use: unmount it "
               "first, or untick it."),
            refused.join(QLatin1Char('\n')), topic);
        return true;
    }
    if (const QStringList denied = deniedDevices(); !denied.isEmpty()) {
        m_context.messageBar->showMessage(MessageBar::Level::Error,
            tr("The profile cannot run: %1").arg(denied.first()), denied.join(QLatin1Char('\n')),
            topic);
        // The refusal stays in the bar whatever the answer: Cancel leaves it as it was.
        if (!m_needElevation.isEmpty() && m_context.restartElevated)
            askRestartElevated(m_needElevation);
        return true;
    }
    return false;
}

// Windows opens raw drives and volumes only for an administrator, and IOPrism runs
// asInvoker: rather than only refusing, the window offers to restart itself with those
// rights, the profile and page carried over. Windows' own consent dialog follows, said
// here so that it is expected.
void TargetDialogs::askRestartElevated(const QStringList &devices)
{
    QStringList names;
    for (const auto &d : devices)
        names << QStringLiteral("<b>%1</b>").arg(d.toHtmlEscaped());
    const QString text
        = tr("Only an administrator may open %1. IOPrism can restart as administrator, "
             "keeping this profile; Windows will ask for an administrator's consent first.")
              .arg(names.join(QStringLiteral(", ")));
    auto *box = new QMessageBox(
        QMessageBox::Warning, tr("Restart as administrator?"), text, QMessageBox::Cancel, window());
    box->setObjectName(QStringLiteral("restartElevatedDialog"));
    auto *restart = box->addButton(tr("Restart as Administrator"), QMessageBox::AcceptRole);
    restart->setToolTip(tr("Saves the profile, closes this window and starts IOPrism again "
                           "with administrator rights, on the Targets page; Windows asks for "
                           "consent first"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(box, &QMessageBox::finished, m_page, [this, box, restart] {
        if (box->clickedButton() == restart && m_context.restartElevated)
            m_context.restartElevated();
    });
    box->open();
}

void TargetDialogs::confirmDeviceWrites(const std::function<void(bool allowDeviceWrites)> &run)
{
    const DeviceWrites writes = deviceWrites();
    const QStringList &confirm = writes.confirm;
    if (confirm.isEmpty()) {
        run(false);
        return;
    }
    const bool one = confirm.size() == 1;
    QString text = tr("The test writes directly to:<br>%1<br><br>Everything stored on %2 "
                      "will be destroyed. Continue?")
                       .arg(confirm.join(QStringLiteral("<br>")),
                           one ? tr("this device") : tr("these devices"));
    // The system's own question comes next: said here, so that it is expected, and so
    // that its password dialog is not taken for something else.
    if (writes.broker)
        text += QStringLiteral("<br><br>")
            + (one ? tr("Then the system asks for your permission to open it (udisks2).")
                   : tr("Then the system asks for your permission to open the devices "
                        "you may not open yourself (udisks2)."));
    auto *box = new QMessageBox(
        QMessageBox::Warning, tr("Write to raw devices?"), text, QMessageBox::Cancel, window());
    box->setObjectName(QStringLiteral("deviceWritesDialog"));
    auto *erase = box->addButton(tr("Destroy the data and run"), QMessageBox::DestructiveRole);
    erase->setToolTip(writes.broker
            ? tr("Starts the run: the system asks for your permission, then the devices listed "
                 "are overwritten")
            : tr("Starts the run: the devices listed are overwritten"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(box, &QMessageBox::finished, m_page, [box, erase, run] {
        if (box->clickedButton() == erase)
            run(true);
    });
    box->open();
}

} // namespace ioprism::ui
