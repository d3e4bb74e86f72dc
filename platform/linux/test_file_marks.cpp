// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/test_file_marks.h"

#include "platform/linux/linux_backend.h"

#include <array>
#include <cerrno>
#include <fcntl.h>
#include <mutex>
#include <set>
#include <string_view>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <system_error>
#include <utility>

namespace ioprism::platform {

using core::makeOpError;

namespace {

// Files this process created on file systems without user xattrs (vfat, exfat, some
// FUSE and NFS mounts). Such a file cannot carry a mark that survives the process, and
// a marker kept beside it could match a different file later (vfat derives inode
// numbers from directory slots, so a new file under the same name can get the same
// number). The safe rule: there, a file is ours only during the process that made it;
// in a later run it counts as someone else's, so it is read but never written.
struct CreatedFiles {
    std::mutex mutex;
    std::set<std::pair<dev_t, ino_t>> files; // guarded by mutex
};
CreatedFiles &createdWithoutXattr()
{
    static CreatedFiles registry;
    return registry;
}

// The mark's values. A file is marked "filling" when it is created (or before it is
// extended) and "complete" only once its fill is written and synced: a run killed
// mid-fill leaves a file reserved at full size (fallocate) but not written, whose reads
// return zeros without touching the device, so a file still "filling" is filled again.
// Folders and a tree's marker are "complete" from the start.
//
// A mark is bound to what it marks: "complete 1234567 1700000000.123456789" names the
// inode number and, where the file system keeps one, the birth time of the file it was
// set on. An xattr travels with a copy (cp -a, rsync -X, a restore), and a copy holding a
// user's own data must never count as IOPrism's: the copy is a new inode, born later, so
// its mark names another file. Marks without an identity (IOPrism before it bound them,
// or "1" from before it told filling from complete) cannot be told from a copy: such a
// file is treated as anyone's (read, never written or removed).
constexpr std::string_view kMarkFilling = "filling";
constexpr std::string_view kMarkComplete = "complete";

std::string_view markText(Mark mark)
{
    return mark == Mark::Filling ? kMarkFilling : kMarkComplete;
}

// What a mark binds to, from statx of the marked file: "<inode>[ <birth s>.<birth ns>]".
std::string markIdentity(const struct statx &sx)
{
    std::string id = std::to_string(sx.stx_ino);
    if (sx.stx_mask & STATX_BTIME)
        id += " " + std::to_string(sx.stx_btime.tv_sec) + "."
            + std::to_string(sx.stx_btime.tv_nsec);
    return id;
}

std::optional<std::string> markIdentityOf(int dirFd, const char *path, int flags)
{
    struct statx sx {
    };
    if (::statx(dirFd, path, flags, STATX_INO | STATX_BTIME, &sx) != 0)
        return std::nullopt;
    return markIdentity(sx);
}

std::string markValue(int fd, Mark mark)
{
    const auto id = markIdentityOf(fd, "", AT_EMPTY_PATH);
    return std::string(markText(mark)) + (id ? " " + *id : std::string());
}

// The mark a value read from the xattr gives the file whose identity is `id`.
Mark parseMark(std::string_view value, const std::optional<std::string> &id)
{
    const std::size_t space = value.find(' ');
    if (space == std::string_view::npos || !id || value.substr(space + 1) != *id)
        return Mark::None; // unbound (an earlier IOPrism's) or another file's: a copy
    const std::string_view state = value.substr(0, space);
    return state == kMarkComplete ? Mark::Complete : Mark::Filling; // unknown: fill again
}

// Whether `value` is a mark at all (bound to this file or not), for messages.
bool looksLikeMark(std::string_view value)
{
    return value == "1" || value.starts_with(kMarkComplete) || value.starts_with(kMarkFilling);
}

} // namespace

std::string errnoText(int err)
{
    return std::error_code(err, std::system_category()).message();
}

std::string markOurs(int fd, Mark mark)
{
    const std::string value = markValue(fd, mark);
    if (::fsetxattr(fd, kTestFileXattr, value.data(), value.size(), 0) == 0)
        return {};
    const int xerr = errno;
    struct stat st {
    };
    if (::fstat(fd, &st) == 0) {
        auto &r = createdWithoutXattr();
        std::lock_guard lock(r.mutex);
        r.files.insert({st.st_dev, st.st_ino});
    }
    return "xattr " + std::string(kTestFileXattr) + ": " + errnoText(xerr);
}

core::Status setMark(const std::string &path, int fd, Mark mark)
{
    const std::string value = markValue(fd, mark);
    if (::fsetxattr(fd, kTestFileXattr, value.data(), value.size(), 0) == 0 || errno == ENOTSUP
        || errno == EOPNOTSUPP)
        return core::Ok {};
    return makeOpError(errno, "mark", path, "xattr " + std::string(kTestFileXattr));
}

void forgetCreated(const struct stat &st)
{
    auto &r = createdWithoutXattr();
    std::lock_guard lock(r.mutex);
    r.files.erase({st.st_dev, st.st_ino});
}

namespace {

// The mark given the xattr read (`n` bytes of `value`, or -1 with errno) of a file whose
// stat is `st` and identity `id`. A regular file with more than one link is nobody's: the
// mark is on the inode, so a hard link IOPrism did not make would share it, and writing or
// removing the file would reach a file under another name (the user's). Without user
// xattrs, only what this process created is ours.
Mark markFrom(
    ssize_t n, const char *value, const struct stat &st, const std::optional<std::string> &id)
{
    if (S_ISREG(st.st_mode) ? st.st_nlink != 1 : !S_ISDIR(st.st_mode))
        return Mark::None;
    if (n >= 0)
        return parseMark(std::string_view(value, static_cast<std::size_t>(n)), id);
    if (errno != ENOTSUP && errno != EOPNOTSUPP)
        return Mark::None;
    auto &r = createdWithoutXattr();
    std::lock_guard lock(r.mutex);
    // A file this process created and did not remove again was filled in full.
    return r.files.contains({st.st_dev, st.st_ino}) ? Mark::Complete : Mark::None;
}

} // namespace

// The mark of the file or folder `path` (not followed if a link), whose lstat is `st`:
// for planning and messages. What is written is decided by markOfFd on the descriptor
// held (a path can name something else a moment later).
Mark markOf(const std::string &path, const struct stat &st)
{
    std::array<char, 96> value {};
    const ssize_t n = ::lgetxattr(path.c_str(), kTestFileXattr, value.data(), value.size());
    const int err = errno;
    const auto id = markIdentityOf(AT_FDCWD, path.c_str(), AT_SYMLINK_NOFOLLOW);
    errno = err;
    return markFrom(n, value.data(), st, id);
}

Mark markOf(const std::string &path)
{
    struct stat st {
    };
    return ::lstat(path.c_str(), &st) == 0 ? markOf(path, st) : Mark::None;
}

// The mark of the file or folder open as `fd`: what decides whether it is written.
Mark markOfFd(int fd)
{
    struct stat st {
    };
    if (::fstat(fd, &st) != 0)
        return Mark::None;
    std::array<char, 96> value {};
    const ssize_t n = ::fgetxattr(fd, kTestFileXattr, value.data(), value.size());
    const int err = errno;
    const auto id = markIdentityOf(fd, "", AT_EMPTY_PATH);
    errno = err;
    return markFrom(n, value.data(), st, id);
}

bool carriesForeignMark(const std::string &path)
{
    std::array<char, 96> value {};
    const ssize_t n = ::lgetxattr(path.c_str(), kTestFileXattr, value.data(), value.size());
    return n > 0 && looksLikeMark(std::string_view(value.data(), static_cast<std::size_t>(n)));
}

// ---------------------------------------------------------------- public

std::string boundMarkValue(int fd, std::string_view state)
{
    return markValue(fd, state == kMarkComplete ? Mark::Complete : Mark::Filling);
}

bool isOurTestFile(const std::string &path)
{
    struct stat st {
    };
    return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && markOf(path, st) != Mark::None;
}

} // namespace ioprism::platform
