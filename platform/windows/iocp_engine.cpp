// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/windows/iocp_engine.h"

#include "core/profile/units.h"
#include "platform/windows/sector_size.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <type_traits>

namespace ioprism::platform {

using win::win32Error;

namespace {

// IoRequest::error is read as a std::errc condition through system_category, the same
// way on every platform (the engine conformance suite compares it so). MinGW's and
// MSVC's system_category map most Win32 codes (87 -> invalid_argument, 2 ->
// no_such_file_or_directory, 5 -> permission_denied) but not these two, so the engine
// reports what they mean in a code that does map:
//  * ERROR_HANDLE_EOF: a read at or past the end of a file transfers nothing. pread
//    returns 0 bytes and no error there, and so does this engine (0 = no error).
//  * ERROR_OFFSET_ALIGNMENT_VIOLATION (327, newer Windows, for a NO_BUFFERING offset off
//    the sector): ERROR_INVALID_PARAMETER, which older Windows gives for the same request
//    and which maps to invalid_argument, like EINVAL from O_DIRECT on Linux.
int portableError(DWORD error)
{
    switch (error) {
    case ERROR_HANDLE_EOF:
        return 0;
    case ERROR_OFFSET_ALIGNMENT_VIOLATION:
        return ERROR_INVALID_PARAMETER;
    default:
        return static_cast<int>(error);
    }
}

} // namespace

namespace {

core::Result<win::UniqueHandle> openEngineFileW(
    const core::EngineFile &file, const wchar_t *path, const HeldTargets *held)
{
    const DWORD access = GENERIC_READ | (file.write ? GENERIC_WRITE : 0);
    // Other workers (and other programs) may open the same target: share it.
    const DWORD share = FILE_SHARE_READ | FILE_SHARE_WRITE;
    DWORD flags = FILE_FLAG_OVERLAPPED;
    if (file.cacheMode == core::CacheMode::Direct)
        flags |= FILE_FLAG_NO_BUFFERING;
    if (file.writeThrough)
        flags |= FILE_FLAG_WRITE_THROUGH;
    if (held) {
        // A prepared target: only through what the backend checked and holds, never by
        // its path again (held_targets.h).
        auto handle = held->open(file, path, access, share, flags);
        if (handle || handle.error().code.value() != ERROR_INVALID_PARAMETER
            || !(flags & FILE_FLAG_NO_BUFFERING) || !handle.error().detail.empty())
            return handle;
        core::OpError error = handle.error();
        error.detail = "the file system refuses unbuffered I/O (FILE_FLAG_NO_BUFFERING): use "
                       "buffered mode or put the test file elsewhere";
        return error;
    }
    HANDLE h = ::CreateFileW(path, access, share, nullptr, OPEN_EXISTING, flags, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
        const DWORD err = ::GetLastError();
        std::string detail;
        if (err == ERROR_INVALID_PARAMETER && (flags & FILE_FLAG_NO_BUFFERING))
            detail = "the file system refuses unbuffered I/O (FILE_FLAG_NO_BUFFERING): use "
                     "buffered mode or put "
                     "the test file elsewhere";
        else if (err == ERROR_ACCESS_DENIED && file.write)
            detail = "no write access";
        else if (err == ERROR_SHARING_VIOLATION)
            detail = "another program holds the file exclusively";
        return win32Error(err, "open", file.path, detail);
    }
    return win::UniqueHandle(h);
}

// UTF-8 to UTF-16 into `out`, whose capacity is kept between calls.
void widenInto(std::string_view utf8, std::wstring &out)
{
    const int n = utf8.empty()
        ? 0
        : ::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), nullptr, 0);
    out.resize(static_cast<std::size_t>(std::max(n, 0)));
    if (n > 0)
        ::MultiByteToWideChar(
            CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), out.data(), n);
}

} // namespace

core::Result<win::UniqueHandle> openEngineFile(
    const core::EngineFile &file, const HeldTargets *held)
{
    const std::wstring path = win::widen(file.path);
    return openEngineFileW(file, path.c_str(), held);
}

