// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/linux_backend.h"

#include "core/profile/units.h"
#include "core/workload/data_pattern.h"
#include "core/workload/file_tree.h"
#include "platform/common/file_tree_plan.h"
#include "platform/linux/block_devices.h"
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
#include <liburing.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <mutex>
#include <pthread.h>
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
// Folders and a tree's marker are "complete" from the start. "1" is what IOPrism wrote
// before it told the two apart, also before the fill: see legacyFileIsWritten.
constexpr std::string_view kMarkFilling = "filling";
constexpr std::string_view kMarkComplete = "complete";
constexpr std::string_view kMarkLegacy = "1";

enum class Mark {
    None, // not ours: never written, never removed
    Filling, // ours, its fill not known to be finished: fill it again from the start
    Complete, // ours, filled
    Legacy, // ours, marked by an IOPrism that set "1" before filling: complete if proven
};

std::string_view markText(Mark mark)
{
    return mark == Mark::Filling ? kMarkFilling : kMarkComplete;
}

// Marks a file or folder we just created (open as `fd`) as ours. Returns "" when the mark
// will outlive this process, else why not (then it is ours only in this process).
std::string markOurs(int fd, Mark mark)
{
    const std::string_view value = markText(mark);
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
    const std::string_view value = markText(mark);
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

// The mark of the file or folder `path` (not followed if a link), whose lstat is `st`.
// A regular file with more than one link is nobody's: the mark is on the inode, so a hard
// link IOPrism did not make would share it, and writing or removing the file would reach
// a file under another name (the user's). Without user xattrs, only what this process
// created is ours.
Mark markOf(const std::string &path, const struct stat &st)
{
    if (S_ISREG(st.st_mode) ? st.st_nlink != 1 : !S_ISDIR(st.st_mode))
        return Mark::None;
    std::array<char, 32> value {};
    const ssize_t n = ::lgetxattr(path.c_str(), kTestFileXattr, value.data(), value.size());
    if (n >= 0) {
        const std::string_view v(value.data(), static_cast<std::size_t>(n));
        if (v == kMarkComplete)
            return Mark::Complete;
        if (v == kMarkLegacy)
            return Mark::Legacy;
        return Mark::Filling; // "filling", or a value we do not know: fill it again
    }
    if (errno != ENOTSUP && errno != EOPNOTSUPP)
        return Mark::None;
    auto &r = createdWithoutXattr();
    std::lock_guard lock(r.mutex);
    // A file this process created and did not remove again was filled in full.
    return r.files.contains({st.st_dev, st.st_ino}) ? Mark::Complete : Mark::None;
}

Mark markOf(const std::string &path)
{
    struct stat st {
    };
    return ::lstat(path.c_str(), &st) == 0 ? markOf(path, st) : Mark::None;
}

// Whether the first `bytes` of a file are written data, proven by FIEMAP: no hole, no
// unwritten (reserved only) or delayed extent. False when the file system cannot say.
bool provenWritten(int fd, std::uint64_t bytes)
{
    constexpr std::uint32_t kExtents = 64;
    // struct fiemap ends in a flexible array of extents.
    std::vector<std::uint64_t> storage(
        (sizeof(struct fiemap) + kExtents * sizeof(struct fiemap_extent)) / sizeof(std::uint64_t)
        + 1);
    std::uint64_t covered = 0;
    while (covered < bytes) {
        // Zeroed as words: struct fiemap's flexible array member rules out `*map = {}`.
        std::fill(storage.begin(), storage.end(), 0);
        auto *map = reinterpret_cast<struct fiemap *>(storage.data());
        map->fm_start = covered;
        map->fm_length = bytes - covered;
        map->fm_flags = FIEMAP_FLAG_SYNC;
        map->fm_extent_count = kExtents;
        if (::ioctl(fd, FS_IOC_FIEMAP, map) != 0 || map->fm_mapped_extents == 0)
            return false;
        for (std::uint32_t i = 0; i < map->fm_mapped_extents; ++i) {
            const struct fiemap_extent &e = map->fm_extents[i];
            constexpr std::uint32_t kNotData
                = FIEMAP_EXTENT_UNWRITTEN | FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC;
            if (e.fe_logical > covered || (e.fe_flags & kNotData) != 0)
                return false;
            covered = std::max<std::uint64_t>(covered, e.fe_logical + e.fe_length);
            if ((e.fe_flags & FIEMAP_EXTENT_LAST) != 0 && covered < bytes)
                return false;
        }
    }
    return true;
}

// A file marked "1" by an older IOPrism, which set the mark before filling, proves
// nothing by its mark: it counts as complete only when FIEMAP shows every byte written
// (then its mark becomes "complete", where it can be written), else it is filled again.
Mark resolveLegacy(const std::string &path, Mark mark, std::uint64_t sizeBytes)
{
    if (mark != Mark::Legacy)
        return mark;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return Mark::Filling;
    UniqueFd file(fd);
    if (!provenWritten(fd, sizeBytes))
        return Mark::Filling;
    const std::string_view value = kMarkComplete;
    if (::lsetxattr(path.c_str(), kTestFileXattr, value.data(), value.size(), XATTR_REPLACE) != 0) {
        // A read-only file system keeps "1": proven again next time.
    }
    return Mark::Complete;
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

int openEngineFd(const core::EngineFile &file)
{
    const int flags = engineOpenFlags(file);
    // O_NOATIME keeps reads from dirtying inodes; only the owner (or CAP_FOWNER) may ask.
    int fd = ::open(file.path.c_str(), flags | O_NOATIME);
    if (fd < 0 && errno == EPERM)
        fd = ::open(file.path.c_str(), flags);
    return fd >= 0 ? fd : -errno;
}

core::OpError engineOpenError(const core::EngineFile &file, int err)
{
    std::string detail;
    if (err == EINVAL && file.cacheMode == core::CacheMode::Direct)
        detail = "the file system does not support direct I/O (O_DIRECT): use buffered mode";
    else if ((err == EROFS || err == EACCES || err == EPERM) && file.write)
        detail = "cannot open for writing";
    return makeOpError(err, "open", file.path, detail);
}

core::Result<UniqueFd> openEngineFile(const core::EngineFile &file)
{
    const int fd = openEngineFd(file);
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
};
TreeMarker readTreeMarker(const std::string &root)
{
    const std::string marker = core::fileTreeMarkerPath(root);
    struct stat st {
    };
    constexpr off_t kLongestMarker = 4096; // ours is one short line
    if (::lstat(marker.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return {};
    const auto tree = st.st_size > kLongestMarker ? std::nullopt
                                                  : core::parseFileTreeMarker(readTextFile(marker));
    if (!tree)
        return {.state = TreeMarker::State::Damaged};
    return {.state = TreeMarker::State::Found, .tree = *tree};
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
        const Mark mark = resolveLegacy(plan.files[i], markOf(plan.files[i], st), current);
        if (mark == Mark::None)
            return notOurs(plan.files[i], "this file lacks IOPrism's mark");
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

// Removes a file or an empty folder this process made, and forgets it was ours.
void removeMade(const std::string &path, bool folder)
{
    struct stat st {
    };
    if (::lstat(path.c_str(), &st) != 0)
        return;
    if ((folder ? ::rmdir(path.c_str()) : ::unlink(path.c_str())) == 0)
        forgetCreated(st);
}

// What one prepareFileTree call made, removed again unless the call succeeds: a
// cancelled or failed preparation leaves the tree as it found it.
class TreeUndo
{
public:
    TreeUndo(const std::string &root, const TreePlan &plan)
        : m_root(root)
        , m_plan(plan)
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
            const std::string &path = m_plan.files[index];
            if (::truncate(path.c_str(), static_cast<off_t>(bytes)) != 0) {
                // keep the error already being reported
            }
            // A complete file stays complete up to its former size; a half-filled one
            // stays "filling".
            const std::string_view value = kMarkComplete;
            if (!m_halfFilled.contains(index))
                ::lsetxattr(
                    path.c_str(), kTestFileXattr, value.data(), value.size(), XATTR_REPLACE);
        }
        for (auto it = m_files.rbegin(); it != m_files.rend(); ++it)
            removeMade(m_plan.files[*it], false);
        for (auto it = m_folders.rbegin(); it != m_folders.rend(); ++it)
            if (*it != 0)
                removeMade(m_plan.folders[*it], true);
        if (m_marker)
            removeMade(core::fileTreeMarkerPath(m_root), false);
        if (m_rootMade)
            removeMade(m_root, true);
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
    const std::string &m_root;
    const TreePlan &m_plan;
    bool m_rootMade = false;
    bool m_marker = false;
    bool m_committed = false;
    std::vector<std::size_t> m_folders;
    std::vector<std::size_t> m_files;
    std::vector<std::pair<std::size_t, std::uint64_t>> m_extended;
    std::set<std::size_t> m_halfFilled;
};

// Makes one folder of a tree and marks it ours. Returns "" or why the mark will not
// outlive this process (`made` says whether the folder exists now).
core::Result<std::string> makeTreeFolder(
    const std::string &path, const std::string &spaceDetail, bool *made)
{
    *made = false;
    // mkdir fails if the folder appeared since the look-up: never take one over.
    if (::mkdir(path.c_str(), 0755) != 0) {
        const int err = errno;
        return makeOpError(err, "create folder", path,
            err == EEXIST ? "the folder appeared meanwhile: IOPrism never writes "
                            "into a folder it did not create"
                : err == ENOSPC || err == EDQUOT ? spaceDetail
                                                 : "");
    }
    *made = true;
    const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return makeOpError(errno, "open", path);
    UniqueFd folder(fd);
    return markOurs(fd, Mark::Complete);
}

core::Status writeMarker(
    const std::string &root, const core::FileTree &tree, const std::string &spaceDetail)
{
    const std::string path = core::fileTreeMarkerPath(root);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
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
    struct stat st {
    };
    if (::stat(root.c_str(), &st) != 0)
        return makeOpError(errno, "remove file tree", root);
    if (!S_ISDIR(st.st_mode))
        return makeOpError(EPERM, "remove file tree", root,
            "not a folder, so not a file tree made by IOPrism: left untouched");
    const TreeMarker marker = readTreeMarker(root);
    if (marker.state == TreeMarker::State::Missing)
        return makeOpError(EPERM, "remove file tree", root,
            "the folder has no " + std::string(core::kFileTreeMarkerName)
                + " marker, so it is not a file tree made by IOPrism: left untouched");
    if (marker.state == TreeMarker::State::Damaged)
        return makeOpError(
            EPERM, "remove file tree", root, damagedMarkerWhy() + ": left untouched");
    if (!treeIsOurs(root))
        return makeOpError(EPERM, "remove file tree", root,
            unmarkedTreeWhy(
                "the xattr " + std::string(kTestFileXattr), "on a file system without user xattrs")
                + ": left untouched");
    if (!core::sameFileTreeShape(marker.tree, tree))
        return makeOpError(EPERM, "remove file tree", root,
            "the folder holds an IOPrism file tree of another shape ("
                + describeFileTree(marker.tree) + ") than this one (" + describeFileTree(tree)
                + "): left untouched");

    // Files first, then the level folders deepest first (each only once empty), then the
    // marker and the top folder: until the marker goes, a later removal still knows the
    // tree as ours. Only what carries our mark is removed (a file only while it has one
    // name): anything else under one of our names was put there by someone else.
    std::optional<OpError> firstFailure;
    for (const auto &file : core::fileTreeFiles(root, tree)) {
        if (::lstat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)
            || markOf(file, st) == Mark::None)
            continue;
        if (::unlink(file.c_str()) == 0)
            forgetCreated(st);
        else if (errno != ENOENT && !firstFailure)
            firstFailure = makeOpError(errno, "remove file tree", file);
    }
    const auto folders = core::fileTreeFolders(root, tree);
    // The levels that are ours, from the top: below a folder someone else put in a
    // level's place, nothing is ours.
    std::size_t ourLevels = 1;
    while (ourLevels < folders.size() && ::lstat(folders[ourLevels].c_str(), &st) == 0
        && markOf(folders[ourLevels], st) != Mark::None)
        ++ourLevels;
    for (std::size_t i = ourLevels; i-- > 1;)
        removeMade(folders[i], true); // fails (ENOTEMPTY) while something else is inside
    const std::string markerPath = core::fileTreeMarkerPath(root);
    if (::lstat(markerPath.c_str(), &st) == 0) {
        if (::unlink(markerPath.c_str()) == 0)
            forgetCreated(st);
        else if (errno != ENOENT && !firstFailure)
            firstFailure = makeOpError(errno, "remove file tree", markerPath);
    }
    if (::stat(root.c_str(), &st) == 0 && ::rmdir(root.c_str()) == 0) {
        forgetCreated(st);
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
    if (!S_ISREG(st.st_mode) || !isOurTestFile(path))
        return makeOpError(
            EPERM, "remove test file", path, "not a test file created by IOPrism: left untouched");
    if (::unlink(path.c_str()) != 0)
        return makeOpError(errno, "remove test file", path);
    forgetCreated(st);
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

// ---------------------------------------------------------------- the backend

LinuxBackend::LinuxBackend(const BackendOptions &options)
    : m_options(options)
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
        return std::unique_ptr<core::IoEngine>(std::make_unique<UringEngine>(
            UringOptions {.lockedBudgetBytes = m_lockedBudget, .bufferMemory = m_bufferMemory}));
    return std::unique_ptr<core::IoEngine>(std::make_unique<SyncEngine>(m_bufferMemory));
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
    return std::unique_ptr<core::IoEngine>(std::make_unique<SyncEngine>(m_bufferMemory));
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
            const Mark mark = resolveLegacy(target.path, markOf(target.path, st), current);
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
    const std::string &path = target.path;
    const std::uint64_t wanted = target.testFileSizeBytes;
    core::TargetInfo info;
    info.path = path;

    struct stat st {
    };
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
    const Mark mark = exists ? resolveLegacy(path, markOf(path, st), current) : Mark::None;
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

        // O_EXCL: never take over a file that appeared since the stat above.
        const int fd = exists ? ::open(path.c_str(), O_WRONLY | O_CLOEXEC)
                              : ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0)
            return makeOpError(errno, exists ? "open" : "create test file", path);
        UniqueFd file(fd);
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

    TreeUndo undo(root, plan);
    // A failure or a cancel removes what this call made, and says so.
    const auto failed = [&undo](OpError error) {
        if (undo.rollback())
            error.detail += (error.detail.empty() ? "" : "; ")
                + std::string("removed what this run had made of the tree");
        return error;
    };
    bool folderMade = false;
    if (!plan.rootExists) {
        auto marked = makeTreeFolder(root, spaceDetail, &folderMade);
        if (folderMade)
            undo.madeRoot();
        if (!marked)
            return failed(marked.error());
        if (!marked->empty())
            addNotice("could not mark " + root + " as IOPrism's file tree (" + *marked
                + "): later runs will refuse it; delete it yourself when done");
        // The marker goes first, so even a crash mid-fill leaves a tree IOPrism knows.
        undo.madeMarker(); // even when it fails: it may be half-written
        if (auto st = writeMarker(root, tree, spaceDetail); !st)
            return failed(st.error());
    }
    for (const std::size_t i : plan.missingFolders) {
        if (i == 0)
            continue;
        auto marked = makeTreeFolder(plan.folders[i], spaceDetail, &folderMade);
        if (folderMade)
            undo.madeFolder(i);
        if (!marked)
            return failed(marked.error());
    }

    // The files written, to be marked complete once the tree is synced; each by its
    // inode, so that a file put in one's place meanwhile is not marked.
    std::vector<std::pair<std::size_t, ino_t>> filled;
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
            // O_EXCL: never take over a file that appeared since the look-up; O_NOFOLLOW:
            // never write through a symbolic link put in the file's place meanwhile.
            const int fd = w.exists
                ? ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
                : ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
            if (fd < 0) {
                const int err = errno;
                return failed(makeOpError(err, w.exists ? "open" : "create file", path,
                    err == ENOSPC || err == EDQUOT ? spaceDetail : ""));
            }
            UniqueFd file(fd);
            struct stat st {
            };
            if (::fstat(fd, &st) != 0)
                return failed(makeOpError(errno, "fstat", path));
            if (w.exists) {
                // Still ours and still one name since the look-up, else never written.
                if (markOf(path, st) == Mark::None)
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
            filled.emplace_back(w.index, st.st_ino);
        }
    }
    if (plan.needsWork()) {
        // One sync for the whole tree (its data, sizes and folders), not one per file;
        // then the files are marked complete, and a second sync keeps the marks. A crash
        // before it leaves files "filling": filled again, never measured.
        const int fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
            return failed(makeOpError(errno, "open", root));
        UniqueFd folder(fd);
        const auto syncTree = [&]() -> core::Status {
            if (::syncfs(fd) == 0)
                return core::Ok {};
            const int err = errno;
            return makeOpError(
                err, "syncfs", root, err == ENOSPC || err == EDQUOT ? spaceDetail : "");
        };
        if (auto st = syncTree(); !st)
            return failed(st.error());
        for (const auto &[index, inode] : filled) {
            const std::string &path = plan.files[index];
            const int file = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
            if (file < 0)
                return failed(makeOpError(errno, "open", path));
            UniqueFd filledFile(file);
            struct stat st {
            };
            if (::fstat(file, &st) != 0 || st.st_ino != inode)
                return failed(notOurs(path, "a file put in place of the one IOPrism filled"));
            if (auto marked = setMark(path, file, Mark::Complete); !marked)
                return failed(marked.error());
        }
        if (!filled.empty())
            if (auto st = syncTree(); !st)
                return failed(st.error());
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
    return info;
}

std::optional<OpError> LinuxBackend::aliasRefusal(
    const std::string &path, const std::string &name) const
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
    for (std::size_t i = 0; i < aliases.size(); ++i)
        if (m_deviceClaims.contains({numbers[i].major, numbers[i].minor})
            && aliases[i].kind != StorageAlias::Kind::Itself)
            return makeOpError(EBUSY, "open device for writing", path,
                aliases[i].name + how(aliases[i])
                    + " is also written by this run: its targets must not overlap");
    // The kernel's answer for every other name of the storage: an exclusive open fails
    // while anything (a file system, swap, another program) claims it.
    for (const auto &a : aliases) {
        if (a.kind == StorageAlias::Kind::Itself || !a.exclusiveOpenTells())
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

    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        return makeOpError(err, "open device", path,
            err == EACCES || err == EPERM
                ? "raw devices are readable by root and the group that owns them (usually "
                  "'disk'): add yourself to it (usermod -aG disk USER, then log in again) or "
                  "run as root"
                : "");
    }
    UniqueFd dev(fd);
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
    dev.reset();

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

        if (auto refusal = aliasRefusal(path, name))
            return *refusal;
        // Hold an exclusive claim for the whole run: from now on the kernel refuses to
        // mount the device or let another program claim it while we write. (Our own
        // engines open it without O_EXCL, which an exclusive claim allows.)
        const std::pair claimKey {devno.major, devno.minor};
        if (!m_deviceClaims.contains(claimKey)) {
            const int excl = ::open(path.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC);
            if (excl < 0) {
                const int err = errno;
                return makeOpError(err, "open device exclusively", path,
                    err == EBUSY ? "the device is in use (held by a file system, swap, "
                                   "LVM/RAID or another program)"
                                 : "");
            }
            m_deviceClaims.emplace(claimKey, UniqueFd(excl));
        }
    }

    const Alignment a = queryAlignment(path, static_cast<std::uint32_t>(logical));
    info.logicalBlockBytes = static_cast<std::uint32_t>(logical);
    info.directIoOffsetAlignBytes
        = std::max<std::uint32_t>(a.offsetBytes, static_cast<std::uint32_t>(logical));
    info.directIoMemAlignBytes = a.memBytes;
    return info;
}

} // namespace ioprism::platform
