// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 28, item 3: the topology lists several managers, and each manager's workers are
// edited there as Iometer's are. Selecting a manager (or a row under it) in the tree
// makes it the one edited: Add worker, the worker's settings, the Targets page and the
// run order then change that manager's workers and no other's, and a saved profile keeps
// every manager's. Its targets are paths on its host: typed, never a file dialog of this
// machine's.
#include "core/profile/profile_json.h"
#include "support/test_support.h"
#include "ui/editors/worker_panel.h"
#include "ui/main_window.h"
#include "ui/models/assigned_specs_model.h"
#include "ui/models/profile_document.h"
#include "ui/models/targets_model.h"
#include "ui/models/topology_model.h"
#include "ui/pages/specs_page.h"
#include "ui/pages/targets_page.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QFileDialog>
#include <QFont>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using namespace std::chrono_literals;

QToolButton *buttonNamed(const QWidget &parent, const QString &text)
{
    for (auto *b : parent.findChildren<QToolButton *>())
        if (b->text() == text)
            return b;
    return nullptr;
}

// A click on a row of the topology, as the user selects it.
void clickRow(QTreeView *tree, const QModelIndex &index)
{
    tree->scrollTo(index);
    const QRect rect = tree->visualRect(index);
    ASSERT_TRUE(rect.isValid()) << "the row is shown";
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, rect.center());
    QApplication::processEvents();
}

// This host with one worker, and the manager "lab-02" (as an Iometer file names one)
// with one worker of its own on a path of its host; two specs.
core::Profile twoManagers()
{
    core::Profile profile = test::smallProfile(1s, 100ms);
    core::AccessSpec seq = profile.specs[0];
    seq.name = "SEQ1M";
    seq.lines[0].transferSizeBytes = core::kMiB;
    seq.lines[0].alignmentBytes = core::kMiB;
    seq.lines[0].percentRandom = 0;
    profile.specs.push_back(seq);
    profile.hosts[0].id = 1;
    core::Host lab {.id = 2, .name = "lab-02"};
    core::Worker remote = profile.hosts[0].workers[0];
    remote.name = "Remote 1";
    remote.targets[0].path = "/srv/remote.dat";
    lab.workers = {remote};
    profile.hosts.push_back(lab);
    return profile;
}

