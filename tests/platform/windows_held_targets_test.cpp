// SPDX-License-Identifier: GPL-3.0-or-later
// Never outside the target, even under a race (issue 23), on Windows: the backend holds
// what it checked as handles, and the IOCP engine and the removals use only those. Each
// test swaps a path the way someone with write access to the folder would — between
// preparation and the engine's open, or between the checks and the hold
// (BackendOptions::beforeHold) — and checks by content that the other file is unchanged
// and that the open was refused or went to the held object.
//
// Wine 8 creates no symbolic links or junctions (CreateSymbolicLinkW reports success and
// makes nothing), so the swaps here are renames and replacement files; the link and
// junction cases are covered on Windows by the same checks (a reparse point is refused on
// its handle's attributes, and its file ID is not the one held).
#include "core/workload/file_tree.h"
#include "platform/windows/held_targets.h"
#include "platform/windows/iocp_engine.h"
#include "platform/windows/windows_backend.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "target_test_util.h"
#include "windows_test_util.h"

using namespace ioprism;
using namespace ioprism::test::win;
using platform::BackendOptions;
using platform::WindowsBackend;
using ::testing::AnyOf;
using ::testing::HasSubstr;

namespace fs = std::filesystem;

namespace {

constexpr std::uint32_t kBlockBytes = 64 * 1024;

core::PrepareOptions writing()
{
    core::PrepareOptions o;
    o.needWrite = true;
    o.fillPattern.kind = core::DataPatternKind::RepeatingBytes;
    o.fillPattern.repeatingByte = 0x11;
    return o;
}

// Moves `path` away to `away` and puts a new file with other content at its name: at no
// moment does the name hold a link (Wine makes none), but it names another file.
void replaceWithOther(const fs::path &path, const fs::path &away, std::uint64_t bytes)
{
    ASSERT_TRUE(::MoveFileExW(path.wstring().c_str(), away.wstring().c_str(), 0));
    writeFile(path, bytes, 99);
}

bool firstBlockIs(const fs::path &path, char byte)
{
    const auto data = readAll(path);
    return data.size() >= kBlockBytes
        && std::all_of(data.begin(), data.begin() + kBlockBytes, [&](char c) { return c == byte; });
}

core::EngineFile treeFile(const core::Target &t, std::uint64_t index)
{
    const auto files = core::fileTreeFiles(t.path, t.tree);
    core::EngineFile f {files[index], true, core::CacheMode::Direct, false};
    f.treeRoot = t.path;
    f.treeFileIndex = index;
    return f;
}

} // namespace

// A test file renamed away and another file put at its name after preparation: the engine
// reopens the held file (Windows) or, where ReOpenFile goes by name again (Wine 8), finds
// another file ID and refuses. Either way the other file is never written.
TEST(WindowsHeldTargets, ATestFileReplacedAfterPreparationIsNeverWrittenInItsPlace)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto path = dir.path() / "t.dat";
    const auto info = backend.prepareTarget(testFileTarget(path, 1 << 20), writing(), {});
    ASSERT_TRUE(info.ok()) << info.error().toString();
    replaceWithOther(path, dir.path() / "t.away", 1 << 20);
    const auto other = readAll(path);

    const std::string error
        = writeThroughEngine(backend, {path.string(), true, core::CacheMode::Direct, false});
    EXPECT_EQ(readAll(path), other) << "the file put in the test file's place was written";
    if (error.empty()) {
        EXPECT_FALSE(platform::win::runningUnderWine()) << "Wine's ReOpenFile goes by name";
        EXPECT_TRUE(firstBlockIs(dir.path() / "t.away", 0x5a)) << "the held file was not written";
    } else {
        EXPECT_THAT(error, HasSubstr("no longer the file IOPrism prepared"));
        EXPECT_TRUE(firstBlockIs(dir.path() / "t.away", 0x11));
    }
}

