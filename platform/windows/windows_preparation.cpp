// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/windows/windows_preparation.h"

#include "core/workload/file_tree.h"
#include "platform/windows/test_file_marks.h"
#include "platform/windows/windows_backend.h"

#include <algorithm>
#include <filesystem>

namespace ioprism::platform {

using win::lastError;
using win::UniqueHandle;
using win::win32Error;

namespace {

std::wstring absolutePath(const std::wstring &path)
{
    std::error_code ec;
    const auto p = std::filesystem::absolute(std::filesystem::path(path), ec);
    return ec ? path : p.wstring();
}

} // namespace

std::wstring parentOf(const std::wstring &path)
{
    const auto p = std::filesystem::path(absolutePath(path)).parent_path();
    return p.empty() ? path : p.wstring();
}

bool volumeIsReadOnly(const std::wstring &anyPath)
{
    const std::wstring root = win::volumeRootOf(anyPath);
    DWORD flags = 0;
    return !root.empty()
        && ::GetVolumeInformationW(root.c_str(), nullptr, 0, nullptr, nullptr, &flags, nullptr, 0)
        && (flags & FILE_READ_ONLY_VOLUME);
}

DWORD writeAccessError(const std::wstring &path)
{
    UniqueHandle h(
        ::CreateFileW(path.c_str(), GENERIC_WRITE, kShareAll, nullptr, OPEN_EXISTING, 0, nullptr));
    return h.valid() ? ERROR_SUCCESS : ::GetLastError();
}

core::OpError readOnlyRefusal(const std::string &path, DWORD err)
{
    std::string why;
    if (err == ERROR_WRITE_PROTECT)
        why = "it is on a read-only (write-protected) volume";
    else if (err == ERROR_SHARING_VIOLATION || err == ERROR_LOCK_VIOLATION)
        why = "another program has it open without sharing";
    else
        why = "it is read-only or this account may not write it";
    return win32Error(err, "open for writing", path,
        "the profile writes to this target but " + why
            + ": use a read-only spec or a writable target");
}

bool setFileSize(HANDLE h, std::uint64_t bytes)
{
    LARGE_INTEGER size {};
    size.QuadPart = static_cast<LONGLONG>(bytes);
    return ::SetFilePointerEx(h, size, nullptr, FILE_BEGIN) && ::SetEndOfFile(h);
}

std::uint64_t clusterBytes(const std::wstring &volumeRoot)
{
    DWORD sectorsPerCluster = 0, bytesPerSector = 0, freeClusters = 0, clusters = 0;
    return !volumeRoot.empty()
            && ::GetDiskFreeSpaceW(
                volumeRoot.c_str(), &sectorsPerCluster, &bytesPerSector, &freeClusters, &clusters)
        ? std::uint64_t(sectorsPerCluster) * bytesPerSector
        : 1;
}

bool canSetValidData()
{
    static const bool enabled = win::enablePrivilege(L"SeManageVolumePrivilege");
    return enabled;
}

PathEntry lookUp(const std::string &path, DWORD *error)
{
    WIN32_FILE_ATTRIBUTE_DATA data {};
    if (!::GetFileAttributesExW(win::widen(path).c_str(), GetFileExInfoStandard, &data)) {
        if (error)
            *error = ::GetLastError();
        return {};
    }
    const DWORD attributes = data.dwFileAttributes;
    return {.exists = true,
        .directory = (attributes & FILE_ATTRIBUTE_DIRECTORY) != 0,
        .link = (attributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0,
        .regular = !(attributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT)),
        .sizeBytes = (std::uint64_t(data.nFileSizeHigh) << 32) | std::uint64_t(data.nFileSizeLow)};
}

bool isMissing(DWORD error)
{
    return error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND;
}

std::string folderOf(const std::string &root)
{
    std::string named = root;
    while (named.size() > 3 && (named.back() == '\\' || named.back() == '/'))
        named.pop_back();
    return named;
}

std::wstring_view nameIn(const std::wstring &wide)
{
    return std::wstring_view(wide).substr(wide.find_last_of(L"/\\") + 1);
}

namespace {

// The preparation policy's primitives on Windows: file attributes, the stream mark judged
// on a handle, Win32 errors.
class WindowsPreparationFs final : public PreparationFs
{
public:
    const PreparationWords &words() const override
    {
        static const PreparationWords words {
            .codes = {.notOurs = ERROR_FILE_EXISTS,
                .notAFolder = ERROR_DIRECTORY,
                .leftUntouched = ERROR_ACCESS_DENIED,
                .leftOthers = ERROR_DIR_NOT_EMPTY,
                .emptyFile = ERROR_HANDLE_EOF,
                .noFolder = ERROR_PATH_NOT_FOUND,
                .invalid = ERROR_INVALID_PARAMETER},
            .markName = "the stream " + win::narrow(kTestFileStream),
            .markless = "on a volume without named streams",
            .copyKeepsMark = "copying keeps the " + win::narrow(kTestFileStream) + " stream",
            .storage = "disk",
            .notPlainFolder = "this is not a plain folder (a file, a link or a junction)",
            .notPlainFile = "this is not a plain file (a folder or a link)",
            .fileLacksMark = "this file lacks IOPrism's mark or has other names (hard links), so "
                             "writing it could change a file elsewhere",
        };
        return words;
    }

