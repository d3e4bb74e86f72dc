// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

#include <memory>

namespace ioprism::ui {

namespace {

// Installed translators live as long as the application (or until removed): the
// application keeps only pointers to them.
std::unique_ptr<QTranslator> &ownTranslator()
{
    static std::unique_ptr<QTranslator> translator;
    return translator;
}

std::unique_ptr<QTranslator> &qtTranslator()
{
    static std::unique_ptr<QTranslator> translator;
    return translator;
}

} // namespace

InstalledTranslations installTranslations(const QLocale &locale)
{
    removeTranslations();
    InstalledTranslations installed;
    auto qt = std::make_unique<QTranslator>();
    // qtbase holds the texts of Qt's own widgets and dialogs (QMessageBox's buttons,
    // QFileDialog); missing when qt6-translations-l10n is not installed, which is fine.
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
            QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt.get());
        qtTranslator() = std::move(qt);
        installed.qt = true;
    }
    auto own = std::make_unique<QTranslator>();
    const auto load = [&own](const QLocale &l) {
        return own->load(
            l, QStringLiteral("ioprism"), QStringLiteral("_"), QStringLiteral(":/i18n"));
    };
    // A language without a catalogue shows the English source texts, whose counts still
    // need the English catalogue's plural forms ("1 step", not "1 steps").
    if (load(locale) || load(QLocale(QLocale::English, QLocale::UnitedStates))) {
        QCoreApplication::installTranslator(own.get());
        ownTranslator() = std::move(own);
        installed.ioprism = true;
    }
    return installed;
}

void removeTranslations()
{
    for (auto *translator : {&ownTranslator(), &qtTranslator()}) {
        if (*translator) {
            QCoreApplication::removeTranslator(translator->get());
            translator->reset();
        }
    }
}

} // namespace ioprism::ui
