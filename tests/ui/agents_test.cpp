// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 28 in the GUI: managers on other hosts. Each agent is an AgentService (null
// engine) on the far end of an in-memory channel pair, reached through the services'
// reachManager hook as the application reaches ioprism-agent over the network: added
// through the "Add manager" dialog, shown in the topology, run together with this host
// as one run whose "All managers" row is the exact sum of the host rows, kept in
// History; an agent cut mid-run is named and what was measured is kept; a wrong token
// is said in the dialog and nothing is added.
#include "core/agent/agent_service.h"
#include "core/agent/remote_session.h"
#include "core/null_engine.h"
#include "support/session_doubles.h"
#include "support/test_support.h"
#include "ui/editors/worker_panel.h"
#include "ui/main_window.h"
#include "ui/message_bar.h"
#include "ui/models/history_model.h"
#include "ui/models/managers.h"
#include "ui/models/profile_document.h"
#include "ui/models/results_model.h"
#include "ui/models/targets_model.h"
#include "ui/models/topology_model.h"
#include "ui/pages/history_page.h"
#include "ui/pages/manager_dialog.h"
#include "ui/pages/results_page.h"
#include "ui/pages/targets_page.h"
#include "ui/run/run_controller.h"

#include <QApplication>
#include <QCheckBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QTest>
#include <QTreeView>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <mutex>

#include "manager_support.h"
#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using ioprism::test::CuttableChannel;

using namespace std::chrono_literals;

const std::string kToken = "gui-agents-test-token-0123";

// An absolute path on this host from a POSIX one ("C:/…" where a path needs a drive to be
// absolute: the Windows build under Wine), as the agents' allow list checks them.
std::string onThisHost(const std::string &posix)
{
    return std::filesystem::path("/").is_absolute() ? posix : "C:" + posix;
}

// The small profile with its targets' paths absolute on this host.
core::Profile agentProfile(std::chrono::seconds runTime, std::chrono::milliseconds interval)
{
    core::Profile p = test::smallProfile(runTime, interval);
    for (auto &h : p.hosts)
        for (auto &w : h.workers)
            for (auto &t : w.targets)
                t.path = onThisHost(t.path);
    return p;
}

// One in-process agent at a made-up address: a service per connection.
struct Agent {
    explicit Agent(const std::string &host)
    {
        config.token = kToken;
        config.allowedRoots = {onThisHost("/")};
        config.identity.host = host;
        config.identity.os = "Linux (in-process)";
        config.identity.cpus = 4;
        config.identity.engines = {"null"};
        core::LocalRunHooks hooks;
        hooks.makeBackend = [](core::EngineKind) -> std::unique_ptr<core::IoBackend> {
            return std::make_unique<core::NullBackend>();
        };
        hooks.describe.describeSystem = [host] {
            core::Environment e;
            e.hostName = host;
            e.toolVersion = IOPRISM_VERSION;
            return e;
        };
        config.makeRun = core::localAgentRuns(hooks);
        config.inventory = [] {
            core::InventoryMessage inventory;
            inventory.mounts.push_back({"/srv", "ext4", 1ULL << 30, 1ULL << 32});
            return inventory;
        };
    }
    core::AgentConfig config;
    core::AgentState state;
    std::mutex mutex;
    std::vector<std::unique_ptr<core::AgentService>> services;
    std::vector<CuttableChannel *> cables; // owned by the services
};

// The agents by address, and the services' hook that reaches them.
class Agents
{
public:
    Agent &add(const std::string &address, const std::string &host)
    {
        return *m_agents.emplace(address, std::make_unique<Agent>(host)).first->second;
    }
    Agent &at(const std::string &address) { return *m_agents.at(address); }

    core::Result<ReachedManager> reach(const ManagerAccess &access)
    {
        std::string token;
        std::ifstream(access.tokenFile) >> token;
        const auto it = m_agents.find(access.address);
        if (it == m_agents.end())
            return core::OpError {{}, "connect", access.address, "no agent there"};
        Agent &agent = *it->second;
        auto [controllerEnd, agentEnd] = core::makeChannelPair();
        auto cable = std::make_unique<CuttableChannel>(std::move(agentEnd));
        {
            std::lock_guard lock(agent.mutex);
            agent.cables.push_back(cable.get());
            agent.services.push_back(
                std::make_unique<core::AgentService>(agent.config, agent.state, std::move(cable)));
            agent.services.back()->start();
        }
        auto connection
            = std::make_shared<core::AgentConnection>(std::move(controllerEnd), access.address);
        if (auto opened = connection->open(token, "gui-test", 10s); !opened)
            return opened.error();
        ReachedManager reached;
        reached.info = describeManager(*connection, access.address);
        reached.info.fingerprint = "SHA256:in-process";
        reached.info.firstUse = true;
        reached.connection = std::move(connection);
        return reached;
    }