TEST(ManagerWorkers, AnotherManagersWorkersAreEditedThroughTheTopologyAndSaved)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(test::testServices(), test::isolatedOptions(dir.path()));
    const core::Profile original = twoManagers();
    window.document()->setProfile(original);
    window.resize(1400, 900);
    window.show();
    window.showPage(MainWindow::TargetsTab);
    QApplication::processEvents();

    ProfileDocument *document = window.document();
    WorkerPanel *panel = window.workerPanel();
    TopologyModel *topology = panel->model();
    QTreeView *tree = panel->tree();
    TargetsModel *targets = window.targetsPage()->model();

    // Iometer's tree: every manager with its workers, each worker with its targets.
    ASSERT_EQ(topology->rowCount(), 2);
    const QModelIndex lab = topology->hostIndex(1);
    ASSERT_EQ(topology->rowCount(lab), 1);
    const QModelIndex remote = topology->index(0, 0, lab);
    EXPECT_EQ(remote.data().toString(), QStringLiteral("Remote 1"));
    EXPECT_EQ(remote.data(TopologyModel::HostIndexRole).toInt(), 1);
    EXPECT_EQ(remote.data(TopologyModel::WorkerIndexRole).toInt(), 0);
    ASSERT_EQ(topology->rowCount(remote), 1);
    EXPECT_EQ(topology->index(0, 0, remote).data().toString(), QStringLiteral("/srv/remote.dat"));
    EXPECT_EQ(topology->index(0, 0, remote).data(TopologyModel::TargetIndexRole).toInt(), 0);
    EXPECT_EQ(document->currentHost(), 0);

    // Selecting the manager's row makes it the one edited, its first worker selected.
    clickRow(tree, lab);
    ASSERT_EQ(document->currentHost(), 1);
    EXPECT_EQ(panel->currentWorker(), 0);
    EXPECT_TRUE(lab.data(Qt::FontRole).value<QFont>().bold()) << "the manager edited is bold";
    EXPECT_FALSE(topology->hostIndex(0).data(Qt::FontRole).value<QFont>().bold());
    EXPECT_TRUE(
        lab.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Select this manager")));
    // Its targets are its host's: none of this machine's places is offered.
    EXPECT_TRUE(targets->remoteHost());
    ASSERT_EQ(targets->rowCount(), 1);
    EXPECT_EQ(targets->index(0, 0).data(TargetsModel::PathRole).toString(),
        QStringLiteral("/srv/remote.dat"));
    EXPECT_TRUE(targets->index(0, 0)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("A path on lab-02, not on this machine")));
    auto *title = window.targetsPage()->findChild<QLabel *>(QStringLiteral("targetsTitle"));
    ASSERT_NE(title, nullptr);
    EXPECT_EQ(title->text(), QStringLiteral("Targets of Remote 1 on lab-02"));
    auto *note = window.targetsPage()->findChild<QLabel *>(QStringLiteral("remoteTargetsNote"));
    ASSERT_NE(note, nullptr);
    EXPECT_TRUE(note->isVisible());
    EXPECT_TRUE(note->text().contains(QStringLiteral("paths on lab-02")))
        << note->text().toStdString();

    // Add worker: on the selected manager.
    QToolButton *add = buttonNamed(*panel, QStringLiteral("Add"));
    ASSERT_NE(add, nullptr);
    EXPECT_TRUE(add->toolTip().contains(QStringLiteral("selected manager")));
    add->click();
    ASSERT_EQ(document->profile().hosts[1].workers.size(), 2u);
    EXPECT_EQ(document->profile().hosts[0], original.hosts[0]);
    EXPECT_EQ(panel->currentWorker(), 1);
    EXPECT_EQ(tree->currentIndex(), topology->workerIndex(1, 1));
    EXPECT_EQ(topology->rowCount(topology->hostIndex(1)), 2);
    const std::string added = document->profile().hosts[1].workers[1].name;

    // Its target, through the Targets page: a path typed for that host, no file dialog.
    QToolButton *addFile = buttonNamed(*window.targetsPage(), QStringLiteral("Add test file…"));
    ASSERT_NE(addFile, nullptr);
    addFile->click();
    QApplication::processEvents();
    EXPECT_EQ(test::findVisible<QFileDialog>(window), nullptr)
        << "this machine's files are not offered";
    auto *typed = test::findVisible<QInputDialog>(window, QStringLiteral("remotePathDialog"));
    ASSERT_NE(typed, nullptr);
    EXPECT_TRUE(typed->toolTip().contains(QStringLiteral("A path on lab-02, not on this machine")));
    EXPECT_TRUE(typed->labelText().contains(QStringLiteral("lab-02")));
    typed->setTextValue(QStringLiteral("/srv/new.dat"));
    typed->accept();
    QApplication::processEvents();
    // The worker (a copy of the manager's first) has a target: replace it.
    auto *box = test::findVisible<QMessageBox>(window, QStringLiteral("addTestFileDialog"));
    ASSERT_NE(box, nullptr);
    box->findChild<QAbstractButton *>(QStringLiteral("replaceTargets"))->click();
    QApplication::processEvents();
    {
        const auto &worker = document->profile().hosts[1].workers[1];
        ASSERT_EQ(worker.targets.size(), 1u);
        EXPECT_EQ(worker.targets[0].path, "/srv/new.dat");
        EXPECT_EQ(worker.targets[0].kind, core::TargetKind::TestFile);
        EXPECT_FALSE(worker.targets[0].unresolved) << "another host's path is not looked for here";
        EXPECT_EQ(document->profile().hosts[1].workers[0].targets[0].path, "/srv/remote.dat");
    }

    // Its settings, in the worker panel.
    panel->connectionRateField()->click();
    EXPECT_TRUE(document->profile().hosts[1].workers[1].testConnectionRate);

    // Its run order, on the Access Specifications page: SEQ1M appended.
    window.showPage(MainWindow::SpecsTab);
    SpecsPage *specs = window.specsPage();
    EXPECT_EQ(specs->assignedModel()->worker(), 1);
    specs->selectSpec("SEQ1M");
    QToolButton *assign = buttonNamed(*specs, QStringLiteral("Assign"));
    ASSERT_NE(assign, nullptr);
    assign->click();
    const std::vector<std::string> runOrder {"RND4K QD4", "SEQ1M"};
    EXPECT_EQ(document->profile().hosts[1].workers[1].assignedSpecs, runOrder);
    EXPECT_EQ(document->profile().hosts[0], original.hosts[0]) << "this host is not touched";
    EXPECT_EQ(document->profile().hosts[1].workers[0], original.hosts[1].workers[0]);

    // Row 0 again: this host is edited, its own worker and this machine's places.
    clickRow(tree, topology->hostIndex(0));
    ASSERT_EQ(document->currentHost(), 0);
    EXPECT_FALSE(targets->remoteHost());
    EXPECT_TRUE(note->isHidden()) << "this host's targets are this machine's";
    EXPECT_EQ(panel->currentWorker(), 0);
    EXPECT_EQ(specs->assignedModel()->rowCount(), 1) << "this host's worker runs one spec";
    clickRow(tree, topology->workerIndex(0, 0));
    panel->connectionRateField()->click();
    EXPECT_TRUE(document->profile().hosts[0].workers[0].testConnectionRate);
    EXPECT_TRUE(document->profile().hosts[1].workers[1].testConnectionRate);
    EXPECT_FALSE(document->profile().hosts[1].workers[0].testConnectionRate);
    const core::Profile edited = document->profile();

    // A target row under the other manager selects it and its worker too.
    clickRow(tree, topology->index(0, 0, topology->workerIndex(1, 1)));
    EXPECT_EQ(document->currentHost(), 1);
    EXPECT_EQ(panel->currentWorker(), 1);
    EXPECT_EQ(window.targetsPage()->model()->worker(), 1);

    // Saved as JSON: both managers' workers, as edited.
    const auto file = dir.path() / "two-managers.json";
    ASSERT_TRUE(window.saveFile(QString::fromStdString(file.string())));
    std::stringstream text;
    text << std::ifstream(file).rdbuf();
    core::Problems problems;
    const auto saved = core::parseProfileJson(text.str(), problems);
    ASSERT_TRUE(saved.has_value());
    ASSERT_EQ(saved->hosts.size(), 2u);
    EXPECT_EQ(saved->hosts, edited.hosts);
    ASSERT_EQ(saved->hosts[1].workers.size(), 2u);
    EXPECT_EQ(saved->hosts[1].workers[1].name, added);
    EXPECT_EQ(saved->hosts[1].workers[1].targets[0].path, "/srv/new.dat");
    EXPECT_EQ(saved->hosts[1].workers[1].assignedSpecs, runOrder);
    EXPECT_EQ(saved->hosts[0].workers.size(), 1u);
}

