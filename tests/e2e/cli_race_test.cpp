// SPDX-License-Identifier: GPL-3.0-or-later
// Never outside the target, even under a race (issue 23), end to end: the CLI runs while
// another thread keeps swapping a target's name for a symbolic link to an outside file,
// as a second user with write access to the folder could. The outside file must come
// out byte for byte as it went in, whatever the interleaving.
#include <atomic>
#include <chrono>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include "e2e/cli_support.h"
#include "e2e/linux_support.h"

using namespace ioprism::test;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

// Swaps `name` for a link to `outside`, one rename at a time (the name is never missing),
// every millisecond until `stop`; the number of swaps.
int keepSwapping(const fs::path &name, const fs::path &outside, const std::atomic<bool> &stop)
{
    const fs::path link = name.parent_path() / ".race-link";
    int swaps = 0;
    while (!stop.load()) {
        ::unlink(link.c_str());
        if (::symlink(outside.c_str(), link.c_str()) == 0
            && ::rename(link.c_str(), name.c_str()) == 0)
            ++swaps;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return swaps;
}

struct Outside {
    fs::path path;
    std::string before;
    explicit Outside(const fs::path &p)
        : path(p)
    {
        std::string data(1 << 20, '\0');
        for (std::size_t i = 0; i < data.size(); ++i)
            data[i] = static_cast<char>(i * 131 + 7);
        writeFile(path, data);
        ::chmod(path.c_str(), 0600);
        before = readFile(path);
    }
    bool untouched() const { return readFile(path) == before; }
};

} // namespace

// A tree file swapped for a link mid-run: the run stops with a message that names what
// happened, and the outside file is not written.
TEST(CliRace, ATreeFileSwappedForALinkDuringARunNeverWritesOutside)
{
    TempDir dir(realFsDir());
    const Outside outside(dir.path() / "outside.bin");
    const fs::path tree = dir.path() / "tree";
    const std::string args = "run --target '" + tree.string()
        + "' --tree 1:3:64KiB --rw randwrite --bs 4k -q --no-save --duration ";
    auto r = runCli(args + "1", dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;

    std::atomic<bool> stop {false};
    int swaps = 0;
    std::thread swapper([&] {
        // Mostly mid-run (the tree is prepared in milliseconds); either way is checked.
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        swaps = keepSwapping(tree / "file-0002", outside.path, stop);
    });
    r = runCli(args + "3", dir.path(), "timeout -s KILL 60");
    stop = true;
    swapper.join();
    ASSERT_GT(swaps, 0);
    EXPECT_TRUE(outside.untouched()) << "a file outside the tree was written";
    EXPECT_NE(r.exitCode, 0) << "the tree lost a file: " << r.out;
    // Whichever came first: the swap seen while the tree was prepared, or mid-run.
    EXPECT_THAT(r.err,
        ::testing::AnyOf(HasSubstr("symbolic link was put in its place"),
            HasSubstr("this is not a regular file (a symbolic link, a folder)")));
}

// A plain test file swapped for a link mid-run, reopened on every connection (Iometer's
// connection rate): every reopen is of the file IOPrism checked, never of the name, so
// the run goes on writing its own file and the outside file is not written. Whichever
// moment the first swap lands in, the outcome is one of two, both checked: the run
// writes its own file to the end (exit 0), or preparation sees the link and refuses the
// file, which the link makes someone else's; the outside file is never written.
TEST(CliRace, ATestFileSwappedForALinkDuringAReconnectingRunNeverWritesOutside)
{
    TempDir dir(realFsDir());
    const Outside outside(dir.path() / "outside.bin");
    const fs::path file = dir.path() / "t.dat";
    const std::string args = "run --target '" + file.string()
        + "' --file-size 4MiB --rw randwrite --bs 4k --connection-rate 4 -q --no-save --duration ";
    auto r = runCli(args + "1", dir.path()); // makes and fills the file
    ASSERT_EQ(r.exitCode, 0) << r.err;

    std::atomic<bool> stop {false};
    int swaps = 0;
    std::thread swapper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        swaps = keepSwapping(file, outside.path, stop);
    });
    r = runCli(args + "3", dir.path(), "timeout -s KILL 60");
    stop = true;
    swapper.join();
    ASSERT_GT(swaps, 0);
    EXPECT_TRUE(outside.untouched()) << "a file outside the target was written";
    if (r.exitCode != 0) {
        EXPECT_THAT(r.err,
            ::testing::AnyOf(HasSubstr("changed while IOPrism prepared it"),
                HasSubstr("was not created by IOPrism")))
            << "refused, but not for the swap";
    }
}
