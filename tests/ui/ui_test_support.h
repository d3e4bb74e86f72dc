// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers for the GUI tests: one QApplication for the whole test executable (made on
// first use, offscreen unless the caller chose a platform), isolated settings, and
// small profiles.
#pragma once

#include "core/profile/profile.h"
#include "core/profile/validation.h"
#include "platform/common/input_file_reader.h"
#include "support/test_support.h"
#include "ui/main_window.h"
#include "ui/models/targets_model.h"
#include "ui/platform_services.h"
#include "ui/translations.h"

#include <QApplication>
#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QLibrary>
#include <QLineEdit>
#include <QLocale>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <gtest/gtest.h>
#include <string>

namespace ioprism::test {

// The null platform (ui::nullPlatformServices), but files are read as the application
// reads them: through the one bounded reader (platform::readInputFile).
// A main window's options for a test: no session restored, data in `dataDir` (never the
// user's own settings or run library).
inline ui::MainWindowOptions isolatedOptions(const std::filesystem::path &dataDir)
{
    ui::MainWindowOptions options;
    options.restoreSession = false;
    options.dataDirectory = QString::fromStdString(dataDir.string());
    return options;
}

inline ui::MainWindowOptions isolatedOptions(const TempDir &dir)
{
    return isolatedOptions(dir.path());
}

// The row of the Targets model whose path is `path`, -1 when none is.
inline int targetRow(const ui::TargetsModel &model, const std::string &path)
{
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.index(row, 0).data(ui::TargetsModel::PathRole).toString()
            == QString::fromStdString(path))
            return row;
    return -1;
}

// core's message for a field path, as validateProfile words it ("" when it finds none).
inline std::string coreMessage(const core::Profile &profile, const std::string &path)
{
    for (const auto &p : core::validateProfile(profile))
        if (p.path == path)
            return p.message;
    return {};
}

// The first visible child of `window` of type T (named `name`, if given): a dialog
// answered earlier may not be deleted yet.
template<typename T> T *findVisible(const QWidget &window, const QString &name = {})
{
    for (auto *w : window.findChildren<T *>(name))
        if (w->isVisible())
            return w;
    return nullptr;
}

inline ui::PlatformServices testServices()
{
    ui::PlatformServices services = ui::nullPlatformServices();
    services.readFile = platform::readInputFile;
    services.readFileHead = platform::readInputFileHead;
    return services;
}

// The application object the widgets need. Intentionally never destroyed: tests run
// in one process and QApplication must outlive every widget, including statics.
inline QApplication &ensureApp()
{
    static QApplication *app = [] {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        static int argc = 1;
        static char name[] = "ui_tests";
        static char *argv[] = {name, nullptr};
        QStandardPaths::setTestModeEnabled(true); // data under ~/.qttest
        // Settings in a directory of this process's own: ctest runs several test
        // processes at a time (a case each, or a shard of cases), and a shared settings
        // file let one test's clear or write land in the middle of another's (a flaky
        // engine-setting test). Each case starts from empty settings
        // (tests/ui/fresh_settings.cpp).
        // On Windows the native format is the registry, which setPath cannot move and which
        // every test process under one Wine prefix shares (one test's peak mode reached
        // the next test's run): settings are INI files everywhere.
        static QTemporaryDir settingsDir;
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
        auto *a = new QApplication(argc, argv);
        // Figures are formatted in the user's locale: tests expect English grouping.
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        // As the application does at start: English texts with their plural forms.
        ui::installTranslations(QLocale(QLocale::English, QLocale::UnitedStates));
        QCoreApplication::setOrganizationName(QStringLiteral("IOPrismTests"));
        QCoreApplication::setApplicationName(QStringLiteral("ui_tests"));
        return a;
    }();
    return *app;
}

// True when this Windows program runs under Wine: Wine's ntdll exports wine_get_version,
// Windows' never does. Always false elsewhere, where there is no ntdll to load. A runtime
// check, so that no OS conditional enters the tests.
inline bool underWine()
{
    static const bool wine
        = QLibrary::resolve(QStringLiteral("ntdll"), "wine_get_version") != nullptr;
    return wine;
}

