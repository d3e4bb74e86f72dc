// SPDX-License-Identifier: GPL-3.0-or-later
// File-tree targets on Linux (issue 15): the backend creates, fills, reuses, refuses and
// removes io_profile's tree of files on real file systems; the engines open its files one
// at a time; the counters find the device under the tree's folder.
#include "core/workload/file_tree.h"
#include "platform/common/system.h"
#include "platform/linux/disk_counter_source.h"
#include "platform/linux/linux_backend.h"
#include "platform/linux/sync_engine.h"
#include "platform/linux/uring_engine.h"

#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "platform_test_util.h"

namespace ioprism::test {
namespace {

using platform::BackendOptions;
using platform::EngineKind;
using platform::LinuxBackend;

namespace fs = std::filesystem;

core::Target treeTarget(const fs::path &root, std::uint32_t depth, std::uint32_t filesPerLevel,
    std::uint64_t fileBytes, core::CacheMode mode = core::CacheMode::Direct)
{
    core::Target t;
    t.kind = core::TargetKind::FileTree;
    t.path = root.string();
    t.tree = {.depth = depth, .filesPerLevel = filesPerLevel, .fileSizeBytes = fileBytes};
    t.cacheMode = mode;
    return t;
}

core::PrepareOptions writing()
{
    core::PrepareOptions o;
    o.needWrite = true;
    o.seed = 99;
    return o;
}

core::PrepareOptions reading()
{
    core::PrepareOptions o;
    o.seed = 99;
    return o;
}

std::vector<std::string> filesOf(const core::Target &t)
{
    return core::fileTreeFiles(t.path, t.tree);
}

// Every path under `root`, relative to it, so that a test sees all that is there.
std::set<std::string> everything(const fs::path &root)
{
    std::set<std::string> all;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
        all.insert(fs::relative(it->path(), root).string());
    return all;
}

class FileTreePrepare : public ::testing::Test
{
protected:
    TempDir m_dir {realFsDir()};
    LinuxBackend m_backend {BackendOptions {.kind = EngineKind::Auto}};
};

TEST_F(FileTreePrepare, CreatesEveryFolderAndFileFilledNotSparseWithProgressOverTheTree)
{
    // 3 levels of 4 files of 1 MiB + 4 KiB: each file needs two chunks.
    const auto t = treeTarget(m_dir.path() / "tree", 3, 4, (1u << 20) + 4096);
    std::uint64_t lastDone = 0, lastTotal = 0;
    int calls = 0;
    auto info = m_backend.prepareTarget(t, writing(), [&](std::uint64_t done, std::uint64_t total) {
        EXPECT_GE(done, lastDone);
        EXPECT_LE(done, total);
        lastDone = done;
        lastTotal = total;
        ++calls;
        return true;
    });
    ASSERT_TRUE(info.ok()) << info.error().toString();
    EXPECT_EQ(info->path, t.path);
    EXPECT_EQ(info->sizeBytes, t.tree.fileSizeBytes);
    EXPECT_TRUE(info->createdTestFile);
    EXPECT_FALSE(info->isDevice);
    EXPECT_FALSE(info->readOnly);
    EXPECT_GE(info->directIoOffsetAlignBytes, 512u);
    EXPECT_GE(info->directIoMemAlignBytes, 4096u);
    EXPECT_EQ(lastTotal, t.tree.totalBytes());
    EXPECT_EQ(lastDone, t.tree.totalBytes());
    EXPECT_GE(calls, 24); // two chunks per file

    // Exactly the layout: the marker, two level folders, twelve files.
    std::set<std::string> expected {".ioprism-tree", "level-2", "level-2/level-3"};
    for (const auto &f : filesOf(t))
        expected.insert(fs::relative(f, t.path).string());
    EXPECT_EQ(everything(t.path), expected);
    EXPECT_EQ(readFile(core::fileTreeMarkerPath(t.path)), core::fileTreeMarkerText(t.tree));

    std::set<std::string> firstBlocks;
    for (const auto &f : filesOf(t)) {
        struct stat st {
        };
        ASSERT_EQ(::stat(f.c_str(), &st), 0) << f;
        EXPECT_EQ(std::uint64_t(st.st_size), t.tree.fileSizeBytes) << f;
        EXPECT_GE(std::uint64_t(st.st_blocks) * 512, t.tree.fileSizeBytes) << f << " is sparse";
        const std::string data = readFile(f);
        EXPECT_NE(data.find_first_not_of('\0'), std::string::npos) << f;
        firstBlocks.insert(data.substr(0, 4096));
    }
    EXPECT_EQ(firstBlocks.size(), 12u) << "FullRandom content repeats between files";
}

TEST_F(FileTreePrepare, ReusesItsOwnTreeOfTheSameShapeWithoutWriting)
{
    const auto t = treeTarget(m_dir.path() / "tree", 2, 3, 64 * 1024);
    ASSERT_TRUE(m_backend.prepareTarget(t, writing(), {}).ok());
    std::vector<std::string> before;
    for (const auto &f : filesOf(t))
        before.push_back(readFile(f));
    int calls = 0;
    auto info = m_backend.prepareTarget(
        t, writing(), [&](std::uint64_t, std::uint64_t) { return ++calls, true; });
    ASSERT_TRUE(info.ok()) << info.error().toString();
    EXPECT_FALSE(info->createdTestFile);
    EXPECT_EQ(calls, 0);
    for (std::size_t i = 0; i < before.size(); ++i)
        EXPECT_EQ(readFile(filesOf(t)[i]), before[i]) << filesOf(t)[i];
}

TEST_F(FileTreePrepare, RemakesMissingAndShortFilesAndLeavesTheRestAlone)
{
    const auto t = treeTarget(m_dir.path() / "tree", 3, 2, 2u << 20);
    ASSERT_TRUE(m_backend.prepareTarget(t, writing(), {}).ok());
    const auto files = filesOf(t);
    const std::string untouched = readFile(files[0]);
    fs::remove(files[1]); // a missing file
    fs::resize_file(files[2], 5000); // a short one (a crash mid-fill)
    fs::remove_all(fs::path(t.path) / "level-2" / "level-3"); // a missing level

    std::uint64_t lastDone = 0, lastTotal = 0;
    auto info = m_backend.prepareTarget(t, writing(), [&](std::uint64_t done, std::uint64_t total) {
        lastDone = done;
        lastTotal = total;
        return true;
    });
    ASSERT_TRUE(info.ok()) << info.error().toString();
    EXPECT_TRUE(info->createdTestFile);
    // A whole file, a short one from its first chunk, and the two files of level 3.
    EXPECT_EQ(lastTotal, 4 * t.tree.fileSizeBytes);
    EXPECT_EQ(lastDone, lastTotal);
    for (const auto &f : files) {
        struct stat st {
        };
        ASSERT_EQ(::stat(f.c_str(), &st), 0) << f;
        EXPECT_EQ(std::uint64_t(st.st_size), t.tree.fileSizeBytes) << f;
        EXPECT_GE(std::uint64_t(st.st_blocks) * 512, t.tree.fileSizeBytes) << f;
    }
    EXPECT_EQ(readFile(files[0]), untouched);
}

TEST_F(FileTreePrepare, NeverWritesIntoAFolderItDidNotMake)
{
    const auto root = m_dir.path() / "photos";
    fs::create_directories(root);
    writeFile(root / "holiday.jpg", 4096, 5);
    const auto t = treeTarget(root, 2, 2, 4096);
    for (const auto &options : {writing(), reading()}) {
        auto info = m_backend.prepareTarget(t, options, {});
        ASSERT_FALSE(info.ok());
        EXPECT_EQ(info.error().code.value(), EEXIST);
        EXPECT_NE(info.error().detail.find("was not made by IOPrism"), std::string::npos)
            << info.error().detail;
    }
    EXPECT_EQ(everything(root), std::set<std::string> {"holiday.jpg"});
    EXPECT_FALSE(m_backend.testFileSpace(t).value_or(core::TestFileSpace {}).needBytes);

    // Nor into a file: the path names the folder IOPrism creates.
    const auto t2 = treeTarget(root / "holiday.jpg", 2, 2, 4096);
    auto info = m_backend.prepareTarget(t2, writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), ENOTDIR);
    EXPECT_EQ(fs::file_size(root / "holiday.jpg"), 4096u);
}

TEST_F(FileTreePrepare, RefusesItsOwnTreeOfAnotherShapeAndLeavesIt)
{
    const auto t = treeTarget(m_dir.path() / "tree", 2, 2, 64 * 1024);
    ASSERT_TRUE(m_backend.prepareTarget(t, writing(), {}).ok());
    const auto before = everything(t.path);
    auto other = t;
    other.tree.filesPerLevel = 3;
    auto info = m_backend.prepareTarget(other, writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), EEXIST);
    EXPECT_NE(info.error().detail.find("another shape (2 levels of 2 files of 64 KiB) than asked "
                                       "for (2 levels of 3 files of 64 KiB)"),
        std::string::npos)
        << info.error().detail;
    EXPECT_EQ(everything(t.path), before);
}

