// SPDX-License-Identifier: GPL-3.0-or-later
// The window as a desktop citizen: help (the user guide, What's This?, every control
// explained), the About box's facts, the German translation, plural forms, sizes in the
// user's locale, and the plots following the system's light or dark palette.
#include "support/test_support.h"
#include "ui/format.h"
#include "ui/help.h"
#include "ui/main_window.h"
#include "ui/message_bar.h"
#include "ui/models/profile_document.h"
#include "ui/pages/live_page.h"
#include "ui/pages/results_page.h"
#include "ui/pages/series_page.h"
#include "ui/plots/device_overlay.h"
#include "ui/plots/live_plots.h"
#include "ui/plots/qcp_library.h"
#include "ui/plots/series_plot.h"
#include "ui/translations.h"

#include <QAbstractButton>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAction>
#include <QComboBox>
#include <QDesktopServices>
#include <QDockWidget>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QScrollBar>
#include <QSysInfo>
#include <QTabBar>
#include <QTabWidget>
#include <QToolBar>
#include <QUrl>

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

using namespace std::chrono_literals;

// ---------------------------------------------------------------- every control explained

// A control a user can operate: buttons, check boxes, fields, lists, spin boxes, sliders.
// Parts of another control are not asked (a spin box's line edit, a combo box's edit
// field, a tab bar's scroll arrows, scroll bars): the control they belong to is.
bool isControl(const QWidget *w)
{
    const bool kind = qobject_cast<const QAbstractButton *>(w) || qobject_cast<const QLineEdit *>(w)
        || qobject_cast<const QComboBox *>(w) || qobject_cast<const QAbstractSpinBox *>(w)
        || (qobject_cast<const QAbstractSlider *>(w) && !qobject_cast<const QScrollBar *>(w));
    if (!kind)
        return false;
    const QWidget *parent = w->parentWidget();
    if (qobject_cast<const QAbstractSpinBox *>(parent) || qobject_cast<const QComboBox *>(parent)
        || qobject_cast<const QTabBar *>(parent) || qobject_cast<const QScrollBar *>(parent))
        return false;
    // The dock's float and close buttons are the window system's, as in every program; a
    // table's corner button (select all) is part of the table.
    if (w->inherits("QDockWidgetTitleButton") || w->inherits("QTableCornerButton"))
        return false;
    return true;
}

QString describe(const QWidget *w)
{
    QString name = QString::fromLatin1(w->metaObject()->className());
    if (!w->objectName().isEmpty())
        name += QStringLiteral(" \"%1\"").arg(w->objectName());
    if (const auto *button = qobject_cast<const QAbstractButton *>(w))
        name += QStringLiteral(" text \"%1\"").arg(button->text());
    if (const auto *combo = qobject_cast<const QComboBox *>(w))
        name += QStringLiteral(" showing \"%1\"").arg(combo->currentText());
    if (const auto *edit = qobject_cast<const QLineEdit *>(w))
        name += QStringLiteral(" placeholder \"%1\"").arg(edit->placeholderText());
    if (!w->accessibleName().isEmpty())
        name += QStringLiteral(" accessible \"%1\"").arg(w->accessibleName());
    QStringList chain;
    for (const QWidget *p = w->parentWidget(); p; p = p->parentWidget())
        chain << QString::fromLatin1(p->metaObject()->className())
                + (p->objectName().isEmpty() ? QString() : QLatin1Char(':') + p->objectName());
    return name + QStringLiteral(" in ") + chain.join(QStringLiteral(" < "));
}

QStringList unexplainedControls(QWidget *root)
{
    QStringList missing;
    for (QWidget *w : root->findChildren<QWidget *>()) {
        if (!w->isVisibleTo(root) || !isControl(w))
            continue;
        if (w->toolTip().isEmpty() && w->whatsThis().isEmpty())
            missing << describe(w);
    }
    missing.removeDuplicates();
    return missing;
}

TEST(Desktop, EveryVisibleControlOfEveryPageHasATooltipOrWhatsThis)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    window.show();
    QStringList missing;
    for (auto page : {MainWindow::TargetsTab, MainWindow::SpecsTab, MainWindow::SetupTab,
             MainWindow::LiveTab, MainWindow::ResultsTab}) {
        window.showPage(page);
        QCoreApplication::processEvents();
        for (const QString &m : unexplainedControls(&window))
            missing << QStringLiteral("page %1: %2").arg(int(page)).arg(m);
    }
    missing.removeDuplicates();
    // The Series page (shown while a series runs) in both of its layouts.
    SeriesPage series;
    series.show();
    missing << unexplainedControls(&series);
    EXPECT_TRUE(missing.isEmpty()) << "controls without a tooltip or What's This text:\n"
                                   << missing.join(QLatin1Char('\n')).toStdString();
}

