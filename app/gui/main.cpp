// SPDX-License-Identifier: GPL-3.0-or-later
// ioprism: the desktop application.
//
// The only place where the GUI meets the platform layer: it fills ui::PlatformServices
// with the engines, OS counters and device discovery of this machine, so ui/ stays free
// of OS code.
#include "platform/common/backend_factory.h"
#include "platform/common/data_dir.h"
#include "platform/common/input_file_reader.h"
#include "platform/common/system.h"
#include "platform/common/target_resolution.h"
#include "ui/main_window.h"
#include "ui/models/profile_defaults.h"
#include "ui/pages/results_page.h"
#include "ui/pages/setup_page.h"
#include "ui/translations.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QTimer>

#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <string_view>

namespace {

using namespace ioprism;

// Disks, partitions and a test-file location on every writable mounted file system.
std::vector<ui::TargetCandidate> listTargets()
{
    std::vector<ui::TargetCandidate> candidates;
    const auto disks = platform::listBlockDevices();
    const auto mounts = platform::listMounts();

    // The model and media of the disk holding a device path ("/dev/vda1" -> vda).
    auto diskOf = [&](const std::string &devicePath) -> const platform::BlockDeviceInfo * {
        for (const auto &d : disks) {
            if (d.devicePath == devicePath)
                return &d;
            for (const auto &p : d.partitions)
                if (p.devicePath == devicePath)
                    return &d;
        }
        return nullptr;
    };

    for (const auto &m : mounts) {
        // A place this user cannot create files in (the root folder for a user) is no
        // place to offer a test file.
        if (m.readOnly || !platform::accessProblem(m.mountPoint, true).empty())
            continue;
        ui::TargetCandidate c;
        c.kind = core::TargetKind::TestFile;
        c.path = (std::filesystem::path(m.mountPoint) / ui::kTestFileName).string();
        c.name = m.mountPoint + " (" + m.fsType + ")";
        c.sizeBytes = m.totalBytes;
        c.freeBytes = m.freeBytes;
        c.fsType = m.fsType;
        c.mountPoints = {m.mountPoint};
        if (const auto *disk = diskOf(m.device)) {
            c.model = disk->model;
            c.rotational = disk->rotational;
        }
        candidates.push_back(c);
    }
    for (const auto &d : disks) {
        ui::TargetCandidate disk;
        disk.kind = core::TargetKind::BlockDevice;
        disk.path = d.devicePath;
        disk.name = d.name;
        disk.model = d.model;
        disk.sizeBytes = d.sizeBytes;
        disk.rotational = d.rotational;
        disk.readOnly = d.readOnly;
        disk.mountPoints = d.mountPoints;
        for (const auto &h : d.holders)
            disk.inUse.push_back("used by " + h);
        for (const auto &p : d.partitions) {
            // Writing the whole disk overwrites its partitions: their mounts count too.
            disk.mountPoints.insert(
                disk.mountPoints.end(), p.mountPoints.begin(), p.mountPoints.end());
            for (const auto &h : p.holders)
                disk.inUse.push_back(p.name + " used by " + h);
        }
        candidates.push_back(disk);
        for (const auto &p : d.partitions) {
            ui::TargetCandidate part;
            part.kind = core::TargetKind::Partition;
            part.path = p.devicePath;
            part.name = p.name;
            part.model = d.model;
            part.sizeBytes = p.sizeBytes;
            part.rotational = d.rotational;
            part.readOnly = d.readOnly;
            part.mountPoints = p.mountPoints;
            for (const auto &h : p.holders)
                part.inUse.push_back("used by " + h);
            candidates.push_back(part);
        }
    }
    return candidates;
}

ui::PlatformServices platformServices()
{
    ui::PlatformServices services;
    services.makeBackend
        = [](core::EngineKind kind) { return platform::makeBackend({.kind = kind}); };
    services.makeCounters = [] { return platform::makeCounterSource(); };
    services.listTargets = listTargets;
    services.targetExists = [](const core::Target &t) { return platform::targetExists(t); };
    services.iometerVolumeIsHere
        = [](const core::IometerVolume &v) { return platform::iometerVolumeIsHere(v); };
    services.detectTargetKind
        = [](const std::string &path) { return platform::detectTargetKind(path); };
    services.describeSystem = [] {
        auto environment = platform::describeSystem();
        environment.toolVersion = IOPRISM_VERSION;
        return environment;
    };
    services.describeDevice
        = [](const std::string &path) { return platform::describeDevice(path); };
    services.removeTestFile
        = [](const std::string &path) { return platform::removeTestFile(path); };
    services.readFile = platform::readInputFile;
    services.readFileHead = platform::readInputFileHead;
    services.accessProblem = platform::accessProblem;
    return services;
}

// True when the command line asks only for --help or --version. Those print and quit
// before any window, so they need no display: the man page is made from --help at build
// time, on machines without an X server.
bool onlyPrints(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--")
            return false;
        if (arg == "-h" || arg == "-?" || arg == "--help" || arg == "--help-all" || arg == "-v"
            || arg == "--version")
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char **argv)
{
    if (onlyPrints(argc, argv))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("IOPrism"));
    QApplication::setOrganizationName(QStringLiteral("IOPrism"));
    QApplication::setApplicationVersion(QStringLiteral(IOPRISM_VERSION));
    // The installed desktop entry's id (resources/io.github.ioprism.IOPrism.desktop): on
    // Wayland it ties the window to its menu entry and icon.
    QApplication::setDesktopFileName(QStringLiteral("io.github.ioprism.IOPrism"));
    // The user's language (LANG, LANGUAGE), before any window is made. The command line's
    // help below stays English: the man page is made from it.
    ui::installTranslations(QLocale::system());

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("IOPrism: storage benchmark"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"),
        QStringLiteral("A profile to open (.json or Iometer .icf), a results file to show, or two "
                       "or more results files to compare."));
    const QCommandLineOption run(
        QStringLiteral("run"), QStringLiteral("Start the profile at once."));
    const QCommandLineOption engine(QStringLiteral("engine"),
        QStringLiteral("I/O engine: auto, io_uring, sync, null."), QStringLiteral("kind"));
    const QCommandLineOption screenshots(QStringLiteral("screenshots"),
        QStringLiteral(
            "Save screenshots of the pages into DIR: the setup pages, then (after running "
            "the profile) the Live and Results pages; then quit."),
        QStringLiteral("dir"));
    const QCommandLineOption quitAfterRun(
        QStringLiteral("quit-after-run"), QStringLiteral("Quit when the run ends."));
    const QCommandLineOption resultsJson(QStringLiteral("results-json"),
        QStringLiteral("When the run ends, write its JSON results to FILE "
                       "(for benchmarks of the GUI against the CLI)."),
        QStringLiteral("file"));
    const QCommandLineOption windowSize(QStringLiteral("window-size"),
        QStringLiteral("Window size, e.g. 1500x940 (the default for screenshots)."),
        QStringLiteral("WxH"));
    parser.addOptions({run, engine, screenshots, quitAfterRun, resultsJson, windowSize});
    parser.process(app);