// Why text cannot be measured here, or empty when it can. Under Wine without Debian's
// fonts-wine, C:\windows\Fonts is empty and Qt's offscreen platform finds no font at all
// (QFontDatabase::families() is empty; pointing QT_QPA_FONTDIR at the host's DejaVu did
// not change that): every character is drawn as a box as wide as the pixel size, "i" as
// wide as "W", so a layout sized to its text is several times wider than on any real
// system.
inline QString textCannotBeMeasured()
{
    ensureApp();
    if (!underWine() || !QFontDatabase::families().isEmpty())
        return {};
    const QFontMetrics metrics(QApplication::font());
    return QStringLiteral(
        "Wine gives Qt's offscreen platform no font (empty "
        "C:\\windows\\Fonts, no fonts-wine): every character is a %1-px box, \"i\" as wide "
        "as \"W\" (%2 px), so text-sized layouts cannot be judged")
        .arg(metrics.horizontalAdvance(QLatin1Char('i')))
        .arg(metrics.horizontalAdvance(QLatin1Char('W')));
}

// A base for fixtures whose members are widgets: the application exists before them.
struct WithApp {
    WithApp() { ensureApp(); }
};

// The UI in German for the life of this object, then English again as ensureApp left it
// (its plural forms included) — also when an ASSERT ends the test early. Tests run in one
// process when the binary runs at once: a test that ended with removeTranslations() left
// no catalogue at all, and the next test read "1 steps".
struct GermanUi {
    GermanUi()
    {
        ensureApp();
        installed = ui::installTranslations(QLocale(QLocale::German, QLocale::Germany)).ioprism;
    }
    ~GermanUi() { ui::installTranslations(QLocale(QLocale::English, QLocale::UnitedStates)); }
    GermanUi(const GermanUi &) = delete;
    GermanUi &operator=(const GermanUi &) = delete;
    bool installed = false;
};

// Runs the event loop until `done` or the timeout; true when done. For tests only (the
// application itself never spins a nested loop).
inline bool waitUntil(const std::function<bool()> &done, std::chrono::milliseconds timeout)
{
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > timeout.count())
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return true;
}

// The window reads results files off the GUI thread (MainWindow::openFile): `begin` asks
// for a read, then this waits for the window's `signal` (resultsOpened, openFailed…) with
// a generous timeout. False when it did not come (a failed read says why in the message
// bar).
template<typename Signal>
bool waitForSignal(ui::MainWindow &window, Signal signal, const std::function<void()> &begin)
{
    QSignalSpy spy(&window, signal);
    begin();
    return !spy.isEmpty() || spy.wait(60000);
}

// Opens a results file and waits until the window shows it.
inline bool openResultsFile(ui::MainWindow &window, const QString &path)
{
    return waitForSignal(
        window, &ui::MainWindow::resultsOpened, [&] { EXPECT_TRUE(window.openFile(path)); });
}

// One worker, one test-file target, one 4 KiB random-read spec: runs on the null engine.
inline core::Profile smallProfile(std::chrono::seconds runTime = std::chrono::seconds(1),
    std::chrono::milliseconds interval = std::chrono::milliseconds(100))
{
    core::Profile p;
    p.setup.runTime = runTime;
    p.setup.interval = interval;
    core::AccessSpec spec;
    spec.name = "RND4K QD4";
    core::SpecLine line;
    line.transferSizeBytes = 4096;
    line.alignmentBytes = 4096;
    line.percentRead = 70;
    line.percentRandom = 100;
    spec.lines.push_back(line);
    spec.queueDepth = 4;
    p.specs.push_back(spec);
    core::Worker w;
    w.name = "Worker 1";
    w.assignedSpecs = {spec.name};
    core::Target t;
    t.path = "/nonexistent/ioprism-null-target.dat";
    t.testFileSizeBytes = 64 * core::kMiB;
    w.targets.push_back(t);
    core::Host h;
    h.workers.push_back(w);
    p.hosts.push_back(h);
    return p;
}

// A field edited as a user does: text typed, then the field left (editingFinished).
inline void type(QLineEdit *field, const QString &text)
{
    field->setText(text);
    emit field->editingFinished();
}

// The item of a combo box whose data is `data` chosen.
inline void choose(QComboBox *combo, int data)
{
    const int index = combo->findData(data);
    ASSERT_GE(index, 0) << data;
    combo->setCurrentIndex(index);
}

// A field marked invalid (ui/editors/field_marks.h).
inline bool marked(const QWidget *field)
{
    return field->property("ioprismInvalid").toBool();
}

} // namespace ioprism::test
