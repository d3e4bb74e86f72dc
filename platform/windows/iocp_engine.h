// SPDX-License-Identifier: GPL-3.0-or-later
// The Windows engine: overlapped ReadFile/WriteFile on a private I/O completion port,
// with batched dequeues (GetQueuedCompletionStatusEx), as DiskSpd does.
//
//  * Files are opened with FILE_FLAG_OVERLAPPED, plus FILE_FLAG_NO_BUFFERING for
//    CacheMode::Direct and FILE_FLAG_WRITE_THROUGH when asked (openEngineFile).
//  * One completion port per engine (so per worker); each file is associated with it,
//    its key being the file's index.
//  * Synchronous completions: Windows may finish an overlapped request inside
//    ReadFile/WriteFile (cached data, small files, NUL, pipes with data). With
//    FILE_SKIP_COMPLETION_PORT_ON_SUCCESS set on the handle no packet is queued for
//    those, so the engine completes them itself; where the mode cannot be set, the
//    packet comes through the port as for ERROR_IO_PENDING. A request that fails at
//    once never queues a packet. Either way every request is reaped exactly once.
//  * Alignment: unbuffered requests are checked against the volume's sector size (see
//    sector_size.h) before they are issued, and a misaligned offset, length or buffer
//    address completes with ERROR_INVALID_PARAMETER (87), what real Windows gives (newer
//    versions say ERROR_OFFSET_ALIGNMENT_VIOLATION for the offset, which no C++ runtime
//    maps to std::errc). Wine ignores NO_BUFFERING and would accept them, so this check
//    is what tests exercise there.
//  * Buffers come from VirtualAlloc: page-aligned, committed and touched before use.
//  * A prepared target is opened only through the backend's HeldTargets (IocpOptions::held,
//    held_targets.h): the path is looked up once, at preparation.
//  * Files opened while the engine runs (openFile: a file tree's slots, Iometer's
//    connection rate) get CreateFileW with the flags above and are associated with the
//    port under their index; closeFile is CloseHandle. Such a handle is not set to
//    FILE_SKIP_COMPLETION_PORT_ON_SUCCESS: that would be one more system call per open,
//    and a synchronous completion's packet is handled either way. The sector size of an
//    unbuffered file index is asked once (its first open) and kept: an index holds the
//    files of one tree, or the same file again, all on one volume. The UTF-16 path is
//    converted into a buffer the engine keeps, so an open allocates nothing once that
//    buffer has grown to the longest path.
//
// queue() only records the request; commit() issues everything queued, so that the
// worker's submit timestamp (taken just before commit) precedes the system call and the
// measured latency covers the whole request.
//
// IoRequest::error holds Win32 codes (GetLastError) that system_category maps to the
// same std::errc conditions the Linux engines' errno values give, e.g.
// ERROR_INVALID_PARAMETER (invalid_argument) for a misaligned unbuffered request or a bad
// index, ERROR_ACCESS_DENIED (permission_denied) for a write on a file opened read-only.
// A read at or past the end of a file completes with 0 bytes and no error, as pread
// does, not with ERROR_HANDLE_EOF.
//
// Threads: one engine per worker thread, used from that thread only. Nothing is
// allocated or locked on the hot path.
#pragma once

#include "core/engine.h"
#include "platform/windows/held_targets.h"
#include "platform/windows/win_util.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ioprism::platform {

// Opens an engine file the way the IOCP engine does (see above). Errors name the path;
// a file system refusing NO_BUFFERING is reported as such. With `held` (the targets the
// backend prepared) the file is opened only through what is held there (ReOpenFile of a
// held file or device, a tree file by its name in its held level folder), never by its
// path; without (engine tests that make their own files), by its path.
core::Result<win::UniqueHandle> openEngineFile(
    const core::EngineFile &file, const HeldTargets *held = nullptr);

struct IocpOptions {
    // Test hook: false = never set FILE_SKIP_COMPLETION_PORT_ON_SUCCESS, so every
    // completion, also a synchronous one, comes through the port.
    bool skipCompletionPortOnSuccess = true;
    // The targets the backend prepared: files are opened through them (null: by path).
    std::shared_ptr<const HeldTargets> held;
};

