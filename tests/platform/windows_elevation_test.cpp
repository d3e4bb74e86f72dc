// SPDX-License-Identifier: GPL-3.0-or-later
// Elevation on Windows: the argument quoting (read back through CommandLineToArgvW, which
// Wine implements), processIsElevated against the token's Administrators group, the
// access decision and messages for both elevation states, and restartElevated starting
// this very program again with its arguments.
//
// Wine 8 runs every process with a full administrator token (TokenElevation true,
// TokenElevationTypeFull, Administrators enabled), and its ShellExecuteExW carries out
// "runas" without a prompt. Real Windows with UAC gives a filtered token unless the
// process was started elevated. So: the "not elevated" answers are tested through the
// pure functions both systems share; the live answers are asserted only where both agree;
// the restart runs only under Wine (on real Windows it would stop at a UAC prompt).
#include "platform/common/elevation.h"
#include "platform/common/target_resolution.h"
#include "platform/windows/elevation.h"
#include "platform/windows/win_util.h"
#include "support/test_support.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <iterator>
#include <sddl.h>
#include <shellapi.h>
#include <thread>

using namespace ioprism;
using platform::win::narrow;
using platform::win::quoteWindowsArgument;
using platform::win::widen;
using platform::win::windowsCommandLine;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// `line` split as a program started with it would see its arguments. The program name is
// parsed by other rules (no escapes), so a plain one goes first and is dropped.
std::vector<std::string> splitLikeWindows(const std::wstring &line)
{
    int argc = 0;
    LPWSTR *argv = ::CommandLineToArgvW((L"prog " + line).c_str(), &argc);
    std::vector<std::string> args;
    for (int i = 1; argv != nullptr && i < argc; ++i)
        args.push_back(narrow(argv[i]));
    ::LocalFree(argv);
    return args;
}

// The arguments a restarted test program received are the ones after this marker.
constexpr std::string_view kChildMarker = "--ioprism-elevation-child=";

// Hard cases for the quoting: each must come back unchanged, alone and among others.
const std::vector<std::string> kTrickyArguments = {
    "plain",
    "",
    "with space",
    "tab\there",
    "new\nline",
    "say \"hi\"",
    "\"",
    "\"\"",
    "\\\"",
    "a\\\\\"b",
    "C:\\Program Files\\IOPrism\\",
    "C:\\dir\\",
    "\\\\server\\share\\",
    "trailing two\\\\",
    "\\",
    "--profile=C:\\Users\\Ann Lee\\bench \"fast\".json",
    "ni\xc3\xb1o caf\xc3\xa9\\", // "niño café\" in UTF-8
    "--page=targets",
};

std::wstring currentFolder()
{
    std::wstring folder(::GetCurrentDirectoryW(0, nullptr), L'\0');
    folder.resize(::GetCurrentDirectoryW(DWORD(folder.size()), folder.data()));
    return folder;
}

} // namespace

TEST(WindowsElevation, QuotingLeavesPlainArgumentsAloneAndQuotesTheRest)
{
    EXPECT_EQ(quoteWindowsArgument("plain"), "plain");
    EXPECT_EQ(quoteWindowsArgument("C:\\dir\\"), "C:\\dir\\") << "no quote: backslashes literal";
    EXPECT_EQ(quoteWindowsArgument(""), "\"\"") << "an empty argument must still be one";
    EXPECT_EQ(quoteWindowsArgument("a b"), "\"a b\"");
    EXPECT_EQ(quoteWindowsArgument("say \"hi\""), "\"say \\\"hi\\\"\"");
    EXPECT_EQ(quoteWindowsArgument("C:\\Program Files\\"), "\"C:\\Program Files\\\\\"")
        << "the backslash before the closing quote is doubled";
    EXPECT_EQ(quoteWindowsArgument("a\\\"b"), "\"a\\\\\\\"b\"") << "\\\" becomes \\\\\\\"";
    EXPECT_EQ(quoteWindowsArgument("a\\b c"), "\"a\\b c\"") << "elsewhere backslashes stay";
    EXPECT_EQ(windowsCommandLine({"a b", "", "c"}), "\"a b\" \"\" c");
    EXPECT_EQ(windowsCommandLine({}), "");
}

TEST(WindowsElevation, QuotedArgumentsComeBackThroughCommandLineToArgvW)
{
    for (const auto &argument : kTrickyArguments) {
        const std::string quoted = quoteWindowsArgument(argument);
        EXPECT_THAT(splitLikeWindows(widen(quoted)), ElementsAreArray({argument}))
            << "quoted as [" << quoted << "]";
    }
    // Together: no argument runs into the next (trailing backslashes, empty ones).
    const std::string line = windowsCommandLine(kTrickyArguments);
    EXPECT_THAT(splitLikeWindows(widen(line)), ElementsAreArray(kTrickyArguments)) << line;
    EXPECT_TRUE(splitLikeWindows(widen(windowsCommandLine({}))).empty());
}

