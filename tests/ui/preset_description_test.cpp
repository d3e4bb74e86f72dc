// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 14, item 2(a): applying a preset replaces the Test Setup description, which goes
// into the saved profile and the CSV. Issue 24, item 10: the facts of what runs are shown
// beside the description, made from the profile as it is, and never written into it.
#include "core/profile/describe.h"
#include "core/profile/presets.h"
#include "core/profile/profile_json.h"
#include "support/test_support.h"
#include "ui/format.h"
#include "ui/main_window.h"
#include "ui/models/profile_document.h"
#include "ui/pages/setup_page.h"

#include <QLabel>
#include <QLineEdit>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

// (a) The description field had the focus (it is the Setup page's first field): a preset
// applied from the menu left the old text there, and leaving the field wrote it back.
TEST(ProfilesStayTrue, APresetBringsItsDescriptionEvenWhileTheFieldHasTheFocus)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindowOptions options;
    options.restoreSession = false;
    options.dataDirectory = QString::fromStdString(dir.path().string());
    MainWindow window(ioprism::test::testServices(), options);
    window.show();
    window.activateWindow();
    window.showPage(MainWindow::SetupTab);
    ASSERT_TRUE(window.applyPreset("cdm-default"));
    QLineEdit *field = window.setupPage()->descriptionField();
    field->setFocus();
    ASSERT_TRUE(test::waitUntil([&] { return field->hasFocus(); }, std::chrono::seconds(5)));
    ASSERT_TRUE(window.applyPreset("database"));
    core::Problems problems;
    const auto database = core::loadPreset("database", problems);
    ASSERT_TRUE(database);
    EXPECT_EQ(field->text(), toQString(database->setup.description));
    field->clearFocus(); // editingFinished: what the field shows goes into the profile
    emit field->editingFinished();
    EXPECT_EQ(window.document()->profile().setup.description, database->setup.description);
}

// The preset's words stay; the facts beside them follow the run time and the target the
// user sets, and the saved profile holds only the words, the user's own once edited.
TEST(ProfilesStayTrue, TheSetupPageShowsTheFactsOfTheProfileAsItIsBesideTheDescription)
{
    using ::testing::HasSubstr;
    using ::testing::Not;
    test::ensureApp();
    test::TempDir dir;
    MainWindowOptions options;
    options.restoreSession = false;
    options.dataDirectory = QString::fromStdString(dir.path().string());
    MainWindow window(ioprism::test::testServices(), options);
    window.showPage(MainWindow::SetupTab);
    ASSERT_TRUE(window.applyPreset("cdm-default"));
    SetupPage *page = window.setupPage();
    const auto facts = [&] { return page->factsLabel()->text().toStdString(); };
    // The preset brings its specs and times; the target stays the user's (here the
    // default test file), which the old words ("on a 1 GiB test file") never knew.
    EXPECT_THAT(facts(), HasSubstr("5s measured per spec"));
    EXPECT_THAT(facts(), HasSubstr("ioprism-test.dat (direct, "));
    EXPECT_THAT(facts(), HasSubstr(" test file)"));

    page->runTimeField()->setText(QStringLiteral("1s"));
    emit page->runTimeField()->editingFinished();
    ProfileDocument *document = window.document();
    core::Target device;
    device.kind = core::TargetKind::BlockDevice;
    device.path = "/dev/loop6";
    document->mutableWorker(0)->targets = {device};
    document->commitStructure(nullptr);
    EXPECT_THAT(facts(), HasSubstr("1s measured per spec"));
    EXPECT_THAT(facts(), HasSubstr("on /dev/loop6 (direct, block device)"));
    EXPECT_THAT(facts(), Not(HasSubstr("5s measured")));
    // The preset's pause between tests is still the profile's, and said as such.
    EXPECT_THAT(facts(), HasSubstr("5 passes each, a pause of 5s between specs"));
    EXPECT_THAT(facts(), Not(HasSubstr("1 GiB")));
    EXPECT_THAT(facts(), Not(HasSubstr("test file")));
    EXPECT_EQ(facts(), core::describeRun(document->profile()));

    // The description is the preset's words, true still: no size, time or target in it.
    core::Problems problems;
    const auto preset = core::loadPreset("cdm-default", problems);
    ASSERT_TRUE(preset);
    const std::string words = document->profile().setup.description;
    EXPECT_EQ(words, preset->setup.description);
    EXPECT_THAT(words, Not(HasSubstr("1 GiB")));
    EXPECT_THAT(words, Not(HasSubstr("5 s")));

    // The user's words, verbatim, and only they in the saved profile.
    const QString mine = QStringLiteral("  nightly: 5 s on the 1 GiB file, as before ");
    page->descriptionField()->setText(mine);
    emit page->descriptionField()->editingFinished();
    EXPECT_EQ(document->profile().setup.description, mine.toStdString());
    EXPECT_EQ(core::profileToJson(document->profile())["setup"]["description"], mine.toStdString());
    EXPECT_THAT(core::writeProfileJson(document->profile()), Not(HasSubstr("/dev/loop6 (")));
}

} // namespace
} // namespace ioprism::ui
