// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/common/backend_factory.h"
#include "platform/linux/block_devices.h"
#include "platform/linux/linux_backend.h"
#include "platform/linux/sysfs.h"

#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "engine_test_util.h"
#include "platform_test_util.h"

namespace ioprism::test {
namespace {

using platform::BackendOptions;
using platform::EngineKind;
using platform::LinuxBackend;
using ::testing::HasSubstr;

namespace fs = std::filesystem;

std::string readAt(const fs::path &p, std::uint64_t offset, std::size_t bytes)
{
    std::ifstream in(p, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(offset));
    std::string data(bytes, '\0');
    in.read(data.data(), static_cast<std::streamsize>(bytes));
    data.resize(static_cast<std::size_t>(in.gcount()));
    return data;
}

std::string readAll(const fs::path &p)
{
    return readAt(p, 0, fs::file_size(p));
}

core::Target testFile(
    const fs::path &path, std::uint64_t bytes, core::CacheMode mode = core::CacheMode::Direct)
{
    core::Target t;
    t.kind = core::TargetKind::TestFile;
    t.path = path.string();
    t.testFileSizeBytes = bytes;
    t.cacheMode = mode;
    return t;
}

core::Target device(const std::string &path, core::TargetKind kind = core::TargetKind::BlockDevice)
{
    core::Target t;
    t.kind = kind;
    t.path = path;
    return t;
}

core::PrepareOptions writing(bool allowDevice = false)
{
    core::PrepareOptions o;
    o.needWrite = true;
    o.allowDeviceWrites = allowDevice;
    o.seed = 1234;
    return o;
}

core::PrepareOptions reading()
{
    core::PrepareOptions o;
    o.seed = 1234;
    return o;
}

// ---------------------------------------------------------------- engine choice

TEST(LinuxBackendEngine, AutoUsesIoUringWhereItWorks)
{
    LinuxBackend backend(BackendOptions {.kind = EngineKind::Auto});
    IOPRISM_REQUIRE(platform::probeIoUring() == 0, "io_uring is blocked on this machine");
    EXPECT_EQ(backend.engineName(), "io_uring");
    EXPECT_TRUE(backend.notices().empty());
    auto engine = backend.makeEngine();
    ASSERT_TRUE(engine.ok());
    EXPECT_EQ((*engine)->name(), "io_uring");
}

TEST(LinuxBackendEngine, AutoFallsBackToSyncWithANoticeWhenIoUringIsUnavailable)
{
    LinuxBackend backend(
        BackendOptions {.kind = EngineKind::Auto, .simulateUringUnavailable = true});
    EXPECT_EQ(backend.engineName(), "sync");
    ASSERT_EQ(backend.notices().size(), 1u);
    EXPECT_EQ(backend.notices()[0].rfind("io_uring unavailable (EPERM", 0), 0u)
        << backend.notices()[0];
    EXPECT_NE(backend.notices()[0].find("using the sync engine (pread/pwrite threads)"),
        std::string::npos);
    auto engine = backend.makeEngine();
    ASSERT_TRUE(engine.ok());
    EXPECT_EQ((*engine)->name(), "sync");
}

TEST(LinuxBackendEngine, ExplicitIoUringFailsClearlyWhenUnavailable)
{
    TempDir dir(realFsDir());
    LinuxBackend backend(
        BackendOptions {.kind = EngineKind::IoUring, .simulateUringUnavailable = true});
    EXPECT_EQ(backend.engineName(), "io_uring");
    auto engine = backend.makeEngine();
    ASSERT_FALSE(engine.ok());
    EXPECT_EQ(engine.error().code.value(), EPERM);
    EXPECT_NE(engine.error().detail.find("sync engine"), std::string::npos);
    // Refused before anything is created on disk.
    auto info = backend.prepareTarget(testFile(dir.path() / "t", 1 << 20), writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), EPERM);
    EXPECT_FALSE(fs::exists(dir.path() / "t"));
}

TEST(LinuxBackendEngine, SyncIsUsedWhenAskedFor)
{
    LinuxBackend backend(BackendOptions {.kind = EngineKind::Sync});
    EXPECT_EQ(backend.engineName(), "sync");
    EXPECT_TRUE(backend.notices().empty());
}

TEST(BackendFactory, MakesTheBackendOfEachKind)
{
    const struct {
        EngineKind kind;
        bool simulateUnavailable;
        const char *engine;
    } cases[] = {
        {EngineKind::Null, false, "null"},
        {EngineKind::Sync, false, "sync"},
        {EngineKind::Auto, true, "sync"},
        {EngineKind::IoUring, true, "io_uring"},
    };
    for (const auto &c : cases) {
        auto backend = platform::makeBackend(
            {.kind = c.kind, .simulateUringUnavailable = c.simulateUnavailable});
        ASSERT_TRUE(backend) << platform::engineKindName(c.kind);
        EXPECT_EQ(backend->engineName(), c.engine) << platform::engineKindName(c.kind);
    }
}

TEST(BackendFactory, EngineKindNamesRoundTrip)
{
    for (auto k : {EngineKind::Auto, EngineKind::IoUring, EngineKind::Sync, EngineKind::Null})
        EXPECT_EQ(platform::parseEngineKind(platform::engineKindName(k)), k);
    EXPECT_EQ(platform::parseEngineKind("uring"), EngineKind::IoUring);
    EXPECT_FALSE(platform::parseEngineKind("aio").has_value());
}

TEST(LinuxBackendEngine, PinsTheCallingThreadToAnAllowedCpu)
{
    LinuxBackend backend(BackendOptions {.kind = EngineKind::Sync});
    cpu_set_t before;
    ASSERT_EQ(::sched_getaffinity(0, sizeof before, &before), 0);
    int first = -1;
    for (int i = 0; i < CPU_SETSIZE && first < 0; ++i)
        if (CPU_ISSET(i, &before))
            first = i;
    ASSERT_GE(first, 0);
    const std::uint32_t cpus[] = {std::uint32_t(first)};
    EXPECT_TRUE(backend.pinCurrentThread(cpus).ok());
    cpu_set_t after;
    ASSERT_EQ(::sched_getaffinity(0, sizeof after, &after), 0);
    EXPECT_EQ(CPU_COUNT(&after), 1);
    ::sched_setaffinity(0, sizeof before, &before);
    const std::uint32_t bad[] = {CPU_SETSIZE + 5};
    EXPECT_FALSE(backend.pinCurrentThread(bad).ok());
}

// ---------------------------------------------------------------- test files

class TestFilePrepare : public ::testing::Test
{
protected:
    TempDir m_dir {realFsDir()};
    LinuxBackend m_backend {BackendOptions {.kind = EngineKind::Auto}};
};

TEST_F(TestFilePrepare, CreatesAFullNonSparseFileOfExactlyTheSize)
{
    const auto path = m_dir.path() / "test.dat";
    const std::uint64_t size = (8u << 20) + 12345; // an unaligned tail goes through the cache
    std::uint64_t lastDone = 0, lastTotal = 0;
    int calls = 0;
    auto info = m_backend.prepareTarget(
        testFile(path, size), writing(), [&](std::uint64_t done, std::uint64_t total) {
            EXPECT_GE(done, lastDone);
            lastDone = done;
            lastTotal = total;
            ++calls;
            return true;
        });
    ASSERT_TRUE(info.ok()) << info.error().toString();
    EXPECT_TRUE(info->createdTestFile);
    EXPECT_FALSE(info->isDevice);
    EXPECT_FALSE(info->readOnly);
    EXPECT_EQ(info->sizeBytes, size);
    EXPECT_EQ(info->path, path.string());
    EXPECT_EQ(lastDone, size);
    EXPECT_EQ(lastTotal, size);
    EXPECT_GE(calls, 8);

    struct stat st {
    };
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(std::uint64_t(st.st_size), size);
    EXPECT_GE(std::uint64_t(st.st_blocks) * 512, size) << "the file is sparse";
    EXPECT_TRUE(platform::isOurTestFile(path.string()));

    // FullRandom content: not zeros, and no two 4 KiB blocks of the first MiB alike.
    const std::string data = readAll(path);
    ASSERT_EQ(data.size(), size);
    EXPECT_NE(data.find_first_not_of('\0'), std::string::npos);
    EXPECT_NE(data.substr(0, 4096), data.substr(4096, 4096));
    EXPECT_NE(data.substr(0, 4096), data.substr(1 << 20, 4096));

    EXPECT_GE(info->directIoOffsetAlignBytes, 512u);
    EXPECT_GE(info->directIoMemAlignBytes, 4096u);
    EXPECT_GE(info->logicalBlockBytes, 512u);
}

TEST_F(TestFilePrepare, ReusesItsOwnFileWithoutRewritingIt)
{
    const auto path = m_dir.path() / "test.dat";
    ASSERT_TRUE(m_backend.prepareTarget(testFile(path, 4 << 20), writing(), {}).ok());
    const std::string before = readAll(path);
    int calls = 0;
    auto info = m_backend.prepareTarget(testFile(path, 2 << 20), writing(),
        [&](std::uint64_t, std::uint64_t) { return ++calls, true; });
    ASSERT_TRUE(info.ok()) << info.error().toString();
    EXPECT_FALSE(info->createdTestFile);
    EXPECT_EQ(info->sizeBytes, 4u << 20); // the file as it is; the run uses its own size
    EXPECT_EQ(calls, 0);
    EXPECT_EQ(readAll(path), before);
}

TEST_F(TestFilePrepare, ExtendsItsOwnSmallerFile)
{
    const auto path = m_dir.path() / "test.dat";
    ASSERT_TRUE(m_backend.prepareTarget(testFile(path, (2 << 20) + 4096), writing(), {}).ok());
    auto info = m_backend.prepareTarget(testFile(path, 6 << 20), writing(), {});
    ASSERT_TRUE(info.ok()) << info.error().toString();
    EXPECT_TRUE(info->createdTestFile);
    EXPECT_EQ(fs::file_size(path), 6u << 20);
    struct stat st {
    };
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_GE(std::uint64_t(st.st_blocks) * 512, 6u << 20);
}

TEST_F(TestFilePrepare, NeverWritesAFileItDidNotCreate)
{
    const auto path = m_dir.path() / "precious.db";
    writeFile(path, 1 << 20, 3);
    const std::string before = readAll(path);

    auto refused = m_backend.prepareTarget(testFile(path, 4 << 20), writing(), {});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), EEXIST);
    EXPECT_NE(refused.error().detail.find("not created by IOPrism"), std::string::npos);
    EXPECT_EQ(readAll(path), before);

    // Reading someone else's file is fine, at its own size.
    auto read = m_backend.prepareTarget(testFile(path, 4 << 20), reading(), {});
    ASSERT_TRUE(read.ok()) << read.error().toString();
    EXPECT_FALSE(read->createdTestFile);
    EXPECT_EQ(read->sizeBytes, 1u << 20);
    EXPECT_EQ(readAll(path), before);
    EXPECT_FALSE(platform::isOurTestFile(path.string()));
}

