// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/profile_document.h"

#include "core/profile/validation.h"

namespace ioprism::ui {

ProfileDocument::ProfileDocument(QObject *parent)
    : QObject(parent)
{
    revalidate();
}

void ProfileDocument::setProfile(core::Profile profile, const QString &filePath)
{
    m_profile = std::move(profile);
    revalidate();
    emit profileReset();
    emit problemsChanged();
    setFilePath(filePath);
    setModified(false);
}

void ProfileDocument::commitValues(const QObject *origin)
{
    revalidate();
    emit valuesChanged(origin);
    emit problemsChanged();
    setModified(true);
}

void ProfileDocument::commitStructure(const QObject *origin)
{
    revalidate();
    emit structureChanged(origin);
    emit problemsChanged();
    setModified(true);
}

core::Host &ProfileDocument::host()
{
    if (m_profile.hosts.empty())
        m_profile.hosts.emplace_back();
    return m_profile.hosts.front();
}

int ProfileDocument::workerCount() const
{
    return m_profile.hosts.empty() ? 0 : static_cast<int>(m_profile.hosts.front().workers.size());
}

const core::Worker *ProfileDocument::worker(int index) const
{
    if (index < 0 || index >= workerCount())
        return nullptr;
    return &m_profile.hosts.front().workers[static_cast<std::size_t>(index)];
}

core::Worker *ProfileDocument::mutableWorker(int index)
{
    if (index < 0 || index >= workerCount())
        return nullptr;
    return &m_profile.hosts.front().workers[static_cast<std::size_t>(index)];
}

core::Problems ProfileDocument::problemsAt(std::string_view path, bool children) const
{
    core::Problems found;
    for (const auto &p : m_problems) {
        const std::string_view candidate = p.path;
        bool match = candidate == path;
        if (!match && children && candidate.size() > path.size()
            && candidate.substr(0, path.size()) == path) {
            const char next = candidate[path.size()];
            match = next == '.' || next == '[';
        }
        if (match)
            found.push_back(p);
    }
    return found;
}

bool ProfileDocument::hasErrors() const
{
    return core::hasErrors(m_problems);
}

void ProfileDocument::setFilePath(const QString &path)
{
    if (path == m_filePath)
        return;
    m_filePath = path;
    emit filePathChanged(path);
}

void ProfileDocument::setModified(bool modified)
{
    if (modified == m_modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

std::string ProfileDocument::specPath(std::size_t spec)
{
    return "specs[" + std::to_string(spec) + "]";
}

std::string ProfileDocument::linePath(std::size_t spec, std::size_t line)
{
    return specPath(spec) + ".lines[" + std::to_string(line) + "]";
}

std::string ProfileDocument::workerPath(std::size_t worker)
{
    return "hosts[0].workers[" + std::to_string(worker) + "]";
}

std::string ProfileDocument::targetPath(std::size_t worker, std::size_t target)
{
    return workerPath(worker) + ".targets[" + std::to_string(target) + "]";
}

void ProfileDocument::revalidate()
{
    m_problems = core::validateProfile(m_profile);
}

} // namespace ioprism::ui
