// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/held_targets.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <fcntl.h>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace ioprism::platform {

FileIdentity identityOf(int fd)
{
    struct stat st {
    };
    if (::fstat(fd, &st) != 0)
        return {};
    return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
}

void HeldTargets::holdFile(const std::string &path, UniqueFd fd, FileIdentity identity)
{
    m_files.insert_or_assign(path, File {std::move(fd), identity, std::nullopt});
}

void HeldTargets::holdShared(const std::string &path, UniqueFd fd, FileIdentity identity, int flags)
{
    m_files.insert_or_assign(path, File {std::move(fd), identity, flags});
}

void HeldTargets::holdTree(const std::string &root, const core::FileTree &tree,
    std::vector<UniqueFd> levelFolders, std::vector<FileIdentity> files)
{
    m_trees.insert_or_assign(root, Tree {tree, std::move(levelFolders), std::move(files)});
}

bool HeldTargets::holds(const std::string &path) const
{
    return m_files.contains(path) || m_trees.contains(path);
}

namespace {

// Opens with O_NOATIME where allowed (the owner or CAP_FOWNER), as openEngineFd does.
int openAtNoAtime(int dirFd, const char *name, int flags)
{
    int fd = ::openat(dirFd, name, flags | O_NOATIME);
    if (fd < 0 && errno == EPERM)
        fd = ::openat(dirFd, name, flags);
    return fd >= 0 ? fd : -errno;
}

// Keeps `fd` when it is `expected`, else closes it: -ESTALE.
int checked(int fd, FileIdentity expected)
{
    if (fd < 0)
        return fd;
    if (identityOf(fd) != expected) {
        ::close(fd);
        return -ESTALE;
    }
    return fd;
}

// A duplicate of a descriptor engines share (HeldTargets::holdShared), when it was opened
// with what `flags` ask: the access mode (a read-write one serves readers too), O_DIRECT
// and O_DSYNC exactly (they belong to the open file, which every duplicate shares).
int shareHeld(int fd, int heldFlags, int flags)
{
    const int wantAccess = flags & O_ACCMODE;
    const int heldAccess = heldFlags & O_ACCMODE;
    if (wantAccess != heldAccess && heldAccess != O_RDWR)
        return -EACCES;
    constexpr int kShared = O_DIRECT | O_DSYNC;
    if ((flags & kShared) != (heldFlags & kShared))
        return -EACCES;
    const int dup = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
    return dup >= 0 ? dup : -errno;
}

} // namespace

int HeldTargets::open(const core::EngineFile &file, int flags) const
{
    flags |= O_CLOEXEC;
    if (file.treeFileIndex) {
        const auto tree = m_trees.find(file.treeRoot);
        if (tree == m_trees.end())
            return -EBADF;
        const Tree &t = tree->second;
        const std::uint64_t index = *file.treeFileIndex;
        if (index >= t.files.size() || t.shape.filesPerLevel == 0)
            return -EBADF;
        const std::size_t level = static_cast<std::size_t>(index / t.shape.filesPerLevel);
        if (level >= t.levels.size())
            return -EBADF;
        // The file's own name, in the folder held for its level: one component, never a
        // link (O_NOFOLLOW), and only the inode preparation left there.
        // The name is the path's tail, already NUL-terminated: nothing is copied per open.
        const std::size_t slash = file.path.find_last_of('/');
        const char *name = file.path.c_str() + (slash == std::string::npos ? 0 : slash + 1);
        const std::string_view leaf(name);
        if (leaf.empty() || leaf == "." || leaf == "..")
            return -EBADF;
        return checked(
            openAtNoAtime(t.levels[level].get(), name, flags | O_NOFOLLOW), t.files[index]);
    }
    const auto held = m_files.find(file.path);
    if (held == m_files.end())
        return -EBADF;
    if (held->second.sharedFlags)
        return shareHeld(held->second.fd.get(), *held->second.sharedFlags, flags);
    // The magic link to the held descriptor opens the inode it holds, with new flags,
    // without looking the path up again.
    std::array<char, 32> link {};
    const std::string_view prefix = "/proc/self/fd/";
    std::copy(prefix.begin(), prefix.end(), link.begin());
    const auto [end, ec] = std::to_chars(
        link.data() + prefix.size(), link.data() + link.size() - 1, held->second.fd.get());
    if (ec != std::errc())
        return -EINVAL;
    *end = '\0';
    const int fd = openAtNoAtime(AT_FDCWD, link.data(), flags);
    if (fd == -ENOENT) {
        // No /proc (a bare container): the path once more, without following a link at
        // its end and without blocking (a FIFO put there), and only if it still is the
        // inode that was checked.
        const int byPath
            = checked(openAtNoAtime(AT_FDCWD, file.path.c_str(), flags | O_NOFOLLOW | O_NONBLOCK),
                held->second.identity);
        if (byPath >= 0)
            ::fcntl(byPath, F_SETFL, ::fcntl(byPath, F_GETFL) & ~O_NONBLOCK);
        return byPath;
    }
    return checked(fd, held->second.identity);
}

} // namespace ioprism::platform
