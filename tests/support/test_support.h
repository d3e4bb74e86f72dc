// SPDX-License-Identifier: GPL-3.0-or-later
// Shared helpers for the test executables.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <sstream>
#include <string>

namespace ioprism::test {

// True when skips must be failures (CI sets IOPRISM_NO_SKIP=1 because it can run every
// test: it is root and has loop devices, zram, Xvfb and Wine).
inline bool noSkip()
{
    const char *v = std::getenv("IOPRISM_NO_SKIP");
    return v && std::string(v) == "1";
}

inline std::filesystem::path sourceDir()
{
    return IOPRISM_SOURCE_DIR;
}
inline std::filesystem::path binDir()
{
    return IOPRISM_BIN_DIR;
}

// A whole file as bytes ("" when it cannot be read).
inline std::string readFile(const std::filesystem::path &p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Golden files (tests/golden) hold the exact expected output of a writer. Under
// IOPRISM_UPDATE_GOLDEN=1 (set by scripts/update-golden.sh, never by CI) the file is
// rewritten with `text` and the test fails all the same: a run with the variable set
// must never pass, or CI could "pass" by rewriting what it should compare against.
inline bool updateGolden()
{
    const char *v = std::getenv("IOPRISM_UPDATE_GOLDEN");
    return v && std::string(v) == "1";
}

inline void expectGoldenFile(const std::filesystem::path &path, const std::string &text)
{
    if (updateGolden()) {
        const bool same = std::filesystem::exists(path) && readFile(path) == text;
        std::filesystem::create_directories(path.parent_path());
        std::ofstream(path, std::ios::binary) << text;
        ADD_FAILURE() << "golden file " << (same ? "rewritten (unchanged): " : "rewritten: ")
                      << path << " (IOPRISM_UPDATE_GOLDEN=1); review the diff and commit it. "
                      << "A run with IOPRISM_UPDATE_GOLDEN set always fails.";
        return;
    }
    ASSERT_TRUE(std::filesystem::exists(path))
        << path << " is missing: run scripts/update-golden.sh to write it";
    EXPECT_EQ(text, readFile(path))
        << "differs from " << path
        << "; after an intended change of the writer, run scripts/update-golden.sh";
}

// A directory removed at scope exit.
class TempDir
{
public:
    explicit TempDir(const std::filesystem::path &parent = std::filesystem::temp_directory_path())
    {
        std::random_device rd;
        m_path = parent / ("ioprism-test-" + std::to_string(rd()) + std::to_string(rd()));
        std::filesystem::create_directories(m_path);
    }
    ~TempDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    const std::filesystem::path &path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

} // namespace ioprism::test

// Skip the current test with a reason when a precondition (root, a device, a display)
// is missing; under IOPRISM_NO_SKIP=1 that is a failure instead.
#define IOPRISM_REQUIRE(condition, reason)                                                         \
    do {                                                                                           \
        if (!(condition)) {                                                                        \
            if (::ioprism::test::noSkip())                                                         \
                FAIL() << "required: " << (reason);                                                \
            else                                                                                   \
                GTEST_SKIP() << (reason);                                                          \
        }                                                                                          \
    } while (0)