TEST_F(FileTreePrepare, NeverWritesThroughASymbolicLinkInTheLayout)
{
    const auto t = treeTarget(m_dir.path() / "tree", 2, 2, 64 * 1024);
    ASSERT_TRUE(m_backend.prepareTarget(t, writing(), {}).ok());
    const auto outside = m_dir.path() / "precious";
    writeFile(outside, 100, 3);
    const auto file = filesOf(t)[3];
    fs::remove(file);
    fs::create_symlink(outside, file);
    auto info = m_backend.prepareTarget(t, writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().path, file);
    EXPECT_NE(info.error().detail.find("symbolic link"), std::string::npos) << info.error().detail;
    EXPECT_EQ(fs::file_size(outside), 100u);

    // Removal leaves it too, and says so.
    auto removed = platform::removeFileTree(t.path, t.tree);
    ASSERT_FALSE(removed.ok());
    EXPECT_EQ(removed.error().code.value(), ENOTEMPTY);
    EXPECT_NE(removed.error().detail.find(file), std::string::npos) << removed.error().detail;
    EXPECT_TRUE(fs::is_symlink(file));
    EXPECT_EQ(fs::file_size(outside), 100u);
}

TEST_F(FileTreePrepare, CancelMidFillRemovesEverythingThisCallMade)
{
    const auto t = treeTarget(m_dir.path() / "tree", 3, 4, 1u << 20);
    auto info = m_backend.prepareTarget(
        t, writing(), [](std::uint64_t done, std::uint64_t) { return done < (5u << 20); });
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), ECANCELED);
    EXPECT_NE(
        info.error().detail.find("removed what this run had made of the tree"), std::string::npos)
        << info.error().detail;
    EXPECT_FALSE(fs::exists(t.path));
    EXPECT_TRUE(fs::is_empty(m_dir.path()));
}