// Renamed away and nothing in its place: the open is refused or reaches the held file.
TEST(WindowsHeldTargets, ATestFileRenamedAwayIsOpenedAsItselfOrRefused)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto path = dir.path() / "t.dat";
    ASSERT_TRUE(backend.prepareTarget(testFileTarget(path, 1 << 20), writing(), {}).ok());
    ASSERT_TRUE(
        ::MoveFileExW(path.wstring().c_str(), (dir.path() / "t.away").wstring().c_str(), 0));
    const std::string error
        = writeThroughEngine(backend, {path.string(), true, core::CacheMode::Buffered, false});
    EXPECT_FALSE(fs::exists(path)) << "the engine created a file at the old name";
    if (error.empty())
        EXPECT_TRUE(firstBlockIs(dir.path() / "t.away", 0x5a));
    else
        EXPECT_TRUE(firstBlockIs(dir.path() / "t.away", 0x11));
}

// Unswapped, the engine writes the prepared file through the held handle.
TEST(WindowsHeldTargets, ThePreparedTestFileIsWrittenThroughTheHeldHandle)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto path = dir.path() / "t.dat";
    ASSERT_TRUE(backend.prepareTarget(testFileTarget(path, 1 << 20), writing(), {}).ok());
    EXPECT_EQ(
        writeThroughEngine(backend, {path.string(), true, core::CacheMode::Direct, false}), "");
    EXPECT_TRUE(firstBlockIs(path, 0x5a));
}

// An engine of a backend opens only what that backend prepared.
TEST(WindowsHeldTargets, AFileTheBackendDidNotPrepareIsNotOpened)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto path = dir.path() / "unprepared.dat";
    writeFile(path, 1 << 20, 5);
    const auto before = readAll(path);
    EXPECT_THAT(
        writeThroughEngine(backend, {path.string(), true, core::CacheMode::Buffered, false}),
        HasSubstr("holds no handle"));
    EXPECT_EQ(readAll(path), before);
}

// Between the checks and the hold: the hold opens the file without following anything and
// compares its file ID with what the checks saw; a replacement is refused, unwritten.
TEST(WindowsHeldTargets, ATestFileReplacedBetweenTheChecksAndTheHoldIsRefused)
{
    test::TempDir dir;
    const auto path = dir.path() / "t.dat";
    std::vector<char> other;
    WindowsBackend backend(BackendOptions {.beforeHold = [&](const std::string &p) {
        replaceWithOther(p, dir.path() / "t.away", 1 << 20);
        other = readAll(p);
    }});
    const auto info = backend.prepareTarget(testFileTarget(path, 1 << 20), writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), ERROR_FILE_INVALID) << info.error().toString();
    EXPECT_THAT(info.error().detail, HasSubstr("not the file IOPrism checked"));
    EXPECT_EQ(readAll(path), other);
}

// A tree file replaced by another file after preparation: the engine opens the name in
// the held level folder, finds another file ID and refuses; the other file is unchanged.
TEST(WindowsHeldTargets, ATreeFileReplacedAfterPreparationIsNeverWritten)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto t = treeTarget(dir.path() / "tree", 2, 2, 256 * 1024);
    ASSERT_TRUE(backend.prepareTarget(t, writing(), {}).ok());
    const auto files = core::fileTreeFiles(t.path, t.tree);
    replaceWithOther(files[3], dir.path() / "held.away", 256 * 1024);
    const auto other = readAll(files[3]);

    const std::string error = writeThroughEngine(backend, treeFile(t, 3));
    EXPECT_THAT(error, HasSubstr("no longer the file IOPrism prepared"));
    EXPECT_EQ(readAll(files[3]), other);
    EXPECT_TRUE(firstBlockIs(dir.path() / "held.away", 0x11));
    // The other files of the tree are still opened and written.
    EXPECT_EQ(writeThroughEngine(backend, treeFile(t, 0)), "");
    EXPECT_TRUE(firstBlockIs(files[0], 0x5a));
}

