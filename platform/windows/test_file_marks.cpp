// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/windows/test_file_marks.h"

#include "platform/windows/windows_backend.h"
#include "platform/windows/windows_preparation.h"

#include <array>
#include <filesystem>
#include <mutex>
#include <set>
#include <string_view>

namespace ioprism::platform {

using win::UniqueHandle;
using win::win32Error;

namespace {

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

} // namespace

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

core::Status setMark(const std::string &path, Mark mark)
{
    if (!volumeHasNamedStreams(path))
        return core::Ok {};
    if (const std::string why = writeMarkStream(win::widen(path), mark); !why.empty())
        return win32Error(::GetLastError(), "mark", path, why);
    return core::Ok {};
}

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

bool hasOtherNames(const std::string &path)
{
    const std::wstring w = win::widen(path);
    UniqueHandle h(::CreateFileW(
        w.c_str(), 0, kShareAll, nullptr, OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    BY_HANDLE_FILE_INFORMATION info {};
    return h.valid() && ::GetFileInformationByHandle(h.get(), &info) && info.nNumberOfLinks > 1;
}

bool isOurTestFile(const std::string &path)
{
    const DWORD attrs = ::GetFileAttributesW(win::widen(path).c_str());
    return attrs != INVALID_FILE_ATTRIBUTES && !(attrs & FILE_ATTRIBUTE_DIRECTORY)
        && markOf(path) != Mark::None;
}

} // namespace ioprism::platform
