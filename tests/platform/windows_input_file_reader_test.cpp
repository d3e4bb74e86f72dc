// SPDX-License-Identifier: GPL-3.0-or-later
// The bounded reader of outside files on Windows (platform/common/input_file_reader.h):
// CreateFileW, then GetFileType and GetFileInformationByHandle on the handle decide what
// was opened. Only a regular file is read, never past the limit; a folder, the NUL device
// and a named pipe are refused without blocking. Runs under Wine in CI.
#include "platform/common/input_file_reader.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>

#include "windows_test_util.h"

using namespace ioprism;
using core::InputFileFailure;
using core::kMaxResultsFileBytes;
using platform::readInputFile;
using platform::readInputFileHead;
using test::TempDir;
namespace fs = std::filesystem;

namespace {

std::string message(const core::InputFileText &r)
{
    return r.problem ? r.problem->message : std::string("(no problem)");
}

} // namespace

TEST(WindowsInputFileReader, ReadsARegularFileUpToTheLimitAndRefusesOneOverIt)
{
    TempDir dir;
    const auto path = dir.path() / "r.json";
    std::ofstream(path, std::ios::binary) << std::string(100, 'x');
    const auto whole = readInputFile(path, 100, "results files");
    EXPECT_FALSE(whole.problem) << message(whole);
    EXPECT_EQ(whole.text, std::string(100, 'x'));
    EXPECT_EQ(readInputFileHead(path, 10).text, std::string(10, 'x'));

    const auto over = readInputFile(path, 99, "results files");
    EXPECT_EQ(over.failure, InputFileFailure::TooLarge);
    EXPECT_EQ(message(over), "is 100 B; IOPrism reads results files up to 99 B");
    EXPECT_TRUE(over.text.empty());

    // Refused by its size, before a byte is read.
    fs::resize_file(path, std::uintmax_t(300) << 20);
    EXPECT_EQ(readInputFile(path, kMaxResultsFileBytes, "results files").failure,
        InputFileFailure::TooLarge);
}

TEST(WindowsInputFileReader, AFolderTheNulDeviceAndANamedPipeAreRefused)
{
    TempDir dir;
    const auto folder = readInputFile(dir.path(), 100, "results files");
    EXPECT_EQ(folder.failure, InputFileFailure::NotRegular);
    EXPECT_EQ(message(folder), "is a directory, not a file");

    // NUL reads as endless nothing, like /dev/zero's opposite: a character device.
    const auto nul = readInputFile("NUL", 100, "results files");
    EXPECT_EQ(nul.failure, InputFileFailure::NotRegular) << message(nul);
    EXPECT_EQ(message(nul), "is a character device; only regular files are read");

    // A pipe whose server never writes would block a read for good: refused unread.
    test::win::PipeServer pipe;
    ASSERT_TRUE(pipe.ok());
    const auto piped = readInputFile(pipe.name(), 100, "results files");
    EXPECT_EQ(piped.failure, InputFileFailure::NotRegular) << message(piped);
    EXPECT_EQ(message(piped), "is a pipe or socket; only regular files are read");
}

TEST(WindowsInputFileReader, AMissingFileOrFolderIsMissing)
{
    TempDir dir;
    const auto none = readInputFile(dir.path() / "none.json", 100, "results files");
    EXPECT_EQ(none.failure, InputFileFailure::Missing) << message(none);
    EXPECT_EQ(message(none).rfind("cannot read ", 0), 0u) << message(none);
    EXPECT_EQ(readInputFile(dir.path() / "no" / "none.json", 100, "results files").failure,
        InputFileFailure::Missing);
}
