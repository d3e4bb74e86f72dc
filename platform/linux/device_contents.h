// SPDX-License-Identifier: GPL-3.0-or-later
// What is on a block device, as udev's database records it (/run/udev/data/b<maj>:<min>,
// readable by every user): "ext4 file system “data”", "GPT partition table", "LVM2
// member". The raw-write confirmation names it, so that the user sees what would be
// destroyed, not only a device name; the probing was done by udev (blkid) as root, so
// reading it needs no right to open the device.
//
// The parser is pure (text in, struct out) and tested on recorded text; the live reader
// never fails: a device udev has no record of (no udev in a container) is "".
// Windows has its own definition of deviceContentsOf (platform/windows/device_contents.cpp).
#pragma once

#include "platform/common/device_types.h"

#include <string>
#include <string_view>

namespace ioprism::platform {

// The udev properties that say what a device holds.
struct DeviceContents {
    std::string fsType; // E:ID_FS_TYPE: "ext4", "LVM2_member", "crypto_LUKS", "swap"
    std::string fsUsage; // E:ID_FS_USAGE: "filesystem", "raid", "crypto", "other"
    std::string fsLabel; // E:ID_FS_LABEL_ENC decoded (\x20 -> ' '), else E:ID_FS_LABEL
    std::string partTableType; // E:ID_PART_TABLE_TYPE: "gpt", "dos"
    // E:ID_PART_ENTRY_SCHEME is set: the device is a partition, and ID_PART_TABLE_TYPE
    // is its disk's table, not something on the partition itself.
    bool isPartition = false;
    friend bool operator==(const DeviceContents &, const DeviceContents &) = default;
};

// Parses one udev database record (lines "E:KEY=VALUE"; other lines are skipped).
DeviceContents parseUdevContents(std::string_view record);

// Undoes udev's \xNN escapes (ID_FS_LABEL_ENC); malformed escapes are kept as they are.
std::string decodeUdevEscapes(std::string_view text);

// One short English phrase: "ext4 file system “data”", "GPT partition table", "LVM2
// member", "LUKS encrypted volume", "swap space"; "" when nothing is recognised.
std::string deviceContentsText(const DeviceContents &contents);

// deviceContentsText of a block device of this machine by its number ("" when udev has
// no record of it, or the record says nothing).
std::string deviceContentsOf(DeviceNumber device);

} // namespace ioprism::platform
