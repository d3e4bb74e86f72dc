// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/linux_backend.h"

#include "core/profile/units.h"
#include "core/workload/data_pattern.h"
#include "core/workload/file_tree.h"
#include "platform/common/file_tree_plan.h"
#include "platform/linux/block_devices.h"
#include "platform/linux/held_targets.h"
#include "platform/linux/sync_engine.h"
#include "platform/linux/sysfs.h"
#include "platform/linux/uring_engine.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <grp.h>
#include <liburing.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <mutex>
#include <pthread.h>
#include <pwd.h>
#include <sched.h>
#include <set>
#include <sstream>
#include <string_view>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace ioprism::platform {

using core::makeOpError;
using core::OpError;

// ---------------------------------------------------------------- small helpers

void UniqueFd::reset(int fd)
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = fd;
}

namespace {

constexpr std::uint32_t kMinBufferAlign = 4096; // ENVIRONMENT.md: never less for O_DIRECT

constexpr int kCapIpcLock = 14; // CAP_IPC_LOCK in linux/capability.h

// True when the process has the capability in its effective set (/proc/self/status).
bool hasCapability(int capability)
{
    std::istringstream in(readTextFile("/proc/self/status"));
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("CapEff:", 0) == 0)
            return (std::stoull(line.substr(7), nullptr, 16) >> capability) & 1u;
    return false;
}

std::string errnoText(int err)
{
    return std::error_code(err, std::system_category()).message();
}

std::string parentOf(const std::string &path)
{
    // "/data/tree/" names the folder "/data/tree", whose parent is "/data".
    std::string named = path;
    while (named.size() > 1 && named.back() == '/')
        named.pop_back();
    const fs::path p = fs::absolute(fs::path(named)).parent_path();
    return p.empty() ? std::string("/") : p.string();
}

// Files this process created on file systems without user xattrs (vfat, exfat, some
// FUSE and NFS mounts). Such a file cannot carry a mark that survives the process, and
// a marker kept beside it could match a different file later (vfat derives inode
// numbers from directory slots, so a new file under the same name can get the same
// number). The safe rule: there, a file is ours only during the process that made it;
// in a later run it counts as someone else's, so it is read but never written.
struct CreatedFiles {
    std::mutex mutex;
    std::set<std::pair<dev_t, ino_t>> files; // guarded by mutex
};
CreatedFiles &createdWithoutXattr()
{
    static CreatedFiles registry;
    return registry;
}

// The mark's values. A file is marked "filling" when it is created (or before it is
// extended) and "complete" only once its fill is written and synced: a run killed
// mid-fill leaves a file reserved at full size (fallocate) but not written, whose reads
// return zeros without touching the device, so a file still "filling" is filled again.
// Folders and a tree's marker are "complete" from the start.
//
// A mark is bound to what it marks: "complete 1234567 1700000000.123456789" names the
// inode number and, where the file system keeps one, the birth time of the file it was
// set on. An xattr travels with a copy (cp -a, rsync -X, a restore), and a copy holding a
// user's own data must never count as IOPrism's: the copy is a new inode, born later, so
// its mark names another file. Marks without an identity (IOPrism before it bound them,
// or "1" from before it told filling from complete) cannot be told from a copy: such a
// file is treated as anyone's (read, never written or removed).
constexpr std::string_view kMarkFilling = "filling";
constexpr std::string_view kMarkComplete = "complete";

enum class Mark {
    None, // not ours: never written, never removed
    Filling, // ours, its fill not known to be finished: fill it again from the start
    Complete, // ours, filled
};

std::string_view markText(Mark mark)
{
    return mark == Mark::Filling ? kMarkFilling : kMarkComplete;
}

// What a mark binds to, from statx of the marked file: "<inode>[ <birth s>.<birth ns>]".
std::string markIdentity(const struct statx &sx)
{
    std::string id = std::to_string(sx.stx_ino);
    if (sx.stx_mask & STATX_BTIME)
        id += " " + std::to_string(sx.stx_btime.tv_sec) + "."
            + std::to_string(sx.stx_btime.tv_nsec);
    return id;
}

std::optional<std::string> markIdentityOf(int dirFd, const char *path, int flags)
{
    struct statx sx {
    };
    if (::statx(dirFd, path, flags, STATX_INO | STATX_BTIME, &sx) != 0)
        return std::nullopt;
    return markIdentity(sx);
}

std::string markValue(int fd, Mark mark)
{
    const auto id = markIdentityOf(fd, "", AT_EMPTY_PATH);
    return std::string(markText(mark)) + (id ? " " + *id : std::string());
}

// The mark a value read from the xattr gives the file whose identity is `id`.
Mark parseMark(std::string_view value, const std::optional<std::string> &id)
{
    const std::size_t space = value.find(' ');
    if (space == std::string_view::npos || !id || value.substr(space + 1) != *id)
        return Mark::None; // unbound (an earlier IOPrism's) or another file's: a copy
    const std::string_view state = value.substr(0, space);
    return state == kMarkComplete ? Mark::Complete : Mark::Filling; // unknown: fill again
}

// Whether `value` is a mark at all (bound to this file or not), for messages.
bool looksLikeMark(std::string_view value)
{
    return value == "1" || value.starts_with(kMarkComplete) || value.starts_with(kMarkFilling);
}

// Marks a file or folder we just created (open as `fd`) as ours. Returns "" when the mark
// will outlive this process, else why not (then it is ours only in this process).
std::string markOurs(int fd, Mark mark)
{
    const std::string value = markValue(fd, mark);
    if (::fsetxattr(fd, kTestFileXattr, value.data(), value.size(), 0) == 0)
        return {};
    const int xerr = errno;
    struct stat st {
    };
    if (::fstat(fd, &st) == 0) {
        auto &r = createdWithoutXattr();
        std::lock_guard lock(r.mutex);
        r.files.insert({st.st_dev, st.st_ino});
    }
    return "xattr " + std::string(kTestFileXattr) + ": " + errnoText(xerr);
}

// Moves a file of ours between "filling" and "complete". Where it carries no xattr (it is
// ours only in this process) there is nothing to record.
core::Status setMark(const std::string &path, int fd, Mark mark)
{
    const std::string value = markValue(fd, mark);
    if (::fsetxattr(fd, kTestFileXattr, value.data(), value.size(), 0) == 0 || errno == ENOTSUP
        || errno == EOPNOTSUPP)
        return core::Ok {};
    return makeOpError(errno, "mark", path, "xattr " + std::string(kTestFileXattr));
}

void forgetCreated(const struct stat &st)
{
    auto &r = createdWithoutXattr();
    std::lock_guard lock(r.mutex);
    r.files.erase({st.st_dev, st.st_ino});
}

// The mark given the xattr read (`n` bytes of `value`, or -1 with errno) of a file whose
// stat is `st` and identity `id`. A regular file with more than one link is nobody's: the
// mark is on the inode, so a hard link IOPrism did not make would share it, and writing or
// removing the file would reach a file under another name (the user's). Without user
// xattrs, only what this process created is ours.
Mark markFrom(
    ssize_t n, const char *value, const struct stat &st, const std::optional<std::string> &id)
{
    if (S_ISREG(st.st_mode) ? st.st_nlink != 1 : !S_ISDIR(st.st_mode))
        return Mark::None;
    if (n >= 0)
        return parseMark(std::string_view(value, static_cast<std::size_t>(n)), id);
    if (errno != ENOTSUP && errno != EOPNOTSUPP)
        return Mark::None;
    auto &r = createdWithoutXattr();
    std::lock_guard lock(r.mutex);
    // A file this process created and did not remove again was filled in full.
    return r.files.contains({st.st_dev, st.st_ino}) ? Mark::Complete : Mark::None;
}

// The mark of the file or folder `path` (not followed if a link), whose lstat is `st`:
// for planning and messages. What is written is decided by markOfFd on the descriptor
// held (a path can name something else a moment later).
Mark markOf(const std::string &path, const struct stat &st)
{
    std::array<char, 96> value {};
    const ssize_t n = ::lgetxattr(path.c_str(), kTestFileXattr, value.data(), value.size());
    const int err = errno;
    const auto id = markIdentityOf(AT_FDCWD, path.c_str(), AT_SYMLINK_NOFOLLOW);
    errno = err;
    return markFrom(n, value.data(), st, id);
}

Mark markOf(const std::string &path)
{
    struct stat st {
    };
    return ::lstat(path.c_str(), &st) == 0 ? markOf(path, st) : Mark::None;
}

// The mark of the file or folder open as `fd`: what decides whether it is written.
Mark markOfFd(int fd)
{
    struct stat st {
    };
    if (::fstat(fd, &st) != 0)
        return Mark::None;
    std::array<char, 96> value {};
    const ssize_t n = ::fgetxattr(fd, kTestFileXattr, value.data(), value.size());
    const int err = errno;
    const auto id = markIdentityOf(fd, "", AT_EMPTY_PATH);
    errno = err;
    return markFrom(n, value.data(), st, id);
}

// True when `path` carries a value of IOPrism's mark that does not bind to it: a copy of a
// test file, or a file an earlier IOPrism marked without binding the mark.
bool carriesForeignMark(const std::string &path)
{
    std::array<char, 96> value {};
    const ssize_t n = ::lgetxattr(path.c_str(), kTestFileXattr, value.data(), value.size());
    return n > 0 && looksLikeMark(std::string_view(value.data(), static_cast<std::size_t>(n)));
}

struct Alignment {
    std::uint32_t logicalBytes = 512;
    std::uint32_t offsetBytes = 512;
    std::uint32_t memBytes = kMinBufferAlign;
    bool directSupported = true; // false when statx says the file cannot do O_DIRECT
    bool fromStatx = false;
};

// statx(STATX_DIOALIGN) (Linux 6.1 for files, 6.11 for block devices), else the given
// logical block size.
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

// The refusal when a Direct target's file system cannot do O_DIRECT, so that a run
// never measures the page cache while claiming direct I/O.
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

