// SPDX-License-Identifier: GPL-3.0-or-later
// core/profile/rank_targets.h: each MPI rank's own targets from one profile — by name (%r,
// %h) or, shared, by a slice each.
#include "core/profile/rank_targets.h"

#include <filesystem>
#include <gtest/gtest.h>

namespace ioprism::core {
namespace {

Profile withTargets(std::vector<Target> targets)
{
    Profile p;
    Host host;
    Worker w;
    w.name = "Worker 1";
    w.targets = std::move(targets);
    host.workers.push_back(w);
    p.hosts.push_back(host);
    return p;
}

Target testFile(std::string path, std::uint64_t size)
{
    Target t;
    t.kind = TargetKind::TestFile;
    t.path = std::move(path);
    t.testFileSizeBytes = size;
    return t;
}

TEST(RankTargets, ExpandsRankHostAndPercent)
{
    EXPECT_EQ(
        expandRankPlaceholders("/mnt/pfs/ioprism-%r.dat", 12, "node3"), "/mnt/pfs/ioprism-12.dat");
    EXPECT_EQ(expandRankPlaceholders("/scratch/%h/f-%r", 0, "node3"), "/scratch/node3/f-0");
    // %% is a percent sign; any other % stays as it is, as does one at the end.
    EXPECT_EQ(expandRankPlaceholders("/a/100%%r-%x-%", 5, "h"), "/a/100%r-%x-%");
}

TEST(RankTargets, KnowsWhichPathsArePerRank)
{
    EXPECT_TRUE(hasRankPlaceholder("/f-%r"));
    EXPECT_TRUE(hasRankPlaceholder("/%h/f"));
    EXPECT_FALSE(hasRankPlaceholder("/f-%%r"));
    EXPECT_FALSE(hasRankPlaceholder("/shared.dat"));
}

TEST(RankTargets, EachRankGetsItsOwnPath)
{
    const Profile p = withTargets({testFile("/d/f-%r.dat", 64 * kMiB)});
    for (int r = 0; r < 4; ++r) {
        auto mine = profileForRank(p, {r, 4, "n", "", false});
        ASSERT_TRUE(mine.ok());
        const Target &t = mine->hosts[0].workers[0].targets[0];
        EXPECT_EQ(t.path, "/d/f-" + std::to_string(r) + ".dat");
        EXPECT_EQ(t.region, Region {}); // the whole file: not shared
    }
}

TEST(RankTargets, RelativePathsAreMadeAbsoluteInTheRanksFolder)
{
    // Absolute on this system: a drive letter where a path needs one (Windows).
    const std::string drive = std::filesystem::path("/").is_absolute() ? "" : "C:";
    const std::string folder = drive + "/home/u/work";
    const Profile p = withTargets(
        {testFile("run/f-%r.dat", 8 * kMiB), testFile(drive + "/abs/g.dat", 8 * kMiB)});
    auto mine = profileForRank(p, {2, 4, "n", folder, false});
    ASSERT_TRUE(mine.ok());
    EXPECT_EQ(mine->hosts[0].workers[0].targets[0].path,
        (std::filesystem::path(folder) / "run/f-2.dat").lexically_normal().string());
    EXPECT_EQ(mine->hosts[0].workers[0].targets[1].path, drive + "/abs/g.dat");
}

TEST(RankTargets, SharedFileSlicesAreDisjointWholeMiBInRankOrder)
{
    // 100 MiB from 4 MiB on, over 3 ranks: 33 MiB each (whole MiB), 1 MiB at the end unused.
    Target shared = testFile("/d/shared.dat", 104 * kMiB);
    shared.region.offsetBytes = 4 * kMiB;
    const Profile p = withTargets({shared});
    std::uint64_t next = 4 * kMiB;
    for (int r = 0; r < 3; ++r) {
        auto mine = profileForRank(p, {r, 3, "n", "", true});
        ASSERT_TRUE(mine.ok()) << mine.error().toString();
        const Target &t = mine->hosts[0].workers[0].targets[0];
        EXPECT_EQ(t.path, "/d/shared.dat");
        EXPECT_EQ(t.region.offsetBytes, next) << "rank " << r;
        EXPECT_EQ(t.region.sizeBytes, 33 * kMiB) << "rank " << r; // 100 / 3 = 33.3 MiB
        EXPECT_EQ(t.region.sizeBytes % kRankSliceAlignBytes, 0u);
        next += t.region.sizeBytes;
    }
    EXPECT_LE(next, 104 * kMiB);
}

TEST(RankTargets, SharedDeviceNeedsARegionSize)
{
    Target device;
    device.kind = TargetKind::BlockDevice;
    device.path = "/dev/sdz";
    auto refused = profileForRank(withTargets({device}), {1, 4, "n", "", true});
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().toString().find("give the region's size"), std::string::npos);

    device.region.sizeBytes = 8 * kMiB;
    auto sliced = profileForRank(withTargets({device}), {1, 4, "n", "", true});
    ASSERT_TRUE(sliced.ok());
    EXPECT_EQ(sliced->hosts[0].workers[0].targets[0].region, (Region {2 * kMiB, 2 * kMiB}));
}

TEST(RankTargets, SharedTargetTooSmallForTheRanksIsRefused)
{
    auto refused
        = profileForRank(withTargets({testFile("/d/s.dat", 3 * kMiB)}), {0, 4, "n", "", true});
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(
        refused.error().toString().find("less than a MiB for each of 4 ranks"), std::string::npos);
}

} // namespace
} // namespace ioprism::core