// The host edited stays the same manager when another before it is removed, and goes
// back to this host when its own is removed or the profile is replaced.
TEST(ManagerWorkers, TheCurrentHostFollowsItsManagerAndFallsBackToThisHost)
{
    test::ensureApp();
    ProfileDocument document;
    core::Profile profile = twoManagers();
    core::Host third {.id = 3, .name = "lab-03"};
    third.workers = profile.hosts[1].workers;
    third.workers[0].name = "Third 1";
    profile.hosts.push_back(third);
    document.setProfile(profile);
    std::vector<int> said;
    QObject::connect(
        &document, &ProfileDocument::currentHostChanged, [&](int host) { said.push_back(host); });

    document.setCurrentHost(2);
    EXPECT_EQ(document.currentHost(), 2);
    EXPECT_EQ(document.worker(0)->name, "Third 1");
    EXPECT_EQ(document.workerPath(0), "hosts[2].workers[0]");
    EXPECT_EQ(document.targetPath(0, 0), "hosts[2].workers[0].targets[0]");
    document.setCurrentHost(7); // no such host: ignored
    EXPECT_EQ(document.currentHost(), 2);

    // lab-02 removed: lab-03 is hosts[1] now, and still the one edited.
    auto &hosts = document.mutableProfile().hosts;
    hosts.erase(hosts.begin() + 1);
    document.commitStructure(nullptr);
    EXPECT_EQ(document.currentHost(), 1);
    EXPECT_EQ(document.worker(0)->name, "Third 1");
    // Its own removal: this host.
    document.mutableProfile().hosts.pop_back();
    document.commitStructure(nullptr);
    EXPECT_EQ(document.currentHost(), 0);
    EXPECT_EQ(document.worker(0)->name, "Worker 1");

    document.setProfile(profile);
    document.setCurrentHost(1);
    document.setProfile(profile);
    EXPECT_EQ(document.currentHost(), 0);
    EXPECT_EQ(said, (std::vector<int> {2, 1, 0, 1, 0}));
}

} // namespace
} // namespace ioprism::ui
