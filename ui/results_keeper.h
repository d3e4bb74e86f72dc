// SPDX-License-Identifier: GPL-3.0-or-later
// Where the GUI's results go to disk, off the GUI thread: a finished run into the run
// library, a results JSON or another export into the file the user chose. A results
// document is tens of MB for a long run (docs/performance.md, "Saving a run"): making it
// and writing it on the GUI thread froze the window for seconds.
//
// The shape is hotspot's job tracker: each job is a value (a shared, immutable
// RunResult, a path) run on a thread of this object's pool, and its end comes back as a
// queued call on the GUI thread. One thread, so jobs end in the order they were asked
// (a results file written, then opened, is complete when it is read).
//
// Nothing here blocks the GUI thread while the window lives: the destructor waits for a
// job still running (the window does not close while one is, see MainWindow::closeEvent),
// and a job's callback is dropped when this object is gone.
#pragma once

#include "core/profile/input_file.h"
#include "core/report/environment.h"
#include "ui/metatypes.h"

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <functional>
#include <string>

namespace ioprism::ui {

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

    // A job is asked for or running.
    bool isBusy() const { return m_pending > 0; }

signals:
    // The last job asked for has ended (its callback has run).
    void idle();

private:
    void run(std::function<QString()> job, std::function<void(const QString &)> done);

    QThreadPool m_pool;
    int m_pending = 0; // GUI thread only
};

} // namespace ioprism::ui