TEST_F(TestFilePrepare, CancelFromProgressRemovesThePartialFile)
{
    const auto path = m_dir.path() / "test.dat";
    auto info = m_backend.prepareTarget(testFile(path, 16 << 20), writing(),
        [](std::uint64_t done, std::uint64_t) { return done < (3 << 20); });
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), ECANCELED);
    EXPECT_FALSE(fs::exists(path));
}

TEST_F(TestFilePrepare, MissingDirectoryIsAClearError)
{
    auto info = m_backend.prepareTarget(
        testFile(m_dir.path() / "no" / "such" / "t", 1 << 20), writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), ENOENT);
    EXPECT_NE(info.error().detail.find("does not exist"), std::string::npos);
}

TEST_F(TestFilePrepare, RefusesAnEarlyFreeSpaceShortfallBeforeWritingAnything)
{
    // Far beyond any free space: refused from statvfs, nothing created.
    const auto path = m_dir.path() / "huge.dat";
    auto info = m_backend.prepareTarget(testFile(path, std::uint64_t(1) << 60), writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), ENOSPC);
    EXPECT_NE(info.error().detail.find("not enough space on "), std::string::npos);
    EXPECT_NE(info.error().detail.find("need 1 EiB, have "), std::string::npos)
        << info.error().detail;
    EXPECT_FALSE(fs::exists(path));
}

