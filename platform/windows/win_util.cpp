// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/windows/win_util.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <vector>

namespace ioprism::platform::win {

std::wstring widen(std::string_view utf8)
{
    if (utf8.empty())
        return {};
    const int n
        = ::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), nullptr, 0);
    std::wstring out(static_cast<std::size_t>(std::max(n, 0)), L'\0');
    if (n > 0)
        ::MultiByteToWideChar(
            CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), out.data(), n);
    return out;
}

std::string narrow(std::wstring_view wide)
{
    if (wide.empty())
        return {};
    const int n = ::WideCharToMultiByte(
        CP_UTF8, 0, wide.data(), static_cast<int>(wide.size()), nullptr, 0, nullptr, nullptr);
    std::string out(static_cast<std::size_t>(std::max(n, 0)), '\0');
    if (n > 0)
        ::WideCharToMultiByte(CP_UTF8, 0, wide.data(), static_cast<int>(wide.size()), out.data(), n,
            nullptr, nullptr);
    return out;
}

void UniqueHandle::reset(HANDLE h)
{
    if (valid())
        ::CloseHandle(m_h);
    m_h = h;
}

core::OpError win32Error(DWORD code, std::string operation, std::string path, std::string detail)
{
    return {std::error_code(static_cast<int>(code), std::system_category()), std::move(operation),
        std::move(path), std::move(detail)};
}

core::OpError lastError(std::string operation, std::string path, std::string detail)
{
    return win32Error(::GetLastError(), std::move(operation), std::move(path), std::move(detail));
}

namespace {

bool startsWithNoCase(std::string_view text, std::string_view prefix)
{
    if (text.size() < prefix.size())
        return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(text[i]))
            != std::tolower(static_cast<unsigned char>(prefix[i])))
            return false;
    return true;
}

} // namespace

std::optional<std::uint32_t> physicalDriveNumber(std::string_view path)
{
    constexpr std::string_view kPrefix = "\\\\.\\PhysicalDrive";
    if (!startsWithNoCase(path, kPrefix) || path.size() == kPrefix.size()
        || path.size() > kPrefix.size() + 6)
        return std::nullopt;
    std::uint32_t n = 0;
    for (char c : path.substr(kPrefix.size())) {
        if (c < '0' || c > '9')
            return std::nullopt;
        n = n * 10 + static_cast<std::uint32_t>(c - '0');
    }
    return n;
}

bool isVolumeDevicePath(std::string_view path)
{
    if (path.size() == 6 && path.substr(0, 4) == "\\\\.\\"
        && std::isalpha(static_cast<unsigned char>(path[4])) && path[5] == ':')
        return true;
    return startsWithNoCase(path, "\\\\?\\Volume{") || startsWithNoCase(path, "\\\\.\\Volume{");
}

bool deviceExists(std::string_view devicePath)
{
    std::wstring w = widen(devicePath);
    if (w.size() > 4 && w.back() == L'\\')
        w.pop_back(); // "\\?\Volume{..}\" names the root directory; the volume is without it
    UniqueHandle h(::CreateFileW(
        w.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING, 0, nullptr));
    return h.valid();
}

std::wstring volumeRootOf(const std::wstring &path)
{
    std::vector<wchar_t> root(MAX_PATH + 1);
    if (!::GetVolumePathNameW(path.c_str(), root.data(), static_cast<DWORD>(root.size())))
        return {};
    return root.data();
}

std::wstring volumeDeviceOf(const std::wstring &volumeRoot)
{
    if (volumeRoot.empty()
        || (volumeRoot.rfind(L"\\\\", 0) == 0 && volumeRoot.rfind(L"\\\\?\\", 0) != 0))
        return {}; // a UNC share has no local volume
    if (volumeRoot.size() == 3 && volumeRoot[1] == L':')
        return L"\\\\.\\" + volumeRoot.substr(0, 2);
    std::wstring root = volumeRoot;
    if (root.back() != L'\\')
        root += L'\\';
    if (root.rfind(L"\\\\?\\Volume{", 0) != 0) {
        // A folder mount point: its volume's GUID path.
        wchar_t guid[64] = {};
        if (!::GetVolumeNameForVolumeMountPointW(root.c_str(), guid, 64))
            return {};
        root = guid;
    }
    root.pop_back(); // CreateFile opens the volume itself only without the backslash
    return root;
}

bool enablePrivilege(const wchar_t *name)
{
    HANDLE raw = nullptr;
    if (!::OpenProcessToken(::GetCurrentProcess(), TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY, &raw))
        return false;
    UniqueHandle token(raw);
    TOKEN_PRIVILEGES tp {};
    tp.PrivilegeCount = 1;
    tp.Privileges[0].Attributes = SE_PRIVILEGE_ENABLED;
    if (!::LookupPrivilegeValueW(nullptr, name, &tp.Privileges[0].Luid))
        return false;
    if (!::AdjustTokenPrivileges(token.get(), FALSE, &tp, sizeof tp, nullptr, nullptr))
        return false;
    return ::GetLastError() == ERROR_SUCCESS; // ERROR_NOT_ALL_ASSIGNED: not held
}

bool runningUnderWine()
{
    const HMODULE ntdll = ::GetModuleHandleW(L"ntdll.dll");
    return ntdll && ::GetProcAddress(ntdll, "wine_get_version") != nullptr;
}

} // namespace ioprism::platform::win
