// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/block_devices.h"

#include <algorithm>
#include <gtest/gtest.h>

#include "platform_test_util.h"

namespace ioprism::test {
namespace {

using namespace platform;
namespace fs = std::filesystem;

// Recorded from a Debian 12 machine with an NVMe disk, a bind mount, a path with a space,
// a read-only mount and the usual pseudo file systems (optional fields included).
constexpr const char *kMountInfo
    = "22 28 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
      "23 28 0:22 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw\n"
      "28 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro\n"
      "30 28 259:1 / /boot/efi rw,relatime shared:31 - vfat /dev/nvme0n1p1 rw,fmask=0077\n"
      "31 28 0:26 / /run rw,nosuid,nodev,noexec,relatime shared:5 - tmpfs tmpfs rw,size=3275820k\n"
      "45 28 8:17 / /mnt/my\\040data ro,relatime shared:40 - xfs /dev/sdb1 rw,attr2,inode64\n"
      "46 28 259:2 /srv/export /export rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw\n"
      "47 28 0:45 / /var/lib/docker/overlay2/x/merged rw,relatime - overlay overlay rw,lowerdir=a\n"
      "garbage line that is not a mount\n"
      "48 28 0:50 / /home rw,relatime shared:41 - btrfs /dev/sdc rw,space_cache=v2\n";

TEST(MountInfoParser, ParsesFieldsEscapesAndOptionalTags)
{
    const auto mounts = parseMountInfo(kMountInfo);
    ASSERT_EQ(mounts.size(), 9u); // the garbage line is skipped
    EXPECT_EQ(mounts[2].device, (DeviceNumber {259, 2}));
    EXPECT_EQ(mounts[2].mountPoint, "/");
    EXPECT_EQ(mounts[2].fsType, "ext4");
    EXPECT_EQ(mounts[2].source, "/dev/nvme0n1p2");
    EXPECT_FALSE(mounts[2].readOnly);

    EXPECT_EQ(mounts[5].mountPoint, "/mnt/my data");
    EXPECT_EQ(mounts[5].device, (DeviceNumber {8, 17}));
    EXPECT_TRUE(mounts[5].readOnly);
    EXPECT_EQ(mounts[5].fsType, "xfs");

    EXPECT_EQ(mounts[6].root, "/srv/export");
    EXPECT_EQ(mounts[6].mountPoint, "/export");
    EXPECT_EQ(mounts[7].fsType, "overlay");
    EXPECT_EQ(mounts[8].device, (DeviceNumber {0, 50}));
}

TEST(MountInfoParser, EmptyAndTruncatedInputGiveNothing)
{
    EXPECT_TRUE(parseMountInfo("").empty());
    EXPECT_TRUE(parseMountInfo("28 1 259:2 / / rw,relatime shared:1 -").empty());
    EXPECT_TRUE(parseMountInfo("28 1 x:y / / rw - ext4 /dev/a rw").empty());
}

TEST(MountFieldUnescape, DecodesOctalEscapesOnly)
{
    const struct {
        const char *in;
        const char *out;
    } cases[] = {
        {"/mnt/a\\040b", "/mnt/a b"},
        {"tab\\011here", "tab\there"},
        {"back\\134slash", "back\\slash"},
        {"trailing\\04", "trailing\\04"},
        {"not\\8octal", "not\\8octal"},
        {"plain", "plain"},
    };
    for (const auto &c : cases)
        EXPECT_EQ(unescapeMountField(c.in), c.out) << c.in;
}

TEST(SchedulerParser, PicksTheBracketedOne)
{
    const struct {
        const char *in;
        const char *out;
    } cases[] = {
        {"none [mq-deadline] kyber bfq\n", "mq-deadline"}, {"[none] mq-deadline\n", "none"},
        {"none\n", "none"}, {"", ""}, {"noop deadline", ""}, // several, none active: unknown
    };
    for (const auto &c : cases)
        EXPECT_EQ(parseActiveScheduler(c.in), c.out) << c.in;
}

TEST(SwapsParser, ListsDevicePathsWithoutTheHeader)
{
    const char *text = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
                       "/dev/sda2                               partition\t8388604\t\t0\t\t-2\n"
                       "/swap\\040file                            file\t\t1048572\t\t0\t\t-3\n";
    EXPECT_EQ(parseSwaps(text), (std::vector<std::string> {"/dev/sda2", "/swap file"}));
    EXPECT_TRUE(parseSwaps("Filename Type Size Used Priority\n").empty());
}

TEST(DeviceNumberParser, AcceptsOnlyMajorColonMinor)
{
    EXPECT_EQ(parseDeviceNumber("254:16\n"), (DeviceNumber {254, 16}));
    EXPECT_EQ(parseDeviceNumber("7:0"), (DeviceNumber {7, 0}));
    EXPECT_FALSE(parseDeviceNumber("7").has_value());
    EXPECT_FALSE(parseDeviceNumber("a:b").has_value());
    EXPECT_FALSE(parseDeviceNumber("7:1x").has_value());
}

TEST(PseudoFileSystems, AreRecognised)
{
    for (const char *t : {"proc", "sysfs", "cgroup2", "tmpfs", "devtmpfs", "debugfs"})
        EXPECT_TRUE(isPseudoFileSystem(t)) << t;
    for (const char *t : {"ext4", "xfs", "btrfs", "vfat", "nfs4", "overlay", "fuse.sshfs", "zfs"})
        EXPECT_FALSE(isPseudoFileSystem(t)) << t;
}

TEST(LiveMounts, ListTheRootFileSystemAndNoPseudoOnes)
{
    const auto mounts = listMounts();
    const auto root = std::find_if(
        mounts.begin(), mounts.end(), [](const MountInfo &m) { return m.mountPoint == "/"; });
    ASSERT_NE(root, mounts.end());
    EXPECT_GT(root->totalBytes, 0u);
    EXPECT_LE(root->freeBytes, root->totalBytes);
    for (const auto &m : mounts)
        EXPECT_FALSE(isPseudoFileSystem(m.fsType)) << m.mountPoint;
}

TEST(LiveMounts, MountPointOfAPathIsTheLongestMatch)
{
    EXPECT_EQ(mountPointOfPath("/"), "/");
    EXPECT_EQ(mountPointOfPath("/proc/self/status"), "/proc");
    EXPECT_EQ(mountPointOfPath("/procfoo"), "/");
}

TEST(LiveDevices, FileOnTheRootFileSystemMapsToADisk)
{
    const auto name = blockDeviceOfPath("/var/tmp");
    IOPRISM_REQUIRE(name.has_value(), "/var/tmp is not on a block device here");
    const auto disk = wholeDiskOf(*name);
    ASSERT_TRUE(disk.has_value());
    const auto devices = listBlockDevices();
    EXPECT_TRUE(std::any_of(
        devices.begin(), devices.end(), [&](const BlockDeviceInfo &d) { return d.name == *disk; }))
        << *disk << " not listed";
    EXPECT_FALSE(blockDeviceOfPath("/no/such/path").has_value());
}

TEST(LiveDevices, FilesOnTmpfsHaveNoBlockDevice)
{
    IOPRISM_REQUIRE(fs::exists("/dev/shm"), "no /dev/shm");
    EXPECT_FALSE(blockDeviceOfPath("/dev/shm").has_value());
}

class LoopDevices : public ::testing::Test
{
protected:
    void SetUp() override
    {
        IOPRISM_REQUIRE(isRoot(), "loop devices need root");
        IOPRISM_REQUIRE(haveTool("losetup"), "losetup is missing");
        m_image = m_dir.path() / "disk.img";
        makeImage(m_image, 48 << 20);
    }
    TempDir m_dir {realFsDir()};
    fs::path m_image;
};

TEST_F(LoopDevices, ALoopDeviceIsListedWithItsSizeAndBackingFile)
{
    LoopDevice loop(m_image);
    ASSERT_TRUE(loop.ok());
    const auto devices = listBlockDevices();
    const auto it = std::find_if(devices.begin(), devices.end(),
        [&](const BlockDeviceInfo &d) { return d.name == loop.name(); });
    ASSERT_NE(it, devices.end());
    EXPECT_EQ(it->devicePath, loop.path());
    EXPECT_EQ(it->sizeBytes, 48u << 20);
    EXPECT_EQ(it->deviceNumber.major, 7u);
    EXPECT_EQ(it->model, "loop: " + m_image.string());
    EXPECT_FALSE(it->readOnly);
    EXPECT_GE(it->logicalBlockBytes, 512u);
    EXPECT_GE(it->physicalBlockBytes, it->logicalBlockBytes);
    EXPECT_TRUE(it->partitions.empty());
    EXPECT_TRUE(it->mountPoints.empty());
}

TEST_F(LoopDevices, PartitionsAreListedWithSizeStartAndMountPoint)
{
    IOPRISM_REQUIRE(haveTool("mkfs.ext4"), "mkfs.ext4 is missing");
    ASSERT_TRUE(writeMbr(m_image, {{2048, 40960}, {43008, 8192}}));
    LoopDevice loop(m_image, "-P");
    ASSERT_TRUE(loop.ok());
    ASSERT_TRUE(loop.showPartitions(2)) << loop.partition(1) << " did not appear";
    ASSERT_EQ(run("mkfs.ext4 -q -F " + loop.partition(1)), 0);
    ScopedMount mount(loop.partition(1), m_dir.path() / "mnt", "-t ext4");
    ASSERT_TRUE(mount.ok());

    const auto devices = listBlockDevices();
    const auto it = std::find_if(devices.begin(), devices.end(),
        [&](const BlockDeviceInfo &d) { return d.name == loop.name(); });
    ASSERT_NE(it, devices.end());
    ASSERT_EQ(it->partitions.size(), 2u);
    EXPECT_EQ(it->partitions[0].name, loop.name() + "p1");
    EXPECT_EQ(it->partitions[0].sizeBytes, 40960u * 512);
    EXPECT_EQ(it->partitions[0].startBytes, 2048u * 512);
    EXPECT_EQ(it->partitions[0].mountPoints, std::vector<std::string> {mount.dir().string()});
    EXPECT_EQ(it->partitions[1].startBytes, 43008u * 512);
    EXPECT_TRUE(it->partitions[1].mountPoints.empty());
    EXPECT_TRUE(it->mountPoints.empty()); // the whole disk itself is not mounted

    EXPECT_EQ(partitionsOf(loop.name()),
        (std::vector<std::string> {loop.name() + "p1", loop.name() + "p2"}));
    EXPECT_EQ(wholeDiskOf(loop.name() + "p1"), loop.name());
    EXPECT_EQ(blockDeviceOfPath(mount.dir().string()), loop.name() + "p1");
}

TEST_F(LoopDevices, AFileOnAMountedLoopDeviceMapsToThatDevice)
{
    IOPRISM_REQUIRE(haveTool("mkfs.ext4"), "mkfs.ext4 is missing");
    LoopDevice loop(m_image);
    ASSERT_TRUE(loop.ok());
    ASSERT_EQ(run("mkfs.ext4 -q -F " + loop.path()), 0);
    ScopedMount mount(loop.path(), m_dir.path() / "mnt", "-t ext4");
    ASSERT_TRUE(mount.ok());
    const auto file = mount.dir() / "data.bin";
    writeFile(file, 8192);

    EXPECT_EQ(blockDeviceOfPath(file.string()), loop.name());
    EXPECT_EQ(wholeDiskOf(loop.name()), loop.name());
    EXPECT_EQ(blockDeviceOfPath(loop.path()), loop.name()); // a device node names itself
    EXPECT_EQ(mountPointOfPath(file.string()), mount.dir().string());

    const auto mounts = listMounts();
    const auto m = std::find_if(mounts.begin(), mounts.end(),
        [&](const MountInfo &i) { return i.mountPoint == mount.dir().string(); });
    ASSERT_NE(m, mounts.end());
    EXPECT_EQ(m->fsType, "ext4");
    EXPECT_EQ(m->device, loop.path());
    EXPECT_GT(m->freeBytes, 0u);
    EXPECT_LE(m->totalBytes, 48u << 20);

    const auto devices = listBlockDevices();
    const auto d = std::find_if(devices.begin(), devices.end(),
        [&](const BlockDeviceInfo &i) { return i.name == loop.name(); });
    ASSERT_NE(d, devices.end());
    EXPECT_EQ(d->mountPoints, std::vector<std::string> {mount.dir().string()});
}

} // namespace
} // namespace ioprism::test

