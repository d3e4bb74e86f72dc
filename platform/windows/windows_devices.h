// SPDX-License-Identifier: GPL-3.0-or-later
// Volumes and physical drives as Windows shows them, for `list-targets`, the safety
// checks before a volume or drive is written, the device counters (a volume's disks)
// and the device facts of result files.
//
//  * Volumes: FindFirstVolumeW / FindNextVolumeW, their mount points
//    (GetVolumePathNamesForVolumeNameW), file system and free space, and the disks
//    they lie on (IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS).
//  * Physical drives: \\.\PhysicalDrive0..63 that open, with size
//    (IOCTL_DISK_GET_DRIVE_GEOMETRY_EX), model and bus (IOCTL_STORAGE_QUERY_PROPERTY
//    StorageDeviceProperty), seek penalty (StorageDeviceSeekPenaltyProperty: HDD or
//    SSD), partitions (IOCTL_DISK_GET_DRIVE_LAYOUT_EX) and the volumes on them.
//
// Device queries open with no access rights where that is enough, so listing works
// without administrator rights; what cannot be read stays at its default. Nothing here
// throws.
#pragma once

#include "core/report/environment.h"
#include "platform/common/device_types.h"
#include "platform/windows/win_util.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ioprism::platform::win {

struct DiskExtent {
    std::uint32_t diskNumber = 0;
    std::uint64_t startBytes = 0;
    std::uint64_t lengthBytes = 0;
};

struct VolumeInfo {
    std::wstring guidPath; // "\\?\Volume{...}\"
    std::vector<std::wstring> mountPoints; // "C:\", "D:\mnt\data\"
    std::wstring fileSystem; // "NTFS", "ReFS", "FAT32"; "" when none is mounted (RAW)
    std::wstring label;
    std::uint64_t totalBytes = 0;
    std::uint64_t freeBytes = 0; // available to this user
    bool readOnly = false;
    bool extentsKnown = false; // IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS answered
    std::vector<DiskExtent> extents;
};

// Every volume of the machine (CD drives and volumes without media included).
std::vector<VolumeInfo> enumerateVolumes();

// The file system mounted on a volume, by root ("C:\", "\\?\Volume{..}\"): "NTFS",
// "FAT32"...; "" when it holds none (RAW) or has no media.
std::wstring mountedFileSystem(const std::wstring &volumeRoot);

// The disks a volume lies on, from its device path ("\\.\C:", "\\?\Volume{..}");
// nullopt when Windows does not say (Wine, some virtual volumes).
std::optional<std::vector<DiskExtent>> volumeDiskExtents(const std::wstring &volumeDevicePath);

struct DriveInfo {
    std::uint32_t number = 0;
    std::string model; // vendor and product id, trimmed
    std::string bus; // "NVMe", "SATA", "SAS", "USB", "SCSI", ...
    std::uint64_t sizeBytes = 0;
    std::uint32_t logicalSectorBytes = 512;
    std::uint32_t physicalSectorBytes = 0;
    std::optional<bool> seekPenalty; // true: rotational; nullopt: unknown
    bool removable = false;
    bool readOnly = false;
    bool writeCacheEnabled = false;
    bool writeCacheKnown = false;
};

// What a physical drive says about itself; nullopt when it does not open.
std::optional<DriveInfo> queryDrive(std::uint32_t number);

// Pure helpers, tested on recorded bytes and strings:
// A STORAGE_DEVICE_DESCRIPTOR's vendor/product strings: the ASCII at the offsets,
// trimmed and joined by a space ("ATA" vendors are dropped: they say nothing).
std::string trimmedAscii(std::string_view text);
std::string joinModel(std::string_view vendor, std::string_view product);
// STORAGE_BUS_TYPE value -> name.
std::string busTypeName(int busType);

} // namespace ioprism::platform::win
