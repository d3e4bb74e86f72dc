// SPDX-License-Identifier: GPL-3.0-or-later
// File-tree targets on Windows (issue 15): the backend creates, fills, reuses, refuses and
// removes a tree of files; the IOCP engine opens its files one at a time. Runs under Wine
// in CI (which writes through the Linux page cache whatever the flags say: these tests
// check what is on disk, not how it got there).
#include "core/workload/file_tree.h"
#include "platform/common/system.h"
#include "platform/common/target_resolution.h"
#include "platform/windows/iocp_engine.h"
#include "platform/windows/windows_backend.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <set>

#include "windows_test_util.h"

using namespace ioprism;
using namespace ioprism::test::win;
using platform::WindowsBackend;
using ::testing::HasSubstr;

namespace fs = std::filesystem;

namespace {

core::Target treeTarget(
    const fs::path &root, std::uint32_t depth, std::uint32_t filesPerLevel, std::uint64_t fileBytes)
{
    core::Target t;
    t.kind = core::TargetKind::FileTree;
    t.path = root.string();
    t.tree = {.depth = depth, .filesPerLevel = filesPerLevel, .fileSizeBytes = fileBytes};
    return t;
}

core::PrepareOptions writing(std::uint8_t byte = 0x5A)
{
    core::PrepareOptions o;
    o.needWrite = true;
    o.fillPattern.kind = core::DataPatternKind::RepeatingBytes;
    o.fillPattern.repeatingByte = byte;
    return o;
}

std::vector<std::string> filesOf(const core::Target &t)
{
    return core::fileTreeFiles(t.path, t.tree);
}

std::set<std::string> everything(const fs::path &root)
{
    std::set<std::string> all;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
        all.insert(fs::relative(it->path(), root).generic_string());
    return all;
}

} // namespace

TEST(WindowsFileTree, CreatesEveryFolderAndFileFilledWithProgressOverTheTree)
{
    test::TempDir dir;
    WindowsBackend backend({});
    // An unaligned size: each file ends with a buffered tail.
    const auto t = treeTarget(dir.path() / "tree", 3, 2, (1u << 20) + 4096 + 512);
    std::uint64_t lastDone = 0, lastTotal = 0;
    auto info = backend.prepareTarget(t, writing(), [&](std::uint64_t done, std::uint64_t total) {
        EXPECT_GE(done, lastDone);
        lastDone = done;
        lastTotal = total;
        return true;
    });
    ASSERT_TRUE(info.ok()) << info.error().toString();
    EXPECT_EQ(info->path, t.path);
    EXPECT_EQ(info->sizeBytes, t.tree.fileSizeBytes);
    EXPECT_TRUE(info->createdTestFile);
    EXPECT_FALSE(info->isDevice);
    EXPECT_GE(info->directIoMemAlignBytes, 4096u);
    EXPECT_EQ(lastDone, t.tree.totalBytes());
    EXPECT_EQ(lastTotal, t.tree.totalBytes());

    std::set<std::string> expected {".ioprism-tree", "level-2", "level-2/level-3"};
    for (const auto &f : filesOf(t))
        expected.insert(fs::relative(f, t.path).generic_string());
    EXPECT_EQ(everything(t.path), expected);
    for (const auto &f : filesOf(t)) {
        const auto bytes = readAll(f);
        ASSERT_EQ(bytes.size(), t.tree.fileSizeBytes) << f;
        EXPECT_EQ(std::count(bytes.begin(), bytes.end(), char(0x5A)),
            std::ptrdiff_t(t.tree.fileSizeBytes))
            << f << " is not filled completely";
    }
    EXPECT_EQ(platform::detectTargetKind(t.path), core::TargetKind::FileTree);
    EXPECT_EQ(platform::fileTreeAt(t.path), t.tree);
}

TEST(WindowsFileTree, ReusesItsOwnTreeAndRemakesOnlyWhatIsMissing)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto t = treeTarget(dir.path() / "tree", 2, 3, 64 * 1024);
    ASSERT_TRUE(backend.prepareTarget(t, writing(0x11), {}).ok());
    int calls = 0;
    auto again = backend.prepareTarget(
        t, writing(0x22), [&](std::uint64_t, std::uint64_t) { return ++calls, true; });
    ASSERT_TRUE(again.ok()) << again.error().toString();
    EXPECT_FALSE(again->createdTestFile);
    EXPECT_EQ(calls, 0);

    const auto files = filesOf(t);
    fs::remove(files[4]);
    auto space = backend.testFileSpace(t);
    ASSERT_TRUE(space);
    EXPECT_GE(space->needBytes, t.tree.fileSizeBytes);
    EXPECT_LT(space->needBytes, 2 * t.tree.fileSizeBytes);
    auto remade = backend.prepareTarget(t, writing(0x22), {});
    ASSERT_TRUE(remade.ok()) << remade.error().toString();
    EXPECT_TRUE(remade->createdTestFile);
    EXPECT_EQ(readAll(files[4])[100], char(0x22));
    EXPECT_EQ(readAll(files[0])[100], char(0x11)) << "a file that was there is rewritten";
}

