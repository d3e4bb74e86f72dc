// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/linux_preparation.h"

#include "core/workload/file_tree.h"
#include "platform/linux/block_devices.h"
#include "platform/linux/linux_backend.h"
#include "platform/linux/sysfs.h"
#include "platform/linux/test_file_marks.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace ioprism::platform {

using core::makeOpError;
using core::OpError;

std::string parentOf(const std::string &path)
{
    // "/data/tree/" names the folder "/data/tree", whose parent is "/data".
    std::string named = path;
    while (named.size() > 1 && named.back() == '/')
        named.pop_back();
    const fs::path p = fs::absolute(fs::path(named)).parent_path();
    return p.empty() ? std::string("/") : p.string();
}

std::string leafName(const std::string &path)
{
    std::string named = path;
    while (named.size() > 1 && named.back() == '/')
        named.pop_back();
    return fs::path(named).filename().string();
}

PathEntry entryOf(const struct stat &st)
{
    return {.exists = true,
        .directory = S_ISDIR(st.st_mode),
        .link = S_ISLNK(st.st_mode),
        .regular = S_ISREG(st.st_mode),
        .sizeBytes = static_cast<std::uint64_t>(st.st_size),
        .links = static_cast<std::uint64_t>(st.st_nlink)};
}

namespace {

// The preparation policy's primitives on Linux: lstat, the xattr mark, the marker read
// through a descriptor, errno.
class LinuxPreparationFs final : public PreparationFs
{
public:
    const PreparationWords &words() const override
    {
        static const PreparationWords words {
            .codes = {.notOurs = EEXIST,
                .notAFolder = ENOTDIR,
                .leftUntouched = EPERM,
                .leftOthers = ENOTEMPTY,
                .emptyFile = EINVAL,
                .noFolder = ENOENT,
                .invalid = EINVAL},
            .markName = "the xattr " + std::string(kTestFileXattr),
            .markless = "on a file system without user xattrs",
            .copyKeepsMark = "cp -a and backups copy the mark",
            .storage = "device",
            .notPlainFolder = "this is not a folder (a symbolic link or a file)",
            .notPlainFile = "this is not a regular file (a symbolic link, a folder)",
            .fileLacksMark = "this file lacks IOPrism's mark",
        };
        return words;
    }

    OpError osError(
        int code, std::string operation, std::string path, std::string detail) const override
    {
        return makeOpError(code, std::move(operation), std::move(path), std::move(detail));
    }

    std::string errorText(int code) const override { return errnoText(code); }

    core::Result<PathEntry> lookUpTreeRoot(const std::string &root) const override
    {
        struct stat st {
        };
        if (::lstat(root.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
            // Named once, by its own folder: a link could lead the tree's writes anywhere,
            // and another moment to somewhere else.
            std::error_code ec;
            const fs::path to = fs::read_symlink(root, ec);
            return makeOpError(ELOOP, "prepare file tree", root,
                "this path is a symbolic link" + (ec ? std::string() : " (to " + to.string() + ")")
                    + (::stat(root.c_str(), &st) != 0 ? " that leads nowhere" : "")
                    + ": IOPrism never follows a link to a file tree; name the tree's folder "
                      "itself");
        }
        if (::stat(root.c_str(), &st) == 0)
            return entryOf(st);
        if (errno != ENOENT)
            return makeOpError(errno, "stat", root);
        return PathEntry {};
    }

    core::Result<PathEntry> lookUp(const std::string &path) const override
    {
        struct stat st {
        };
        if (::lstat(path.c_str(), &st) == 0)
            return entryOf(st);
        if (errno != ENOENT && errno != ENOTDIR)
            return makeOpError(errno, "stat", path);
        return PathEntry {};
    }

    Mark markOf(const std::string &path) const override { return platform::markOf(path); }

    bool carriesForeignMark(const std::string &path) const override
    {
        return platform::carriesForeignMark(path);
    }

    std::string otherNames(const std::string &, const PathEntry &entry) const override
    {
        return entry.links > 1 ? "this file has " + std::to_string(entry.links) + " names" : "";
    }

    std::string parentFolder(const std::string &path) const override { return parentOf(path); }

    bool isFolder(const std::string &path) const override
    {
        struct stat st {
        };
        return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    }

    TreeMarker readTreeMarker(const std::string &root) const override
    {
        return platform::readTreeMarker(root);
    }

    bool treeIsOurs(const std::string &root) const override
    {
        return platform::markOf(root) != Mark::None
            && platform::markOf(core::fileTreeMarkerPath(root)) != Mark::None;
    }

    fs::path nativePath(const std::string &utf8) const override { return fs::path(utf8); }
    std::string utf8Path(const fs::path &path) const override { return path.string(); }
};

} // namespace

const PreparationFs &linuxPreparationFs()
{
    static const LinuxPreparationFs fs;
    return fs;
}

Alignment queryAlignment(const std::string &path, std::uint32_t logicalBytes)
{
    Alignment a;
    a.logicalBytes = logicalBytes;
    a.offsetBytes = logicalBytes;
    struct statx sx {
    };
    if (::statx(AT_FDCWD, path.c_str(), 0, STATX_DIOALIGN, &sx) == 0
        && (sx.stx_mask & STATX_DIOALIGN)) {
        a.fromStatx = true;
        if (sx.stx_dio_offset_align == 0) {
            a.directSupported = false;
        } else {
            a.offsetBytes = sx.stx_dio_offset_align;
            a.memBytes = std::max(kMinBufferAlign, sx.stx_dio_mem_align);
        }
    }
    return a;
}

std::uint32_t logicalBlockOfFile(const std::string &path)
{
    if (const auto name = blockDeviceCarrying(path)) {
        const std::string text = readQueueAttribute(*name, "logical_block_size");
        std::uint32_t v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec == std::errc() && v >= 512)
            return v;
    }
    return 512;
}

