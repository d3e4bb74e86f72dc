// SPDX-License-Identifier: GPL-3.0-or-later
// File trees and Iometer's connection rate through the CLI on real file systems: the
// io-profile-tree preset on ext4, trees made only where they may be, ENOSPC, removal, and
// a connection-rate .icf's connection figures in Iometer's columns.
#include "platform/linux/linux_backend.h"

#include <array>
#include <fcntl.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "e2e/cli_support.h"
#include "e2e/linux_support.h"

using namespace ioprism::test;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

// The columns of the ALL row of the first 'Results block of an Iometer CSV, by header.
std::map<std::string, std::string> iometerAllRow(const std::string &csv)
{
    const auto split = [](const std::string &line) {
        std::vector<std::string> cells;
        for (std::size_t b = 0, e; b <= line.size(); b = e + 1) {
            e = std::min(line.find(',', b), line.size());
            cells.push_back(line.substr(b, e - b));
        }
        return cells;
    };
    const auto h = csv.find("'Target Type");
    const auto a = csv.find("\nALL,", h);
    if (h == std::string::npos || a == std::string::npos)
        return {};
    const auto header = split(csv.substr(h + 1, csv.find('\n', h) - h - 1));
    const auto row = split(csv.substr(a + 1, csv.find('\n', a + 1) - a - 1));
    std::map<std::string, std::string> out;
    for (std::size_t i = 0; i < header.size() && i < row.size(); ++i)
        out[header[i]] = row[i];
    return out;
}

} // namespace

TEST(CliTree, TheIoProfileTreePresetOnExt4ReportsFilesAndEveryPhase)
{
    IOPRISM_REQUIRE(isRoot(), "needs root for a loop-mounted ext4");
    TempDir dir(realFsDir());
    Ext4Mount ext4(dir.path(), "128M");
    ASSERT_TRUE(ext4.mounted());
    auto r = runCli("run --preset io-profile-tree --engine io_uring -q --no-save --json r.json "
                    "--series-csv s.csv",
        ext4.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const char *tree : {"ioprism-tree-direct", "ioprism-tree-buffered"}) {
        EXPECT_TRUE(fs::exists(ext4.path() / tree / ".ioprism-tree")) << tree;
        EXPECT_TRUE(fs::exists(ext4.path() / tree / "level-2" / "level-3" / "file-0004")) << tree;
    }
    const auto j = nlohmann::json::parse(readFile(ext4.path() / "r.json"));
    std::size_t steps = 0;
    for (const auto &step : j["steps"]) {
        const auto &all = step["scopes"][0];
        ASSERT_TRUE(all.contains("connections")) << step["name"];
        const auto &c = all["connections"];
        // 1000 operations per point: 1000 files opened, 1000 closed, 1000 I/Os.
        EXPECT_EQ(all["total"]["ios"], 1000) << step["name"];
        EXPECT_EQ(c["open"]["count"], 1000) << step["name"];
        EXPECT_EQ(c["close"]["count"], 1000) << step["name"];
        EXPECT_EQ(c["connection"]["count"], 1000) << step["name"];
        EXPECT_GT(c["open"]["per_second"].get<double>(), 0);
        EXPECT_GT(c["open"]["latency_us"]["mean"].get<double>(), 0);
        EXPECT_GT(c["close"]["latency_us"]["p99"].get<double>(), 0);
        // An operation is its open, its I/O and its close.
        EXPECT_GE(c["connection"]["latency_us"]["mean"].get<double>(),
            c["open"]["latency_us"]["mean"].get<double>()
                + all["total"]["latency_us"]["mean"].get<double>());
        // The device is compared, and never blamed on another process.
        EXPECT_NE(step["devices"]["verdict"]["verdict"], "no device counters");
        EXPECT_NE(step["devices"]["verdict"]["verdict"], "other traffic");
        ++steps;
    }
    // 2 specs x 8 sizes x 2 trees, less the sizes direct I/O cannot do on ext4's 4 KiB
    // blocks over a 512-byte loop device (none skipped: 512 B works).
    EXPECT_GE(steps, 28u);
    const std::string csv = readFile(ext4.path() / "s.csv");
    EXPECT_THAT(csv, HasSubstr(",files_per_s,open_mean_us,open_p99_us,"));
}