TEST(WindowsElevation, ProcessIsElevatedAgreesWithTheAdministratorsGroup)
{
    // An enabled Administrators group exists only in an elevated token (a filtered
    // token holds it deny-only), so membership implies elevation on every Windows. The
    // converse is not true (a Backup Operators token is elevated too), so no more is
    // asserted on real Windows.
    SID_IDENTIFIER_AUTHORITY nt = SECURITY_NT_AUTHORITY;
    PSID administrators = nullptr;
    ASSERT_TRUE(::AllocateAndInitializeSid(&nt, 2, SECURITY_BUILTIN_DOMAIN_RID,
        DOMAIN_ALIAS_RID_ADMINS, 0, 0, 0, 0, 0, 0, &administrators));
    BOOL member = FALSE;
    const BOOL asked = ::CheckTokenMembership(nullptr, administrators, &member);
    ::FreeSid(administrators);
    ASSERT_TRUE(asked);
    const bool elevated = platform::processIsElevated();
    if (member) {
        EXPECT_TRUE(elevated) << "Administrators is enabled in this token";
    }
    if (platform::win::runningUnderWine()) {
        EXPECT_TRUE(elevated) << "Wine 8 gives every process a full administrator token";
    }
    EXPECT_EQ(platform::processIsElevated(), elevated) << "fixed for the process";
}

TEST(WindowsElevation, RawTargetsAreDeniedWithWhatToDoUnlessElevated)
{
    using Way = core::TargetAccess::Way;
    EXPECT_EQ(platform::win::rawDeviceAccess(true), core::TargetAccess {});
    const auto denied = platform::win::rawDeviceAccess(false);
    EXPECT_EQ(denied.way, Way::Denied);
    EXPECT_EQ(denied.text,
        "raw drives and volumes need an administrator: restart IOPrism as administrator (the "
        "CLI: from a terminal started with \"Run as administrator\")");

    EXPECT_THAT(platform::win::rawDeviceAccessDeniedDetail(false),
        HasSubstr("open a terminal with \"Run as administrator\" and run the command again"));
    const std::string elevated = platform::win::rawDeviceAccessDeniedDetail(true);
    EXPECT_THAT(elevated, HasSubstr("already runs as administrator"));
    EXPECT_THAT(elevated, HasSubstr("another program"));
    EXPECT_THAT(elevated, Not(HasSubstr("Run as administrator")))
        << "an elevated process must not be told to elevate";
}

// The GUI offers a test-file location only where this user may create files: Windows
// says so by the folder's security descriptor (a standard user may not create files at
// the root of C:), asked without creating anything.
TEST(WindowsElevation, AFolderToWriteInIsJudgedByItsSecurityDescriptor)
{
    test::TempDir dir;
    EXPECT_EQ(platform::accessProblem(dir.path().string(), true), "") << "a folder of ours";
    EXPECT_EQ(platform::accessProblem((dir.path() / "missing").string(), true), "")
        << "missing: other checks say so";

    // A folder whose own list (not inherited) lets everybody read and traverse it only.
    const std::filesystem::path closed = dir.path() / "closed";
    std::filesystem::create_directory(closed);
    const auto setDacl = [&](const wchar_t *sddl) {
        PSECURITY_DESCRIPTOR descriptor = nullptr;
        if (!::ConvertStringSecurityDescriptorToSecurityDescriptorW(
                sddl, SDDL_REVISION_1, &descriptor, nullptr))
            return false;
        const bool set
            = ::SetFileSecurityW(closed.wstring().c_str(), DACL_SECURITY_INFORMATION, descriptor);
        ::LocalFree(descriptor);
        return set;
    };
    ASSERT_TRUE(setDacl(L"D:P(A;OICI;FRFX;;;WD)"));
    const std::string problem = platform::accessProblem(closed.string(), true);
    EXPECT_TRUE(setDacl(L"D:P(A;OICI;FA;;;WD)")) << "opened again, so the folder can go";
    if (problem.empty() && platform::processIsElevated())
        GTEST_SKIP() << "this process is elevated (Wine's user is): the descriptor does not bind "
                        "an administrator's backup rights";
    EXPECT_THAT(problem, HasSubstr("may not create files in " + closed.string()));
    EXPECT_EQ(platform::accessProblem(closed.string(), false), "") << "reading it is allowed";
}

