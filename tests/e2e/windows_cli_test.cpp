// SPDX-License-Identifier: GPL-3.0-or-later
// ioprism-cli.exe end to end on Windows (under Wine in CI): a real run with the IOCP
// engine on a test file writes its CSV and JSON; list-targets; engine choice.
// The process is started with CreateProcessW (no shell), its output captured in files.
#include "support/test_support.h"

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <windows.h>

using namespace ioprism::test;
using ::testing::HasSubstr;
using ::testing::StartsWith;

namespace {

struct CliResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

std::string readText(const std::filesystem::path &p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::filesystem::path cliExe()
{
    // binDir() is the build's path; absolute() gives it a drive letter under Wine (Z:).
    return std::filesystem::absolute(binDir() / "ioprism-cli.exe");
}

// Runs ioprism-cli.exe with `args` (a Windows command-line tail) in `cwd`.
CliResult runCli(const std::wstring &args, const std::filesystem::path &cwd,
    std::chrono::seconds limit = std::chrono::seconds(180))
{
    CliResult r;
    SECURITY_ATTRIBUTES inherit {sizeof inherit, nullptr, TRUE};
    const auto outPath = cwd / ".cli-out.txt", errPath = cwd / ".cli-err.txt";
    HANDLE out = ::CreateFileW(outPath.wstring().c_str(), GENERIC_WRITE, FILE_SHARE_READ, &inherit,
        CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
    HANDLE err = ::CreateFileW(errPath.wstring().c_str(), GENERIC_WRITE, FILE_SHARE_READ, &inherit,
        CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (out == INVALID_HANDLE_VALUE || err == INVALID_HANDLE_VALUE) {
        ADD_FAILURE() << "cannot create the output files in " << cwd;
        return r;
    }
    STARTUPINFOW si {};
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = ::GetStdHandle(STD_INPUT_HANDLE);
    si.hStdOutput = out;
    si.hStdError = err;
    PROCESS_INFORMATION pi {};
    std::wstring commandLine = L"\"" + cliExe().wstring() + L"\" " + args;
    const BOOL started = ::CreateProcessW(nullptr, commandLine.data(), nullptr, nullptr, TRUE, 0,
        nullptr, cwd.wstring().c_str(), &si, &pi);
    ::CloseHandle(out);
    ::CloseHandle(err);
    if (!started) {
        ADD_FAILURE() << "CreateProcessW failed (" << ::GetLastError() << ") for " << cliExe();
        return r;
    }
    if (::WaitForSingleObject(pi.hProcess, DWORD(limit.count() * 1000)) != WAIT_OBJECT_0) {
        ::TerminateProcess(pi.hProcess, 99);
        ADD_FAILURE() << "ioprism-cli did not finish within " << limit.count() << " s";
    }
    DWORD code = 0;
    ::GetExitCodeProcess(pi.hProcess, &code);
    ::CloseHandle(pi.hThread);
    ::CloseHandle(pi.hProcess);
    r.exitCode = static_cast<int>(code);
    r.out = readText(outPath);
    r.err = readText(errPath);
    return r;
}

std::wstring quoted(const std::filesystem::path &p)
{
    return L"\"" + p.wstring() + L"\"";
}

} // namespace

TEST(WindowsCli, RunOnATempDirectoryWritesCsvAndJson)
{
    TempDir dir;
    const auto r = runCli(L"run --target " + quoted(dir.path())
            + L" --duration 2 --file-size 16MiB --csv x.csv --json x.json",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.out << "\n" << r.err;
    ASSERT_TRUE(std::filesystem::exists(dir.path() / "ioprism-test.dat"))
        << "the test file was not made";
    EXPECT_EQ(std::filesystem::file_size(dir.path() / "ioprism-test.dat"), 16u * 1024 * 1024);

    const std::string csv = readText(dir.path() / "x.csv");
    ASSERT_FALSE(csv.empty()) << "no CSV written";
    EXPECT_GT(std::count(csv.begin(), csv.end(), '\n'), 3);

    const std::string text = readText(dir.path() / "x.json");
    ASSERT_FALSE(text.empty()) << "no JSON written";
    const auto json = nlohmann::json::parse(text, nullptr, false);
    ASSERT_FALSE(json.is_discarded()) << "the JSON does not parse";
    EXPECT_EQ(json["environment"]["engine"], "iocp");
    EXPECT_TRUE(json["error"].is_null()) << json["error"].dump();
    EXPECT_GT(json["summary"]["iops"].get<double>(), 0.0) << "no I/O was measured";
    EXPECT_EQ(json["summary"]["errors"], 0);
    ASSERT_FALSE(json["steps"].empty());
    // Under Wine there are no PerfMon disk counters: the results must say so plainly.
    const auto &targets = json["device_counters"]["targets"];
    ASSERT_FALSE(targets.empty());
    if (json["device_counters"]["devices"].empty()) {
        EXPECT_THAT(
            targets[0]["note"].get<std::string>(), StartsWith("device counters unavailable"));
    }
}

// io_profile's file tree with the IOCP engine: every I/O a CreateFile, the I/O and a
// CloseHandle, with their figures; the tree made inside the folder and removed again.
TEST(WindowsCli, AFileTreeRunOpensAFilePerOperationAndIsRemovedOnRequest)
{
    TempDir dir;
    const auto r = runCli(L"run --target " + quoted(dir.path())
            + L" --tree 2:3:1MiB --bs 4k --read 50 --qd 2 --duration 1 --ramp 0 --no-save"
              L" --json t.json --remove-test-files",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.out << "\n" << r.err;
    const auto json = nlohmann::json::parse(readText(dir.path() / "t.json"), nullptr, false);
    ASSERT_FALSE(json.is_discarded());
    EXPECT_EQ(json["environment"]["engine"], "iocp");
    const auto &all = json["steps"][0]["scopes"][0];
    ASSERT_TRUE(all.contains("connections")) << all.dump();
    const auto ios = all["total"]["ios"].get<std::uint64_t>();
    EXPECT_GT(ios, 0u);
    // Every I/O measured was opened and closed around it; a timed step ends with up to
    // QD operations open (their I/O in flight) or closing, counted in one figure only.
    const auto opens = all["connections"]["open"]["count"].get<std::uint64_t>();
    const auto closes = all["connections"]["close"]["count"].get<std::uint64_t>();
    EXPECT_GE(opens, ios);
    EXPECT_LE(opens, ios + 2);
    EXPECT_LE(closes, ios);
    EXPECT_GE(closes + 2, ios);
    EXPECT_EQ(all["connections"]["open"]["errors"], 0);
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "ioprism-tree"));
}

TEST(WindowsCli, ListTargetsShowsDrivesAndFileSystems)
{
    TempDir dir;
    const auto r = runCli(L"list-targets", dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("File systems"));
    EXPECT_THAT(r.out, HasSubstr("C:\\"));
}

TEST(WindowsCli, LinuxEnginesAreRefusedWithAClearMessage)
{
    TempDir dir;
    const auto r = runCli(
        L"run --engine io_uring --target " + quoted(dir.path()) + L" --duration 1 --file-size 1MiB",
        dir.path());
    EXPECT_NE(r.exitCode, 0);
    EXPECT_THAT(r.err, HasSubstr("Linux only"));
}
