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
#pragma once

#include "core/profile/problem.h"
#include "core/profile/profile.h"

#include <QObject>
#include <QString>

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

    // The host that runs (Iometer's first manager), created on demand.
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
    static std::string workerPath(std::size_t worker);
    static std::string targetPath(std::size_t worker, std::size_t target);

signals:
    void profileReset();
    void structureChanged(const QObject *origin);
    void valuesChanged(const QObject *origin);
    void problemsChanged();
    void modifiedChanged(bool modified);
    void filePathChanged(const QString &path);

private:
    void revalidate();

    core::Profile m_profile;
    core::Problems m_problems;
    QString m_filePath;
    bool m_modified = false;
};

} // namespace ioprism::ui
