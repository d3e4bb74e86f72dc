// SPDX-License-Identifier: GPL-3.0-or-later
// The one reader of the kernel's text files.
#include "platform/linux/sysfs.h"

#include <fstream>
#include <gtest/gtest.h>

#include "platform_test_util.h"

using namespace ioprism::platform;
using namespace ioprism::test;
namespace fs = std::filesystem;

TEST(Sysfs, AttributesAreTrimmedAndNumbersParsedOrAbsent)
{
    TempDir dir;
    const auto write = [&](const std::string &name, const std::string &text) {
        std::ofstream(dir.path() / name) << text;
        return dir.path() / name;
    };
    EXPECT_EQ(readAttribute(write("a", "  none [mq-deadline]\n")), "none [mq-deadline]");
    EXPECT_EQ(readNumberAttribute(write("n", "4096\n")), 4096u);
    EXPECT_EQ(readNumberAttribute(write("x", "write back\n")), std::nullopt);
    EXPECT_EQ(readNumberAttribute(write("e", "")), std::nullopt);
    EXPECT_EQ(readNumberAttribute(dir.path() / "missing"), std::nullopt);
    EXPECT_EQ(readNumber<std::uint32_t>(dir.path() / "missing", 512), 512u);
    EXPECT_EQ(readTextFile(dir.path() / "missing"), "");
}

TEST(Sysfs, APartitionsQueueAttributesAreItsDisks)
{
    IOPRISM_REQUIRE(isRoot(), "loop devices need root");
    TempDir dir(realFsDir());
    const auto image = dir.path() / "disk.img";
    makeImage(image, 64 << 20);
    ASSERT_TRUE(writeMbr(image, {{2048, 49152}}));
    LoopDevice loop(image, "-P");
    ASSERT_TRUE(loop.ok());
    ASSERT_TRUE(loop.showPartitions(1));
    const std::string disk = readQueueAttribute(loop.name(), "logical_block_size");
    EXPECT_FALSE(disk.empty());
    EXPECT_EQ(readQueueAttribute(loop.name() + "p1", "logical_block_size"), disk);
    EXPECT_EQ(readQueueAttribute("no-such-device", "logical_block_size"), "");
}
