// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results_keeper.h"

#include "core/library/run_library.h"
#include "core/report/results_json.h"
#include "core/report/results_reader.h"
#include "ui/format.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QMetaObject>
#include <QRunnable>
#include <QSaveFile>

namespace ioprism::ui {

ResultsKeeper::ResultsKeeper(QObject *parent)
    : QObject(parent)
{
    // One thread: jobs end in the order asked (a file is written before it is read).
    m_pool.setMaxThreadCount(1);
}

ResultsKeeper::~ResultsKeeper()
{
    // A job reads its own values only; its callback, posted to this object, is dropped.
    m_pool.waitForDone();
}

void ResultsKeeper::run(std::function<QString()> job, std::function<void(const QString &)> done)
{
    ++m_pending;
    // `this` outlives the job (the destructor waits for it); the call the job posts back is
    // dropped by Qt when this object is gone before it runs.
    m_pool.start(QRunnable::create([this, job = std::move(job), done = std::move(done)] {
        QString error;
        try {
            error = job();
        } catch (const std::exception &e) {
            error = QString::fromStdString(e.what()); // out of memory for a huge document
        }
        QMetaObject::invokeMethod(
            this,
            [this, done, error] {
                if (done)
                    done(error);
                if (--m_pending == 0)
                    emit idle();
            },
            Qt::QueuedConnection);
    }));
}

void ResultsKeeper::saveToLibrary(RunResultPtr result, core::Environment environment,
    std::string directory, core::InputFileReader read,
    std::function<void(const QString &error)> done)
{
    run(
        [result = std::move(result), environment = std::move(environment),
            directory = std::move(directory), read = std::move(read)]() -> QString {
            const core::RunLibrary library(directory, read);
            const std::string text = core::writeResultsJson(*result, environment);
            if (auto id = library.save(*result, text); !id)
                return QString::fromStdString(id.error().toString());
            return {};
        },
        std::move(done));
}

void ResultsKeeper::writeFile(const QString &path, std::function<std::string()> make,
    std::function<void(const QString &error)> done)
{
    run(
        [path, make = std::move(make)]() -> QString {
            const std::string text = make();
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly)
                || file.write(text.data(), static_cast<qint64>(text.size()))
                    != static_cast<qint64>(text.size())
                || !file.commit())
                return file.errorString().isEmpty() ? QStringLiteral("write failed")
                                                    : file.errorString();
            return {};
        },
        std::move(done));
}

void ResultsKeeper::readResults(const QStringList &paths, core::InputFileReader read,
    std::function<void(const std::vector<ResultsFileRead> &files)> done)
{
    const quint64 generation = ++m_readGeneration;
    ++m_reading;
    // Like run(): `this` outlives the job, and its posted call is dropped with this object.
    m_pool.start(QRunnable::create([this, paths, generation, read = std::move(read),
                                       hook = m_readHook, done = std::move(done)] {
        std::vector<ResultsFileRead> files;
        for (const QString &path : paths) {
            // Stale before it began (the user asked for another file): not read at all.
            if (m_readGeneration.load() != generation)
                break;
            if (hook)
                hook(path);
            ResultsFileRead &file = files.emplace_back();
            file.path = path;
            try {
                const core::InputFileText text = read
                    ? read(toFilesystemPath(path), core::kMaxResultsFileBytes, "results files")
                    : core::InputFileText {{},
                        core::Problem {core::Severity::Error, {}, "no file reader"},
                        core::InputFileFailure::Unreadable};
                if (text.problem) {
                    file.failure = ResultsFileRead::Failure::Unreadable;
                    file.problem = QString::fromStdString(text.problem->message);
                } else if (core::ResultsRead parsed = core::readResultsJson(text.text);
                           !parsed.ok()) {
                    file.failure = ResultsFileRead::Failure::NotOpened;
                    file.problem = QString::fromStdString(parsed.error);
                } else {
                    file.result
                        = std::make_shared<const core::RunResult>(std::move(*parsed.result));
                }
            } catch (const std::exception &e) {
                // Out of memory for a huge document: said as the parser's refusal.
                file.failure = ResultsFileRead::Failure::NotOpened;
                file.problem = QString::fromStdString(e.what());
            }
            if (!file.ok())
                break;
        }
        QMetaObject::invokeMethod(
            this,
            [this, generation, files = std::move(files), done] {
                --m_reading;
                // A later read was asked for meanwhile: this one is never shown.
                if (generation == m_readGeneration.load() && done)
                    done(files);
            },
            Qt::QueuedConnection);
    }));
}

} // namespace ioprism::ui
