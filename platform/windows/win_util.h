// SPDX-License-Identifier: GPL-3.0-or-later
// Small Win32 helpers shared by the Windows backend: UTF-8 <-> UTF-16 paths, an owned
// HANDLE, errors from GetLastError, volume and privilege look-ups.
//
// Errors carry the Win32 code through std::system_category (MSVC and MinGW's libstdc++
// both format it with FormatMessage), the operation and the path, like errno on Linux.
#pragma once

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include "core/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <windows.h>

// Newer SDKs have it; MinGW-w64 10's winerror.h does not. Real Windows returns it for a
// FILE_FLAG_NO_BUFFERING transfer whose offset is not a multiple of the sector size.
#ifndef ERROR_OFFSET_ALIGNMENT_VIOLATION
#define ERROR_OFFSET_ALIGNMENT_VIOLATION 327L
#endif

namespace ioprism::platform::win {

// Paths and messages are UTF-8 in the rest of the program; Win32's W functions want
// UTF-16. Invalid input is replaced (U+FFFD), never an exception.
std::wstring widen(std::string_view utf8);
std::string narrow(std::wstring_view wide);

// An owned kernel handle. Both INVALID_HANDLE_VALUE (CreateFile) and nullptr
// (CreateIoCompletionPort, CreateEvent) mean "none".
class UniqueHandle
{
public:
    UniqueHandle() = default;
    explicit UniqueHandle(HANDLE h)
        : m_h(h)
    { }
    ~UniqueHandle() { reset(); }
    UniqueHandle(UniqueHandle &&other) noexcept
        : m_h(other.release())
    { }
    UniqueHandle &operator=(UniqueHandle &&other) noexcept
    {
        if (this != &other)
            reset(other.release());
        return *this;
    }
    UniqueHandle(const UniqueHandle &) = delete;
    UniqueHandle &operator=(const UniqueHandle &) = delete;

    HANDLE get() const { return m_h; }
    bool valid() const { return m_h != nullptr && m_h != INVALID_HANDLE_VALUE; }
    HANDLE release()
    {
        HANDLE h = m_h;
        m_h = nullptr;
        return h;
    }
    void reset(HANDLE h = nullptr);

private:
    HANDLE m_h = nullptr;
};

// An OpError from a Win32 error code (GetLastError() unless given).
core::OpError win32Error(
    DWORD code, std::string operation, std::string path = {}, std::string detail = {});
core::OpError lastError(std::string operation, std::string path = {}, std::string detail = {});

// "\\.\PhysicalDrive3" -> 3; nullopt for anything else (case-insensitive prefix).
std::optional<std::uint32_t> physicalDriveNumber(std::string_view path);

// True for "\\.\X:" (a volume by drive letter) and "\\?\Volume{GUID}" device paths.
bool isVolumeDevicePath(std::string_view path);

// True when a volume or drive device path opens (with no access rights: enough to tell,
// and allowed without administrator rights).
bool deviceExists(std::string_view devicePath);

// The root of the volume holding `path` ("C:\", "C:\mnt\data\" for a mounted folder,
// "\\server\share\"), from GetVolumePathNameW; "" when it cannot be found.
std::wstring volumeRootOf(const std::wstring &path);

// The device path to open a volume for IOCTLs, without the trailing backslash:
// "C:\" -> "\\.\C:", "\\?\Volume{..}\" -> "\\?\Volume{..}"; mounted folders are
// resolved to their volume GUID path. "" for network shares and on failure.
std::wstring volumeDeviceOf(const std::wstring &volumeRoot);

// Enables a privilege in the process token (e.g. SE_MANAGE_VOLUME_NAME for
// SetFileValidData). False when the account does not hold it: enabling then reports
// ERROR_NOT_ALL_ASSIGNED, which is not an error to AdjustTokenPrivileges.
bool enablePrivilege(const wchar_t *name);

// True when running under Wine (ntdll exports wine_get_version). Only for messages
// and tests: the code path is the same.
bool runningUnderWine();

} // namespace ioprism::platform::win