TEST(Desktop, WhatsThisFallsBackToTheTooltip)
{
    test::ensureApp();
    QWidget parent;
    QLineEdit field(&parent);
    field.setToolTip(QStringLiteral("the tooltip"));
    EXPECT_EQ(WhatsThisFromToolTip::textFor(&field, {}), QStringLiteral("the tooltip"));
    field.setWhatsThis(QStringLiteral("the longer text"));
    EXPECT_EQ(WhatsThisFromToolTip::textFor(&field, {}), QStringLiteral("the longer text"));

    // Installed by the window: in What's This? mode a control with only a tooltip says
    // that it has help (Qt asks with QueryWhatsThis before it shows the question cursor).
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    QLineEdit tipOnly;
    tipOnly.setToolTip(QStringLiteral("tip"));
    QHelpEvent query(QEvent::QueryWhatsThis, {}, {});
    query.ignore();
    QCoreApplication::sendEvent(&tipOnly, &query);
    EXPECT_TRUE(query.isAccepted());
}

// ---------------------------------------------------------------- the Help menu

QAction *helpAction(MainWindow &window, const QString &text)
{
    auto *menu = window.menuBar()->findChild<QMenu *>(QStringLiteral("helpMenu"));
    if (!menu)
        return nullptr;
    for (QAction *a : menu->actions())
        if (a->text() == text)
            return a;
    return nullptr;
}

TEST(Desktop, TheHelpMenuOffersTheGuideWhatsThisAboutAndAboutQt)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    ASSERT_TRUE(window.userGuideAction());
    EXPECT_EQ(window.userGuideAction()->shortcut(), QKeySequence(QKeySequence::HelpContents));
    EXPECT_EQ(window.userGuideAction()->shortcut(), QKeySequence(Qt::Key_F1));
    QAction *whatsThis = helpAction(window, QStringLiteral("What's &This?"));
    ASSERT_TRUE(whatsThis);
    EXPECT_EQ(whatsThis->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F1));
    EXPECT_TRUE(helpAction(window, QStringLiteral("&About IOPrism")));
    EXPECT_TRUE(helpAction(window, QStringLiteral("About &Qt")));
}

// Receives what QDesktopServices would hand to the desktop.
class UrlCatcher : public QObject
{
    Q_OBJECT
public:
    QList<QUrl> urls;
public slots:
    void open(const QUrl &url) { urls << url; }
};

TEST(Desktop, F1OpensTheUserGuideFromTheBuildTree)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    UrlCatcher catcher;
    QDesktopServices::setUrlHandler(QStringLiteral("file"), &catcher, "open");
    window.userGuideAction()->trigger();
    QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
    ASSERT_EQ(catcher.urls.size(), 1);
    const QFileInfo guide(catcher.urls.front().toLocalFile());
    EXPECT_TRUE(guide.isFile()) << guide.filePath().toStdString();
    EXPECT_EQ(guide.fileName(), QStringLiteral("user-guide.md"));
    // The installed guide comes first; from the build tree it is the repository's.
    const QStringList candidates = userGuideCandidates();
    EXPECT_TRUE(candidates.last().endsWith(QStringLiteral("/docs/user-guide.md")));
    EXPECT_TRUE(
        candidates.first().endsWith(QStringLiteral("/share/doc/ioprism-cli/user-guide.md")));
}

TEST(Desktop, AMissingUserGuideIsSaidInTheMessageBar)
{
    test::ensureApp();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    UrlCatcher catcher;
    QDesktopServices::setUrlHandler(QStringLiteral("file"), &catcher, "open");
    const QString nowhere = QString::fromStdString((dir.path() / "no" / "user-guide.md").string());
    EXPECT_FALSE(window.openUserGuide({nowhere}));
    QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
    EXPECT_TRUE(catcher.urls.isEmpty());
    EXPECT_EQ(window.messageBar()->currentLevel(), MessageBar::Level::Warning);
    EXPECT_TRUE(window.messageBar()->currentText().contains(QStringLiteral("not installed")));
    EXPECT_TRUE(window.messageBar()->currentText().contains(homepageUrl()));
    EXPECT_TRUE(window.messageBar()->currentDetails().contains(nowhere));
}

