// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 24, item 4: an Iometer file with several managers. IOPrism runs the first (this
// machine); the others are shown in the Topology, marked "not run here", with their
// workers (rows under them since issue 28) and problems in the tooltip, and their problems
// never stop Start.
#include "support/test_support.h"
#include "ui/main_window.h"
#include "ui/message_bar.h"
#include "ui/models/profile_document.h"
#include "ui/models/topology_model.h"

#include <QTreeView>

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using namespace std::chrono_literals;

TEST(Managers, EveryManagerIsShownAndOnlyThisHostsProblemsBlockStart)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(test::testServices(), test::isolatedOptions(dir.path()));
    core::Profile profile = test::smallProfile(1s, 100ms);
    core::Host lab {.id = 2, .name = "lab-02"};
    core::Worker remote = profile.hosts[0].workers[0];
    remote.name = "Remote 1";
    remote.targets = {core::Target {.kind = core::TargetKind::BlockDevice, .path = "sdz"}};
    remote.targets[0].unresolved = true; // a disk of that machine
    lab.workers = {remote};
    profile.hosts.push_back(lab);
    window.document()->setProfile(profile);

    // Shown: this host first, then the other manager, marked.
    TopologyModel model(window.document());
    ASSERT_EQ(model.rowCount(), 2);
    const QModelIndex other = model.index(1, 0);
    const QString text = other.data().toString();
    EXPECT_TRUE(text.contains(QStringLiteral("lab-02"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("not run here"))) << text.toStdString();
    // Issue 28: its workers and their targets are rows under it, as this host's are
    // (they were none before: the other manager was a row without children).
    ASSERT_EQ(model.rowCount(other), 1);
    const QModelIndex remoteWorker = model.index(0, 0, other);
    EXPECT_EQ(remoteWorker.data().toString(), QStringLiteral("Remote 1"));
    EXPECT_EQ(model.parent(remoteWorker), other);
    EXPECT_EQ(remoteWorker.data(TopologyModel::HostIndexRole).toInt(), 1);
    ASSERT_EQ(model.rowCount(remoteWorker), 1);
    EXPECT_EQ(model.index(0, 0, remoteWorker).data().toString(), QStringLiteral("sdz"));
    EXPECT_FALSE(model.parent(other).isValid());
    EXPECT_EQ(other.data(TopologyModel::WorkerIndexRole).toInt(), -1);
    const QString tip = other.data(Qt::ToolTipRole).toString();
    EXPECT_TRUE(tip.contains(QStringLiteral("Remote 1: sdz"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("was not found on this machine"))) << tip.toStdString();

    // Its problems are warnings: Start runs this host's workers.
    EXPECT_FALSE(window.document()->hasErrors());
    bool finished = false;
    QObject::connect(&window, &MainWindow::runFinished, [&](RunResultPtr) { finished = true; });
    ASSERT_TRUE(window.startRun()) << window.messageBar()->currentText().toStdString();
    EXPECT_TRUE(test::waitUntil([&] { return finished; }, 30s));
}

} // namespace
} // namespace ioprism::ui
