// SPDX-License-Identifier: GPL-3.0-or-later
// The one bounded reader of outside files (platform/common/input_file_reader.h): only
// regular files, judged on the opened descriptor; never more than the limit + 1 bytes;
// never blocks on a FIFO; messages that say what is wrong with the file.
#include "platform/common/input_file_reader.h"
#include "support/test_support.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <sys/stat.h>

using namespace ioprism;
using core::InputFileFailure;
using core::kMaxProfileFileBytes;
using core::kMaxResultsFileBytes;
using platform::readInputFile;
using test::TempDir;
namespace fs = std::filesystem;

namespace {

void writeText(const fs::path &path, const std::string &text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

std::string message(const core::InputFileText &r)
{
    return r.problem ? r.problem->message : std::string("(no problem)");
}

} // namespace

TEST(InputFileReader, ReadsARegularFileWholeAndOneOfExactlyTheLimit)
{
    TempDir dir;
    const auto path = dir.path() / "p.json";
    writeText(path, "{\"format\": \"ioprism-profile\"}\n");
    const auto r = readInputFile(path, kMaxProfileFileBytes, "profiles");
    EXPECT_FALSE(r.problem) << message(r);
    EXPECT_EQ(r.failure, InputFileFailure::None);
    EXPECT_EQ(r.text, "{\"format\": \"ioprism-profile\"}\n");

    writeText(path, std::string(100, 'x'));
    EXPECT_EQ(readInputFile(path, 100, "profiles").text.size(), 100u);
    const auto over = readInputFile(path, 99, "profiles");
    EXPECT_EQ(over.failure, InputFileFailure::TooLarge);
}

// A sparse 3 GiB file took `history` 25 s and 6.3 GB: refused by its size, unread.
TEST(InputFileReader, ASparseFileOverTheLimitIsRefusedUnreadWithTheSizeAndTheLimit)
{
    TempDir dir;
    const auto path = dir.path() / "big.json";
    writeText(path, "");
    fs::resize_file(path, std::uintmax_t(3) << 30);
    const auto start = std::chrono::steady_clock::now();
    const auto r = readInputFile(path, kMaxResultsFileBytes, "results files");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
    EXPECT_EQ(r.failure, InputFileFailure::TooLarge);
    EXPECT_EQ(message(r), "is 3 GiB; IOPrism reads results files up to 256 MiB");
    EXPECT_TRUE(r.text.empty());

    fs::resize_file(path, kMaxProfileFileBytes + 1);
    EXPECT_EQ(message(readInputFile(path, kMaxProfileFileBytes, "profiles")),
        "is 4.0 MiB (4194305 bytes); IOPrism reads profiles up to 4 MiB");
}

TEST(InputFileReader, DirectoriesDevicesAndLinksToThemAreRefused)
{
    TempDir dir;
    const auto folder = readInputFile(dir.path(), kMaxProfileFileBytes, "profiles");
    EXPECT_EQ(folder.failure, InputFileFailure::NotRegular);
    EXPECT_EQ(message(folder), "is a directory, not a file");

    const auto zero = readInputFile("/dev/zero", kMaxProfileFileBytes, "profiles");
    EXPECT_EQ(zero.failure, InputFileFailure::NotRegular);
    EXPECT_EQ(message(zero), "is a character device; only regular files are read");

    // The type of what was opened counts, not of the name: a link to /dev/zero is refused.
    fs::create_symlink("/dev/zero", dir.path() / "zero.json");
    const auto link
        = readInputFile(dir.path() / "zero.json", kMaxResultsFileBytes, "results files");
    EXPECT_EQ(link.failure, InputFileFailure::NotRegular);
    EXPECT_EQ(message(link), "is a character device; only regular files are read");
}

// Opening a FIFO without O_NONBLOCK waits for a writer forever (`history` hung).
TEST(InputFileReader, AFifoIsRefusedWithoutBlocking)
{
    TempDir dir;
    const auto fifo = dir.path() / "fifo.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const auto r = readInputFile(fifo, kMaxResultsFileBytes, "results files");
    EXPECT_EQ(r.failure, InputFileFailure::NotRegular);
    EXPECT_EQ(message(r), "is a FIFO (named pipe); only regular files are read");
    EXPECT_EQ(platform::readInputFileHead(fifo, 256).failure, InputFileFailure::NotRegular);
}

TEST(InputFileReader, MissingAndForbiddenFilesSaySo)
{
    TempDir dir;
    const auto missing = readInputFile(dir.path() / "none.json", 100, "profiles");
    EXPECT_EQ(missing.failure, InputFileFailure::Missing);
    EXPECT_NE(message(missing).find("cannot read "), std::string::npos);
    fs::create_symlink(dir.path() / "nowhere", dir.path() / "dangling.json");
    EXPECT_EQ(readInputFile(dir.path() / "dangling.json", 100, "profiles").failure,
        InputFileFailure::Missing);
    if (::geteuid() != 0) { // root reads anything
        const auto closed = dir.path() / "closed.json";
        writeText(closed, "{}");
        fs::permissions(closed, fs::perms::none);
        EXPECT_EQ(
            readInputFile(closed, 100, "profiles").failure, InputFileFailure::PermissionDenied);
    }
}

TEST(InputFileReader, TheHeadIsTheStartOfARegularFile)
{
    TempDir dir;
    const auto path = dir.path() / "r.json";
    writeText(path, "{\"format\": \"ioprism-results\", \"more\": 1}");
    EXPECT_EQ(platform::readInputFileHead(path, 10).text, "{\"format\":");
    EXPECT_EQ(platform::readInputFileHead(path, 1000).text.size(), 40u);
}
