// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/engine_support.h"

#include "core/profile/units.h"
#include "platform/linux/held_targets.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

namespace ioprism::platform {

using core::makeOpError;

void UniqueFd::reset(int fd)
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = fd;
}

int engineOpenFlags(bool write, core::CacheMode cacheMode, bool writeThrough)
{
    int flags = write ? O_RDWR : O_RDONLY;
    if (cacheMode == core::CacheMode::Direct)
        flags |= O_DIRECT;
    if (writeThrough)
        flags |= O_DSYNC;
    return flags;
}

namespace {

int engineFileFlags(const core::EngineFile &file)
{
    return engineOpenFlags(file.write, file.cacheMode, file.writeThrough) | O_CLOEXEC;
}

} // namespace

int openEngineFd(const core::EngineFile &file, const HeldTargets *held)
{
    const int flags = engineFileFlags(file);
    if (held)
        return held->open(file, flags);
    // O_NOATIME keeps reads from dirtying inodes; only the owner (or CAP_FOWNER) may ask.
    int fd = ::open(file.path.c_str(), flags | O_NOATIME);
    if (fd < 0 && errno == EPERM)
        fd = ::open(file.path.c_str(), flags);
    return fd >= 0 ? fd : -errno;
}

std::optional<bool> takesIoWithoutBlocking(int fd)
{
    constexpr std::size_t bytes = kMinBufferAlign;
    const std::unique_ptr<void, decltype(&std::free)> buffer(
        std::aligned_alloc(kMinBufferAlign, bytes), &std::free);
    if (!buffer)
        return std::nullopt;
    // EAGAIN is also a queue that is momentarily full: asked again, a queue with nowait
    // support takes it.
    for (int attempt = 0; attempt < 3; ++attempt) {
        iovec io {buffer.get(), bytes};
        if (::preadv2(fd, &io, 1, 0, RWF_NOWAIT) >= 0)
            return true;
        if (errno == EOPNOTSUPP)
            return false;
        if (errno != EAGAIN && errno != EINTR)
            return std::nullopt;
    }
    return std::nullopt;
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

} // namespace ioprism::platform
