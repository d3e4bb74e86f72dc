// SPDX-License-Identifier: GPL-3.0-or-later
// Help: the user guide, and what Help > About IOPrism says about this build.
//
// The user guide is the installed Markdown (packaging/install.cmake puts docs/ into the
// CLI's doc directory, /usr/share/doc/ioprism-cli on Debian), opened with the desktop's
// handler for it; a program run from its build tree falls back to the repository's docs/.
#pragma once

#include <QDialog>
#include <QString>
#include <QStringList>

namespace ioprism::ui {

// Where the user guide may be, most specific first: next to the program
// (<bin>/../share/doc/ioprism-cli), the configured installation prefix, the repository.
QStringList userGuideCandidates();
// The first candidate that exists, or "" when none does.
QString findUserGuide(const QStringList &candidates = userGuideCandidates());
// The licence's text as installed (the Debian copyright file of the GUI's package), or
// the repository's LICENSE; "" when neither is there.
QString findLicenseFile();

// The build in lines of "name: value" for the About box and bug reports: version,
// compiler, build type, Qt built against and running, QCustomPlot, Boost, liburing.
QString buildInformation();
QString homepageUrl();

// What's This? (Shift+F1, then a click) shows a control's whatsThis text; Qt shows nothing
// for a control that has only a tooltip. This filter, installed on the application,
// answers with the tooltip then (for an item view, the tooltip of the item clicked), so
// every control explains itself in that mode without a second text to keep in step.
class WhatsThisFromToolTip : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    // Installs one filter on the application (again: nothing more).
    static void install();
    // The text What's This? shows for the widget at `pos` (its own coordinates).
    static QString textFor(QWidget *widget, const QPoint &pos);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
};

class AboutDialog : public QDialog
{
    Q_OBJECT
public:
    explicit AboutDialog(QWidget *parent = nullptr);

    QString text() const; // everything shown, as plain text (tests)

private:
    QString m_text;
};

} // namespace ioprism::ui
