// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/windows/held_targets.h"

#include <algorithm>
#include <mutex>
#include <set>
#include <winternl.h>

#ifndef FILE_OPEN_REPARSE_POINT
#define FILE_OPEN_REPARSE_POINT 0x00200000
#endif

namespace ioprism::platform {

using win::win32Error;

namespace {

using NtCreateFileFn = NTSTATUS(NTAPI *)(PHANDLE, ACCESS_MASK, POBJECT_ATTRIBUTES, PIO_STATUS_BLOCK,
    PLARGE_INTEGER, ULONG, ULONG, ULONG, ULONG, PVOID, ULONG);
using RtlNtStatusToDosErrorFn = ULONG(NTAPI *)(NTSTATUS);

// ntdll is in every process; looked up once (thread-safe static initialisation).
struct Ntdll {
    NtCreateFileFn createFile = nullptr;
    RtlNtStatusToDosErrorFn toDosError = nullptr;
};
const Ntdll &ntdll()
{
    static const Ntdll fns = [] {
        Ntdll n;
        if (const HMODULE m = ::GetModuleHandleW(L"ntdll.dll")) {
            n.createFile = reinterpret_cast<NtCreateFileFn>(
                reinterpret_cast<void *>(::GetProcAddress(m, "NtCreateFile")));
            n.toDosError = reinterpret_cast<RtlNtStatusToDosErrorFn>(
                reinterpret_cast<void *>(::GetProcAddress(m, "RtlNtStatusToDosError")));
        }
        return n;
    }();
    return fns;
}

// The process's HeldTargets, so that a removal can ask them to let go of a target.
struct Registry {
    std::mutex mutex;
    std::set<HeldTargets *> all; // guarded by mutex
};
Registry &registry()
{
    static Registry r;
    return r;
}

std::wstring_view lastComponent(std::wstring_view path)
{
    const std::size_t slash = path.find_last_of(L"/\\");
    return slash == std::wstring_view::npos ? path : path.substr(slash + 1);
}

// Keeps `h` when it is `expected` and not a reparse point, else closes it.
core::Result<win::UniqueHandle> checked(
    win::UniqueHandle h, const FileIdentity &expected, const std::string &path)
{
    const auto facts = factsOf(h.get());
    if (!facts)
        return win::lastError("identify", path);
    if (facts->isReparsePoint())
        return win32Error(ERROR_CANT_ACCESS_FILE, "open", path,
            "a link or junction was put in its place since IOPrism prepared it: IOPrism never "
            "follows one, so the run stops");
    if (facts->identity != expected)
        return win32Error(ERROR_FILE_INVALID, "open", path,
            "it is no longer the file IOPrism prepared (it was renamed, replaced or a link was "
            "put in its place): IOPrism writes only what it checked, so the run stops");
    return h;
}

} // namespace

std::optional<HandleFacts> factsOf(HANDLE h)
{
    BY_HANDLE_FILE_INFORMATION info {};
    if (!::GetFileInformationByHandle(h, &info))
        return std::nullopt;
    HandleFacts f;
    f.identity = {
        info.dwVolumeSerialNumber, (std::uint64_t(info.nFileIndexHigh) << 32) | info.nFileIndexLow};
    f.attributes = info.dwFileAttributes;
    f.links = info.nNumberOfLinks;
    f.sizeBytes = (std::uint64_t(info.nFileSizeHigh) << 32) | info.nFileSizeLow;
    return f;
}

core::Result<win::UniqueHandle> openInFolder(HANDLE folder, std::wstring_view name,
    ACCESS_MASK access, ULONG share, ULONG options, bool synchronous, const std::string &path,
    ULONG disposition)
{
    const Ntdll &nt = ntdll();
    if (!nt.createFile || !nt.toDosError)
        return win32Error(ERROR_PROC_NOT_FOUND, "open", path, "ntdll has no NtCreateFile");
    // One component only: "..", a separator or a stream name would leave the folder.
    if (name.empty() || name == L"." || name == L".."
        || name.find_first_of(L"/\\:") != std::wstring_view::npos)
        return win32Error(ERROR_INVALID_NAME, "open", path, "not a name in its folder");
    UNICODE_STRING uname {};
    uname.Buffer = const_cast<PWSTR>(name.data());
    uname.Length = static_cast<USHORT>(name.size() * sizeof(wchar_t));
    uname.MaximumLength = uname.Length;
    OBJECT_ATTRIBUTES attrs {};
    InitializeObjectAttributes(&attrs, &uname, OBJ_CASE_INSENSITIVE, folder, nullptr);
    IO_STATUS_BLOCK io {};
    HANDLE h = nullptr;
    // Synchronous handles need SYNCHRONIZE and FILE_SYNCHRONOUS_IO_NONALERT, as CreateFileW
    // sets them without FILE_FLAG_OVERLAPPED; without them the handle is for overlapped I/O.
    if (synchronous) {
        access |= SYNCHRONIZE;
        options |= FILE_SYNCHRONOUS_IO_NONALERT;
    }
    const NTSTATUS status = nt.createFile(&h, access | FILE_READ_ATTRIBUTES, &attrs, &io, nullptr,
        0, share, disposition, options | FILE_OPEN_REPARSE_POINT, nullptr, 0);
    if (status < 0)
        return win32Error(nt.toDosError(status), "open", path);
    return win::UniqueHandle(h);
}

DWORD deleteByHandle(HANDLE h)
{
    // FileDispositionInfoEx (21) with FILE_DISPOSITION_FLAG_DELETE |
    // FILE_DISPOSITION_FLAG_POSIX_SEMANTICS (Windows 10 1709+, NTFS): missing from MinGW 10's
    // enum. Wine 8 refuses it (ERROR_INVALID_PARAMETER): the plain disposition follows.
    struct {
        ULONG flags;
    } posix {0x1 | 0x2};
    if (::SetFileInformationByHandle(
            h, static_cast<FILE_INFO_BY_HANDLE_CLASS>(21), &posix, sizeof posix))
        return ERROR_SUCCESS;
    FILE_DISPOSITION_INFO plain {TRUE};
    if (::SetFileInformationByHandle(h, FileDispositionInfo, &plain, sizeof plain))
        return ERROR_SUCCESS;
    return ::GetLastError();
}

HeldTargets::HeldTargets()
{
    auto &r = registry();
    std::lock_guard lock(r.mutex);
    r.all.insert(this);
}

HeldTargets::~HeldTargets()
{
    auto &r = registry();
    std::lock_guard lock(r.mutex);
    r.all.erase(this);
}

void HeldTargets::holdFile(
    const std::string &path, win::UniqueHandle handle, std::optional<FileIdentity> identity)
{
    m_files.insert_or_assign(
        path, File {std::move(handle), identity, std::make_unique<std::atomic<bool>>(false)});
}

void HeldTargets::holdTree(const std::string &root, const core::FileTree &tree,
    std::vector<win::UniqueHandle> levelFolders, std::vector<FileIdentity> files)
{
    m_trees.insert_or_assign(root,
        Tree {tree, std::move(levelFolders), std::move(files),
            std::make_unique<std::atomic<bool>>(false)});
}

bool HeldTargets::holds(const std::string &path) const
{
    if (const auto f = m_files.find(path); f != m_files.end())
        return !*f->second.released;
    if (const auto t = m_trees.find(path); t != m_trees.end())
        return !*t->second.released;
    return false;
}

void HeldTargets::release(const std::string &path)
{
    if (const auto f = m_files.find(path); f != m_files.end()) {
        f->second.released->store(true);
        f->second.handle.reset();
    }
    if (const auto t = m_trees.find(path); t != m_trees.end()) {
        t->second.released->store(true);
        for (auto &level : t->second.levels)
            level.reset();
    }
}

core::Result<win::UniqueHandle> HeldTargets::open(const core::EngineFile &file,
    std::wstring_view widePath, DWORD access, DWORD share, DWORD flags) const
{
    // Made only when refused: a tree's every operation opens a file, and the hot path
    // allocates nothing.
    const auto notHeld = [&] {
        return win32Error(ERROR_INVALID_HANDLE, "open", file.path,
            "IOPrism holds no handle for it: only targets the run prepared are opened");
    };
    if (file.treeFileIndex) {
        const auto tree = m_trees.find(file.treeRoot);
        if (tree == m_trees.end() || *tree->second.released)
            return notHeld();
        const Tree &t = tree->second;
        const std::uint64_t index = *file.treeFileIndex;
        if (index >= t.files.size() || t.shape.filesPerLevel == 0)
            return notHeld();
        const auto level = static_cast<std::size_t>(index / t.shape.filesPerLevel);
        if (level >= t.levels.size())
            return notHeld();
        // The file's own name in the folder held for its level: one component, never a
        // reparse point, and only the file preparation left there.
        ULONG options = FILE_NON_DIRECTORY_FILE;
        if (flags & FILE_FLAG_NO_BUFFERING)
            options |= FILE_NO_INTERMEDIATE_BUFFERING;
        if (flags & FILE_FLAG_WRITE_THROUGH)
            options |= FILE_WRITE_THROUGH;
        auto h = openInFolder(t.levels[level].get(), lastComponent(widePath), access, share,
            options, !(flags & FILE_FLAG_OVERLAPPED), file.path);
        if (!h) {
            core::OpError error = h.error();
            if (error.code.value() == ERROR_FILE_NOT_FOUND)
                error.detail = "it was removed from the tree since IOPrism prepared it";
            return error;
        }
        return checked(std::move(*h), t.files[index], file.path);
    }
    const auto held = m_files.find(file.path);
    if (held == m_files.end() || *held->second.released)
        return notHeld();
    HANDLE h = ::ReOpenFile(held->second.handle.get(), access, share, flags);
    if (h == INVALID_HANDLE_VALUE) {
        const DWORD err = ::GetLastError();
        if (!held->second.identity && err == ERROR_INVALID_HANDLE && win::runningUnderWine()) {
            // Wine's ReOpenFile refuses device handles (see the header): by name, as before.
            h = ::CreateFileW(std::wstring(widePath).c_str(), access, share, nullptr, OPEN_EXISTING,
                flags, nullptr);
            if (h != INVALID_HANDLE_VALUE)
                return win::UniqueHandle(h);
            return win::lastError("open", file.path);
        }
        return win32Error(err, "reopen", file.path,
            err == ERROR_FILE_NOT_FOUND ? "it was renamed or removed since IOPrism prepared it"
                                        : "");
    }
    win::UniqueHandle reopened(h);
    if (!held->second.identity)
        return reopened; // a device: the same device object
    return checked(std::move(reopened), *held->second.identity, file.path);
}

void releaseHeldEverywhere(const std::string &path)
{
    auto &r = registry();
    std::lock_guard lock(r.mutex);
    for (HeldTargets *held : r.all)
        held->release(path);
}

} // namespace ioprism::platform
