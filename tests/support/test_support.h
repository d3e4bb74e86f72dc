// SPDX-License-Identifier: GPL-3.0-or-later
// Shared helpers for the test executables.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <gtest/gtest.h>
#include <random>
#include <sstream>
#include <string>
#include <vector>

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

// How many times `what` occurs in `text` (overlapping occurrences counted).
inline std::size_t occurrences(const std::string &text, const std::string &what)
{
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

// A whole file as bytes ("" when it cannot be read).
inline std::string readFile(const std::filesystem::path &p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// readFile, and a failure of the test when the file cannot be read (a fixture or golden
// file that must be there).
inline std::string readExistingFile(const std::filesystem::path &p)
{
    EXPECT_TRUE(std::ifstream(p, std::ios::binary).good()) << "cannot read " << p;
    return readFile(p);
}

// The lines of a text, without their '\n'.
inline std::vector<std::string> lines(const std::string &text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

// One CSV line split into fields (RFC 4180 quoting; the line holds no newline).
inline std::vector<std::string> splitCsv(const std::string &line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                fields.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    return fields;
}

// Durations in nanoseconds, as histograms and results count them.
constexpr std::uint64_t kUs = 1000;
constexpr std::uint64_t kMs = 1000 * kUs;
constexpr std::uint64_t kS = 1000 * kMs;

// Waits for a run session (anything with wait() and stopNow()) within a generous limit,
// so that a hang fails the test instead of blocking it.
template<class Session> void waitWithin(Session &session)
{
    auto done = std::async(std::launch::async, [&session] { session.wait(); });
    if (done.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
        ADD_FAILURE() << "the run did not end";
        session.stopNow();
    }
    done.get();
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
