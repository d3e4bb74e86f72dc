// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 28 in the window, with real agents: three ioprism-agent processes on loopback
// ports, each with its token file and --allow root, reached over TLS (their certificates
// recorded on first use) by the application's own services (app/gui/gui_platform.h), as
// a user does it: a profile of this host and three managers, each bound to its agent
// through "Bind to Agent…", run as one run. Its "All managers" is exact: the I/Os the sum
// of the four hosts', the p99 the p99 of their histograms merged, from the agents' own
// results. Linux only (the agents are started with posix_spawn); the in-process agents of
// agents_test.cpp cover the same window under Wine.
#include "app/gui/gui_platform.h"
#include "core/stats/histogram.h"
#include "ui/editors/worker_panel.h"
#include "ui/models/history_model.h"
#include "ui/models/topology_model.h"
#include "ui/pages/history_page.h"

#include <QApplication>
#include <QDockWidget>
#include <QTreeView>

#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <memory>
#include <sys/stat.h>
#include <vector>

#include "e2e/agent_support.h"
#include "manager_support.h"
#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

namespace fs = std::filesystem;

// IOPRISM_DATA_DIR for the test's time: the application keeps its known-agents file in
// the data folder, and the agents their identities; never the user's own.
class DataFolder
{
public:
    explicit DataFolder(const fs::path &dir)
    {
        if (const char *before = std::getenv("IOPRISM_DATA_DIR"))
            m_before = before;
        ::setenv("IOPRISM_DATA_DIR", dir.c_str(), 1);
    }
    ~DataFolder()
    {
        if (m_before)
            ::setenv("IOPRISM_DATA_DIR", m_before->c_str(), 1);
        else
            ::unsetenv("IOPRISM_DATA_DIR");
    }
    DataFolder(const DataFolder &) = delete;
    DataFolder &operator=(const DataFolder &) = delete;

private:
    std::optional<std::string> m_before;
};

// The profile's worker on a test file of its own in `folder`.
core::Worker workerIn(const core::Worker &like, const fs::path &folder)
{
    core::Worker w = like;
    for (auto &t : w.targets) {
        t.kind = core::TargetKind::TestFile;
        t.path = (folder / "ioprism-test.dat").string();
        t.testFileSizeBytes = 8 * core::kMiB;
    }
    return w;
}

// Bind to Agent… on the profile's host `hostId`, over TLS with the token: true once bound.
bool bindToAgent(MainWindow &window, std::uint32_t hostId, const std::string &token)
{
    QPointer<ManagerDialog> dialog = window.askManager(hostId);
    if (!dialog)
        return false;
    dialog->tokenFileField()->setText(QString::fromStdString(token));
    dialog->plaintextField()->setChecked(false);
    dialog->connectToManager();
    const bool bound
        = test::waitUntil([&] { return window.managers()->boundTo(hostId) != nullptr; }, 60s);
    if (!bound && dialog)
        ADD_FAILURE() << "host " << hostId << ": " << dialog->errorLabel()->text().toStdString();
    if (dialog)
        dialog->reject();
    return bound;
}

