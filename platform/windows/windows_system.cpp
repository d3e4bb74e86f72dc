// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/windows/windows_system.h"

#include "platform/common/system.h"
#include "platform/windows/win_util.h"

namespace ioprism::platform {

namespace {

using RtlGetVersionFn = LONG(WINAPI *)(OSVERSIONINFOEXW *);

std::string registryString(HKEY root, const wchar_t *key, const wchar_t *value)
{
    wchar_t buffer[256] = {};
    DWORD bytes = sizeof buffer - sizeof(wchar_t);
    if (::RegGetValueW(root, key, value, RRF_RT_REG_SZ, nullptr, buffer, &bytes) != ERROR_SUCCESS)
        return {};
    return win::narrow(buffer);
}

} // namespace

std::string windowsName(std::uint32_t major, std::uint32_t minor, std::uint32_t build, bool server)
{
    std::string name;
    if (major == 10 && minor == 0) {
        if (server)
            name = build >= 26100 ? "Windows Server 2025"
                : build >= 20348  ? "Windows Server 2022"
                : build >= 17763  ? "Windows Server 2019"
                                  : "Windows Server 2016";
        else
            name = build >= 22000 ? "Windows 11" : "Windows 10";
    } else if (major == 6 && minor == 3) {
        name = server ? "Windows Server 2012 R2" : "Windows 8.1";
    } else if (major == 6 && minor == 2) {
        name = server ? "Windows Server 2012" : "Windows 8";
    } else if (major == 6 && minor == 1) {
        name = server ? "Windows Server 2008 R2" : "Windows 7";
    } else {
        name = "Windows NT " + std::to_string(major) + "." + std::to_string(minor);
    }
    return name + " (build " + std::to_string(build) + ")";
}

core::Environment describeWindowsEnvironment()
{
    core::Environment env;
    wchar_t host[256] = {};
    DWORD size = 255;
    if (::GetComputerNameExW(ComputerNameDnsHostname, host, &size))
        env.hostName = win::narrow(host);

    OSVERSIONINFOEXW v {};
    v.dwOSVersionInfoSize = sizeof v;
    const HMODULE ntdll = ::GetModuleHandleW(L"ntdll.dll");
    const auto rtlGetVersion = ntdll ? reinterpret_cast<RtlGetVersionFn>(reinterpret_cast<void *>(
                                   ::GetProcAddress(ntdll, "RtlGetVersion")))
                                     : nullptr;
    if (rtlGetVersion && rtlGetVersion(&v) == 0) {
        env.osName = windowsName(v.dwMajorVersion, v.dwMinorVersion, v.dwBuildNumber,
            v.wProductType != VER_NT_WORKSTATION);
        env.kernel = "NT " + std::to_string(v.dwMajorVersion) + "."
            + std::to_string(v.dwMinorVersion) + "." + std::to_string(v.dwBuildNumber);
    }
    if (ntdll)
        if (auto wineVersion = reinterpret_cast<const char *(*)()>(
                reinterpret_cast<void *>(::GetProcAddress(ntdll, "wine_get_version"))))
            env.osName
                += (env.osName.empty() ? "" : " ") + std::string("under Wine ") + wineVersion();

    env.cpuModel = registryString(HKEY_LOCAL_MACHINE,
        L"HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0", L"ProcessorNameString");
    env.cpuCount = static_cast<std::uint32_t>(::GetActiveProcessorCount(ALL_PROCESSOR_GROUPS));
    return env;
}

void nameCurrentThread(const char * /*name*/)
{
    // Nothing reads a thread's name here: the latency verdict's thread facts are Linux's.
}

std::uint64_t currentProcessId()
{
    return GetCurrentProcessId();
}

bool fileReadableByOthers(const std::string & /*path*/)
{
    return false;
}

} // namespace ioprism::platform
