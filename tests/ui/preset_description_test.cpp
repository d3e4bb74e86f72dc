// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 14, item 2(a): applying a preset replaces the Test Setup description, which goes
// into the saved profile and the CSV.
#include "core/profile/presets.h"
#include "support/test_support.h"
#include "ui/format.h"
#include "ui/main_window.h"
#include "ui/models/profile_document.h"
#include "ui/pages/setup_page.h"

#include <QLineEdit>

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

} // namespace
} // namespace ioprism::ui
