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
    // Another profile: its first host (this machine) is edited, whatever was before.
    const bool moved = m_currentHost != 0;
    m_currentHost = 0;
    m_currentHostId = m_profile.hosts.empty() ? 0 : m_profile.hosts.front().id;
    revalidate();
    emit profileReset();
    if (moved)
        emit currentHostChanged(0);
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
    // Before anyone hears of it: a model resetting on structureChanged reads the host
    // that is current now.
    const bool moved = keepCurrentHost();
    emit structureChanged(origin);
    if (moved)
        emit currentHostChanged(m_currentHost);
    emit problemsChanged();
    setModified(true);
}

void ProfileDocument::setCurrentHost(int host)
{
    if (host < 0 || host >= static_cast<int>(m_profile.hosts.size()) || host == m_currentHost)
        return;
    m_currentHost = host;
    m_currentHostId = m_profile.hosts[static_cast<std::size_t>(host)].id;
    emit currentHostChanged(host);
}

bool ProfileDocument::keepCurrentHost()
{
    const auto &hosts = m_profile.hosts;
    int found = 0;
    const auto at = static_cast<std::size_t>(m_currentHost);
    // hosts[0] is this machine whatever its id; another host is followed by its id (a
    // manager removed before it moves it up a row).
    if (m_currentHost > 0 && at < hosts.size() && hosts[at].id == m_currentHostId) {
        found = m_currentHost;
    } else if (m_currentHost > 0) {
        for (std::size_t h = 1; h < hosts.size(); ++h)
            if (hosts[h].id == m_currentHostId) {
                found = static_cast<int>(h);
                break;
            }
    }
    const bool moved = found != m_currentHost;
    m_currentHost = found;
    m_currentHostId = hosts.empty() ? 0 : hosts[static_cast<std::size_t>(found)].id;
    return moved;
}

core::Host &ProfileDocument::host()
{
    if (m_profile.hosts.empty())
        m_profile.hosts.emplace_back();
    // Between an edit of the hosts and its commitStructure the index may be past the end.
    const auto at = static_cast<std::size_t>(m_currentHost);
    return at < m_profile.hosts.size() ? m_profile.hosts[at] : m_profile.hosts.front();
}

const core::Host *ProfileDocument::currentHostOrNull() const
{
    const auto at = static_cast<std::size_t>(m_currentHost);
    return at < m_profile.hosts.size() ? &m_profile.hosts[at] : nullptr;
}

int ProfileDocument::workerCount() const
{
    const core::Host *h = currentHostOrNull();
    return h ? static_cast<int>(h->workers.size()) : 0;
}

const core::Worker *ProfileDocument::worker(int index) const
{
    if (index < 0 || index >= workerCount())
        return nullptr;
    return &currentHostOrNull()->workers[static_cast<std::size_t>(index)];
}

core::Worker *ProfileDocument::mutableWorker(int index)
{
    if (index < 0 || index >= workerCount())
        return nullptr;
    return &m_profile.hosts[static_cast<std::size_t>(m_currentHost)]
                .workers[static_cast<std::size_t>(index)];
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

std::string ProfileDocument::hostWorkerPath(std::size_t host, std::size_t worker)
{
    return "hosts[" + std::to_string(host) + "].workers[" + std::to_string(worker) + "]";
}

std::string ProfileDocument::hostTargetPath(
    std::size_t host, std::size_t worker, std::size_t target)
{
    return hostWorkerPath(host, worker) + ".targets[" + std::to_string(target) + "]";
}

std::string ProfileDocument::workerPath(std::size_t worker) const
{
    return hostWorkerPath(static_cast<std::size_t>(m_currentHost), worker);
}

std::string ProfileDocument::targetPath(std::size_t worker, std::size_t target) const
{
    return hostTargetPath(static_cast<std::size_t>(m_currentHost), worker, target);
}

void ProfileDocument::revalidate()
{
    m_problems = core::validateProfile(m_profile);
}

} // namespace ioprism::ui