TEST(Desktop, AboutNamesVersionLicenceBuildAndHomepage)
{
    test::ensureApp();
    AboutDialog about;
    const std::string text = about.text().toStdString();
    EXPECT_NE(text.find("IOPrism " IOPRISM_VERSION), std::string::npos) << text;
    EXPECT_NE(text.find("GPL-3.0-or-later"), std::string::npos) << text;
    EXPECT_NE(text.find("https://github.com/ioprism/ioprism"), std::string::npos) << text;
    EXPECT_NE(text.find("Compiler: GCC " + std::to_string(__GNUC__) + "."), std::string::npos)
        << text;
#ifdef NDEBUG
    // An optimised build (the windows-mingw and release presets).
    EXPECT_TRUE(text.find("Build type: Release") != std::string::npos
        || text.find("Build type: RelWithDebInfo") != std::string::npos
        || text.find("Build type: MinSizeRel") != std::string::npos)
        << text;
#else
    EXPECT_NE(text.find("Build type: Debug"), std::string::npos) << text; // the dev preset
#endif
    EXPECT_NE(text.find(std::string("built against ") + QT_VERSION_STR), std::string::npos) << text;
    EXPECT_NE(text.find(std::string("running ") + qVersion()), std::string::npos) << text;
    EXPECT_NE(text.find("Boost: 1.81"), std::string::npos) << text;
    // io_uring is Linux's: elsewhere the line is left out rather than left empty.
    if (QSysInfo::kernelType() == QStringLiteral("linux"))
        EXPECT_NE(text.find("liburing: 2."), std::string::npos) << text;
    else
        EXPECT_EQ(text.find("liburing"), std::string::npos) << text;
    EXPECT_EQ(text.find(": \n"), std::string::npos) << "no fact left empty\n" << text;
    // The licence as installed, or the repository's LICENSE from a build tree.
    EXPECT_TRUE(QFileInfo(findLicenseFile()).isFile());
}

// ---------------------------------------------------------------- language

TEST(Desktop, TheGermanTranslationTranslatesTheWindow)
{
    test::ensureApp();
    const auto installed = installTranslations(QLocale(QLocale::German, QLocale::Germany));
    EXPECT_TRUE(installed.ioprism);
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    QStringList menus;
    for (QAction *a : window.menuBar()->actions())
        menus << a->text();
    EXPECT_TRUE(menus.contains(QStringLiteral("&Datei"))) << menus.join(',').toStdString();
    EXPECT_TRUE(menus.contains(QStringLiteral("&Hilfe"))) << menus.join(',').toStdString();
    auto *tabs = window.findChild<QTabWidget *>();
    ASSERT_TRUE(tabs);
    EXPECT_EQ(tabs->tabText(MainWindow::TargetsTab), QStringLiteral("&Ziele"));
    EXPECT_EQ(tabs->tabText(MainWindow::ResultsTab), QStringLiteral("&Ergebnisse"));
    EXPECT_EQ(window.startAction()->text(), QStringLiteral("&Start"));
    EXPECT_EQ(window.stopAction()->text(), QStringLiteral("Sto&pp"));
    EXPECT_EQ(window.statusText(), QStringLiteral("Bereit"));
    // Plural forms of German.
    EXPECT_EQ(MainWindow::tr("%n steps", nullptr, 1), QStringLiteral("1 Schritt"));
    EXPECT_EQ(MainWindow::tr("%n steps", nullptr, 3), QStringLiteral("3 Schritte"));
    // The device verdict and the devices' roles, which a GUI review found in English.
    EXPECT_EQ(verdictText(core::Verdict::Agree), QStringLiteral("stimmt überein"));
    EXPECT_EQ(verdictText(core::Verdict::FileMetadata), QStringLiteral("Dateimetadaten"));
    EXPECT_EQ(deviceRoleText(core::DeviceRole::Backing), QStringLiteral("Unterlage"));
    // Back to what ensureApp installs: later tests in this process expect English plurals.
    installTranslations(QLocale(QLocale::English, QLocale::UnitedStates));
}

TEST(Desktop, EnglishCountsTakeTheSingularFromTheEnglishCatalogue)
{
    test::ensureApp();
    const auto installed = installTranslations(QLocale(QLocale::English, QLocale::UnitedStates));
    EXPECT_TRUE(installed.ioprism);
    EXPECT_EQ(MainWindow::tr("%n steps", nullptr, 1), QStringLiteral("1 step"));
    EXPECT_EQ(MainWindow::tr("%n steps", nullptr, 2), QStringLiteral("2 steps"));
    removeTranslations();
    // A language without a catalogue of its own gets the English plurals too.
    EXPECT_TRUE(installTranslations(QLocale(QLocale::Swahili, QLocale::Kenya)).ioprism);
    EXPECT_EQ(MainWindow::tr("%n problems", nullptr, 1), QStringLiteral("1 problem"));
    // Back to what ensureApp installs: a test after this one in the same process (the
    // whole binary run at once, not by ctest) once saw "3 level(s)" and "1 outstanding I/Os".
    installTranslations(QLocale(QLocale::English, QLocale::UnitedStates));
}