    ui::MainWindowOptions options;
    // The run library the command line saves into too, so History lists both.
    if (auto library = platform::runLibraryDirectory())
        options.runLibraryDirectory = QString::fromStdString(library->string());
    ui::MainWindow window(platformServices(), options);
    if (parser.isSet(engine)) {
        const std::string name = parser.value(engine).toStdString();
        const auto kind = platform::parseEngineKind(name);
        if (!kind) {
            std::cerr << "ioprism: --engine: \"" << name
                      << "\" is not one of auto, io_uring, sync, null\n";
            return 2;
        }
        // A kind the page does not offer (iocp) leaves the saved choice, as before.
        window.setupPage()->setEngine(*kind);
    }
    // Two or more results files: compared (a file manager's "Open with" on several).
    const bool comparing = parser.positionalArguments().size() >= 2;
    if (comparing && !window.compareFiles(parser.positionalArguments())) {
        std::cerr << "ioprism: cannot compare the files given\n";
        if (parser.isSet(screenshots))
            return 2;
    } else if (!comparing && !parser.positionalArguments().isEmpty()
        && !window.openFile(parser.positionalArguments().first())) {
        std::cerr << "ioprism: cannot open " << parser.positionalArguments().first().toStdString()
                  << "\n";
        if (parser.isSet(screenshots) || parser.isSet(run))
            return 2;
    }

    const QString shotDir = parser.value(screenshots);
    if (!shotDir.isEmpty())
        window.resize(1500, 940);
    if (parser.isSet(windowSize)) {
        const QStringList wh = parser.value(windowSize).split(QLatin1Char('x'));
        if (wh.size() == 2)
            window.resize(wh[0].toInt(), wh[1].toInt());
    }
    window.show();

    const bool quitWhenDone = parser.isSet(quitAfterRun) || !shotDir.isEmpty();
    QObject::connect(
        &window, &ui::MainWindow::runFinished, &window, [&](const ui::RunResultPtr &result) {
            if (result && result->error)
                std::cerr << "ioprism: the run failed: " << result->error->toString() << "\n";
            if (parser.isSet(resultsJson) && !window.exportResultsJson(parser.value(resultsJson)))
                std::cerr << "ioprism: cannot write " << parser.value(resultsJson).toStdString()
                          << "\n";
            if (!shotDir.isEmpty() && result && !result->steps.empty())
                window.resultsPage()->setStep(
                    static_cast<int>(result->steps.size()) - 1); // the last (mixed) step
            if (!shotDir.isEmpty()) {
                window.saveScreenshots(
                    shotDir, [&app, result] { app.exit(result && !result->error ? 0 : 1); });
                return;
            }
            if (quitWhenDone)
                app.exit(result && !result->error ? 0 : 1);
        });

    std::function<void(std::size_t)> next; // in main's scope: it outlasts the event loop
    if (!shotDir.isEmpty()) {
        QDir().mkpath(shotDir);
        // Pages are grabbed one after another, each shown and painted by the event loop
        // first; then the run starts, and runFinished saves the Live and Results pages.
        static const std::vector<std::pair<ui::MainWindow::Page, const char *>> pages = {
            {ui::MainWindow::SetupTab, "setup.png"},
            {ui::MainWindow::SpecsTab, "specs.png"},
            {ui::MainWindow::TargetsTab, "targets.png"},
        };
        // Comparing: the History and Compare pages, and no run.
        static const std::vector<std::pair<ui::MainWindow::Page, const char *>> comparePages = {
            {ui::MainWindow::HistoryTab, "history.png"},
            {ui::MainWindow::CompareTab, "compare.png"},
        };
        const auto &shots = comparing ? comparePages : pages;
        next = [&](std::size_t i) {
            if (i == shots.size() && comparing) {
                app.exit(0);
                return;
            }
            if (i == shots.size()) {
                if (!window.startRun())
                    app.exit(1);
                return;
            }
            window.showPage(shots[i].first);
            QTimer::singleShot(400, &window, [&, i] {
                window.grab().save(QDir(shotDir).filePath(QLatin1String(shots[i].second)));
                next(i + 1);
            });
        };
        QTimer::singleShot(600, &window, [&] { next(0); });
    } else if (parser.isSet(run)) {
        QTimer::singleShot(0, &window, [&] {
            if (!window.startRun() && quitWhenDone)
                app.exit(1);
        });
    }
    return QApplication::exec();
}
