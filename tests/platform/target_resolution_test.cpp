// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 14, item 2(c): an .icf from Windows names its test-file volumes `C: "System"`;
// on Linux that was taken for a file of that literal name in the current folder and
// accepted, unmarked.
#include "platform/common/target_resolution.h"

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

TEST(TargetResolution, TestFilesResolveWhereTheirFolderExists)
{
    TempDir dir;
    EXPECT_TRUE(platform::targetExists(testFile((dir.path() / "iobw.tst").string())));
    EXPECT_FALSE(platform::targetExists(testFile((dir.path() / "missing" / "iobw.tst").string())));
    EXPECT_TRUE(platform::targetExists(testFile("relative-file.tst")));
}

} // namespace
} // namespace ioprism::test
