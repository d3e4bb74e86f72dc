// SPDX-License-Identifier: GPL-3.0-or-later
// What the Linux backend's preparation of test files, file trees and devices shares: the
// file-system primitives the preparation policy runs on (platform/common/
// preparation_policy.h), alignment and direct-I/O checks, write rights, the fill, and
// opening and removing a tree's entries in folders held open.
#pragma once

#include "core/engine.h"
#include "core/workload/data_pattern.h"
#include "platform/common/preparation_policy.h"
#include "platform/linux/engine_support.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <sys/types.h>

struct stat;

namespace ioprism::platform {

// The folder holding `path` ("/data/tree/" names the folder "/data/tree": "/data").
std::string parentOf(const std::string &path);

// The last component of a path of a tree's layout ("file-0003", "level-2", the top).
std::string leafName(const std::string &path);

// What a look-up (lstat, or stat) found, as the policy sees it.
PathEntry entryOf(const struct stat &st);

// The primitives of the preparation policy, on Linux (one instance serves every caller).
const PreparationFs &linuxPreparationFs();

struct Alignment {
    std::uint32_t logicalBytes = 512;
    std::uint32_t offsetBytes = 512;
    std::uint32_t memBytes = kMinBufferAlign;
    bool directSupported = true; // false when statx says the file cannot do O_DIRECT
    bool fromStatx = false;
};

// statx(STATX_DIOALIGN) (Linux 6.1 for files, 6.11 for block devices), else the given
// logical block size.
Alignment queryAlignment(const std::string &path, std::uint32_t logicalBytes);
std::uint32_t logicalBlockOfFile(const std::string &path);

// The refusal when a Direct target's file system cannot do O_DIRECT, so that a run
// never measures the page cache while claiming direct I/O.
std::optional<core::OpError> directIoRefusal(
    const std::string &path, core::CacheMode mode, const Alignment &a);

// Whether this process may write `path`; the errno in `*err` when not.
bool writable(const std::string &path, int *err);
core::OpError readOnlyRefusal(const std::string &path, int err);

std::string changedWhilePrepared();

// Opens the regular file `name` in the folder `dirFd` without following a link and
// without blocking (a FIFO or device put in its place must neither hang the open nor be
// written): the descriptor, or -errno (-EINVAL: not a regular file). O_NONBLOCK is
// dropped again once the file is known to be regular.
int openRegularAt(int dirFd, const std::string &name, int flags, mode_t mode);

// Removes `name` in the folder `dirFd` (a file, or an empty folder) and forgets it was
// ours. Relative to a folder IOPrism holds, so no link in the path can lead it elsewhere.
bool removeMadeAt(int dirFd, const std::string &name, bool folder);

// The marker in the folder held as `rootFd`, read through it (never through a link), and
// the one in the folder `root` (opened without following a link).
TreeMarker readTreeMarkerAt(int rootFd);
TreeMarker readTreeMarker(const std::string &root);

// A test file and a file tree prepared by the policy (platform/common/
// preparation_policy.h) on descriptors; what was checked is held in `request.held`.
core::Result<core::TargetInfo> prepareHeldTestFile(PreparationRequest request);
core::Result<core::TargetInfo> prepareHeldFileTree(PreparationRequest request);

// Writes the fill pattern into files: one 1 MiB aligned chunk, prepared once and reused
// for every file (a tree of a million files must not map and fill a buffer per file).
// The pattern filler runs on across files, so FullRandom blocks differ between files too.
class FileFiller
{
public:
    explicit FileFiller(const core::PrepareOptions &options);

    core::Status init();

    // How a filled file is made durable and evicted from the page cache.
    enum class Sync {
        File, // fsync the file (a test file: one file, errors surface here)
        Later, // only write back what went through the cache; the caller syncs the file
               // system once when every file is written (a tree: no journal commit per file)
    };

    // Writes [fromBytes, toBytes) of an open file, in 1 MiB chunks, direct when the file
    // system allows it. Returns ECANCELED when progress says stop.
    core::Status fill(const std::string &path, int fd, std::uint64_t fromBytes,
        std::uint64_t toBytes, const core::PrepareProgress &progress,
        const std::string &spaceDetail, Sync sync, const char *operation);

private:
    // Whether the writes go around the page cache, and from where they went through it.
    struct Direct {
        int baseFlags = 0;
        bool on = false;
        std::uint64_t cachedFrom = 0; // first byte written buffered
        void off(int fd, std::uint64_t offset);
    };
    core::Status writeChunk(const std::string &path, int fd, std::span<const std::byte> part,
        std::uint64_t offset, Direct &direct, const std::string &spaceDetail);

    AlignedBufferPool m_pool;
    core::DataPatternFiller m_filler;
};

// Writes [fromBytes, toBytes) of one test file with the fill pattern and fsyncs it.
core::Status fillFile(const std::string &path, int fd, std::uint64_t fromBytes,
    std::uint64_t toBytes, const core::PrepareOptions &options,
    const core::PrepareProgress &progress, const std::string &spaceDetail);

} // namespace ioprism::platform
