// SPDX-License-Identifier: GPL-3.0-or-later
// What every Linux engine stands on, apart from the backend that makes them: owned
// descriptors, the one way an engine file is opened, and the mapped memory of the I/O
// buffers (kept between a series' steps).
#pragma once

#include "core/engine.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

namespace ioprism::platform {

class HeldTargets;

// Buffers are never aligned to less (ENVIRONMENT.md: O_DIRECT on ext4 may need 4 KiB).
inline constexpr std::uint32_t kMinBufferAlign = 4096;

// An owned file descriptor.
class UniqueFd
{
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd)
        : m_fd(fd)
    { }
    ~UniqueFd() { reset(); }
    UniqueFd(UniqueFd &&other) noexcept
        : m_fd(other.release())
    { }
    UniqueFd &operator=(UniqueFd &&other) noexcept
    {
        if (this != &other)
            reset(other.release());
        return *this;
    }
    UniqueFd(const UniqueFd &) = delete;
    UniqueFd &operator=(const UniqueFd &) = delete;

    int get() const { return m_fd; }
    bool valid() const { return m_fd >= 0; }
    int release()
    {
        const int fd = m_fd;
        m_fd = -1;
        return fd;
    }
    void reset(int fd = -1);

private:
    int m_fd = -1;
};

// Opens an engine file the way every Linux engine does: O_RDONLY or O_RDWR, O_DIRECT for
// CacheMode::Direct, O_DSYNC for writeThrough, O_CLOEXEC, and O_NOATIME when the
// caller owns the file (silently dropped otherwise). A file system refusing O_DIRECT
// gives an error that says so instead of quietly measuring the page cache.
// With `held` (what a backend's prepareTarget checked and holds: every run), the file is
// opened through the descriptors held for it, never by its path (held_targets.h); without
// (engine tests that open their own files), by its path.
core::Result<UniqueFd> openEngineFile(const core::EngineFile &file, const HeldTargets *held);
// Those flags without O_CLOEXEC and O_NOATIME: what a broker is asked for, and what the
// results record (core::TargetInfo::openFlags).
int engineOpenFlags(bool write, core::CacheMode cacheMode, bool writeThrough);
// The same open for the engines' openFile(), which runs once per file-tree operation:
// the descriptor, or -errno (one open(2) in the usual case, nothing allocated), and the
// error openEngineFile() would give for it.
int openEngineFd(const core::EngineFile &file, const HeldTargets *held);
core::OpError engineOpenError(const core::EngineFile &file, int err);

// Whether the storage under `fd` (open with O_DIRECT) takes a read without blocking: one
// 4 KiB read at offset 0 with RWF_NOWAIT. A queue without nowait support (zram) refuses
// it with EOPNOTSUPP, and io_uring then hands every I/O to a kernel worker thread: the
// answer is false. Nullopt when the read cannot tell (it would block three times in a
// row, or fails otherwise, as on a device whose sectors are larger than 4 KiB). The
// kernels here do not show a queue's nowait support in sysfs; the refusal is the fact.
std::optional<bool> takesIoWithoutBlocking(int fd);

// Mapped memory for I/O buffers that outlives one engine. A series makes new engines for
// every point, and faulting in the buffers of a large point held up its start (0.2 s
// for 16 MiB x QD 32). The run reserves each worker's largest need before its first step
// (IoBackend::reserveBuffers); an engine takes the smallest kept mapping that fits and
// gives it back when it ends, for the next step. Thread-safe: engines start and end on
// their workers' threads.
class BufferMemory
{
public:
    struct Mapping {
        std::byte *base = nullptr;
        std::size_t bytes = 0;
    };
    // Page-aligned, pre-faulted (MAP_POPULATE), not inherited by a forked child.
    static core::Result<Mapping> map(std::size_t bytes);

    BufferMemory() = default;
    ~BufferMemory();
    BufferMemory(const BufferMemory &) = delete;
    BufferMemory &operator=(const BufferMemory &) = delete;

    // Maps one region of each size and keeps what engines give back, until release().
    // Best effort: a size that cannot be mapped now is left to the engine.
    void keep(std::span<const std::size_t> bytesEach);
    void release(); // unmaps what is kept; what engines give back later is unmapped
    std::optional<Mapping> take(std::size_t bytes); // the smallest kept one that fits
    void give(Mapping mapping);
    std::size_t keptBytes() const;

private:
    mutable std::mutex m_mutex;
    bool m_keeping = false;
    std::vector<Mapping> m_free;
};

// One aligned region cut into equal buffers (stride rounded up to the alignment, at
// least 4 KiB, see ENVIRONMENT.md). The memory is mmap'd, so it is page-aligned and
// pre-faulted, and it can be deliberately leaked when the kernel may still write to it.
// With a BufferMemory it comes from there, and goes back there.
class AlignedBufferPool
{
public:
    AlignedBufferPool() = default;
    ~AlignedBufferPool();
    AlignedBufferPool(const AlignedBufferPool &) = delete;
    AlignedBufferPool &operator=(const AlignedBufferPool &) = delete;

    // The bytes allocate() maps for these buffers (slack for an alignment over a page).
    static std::size_t mappedBytesFor(
        std::uint32_t count, std::uint32_t bufferBytes, std::uint32_t alignmentBytes);

    core::Status allocate(std::uint32_t count, std::uint32_t bufferBytes,
        std::uint32_t alignmentBytes, std::shared_ptr<BufferMemory> memory = nullptr);
    std::span<std::byte> at(std::uint32_t index)
    {
        return {m_base + static_cast<std::size_t>(index) * m_strideBytes, m_bufferBytes};
    }
    std::uint32_t count() const { return m_count; }
    std::uint32_t bufferBytes() const { return m_bufferBytes; }
    // Give the memory up without unmapping it: used when in-flight I/O could not be
    // drained, so the kernel never writes into memory that has been reused.
    void leak()
    {
        m_base = nullptr;
        m_mapping = {};
    }

private:
    std::shared_ptr<BufferMemory> m_memory;
    BufferMemory::Mapping m_mapping;
    std::byte *m_base = nullptr;
    std::size_t m_strideBytes = 0;
    std::uint32_t m_bufferBytes = 0;
    std::uint32_t m_count = 0;
};

} // namespace ioprism::platform