IocpEngine::IocpEngine(const IocpOptions &options)
    : m_options(options)
{ }

core::EngineCapabilities IocpEngine::capabilities() const
{
    core::EngineCapabilities caps;
    caps.async = true;
    caps.directIo = true;
    caps.maxQueueDepth = kMaxQueueDepth;
    return caps;
}

IocpEngine::~IocpEngine()
{
    drainBeforeExit();
    if (m_bufferBase && !m_leakMemory)
        ::VirtualFree(m_bufferBase, 0, MEM_RELEASE);
    if (m_leakMemory)
        (void)m_ops.release(); // the kernel may still write an OVERLAPPED: never free it
    // Handles close after the drain (members), then the port.
    m_files.clear();
    m_port.reset();
}

void IocpEngine::drainBeforeExit()
{
    if (m_inPort == 0)
        return;
    // Requests still in the kernel own their buffer and OVERLAPPED until their packet
    // arrives: cancel them and wait for the packets (bounded).
    for (auto &f : m_files)
        if (f.handle.valid())
            ::CancelIoEx(f.handle.get(), nullptr);
    const ULONGLONG deadline = ::GetTickCount64() + 10'000;
    while (m_inPort > 0 && ::GetTickCount64() < deadline) {
        ULONG n = 0;
        if (!::GetQueuedCompletionStatusEx(m_port.get(), m_entries.data(),
                static_cast<ULONG>(m_entries.size()), &n, 100, FALSE))
            continue;
        for (ULONG i = 0; i < n; ++i)
            if (m_entries[i].lpOverlapped) {
                --m_inPort;
                m_freeOps.push_back(static_cast<std::uint32_t>(
                    reinterpret_cast<Op *>(m_entries[i].lpOverlapped) - m_ops.get()));
            }
    }
    if (m_inPort > 0)
        m_leakMemory = true;
}

core::Status IocpEngine::init(
    const core::EngineConfig &config, std::span<const core::EngineFile> files)
{
    static_assert(std::is_standard_layout_v<Op> && offsetof(Op, overlapped) == 0);
    if (m_port.valid())
        return win32Error(
            ERROR_ALREADY_INITIALIZED, "iocp init", {}, "the engine is already set up");
    if (config.queueDepth == 0 || config.queueDepth > kMaxQueueDepth)
        return win32Error(ERROR_INVALID_PARAMETER, "iocp init", {},
            "queue depth " + std::to_string(config.queueDepth) + " is outside 1.."
                + std::to_string(kMaxQueueDepth));
    if (files.empty())
        return win32Error(ERROR_INVALID_PARAMETER, "iocp init", {}, "no files");

    // One thread uses the port, so at most one concurrent dequeuer.
    m_port.reset(::CreateIoCompletionPort(INVALID_HANDLE_VALUE, nullptr, 0, 1));
    if (!m_port.valid())
        return win::lastError("CreateIoCompletionPort");

    m_files.reserve(files.size());
    for (std::size_t i = 0; i < files.size(); ++i) {
        const auto &spec = files[i];
        if (spec.openLater) {
            // Only the index is reserved; openFile() opens a file there.
            m_files.emplace_back();
            continue;
        }
        auto handle = openEngineFile(spec, m_options.held.get());
        if (!handle)
            return handle.error();
        File f;
        f.direct = spec.cacheMode == core::CacheMode::Direct;
        if (f.direct && ::GetFileType(handle->get()) == FILE_TYPE_DISK) {
            f.sectorBytes = win::querySectorSize(handle->get(), win::widen(spec.path)).logicalBytes;
            f.sectorKnown = true;
        }
        if (!::CreateIoCompletionPort(handle->get(), m_port.get(), static_cast<ULONG_PTR>(i), 0))
            return win::lastError("associate with the completion port", spec.path);
        if (m_options.skipCompletionPortOnSuccess)
            f.skipOnSuccess
                = ::SetFileCompletionNotificationModes(handle->get(),
                      FILE_SKIP_COMPLETION_PORT_ON_SUCCESS | FILE_SKIP_SET_EVENT_ON_HANDLE)
                != FALSE;
        f.handle = std::move(handle.value());
        m_files.push_back(std::move(f));
    }

    // Buffers: one VirtualAlloc region (page-aligned, 64 KiB-aligned base), each buffer
    // on a stride that is a multiple of the alignment asked for.
    SYSTEM_INFO si {};
    ::GetSystemInfo(&si);
    const std::size_t page = std::max<std::size_t>(si.dwPageSize, 4096);
    const std::size_t align = std::max<std::size_t>(config.bufferAlignmentBytes, page);
    if (align > si.dwAllocationGranularity || (align & (align - 1)) != 0)
        return win32Error(ERROR_INVALID_PARAMETER, "allocate buffers", {},
            "buffer alignment " + std::to_string(config.bufferAlignmentBytes)
                + " must be a power of two up to the allocation granularity");
    m_bufferCount = std::max<std::uint32_t>(config.bufferCount, 1);
    m_bufferBytes = config.bufferBytes;
    m_strideBytes = std::max<std::size_t>(
        (std::size_t(config.bufferBytes) + align - 1) / align * align, align);
    const std::size_t total = m_strideBytes * m_bufferCount;
    m_bufferBase = static_cast<std::byte *>(
        ::VirtualAlloc(nullptr, total, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE));
    if (!m_bufferBase)
        return win::lastError("VirtualAlloc", {}, core::describeSize(total) + " of I/O buffers");
    std::memset(m_bufferBase, 0, total); // fault every page in now, not during the run

    m_depth = config.queueDepth;
    m_ops = std::make_unique<Op[]>(m_depth);
    m_freeOps.resize(m_depth);
    for (std::uint32_t i = 0; i < m_depth; ++i)
        m_freeOps[i] = m_depth - 1 - i;
    m_pending.assign(m_depth, nullptr);
    m_ready.assign(m_depth, nullptr);
    m_entries.resize(m_depth);
    return core::Ok {};
}