TEST(RealAgents, ThreeAgentProcessesAndThisHostRunOneProfileAndAllIsExact)
{
    IOPRISM_REQUIRE(fs::exists(test::agentPath()), "ioprism-agent is not built");
    test::ensureApp();
    test::TempDir dir;
    DataFolder data(dir.path() / "data");
    const std::string token = tokenFile(dir, "real-agents-gui-token-0123456789");
    ::chmod(token.c_str(), 0600);

    std::vector<std::unique_ptr<test::AgentProcess>> agents;
    for (int n = 1; n <= 3; ++n) {
        const fs::path root = dir.path() / ("agent" + std::to_string(n));
        fs::create_directories(root);
        // Each agent's output in a folder of its own (the process's log files are named
        // by its starts, not by agent).
        const fs::path logs = dir.path() / ("logs" + std::to_string(n));
        fs::create_directories(logs);
        agents.push_back(std::make_unique<test::AgentProcess>(logs,
            std::vector<std::string> {"--token-file", token, "--allow", root.string(),
                "--identity-dir", (dir.path() / ("identity" + std::to_string(n))).string()}));
        ASSERT_TRUE(agents.back()->listening()) << agents.back()->log();
    }

    // This host and three managers, each on a test file of its own (its agent's root).
    core::Profile profile = test::smallProfile(2s, 100ms);
    const core::Worker like = profile.hosts[0].workers[0];
    fs::create_directories(dir.path() / "local");
    profile.hosts[0].workers = {workerIn(like, dir.path() / "local")};
    for (std::uint32_t n = 1; n <= 3; ++n) {
        core::Host host {.id = n + 1,
            .name = "agent-" + std::to_string(n),
            .networkAddress = agents[n - 1]->address()};
        host.workers = {workerIn(like, dir.path() / ("agent" + std::to_string(n)))};
        profile.hosts.push_back(host);
    }
    MainWindow window(app::platformServices(), withLibrary(dir));
    window.document()->setProfile(profile);
    for (std::uint32_t n = 1; n <= 3; ++n) {
        ASSERT_TRUE(bindToAgent(window, n + 1, token));
        // Recorded on first use, with the fingerprint the agent printed.
        const QString fingerprint = QString::fromStdString(agents[n - 1]->fingerprint());
        EXPECT_TRUE(test::waitUntil([&] { return barSays(window, fingerprint); }, 10s))
            << agents[n - 1]->fingerprint();
    }
    TopologyModel *topology = window.workerPanel()->model();
    ASSERT_EQ(topology->rowCount(), 4);
    for (int row = 1; row < 4; ++row)
        EXPECT_FALSE(
            topology->index(row, 0).data().toString().contains(QStringLiteral("not run here")));

    // IOPRISM_TEST_SHOTS=DIR keeps pictures of the topology and the results, to look at
    // (docs/screenshots/agents-*.png are made so, under Xvfb).
    const char *shots = std::getenv("IOPRISM_TEST_SHOTS");
    const auto shoot = [&](MainWindow::Page page, const char *name) {
        if (!shots)
            return;
        window.resize(1600, 1000);
        window.showPage(page);
        window.show();
        window.workerPanel()->tree()->expandAll();
        if (auto *dock = window.findChild<QDockWidget *>())
            window.resizeDocks({dock}, {560}, Qt::Horizontal);
        QApplication::processEvents();
        window.grab().save(QString::fromLocal8Bit(shots) + QLatin1Char('/') + QLatin1String(name));
    };
    shoot(MainWindow::TargetsTab, "agents-topology.png");

    const RunResultPtr result = runOnce(window);
    ASSERT_TRUE(result);
    ASSERT_FALSE(result->error) << result->error->toString();
    ASSERT_EQ(result->hosts.size(), 4U);
    for (std::size_t h = 1; h < 4; ++h)
        EXPECT_EQ(result->hosts[h].agent, agents[h - 1]->address());
    ASSERT_EQ(result->steps.size(), 1U);

    // All: the sum of the hosts' I/Os, and the p99 of their histograms merged, per
    // direction, from what each agent's own run measured.
    const auto &scopes = result->steps[0].scopes;
    const core::ScopeResult &all = scopes.front();
    core::LatencyHistogram reads, writes;
    std::uint64_t hostIos = 0;
    int hosts = 0;
    for (const auto &scope : scopes) {
        if (scope.scope.kind != core::Scope::Kind::Host)
            continue;
        ++hosts;
        EXPECT_GT(ios(scope), 0U) << scope.scope.label;
        hostIos += ios(scope);
        reads.merge(scope.measurement.read.histogram);
        writes.merge(scope.measurement.write.histogram);
    }
    EXPECT_EQ(hosts, 4);
    EXPECT_EQ(ios(all), hostIos);
    EXPECT_DOUBLE_EQ(all.figures.read.latency.p99Us, reads.percentileNs(99) / 1e3);
    EXPECT_DOUBLE_EQ(all.figures.write.latency.p99Us, writes.percentileNs(99) / 1e3);

    shoot(MainWindow::ResultsTab, "agents-results.png");

    // Kept in History like any run.
    EXPECT_TRUE(
        test::waitUntil([&] { return window.historyPage()->model()->rowCount() == 1; }, 60s));
}

} // namespace
} // namespace ioprism::ui
