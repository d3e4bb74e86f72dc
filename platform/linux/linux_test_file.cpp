// SPDX-License-Identifier: GPL-3.0-or-later
// Test files on Linux: prepared and removed by the one policy (platform/common/
// preparation_policy.h), created without taking over anything, marked ours before a byte is
// written, filled completely, and held open once checked (held_targets.h).
#include "core/profile/units.h"
#include "core/workload/file_tree.h"
#include "platform/linux/block_devices.h"
#include "platform/linux/held_targets.h"
#include "platform/linux/linux_backend.h"
#include "platform/linux/linux_preparation.h"
#include "platform/linux/test_file_marks.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace ioprism::platform {

using core::makeOpError;
using core::OpError;

namespace {

// The loop device whose backing file is `file`, by device and inode, or nullopt.
std::optional<std::string> loopBackedBy(FileIdentity file)
{
    return loopDeviceBackedBy(
        {major(static_cast<dev_t>(file.device)), minor(static_cast<dev_t>(file.device))},
        file.inode);
}

std::string loopBackingWhy(const std::string &loop)
{
    return "this file is the backing file of the loop device /dev/" + loop
        + ": writing it would write that device's storage (a file system may be on it); "
          "detach it first (losetup -d /dev/"
        + loop + ")";
}

// A path whose last part is a symbolic link is followed once, here; from then on the
// file it led to is named by its own path, and held open once checked.
core::Result<std::string> resolveTestFilePath(const std::string &given)
{
    struct stat st {
    };
    if (::lstat(given.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
        return given;
    std::error_code ec;
    const fs::path to = fs::canonical(given, ec);
    if (ec)
        return makeOpError(ec.value(), "prepare test file", given,
            "this path is a symbolic link that leads nowhere: name the test file itself");
    return to.string();
}

// What filling one test file works on: the file as the checks found it.
struct TestFileJob {
    const std::string &path;
    const std::string &parent;
    bool exists = false;
    bool halfFilled = false;
    std::uint64_t current = 0;
    std::uint64_t wanted = 0;
    struct stat st {
    }; // of the existing file; of the filled one once done
};

// What the space messages say, or the refusal when `need` bytes do not fit.
core::Result<std::string> testFileSpaceDetail(
    const TestFileJob &job, std::uint64_t need, bool skipCheck)
{
    struct statvfs sv {
    };
    std::uint64_t freeBytes = 0;
    // File systems that report no size at all (ramfs, some FUSE) cannot be checked
    // ahead: their writes will say ENOSPC if it comes to that.
    bool sizeKnown = false;
    if (::statvfs(job.parent.c_str(), &sv) == 0 && sv.f_blocks > 0) {
        freeBytes = static_cast<std::uint64_t>(sv.f_bavail) * sv.f_frsize;
        sizeKnown = true;
    }
    const std::string mount = mountPointOfPath(job.parent);
    std::string spaceDetail = "not enough space on " + (mount.empty() ? job.parent : mount)
        + ": need " + core::describeSize(need)
        + (sizeKnown ? ", have " + core::describeSize(freeBytes) : "");
    if (!skipCheck && sizeKnown && freeBytes < need)
        return makeOpError(ENOSPC, "create test file", job.path, spaceDetail);
    return spaceDetail;
}

// O_EXCL: never take over a file that appeared since the stat above (nor follow a link
// put there). Our own file is opened without following a link, and written only while it
// is still the file checked above and still ours.
core::Result<UniqueFd> openToFill(const TestFileJob &job)
{
    const char *path = job.path.c_str();
    const int fd = job.exists ? ::open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
                              : ::open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return makeOpError(errno, job.exists ? "open" : "create test file", job.path,
            errno == ELOOP ? changedWhilePrepared() : "");
    UniqueFd file(fd);
    if (job.exists) {
        struct stat now {
        };
        if (::fstat(fd, &now) != 0 || !S_ISREG(now.st_mode) || now.st_dev != job.st.st_dev
            || now.st_ino != job.st.st_ino || markOfFd(fd) == Mark::None)
            return makeOpError(ESTALE, "prepare test file", job.path, changedWhilePrepared());
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    }
    return file;
}

// Leaves nothing half-made: removes what we created, shrinks what we extended (complete
// again up to its former size, unless it never was).
void undoFill(const TestFileJob &job, UniqueFd &file)
{
    if (job.exists) {
        if (::ftruncate(file.get(), static_cast<off_t>(job.current)) != 0) {
            // keep the error we are already reporting
        }
        if (!job.halfFilled)
            (void)setMark(job.path, file.get(), Mark::Complete);
        return;
    }
    struct stat created {
    };
    if (::fstat(file.get(), &created) == 0)
        forgetCreated(created);
    file.reset();
    ::unlink(job.path.c_str());
}

// Creates, extends or fills again the test file, marked "filling" until its fill is
// synced. `*notice` says when a new file's mark will not outlive this process.
core::Status fillTestFile(TestFileJob &job, core::CacheMode cacheMode,
    const core::PrepareOptions &options, const core::PrepareProgress &progress, bool skipSpaceCheck,
    std::string *notice)
{
    // Extend from a chunk boundary so the direct writes stay aligned.
    const FillRange range = fillRange(job.exists, job.halfFilled, job.current, job.wanted);
    auto spaceDetail = testFileSpaceDetail(job, range.newBytes, skipSpaceCheck);
    if (!spaceDetail)
        return spaceDetail.error();
    auto file = openToFill(job);
    if (!file)
        return file.error();
    const int fd = file->get();
    if (!job.exists) {
        // Ask about O_DIRECT now that the file exists, before writing a byte.
        if (auto refusal = directIoRefusal(
                job.path, cacheMode, queryAlignment(job.path, logicalBlockOfFile(job.path)))) {
            file->reset();
            ::unlink(job.path.c_str());
            return *refusal;
        }
        // Mark it before filling, so even a crash mid-fill leaves a file we know, and
        // as "filling", so that such a file is filled again, never measured.
        if (const std::string why = markOurs(fd, Mark::Filling); !why.empty())
            *notice = "could not mark " + job.path + " as an IOPrism test file (" + why
                + "): later runs will only read it, never write it; "
                  "delete it yourself when done";
    } else if (auto marked = setMark(job.path, fd, Mark::Filling); !marked) {
        return marked;
    }
    auto filled
        = fillFile(job.path, fd, range.fromBytes, range.toBytes, options, progress, *spaceDetail);
    if (filled)
        filled = setMark(job.path, fd, Mark::Complete); // the fill is synced: now it counts
    if (!filled) {
        undoFill(job, *file);
        return filled;
    }
    if (::fstat(fd, &job.st) != 0)
        return makeOpError(errno, "fstat", job.path);
    return core::Ok {};
}

// Takes hold of the file checked above, once, without following a link, and decides on
// that descriptor what may be done with it: the run's engines open only this inode.
core::Result<UniqueFd> openCheckedTestFile(
    const std::string &path, const struct stat &st, bool needWrite)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return makeOpError(
            errno, "open", path, errno == ELOOP || errno == ENOENT ? changedWhilePrepared() : "");
    UniqueFd held(fd);
    struct stat now {
    };
    if (::fstat(fd, &now) != 0 || !S_ISREG(now.st_mode) || now.st_dev != st.st_dev
        || now.st_ino != st.st_ino)
        return makeOpError(ESTALE, "prepare test file", path, changedWhilePrepared());
    if (needWrite) {
        if (markOfFd(fd) == Mark::None)
            return makeOpError(EEXIST, "prepare test file", path,
                "the file is no longer IOPrism's (its mark changed, or it got another name while "
                "IOPrism prepared it), so it is never written");
        if (auto loop = loopBackedBy(identityOf(fd)))
            return makeOpError(EBUSY, "prepare test file", path, loopBackingWhy(*loop));
    }
    return held;
}

// Refuses what is at `path` as a test file (a device, a folder, a file system without
// O_DIRECT for a Direct target), before its mark is asked.
std::optional<OpError> testFileKindRefusal(
    const std::string &path, const struct stat &st, core::CacheMode cacheMode)
{
    if (S_ISBLK(st.st_mode))
        return makeOpError(EINVAL, "prepare test file", path,
            "this is a block device: choose it as a device target, not a test file");
    if (!S_ISREG(st.st_mode))
        return makeOpError(EINVAL, "prepare test file", path, "not a regular file");
    return directIoRefusal(path, cacheMode, queryAlignment(path, logicalBlockOfFile(path)));
}

} // namespace

core::Result<core::TargetInfo> LinuxBackend::prepareTestFile(const core::Target &target,
    const core::PrepareOptions &options, const core::PrepareProgress &progress)
{
    const auto resolved = resolveTestFilePath(target.path);
    if (!resolved)
        return resolved.error();
    const std::string &path = *resolved;
    const std::string parent = parentOf(path);
    TestFileJob job {.path = path, .parent = parent, .wanted = target.testFileSizeBytes};
    job.exists = ::stat(path.c_str(), &job.st) == 0;
    if (!job.exists && errno != ENOENT)
        return makeOpError(errno, "stat", path);
    if (job.exists)
        if (auto refusal = testFileKindRefusal(path, job.st, target.cacheMode))
            return *refusal;

    job.current = job.exists ? static_cast<std::uint64_t>(job.st.st_size) : 0;
    const Mark mark = job.exists ? markOf(path, job.st) : Mark::None;
    job.halfFilled = mark == Mark::Filling;
    if (job.exists && mark == Mark::None)
        if (auto refusal = foreignTestFileRefusal(
                linuxPreparationFs(), path, entryOf(job.st), options.needWrite))
            return *refusal;
    if (!job.exists && job.wanted == 0)
        return makeOpError(
            EINVAL, "prepare test file", path, "the test file does not exist and its size is 0");
    if (!job.exists) {
        struct stat pst {
        };
        if (::stat(parent.c_str(), &pst) != 0 || !S_ISDIR(pst.st_mode))
            return makeOpError(
                ENOENT, "create test file", path, "the directory " + parent + " does not exist");
    }

    int werr = 0;
    const bool canWrite = job.exists ? writable(path, &werr) : writable(parent, &werr);
    if (options.needWrite && !canWrite)
        return readOnlyRefusal(path, werr);
    if (!job.exists && !canWrite)
        return makeOpError(werr, "create test file", path, "cannot create files in " + parent);
    std::string notice;
    const auto needFill = testFileNeedsFill(linuxPreparationFs(), path, job.exists, job.current,
        mark, job.wanted, canWrite ? 0 : werr, &notice);
    if (!notice.empty())
        addNotice(std::exchange(notice, {}));
    if (!needFill)
        return needFill.error();
    core::TargetInfo info;
    info.path = path;
    if (*needFill) {
        auto filled = fillTestFile(
            job, target.cacheMode, options, progress, m_options.skipFreeSpaceCheck, &notice);
        if (!notice.empty())
            addNotice(std::move(notice));
        if (!filled)
            return filled.error();
        info.createdTestFile = true;
    }
    return holdTestFile(path, job.st, options.needWrite, info);
}

core::Result<core::TargetInfo> LinuxBackend::holdTestFile(
    const std::string &path, const struct stat &st, bool needWrite, core::TargetInfo info)
{
    int werr = 0;
    info.sizeBytes = static_cast<std::uint64_t>(st.st_size);
    info.readOnly = !writable(path, &werr);
    const Alignment a = queryAlignment(path, logicalBlockOfFile(path));
    info.logicalBlockBytes = a.logicalBytes;
    info.directIoOffsetAlignBytes = a.offsetBytes;
    info.directIoMemAlignBytes = a.memBytes;

    if (m_options.beforeHold)
        m_options.beforeHold(path);
    auto held = openCheckedTestFile(path, st, needWrite);
    if (!held) {
        if (info.createdTestFile)
            (void)removeTestFile(path);
        return held.error();
    }
    const FileIdentity identity = identityOf(held->get());
    m_held->holdFile(path, std::move(*held), identity);
    return info;
}

core::Status removeTestFile(const std::string &path)
{
    struct stat st {
    };
    if (::lstat(path.c_str(), &st) != 0)
        return makeOpError(errno, "remove test file", path);
    if (S_ISDIR(st.st_mode))
        return removeFolderAsTree(
            linuxPreparationFs(), path, [](const std::string &root, const core::FileTree &tree) {
                return removeFileTree(root, tree);
            });
    if (!S_ISREG(st.st_mode))
        return makeOpError(
            EPERM, "remove test file", path, "not a test file created by IOPrism: left untouched");
    // The mark is asked of the file opened in its folder, and the name removed there.
    const int parentFd = ::open(parentOf(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (parentFd < 0)
        return makeOpError(errno, "remove test file", path);
    UniqueFd parent(parentFd);
    const std::string name = leafName(path);
    const int fd = openRegularAt(parentFd, name, O_RDONLY, 0);
    if (fd < 0 || markOfFd(fd) == Mark::None) {
        if (fd >= 0)
            ::close(fd);
        return makeOpError(
            EPERM, "remove test file", path, "not a test file created by IOPrism: left untouched");
    }
    UniqueFd file(fd);
    if (!removeMadeAt(parentFd, name, false))
        return makeOpError(errno, "remove test file", path);
    return core::Ok {};
}

std::optional<core::TestFileSpace> LinuxBackend::testFileSpace(const core::Target &target)
{
    if (m_options.skipFreeSpaceCheck
        || (target.kind != core::TargetKind::TestFile && target.kind != core::TargetKind::FileTree))
        return std::nullopt;
    // Where the space comes from: the folder that will hold the file (or the tree's top
    // folder, when it exists: it may be a mount point of its own).
    std::string home = parentOf(target.path);
    std::optional<TreePlan> plan;
    std::uint64_t need = 0;
    if (target.kind == core::TargetKind::FileTree) {
        // The same rule as prepareFileTree: a new tree is written whole, our own tree of
        // this shape only where files are missing or short, anything else never.
        if (auto planned = planFileTree(linuxPreparationFs(), target.path, target.tree)) {
            if (planned->rootExists)
                home = target.path;
            plan = std::move(*planned);
        }
    } else {
        // The same rule as prepareTestFile.
        struct stat st {
        };
        const bool exists = ::lstat(target.path.c_str(), &st) == 0;
        need = testFileNeedBytes(exists ? entryOf(st) : PathEntry {},
            exists ? markOf(target.path, st) : Mark::None, target.testFileSizeBytes);
    }
    struct stat hst {
    };
    struct statvfs sv {
    };
    if (::stat(home.c_str(), &hst) != 0 || ::statvfs(home.c_str(), &sv) != 0 || sv.f_blocks == 0)
        return std::nullopt; // no such directory (prepareTarget says so) or no size known
    if (plan)
        need = plan->needBytes(target.tree.fileSizeBytes, sv.f_frsize);
    const std::string mount = mountPointOfPath(home);
    return core::TestFileSpace {.fileSystem = std::to_string(hst.st_dev),
        .where = mount.empty() ? home : mount,
        .needBytes = need,
        .freeBytes = static_cast<std::uint64_t>(sv.f_bavail) * sv.f_frsize};
}

} // namespace ioprism::platform
