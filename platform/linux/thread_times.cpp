// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/thread_times.h"

#include "core/stats/latency_verdict.h"

#include <array>
#include <charconv>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <unistd.h>

namespace ioprism::platform {

namespace {

// A small /proc file read whole (its text, or "" when it could not be read: the thread
// ended meanwhile).
std::string_view readSmall(int dirFd, const char *name, std::array<char, 128> &buffer)
{
    const int fd = ::openat(dirFd, name, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return {};
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    ::close(fd);
    return n > 0 ? std::string_view(buffer.data(), std::size_t(n)) : std::string_view {};
}

} // namespace

bool readOwnThreads(std::vector<core::ThreadTimes> &out)
{
    out.clear();
    std::error_code error;
    std::filesystem::directory_iterator tasks("/proc/self/task", error);
    if (error)
        return false;
    bool any = false;
    std::array<char, 128> buffer {};
    // increment(error), not a range for: a thread ending while the folder is read must not
    // throw out of the sampler.
    for (; !error && tasks != std::filesystem::directory_iterator(); tasks.increment(error)) {
        const auto &entry = *tasks;
        std::int64_t id = 0;
        const std::string name = entry.path().filename().string();
        const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), id);
        if (ec != std::errc {} || end != name.data() + name.size())
            continue;
        const int taskFd = ::open(entry.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (taskFd < 0)
            continue; // ended meanwhile
        auto times = core::parseSchedstat(readSmall(taskFd, "schedstat", buffer));
        if (times) {
            times->id = id;
            times->kind = core::threadKindOf(readSmall(taskFd, "comm", buffer));
            out.push_back(*times);
            any = true;
        }
        ::close(taskFd);
    }
    return any;
}

} // namespace ioprism::platform