TEST_F(FileTreePrepare, CancelWhileCompletingKeepsWhatWasThereBefore)
{
    const auto t = treeTarget(m_dir.path() / "tree", 2, 4, 1u << 20);
    ASSERT_TRUE(m_backend.prepareTarget(t, writing(), {}).ok());
    const auto files = filesOf(t);
    fs::remove_all(fs::path(t.path) / "level-2");
    fs::resize_file(files[1], 4096 + 100);
    auto info = m_backend.prepareTarget(
        t, writing(), [](std::uint64_t done, std::uint64_t) { return done < (2u << 20); });
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), ECANCELED);
    // What this call made is gone; the short file is as short as it was.
    std::set<std::string> expected {".ioprism-tree"};
    for (int i = 0; i < 4; ++i)
        expected.insert(fs::relative(files[i], t.path).string());
    EXPECT_EQ(everything(t.path), expected);
    EXPECT_EQ(fs::file_size(files[1]), 4096u + 100);
    EXPECT_EQ(fs::file_size(files[0]), 1u << 20);
}

TEST_F(FileTreePrepare, AMissingParentIsAClearError)
{
    const auto t = treeTarget(m_dir.path() / "no" / "tree", 2, 2, 4096);
    auto info = m_backend.prepareTarget(t, writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), ENOENT);
    EXPECT_NE(info.error().detail.find("does not exist"), std::string::npos);
}