TEST(CliTree, ATreeIsMadeInsideAFolderItDidNotMakeAndRemovedOnRequest)
{
    IOPRISM_REQUIRE(isRoot(), "needs root for a loop-mounted ext4");
    TempDir dir(realFsDir());
    Ext4Mount ext4(dir.path(), "64M");
    ASSERT_TRUE(ext4.mounted());
    const fs::path mine = ext4.path() / "mine";
    fs::create_directories(mine);
    {
        std::ofstream(mine / "keep.txt") << "the user's file\n";
    }
    auto r = runCli("run --engine io_uring --target '" + mine.string()
            + "' --tree 2:3:1MiB --bs 4k --read 50 --duration 1 -q --no-save --json r.json",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const fs::path tree = mine / "ioprism-tree";
    EXPECT_TRUE(fs::exists(tree / ".ioprism-tree"));
    EXPECT_EQ(fs::file_size(tree / "level-2" / "file-0003"), 1u << 20);
    EXPECT_EQ(readFile(mine / "keep.txt"), "the user's file\n");
    // Named directly, the tree is reused; --remove-test-files removes exactly it.
    r = runCli("run --engine io_uring --target '" + tree.string()
            + "' --tree 2:3:1MiB --bs 4k --duration 1 -q --no-save --remove-test-files",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_FALSE(fs::exists(tree));
    EXPECT_EQ(readFile(mine / "keep.txt"), "the user's file\n");
}

TEST(CliTree, AFullFileSystemWhileMakingATreeIsClearAndLeavesNothing)
{
    IOPRISM_REQUIRE(isRoot(), "needs root to mount a small tmpfs");
    TempDir dir;
    TmpfsMount small(dir.path() / "small", "size=8M");
    ASSERT_TRUE(small.mounted());
    auto r = runCli("run --engine sync --buffered --target '" + (dir.path() / "small").string()
            + "' --tree 3:4:1MiB --bs 4k --duration 1 -q --no-save",
        dir.path());
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_THAT(r.err, HasSubstr("space"));
    EXPECT_FALSE(fs::exists(dir.path() / "small" / "ioprism-tree"));
}

// The marker alone is one small file anyone can copy: it must not make IOPrism write
// into, or remove, a user's files that fit a tree's layout.
TEST(CliTree, ACopiedMarkerNeverLetsARunWriteOrRemoveAUsersFiles)
{
    IOPRISM_REQUIRE(isRoot(), "needs root for a loop-mounted ext4");
    TempDir dir(realFsDir());
    Ext4Mount ext4(dir.path(), "64M");
    ASSERT_TRUE(ext4.mounted());
    const fs::path real = ext4.path() / "real";
    auto r = runCli("run --engine io_uring --target '" + real.string()
            + "' --tree 2:2:1MiB --rw randread --bs 4k --duration 1 -q --no-save",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const fs::path foreign = ext4.path() / "foreign";
    fs::create_directories(foreign);
    shell("for i in 1 2; do head -c 1M /dev/urandom > '" + foreign.string()
        + "'/file-000$i; done; echo notes > '" + foreign.string() + "'/notes.txt; cp '"
        + real.string() + "'/.ioprism-tree '" + foreign.string() + "'/");
    const std::string first = readFile(foreign / "file-0001");
    r = runCli("run --engine io_uring --target '" + foreign.string()
            + "' --tree 2:2:1MiB --rw randread --bs 4k --duration 1 -q --no-save "
              "--remove-test-files",
        dir.path());
    EXPECT_NE(r.exitCode, 0);
    EXPECT_THAT(r.err, HasSubstr("lacks IOPrism's mark"));
    EXPECT_EQ(readFile(foreign / "file-0001"), first);
    EXPECT_TRUE(fs::exists(foreign / "file-0002"));
    EXPECT_EQ(readFile(foreign / "notes.txt"), "notes\n");
    EXPECT_FALSE(fs::exists(foreign / "level-2"));
}

TEST(CliTree, AHardLinkInsideATreeIsNeverWrittenThrough)
{
    IOPRISM_REQUIRE(isRoot(), "needs root for a loop-mounted ext4");
    TempDir dir(realFsDir());
    Ext4Mount ext4(dir.path(), "64M");
    ASSERT_TRUE(ext4.mounted());
    const fs::path tree = ext4.path() / "s";
    const std::string run = "run --engine io_uring --target '" + tree.string()
        + "' --tree 2:2:1MiB --rw randwrite --bs 4k --duration 1 -q --no-save";
    auto r = runCli(run, dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const fs::path victim = ext4.path() / "big.bin";
    shell("head -c 2M /dev/urandom > '" + victim.string() + "'");
    const std::string precious = readFile(victim);
    fs::remove(tree / "level-2" / "file-0002");
    ASSERT_EQ(::link(victim.c_str(), (tree / "level-2" / "file-0002").c_str()), 0);
    r = runCli(run, dir.path());
    EXPECT_NE(r.exitCode, 0);
    EXPECT_THAT(r.err, HasSubstr("hard links"));
    EXPECT_EQ(readFile(victim), precious);
}

// A run killed mid-fill leaves its file reserved at full size but unwritten (made here
// the same way, deterministically): the next run must fill it, not measure zeros that
// never come from the device.
TEST(CliTree, ATestFileAKilledRunLeftUnwrittenIsFilledBeforeItIsMeasured)
{
    IOPRISM_REQUIRE(isRoot(), "needs root for a loop-mounted ext4");
    TempDir dir(realFsDir());
    Ext4Mount ext4(dir.path(), "64M");
    ASSERT_TRUE(ext4.mounted());
    const fs::path tf = ext4.path() / "tf";
    {
        const int fd = ::open(tf.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        ASSERT_GE(fd, 0);
        // As IOPrism marks: "filling", bound to this file.
        const std::string mark = ioprism::platform::boundMarkValue(fd, "filling");
        EXPECT_EQ(::fsetxattr(fd, "user.ioprism.testfile", mark.data(), mark.size(), 0), 0);
        EXPECT_EQ(::fallocate(fd, 0, 0, 8 << 20), 0);
        ::close(fd);
    }
    ASSERT_THAT(shell("filefrag -v '" + tf.string() + "'"), HasSubstr("unwritten"));
    auto r = runCli("run --engine io_uring --target '" + tf.string()
            + "' --file-size 8MiB --rw randread --bs 4k --duration 1 -q --no-save",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(shell("filefrag -v '" + tf.string() + "'"), ::testing::Not(HasSubstr("unwritten")));
    std::array<char, 96> mark {};
    const ssize_t n = ::getxattr(tf.c_str(), "user.ioprism.testfile", mark.data(), mark.size());
    EXPECT_THAT(std::string(mark.data(), std::size_t(std::max<ssize_t>(n, 0))),
        ::testing::StartsWith("complete "));
}

// A tree that fits by its files' bytes alone, but not with its folders and marker, is
// refused before anything is made; with room for those it is made.
TEST(CliTree, ATreesFoldersAndMarkerCountInItsSpace)
{
    IOPRISM_REQUIRE(isRoot(), "needs root for a loop-mounted ext4");
    TempDir dir(realFsDir());
    Ext4Mount ext4(dir.path(), "8M", "-m 0");
    ASSERT_TRUE(ext4.mounted());
    const std::uint64_t treeBytes = 50 * 4 * 16 * 1024;
    const auto leave = [&](std::uint64_t bytes) {
        fs::remove(ext4.path() / "filler");
        struct statvfs sv {
        };
        ASSERT_EQ(::statvfs(ext4.path().c_str(), &sv), 0);
        const std::uint64_t freeBytes = std::uint64_t(sv.f_bavail) * sv.f_frsize;
        ASSERT_GT(freeBytes, bytes);
        const int fd = ::open((ext4.path() / "filler").c_str(), O_WRONLY | O_CREAT, 0644);
        ASSERT_GE(fd, 0);
        EXPECT_EQ(::fallocate(fd, 0, 0, off_t(freeBytes - bytes)), 0);
        ::close(fd);
        ASSERT_EQ(::statvfs(ext4.path().c_str(), &sv), 0);
        ASSERT_EQ(std::uint64_t(sv.f_bavail) * sv.f_frsize, bytes);
    };
    const std::string run = "run --engine sync --buffered --target '" + (ext4.path() / "t").string()
        + "' --tree 50:4:16KiB --rw randread --bs 4k --duration 1 -q --no-save";
    leave(treeBytes + 8 * 1024);
    auto r = runCli(run, dir.path());
    EXPECT_EQ(r.exitCode, 1);
    // Refused as a whole before anything was made, not by a folder or file midway.
    EXPECT_THAT(r.err,
        HasSubstr("create file tree " + (ext4.path() / "t").string()
            + ": No space left on device (not enough space"));
    EXPECT_THAT(r.err, ::testing::Not(HasSubstr("removed what this run had made")));
    EXPECT_FALSE(fs::exists(ext4.path() / "t"));

    leave(treeBytes + 64 * 1024);
    r = runCli(run, dir.path());
    EXPECT_EQ(r.exitCode, 0) << r.err;
    fs::path deepest = ext4.path() / "t";
    for (int level = 2; level <= 50; ++level)
        deepest /= "level-" + std::to_string(level);
    EXPECT_EQ(fs::file_size(deepest / "file-0004"), 16u * 1024);
}

TEST(CliTree, AConnectionRateIcfShowsIometersConnectionFigures)
{
    TempDir dir(realFsDir());
    std::string icf = readFile(sourceDir() / "tests/fixtures/icf/reference.icf");
    for (const auto &[from, to] : std::vector<std::pair<std::string, std::string>> {
             {"\t8,DISABLED,1,ENABLED,42", "\t4,ENABLED,10,ENABLED,42"},
             {"\tCYCLE_OUTSTANDING_IOS\n", "\tNORMAL\n"}}) {
        const auto at = icf.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        icf.replace(at, from.size(), to);
    }
    {
        std::ofstream(dir.path() / "rate.icf", std::ios::binary) << icf;
    }
    auto r = runCli("run rate.icf --engine io_uring --target t.dat --file-size 1GiB --duration 1 "
                    "--ramp 0 -q --no-save --csv r.csv --json r.json",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto all = iometerAllRow(readFile(dir.path() / "r.csv"));
    ASSERT_FALSE(all.empty());
    EXPECT_EQ(all.at("Transactions per Connection"), "10");
    EXPECT_GT(std::stod(all.at("Connections per Second")), 0);
    EXPECT_GT(std::stoull(all.at("Connections")), 0u);
    EXPECT_GT(std::stod(all.at("Average Connection Time")), 0);
    EXPECT_GE(
        std::stod(all.at("Maximum Connection Time")), std::stod(all.at("Average Connection Time")));
    const auto j = nlohmann::json::parse(readFile(dir.path() / "r.json"));
    const auto &c = j["steps"][0]["scopes"][0]["connections"];
    EXPECT_GT(c["open"]["count"].get<std::uint64_t>(), 0u);
    EXPECT_EQ(c["open"]["errors"], 0);
}

// Seen before: `--tree 2:2 --file-size 8MiB` made files of 4 MiB although the run's
// description listed --file-size among the options that changed it.
TEST(CliTree, FileSizeSizesTheFilesOfATreeWhoseShapeLeavesItOut)
{
    TempDir dir(realFsDir());
    auto r = runCli("run --engine sync --buffered --target t --tree 2:2 --file-size 8MiB --bs 4k "
                    "--read 100 --duration 1 --ramp 0 -q --no-save",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(fs::file_size(dir.path() / "t" / "file-0001"), 8u << 20);
    EXPECT_EQ(fs::file_size(dir.path() / "t" / "level-2" / "file-0002"), 8u << 20);
}

TEST(CliTree, TwoDifferentSizesForATreesFilesAreRefused)
{
    TempDir dir;
    auto r = runCli("run --engine null --target t --tree 2:2:4MiB --file-size 8MiB --bs 4k "
                    "--duration 1 -q --no-save",
        dir.path());
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("--tree 2:2:4MiB"));
    EXPECT_THAT(r.err, HasSubstr("--file-size 8MiB"));
    EXPECT_FALSE(fs::exists(dir.path() / "t"));
    // The same size twice is no conflict.
    r = runCli("run --engine null --target t --tree 2:2:4MiB --file-size 4MiB --bs 4k "
               "--duration 1 --ramp 0 -q --no-save",
        dir.path());
    EXPECT_EQ(r.exitCode, 0) << r.err;
}

// Seen before: --pre-init without a tree was accepted, listed as "changed by --pre-init",
// and did nothing.
TEST(CliTree, PreInitWithoutATreeIsRefused)
{
    TempDir dir;
    auto r = runCli(
        "run --engine null --target t.dat --file-size 1MiB --pre-init 100 --bs 4k --duration 1 -q "
        "--no-save",
        dir.path());
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("--pre-init applies to file-tree targets (--tree)"));
}

// Seen before: two workers on one tree printed two identical `Files tree:` lines. Each
// line names its worker, as the table's rows do, and All adds them up.
TEST(CliTree, TwoWorkersOnOneTreeHaveAFilesLineEachNamedByWorker)
{
    TempDir dir(realFsDir());
    const std::string tree = (dir.path() / "t").string();
    auto r = runCli("run --engine sync --buffered --target '" + tree
            + "' --tree 2:2:256KiB --workers 2 --bs 4k --read 100 --duration 1 --ramp 0 --no-save",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("Files Worker 1 / " + tree + ": "));
    EXPECT_THAT(r.out, HasSubstr("Files Worker 2 / " + tree + ": "));
    EXPECT_THAT(r.out, HasSubstr("Files All: "));
    EXPECT_EQ(r.out.find("Files " + tree + ":"), std::string::npos) << r.out;
}
