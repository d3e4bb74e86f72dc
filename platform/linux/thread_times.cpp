// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/thread_times.h"

#include "core/stats/latency_verdict.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cerrno>
#include <charconv>
#include <cstddef>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <string>
#include <string_view>
#include <sys/syscall.h>
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
    if (m_taskDir >= 0)
        ::close(m_taskDir);
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

// The thread ids in /proc/self/task now: the kept folder read again from its start
// (getdents64 directly: readdir's stream would need a rewinddir and its own buffer).
bool OwnThreadReader::listTasks(std::vector<std::int64_t> &ids)
{
    ids.clear();
    if (m_taskDir < 0) {
        m_taskDir = ::open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (m_taskDir < 0)
            return false;
    }
    if (::lseek(m_taskDir, 0, SEEK_SET) < 0) {
        ::close(m_taskDir); // opened again next time
        m_taskDir = -1;
        return false;
    }
    alignas(8) std::array<std::byte, 4096> buffer {};
    for (;;) {
        const long n = ::syscall(SYS_getdents64, m_taskDir, buffer.data(), buffer.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n == 0;
        for (long at = 0; at < n;) {
            // struct linux_dirent64: d_ino, d_off, d_reclen, d_type, d_name.
            const auto *entry = buffer.data() + at;
            unsigned short length = 0;
            std::memcpy(&length, entry + 16, sizeof length);
            const char *name = reinterpret_cast<const char *>(entry + 19);
            const std::string_view text(name);
            std::int64_t id = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
            if (ec == std::errc {} && end == text.data() + text.size())
                ids.push_back(id);
            at += length;
        }
    }
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
                files.schedstat = openIn(m_taskDir, dir + "schedstat");
                files.comm = openIn(m_taskDir, dir + "comm");
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