TEST_F(FileTreePrepare, ATrailingSlashNamesTheSameFolder)
{
    const auto t = treeTarget(m_dir.path() / "tree", 2, 2, 4096);
    auto slashed = t;
    slashed.path += "/";
    ASSERT_TRUE(m_backend.prepareTarget(slashed, writing(), {}).ok());
    auto info = m_backend.prepareTarget(t, writing(), {});
    ASSERT_TRUE(info.ok()) << info.error().toString();
    EXPECT_FALSE(info->createdTestFile);
}

TEST_F(FileTreePrepare, AnEarlyFreeSpaceShortfallIsRefusedBeforeAnythingIsMade)
{
    const auto t = treeTarget(m_dir.path() / "tree", 4, 1000, std::uint64_t(1) << 40);
    auto info = m_backend.prepareTarget(t, writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), ENOSPC);
    EXPECT_NE(info.error().detail.find("for the file tree: need 3.9 PiB, have "), std::string::npos)
        << info.error().detail;
    EXPECT_FALSE(fs::exists(t.path));
}

TEST_F(FileTreePrepare, SpaceNeededIsWhatIsStillToBeWritten)
{
    const auto t = treeTarget(m_dir.path() / "tree", 2, 3, 64 * 1024);
    struct stat parent {
    };
    ASSERT_EQ(::stat(m_dir.path().c_str(), &parent), 0);
    struct statvfs sv {
    };
    ASSERT_EQ(::statvfs(m_dir.path().c_str(), &sv), 0);
    auto space = m_backend.testFileSpace(t);
    ASSERT_TRUE(space);
    // The files, and a block each for the two folders and the marker.
    EXPECT_EQ(space->needBytes, t.tree.totalBytes() + 3 * sv.f_frsize);
    EXPECT_EQ(space->fileSystem, std::to_string(parent.st_dev));
    EXPECT_GT(space->freeBytes, 0u);

    ASSERT_TRUE(m_backend.prepareTarget(t, writing(), {}).ok());
    space = m_backend.testFileSpace(t);
    ASSERT_TRUE(space);
    EXPECT_EQ(space->needBytes, 0u);
    fs::remove(filesOf(t)[4]);
    space = m_backend.testFileSpace(t);
    ASSERT_TRUE(space);
    EXPECT_EQ(space->needBytes, t.tree.fileSizeBytes);
}

TEST_F(FileTreePrepare, RemovalTakesExactlyTheTreeAndLeavesWhatIsForeign)
{
    const auto t = treeTarget(m_dir.path() / "tree", 3, 2, 4096);
    ASSERT_TRUE(m_backend.prepareTarget(t, writing(), {}).ok());
    const auto notes = fs::path(t.path) / "level-2" / "notes.txt";
    writeFile(notes, 10);

    // Another shape, or no marker: nothing is touched.
    auto other = t.tree;
    other.depth = 2;
    auto refused = platform::removeFileTree(t.path, other);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), EPERM);
    EXPECT_EQ(everything(t.path).size(), 10u);
    const auto foreign = m_dir.path() / "foreign";
    fs::create_directories(foreign / "level-2");
    writeFile(foreign / "file-0001", 10);
    refused = platform::removeFileTree(foreign.string(), t.tree);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), EPERM);
    EXPECT_TRUE(fs::exists(foreign / "file-0001"));

    auto removed = m_backend.removeFileTree(t.path, t.tree);
    ASSERT_FALSE(removed.ok());
    EXPECT_EQ(removed.error().code.value(), ENOTEMPTY);
    EXPECT_NE(removed.error().detail.find("left 1 item IOPrism did not make"), std::string::npos)
        << removed.error().detail;
    EXPECT_NE(removed.error().detail.find(notes.string()), std::string::npos);
    EXPECT_EQ(everything(t.path), (std::set<std::string> {"level-2", "level-2/notes.txt"}));

    fs::remove(notes);
    const auto clean = treeTarget(m_dir.path() / "clean", 3, 2, 4096);
    ASSERT_TRUE(m_backend.prepareTarget(clean, writing(), {}).ok());
    EXPECT_TRUE(m_backend.removeFileTree(clean.path, clean.tree).ok());
    EXPECT_FALSE(fs::exists(clean.path));
}

