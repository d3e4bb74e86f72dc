// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results_keeper.h"

#include "core/library/run_library.h"
#include "core/report/results_json.h"

#include <QCoreApplication>
#include <QDir>
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

} // namespace ioprism::ui
