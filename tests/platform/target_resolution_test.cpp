// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 14, item 2(c): an .icf from Windows names its test-file volumes `C: "System"`;
// on Linux that was taken for a file of that literal name in the current folder and
// accepted, unmarked.
#include "core/workload/file_tree.h"
#include "platform/common/target_resolution.h"
#include "platform/linux/block_devices.h"

#include <fstream>
#include <gtest/gtest.h>

#include "platform_test_util.h"

namespace ioprism::test {
namespace {

core::Target testFile(std::string path)
{
    core::Target t;
    t.kind = core::TargetKind::TestFile;
    t.path = std::move(path);
    return t;
}

TEST(TargetResolution, WindowsVolumeNamesAreForeignHere)
{
    EXPECT_FALSE(platform::targetExists(testFile("C: \"System\"")));
    EXPECT_FALSE(platform::targetExists(testFile("D:")));
    EXPECT_FALSE(platform::targetExists(testFile("C:Data")));
    EXPECT_FALSE(platform::targetExists(testFile("\\\\server\\share")));
}

// Linux names are case sensitive and have one separator: only the same bytes are the
// same target (the Windows rules are in windows_backend_test.cpp).
TEST(TargetResolution, LinuxPathsAreTheSameTargetOnlyByteForByte)
{
    EXPECT_TRUE(platform::sameTargetPath("/dev/sdb", "/dev/sdb"));
    EXPECT_FALSE(platform::sameTargetPath("/dev/sdb", "/dev/SDB"));
    EXPECT_FALSE(platform::sameTargetPath("/data/Test.dat", "/data/test.dat"));
    EXPECT_FALSE(platform::sameTargetPath(R"(C:\x.dat)", "C:/x.dat"))
        << "a backslash is a character of a Linux name";
}

TEST(TargetResolution, TestFilesResolveWhereTheirFolderExists)
{
    TempDir dir;
    EXPECT_TRUE(platform::targetExists(testFile((dir.path() / "iobw.tst").string())));
    EXPECT_FALSE(platform::targetExists(testFile((dir.path() / "missing" / "iobw.tst").string())));
    EXPECT_TRUE(platform::targetExists(testFile("relative-file.tst")));
}

// `/mnt/data [ext4]` is Iometer's name for the file system mounted at /mnt/data. It is
// here only when that folder is a mount point of that type: an empty folder whose file
// system is not mounted would put the test file on its parent's.
TEST(TargetResolution, AnIometerVolumeIsHereOnlyAsAMountOfItsFileSystem)
{
    std::string rootType;
    for (const auto &m : platform::readMountTable())
        if (m.mountPoint == "/")
            rootType = m.fsType;
    ASSERT_FALSE(rootType.empty()) << "no mount at / in /proc/self/mountinfo";
    const auto volume = [](const std::string &name) {
        auto v = core::iometerVolume(name);
        EXPECT_TRUE(v.has_value()) << name;
        return v.value_or(core::IometerVolume {});
    };
    EXPECT_TRUE(platform::iometerVolumeIsHere(volume("/ [" + rootType + "]")));
    EXPECT_FALSE(platform::iometerVolumeIsHere(volume("/ [not-" + rootType + "]")));
    TempDir dir; // a folder, not a mount point
    EXPECT_FALSE(
        platform::iometerVolumeIsHere(volume(dir.path().string() + " [" + rootType + "]")));
    EXPECT_FALSE(platform::iometerVolumeIsHere(volume(dir.path().string() + "/missing [ext4]")));
    EXPECT_FALSE(platform::iometerVolumeIsHere(volume("C: \"System\"")));
    EXPECT_FALSE(platform::iometerVolumeIsHere(volume("\\\\server\\share")));
}

TEST(TargetResolution, AFileTreeIsKnownByItsMarker)
{
    TempDir dir;
    core::Target t;
    t.kind = core::TargetKind::FileTree;
    t.path = (dir.path() / "tree").string();
    t.tree = {.depth = 2, .filesPerLevel = 5, .fileSizeBytes = 4096};
    EXPECT_TRUE(platform::targetExists(t)) << "made by the run in an existing folder";
    auto slashed = t;
    slashed.path += "/";
    EXPECT_TRUE(platform::targetExists(slashed));
    auto nowhere = t;
    nowhere.path = (dir.path() / "no" / "tree").string();
    EXPECT_FALSE(platform::targetExists(nowhere));

    // A folder is a tree only with our marker; then the marker gives its shape.
    std::filesystem::create_directories(t.path);
    EXPECT_EQ(platform::detectTargetKind(t.path), core::TargetKind::TestFile);
    EXPECT_FALSE(platform::fileTreeAt(t.path));
    std::ofstream(core::fileTreeMarkerPath(t.path)) << "{\"photos\": true}\n";
    EXPECT_FALSE(platform::fileTreeAt(t.path)) << "not our marker";
    std::ofstream(core::fileTreeMarkerPath(t.path)) << core::fileTreeMarkerText(t.tree);
    EXPECT_EQ(platform::detectTargetKind(t.path), core::TargetKind::FileTree);
    EXPECT_EQ(platform::fileTreeAt(t.path), t.tree);
    EXPECT_TRUE(platform::targetExists(t));
    EXPECT_FALSE(platform::fileTreeAt(core::fileTreeMarkerPath(t.path))) << "a file";
}

} // namespace
} // namespace ioprism::test