TEST(Desktop, CapacitiesAreSpelledInTheUsersLocale)
{
    test::ensureApp();
    EXPECT_EQ(capacityText(512 * core::kMiB), QStringLiteral("512 MiB"));
    EXPECT_EQ(capacityText(500'107'862'016ULL), QStringLiteral("465.8 GiB"));
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    EXPECT_EQ(capacityText(500'107'862'016ULL), QStringLiteral("465,8 GiB"));
    QLocale::setDefault(before);
    // Transfer sizes keep the profile's exact spelling in every locale.
    EXPECT_EQ(exactSizeText(4096), QStringLiteral("4 KiB"));
}

// ---------------------------------------------------------------- light and dark

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(30, 30, 30));
    p.setColor(QPalette::WindowText, QColor(230, 230, 230));
    p.setColor(QPalette::Base, QColor(20, 22, 24));
    p.setColor(QPalette::AlternateBase, QColor(40, 40, 40));
    p.setColor(QPalette::Text, QColor(230, 230, 230));
    p.setColor(QPalette::Button, QColor(45, 45, 45));
    p.setColor(QPalette::ButtonText, QColor(230, 230, 230));
    return p;
}

QColor backgroundOf(QCustomPlot *plot)
{
    // The corner of the plot: outside the axis rect, only the background is drawn there.
    return plot->toPixmap(200, 150).toImage().pixelColor(2, 2);
}

TEST(Desktop, PlotsFollowTheSystemPaletteFromLightToDarkWithoutARestart)
{
    test::ensureApp();
    const QPalette light = QApplication::palette();
    test::TempDir dir;
    MainWindow window(ioprism::test::testServices(), test::isolatedOptions(dir));
    window.show();
    QCustomPlot *live = window.livePage()->plots()->plot(LivePlots::ThroughputPlot);
    QCustomPlot *histogram = window.resultsPage()->histogram();
    QCustomPlot *series = window.seriesPage()->plots()->plot(SeriesPlots::ThroughputPlot);
    const QColor lightText = light.color(QPalette::WindowText);
    EXPECT_EQ(live->xAxis->basePen().color(), lightText);
    EXPECT_EQ(backgroundOf(live), light.color(QPalette::Base));

    const QPalette dark = darkPalette();
    QApplication::setPalette(dark); // what Qt does when the desktop switches to dark
    QCoreApplication::processEvents();
    const QColor darkText = dark.color(QPalette::WindowText);
    for (QCustomPlot *plot : {live, histogram, series}) {
        SCOPED_TRACE(plot->objectName().toStdString());
        EXPECT_EQ(backgroundOf(plot), dark.color(QPalette::Base));
        EXPECT_EQ(plot->xAxis->basePen().color(), darkText);
        EXPECT_EQ(plot->yAxis->tickLabelColor(), darkText);
        EXPECT_EQ(plot->xAxis->labelColor(), darkText);
        EXPECT_EQ(plot->legend->textColor(), darkText);
        EXPECT_EQ(plot->xAxis->grid()->pen().color().rgb(), darkText.rgb());
    }
    // Items drawn in the text colour (the hover line) keep their alpha, in the new colour.
    bool tracerFound = false;
    for (int i = 0; i < live->itemCount(); ++i)
        if (auto *line = qobject_cast<QCPItemStraightLine *>(live->item(i))) {
            EXPECT_EQ(line->pen().color().rgb(), darkText.rgb());
            EXPECT_EQ(line->pen().color().alpha(), 120);
            tracerFound = true;
        }
    EXPECT_TRUE(tracerFound);

    QApplication::setPalette(light); // and back
    QCoreApplication::processEvents();
    EXPECT_EQ(live->xAxis->basePen().color(), lightText);
    EXPECT_EQ(backgroundOf(histogram), light.color(QPalette::Base));
}

TEST(Desktop, TheMessageBarBlendsOverTheNewWindowColour)
{
    test::ensureApp();
    const QPalette light = QApplication::palette();
    QWidget parent;
    auto *bar = new MessageBar(&parent);
    bar->showMessage(MessageBar::Level::Error, QStringLiteral("broken"));
    const QColor before = bar->palette().color(QPalette::Window);
    QApplication::setPalette(darkPalette());
    QCoreApplication::processEvents();
    const QColor after = bar->palette().color(QPalette::Window);
    EXPECT_NE(before, after);
    EXPECT_LT(after.lightnessF(), 0.3); // a red tint over a dark window stays dark
    QApplication::setPalette(light);
}

} // namespace
} // namespace ioprism::ui

#include "desktop_test.moc"