TEST_F(FileTreePrepare, EverythingItMakesCarriesTheMark)
{
    const auto t = treeTarget(m_dir.path() / "tree", 3, 2, 64 * 1024);
    ASSERT_TRUE(m_backend.prepareTarget(t, writing(), {}).ok());
    for (const auto &folder : core::fileTreeFolders(t.path, t.tree))
        EXPECT_EQ(markValue(folder), "complete") << folder;
    EXPECT_EQ(markValue(core::fileTreeMarkerPath(t.path)), "complete");
    for (const auto &file : filesOf(t))
        EXPECT_EQ(markValue(file), "complete") << file;
}

// The marker alone proves nothing: copied into a user's folder whose files fit the
// layout, it must not make IOPrism write, extend or remove them.
TEST_F(FileTreePrepare, ACopiedMarkerDoesNotMakeAFolderOurs)
{
    const auto real = treeTarget(m_dir.path() / "real", 2, 2, 1u << 20);
    ASSERT_TRUE(m_backend.prepareTarget(real, writing(), {}).ok());
    const auto foreign = m_dir.path() / "foreign";
    fs::create_directories(foreign);
    writeFile(foreign / "file-0001", 1 << 20, 1);
    writeFile(foreign / "file-0002", 1 << 20, 2);
    writeFile(foreign / "notes.txt", 6, 3);
    fs::copy_file(core::fileTreeMarkerPath(real.path), foreign / ".ioprism-tree"); // no xattr
    const auto before = everything(foreign);
    const std::string first = readFile(foreign / "file-0001");
    const auto t = treeTarget(foreign, 2, 2, 1u << 20);
    for (const auto &options : {writing(), reading()}) {
        auto info = m_backend.prepareTarget(t, options, {});
        ASSERT_FALSE(info.ok());
        EXPECT_EQ(info.error().code.value(), EEXIST);
        EXPECT_NE(info.error().detail.find("lacks IOPrism's mark"), std::string::npos)
            << info.error().detail;
    }
    for (auto removed :
        {platform::removeFileTree(t.path, t.tree), platform::removeTestFile(t.path)}) {
        ASSERT_FALSE(removed.ok());
        EXPECT_EQ(removed.error().code.value(), EPERM);
        EXPECT_NE(removed.error().detail.find("left untouched"), std::string::npos);
    }
    EXPECT_EQ(everything(foreign), before);
    EXPECT_EQ(readFile(foreign / "file-0001"), first);
}

// A hard link to a user's file, or a user's file, under one of the tree's names is not
// IOPrism's: the tree is refused, and removal leaves it and says so.
TEST_F(FileTreePrepare, AHardLinkOrAnUnmarkedFileInsideATreeIsNeverWrittenNorRemoved)
{
    const auto t = treeTarget(m_dir.path() / "tree", 2, 2, 64 * 1024);
    ASSERT_TRUE(m_backend.prepareTarget(t, writing(), {}).ok());
    const auto files = filesOf(t);
    const auto victim = m_dir.path() / "big.bin";
    writeFile(victim, 1 << 20, 9);
    const std::string precious = readFile(victim);
    fs::remove(files[3]);
    ASSERT_EQ(::link(victim.c_str(), files[3].c_str()), 0);
    auto info = m_backend.prepareTarget(t, writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), EEXIST);
    EXPECT_NE(info.error().detail.find("hard links"), std::string::npos) << info.error().detail;
    EXPECT_EQ(readFile(victim), precious);

    // Even a marked file is nobody's while it has a second name.
    const auto kept = m_dir.path() / "kept";
    ASSERT_EQ(::link(files[0].c_str(), kept.c_str()), 0);
    // A user's own file in the layout, without the mark.
    fs::remove(files[2]);
    writeFile(files[2], 64 * 1024, 4);
    info = m_backend.prepareTarget(t, reading(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), EEXIST);

    auto removed = platform::removeFileTree(t.path, t.tree);
    ASSERT_FALSE(removed.ok());
    EXPECT_EQ(removed.error().code.value(), ENOTEMPTY);
    EXPECT_NE(removed.error().detail.find("left 3 items IOPrism did not make"), std::string::npos)
        << removed.error().detail;
    EXPECT_EQ(everything(t.path),
        (std::set<std::string> {"file-0001", "level-2", "level-2/file-0001", "level-2/file-0002"}));
    EXPECT_EQ(readFile(victim), precious);
    EXPECT_EQ(fs::file_size(kept), 64u * 1024);
}

