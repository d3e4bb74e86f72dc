// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 24, item 17: the German window as a German storage engineer reads it. The
// presets' names and prose in German once applied, the default worker's name from the
// catalogue, Scope and Region told apart, the CPU legend's "user" translated, and "I/O"
// never broken at its slash where a German text wraps.
#include "support/test_support.h"
#include "ui/editors/worker_panel.h"
#include "ui/main_window.h"
#include "ui/models/profile_defaults.h"
#include "ui/models/profile_document.h"
#include "ui/models/results_model.h"
#include "ui/models/targets_model.h"
#include "ui/pages/results_page.h"
#include "ui/plots/live_plots.h"
#include "ui/plots/qcp_library.h"

#include <QFile>
#include <QFont>
#include <QFontMetricsF>
#include <QHeaderView>
#include <QRegularExpression>
#include <QTableView>
#include <QTextLayout>
#include <QTranslator>

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

constexpr QChar kWordJoiner(0x2060);

// Every (source, German translation) pair of the catalogue, entities decoded.
std::vector<std::pair<QString, QString>> germanCatalogue()
{
    QFile file(QStringLiteral(IOPRISM_SOURCE_DIR "/resources/translations/ioprism_de.ts"));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly));
    const QString ts = QString::fromUtf8(file.readAll());
    static const QRegularExpression message(
        QStringLiteral("<source>(.*?)</source>.*?<translation[^>]*>(.*?)</translation>"),
        QRegularExpression::DotMatchesEverythingOption);
    const auto decode = [](QString s) {
        s.replace(QLatin1String("&lt;"), QLatin1String("<"));
        s.replace(QLatin1String("&gt;"), QLatin1String(">"));
        s.replace(QLatin1String("&quot;"), QLatin1String("\""));
        s.replace(QLatin1String("&apos;"), QLatin1String("'"));
        s.replace(QLatin1String("&amp;"), QLatin1String("&"));
        return s;
    };
    std::vector<std::pair<QString, QString>> pairs;
    for (auto it = message.globalMatch(ts); it.hasNext();) {
        const auto m = it.next();
        pairs.emplace_back(decode(m.captured(1)), decode(m.captured(2)));
    }
    return pairs;
}

TEST(German, TheDefaultWorkerIsNamedByTheCatalogue)
{
    test::GermanUi german;
    ASSERT_TRUE(german.installed);
    QTranslator catalogue;
    ASSERT_TRUE(catalogue.load(QStringLiteral(":/i18n/ioprism_de.qm")));
    // German keeps Iometer's "Worker" (as the rest of the window says it), but from the
    // catalogue: the name was a literal "Worker 1" no translator could reach.
    const QString entry = catalogue.translate("Presets", "Worker %1");
    ASSERT_FALSE(entry.isEmpty()) << "no German entry for the default worker's name";
    EXPECT_EQ(QString::fromStdString(defaultWorkerName(2)), entry.arg(2));
    test::TempDir dir;
    const core::Profile profile = newProfile(2, (dir.path() / "t.dat").string());
    ASSERT_EQ(profile.hosts.front().workers.size(), 2u);
    EXPECT_EQ(QString::fromStdString(profile.hosts.front().workers[1].name), entry.arg(2));
    // Iometer's "Default" spec, in German.
    EXPECT_EQ(profile.specs.front().name, "Standard");
}

TEST(German, APresetAppliedNamesItsSpecsAndSaysItsPurposeInGerman)
{
    test::GermanUi german;
    ASSERT_TRUE(german.installed);
    test::TempDir dir;
    MainWindow window(test::testServices(), test::isolatedOptions(dir.path()));
    ASSERT_TRUE(window.applyPreset("cdm-default"));
    const core::Profile &profile = window.document()->profile();
    ASSERT_FALSE(profile.specs.empty());
    EXPECT_EQ(profile.specs.front().name, "SEQ1M Q8T1 Lesen");
    EXPECT_EQ(profile.specs[1].name, "SEQ1M Q8T1 Schreiben");
    // The workers run the specs under their new names.
    for (const auto &worker : profile.hosts.front().workers)
        for (const auto &assigned : worker.assignedSpecs)
            EXPECT_TRUE(core::findSpec(profile, assigned)) << assigned;
    const QString description = QString::fromStdString(profile.setup.description);
    EXPECT_TRUE(description.startsWith(QStringLiteral("Satz im Stil von CrystalDiskMark")))
        << description.toStdString();

    ASSERT_TRUE(window.applyPreset("database"));
    EXPECT_EQ(window.document()->profile().specs.front().name, "Datenbank");
}

TEST(German, ScopeAndRegionAreTwoWords)
{
    test::GermanUi german;
    ASSERT_TRUE(german.installed);
    ResultsModel results;
    const QString scope = results.headerData(ResultsModel::ScopeColumn, Qt::Horizontal).toString();
    const QString region = WorkerPanel::tr("Region &start:");
    const QString regionColumn = TargetsModel::tr("Region start");
    EXPECT_EQ(scope, QStringLiteral("Ebene"));
    EXPECT_TRUE(region.contains(QStringLiteral("Bereich"))) << region.toStdString();
    EXPECT_TRUE(regionColumn.contains(QStringLiteral("Bereich"))) << regionColumn.toStdString();
    // Nowhere does the catalogue say "Bereich" for a scope.
    for (const auto &[source, translation] : germanCatalogue()) {
        if (source.contains(QStringLiteral("scope"), Qt::CaseInsensitive)) {
            EXPECT_FALSE(translation.contains(QStringLiteral("Bereich")))
                << source.toStdString() << " => " << translation.toStdString();
        }
    }
}

