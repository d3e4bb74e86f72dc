// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's language: IOPrism's own translations (resources/translations/*.ts, embedded
// under :/i18n) and Qt's (the standard dialogs' buttons and the like, from Qt's
// translations directory: Debian's qt6-translations-l10n).
//
// Strings made in core (validation messages, problems of a profile) stay English: they
// reach the screen through ui/format.h's problemsText() and the message bar, the one
// place where the GUI shows core's text.
#pragma once

#include <QLocale>

namespace ioprism::ui {

struct InstalledTranslations {
    bool ioprism = false; // IOPrism's catalogue for the locale (or the English one) was found
    bool qt = false; // and Qt's own
};

// Loads and installs the translations for the locale (its UI languages in order, as
// QTranslator::load does), replacing those installed before. A language IOPrism has no
// catalogue for gets the English one, which holds the plural forms of the English source
// texts. Call before the first window is made: widgets translate when they are built.
InstalledTranslations installTranslations(const QLocale &locale = QLocale());
// Removes what installTranslations() installed (tests).
void removeTranslations();

} // namespace ioprism::ui
