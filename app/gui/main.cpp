// SPDX-License-Identifier: GPL-3.0-or-later
// ioprism: the desktop application.
//
// The window on this machine's services (app/gui/gui_platform.h, which keeps ui/ free of
// OS code) and the command line's scripted cases.
#include "app/gui/gui_platform.h"
#include "platform/common/backend_factory.h"
#include "platform/common/data_dir.h"
#include "ui/main_window.h"
#include "ui/pages/results_page.h"
#include "ui/pages/setup_page.h"
#include "ui/results_keeper.h"
#include "ui/translations.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QTimer>

#include <iostream>
#include <string_view>

namespace {

using namespace ioprism;

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

// The application's names, before any window: the settings' folder and the window's
// title come from them.
void describeApplication()
{
    QApplication::setApplicationName(QStringLiteral("IOPrism"));
    QApplication::setOrganizationName(QStringLiteral("IOPrism"));
    QApplication::setApplicationVersion(QStringLiteral(IOPRISM_VERSION));
    // The installed desktop entry's id (resources/io.github.ioprism.IOPrism.desktop): on
    // Wayland it ties the window to its menu entry and icon.
    QApplication::setDesktopFileName(QStringLiteral("io.github.ioprism.IOPrism"));
    // The user's language (LANG, LANGUAGE), before any window is made. The command line's
    // help below stays English: the man page is made from it.
    ui::installTranslations(QLocale::system());
}

// The command line. Its help is the man page's text (made from --help at build time), so
// the options keep their order and words.
struct CommandLine {
    QCommandLineOption run {QStringLiteral("run"), QStringLiteral("Start the profile at once.")};
    QCommandLineOption engine {QStringLiteral("engine"),
        QStringLiteral("I/O engine: auto, io_uring, sync, null (Linux); auto, iocp, null "
                       "(Windows)."),
        QStringLiteral("kind")};
    QCommandLineOption screenshots {QStringLiteral("screenshots"),
        QStringLiteral(
            "Save screenshots of the pages into DIR: the setup pages, then (after running "
            "the profile) the Live and Results pages; then quit."),
        QStringLiteral("dir")};
    QCommandLineOption quitAfterRun {
        QStringLiteral("quit-after-run"), QStringLiteral("Quit when the run ends.")};
    QCommandLineOption resultsJson {QStringLiteral("results-json"),
        QStringLiteral("When the run ends, write its JSON results to FILE "
                       "(for benchmarks of the GUI against the CLI)."),
        QStringLiteral("file")};
    QCommandLineOption windowSize {QStringLiteral("window-size"),
        QStringLiteral("Window size, e.g. 1500x940 (the default for screenshots)."),
        QStringLiteral("WxH")};
    QCommandLineOption page {QStringLiteral("page"),
        QStringLiteral("Open the window on page NAME: targets, specs, setup, live, results "
                       "or history (series and compare while they show something)."),
        QStringLiteral("name")};
    QCommandLineParser parser;

    void process(const QApplication &app)
    {
        parser.setApplicationDescription(QStringLiteral("IOPrism: storage benchmark"));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addPositionalArgument(QStringLiteral("files"),
            QStringLiteral(
                "A profile to open (.json or Iometer .icf), a results file to show, or two "
                "or more results files to compare."));
        parser.addOptions({run, engine, screenshots, quitAfterRun, resultsJson, windowSize, page});
        parser.process(app);
    }
    QStringList files() const { return parser.positionalArguments(); }
    // Two or more results files: compared (a file manager's "Open with" on several).
    bool comparing() const { return files().size() >= 2; }
    QString shotDir() const { return parser.value(screenshots); }
};

// --engine onto the Test Setup page; false (after saying why) for a kind not known.
bool applyEngine(ui::MainWindow &window, const CommandLine &commandLine)
{
    if (!commandLine.parser.isSet(commandLine.engine))
        return true;
    const std::string name = commandLine.parser.value(commandLine.engine).toStdString();
    const auto kind = platform::parseEngineKind(name);
    if (!kind) {
        std::cerr << "ioprism: --engine: \"" << name
                  << "\" is not one of auto, io_uring, sync, null, iocp\n";
        return false;
    }
    // A kind this platform does not offer (iocp on Linux, io_uring on Windows) is refused.
    if (!window.setupPage()->setEngine(*kind)) {
        std::cerr << "ioprism: --engine: \"" << name << "\" is not offered on this system\n";
        return false;
    }
    return true;
}

// --page: the page the window opens on; false (after saying why) for a name not known.
bool applyPage(ui::MainWindow &window, const CommandLine &commandLine)
{
    if (!commandLine.parser.isSet(commandLine.page))
        return true;
    const QString name = commandLine.parser.value(commandLine.page);
    const auto page = ui::MainWindow::pageNamed(name);
    if (!page) {
        std::cerr << "ioprism: --page: \"" << name.toStdString() << "\" is not one of "
                  << ui::MainWindow::pageNames().join(QStringLiteral(", ")).toStdString() << "\n";
        return false;
    }
    window.showPage(*page);
    return true;
}

// Screenshots are all of one size (the docs' pictures); --window-size overrides it.
void sizeWindow(ui::MainWindow &window, const CommandLine &commandLine)
{
    if (!commandLine.shotDir().isEmpty())
        window.resize(1500, 940);
    if (commandLine.parser.isSet(commandLine.windowSize)) {
        const QStringList wh
            = commandLine.parser.value(commandLine.windowSize).split(QLatin1Char('x'));
        if (wh.size() == 2)
            window.resize(wh[0].toInt(), wh[1].toInt());
    }
}

// What the command line asks of the window beyond showing it: the files opened, the run
// started, the screenshots saved, the results written and the quit. It lives in main's
// scope, so the lambdas it connects outlast the event loop.
class Script
{
public:
    Script(QApplication &app, ui::MainWindow &window, const CommandLine &commandLine)
        : m_app(app)
        , m_window(window)
        , m_commandLine(commandLine)
        , m_shotDir(commandLine.shotDir())
    { }