TEST_F(TestFilePrepare, RemoveTestFileRemovesOnlyOurs)
{
    const auto ours = m_dir.path() / "ours.dat";
    ASSERT_TRUE(m_backend.prepareTarget(testFile(ours, 1 << 20), writing(), {}).ok());
    const auto theirs = m_dir.path() / "theirs.dat";
    writeFile(theirs, 4096);
    EXPECT_TRUE(platform::removeTestFile(ours.string()).ok());
    EXPECT_FALSE(fs::exists(ours));
    auto st = platform::removeTestFile(theirs.string());
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code.value(), EPERM);
    EXPECT_TRUE(fs::exists(theirs));
}

TEST_F(TestFilePrepare, AFileIsMarkedFillingUntilItsFillIsDoneThenComplete)
{
    const auto path = m_dir.path() / "t.dat";
    ASSERT_TRUE(m_backend.prepareTarget(testFile(path, 2 << 20), writing(), {}).ok());
    EXPECT_EQ(markValue(path), "complete");
    // Extending a complete file marks it "filling" while it grows: seen from progress.
    std::string seen;
    auto grown = m_backend.prepareTarget(
        testFile(path, 4 << 20), writing(), [&](std::uint64_t, std::uint64_t) {
            seen = markValue(path);
            return true;
        });
    ASSERT_TRUE(grown.ok()) << grown.error().toString();
    EXPECT_EQ(seen, "filling");
    EXPECT_EQ(markValue(path), "complete");
}

// A run killed mid-fill (SIGKILL) leaves a file reserved at full size but unwritten; it
// must never be measured as it is (its reads return zeros without device I/O).
TEST_F(TestFilePrepare, AFileLeftFillingByAKilledRunIsFilledAgainEvenForAReadSpec)
{
    const auto path = m_dir.path() / "t.dat";
    ASSERT_TRUE(leaveAsAKilledRunDoes(path, 3 << 20, "filling"));
    ASSERT_EQ(readAll(path).find_first_not_of('\0'), std::string::npos);
    auto space = m_backend.testFileSpace(testFile(path, 3 << 20));
    ASSERT_TRUE(space);
    EXPECT_EQ(space->needBytes, 0u) << "its space is already reserved";
    std::uint64_t total = 0;
    auto info = m_backend.prepareTarget(testFile(path, 3 << 20), reading(),
        [&](std::uint64_t, std::uint64_t t) { return total = t, true; });
    ASSERT_TRUE(info.ok()) << info.error().toString();
    EXPECT_TRUE(info->createdTestFile);
    EXPECT_EQ(total, 3u << 20) << "filled again from the start";
    const std::string data = readAll(path);
    EXPECT_NE(data.find_first_not_of('\0'), std::string::npos);
    EXPECT_NE(data.substr(0, 4096), std::string(4096, '\0'));
    EXPECT_NE(data.substr(data.size() - 4096), std::string(4096, '\0'));
    EXPECT_EQ(markValue(path), "complete");
}