TEST(WindowsElevation, TestFilesAreDirectAndRawTargetsFollowElevation)
{
    using Way = core::TargetAccess::Way;
    test::TempDir dir;
    const std::string file = (dir.path() / "t.dat").string();
    {
        std::ofstream(dir.path() / "t.dat") << "x";
    }
    EXPECT_EQ(platform::targetAccess(file, true), core::TargetAccess {});
    EXPECT_EQ(
        platform::targetAccess((dir.path() / "new.dat").string(), true), core::TargetAccess {});
    EXPECT_EQ(platform::accessProblem(file, true), "");
    EXPECT_EQ(platform::targetAccess("\\\\.\\PhysicalDrive63", false), core::TargetAccess {})
        << "a drive that is not there is no rights question";

    core::Target testFile;
    testFile.path = file;
    EXPECT_FALSE(platform::needsElevationFor(testFile));
    core::Target volume;
    volume.kind = core::TargetKind::Volume;
    volume.path = "\\\\.\\C:";
    const bool elevated = platform::processIsElevated();
    if (platform::win::deviceExists("\\\\.\\C:")) {
        const auto access = platform::targetAccess(volume.path, false);
        EXPECT_EQ(access.way, elevated ? Way::Direct : Way::Denied) << access.text;
        EXPECT_EQ(platform::accessProblem(volume.path, true), access.text);
        EXPECT_EQ(platform::needsElevationFor(volume), !elevated);
    }
    core::Target missing = volume;
    missing.kind = core::TargetKind::PhysicalDrive;
    missing.path = "\\\\.\\PhysicalDrive63";
    EXPECT_FALSE(platform::needsElevationFor(missing)) << "missing, not a rights question";
}

// Under Wine the restart really happens: this program starts again with the tricky
// arguments, runs only this test, and records what it received and where it started.
TEST(WindowsElevation, RestartElevatedStartsThisProgramWithItsArguments)
{
    int argc = 0;
    LPWSTR *argv = ::CommandLineToArgvW(::GetCommandLineW(), &argc);
    std::vector<std::string> received;
    for (int i = 0; argv != nullptr && i < argc; ++i)
        received.push_back(narrow(argv[i]));
    ::LocalFree(argv);
    for (std::size_t i = 0; i < received.size(); ++i) {
        if (received[i].rfind(kChildMarker, 0) != 0)
            continue;
        // The restarted program: record every argument after the marker, each ended by
        // a NUL (they may hold newlines), then the folder and the process ID; written
        // under another name and renamed so the waiting test never reads half of it.
        const std::filesystem::path record = widen(received[i].substr(kChildMarker.size()));
        std::string text;
        for (std::size_t j = i + 1; j < received.size(); ++j)
            text += received[j] + '\0';
        text += narrow(currentFolder()) + '\0' + std::to_string(::GetCurrentProcessId()) + '\0';
        const auto partial = std::filesystem::path(record).concat(".part");
        {
            std::ofstream(partial, std::ios::binary) << text;
        }
        std::filesystem::rename(partial, record);
        return;
    }
    if (!platform::win::runningUnderWine())
        GTEST_SKIP() << "on Windows this would ask for administrator rights (UAC)";

    test::TempDir dir;
    const auto record = dir.path() / "received";
    std::vector<std::string> arguments
        = {"--gtest_filter=WindowsElevation.RestartElevatedStartsThisProgramWithItsArguments",
            std::string(kChildMarker) + narrow(record.wstring())};
    arguments.insert(arguments.end(), kTrickyArguments.begin(), kTrickyArguments.end());
    const auto started = platform::restartElevated(arguments);
    ASSERT_TRUE(started.ok()) << started.error().toString();

    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!std::filesystem::exists(record) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_TRUE(std::filesystem::exists(record)) << "the restarted program recorded nothing";
    std::ifstream in(record, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    std::vector<std::string> fields;
    for (std::size_t from = 0, nul; (nul = text.find('\0', from)) != std::string::npos;
         from = nul + 1)
        fields.push_back(text.substr(from, nul - from));
    ASSERT_EQ(fields.size(), kTrickyArguments.size() + 2) << text;
    EXPECT_THAT(std::vector(fields.begin(), fields.end() - 2), ElementsAreArray(kTrickyArguments));
    EXPECT_EQ(fields[fields.size() - 2], narrow(currentFolder()))
        << "started in this folder, not System32: relative paths keep their meaning";

    // Let it finish before the folder goes (and before ctest waits on its output).
    platform::win::UniqueHandle child(
        ::OpenProcess(SYNCHRONIZE, FALSE, DWORD(std::stoul(fields.back()))));
    if (child.valid())
        ::WaitForSingleObject(child.get(), 30000);
}
