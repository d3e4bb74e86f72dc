// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 24, item 11: the Presets menu names presets for people ("Bs qd matrix" and
// "Io profile" were the file names with spaces), in the UI's language.
#include "core/profile/icf.h"
#include "core/profile/presets.h"
#include "support/test_support.h"
#include "ui/models/profile_defaults.h"
#include "ui/translations.h"

#include <QCoreApplication>

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

// The title a preset gets when nobody named it: its slug with spaces.
QString slugTitle(const std::string &name)
{
    QString title = QString::fromStdString(name);
    title.replace(QLatin1Char('-'), QLatin1Char(' '));
    title[0] = title[0].toUpper();
    return title;
}

TEST(PresetMenu, EveryPresetHasATitleThatIsNotItsFileName)
{
    test::ensureApp();
    const auto presets = presetCatalogue();
    ASSERT_FALSE(presets.empty());
    for (const auto &p : presets) {
        EXPECT_FALSE(p.title.isEmpty()) << p.name;
        // Abbreviations of file names ("Bs qd matrix", "Io profile") are no titles.
        for (const char *slug : {"Bs ", " qd", "Io ", "Dd ", "Cdm", "Iops"})
            EXPECT_FALSE(p.title.contains(QLatin1String(slug))) << p.title.toStdString();
        if (p.name == "bs-qd-matrix" || p.name == "io-profile" || p.name == "qd-curve"
            || p.name == "dd-series" || p.name == "spectrum-iops" || p.name == "io-profile-tree") {
            EXPECT_NE(p.title, slugTitle(p.name)) << p.name << " is titled by its file name";
        }
    }
}

TEST(PresetMenu, TitlesAreTranslated)
{
    // Back to English at the end: this test once ended with removeTranslations(), and
    // SetupPageSeries.ThePlanSaysHowManyStepsStartRunsAndHowLong, run after it in one
    // process, read "1 steps".
    test::GermanUi german;
    ASSERT_TRUE(german.installed);
    bool found = false;
    for (const auto &p : presetCatalogue())
        if (p.name == "qd-curve") {
            found = true;
            EXPECT_EQ(p.title, QStringLiteral("Warteschlangentiefen-Kurve"));
        }
    EXPECT_TRUE(found);
}

TEST(PresetMenu, LeavesTheEnglishPluralsAsItFoundThem)
{
    test::ensureApp();
    {
        test::GermanUi german;
    }
    EXPECT_EQ(MainWindow::tr("%n steps", nullptr, 1), QStringLiteral("1 step"));
}

// Issue 24, item 17: the presets' prose is shown in the UI's language. Every embedded
// preset's shipped text has its entry in the table of descriptions (an edited preset file
// whose entry was forgotten shows English, and this fails).
TEST(PresetMenu, DescriptionsAreTranslated)
{
    test::GermanUi german;
    ASSERT_TRUE(german.installed);
    for (const auto &p : presetCatalogue()) {
        core::Problems problems;
        const auto preset = core::loadPreset(p.name, problems);
        ASSERT_TRUE(preset) << p.name;
        EXPECT_FALSE(p.description.isEmpty()) << p.name;
        EXPECT_NE(p.description, QString::fromStdString(preset->setup.description))
            << p.name << " is shown in English";
    }
    // A profile's own words stay as they are.
    EXPECT_EQ(presetDescription("quick", "my own words"), QStringLiteral("my own words"));
}

// Every embedded preset's spec name is said in German in a German UI (CrystalDiskMark's
// codes stay: "SEQ1M Q8T1 Lesen", as its own German window shows).
TEST(PresetMenu, SpecNamesAreTranslated)
{
    test::GermanUi german;
    ASSERT_TRUE(german.installed);
    EXPECT_EQ(localizedSpecName("SEQ1M Q8T1 Read"), "SEQ1M Q8T1 Lesen");
    EXPECT_EQ(localizedSpecName("RND4K Q32T16 Write"), "RND4K Q32T16 Schreiben");
    // Iometer's own names stay Iometer's, so results and .icf files line up with its.
    EXPECT_EQ(localizedSpecName("4 KiB aligned; 50% Read; 100% random"),
        "4 KiB aligned; 50% Read; 100% random");
    EXPECT_EQ(localizedSpecName("my spec"), "my spec");
    // An umlaut is written without it: Iometer reads a name only up to its first
    // character outside its set, and "Zuf" would name two specs.
    EXPECT_EQ(localizedSpecName("Random read"), "Zufaelliges Lesen");
    for (const auto &embedded : core::embeddedPresets()) {
        core::Problems problems;
        const auto preset = core::loadPreset(embedded.name, problems);
        ASSERT_TRUE(preset) << embedded.name;
        for (const auto &spec : preset->specs) {
            const std::string local = localizedSpecName(spec.name);
            const bool iometers = spec.name.find("% random") != std::string::npos;
            if (spec.name != "Workstation" && !iometers) { // the same word in German
                EXPECT_NE(local, spec.name)
                    << embedded.name << ": \"" << spec.name << "\" is not translated";
            }
            // Whatever the language, the name is one an .icf export carries whole.
            core::Profile one;
            one.specs.push_back(spec);
            one.specs[0].name = local;
            core::Problems warnings;
            (void)core::writeIcf(one, warnings);
            for (const auto &w : warnings)
                EXPECT_EQ(w.path.find(".name"), std::string::npos) << local << ": " << w.toString();
        }
    }
    // The library of specs to add offers them in German too.
    for (const auto &entry : presetSpecLibrary()) {
        if (entry.spec.name.find("% random") == std::string::npos) { // Iometer's own names
            EXPECT_EQ(entry.spec.name.find(" Read"), std::string::npos) << entry.spec.name;
        }
    }
}

} // namespace
} // namespace ioprism::ui
