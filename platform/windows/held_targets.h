// SPDX-License-Identifier: GPL-3.0-or-later
// What the Windows backend checked at preparation, held as handles for the whole run
// (issue 23; the Linux counterpart is platform/linux/held_targets.h).
//
// A path is looked up once. After prepareTarget has checked a target, it opens exactly
// what it checked without following a reparse point (FILE_FLAG_OPEN_REPARSE_POINT, plus
// FILE_FLAG_BACKUP_SEMANTICS for folders), compares its file ID (volume serial number and
// file index) with what the checks looked at, and keeps the handle. Every later open of
// that target by an engine goes through the handle, never through the path again:
//
//  * a test file or a device: ReOpenFile(held, access, share, flags) gives a new handle
//    to the held object with the engine's flags. A file's ID is then compared with the
//    one held: under Wine ReOpenFile opens the held handle's *name* again (checked with
//    Wine 8: a file renamed away and replaced by another is reopened as the other one),
//    so there the comparison is what refuses a swapped file; on Windows it reaches the
//    held object. Wine's ReOpenFile also refuses a device handle (ERROR_INVALID_HANDLE):
//    a device is then opened by its path (a DOS device name, not a file system path),
//    the one open by name left, and said so in docs/windows.md;
//  * a file tree: a handle of each level's folder, opened beneath the top folder one
//    component at a time (NtCreateFile with RootDirectory, FILE_OPEN_REPARSE_POINT); an
//    engine opens a tree file by its own name in its level's held folder the same way and
//    accepts it only when it is the file (file ID) that preparation found or made there.
//    Wine 8 does this faithfully: a level folder renamed away and replaced still leads
//    the open into the held folder.
//
// Held handles share read, write and delete: the user may still rename or delete the
// target (a run that then opens it stops, named), and IOPrism's own removal works.
//
// Threads: filled by prepareTarget before any worker starts, then only read by the
// engines (no lock). release() closes the handles of one target for its removal, under
// the rule that a target is removed only when no run uses it (after the run, or when the
// run refused to start); it never changes the maps, so other targets' reads are safe.
#pragma once

#include "core/engine.h"
#include "core/profile/profile.h"
#include "platform/windows/win_util.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ioprism::platform {

// A file's identity on Windows: the volume's serial number and the file's index there
// (the NTFS file reference; Wine gives the Unix inode number).
struct FileIdentity {
    std::uint64_t volumeSerial = 0;
    std::uint64_t fileIndex = 0;
    friend bool operator==(const FileIdentity &, const FileIdentity &) = default;
};

// What GetFileInformationByHandle says of an open file: its identity, attributes, link
// count and size; nullopt when it cannot say (a device, a pipe).
struct HandleFacts {
    FileIdentity identity;
    DWORD attributes = 0;
    DWORD links = 0;
    std::uint64_t sizeBytes = 0;
    bool isReparsePoint() const { return attributes & FILE_ATTRIBUTE_REPARSE_POINT; }
    bool isFolder() const { return attributes & FILE_ATTRIBUTE_DIRECTORY; }
};
std::optional<HandleFacts> factsOf(HANDLE h);

// Opens `name` (one path component, no separators) in the folder open as `folder`,
// never following a reparse point there (FILE_OPEN_REPARSE_POINT): NtCreateFile with
// OBJECT_ATTRIBUTES.RootDirectory. `options` adds NtCreateFile create options
// (FILE_DIRECTORY_FILE, FILE_NON_DIRECTORY_FILE, FILE_NO_INTERMEDIATE_BUFFERING, ...);
// `synchronous` asks for a handle for synchronous I/O (else overlapped I/O, as
// FILE_FLAG_OVERLAPPED). `disposition` is NtCreateFile's (FILE_OPEN; FILE_CREATE makes a
// new file and fails if the name exists, as CREATE_NEW). The handle, or the Win32 error
// (RtlNtStatusToDosError).
// ntdll is found at run time (GetProcAddress), so no import library is needed.
core::Result<win::UniqueHandle> openInFolder(HANDLE folder, std::wstring_view name,
    ACCESS_MASK access, ULONG share, ULONG options, bool synchronous, const std::string &path,
    ULONG disposition = 1 /* FILE_OPEN */);

// Deletes the file or empty folder open as `h` (opened with DELETE access), without a
// path: POSIX semantics where the file system has them (the name goes at once, even
// while other handles are open), else delete-on-close (FILE_DISPOSITION_INFO: the name
// goes when the last handle closes). Win32 error or ERROR_SUCCESS.
DWORD deleteByHandle(HANDLE h);

class HeldTargets
{
public:
    HeldTargets();
    ~HeldTargets();
    HeldTargets(const HeldTargets &) = delete;
    HeldTargets &operator=(const HeldTargets &) = delete;

    // Holds `handle` (what prepareTarget checked: a file, or a device when `identity` is
    // nullopt) for engine files named `path`.
    void holdFile(
        const std::string &path, win::UniqueHandle handle, std::optional<FileIdentity> identity);
    // Holds a tree: each level's folder (the top first) and each file's identity, level by
    // level as core::fileTreeFiles lists them.
    void holdTree(const std::string &root, const core::FileTree &tree,
        std::vector<win::UniqueHandle> levelFolders, std::vector<FileIdentity> files);
    // True when `path` names a held file or tree that was not released.
    bool holds(const std::string &path) const;
    // Closes what is held for `path` (a file or a tree's root): engines then refuse it.
    void release(const std::string &path);

    // Opens an engine file through what is held, with the engine's `access`, `share` and
    // CreateFile `flags` (FILE_FLAG_OVERLAPPED, FILE_FLAG_NO_BUFFERING, ...). `widePath` is
    // file.path in UTF-16, which the engine keeps converted (an open allocates nothing on
    // success). Errors:
    // ERROR_INVALID_HANDLE when nothing is held for it (it was not prepared, or was
    // released), ERROR_FILE_INVALID when the file found is not the one prepared,
    // ERROR_CANT_ACCESS_FILE when a tree file's name is a reparse point now.
    core::Result<win::UniqueHandle> open(const core::EngineFile &file, std::wstring_view widePath,
        DWORD access, DWORD share, DWORD flags) const;

private:
    struct File {
        win::UniqueHandle handle;
        std::optional<FileIdentity> identity; // nullopt: a device
        std::unique_ptr<std::atomic<bool>> released;
    };
    struct Tree {
        core::FileTree shape;
        std::vector<win::UniqueHandle> levels;
        std::vector<FileIdentity> files;
        std::unique_ptr<std::atomic<bool>> released;
    };
    std::map<std::string, File, std::less<>> m_files;
    std::map<std::string, Tree, std::less<>> m_trees;
};

// Asks every HeldTargets of this process to release `path` (removeTestFile and
// removeFileTree call it): a folder held open cannot go on Windows (and under Wine) until
// its last handle closes, so a removal after the run must first let go of it.
void releaseHeldEverywhere(const std::string &path);

} // namespace ioprism::platform