TEST_F(FileTreePrepare, ADamagedMarkerIsReportedAsDamaged)
{
    const auto t = treeTarget(m_dir.path() / "tree", 2, 2, 4096);
    ASSERT_TRUE(m_backend.prepareTarget(t, writing(), {}).ok());
    {
        std::ofstream(core::fileTreeMarkerPath(t.path), std::ios::trunc)
            << "{\"ioprismFileTree\": 1, ";
    }
    auto info = m_backend.prepareTarget(t, reading(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_NE(info.error().detail.find("marker is damaged"), std::string::npos)
        << info.error().detail;
    EXPECT_EQ(info.error().detail.find("has no"), std::string::npos) << info.error().detail;
    auto removed = platform::removeTestFile(t.path);
    ASSERT_FALSE(removed.ok());
    EXPECT_NE(removed.error().detail.find("marker is damaged"), std::string::npos)
        << removed.error().detail;
    EXPECT_TRUE(fs::exists(filesOf(t)[0]));
}

// A run killed mid-fill leaves a file of the tree reserved but unwritten, and marked
// "filling": the next run fills it again instead of measuring zeros never read from disk.
TEST_F(FileTreePrepare, AFileLeftFillingByAKilledRunIsFilledAgain)
{
    const auto t = treeTarget(m_dir.path() / "tree", 2, 2, 1u << 20);
    ASSERT_TRUE(m_backend.prepareTarget(t, writing(), {}).ok());
    const auto files = filesOf(t);
    const std::string untouched = readFile(files[0]);
    ASSERT_TRUE(leaveAsAKilledRunDoes(files[2], t.tree.fileSizeBytes, "filling"));
    auto space = m_backend.testFileSpace(t);
    ASSERT_TRUE(space);
    EXPECT_EQ(space->needBytes, 0u) << "its space is already reserved";
    std::uint64_t total = 0;
    auto info = m_backend.prepareTarget(
        t, reading(), [&](std::uint64_t, std::uint64_t all) { return total = all, true; });
    ASSERT_TRUE(info.ok()) << info.error().toString();
    EXPECT_TRUE(info->createdTestFile);
    EXPECT_EQ(total, t.tree.fileSizeBytes);
    EXPECT_NE(readFile(files[2]).substr(0, 4096), std::string(4096, '\0'));
    EXPECT_EQ(markValue(files[2]), "complete");
    EXPECT_EQ(readFile(files[0]), untouched);
}

TEST_F(FileTreePrepare, RemoveTestFilesCoversATreeByItsMarker)
{
    // "Remove test files after the run" passes each target's path: a tree's folder is
    // removed with the shape its marker records.
    const auto t = treeTarget(m_dir.path() / "tree", 2, 5, 4096);
    ASSERT_TRUE(m_backend.prepareTarget(t, writing(), {}).ok());
    EXPECT_TRUE(platform::removeTestFile(t.path).ok());
    EXPECT_FALSE(fs::exists(t.path));
    const auto plain = m_dir.path() / "plain";
    fs::create_directories(plain);
    auto refused = platform::removeTestFile(plain.string());
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), EPERM);
    EXPECT_TRUE(fs::exists(plain));
}

// ---------------------------------------------------------------- the engines on a tree

template<typename Engine> class FileTreeEngine : public FileTreePrepare
{
};
using TreeEngines = ::testing::Types<platform::UringEngine, platform::SyncEngine>;
TYPED_TEST_SUITE(FileTreeEngine, TreeEngines);