namespace ioprism::test {
namespace {

// Issue 14, item 4: the Targets page showed "0x1af4" (virtio's PCI vendor id) as the
// model of a virtio disk.
TEST(DeviceModelText, NamesTheDeviceNeverAPciVendorId)
{
    using platform::DeviceModelSources;
    EXPECT_EQ(
        platform::deviceModelText({.name = "vda", .vendor = "0x1af4", .driver = "virtio_blk"}),
        "virtio_blk");
    EXPECT_EQ(platform::deviceModelText({.name = "sda", .model = "QEMU HARDDISK", .vendor = "ATA"}),
        "QEMU HARDDISK");
    EXPECT_EQ(platform::deviceModelText({.name = "sdb", .vendor = "Msft"}), "Msft");
    EXPECT_EQ(platform::deviceModelText({.name = "loop3", .loopBacking = "/img"}), "loop: /img");
    EXPECT_EQ(platform::deviceModelText({.name = "dm-0", .dmName = "vg-root"}), "dm: vg-root");
    EXPECT_EQ(platform::deviceModelText({.name = "zram0"}), "zram");
    EXPECT_EQ(platform::deviceModelText({.name = "vdb", .vendor = "0x1af4"}), "");
}

TEST(DeviceModelText, TheListingAndTheResultsNameADiskAlike)
{
    for (const auto &disk : platform::listBlockDevices()) {
        EXPECT_FALSE(disk.model.starts_with("0x")) << disk.name << ": " << disk.model;
        EXPECT_EQ(disk.model, platform::deviceModelOf(disk.name)) << disk.name;
    }
}

} // namespace
} // namespace ioprism::test
