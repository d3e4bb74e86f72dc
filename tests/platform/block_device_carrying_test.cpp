// SPDX-License-Identifier: GPL-3.0-or-later
// One path-to-device mapping on Linux: for every storage stack, the mapping itself
// (blockDeviceCarrying), the device counters (resolveTargetDevices), the device in the
// results (describeDevice) and the io_poll check (pollQueuesOf) name the same device.
// Needs root for loop devices and mounts and skips with a reason otherwise; every loop
// device, mount and volume group is released by a destructor.
#include "platform/linux/block_devices.h"
#include "platform/linux/disk_counter_source.h"
#include "platform/linux/sysfs.h"
#include "platform/linux/system_info.h"
#include "platform/linux/uring_engine.h"

#include <algorithm>
#include <gtest/gtest.h>

#include "platform_test_util.h"

namespace ioprism::test {
namespace {

using namespace platform;
namespace fs = std::filesystem;

// `device` carries `path` for every part of the backend, and the io_poll check reads the
// queue of `disk`.
void expectCarriedBy(const std::string &path, const std::string &device, const std::string &disk)
{
    SCOPED_TRACE(path);
    EXPECT_EQ(blockDeviceCarrying(path), device);
    const core::DeviceMap map = resolveTargetDevices({path});
    ASSERT_EQ(map.targets.size(), 1u);
    ASSERT_TRUE(map.targets[0].device) << map.targets[0].note;
    EXPECT_EQ(map.devices[*map.targets[0].device].name, device);
    EXPECT_EQ(describeDevice(path).name, device);
    EXPECT_EQ(pollQueuesOf(path).disk, disk);
}

// No block device carries `path`, for any part of the backend.
void expectCarriedByNothing(const std::string &path)
{
    SCOPED_TRACE(path);
    EXPECT_EQ(blockDeviceCarrying(path), std::nullopt);
    const core::DeviceMap map = resolveTargetDevices({path});
    ASSERT_EQ(map.targets.size(), 1u);
    EXPECT_FALSE(map.targets[0].device);
    EXPECT_TRUE(map.devices.empty());
    EXPECT_EQ(describeDevice(path).name, "");
    EXPECT_EQ(pollQueuesOf(path).disk, "");
    EXPECT_FALSE(pollQueuesOf(path).available);
}

// The name of the device the counters list beneath a loop target as its backing.
std::string backingInMap(const std::string &loopPath)
{
    const core::DeviceMap map = resolveTargetDevices({loopPath});
    const auto it = std::find_if(map.devices.begin(), map.devices.end(),
        [](const core::WatchedDevice &d) { return d.role == core::DeviceRole::Backing; });
    return it == map.devices.end() ? std::string() : it->name;
}

class BlockDeviceCarrying : public ::testing::Test
{
protected:
    void SetUp() override
    {
        IOPRISM_REQUIRE(isRoot(), "loop devices and mounts need root");
        IOPRISM_REQUIRE(haveTool("losetup"), "losetup is missing");
        IOPRISM_REQUIRE(haveTool("mkfs.ext4"), "mkfs.ext4 is missing");
        m_image = m_dir.path() / "disk.img";
        makeImage(m_image, 64 << 20);
    }
    TempDir m_dir {realFsDir()};
    fs::path m_image;
};

TEST_F(BlockDeviceCarrying, ALoopDeviceIsItselfAndItsBackingIsTheImagesDevice)
{
    const auto host = blockDeviceCarrying(m_image.string());
    IOPRISM_REQUIRE(host.has_value(), realFsDir().string() + " is not on a block device");
    LoopDevice loop(m_image);
    ASSERT_TRUE(loop.ok());
    expectCarriedBy(loop.path(), loop.name(), loop.name());
    EXPECT_EQ(backingInMap(loop.path()), *host);

    // A deleted backing file is still found by the kernel's device number.
    fs::remove(m_image);
    EXPECT_EQ(backingInMap(loop.path()), *host);
}

TEST_F(BlockDeviceCarrying, APartitionOfALoopDeviceIsThePartitionOnTheLoopsQueue)
{
    ASSERT_TRUE(writeMbr(m_image, {{2048, 40960}, {43008, 8192}}));
    LoopDevice loop(m_image, "-P");
    ASSERT_TRUE(loop.ok());
    IOPRISM_REQUIRE(loop.showPartitions(2), "the kernel did not show the loop device's partitions");
    ASSERT_EQ(run("mkfs.ext4 -q -F " + loop.partition(1)), 0);
    ScopedMount mount(loop.partition(1), m_dir.path() / "mnt", "-t ext4");
    ASSERT_TRUE(mount.ok());
    const fs::path file = mount.dir() / "data.bin";
    writeFile(file, 1 << 20);
    const std::string p1 = loop.name() + "p1";

    expectCarriedBy(file.string(), p1, loop.name());
    expectCarriedBy(mount.dir().string(), p1, loop.name());
    expectCarriedBy(loop.partition(1), p1, loop.name());
    expectCarriedBy(loop.partition(2), loop.name() + "p2", loop.name());
    expectCarriedBy(loop.path(), loop.name(), loop.name());
}

TEST_F(BlockDeviceCarrying, AFileOnExt4OnALoopDeviceIsTheLoopDevice)
{
    LoopDevice loop(m_image);
    ASSERT_TRUE(loop.ok());
    ASSERT_EQ(run("mkfs.ext4 -q -F " + loop.path()), 0);
    ScopedMount mount(loop.path(), m_dir.path() / "mnt", "-t ext4");
    ASSERT_TRUE(mount.ok());
    const fs::path file = mount.dir() / "data.bin";
    writeFile(file, 1 << 20);
    fs::create_directories(mount.dir() / "sub" / "dir");

    expectCarriedBy(file.string(), loop.name(), loop.name());
    expectCarriedBy((mount.dir() / "sub" / "dir").string(), loop.name(), loop.name());
    // The image lives on another device: the loop device's stack has it as the backing.
    EXPECT_EQ(backingInMap(file.string()), blockDeviceCarrying(m_image.string()));
}

TEST_F(BlockDeviceCarrying, AFileNotCreatedYetIsCarriedByItsDirectorysDevice)
{
    LoopDevice loop(m_image);
    ASSERT_TRUE(loop.ok());
    ASSERT_EQ(run("mkfs.ext4 -q -F " + loop.path()), 0);
    ScopedMount mount(loop.path(), m_dir.path() / "mnt", "-t ext4");
    ASSERT_TRUE(mount.ok());

    expectCarriedBy((mount.dir() / "later.dat").string(), loop.name(), loop.name());
    // The run creates files, not directories: in a missing directory nothing carries it
    // (rather than whatever device holds the nearest directory that exists).
    expectCarriedByNothing((mount.dir() / "no-such-dir" / "later.dat").string());
}

TEST_F(BlockDeviceCarrying, AMemoryFileSystemMountedOverAnotherHidesIt)
{
    LoopDevice loop(m_image);
    ASSERT_TRUE(loop.ok());
    ASSERT_EQ(run("mkfs.ext4 -q -F " + loop.path()), 0);
    ScopedMount ext4(loop.path(), m_dir.path() / "mnt", "-t ext4");
    ASSERT_TRUE(ext4.ok());
    ScopedMount tmpfs("tmpfs", ext4.dir(), "-t tmpfs -o size=4M");
    ASSERT_TRUE(tmpfs.ok());
    writeFile(tmpfs.dir() / "f", 4096);

    // The visible mount is the last one on the mount point, not the ext4 beneath it.
    expectCarriedByNothing((tmpfs.dir() / "f").string());
    expectCarriedByNothing((tmpfs.dir() / "later.dat").string());
}

TEST_F(BlockDeviceCarrying, AFileOnBtrfsIsTheMountsSourceDevice)
{
    IOPRISM_REQUIRE(haveTool("mkfs.btrfs") && haveTool("btrfs"), "btrfs-progs is missing");
    IOPRISM_REQUIRE(readTextFile("/proc/filesystems").find("\tbtrfs\n") != std::string::npos,
        "the kernel has no btrfs");
    makeImage(m_image, 256 << 20); // above mkfs.btrfs's minimum
    LoopDevice loop(m_image);
    ASSERT_TRUE(loop.ok());
    ASSERT_EQ(run("mkfs.btrfs -q -f " + loop.path()), 0);
    ScopedMount mount(loop.path(), m_dir.path() / "mnt", "-t btrfs");
    ASSERT_TRUE(mount.ok());
    const fs::path file = mount.dir() / "data.bin";
    writeFile(file, 1 << 20);
    ASSERT_EQ(run("btrfs subvolume create '" + (mount.dir() / "sub").string() + "'"), 0);
    writeFile(mount.dir() / "sub" / "data.bin", 1 << 20);
    // The subvolume mounted on its own: its mount table entry shows /sub as the root.
    ScopedMount subvolume(loop.path(), m_dir.path() / "subvol", "-t btrfs -o subvol=sub");
    ASSERT_TRUE(subvolume.ok());

    // st_dev is anonymous on btrfs (one number per subvolume): the premise of the test.
    ASSERT_EQ(blockDeviceOfPath(file.string()), std::nullopt);
    expectCarriedBy(file.string(), loop.name(), loop.name());
    expectCarriedBy((mount.dir() / "later.dat").string(), loop.name(), loop.name());
    expectCarriedBy((mount.dir() / "sub" / "data.bin").string(), loop.name(), loop.name());
    expectCarriedBy((subvolume.dir() / "data.bin").string(), loop.name(), loop.name());

    // A loop device over an image on btrfs: its backing file's device number is
    // anonymous too, and its backing is the device carrying the btrfs.
    const fs::path inner = mount.dir() / "inner.img";
    makeImage(inner, 16 << 20);
    LoopDevice innerLoop(inner);
    ASSERT_TRUE(innerLoop.ok());
    expectCarriedBy(innerLoop.path(), innerLoop.name(), innerLoop.name());
    EXPECT_EQ(backingInMap(innerLoop.path()), loop.name());
}

// LVM is not tested here: the kernels of this project's machines have no device-mapper
// (no module loading), so such a test could only ever skip. A logical volume is a dm-N
// device found through st_dev exactly like a partition (the ext4 cases above), and its
// physical volumes are found through its slaves/ directory (MapBuilder::addStack).

} // namespace
} // namespace ioprism::test