std::span<std::byte> IocpEngine::buffer(std::uint32_t index)
{
    if (!m_bufferBase || index >= m_bufferCount)
        return {};
    return {m_bufferBase + std::size_t(index) * m_strideBytes, m_bufferBytes};
}

core::Status IocpEngine::openFile(std::uint32_t fileIndex, const core::EngineFile &file)
{
    // The engine's own refusals carry portable conditions (as the null engine's do).
    if (!m_port.valid() || fileIndex >= m_files.size())
        return core::OpError {std::make_error_code(std::errc::invalid_argument), "open", file.path,
            "file index " + std::to_string(fileIndex) + " was not reserved by init()"};
    File &f = m_files[fileIndex];
    if (f.handle.valid())
        return core::OpError {std::make_error_code(std::errc::device_or_resource_busy), "open",
            file.path, "file index " + std::to_string(fileIndex) + " is not closed"};
    widenInto(file.path, m_widePath);
    auto handle = openEngineFileW(file, m_widePath.c_str(), m_options.held.get());
    if (!handle)
        return handle.error();
    if (!::CreateIoCompletionPort(
            handle->get(), m_port.get(), static_cast<ULONG_PTR>(fileIndex), 0))
        return win::lastError("associate with the completion port", file.path);
    f.direct = file.cacheMode == core::CacheMode::Direct;
    f.skipOnSuccess = false; // see the header: one system call less per open
    if (f.direct && !f.sectorKnown && ::GetFileType(handle->get()) == FILE_TYPE_DISK) {
        f.sectorBytes = win::querySectorSize(handle->get(), m_widePath).logicalBytes;
        f.sectorKnown = true;
    }
    f.handle = std::move(handle.value());
    return core::Ok {};
}

core::Status IocpEngine::closeFile(std::uint32_t fileIndex)
{
    if (fileIndex >= m_files.size() || !m_files[fileIndex].handle.valid())
        return core::OpError {std::make_error_code(std::errc::bad_file_descriptor), "close", {},
            "file index " + std::to_string(fileIndex) + " is not open"};
    // The handle is gone even when CloseHandle reports an error; the error is still the
    // worker's to report.
    if (!::CloseHandle(m_files[fileIndex].handle.release()))
        return win::lastError("close", {}, "file index " + std::to_string(fileIndex));
    return core::Ok {};
}