// A level folder renamed away and replaced by a folder holding a file of the same name:
// the engine opens the name in the folder it holds, so the write goes to the tree's own
// file, and the decoy is untouched (NtCreateFile with RootDirectory, checked under Wine 8).
TEST(WindowsHeldTargets, ALevelFolderSwappedAfterPreparationLeadsNowhereElse)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto t = treeTarget(dir.path() / "tree", 2, 2, 256 * 1024);
    ASSERT_TRUE(backend.prepareTarget(t, writing(), {}).ok());
    const auto folders = core::fileTreeFolders(t.path, t.tree);
    const auto files = core::fileTreeFiles(t.path, t.tree);
    const fs::path level = folders[1];
    const fs::path away = dir.path() / "level.away";
    ASSERT_TRUE(::MoveFileExW(level.wstring().c_str(), away.wstring().c_str(), 0));
    fs::create_directory(level);
    writeFile(files[2], 256 * 1024, 99);
    const auto decoy = readAll(files[2]);

    EXPECT_EQ(writeThroughEngine(backend, treeFile(t, 2)), "");
    EXPECT_EQ(readAll(files[2]), decoy) << "the decoy in the swapped-in folder was written";
    EXPECT_TRUE(firstBlockIs(away / fs::path(files[2]).filename(), 0x5a));
}

// Between the checks and the hold, a tree file replaced: refused, unwritten.
TEST(WindowsHeldTargets, ATreeFileReplacedBetweenTheChecksAndTheHoldIsRefused)
{
    test::TempDir dir;
    const auto t = treeTarget(dir.path() / "tree", 2, 2, 256 * 1024);
    const auto files = core::fileTreeFiles(t.path, t.tree);
    std::vector<char> other;
    WindowsBackend backend(BackendOptions {.beforeHold = [&](const std::string &) {
        replaceWithOther(files[1], dir.path() / "held.away", 256 * 1024);
        other = readAll(files[1]);
    }});
    const auto info = backend.prepareTarget(t, writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), ERROR_FILE_INVALID) << info.error().toString();
    EXPECT_EQ(readAll(files[1]), other);
}

// Removal walks the tree beneath its top folder through handles: a level folder swapped
// for another folder holding a file of a tree file's name leaves that file alone.
TEST(WindowsHeldTargets, RemovalNeverFollowsASwappedLevelFolder)
{
    test::TempDir dir;
    const auto t = treeTarget(dir.path() / "tree", 2, 2, 64 * 1024);
    {
        WindowsBackend backend({});
        ASSERT_TRUE(backend.prepareTarget(t, writing(), {}).ok());
        const auto folders = core::fileTreeFolders(t.path, t.tree);
        const auto files = core::fileTreeFiles(t.path, t.tree);
        ASSERT_TRUE(::MoveFileExW(fs::path(folders[1]).wstring().c_str(),
            (dir.path() / "level.away").wstring().c_str(), 0));
        fs::create_directory(folders[1]);
        writeFile(files[2], 4096, 99);
        const auto decoy = readAll(files[2]);
        const auto st = platform::removeFileTree(t.path, t.tree);
        EXPECT_FALSE(st.ok()) << "the swapped-in folder and its file are not IOPrism's";
        EXPECT_EQ(readAll(files[2]), decoy);
        EXPECT_FALSE(fs::exists(files[0])) << "the tree's own files at the top level go";
    }
}

// Removal after a run, while the backend still holds the tree (the CLI's
// --remove-test-files): what is held is let go first, so the whole tree goes.
TEST(WindowsHeldTargets, ATreeStillHeldIsRemovedWhole)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto t = treeTarget(dir.path() / "tree", 3, 2, 64 * 1024);
    ASSERT_TRUE(backend.prepareTarget(t, writing(), {}).ok());
    const auto st = platform::removeFileTree(t.path, t.tree);
    EXPECT_TRUE(st.ok()) << st.error().toString();
    EXPECT_FALSE(fs::exists(t.path));
    EXPECT_THAT(writeThroughEngine(backend, treeFile(t, 0)), HasSubstr("holds no handle"));
}