// A mark is bound to the file it was set on. An earlier IOPrism's marks ("1", or a state
// without an identity) and a copy's mark (cp -a copies the xattr) cannot be told from a
// user's file: such a file is read, never written, and the refusal says why.
TEST_F(TestFilePrepare, AMarkNotBoundToTheFileIsNotIOPrismsAndTheFileIsNeverWritten)
{
    for (const std::string old : {"1", "complete", "filling"}) {
        const auto path = m_dir.path() / ("old-" + old + ".dat");
        writeFile(path, 2 << 20, 7);
        ASSERT_EQ(::setxattr(path.c_str(), "user.ioprism.testfile", old.data(), old.size(), 0), 0);
        const std::string before = readAll(path);
        auto info = m_backend.prepareTarget(testFile(path, 2 << 20), writing(), {});
        ASSERT_FALSE(info.ok()) << old;
        EXPECT_THAT(info.error().detail, HasSubstr("the mark was not set on this file")) << old;
        EXPECT_EQ(readAll(path), before) << old;
        info = m_backend.prepareTarget(testFile(path, 2 << 20), reading(), {});
        ASSERT_TRUE(info.ok()) << info.error().toString();
        EXPECT_FALSE(info->createdTestFile) << "read as it is, never filled";
        EXPECT_EQ(readAll(path), before) << old;
        EXPECT_FALSE(platform::removeTestFile(path.string()).ok()) << old;
        EXPECT_TRUE(std::filesystem::exists(path));
    }

    // A copy made with cp -a holding someone's data: it carries a complete mark, bound to
    // the original, so it is not IOPrism's.
    const auto original = m_dir.path() / "t.dat";
    ASSERT_TRUE(m_backend.prepareTarget(testFile(original, 1 << 20), writing(), {}).ok());
    const auto copy = m_dir.path() / "copy.dat";
    ASSERT_EQ(
        std::system(("cp -a '" + original.string() + "' '" + copy.string() + "'").c_str()), 0);
    ASSERT_EQ(markValue(copy), "complete") << "the copy carries the mark";
    writeFile(copy, 1 << 20, 9); // the user's own data now
    const std::string before = readAll(copy);
    auto info = m_backend.prepareTarget(testFile(copy, 1 << 20), writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_THAT(info.error().detail, HasSubstr("copy of a test file"));
    EXPECT_EQ(readAll(copy), before);
    EXPECT_FALSE(platform::removeTestFile(copy.string()).ok());
    EXPECT_EQ(readAll(copy), before);
    // The original, still bound to its mark, is IOPrism's.
    EXPECT_TRUE(m_backend.prepareTarget(testFile(original, 1 << 20), writing(), {}).ok());
}

// The mark is on the inode: a second name (hard link) of our file is a way into a file
// someone else may hold, so a file with more than one link is never written or removed.
TEST_F(TestFilePrepare, AFileWithAnotherHardLinkIsNeverWrittenOrRemoved)
{
    const auto path = m_dir.path() / "t.dat";
    ASSERT_TRUE(m_backend.prepareTarget(testFile(path, 1 << 20), writing(), {}).ok());
    const auto other = m_dir.path() / "kept.dat";
    ASSERT_EQ(::link(path.c_str(), other.c_str()), 0);
    const std::string before = readAll(path);
    EXPECT_FALSE(platform::isOurTestFile(path.string()));
    auto refused = m_backend.prepareTarget(testFile(path, 2 << 20), writing(), {});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), EEXIST);
    EXPECT_NE(refused.error().detail.find("hard links"), std::string::npos)
        << refused.error().detail;
    auto removed = platform::removeTestFile(path.string());
    ASSERT_FALSE(removed.ok());
    EXPECT_EQ(removed.error().code.value(), EPERM);
    EXPECT_EQ(readAll(other), before);
    EXPECT_EQ(fs::file_size(path), 1u << 20);
}

TEST_F(TestFilePrepare, DataPatternOfTheFillIsHonoured)
{
    const auto path = m_dir.path() / "zeros.dat";
    auto opts = writing();
    opts.fillPattern.kind = core::DataPatternKind::RepeatingBytes;
    opts.fillPattern.repeatingByte = 0x5a;
    ASSERT_TRUE(m_backend.prepareTarget(testFile(path, 1 << 20), opts, {}).ok());
    const std::string data = readAll(path);
    EXPECT_EQ(data.find_first_not_of('\x5a'), std::string::npos);
}