    // Opens the files named. False when a profile cannot be opened and the scripted case
    // cannot go on (main returns 2); a results file's failure comes later (readFailed).
    bool openFiles();
    // After window.show(): what comes at the end of each run, then the screenshots or the
    // run, at once or (a results file being read) once the read has ended.
    void start();

private:
    using Shots = std::vector<std::pair<ui::MainWindow::Page, const char *>>;

    void watchRead();
    void endRead();
    void readFailed();
    void onRunFinished(const ui::RunResultPtr &result);
    void begin();
    void takeShot(std::size_t i);
    bool scripted() const
    {
        return !m_shotDir.isEmpty() || m_commandLine.parser.isSet(m_commandLine.run);
    }
    bool quitWhenDone() const
    {
        return m_commandLine.parser.isSet(m_commandLine.quitAfterRun) || !m_shotDir.isEmpty();
    }

    QApplication &m_app;
    ui::MainWindow &m_window;
    const CommandLine &m_commandLine;
    const QString m_shotDir;
    // The read of the results files named is under way: the script begins at its end.
    bool m_reading = false;
    std::vector<QMetaObject::Connection> m_readConnections;
};

bool Script::openFiles()
{
    const QStringList files = m_commandLine.files();
    if (files.isEmpty())
        return true;
    // Results files are read off the GUI thread: whether they opened is known only at
    // the read's end, a signal. Watched from before the read starts, so no end is missed.
    watchRead();
    if (m_commandLine.comparing()) {
        // False only for fewer than two files: a damaged one ends in openFailed.
        if (!m_window.compareFiles(files)) {
            endRead();
            std::cerr << "ioprism: cannot compare the files given\n";
            if (!m_shotDir.isEmpty())
                return false;
        }
    } else if (!m_window.openFile(files.first())) {
        endRead();
        std::cerr << "ioprism: cannot open " << files.first().toStdString() << "\n";
        if (scripted())
            return false;
    }
    // A profile (or an .icf) was read at once: there is nothing to wait for.
    m_reading = m_window.resultsKeeper()->isReading();
    if (!m_reading)
        endRead();
    return true;
}

// The first read's end only: a file the user opens later from the window must neither
// quit the application nor start the script again.
void Script::watchRead()
{
    const auto opened = [this] {
        endRead();
        begin();
    };
    m_readConnections = {
        QObject::connect(&m_window, &ui::MainWindow::resultsOpened, &m_window, opened),
        QObject::connect(&m_window, &ui::MainWindow::runsCompared, &m_window, opened),
        QObject::connect(&m_window, &ui::MainWindow::openFailed, &m_window,
            [this] {
                endRead();
                readFailed();
            }),
    };
}

void Script::endRead()
{
    for (const auto &connection : m_readConnections)
        QObject::disconnect(connection);
    m_readConnections.clear();
    m_reading = false;
}

// The message bar says why; the terminal says which, and the scripted cases (which would
// otherwise screenshot or run without the file asked for) end with status 2, as when the
// file was read before the window was shown.
void Script::readFailed()
{
    if (m_commandLine.comparing()) {
        std::cerr << "ioprism: cannot compare the files given\n";
        if (!m_shotDir.isEmpty()) {
            m_app.exit(2);
            return;
        }
    } else {
        std::cerr << "ioprism: cannot open " << m_commandLine.files().first().toStdString() << "\n";
        if (scripted()) {
            m_app.exit(2);
            return;
        }
    }
    begin();
}

void Script::start()
{
    QObject::connect(&m_window, &ui::MainWindow::runFinished, &m_window,
        [this](const ui::RunResultPtr &result) { onRunFinished(result); });
    if (!m_shotDir.isEmpty())
        QDir().mkpath(m_shotDir);
    // The read's end, always later (its signal comes through the event loop), begins
    // the script then: a run started meanwhile would make the opened file be refused.
    if (m_reading)
        return;
    if (!m_shotDir.isEmpty())
        QTimer::singleShot(600, &m_window, [this] { takeShot(0); });
    else
        begin();
}

void Script::onRunFinished(const ui::RunResultPtr &result)
{
    if (result && result->error)
        std::cerr << "ioprism: the run failed: " << result->error->toString() << "\n";
    const CommandLine &cl = m_commandLine;
    if (cl.parser.isSet(cl.resultsJson)
        && !m_window.exportResultsJson(cl.parser.value(cl.resultsJson)))
        std::cerr << "ioprism: cannot write " << cl.parser.value(cl.resultsJson).toStdString()
                  << "\n";
    if (!m_shotDir.isEmpty() && result && !result->steps.empty())
        m_window.resultsPage()->setStep(
            static_cast<int>(result->steps.size()) - 1); // the last (mixed) step
    const int status = result && !result->error ? 0 : 1;
    if (!m_shotDir.isEmpty()) {
        m_window.saveScreenshots(m_shotDir, [this, status] { m_app.exit(status); });
        return;
    }
    if (quitWhenDone())
        m_app.exit(status);
}

// The screenshots, else --run. The window is shown: a screenshot's page is painted by
// the event loop before it is grabbed (takeShot).
void Script::begin()
{
    if (!m_shotDir.isEmpty()) {
        takeShot(0);
    } else if (m_commandLine.parser.isSet(m_commandLine.run)) {
        QTimer::singleShot(0, &m_window, [this] {
            if (!m_window.startRun() && quitWhenDone())
                m_app.exit(1);
        });
    }
}

// Pages are grabbed one after another, each shown and painted by the event loop first;
// then the run starts, and runFinished saves the Live and Results pages. Comparing: the
// History and Compare pages, and no run.
void Script::takeShot(std::size_t i)
{
    static const Shots pages = {
        {ui::MainWindow::SetupTab, "setup.png"},
        {ui::MainWindow::SpecsTab, "specs.png"},
        {ui::MainWindow::TargetsTab, "targets.png"},
    };
    static const Shots comparePages = {
        {ui::MainWindow::HistoryTab, "history.png"},
        {ui::MainWindow::CompareTab, "compare.png"},
    };
    const bool comparing = m_commandLine.comparing();
    const Shots &shots = comparing ? comparePages : pages;
    if (i == shots.size() && comparing) {
        m_app.exit(0);
        return;
    }
    if (i == shots.size()) {
        if (!m_window.startRun())
            m_app.exit(1);
        return;
    }
    m_window.showPage(shots[i].first);
    QTimer::singleShot(400, &m_window, [this, i, file = shots[i].second] {
        m_window.grab().save(QDir(m_shotDir).filePath(QLatin1String(file)));
        takeShot(i + 1);
    });
}

} // namespace

int main(int argc, char **argv)
{
    if (onlyPrints(argc, argv))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    describeApplication();
    CommandLine commandLine;
    commandLine.process(app);

    ui::MainWindowOptions options;
    // The run library the command line saves into too, so History lists both.
    if (auto library = platform::runLibraryDirectory())
        options.runLibraryDirectory = QString::fromStdString(library->string());
    ui::MainWindow window(app::platformServices(), options);
    if (!applyEngine(window, commandLine))
        return 2;
    Script script(app, window, commandLine);
    if (!script.openFiles())
        return 2;
    // After the files: a profile opened must not take the window off the page asked for.
    if (!applyPage(window, commandLine))
        return 2;
    sizeWindow(window, commandLine);
    window.show();
    script.start();
    return QApplication::exec();
}
