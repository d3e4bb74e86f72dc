// SPDX-License-Identifier: GPL-3.0-or-later
// Where the GUI's results go to disk and come back from it, off the GUI thread: a
// finished run into the run library, a results JSON or another export into the file the
// user chose; results files read to be opened, compared or run again. A results document
// is tens of MB for a long run (docs/performance.md, "Saving a run"): making it and
// writing it, or reading and parsing it, on the GUI thread froze the window for seconds.
//
// The shape is hotspot's job tracker: each job is a value (a shared, immutable
// RunResult, a path) run on a thread of this object's pool, and its end comes back as a
// queued call on the GUI thread. One thread, so jobs end in the order they were asked
// (a results file written, then opened, is complete when it is read).
//
// Nothing here blocks the GUI thread while the window lives: the destructor waits for a
// job still running (the window does not close while a write is, see
// MainWindow::closeEvent; it does while a read is, whose end is then never delivered), and
// a job's callback is dropped when this object is gone.
//
// Reads are the user's latest wish: a read asked for while another is queued or running
// makes the earlier one stale. A stale read that has not begun is skipped, and its
// callback is never called (the window shows only what was asked for last).
#pragma once

#include "core/profile/input_file.h"
#include "core/report/environment.h"
#include "ui/metatypes.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace ioprism::ui {

// What reading one results file gave: the run, or why not, in the reader's own words
// (the window says them in a sentence of its own, as before the reads left its thread).
struct ResultsFileRead {
    enum class Failure {
        None,
        Unreadable, // the bounded reader refused it (missing, too big, a FIFO…)
        NotOpened, // read, but no results document this IOPrism opens (damaged, newer)
    };
    QString path;
    RunResultPtr result; // null unless failure == None
    Failure failure = Failure::None;
    QString problem; // the reader's or the parser's message

    bool ok() const { return failure == Failure::None; }
};

class ResultsKeeper : public QObject
{
    Q_OBJECT
public:
    explicit ResultsKeeper(QObject *parent = nullptr);
    ~ResultsKeeper() override;

    // Saves `result` (its results document made with `environment`) in the run library
    // in `directory`; then `done` on the GUI thread with "" or why it could not.
    void saveToLibrary(RunResultPtr result, core::Environment environment, std::string directory,
        core::InputFileReader read, std::function<void(const QString &error)> done);
    // Writes what `make` returns (called off the GUI thread: it must read only values it
    // holds) into `path`, whole or not at all (QSaveFile); then `done` on the GUI thread
    // with "" or why it could not.
    void writeFile(const QString &path, std::function<std::string()> make,
        std::function<void(const QString &error)> done);

    // Reads the results files in `paths` in turn (up to the first that cannot be read)
    // through `read`, then `done` on the GUI thread with what each gave (the last one
    // failed when it is shorter than `paths`); never when a later readResults was asked
    // for before it ended. After the writes asked for before it, so that a results file
    // written, then opened, is complete when it is read.
    void readResults(const QStringList &paths, core::InputFileReader read,
        std::function<void(const std::vector<ResultsFileRead> &files)> done);
    // Tests: called on the reading thread before each file is read, with its path.
    void setReadHook(std::function<void(const QString &path)> hook)
    {
        m_readHook = std::move(hook);
    }

    // A write is asked for or running (a read does not count: it may be dropped).
    bool isBusy() const { return m_pending > 0; }
    // A read is asked for or running whose callback has not run yet.
    bool isReading() const { return m_reading > 0; }

signals:
    // The last write asked for has ended (its callback has run).
    void idle();

private:
    void run(std::function<QString()> job, std::function<void(const QString &)> done);

    QThreadPool m_pool;
    int m_pending = 0; // GUI thread only
    int m_reading = 0; // GUI thread only
    // The latest read asked for: bumped on the GUI thread, compared by each read on the
    // pool's thread (before it reads) and on the GUI thread (before its callback).
    std::atomic<quint64> m_readGeneration {0};
    std::function<void(const QString &)> m_readHook; // set before reads, by tests
};

} // namespace ioprism::ui