TEST_F(TestFilePrepare, ABlockDeviceIsNotATestFile)
{
    // Checked first: without the device, preparing would create a test file in /dev.
    IOPRISM_REQUIRE(fs::exists("/dev/zram0"), "no /dev/zram0");
    auto info = m_backend.prepareTarget(testFile("/dev/zram0", 1 << 20), reading(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_NE(info.error().detail.find("block device"), std::string::npos);
}

TEST_F(TestFilePrepare, PreparedFileWorksWithTheBackendsEngine)
{
    const auto path = m_dir.path() / "test.dat";
    auto info = m_backend.prepareTarget(testFile(path, 1 << 20), writing(), {});
    ASSERT_TRUE(info.ok());
    auto engine = m_backend.makeEngine();
    ASSERT_TRUE(engine.ok());
    const std::vector<core::EngineFile> files {{info->path, true, core::CacheMode::Direct, false}};
    ASSERT_TRUE((*engine)
                    ->init({.queueDepth = 2,
                               .bufferCount = 2,
                               .bufferAlignmentBytes = info->directIoMemAlignBytes},
                        files)
                    .ok());
    core::IoRequest r {};
    r.lengthBytes = 4096;
    r.offsetBytes = 8192;
    ASSERT_TRUE((*engine)->queue(&r));
    ASSERT_TRUE((*engine)->commit().ok());
    std::vector<core::IoRequest *> done(2);
    auto got = (*engine)->reap(done, 1, std::chrono::seconds(10));
    ASSERT_TRUE(got.ok());
    ASSERT_EQ(*got, 1u);
    EXPECT_EQ(r.resultBytes, 4096);
    EXPECT_EQ(r.error, 0);
}

// ---------------------------------------------------------------- small and read-only file systems
// (root)

class TmpfsPrepare : public ::testing::Test
{
protected:
    void SetUp() override
    {
        IOPRISM_REQUIRE(isRoot(), "mounting tmpfs needs root");
        m_mount
            = std::make_unique<ScopedMount>("tmpfs", m_dir.path() / "mnt", "-t tmpfs -o size=8M");
        IOPRISM_REQUIRE(m_mount->ok(), "mount -t tmpfs failed");
    }
    TempDir m_dir {realFsDir()};
    std::unique_ptr<ScopedMount> m_mount;
};

TEST_F(TmpfsPrepare, NotEnoughSpaceIsRefusedEarlyWithTheMountAndSizes)
{
    LinuxBackend backend(BackendOptions {});
    const auto path = m_mount->dir() / "big.dat";
    auto info
        = backend.prepareTarget(testFile(path, 16 << 20, core::CacheMode::Buffered), writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), ENOSPC);
    const std::string expected
        = "not enough space on " + m_mount->dir().string() + ": need 16 MiB, have ";
    EXPECT_EQ(info.error().detail.rfind(expected, 0), 0u) << info.error().detail;
    EXPECT_FALSE(fs::exists(path));
}

TEST_F(TmpfsPrepare, RunningOutOfSpaceWhileWritingLeavesNoPartialFile)
{
    // Skip the statvfs pre-check so the failure comes from the file system itself.
    LinuxBackend backend(BackendOptions {.skipFreeSpaceCheck = true});
    const auto path = m_mount->dir() / "big.dat";
    auto info
        = backend.prepareTarget(testFile(path, 16 << 20, core::CacheMode::Buffered), writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), ENOSPC) << info.error().toString();
    EXPECT_NE(info.error().detail.find("not enough space on " + m_mount->dir().string()),
        std::string::npos);
    EXPECT_TRUE(fs::is_empty(m_mount->dir())) << "a partial file or marker was left behind";
}

TEST_F(TmpfsPrepare, ReadOnlyFileSystemRefusesWritesButAllowsReads)
{
    // root ignores mode bits, so read-only-ness comes from a read-only remount.
    LinuxBackend backend(BackendOptions {});
    const auto path = m_mount->dir() / "t.dat";
    ASSERT_TRUE(
        backend.prepareTarget(testFile(path, 1 << 20, core::CacheMode::Buffered), writing(), {})
            .ok());
    ASSERT_TRUE(m_mount->remount("ro"));

    auto refused
        = backend.prepareTarget(testFile(path, 1 << 20, core::CacheMode::Buffered), writing(), {});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), EROFS);
    EXPECT_NE(refused.error().detail.find("read-only file system"), std::string::npos);

    auto read
        = backend.prepareTarget(testFile(path, 1 << 20, core::CacheMode::Buffered), reading(), {});
    ASSERT_TRUE(read.ok()) << read.error().toString();
    EXPECT_TRUE(read->readOnly);

    auto create = backend.prepareTarget(
        testFile(m_mount->dir() / "new.dat", 1 << 20, core::CacheMode::Buffered), reading(), {});
    ASSERT_FALSE(create.ok());
    EXPECT_EQ(create.error().code.value(), EROFS);
    m_mount->remount("rw");
}

TEST_F(TmpfsPrepare, ImmutableFileIsRefusedForWrites)
{
    LinuxBackend backend(BackendOptions {});
    const auto path = m_mount->dir() / "t.dat";
    ASSERT_TRUE(
        backend.prepareTarget(testFile(path, 1 << 20, core::CacheMode::Buffered), writing(), {})
            .ok());
    IOPRISM_REQUIRE(
        run("chattr +i '" + path.string() + "'") == 0, "chattr +i is not supported here");
    auto refused
        = backend.prepareTarget(testFile(path, 1 << 20, core::CacheMode::Buffered), writing(), {});
    run("chattr -i '" + path.string() + "'");
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), EPERM);
}

