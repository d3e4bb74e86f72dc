// SPDX-License-Identifier: GPL-3.0-or-later
// The profile being edited: one core::Profile shared by every model and panel, with its
// file name, its modified flag and its validation problems, kept current on each edit.
//
// Editing rule: a model or panel changes the profile through mutableProfile() and then
// calls commitValues() (values changed, same shape) or commitStructure() (items added,
// removed, renamed or reordered), passing itself as the origin. The document then
// re-validates (validateProfile takes microseconds for a profile of any realistic size)
// and tells the others: a model resets on structureChanged from someone else and
// refreshes its colours and tooltips on problemsChanged. setProfile() replaces
// everything (New, Open, a preset) and every model resets.
//
// The current host (issue 28): the profile's managers each have their workers, and the
// editors (topology, worker settings, targets, run order) edit those of one of them at a
// time, Iometer's selected manager. host(), workerCount(), worker(), mutableWorker() and
// the field paths act on it. It is hosts[0] (this machine) unless the topology selects
// another, and goes back to hosts[0] when the profile is replaced or its host is removed.
// What means "this machine" (the run here, its devices) reads profile().hosts[0] instead.
#pragma once

#include "core/profile/problem.h"
#include "core/profile/profile.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <string>
#include <string_view>

namespace ioprism::ui {

class ProfileDocument : public QObject
{
    Q_OBJECT
public:
    explicit ProfileDocument(QObject *parent = nullptr);

    const core::Profile &profile() const { return m_profile; }
    void setProfile(core::Profile profile, const QString &filePath = {});

    core::Profile &mutableProfile() { return m_profile; }
    void commitValues(const QObject *origin);
    void commitStructure(const QObject *origin);

    // The host being edited (an index into profile().hosts; 0, this machine's, unless the
    // topology selected another manager). setCurrentHost() ignores an index out of range.
    int currentHost() const { return m_currentHost; }
    void setCurrentHost(int host);
    // The current host (the first, created on demand, when the profile has none) and its
    // workers.
    core::Host &host();
    int workerCount() const;
    const core::Worker *worker(int index) const;
    core::Worker *mutableWorker(int index);

    const core::Problems &problems() const { return m_problems; }
    // Problems at `path`, and with `children` also below it ("path.x", "path[n]").
    core::Problems problemsAt(std::string_view path, bool children = true) const;
    bool hasErrors() const;

    QString filePath() const { return m_filePath; }
    void setFilePath(const QString &path);
    bool isModified() const { return m_modified; }
    void setModified(bool modified);

    // Field paths, as validation messages name them.
    static std::string specPath(std::size_t spec);
    static std::string linePath(std::size_t spec, std::size_t line);
    // A worker's and a target's of the current host ("hosts[1].workers[0]"), and of any.
    std::string workerPath(std::size_t worker) const;
    std::string targetPath(std::size_t worker, std::size_t target) const;
    static std::string hostWorkerPath(std::size_t host, std::size_t worker);
    static std::string hostTargetPath(std::size_t host, std::size_t worker, std::size_t target);

signals:
    void profileReset();
    void structureChanged(const QObject *origin);
    void valuesChanged(const QObject *origin);
    void problemsChanged();
    void modifiedChanged(bool modified);
    void filePathChanged(const QString &path);
    // Another host is edited: what shows a worker of the current host shows this host's.
    // Emitted after profileReset or structureChanged when those moved it.
    void currentHostChanged(int host);

private:
    void revalidate();
    // The current host, or null when the profile has none (or during an edit of hosts).
    const core::Host *currentHostOrNull() const;
    // After the hosts changed: the same host (found again by its id when others before it
    // went), else hosts[0]. True when the index changed.
    bool keepCurrentHost();

    core::Profile m_profile;
    core::Problems m_problems;
    QString m_filePath;
    bool m_modified = false;
    int m_currentHost = 0;
    // The current host's id, to find it again when the hosts before it change.
    std::uint32_t m_currentHostId = 0;
};

} // namespace ioprism::ui
