// SPDX-License-Identifier: GPL-3.0-or-later
// What the Linux backend checked at preparation, held as descriptors for the whole run.
//
// A path is looked up once. After prepareTarget has checked a target (its type, its mark,
// its links, its devices), the backend keeps a descriptor of exactly what it checked, and
// every later open of that target by an engine goes through the descriptor, never through
// the path again: a rename, a symbolic link, a bind mount or a hard link put in the
// path's place between the check and the I/O (or during the run) cannot redirect a write.
//
//  * a test file or a device: one descriptor of the checked inode; an engine reopens that
//    inode with its own flags through /proc/self/fd (the kernel's magic link to the open
//    file, which does not resolve the path again), then checks the identity it got;
//  * a device opened by the system's broker (udisks2, for a user whose rights do not
//    reach the node): the broker's descriptor, opened with the engines' flags; reopening
//    it would check the node's permissions again and fail, so every engine shares it
//    (a duplicate of the descriptor: its I/O names offsets, never the shared position);
//  * a file tree: a descriptor of each level's folder, opened beneath the top folder one
//    component at a time without following links; an engine opens a tree file by its
//    name in its level's folder with O_NOFOLLOW and accepts it only when it is the inode
//    (device and inode number) that preparation found or made there.
//
// Filled by prepareTarget before any worker starts, then only read (by the workers'
// engines, on their threads): no lock.
#pragma once

#include "core/engine.h"
#include "core/profile/profile.h"
#include "platform/linux/linux_backend.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ioprism::platform {

// A file's identity: the file system it is on and its inode number there.
struct FileIdentity {
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    friend bool operator==(const FileIdentity &, const FileIdentity &) = default;
};

class HeldTargets
{
public:
    // Holds `fd` (the inode prepareTarget checked, a regular file or a block device) for
    // engine files named `path`.
    void holdFile(const std::string &path, UniqueFd fd, FileIdentity identity);
    // Holds a descriptor that engines share rather than reopen (the broker's): `flags`
    // are those it was opened with (access mode, O_DIRECT, O_DSYNC). An engine asking
    // for more (writing through a read-only one, another cache mode) gets -EACCES.
    void holdShared(const std::string &path, UniqueFd fd, FileIdentity identity, int flags);
    // Holds a tree: each level's folder (the top first) and each file's identity, level by
    // level as core::fileTreeFiles lists them.
    void holdTree(const std::string &root, const core::FileTree &tree,
        std::vector<UniqueFd> levelFolders, std::vector<FileIdentity> files);
    // True when `path` names a held file or tree.
    bool holds(const std::string &path) const;

    // Opens an engine file through what is held, with `flags` (O_RDWR, O_DIRECT, ...):
    // the descriptor, or -errno. -EBADF when nothing is held for it (it was not prepared),
    // -ESTALE when the inode found is not the one prepared, -ELOOP when a tree file's name
    // is a symbolic link now.
    int open(const core::EngineFile &file, int flags) const;

private:
    struct File {
        UniqueFd fd;
        FileIdentity identity;
        std::optional<int> sharedFlags; // set: engines share `fd` (holdShared)
    };
    struct Tree {
        core::FileTree shape;
        std::vector<UniqueFd> levels;
        std::vector<FileIdentity> files;
    };
    std::map<std::string, File, std::less<>> m_files;
    std::map<std::string, Tree, std::less<>> m_trees;
};

// The identity of an open descriptor (fstat), or nullopt-like {0, 0} when fstat fails.
FileIdentity identityOf(int fd);

} // namespace ioprism::platform