TYPED_TEST(FileTreeEngine, OpensEachFileOfThePreparedTreeInOneSlotAndReadsWhatIsThere)
{
    const auto t = treeTarget(this->m_dir.path() / "tree", 3, 4, 64 * 1024);
    auto info = this->m_backend.prepareTarget(t, writing(), {});
    ASSERT_TRUE(info.ok()) << info.error().toString();
    TypeParam engine;
    const std::vector<core::EngineFile> slots {{.openLater = true}, {.openLater = true}};
    ASSERT_TRUE(engine
                    .init({.queueDepth = 2,
                              .bufferCount = 2,
                              .bufferAlignmentBytes = info->directIoMemAlignBytes},
                        slots)
                    .ok());
    std::vector<core::IoRequest *> completed(2);
    std::uint32_t slot = 0;
    for (const auto &path : filesOf(t)) {
        // open -> I/O -> close, as a tree operation does, alternating slots.
        auto st = engine.openFile(slot, {path, true, t.cacheMode, false});
        ASSERT_TRUE(st.ok()) << st.error().toString();
        core::IoRequest r {};
        r.fileIndex = slot;
        r.bufferIndex = slot;
        r.lengthBytes = 4096;
        r.offsetBytes = 8192;
        ASSERT_TRUE(engine.queue(&r));
        ASSERT_TRUE(engine.commit().ok());
        auto got = engine.reap(completed, 1, std::chrono::seconds(10));
        ASSERT_TRUE(got.ok() && *got == 1u);
        EXPECT_EQ(r.error, 0) << path;
        ASSERT_EQ(r.resultBytes, 4096) << path;
        const auto data = engine.buffer(slot).first(4096);
        EXPECT_EQ(std::string(reinterpret_cast<const char *>(data.data()), data.size()),
            readFile(path).substr(8192, 4096))
            << path;
        ASSERT_TRUE(engine.closeFile(slot).ok());
        slot ^= 1;
    }
}

// ---------------------------------------------------------------- small file systems (root)

class SmallFileSystemTree : public ::testing::Test
{
protected:
    void mountTmpfs(const std::string &options)
    {
        IOPRISM_REQUIRE(isRoot(), "mounting tmpfs needs root");
        m_mount = std::make_unique<ScopedMount>(
            "tmpfs", m_dir.path() / "mnt", "-t tmpfs -o " + options);
        IOPRISM_REQUIRE(m_mount->ok(), "mount -t tmpfs failed");
    }
    TempDir m_dir {realFsDir()};
    std::unique_ptr<ScopedMount> m_mount;
};

TEST_F(SmallFileSystemTree, NotEnoughSpaceIsRefusedBeforeAnythingIsMade)
{
    mountTmpfs("size=16M");
    LinuxBackend backend(BackendOptions {});
    const auto t = treeTarget(m_mount->dir() / "tree", 3, 4, 4u << 20, core::CacheMode::Buffered);
    auto info = backend.prepareTarget(t, writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), ENOSPC);
    const std::string expected = "not enough space on " + m_mount->dir().string()
        + " for the file tree: need 48.0 MiB, have ";
    EXPECT_EQ(info.error().detail.rfind(expected, 0), 0u) << info.error().detail;
    EXPECT_TRUE(fs::is_empty(m_mount->dir()));
}

TEST_F(SmallFileSystemTree, RunningOutOfSpaceWhileWritingNamesTheFileAndLeavesNothing)
{
    mountTmpfs("size=16M");
    // Skip the early check so that the file system itself runs out (ENOSPC mid-tree).
    LinuxBackend backend(BackendOptions {.skipFreeSpaceCheck = true});
    const auto t = treeTarget(m_mount->dir() / "tree", 3, 4, 4u << 20, core::CacheMode::Buffered);
    auto info = backend.prepareTarget(t, writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), ENOSPC) << info.error().toString();
    EXPECT_EQ(info.error().path.rfind(t.path + "/", 0), 0u)
        << "the error names the file: " << info.error().toString();
    EXPECT_NE(info.error().detail.find("not enough space on " + m_mount->dir().string()),
        std::string::npos)
        << info.error().detail;
    EXPECT_NE(
        info.error().detail.find("; removed what this run had made of the tree"), std::string::npos)
        << info.error().detail;
    EXPECT_TRUE(fs::is_empty(m_mount->dir())) << "half a tree was left behind";
}