TEST(German, TheCpuLegendSaysUserInGerman)
{
    test::GermanUi german;
    ASSERT_TRUE(german.installed);
    LivePlots plots;
    QCustomPlot *cpu = plots.plot(LivePlots::CpuPlot);
    ASSERT_GE(cpu->graphCount(), 2);
    EXPECT_EQ(cpu->graph(0)->name(), QStringLiteral("Benutzer"));
    EXPECT_EQ(cpu->graph(1)->name(), QStringLiteral("System"));
}

// The Results table at the size of the screenshots: a long test-file path in the scope
// column pushed the last figures out of view, "CPU-Effizienz" cut to "CPU-E".
TEST(German, TheResultsTableShowsEveryFigureBesideALongPath)
{
    using namespace std::chrono_literals;
    if (const QString why = test::textCannotBeMeasured(); !why.isEmpty())
        GTEST_SKIP() << why.toStdString();
    test::GermanUi german;
    ASSERT_TRUE(german.installed);
    test::TempDir dir;
    MainWindow window(test::testServices(), test::isolatedOptions(dir.path()));
    core::Profile profile = test::smallProfile(1s, 100ms);
    profile.hosts.front().workers.front().targets.front().path
        = "/home/someone/.local/share/IOPrism/IOPrism/a-rather-long-folder-name/ioprism-test.dat";
    window.document()->setProfile(profile);
    RunResultPtr finished;
    QObject::connect(&window, &MainWindow::runFinished, [&](RunResultPtr r) { finished = r; });
    ASSERT_TRUE(window.startRun());
    ASSERT_TRUE(test::waitUntil([&] { return finished != nullptr; }, 30s));
    window.resize(1500, 940);
    window.show();
    window.showPage(MainWindow::ResultsTab);
    QTableView *table = window.resultsPage()->table();
    QHeaderView *header = table->horizontalHeader();
    const int last = ResultsModel::CpuEffectivenessColumn;
    // The header sizes its sections from queued events: wait for the layout to settle
    // (the condition, not a time, decides; the assertions below say what went wrong).
    (void)test::waitUntil(
        [&] {
            return header->sectionViewportPosition(last) + header->sectionSize(last)
                <= table->viewport()->width();
        },
        5s);
    ASSERT_FALSE(table->isColumnHidden(last));
    EXPECT_EQ(header->model()->headerData(last, Qt::Horizontal).toString(),
        QStringLiteral("CPU-Effizienz"));
    EXPECT_LE(header->sectionViewportPosition(last) + header->sectionSize(last),
        table->viewport()->width())
        << "the last column is out of view";
    EXPECT_GE(header->sectionSize(last),
        header->fontMetrics().horizontalAdvance(QStringLiteral("CPU-Effizienz")));
}

// The lines a word-wrapped label makes of `text` at `width`, trimmed.
QStringList wrappedLines(const QString &text, const QFont &font, qreal width)
{
    QStringList lines;
    QTextLayout layout(text, font);
    QTextOption option;
    option.setWrapMode(QTextOption::WordWrap);
    layout.setTextOption(option);
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        lines << text.mid(line.textStart(), line.textLength()).trimmed();
    }
    layout.endLayout();
    return lines;
}

// True when some width wraps `text` with a line ending in "I/" (or "I/" and a joiner).
bool breaksAtTheSlash(const QString &text)
{
    const QFont font;
    const qreal full = QFontMetricsF(font).horizontalAdvance(text);
    for (qreal width = 30; width < full; width += 4)
        for (QString line : wrappedLines(text, font, width)) {
            line.remove(kWordJoiner);
            if (line.endsWith(QStringLiteral("I/")))
                return true;
        }
    return false;
}

// Qt breaks a line after "/" ("I/" at a line's end, "O" on the next). German prose keeps
// "I/O" together with word joiners (U+2060), which draw nothing.
TEST(German, IoIsNeverBrokenAtTheSlash)
{
    test::GermanUi german;
    ASSERT_TRUE(german.installed);
    const QString joined = QStringLiteral("I%1/%1O").arg(kWordJoiner);
    QStringList prose;
    for (const auto &[source, translation] : germanCatalogue()) {
        if (translation.count(QLatin1Char(' ')) < 3)
            continue; // a header or a short label, which never wraps
        EXPECT_FALSE(translation.contains(QStringLiteral("I/O")))
            << "breakable I/O in: " << translation.toStdString();
        if (translation.contains(joined))
            prose << translation;
    }
    ASSERT_FALSE(prose.isEmpty());
    // The layout agrees: at no width does a line of these texts end in "I/". The same
    // text with a plain slash does break there (else this proves nothing).
    const QString sample = prose.front();
    QString plain = sample;
    plain.remove(kWordJoiner);
    EXPECT_TRUE(breaksAtTheSlash(plain)) << plain.toStdString();
    for (qsizetype i = 0; i < std::min<qsizetype>(prose.size(), 8); ++i)
        EXPECT_FALSE(breaksAtTheSlash(prose[i])) << prose[i].toStdString();
    // The joiner takes no room: "I⁠/⁠O" is as wide as "I/O".
    const QFontMetricsF metrics {QFont()};
    EXPECT_NEAR(
        metrics.horizontalAdvance(joined), metrics.horizontalAdvance(QStringLiteral("I/O")), 0.5);
}

} // namespace
} // namespace ioprism::ui