bool IocpEngine::queue(core::IoRequest *request)
{
    if (m_accepted >= m_depth || !m_port.valid())
        return false;
    m_pending[(m_pendingHead + m_pendingCount) % m_depth] = request;
    ++m_pendingCount;
    ++m_accepted;
    return true;
}

void IocpEngine::finishNow(core::IoRequest *request, std::int64_t bytes, int error)
{
    request->resultBytes = bytes;
    request->error = error;
    m_ready[(m_readyHead + m_readyCount) % m_depth] = request;
    ++m_readyCount;
}

void IocpEngine::issue(core::IoRequest *request)
{
    if (request->fileIndex >= m_files.size() || request->bufferIndex >= m_bufferCount
        || request->lengthBytes > m_bufferBytes || request->lengthBytes == 0) [[unlikely]] {
        ++m_immediateFailures;
        finishNow(request, 0, ERROR_INVALID_PARAMETER);
        return;
    }
    File &file = m_files[request->fileIndex];
    if (!file.handle.valid()) [[unlikely]] {
        // A closed index (never opened, or closed by closeFile): as a closed descriptor
        // would, the request fails; it must not reach whatever the handle value names.
        ++m_immediateFailures;
        finishNow(request, 0, ERROR_INVALID_HANDLE);
        return;
    }
    std::byte *data = m_bufferBase + std::size_t(request->bufferIndex) * m_strideBytes;
    if (file.direct) {
        // What real Windows enforces for FILE_FLAG_NO_BUFFERING, checked before the call
        // so the error is the same everywhere (Wine would perform the request). One code
        // for offset, length and buffer address: see portableError.
        const std::uint32_t sector = file.sectorBytes;
        if (request->offsetBytes % sector != 0 || request->lengthBytes % sector != 0
            || reinterpret_cast<std::uintptr_t>(data) % sector != 0) [[unlikely]] {
            ++m_immediateFailures;
            finishNow(request, 0, ERROR_INVALID_PARAMETER);
            return;
        }
    }

    Op &op = m_ops[m_freeOps.back()];
    m_freeOps.pop_back();
    std::memset(&op.overlapped, 0, sizeof op.overlapped);
    op.overlapped.Offset = static_cast<DWORD>(request->offsetBytes);
    op.overlapped.OffsetHigh = static_cast<DWORD>(request->offsetBytes >> 32);
    op.request = request;

    const BOOL ok = request->direction == core::IoDirection::Write
        ? ::WriteFile(file.handle.get(), data, request->lengthBytes, nullptr, &op.overlapped)
        : ::ReadFile(file.handle.get(), data, request->lengthBytes, nullptr, &op.overlapped);
    if (ok) {
        if (file.skipOnSuccess) {
            // Done inside the call and no packet will come: complete it here.
            DWORD bytes = 0;
            ::GetOverlappedResult(file.handle.get(), &op.overlapped, &bytes, FALSE);
            ++m_syncCompletions;
            m_freeOps.push_back(static_cast<std::uint32_t>(&op - m_ops.get()));
            finishNow(request, bytes, 0);
        } else {
            ++m_inPort; // done, but its packet is queued all the same
        }
        return;
    }
    const DWORD err = ::GetLastError();
    if (err == ERROR_IO_PENDING) {
        ++m_inPort;
        return;
    }
    // Failed at once (or hit the end of the file, which is no failure): no packet is
    // queued for it.
    m_freeOps.push_back(static_cast<std::uint32_t>(&op - m_ops.get()));
    const int error = portableError(err);
    if (error == 0)
        ++m_syncCompletions;
    else
        ++m_immediateFailures;
    finishNow(request, 0, error);
}

core::Status IocpEngine::commit()
{
    while (m_pendingCount > 0) {
        core::IoRequest *request = m_pending[m_pendingHead];
        m_pendingHead = (m_pendingHead + 1) % m_depth;
        --m_pendingCount;
        issue(request);
    }
    return core::Ok {};
}

