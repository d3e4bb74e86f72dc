// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/common/input_file_reader.h"

#include "core/profile/units.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <fmt/format.h>
#include <optional>
#include <string>
#include <system_error>

#ifdef _WIN32
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace ioprism::platform {

namespace {

using core::InputFileFailure;
using core::InputFileText;

InputFileText refused(InputFileFailure failure, std::string message)
{
    InputFileText r;
    r.failure = failure;
    r.problem = core::Problem {core::Severity::Error, {}, std::move(message)};
    return r;
}

// Why an open or a read failed. Win32 codes compare equal to these too: the standard
// libraries map them (ERROR_FILE_NOT_FOUND and ERROR_PATH_NOT_FOUND to
// no_such_file_or_directory; windows_input_file_reader_test checks it under Wine).
InputFileFailure failureOf(const std::error_code &ec)
{
    if (ec == std::errc::no_such_file_or_directory || ec == std::errc::not_a_directory)
        return InputFileFailure::Missing;
    if (ec == std::errc::permission_denied || ec == std::errc::operation_not_permitted)
        return InputFileFailure::PermissionDenied;
    if (ec == std::errc::no_such_device_or_address)
        return InputFileFailure::NotRegular; // a socket, or a device with no driver
    return InputFileFailure::Unreadable;
}

// The path in UTF-8, as the rest of the program shows paths. On Windows path::string()
// converts to the ANSI code page and throws for a name outside it; nothing here throws.
std::string shownPath(const std::filesystem::path &path)
{
    try {
        const std::u8string utf8 = path.u8string();
        return {utf8.begin(), utf8.end()};
    } catch (...) {
        return "(a path that is not valid Unicode)";
    }
}

InputFileText cannotOpen(const std::filesystem::path &path, std::error_code ec)
{
    return refused(failureOf(ec), "cannot read " + shownPath(path) + ": " + ec.message());
}

// "is 3.0 GiB; IOPrism reads results files up to 256 MiB"; the exact size is added when
// one decimal would hide that it is over the limit (4 MiB + 1 byte reads "4.0 MiB"); below
// 1 KiB the size is exact already ("100 B").
std::string tooLarge(std::uint64_t size, std::uint64_t maxBytes, std::string_view kindPlural)
{
    std::string shown = core::describeSize(size);
    if (size - maxBytes <= maxBytes / 20 && shown != fmt::format("{} B", size))
        shown += fmt::format(" ({} bytes)", size);
    return fmt::format(
        "is {}; IOPrism reads {} up to {}", shown, kindPlural, core::describeSize(maxBytes));
}

InputFileText notRegular(std::string_view what)
{
    if (what == "a directory")
        return refused(InputFileFailure::NotRegular, "is a directory, not a file");
    return refused(
        InputFileFailure::NotRegular, fmt::format("is {}; only regular files are read", what));
}

// What an open file is, and how to read it: one small type per OS.
#ifdef _WIN32
class OpenFile
{
public:
    ~OpenFile()
    {
        if (m_handle != INVALID_HANDLE_VALUE)
            CloseHandle(m_handle);
    }
    std::error_code open(const std::filesystem::path &path)
    {
        // BACKUP_SEMANTICS opens a folder too, so that it is named as one below.
        m_handle = CreateFileW(path.c_str(), GENERIC_READ,
            FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
            FILE_FLAG_BACKUP_SEMANTICS, nullptr);
        if (m_handle == INVALID_HANDLE_VALUE)
            return std::error_code(static_cast<int>(GetLastError()), std::system_category());
        return {};
    }
    // "" for a regular file, else what it is ("a directory", ...).
    std::string_view kind(std::uint64_t &sizeBytes, std::error_code &ec) const
    {
        switch (GetFileType(m_handle)) {
        case FILE_TYPE_DISK:
            break;
        case FILE_TYPE_PIPE:
            return "a pipe or socket";
        case FILE_TYPE_CHAR:
            return "a character device";
        default:
            return "not a regular file";
        }
        BY_HANDLE_FILE_INFORMATION info {};
        if (!GetFileInformationByHandle(m_handle, &info)) {
            ec = std::error_code(static_cast<int>(GetLastError()), std::system_category());
            return {};
        }
        if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)
            return "a directory";
        sizeBytes = (std::uint64_t(info.nFileSizeHigh) << 32) | info.nFileSizeLow;
        return {};
    }
    // Bytes read (0 at the end), or -1 with `ec`.
    long long read(char *into, std::size_t bytes, std::error_code &ec) const
    {
        DWORD got = 0;
        if (!ReadFile(m_handle, into, static_cast<DWORD>(bytes), &got, nullptr)) {
            ec = std::error_code(static_cast<int>(GetLastError()), std::system_category());
            return -1;
        }
        return got;
    }

private:
    HANDLE m_handle = INVALID_HANDLE_VALUE;
};
#else
class OpenFile
{
public:
    ~OpenFile()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    std::error_code open(const std::filesystem::path &path)
    {
        // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for
        // one; O_NOCTTY: a terminal device never becomes ours. A regular file ignores both.
        do
            m_fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        while (m_fd < 0 && errno == EINTR);
        if (m_fd < 0)
            return std::error_code(errno, std::generic_category());
        return {};
    }
    std::string_view kind(std::uint64_t &sizeBytes, std::error_code &ec) const
    {
        struct stat st {
        };
        if (::fstat(m_fd, &st) != 0) {
            ec = std::error_code(errno, std::generic_category());
            return {};
        }
        if (S_ISDIR(st.st_mode))
            return "a directory";
        if (S_ISFIFO(st.st_mode))
            return "a FIFO (named pipe)";
        if (S_ISCHR(st.st_mode))
            return "a character device";
        if (S_ISBLK(st.st_mode))
            return "a block device";
        if (S_ISSOCK(st.st_mode))
            return "a socket";
        if (!S_ISREG(st.st_mode))
            return "not a regular file";
        sizeBytes = static_cast<std::uint64_t>(st.st_size);
        return {};
    }
    long long read(char *into, std::size_t bytes, std::error_code &ec) const
    {
        for (;;) {
            const ssize_t got = ::read(m_fd, into, bytes);
            if (got >= 0)
                return got;
            if (errno != EINTR) {
                ec = std::error_code(errno, std::generic_category());
                return -1;
            }
        }
    }

private:
    int m_fd = -1;
};
#endif

// Opens `path` and checks that what was opened is a regular file: nullopt and its size
// then, else why it is not read.
std::optional<InputFileText> openRegular(
    const std::filesystem::path &path, OpenFile &file, std::uint64_t &sizeBytes)
{
    if (const std::error_code ec = file.open(path))
        return cannotOpen(path, ec);
    std::error_code ec;
    if (const std::string_view what = file.kind(sizeBytes, ec); !what.empty())
        return notRegular(what);
    if (ec)
        return cannotOpen(path, ec);
    return std::nullopt;
}

// Reads at most `wanted` bytes of an opened regular file.
InputFileText readUpTo(const std::filesystem::path &path, const OpenFile &file,
    std::uint64_t wanted, std::size_t reserveBytes)
{
    InputFileText r;
    r.text.reserve(reserveBytes);
    std::array<char, std::size_t {64} * 1024> chunk {};
    while (wanted > 0) {
        std::error_code ec;
        const long long got = file.read(chunk.data(),
            static_cast<std::size_t>(std::min<std::uint64_t>(wanted, chunk.size())), ec);
        if (got < 0)
            return cannotOpen(path, ec);
        if (got == 0)
            break;
        r.text.append(chunk.data(), static_cast<std::size_t>(got));
        wanted -= static_cast<std::uint64_t>(got);
    }
    return r;
}

} // namespace