TEST(NoXattrPrepare, WithoutUserXattrsAFileIsOursOnlyInTheProcessThatMadeIt)
{
    // ramfs has no user xattrs: the mark cannot outlive the process, so the backend
    // remembers what it made and says so; anything else there is someone else's.
    IOPRISM_REQUIRE(isRoot(), "mounting ramfs needs root");
    TempDir dir(realFsDir());
    ScopedMount mount("ramfs", dir.path() / "mnt", "-t ramfs");
    IOPRISM_REQUIRE(mount.ok(), "mount -t ramfs failed");
    LinuxBackend backend(BackendOptions {});
    const auto path = mount.dir() / "t.dat";
    auto made
        = backend.prepareTarget(testFile(path, 1 << 20, core::CacheMode::Buffered), writing(), {});
    ASSERT_TRUE(made.ok()) << made.error().toString();
    ASSERT_EQ(backend.notices().size(), 1u);
    EXPECT_NE(backend.notices()[0].find("later runs will only read it"), std::string::npos);
    EXPECT_TRUE(platform::isOurTestFile(path.string()));
    auto again
        = backend.prepareTarget(testFile(path, 1 << 20, core::CacheMode::Buffered), writing(), {});
    ASSERT_TRUE(again.ok()) << again.error().toString();
    EXPECT_FALSE(again->createdTestFile);
    EXPECT_TRUE(platform::removeTestFile(path.string()).ok());

    // A new file under the same name is not ours.
    writeFile(path, 1 << 20);
    EXPECT_FALSE(platform::isOurTestFile(path.string()));
    auto refused
        = backend.prepareTarget(testFile(path, 1 << 20, core::CacheMode::Buffered), writing(), {});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), EEXIST);
}

TEST(NoDirectIoPrepare, DirectTestFileWhereODirectIsRefusedFailsBeforeWriting)
{
    // ramfs cannot do O_DIRECT: a Direct run there would measure memory, so refuse it,
    // and leave nothing behind.
    IOPRISM_REQUIRE(isRoot(), "mounting ramfs needs root");
    TempDir dir(realFsDir());
    ScopedMount mount("ramfs", dir.path() / "mnt", "-t ramfs");
    IOPRISM_REQUIRE(mount.ok(), "mount -t ramfs failed");
    LinuxBackend backend(BackendOptions {});
    int calls = 0;
    auto info = backend.prepareTarget(testFile(mount.dir() / "t.dat", 1 << 20), writing(),
        [&](std::uint64_t, std::uint64_t) { return ++calls, true; });
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), EINVAL);
    EXPECT_NE(info.error().detail.find("does not support direct I/O"), std::string::npos);
    EXPECT_EQ(calls, 0);
    EXPECT_TRUE(fs::is_empty(mount.dir()));
}

// ---------------------------------------------------------------- raw devices (root, loop devices)

class DevicePrepare : public ::testing::Test
{
protected:
    void SetUp() override
    {
        IOPRISM_REQUIRE(isRoot(), "loop devices need root");
        IOPRISM_REQUIRE(haveTool("losetup"), "losetup is missing");
        m_image = m_dir.path() / "disk.img";
        makeImage(m_image, 64 << 20);
    }
    TempDir m_dir {realFsDir()};
    fs::path m_image;
    LinuxBackend m_backend {BackendOptions {}};
};

TEST_F(DevicePrepare, WritingARawDeviceNeedsExplicitConsent)
{
    LoopDevice loop(m_image);
    ASSERT_TRUE(loop.ok());
    auto refused = m_backend.prepareTarget(device(loop.path()), writing(false), {});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), EPERM);
    EXPECT_EQ(refused.error().detail,
        "writing to " + loop.path()
            + " (64 MiB) destroys its data: pass --allow-device-writes to confirm");

    auto allowed = m_backend.prepareTarget(device(loop.path()), writing(true), {});
    ASSERT_TRUE(allowed.ok()) << allowed.error().toString();
    EXPECT_TRUE(allowed->isDevice);
    EXPECT_FALSE(allowed->readOnly);
    EXPECT_FALSE(allowed->createdTestFile);
    EXPECT_EQ(allowed->sizeBytes, 64u << 20);
    EXPECT_EQ(allowed->path, loop.path());
    EXPECT_GE(allowed->logicalBlockBytes, 512u);
    EXPECT_GE(allowed->directIoOffsetAlignBytes, allowed->logicalBlockBytes);
    EXPECT_GE(allowed->directIoMemAlignBytes, 4096u);

    // Reading needs no consent.
    EXPECT_TRUE(m_backend.prepareTarget(device(loop.path()), reading(), {}).ok());
}

TEST_F(DevicePrepare, AMountedDeviceIsNeverWritten)
{
    IOPRISM_REQUIRE(haveTool("mkfs.ext4"), "mkfs.ext4 is missing");
    LoopDevice loop(m_image);
    ASSERT_TRUE(loop.ok());
    ASSERT_EQ(run("mkfs.ext4 -q -F " + loop.path()), 0);
    ScopedMount mount(loop.path(), m_dir.path() / "mnt", "-t ext4");
    ASSERT_TRUE(mount.ok());
    auto refused = m_backend.prepareTarget(device(loop.path()), writing(true), {});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), EBUSY);
    EXPECT_NE(
        refused.error().detail.find("is mounted at " + mount.dir().string()), std::string::npos)
        << refused.error().toString();
    EXPECT_TRUE(m_backend.prepareTarget(device(loop.path()), reading(), {}).ok());
}

