// SPDX-License-Identifier: GPL-3.0-or-later
// Where the run library lives on Linux (platform/common/data_dir.h): IOPRISM_DATA_DIR,
// then an absolute XDG_DATA_HOME, then ~/.local/share. Each test is its own process
// (ctest), so changing the environment here touches no other test.
#include "platform/common/data_dir.h"

#include <cstdlib>
#include <gtest/gtest.h>

using ioprism::platform::runLibraryDirectory;
using ioprism::platform::userDataDirectory;

namespace {

void setVariables(const char *data, const char *xdg, const char *home)
{
    for (auto [name, value] : {std::pair {"IOPRISM_DATA_DIR", data},
             std::pair {"XDG_DATA_HOME", xdg}, std::pair {"HOME", home}}) {
        if (value)
            ::setenv(name, value, 1);
        else
            ::unsetenv(name);
    }
}

} // namespace

TEST(DataDir, TheOverrideWinsAndRunsAreBelowIt)
{
    setVariables("/srv/ioprism-data", "/xdg", "/home/u");
    ASSERT_TRUE(userDataDirectory().ok());
    EXPECT_EQ(*userDataDirectory(), "/srv/ioprism-data");
    EXPECT_EQ(*runLibraryDirectory(), "/srv/ioprism-data/runs");
}

TEST(DataDir, AnAbsoluteXdgDataHomeIsUsed)
{
    setVariables(nullptr, "/xdg", "/home/u");
    EXPECT_EQ(*runLibraryDirectory(), "/xdg/ioprism/runs");
    setVariables("", "/xdg", "/home/u"); // an empty override is no override
    EXPECT_EQ(*runLibraryDirectory(), "/xdg/ioprism/runs");
}

TEST(DataDir, ARelativeXdgDataHomeIsIgnoredForHome)
{
    setVariables(nullptr, "relative/dir", "/home/u");
    EXPECT_EQ(*runLibraryDirectory(), "/home/u/.local/share/ioprism/runs");
    setVariables(nullptr, nullptr, "/home/u");
    EXPECT_EQ(*runLibraryDirectory(), "/home/u/.local/share/ioprism/runs");
}

TEST(DataDir, NoHomeIsAnErrorThatSaysWhatToSet)
{
    setVariables(nullptr, nullptr, nullptr);
    const auto dir = runLibraryDirectory();
    ASSERT_FALSE(dir.ok());
    EXPECT_NE(dir.error().toString().find("IOPRISM_DATA_DIR"), std::string::npos)
        << dir.error().toString();
}