    core::OpError osError(
        int code, std::string operation, std::string path, std::string detail) const override
    {
        return win32Error(
            static_cast<DWORD>(code), std::move(operation), std::move(path), std::move(detail));
    }

    std::string errorText(int code) const override
    {
        return platform::errorText(static_cast<DWORD>(code));
    }

    core::Result<PathEntry> lookUpTreeRoot(const std::string &root) const override
    {
        return lookUp(root);
    }

    core::Result<PathEntry> lookUp(const std::string &path) const override
    {
        DWORD error = ERROR_SUCCESS;
        const PathEntry e = platform::lookUp(path, &error);
        if (!e.exists && !isMissing(error))
            return win32Error(error, "look up", path);
        return e;
    }

    Mark markOf(const std::string &path) const override { return platform::markOf(path); }

    bool carriesForeignMark(const std::string &path) const override
    {
        return platform::carriesForeignMark(path);
    }

    std::string otherNames(const std::string &path, const PathEntry &) const override
    {
        return hasOtherNames(path) ? "this file has other names" : "";
    }

    std::string parentFolder(const std::string &path) const override
    {
        return win::narrow(parentOf(win::widen(path)));
    }

    bool isFolder(const std::string &path) const override
    {
        const DWORD attributes = ::GetFileAttributesW(win::widen(path).c_str());
        return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY);
    }

    TreeMarker readTreeMarker(const std::string &root) const override
    {
        return platform::readTreeMarker(root);
    }

    bool treeIsOurs(const std::string &root) const override
    {
        return platform::markOf(folderOf(root)) != Mark::None
            && platform::markOf(core::fileTreeMarkerPath(root)) != Mark::None;
    }

    std::filesystem::path nativePath(const std::string &utf8) const override
    {
        return std::filesystem::path(win::widen(utf8));
    }
    std::string utf8Path(const std::filesystem::path &path) const override
    {
        return win::narrow(path.wstring());
    }
};

} // namespace

const PreparationFs &windowsPreparationFs()
{
    static const WindowsPreparationFs fs;
    return fs;
}