class IocpEngine final : public core::IoEngine
{
public:
    static constexpr std::uint32_t kMaxQueueDepth = 65536;

    explicit IocpEngine(const IocpOptions &options = {});
    ~IocpEngine() override;
    IocpEngine(const IocpEngine &) = delete;
    IocpEngine &operator=(const IocpEngine &) = delete;

    std::string_view name() const override { return "iocp"; }
    core::EngineCapabilities capabilities() const override;

    core::Status init(
        const core::EngineConfig &config, std::span<const core::EngineFile> files) override;
    std::span<std::byte> buffer(std::uint32_t index) override;
    core::Status openFile(std::uint32_t fileIndex, const core::EngineFile &file) override;
    core::Status closeFile(std::uint32_t fileIndex) override;

    bool queue(core::IoRequest *request) override;
    core::Status commit() override;
    core::Result<std::uint32_t> reap(std::span<core::IoRequest *> completed,
        std::uint32_t minCompletions, std::chrono::nanoseconds timeout) override;

    // For tests and notices.
    std::uint32_t sectorBytes(std::uint32_t fileIndex) const
    {
        return m_files.at(fileIndex).sectorBytes;
    }
    bool skipsPortOnSuccess(std::uint32_t fileIndex) const
    {
        return m_files.at(fileIndex).skipOnSuccess;
    }
    std::uint64_t synchronousCompletions() const { return m_syncCompletions; } // no port packet
    std::uint64_t portCompletions() const { return m_portCompletions; } // dequeued packets
    std::uint64_t immediateFailures() const
    {
        return m_immediateFailures;
    } // refused or failed at issue
    std::uint32_t inFlight() const { return m_inPort; } // issued, packet awaited

private:
    struct Op {
        OVERLAPPED overlapped; // first member: the packet's OVERLAPPED* is the Op*
        core::IoRequest *request;
    };
    struct File {
        win::UniqueHandle handle; // invalid while the index is closed
        bool direct = false;
        bool skipOnSuccess = false;
        bool sectorKnown = false; // sectorBytes was asked of the volume
        std::uint32_t sectorBytes = 512;
    };

    void issue(core::IoRequest *request);
    void finishNow(core::IoRequest *request, std::int64_t bytes, int error);
    void complete(Op *op, DWORD bytes);
    std::uint32_t takeReady(std::span<core::IoRequest *> completed);
    void drainBeforeExit();

    IocpOptions m_options;
    win::UniqueHandle m_port;
    std::vector<File> m_files;
    std::wstring m_widePath; // openFile's path in UTF-16, reused

    std::byte *m_bufferBase = nullptr;
    std::size_t m_strideBytes = 0;
    std::uint32_t m_bufferBytes = 0;
    std::uint32_t m_bufferCount = 0;

    std::uint32_t m_depth = 0;
    std::unique_ptr<Op[]> m_ops; // one per possible request in flight
    std::vector<std::uint32_t> m_freeOps; // stack of indices into m_ops
    std::vector<core::IoRequest *> m_pending; // queued, not yet issued (ring)
    std::size_t m_pendingHead = 0;
    std::size_t m_pendingCount = 0;
    std::vector<core::IoRequest *> m_ready; // finished without a packet (ring)
    std::size_t m_readyHead = 0;
    std::size_t m_readyCount = 0;
    std::vector<OVERLAPPED_ENTRY> m_entries; // scratch for GetQueuedCompletionStatusEx
    std::uint32_t m_inPort = 0; // issued and awaiting a packet
    std::uint32_t m_accepted = 0; // queued and not yet reaped (pending + in port + ready)

    std::uint64_t m_syncCompletions = 0;
    std::uint64_t m_portCompletions = 0;
    std::uint64_t m_immediateFailures = 0;
    bool m_leakMemory = false; // in-flight I/O could not be drained: keep buffers and ops
};

} // namespace ioprism::platform