// The mark names the file it was set on: a copy (which keeps its streams on NTFS) is not
// IOPrism's, so it is neither written nor removed. Under Wine there are no named streams
// and a copy is a file this process did not create: not IOPrism's either.
TEST(WindowsHeldTargets, ACopyOfATestFileIsNotIOPrisms)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto path = dir.path() / "t.dat";
    ASSERT_TRUE(backend.prepareTarget(testFileTarget(path, 1 << 20), writing(), {}).ok());
    const auto copy = dir.path() / "copy.dat";
    ASSERT_TRUE(::CopyFileW(path.wstring().c_str(), copy.wstring().c_str(), TRUE));
    if (platform::volumeHasNamedStreams(dir.path().string())) {
        EXPECT_NE(::GetFileAttributesW((copy.wstring() + platform::kTestFileStream).c_str()),
            INVALID_FILE_ATTRIBUTES)
            << "CopyFile keeps streams: the mark travelled with the copy";
    }
    EXPECT_TRUE(platform::isOurTestFile(path.string()));
    EXPECT_FALSE(platform::isOurTestFile(copy.string()));
    const auto removed = platform::removeTestFile(copy.string());
    EXPECT_FALSE(removed.ok());
    EXPECT_TRUE(fs::exists(copy));
    auto written = WindowsBackend({}).prepareTarget(testFileTarget(copy, 1 << 20), writing(), {});
    ASSERT_FALSE(written.ok());
    EXPECT_THAT(written.error().detail, HasSubstr("not created by IOPrism"));
    EXPECT_TRUE(platform::removeTestFile(path.string()).ok());
    EXPECT_FALSE(fs::exists(path));
}

