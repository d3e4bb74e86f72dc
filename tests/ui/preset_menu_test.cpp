// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 24, item 11: the Presets menu names presets for people ("Bs qd matrix" and
// "Io profile" were the file names with spaces), in the UI's language.
#include "support/test_support.h"
#include "ui/models/profile_defaults.h"
#include "ui/translations.h"

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
    test::ensureApp();
    ASSERT_TRUE(installTranslations(QLocale(QLocale::German, QLocale::Germany)).ioprism);
    bool found = false;
    for (const auto &p : presetCatalogue())
        if (p.name == "qd-curve") {
            found = true;
            EXPECT_EQ(p.title, QStringLiteral("Warteschlangentiefen-Kurve"));
        }
    EXPECT_TRUE(found);
    removeTranslations();
}

} // namespace
} // namespace ioprism::ui