std::optional<OpError> directIoRefusal(
    const std::string &path, core::CacheMode mode, const Alignment &a)
{
    if (mode != core::CacheMode::Direct)
        return std::nullopt;
    bool direct = a.directSupported;
    if (direct && !a.fromStatx) {
        // No statx answer (old kernel): ask the file system by trying.
        const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
        if (fd >= 0)
            ::close(fd);
        else if (errno == EINVAL)
            direct = false;
    }
    if (direct)
        return std::nullopt;
    const std::string mount = mountPointOfPath(path);
    return makeOpError(EINVAL, "open O_DIRECT", path,
        "the file system at " + (mount.empty() ? parentOf(path) : mount)
            + " does not support direct I/O: use buffered mode or put the test "
              "file elsewhere");
}

bool writable(const std::string &path, int *err)
{
    // access() reports EROFS (read-only mount) and EPERM (immutable) even for root;
    // root's bypass of mode bits is real: open would succeed too.
    if (::access(path.c_str(), W_OK) == 0)
        return true;
    *err = errno;
    return false;
}

OpError readOnlyRefusal(const std::string &path, int err)
{
    std::string why;
    if (err == EROFS)
        why = "it is on a read-only file system";
    else if (err == EPERM)
        why = "it is immutable or the system forbids writing it";
    else
        why = "no write permission";
    return makeOpError(err, "open for writing", path,
        "the profile writes to this target but " + why
            + ": use a read-only spec or a writable target");
}

std::string changedWhilePrepared()
{
    return "the file changed while IOPrism prepared it (it was renamed or replaced, or a link "
           "was put in its place): IOPrism writes only the file it checked; try again";
}