// The primitives, as Wine 8 and Windows give them: a folder's file opened by name relative
// to a held folder handle after the folder was renamed away and replaced reaches the held
// folder's file; a device handle is held and reopened (by name under Wine).
TEST(WindowsHeldTargets, OpenInFolderReachesTheHeldFolderAfterARename)
{
    test::TempDir dir;
    const auto folder = dir.path() / "f";
    fs::create_directory(folder);
    writeFile(folder / "x", 4096, 1);
    platform::win::UniqueHandle held(::CreateFileW(folder.wstring().c_str(), FILE_LIST_DIRECTORY,
        FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
        FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    ASSERT_TRUE(held.valid());
    ASSERT_TRUE(
        ::MoveFileExW(folder.wstring().c_str(), (dir.path() / "f.away").wstring().c_str(), 0));
    fs::create_directory(folder);
    writeFile(folder / "x", 4096, 2);
    auto h = platform::openInFolder(held.get(), L"x", GENERIC_READ,
        FILE_SHARE_READ | FILE_SHARE_WRITE, FILE_NON_DIRECTORY_FILE, true, "x");
    ASSERT_TRUE(h.ok()) << h.error().toString();
    char first = 0;
    DWORD got = 0;
    ASSERT_TRUE(::ReadFile(h->get(), &first, 1, &got, nullptr));
    EXPECT_EQ(first, readAll(dir.path() / "f.away" / "x")[0]);
    EXPECT_NE(first, readAll(folder / "x")[0]);
    EXPECT_FALSE(platform::openInFolder(
        held.get(), L"..\\x", GENERIC_READ, FILE_SHARE_READ, FILE_NON_DIRECTORY_FILE, true, "..\\x")
                     .ok());
}

// A volume is held as the device handle the checks used; the engine reopens that handle
// (ReOpenFile) on Windows, and under Wine, whose ReOpenFile refuses device handles, opens
// the device's name again (held_targets.h). The read then behaves as a read of the device
// opened by its name: it succeeds on Windows; Wine's \\.\C: answers only IOCTLs, and its
// reads fail (ERROR_INVALID_FUNCTION) either way.
TEST(WindowsHeldTargets, AVolumeIsReadThroughTheHeldDevice)
{
    platform::win::UniqueHandle probe(::CreateFileW(L"\\\\.\\C:", GENERIC_READ,
        FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING, 0, nullptr));
    if (!probe.valid())
        GTEST_SKIP() << "\\\\.\\C: does not open (an administrator account is needed on Windows)";
    probe.reset();
    WindowsBackend backend({});
    core::Target volume;
    volume.kind = core::TargetKind::Volume;
    volume.path = "\\\\.\\C:";
    const auto info = backend.prepareTarget(volume, {}, {});
    ASSERT_TRUE(info.ok()) << info.error().toString();
    // The first 4 KiB read through `engine`: the request's error.
    const auto readFirstBlock = [&](core::IoEngine &engine) {
        const std::vector<core::EngineFile> files {
            {info->path, false, core::CacheMode::Buffered, false}};
        auto st = engine.init({.queueDepth = 1, .bufferCount = 1, .bufferBytes = 4096}, files);
        EXPECT_TRUE(st.ok()) << st.error().toString();
        int error = -1;
        if (!st)
            return error;
        runOps(
            engine,
            {{.file = 0, .offset = 0, .direction = core::IoDirection::Read, .length = 4096}}, 1,
            [](const TestOp &, std::span<std::byte>) {},
            [&](const TestOp &, const core::IoRequest &r, std::span<std::byte>) {
                error = r.error;
                if (r.error == 0) {
                    EXPECT_EQ(r.resultBytes, 4096);
                }
            });
        return error;
    };
    auto held = backend.makeEngine();
    ASSERT_TRUE(held.ok());
    platform::IocpEngine byName;
    const int heldError = readFirstBlock(**held);
    EXPECT_EQ(heldError, readFirstBlock(byName));
    if (!platform::win::runningUnderWine()) {
        EXPECT_EQ(heldError, 0);
    }
}

// A level folder swapped for another folder while the tree is being filled (from the
// progress callback, after the folders were made): the files are made in the level
// folders opened beneath the top without following anything, so the swapped-in folder's
// file of the same name is never written, and the hold refuses the tree.
TEST(WindowsHeldTargets, ALevelFolderSwappedDuringTheFillIsNeverFilled)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto t = treeTarget(dir.path() / "tree", 2, 2, 256 * 1024);
    const auto folders = core::fileTreeFolders(t.path, t.tree);
    const auto files = core::fileTreeFiles(t.path, t.tree);
    bool swapped = false;
    std::vector<char> decoy;
    const auto info = backend.prepareTarget(t, writing(), [&](std::uint64_t, std::uint64_t) {
        if (!swapped) {
            swapped = true;
            EXPECT_TRUE(::MoveFileExW(fs::path(folders[1]).wstring().c_str(),
                (dir.path() / "level.away").wstring().c_str(), 0));
            fs::create_directory(folders[1]);
            writeFile(files[2], 4096, 99);
            decoy = readAll(files[2]);
        }
        return true;
    });
    ASSERT_TRUE(swapped);
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), ERROR_FILE_INVALID) << info.error().toString();
    EXPECT_EQ(readAll(files[2]), decoy) << "the swapped-in folder's file was written";
    EXPECT_TRUE(fs::exists(folders[1])) << "the swapped-in folder is not IOPrism's to remove";
}

// A level folder missing from IOPrism's own tree is made again in the folder above's
// handle (FILE_CREATE), filled, held, and its files opened through the hold.
TEST(WindowsHeldTargets, AMissingLevelFolderIsMadeAgainBeneathTheOneAbove)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto t = treeTarget(dir.path() / "tree", 3, 2, 64 * 1024);
    ASSERT_TRUE(backend.prepareTarget(t, writing(), {}).ok());
    const auto folders = core::fileTreeFolders(t.path, t.tree);
    const auto files = core::fileTreeFiles(t.path, t.tree);
    platform::releaseHeldEverywhere(t.path); // the deepest level's handle, so it can go
    fs::remove_all(folders[2]);
    const auto again = backend.prepareTarget(t, writing(), {});
    ASSERT_TRUE(again.ok()) << again.error().toString();
    EXPECT_TRUE(again->createdTestFile);
    EXPECT_TRUE(firstBlockIs(files[5], 0x11));
    EXPECT_EQ(writeThroughEngine(backend, treeFile(t, 5)), "");
    EXPECT_TRUE(firstBlockIs(files[5], 0x5a));
}