// Writes the fill pattern into files: one 1 MiB aligned chunk, prepared once and reused
// for every file (a tree of a million files must not map and fill a buffer per file).
// The pattern filler runs on across files, so FullRandom blocks differ between files too.
class FileFiller
{
public:
    explicit FileFiller(const core::PrepareOptions &options)
        : m_filler(options.fillPattern, options.seed)
    { }

    core::Status init()
    {
        if (auto st = m_pool.allocate(1, kFillChunkBytes, kMinBufferAlign); !st)
            return st;
        m_filler.prepare(m_pool.at(0));
        return core::Ok {};
    }

    // How a filled file is made durable and evicted from the page cache.
    enum class Sync {
        File, // fsync the file (a test file: one file, errors surface here)
        Later, // only write back what went through the cache; the caller syncs the file
               // system once when every file is written (a tree: no journal commit per file)
    };

    // Writes [fromBytes, toBytes) of an open file, in 1 MiB chunks, direct when the file
    // system allows it. Returns ECANCELED when progress says stop.
    core::Status fill(const std::string &path, int fd, std::uint64_t fromBytes,
        std::uint64_t toBytes, const core::PrepareProgress &progress,
        const std::string &spaceDetail, Sync sync, const char *operation)
    {
        const auto chunk = m_pool.at(0);
        // Reserve the space first: ENOSPC now rather than after minutes of writing. Not
        // every file system can (then the writes find out).
        if (toBytes > fromBytes
            && ::fallocate(
                   fd, 0, static_cast<off_t>(fromBytes), static_cast<off_t>(toBytes - fromBytes))
                != 0) {
            const int err = errno;
            if (err == ENOSPC || err == EDQUOT)
                return makeOpError(err, "fallocate", path, spaceDetail);
            if (err != EOPNOTSUPP && err != ENOSYS && err != EINVAL)
                return makeOpError(err, "fallocate", path);
        }

        // Direct writes keep the fill out of the page cache (and do not evict what the
        // machine is using); buffered is the fallback where O_DIRECT is refused.
        const int baseFlags = ::fcntl(fd, F_GETFL);
        bool direct = ::fcntl(fd, F_SETFL, baseFlags | O_DIRECT) == 0;
        std::uint64_t cachedFrom = direct ? toBytes : fromBytes; // first byte written buffered

        const std::uint64_t total = toBytes - fromBytes;
        std::uint64_t offset = fromBytes;
        while (offset < toBytes) {
            const auto n = static_cast<std::size_t>(
                std::min<std::uint64_t>(kFillChunkBytes, toBytes - offset));
            auto part = chunk.first(n);
            m_filler.beforeWrite(part, offset);
            if (direct && (n % kMinBufferAlign != 0 || offset % kMinBufferAlign != 0)) {
                ::fcntl(fd, F_SETFL, baseFlags); // the unaligned tail goes through the cache
                direct = false;
                cachedFrom = std::min(cachedFrom, offset);
            }
            std::size_t done = 0;
            while (done < n) {
                const ssize_t w
                    = ::pwrite(fd, part.data() + done, n - done, static_cast<off_t>(offset + done));
                if (w < 0) {
                    const int err = errno;
                    if (err == EINTR)
                        continue;
                    if (err == EINVAL && direct) { // alignment stricter than 4 KiB: go buffered
                        ::fcntl(fd, F_SETFL, baseFlags);
                        direct = false;
                        cachedFrom = std::min(cachedFrom, offset);
                        continue;
                    }
                    if (err == ENOSPC || err == EDQUOT)
                        return makeOpError(err, "write", path, spaceDetail);
                    return makeOpError(err, "write", path);
                }
                if (w == 0)
                    return makeOpError(EIO, "write", path, "the file system accepted no data");
                done += static_cast<std::size_t>(w);
            }
            offset += n;
            if (progress && !progress(offset - fromBytes, total))
                return makeOpError(ECANCELED, operation, path, "cancelled while writing");
        }
        if (sync == Sync::File) {
            if (::fsync(fd) != 0) {
                const int err = errno;
                return makeOpError(
                    err, "fsync", path, err == ENOSPC || err == EDQUOT ? spaceDetail : "");
            }
        } else if (cachedFrom < toBytes) {
            // Write back just the cached part (data only, no journal commit), so that the
            // page cache can drop it below.
            if (::sync_file_range(fd, static_cast<off_t>(cachedFrom), 0,
                    SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE
                        | SYNC_FILE_RANGE_WAIT_AFTER)
                != 0) {
                const int err = errno;
                if (err != ESPIPE && err != EINVAL)
                    return makeOpError(err, "sync_file_range", path,
                        err == ENOSPC || err == EDQUOT ? spaceDetail : "");
            }
        }
        // Start a buffered run cold, like a direct one: drop what the fill left cached.
        ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        return core::Ok {};
    }

private:
    AlignedBufferPool m_pool;
    core::DataPatternFiller m_filler;
};

// Writes [fromBytes, toBytes) of one test file with the fill pattern and fsyncs it.
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

} // namespace

// ---------------------------------------------------------------- engine helpers

