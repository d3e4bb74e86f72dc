// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/help.h"

#include "ui/build_info.h" // generated (ui/build_info.h.in)
#include "ui/icons.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextDocument>
#include <QUrl>
#include <QVBoxLayout>
#include <QWhatsThis>

#include <boost/version.hpp>

namespace ioprism::ui {

namespace {

// <prefix>/<relative> for the installed layout, with <prefix> the program's own (bin/..)
// first, so an installation moved elsewhere (or `cmake --install --prefix`) finds its
// files, then the prefix this build was configured with.
QStringList installedCandidates(const QString &relative)
{
    QStringList paths;
    const QString own = QDir(QCoreApplication::applicationDirPath())
                            .absoluteFilePath(QStringLiteral("../") + relative);
    paths << QDir::cleanPath(own);
    const QString configured
        = QDir::cleanPath(QStringLiteral(IOPRISM_INSTALL_PREFIX "/") + relative);
    if (!paths.contains(configured))
        paths << configured;
    return paths;
}

QString firstExisting(const QStringList &candidates)
{
    for (const QString &path : candidates)
        if (QFileInfo(path).isFile())
            return path;
    return {};
}

} // namespace

QStringList userGuideCandidates()
{
    QStringList paths
        = installedCandidates(QStringLiteral(IOPRISM_INSTALL_DOC_DIR "/user-guide.md"));
    paths << QStringLiteral(IOPRISM_SOURCE_DIR_PATH "/docs/user-guide.md");
    return paths;
}

QString findUserGuide(const QStringList &candidates)
{
    return firstExisting(candidates);
}

QString findLicenseFile()
{
    QStringList paths
        = installedCandidates(QStringLiteral(IOPRISM_INSTALL_GUI_DOC_DIR "/copyright"));
    paths << QStringLiteral(IOPRISM_SOURCE_DIR_PATH "/LICENSE");
    return firstExisting(paths);
}

QString homepageUrl()
{
    return QStringLiteral(IOPRISM_HOMEPAGE_URL);
}

QString buildInformation()
{
    // Not translated: these lines go into bug reports, read by the developers.
    QStringList lines;
    lines << QStringLiteral("IOPrism %1").arg(QStringLiteral(IOPRISM_VERSION));
    lines << QStringLiteral("Compiler: %1").arg(QStringLiteral(IOPRISM_BUILD_COMPILER));
    lines << QStringLiteral("Build type: %1").arg(QStringLiteral(IOPRISM_BUILD_TYPE));
    lines << QStringLiteral("Qt: built against %1, running %2")
                 .arg(QStringLiteral(QT_VERSION_STR), QString::fromLatin1(qVersion()));
    if (!QStringLiteral(IOPRISM_BUILD_QCUSTOMPLOT_VERSION).isEmpty())
        lines << QStringLiteral("QCustomPlot: %1")
                     .arg(QStringLiteral(IOPRISM_BUILD_QCUSTOMPLOT_VERSION));
    // From the headers compiled in, not from CMake's package: a cross build finds Boost as
    // plain headers, without the package that would give CMake its version.
    lines << QStringLiteral("Boost: %1.%2.%3")
                 .arg(BOOST_VERSION / 100000)
                 .arg(BOOST_VERSION / 100 % 1000)
                 .arg(BOOST_VERSION % 100);
    if (!QStringLiteral(IOPRISM_BUILD_URING_VERSION).isEmpty())
        lines << QStringLiteral("liburing: %1").arg(QStringLiteral(IOPRISM_BUILD_URING_VERSION));
    lines << QStringLiteral("Platform: %1 (%2)")
                 .arg(QSysInfo::prettyProductName(), QSysInfo::currentCpuArchitecture());
    lines << QStringLiteral("Qt platform plugin: %1").arg(QGuiApplication::platformName());
    return lines.join(QLatin1Char('\n'));
}

void WhatsThisFromToolTip::install()
{
    if (QCoreApplication::instance()->findChild<WhatsThisFromToolTip *>(
            QString(), Qt::FindDirectChildrenOnly))
        return;
    QCoreApplication::instance()->installEventFilter(
        new WhatsThisFromToolTip(QCoreApplication::instance()));
}

QString WhatsThisFromToolTip::textFor(QWidget *widget, const QPoint &pos)
{
    if (!widget->whatsThis().isEmpty())
        return widget->whatsThis();
    if (auto *view = qobject_cast<QAbstractItemView *>(widget->parentWidget());
        view && view->viewport() == widget) {
        const QModelIndex index = view->indexAt(pos);
        QString item = index.data(Qt::WhatsThisRole).toString();
        if (!item.isEmpty())
            return item;
        QString tip = index.data(Qt::ToolTipRole).toString();
        if (!tip.isEmpty())
            return tip;
        return view->toolTip();
    }
    return widget->toolTip();
}

bool WhatsThisFromToolTip::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::QueryWhatsThis && event->type() != QEvent::WhatsThis)
        return false;
    auto *widget = qobject_cast<QWidget *>(watched);
    if (!widget || !widget->whatsThis().isEmpty())
        return false; // Qt's own handling
    const auto *help = static_cast<QHelpEvent *>(event);
    const QString text = textFor(widget, help->pos());
    if (text.isEmpty())
        return false; // the parent may have something to say
    if (event->type() == QEvent::WhatsThis)
        QWhatsThis::showText(help->globalPos(), text, widget);
    event->accept();
    return true;
}

