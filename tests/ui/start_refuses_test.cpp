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
    MainWindowOptions options;
    options.restoreSession = false;
    options.dataDirectory = QString::fromStdString(dir.path().string());
    MainWindow window(nullPlatformServices(), options);
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
    test::ensureApp();
    ASSERT_TRUE(installTranslations(QLocale(QLocale::German, QLocale::Germany)).ioprism);
    test::TempDir dir;
    MainWindowOptions options;
    options.restoreSession = false;
    options.dataDirectory = QString::fromStdString(dir.path().string());
    {
        MainWindow window(nullPlatformServices(), options);
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
    removeTranslations();
}

} // namespace
} // namespace ioprism::ui