namespace {

int engineOpenFlags(const core::EngineFile &file)
{
    int flags = (file.write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
    if (file.cacheMode == core::CacheMode::Direct)
        flags |= O_DIRECT;
    if (file.writeThrough)
        flags |= O_DSYNC;
    return flags;
}

} // namespace

int openEngineFd(const core::EngineFile &file, const HeldTargets *held)
{
    const int flags = engineOpenFlags(file);
    if (held)
        return held->open(file, flags);
    // O_NOATIME keeps reads from dirtying inodes; only the owner (or CAP_FOWNER) may ask.
    int fd = ::open(file.path.c_str(), flags | O_NOATIME);
    if (fd < 0 && errno == EPERM)
        fd = ::open(file.path.c_str(), flags);
    return fd >= 0 ? fd : -errno;
}

core::OpError engineOpenError(const core::EngineFile &file, int err)
{
    std::string detail;
    if (err == ESTALE)
        detail = "it is no longer the file IOPrism prepared (it was renamed, replaced or a link "
                 "was put in its place): IOPrism writes only what it checked, so the run stops";
    else if (err == ELOOP)
        detail = "a symbolic link was put in its place since IOPrism prepared it: IOPrism never "
                 "follows one, so the run stops";
    else if (err == EBADF)
        detail = "IOPrism holds no descriptor for it: only targets the run prepared are opened";
    else if (err == ENOENT && file.treeFileIndex)
        detail = "it was removed from the tree since IOPrism prepared it";
    else if (err == EINVAL && file.cacheMode == core::CacheMode::Direct)
        detail = "the file system does not support direct I/O (O_DIRECT): use buffered mode";
    else if ((err == EROFS || err == EACCES || err == EPERM) && file.write)
        detail = "cannot open for writing";
    return makeOpError(err, "open", file.path, detail);
}

core::Result<UniqueFd> openEngineFile(const core::EngineFile &file, const HeldTargets *held)
{
    const int fd = openEngineFd(file, held);
    if (fd < 0)
        return engineOpenError(file, -fd);
    return UniqueFd(fd);
}

core::Result<BufferMemory::Mapping> BufferMemory::map(std::size_t bytes)
{
    void *p = ::mmap(
        nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (p == MAP_FAILED)
        return makeOpError(
            errno, "mmap", {}, "cannot allocate " + core::describeSize(bytes) + " of I/O buffers");
    // A forked child (a helper process) must not share memory the kernel writes into.
    ::madvise(p, bytes, MADV_DONTFORK);
    return Mapping {static_cast<std::byte *>(p), bytes};
}

BufferMemory::~BufferMemory()
{
    release();
}

void BufferMemory::keep(std::span<const std::size_t> bytesEach)
{
    std::lock_guard lock(m_mutex);
    m_keeping = true;
    for (const std::size_t bytes : bytesEach)
        if (auto m = map(bytes))
            m_free.push_back(*m);
}

void BufferMemory::release()
{
    std::lock_guard lock(m_mutex);
    m_keeping = false;
    for (const auto &m : m_free)
        ::munmap(m.base, m.bytes);
    m_free.clear();
}

std::optional<BufferMemory::Mapping> BufferMemory::take(std::size_t bytes)
{
    std::lock_guard lock(m_mutex);
    auto best = m_free.end();
    for (auto it = m_free.begin(); it != m_free.end(); ++it)
        if (it->bytes >= bytes && (best == m_free.end() || it->bytes < best->bytes))
            best = it;
    if (best == m_free.end())
        return std::nullopt;
    const Mapping m = *best;
    m_free.erase(best);
    return m;
}

void BufferMemory::give(Mapping mapping)
{
    std::lock_guard lock(m_mutex);
    if (m_keeping)
        m_free.push_back(mapping);
    else
        ::munmap(mapping.base, mapping.bytes);
}

std::size_t BufferMemory::keptBytes() const
{
    std::lock_guard lock(m_mutex);
    std::size_t total = 0;
    for (const auto &m : m_free)
        total += m.bytes;
    return total;
}

AlignedBufferPool::~AlignedBufferPool()
{
    if (!m_mapping.base)
        return;
    if (m_memory)
        m_memory->give(m_mapping);
    else
        ::munmap(m_mapping.base, m_mapping.bytes);
}

namespace {

std::size_t bufferAlignment(std::uint32_t alignmentBytes)
{
    return std::max<std::size_t>(alignmentBytes, kMinBufferAlign);
}

std::size_t bufferStride(std::uint32_t bufferBytes, std::size_t align)
{
    return (static_cast<std::size_t>(bufferBytes) + align - 1) / align * align;
}

} // namespace

std::size_t AlignedBufferPool::mappedBytesFor(
    std::uint32_t count, std::uint32_t bufferBytes, std::uint32_t alignmentBytes)
{
    const std::size_t align = bufferAlignment(alignmentBytes);
    // mmap is page-aligned; a larger alignment needs slack to start the buffers in.
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return bufferStride(bufferBytes, align) * count + (align > page ? align : 0);
}

core::Status AlignedBufferPool::allocate(std::uint32_t count, std::uint32_t bufferBytes,
    std::uint32_t alignmentBytes, std::shared_ptr<BufferMemory> memory)
{
    if (m_base)
        return makeOpError(EALREADY, "allocate buffers");
    const std::size_t align = bufferAlignment(alignmentBytes);
    if (count == 0 || bufferBytes == 0 || (align & (align - 1)) != 0)
        return makeOpError(
            EINVAL, "allocate buffers", {}, "count, size and a power-of-two alignment are needed");
    const std::size_t bytes = mappedBytesFor(count, bufferBytes, alignmentBytes);
    std::optional<BufferMemory::Mapping> kept;
    if (memory)
        kept = memory->take(bytes);
    if (kept) {
        m_mapping = *kept;
    } else {
        auto fresh = BufferMemory::map(bytes);
        if (!fresh)
            return fresh.error();
        m_mapping = *fresh;
    }
    m_memory = std::move(memory);
    const auto start = reinterpret_cast<std::uintptr_t>(m_mapping.base);
    m_base = reinterpret_cast<std::byte *>((start + align - 1) / align * align);
    m_strideBytes = bufferStride(bufferBytes, align);
    m_bufferBytes = bufferBytes;
    m_count = count;
    return core::Ok {};
}

// ---------------------------------------------------------------- file trees

namespace {

// The marker in `root`: missing (a symbolic link is nobody's marker), damaged (a file
// that does not hold our JSON: a crash while writing it, or an edit), or the shape it
// records. Whose it is, is asked separately (treeIsOurs).
struct TreeMarker {
    enum class State { Missing, Damaged, Found };
    State state = State::Missing;
    core::FileTree tree;
    bool marked = true; // read through a descriptor: whether the marker carries our mark
};
// A file of a tree that an earlier preparation created but was killed before marking:
// empty, one name, unmarked. It holds no data, and the tree around it is ours, so it is
// filled (and removed) as IOPrism's own half-made file rather than refused for good.
bool halfMadeTreeFile(const struct stat &st)
{
    return S_ISREG(st.st_mode) && st.st_nlink == 1 && st.st_size == 0;
}

// Opens the regular file `name` in the folder `dirFd` without following a link and
// without blocking (a FIFO or device put in its place must neither hang the open nor be
// written): the descriptor, or -errno (-EINVAL: not a regular file). O_NONBLOCK is
// dropped again once the file is known to be regular.
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

// The marker in the folder held as `rootFd`, read through it (never through a link).
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

// A tree is ours when its folder and its marker carry our mark: a marker alone proves
// nothing (it is one small file, copied anywhere with cp), and trees made before IOPrism
// marked them carry none, so they are treated like anyone's folder.
bool treeIsOurs(const std::string &root)
{
    return markOf(root) != Mark::None && markOf(core::fileTreeMarkerPath(root)) != Mark::None;
}

OpError notOurs(const std::string &path, const std::string &what)
{
    return makeOpError(EEXIST, "prepare file tree", path,
        what
            + " where the tree's layout has one of IOPrism's, so IOPrism does not write "
              "through it: remove it or choose a path that does not exist yet");
}

// Looks at the tree at `root`: refuses a folder IOPrism did not make, a tree of another
// shape, and anything in the layout that is not a plain folder or file (a symbolic link
// would lead the writes elsewhere); otherwise says what is missing or short.
core::Result<TreePlan> planFileTree(const std::string &root, const core::FileTree &tree)
{
    TreePlan plan;
    plan.folders = core::fileTreeFolders(root, tree);
    plan.files = core::fileTreeFiles(root, tree);
    struct stat st {
    };
    if (::lstat(root.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
        // Named once, by its own folder: a link could lead the tree's writes anywhere, and
        // another moment to somewhere else.
        std::error_code ec;
        const fs::path to = fs::read_symlink(root, ec);
        return makeOpError(ELOOP, "prepare file tree", root,
            "this path is a symbolic link" + (ec ? std::string() : " (to " + to.string() + ")")
                + (::stat(root.c_str(), &st) != 0 ? " that leads nowhere" : "")
                + ": IOPrism never follows a link to a file tree; name the tree's folder itself");
    }
    plan.rootExists = ::stat(root.c_str(), &st) == 0;
    if (!plan.rootExists && errno != ENOENT)
        return makeOpError(errno, "stat", root);
    if (plan.rootExists && !S_ISDIR(st.st_mode))
        return makeOpError(ENOTDIR, "prepare file tree", root,
            "this is not a folder: a file tree's path names the folder IOPrism creates for it; "
            "choose a path that does not exist yet");
    if (!plan.rootExists) {
        for (std::size_t i = 0; i < plan.folders.size(); ++i)
            plan.missingFolders.push_back(i);
        for (std::size_t i = 0; i < plan.files.size(); ++i)
            plan.work.push_back({.index = i});
        plan.writeBytes = tree.totalBytes();
        return plan;
    }
    const TreeMarker marker = readTreeMarker(root);
    const std::string chooseAnother
        = ", so IOPrism never writes into it: choose a path that does not exist yet (IOPrism "
          "creates the folder)";
    if (marker.state == TreeMarker::State::Missing)
        return makeOpError(EEXIST, "prepare file tree", root,
            "this folder exists and was not made by IOPrism (it has no "
                + std::string(core::kFileTreeMarkerName) + " marker)" + chooseAnother);
    if (marker.state == TreeMarker::State::Damaged)
        return makeOpError(EEXIST, "prepare file tree", root,
            damagedMarkerWhy() + chooseAnother + ", or delete the folder");
    if (!treeIsOurs(root))
        return makeOpError(EEXIST, "prepare file tree", root,
            unmarkedTreeWhy(
                "the xattr " + std::string(kTestFileXattr), "on a file system without user xattrs")
                + chooseAnother);
    const core::FileTree *marked = &marker.tree;
    if (!core::sameFileTreeShape(*marked, tree))
        return makeOpError(EEXIST, "prepare file tree", root,
            "this folder holds an IOPrism file tree of another shape (" + describeFileTree(*marked)
                + ") than asked for (" + describeFileTree(tree)
                + "); IOPrism does not replace a tree on its own: remove it (remove test files "
                  "after a run with its shape, or delete the folder) or choose another path");
    for (std::size_t i = 1; i < plan.folders.size(); ++i) {
        if (::lstat(plan.folders[i].c_str(), &st) != 0) {
            if (errno != ENOENT && errno != ENOTDIR)
                return makeOpError(errno, "stat", plan.folders[i]);
            plan.missingFolders.push_back(i);
        } else if (!S_ISDIR(st.st_mode)) {
            return notOurs(plan.folders[i], "this is not a folder (a symbolic link or a file)");
        } else if (markOf(plan.folders[i], st) == Mark::None) {
            return notOurs(plan.folders[i], "this folder lacks IOPrism's mark");
        }
    }
    for (std::size_t i = 0; i < plan.files.size(); ++i) {
        if (::lstat(plan.files[i].c_str(), &st) != 0) {
            if (errno != ENOENT && errno != ENOTDIR)
                return makeOpError(errno, "stat", plan.files[i]);
            plan.work.push_back({.index = i});
            plan.writeBytes += tree.fileSizeBytes;
            continue;
        }
        if (!S_ISREG(st.st_mode))
            return notOurs(plan.files[i], "this is not a regular file (a symbolic link, a folder)");
        if (st.st_nlink > 1)
            return notOurs(plan.files[i],
                "this file has " + std::to_string(st.st_nlink)
                    + " names (hard links), so writing it would change a file elsewhere");
        const auto current = static_cast<std::uint64_t>(st.st_size);
        // An empty, unmarked file is one a killed preparation created and did not mark yet:
        // filled again like a half-filled one.
        const Mark mark = halfMadeTreeFile(st) && markOf(plan.files[i], st) == Mark::None
            ? Mark::Filling
            : markOf(plan.files[i], st);
        if (mark == Mark::None)
            return notOurs(plan.files[i],
                carriesForeignMark(plan.files[i])
                    ? "this file carries a mark IOPrism did not set on it (a copy of a test file, "
                      "or a file an earlier IOPrism marked without binding the mark to it)"
                    : "this file lacks IOPrism's mark");
        if (mark == Mark::Filling || current < tree.fileSizeBytes) {
            const TreeFileWork w {.index = i,
                .exists = true,
                .halfFilled = mark == Mark::Filling,
                .currentBytes = current};
            plan.work.push_back(w);
            const FillRange range = w.range(tree.fileSizeBytes);
            plan.writeBytes += range.toBytes - range.fromBytes;
        } else if (!plan.completeFile) {
            plan.completeFile = i;
        }
    }
    return plan;
}

// The last component of a path of the tree's layout ("file-0003", "level-2", the top).
std::string leafName(const std::string &path)
{
    std::string named = path;
    while (named.size() > 1 && named.back() == '/')
        named.pop_back();
    return fs::path(named).filename().string();
}

// Whether a tree file open as `fd` is ours: marked, or half-made (see above).
bool treeFileIsOurs(int fd)
{
    struct stat st {
    };
    return markOfFd(fd) != Mark::None || (::fstat(fd, &st) == 0 && halfMadeTreeFile(st));
}

// Removes `name` in the folder `dirFd` (a file, or an empty folder) and forgets it was
// ours. Relative to a folder IOPrism holds, so no link in the path can lead it elsewhere.
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

// Opens the folder of the layout `name` in `parentFd` (AT_FDCWD and a path for the top)
// and checks that it is ours, or refuses it: a link, a file, or a folder without our mark.
core::Result<UniqueFd> openOurFolder(int parentFd, const std::string &name, const std::string &path)
{
    const int fd
        = ::openat(parentFd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        if (err == ELOOP || err == ENOTDIR)
            return notOurs(path, "this is not a folder (a symbolic link or a file)");
        return makeOpError(err, "open", path);
    }
    UniqueFd folder(fd);
    if (markOfFd(fd) == Mark::None)
        return notOurs(path, "this folder lacks IOPrism's mark");
    return folder;
}

// What one prepareFileTree call made, removed again unless the call succeeds: a
// cancelled or failed preparation leaves the tree as it found it. Everything is undone
// in the folders the preparation holds (`levels`), never through the tree's paths.
class TreeUndo
{
public:
    TreeUndo(const std::string &root, const TreePlan &plan, const core::FileTree &tree,
        const std::vector<UniqueFd> &levels)
        : m_root(root)
        , m_plan(plan)
        , m_tree(tree)
        , m_levels(levels)
    { }
    ~TreeUndo() { rollback(); }
    TreeUndo(const TreeUndo &) = delete;
    TreeUndo &operator=(const TreeUndo &) = delete;

    // Undoes what was made; true when there was anything.
    bool rollback()
    {
        if (m_committed)
            return false;
        m_committed = true;
        for (const auto &[index, bytes] : m_extended) {
            const int dir = levelOf(index);
            if (dir < 0)
                continue;
            const int fd = openRegularAt(dir, leafName(m_plan.files[index]), O_WRONLY, 0);
            if (fd < 0)
                continue;
            UniqueFd file(fd);
            if (!treeFileIsOurs(fd))
                continue; // someone else's file in its place now: not touched
            if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
                // keep the error already being reported
            }
            // A complete file stays complete up to its former size; a half-filled one
            // stays "filling".
            if (!m_halfFilled.contains(index))
                (void)setMark(m_plan.files[index], fd, Mark::Complete);
        }
        for (auto it = m_files.rbegin(); it != m_files.rend(); ++it)
            if (const int dir = levelOf(*it); dir >= 0)
                removeMadeAt(dir, leafName(m_plan.files[*it]), false);
        for (auto it = m_folders.rbegin(); it != m_folders.rend(); ++it)
            if (*it != 0 && m_levels[*it - 1].valid())
                removeMadeAt(m_levels[*it - 1].get(), leafName(m_plan.folders[*it]), true);
        if (m_marker && m_levels[0].valid())
            removeMadeAt(m_levels[0].get(), std::string(core::kFileTreeMarkerName), false);
        if (m_rootMade) {
            // The top folder by its path: at worst an empty folder put in its place.
            struct stat st {
            };
            if (::lstat(m_root.c_str(), &st) == 0 && S_ISDIR(st.st_mode)
                && ::rmdir(m_root.c_str()) == 0)
                forgetCreated(st);
        }
        return madeAnything();
    }

    void madeRoot() { m_rootMade = true; }
    void madeMarker() { m_marker = true; }
    void madeFolder(std::size_t index) { m_folders.push_back(index); }
    void madeFile(std::size_t index) { m_files.push_back(index); }
    void extended(std::size_t index, std::uint64_t formerBytes, bool halfFilled)
    {
        m_extended.emplace_back(index, formerBytes);
        if (halfFilled)
            m_halfFilled.insert(index);
    }
    bool madeAnything() const
    {
        return m_rootMade || !m_folders.empty() || !m_files.empty() || !m_extended.empty();
    }
    void commit() { m_committed = true; }

private:
    int levelOf(std::size_t fileIndex) const
    {
        const std::size_t level = fileIndex / std::max<std::uint32_t>(m_tree.filesPerLevel, 1);
        return level < m_levels.size() && m_levels[level].valid() ? m_levels[level].get() : -1;
    }

    const std::string &m_root;
    const TreePlan &m_plan;
    const core::FileTree &m_tree;
    const std::vector<UniqueFd> &m_levels;
    bool m_rootMade = false;
    bool m_marker = false;
    bool m_committed = false;
    std::vector<std::size_t> m_folders;
    std::vector<std::size_t> m_files;
    std::vector<std::pair<std::size_t, std::uint64_t>> m_extended;
    std::set<std::size_t> m_halfFilled;
};

// Makes the folder `name` in `parentFd` (AT_FDCWD and a path for the top) and marks it
// ours; `*out` holds it. Returns "" or why the mark will not outlive this process
// (`made` says whether the folder exists now).
core::Result<std::string> makeTreeFolder(int parentFd, const std::string &name,
    const std::string &path, const std::string &spaceDetail, bool *made, UniqueFd *out)
{
    *made = false;
    // mkdir fails if the folder appeared since the look-up: never take one over.
    if (::mkdirat(parentFd, name.c_str(), 0755) != 0) {
        const int err = errno;
        return makeOpError(err, "create folder", path,
            err == EEXIST ? "the folder appeared meanwhile: IOPrism never writes "
                            "into a folder it did not create"
                : err == ENOSPC || err == EDQUOT ? spaceDetail
                                                 : "");
    }
    *made = true;
    const int fd
        = ::openat(parentFd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return makeOpError(errno, "open", path);
    out->reset(fd);
    return markOurs(fd, Mark::Complete);
}

core::Status writeMarker(
    int rootFd, const std::string &root, const core::FileTree &tree, const std::string &spaceDetail)
{
    const std::string path = core::fileTreeMarkerPath(root);
    const int fd = ::openat(rootFd, std::string(core::kFileTreeMarkerName).c_str(),
        O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) {
        const int err = errno;
        return makeOpError(err, "create file tree marker", path,
            err == ENOSPC || err == EDQUOT ? spaceDetail : "");
    }
    UniqueFd file(fd);
    markOurs(fd, Mark::Complete); // the folder's mark already said whether it lasts
    const std::string text = core::fileTreeMarkerText(tree);
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            const int err = w < 0 ? errno : EIO;
            return makeOpError(err, "write file tree marker", path,
                err == ENOSPC || err == EDQUOT ? spaceDetail : "");
        }
        done += static_cast<std::size_t>(w);
    }
    return core::Ok {};
}

} // namespace

core::Status removeFileTree(const std::string &root, const core::FileTree &tree)
{
    // The folder is opened once, through its parent, without following a link; every
    // removal below happens in folders held open, one component at a time, so a link or
    // a rename put anywhere in the tree's paths cannot lead a removal elsewhere.
    struct stat st {
    };
    if (::lstat(root.c_str(), &st) != 0)
        return makeOpError(errno, "remove file tree", root);
    if (S_ISLNK(st.st_mode))
        return makeOpError(EPERM, "remove file tree", root,
            "a symbolic link, so not a file tree made by IOPrism (it is removed only by its "
            "own folder's name): left untouched");
    if (!S_ISDIR(st.st_mode))
        return makeOpError(EPERM, "remove file tree", root,
            "not a folder, so not a file tree made by IOPrism: left untouched");
    const int parentFd = ::open(parentOf(root).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (parentFd < 0)
        return makeOpError(errno, "remove file tree", parentOf(root));
    UniqueFd parent(parentFd);
    const std::string rootName = leafName(root);
    const int rootFd
        = ::openat(parentFd, rootName.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (rootFd < 0)
        return makeOpError(errno, "remove file tree", root,
            errno == ELOOP || errno == ENOTDIR ? "it is no longer a folder: left untouched" : "");
    std::vector<UniqueFd> levels;
    levels.emplace_back(rootFd);

    const TreeMarker marker = readTreeMarkerAt(rootFd);
    if (marker.state == TreeMarker::State::Missing)
        return makeOpError(EPERM, "remove file tree", root,
            "the folder has no " + std::string(core::kFileTreeMarkerName)
                + " marker, so it is not a file tree made by IOPrism: left untouched");
    if (marker.state == TreeMarker::State::Damaged)
        return makeOpError(
            EPERM, "remove file tree", root, damagedMarkerWhy() + ": left untouched");
    if (!marker.marked || markOfFd(rootFd) == Mark::None)
        return makeOpError(EPERM, "remove file tree", root,
            unmarkedTreeWhy(
                "the xattr " + std::string(kTestFileXattr), "on a file system without user xattrs")
                + ": left untouched");
    if (!core::sameFileTreeShape(marker.tree, tree))
        return makeOpError(EPERM, "remove file tree", root,
            "the folder holds an IOPrism file tree of another shape ("
                + describeFileTree(marker.tree) + ") than this one (" + describeFileTree(tree)
                + "): left untouched");

    // The levels that are ours, from the top: below a folder someone else put in a
    // level's place, nothing is ours.
    const auto folders = core::fileTreeFolders(root, tree);
    while (levels.size() < folders.size()) {
        auto next = openOurFolder(
            levels.back().get(), leafName(folders[levels.size()]), folders[levels.size()]);
        if (!next)
            break;
        levels.push_back(std::move(*next));
    }
    const std::size_t ourLevels = levels.size();

    // Files first, then the level folders deepest first (each only once empty), then the
    // marker and the top folder: until the marker goes, a later removal still knows the
    // tree as ours. Only what carries our mark is removed (a file only while it has one
    // name): anything else under one of our names was put there by someone else.
    std::optional<OpError> firstFailure;
    const auto files = core::fileTreeFiles(root, tree);
    for (std::size_t i = 0; i < files.size(); ++i) {
        const std::size_t level = i / std::max<std::uint32_t>(tree.filesPerLevel, 1);
        if (level >= ourLevels)
            break;
        const std::string name = leafName(files[i]);
        const int fd = openRegularAt(levels[level].get(), name, O_RDONLY, 0);
        if (fd < 0)
            continue;
        UniqueFd file(fd);
        if (!treeFileIsOurs(fd))
            continue;
        if (!removeMadeAt(levels[level].get(), name, false) && errno != ENOENT && !firstFailure)
            firstFailure = makeOpError(errno, "remove file tree", files[i]);
    }
    for (std::size_t i = ourLevels; i-- > 1;)
        removeMadeAt(levels[i - 1].get(), leafName(folders[i]), true); // ENOTEMPTY while not empty
    const std::string markerPath = core::fileTreeMarkerPath(root);
    if (!removeMadeAt(rootFd, std::string(core::kFileTreeMarkerName), false) && errno != ENOENT
        && !firstFailure)
        firstFailure = makeOpError(errno, "remove file tree", markerPath);
    // The top folder, by its name in the parent held above, only while it is still the
    // folder opened there.
    struct stat held {
    };
    struct stat named {
    };
    if (::fstat(rootFd, &held) == 0
        && ::fstatat(parentFd, rootName.c_str(), &named, AT_SYMLINK_NOFOLLOW) == 0
        && (held.st_dev != named.st_dev || held.st_ino != named.st_ino))
        return makeOpError(EPERM, "remove file tree", root,
            "the folder was renamed or replaced while its files were removed: what is at "
            "that name now is left untouched");
    if (::unlinkat(parentFd, rootName.c_str(), AT_REMOVEDIR) == 0) {
        forgetCreated(held);
        return firstFailure ? core::Status(*firstFailure) : core::Status(core::Ok {});
    }
    if (const int err = errno; err != ENOTEMPTY && err != EEXIST && err != ENOENT)
        return makeOpError(
            err, "remove file tree", root, "the tree's files were removed but not its folder");
    if (firstFailure)
        return *firstFailure;
    if (errno == ENOENT)
        return core::Ok {};

    // What is left is not IOPrism's: name it. Our level folders still there only hold
    // such things; list what is in them, not the folders themselves.
    std::vector<std::string> left;
    std::size_t leftCount = 0;
    for (std::size_t i = 0; i < ourLevels; ++i) {
        std::error_code ec;
        for (fs::directory_iterator it(folders[i], ec), end; !ec && it != end; it.increment(ec)) {
            if (i + 1 < ourLevels && it->path().filename() == fs::path(folders[i + 1]).filename())
                continue;
            if (left.size() < 5)
                left.push_back(it->path().string());
            ++leftCount;
        }
    }
    std::string names;
    for (const auto &l : left)
        names += (names.empty() ? "" : ", ") + l;
    if (leftCount > left.size())
        names += " and " + std::to_string(leftCount - left.size()) + " more";
    return makeOpError(ENOTEMPTY, "remove file tree", root,
        "removed what carries IOPrism's mark; left " + std::to_string(leftCount)
            + (leftCount == 1 ? " item" : " items")
            + " IOPrism did not make (without its mark, or a file with other hard links), and "
              "the folders holding "
            + (leftCount == 1 ? "it" : "them") + ": " + names);
}

// ---------------------------------------------------------------- test-file marker

std::string boundMarkValue(int fd, std::string_view state)
{
    return markValue(fd, state == kMarkComplete ? Mark::Complete : Mark::Filling);
}

bool isOurTestFile(const std::string &path)
{
    struct stat st {
    };
    return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && markOf(path, st) != Mark::None;
}

core::Status removeTestFile(const std::string &path)
{
    struct stat st {
    };
    if (::lstat(path.c_str(), &st) != 0)
        return makeOpError(errno, "remove test file", path);
    if (S_ISDIR(st.st_mode)) {
        // A file tree's folder: removed with the shape its marker records (so "remove
        // test files" after a run covers trees too); any other folder is refused.
        const TreeMarker marker = readTreeMarker(path);
        if (marker.state == TreeMarker::State::Found)
            return removeFileTree(path, marker.tree);
        if (marker.state == TreeMarker::State::Damaged)
            return makeOpError(
                EPERM, "remove test file", path, damagedMarkerWhy() + ": left untouched");
        return makeOpError(EPERM, "remove test file", path,
            "a folder that is not a file tree created by IOPrism: left untouched");
    }
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

// ---------------------------------------------------------------- io_uring probe

int probeIoUring()
{
    io_uring ring {};
    const int ret = io_uring_queue_init(2, &ring, 0);
    if (ret < 0)
        return -ret;
    io_uring_queue_exit(&ring);
    return 0;
}

namespace {

std::string changedWhilePrepared()
{
    return "the file changed while IOPrism prepared it (it was renamed or replaced, or a link "
           "was put in its place): IOPrism writes only the file it checked; try again";
}

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

} // namespace

// ---------------------------------------------------------------- the backend

LinuxBackend::LinuxBackend(const BackendOptions &options)
    : m_options(options)
    , m_held(std::make_shared<HeldTargets>())
{
    // Without CAP_IPC_LOCK, registered buffers and (on recent kernels) rings are charged
    // to RLIMIT_MEMLOCK: registered buffers may take half of it, the rings the rest.
    rlimit memlock {};
    if (::getrlimit(RLIMIT_MEMLOCK, &memlock) == 0 && memlock.rlim_cur != RLIM_INFINITY
        && !hasCapability(kCapIpcLock))
        m_lockedBudget
            = std::make_shared<std::atomic<std::int64_t>>(std::int64_t(memlock.rlim_cur / 2));
    if (options.kind == EngineKind::Sync)
        return;
    const int err = options.simulateUringUnavailable ? EPERM : probeIoUring();
    if (err == 0) {
        m_useUring = true;
        return;
    }
    const std::string why = std::string(err == EPERM ? "EPERM"
                                    : err == EACCES  ? "EACCES"
                                    : err == ENOSYS  ? "ENOSYS"
                                                     : std::to_string(err))
        + ": " + errnoText(err);
    // ENOMEM is the locked-memory limit used up (by this user's other processes: the
    // kernel charges rings per user), not io_uring missing: say which limit.
    const std::string memlockAdvice = err == ENOMEM ? lockedMemoryAdvice() : std::string();
    if (options.kind == EngineKind::IoUring) {
        m_engineError = makeOpError(err, "io_uring_queue_init", {},
            !memlockAdvice.empty() ? memlockAdvice
                                   : "io_uring is unavailable here (blocked by seccomp, the "
                                     "kernel.io_uring_disabled sysctl, or an old kernel): "
                                     "choose the sync engine or auto");
        return;
    }
    addNotice("io_uring unavailable (" + why + (memlockAdvice.empty() ? "" : "; " + memlockAdvice)
        + "): using the sync engine (pread/pwrite threads)");
}

std::string LinuxBackend::engineName() const
{
    return (m_useUring || m_options.kind == EngineKind::IoUring) ? "io_uring" : "sync";
}

std::vector<std::string> LinuxBackend::notices() const
{
    std::lock_guard lock(m_noticesMutex);
    return m_notices;
}

void LinuxBackend::addNotice(std::string text)
{
    std::lock_guard lock(m_noticesMutex);
    m_notices.push_back(std::move(text));
}

core::Result<std::unique_ptr<core::IoEngine>> LinuxBackend::makeEngine()
{
    if (m_engineError)
        return *m_engineError;
    if (m_useUring)
        return std::unique_ptr<core::IoEngine>(std::make_unique<UringEngine>(UringOptions {
            .lockedBudgetBytes = m_lockedBudget, .bufferMemory = m_bufferMemory, .held = m_held}));
    return std::unique_ptr<core::IoEngine>(std::make_unique<SyncEngine>(m_bufferMemory, m_held));
}

void LinuxBackend::reserveBuffers(std::span<const core::EngineConfig> largestPerWorker)
{
    std::vector<std::size_t> bytes;
    for (const auto &c : largestPerWorker)
        bytes.push_back(AlignedBufferPool::mappedBytesFor(
            std::max<std::uint32_t>(c.bufferCount, 1), c.bufferBytes, c.bufferAlignmentBytes));
    m_bufferMemory->keep(bytes);
}

void LinuxBackend::releaseBuffers()
{
    m_bufferMemory->release();
}

core::Result<std::unique_ptr<core::IoEngine>> LinuxBackend::makeFallbackEngine(
    const core::OpError &why)
{
    // Only `auto` falls back, and only for what the sync engine does not share: io_uring
    // running out of locked memory (RLIMIT_MEMLOCK) with many workers.
    if (!m_useUring || m_options.kind != EngineKind::Auto || why.operation != "io_uring_queue_init"
        || why.code != std::errc::not_enough_memory)
        return why;
    if (m_fallbacks++ == 0)
        addNotice("io_uring could not set up a ring for every worker (" + why.code.message()
            + "): those workers use the sync engine (pread/pwrite threads), so this run mixes "
              "engines. "
            + lockedMemoryAdvice());
    return std::unique_ptr<core::IoEngine>(std::make_unique<SyncEngine>(m_bufferMemory, m_held));
}

core::Status LinuxBackend::pinCurrentThread(std::span<const std::uint32_t> cpus)
{
    if (cpus.empty())
        return core::Ok {};
    cpu_set_t set;
    CPU_ZERO(&set);
    for (auto cpu : cpus) {
        if (cpu >= CPU_SETSIZE)
            return makeOpError(
                EINVAL, "set CPU affinity", {}, "CPU " + std::to_string(cpu) + " does not exist");
        CPU_SET(cpu, &set);
    }
    const int err = ::pthread_setaffinity_np(::pthread_self(), sizeof set, &set);
    if (err != 0)
        return makeOpError(err, "set CPU affinity", {},
            err == EINVAL ? "none of the CPUs is online or allowed" : "");
    return core::Ok {};
}

core::Result<core::TargetInfo> LinuxBackend::prepareTarget(const core::Target &target,
    const core::PrepareOptions &options, const core::PrepareProgress &progress)
{
    // An engine that cannot run here is refused before any file is created.
    if (m_engineError)
        return *m_engineError;
    if (target.unresolved)
        return makeOpError(ENOENT, "prepare target", target.path,
            "this imported target does not exist on this machine: choose a "
            "target before running");
    if (target.path.empty())
        return makeOpError(EINVAL, "prepare target", {}, "the target has no path");
    switch (target.kind) {
    case core::TargetKind::TestFile:
        return prepareTestFile(target, options, progress);
    case core::TargetKind::BlockDevice:
    case core::TargetKind::Partition:
        return prepareDevice(target, options);
    case core::TargetKind::Volume:
    case core::TargetKind::PhysicalDrive:
        break;
    case core::TargetKind::FileTree:
        return prepareFileTree(target, options, progress);
    }
    return makeOpError(EINVAL, "prepare target", target.path,
        "volumes and physical drives are Windows targets: on Linux choose a "
        "block device, a partition or a test file");
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
        if (auto planned = planFileTree(target.path, target.tree)) {
            if (planned->rootExists)
                home = target.path;
            plan = std::move(*planned);
        }
    } else {
        // The same rule as prepareTestFile: a new file is written whole; our own, smaller
        // file is extended from a chunk boundary; any other existing file is never written.
        struct stat st {
        };
        const bool exists = ::lstat(target.path.c_str(), &st) == 0;
        need = target.testFileSizeBytes;
        if (exists) {
            const auto current = static_cast<std::uint64_t>(st.st_size);
            const Mark mark = markOf(target.path, st);
            need = mark != Mark::None && S_ISREG(st.st_mode)
                ? fillRange(true, mark == Mark::Filling, current, std::max(need, current)).newBytes
                : 0;
        }
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

core::Status LinuxBackend::discardTestFile(const std::string &path)
{
    return removeTestFile(path);
}

core::Status LinuxBackend::removeFileTree(const std::string &root, const core::FileTree &tree)
{
    return platform::removeFileTree(root, tree);
}

core::Result<core::TargetInfo> LinuxBackend::prepareTestFile(const core::Target &target,
    const core::PrepareOptions &options, const core::PrepareProgress &progress)
{
    // A path whose last part is a symbolic link is followed once, here; from then on the
    // file it led to is named by its own path, and held open once checked.
    std::string path = target.path;
    struct stat st {
    };
    if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
        std::error_code ec;
        const fs::path to = fs::canonical(path, ec);
        if (ec)
            return makeOpError(ec.value(), "prepare test file", path,
                "this path is a symbolic link that leads nowhere: name the test file itself");
        path = to.string();
    }
    const std::uint64_t wanted = target.testFileSizeBytes;
    core::TargetInfo info;
    info.path = path;

    const bool exists = ::stat(path.c_str(), &st) == 0;
    if (!exists && errno != ENOENT)
        return makeOpError(errno, "stat", path);
    if (exists && S_ISBLK(st.st_mode))
        return makeOpError(EINVAL, "prepare test file", path,
            "this is a block device: choose it as a device target, not a test file");
    if (exists && !S_ISREG(st.st_mode))
        return makeOpError(EINVAL, "prepare test file", path, "not a regular file");

    if (exists)
        if (auto refusal = directIoRefusal(
                path, target.cacheMode, queryAlignment(path, logicalBlockOfFile(path))))
            return *refusal;

    const std::uint64_t current = exists ? static_cast<std::uint64_t>(st.st_size) : 0;
    const Mark mark = exists ? markOf(path, st) : Mark::None;
    const bool ours = mark != Mark::None;
    // Ours, but the run that filled it never finished (killed mid-fill): filled again.
    const bool halfFilled = mark == Mark::Filling;
    if (exists && !ours) {
        // Someone else's file: read it if asked, never write or extend it.
        if (options.needWrite && st.st_nlink > 1)
            return makeOpError(EEXIST, "prepare test file", path,
                "this file has " + std::to_string(st.st_nlink)
                    + " names (hard links), so writing it would change the file under its other "
                      "names too: it is never written; choose a new path (IOPrism creates it) or "
                      "a read-only spec");
        if (options.needWrite && carriesForeignMark(path))
            return makeOpError(EEXIST, "prepare test file", path,
                "this file carries IOPrism's mark, but the mark was not set on this file: it "
                "is a copy of a test file (cp -a and backups copy the mark) or was marked by an "
                "earlier IOPrism that did not bind its marks to the file, so IOPrism cannot tell "
                "it from your data and never writes it: delete it and let IOPrism create it "
                "again, or use a read-only spec");
        if (options.needWrite)
            return makeOpError(EEXIST, "prepare test file", path,
                "this file was not created by IOPrism, so it is never written: "
                "choose a new path (IOPrism creates it) or a read-only spec");
        if (st.st_size == 0)
            return makeOpError(
                EINVAL, "prepare test file", path, "the file is empty: nothing to read");
    }
    if (!exists && wanted == 0)
        return makeOpError(
            EINVAL, "prepare test file", path, "the test file does not exist and its size is 0");

    const std::string parent = parentOf(path);
    if (!exists) {
        struct stat pst {
        };
        if (::stat(parent.c_str(), &pst) != 0 || !S_ISDIR(pst.st_mode))
            return makeOpError(
                ENOENT, "create test file", path, "the directory " + parent + " does not exist");
    }

    int werr = 0;
    const bool canWrite = exists ? writable(path, &werr) : writable(parent, &werr);
    if (options.needWrite && !canWrite)
        return readOnlyRefusal(path, werr);

    if (!exists && !canWrite)
        return makeOpError(werr, "create test file", path, "cannot create files in " + parent);
    bool needFill = !exists || (ours && (wanted > current || halfFilled));
    if (needFill && halfFilled && !canWrite)
        return makeOpError(werr, "prepare test file", path,
            "a run that was creating this file was stopped before it had written it, so its "
            "reads would not reach the device, and it cannot be filled again here: make it "
            "writable or delete it");
    if (needFill && exists && !canWrite) {
        // A read-only spec on our own, smaller file that cannot grow: read what is there.
        needFill = false;
        addNotice(path + " is " + core::describeSize(current) + ", smaller than the "
            + core::describeSize(wanted) + " asked for, and cannot be extended (" + errnoText(werr)
            + "): reading the existing " + core::describeSize(current));
    }
    if (needFill) {
        // Extend from a chunk boundary so the direct writes stay aligned.
        const FillRange range = fillRange(exists, halfFilled, current, wanted);
        const std::uint64_t need = range.newBytes;
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
        const std::string spaceDetail = "not enough space on " + (mount.empty() ? parent : mount)
            + ": need " + core::describeSize(need)
            + (sizeKnown ? ", have " + core::describeSize(freeBytes) : "");
        if (!m_options.skipFreeSpaceCheck && sizeKnown && freeBytes < need)
            return makeOpError(ENOSPC, "create test file", path, spaceDetail);

        // O_EXCL: never take over a file that appeared since the stat above (nor follow a
        // link put there). Our own file is opened without following a link, and written
        // only while it is still the file checked above and still ours.
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
        if (!exists) {
            // Ask about O_DIRECT now that the file exists, before writing a byte.
            if (auto refusal = directIoRefusal(
                    path, target.cacheMode, queryAlignment(path, logicalBlockOfFile(path)))) {
                file.reset();
                ::unlink(path.c_str());
                return *refusal;
            }
            // Mark it before filling, so even a crash mid-fill leaves a file we know, and
            // as "filling", so that such a file is filled again, never measured.
            if (const std::string why = markOurs(fd, Mark::Filling); !why.empty())
                addNotice("could not mark " + path + " as an IOPrism test file (" + why
                    + "): later runs will only read it, never write it; "
                      "delete it yourself when done");
        } else if (auto marked = setMark(path, fd, Mark::Filling); !marked) {
            return marked.error();
        }
        auto filled
            = fillFile(path, fd, range.fromBytes, range.toBytes, options, progress, spaceDetail);
        if (filled)
            filled = setMark(path, fd, Mark::Complete); // the fill is synced: now it counts
        if (!filled) {
            // Leave nothing half-made: remove what we created, shrink what we extended
            // (complete again up to its former size, unless it never was).
            if (exists) {
                if (::ftruncate(fd, static_cast<off_t>(current)) != 0) {
                    // keep the error we are already reporting
                }
                if (!halfFilled)
                    (void)setMark(path, fd, Mark::Complete);
            } else {
                struct stat created {
                };
                if (::fstat(fd, &created) == 0)
                    forgetCreated(created);
                file.reset();
                ::unlink(path.c_str());
            }
            return filled.error();
        }
        info.createdTestFile = true;
        if (::fstat(fd, &st) != 0)
            return makeOpError(errno, "fstat", path);
    }

    info.sizeBytes = static_cast<std::uint64_t>(st.st_size);
    info.readOnly = !writable(path, &werr);
    const Alignment a = queryAlignment(path, logicalBlockOfFile(path));
    info.logicalBlockBytes = a.logicalBytes;
    info.directIoOffsetAlignBytes = a.offsetBytes;
    info.directIoMemAlignBytes = a.memBytes;

    // Take hold of the file checked above, once, without following a link, and decide on
    // that descriptor what may be done with it: the run's engines open only this inode.
    if (m_options.beforeHold)
        m_options.beforeHold(path);
    const auto discard = [&](OpError error) {
        if (info.createdTestFile)
            (void)removeTestFile(path);
        return error;
    };
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return discard(makeOpError(
            errno, "open", path, errno == ELOOP || errno == ENOENT ? changedWhilePrepared() : ""));
    UniqueFd held(fd);
    struct stat now {
    };
    if (::fstat(fd, &now) != 0 || !S_ISREG(now.st_mode) || now.st_dev != st.st_dev
        || now.st_ino != st.st_ino)
        return discard(makeOpError(ESTALE, "prepare test file", path, changedWhilePrepared()));
    if (options.needWrite) {
        if (markOfFd(fd) == Mark::None)
            return discard(makeOpError(EEXIST, "prepare test file", path,
                "the file is no longer IOPrism's (its mark changed, or it got another name while "
                "IOPrism prepared it), so it is never written"));
        if (auto loop = loopBackedBy(identityOf(fd)))
            return discard(makeOpError(EBUSY, "prepare test file", path, loopBackingWhy(*loop)));
    }
    m_held->holdFile(path, std::move(held), identityOf(fd));
    return info;
}

core::Result<core::TargetInfo> LinuxBackend::prepareFileTree(const core::Target &target,
    const core::PrepareOptions &options, const core::PrepareProgress &progress)
{
    const std::string &root = target.path;
    const core::FileTree &tree = target.tree;
    if (tree.fileCount() == 0 || tree.fileSizeBytes == 0)
        return makeOpError(EINVAL, "prepare file tree", root,
            "the tree has no files: depth, files per level and file size must not be 0");
    auto planned = planFileTree(root, tree);
    if (!planned)
        return planned.error();
    const TreePlan &plan = *planned;

    const std::string parent = parentOf(root);
    if (!plan.rootExists) {
        struct stat pst {
        };
        if (::stat(parent.c_str(), &pst) != 0 || !S_ISDIR(pst.st_mode))
            return makeOpError(
                ENOENT, "create file tree", root, "the directory " + parent + " does not exist");
    }
    // Rights and space are those of the folder the work happens in.
    const std::string &home = plan.rootExists ? root : parent;
    int werr = 0;
    const bool canWrite = writable(home, &werr);
    if (options.needWrite && !canWrite)
        return readOnlyRefusal(root, werr);
    if (plan.needsWork() && !canWrite)
        return makeOpError(werr, "create file tree", root,
            plan.rootExists ? "the tree is incomplete and files cannot be created in " + root
                            : "cannot create folders in " + parent);

    // Direct I/O is asked of a file of the tree (a folder never opens with O_DIRECT): one
    // that is there now, else the first one created, before a byte is written.
    if (plan.completeFile) {
        const std::string &file = plan.files[*plan.completeFile];
        if (auto refusal = directIoRefusal(
                file, target.cacheMode, queryAlignment(file, logicalBlockOfFile(file))))
            return *refusal;
    }

    std::string spaceDetail;
    if (plan.needsWork()) {
        struct statvfs sv {
        };
        // File systems that report no size at all (ramfs, some FUSE) cannot be checked
        // ahead: their writes will say ENOSPC if it comes to that.
        const bool sizeKnown = ::statvfs(home.c_str(), &sv) == 0 && sv.f_blocks > 0;
        const std::uint64_t need = plan.needBytes(tree.fileSizeBytes, sizeKnown ? sv.f_frsize : 1);
        const std::uint64_t freeBytes
            = sizeKnown ? static_cast<std::uint64_t>(sv.f_bavail) * sv.f_frsize : 0;
        const std::string mount = mountPointOfPath(home);
        const std::string where = mount.empty() ? home : mount;
        spaceDetail = "not enough space on " + where + " for the file tree: need "
            + core::describeSize(need)
            + (sizeKnown ? ", have " + core::describeSize(freeBytes) : "");
        if (!m_options.skipFreeSpaceCheck && sizeKnown && freeBytes < need)
            return makeOpError(ENOSPC, "create file tree", root, spaceDetail);
        // Many small files run out of inodes before they run out of bytes.
        const std::uint64_t inodes = plan.missingFolders.size() + (plan.rootExists ? 0 : 1)
            + static_cast<std::uint64_t>(std::count_if(
                plan.work.begin(), plan.work.end(), [](const auto &w) { return !w.exists; }));
        if (!m_options.skipFreeSpaceCheck && sizeKnown && sv.f_files > 0 && sv.f_favail < inodes)
            return makeOpError(ENOSPC, "create file tree", root,
                "not enough free inodes on " + where + " for the file tree's files and folders: "
                    + "need " + std::to_string(inodes) + ", have " + std::to_string(sv.f_favail));
    }

    // The tree's folders, held open from here on: made or opened one component at a
    // time beneath the top folder, never through a link, and used for everything below,
    // by the run's engines too (held_targets.h).
    std::vector<UniqueFd> levels(plan.folders.size());
    TreeUndo undo(root, plan, tree, levels);
    // A failure or a cancel removes what this call made, and says so.
    const auto failed = [&undo](OpError error) {
        if (undo.rollback())
            error.detail += (error.detail.empty() ? "" : "; ")
                + std::string("removed what this run had made of the tree");
        return error;
    };
    std::vector<bool> missing(plan.folders.size(), false);
    for (const std::size_t i : plan.missingFolders)
        missing[i] = true;
    for (std::size_t i = 0; i < plan.folders.size(); ++i) {
        const int parentFd = i == 0 ? AT_FDCWD : levels[i - 1].get();
        const std::string name = i == 0 ? root : leafName(plan.folders[i]);
        if (!missing[i]) {
            auto opened = openOurFolder(parentFd, name, plan.folders[i]);
            if (!opened)
                return failed(opened.error());
            levels[i] = std::move(*opened);
            continue;
        }
        bool made = false;
        auto marked
            = makeTreeFolder(parentFd, name, plan.folders[i], spaceDetail, &made, &levels[i]);
        if (made)
            i == 0 ? undo.madeRoot() : undo.madeFolder(i);
        if (!marked)
            return failed(marked.error());
        if (i == 0) {
            if (!marked->empty())
                addNotice("could not mark " + root + " as IOPrism's file tree (" + *marked
                    + "): later runs will refuse it; delete it yourself when done");
            // The marker goes first, so even a crash mid-fill leaves a tree IOPrism knows.
            undo.madeMarker(); // even when it fails: it may be half-written
            if (auto st = writeMarker(levels[0].get(), root, tree, spaceDetail); !st)
                return failed(st.error());
        }
    }
    const auto levelOf
        = [&](std::size_t fileIndex) { return levels[fileIndex / tree.filesPerLevel].get(); };

    // The files written, to be marked complete once the tree is synced; each by its
    // identity, so that a file put in one's place meanwhile is not marked.
    std::vector<std::pair<std::size_t, FileIdentity>> filled;
    if (!plan.work.empty()) {
        FileFiller filler(options);
        if (auto st = filler.init(); !st)
            return failed(st.error());
        // Progress over the whole tree: what earlier files wrote plus this one's part.
        std::uint64_t doneBefore = 0;
        const core::PrepareProgress treeProgress = progress
            ? core::PrepareProgress([&](std::uint64_t done, std::uint64_t) {
                  return progress(doneBefore + done, plan.writeBytes);
              })
            : core::PrepareProgress {};
        bool directChecked = plan.completeFile.has_value();
        for (const auto &w : plan.work) {
            const std::string &path = plan.files[w.index];
            // In the level's folder held open, by the file's own name: O_EXCL never takes
            // over a file that appeared since the look-up; no link is followed, and a
            // FIFO or device in the file's place is refused without blocking.
            const int fd = w.exists ? openRegularAt(levelOf(w.index), leafName(path), O_WRONLY, 0)
                                    : openRegularAt(levelOf(w.index), leafName(path),
                                        O_WRONLY | O_CREAT | O_EXCL, 0644);
            if (fd < 0) {
                const int err = -fd;
                if (err == ELOOP || err == EINVAL)
                    return failed(
                        notOurs(path, "this is not a regular file (a symbolic link, a folder)"));
                return failed(makeOpError(err, w.exists ? "open" : "create file", path,
                    err == ENOSPC || err == EDQUOT ? spaceDetail : ""));
            }
            UniqueFd file(fd);
            if (w.exists) {
                // Still ours and still one name since the look-up, else never written.
                if (!treeFileIsOurs(fd))
                    return failed(
                        notOurs(path, "a file without IOPrism's mark or with other names"));
                if (auto marked = setMark(path, fd, Mark::Filling); !marked)
                    return failed(marked.error());
                undo.extended(w.index, w.currentBytes, w.halfFilled);
            } else {
                undo.madeFile(w.index);
                // Marked "filling" before a byte is written: a crash mid-fill leaves a file
                // IOPrism knows it must fill again.
                markOurs(fd, Mark::Filling);
            }
            if (!directChecked) {
                directChecked = true;
                if (auto refusal = directIoRefusal(
                        path, target.cacheMode, queryAlignment(path, logicalBlockOfFile(path))))
                    return failed(*refusal);
            }
            const FillRange range = w.range(tree.fileSizeBytes);
            if (auto st = filler.fill(path, fd, range.fromBytes, range.toBytes, treeProgress,
                    spaceDetail, FileFiller::Sync::Later, "prepare file tree");
                !st)
                return failed(st.error());
            doneBefore += range.toBytes - range.fromBytes;
            filled.emplace_back(w.index, identityOf(fd));
        }
    }
    if (plan.needsWork()) {
        // One sync for the whole tree (its data, sizes and folders), not one per file;
        // then the files are marked complete, and a second sync keeps the marks. A crash
        // before it leaves files "filling": filled again, never measured.
        const auto syncTree = [&]() -> core::Status {
            if (::syncfs(levels[0].get()) == 0)
                return core::Ok {};
            const int err = errno;
            return makeOpError(
                err, "syncfs", root, err == ENOSPC || err == EDQUOT ? spaceDetail : "");
        };
        if (auto st = syncTree(); !st)
            return failed(st.error());
        for (const auto &[index, identity] : filled) {
            const std::string &path = plan.files[index];
            const int file = openRegularAt(levelOf(index), leafName(path), O_RDONLY, 0);
            if (file < 0 && file != -EINVAL && file != -ELOOP)
                return failed(makeOpError(-file, "open", path));
            UniqueFd filledFile(std::max(file, -1));
            if (file < 0 || identityOf(file) != identity)
                return failed(notOurs(path, "a file put in place of the one IOPrism filled"));
            if (auto marked = setMark(path, file, Mark::Complete); !marked)
                return failed(marked.error());
        }
        if (!filled.empty())
            if (auto st = syncTree(); !st)
                return failed(st.error());
    }

    // What the run will use, checked on the descriptors it will hold: every file of the
    // tree is a regular file of one name in its level's folder, complete and marked ours,
    // and the marker is ours too. Its identity is what the engines accept later.
    std::vector<FileIdentity> identities(plan.files.size());
    const TreeMarker held = readTreeMarkerAt(levels[0].get());
    if (held.state != TreeMarker::State::Found || !held.marked
        || !core::sameFileTreeShape(held.tree, tree))
        return failed(notOurs(core::fileTreeMarkerPath(root),
            "the tree's marker changed while IOPrism prepared the tree"));
    if (m_options.beforeHold)
        m_options.beforeHold(root);
    for (std::size_t i = 0; i < plan.files.size(); ++i) {
        const std::string &path = plan.files[i];
        const int fd = openRegularAt(levelOf(i), leafName(path), O_RDONLY, 0);
        if (fd < 0)
            return failed(-fd == EINVAL || -fd == ELOOP
                    ? notOurs(path, "this is not a regular file (a symbolic link, a folder)")
                    : makeOpError(-fd, "open", path));
        UniqueFd file(fd);
        if (markOfFd(fd) != Mark::Complete)
            return failed(notOurs(path,
                "a file without IOPrism's mark or with other names was put in the tree while "
                "IOPrism prepared it"));
        identities[i] = identityOf(fd);
    }
    const bool made = undo.madeAnything();
    undo.commit();

    core::TargetInfo info;
    info.path = root;
    info.sizeBytes = tree.fileSizeBytes;
    info.isDevice = false;
    info.createdTestFile = made;
    const std::string &first = plan.files.front();
    info.readOnly = !writable(first, &werr);
    const Alignment a = queryAlignment(first, logicalBlockOfFile(first));
    info.logicalBlockBytes = a.logicalBytes;
    info.directIoOffsetAlignBytes = a.offsetBytes;
    info.directIoMemAlignBytes = a.memBytes;
    m_held->holdTree(root, tree, std::move(levels), std::move(identities));
    return info;
}

std::optional<OpError> LinuxBackend::aliasRefusal(
    const std::string &path, const std::string &name, DeviceNumber devno) const
{
    // Everything that would be corrupted: every device through which the same storage
    // can be reached (partitions, whole disk, holders, loop devices sharing a backing
    // file or built on it), each checked as if it were the target.
    const auto aliases = storageAliasesOf(name);
    std::vector<DeviceNumber> numbers(aliases.size());
    for (std::size_t i = 0; i < aliases.size(); ++i) {
        numbers[i]
            = parseDeviceNumber(readAttribute("/sys/class/block/" + aliases[i].name + "/dev"))
                  .value_or(DeviceNumber {});
    }
    const auto aliasOf = [&](DeviceNumber d) -> const StorageAlias * {
        for (std::size_t i = 0; i < aliases.size(); ++i)
            if (numbers[i] == d && d != DeviceNumber {})
                return &aliases[i];
        return nullptr;
    };
    const auto how = [](const StorageAlias &a) {
        return a.relation.empty() ? std::string() : " (" + a.relation + ")";
    };
    for (const auto &m : readMountTable())
        if (const auto *a = aliasOf(m.device))
            return makeOpError(EBUSY, "open device for writing", path,
                a->name + " is mounted at " + m.mountPoint + how(*a)
                    + ": writing would destroy that file system; unmount it first");
    for (const auto &swap : activeSwaps()) {
        struct stat sst {
        };
        if (::stat(swap.c_str(), &sst) == 0 && S_ISBLK(sst.st_mode))
            if (const auto *a = aliasOf({major(sst.st_rdev), minor(sst.st_rdev)}))
                return makeOpError(EBUSY, "open device for writing", path,
                    swap + " is used as swap" + how(*a) + ": swapoff it first");
    }
    for (const auto &a : aliases)
        if (a.kind == StorageAlias::Kind::Holder)
            return makeOpError(EBUSY, "open device for writing", path,
                a.relation
                    + " (device-mapper, LVM, RAID or bcache): writing would destroy it; "
                      "remove that first");
    // Another target of this run on the same storage: our own claim would answer
    // "busy" below, and two targets writing the same bytes is not a benchmark.
    const auto claimedFor = [&](std::size_t i) -> std::optional<DeviceNumber> {
        const auto claim = m_deviceClaims.find({numbers[i].major, numbers[i].minor});
        if (claim == m_deviceClaims.end())
            return std::nullopt;
        return claim->second.forTarget;
    };
    // The other names first: they say how the storage is shared (the device itself is
    // claimed too when another target's storage reaches it).
    for (const bool itself : {false, true})
        for (std::size_t i = 0; i < aliases.size(); ++i)
            if (const auto owner = claimedFor(i); owner && *owner != devno
                && (aliases[i].kind == StorageAlias::Kind::Itself) == itself)
                return makeOpError(EBUSY, "open device for writing", path,
                    aliases[i].name + how(aliases[i])
                        + " is also written by this run: its targets must not overlap");
    // The kernel's answer for every other name of the storage: an exclusive open fails
    // while anything (a file system, swap, another program) claims it.
    for (std::size_t i = 0; i < aliases.size(); ++i) {
        const StorageAlias &a = aliases[i];
        // Our own claims (this target prepared for another worker) would answer busy.
        if (a.kind == StorageAlias::Kind::Itself || !a.exclusiveOpenTells() || claimedFor(i))
            continue;
        const int fd
            = ::open(("/dev/" + a.name).c_str(), O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
        if (fd >= 0) {
            ::close(fd);
        } else if (errno == EBUSY) {
            return makeOpError(EBUSY, "open device for writing", path,
                a.name + " is in use" + how(a)
                    + " (a file system, swap, LVM/RAID or another program holds it): writing "
                      "would corrupt what uses it");
        }
    }
    return std::nullopt;
}

core::Result<core::TargetInfo> LinuxBackend::prepareDevice(
    const core::Target &target, const core::PrepareOptions &options)
{
    std::error_code ec;
    const std::string path = fs::canonical(target.path, ec).string();
    if (ec)
        return makeOpError(ec.value(), "open device", target.path);
    struct stat st {
    };
    if (::stat(path.c_str(), &st) != 0)
        return makeOpError(errno, "stat", path);
    if (!S_ISBLK(st.st_mode))
        return makeOpError(ENOTBLK, "open device", path,
            S_ISREG(st.st_mode) ? "this is a file: choose it as a test file"
                                : "not a block device");
    const DeviceNumber devno {major(st.st_rdev), minor(st.st_rdev)};
    const std::string name = blockNameOf(devno).value_or(fs::path(path).filename().string());

    // Opened once, without following a link and without blocking, and held for the run:
    // the engines open this device node's inode again, never the path (held_targets.h).
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        const int err = errno;
        return makeOpError(err, "open device", path,
            err == EACCES || err == EPERM ? deviceAccessAdvice(st, false)
                : err == ELOOP            ? changedWhilePrepared()
                                          : "");
    }
    UniqueFd dev(fd);
    struct stat opened {
    };
    if (::fstat(fd, &opened) != 0 || !S_ISBLK(opened.st_mode) || opened.st_rdev != st.st_rdev)
        return makeOpError(ESTALE, "open device", path,
            "the device node changed while IOPrism prepared it (it was replaced): IOPrism "
            "opens only the device it checked; try again");
    core::TargetInfo info;
    info.path = path;
    info.isDevice = true;
    std::uint64_t size = 0;
    if (::ioctl(fd, BLKGETSIZE64, &size) != 0)
        return makeOpError(errno, "BLKGETSIZE64", path);
    info.sizeBytes = size;
    int logical = 512;
    if (::ioctl(fd, BLKSSZGET, &logical) != 0 || logical < 512)
        logical = 512;
    int ro = 0;
    if (::ioctl(fd, BLKROGET, &ro) != 0)
        ro = 0;
    info.readOnly = ro != 0;

    if (size == 0)
        return makeOpError(ENXIO, "open device", path,
            "the device has no media or size 0 (an unattached loop device?)");

    if (options.needWrite) {
        const std::string what = path + " (" + core::describeSize(size) + ")";
        if (info.readOnly)
            return makeOpError(EROFS, "open device for writing", path,
                "the profile writes to " + what + " but the device is read-only");
        if (!options.allowDeviceWrites)
            return makeOpError(EPERM, "open device for writing", path,
                "writing to " + what + " destroys its data: pass --allow-device-writes to confirm");

        if (auto refusal = aliasRefusal(path, name, devno))
            return *refusal;
        if (auto refusal = claimAliases(path, name, devno))
            return *refusal;
    }

    const Alignment a = queryAlignment(path, static_cast<std::uint32_t>(logical));
    info.logicalBlockBytes = static_cast<std::uint32_t>(logical);
    info.directIoOffsetAlignBytes
        = std::max<std::uint32_t>(a.offsetBytes, static_cast<std::uint32_t>(logical));
    info.directIoMemAlignBytes = a.memBytes;
    if (m_options.beforeHold)
        m_options.beforeHold(path);
    m_held->holdFile(path, std::move(dev), identityOf(fd));
    return info;
}

std::optional<OpError> LinuxBackend::claimAliases(
    const std::string &path, const std::string &name, DeviceNumber devno)
{
    // Exclusive claims for the whole run, on the device and on every other name of its
    // storage that the kernel lets us claim: from now on it refuses to mount any of them,
    // or let another program claim them, while we write. (Our own engines open the device
    // without O_EXCL, which an exclusive claim allows.) Not claimed, because the kernel
    // already guards them through the claim on the device: the whole disk of a partition
    // (claiming a partition bars exclusive opens of its disk) and the partitions of a
    // whole disk (claiming a disk bars exclusive opens of its partitions). Holders were
    // refused before (aliasRefusal).
    for (const auto &a : storageAliasesOf(name)) {
        if (a.kind == StorageAlias::Kind::Partition || a.kind == StorageAlias::Kind::WholeDisk
            || a.kind == StorageAlias::Kind::Holder)
            continue;
        const auto number = a.kind == StorageAlias::Kind::Itself
            ? std::optional<DeviceNumber>(devno)
            : parseDeviceNumber(readAttribute("/sys/class/block/" + a.name + "/dev"));
        if (!number)
            continue;
        const std::pair key {number->major, number->minor};
        if (m_deviceClaims.contains(key))
            continue;
        const std::string node = a.kind == StorageAlias::Kind::Itself ? path : "/dev/" + a.name;
        const int excl
            = ::open(node.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
        if (excl < 0) {
            const int err = errno;
            if (a.kind != StorageAlias::Kind::Itself && err != EBUSY)
                continue; // no node to claim it by (or no right to): see docs/targets.md
            return makeOpError(err, "open device exclusively", node,
                err == EBUSY ? (a.kind == StorageAlias::Kind::Itself
                        ? std::string("the device is in use (held by a file "
                                      "system, swap, LVM/RAID or another program)")
                        : a.name + " (" + a.relation
                            + ") is in use (a file system, swap or another "
                              "program holds it): writing would corrupt what "
                              "uses it")
                             : "");
        }
        UniqueFd claim(excl);
        struct stat cst {
        };
        if (::fstat(excl, &cst) != 0 || !S_ISBLK(cst.st_mode) || major(cst.st_rdev) != number->major
            || minor(cst.st_rdev) != number->minor)
            continue; // the node is not that device (a stale /dev entry): not ours to hold
        m_deviceClaims.emplace(key, DeviceClaim {std::move(claim), devno});
    }
    return std::nullopt;
}

} // namespace ioprism::platform
