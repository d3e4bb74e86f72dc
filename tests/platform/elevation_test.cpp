// SPDX-License-Identifier: GPL-3.0-or-later
// Elevation on Linux is never offered (platform/common/elevation.h): raw devices are
// opened through udisks2 and polkit, so no answer here may lead a caller to run as root,
// even when the tests themselves run as root.
#include "platform/common/elevation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace ioprism;
using ::testing::HasSubstr;

TEST(Elevation, IsNeverOfferedOnLinux)
{
    EXPECT_FALSE(platform::processIsElevated()) << "not even for root: the broker is the model";

    core::Target disk;
    disk.kind = core::TargetKind::BlockDevice;
    disk.path = "/dev/sda";
    EXPECT_FALSE(platform::needsElevationFor(disk));
    core::Target file;
    file.path = "/tmp/t.dat";
    EXPECT_FALSE(platform::needsElevationFor(file));

    const auto restarted = platform::restartElevated({"--profile", "p.json"});
    ASSERT_FALSE(restarted.ok());
    EXPECT_EQ(restarted.error().code, std::errc::operation_not_supported);
    EXPECT_THAT(restarted.error().toString(), HasSubstr("udisks2"));
}
