// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 24, item 1: what runs is what the window shows. A field whose text cannot be read
// keeps the profile at its last readable value, so Start refuses while any field is red,
// naming the field, in English and in German; once the field is corrected, Start runs.
#include "support/test_support.h"
#include "ui/main_window.h"
#include "ui/message_bar.h"
#include "ui/models/profile_document.h"
#include "ui/pages/setup_page.h"
#include "ui/translations.h"

#include <QLineEdit>
#include <QPixmap>

#include <cstdlib>
#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using namespace std::chrono_literals;

TEST(StartRefuses, WhileAFieldHoldsTextThatIsNotAValueStartRunsNothingAndNamesIt)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(test::testServices(), test::isolatedOptions(dir.path()));
    window.document()->setProfile(test::smallProfile(4s, 100ms));
    QLineEdit *runTime = window.setupPage()->runTimeField();
    runTime->setText(QStringLiteral("lots"));
    emit runTime->editingFinished();
    EXPECT_EQ(window.document()->profile().setup.runTime, 4s) << "the last readable value";

    bool started = false;
    QObject::connect(&window, &MainWindow::runFinished, [&](RunResultPtr) { started = true; });
    EXPECT_FALSE(window.startRun()) << "Start ran the previous 4 s";
    EXPECT_FALSE(window.stopAction()->isEnabled()) << "nothing runs";
    const QString text = window.messageBar()->currentText();
    const QString details = window.messageBar()->currentDetails();
    EXPECT_TRUE(text.contains(QStringLiteral("cannot run"))) << text.toStdString();
    EXPECT_TRUE(details.contains(QStringLiteral("Run time per step"))) << details.toStdString();
    EXPECT_TRUE(details.contains(QStringLiteral("\"lots\""))) << details.toStdString();
    // IOPRISM_TEST_SHOTS=DIR keeps a picture of the refusal, to look at.
    if (const char *shots = std::getenv("IOPRISM_TEST_SHOTS")) {
        window.resize(1400, 900);
        window.show();
        window.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/start-refused.png"));
    }

    // Corrected, the field is no longer in the way, and Start runs what it shows.
    runTime->setText(QStringLiteral("1"));
    emit runTime->editingFinished();
    EXPECT_EQ(window.document()->profile().setup.runTime, 1s);
    ASSERT_TRUE(window.startRun());
    EXPECT_TRUE(test::waitUntil([&] { return started; }, 30s));
}

TEST(StartRefuses, TheRefusalNamesTheFieldInGerman)
{
    test::GermanUi german; // English again at the end, with its plural forms
    ASSERT_TRUE(german.installed);
    test::TempDir dir;
    {
        MainWindow window(test::testServices(), test::isolatedOptions(dir.path()));
        window.document()->setProfile(test::smallProfile(4s, 100ms));
        QLineEdit *runTime = window.setupPage()->runTimeField();
        runTime->setText(QStringLiteral("viel"));
        emit runTime->editingFinished();
        EXPECT_FALSE(window.startRun());
        const QString details = window.messageBar()->currentDetails();
        EXPECT_TRUE(details.contains(QStringLiteral("Laufzeit"))) << details.toStdString();
        EXPECT_FALSE(window.messageBar()->currentText().contains(QStringLiteral("cannot")))
            << window.messageBar()->currentText().toStdString();
    }
}

} // namespace
} // namespace ioprism::ui

namespace ioprism::ui {
namespace {

// Issue 24, item 12: why Start refused belongs to the profile as it was. It names the
// one problem, is not stacked again by a second Start, and goes when the profile changes
// (the problem fixed, a preset applied, another file opened).
TEST(StartRefuses, TheRefusalGoesWhenTheProfileChangesAndIsNeverStacked)
{
    using namespace std::chrono_literals;
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(test::testServices(), test::isolatedOptions(dir.path()));
    core::Profile broken = test::smallProfile(4s, 100ms);
    broken.specs[0].lines[0].percentRead = 140;
    window.document()->setProfile(broken);
    MessageBar *bar = window.messageBar();
    bar->clearAll();

    EXPECT_FALSE(window.startRun());
    // In the window's words (placesInWords), not the JSON path percentRead.
    EXPECT_TRUE(bar->currentText().contains(QStringLiteral("line 1, % read: 140 is above 100")))
        << "the one problem is named: " << bar->currentText().toStdString();
    EXPECT_FALSE(window.startRun());
    EXPECT_EQ(bar->pendingCount(), 1) << "a second Start stacked the same refusal";

    // Fixed: the refusal goes.
    window.document()->setProfile(test::smallProfile(4s, 100ms));
    EXPECT_EQ(bar->pendingCount(), 0) << bar->currentText().toStdString();

    // A preset replaces the profile: the refusal goes too.
    window.document()->setProfile(broken);
    EXPECT_FALSE(window.startRun());
    ASSERT_EQ(bar->pendingCount(), 1);
    ASSERT_TRUE(window.applyPreset("quick"));
    for (int i = 0; i < bar->pendingCount(); ++i)
        EXPECT_FALSE(bar->textAt(i).contains(QStringLiteral("cannot run")))
            << bar->textAt(i).toStdString();
}

} // namespace
} // namespace ioprism::ui
