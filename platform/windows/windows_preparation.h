// SPDX-License-Identifier: GPL-3.0-or-later
// What the Windows backend's preparation of test files and file trees shares: the
// file-system primitives the preparation policy runs on (platform/common/
// preparation_policy.h), write rights, the fill, and opening, judging and deleting a
// tree's entries without following a reparse point.
#pragma once

#include "core/engine.h"
#include "core/workload/data_pattern.h"
#include "platform/common/preparation_policy.h"
#include "platform/windows/held_targets.h"
#include "platform/windows/win_util.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ioprism::platform {

inline constexpr std::uint32_t kMinBufferAlign = 4096;
inline constexpr DWORD kShareAll = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

std::wstring parentOf(const std::wstring &path);

// "C:\data\tree\" names the folder "C:\data\tree".
std::string folderOf(const std::string &root);

// The name of a tree's file or folder in the folder above it.
std::wstring_view nameIn(const std::wstring &wide);

// What is at a path, without following a reparse point (a symbolic link or junction is
// never one of the tree's folders or files: it would lead the writes elsewhere); when it
// does not exist, why not in `*error`.
PathEntry lookUp(const std::string &path, DWORD *error = nullptr);
bool isMissing(DWORD error);

// The primitives of the preparation policy, on Windows (one instance serves every caller).
const PreparationFs &windowsPreparationFs();

TreeMarker readTreeMarker(const std::string &root);

bool volumeIsReadOnly(const std::wstring &anyPath);
// Whether an existing file can be opened for writing; the error when not.
DWORD writeAccessError(const std::wstring &path);
core::OpError readOnlyRefusal(const std::string &path, DWORD err);
bool diskFull(DWORD err);

bool setFileSize(HANDLE h, std::uint64_t bytes);
// The cluster size of the volume at `volumeRoot` ("C:\\"), or 1 when it is not known.
std::uint64_t clusterBytes(const std::wstring &volumeRoot);
// SetFileValidData needs SeManageVolumePrivilege enabled in the token; held by
// administrators. Tried once per process.
bool canSetValidData();

// The refusal when a Direct target's file system cannot do unbuffered I/O, asked of a file
// of the tree (a folder never opens with FILE_FLAG_NO_BUFFERING).
std::optional<core::OpError> unbufferedRefusal(
    const std::string &file, core::CacheMode mode, const std::wstring &parent);

// Deletes what `path` names through a handle opened without following a reparse point,
// when it is `expected` (the file ID judged ours): a path swapped meanwhile for a link or
// another file is left alone. Streams go with the file. The Win32 error, or ERROR_SUCCESS.
DWORD deleteChecked(
    const std::string &path, bool folder, const std::optional<FileIdentity> &expected);

// Deletes a file or an empty folder this process made, and forgets it was ours: only
// while it still carries our mark (a folder or file put at its name since is left).
void removeMade(const std::string &path, bool folder);

// A plain folder or file (never a reparse point; a file with one name), ours, and the
// very one the mark was judged on (the identities match).
bool heldIsOurs(const std::string &path, const HandleFacts &facts, bool folder);

core::OpError changedSinceChecked(const std::string &path, const std::string &what);

// The tree's top folder and each level's folder, each opened beneath the one above by its
// own name without following a reparse point, and each decided on its handle: a junction
// swapped in for a level cannot lead a fill or a hold elsewhere.
core::Result<std::vector<win::UniqueHandle>> openTreeFolders(
    const std::string &root, const TreePlan &plan);

// A test file and a file tree prepared by the policy (platform/common/
// preparation_policy.h) through handles; what was checked is held in `request.held`.
core::Result<core::TargetInfo> prepareTestFileByHandle(PreparationRequest request);
core::Result<core::TargetInfo> prepareFileTreeByHandle(PreparationRequest request);

// Writes the fill pattern into files: one 1 MiB chunk, allocated and prepared once and
// reused for every file (a tree of a million files must not allocate and fill a buffer
// per file). The pattern filler runs on across files, so FullRandom blocks differ between
// files too.
class FileFiller
{
public:
    explicit FileFiller(const core::PrepareOptions &options);
    ~FileFiller();
    FileFiller(const FileFiller &) = delete;
    FileFiller &operator=(const FileFiller &) = delete;

    core::Status init(const std::string &path);

    // Writes [fromBytes, toBytes) in 1 MiB chunks: unbuffered through `direct` where the
    // chunk is sector-aligned (no cache pollution, no double copy), the unaligned tail
    // through `buffered`, which is flushed at the end when `flush` says so.
    core::Status fill(const std::string &path, HANDLE buffered, HANDLE direct,
        std::uint32_t sectorBytes, std::uint64_t fromBytes, std::uint64_t toBytes,
        const core::PrepareProgress &progress, const std::string &spaceDetail, bool flush,
        const char *operation);

private:
    std::span<std::byte> chunk();

    void *m_memory = nullptr;
    core::DataPatternFiller m_filler;
};

// Writes [fromBytes, toBytes) of one test file with the fill pattern and flushes it.
core::Status fillFile(const std::string &path, HANDLE buffered, HANDLE direct,
    std::uint32_t sectorBytes, std::uint64_t fromBytes, std::uint64_t toBytes,
    const core::PrepareOptions &options, const core::PrepareProgress &progress,
    const std::string &spaceDetail);

} // namespace ioprism::platform
