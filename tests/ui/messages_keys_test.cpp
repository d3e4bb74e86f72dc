// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 14, items 3 and 6: messages that are seen (errors first, several stacked in
// view) and every key of the user guide's keyboard table bound and shown in its menu.
#include "support/test_support.h"
#include "ui/main_window.h"
#include "ui/message_bar.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTest>

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

TEST(Messages, AnErrorComesBeforeAnOlderNoticeAndSeveralStackInView)
{
    test::ensureApp();
    QWidget parent;
    auto *bar = new MessageBar(&parent);
    parent.resize(800, 300);
    parent.show();
    bar->showMessage(MessageBar::Level::Information, QStringLiteral("an old notice"));
    bar->showMessage(MessageBar::Level::Warning, QStringLiteral("a warning"));
    bar->showMessage(MessageBar::Level::Error, QStringLiteral("the error"));
    EXPECT_EQ(bar->currentLevel(), MessageBar::Level::Error);
    EXPECT_EQ(bar->currentText(), QStringLiteral("the error"));
    EXPECT_EQ(bar->textAt(1), QStringLiteral("a warning"));
    EXPECT_EQ(bar->textAt(2), QStringLiteral("an old notice"));
    // All three are in view, not one waiting behind the other.
    EXPECT_EQ(bar->shownCount(), 3);
    QStringList visibleTexts;
    for (auto *label : bar->findChildren<QLabel *>())
        if (label->isVisible())
            visibleTexts << label->text();
    for (const char *text : {"the error", "a warning", "an old notice"})
        EXPECT_TRUE(visibleTexts.contains(QString::fromUtf8(text))) << text;

    // A second error goes after the first, before the warning.
    bar->showMessage(MessageBar::Level::Error, QStringLiteral("a second error"));
    EXPECT_EQ(bar->textAt(1), QStringLiteral("a second error"));
    // Closing a stacked message leaves the others.
    bar->dismissAt(2);
    EXPECT_EQ(bar->pendingCount(), 3);
    EXPECT_EQ(bar->textAt(2), QStringLiteral("an old notice"));
    bar->dismiss();
    EXPECT_EQ(bar->currentText(), QStringLiteral("a second error"));
    // More than fit: the rest are counted.
    for (int i = 0; i < 5; ++i)
        bar->showMessage(MessageBar::Level::Information, QStringLiteral("notice %1").arg(i));
    EXPECT_EQ(bar->shownCount(), 1 + MessageBar::kStackedRows);
    bool counted = false;
    for (auto *label : bar->findChildren<QLabel *>())
        counted = counted || (label->isVisible() && label->text().contains(QStringLiteral("more")));
    EXPECT_TRUE(counted);
    bar->clearAll();
    EXPECT_FALSE(bar->isVisible());
}

// The keys of the user guide's "Keyboard" table, expanded ("Ctrl+1 … Ctrl+6").
QStringList guideKeys()
{
    QFile guide(QStringLiteral(IOPRISM_SOURCE_DIR "/docs/user-guide.md"));
    EXPECT_TRUE(guide.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(guide.readAll());
    const qsizetype table = text.indexOf(QStringLiteral("| Keys | Action |"));
    EXPECT_GE(table, 0);
    QStringList keys;
    for (const QString &line : text.mid(table).split(QLatin1Char('\n')).mid(2)) {
        if (!line.startsWith(QLatin1Char('|')))
            break;
        const QString cell = line.section(QLatin1Char('|'), 1, 1).trimmed();
        const QRegularExpression range(QStringLiteral("^(\\S+)\\+(\\d) … \\S+\\+(\\d)$"));
        if (const auto m = range.match(cell); m.hasMatch()) {
            for (int i = m.captured(2).toInt(); i <= m.captured(3).toInt(); ++i)
                keys << QStringLiteral("%1+%2").arg(m.captured(1)).arg(i);
            continue;
        }
        for (const QString &key : cell.split(QRegularExpression(QStringLiteral("\\s*[,/]\\s*"))))
            keys << key;
    }
    return keys;
}

void collectMenuActions(QMenu *menu, QList<QAction *> &actions)
{
    for (auto *action : menu->actions()) {
        if (action->menu())
            collectMenuActions(action->menu(), actions);
        else
            actions << action;
    }
}

TEST(Keys, EveryKeyOfTheUserGuideIsBoundAndShownInAMenu)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindowOptions options;
    options.restoreSession = false;
    options.dataDirectory = QString::fromStdString(dir.path().string());
    MainWindow window(ioprism::test::testServices(), options);
    QList<QAction *> actions;
    for (auto *menuAction : window.menuBar()->actions())
        if (menuAction->menu())
            collectMenuActions(menuAction->menu(), actions);
    const QStringList keys = guideKeys();
    ASSERT_GE(keys.size(), 15) << keys.join(' ').toStdString();
    for (const QString &key : keys) {
        // F2 is the item views' own edit key (rename in place), not a menu command.
        if (key == QStringLiteral("F2"))
            continue;
        const QKeySequence sequence(key, QKeySequence::PortableText);
        ASSERT_FALSE(sequence.isEmpty()) << key.toStdString();
        bool inMenu = false;
        for (auto *action : actions)
            inMenu = inMenu || action->shortcuts().contains(sequence);
        EXPECT_TRUE(inMenu) << key.toStdString() << " is in no menu";
    }
}

TEST(Keys, CtrlShiftSOpensSaveAs)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindowOptions options;
    options.restoreSession = false;
    options.dataDirectory = QString::fromStdString(dir.path().string());
    MainWindow window(ioprism::test::testServices(), options);
    window.show();
    QApplication::setActiveWindow(&window);
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    QTest::keySequence(&window, QKeySequence(QStringLiteral("Ctrl+Shift+S")));
    QFileDialog *dialog = nullptr;
    test::waitUntil(
        [&] {
            dialog = window.findChild<QFileDialog *>();
            return dialog && dialog->isVisible();
        },
        std::chrono::seconds(2));
    ASSERT_NE(dialog, nullptr);
    EXPECT_EQ(dialog->acceptMode(), QFileDialog::AcceptSave);
    dialog->reject();
}

} // namespace
} // namespace ioprism::ui