    PlatformServices services()
    {
        PlatformServices s = test::testServices();
        s.reachManager = [this](const ManagerAccess &a) { return reach(a); };
        return s;
    }

private:
    std::map<std::string, std::unique_ptr<Agent>> m_agents;
};

TEST(Agents, TwoManagersRunWithThisHostAsOneRunAllIsTheSumAndItIsKept)
{
    test::ensureApp();
    test::TempDir dir;
    Agents agents;
    agents.add("db1.test:7355", "db1");
    agents.add("db2.test:7355", "db2");
    MainWindow window(agents.services(), withLibrary(dir));
    window.document()->setProfile(agentProfile(1s, 100ms));
    window.setIoLimitPerTarget(3000);
    const std::string token = tokenFile(dir, kToken);

    ASSERT_TRUE(addManager(window, "db1.test:7355", token));
    EXPECT_TRUE(window.messageBar()->currentText().contains(QStringLiteral("SHA256:in-process")))
        << "a first-use certificate is said with its fingerprint";
    ASSERT_TRUE(addManager(window, "db2.test:7355", token));

    // The topology: this host, then each manager with its host, OS, version and CPUs.
    TopologyModel *topology = window.workerPanel()->model();
    ASSERT_EQ(topology->rowCount(), 3);
    const QString db1 = topology->index(1, 0).data().toString();
    EXPECT_TRUE(db1.contains(QStringLiteral("db1"))) << db1.toStdString();
    EXPECT_TRUE(db1.contains(QStringLiteral("Linux (in-process)"))) << db1.toStdString();
    EXPECT_TRUE(db1.contains(QStringLiteral("4 CPUs"))) << db1.toStdString();
    EXPECT_TRUE(db1.contains(QStringLiteral(IOPRISM_VERSION))) << db1.toStdString();
    EXPECT_FALSE(db1.contains(QStringLiteral("not run here"))) << db1.toStdString();
    const QString tip = topology->index(2, 0).data(Qt::ToolTipRole).toString();
    EXPECT_TRUE(tip.contains(QStringLiteral("Clock offset"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("/srv"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("Worker 1"))) << "this host's workers, copied";
    EXPECT_FALSE(window.document()->hasErrors());
    // IOPRISM_TEST_SHOTS=DIR keeps pictures of the topology and the results, to look at
    // (docs/screenshots/agents-*.png are made so, under Xvfb).
    const char *shots = std::getenv("IOPRISM_TEST_SHOTS");
    if (shots) {
        window.resize(1600, 1000);
        window.showPage(MainWindow::TargetsTab);
        window.show();
        window.workerPanel()->tree()->expandAll();
        if (auto *dock = window.findChild<QDockWidget *>())
            window.resizeDocks({dock}, {520}, Qt::Horizontal);
        QApplication::processEvents();
        window.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/agents-topology.png"));
    }

    const RunResultPtr result = runOnce(window);
    ASSERT_TRUE(result);
    ASSERT_FALSE(result->error) << result->error->toString();
    EXPECT_EQ(result->hosts.size(), 3U);

    // The Results page: All, then each host's rows; All's I/Os are the hosts' sum.
    ResultsModel *results = window.resultsPage()->model();
    ASSERT_GE(results->rowCount(), 1);
    const core::ScopeResult *all = results->scopeAt(0);
    ASSERT_TRUE(all);
    std::uint64_t hostIos = 0;
    int hostRows = 0;
    for (int row = 1; row < results->rowCount(); ++row)
        if (const auto *scope = results->scopeAt(row);
            scope && scope->scope.kind == core::Scope::Kind::Host) {
            hostIos += ios(*scope);
            ++hostRows;
        }
    EXPECT_EQ(hostRows, 3);
    EXPECT_GT(ios(*all), 0U);
    EXPECT_EQ(ios(*all), hostIos);

    if (shots) {
        window.showPage(MainWindow::ResultsTab);
        QApplication::processEvents();
        window.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/agents-results.png"));
    }

    // Kept in History like any run.
    EXPECT_TRUE(
        test::waitUntil([&] { return window.historyPage()->model()->rowCount() == 1; }, 60s));
}

TEST(Agents, AnAgentCutMidRunIsNamedAndWhatWasMeasuredIsKept)
{
    test::ensureApp();
    test::TempDir dir;
    Agents agents;
    agents.add("db1.test:7355", "db1");
    Agent &db2 = agents.add("db2.test:7355", "db2");
    MainWindow window(agents.services(), withLibrary(dir));
    window.document()->setProfile(agentProfile(600s, 100ms));
    const std::string token = tokenFile(dir, kToken);
    ASSERT_TRUE(addManager(window, "db1.test:7355", token));
    ASSERT_TRUE(addManager(window, "db2.test:7355", token));

    // Cut db2 once intervals stream (the run measures on every host).
    QSignalSpy intervals(window.runController(), &RunController::intervalReady);
    RunResultPtr finished;
    QObject::connect(&window, &MainWindow::runFinished, [&](RunResultPtr r) { finished = r; });
    ASSERT_TRUE(window.startRun()) << window.messageBar()->currentText().toStdString();
    ASSERT_TRUE(test::waitUntil([&] { return intervals.count() >= 2; }, 60s));
    {
        std::lock_guard lock(db2.mutex);
        ASSERT_FALSE(db2.cables.empty());
        db2.cables.back()->cut();
    }
    ASSERT_TRUE(test::waitUntil([&] { return finished != nullptr; }, 120s));
    ASSERT_TRUE(finished->error) << "the cut ends the run with an error";
    const QString message = window.messageBar()->currentText();
    EXPECT_TRUE(message.contains(QStringLiteral("db2"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("db2.test:7355"))) << message.toStdString();
    EXPECT_FALSE(finished->intervals.empty()) << "what was measured is kept";
    EXPECT_TRUE(
        test::waitUntil([&] { return window.historyPage()->model()->rowCount() == 1; }, 60s));
    // The manager shows its lost connection; Start then says so rather than run.
    EXPECT_TRUE(window.workerPanel()->model()->index(2, 0).data().toString().contains(
        QStringLiteral("disconnected")));
    EXPECT_FALSE(window.startRun());
    EXPECT_TRUE(barSays(window, QStringLiteral("not connected")));
}

TEST(Agents, AnIcfsOtherManagerIsBoundToItsAgentAndThenRuns)
{
    test::ensureApp();
    test::TempDir dir;
    Agents agents;
    agents.add("lab-02.test:7355", "lab-02");
    MainWindow window(agents.services(), withLibrary(dir));
    core::Profile profile = agentProfile(1s, 100ms);
    core::Host lab {.id = 2, .name = "lab-02", .networkAddress = "lab-02.test:7355"};
    lab.workers = profile.hosts[0].workers;
    profile.hosts.push_back(lab);
    window.document()->setProfile(profile);
    window.setIoLimitPerTarget(1000);
    TopologyModel *topology = window.workerPanel()->model();
    ASSERT_EQ(topology->rowCount(), 2);
    EXPECT_TRUE(topology->index(1, 0).data().toString().contains(QStringLiteral("not run here")));

    // Bind to Agent…: the dialog starts with the file's network address.
    QPointer<ManagerDialog> dialog = window.askManager(2);
    ASSERT_TRUE(dialog);
    EXPECT_EQ(dialog->addressField()->text(), QStringLiteral("lab-02.test:7355"));
    dialog->tokenFileField()->setText(QString::fromStdString(tokenFile(dir, kToken)));
    dialog->plaintextField()->setChecked(true);
    dialog->connectToManager();
    ASSERT_TRUE(test::waitUntil([&] { return window.managers()->boundTo(2) != nullptr; }, 60s));
    EXPECT_EQ(window.document()->profile().hosts.size(), 2U) << "bound, not added";
    const QString row = topology->index(1, 0).data().toString();
    EXPECT_FALSE(row.contains(QStringLiteral("not run here"))) << row.toStdString();
    EXPECT_TRUE(row.contains(QStringLiteral("lab-02"))) << row.toStdString();

    const RunResultPtr result = runOnce(window);
    ASSERT_TRUE(result);
    ASSERT_FALSE(result->error) << result->error->toString();
    EXPECT_EQ(result->hosts.size(), 2U) << "this host and lab-02";

    // Bound, its problems are a run's: an error there stops Start (unbound, it would not).
    window.document()->mutableProfile().hosts[1].workers[0].outstandingIos = 0;
    window.document()->commitValues(nullptr);
    EXPECT_FALSE(window.startRun());
    EXPECT_TRUE(barSays(window, QStringLiteral("cannot run on its managers")));
}

TEST(Agents, AWrongTokenIsSaidInTheDialogAndNothingIsAdded)
{
    test::ensureApp();
    test::TempDir dir;
    Agents agents;
    agents.add("db1.test:7355", "db1");
    MainWindow window(agents.services(), test::isolatedOptions(dir.path()));
    window.document()->setProfile(agentProfile(1s, 100ms));
    QString error;
    EXPECT_FALSE(
        addManager(window, "db1.test:7355", tokenFile(dir, "not-the-token-0123456"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("token"))) << error.toStdString();
    EXPECT_EQ(window.workerPanel()->model()->rowCount(), 1);
    EXPECT_EQ(window.document()->profile().hosts.size(), 1U);
    EXPECT_TRUE(window.managers()->boundHostIds().empty());
}

// Issue 28, item 3: a bound manager's worker is edited with the places its agent reported
// (the devices and folders its allow list names), never this machine's; what is ticked
// goes to that manager's worker only.
TEST(Agents, ABoundManagersWorkerIsOfferedThePlacesItsAgentAllows)
{
    test::ensureApp();
    test::TempDir dir;
    Agents agents;
    Agent &db1 = agents.add("db1.test:7355", "db1");
    db1.config.allowedRoots = {"/srv/ioprism", "/dev/vdz"};
    db1.config.inventory = [] {
        core::InventoryMessage inventory;
        inventory.devices.push_back({"/dev/vda", "Virtio disk", 32ULL << 30, "mounted at /"});
        inventory.devices.push_back({"/dev/vdz", "Virtio disk", 8ULL << 30, ""});
        inventory.mounts.push_back({"/", "ext4", 4ULL << 30, 30ULL << 30});
        inventory.mounts.push_back({"/srv", "xfs", 100ULL << 30, 200ULL << 30});
        return inventory;
    };
    MainWindow window(agents.services(), withLibrary(dir));
    window.document()->setProfile(agentProfile(1s, 100ms));
    const core::Host thisHost = window.document()->profile().hosts[0];
    ASSERT_TRUE(addManager(window, "db1.test:7355", tokenFile(dir, kToken)));
    window.resize(1600, 1000);
    window.showPage(MainWindow::TargetsTab);
    window.show();
    if (auto *dock = window.findChild<QDockWidget *>())
        window.resizeDocks({dock}, {520}, Qt::Horizontal);
    QApplication::processEvents();

    // Its worker (a copy of this host's) is a row under it: selecting it edits db1's.
    TopologyModel *topology = window.workerPanel()->model();
    QTreeView *tree = window.workerPanel()->tree();
    ASSERT_EQ(topology->rowCount(topology->hostIndex(1)), 1);
    const QModelIndex worker = topology->workerIndex(1, 0);
    tree->scrollTo(worker);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(worker).center());
    QApplication::processEvents();
    ASSERT_EQ(window.document()->currentHost(), 1);

    // The rows: what db1 allows (/dev/vda is not in its allow list), then the worker's own.
    TargetsModel *targets = window.targetsPage()->model();
    ASSERT_TRUE(targets->remoteHost());
    QStringList paths;
    for (int r = 0; r < targets->rowCount(); ++r)
        paths << targets->index(r, 0).data(TargetsModel::PathRole).toString();
    ASSERT_EQ(paths.size(), 3) << paths.join(QStringLiteral(", ")).toStdString();
    EXPECT_EQ(paths[0], QStringLiteral("/dev/vdz"));
    EXPECT_EQ(paths[1], QStringLiteral("/srv/ioprism/ioprism-test.dat"));
    EXPECT_EQ(targets->index(1, TargetsModel::MountColumn).data().toString(),
        QStringLiteral("/srv (xfs)"));
    EXPECT_FALSE(targets->index(1, TargetsModel::FreeColumn).data().toString().isEmpty());
    EXPECT_TRUE(targets->index(0, TargetsModel::AccessColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("Opened on db1 by its agent")));
    EXPECT_TRUE(targets->index(0, TargetsModel::AccessColumn).data().toString().isEmpty());

    // Ticked: db1's worker uses it; this host's does not.
    ASSERT_TRUE(targets->setData(
        targets->index(1, TargetsModel::TargetColumn), Qt::Checked, Qt::CheckStateRole));
    const auto &remote = window.document()->profile().hosts[1].workers[0];
    ASSERT_EQ(remote.targets.size(), 2U);
    EXPECT_EQ(remote.targets[1].path, "/srv/ioprism/ioprism-test.dat");
    EXPECT_FALSE(remote.targets[1].unresolved);
    EXPECT_EQ(window.document()->profile().hosts[0], thisHost);

    // IOPRISM_TEST_SHOTS=DIR: the topology with both managers expanded, db1's worker
    // selected and its agent's places on the Targets page (docs/screenshots).
    if (const char *shots = std::getenv("IOPRISM_TEST_SHOTS")) {
        tree->expandAll();
        QApplication::processEvents();
        window.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/managers-workers.png"));
    }
}

} // namespace
} // namespace ioprism::ui
