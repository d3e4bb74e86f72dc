// SPDX-License-Identifier: GPL-3.0-or-later
// Disks, partitions and mounted file systems as values every platform fills in the same
// way (platform/linux/block_devices.h from sysfs, platform/windows/windows_devices.h from
// volumes and physical drives), for `list-targets` and the GUI, with no OS header.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ioprism::platform {

// A block device's major:minor number on Linux; 0:0 where the OS has none (Windows).
struct DeviceNumber {
    std::uint32_t major = 0;
    std::uint32_t minor = 0;
    friend bool operator==(const DeviceNumber &, const DeviceNumber &) = default;
};

// A mounted, real file system: somewhere a test file can live.
struct MountInfo {
    std::string mountPoint;
    std::string device; // mount source, e.g. /dev/vda1
    std::string fsType;
    DeviceNumber deviceNumber;
    bool readOnly = false;
    std::uint64_t freeBytes = 0; // available to unprivileged users (statvfs f_bavail)
    std::uint64_t totalBytes = 0;
};

struct PartitionInfo {
    std::string name; // kernel name, e.g. "sda1", "nvme0n1p2", "loop3p1"
    std::string devicePath;
    DeviceNumber deviceNumber;
    std::uint64_t sizeBytes = 0;
    std::uint64_t startBytes = 0;
    std::vector<std::string> holders; // e.g. "dm-0", "md127"
    std::vector<std::string> mountPoints; // where this partition is mounted
};

struct BlockDeviceInfo {
    std::string name; // kernel name, e.g. "sda", "nvme0n1", "loop3", "zram0"
    std::string devicePath; // "/dev/" + name
    DeviceNumber deviceNumber;
    std::string model; // deviceModelOf: "QEMU HARDDISK", "virtio_blk", "loop: /img"
    std::uint64_t sizeBytes = 0;
    bool rotational = false;
    bool removable = false;
    bool readOnly = false;
    std::uint32_t logicalBlockBytes = 512;
    std::uint32_t physicalBlockBytes = 512;
    std::string scheduler; // the active one ("none", "mq-deadline", ...); "" if unknown
    std::uint32_t nrRequests = 0;
    std::string writeCache; // "write back" / "write through"; "" if unknown
    std::vector<PartitionInfo> partitions;
    std::vector<std::string> holders; // of the whole disk
    std::vector<std::string> mountPoints; // of the whole disk (not of its partitions)
};

} // namespace ioprism::platform