TEST_F(DevicePrepare, AWholeDiskWithAMountedPartitionIsNeverWritten)
{
    IOPRISM_REQUIRE(haveTool("mkfs.ext4"), "mkfs.ext4 is missing");
    // Two partitions: 1 MiB .. 25 MiB and 25 MiB .. 57 MiB (512-byte sectors).
    ASSERT_TRUE(writeMbr(m_image, {{2048, 49152}, {51200, 65536}}));
    LoopDevice loop(m_image, "-P");
    ASSERT_TRUE(loop.ok());
    ASSERT_TRUE(loop.showPartitions(2)) << loop.partition(1) << " did not appear";
    ASSERT_EQ(run("mkfs.ext4 -q -F " + loop.partition(1)), 0);
    ScopedMount mount(loop.partition(1), m_dir.path() / "mnt", "-t ext4");
    ASSERT_TRUE(mount.ok());

    auto whole = m_backend.prepareTarget(device(loop.path()), writing(true), {});
    ASSERT_FALSE(whole.ok());
    EXPECT_EQ(whole.error().code.value(), EBUSY);
    EXPECT_NE(whole.error().detail.find(loop.name() + "p1 is mounted at"), std::string::npos)
        << whole.error().toString();

    auto p1 = m_backend.prepareTarget(
        device(loop.partition(1), core::TargetKind::Partition), writing(true), {});
    EXPECT_FALSE(p1.ok());

    // The other partition is free to use.
    auto p2 = m_backend.prepareTarget(
        device(loop.partition(2), core::TargetKind::Partition), writing(true), {});
    ASSERT_TRUE(p2.ok()) << p2.error().toString();
    EXPECT_EQ(p2->sizeBytes, 65536u * 512);
}

TEST_F(DevicePrepare, AReadOnlyDeviceRefusesWritesEvenWithConsent)
{
    LoopDevice loop(m_image, "-r");
    ASSERT_TRUE(loop.ok());
    auto refused = m_backend.prepareTarget(device(loop.path()), writing(true), {});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), EROFS);
    EXPECT_NE(refused.error().detail.find("read-only"), std::string::npos);
    auto read = m_backend.prepareTarget(device(loop.path()), reading(), {});
    ASSERT_TRUE(read.ok());
    EXPECT_TRUE(read->readOnly);
}

TEST_F(DevicePrepare, ADeviceHeldOpenExclusivelyIsRefused)
{
    LoopDevice loop(m_image);
    ASSERT_TRUE(loop.ok());
    const int held = ::open(loop.path().c_str(), O_RDONLY | O_EXCL | O_CLOEXEC);
    ASSERT_GE(held, 0);
    auto refused = m_backend.prepareTarget(device(loop.path()), writing(true), {});
    ::close(held);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), EBUSY);
    EXPECT_NE(refused.error().detail.find("in use"), std::string::npos);
}

// Data loss seen before: two loop devices over one image, the first mounted, the
// second written. Every name of the same storage must be refused.
TEST_F(DevicePrepare, AMountedLoopDeviceOverTheSameImageMakesTheOtherOneUnwritable)
{
    IOPRISM_REQUIRE(haveTool("mkfs.ext4"), "mkfs.ext4 is missing");
    ASSERT_EQ(run("mkfs.ext4 -q -F '" + m_image.string() + "'"), 0);
    LoopDevice mounted(m_image);
    LoopDevice alias(m_image);
    ASSERT_TRUE(mounted.ok() && alias.ok());
    ScopedMount mount(mounted.path(), m_dir.path() / "mnt", "-t ext4 -o ro");
    ASSERT_TRUE(mount.ok());
    auto refused = m_backend.prepareTarget(device(alias.path()), writing(true), {});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), EBUSY);
    EXPECT_NE(refused.error().detail.find(mounted.name() + " is mounted at " + mount.dir().string()
                  + " (" + mounted.name() + " has the same backing file " + m_image.string()
                  + " as " + alias.name() + ")"),
        std::string::npos)
        << refused.error().toString();
    // Reading through the alias harms nothing.
    EXPECT_TRUE(m_backend.prepareTarget(device(alias.path()), reading(), {}).ok());
}

TEST_F(DevicePrepare, ALoopDeviceBuiltOnTheTargetOrUnderItIsAnAlias)
{
    IOPRISM_REQUIRE(haveTool("mkfs.ext4"), "mkfs.ext4 is missing");
    LoopDevice lower(m_image);
    ASSERT_TRUE(lower.ok());
    LoopDevice upper(lower.path()); // a loop device whose backing is a block device
    ASSERT_TRUE(upper.ok());
    ASSERT_EQ(run("mkfs.ext4 -q -F " + upper.path()), 0);
    {
        ScopedMount mount(upper.path(), m_dir.path() / "mnt", "-t ext4");
        ASSERT_TRUE(mount.ok());
        auto refused = m_backend.prepareTarget(device(lower.path()), writing(true), {});
        ASSERT_FALSE(refused.ok());
        EXPECT_NE(
            refused.error().detail.find(upper.name() + " is a loop device over " + lower.name()),
            std::string::npos)
            << refused.error().toString();
    }
    {
        ScopedMount mount(lower.path(), m_dir.path() / "mnt", "-t ext4");
        ASSERT_TRUE(mount.ok());
        auto refused = m_backend.prepareTarget(device(upper.path()), writing(true), {});
        ASSERT_FALSE(refused.ok());
        EXPECT_NE(refused.error().detail.find(lower.name() + " is mounted at"), std::string::npos)
            << refused.error().toString();
    }
}

