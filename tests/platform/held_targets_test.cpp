// SPDX-License-Identifier: GPL-3.0-or-later
// Never outside the target, even under a race (issue 23): the Linux backend resolves each
// target once, holds what it checked as descriptors, and its engines and removals use
// only those. Each test swaps a path the way an attacker with write access to the folder
// would — between preparation and the first open, or between the checks and the hold —
// and checks by content that nothing outside the target was written or removed.
#include "core/workload/file_tree.h"
#include "platform/common/backend_factory.h"
#include "platform/common/target_resolution.h"
#include "platform/linux/linux_backend.h"
#include "platform/linux/sync_engine.h"
#include "platform/linux/uring_engine.h"

#include <cstdio>
#include <fcntl.h>
#include <functional>
#include <gmock/gmock.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "platform_test_util.h"
#include "target_test_util.h"

namespace ioprism::test {
namespace {

using platform::BackendOptions;
using platform::EngineKind;
using platform::LinuxBackend;
using ::testing::HasSubstr;

namespace fs = std::filesystem;

core::Target deviceTarget(const std::string &path)
{
    core::Target t;
    t.kind = core::TargetKind::BlockDevice;
    t.path = path;
    return t;
}

core::PrepareOptions writing(bool allowDevice = false)
{
    core::PrepareOptions o;
    o.needWrite = true;
    o.allowDeviceWrites = allowDevice;
    o.seed = 7;
    return o;
}

std::string contentOf(const fs::path &p)
{
    return readFile(p);
}

// Replaces `path` with a symbolic link to `to` in one rename, as `ln -s TO .l; mv -T .l
// PATH` does: at no moment is the name missing.
void swapForLink(const fs::path &path, const fs::path &to)
{
    const fs::path link = path.parent_path() / ".swap-link";
    fs::remove(link);
    ASSERT_EQ(::symlink(to.c_str(), link.c_str()), 0);
    ASSERT_EQ(::rename(link.c_str(), path.c_str()), 0);
}

class HeldTargetsTest : public ::testing::TestWithParam<EngineKind>
{
protected:
    TempDir m_dir {realFsDir()};
    LinuxBackend m_backend {BackendOptions {.kind = GetParam()}};
};

// Item 1: a tree file swapped for a link to an outside file after preparation. The engine
// opens the file by its own name in the level folder it holds, without following links,
// so the outside file is never written, and the run is told why.
TEST_P(HeldTargetsTest, ATreeFileSwappedForALinkAfterPreparationIsNeverWritten)
{
    const auto t = treeTarget(m_dir.path() / "tree", 3, 3, 64 * 1024);
    ASSERT_TRUE(m_backend.prepareTarget(t, writing(), {}).ok());
    const auto outside = m_dir.path() / "outside.bin";
    writeFile(outside, 1 << 20, 3);
    ::chmod(outside.c_str(), 0600);
    const std::string before = contentOf(outside);
    const auto files = core::fileTreeFiles(t.path, t.tree);
    swapForLink(files[1], outside);

    core::EngineFile f {files[1], true, core::CacheMode::Direct, false};
    f.treeRoot = t.path;
    f.treeFileIndex = 1;
    const std::string err = writeThroughEngine(m_backend, f);
    EXPECT_THAT(err, HasSubstr("symbolic link was put in its place"));
    EXPECT_EQ(contentOf(outside), before);
}

// Item 1, the folder variant: level-2 exchanged for a link to another folder holding
// files of the same names. The engine still opens the level it prepared (wherever it was
// moved), so the other folder's files are untouched.
TEST_P(HeldTargetsTest, ALevelFolderSwappedForALinkToAnotherFolderIsNeverWrittenThrough)
{
    const auto t = treeTarget(m_dir.path() / "tree", 2, 2, 64 * 1024);
    ASSERT_TRUE(m_backend.prepareTarget(t, writing(), {}).ok());
    const auto other = m_dir.path() / "other";
    fs::create_directory(other);
    writeFile(other / "file-0001", 64 * 1024, 5);
    const std::string before = contentOf(other / "file-0001");
    const auto level2 = fs::path(t.path) / "level-2";
    const auto moved = fs::path(t.path) / "level-2.moved";
    ASSERT_EQ(::rename(level2.c_str(), moved.c_str()), 0);
    ASSERT_EQ(::symlink(other.c_str(), level2.c_str()), 0);

    const auto files = core::fileTreeFiles(t.path, t.tree);
    core::EngineFile f {files[2], true, core::CacheMode::Direct, false};
    f.treeRoot = t.path;
    f.treeFileIndex = 2; // level-2/file-0001
    EXPECT_EQ(writeThroughEngine(m_backend, f), "");
    EXPECT_EQ(contentOf(other / "file-0001"), before) << "the other folder is never written";
    EXPECT_EQ(contentOf(moved / "file-0001").substr(0, 4), std::string(4, '\x5a'))
        << "the write went to the tree's own file";
}

// Item 2: a plain test file swapped for a link to an outside file after preparation. The
// engine reopens the inode that was checked, never the name.
TEST_P(HeldTargetsTest, ATestFileSwappedForALinkAfterPreparationIsNeverWritten)
{
    const auto path = m_dir.path() / "t.dat";
    ASSERT_TRUE(m_backend.prepareTarget(testFileTarget(path, 1 << 20), writing(), {}).ok());
    const auto outside = m_dir.path() / "outside.bin";
    writeFile(outside, 1 << 20, 3);
    const std::string before = contentOf(outside);
    swapForLink(path, outside);
    EXPECT_EQ(
        writeThroughEngine(m_backend, {path.string(), true, core::CacheMode::Direct, false}), "");
    EXPECT_EQ(contentOf(outside), before);
}

INSTANTIATE_TEST_SUITE_P(Engines, HeldTargetsTest,
    ::testing::Values(EngineKind::IoUring, EngineKind::Sync),
    [](const auto &info) { return info.param == EngineKind::IoUring ? "IoUring" : "Sync"; });

class HeldTargetsPrepare : public ::testing::Test
{
protected:
    TempDir m_dir {realFsDir()};
};

// Between the checks and the hold (the hook runs there): a test file replaced by a link
// to an outside file is refused, and nothing outside is written.
TEST_F(HeldTargetsPrepare, ATestFileReplacedWhileItIsPreparedIsRefused)
{
    const auto path = m_dir.path() / "t.dat";
    const auto outside = m_dir.path() / "outside.bin";
    writeFile(outside, 1 << 20, 3);
    const std::string before = contentOf(outside);
    LinuxBackend backend(BackendOptions {.beforeHold = [&](const std::string &p) {
        if (p == path.string())
            swapForLink(path, outside);
    }});
    auto info = backend.prepareTarget(testFileTarget(path, 1 << 20), writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_THAT(info.error().detail, HasSubstr("changed while IOPrism prepared it"));
    EXPECT_EQ(contentOf(outside), before);
}

// Between the checks and the hold: a tree file replaced by another file (a hard link to
// an outside file here) is refused.
TEST_F(HeldTargetsPrepare, ATreeFileReplacedWhileTheTreeIsPreparedIsRefused)
{
    const auto t = treeTarget(m_dir.path() / "tree", 2, 2, 64 * 1024);
    const auto outside = m_dir.path() / "outside.bin";
    writeFile(outside, 64 * 1024, 3);
    const std::string before = contentOf(outside);
    const auto files = core::fileTreeFiles(t.path, t.tree);
    LinuxBackend backend(BackendOptions {.beforeHold = [&](const std::string &) {
        fs::remove(files[3]);
        ASSERT_EQ(::link(outside.c_str(), files[3].c_str()), 0);
    }});
    auto info = backend.prepareTarget(t, writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_THAT(info.error().detail, HasSubstr("put in the tree while IOPrism prepared it"));
    EXPECT_EQ(contentOf(outside), before);
}

// Item 3: removal after a level folder was swapped for a link to another tree's level
// removes nothing of the other tree.
TEST_F(HeldTargetsPrepare, RemovalNeverFollowsAFolderSwappedForALink)
{
    LinuxBackend backend(BackendOptions {});
    const auto a = treeTarget(m_dir.path() / "a", 2, 2, 64 * 1024);
    const auto b = treeTarget(m_dir.path() / "b", 2, 2, 64 * 1024);
    ASSERT_TRUE(backend.prepareTarget(a, writing(), {}).ok());
    ASSERT_TRUE(backend.prepareTarget(b, writing(), {}).ok());
    const auto bFiles = core::fileTreeFiles(b.path, b.tree);
    const auto aLevel2 = fs::path(a.path) / "level-2";
    fs::rename(aLevel2, fs::path(a.path) / "level-2.away");
    ASSERT_EQ(::symlink((fs::path(b.path) / "level-2").c_str(), aLevel2.c_str()), 0);

    EXPECT_FALSE(platform::removeTestFile(a.path).ok()) << "what is not the tree's stays";
    for (const auto &f : bFiles)
        EXPECT_TRUE(fs::exists(f)) << f << " of the other tree was removed";
    EXPECT_FALSE(fs::exists(core::fileTreeFiles(a.path, a.tree)[0])) << "a's own files went";
}

// Item 4: a test file that is the backing file of a loop device (its file system may be
// mounted) is never written, found by device and inode whatever its name.
TEST_F(HeldTargetsPrepare, ATestFileBackingALoopDeviceIsNeverWritten)
{
    IOPRISM_REQUIRE(isRoot(), "loop devices need root");
    IOPRISM_REQUIRE(haveTool("losetup"), "losetup is missing");
    LinuxBackend backend(BackendOptions {});
    const auto path = m_dir.path() / "t.dat";
    ASSERT_TRUE(backend.prepareTarget(testFileTarget(path, 4 << 20), writing(), {}).ok());
    const auto other = m_dir.path() / "another-name.dat";
    ASSERT_EQ(::rename(path.c_str(), other.c_str()), 0);
    LoopDevice loop(other);
    ASSERT_TRUE(loop.ok());
    ASSERT_EQ(::rename(other.c_str(), path.c_str()), 0); // the loop device follows the inode
    const std::string before = contentOf(path);
    LinuxBackend again(BackendOptions {});
    auto info = again.prepareTarget(testFileTarget(path, 4 << 20), writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_EQ(info.error().code.value(), EBUSY);
    EXPECT_THAT(info.error().detail, HasSubstr("backing file of the loop device " + loop.path()));
    EXPECT_TRUE(
        again.prepareTarget(testFileTarget(path, 4 << 20), core::PrepareOptions {}, {}).ok())
        << "reading it is fine";
    EXPECT_EQ(contentOf(path), before);
}

// Item 5: every other name of a written device is claimed for the whole run, so a file
// system on the same storage cannot be mounted through it meanwhile.
TEST_F(HeldTargetsPrepare, AnotherNameOfAWrittenDeviceCannotBeMountedDuringTheRun)
{
    IOPRISM_REQUIRE(isRoot(), "loop devices and mounts need root");
    IOPRISM_REQUIRE(
        haveTool("losetup") && haveTool("mkfs.ext4"), "losetup or mkfs.ext4 is missing");
    const auto image = m_dir.path() / "disk.img";
    makeImage(image, 64 << 20);
    ASSERT_EQ(run("mkfs.ext4 -q -F '" + image.string() + "'"), 0);
    LoopDevice target(image);
    LoopDevice alias(image);
    ASSERT_TRUE(target.ok() && alias.ok());
    const auto mountDir = m_dir.path() / "mnt";
    fs::create_directory(mountDir);
    {
        LinuxBackend backend(BackendOptions {});
        ASSERT_TRUE(backend.prepareTarget(deviceTarget(target.path()), writing(true), {}).ok());
        const int mounted = ::mount(alias.path().c_str(), mountDir.c_str(), "ext4", 0, nullptr);
        const int err = errno;
        if (mounted == 0)
            ::umount(mountDir.c_str());
        EXPECT_NE(mounted, 0) << alias.path() << " was mounted while " << target.path()
                              << " (same storage) was being written";
        EXPECT_EQ(err, EBUSY);
    }
    // The claim ends with the run: then the alias mounts.
    ASSERT_EQ(::mount(alias.path().c_str(), mountDir.c_str(), "ext4", 0, nullptr), 0)
        << std::strerror(errno);
    for (int i = 0; i < 50 && ::umount(mountDir.c_str()) != 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

// Item 9: a SIGKILL between creating a tree file and marking it leaves an empty, unmarked
// file; the tree (its marker and folders are ours) fills it again instead of refusing
// itself for good, and removal takes it.
TEST_F(HeldTargetsPrepare, AnEmptyUnmarkedFileAKilledPreparationLeftIsFilledAndRemoved)
{
    LinuxBackend backend(BackendOptions {});
    const auto t = treeTarget(m_dir.path() / "tree", 2, 2, 64 * 1024);
    ASSERT_TRUE(backend.prepareTarget(t, writing(), {}).ok());
    const auto files = core::fileTreeFiles(t.path, t.tree);
    fs::remove(files[3]);
    {
        std::ofstream(files[3]).flush();
    } // created, never marked
    ASSERT_EQ(markValue(files[3]), "");
    LinuxBackend again(BackendOptions {});
    auto info = again.prepareTarget(t, core::PrepareOptions {}, {});
    ASSERT_TRUE(info.ok()) << info.error().toString();
    EXPECT_EQ(fs::file_size(files[3]), 64u * 1024);
    EXPECT_EQ(markValue(files[3]), "complete");

    fs::remove(files[3]);
    {
        std::ofstream(files[3]).flush();
    }
    EXPECT_TRUE(platform::removeTestFile(t.path).ok());
    EXPECT_FALSE(fs::exists(t.path));
}

// Item 11: a target that is a symbolic link to a real tree, or one that leads nowhere, is
// refused for what it is.
TEST_F(HeldTargetsPrepare, ALinkAsATreesPathIsRefusedForWhatItIs)
{
    LinuxBackend backend(BackendOptions {});
    const auto t = treeTarget(m_dir.path() / "tree", 1, 2, 64 * 1024);
    ASSERT_TRUE(backend.prepareTarget(t, writing(), {}).ok());
    const auto link = m_dir.path() / "link";
    ASSERT_EQ(::symlink(t.path.c_str(), link.c_str()), 0);
    auto info = backend.prepareTarget(treeTarget(link, 1, 2, 64 * 1024), writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_THAT(info.error().detail, HasSubstr("this path is a symbolic link (to " + t.path + ")"));
    EXPECT_THAT(info.error().detail, ::testing::Not(HasSubstr("copied")));

    const auto dangling = m_dir.path() / "dangling";
    ASSERT_EQ(::symlink((m_dir.path() / "nothing").c_str(), dangling.c_str()), 0);
    info = backend.prepareTarget(treeTarget(dangling, 1, 2, 64 * 1024), writing(), {});
    ASSERT_FALSE(info.ok());
    EXPECT_THAT(info.error().detail, HasSubstr("leads nowhere"));
    EXPECT_FALSE(fs::exists(m_dir.path() / "nothing")) << "nothing was made through the link";
}

} // namespace
} // namespace ioprism::test

namespace ioprism::test {
namespace {

// What `body` returns when run in a child as the user `nobody`.
std::string asNobody(const std::function<std::string()> &body)
{
    int fds[2];
    if (::pipe(fds) != 0)
        return "pipe failed";
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        std::string detail = "setuid failed";
        if (::setgroups(0, nullptr) == 0 && ::setgid(65534) == 0 && ::setuid(65534) == 0)
            detail = body();
        (void)!::write(fds[1], detail.data(), detail.size());
        ::_exit(0);
    }
    ::close(fds[1]);
    std::string out;
    char buf[512];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;)
        out.append(buf, std::size_t(n));
    ::close(fds[0]);
    ::waitpid(pid, nullptr, 0);
    return out;
}

// A second node of `device` at `node`, root:disk 0660 as udev makes disk nodes.
bool makeDiskNode(const fs::path &node, const std::string &device)
{
    struct stat st {
    };
    return ::stat(device.c_str(), &st) == 0
        && ::mknod(node.c_str(), S_IFBLK | 0660, st.st_rdev) == 0
        && ::chown(node.c_str(), 0, 6) == 0 && ::chmod(node.c_str(), 0660) == 0;
}

// Prepares `path` as a device to read in a child running as `nobody`; the refusal's detail.
std::string refusalAsNobody(const std::string &path)
{
    return asNobody([&] {
        LinuxBackend backend(BackendOptions {});
        auto info = backend.prepareTarget(deviceTarget(path), core::PrepareOptions {}, {});
        return info ? std::string("opened") : info.error().detail;
    });
}

// The window asks before it offers or confirms (issue 24 item 15): a folder nobody may
// create files in, a device node only its group may open, and what nobody may do.
TEST_F(HeldTargetsPrepare, AccessProblemSaysWhatThisUserMayNotOpenAndWhatHelps)
{
    IOPRISM_REQUIRE(isRoot(), "another user needs root");
    IOPRISM_REQUIRE(haveTool("losetup"), "losetup is missing");
    ::chmod(m_dir.path().c_str(), 0755);
    const auto image = m_dir.path() / "disk.img";
    makeImage(image, 8 << 20);
    LoopDevice loop(image);
    ASSERT_TRUE(loop.ok());
    const auto node = m_dir.path() / "node";
    ASSERT_TRUE(makeDiskNode(node, loop.path()));
    const auto rootOnly = m_dir.path() / "root-only";
    fs::create_directory(rootOnly);
    ::chmod(rootOnly.c_str(), 0755);
    const auto open = m_dir.path() / "open";
    fs::create_directory(open);
    ::chmod(open.c_str(), 0777);

    const std::string device
        = asNobody([&] { return platform::accessProblem(node.string(), true); });
    EXPECT_THAT(device, HasSubstr("nobody may not write " + node.string()));
    EXPECT_THAT(device, HasSubstr("usermod -aG disk nobody"));
    const std::string folder
        = asNobody([&] { return platform::accessProblem(rootOnly.string(), true); });
    EXPECT_THAT(folder, HasSubstr("nobody may not create files in " + rootOnly.string()));
    EXPECT_EQ(
        asNobody([&] { return "[" + platform::accessProblem(open.string(), true) + "]"; }), "[]");
    // Behind a folder nobody may search: said, not taken for "missing".
    const auto closed = m_dir.path() / "closed";
    fs::create_directory(closed);
    const auto inside = closed / "node";
    ASSERT_TRUE(makeDiskNode(inside, loop.path()));
    ::chmod(inside.c_str(), 0666);
    ::chmod(closed.c_str(), 0700);
    EXPECT_THAT(asNobody([&] { return platform::accessProblem(inside.string(), false); }),
        HasSubstr("nobody may not reach " + inside.string()));
    // A node the group may only read: joining the group does not help a writer.
    ::chmod(node.c_str(), 0640);
    const std::string readOnlyGroup
        = asNobody([&] { return platform::accessProblem(node.string(), true); });
    EXPECT_THAT(readOnlyGroup, HasSubstr("so only root may write it"));
    EXPECT_THAT(readOnlyGroup, ::testing::Not(HasSubstr("usermod")));
    EXPECT_EQ(platform::accessProblem(node.string(), true), "") << "root may";
    EXPECT_EQ(platform::accessProblem((m_dir.path() / "missing").string(), true), "");
}

// Issue 24, item 15: a user who may not open a device gets advice that fits the node:
// the group that may read it and the user's own name, or that only its owner may.
TEST_F(HeldTargetsPrepare, TheAdviceForADeviceNobodyMayOpenFitsItsNode)
{
    IOPRISM_REQUIRE(isRoot(), "loop devices and another user need root");
    IOPRISM_REQUIRE(haveTool("losetup"), "losetup is missing");
    const auto image = m_dir.path() / "disk.img";
    makeImage(image, 8 << 20);
    LoopDevice loop(image);
    ASSERT_TRUE(loop.ok());
    const auto node = m_dir.path() / "node";
    ::chmod(m_dir.path().c_str(), 0755);
    ASSERT_TRUE(makeDiskNode(node, loop.path()));
    std::string detail = refusalAsNobody(node.string());
    EXPECT_THAT(detail, HasSubstr("the group 'disk' may open it"));
    EXPECT_THAT(detail, HasSubstr("usermod -aG disk nobody"));
    EXPECT_THAT(detail, ::testing::Not(HasSubstr("USER")));

    ASSERT_EQ(::chown(node.c_str(), 0, 0), 0);
    ::chmod(node.c_str(), 0600);
    detail = refusalAsNobody(node.string());
    EXPECT_THAT(detail, HasSubstr("only root may open it"));
    EXPECT_THAT(detail, ::testing::Not(HasSubstr("usermod")));
}

} // namespace
} // namespace ioprism::test
