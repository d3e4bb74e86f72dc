// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/windows/sector_size.h"

#include <array>
#include <bit>
#include <winioctl.h>

namespace ioprism::platform::win {

std::string_view toString(SectorSource source)
{
    switch (source) {
    case SectorSource::FileStorageInfo:
        return "FileStorageInfo";
    case SectorSource::StorageAlignment:
        return "IOCTL_STORAGE_QUERY_PROPERTY";
    case SectorSource::DriveGeometry:
        return "IOCTL_DISK_GET_DRIVE_GEOMETRY";
    case SectorSource::DiskFreeSpace:
        return "GetDiskFreeSpaceW";
    case SectorSource::Default:
        break;
    }
    return "default 512 B";
}

namespace {

bool plausible(std::uint32_t bytes)
{
    return bytes >= 512 && bytes <= 65536 && std::has_single_bit(bytes);
}

std::optional<SectorAnswer> fromFileStorageInfo(HANDLE handle)
{
    FILE_STORAGE_INFO info {};
    if (!::GetFileInformationByHandleEx(handle, FileStorageInfo, &info, sizeof info))
        return std::nullopt;
    // The file system's view of atomicity is what unbuffered I/O must respect.
    return SectorAnswer {static_cast<std::uint32_t>(info.LogicalBytesPerSector),
        static_cast<std::uint32_t>(info.PhysicalBytesPerSectorForPerformance)};
}

std::optional<SectorAnswer> fromStorageAlignment(HANDLE device)
{
    if (device == nullptr || device == INVALID_HANDLE_VALUE)
        return std::nullopt;
    STORAGE_PROPERTY_QUERY query {};
    query.PropertyId = StorageAccessAlignmentProperty;
    query.QueryType = PropertyStandardQuery;
    STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR desc {};
    DWORD got = 0;
    if (!::DeviceIoControl(device, IOCTL_STORAGE_QUERY_PROPERTY, &query, sizeof query, &desc,
            sizeof desc, &got, nullptr)
        || got
            < offsetof(STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR, BytesPerPhysicalSector) + sizeof(DWORD))
        return std::nullopt;
    return SectorAnswer {static_cast<std::uint32_t>(desc.BytesPerLogicalSector),
        static_cast<std::uint32_t>(desc.BytesPerPhysicalSector)};
}

std::optional<SectorAnswer> fromDriveGeometry(HANDLE device)
{
    if (device == nullptr || device == INVALID_HANDLE_VALUE)
        return std::nullopt;
    DISK_GEOMETRY geometry {};
    DWORD got = 0;
    if (!::DeviceIoControl(device, IOCTL_DISK_GET_DRIVE_GEOMETRY, nullptr, 0, &geometry,
            sizeof geometry, &got, nullptr))
        return std::nullopt;
    return SectorAnswer {static_cast<std::uint32_t>(geometry.BytesPerSector), 0};
}

std::optional<SectorAnswer> fromDiskFreeSpace(const std::wstring &root)
{
    if (root.empty())
        return std::nullopt;
    DWORD sectorsPerCluster = 0, bytesPerSector = 0, freeClusters = 0, clusters = 0;
    if (!::GetDiskFreeSpaceW(
            root.c_str(), &sectorsPerCluster, &bytesPerSector, &freeClusters, &clusters))
        return std::nullopt;
    return SectorAnswer {static_cast<std::uint32_t>(bytesPerSector), 0};
}

} // namespace

SectorInfo firstSectorAnswer(std::span<const SectorProbe> probes)
{
    for (const auto &probe : probes) {
        if (!probe.query)
            continue;
        const auto answer = probe.query();
        if (!answer || !plausible(answer->logicalBytes))
            continue;
        SectorInfo info;
        info.logicalBytes = answer->logicalBytes;
        info.physicalBytes
            = plausible(answer->physicalBytes) && answer->physicalBytes >= answer->logicalBytes
            ? answer->physicalBytes
            : 0;
        info.source = probe.source;
        return info;
    }
    return {};
}

SectorInfo querySectorSize(HANDLE handle, const std::wstring &path)
{
    const std::string utf8 = narrow(path);
    const bool isDevice = physicalDriveNumber(utf8).has_value() || isVolumeDevicePath(utf8);

    // The handle that answers the device IOCTLs: the device itself, or the volume that
    // holds the file (opened with no access rights: enough for these queries, and
    // allowed without administrator rights).
    UniqueHandle volume;
    std::wstring root;
    HANDLE device = handle;
    if (isDevice) {
        if (isVolumeDevicePath(utf8) && path.size() == 6)
            root = path.substr(4) + L"\\"; // "\\.\C:" -> "C:\"
    } else {
        root = volumeRootOf(path);
        const std::wstring volumePath = volumeDeviceOf(root);
        if (!volumePath.empty())
            volume.reset(::CreateFileW(volumePath.c_str(), 0,
                FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING, 0,
                nullptr));
        device = volume.get();
    }

    const std::array<SectorProbe, 4> probes {{
        {SectorSource::FileStorageInfo,
            [&]() -> std::optional<SectorAnswer> {
                return isDevice ? std::nullopt : fromFileStorageInfo(handle);
            }},
        {SectorSource::StorageAlignment, [&] { return fromStorageAlignment(device); }},
        {SectorSource::DriveGeometry, [&] { return fromDriveGeometry(device); }},
        {SectorSource::DiskFreeSpace, [&] { return fromDiskFreeSpace(root); }},
    }};
    return firstSectorAnswer(probes);
}

} // namespace ioprism::platform::win
