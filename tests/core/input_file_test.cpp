// SPDX-License-Identifier: GPL-3.0-or-later
// The bounded reader of profile and .icf files: only regular files, never more than the
// limit + 1 bytes, and messages that say what is wrong with the file.
#include "core/profile/input_file.h"
#include "support/test_support.h"

#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>
#include <streambuf>
#include <string>

using namespace ioprism::core;
using ioprism::test::TempDir;
using ::testing::HasSubstr;

namespace {

void writeText(const std::filesystem::path &path, const std::string &text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

// An endless stream of 'x' that counts what was taken from it, like /dev/zero or a
// FIFO whose writer never stops.
class EndlessBuffer : public std::streambuf
{
public:
    std::uint64_t consumed() const { return m_served - std::uint64_t(egptr() - gptr()); }

protected:
    int_type underflow() override
    {
        m_chunk.assign(4096, 'x');
        setg(m_chunk.data(), m_chunk.data(), m_chunk.data() + m_chunk.size());
        m_served += m_chunk.size();
        return traits_type::to_int_type(m_chunk[0]);
    }

private:
    std::string m_chunk;
    std::uint64_t m_served = 0;
};

} // namespace

TEST(InputFile, ReadsARegularFileWhole)
{
    TempDir dir;
    const auto path = dir.path() / "p.json";
    writeText(path, "{\"format\": \"ioprism-profile\"}\n");
    const auto r = readInputFile(path, kMaxProfileFileBytes, "profiles");
    EXPECT_FALSE(r.problem);
    EXPECT_EQ(r.text, "{\"format\": \"ioprism-profile\"}\n");
}

TEST(InputFile, AFileOfExactlyTheLimitIsRead)
{
    TempDir dir;
    const auto path = dir.path() / "p.icf";
    writeText(path, std::string(100, 'a'));
    const auto r = readInputFile(path, 100, "profiles");
    EXPECT_FALSE(r.problem);
    EXPECT_EQ(r.text.size(), 100u);
}

TEST(InputFile, AnOversizeFileIsRefusedWithTheLimitNamed)
{
    TempDir dir;
    const auto path = dir.path() / "profile.icf";
    {
        std::ofstream create(path);
    }
    std::filesystem::resize_file(path, std::uintmax_t(1) << 30); // sparse: no disk used
    const auto r = readInputFile(path, kMaxProfileFileBytes, "profiles");
    ASSERT_TRUE(r.problem);
    EXPECT_EQ(r.problem->severity, Severity::Error);
    EXPECT_EQ(r.problem->message, "1 GiB is larger than the 4 MiB limit for profiles");
    EXPECT_TRUE(r.text.empty());
}

TEST(InputFile, OneByteOverTheLimitShowsTheExactSize)
{
    TempDir dir;
    const auto path = dir.path() / "profile.json";
    {
        std::ofstream create(path);
    }
    std::filesystem::resize_file(path, kMaxProfileFileBytes + 1);
    const auto r = readInputFile(path, kMaxProfileFileBytes, "profiles");
    ASSERT_TRUE(r.problem);
    EXPECT_EQ(
        r.problem->message, "4.0 MiB (4194305 bytes) is larger than the 4 MiB limit for profiles");
}

TEST(InputFile, ADirectoryIsNamedAsOne)
{
    TempDir dir;
    const auto r = readInputFile(dir.path(), kMaxProfileFileBytes, "profiles");
    ASSERT_TRUE(r.problem);
    EXPECT_EQ(r.problem->message, "is a directory, not a file");
}

TEST(InputFile, AMissingFileCannotBeRead)
{
    TempDir dir;
    const auto path = dir.path() / "nope.json";
    const auto r = readInputFile(path, kMaxProfileFileBytes, "profiles");
    ASSERT_TRUE(r.problem);
    EXPECT_THAT(r.problem->message, HasSubstr("cannot read " + path.string()));
}

TEST(InputFile, ACharacterDeviceIsRefusedUnread)
{
    // /dev/zero never ends: reading it whole grew the CLI to 14 GB. There is no such
    // device on Windows (this executable also runs under Wine).
    if (std::filesystem::status("/dev/zero").type() != std::filesystem::file_type::character)
        GTEST_SKIP() << "no /dev/zero character device on this system";
    const auto r = readInputFile("/dev/zero", kMaxProfileFileBytes, "profiles");
    ASSERT_TRUE(r.problem);
    EXPECT_EQ(r.problem->message, "is a character device; only regular files are read");
    EXPECT_TRUE(r.text.empty());
}

TEST(InputFile, AnEndlessStreamIsReadOnlyToTheLimitPlusOne)
{
    EndlessBuffer buffer;
    std::istream in(&buffer);
    EXPECT_FALSE(readAtMost(in, 100'000));
    EXPECT_EQ(buffer.consumed(), 100'001u);
}

TEST(InputFile, AStreamWithinTheLimitIsReadWhole)
{
    std::istringstream in(std::string(5000, 'y'));
    const auto text = readAtMost(in, 5000);
    ASSERT_TRUE(text);
    EXPECT_EQ(*text, std::string(5000, 'y'));
}

TEST(InputFile, TheLargestLimitMeansNoLimit)
{
    std::istringstream in("abc");
    const auto text = readAtMost(in, UINT64_MAX);
    ASSERT_TRUE(text);
    EXPECT_EQ(*text, "abc");
}

TEST(InputFile, SizesAreShownInBinaryUnits)
{
    EXPECT_EQ(describeSize(0), "0 bytes");
    EXPECT_EQ(describeSize(1023), "1023 bytes");
    EXPECT_EQ(describeSize(1024), "1 KiB");
    EXPECT_EQ(describeSize(1536), "1.5 KiB");
    EXPECT_EQ(describeSize(std::uint64_t(4) << 20), "4 MiB");
    EXPECT_EQ(describeSize((std::uint64_t(1) << 30) + 1), "1.0 GiB");
    EXPECT_EQ(describeSize(~std::uint64_t(0)), "16.0 EiB");
}