AboutDialog::AboutDialog(QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("About IOPrism"));
    setObjectName(QStringLiteral("aboutDialog"));

    auto *logo = new QLabel(this);
    logo->setPixmap(icon(IconId::App).pixmap(64, 64));
    logo->setAlignment(Qt::AlignTop);

    const QString license = findLicenseFile();
    const QString gpl = QStringLiteral("https://www.gnu.org/licenses/gpl-3.0.html");
    QString licenseText = tr("IOPrism is free software: you can redistribute it and/or modify "
                             "it under the terms of the GNU General Public License as published "
                             "by the Free Software Foundation, either version 3 of the License, "
                             "or (at your option) any later version (GPL-3.0-or-later). It comes "
                             "with no warranty.");
    QString links = QStringLiteral("<a href=\"%1\">%2</a>").arg(gpl, tr("The GNU GPL, version 3"));
    if (!license.isEmpty())
        links += QStringLiteral(" · <a href=\"%1\">%2</a>")
                     .arg(QUrl::fromLocalFile(license).toString(),
                         tr("The licence and copyright as installed"));
    const QString html
        = QStringLiteral("<h2>IOPrism %1</h2><p>%2</p><p>%3</p><p>%4</p><p>%5</p>")
              .arg(QStringLiteral(IOPRISM_VERSION),
                  tr("A storage benchmark: Iometer's workloads through native asynchronous "
                     "I/O, live latency percentiles, and the device's own counters beside "
                     "the application's."),
                  licenseText.toHtmlEscaped(), links,
                  tr("Homepage: %1")
                      .arg(QStringLiteral("<a href=\"%1\">%1</a>").arg(homepageUrl())));
    auto *about = new QLabel(html, this);
    about->setWordWrap(true);
    about->setOpenExternalLinks(true);
    about->setTextInteractionFlags(Qt::TextBrowserInteraction);
    about->setMinimumWidth(460);

    auto *buildLabel = new QLabel(tr("Build information"), this);
    auto *build = new QPlainTextEdit(buildInformation(), this);
    build->setObjectName(QStringLiteral("buildInformation"));
    build->setReadOnly(true);
    build->setToolTip(tr("The facts of this build: include them in a bug report"));
    build->setMaximumHeight(build->fontMetrics().lineSpacing() * 10);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *copy = buttons->addButton(tr("&Copy build information"), QDialogButtonBox::ActionRole);
    copy->setToolTip(tr("Copy the build information to the clipboard, for a bug report"));
    connect(copy, &QPushButton::clicked, this,
        [] { QGuiApplication::clipboard()->setText(buildInformation()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *top = new QHBoxLayout;
    top->addWidget(logo);
    top->addWidget(about, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(buildLabel);
    layout->addWidget(build);
    layout->addWidget(buttons);

    QTextDocument plain;
    plain.setHtml(html);
    m_text = plain.toPlainText() + QLatin1Char('\n') + buildInformation();
}

QString AboutDialog::text() const
{
    return m_text;
}

} // namespace ioprism::ui