TreeMarker readTreeMarker(const std::string &root)
{
    const std::string marker = core::fileTreeMarkerPath(root);
    constexpr std::uint64_t kLongestMarker = 4096; // ours is one short line
    const PathEntry e = lookUp(marker);
    if (!e.exists || !e.regular)
        return {};
    const TreeMarker damaged {.state = TreeMarker::State::Damaged};
    if (e.sizeBytes > kLongestMarker)
        return damaged;
    UniqueHandle h(::CreateFileW(win::widen(marker).c_str(), GENERIC_READ, kShareAll, nullptr,
        OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    if (!h.valid())
        return damaged;
    std::string text(static_cast<std::size_t>(e.sizeBytes), '\0');
    DWORD got = 0;
    if (!::ReadFile(h.get(), text.data(), static_cast<DWORD>(text.size()), &got, nullptr))
        return damaged;
    text.resize(got);
    const auto tree = core::parseFileTreeMarker(text);
    if (!tree)
        return damaged;
    return {.state = TreeMarker::State::Found, .tree = *tree};
}

bool diskFull(DWORD err)
{
    return err == ERROR_DISK_FULL || err == ERROR_HANDLE_DISK_FULL;
}

std::optional<core::OpError> unbufferedRefusal(
    const std::string &file, core::CacheMode mode, const std::wstring &parent)
{
    if (mode != core::CacheMode::Direct)
        return std::nullopt;
    const std::wstring w = win::widen(file);
    UniqueHandle probe(::CreateFileW(w.c_str(), GENERIC_READ, kShareAll, nullptr, OPEN_EXISTING,
        FILE_FLAG_NO_BUFFERING, nullptr));
    if (probe.valid() || ::GetLastError() != ERROR_INVALID_PARAMETER)
        return std::nullopt;
    const std::wstring root = win::volumeRootOf(w);
    return win32Error(ERROR_INVALID_PARAMETER, "open unbuffered", file,
        "the file system at " + win::narrow(root.empty() ? parent : root)
            + " does not support unbuffered I/O: use buffered mode or put the file tree "
              "elsewhere");
}

DWORD deleteChecked(
    const std::string &path, bool folder, const std::optional<FileIdentity> &expected)
{
    const std::wstring w = win::widen(path);
    UniqueHandle h(
        ::CreateFileW(w.c_str(), DELETE | FILE_READ_ATTRIBUTES, kShareAll, nullptr, OPEN_EXISTING,
            FILE_FLAG_OPEN_REPARSE_POINT | (folder ? FILE_FLAG_BACKUP_SEMANTICS : 0), nullptr));
    if (!h.valid())
        return ::GetLastError();
    const auto facts = factsOf(h.get());
    if (!facts || !expected || facts->identity != *expected || facts->isReparsePoint()
        || facts->isFolder() != folder)
        return ERROR_FILE_INVALID;
    const auto id = fileIdentity(h.get(), w);
    const DWORD err = deleteByHandle(h.get());
    h.reset(); // a plain disposition deletes when the last handle closes
    if (err == ERROR_SUCCESS)
        forgetCreated(id);
    return err;
}

void removeMade(const std::string &path, bool folder)
{
    if (const Judged j = judge(path); j.mark != Mark::None)
        (void)deleteChecked(path, folder, j.identity);
}

bool heldIsOurs(const std::string &path, const HandleFacts &facts, bool folder)
{
    if (facts.isReparsePoint() || facts.isFolder() != folder || (!folder && facts.links != 1))
        return false;
    const Judged j = judge(path);
    return j.mark != Mark::None && j.identity == facts.identity;
}

core::OpError changedSinceChecked(const std::string &path, const std::string &what)
{
    return win32Error(ERROR_FILE_INVALID, "prepare file tree", path,
        what
            + " since IOPrism checked the tree (renamed, replaced, or a link or junction put in "
              "its place): IOPrism never writes through it; run again");
}

core::Result<std::vector<UniqueHandle>> openTreeFolders(
    const std::string &root, const TreePlan &plan)
{
    const std::string top = folderOf(root);
    std::vector<UniqueHandle> levels;
    levels.emplace_back(::CreateFileW(win::widen(top).c_str(),
        FILE_LIST_DIRECTORY | FILE_TRAVERSE | FILE_READ_ATTRIBUTES, kShareAll, nullptr,
        OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    if (!levels.back().valid())
        return lastError("open", root);
    if (const auto facts = factsOf(levels.back().get()); !facts || !heldIsOurs(top, *facts, true))
        return changedSinceChecked(root, "the tree's folder is not the one IOPrism made");
    for (std::size_t i = 1; i < plan.folders.size(); ++i) {
        const std::wstring wide = win::widen(plan.folders[i]);
        auto h
            = openInFolder(levels.back().get(), nameIn(wide), FILE_LIST_DIRECTORY | FILE_TRAVERSE,
                kShareAll, FILE_DIRECTORY_FILE, true, plan.folders[i]);
        if (!h)
            return h.error();
        if (const auto facts = factsOf(h->get());
            !facts || !heldIsOurs(plan.folders[i], *facts, true))
            return changedSinceChecked(
                plan.folders[i], "this level's folder is not the one IOPrism made");
        levels.push_back(std::move(*h));
    }
    return levels;
}

FileFiller::FileFiller(const core::PrepareOptions &options)
    : m_filler(options.fillPattern, options.seed)
{ }

FileFiller::~FileFiller()
{
    if (m_memory)
        ::VirtualFree(m_memory, 0, MEM_RELEASE);
}

std::span<std::byte> FileFiller::chunk()
{
    return {static_cast<std::byte *>(m_memory), kFillChunkBytes};
}

core::Status FileFiller::init(const std::string &path)
{
    m_memory = ::VirtualAlloc(nullptr, kFillChunkBytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    if (!m_memory)
        return lastError("VirtualAlloc", path);
    m_filler.prepare(chunk());
    return core::Ok {};
}

core::Status FileFiller::fill(const std::string &path, HANDLE buffered, HANDLE direct,
    std::uint32_t sectorBytes, std::uint64_t fromBytes, std::uint64_t toBytes,
    const core::PrepareProgress &progress, const std::string &spaceDetail, bool flush,
    const char *operation)
{
    const std::uint64_t total = toBytes - fromBytes;
    std::uint64_t offset = fromBytes;
    while (offset < toBytes) {
        const auto n
            = static_cast<DWORD>(std::min<std::uint64_t>(kFillChunkBytes, toBytes - offset));
        auto part = chunk().first(n);
        m_filler.beforeWrite(part, offset);
        const bool aligned
            = direct != INVALID_HANDLE_VALUE && n % sectorBytes == 0 && offset % sectorBytes == 0;
        OVERLAPPED at {}; // synchronous handles: the OVERLAPPED only carries the offset
        at.Offset = static_cast<DWORD>(offset);
        at.OffsetHigh = static_cast<DWORD>(offset >> 32);
        DWORD written = 0;
        if (!::WriteFile(aligned ? direct : buffered, part.data(), n, &written, &at)) {
            const DWORD err = ::GetLastError();
            if (err == ERROR_DISK_FULL || err == ERROR_HANDLE_DISK_FULL)
                return win32Error(err, "write", path, spaceDetail);
            return win32Error(err, "write", path);
        }
        if (written != n)
            return win32Error(ERROR_WRITE_FAULT, "write", path,
                "the file system accepted " + std::to_string(written) + " of " + std::to_string(n)
                    + " bytes");
        offset += n;
        if (progress && !progress(offset - fromBytes, total))
            return win32Error(ERROR_CANCELLED, operation, path, "cancelled while writing");
    }
    if (flush && !::FlushFileBuffers(buffered))
        return lastError("FlushFileBuffers", path);
    return core::Ok {};
}

core::Status fillFile(const std::string &path, HANDLE buffered, HANDLE direct,
    std::uint32_t sectorBytes, std::uint64_t fromBytes, std::uint64_t toBytes,
    const core::PrepareOptions &options, const core::PrepareProgress &progress,
    const std::string &spaceDetail)
{
    FileFiller filler(options);
    if (auto st = filler.init(path); !st)
        return st;
    return filler.fill(path, buffered, direct, sectorBytes, fromBytes, toBytes, progress,
        spaceDetail, true, "prepare test file");
}

} // namespace ioprism::platform
