// SPDX-License-Identifier: GPL-3.0-or-later
// Volumes and physical drives on Windows: written only with the user's confirmation and
// never while a file system is mounted on them (windows_backend.h lists the rules).
#include "core/profile/units.h"
#include "platform/common/elevation.h"
#include "platform/windows/elevation.h"
#include "platform/windows/held_targets.h"
#include "platform/windows/sector_size.h"
#include "platform/windows/windows_backend.h"
#include "platform/windows/windows_devices.h"
#include "platform/windows/windows_preparation.h"

#include <algorithm>
#include <winioctl.h>

namespace ioprism::platform {

using win::UniqueHandle;
using win::win32Error;

namespace {

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

// A volume: refused while a file system is mounted on it.
std::optional<core::OpError> volumeInUseRefusal(const std::string &path, const std::wstring &w)
{
    const std::wstring root = w.size() == 6 ? w.substr(4) + L"\\" : w + L"\\";
    const std::wstring fs = win::mountedFileSystem(root);
    if (!fs.empty())
        return win32Error(ERROR_BUSY, "open device for writing", path,
            "it holds a mounted " + win::narrow(fs)
                + " file system: writing would destroy it; take the volume offline first "
                  "(diskpart: select volume, offline volume) or choose an unmounted volume");
    return std::nullopt;
}

std::optional<core::OpError> driveInUseRefusal(const std::string &path, std::uint32_t driveNumber)
{
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
                [&](const win::DiskExtent &e) { return e.diskNumber == driveNumber; })
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
    return std::nullopt;
}

} // namespace

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
        // Nothing has been read or written yet: the refusal says what to do from here.
        return win32Error(err, "open device", path,
            err == ERROR_ACCESS_DENIED ? win::rawDeviceAccessDeniedDetail(processIsElevated())
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

    if (auto refusal
        = driveNumber ? driveInUseRefusal(path, *driveNumber) : volumeInUseRefusal(path, w))
        return *refusal;
    return hold(info);
}

} // namespace ioprism::platform
