// SPDX-License-Identifier: GPL-3.0-or-later
// The run library (core/library/run_library.h) read through the one bounded reader
// (platform::readInputFile) on Linux: entries that are FIFOs, devices, links to nothing,
// folders or sparse giants, and a library path that is a file or a link loop. Here, not
// in core_tests, because they need what only a POSIX system makes (mkfifo, /dev/zero).
#include "core/library/run_library.h"
#include "core/report/results_json.h"
#include "platform/common/input_file_reader.h"
#include "support/test_support.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <sys/stat.h> // mkfifo

using namespace ioprism::core;
using ioprism::test::TempDir;
using testing::HasSubstr;

namespace {

// A run with no steps: enough for a listing to show it as good.
std::string saveGoodRun(const RunLibrary &library)
{
    RunResult r;
    r.plan.profile.setup.description = "good";
    r.startedAt = std::chrono::sys_days {std::chrono::year {2024} / 5 / 1} + std::chrono::hours {9};
    r.environment.toolVersion = "0.1.0";
    const auto id = library.save(r, writeResultsJson(r, r.environment));
    EXPECT_TRUE(id.ok()) << id.error().toString();
    return id.ok() ? *id : std::string("none");
}

} // namespace

// Issue 23: a library entry linked to /dev/zero grew `history` to 4.2 GB and aborted it,
// a FIFO hung it (and the GUI at start-up), a 3 GiB sparse file took 25 s and 6.3 GB. Each
// is now listed as unreadable, with what is wrong with it, and the good runs as usual.
TEST(RunLibraryEntries, HostileEntriesAreListedAsUnreadableWithWhyAndNeverRead)
{
    TempDir dir;
    const RunLibrary library(dir.path(), ioprism::platform::readInputFile);
    const std::string goodId = saveGoodRun(library);
    std::filesystem::create_symlink("/dev/zero", dir.path() / "zero.json");
    ASSERT_EQ(::mkfifo((dir.path() / "fifo.json").c_str(), 0600), 0);
    std::ofstream(dir.path() / "sparse.json") << "";
    std::filesystem::resize_file(dir.path() / "sparse.json", std::uintmax_t(3) << 30);
    std::filesystem::create_symlink(dir.path() / "gone", dir.path() / "dangling.json");
    std::filesystem::create_directory(dir.path() / "x.json");
    // The good run's sidecar too: its metadata is refused, the run still listed.
    ASSERT_EQ(::mkfifo((dir.path() / (goodId + ".meta.json")).c_str(), 0600), 0);

    const auto start = std::chrono::steady_clock::now();
    const auto runs = library.list();
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    std::map<std::string, std::string> damage;
    std::size_t good = 0;
    for (const auto &run : runs) {
        if (!run.damaged) {
            ++good;
            EXPECT_THAT(run.metadataDamage, HasSubstr("is a FIFO (named pipe)")) << run.id;
            continue;
        }
        EXPECT_TRUE(run.unreadable) << run.id;
        damage[run.id] = run.damage;
    }
    EXPECT_EQ(good, 1u);
    EXPECT_EQ(damage["zero"], "is a character device; only regular files are read");
    EXPECT_EQ(damage["fifo"], "is a FIFO (named pipe); only regular files are read");
    EXPECT_EQ(damage["sparse"], "is 3 GiB; IOPrism reads results files up to 256 MiB");
    EXPECT_THAT(damage["dangling"], HasSubstr("is a link to "));
    EXPECT_THAT(damage["dangling"], HasSubstr("which does not exist"));
    EXPECT_EQ(damage["x"], "is a directory, not a file");
    EXPECT_EQ(runs.size(), 6u);
}

TEST(RunLibraryEntries, AFolderThatIsAFileOrALinkLoopIsReportedNotEmpty)
{
    TempDir dir;
    std::ofstream(dir.path() / "runs") << "not a folder";
    ListingStats stats;
    EXPECT_TRUE(
        RunLibrary(dir.path() / "runs", ioprism::platform::readInputFile).list({}, &stats).empty());
    EXPECT_EQ(stats.folderProblem, "is not a folder");

    std::filesystem::create_symlink(dir.path() / "loop", dir.path() / "loop");
    RunLibrary(dir.path() / "loop", ioprism::platform::readInputFile).list({}, &stats);
    EXPECT_THAT(stats.folderProblem, HasSubstr("cannot be read: "));
    EXPECT_THAT(stats.folderProblem, HasSubstr("symbolic links"));

    RunLibrary(dir.path() / "not yet", ioprism::platform::readInputFile).list({}, &stats);
    EXPECT_EQ(stats.folderProblem, "") << "no folder yet is no runs yet";
}