int openRegularAt(int dirFd, const std::string &name, int flags, mode_t mode)
{
    const int fd = ::openat(dirFd, name.c_str(), flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode);
    if (fd < 0)
        return -errno;
    struct stat st {
    };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return -EINVAL;
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

TreeMarker readTreeMarkerAt(int rootFd)
{
    const int fd = openRegularAt(rootFd, std::string(core::kFileTreeMarkerName), O_RDONLY, 0);
    if (fd < 0)
        return {};
    UniqueFd file(fd);
    constexpr std::size_t kLongestMarker = 4096; // ours is one short line
    std::string text(kLongestMarker + 1, '\0');
    std::size_t got = 0;
    while (got < text.size()) {
        const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    text.resize(got);
    const auto tree = got > kLongestMarker ? std::nullopt : core::parseFileTreeMarker(text);
    if (!tree)
        return {.state = TreeMarker::State::Damaged};
    if (markOfFd(fd) == Mark::None)
        return {.state = TreeMarker::State::Found, .tree = *tree, .marked = false};
    return {.state = TreeMarker::State::Found, .tree = *tree};
}

TreeMarker readTreeMarker(const std::string &root)
{
    const int fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return {};
    UniqueFd folder(fd);
    return readTreeMarkerAt(fd);
}

bool removeMadeAt(int dirFd, const std::string &name, bool folder)
{
    struct stat st {
    };
    if (::fstatat(dirFd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
        return errno == ENOENT;
    if (::unlinkat(dirFd, name.c_str(), folder ? AT_REMOVEDIR : 0) != 0)
        return false;
    forgetCreated(st);
    return true;
}

FileFiller::FileFiller(const core::PrepareOptions &options)
    : m_filler(options.fillPattern, options.seed)
{ }

core::Status FileFiller::init()
{
    if (auto st = m_pool.allocate(1, kFillChunkBytes, kMinBufferAlign); !st)
        return st;
    m_filler.prepare(m_pool.at(0));
    return core::Ok {};
}

void FileFiller::Direct::off(int fd, std::uint64_t offset)
{
    ::fcntl(fd, F_SETFL, baseFlags);
    on = false;
    cachedFrom = std::min(cachedFrom, offset);
}

namespace {

bool noSpace(int err)
{
    return err == ENOSPC || err == EDQUOT;
}

// Reserves [fromBytes, toBytes) first: ENOSPC now rather than after minutes of writing.
// Not every file system can (then the writes find out).
core::Status reserveSpace(const std::string &path, int fd, std::uint64_t fromBytes,
    std::uint64_t toBytes, const std::string &spaceDetail)
{
    if (toBytes <= fromBytes
        || ::fallocate(
               fd, 0, static_cast<off_t>(fromBytes), static_cast<off_t>(toBytes - fromBytes))
            == 0)
        return core::Ok {};
    const int err = errno;
    if (noSpace(err))
        return makeOpError(err, "fallocate", path, spaceDetail);
    if (err != EOPNOTSUPP && err != ENOSYS && err != EINVAL)
        return makeOpError(err, "fallocate", path);
    return core::Ok {};
}

// Makes a filled file durable (Sync::File), or writes back just its cached part (data
// only, no journal commit), so that the page cache can drop it; then drops it: a
// buffered run starts cold, like a direct one.
core::Status settle(const std::string &path, int fd, FileFiller::Sync sync,
    std::uint64_t cachedFrom, std::uint64_t toBytes, const std::string &spaceDetail)
{
    if (sync == FileFiller::Sync::File) {
        if (::fsync(fd) != 0) {
            const int err = errno;
            return makeOpError(err, "fsync", path, noSpace(err) ? spaceDetail : "");
        }
    } else if (cachedFrom < toBytes) {
        if (::sync_file_range(fd, static_cast<off_t>(cachedFrom), 0,
                SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER)
            != 0) {
            const int err = errno;
            if (err != ESPIPE && err != EINVAL)
                return makeOpError(err, "sync_file_range", path, noSpace(err) ? spaceDetail : "");
        }
    }
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    return core::Ok {};
}

} // namespace

core::Status FileFiller::writeChunk(const std::string &path, int fd,
    std::span<const std::byte> part, std::uint64_t offset, Direct &direct,
    const std::string &spaceDetail)
{
    const std::size_t n = part.size();
    if (direct.on && (n % kMinBufferAlign != 0 || offset % kMinBufferAlign != 0))
        direct.off(fd, offset); // the unaligned tail goes through the cache
    std::size_t done = 0;
    while (done < n) {
        const ssize_t w
            = ::pwrite(fd, part.data() + done, n - done, static_cast<off_t>(offset + done));
        if (w < 0) {
            const int err = errno;
            if (err == EINTR)
                continue;
            if (err == EINVAL && direct.on) { // alignment stricter than 4 KiB: go buffered
                direct.off(fd, offset);
                continue;
            }
            if (noSpace(err))
                return makeOpError(err, "write", path, spaceDetail);
            return makeOpError(err, "write", path);
        }
        if (w == 0)
            return makeOpError(EIO, "write", path, "the file system accepted no data");
        done += static_cast<std::size_t>(w);
    }
    return core::Ok {};
}

core::Status FileFiller::fill(const std::string &path, int fd, std::uint64_t fromBytes,
    std::uint64_t toBytes, const core::PrepareProgress &progress, const std::string &spaceDetail,
    Sync sync, const char *operation)
{
    const auto chunk = m_pool.at(0);
    if (auto st = reserveSpace(path, fd, fromBytes, toBytes, spaceDetail); !st)
        return st;

    // Direct writes keep the fill out of the page cache (and do not evict what the
    // machine is using); buffered is the fallback where O_DIRECT is refused.
    Direct direct;
    direct.baseFlags = ::fcntl(fd, F_GETFL);
    direct.on = ::fcntl(fd, F_SETFL, direct.baseFlags | O_DIRECT) == 0;
    direct.cachedFrom = direct.on ? toBytes : fromBytes;

    const std::uint64_t total = toBytes - fromBytes;
    std::uint64_t offset = fromBytes;
    while (offset < toBytes) {
        const auto n
            = static_cast<std::size_t>(std::min<std::uint64_t>(kFillChunkBytes, toBytes - offset));
        auto part = chunk.first(n);
        m_filler.beforeWrite(part, offset);
        if (auto st = writeChunk(path, fd, part, offset, direct, spaceDetail); !st)
            return st;
        offset += n;
        if (progress && !progress(offset - fromBytes, total))
            return makeOpError(ECANCELED, operation, path, "cancelled while writing");
    }
    return settle(path, fd, sync, direct.cachedFrom, toBytes, spaceDetail);
}

core::Status fillFile(const std::string &path, int fd, std::uint64_t fromBytes,
    std::uint64_t toBytes, const core::PrepareOptions &options,
    const core::PrepareProgress &progress, const std::string &spaceDetail)
{
    FileFiller filler(options);
    if (auto st = filler.init(); !st)
        return st;
    return filler.fill(path, fd, fromBytes, toBytes, progress, spaceDetail, FileFiller::Sync::File,
        "prepare test file");
}

} // namespace ioprism::platform