TEST(WindowsFileTree, NeverWritesIntoAFolderItDidNotMakeNorReplacesAnotherShape)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto theirs = dir.path() / "photos";
    fs::create_directories(theirs);
    writeFile(theirs / "holiday.jpg", 4096);
    auto refused = backend.prepareTarget(treeTarget(theirs, 2, 2, 4096), writing(), {});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), ERROR_FILE_EXISTS);
    EXPECT_THAT(refused.error().detail, HasSubstr("was not made by IOPrism"));
    EXPECT_EQ(everything(theirs), std::set<std::string> {"holiday.jpg"});

    const auto t = treeTarget(dir.path() / "tree", 2, 2, 64 * 1024);
    ASSERT_TRUE(backend.prepareTarget(t, writing(), {}).ok());
    auto other = t;
    other.tree.depth = 3;
    refused = backend.prepareTarget(other, writing(), {});
    ASSERT_FALSE(refused.ok());
    EXPECT_THAT(refused.error().detail, HasSubstr("another shape (2 levels of 2 files of 64 KiB)"));
    EXPECT_EQ(everything(t.path).size(), 6u);
}

TEST(WindowsFileTree, CancelMidFillRemovesEverythingThisCallMade)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto t = treeTarget(dir.path() / "tree", 3, 2, 1u << 20);
    auto info = backend.prepareTarget(
        t, writing(), [](std::uint64_t done, std::uint64_t) { return done < (3u << 20); });
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), ERROR_CANCELLED);
    EXPECT_THAT(info.error().detail, HasSubstr("removed what this run had made of the tree"));
    EXPECT_FALSE(fs::exists(t.path));
}

TEST(WindowsFileTree, RemovalTakesExactlyTheTreeAndLeavesWhatIsForeign)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto t = treeTarget(dir.path() / "tree", 3, 2, 4096);
    ASSERT_TRUE(backend.prepareTarget(t, writing(), {}).ok());
    const auto notes = fs::path(t.path) / "level-2" / "notes.txt";
    writeFile(notes, 10);
    auto other = t.tree;
    other.filesPerLevel = 1;
    auto refused = platform::removeFileTree(t.path, other);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), ERROR_ACCESS_DENIED);

    auto removed = backend.removeFileTree(t.path, t.tree);
    ASSERT_FALSE(removed.ok());
    EXPECT_EQ(removed.error().code.value(), ERROR_DIR_NOT_EMPTY);
    EXPECT_THAT(removed.error().detail, HasSubstr("left 1 item IOPrism did not make"));
    EXPECT_EQ(everything(t.path), (std::set<std::string> {"level-2", "level-2/notes.txt"}));

    // "Remove test files" passes the tree's folder: removed by the shape its marker records.
    const auto clean = treeTarget(dir.path() / "clean", 2, 3, 4096);
    ASSERT_TRUE(backend.prepareTarget(clean, writing(), {}).ok());
    EXPECT_TRUE(platform::removeTestFile(clean.path).ok());
    EXPECT_FALSE(fs::exists(clean.path));
}

// The marker alone proves nothing: copied into a user's folder whose files fit the
// layout, it must not make IOPrism write, extend or delete them.
TEST(WindowsFileTree, ACopiedMarkerDoesNotMakeAFolderOurs)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto real = treeTarget(dir.path() / "real", 2, 2, 64 * 1024);
    ASSERT_TRUE(backend.prepareTarget(real, writing(), {}).ok());
    const auto foreign = dir.path() / "foreign";
    fs::create_directories(foreign);
    writeFile(foreign / "file-0001", 64 * 1024);
    writeFile(foreign / "file-0002", 64 * 1024);
    fs::copy_file(core::fileTreeMarkerPath(real.path), foreign / ".ioprism-tree");
    const auto before = everything(foreign);
    const auto t = treeTarget(foreign, 2, 2, 64 * 1024);
    auto refused = backend.prepareTarget(t, writing(), {});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), ERROR_FILE_EXISTS);
    EXPECT_THAT(refused.error().detail, HasSubstr("lacks IOPrism's mark"));
    for (auto removed :
        {platform::removeFileTree(t.path, t.tree), platform::removeTestFile(t.path)}) {
        ASSERT_FALSE(removed.ok());
        EXPECT_EQ(removed.error().code.value(), ERROR_ACCESS_DENIED);
    }
    EXPECT_EQ(everything(foreign), before);
    EXPECT_EQ(fs::file_size(foreign / "file-0001"), 64u * 1024);
}

