// SPDX-License-Identifier: GPL-3.0-or-later
// Load -> edit -> save -> compare, through the window: a profile file is opened, edited
// with the same models and panels a user drives, saved, and read back.
#include "core/profile/icf.h"
#include "core/profile/presets.h"
#include "core/profile/profile_json.h"
#include "support/test_support.h"
#include "ui/editors/worker_panel.h"
#include "ui/main_window.h"
#include "ui/message_bar.h"
#include "ui/models/assigned_specs_model.h"
#include "ui/models/profile_document.h"
#include "ui/models/spec_library_model.h"
#include "ui/models/spec_lines_model.h"
#include "ui/models/targets_model.h"
#include "ui/models/topology_model.h"
#include "ui/pages/setup_page.h"
#include "ui/pages/specs_page.h"
#include "ui/pages/targets_page.h"

#include <QDir>
#include <QLineEdit>

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

std::string readText(const std::filesystem::path &path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeText(const std::filesystem::path &path, const std::string &text)
{
    std::ofstream(path, std::ios::binary) << text;
}

TEST(ProfileRoundTrip, LoadEditSaveThroughTheWindowGivesTheEditedProfile)
{
    test::ensureApp();
    test::TempDir dir;
    core::Problems problems;
    core::Profile original = *core::loadPreset("quick", problems);
    original.hosts[0].workers[0].targets[0].path = (dir.path() / "t.dat").string();
    const auto input = dir.path() / "in.json";
    writeText(input, core::writeProfileJson(original));

    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    ASSERT_TRUE(window.openFile(QString::fromStdString(input.string())));
    EXPECT_EQ(window.document()->profile(), original);
    EXPECT_FALSE(window.document()->isModified());

    core::Profile expected = original;
    // 1. Rename the worker in the topology tree.
    auto *topology = window.workerPanel()->model();
    ASSERT_TRUE(topology->setData(topology->workerIndex(0), QStringLiteral("Main worker")));
    expected.hosts[0].workers[0].name = "Main worker";
    // 2. Edit a line of the second spec in the spec editor.
    const std::string specName = original.specs[1].name;
    window.specsPage()->selectSpec(specName);
    auto *lines = window.specsPage()->linesModel();
    ASSERT_EQ(lines->spec(), 1);
    ASSERT_TRUE(lines->setData(lines->index(0, SpecLinesModel::ReadColumn), 50));
    expected.specs[1].lines[0].percentRead = 50;
    // 3. A new spec, assigned last.
    const int added = window.specsPage()->libraryModel()->addSpec();
    ASSERT_EQ(added, static_cast<int>(original.specs.size()));
    core::AccessSpec untitled;
    untitled.name = "Untitled";
    untitled.lines.push_back(core::SpecLine {});
    expected.specs.push_back(untitled);
    ASSERT_GE(window.specsPage()->assignedModel()->assign("Untitled"), 0);
    expected.hosts[0].workers[0].assignedSpecs.push_back("Untitled");
    // 4. The target's queue depth in the targets table.
    auto *targets = window.targetsPage()->model();
    int row = -1;
    for (int r = 0; r < targets->rowCount(); ++r)
        if (targets->index(r, 0)
                .data(TargetsModel::PathRole)
                .toString()
                .endsWith(QStringLiteral("t.dat")))
            row = r;
    ASSERT_GE(row, 0);
    ASSERT_TRUE(targets->setData(targets->index(row, TargetsModel::OutstandingColumn), 16));
    expected.hosts[0].workers[0].targets[0].outstandingIos = 16;
    // 5. The run time on the Test setup page.
    QLineEdit *runTime = window.setupPage()->runTimeField();
    runTime->setText(QStringLiteral("1m30s"));
    emit runTime->editingFinished();
    expected.setup.runTime = std::chrono::seconds(90);
    EXPECT_TRUE(window.document()->isModified());

    const auto output = dir.path() / "out.json";
    ASSERT_TRUE(window.saveFile(QString::fromStdString(output.string())));
    EXPECT_FALSE(window.document()->isModified());
    EXPECT_EQ(window.document()->filePath(), QString::fromStdString(output.string()));
    // Kept as Qt writes paths (slashes), shown and compared as the system writes them.
    EXPECT_EQ(QDir::toNativeSeparators(window.recentFiles().value(0)),
        QString::fromStdString(output.string()));

    core::Problems readProblems;
    const auto saved = core::parseProfileJson(readText(output), readProblems);
    ASSERT_TRUE(saved.has_value());
    EXPECT_EQ(*saved, expected);
    EXPECT_EQ(*saved, window.document()->profile());
}

TEST(ProfileRoundTrip, IcfExportWarnsInTheMessageBarAndImportsBack)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    core::Profile profile = test::smallProfile();
    profile.specs[0].lines[0].distribution.kind = core::DistributionKind::Zipf; // no .icf field
    window.document()->setProfile(profile);

    const auto icf = dir.path() / "out.icf";
    ASSERT_TRUE(window.saveFile(QString::fromStdString(icf.string())));
    EXPECT_EQ(window.messageBar()->currentLevel(), MessageBar::Level::Warning);
    EXPECT_TRUE(window.messageBar()->currentDetails().contains(QStringLiteral("distribution")));

    window.messageBar()->clearAll();
    ASSERT_TRUE(window.openFile(QString::fromStdString(icf.string())));
    EXPECT_EQ(window.document()->profile().specs.size(), 1u);
    EXPECT_EQ(window.document()->profile().hosts[0].workers[0].name, "Worker 1");
}

TEST(ProfileRoundTrip, AFileThatDoesNotParseIsRefusedWithItsProblems)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    const core::Profile before = window.document()->profile();
    const auto bad = dir.path() / "bad.json";
    writeText(bad,
        "{\"format\": \"ioprism-profile\", \"version\": 1, \"setup\": {\"runTime\": \"soon\"}}");
    EXPECT_FALSE(window.openFile(QString::fromStdString(bad.string())));
    EXPECT_EQ(window.messageBar()->currentLevel(), MessageBar::Level::Error);
    EXPECT_TRUE(window.messageBar()->currentDetails().contains(QStringLiteral("setup.runTime")));
    EXPECT_EQ(window.document()->profile(), before);
}

TEST(ProfileRoundTrip, AnOversizeFileIsRefusedUnreadWithTheLimitNamed)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    const core::Profile before = window.document()->profile();
    const auto huge = dir.path() / "huge.icf";
    writeText(huge, "");
    std::filesystem::resize_file(huge, std::uintmax_t(1) << 30); // sparse
    EXPECT_FALSE(window.openFile(QString::fromStdString(huge.string())));
    EXPECT_EQ(window.messageBar()->currentLevel(), MessageBar::Level::Error);
    EXPECT_TRUE(window.messageBar()->currentDetails().contains(
        QStringLiteral("huge.icf: is 1 GiB; IOPrism reads profiles up to 4 MiB")))
        << window.messageBar()->currentDetails().toStdString();
    EXPECT_EQ(window.document()->profile(), before);
}

} // namespace
} // namespace ioprism::ui