TEST_F(DevicePrepare, ADeviceToBeWrittenStaysClaimedUntilTheBackendIsGone)
{
    LoopDevice loop(m_image);
    ASSERT_TRUE(loop.ok());
    {
        LinuxBackend backend {BackendOptions {}};
        ASSERT_TRUE(backend.prepareTarget(device(loop.path()), writing(true), {}).ok());
        // Preparing it again (a second worker on the same device) reuses the claim.
        ASSERT_TRUE(backend.prepareTarget(device(loop.path()), writing(true), {}).ok());
        const int other = ::open(loop.path().c_str(), O_RDONLY | O_EXCL | O_CLOEXEC);
        const int err = errno;
        if (other >= 0)
            ::close(other);
        EXPECT_LT(other, 0) << "nothing else may claim (or mount) the device meanwhile";
        EXPECT_EQ(err, EBUSY);
        // Our own engines still open it for writing.
        auto engine = backend.makeEngine();
        ASSERT_TRUE(engine.ok());
        const std::vector<core::EngineFile> files {
            {loop.path(), true, core::CacheMode::Direct, false}};
        EXPECT_TRUE((*engine)->init({.queueDepth = 1, .bufferCount = 1}, files).ok());
    }
    const int after = ::open(loop.path().c_str(), O_RDONLY | O_EXCL | O_CLOEXEC);
    EXPECT_GE(after, 0) << "the claim ends with the backend";
    if (after >= 0)
        ::close(after);
}

TEST_F(DevicePrepare, TwoTargetsOfOneRunOnTheSameStorageAreRefusedAsOverlapping)
{
    LoopDevice first(m_image);
    LoopDevice second(m_image);
    ASSERT_TRUE(first.ok() && second.ok());
    ASSERT_TRUE(m_backend.prepareTarget(device(first.path()), writing(true), {}).ok());
    auto refused = m_backend.prepareTarget(device(second.path()), writing(true), {});
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().detail.find(first.name() + " (" + first.name()
                  + " has the same backing file " + m_image.string() + " as " + second.name()
                  + ") is also written by this run"),
        std::string::npos)
        << refused.error().toString();
}

TEST_F(DevicePrepare, ARegularFileIsNotADevice)
{
    auto refused = m_backend.prepareTarget(device(m_image.string()), reading(), {});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code.value(), ENOTBLK);
}

TEST_F(DevicePrepare, DeviceTargetRoundTripsThroughTheEngine)
{
    LoopDevice loop(m_image);
    ASSERT_TRUE(loop.ok());
    auto info = m_backend.prepareTarget(device(loop.path()), writing(true), {});
    ASSERT_TRUE(info.ok());
    auto engine = m_backend.makeEngine();
    ASSERT_TRUE(engine.ok());
    const std::vector<core::EngineFile> files {{info->path, true, core::CacheMode::Direct, false}};
    ASSERT_TRUE((*engine)->init({.queueDepth = 1, .bufferCount = 1}, files).ok());
    auto buf = (*engine)->buffer(0);
    std::memset(buf.data(), 0xab, buf.size());
    core::IoRequest r {};
    r.direction = core::IoDirection::Write;
    r.lengthBytes = 4096;
    r.offsetBytes = 1 << 20;
    std::vector<core::IoRequest *> done(1);
    ASSERT_TRUE((*engine)->queue(&r));
    ASSERT_TRUE((*engine)->commit().ok());
    ASSERT_EQ(*(*engine)->reap(done, 1, std::chrono::seconds(10)), 1u);
    EXPECT_EQ(r.resultBytes, 4096);
    engine->reset();
    // The bytes are on the image behind the loop device.
    EXPECT_EQ(readAt(m_image, 1 << 20, 4096), std::string(4096, '\xab'));
}

// btrfs gives its files an anonymous st_dev: the logical block size is still the one of
// the device that carries the file system (blockDeviceCarrying), not 512 by default.
TEST_F(DevicePrepare, AFileOnBtrfsTakesTheLogicalBlockOfTheDeviceBeneath)
{
    IOPRISM_REQUIRE(haveTool("mkfs.btrfs"), "btrfs-progs is missing");
    IOPRISM_REQUIRE(
        platform::readTextFile("/proc/filesystems").find("\tbtrfs\n") != std::string::npos,
        "the kernel has no btrfs");
    makeImage(m_image, 256 << 20); // above mkfs.btrfs's minimum
    LoopDevice loop(m_image, "--sector-size 4096");
    ASSERT_TRUE(loop.ok());
    ASSERT_EQ(run("mkfs.btrfs -q -f " + loop.path()), 0);
    ScopedMount mount(loop.path(), m_dir.path() / "mnt", "-t btrfs");
    ASSERT_TRUE(mount.ok());
    auto info = m_backend.prepareTarget(testFile(mount.dir() / "test.dat", 1 << 20), writing(), {});
    ASSERT_TRUE(info.ok()) << info.error().toString();
    EXPECT_EQ(info->logicalBlockBytes, 4096u);
}

} // namespace
} // namespace ioprism::test
