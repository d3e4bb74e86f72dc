// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/windows/windows_backend.h"

#include "core/profile/units.h"
#include "core/workload/data_pattern.h"
#include "core/workload/file_tree.h"
#include "platform/common/file_tree_plan.h"
#include "platform/windows/held_targets.h"
#include "platform/windows/sector_size.h"
#include "platform/windows/windows_devices.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <mutex>
#include <set>
#include <string_view>
#include <utility>
#include <winioctl.h>

namespace ioprism::platform {

using win::lastError;
using win::UniqueHandle;
using win::win32Error;

namespace {

constexpr std::uint32_t kMinBufferAlign = 4096;
constexpr DWORD kShareAll = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

// What identifies a file we created: its volume serial and file index, plus its
// (case-folded, absolute) path, because a file index is reused for a new file once ours
// is deleted behind our back (Wine uses the Unix inode number; FAT derives it from the
// directory slot), and such a file must not count as ours. The creation time would tell
// apart a file re-created under the same name, but Wine reports the Unix ctime there,
// which every write changes. Left open: on FAT, someone else deleting our file and
// creating one of the same name during this process.
struct FileId {
    DWORD volumeSerial = 0;
    std::uint64_t fileIndex = 0;
    std::wstring path;
    auto operator<=>(const FileId &) const = default;
};

// Files this process created on volumes without named streams (FAT32, exFAT, network
// shares, Wine's drives). They cannot carry a mark that outlives the process, and a
// marker kept elsewhere could later match a different file of the same name; so there
// a file is ours only during the process that made it, and a later run only reads it.
struct CreatedFiles {
    std::mutex mutex;
    std::set<FileId> files; // guarded by mutex
};
CreatedFiles &createdWithoutStream()
{
    static CreatedFiles registry;
    return registry;
}

std::wstring foldedAbsolute(const std::wstring &path)
{
    std::error_code ec;
    std::wstring p
        = std::filesystem::absolute(std::filesystem::path(path), ec).lexically_normal().wstring();
    if (ec)
        p = path;
    if (!p.empty())
        ::CharUpperBuffW(p.data(), static_cast<DWORD>(p.size()));
    return p;
}

std::optional<FileId> fileIdentity(HANDLE h, const std::wstring &path)
{
    BY_HANDLE_FILE_INFORMATION info {};
    if (!::GetFileInformationByHandle(h, &info))
        return std::nullopt;
    return FileId {info.dwVolumeSerialNumber,
        (std::uint64_t(info.nFileIndexHigh) << 32) | info.nFileIndexLow, foldedAbsolute(path)};
}

std::string errorText(DWORD err)
{
    return std::error_code(int(err), std::system_category()).message();
}

// The mark's values (the stream's text). A file is "filling" from its creation (or
// before it is extended) until its fill is written, then "complete": a process killed
// mid-fill leaves a file whose size is set but whose bytes were never written (reads
// past the valid data length return zeros without touching the disk), so a file still
// "filling" is filled again. Folders and a tree's marker are "complete" from the start.
//
// A mark is bound to what it marks, as on Linux (docs/targets.md): "complete 1234 5678"
// names the volume serial number and the file index of the file it was set on. Copying a
// file keeps its streams (CopyFile, Explorer, robocopy), and a copy holding a user's data
// must never count as IOPrism's: the copy is another file (another index, or another
// volume), so its mark names another file. A mark without an identity (IOPrism before it
// bound them, "IOPrism test file" from before it told filling from complete) cannot be
// told from a copy: such a file is treated as anyone's (read, never written or removed).
constexpr std::string_view kFillingText = "filling";
constexpr std::string_view kCompleteText = "complete";

enum class Mark {
    None, // not ours: never written, never removed
    Filling, // ours, its fill not known to be finished: fill it again from the start
    Complete, // ours, filled
};

// The identity of what `path` names, not following a reparse point.
std::optional<FileIdentity> identityAt(const std::wstring &path)
{
    UniqueHandle h(::CreateFileW(path.c_str(), 0, kShareAll, nullptr, OPEN_EXISTING,
        FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    if (!h.valid())
        return std::nullopt;
    const auto facts = factsOf(h.get());
    return facts ? std::optional(facts->identity) : std::nullopt;
}

std::string identityText(const FileIdentity &id)
{
    return std::to_string(id.volumeSerial) + " " + std::to_string(id.fileIndex);
}

std::string markText(Mark mark, const std::optional<FileIdentity> &id)
{
    return std::string(mark == Mark::Filling ? kFillingText : kCompleteText)
        + (id ? " " + identityText(*id) : std::string()) + "\r\n";
}

// The mark a stream's text gives the file whose identity is `id`.
Mark parseMark(std::string_view text, const std::optional<FileIdentity> &id)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
        text.remove_suffix(1);
    const std::size_t space = text.find(' ');
    if (space == std::string_view::npos || !id || text.substr(space + 1) != identityText(*id))
        return Mark::None; // unbound (an earlier IOPrism's) or another file's: a copy
    return text.substr(0, space) == kCompleteText ? Mark::Complete : Mark::Filling;
}

// Writes the mark's stream on a file or folder (open as `h` when given, else looked up
// without following a reparse point), bound to its identity. "" or why it could not.
std::string writeMarkStream(const std::wstring &path, Mark mark, HANDLE h = nullptr)
{
    if (!volumeHasNamedStreams(win::narrow(path)))
        return "the volume has no named streams (FAT32, exFAT, a network share, Wine)";
    std::optional<FileIdentity> id;
    if (h) {
        if (const auto facts = factsOf(h))
            id = facts->identity;
    } else {
        id = identityAt(path);
    }
    if (!id)
        return "its file ID cannot be read: " + errorText(::GetLastError());
    UniqueHandle stream(::CreateFileW((path + kTestFileStream).c_str(), GENERIC_WRITE, 0, nullptr,
        CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr));
    const std::string text = markText(mark, id);
    DWORD written = 0;
    if (stream.valid()
        && ::WriteFile(
            stream.get(), text.data(), static_cast<DWORD>(text.size()), &written, nullptr)
        && written == text.size())
        return {};
    return "stream " + win::narrow(kTestFileStream) + ": " + errorText(::GetLastError());
}

// Marks a file or folder we just created (open as `h`) as ours. Returns "" when the mark
// outlives this process, else why not (then it is ours only in this process).
std::string markOurs(const std::wstring &path, HANDLE h, Mark mark)
{
    std::string why = writeMarkStream(path, mark, h);
    if (why.empty())
        return {};
    if (auto id = fileIdentity(h, path)) {
        auto &r = createdWithoutStream();
        std::lock_guard lock(r.mutex);
        r.files.insert(*id);
    }
    return why;
}

// Moves a file of ours between "filling" and "complete" (nothing to record where it is
// ours only in this process).
core::Status setMark(const std::string &path, Mark mark)
{
    if (!volumeHasNamedStreams(path))
        return core::Ok {};
    if (const std::string why = writeMarkStream(win::widen(path), mark); !why.empty())
        return win32Error(::GetLastError(), "mark", path, why);
    return core::Ok {};
}

// What the mark of a file or folder says, and of which file: the identity of the file
// judged, so that a later handle can be compared with it (a path swapped between the
// judgement and the open names another file).
struct Judged {
    Mark mark = Mark::None;
    std::optional<FileIdentity> identity;
};

// The mark of the file or folder at `path`. A file with more than one name (hard link)
// is nobody's: writing or deleting it would reach a file under another name. A reparse
// point is nobody's either.
Judged judge(const std::string &path)
{
    const std::wstring w = win::widen(path);
    UniqueHandle h(::CreateFileW(w.c_str(), 0, kShareAll, nullptr, OPEN_EXISTING,
        FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    const auto facts = h.valid() ? factsOf(h.get()) : std::nullopt;
    if (!facts)
        return {};
    Judged j {.identity = facts->identity};
    if (facts->isReparsePoint() || (!facts->isFolder() && facts->links != 1))
        return j;
    if (volumeHasNamedStreams(path)) {
        UniqueHandle stream(::CreateFileW((w + kTestFileStream).c_str(), GENERIC_READ, kShareAll,
            nullptr, OPEN_EXISTING, 0, nullptr));
        if (!stream.valid())
            return j;
        std::array<char, 96> text {};
        DWORD got = 0;
        if (!::ReadFile(stream.get(), text.data(), static_cast<DWORD>(text.size()), &got, nullptr))
            return j;
        j.mark = parseMark(std::string_view(text.data(), got), facts->identity);
        return j;
    }
    const auto id = fileIdentity(h.get(), w);
    auto &r = createdWithoutStream();
    std::lock_guard lock(r.mutex);
    // A file this process created and did not remove again was filled in full.
    j.mark = id && r.files.contains(*id) ? Mark::Complete : Mark::None;
    return j;
}

Mark markOf(const std::string &path)
{
    return judge(path).mark;
}

// True when `path` carries a stream that reads like IOPrism's mark but does not name this
// file (a copy of a test file, or a mark set by an IOPrism that did not bind its marks):
// for messages only, since such a file is treated as anyone's.
bool carriesForeignMark(const std::string &path)
{
    if (!volumeHasNamedStreams(path))
        return false;
    UniqueHandle stream(::CreateFileW((win::widen(path) + kTestFileStream).c_str(), GENERIC_READ,
        kShareAll, nullptr, OPEN_EXISTING, 0, nullptr));
    std::array<char, 96> text {};
    DWORD got = 0;
    if (!stream.valid()
        || !::ReadFile(stream.get(), text.data(), static_cast<DWORD>(text.size()), &got, nullptr))
        return false;
    const std::string_view value(text.data(), got);
    return value.starts_with(kCompleteText) || value.starts_with(kFillingText)
        || value.starts_with("IOPrism test file");
}

void forgetCreated(const std::optional<FileId> &id)
{
    if (!id)
        return;
    auto &r = createdWithoutStream();
    std::lock_guard lock(r.mutex);
    r.files.erase(*id);
}

std::wstring absolutePath(const std::wstring &path)
{
    std::error_code ec;
    const auto p = std::filesystem::absolute(std::filesystem::path(path), ec);
    return ec ? path : p.wstring();
}

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

// Whether an existing file can be opened for writing; the error when not.
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

// SetFileValidData needs SeManageVolumePrivilege enabled in the token; held by
// administrators. Tried once per process.
bool canSetValidData()
{
    static const bool enabled = win::enablePrivilege(L"SeManageVolumePrivilege");
    return enabled;
}

// Writes the fill pattern into files: one 1 MiB chunk, allocated and prepared once and
// reused for every file (a tree of a million files must not allocate and fill a buffer
// per file). The pattern filler runs on across files, so FullRandom blocks differ between
// files too.
class FileFiller
{
public:
    explicit FileFiller(const core::PrepareOptions &options)
        : m_filler(options.fillPattern, options.seed)
    { }
    ~FileFiller()
    {
        if (m_memory)
            ::VirtualFree(m_memory, 0, MEM_RELEASE);
    }
    FileFiller(const FileFiller &) = delete;
    FileFiller &operator=(const FileFiller &) = delete;

    core::Status init(const std::string &path)
    {
        m_memory
            = ::VirtualAlloc(nullptr, kFillChunkBytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
        if (!m_memory)
            return lastError("VirtualAlloc", path);
        m_filler.prepare(chunk());
        return core::Ok {};
    }

    // Writes [fromBytes, toBytes) in 1 MiB chunks: unbuffered through `direct` where the
    // chunk is sector-aligned (no cache pollution, no double copy), the unaligned tail
    // through `buffered`, which is flushed at the end when `flush` says so.
    core::Status fill(const std::string &path, HANDLE buffered, HANDLE direct,
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
            const bool aligned = direct != INVALID_HANDLE_VALUE && n % sectorBytes == 0
                && offset % sectorBytes == 0;
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
                    "the file system accepted " + std::to_string(written) + " of "
                        + std::to_string(n) + " bytes");
            offset += n;
            if (progress && !progress(offset - fromBytes, total))
                return win32Error(ERROR_CANCELLED, operation, path, "cancelled while writing");
        }
        if (flush && !::FlushFileBuffers(buffered))
            return lastError("FlushFileBuffers", path);
        return core::Ok {};
    }

private:
    std::span<std::byte> chunk() { return {static_cast<std::byte *>(m_memory), kFillChunkBytes}; }

    void *m_memory = nullptr;
    core::DataPatternFiller m_filler;
};

// Writes [fromBytes, toBytes) of one test file with the fill pattern and flushes it.
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

// The size of a volume or drive: IOCTL_DISK_GET_LENGTH_INFO, else the geometry's disk
// size (Wine answers only that), else a volume's total bytes.
std::uint64_t deviceSize(HANDLE h, const std::wstring &path)
{
    GET_LENGTH_INFORMATION length {};
    DWORD got = 0;
    if (::DeviceIoControl(
            h, IOCTL_DISK_GET_LENGTH_INFO, nullptr, 0, &length, sizeof length, &got, nullptr))
        return static_cast<std::uint64_t>(length.Length.QuadPart);
    alignas(8) BYTE buffer[sizeof(DISK_GEOMETRY_EX) + 256] = {};
    if (::DeviceIoControl(
            h, IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, nullptr, 0, buffer, sizeof buffer, &got, nullptr))
        return static_cast<std::uint64_t>(
            reinterpret_cast<DISK_GEOMETRY_EX *>(buffer)->DiskSize.QuadPart);
    if (path.size() == 6) { // "\\.\C:"
        ULARGE_INTEGER avail {}, total {}, free {};
        if (::GetDiskFreeSpaceExW((path.substr(4) + L"\\").c_str(), &avail, &total, &free))
            return total.QuadPart;
    }
    return 0;
}

std::string joined(const std::vector<std::wstring> &items)
{
    std::string s;
    for (const auto &i : items)
        s += (s.empty() ? "" : ", ") + win::narrow(i);
    return s;
}

} // namespace

// ---------------------------------------------------------------- file trees

namespace {

// What is at a path, without following a reparse point (a symbolic link or junction is
// never one of the tree's folders or files: it would lead the writes elsewhere).
struct PathEntry {
    bool exists = false;
    DWORD error = ERROR_SUCCESS; // why not, when it does not
    DWORD attributes = 0;
    std::uint64_t sizeBytes = 0;
    bool isFolder() const
    {
        return (attributes & FILE_ATTRIBUTE_DIRECTORY)
            && !(attributes & FILE_ATTRIBUTE_REPARSE_POINT);
    }
    bool isPlainFile() const
    {
        return !(attributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT));
    }
};

PathEntry lookUp(const std::string &path)
{
    PathEntry e;
    WIN32_FILE_ATTRIBUTE_DATA data {};
    if (!::GetFileAttributesExW(win::widen(path).c_str(), GetFileExInfoStandard, &data)) {
        e.error = ::GetLastError();
        return e;
    }
    e.exists = true;
    e.attributes = data.dwFileAttributes;
    e.sizeBytes = (std::uint64_t(data.nFileSizeHigh) << 32) | std::uint64_t(data.nFileSizeLow);
    return e;
}

bool isMissing(DWORD error)
{
    return error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND;
}

std::string folderOf(const std::string &root)
{
    // "C:\data\tree\" names the folder "C:\data\tree".
    std::string named = root;
    while (named.size() > 3 && (named.back() == '\\' || named.back() == '/'))
        named.pop_back();
    return named;
}

// The marker in `root`: missing (a link is nobody's marker), damaged (a file that does
// not hold our JSON: a crash while writing it, or an edit), or the shape it records.
// Whose it is, is asked separately (treeIsOurs).
struct TreeMarker {
    enum class State { Missing, Damaged, Found };
    State state = State::Missing;
    core::FileTree tree;
};
TreeMarker readTreeMarker(const std::string &root)
{
    const std::string marker = core::fileTreeMarkerPath(root);
    constexpr std::uint64_t kLongestMarker = 4096; // ours is one short line
    const PathEntry e = lookUp(marker);
    if (!e.exists || !e.isPlainFile())
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

// A tree is ours when its folder and its marker carry our mark: a marker alone proves
// nothing (one small file, copied anywhere), and trees made before IOPrism marked them
// carry none, so they are treated like anyone's folder.
bool treeIsOurs(const std::string &root)
{
    return markOf(folderOf(root)) != Mark::None
        && markOf(core::fileTreeMarkerPath(root)) != Mark::None;
}

core::OpError notOurs(const std::string &path, const std::string &what)
{
    return win32Error(ERROR_FILE_EXISTS, "prepare file tree", path,
        what
            + " where the tree's layout has one of IOPrism's, so IOPrism does not write "
              "through it: remove it or choose a path that does not exist yet");
}

// Looks at the tree at `root`: refuses a folder IOPrism did not make, a tree of another
// shape, and anything in the layout that is not a plain folder or file; otherwise says
// what is missing or short.
core::Result<TreePlan> planFileTree(const std::string &root, const core::FileTree &tree)
{
    TreePlan plan;
    plan.folders = core::fileTreeFolders(root, tree);
    plan.files = core::fileTreeFiles(root, tree);
    const PathEntry top = lookUp(root);
    if (!top.exists && !isMissing(top.error))
        return win32Error(top.error, "look up", root);
    plan.rootExists = top.exists;
    if (top.exists && !(top.attributes & FILE_ATTRIBUTE_DIRECTORY))
        return win32Error(ERROR_DIRECTORY, "prepare file tree", root,
            "this is not a folder: a file tree's path names the folder IOPrism creates for it; "
            "choose a path that does not exist yet");
    if (!plan.rootExists) {
        for (std::size_t i = 0; i < plan.folders.size(); ++i)
            plan.missingFolders.push_back(i);
        for (std::size_t i = 0; i < plan.files.size(); ++i)
            plan.work.push_back({.index = i});
        plan.writeBytes = tree.totalBytes();
        return plan;
    }
    const TreeMarker marker = readTreeMarker(root);
    const std::string chooseAnother
        = ", so IOPrism never writes into it: choose a path that does not exist yet (IOPrism "
          "creates the folder)";
    if (marker.state == TreeMarker::State::Missing)
        return win32Error(ERROR_FILE_EXISTS, "prepare file tree", root,
            "this folder exists and was not made by IOPrism (it has no "
                + std::string(core::kFileTreeMarkerName) + " marker)" + chooseAnother);
    if (marker.state == TreeMarker::State::Damaged)
        return win32Error(ERROR_FILE_EXISTS, "prepare file tree", root,
            damagedMarkerWhy() + chooseAnother + ", or delete the folder");
    if (!treeIsOurs(root))
        return win32Error(ERROR_FILE_EXISTS, "prepare file tree", root,
            unmarkedTreeWhy(
                "the stream " + win::narrow(kTestFileStream), "on a volume without named streams")
                + chooseAnother);
    const core::FileTree *marked = &marker.tree;
    if (!core::sameFileTreeShape(*marked, tree))
        return win32Error(ERROR_FILE_EXISTS, "prepare file tree", root,
            "this folder holds an IOPrism file tree of another shape (" + describeFileTree(*marked)
                + ") than asked for (" + describeFileTree(tree)
                + "); IOPrism does not replace a tree on its own: remove it (remove test files "
                  "after a run with its shape, or delete the folder) or choose another path");
    for (std::size_t i = 1; i < plan.folders.size(); ++i) {
        const PathEntry e = lookUp(plan.folders[i]);
        if (!e.exists) {
            if (!isMissing(e.error))
                return win32Error(e.error, "look up", plan.folders[i]);
            plan.missingFolders.push_back(i);
        } else if (!e.isFolder()) {
            return notOurs(
                plan.folders[i], "this is not a plain folder (a file, a link or a junction)");
        } else if (markOf(plan.folders[i]) == Mark::None) {
            return notOurs(plan.folders[i], "this folder lacks IOPrism's mark");
        }
    }
    for (std::size_t i = 0; i < plan.files.size(); ++i) {
        const PathEntry e = lookUp(plan.files[i]);
        if (!e.exists) {
            if (!isMissing(e.error))
                return win32Error(e.error, "look up", plan.files[i]);
            plan.work.push_back({.index = i});
            plan.writeBytes += tree.fileSizeBytes;
            continue;
        }
        if (!e.isPlainFile())
            return notOurs(plan.files[i], "this is not a plain file (a folder or a link)");
        const Mark mark = markOf(plan.files[i]);
        if (mark == Mark::None)
            return notOurs(plan.files[i],
                carriesForeignMark(plan.files[i])
                    ? "this file carries a mark IOPrism did not set on it (a copy of a test file, "
                      "or a file an earlier IOPrism marked without binding the mark to it)"
                    : "this file lacks IOPrism's mark or has other names (hard links), so "
                      "writing it could change a file elsewhere");
        if (mark == Mark::Filling || e.sizeBytes < tree.fileSizeBytes) {
            const TreeFileWork w {.index = i,
                .exists = true,
                .halfFilled = mark == Mark::Filling,
                .currentBytes = e.sizeBytes};
            plan.work.push_back(w);
            const FillRange range = w.range(tree.fileSizeBytes);
            plan.writeBytes += range.toBytes - range.fromBytes;
        } else if (!plan.completeFile) {
            plan.completeFile = i;
        }
    }
    return plan;
}

// Deletes what `path` names through a handle opened without following a reparse point,
// when it is `expected` (the file ID judged ours): a path swapped meanwhile for a link or
// another file is left alone. Streams go with the file. The Win32 error, or ERROR_SUCCESS.
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

// Deletes a file or an empty folder this process made, and forgets it was ours: only
// while it still carries our mark (a folder or file put at its name since is left).
void removeMade(const std::string &path, bool folder)
{
    if (const Judged j = judge(path); j.mark != Mark::None)
        (void)deleteChecked(path, folder, j.identity);
}

// What one prepareFileTree call made, removed again unless the call succeeds: a
// cancelled or failed preparation leaves the tree as it found it.
class TreeUndo
{
public:
    TreeUndo(const std::string &root, const TreePlan &plan)
        : m_root(root)
        , m_plan(plan)
    { }
    ~TreeUndo() { rollback(); }
    TreeUndo(const TreeUndo &) = delete;
    TreeUndo &operator=(const TreeUndo &) = delete;

    // Undoes what was made; true when there was anything.
    bool rollback()
    {
        if (m_committed)
            return false;
        m_committed = true;
        for (const auto &[index, bytes] : m_extended) {
            UniqueHandle h(::CreateFileW(win::widen(m_plan.files[index]).c_str(), GENERIC_WRITE,
                kShareAll, nullptr, OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
            if (h.valid())
                setFileSize(h.get(), bytes);
            // A complete file stays complete up to its former size; a half-filled one
            // stays "filling".
            if (!m_halfFilled.contains(index))
                (void)setMark(m_plan.files[index], Mark::Complete);
        }
        for (auto it = m_files.rbegin(); it != m_files.rend(); ++it)
            removeMade(m_plan.files[*it], false);
        for (auto it = m_folders.rbegin(); it != m_folders.rend(); ++it)
            removeMade(m_plan.folders[*it], true);
        if (m_marker)
            removeMade(core::fileTreeMarkerPath(m_root), false);
        if (m_rootMade)
            removeMade(folderOf(m_root), true);
        return madeAnything();
    }

    void madeRoot() { m_rootMade = true; }
    void madeMarker() { m_marker = true; }
    void madeFolder(std::size_t index) { m_folders.push_back(index); }
    void madeFile(std::size_t index) { m_files.push_back(index); }
    void extended(std::size_t index, std::uint64_t formerBytes, bool halfFilled)
    {
        m_extended.emplace_back(index, formerBytes);
        if (halfFilled)
            m_halfFilled.insert(index);
    }
    bool madeAnything() const
    {
        return m_rootMade || !m_folders.empty() || !m_files.empty() || !m_extended.empty();
    }
    void commit() { m_committed = true; }

private:
    const std::string &m_root;
    const TreePlan &m_plan;
    bool m_rootMade = false;
    bool m_marker = false;
    bool m_committed = false;
    std::vector<std::size_t> m_folders;
    std::vector<std::size_t> m_files;
    std::vector<std::pair<std::size_t, std::uint64_t>> m_extended;
    std::set<std::size_t> m_halfFilled;
};

bool diskFull(DWORD err)
{
    return err == ERROR_DISK_FULL || err == ERROR_HANDLE_DISK_FULL;
}

core::Status writeMarker(
    const std::string &root, const core::FileTree &tree, const std::string &spaceDetail)
{
    const std::string path = core::fileTreeMarkerPath(root);
    UniqueHandle h(::CreateFileW(win::widen(path).c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW,
        FILE_ATTRIBUTE_NORMAL, nullptr));
    if (!h.valid()) {
        const DWORD err = ::GetLastError();
        return win32Error(err, "create file tree marker", path, diskFull(err) ? spaceDetail : "");
    }
    markOurs(win::widen(path), h.get(), Mark::Complete); // the folder's mark said if it lasts
    const std::string text = core::fileTreeMarkerText(tree);
    DWORD written = 0;
    if (!::WriteFile(h.get(), text.data(), static_cast<DWORD>(text.size()), &written, nullptr)
        || written != text.size()) {
        const DWORD err = ::GetLastError();
        return win32Error(err, "write file tree marker", path, diskFull(err) ? spaceDetail : "");
    }
    return core::Ok {};
}

// The refusal when a Direct target's file system cannot do unbuffered I/O, asked of a file
// of the tree (a folder never opens with FILE_FLAG_NO_BUFFERING).
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

} // namespace

core::Status removeFileTree(const std::string &root, const core::FileTree &tree)
{
    const PathEntry top = lookUp(root);
    if (!top.exists)
        return win32Error(top.error, "remove file tree", root);
    if (!(top.attributes & FILE_ATTRIBUTE_DIRECTORY))
        return win32Error(ERROR_ACCESS_DENIED, "remove file tree", root,
            "not a folder, so not a file tree made by IOPrism: left untouched");
    const TreeMarker marker = readTreeMarker(root);
    if (marker.state == TreeMarker::State::Missing)
        return win32Error(ERROR_ACCESS_DENIED, "remove file tree", root,
            "the folder has no " + std::string(core::kFileTreeMarkerName)
                + " marker, so it is not a file tree made by IOPrism: left untouched");
    if (marker.state == TreeMarker::State::Damaged)
        return win32Error(
            ERROR_ACCESS_DENIED, "remove file tree", root, damagedMarkerWhy() + ": left untouched");
    if (!treeIsOurs(root))
        return win32Error(ERROR_ACCESS_DENIED, "remove file tree", root,
            unmarkedTreeWhy(
                "the stream " + win::narrow(kTestFileStream), "on a volume without named streams")
                + ": left untouched");
    if (!core::sameFileTreeShape(marker.tree, tree))
        return win32Error(ERROR_ACCESS_DENIED, "remove file tree", root,
            "the folder holds an IOPrism file tree of another shape ("
                + describeFileTree(marker.tree) + ") than this one (" + describeFileTree(tree)
                + "): left untouched");

    // Files first, then the level folders deepest first (each only once empty), then the
    // marker and the top folder: until the marker goes, a later removal still knows the
    // tree as ours. Only what carries our mark is deleted (a file only while it has one
    // name): anything else under one of our names was put there by someone else.
    //
    // Everything is opened beneath the top folder one component at a time without
    // following a reparse point (openInFolder), checked on its handle (the file judged
    // ours is the one opened) and deleted through that handle: a junction swapped in for
    // a level cannot lead the removal into another folder. Whatever this process holds of
    // the tree for a run is let go first, as a folder held open cannot go.
    releaseHeldEverywhere(root);
    const std::string topFolder = folderOf(root);
    const auto folders = core::fileTreeFolders(root, tree);
    std::vector<UniqueHandle> levels;
    levels.emplace_back(::CreateFileW(win::widen(topFolder).c_str(),
        FILE_LIST_DIRECTORY | FILE_TRAVERSE | FILE_READ_ATTRIBUTES, kShareAll, nullptr,
        OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    const auto topFacts = levels.back().valid() ? factsOf(levels.back().get()) : std::nullopt;
    if (!topFacts || topFacts->isReparsePoint() || judge(topFolder).identity != topFacts->identity)
        return win32Error(ERROR_ACCESS_DENIED, "remove file tree", root,
            "the folder changed while IOPrism was checking it: left untouched");
    const auto nameOf = [](const std::wstring &wide) {
        return std::wstring_view(wide).substr(wide.find_last_of(L"/\\") + 1);
    };
    // The file or folder `path` in `folder` opened for deletion, when it is ours.
    const auto openOurs = [&](HANDLE folder, const std::string &path, bool isFolder,
                              ACCESS_MASK access) -> std::optional<UniqueHandle> {
        const std::wstring wide = win::widen(path);
        auto h = openInFolder(folder, nameOf(wide), access, kShareAll,
            isFolder ? FILE_DIRECTORY_FILE : FILE_NON_DIRECTORY_FILE, true, path);
        if (!h)
            return std::nullopt;
        const auto facts = factsOf(h->get());
        if (!facts || facts->isReparsePoint() || (!isFolder && facts->links != 1))
            return std::nullopt;
        const Judged j = judge(path);
        if (j.mark == Mark::None || j.identity != facts->identity)
            return std::nullopt;
        return std::move(*h);
    };
    // The levels that are ours, from the top: below a folder someone else put in a
    // level's place, nothing is ours.
    for (std::size_t i = 1; i < folders.size(); ++i) {
        auto level
            = openOurs(levels.back().get(), folders[i], true, FILE_LIST_DIRECTORY | FILE_TRAVERSE);
        if (!level)
            break;
        levels.push_back(std::move(*level));
    }
    const std::size_t ourLevels = levels.size();
    std::optional<core::OpError> firstFailure;
    const auto deleteThrough = [&](UniqueHandle h, const std::string &path, bool recordFailure) {
        const auto id = fileIdentity(h.get(), win::widen(path));
        const DWORD err = deleteByHandle(h.get());
        h.reset(); // a plain disposition deletes when the handle closes
        if (err == ERROR_SUCCESS)
            forgetCreated(id);
        else if (recordFailure && !firstFailure)
            firstFailure = win32Error(err, "remove file tree", path);
        return err;
    };
    const auto files = core::fileTreeFiles(root, tree);
    for (std::size_t i = 0; i < files.size(); ++i) {
        const std::size_t level = i / tree.filesPerLevel;
        if (level >= ourLevels)
            break;
        if (auto h = openOurs(levels[level].get(), files[i], false, DELETE))
            deleteThrough(std::move(*h), files[i], true);
    }
    for (std::size_t i = ourLevels; i-- > 1;) {
        // Opened for deletion in the folder above, then the walk's own handle of it
        // closed: a folder goes only when no handle is left. Fails while not empty.
        auto h = openOurs(levels[i - 1].get(), folders[i], true, DELETE);
        levels[i].reset();
        if (h)
            deleteThrough(std::move(*h), folders[i], false);
    }
    const std::string markerPath = core::fileTreeMarkerPath(root);
    if (auto h = openOurs(levels[0].get(), markerPath, false, DELETE))
        deleteThrough(std::move(*h), markerPath, true);
    levels.clear();
    UniqueHandle rootHandle(::CreateFileW(win::widen(topFolder).c_str(),
        DELETE | FILE_READ_ATTRIBUTES, kShareAll, nullptr, OPEN_EXISTING,
        FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    const auto rootFacts = rootHandle.valid() ? factsOf(rootHandle.get()) : std::nullopt;
    if (!rootFacts)
        return isMissing(::GetLastError()) && !firstFailure ? core::Status(core::Ok {})
            : firstFailure                                  ? core::Status(*firstFailure)
                           : core::Status(lastError("remove file tree", root));
    if (rootFacts->identity != topFacts->identity)
        return win32Error(ERROR_ACCESS_DENIED, "remove file tree", root,
            "the tree's files were removed, but its folder was replaced meanwhile: left "
            "untouched");
    if (const DWORD err = deleteThrough(std::move(rootHandle), topFolder, false);
        err == ERROR_SUCCESS)
        return firstFailure ? core::Status(*firstFailure) : core::Status(core::Ok {});
    else if (err != ERROR_DIR_NOT_EMPTY)
        return win32Error(
            err, "remove file tree", root, "the tree's files were removed but not its folder");
    if (firstFailure)
        return *firstFailure;

    // What is left was not made by IOPrism: name it. Level folders still there only hold
    // such things; list what is in them, not the folders themselves.
    std::vector<std::string> left;
    std::size_t leftCount = 0;
    for (std::size_t i = 0; i < ourLevels; ++i) {
        std::error_code ec;
        const std::filesystem::path next = i + 1 < ourLevels
            ? std::filesystem::path(win::widen(folders[i + 1])).filename()
            : std::filesystem::path();
        for (std::filesystem::directory_iterator it(win::widen(folders[i]), ec), end;
             !ec && it != end; it.increment(ec)) {
            if (!next.empty() && it->path().filename() == next)
                continue;
            if (left.size() < 5)
                left.push_back(win::narrow(it->path().wstring()));
            ++leftCount;
        }
    }
    std::string names;
    for (const auto &l : left)
        names += (names.empty() ? "" : ", ") + l;
    if (leftCount > left.size())
        names += " and " + std::to_string(leftCount - left.size()) + " more";
    return win32Error(ERROR_DIR_NOT_EMPTY, "remove file tree", root,
        "removed what carries IOPrism's mark; left " + std::to_string(leftCount)
            + (leftCount == 1 ? " item" : " items")
            + " IOPrism did not make (without its mark, or a file with other hard links), and "
              "the folders holding "
            + (leftCount == 1 ? "it" : "them") + ": " + names);
}

// ---------------------------------------------------------------- marks and removal

bool volumeHasNamedStreams(const std::string &path)
{
    std::wstring root = win::volumeRootOf(win::widen(path));
    if (root.empty())
        root = win::volumeRootOf(parentOf(win::widen(path)));
    DWORD flags = 0;
    return !root.empty()
        && ::GetVolumeInformationW(root.c_str(), nullptr, 0, nullptr, nullptr, &flags, nullptr, 0)
        && (flags & FILE_NAMED_STREAMS);
}

namespace {

// A file with other names (hard links): nobody's, whatever it carries.
bool hasOtherNames(const std::string &path)
{
    const std::wstring w = win::widen(path);
    UniqueHandle h(::CreateFileW(
        w.c_str(), 0, kShareAll, nullptr, OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    BY_HANDLE_FILE_INFORMATION info {};
    return h.valid() && ::GetFileInformationByHandle(h.get(), &info) && info.nNumberOfLinks > 1;
}

} // namespace

bool isOurTestFile(const std::string &path)
{
    const DWORD attrs = ::GetFileAttributesW(win::widen(path).c_str());
    return attrs != INVALID_FILE_ATTRIBUTES && !(attrs & FILE_ATTRIBUTE_DIRECTORY)
        && markOf(path) != Mark::None;
}

core::Status removeTestFile(const std::string &path)
{
    const std::wstring w = win::widen(path);
    const DWORD attrs = ::GetFileAttributesW(w.c_str());
    if (attrs == INVALID_FILE_ATTRIBUTES)
        return lastError("remove test file", path);
    if (attrs & FILE_ATTRIBUTE_DIRECTORY) {
        // A file tree's folder: removed with the shape its marker records (so "remove
        // test files" after a run covers trees too); any other folder is refused.
        const TreeMarker marker = readTreeMarker(path);
        if (marker.state == TreeMarker::State::Found)
            return removeFileTree(path, marker.tree);
        if (marker.state == TreeMarker::State::Damaged)
            return win32Error(ERROR_ACCESS_DENIED, "remove test file", path,
                damagedMarkerWhy() + ": left untouched");
        return win32Error(ERROR_ACCESS_DENIED, "remove test file", path,
            "a folder that is not a file tree created by IOPrism: left untouched");
    }
    // Through a handle of the file judged ours (its mark is bound to its file ID), never
    // through whatever the path names by the time of the delete. What this process holds
    // of it for a run is let go first.
    const Judged j = judge(path);
    if (j.mark == Mark::None)
        return win32Error(ERROR_ACCESS_DENIED, "remove test file", path,
            carriesForeignMark(path)
                ? "it carries IOPrism's mark, but the mark was not set on this file (a copy of a "
                  "test file, or marked by an earlier IOPrism): left untouched"
                : "not a test file created by IOPrism: left untouched");
    releaseHeldEverywhere(path);
    if (const DWORD err = deleteChecked(path, false, j.identity); err != ERROR_SUCCESS)
        return win32Error(err, "remove test file", path,
            err == ERROR_FILE_INVALID ? "it was replaced while IOPrism was removing it: left "
                                        "untouched"
                                      : "");
    return core::Ok {};
}

core::Status WindowsBackend::discardTestFile(const std::string &path)
{
    return removeTestFile(path);
}

// ---------------------------------------------------------------- affinity

core::Result<GroupAffinity> groupAffinityOf(
    std::span<const std::uint32_t> cpus, std::span<const std::uint32_t> groupSizes)
{
    GroupAffinity out;
    bool first = true;
    for (const std::uint32_t cpu : cpus) {
        std::uint32_t base = 0, group = 0;
        while (group < groupSizes.size() && cpu >= base + groupSizes[group])
            base += groupSizes[group++];
        if (group >= groupSizes.size())
            return win32Error(ERROR_INVALID_PARAMETER, "set CPU affinity", {},
                "CPU " + std::to_string(cpu) + " does not exist (this machine has "
                    + std::to_string(base) + ")");
        if (!first && group != out.group)
            return win32Error(ERROR_INVALID_PARAMETER, "set CPU affinity", {},
                "CPUs " + std::to_string(cpus.front()) + " and " + std::to_string(cpu)
                    + " are in different processor groups; a thread runs in one group: give each "
                      "worker CPUs of one group");
        out.group = static_cast<std::uint16_t>(group);
        out.mask |= std::uint64_t(1) << (cpu - base);
        first = false;
    }
    return out;
}

// ---------------------------------------------------------------- the backend

WindowsBackend::WindowsBackend(const BackendOptions &options, const IocpOptions &engineOptions)
    : m_options(options)
    , m_engineOptions(engineOptions)
{ }

core::Result<std::unique_ptr<core::IoEngine>> WindowsBackend::makeEngine()
{
    IocpOptions options = m_engineOptions;
    options.held = m_held;
    return std::unique_ptr<core::IoEngine>(std::make_unique<IocpEngine>(options));
}

core::Status WindowsBackend::pinCurrentThread(std::span<const std::uint32_t> cpus)
{
    if (cpus.empty())
        return core::Ok {};
    std::vector<std::uint32_t> sizes;
    const WORD groups = ::GetActiveProcessorGroupCount();
    for (WORD g = 0; g < groups; ++g)
        sizes.push_back(::GetActiveProcessorCount(g));
    auto affinity = groupAffinityOf(cpus, sizes);
    if (!affinity)
        return affinity.error();
    if (groups <= 1) {
        if (!::SetThreadAffinityMask(::GetCurrentThread(), static_cast<DWORD_PTR>(affinity->mask)))
            return lastError("SetThreadAffinityMask");
        return core::Ok {};
    }
    GROUP_AFFINITY ga {};
    ga.Group = affinity->group;
    ga.Mask = static_cast<KAFFINITY>(affinity->mask);
    if (!::SetThreadGroupAffinity(::GetCurrentThread(), &ga, nullptr))
        return lastError("SetThreadGroupAffinity");
    return core::Ok {};
}

core::Result<core::TargetInfo> WindowsBackend::prepareTarget(const core::Target &target,
    const core::PrepareOptions &options, const core::PrepareProgress &progress)
{
    if (target.unresolved)
        return win32Error(ERROR_FILE_NOT_FOUND, "prepare target", target.path,
            "this imported target does not exist on this machine: choose a target before running");
    if (target.path.empty())
        return win32Error(ERROR_INVALID_PARAMETER, "prepare target", {}, "the target has no path");
    switch (target.kind) {
    case core::TargetKind::TestFile:
        if (win::physicalDriveNumber(target.path) || win::isVolumeDevicePath(target.path))
            return win32Error(ERROR_INVALID_PARAMETER, "prepare test file", target.path,
                "this is a volume or drive: choose it as a device target, not a test file");
        return prepareTestFile(target, options, progress);
    case core::TargetKind::Volume:
    case core::TargetKind::PhysicalDrive:
        return prepareDevice(target, options);
    case core::TargetKind::BlockDevice:
    case core::TargetKind::Partition:
        break;
    case core::TargetKind::FileTree:
        if (win::physicalDriveNumber(target.path) || win::isVolumeDevicePath(target.path))
            return win32Error(ERROR_INVALID_PARAMETER, "prepare file tree", target.path,
                "this is a volume or drive: a file tree's path names a folder IOPrism creates");
        return prepareFileTree(target, options, progress);
    }
    return win32Error(ERROR_NOT_SUPPORTED, "prepare target", target.path,
        "block devices and partitions are Linux targets: on Windows choose a volume (\\\\.\\X:), a "
        "physical drive (\\\\.\\PhysicalDriveN) or a test file");
}

core::Result<std::pair<UniqueHandle, std::uint64_t>> WindowsBackend::holdTestFile(
    const std::string &path, const std::optional<FileIdentity> &checked, bool needWrite)
{
    if (m_options.beforeHold)
        m_options.beforeHold(path);
    // The file itself, never what a link or junction at its name leads to, opened with no
    // data access (nothing to share-block); engines reopen it with theirs.
    UniqueHandle h(::CreateFileW(win::widen(path).c_str(), FILE_READ_ATTRIBUTES, kShareAll, nullptr,
        OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    if (!h.valid())
        return lastError("open", path, "the test file went away after IOPrism checked it");
    const auto facts = factsOf(h.get());
    if (!facts)
        return lastError("identify", path);
    // Decided again on the handle: what was checked was a plain file.
    if (facts->isReparsePoint() || facts->isFolder())
        return win32Error(ERROR_CANT_ACCESS_FILE, "prepare test file", path,
            "a link, junction or folder is in the test file's place now: IOPrism never follows "
            "one; choose a new path (IOPrism creates the file)");
    if (!checked || facts->identity != *checked)
        return win32Error(ERROR_FILE_INVALID, "prepare test file", path,
            "the file was renamed or replaced while IOPrism was checking it: it is not the "
            "file IOPrism checked, so it is not used; run again");
    if (needWrite) {
        // Still ours, one name, and the mark is this file's (not a copy's).
        const Judged j = judge(path);
        if (j.mark == Mark::None || j.identity != facts->identity || facts->links != 1)
            return win32Error(ERROR_FILE_INVALID, "prepare test file", path,
                "the file lost IOPrism's mark or gained other names while IOPrism was checking "
                "it: it is never written");
    }
    return std::pair {std::move(h), facts->sizeBytes};
}

core::Result<core::TargetInfo> WindowsBackend::prepareTestFile(const core::Target &target,
    const core::PrepareOptions &options, const core::PrepareProgress &progress)
{
    const std::string &path = target.path;
    const std::wstring w = win::widen(path);
    const std::uint64_t wanted = target.testFileSizeBytes;
    core::TargetInfo info;
    info.path = path;

    WIN32_FILE_ATTRIBUTE_DATA attrs {};
    const bool exists = ::GetFileAttributesExW(w.c_str(), GetFileExInfoStandard, &attrs);
    if (!exists) {
        const DWORD err = ::GetLastError();
        if (err != ERROR_FILE_NOT_FOUND && err != ERROR_PATH_NOT_FOUND)
            return win32Error(err, "look up", path);
    }
    if (exists && (attrs.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY))
        return win32Error(ERROR_INVALID_PARAMETER, "prepare test file", path,
            "this is a directory: give a file path (IOPrism creates the file)");
    const std::uint64_t current = exists
        ? (std::uint64_t(attrs.nFileSizeHigh) << 32) | std::uint64_t(attrs.nFileSizeLow)
        : 0;

    // What the checks below look at: the hold at the end must find this very file.
    const Judged judged = exists ? judge(path) : Judged {};
    std::optional<FileIdentity> checkedIdentity = judged.identity;
    const Mark mark = judged.mark;
    const bool ours = mark != Mark::None;
    // Ours, but the run that filled it never finished (killed mid-fill): filled again.
    const bool halfFilled = mark == Mark::Filling;
    if (exists && !ours) {
        // Someone else's file: read it if asked, never write or extend it.
        if (options.needWrite && hasOtherNames(path))
            return win32Error(ERROR_FILE_EXISTS, "prepare test file", path,
                "this file has other names (hard links), so writing it would change the file "
                "under its other names too: it is never written; choose a new path (IOPrism "
                "creates it) or a read-only spec");
        if (options.needWrite && carriesForeignMark(path))
            return win32Error(ERROR_FILE_EXISTS, "prepare test file", path,
                "this file carries IOPrism's mark, but the mark was not set on this file: it "
                "is a copy of a test file (copying keeps the "
                    + win::narrow(kTestFileStream)
                    + " stream) or was marked by an earlier IOPrism that did not bind its marks "
                      "to the file, so IOPrism cannot tell it from your data and never writes "
                      "it: delete it and let IOPrism create it again, or use a read-only spec");
        if (options.needWrite)
            return win32Error(ERROR_FILE_EXISTS, "prepare test file", path,
                "this file was not created by IOPrism, so it is never written: choose a new path "
                "(IOPrism creates it) or a read-only spec");
        if (current == 0)
            return win32Error(
                ERROR_HANDLE_EOF, "prepare test file", path, "the file is empty: nothing to read");
    }
    if (!exists && wanted == 0)
        return win32Error(ERROR_INVALID_PARAMETER, "prepare test file", path,
            "the test file does not exist and its size is 0");

    const std::wstring parent = parentOf(w);
    if (!exists) {
        const DWORD pattrs = ::GetFileAttributesW(parent.c_str());
        if (pattrs == INVALID_FILE_ATTRIBUTES || !(pattrs & FILE_ATTRIBUTE_DIRECTORY))
            return win32Error(ERROR_PATH_NOT_FOUND, "create test file", path,
                "the directory " + win::narrow(parent) + " does not exist");
    }

    DWORD writeErr = ERROR_SUCCESS;
    if (volumeIsReadOnly(exists ? w : parent))
        writeErr = ERROR_WRITE_PROTECT;
    else if (exists)
        writeErr = writeAccessError(w);
    const bool canWrite = writeErr == ERROR_SUCCESS;
    if (options.needWrite && !canWrite)
        return readOnlyRefusal(path, writeErr);

    bool needFill = !exists || (ours && (wanted > current || halfFilled));
    if (needFill && halfFilled && !canWrite)
        return win32Error(writeErr, "prepare test file", path,
            "a run that was creating this file was stopped before it had written it, so its "
            "reads would not reach the disk, and it cannot be filled again here: make it "
            "writable or delete it");
    if (needFill && exists && !canWrite) {
        // A read-only spec on our own, smaller file that cannot grow: read what is there.
        needFill = false;
        m_notices.push_back(path + " is " + core::describeSize(current) + ", smaller than the "
            + core::describeSize(wanted) + " asked for, and cannot be extended ("
            + errorText(writeErr) + "): reading the existing " + core::describeSize(current));
    }
    if (needFill) {
        // Extend from a chunk boundary so the unbuffered writes stay aligned.
        const FillRange range = fillRange(exists, halfFilled, current, wanted);
        const std::uint64_t need = range.newBytes;
        ULARGE_INTEGER avail {}, total {}, free {};
        const std::uint64_t freeBytes
            = ::GetDiskFreeSpaceExW(parent.c_str(), &avail, &total, &free) ? avail.QuadPart : 0;
        const std::wstring root = win::volumeRootOf(parent);
        const std::string spaceDetail = "not enough space on "
            + win::narrow(root.empty() ? parent : root) + ": need " + core::describeSize(need)
            + ", have " + core::describeSize(freeBytes);
        if (!m_options.skipFreeSpaceCheck && freeBytes < need)
            return win32Error(ERROR_DISK_FULL, "create test file", path, spaceDetail);

        // CREATE_NEW: never take over a file that appeared since the look-up above. Shared
        // for writing, or the unbuffered handle below (GENERIC_WRITE) could not be opened
        // (ERROR_SHARING_VIOLATION) and the whole fill would go through the cache.
        UniqueHandle file(::CreateFileW(w.c_str(), GENERIC_READ | GENERIC_WRITE,
            FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, exists ? OPEN_EXISTING : CREATE_NEW,
            FILE_ATTRIBUTE_NORMAL, nullptr));
        if (!file.valid())
            return lastError(exists ? "open" : "create test file", path);
        const auto id = fileIdentity(file.get(), w);
        if (const auto facts = factsOf(file.get());
            !facts || (exists && facts->identity != checkedIdentity))
            return win32Error(ERROR_FILE_INVALID, "prepare test file", path,
                "the file changed while IOPrism was checking it (renamed or replaced): run "
                "again");
        else
            checkedIdentity = facts->identity;
        if (!exists) {
            // Mark it before filling, so even a crash mid-fill leaves a file we know, and
            // as "filling", so that such a file is filled again, never measured.
            if (const std::string why = markOurs(w, file.get(), Mark::Filling); !why.empty())
                m_notices.push_back("could not mark " + path + " as an IOPrism test file (" + why
                    + "): later runs will only read it, never write it; delete it yourself "
                      "when done");
        } else if (auto marked = setMark(path, Mark::Filling); !marked) {
            return marked.error();
        }
        const auto undo = [&] {
            // Leave nothing half-made: remove what we created, shrink what we extended
            // (complete again up to its former size, unless it never was).
            if (exists) {
                setFileSize(file.get(), current);
                if (!halfFilled)
                    (void)setMark(path, Mark::Complete);
            } else {
                // Through a handle of the file made here (its file ID), never whatever the
                // name holds by now.
                file.reset();
                (void)deleteChecked(path, false, checkedIdentity);
                forgetCreated(id);
            }
        };
        // Reserve the space now: a full volume fails here, not after minutes of writing.
        // NTFS allocates the clusters (the file is not sparse).
        if (!setFileSize(file.get(), range.toBytes)) {
            const DWORD err = ::GetLastError();
            undo();
            return win32Error(err, "reserve space", path,
                err == ERROR_DISK_FULL || err == ERROR_HANDLE_DISK_FULL ? spaceDetail : "");
        }
        // With the valid data length at the end, NTFS does not zero the gap ahead of
        // each write; without the privilege the sequential writes extend it themselves.
        if (canSetValidData())
            ::SetFileValidData(file.get(), static_cast<LONGLONG>(range.toBytes));
        const std::uint32_t sector = win::querySectorSize(file.get(), w).logicalBytes;
        UniqueHandle direct(
            ::CreateFileW(w.c_str(), GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                OPEN_EXISTING, FILE_FLAG_NO_BUFFERING, nullptr));
        auto filled = fillFile(path, file.get(),
            direct.valid() ? direct.get() : INVALID_HANDLE_VALUE, std::max(sector, kMinBufferAlign),
            range.fromBytes, range.toBytes, options, progress, spaceDetail);
        direct.reset();
        if (filled) // flushed: now it counts
            filled = setMark(path, Mark::Complete);
        if (!filled) {
            undo();
            return filled.error();
        }
        info.createdTestFile = true;
    }

    // Take hold of what was checked; from here on nothing opens the file by its path
    // (held_targets.h). The size comes from the held file.
    auto held = holdTestFile(path, checkedIdentity, options.needWrite);
    if (!held)
        return held.error();
    info.sizeBytes = held->second;
    m_held->holdFile(path, std::move(held->first), checkedIdentity);
    info.readOnly = volumeIsReadOnly(w) || writeAccessError(w) != ERROR_SUCCESS;

    UniqueHandle probe(::CreateFileW(w.c_str(), GENERIC_READ, kShareAll, nullptr, OPEN_EXISTING,
        target.cacheMode == core::CacheMode::Direct ? FILE_FLAG_NO_BUFFERING : 0, nullptr));
    if (!probe.valid()) {
        const DWORD err = ::GetLastError();
        if (err == ERROR_INVALID_PARAMETER && target.cacheMode == core::CacheMode::Direct) {
            const std::wstring root = win::volumeRootOf(w);
            return win32Error(err, "open unbuffered", path,
                "the file system at " + win::narrow(root.empty() ? parent : root)
                    + " does not support unbuffered I/O: use buffered mode or put the test file "
                      "elsewhere");
        }
        return win32Error(err, "open", path);
    }
    const win::SectorInfo sector = win::querySectorSize(probe.get(), w);
    info.logicalBlockBytes = sector.logicalBytes;
    info.directIoOffsetAlignBytes = sector.logicalBytes;
    info.directIoMemAlignBytes = std::max(kMinBufferAlign, sector.logicalBytes);
    return info;
}

namespace {

// The name of a tree's file or folder in the folder above it.
std::wstring_view nameIn(const std::wstring &wide)
{
    return std::wstring_view(wide).substr(wide.find_last_of(L"/\\") + 1);
}

// A plain folder or file (never a reparse point; a file with one name), ours, and the
// very one the mark was judged on (the identities match).
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

// The tree's top folder and each level's folder, each opened beneath the one above by its
// own name without following a reparse point, and each decided on its handle: a junction
// swapped in for a level cannot lead a fill or a hold elsewhere.
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

} // namespace

core::Status WindowsBackend::holdFileTree(
    const std::string &root, const core::FileTree &tree, const TreePlan &plan)
{
    if (m_options.beforeHold)
        m_options.beforeHold(root);
    auto opened = openTreeFolders(root, plan);
    if (!opened)
        return opened.error();
    std::vector<UniqueHandle> levels = std::move(*opened);
    std::vector<FileIdentity> files;
    files.reserve(plan.files.size());
    for (std::size_t i = 0; i < plan.files.size(); ++i) {
        const std::wstring wide = win::widen(plan.files[i]);
        auto h = openInFolder(levels[i / tree.filesPerLevel].get(), nameIn(wide), 0, kShareAll,
            FILE_NON_DIRECTORY_FILE, true, plan.files[i]);
        if (!h)
            return h.error();
        const auto facts = factsOf(h->get());
        if (!facts || !heldIsOurs(plan.files[i], *facts, false))
            return changedSinceChecked(
                plan.files[i], "this file is not the one IOPrism made or checked");
        files.push_back(facts->identity);
    }
    m_held->holdTree(root, tree, std::move(levels), std::move(files));
    return core::Ok {};
}

core::Result<core::TargetInfo> WindowsBackend::prepareFileTree(const core::Target &target,
    const core::PrepareOptions &options, const core::PrepareProgress &progress)
{
    const std::string &root = target.path;
    const core::FileTree &tree = target.tree;
    if (tree.fileCount() == 0 || tree.fileSizeBytes == 0)
        return win32Error(ERROR_INVALID_PARAMETER, "prepare file tree", root,
            "the tree has no files: depth, files per level and file size must not be 0");
    auto planned = planFileTree(root, tree);
    if (!planned)
        return planned.error();
    const TreePlan &plan = *planned;

    const std::wstring parent = parentOf(win::widen(folderOf(root)));
    if (!plan.rootExists) {
        const DWORD pattrs = ::GetFileAttributesW(parent.c_str());
        if (pattrs == INVALID_FILE_ATTRIBUTES || !(pattrs & FILE_ATTRIBUTE_DIRECTORY))
            return win32Error(ERROR_PATH_NOT_FOUND, "create file tree", root,
                "the directory " + win::narrow(parent) + " does not exist");
    }
    // Rights and space are those of the folder the work happens in.
    const std::wstring home = plan.rootExists ? win::widen(root) : parent;
    DWORD writeErr = volumeIsReadOnly(home) ? ERROR_WRITE_PROTECT : ERROR_SUCCESS;
    // A file of the tree that is read-only (or held without sharing) fails every write to
    // it: found now rather than by the first operation that opens it.
    if (writeErr == ERROR_SUCCESS && options.needWrite && plan.completeFile)
        writeErr = writeAccessError(win::widen(plan.files[*plan.completeFile]));
    if (options.needWrite && writeErr != ERROR_SUCCESS)
        return readOnlyRefusal(root, writeErr);
    if (plan.needsWork() && writeErr != ERROR_SUCCESS)
        return win32Error(writeErr, "create file tree", root,
            "the volume is read-only: the tree cannot be created or completed");

    if (plan.completeFile)
        if (auto refusal
            = unbufferedRefusal(plan.files[*plan.completeFile], target.cacheMode, parent))
            return *refusal;

    std::string spaceDetail;
    if (plan.needsWork()) {
        ULARGE_INTEGER avail {}, total {}, free {};
        const bool sizeKnown
            = ::GetDiskFreeSpaceExW(home.c_str(), &avail, &total, &free) && total.QuadPart > 0;
        const std::wstring volume = win::volumeRootOf(home);
        DWORD sectorsPerCluster = 0, bytesPerSector = 0, freeClusters = 0, clusters = 0;
        const std::uint64_t cluster = !volume.empty()
                && ::GetDiskFreeSpaceW(
                    volume.c_str(), &sectorsPerCluster, &bytesPerSector, &freeClusters, &clusters)
            ? std::uint64_t(sectorsPerCluster) * bytesPerSector
            : 1;
        const std::uint64_t need = plan.needBytes(tree.fileSizeBytes, cluster);
        const std::uint64_t freeBytes = sizeKnown ? avail.QuadPart : 0;
        spaceDetail = "not enough space on " + win::narrow(volume.empty() ? home : volume)
            + " for the file tree: need " + core::describeSize(need)
            + (sizeKnown ? ", have " + core::describeSize(freeBytes) : "");
        if (!m_options.skipFreeSpaceCheck && sizeKnown && freeBytes < need)
            return win32Error(ERROR_DISK_FULL, "create file tree", root, spaceDetail);
    }

    TreeUndo undo(root, plan);
    // A failure or a cancel removes what this call made (undo's destructor, once the
    // file's handles are closed: an open file cannot be deleted), and says so.
    const auto failed = [&undo](core::OpError error) {
        if (undo.madeAnything())
            error.detail += (error.detail.empty() ? "" : "; ")
                + std::string("removed what this run had made of the tree");
        return error;
    };
    // Makes one folder of the tree and marks it ours: "" or why the mark will not last.
    const auto makeFolder
        = [&](const std::string &folder, bool top, std::size_t index) -> core::Result<std::string> {
        // Fails if the folder appeared since the look-up: never take one over.
        if (!::CreateDirectoryW(win::widen(folder).c_str(), nullptr)) {
            const DWORD err = ::GetLastError();
            return win32Error(err, top ? "create file tree" : "create folder", top ? root : folder,
                err == ERROR_ALREADY_EXISTS ? "the folder appeared meanwhile: IOPrism never "
                                              "writes into a folder it did not create"
                    : diskFull(err)         ? spaceDetail
                                            : "");
        }
        if (top)
            undo.madeRoot();
        else
            undo.madeFolder(index);
        const std::wstring w = win::widen(folder);
        UniqueHandle h(::CreateFileW(w.c_str(), 0, kShareAll, nullptr, OPEN_EXISTING,
            FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
        if (!h.valid())
            return lastError("open", folder);
        return markOurs(w, h.get(), Mark::Complete);
    };
    if (!plan.rootExists) {
        auto marked = makeFolder(folderOf(root), true, 0);
        if (!marked)
            return failed(marked.error());
        if (!marked->empty())
            m_notices.push_back("could not mark " + root + " as IOPrism's file tree (" + *marked
                + "): later runs will refuse it; delete it yourself when done");
        // The marker goes first, so even a crash mid-fill leaves a tree IOPrism knows.
        undo.madeMarker(); // removed on failure even when half-written
        if (auto st = writeMarker(root, tree, spaceDetail); !st)
            return failed(st.error());
    }
    // The level folders are made beneath the one above by their own names (NtCreateFile
    // with FILE_CREATE in the held handle of the folder above), never through a path: a
    // junction swapped in for a level cannot get a folder made behind it.
    if (std::any_of(plan.missingFolders.begin(), plan.missingFolders.end(),
            [](std::size_t i) { return i != 0; })) {
        const std::string top = folderOf(root);
        UniqueHandle above(::CreateFileW(win::widen(top).c_str(),
            FILE_LIST_DIRECTORY | FILE_TRAVERSE | FILE_READ_ATTRIBUTES, kShareAll, nullptr,
            OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
        if (!above.valid())
            return failed(lastError("open", root));
        if (const auto facts = factsOf(above.get()); !facts || !heldIsOurs(top, *facts, true))
            return failed(
                changedSinceChecked(root, "the tree's folder is not the one IOPrism made"));
        for (std::size_t i = 1; i < plan.folders.size(); ++i) {
            const std::string &folder = plan.folders[i];
            const std::wstring wide = win::widen(folder);
            const bool missing
                = std::find(plan.missingFolders.begin(), plan.missingFolders.end(), i)
                != plan.missingFolders.end();
            auto h = openInFolder(above.get(), nameIn(wide), FILE_LIST_DIRECTORY | FILE_TRAVERSE,
                kShareAll, FILE_DIRECTORY_FILE, true, folder, missing ? FILE_CREATE : FILE_OPEN);
            if (!h) {
                const DWORD err = static_cast<DWORD>(h.error().code.value());
                return failed(win32Error(err, missing ? "create folder" : "open", folder,
                    err == ERROR_ALREADY_EXISTS || err == ERROR_FILE_EXISTS
                        ? "the folder appeared meanwhile: IOPrism never writes into a folder it "
                          "did not create"
                        : diskFull(err) ? spaceDetail
                                        : ""));
            }
            if (missing) {
                undo.madeFolder(i);
                markOurs(wide, h->get(), Mark::Complete); // the top's mark said if it lasts
            } else if (const auto facts = factsOf(h->get());
                       !facts || !heldIsOurs(folder, *facts, true)) {
                return failed(
                    changedSinceChecked(folder, "this level's folder is not the one IOPrism made"));
            }
            above = std::move(*h);
        }
    }

    if (!plan.work.empty()) {
        FileFiller filler(options);
        if (auto st = filler.init(root); !st)
            return failed(st.error());
        // Progress over the whole tree: what earlier files wrote plus this one's part.
        std::uint64_t doneBefore = 0;
        const core::PrepareProgress treeProgress = progress
            ? core::PrepareProgress([&](std::uint64_t done, std::uint64_t) {
                  return progress(doneBefore + done, plan.writeBytes);
              })
            : core::PrepareProgress {};
        bool directChecked = plan.completeFile.has_value();
        std::optional<std::uint32_t> sector; // the tree's volume: asked of its first file
        // Files are made and opened in the level folders, each opened beneath the one
        // above without following a reparse point: a junction swapped in for a level
        // cannot lead the fill into another folder.
        auto levels = openTreeFolders(root, plan);
        if (!levels)
            return failed(levels.error());
        for (const auto &w : plan.work) {
            const std::string &path = plan.files[w.index];
            const std::wstring wpath = win::widen(path);
            // FILE_CREATE: never take over a file that appeared since the look-up; an
            // existing one is opened as itself, never through a reparse point. Shared for
            // writing: the unbuffered handle below writes the aligned chunks.
            auto opened = openInFolder((*levels)[w.index / tree.filesPerLevel].get(), nameIn(wpath),
                GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
                FILE_NON_DIRECTORY_FILE, true, path, w.exists ? FILE_OPEN : FILE_CREATE);
            if (!opened) {
                const DWORD err = static_cast<DWORD>(opened.error().code.value());
                return failed(win32Error(err, w.exists ? "open" : "create file", path,
                    diskFull(err) ? spaceDetail : ""));
            }
            UniqueHandle file = std::move(*opened);
            if (w.exists) {
                // Still ours and still one name since the look-up, and the mark is this
                // file's, else never written.
                const auto facts = factsOf(file.get());
                if (!facts || !heldIsOurs(path, *facts, false))
                    return failed(
                        notOurs(path, "a file without IOPrism's mark or with other names"));
                if (auto marked = setMark(path, Mark::Filling); !marked)
                    return failed(marked.error());
                undo.extended(w.index, w.currentBytes, w.halfFilled);
            } else {
                undo.madeFile(w.index);
                // Marked "filling" before a byte is written: a crash mid-fill leaves a file
                // IOPrism knows it must fill again.
                markOurs(wpath, file.get(), Mark::Filling);
            }
            if (!directChecked) {
                directChecked = true;
                if (auto refusal = unbufferedRefusal(path, target.cacheMode, parent))
                    return failed(*refusal);
            }
            const FillRange range = w.range(tree.fileSizeBytes);
            // Reserve the space now (NTFS allocates the clusters: not sparse), and with the
            // privilege move the valid data length so NTFS does not zero ahead of the writes.
            if (!setFileSize(file.get(), range.toBytes)) {
                const DWORD err = ::GetLastError();
                return failed(
                    win32Error(err, "reserve space", path, diskFull(err) ? spaceDetail : ""));
            }
            if (canSetValidData())
                ::SetFileValidData(file.get(), static_cast<LONGLONG>(range.toBytes));
            if (!sector)
                sector = std::max(
                    win::querySectorSize(file.get(), wpath).logicalBytes, kMinBufferAlign);
            // The same file again, unbuffered: reopened from its handle, and used only if it
            // is the same file (under Wine ReOpenFile goes by name; see held_targets.h).
            UniqueHandle direct(::ReOpenFile(file.get(), GENERIC_WRITE,
                FILE_SHARE_READ | FILE_SHARE_WRITE, FILE_FLAG_NO_BUFFERING));
            if (direct.valid()) {
                const auto a = factsOf(file.get()), b = factsOf(direct.get());
                if (!a || !b || a->identity != b->identity)
                    direct.reset();
            }
            // No flush per file: the aligned part is written unbuffered, and a buffered
            // tail is left to the cache manager (Windows flushes a whole volume only for
            // administrators), as flushing each of a million small files would take long.
            // The cache outlives a killed process, so "complete" follows the last write;
            // only a power cut before the cache is written could outrun it.
            if (auto st = filler.fill(path, file.get(),
                    direct.valid() ? direct.get() : INVALID_HANDLE_VALUE, *sector, range.fromBytes,
                    range.toBytes, treeProgress, spaceDetail, false, "prepare file tree");
                !st)
                return failed(st.error());
            if (auto marked = setMark(path, Mark::Complete); !marked)
                return failed(marked.error());
            doneBefore += range.toBytes - range.fromBytes;
        }
    }
    const bool made = undo.madeAnything();
    undo.commit();
    // Take hold of the folders and files checked and made; from here on the engines open
    // the tree's files only in the held folders (held_targets.h).
    if (auto held = holdFileTree(root, tree, plan); !held)
        return held.error();

    core::TargetInfo info;
    info.path = root;
    info.sizeBytes = tree.fileSizeBytes;
    info.isDevice = false;
    info.createdTestFile = made;
    const std::wstring first = win::widen(plan.files.front());
    info.readOnly = volumeIsReadOnly(first) || writeAccessError(first) != ERROR_SUCCESS;
    UniqueHandle probe(::CreateFileW(first.c_str(), GENERIC_READ, kShareAll, nullptr, OPEN_EXISTING,
        target.cacheMode == core::CacheMode::Direct ? FILE_FLAG_NO_BUFFERING : 0, nullptr));
    if (!probe.valid())
        return lastError("open", plan.files.front());
    const win::SectorInfo sector = win::querySectorSize(probe.get(), first);
    info.logicalBlockBytes = sector.logicalBytes;
    info.directIoOffsetAlignBytes = sector.logicalBytes;
    info.directIoMemAlignBytes = std::max(kMinBufferAlign, sector.logicalBytes);
    return info;
}

std::optional<core::TestFileSpace> WindowsBackend::testFileSpace(const core::Target &target)
{
    if (m_options.skipFreeSpaceCheck
        || (target.kind != core::TargetKind::TestFile && target.kind != core::TargetKind::FileTree)
        || win::physicalDriveNumber(target.path) || win::isVolumeDevicePath(target.path))
        return std::nullopt;
    // Where the space comes from: the folder that will hold the file (or the tree's top
    // folder, when it exists: it may be a volume mounted there).
    std::wstring home = parentOf(win::widen(folderOf(target.path)));
    std::optional<TreePlan> plan;
    std::uint64_t need = 0;
    if (target.kind == core::TargetKind::FileTree) {
        // The same rule as prepareFileTree: a new tree is written whole, our own tree of
        // this shape only where files are missing or short, anything else never.
        if (auto planned = planFileTree(target.path, target.tree)) {
            if (planned->rootExists)
                home = win::widen(target.path);
            plan = std::move(*planned);
        }
    } else {
        // The same rule as prepareTestFile: a new file is written whole; our own, smaller
        // file is extended from a chunk boundary; any other existing file is never written.
        const PathEntry e = lookUp(target.path);
        need = target.testFileSizeBytes;
        if (e.exists) {
            const Mark mark = e.isPlainFile() ? markOf(target.path) : Mark::None;
            need = mark != Mark::None
                ? fillRange(true, mark == Mark::Filling, e.sizeBytes, std::max(need, e.sizeBytes))
                      .newBytes
                : 0;
        }
    }
    ULARGE_INTEGER avail {}, total {}, free {};
    if (!::GetDiskFreeSpaceExW(home.c_str(), &avail, &total, &free) || total.QuadPart == 0)
        return std::nullopt; // no such directory (prepareTarget says so) or no size known
    const std::wstring volume = win::volumeRootOf(home);
    DWORD serial = 0;
    const bool haveSerial = !volume.empty()
        && ::GetVolumeInformationW(
            volume.c_str(), nullptr, 0, &serial, nullptr, nullptr, nullptr, 0);
    if (plan) {
        DWORD sectorsPerCluster = 0, bytesPerSector = 0, freeClusters = 0, clusters = 0;
        const std::uint64_t cluster = !volume.empty()
                && ::GetDiskFreeSpaceW(
                    volume.c_str(), &sectorsPerCluster, &bytesPerSector, &freeClusters, &clusters)
            ? std::uint64_t(sectorsPerCluster) * bytesPerSector
            : 1;
        need = plan->needBytes(target.tree.fileSizeBytes, cluster);
    }
    const std::string where = win::narrow(volume.empty() ? home : volume);
    return core::TestFileSpace {
        .fileSystem = haveSerial ? "volume " + std::to_string(serial) : where,
        .where = where,
        .needBytes = need,
        .freeBytes = avail.QuadPart};
}

core::Status WindowsBackend::removeFileTree(const std::string &root, const core::FileTree &tree)
{
    return platform::removeFileTree(root, tree);
}

core::Result<core::TargetInfo> WindowsBackend::prepareDevice(
    const core::Target &target, const core::PrepareOptions &options)
{
    std::string path = target.path;
    if (path.size() > 4 && path.back() == '\\' && win::isVolumeDevicePath(path))
        path.pop_back(); // "\\?\Volume{..}\" names the root directory; the volume is without it
    const auto driveNumber = win::physicalDriveNumber(path);
    if (!driveNumber && !win::isVolumeDevicePath(path))
        return win32Error(ERROR_INVALID_NAME, "open device", path,
            "not a volume (\\\\.\\X:, \\\\?\\Volume{...}) or physical drive "
            "(\\\\.\\PhysicalDriveN)");
    const std::wstring w = win::widen(path);

    UniqueHandle dev(::CreateFileW(w.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE,
        nullptr, OPEN_EXISTING, 0, nullptr));
    if (!dev.valid()) {
        const DWORD err = ::GetLastError();
        return win32Error(err, "open device", path,
            err == ERROR_ACCESS_DENIED ? "raw volumes and drives need an administrator account"
                                       : "");
    }
    core::TargetInfo info;
    info.path = path;
    info.isDevice = true;
    info.sizeBytes = deviceSize(dev.get(), w);
    DWORD got = 0;
    if (!::DeviceIoControl(dev.get(), IOCTL_DISK_IS_WRITABLE, nullptr, 0, nullptr, 0, &got, nullptr)
        && ::GetLastError() == ERROR_WRITE_PROTECT)
        info.readOnly = true;
    const win::SectorInfo sector = win::querySectorSize(dev.get(), w);
    // The device object checked here is the one the engines reopen (ReOpenFile): a DOS
    // device name redefined meanwhile (DefineDosDevice) does not redirect them.
    const auto hold = [&](core::TargetInfo checked) -> core::Result<core::TargetInfo> {
        if (m_options.beforeHold)
            m_options.beforeHold(path);
        m_held->holdFile(path, std::move(dev), std::nullopt);
        return checked;
    };
    info.logicalBlockBytes = sector.logicalBytes;
    info.directIoOffsetAlignBytes = sector.logicalBytes;
    info.directIoMemAlignBytes = std::max(kMinBufferAlign, sector.logicalBytes);
    if (info.sizeBytes == 0)
        return win32Error(
            ERROR_NOT_READY, "open device", path, "the device has no media or reports size 0");

    if (!options.needWrite)
        return hold(info);

    const std::string what = path + " (" + core::describeSize(info.sizeBytes) + ")";
    if (info.readOnly)
        return win32Error(ERROR_WRITE_PROTECT, "open device for writing", path,
            "the profile writes to " + what + " but the device is write-protected");
    if (!options.allowDeviceWrites)
        return win32Error(ERROR_ACCESS_DENIED, "open device for writing", path,
            "writing to " + what + " destroys its data: pass --allow-device-writes to confirm");

    if (!driveNumber) {
        // A volume: refused while a file system is mounted on it.
        const std::wstring root = w.size() == 6 ? w.substr(4) + L"\\" : w + L"\\";
        const std::wstring fs = win::mountedFileSystem(root);
        if (!fs.empty())
            return win32Error(ERROR_BUSY, "open device for writing", path,
                "it holds a mounted " + win::narrow(fs)
                    + " file system: writing would destroy it; take the volume offline first "
                      "(diskpart: select volume, offline volume) or choose an unmounted volume");
        return hold(info);
    }

    // A physical drive: refused while any volume on it holds a mounted file system, and
    // when Windows cannot say which volumes lie on it. The mounted file systems are those
    // of the volume list and of the drive letters (a list that comes back empty, as under
    // Wine, must not read as "nothing mounted").
    struct Mounted {
        std::wstring name;
        std::optional<std::vector<win::DiskExtent>> extents;
    };
    std::vector<Mounted> fileSystems;
    for (const auto &v : win::enumerateVolumes())
        if (!v.fileSystem.empty())
            fileSystems.push_back({v.mountPoints.empty() ? v.guidPath : v.mountPoints.front(),
                v.extentsKnown ? std::optional(v.extents) : std::nullopt});
    const DWORD letters = ::GetLogicalDrives();
    for (int i = 0; i < 26; ++i) {
        const std::wstring root = std::wstring(1, wchar_t(L'A' + i)) + L":\\";
        if (!(letters & (1u << i)) || ::GetDriveTypeW(root.c_str()) == DRIVE_REMOTE
            || win::mountedFileSystem(root).empty())
            continue;
        fileSystems.push_back({root, win::volumeDiskExtents(L"\\\\.\\" + root.substr(0, 2))});
    }
    std::vector<std::wstring> mounted;
    bool unknown = fileSystems.empty();
    for (const auto &fs : fileSystems) {
        if (!fs.extents) {
            unknown = true;
            continue;
        }
        if (std::any_of(fs.extents->begin(), fs.extents->end(),
                [&](const win::DiskExtent &e) { return e.diskNumber == *driveNumber; })
            && std::find(mounted.begin(), mounted.end(), fs.name) == mounted.end())
            mounted.push_back(fs.name);
    }
    if (!mounted.empty())
        return win32Error(ERROR_BUSY, "open device for writing", path,
            "file systems on it are mounted at " + joined(mounted)
                + ": writing would destroy them; take those volumes offline first or choose "
                  "another "
                  "drive");
    if (unknown)
        return win32Error(ERROR_BUSY, "open device for writing", path,
            "Windows does not say which volumes lie on this drive, so a mounted file system on it "
            "cannot be ruled out: writing is refused");
    return hold(info);
}

} // namespace ioprism::platform
