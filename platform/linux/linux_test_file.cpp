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

// What the space messages say, or the refusal when `need` bytes do not fit in `parent`.
core::Result<std::string> testFileSpaceDetail(
    const std::string &path, const std::string &parent, std::uint64_t need, bool skipCheck)
{
    struct statvfs sv {
    };
    std::uint64_t freeBytes = 0;
    // File systems that report no size at all (ramfs, some FUSE) cannot be checked
    // ahead: their writes will say ENOSPC if it comes to that.
    bool sizeKnown = false;
    if (::statvfs(parent.c_str(), &sv) == 0 && sv.f_blocks > 0) {
        freeBytes = static_cast<std::uint64_t>(sv.f_bavail) * sv.f_frsize;
        sizeKnown = true;
    }
    const std::string mount = mountPointOfPath(parent);
    std::string spaceDetail = "not enough space on " + (mount.empty() ? parent : mount) + ": need "
        + core::describeSize(need) + (sizeKnown ? ", have " + core::describeSize(freeBytes) : "");
    if (!skipCheck && sizeKnown && freeBytes < need)
        return makeOpError(ENOSPC, "create test file", path, spaceDetail);
    return spaceDetail;
}

// O_EXCL: never take over a file that appeared since the stat above (nor follow a link
// put there). Our own file is opened without following a link, and written only while it
// is still the file checked above (`st`) and still ours.
core::Result<UniqueFd> openToFill(const std::string &path, bool exists, const struct stat &st)
{
    const int fd = exists ? ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
                          : ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return makeOpError(errno, exists ? "open" : "create test file", path,
            errno == ELOOP ? changedWhilePrepared() : "");
    UniqueFd file(fd);
    if (exists) {
        struct stat now {
        };
        if (::fstat(fd, &now) != 0 || !S_ISREG(now.st_mode) || now.st_dev != st.st_dev
            || now.st_ino != st.st_ino || markOfFd(fd) == Mark::None)
            return makeOpError(ESTALE, "prepare test file", path, changedWhilePrepared());
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    }
    return file;
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

// A test file's preparation on its descriptor, for the policy's driver
// (platform::prepareTestFile).
class HeldTestFilePreparation final : public TestFilePreparation
{
public:
    using TestFilePreparation::TestFilePreparation;

    core::Result<PathEntry> lookUp(std::string *path) override
    {
        auto resolved = resolveTestFilePath(*path);
        if (!resolved)
            return resolved.error();
        *path = std::move(*resolved);
        if (::stat(path->c_str(), &m_st) != 0) {
            if (errno != ENOENT)
                return makeOpError(errno, "stat", *path);
            return PathEntry {};
        }
        if (auto refusal = testFileKindRefusal(*path, m_st, request().target.cacheMode))
            return *refusal;
        return entryOf(m_st);
    }
    Mark markOf(const std::string &path) override { return platform::markOf(path, m_st); }
    int writeError(const std::string &path, bool exists, const std::string &parent) override
    {
        int werr = 0;
        return writable(exists ? path : parent, &werr) ? 0 : werr;
    }
    OpError readOnlyRefusal(const std::string &path, int error) override
    {
        return platform::readOnlyRefusal(path, error);
    }
    std::optional<OpError> createRefusal(
        const std::string &path, const std::string &parent, int error) override
    {
        return makeOpError(error, "create test file", path, "cannot create files in " + parent);
    }
    core::Result<std::string> spaceDetail(const std::string &path, std::uint64_t needBytes) override
    {
        return testFileSpaceDetail(
            path, parentOf(path), needBytes, request().backend.skipFreeSpaceCheck);
    }
    core::Status open(const Fill &fill) override
    {
        auto file = openToFill(fill.path, fill.exists, m_st);
        if (!file)
            return file.error();
        m_file = std::move(*file);
        return core::Ok {};
    }
    core::Result<std::string> markNew(const std::string &path) override
    {
        // Ask about O_DIRECT now that the file exists, before writing a byte.
        if (auto refusal = directIoRefusal(
                path, request().target.cacheMode, queryAlignment(path, logicalBlockOfFile(path)))) {
            m_file.reset();
            ::unlink(path.c_str());
            return *refusal;
        }
        return markOurs(m_file.get(), Mark::Filling);
    }
    core::Status mark(const std::string &path, Mark mark) override
    {
        return setMark(path, m_file.get(), mark);
    }
    core::Status write(
        const std::string &path, const FillRange &range, const std::string &spaceDetail) override
    {
        return fillFile(path, m_file.get(), range.fromBytes, range.toBytes, request().options,
            request().progress, spaceDetail);
    }
    void undo(const Fill &fill) override
    {
        if (fill.exists) {
            if (::ftruncate(m_file.get(), static_cast<off_t>(fill.currentBytes)) != 0) {
                // keep the error we are already reporting
            }
            if (!fill.halfFilled)
                (void)setMark(fill.path, m_file.get(), Mark::Complete);
            m_file.reset();
            return;
        }
        struct stat created {
        };
        if (::fstat(m_file.get(), &created) == 0)
            forgetCreated(created);
        m_file.reset();
        ::unlink(fill.path.c_str());
    }
    core::Status filled(const std::string &path) override
    {
        const bool known = ::fstat(m_file.get(), &m_st) == 0;
        const int err = errno;
        m_file.reset();
        if (!known)
            return makeOpError(err, "fstat", path);
        return core::Ok {};
    }
    core::Result<core::TargetInfo> hold(const std::string &path, bool created) override;

private:
    struct stat m_st {
    }; // of the file looked up; of the filled one once filled
    UniqueFd m_file; // open while it is filled
};

core::Result<core::TargetInfo> HeldTestFilePreparation::hold(const std::string &path, bool created)
{
    core::TargetInfo info;
    info.path = path;
    info.createdTestFile = created;
    int werr = 0;
    info.sizeBytes = static_cast<std::uint64_t>(m_st.st_size);
    info.readOnly = !writable(path, &werr);
    const Alignment a = queryAlignment(path, logicalBlockOfFile(path));
    info.logicalBlockBytes = a.logicalBytes;
    info.directIoOffsetAlignBytes = a.offsetBytes;
    info.directIoMemAlignBytes = a.memBytes;

    if (request().backend.beforeHold)
        request().backend.beforeHold(path);
    auto held = openCheckedTestFile(path, m_st, request().options.needWrite);
    if (!held) {
        if (created)
            (void)removeTestFile(path);
        return held.error();
    }
    const FileIdentity identity = identityOf(held->get());
    request().held.holdFile(path, std::move(*held), identity);
    return info;
}

} // namespace

core::Result<core::TargetInfo> prepareHeldTestFile(PreparationRequest request)
{
    HeldTestFilePreparation steps(std::move(request));
    return prepareTestFile(linuxPreparationFs(), steps);
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
    if (m_options.skipFreeSpaceCheck || core::isRawDevice(target.kind))
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
