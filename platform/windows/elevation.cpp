// SPDX-License-Identifier: GPL-3.0-or-later
// Elevation on Windows (platform/common/elevation.h), and targetAccess / accessProblem,
// whose only Windows question is elevation: Windows has no mode bits to read before an
// open, but it does say whether this process could open a raw drive at all.
#include "platform/windows/elevation.h"

#include "platform/common/elevation.h"
#include "platform/common/target_resolution.h"
#include "platform/windows/win_util.h"

#include <cstddef>
#include <optional>
#include <shellapi.h>
#include <vector>

namespace ioprism::platform {

namespace win {

std::string quoteWindowsArgument(std::string_view argument)
{
    if (!argument.empty() && argument.find_first_of(" \t\n\v\"") == std::string_view::npos)
        return std::string(argument);
    std::string quoted = "\"";
    std::size_t backslashes = 0;
    for (const char c : argument) {
        if (c == '\\') {
            ++backslashes;
            continue;
        }
        // Backslashes are literal unless a quote follows them: then each one is written
        // twice, and the quote itself once more escaped.
        quoted.append(c == '"' ? 2 * backslashes + 1 : backslashes, '\\');
        quoted += c;
        backslashes = 0;
    }
    // The closing quote follows them too ("C:\dir\" would otherwise escape it).
    quoted.append(2 * backslashes, '\\');
    quoted += '"';
    return quoted;
}

std::string windowsCommandLine(const std::vector<std::string> &arguments)
{
    std::string line;
    for (const auto &a : arguments) {
        if (!line.empty())
            line += ' ';
        line += quoteWindowsArgument(a);
    }
    return line;
}

bool isRawDevicePath(std::string_view path)
{
    return physicalDriveNumber(path).has_value() || isVolumeDevicePath(path);
}

core::TargetAccess rawDeviceAccess(bool elevated)
{
    if (elevated)
        return {};
    return {core::TargetAccess::Way::Denied,
        "raw drives and volumes need an administrator: restart IOPrism as administrator (the "
        "CLI: from a terminal started with \"Run as administrator\")"};
}

std::string rawDeviceAccessDeniedDetail(bool elevated)
{
    if (!elevated)
        return "raw volumes and drives need administrator rights: open a terminal with \"Run as "
               "administrator\" and run the command again";
    return "IOPrism already runs as administrator, so rights are not the cause: another program "
           "holds the device exclusively, or a policy or security software denies access to it";
}

} // namespace win

namespace {

// The full path of this executable: GetModuleFileNameW truncates silently to the buffer,
// so grow it until the answer fits.
std::wstring thisExecutable()
{
    std::wstring path(MAX_PATH, L'\0');
    for (;;) {
        const DWORD got = ::GetModuleFileNameW(nullptr, path.data(), DWORD(path.size()));
        if (got == 0)
            return {};
        if (got < path.size()) {
            path.resize(got);
            return path;
        }
        path.resize(path.size() * 2);
    }
}

std::wstring currentFolder()
{
    const DWORD need = ::GetCurrentDirectoryW(0, nullptr);
    if (need == 0)
        return {};
    std::wstring folder(need, L'\0');
    const DWORD got = ::GetCurrentDirectoryW(need, folder.data());
    folder.resize(got < need ? got : 0);
    return folder;
}

bool queryElevation()
{
    HANDLE raw = nullptr;
    if (!::OpenProcessToken(::GetCurrentProcess(), TOKEN_QUERY, &raw))
        return false;
    const win::UniqueHandle token(raw);
    TOKEN_ELEVATION elevation {};
    DWORD got = 0;
    return ::GetTokenInformation(token.get(), TokenElevation, &elevation, sizeof elevation, &got)
        && elevation.TokenIsElevated != 0;
}

} // namespace

bool processIsElevated()
{
    // A process token's elevation never changes: ask once (the Targets page asks per row).
    static const bool elevated = queryElevation();
    return elevated;
}

bool needsElevationFor(const core::Target &target)
{
    // The same rule as targetAccess, so the window never offers a restart for a target
    // its Access column calls usable (or missing). A volume or drive kind on a path that
    // names no device is refused by preparation, whatever the rights.
    return targetAccess(target.path, false).way == core::TargetAccess::Way::Denied;
}

core::Status restartElevated(const std::vector<std::string> &arguments)
{
    const std::wstring self = thisExecutable();
    if (self.empty())
        return win::lastError("restart as administrator", {}, "this program's path is unknown");
    const std::wstring parameters = win::widen(win::windowsCommandLine(arguments));
    // An elevated process would otherwise start in System32, where relative paths in the
    // arguments name nothing.
    const std::wstring folder = currentFolder();

    SHELLEXECUTEINFOW info {};
    info.cbSize = sizeof info;
    // NOASYNC: the caller quits right after, which must not cut the start short.
    // FLAG_NO_UI: failures come back as errors for the caller to show, not as message
    // boxes of the shell's (the consent prompt itself is not affected).
    info.fMask = SEE_MASK_NOASYNC | SEE_MASK_FLAG_NO_UI;
    info.lpVerb = L"runas";
    info.lpFile = self.c_str();
    info.lpParameters = parameters.c_str();
    info.lpDirectory = folder.empty() ? nullptr : folder.c_str();
    info.nShow = SW_SHOWNORMAL;
    if (::ShellExecuteExW(&info))
        return core::Ok {};
    const DWORD err = ::GetLastError();
    return win::win32Error(err, "restart as administrator", win::narrow(self),
        err == ERROR_CANCELLED ? "the request for administrator rights was declined" : "");
}

// ---------------------------------------------------------------- target access

core::TargetAccess targetAccess(const std::string &path, bool)
{
    if (!win::isRawDevicePath(path))
        return {}; // files and folders: opening decides, with this user's own rights
    if (processIsElevated())
        return {};
    // A drive that is not there is not a rights question (other checks say so); asking
    // needs no rights (deviceExists opens with no access).
    if (!win::deviceExists(path))
        return {};
    return win::rawDeviceAccess(false);
}

namespace {

// Whether this process's token may create files in `folder` (FILE_ADD_FILE), as the
// folder's own security descriptor says: nothing is created to find out. nullopt when
// the question cannot be asked (no such folder, an unreadable descriptor): opening
// decides then. A standard user may make folders but no files at the root of C:, which
// is what this is for.
std::optional<bool> mayCreateFilesIn(const std::wstring &folder)
{
    constexpr SECURITY_INFORMATION kWhat
        = OWNER_SECURITY_INFORMATION | GROUP_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION;
    DWORD needed = 0;
    ::GetFileSecurityW(folder.c_str(), kWhat, nullptr, 0, &needed);
    if (needed == 0)
        return std::nullopt;
    std::vector<std::byte> descriptor(needed);
    if (!::GetFileSecurityW(folder.c_str(), kWhat, descriptor.data(), needed, &needed))
        return std::nullopt;
    HANDLE rawProcessToken = nullptr;
    if (!::OpenProcessToken(::GetCurrentProcess(), TOKEN_DUPLICATE | TOKEN_QUERY, &rawProcessToken))
        return std::nullopt;
    const win::UniqueHandle processToken(rawProcessToken);
    // AccessCheck takes an impersonation token.
    HANDLE rawToken = nullptr;
    if (!::DuplicateToken(processToken.get(), SecurityImpersonation, &rawToken))
        return std::nullopt;
    const win::UniqueHandle token(rawToken);
    GENERIC_MAPPING mapping {
        FILE_GENERIC_READ, FILE_GENERIC_WRITE, FILE_GENERIC_EXECUTE, FILE_ALL_ACCESS};
    DWORD desired = FILE_ADD_FILE;
    ::MapGenericMask(&desired, &mapping);
    PRIVILEGE_SET privileges {};
    DWORD privilegesBytes = sizeof privileges;
    DWORD granted = 0;
    BOOL allowed = FALSE;
    if (!::AccessCheck(descriptor.data(), token.get(), desired, &mapping, &privileges,
            &privilegesBytes, &granted, &allowed))
        return std::nullopt;
    return allowed != FALSE;
}

} // namespace

std::string accessProblem(const std::string &path, bool write)
{
    const auto access = targetAccess(path, write);
    if (access.way == core::TargetAccess::Way::Denied)
        return access.text;
    // A folder to create files in (the GUI's test-file locations): Windows has no mode
    // bits, but the folder's security descriptor answers without creating anything.
    if (write && !win::isRawDevicePath(path)) {
        const std::wstring folder = win::widen(path);
        const DWORD attributes = ::GetFileAttributesW(folder.c_str());
        const bool isFolder
            = attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY);
        if (const auto may = isFolder ? mayCreateFilesIn(folder) : std::nullopt; may && !*may)
            return "this user may not create files in " + path
                + ": choose a folder of your own (in your user folder, or IOPrism's data "
                  "folder)";
    }
    return {};
}

} // namespace ioprism::platform
