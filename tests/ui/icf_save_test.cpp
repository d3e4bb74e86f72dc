// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 24, item 7: Ctrl+S after importing an .icf silently dropped what the format
// cannot carry (a spec's own queue depth: Q8T1 became QD1 in Iometer) and said so after.
// Now Save asks first: the file stays as it was until the user chooses to leave those
// settings out, and Save as JSON is offered under the same name.
#include "support/test_support.h"
#include "ui/main_window.h"
#include "ui/models/profile_document.h"

#include <QAbstractButton>
#include <QAction>
#include <QFileDialog>
#include <QMessageBox>
#include <QPixmap>

#include <cstdlib>
#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

// Lets boxes closed with WA_DeleteOnClose go, so that findChild sees only open ones.
void deleteClosed()
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

QAbstractButton *buttonNamed(QMessageBox *box, const QString &text)
{
    for (QAbstractButton *b : box->buttons())
        if (b->text() == text)
            return b;
    return nullptr;
}

TEST(IcfSave, SavingOverAnIcfThatCannotCarryTheProfileAsksFirstAndOffersJson)
{
    test::ensureApp();
    test::TempDir dir;
    const auto icf = dir.path() / "lab.icf";
    std::filesystem::copy_file(test::sourceDir() / "tests/fixtures/icf/reference.icf", icf);
    const std::string before = test::readFile(icf);
    MainWindow window(test::testServices(), test::isolatedOptions(dir.path()));
    const QString path = QString::fromStdString(icf.string());
    core::Profile profile = test::smallProfile();
    profile.specs[0].queueDepth = 8; // Q8: no place for it in an .icf
    window.document()->setProfile(profile, path);

    window.saveAction()->trigger();
    auto *box = window.findChild<QMessageBox *>(QStringLiteral("lossyIcfSave"));
    ASSERT_NE(box, nullptr) << "saved without asking";
    // Named as the window names it, not by its JSON path (queueDepth).
    EXPECT_TRUE(box->text().contains(QStringLiteral("queue depth: per-spec queue depth")))
        << box->text().toStdString();
    EXPECT_EQ(test::readFile(icf), before) << "written before the answer";
    if (const char *shots = std::getenv("IOPRISM_TEST_SHOTS")) // a picture to look at
        box->grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/lossy-icf-save.png"));

    // Save as JSON: the save dialog proposes the same name as .json.
    QAbstractButton *json = buttonNamed(box, QStringLiteral("Save as JSON…"));
    ASSERT_NE(json, nullptr);
    json->click();
    deleteClosed();
    auto *dialog = window.findChild<QFileDialog *>();
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->selectedFiles().value(0).endsWith(QStringLiteral("lab.json")))
        << dialog->selectedFiles().value(0).toStdString();
    dialog->reject();
    deleteClosed();
    EXPECT_EQ(test::readFile(icf), before);

    // Leaving them out is the user's choice, and only then is the file written.
    window.saveAction()->trigger();
    box = window.findChild<QMessageBox *>(QStringLiteral("lossyIcfSave"));
    ASSERT_NE(box, nullptr);
    QAbstractButton *anyway = buttonNamed(box, QStringLiteral("Leave them out"));
    ASSERT_NE(anyway, nullptr);
    anyway->click();
    deleteClosed();
    EXPECT_NE(test::readFile(icf), before);

    // A profile the format carries whole (an Iometer file as it was read) is saved at once.
    const auto plain = dir.path() / "plain.icf";
    std::filesystem::copy_file(test::sourceDir() / "tests/fixtures/icf/reference.icf", plain);
    ASSERT_TRUE(window.openFile(QString::fromStdString(plain.string())));
    window.saveAction()->trigger();
    deleteClosed();
    EXPECT_EQ(window.findChild<QMessageBox *>(QStringLiteral("lossyIcfSave")), nullptr);
}

} // namespace
} // namespace ioprism::ui