TEST_F(SmallFileSystemTree, WithoutUserXattrsATreeIsOursOnlyInTheProcessThatMadeIt)
{
    IOPRISM_REQUIRE(isRoot(), "mounting ramfs needs root");
    m_mount = std::make_unique<ScopedMount>("ramfs", m_dir.path() / "mnt", "-t ramfs");
    IOPRISM_REQUIRE(m_mount->ok(), "mount -t ramfs failed");
    LinuxBackend backend(BackendOptions {});
    const auto t = treeTarget(m_mount->dir() / "tree", 2, 2, 4096, core::CacheMode::Buffered);
    auto made = backend.prepareTarget(t, writing(), {});
    ASSERT_TRUE(made.ok()) << made.error().toString();
    ASSERT_EQ(backend.notices().size(), 1u);
    EXPECT_NE(backend.notices()[0].find("later runs will refuse it"), std::string::npos);
    auto again = backend.prepareTarget(t, writing(), {});
    ASSERT_TRUE(again.ok()) << again.error().toString();
    EXPECT_FALSE(again->createdTestFile);
    EXPECT_TRUE(platform::removeTestFile(t.path).ok());
    EXPECT_TRUE(fs::is_empty(m_mount->dir()));
}

TEST_F(SmallFileSystemTree, TooFewInodesForManySmallFilesIsRefusedEarly)
{
    mountTmpfs("size=16M,nr_inodes=16");
    LinuxBackend backend(BackendOptions {});
    const auto t = treeTarget(m_mount->dir() / "tree", 2, 10, 4096, core::CacheMode::Buffered);
    auto info = backend.prepareTarget(t, writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), ENOSPC);
    EXPECT_NE(info.error().detail.find("not enough free inodes"), std::string::npos)
        << info.error().detail;
    EXPECT_TRUE(fs::is_empty(m_mount->dir()));
}

TEST(Ext4Tree, ATreeOnALoopMountedExt4IsDirectAndMapsToTheLoopDevice)
{
    IOPRISM_REQUIRE(isRoot(), "loop devices need root");
    IOPRISM_REQUIRE(haveTool("losetup") && haveTool("mkfs.ext4"), "losetup or mkfs.ext4 missing");
    TempDir dir(realFsDir());
    makeImage(dir.path() / "disk.img", 64u << 20);
    LoopDevice loop(dir.path() / "disk.img");
    IOPRISM_REQUIRE(loop.ok(), "losetup failed");
    ASSERT_EQ(run("mkfs.ext4 -q -F " + loop.path()), 0);
    ScopedMount mount(loop.path(), dir.path() / "mnt", "-t ext4");
    ASSERT_TRUE(mount.ok());

    LinuxBackend backend(BackendOptions {});
    const auto t = treeTarget(mount.dir() / "tree", 3, 4, 1u << 20);
    auto info = backend.prepareTarget(t, writing(), {});
    ASSERT_TRUE(info.ok()) << info.error().toString();
    EXPECT_EQ(info->directIoOffsetAlignBytes, 512u) << "ext4 on a 512-byte loop device";
    for (const auto &f : filesOf(t)) {
        struct stat st {
        };
        ASSERT_EQ(::stat(f.c_str(), &st), 0);
        EXPECT_GE(std::uint64_t(st.st_blocks) * 512, t.tree.fileSizeBytes) << f;
    }

    // The device counters watch the loop device for the tree's folder, as for a file.
    const auto map = platform::resolveTargetDevices({t.path});
    ASSERT_EQ(map.targets.size(), 1u);
    ASSERT_TRUE(map.targets[0].device) << map.targets[0].note;
    EXPECT_EQ(map.devices[*map.targets[0].device].name, loop.name());

    // A tree not made yet resolves through its parent folder, like a new test file.
    const auto later = platform::resolveTargetDevices({(mount.dir() / "later").string()});
    ASSERT_TRUE(later.targets[0].device) << later.targets[0].note;
    EXPECT_EQ(later.devices[*later.targets[0].device].name, loop.name());

    EXPECT_TRUE(backend.removeFileTree(t.path, t.tree).ok());
    EXPECT_TRUE(fs::is_empty(mount.dir())
        || everything(mount.dir()) == std::set<std::string> {"lost+found"});
}

} // namespace
} // namespace ioprism::test
