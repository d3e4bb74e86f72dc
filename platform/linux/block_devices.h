// SPDX-License-Identifier: GPL-3.0-or-later
// Block devices and mounts as Linux shows them in /sys/block, /sys/dev/block,
// /proc/self/mountinfo and /proc/swaps.
//
// Used by `list-targets`, by the safety checks before a raw device is written, and by
// the device counters (a file lives on st_dev: /sys/dev/block/MAJ:MIN names the
// partition, its parent disk and, for dm/md, the slaves whose counters matter).
//
// The parsers are pure (text in, structs out) so they are tested on recorded text; the
// list functions read the live system and never fail: an unreadable attribute is left
// at its default.
#pragma once

#include "platform/common/device_types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct stat;

namespace ioprism::platform {

// One line of /proc/self/mountinfo.
struct MountEntry {
    DeviceNumber device; // field 3 (0:N for anonymous devices: tmpfs, btrfs, overlay)
    std::string root; // field 4: the part of the file system mounted here
    std::string mountPoint; // field 5, unescaped (\040 -> space)
    std::string fsType; // after the " - " separator
    std::string source; // e.g. /dev/vda1, "tmpfs"
    bool readOnly = false; // mount option "ro"
    friend bool operator==(const MountEntry &, const MountEntry &) = default;
};

// ---------------------------------------------------------------- pure parsers

// Parses /proc/self/mountinfo. Malformed lines are skipped.
std::vector<MountEntry> parseMountInfo(std::string_view text);

// Undoes the octal escapes the kernel uses in mountinfo and swaps (\040 \011 \012 \134).
std::string unescapeMountField(std::string_view field);

// "none [mq-deadline] kyber" -> "mq-deadline"; a single word without brackets is
// returned as is; "" when there is nothing.
std::string parseActiveScheduler(std::string_view text);

// The device paths in /proc/swaps (first column, header skipped).
std::vector<std::string> parseSwaps(std::string_view text);

// "254:16\n" -> {254, 16}.
std::optional<DeviceNumber> parseDeviceNumber(std::string_view text);

// True for proc, sysfs, cgroup and the other pseudo file systems, for memory file
// systems (tmpfs, ramfs, devtmpfs) that are no storage device, and for squashfs (the
// read-only images snaps mount by the dozen). Overlay, FUSE and network file systems
// are real: test files can live there.
bool isPseudoFileSystem(std::string_view fsType);

// What sysfs says about the hardware behind a whole disk, for a name a person knows.
struct DeviceModelSources {
    std::string name; // kernel name: "vda", "zram0"
    std::string model; // device/model (SCSI, ATA, NVMe)
    std::string vendor; // device/vendor: a SCSI vendor name, or a PCI id ("0x1af4")
    std::string loopBacking; // loop/backing_file
    std::string dmName; // dm/name
    std::string driver; // the name device/driver links to ("virtio_blk", "xen_blkfront")
};

// The model a person would recognise: device/model; else a SCSI vendor name (never a
// PCI vendor id: "0x1af4" says nothing); else what the device is ("loop: /img",
// "dm: vg-root", "zram"); else its driver ("virtio_blk"). "" when nothing is known.
std::string deviceModelText(const DeviceModelSources &sources);

// ---------------------------------------------------------------- live system

// deviceModelText for a whole disk (kernel name) of this machine.
std::string deviceModelOf(const std::string &disk);

// Every disk in /sys/block with a size (unattached loop devices and unconfigured zram,
// size 0, are left out: there is nothing to test on them).
std::vector<BlockDeviceInfo> listBlockDevices();
std::vector<MountInfo> listMounts();
std::vector<MountEntry> readMountTable(); // /proc/self/mountinfo, parsed

// The kernel name of the block device that carries `path`: the one path-to-device
// mapping of the Linux backend, so that the device counters, the device described in
// results and the io_poll check name the same device.
//   * A block device node names itself (/dev/loop3 -> "loop3", /dev/vda1 -> "vda1").
//   * A file or directory: the device of its file system, from st_dev through
//     /sys/dev/block/MAJ:MIN (a partition, a dm device such as an LVM volume, a loop
//     device). Where st_dev is anonymous (btrfs gives each subvolume a number of its
//     own), the source of the visible mount holding it, when that source is a block
//     device (/dev/...).
//   * A path that does not exist yet (a test file the run will create): its directory,
//     the same way. The run creates no directories, so a path whose directory is missing
//     is carried by nothing.
// nullopt when no block device carries it: memory, network, FUSE and overlay file
// systems, a missing directory.
std::optional<std::string> blockDeviceCarrying(const std::string &path);

// The block device named by st_dev alone (st_rdev for a device node), without the mount
// table or the missing-file rule of blockDeviceCarrying: nullopt for files on anonymous
// devices (tmpfs, btrfs, overlay) or when the path does not exist.
std::optional<std::string> blockDeviceOfPath(const std::string &path);

// The whole disk a kernel block name belongs to ("vda1" -> "vda", "vda" -> "vda").
std::optional<std::string> wholeDiskOf(const std::string &name);

// Kernel name of a block device number, e.g. {7, 3} -> "loop3".
std::optional<std::string> blockNameOf(DeviceNumber device);

// The mount point whose file system holds `path` (the longest matching mount point of
// its canonical path); "" if none matches.
std::string mountPointOfPath(const std::string &path);

// Entries of /sys/class/block/<name>/holders and .../slaves ("" on error).
std::vector<std::string> holdersOf(const std::string &name);
std::vector<std::string> slavesOf(const std::string &name);

// Kernel names of the partitions of a whole disk (empty for a partition or no table).
std::vector<std::string> partitionsOf(const std::string &name);

// The device paths currently used as swap (/proc/swaps).
std::vector<std::string> activeSwaps();

// What a loop device's I/O goes to (LOOP_GET_STATUS64 and /sys/block/loopN/loop).
struct LoopBacking {
    std::string file; // the backing file's path as the kernel shows it
    DeviceNumber fileDevice; // st_dev of the backing file
    std::uint64_t inode = 0; // st_ino of the backing file
    DeviceNumber blockDevice; // st_rdev when the backing is a block device, else 0:0
    bool sameStorage(const LoopBacking &other) const;
};
// nullopt when `name` is not an attached loop device.
std::optional<LoopBacking> loopBackingOf(const std::string &name);
// The attached loop device whose backing is the file with this device and inode (its
// identity, not its name, which a rename or a second link changes), or nullopt.
std::optional<std::string> loopDeviceBackedBy(DeviceNumber fileDevice, std::uint64_t inode);

// A block device whose storage overlaps that of the device being checked, and how.
struct StorageAlias {
    enum class Kind {
        Itself,
        Partition, // a partition of a device already in the set
        WholeDisk, // the whole disk of a partition in the set
        Holder, // device-mapper, md or bcache built on a device in the set
        SameBacking, // a loop device over the same backing file or device
        LoopOver, // a loop device whose backing is a device in the set
        Backing, // the block device behind a loop device in the set
    };
    std::string name; // kernel name, e.g. "loop4", "sda", "dm-0"
    Kind kind = Kind::Itself;
    std::string relation; // e.g. "loop4 has the same backing file /img as loop5"; "" for itself
    // False for the whole disk of a partition: the kernel refuses an exclusive open of a
    // disk while any of its partitions is claimed, so that test would blame a sibling.
    bool exclusiveOpenTells() const { return kind != Kind::WholeDisk; }
};

// Every block device through which the storage of `name` can also be reached, starting
// with `name` itself: its partitions (or, for a partition, its whole disk), what holds
// any of them (device-mapper, md, bcache), loop devices over the same backing file or
// over one of these devices, and the block device behind a loop device. Writing `name`
// writes all of them, so each is checked for mounts, swap, holders and claims.
std::vector<StorageAlias> storageAliasesOf(const std::string &name);

// Why this user may not open a device node (`st`), and what would help, from what the
// node says: the group that may read it and this user's name, or that only its owner may.
// `write`: the advice is for opening it to write (the group must have that right too).
std::string deviceAccessAdvice(const struct stat &st, bool write);

} // namespace ioprism::platform
