// SPDX-License-Identifier: GPL-3.0-or-later
// One profile loader for the CLI and the GUI: the format comes from the content.
#include "core/profile/profile_file.h"
#include "platform/common/input_file_reader.h"
#include "support/test_support.h"

#include <filesystem>
#include <gtest/gtest.h>

using namespace ioprism::core;
using ioprism::test::sourceDir;
using ioprism::test::TempDir;
namespace fs = std::filesystem;

TEST(ProfileFile, TheFormatIsToldByTheContentNotTheName)
{
    EXPECT_EQ(sniffProfileFormat("  \n{\"format\": 1}"), ProfileFormat::Json);
    EXPECT_EQ(sniffProfileFormat("\xEF\xBB\xBF{}"), ProfileFormat::Json);
    EXPECT_EQ(sniffProfileFormat("Version 1.1.0 \n'TEST SETUP"), ProfileFormat::Icf);
    EXPECT_EQ(sniffProfileFormat(""), ProfileFormat::Icf);

    TempDir dir;
    const fs::path jsonAsIcf = dir.path() / "renamed.icf";
    fs::copy_file(sourceDir() / "resources/presets/cdm-default.json", jsonAsIcf);
    Problems problems;
    auto json = loadProfileFile(ioprism::platform::readInputFile, jsonAsIcf, nullptr, problems);
    ASSERT_TRUE(json.has_value()) << (problems.empty() ? "" : problems[0].toString());
    EXPECT_FALSE(json->specs.empty());

    const fs::path icfAsTxt = dir.path() / "iometer.txt";
    fs::copy_file(sourceDir() / "tests/fixtures/icf/full-1.1.0.icf", icfAsTxt);
    problems.clear();
    int asked = 0;
    auto icf = loadProfileFile(
        ioprism::platform::readInputFile, icfAsTxt,
        [&](const Target &) {
            ++asked;
            return false;
        },
        problems);
    ASSERT_TRUE(icf.has_value());
    EXPECT_GT(asked, 0) << "an imported .icf's targets are checked on this machine";
    EXPECT_TRUE(
        icf->hosts[0].workers[0].targets.empty() || icf->hosts[0].workers[0].targets[0].unresolved);
}

TEST(ProfileFile, ADirectoryIsRefusedUnread)
{
    TempDir dir;
    Problems problems;
    EXPECT_FALSE(loadProfileFile(ioprism::platform::readInputFile, dir.path(), nullptr, problems)
                     .has_value());
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].message.find("is a directory"), std::string::npos);
}

// An .icf's `/mnt/data [ext4]` is Iometer's test file in that mount, or nothing: a volume
// that is not here is unresolved even though "/mnt" exists (it was once made a file
// "data [ext4]" there, on the wrong file system).
TEST(ProfileFile, AnIcfVolumeIsLocatedWhereMountedAndOtherwiseUnresolved)
{
    TempDir dir;
    const fs::path icf = dir.path() / "iometer.icf";
    fs::copy_file(sourceDir() / "tests/fixtures/icf/full-1.1.0.icf", icf);
    const auto everyFileExists = [](const Target &) { return true; };
    const auto findMountData = [&](const Profile &p) -> const Target * {
        for (const auto &host : p.hosts)
            for (const auto &w : host.workers)
                for (const auto &t : w.targets)
                    if (t.path == "/mnt/data [ext4]" || t.path == "/mnt/data/iobw.tst")
                        return &t;
        return nullptr;
    };

    Problems problems;
    auto notHere = loadProfileFile(ioprism::platform::readInputFile, icf, everyFileExists, problems,
        [](const IometerVolume &) { return false; });
    ASSERT_TRUE(notHere.has_value());
    const Target *t = findMountData(*notHere);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->path, "/mnt/data [ext4]");
    EXPECT_TRUE(t->unresolved) << "a volume not mounted here was taken for a file name";

    problems.clear();
    auto here = loadProfileFile(ioprism::platform::readInputFile, icf, everyFileExists, problems,
        [](const IometerVolume &v) { return v.folder == "/mnt/data"; });
    ASSERT_TRUE(here.has_value());
    t = findMountData(*here);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->path, "/mnt/data/iobw.tst");
    EXPECT_FALSE(t->unresolved);
}