// A user's file, or a second name (hard link) of a file, in the tree's layout is never
// written, and removal leaves it and says so.
TEST(WindowsFileTree, AnUnmarkedOrHardLinkedFileInsideATreeIsNeverWrittenNorRemoved)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto t = treeTarget(dir.path() / "tree", 2, 2, 64 * 1024);
    ASSERT_TRUE(backend.prepareTarget(t, writing(), {}).ok());
    const auto files = filesOf(t);
    // The user's file, short (it would be "completed" if it counted), moved over ours: made
    // first, so that it cannot reuse our file's number (Wine's file index is the inode).
    writeFile(dir.path() / "users", 100);
    fs::rename(dir.path() / "users", files[3]);
    auto refused = backend.prepareTarget(t, writing(), {});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), ERROR_FILE_EXISTS);
    EXPECT_THAT(refused.error().detail, HasSubstr("lacks IOPrism's mark"));
    EXPECT_EQ(fs::file_size(files[3]), 100u);

    const auto kept = dir.path() / "kept";
    ASSERT_TRUE(
        ::CreateHardLinkW(kept.wstring().c_str(), fs::path(files[0]).wstring().c_str(), nullptr));
    EXPECT_FALSE(platform::isOurTestFile(files[0]));

    auto removed = platform::removeFileTree(t.path, t.tree);
    ASSERT_FALSE(removed.ok());
    EXPECT_EQ(removed.error().code.value(), ERROR_DIR_NOT_EMPTY);
    EXPECT_THAT(removed.error().detail, HasSubstr("left 2 items IOPrism did not make"));
    EXPECT_EQ(
        everything(t.path), (std::set<std::string> {"file-0001", "level-2", "level-2/file-0002"}));
    EXPECT_EQ(fs::file_size(kept), 64u * 1024);
}

TEST(WindowsFileTree, ADamagedMarkerIsReportedAsDamaged)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto t = treeTarget(dir.path() / "tree", 2, 2, 4096);
    ASSERT_TRUE(backend.prepareTarget(t, writing(), {}).ok());
    fs::resize_file(core::fileTreeMarkerPath(t.path), 5);
    auto refused = backend.prepareTarget(t, writing(), {});
    ASSERT_FALSE(refused.ok());
    EXPECT_THAT(refused.error().detail, HasSubstr("marker is damaged"));
    auto removed = platform::removeTestFile(t.path);
    ASSERT_FALSE(removed.ok());
    EXPECT_THAT(removed.error().detail, HasSubstr("marker is damaged"));
    EXPECT_TRUE(fs::exists(filesOf(t)[0]));
}

TEST(WindowsFileTree, TheIocpEngineOpensEachFileInOneSlotAndReadsWhatIsThere)
{
    test::TempDir dir;
    WindowsBackend backend({});
    const auto t = treeTarget(dir.path() / "tree", 2, 3, 64 * 1024);
    auto info = backend.prepareTarget(t, writing(0x33), {});
    ASSERT_TRUE(info.ok()) << info.error().toString();
    platform::IocpEngine engine;
    const std::vector<core::EngineFile> slots {{.openLater = true}};
    ASSERT_TRUE(engine.init({.queueDepth = 1, .bufferCount = 1}, slots).ok());
    std::vector<core::IoRequest *> completed(1);
    for (const auto &path : filesOf(t)) {
        auto st = engine.openFile(0, {path, false, core::CacheMode::Direct, false});
        ASSERT_TRUE(st.ok()) << st.error().toString();
        core::IoRequest r {};
        r.lengthBytes = 4096;
        r.offsetBytes = 8192;
        ASSERT_TRUE(engine.queue(&r));
        ASSERT_TRUE(engine.commit().ok());
        auto got = engine.reap(completed, 1, std::chrono::seconds(10));
        ASSERT_TRUE(got.ok() && *got == 1u);
        EXPECT_EQ(r.error, 0) << path;
        ASSERT_EQ(r.resultBytes, 4096) << path;
        EXPECT_EQ(std::to_integer<int>(engine.buffer(0)[4095]), 0x33) << path;
        ASSERT_TRUE(engine.closeFile(0).ok());
    }
}
