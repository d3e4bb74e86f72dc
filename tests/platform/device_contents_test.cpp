// SPDX-License-Identifier: GPL-3.0-or-later
// What is on a device, from udev's database records (recorded from Debian 12 hosts: a
// GPT disk, an ext4 partition, an LVM physical volume, a LUKS partition, swap, a blank
// loop device).
#include "platform/linux/device_contents.h"

#include <gtest/gtest.h>

using namespace ioprism::platform;

namespace {

constexpr const char *kGptDisk = "S:disk/by-id/ata-Samsung_SSD_870_EVO_500GB_S62ANJ0R\n"
                                 "W:4\n"
                                 "I:1874203\n"
                                 "E:ID_ATA=1\n"
                                 "E:ID_MODEL=Samsung_SSD_870_EVO_500GB\n"
                                 "E:ID_PART_TABLE_UUID=8d6c9a2e-5a3f-4f7e-9c1d-2b1f0a3e4c5d\n"
                                 "E:ID_PART_TABLE_TYPE=gpt\n"
                                 "G:systemd\n";

constexpr const char *kExt4Partition = "S:disk/by-label/My\\x20data\n"
                                       "E:ID_FS_LABEL=My_data\n"
                                       "E:ID_FS_LABEL_ENC=My\\x20data\n"
                                       "E:ID_FS_UUID=0f3e1c2a-7b6d-4e5f-8a9b-1c2d3e4f5a6b\n"
                                       "E:ID_FS_VERSION=1.0\n"
                                       "E:ID_FS_TYPE=ext4\n"
                                       "E:ID_FS_USAGE=filesystem\n"
                                       "E:ID_PART_TABLE_TYPE=gpt\n"
                                       "E:ID_PART_ENTRY_SCHEME=gpt\n"
                                       "E:ID_PART_ENTRY_NUMBER=1\n";

constexpr const char *kLvmMember = "E:ID_FS_UUID=Xn3c2V-aaaa-bbbb-cccc-dddd-eeee-ffffff\n"
                                   "E:ID_FS_VERSION=LVM2 001\n"
                                   "E:ID_FS_TYPE=LVM2_member\n"
                                   "E:ID_FS_USAGE=raid\n"
                                   "E:ID_PART_ENTRY_SCHEME=dos\n"
                                   "E:ID_PART_TABLE_TYPE=dos\n";

constexpr const char *kLuks = "E:ID_FS_TYPE=crypto_LUKS\n"
                              "E:ID_FS_USAGE=crypto\n"
                              "E:ID_FS_VERSION=2\n"
                              "E:ID_PART_ENTRY_SCHEME=gpt\n";

constexpr const char *kSwap = "E:ID_FS_TYPE=swap\n"
                              "E:ID_FS_USAGE=other\n"
                              "E:ID_FS_VERSION=1\n";

constexpr const char *kBlankLoop = "I:2195014\n"
                                   "E:SYSTEMD_READY=0\n"
                                   "G:systemd\n"
                                   "Q:systemd\n"
                                   "V:1\n";

} // namespace

TEST(DeviceContents, RecordsAreParsedIntoTheirProperties)
{
    const DeviceContents ext4 = parseUdevContents(kExt4Partition);
    EXPECT_EQ(ext4.fsType, "ext4");
    EXPECT_EQ(ext4.fsUsage, "filesystem");
    EXPECT_EQ(ext4.fsLabel, "My data") << "the encoded label, decoded, not My_data";
    EXPECT_EQ(ext4.partTableType, "gpt");
    EXPECT_TRUE(ext4.isPartition);

    const DeviceContents disk = parseUdevContents(kGptDisk);
    EXPECT_EQ(disk.partTableType, "gpt");
    EXPECT_FALSE(disk.isPartition);
    EXPECT_EQ(disk.fsType, "");

    EXPECT_EQ(parseUdevContents(kBlankLoop), DeviceContents {});
    EXPECT_EQ(parseUdevContents(""), DeviceContents {});
    // A plain label is used when udev wrote no encoded one.
    EXPECT_EQ(parseUdevContents("E:ID_FS_TYPE=vfat\nE:ID_FS_LABEL=BOOT").fsLabel, "BOOT");
}

TEST(DeviceContents, EachKindIsSaidAsAPersonWouldSayIt)
{
    struct Case {
        const char *record;
        const char *text;
    };
    const Case cases[] = {
        {kGptDisk, "GPT partition table"},
        {kExt4Partition, "ext4 file system \u201CMy data\u201D"},
        {kLvmMember, "LVM2 member"},
        {kLuks, "LUKS encrypted volume"},
        {kSwap, "swap space"},
        {kBlankLoop, ""},
        {"E:ID_PART_TABLE_TYPE=dos\n", "MBR partition table"},
        {"E:ID_FS_TYPE=linux_raid_member\nE:ID_FS_USAGE=raid\nE:ID_FS_LABEL=host:0\n",
            "Linux RAID member \u201Chost:0\u201D"},
        {"E:ID_FS_TYPE=zfs_member\nE:ID_FS_USAGE=filesystem\n", "ZFS member"},
        {"E:ID_FS_TYPE=xfs\nE:ID_FS_USAGE=filesystem\nE:ID_PART_TABLE_TYPE=gpt\n",
            "xfs file system, GPT partition table"},
    };
    for (const auto &c : cases)
        EXPECT_EQ(deviceContentsText(parseUdevContents(c.record)), c.text) << c.record;
}

TEST(DeviceContents, UdevEscapesAreDecodedAndMalformedOnesKept)
{
    EXPECT_EQ(decodeUdevEscapes("a\\x20b"), "a b");
    EXPECT_EQ(decodeUdevEscapes("\\x2fdata\\x2F"), "/data/");
    EXPECT_EQ(decodeUdevEscapes("50\\x25"), "50%");
    EXPECT_EQ(decodeUdevEscapes("bad\\xZZ"), "bad\\xZZ");
    EXPECT_EQ(decodeUdevEscapes("short\\x2"), "short\\x2");
    EXPECT_EQ(decodeUdevEscapes("end\\"), "end\\");
}

TEST(DeviceContents, ADeviceUdevDoesNotKnowIsNothing)
{
    // No block device has the number 0:0; no record is read for it.
    EXPECT_EQ(deviceContentsOf({}), "");
    // A number no device has (the highest minor of major 0): no record, "".
    EXPECT_EQ(deviceContentsOf({0, 1048575}), "");
}