core::InputFileText readInputFile(
    const std::filesystem::path &path, std::uint64_t maxBytes, std::string_view kindPlural)
{
    OpenFile file;
    std::uint64_t size = 0;
    if (auto refusal = openRegular(path, file, size))
        return std::move(*refusal);
    if (size > maxBytes)
        return refused(InputFileFailure::TooLarge, tooLarge(size, maxBytes, kindPlural));
    // One byte more than allowed tells "exactly the limit" from "over it" (no limit at all
    // when maxBytes is the largest value: then + 1 would wrap to reading nothing).
    const std::uint64_t wanted = maxBytes == UINT64_MAX ? maxBytes : maxBytes + 1;
    InputFileText r = readUpTo(path, file, wanted, static_cast<std::size_t>(size));
    if (!r.problem && r.text.size() > maxBytes)
        return refused(InputFileFailure::TooLarge,
            fmt::format("grew past {} while being read; IOPrism reads {} up to {}",
                core::describeSize(maxBytes), kindPlural, core::describeSize(maxBytes)));
    return r;
}

core::InputFileText readInputFileHead(const std::filesystem::path &path, std::size_t bytes)
{
    OpenFile file;
    std::uint64_t size = 0;
    if (auto refusal = openRegular(path, file, size))
        return std::move(*refusal);
    return readUpTo(
        path, file, bytes, std::min<std::size_t>(bytes, static_cast<std::size_t>(size)));
}

} // namespace ioprism::platform
