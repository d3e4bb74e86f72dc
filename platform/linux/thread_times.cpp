// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/thread_times.h"

#include "core/stats/latency_verdict.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cerrno>
#include <charconv>
#include <dirent.h>
#include <fcntl.h>
#include <string>
#include <string_view>
#include <unistd.h>

namespace ioprism::platform {

namespace {

// A kept /proc file's current text, read from its start ("" when it could not be read:
// the thread ended, and its files then answer ESRCH).
std::string_view readFromStart(int fd, std::array<char, 128> &buffer)
{
    ssize_t n = -1;
    do
        n = ::pread(fd, buffer.data(), buffer.size(), 0);
    while (n < 0 && errno == EINTR);
    return n > 0 ? std::string_view(buffer.data(), std::size_t(n)) : std::string_view {};
}

int openIn(int dirFd, const std::string &name)
{
    return ::openat(dirFd, name.c_str(), O_RDONLY | O_CLOEXEC);
}

} // namespace

OwnThreadReader::~OwnThreadReader()
{
    for (auto &[id, files] : m_threads)
        closeFiles(files);
    if (m_taskDir)
        ::closedir(m_taskDir);
}

void OwnThreadReader::closeFiles(Files &files)
{
    if (files.kept) {
        assert(m_kept > 0);
        --m_kept;
    }
    files.kept = false;
    if (files.schedstat >= 0)
        ::close(files.schedstat);
    if (files.comm >= 0)
        ::close(files.comm);
    files.schedstat = files.comm = -1;
}

// The thread ids in /proc/self/task now: the kept folder read again from its start.
bool OwnThreadReader::listTasks(std::vector<std::int64_t> &ids)
{
    ids.clear();
    if (!m_taskDir) {
        m_taskDir = ::opendir("/proc/self/task");
        if (!m_taskDir)
            return false;
    } else
        ::rewinddir(m_taskDir);
    errno = 0;
    // readdir is safe on a stream no other thread uses (glibc; POSIX asks only that).
    while (const dirent *entry = ::readdir(m_taskDir)) { // NOLINT(concurrency-mt-unsafe)
        const std::string_view name(entry->d_name);
        std::int64_t id = 0;
        const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), id);
        if (ec == std::errc {} && end == name.data() + name.size())
            ids.push_back(id);
    }
    return errno == 0;
}

bool OwnThreadReader::read(std::vector<core::ThreadTimes> &out)
{
    out.clear();
    if (!listTasks(m_ids))
        return false;
    // Threads no longer listed have ended: their files go first, so that the threads
    // that replaced them (a step's new workers) find their room.
    std::sort(m_ids.begin(), m_ids.end());
    for (auto it = m_threads.begin(); it != m_threads.end();) {
        if (std::binary_search(m_ids.begin(), m_ids.end(), it->first)) {
            ++it;
            continue;
        }
        closeFiles(it->second);
        it = m_threads.erase(it);
    }
    std::array<char, 128> buffer {};
    bool any = false;
    for (const std::int64_t id : m_ids) {
        // Twice at most: a kept thread whose files answer nothing ended, and its id may
        // be a new thread's already (ids are reused): open that one's files.
        for (int attempt = 0; attempt < 2; ++attempt) {
            auto [it, added] = m_threads.try_emplace(id);
            Files &files = it->second;
            if (!files.kept) {
                // New, or read without kept files so far: kept when there is room.
                const std::string dir = std::to_string(id) + "/";
                files.schedstat = openIn(::dirfd(m_taskDir), dir + "schedstat");
                files.comm = openIn(::dirfd(m_taskDir), dir + "comm");
                if (m_kept < kKeptThreads && files.schedstat >= 0 && files.comm >= 0) {
                    files.kept = true;
                    ++m_kept;
                }
            }
            auto times = files.schedstat >= 0
                ? core::parseSchedstat(readFromStart(files.schedstat, buffer))
                : std::nullopt;
            if (!times) {
                closeFiles(files);
                m_threads.erase(it);
                if (added)
                    break; // ended between the listing and now
                continue;
            }
            times->id = id;
            times->kind = files.comm >= 0 ? core::threadKindOf(readFromStart(files.comm, buffer))
                                          : core::ThreadTimes::Kind::Other;
            if (!files.kept)
                closeFiles(files);
            out.push_back(*times);
            any = true;
            break;
        }
    }
    return any;
}

} // namespace ioprism::platform