void IocpEngine::complete(Op *op, DWORD bytes)
{
    core::IoRequest *request = op->request;
    // Internal holds the NTSTATUS; GetOverlappedResult turns a failure into the Win32
    // code (STATUS_END_OF_FILE -> ERROR_HANDLE_EOF) the way ReadFile would report it, and
    // portableError into one every platform reads alike (EOF: 0 bytes, no error).
    if (op->overlapped.Internal == 0) {
        request->resultBytes = bytes;
        request->error = 0;
    } else {
        DWORD transferred = 0;
        const HANDLE h = m_files[request->fileIndex].handle.get();
        if (::GetOverlappedResult(h, &op->overlapped, &transferred, FALSE)) {
            request->resultBytes = transferred;
            request->error = 0;
        } else {
            request->resultBytes = transferred;
            request->error = portableError(::GetLastError());
        }
    }
    m_freeOps.push_back(static_cast<std::uint32_t>(op - m_ops.get()));
}

std::uint32_t IocpEngine::takeReady(std::span<core::IoRequest *> completed)
{
    std::uint32_t n = 0;
    while (m_readyCount > 0 && n < completed.size()) {
        completed[n++] = m_ready[m_readyHead];
        m_readyHead = (m_readyHead + 1) % m_depth;
        --m_readyCount;
    }
    return n;
}

core::Result<std::uint32_t> IocpEngine::reap(std::span<core::IoRequest *> completed,
    std::uint32_t minCompletions, std::chrono::nanoseconds timeout)
{
    if (completed.empty() || !m_port.valid())
        return 0u;
    const auto limit = static_cast<std::uint32_t>(
        std::min<std::size_t>(completed.size(), std::numeric_limits<std::uint32_t>::max()));
    // Never wait for completions that cannot come: only what has been issued.
    const std::uint32_t wanted
        = std::min({minCompletions, m_inPort + static_cast<std::uint32_t>(m_readyCount), limit});

    std::uint32_t got = takeReady(completed);
    LARGE_INTEGER frequency {}, start {};
    ::QueryPerformanceFrequency(&frequency);
    ::QueryPerformanceCounter(&start);
    const double timeoutTicks
        = std::chrono::duration<double>(timeout).count() * double(frequency.QuadPart);

    while (got < limit && m_inPort > 0) {
        DWORD waitMs = 0;
        if (got < wanted) {
            LARGE_INTEGER now {};
            ::QueryPerformanceCounter(&now);
            const double leftTicks = timeoutTicks - double(now.QuadPart - start.QuadPart);
            if (leftTicks > 0) {
                // Round up: a 100 us timeout must still wait, not spin.
                const double ms = leftTicks * 1000.0 / double(frequency.QuadPart);
                waitMs = static_cast<DWORD>(std::min(std::ceil(ms), double(INFINITE - 1)));
            }
        }
        ULONG n = 0;
        const ULONG room = std::min<ULONG>(limit - got, static_cast<ULONG>(m_entries.size()));
        if (!::GetQueuedCompletionStatusEx(
                m_port.get(), m_entries.data(), room, &n, waitMs, FALSE)) {
            const DWORD err = ::GetLastError();
            if (err != WAIT_TIMEOUT)
                return win32Error(err, "GetQueuedCompletionStatusEx");
            if (waitMs == 0)
                break; // polled, nothing more; or the timeout has passed
            continue; // woke early without a packet: wait for the rest of the timeout
        }
        for (ULONG i = 0; i < n; ++i) {
            const OVERLAPPED_ENTRY &e = m_entries[i];
            if (!e.lpOverlapped)
                continue; // not ours (nobody posts to this port)
            Op *op = reinterpret_cast<Op *>(e.lpOverlapped);
            complete(op, e.dwNumberOfBytesTransferred);
            completed[got++] = op->request;
            --m_inPort;
            ++m_portCompletions;
        }
        if (got >= wanted)
            break; // one batch per call, as DiskSpd does: the caller comes back
    }
    m_accepted -= got;
    return got;
}

} // namespace ioprism::platform
