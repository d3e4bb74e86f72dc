// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's managers on other hosts (issue 28): Add manager…, Bind to agent… (an
// Iometer file's other managers), Remove manager; the topology's context menu offers
// them on the rows they apply to.
#include "ui/editors/worker_panel.h"
#include "ui/format.h"
#include "ui/main_window.h"
#include "ui/message_bar.h"
#include "ui/models/managers.h"
#include "ui/models/profile_document.h"
#include "ui/models/targets_model.h"
#include "ui/models/topology_model.h"
#include "ui/pages/manager_dialog.h"
#include "ui/pages/targets_page.h"

#include <QAction>
#include <QMenu>
#include <QTreeView>

#include <algorithm>

namespace ioprism::ui {

namespace {
const QString kManagerTopic = QStringLiteral("managers");
}

void MainWindow::createManagerActions()
{
    m_addManager = makeAction(IconId::Host, tr("Add &Manager…"), {},
        tr("Add a manager on another host (an ioprism-agent): its workers run there, together "
           "with this host's"));
    m_addManager->setEnabled(static_cast<bool>(m_services.reachManager));
    connect(m_addManager, &QAction::triggered, this, [this] { askManager(0); });

    m_workerPanel->model()->setManagers(m_managers);
    // A bound manager's worker is given the places its agent reported.
    m_targetsPage->model()->setManagers(m_managers);
    QTreeView *tree = m_workerPanel->tree();
    tree->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(tree, &QTreeView::customContextMenuRequested, this, &MainWindow::showTopologyMenu);

    // A binding is to a host of this profile: hosts that are gone are unbound.
    auto prune = [this] {
        for (const std::uint32_t id : m_managers->boundHostIds()) {
            const auto &hosts = m_document->profile().hosts;
            if (std::none_of(hosts.begin() + std::min<std::ptrdiff_t>(1, std::ssize(hosts)),
                    hosts.end(), [id](const core::Host &h) { return h.id == id; }))
                m_managers->unbind(id);
        }
    };
    connect(m_document, &ProfileDocument::profileReset, this, prune);
    connect(m_document, &ProfileDocument::structureChanged, this, prune);
}

void MainWindow::showTopologyMenu(const QPoint &at)
{
    if (!m_services.reachManager)
        return;
    TopologyModel *model = m_workerPanel->model();
    const QModelIndex index = m_workerPanel->tree()->indexAt(at);
    auto *menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->setToolTipsVisible(true);
    menu->addAction(m_addManager);
    if (index.isValid() && !index.parent().isValid() && index.row() > 0) {
        const std::uint32_t id = model->hostIdAt(index.row());
        QAction *bind = menu->addAction(tr("Bind to Agent…"));
        bind->setToolTip(tr("Run this manager's workers on an ioprism-agent on its host"));
        connect(bind, &QAction::triggered, this, [this, id] { askManager(id); });
        QAction *remove = menu->addAction(tr("Remove Manager"));
        remove->setToolTip(tr("Remove this manager and its workers from the profile"));
        connect(remove, &QAction::triggered, this, [this, id] { removeManager(id); });
    }
    menu->popup(m_workerPanel->tree()->viewport()->mapToGlobal(at));
}

ManagerDialog *MainWindow::askManager(std::uint32_t hostId)
{
    if (!m_services.reachManager)
        return nullptr;
    auto *dialog = new ManagerDialog(m_services.reachManager,
        hostId == 0 ? tr("Add Manager") : tr("Bind Manager to Agent"), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // An Iometer file's manager: its network address is where its agent probably is.
    for (const auto &h : m_document->profile().hosts)
        if (hostId != 0 && h.id == hostId) {
            ManagerAccess access;
            access.address = h.networkAddress;
            dialog->setAccess(access);
        }
    connect(dialog, &ManagerDialog::reached, this,
        [this, hostId](const ReachedManager &manager) { onManagerReached(hostId, manager); });
    dialog->open();
    return dialog;
}

void MainWindow::onManagerReached(std::uint32_t hostId, const ReachedManager &manager)
{
    std::uint32_t id = hostId;
    const bool known = std::any_of(m_document->profile().hosts.begin(),
        m_document->profile().hosts.end(), [id](const core::Host &h) { return h.id == id; });
    if (id == 0 || !known) {
        m_document->host(); // this host first: the new manager is never hosts[0]
        core::Host host = newManagerHost(m_document->profile(), manager.info);
        id = host.id;
        m_document->mutableProfile().hosts.push_back(std::move(host));
        m_managers->bind(id, manager);
        m_document->commitStructure(nullptr);
    } else {
        m_managers->bind(id, manager);
    }
    if (manager.info.firstUse)
        m_messageBar->showMessage(MessageBar::Level::Information,
            tr("Manager %1 (%2): first connection; its certificate %3 is now recorded. Compare "
               "it with the fingerprint the agent printed when it started.")
                .arg(toQString(manager.info.host), toQString(manager.info.address),
                    toQString(manager.info.fingerprint)),
            toQString(manager.info.knownAgentsFile), kManagerTopic);
    else
        m_messageBar->showMessage(MessageBar::Level::Information,
            tr("Manager %1 added").arg(Managers::summary(manager.info)), {}, kManagerTopic);
}

void MainWindow::removeManager(std::uint32_t hostId)
{
    auto &hosts = m_document->mutableProfile().hosts;
    for (std::size_t h = 1; h < hosts.size(); ++h)
        if (hosts[h].id == hostId) {
            hosts.erase(hosts.begin() + static_cast<std::ptrdiff_t>(h));
            m_managers->unbind(hostId);
            m_document->commitStructure(nullptr);
            return;
        }
}

} // namespace ioprism::ui
