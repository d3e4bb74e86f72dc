// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/sync_engine.h"

#include "core/counters.h"

#include <algorithm>
#include <cerrno>
#include <pthread.h>
#include <unistd.h>
#include <utility>

namespace ioprism::platform {

SyncEngine::SyncEngine(
    std::shared_ptr<BufferMemory> memory, std::shared_ptr<const HeldTargets> held)
    : m_memory(std::move(memory))
    , m_held(std::move(held))
{
    m_caps.async = true; // many I/Os in flight from the caller's point of view
    m_caps.directIo = true;
    m_caps.maxQueueDepth = kMaxQueueDepth;
}

SyncEngine::~SyncEngine()
{
    {
        std::lock_guard lock(m_submitMutex);
        m_stop = true;
    }
    m_submitCv.notify_all();
    // Each thread finishes the I/O it is doing (its buffer stays valid until the join).
    for (auto &t : m_threads)
        t.join();
}

core::Status SyncEngine::init(
    const core::EngineConfig &config, std::span<const core::EngineFile> files)
{
    if (!m_threads.empty() || !m_files.empty())
        return core::makeOpError(EALREADY, "sync init", {}, "the engine is already set up");
    if (config.queueDepth == 0 || config.queueDepth > kMaxQueueDepth)
        return core::makeOpError(EINVAL, "sync init", {},
            "queue depth " + std::to_string(config.queueDepth) + " is outside 1.."
                + std::to_string(kMaxQueueDepth) + " for the sync engine");
    if (files.empty())
        return core::makeOpError(EINVAL, "sync init", {}, "no files");

    m_files.reserve(files.size());
    m_fds.reserve(files.size());
    for (const auto &f : files) {
        if (f.openLater) {
            // Only the index is reserved; openFile() opens a file there.
            m_files.emplace_back();
            m_fds.push_back(-1);
            continue;
        }
        auto fd = openEngineFile(f, m_held.get());
        if (!fd)
            return fd.error();
        m_fds.push_back(fd->get());
        m_files.push_back(std::move(fd.value()));
    }
    if (auto st = m_buffers.allocate(std::max<std::uint32_t>(config.bufferCount, 1),
            config.bufferBytes, config.bufferAlignmentBytes, m_memory);
        !st)
        return st;

    m_capacity = config.queueDepth;
    m_submitted.reset(m_capacity);
    m_done.reset(m_capacity);
    m_inline = m_capacity == 1;
    if (m_inline)
        return core::Ok {};
    m_threads.reserve(m_capacity);
    try {
        for (std::uint32_t i = 0; i < m_capacity; ++i) {
            m_threads.emplace_back([this] { run(); });
            pthread_setname_np(m_threads.back().native_handle(), core::kSyncIoThreadName);
        }
    } catch (const std::system_error &e) {
        return core::makeOpError(e.code().value(), "sync init", {},
            "could not start " + std::to_string(m_capacity) + " I/O threads");
    }
    return core::Ok {};
}

core::Status SyncEngine::openFile(std::uint32_t fileIndex, const core::EngineFile &file)
{
    if (fileIndex >= m_files.size())
        return core::makeOpError(EINVAL, "open", file.path,
            "file index " + std::to_string(fileIndex) + " was not reserved by init()");
    if (m_files[fileIndex].valid())
        return core::makeOpError(
            EBUSY, "open", file.path, "file index " + std::to_string(fileIndex) + " is not closed");
    const int fd = openEngineFd(file, m_held.get());
    if (fd < 0)
        return engineOpenError(file, -fd);
    m_fds[fileIndex] = fd;
    m_files[fileIndex].reset(fd);
    return core::Ok {};
}

core::Status SyncEngine::closeFile(std::uint32_t fileIndex)
{
    if (fileIndex >= m_files.size() || !m_files[fileIndex].valid())
        return core::makeOpError(
            EBADF, "close", {}, "file index " + std::to_string(fileIndex) + " is not open");
    m_fds[fileIndex] = -1;
    // close(2) is final even when it fails (EIO from a network file system's delayed
    // write error): the descriptor is gone, the error is still the worker's to report.
    const int closed = ::close(m_files[fileIndex].release());
    const int err = errno;
    if (closed != 0 && err != EINTR)
        return core::makeOpError(err, "close", {},
            "file index " + std::to_string(fileIndex) + ": the file system reported an error");
    return core::Ok {};
}

bool SyncEngine::queue(core::IoRequest *request)
{
    if (m_outstanding >= m_capacity)
        return false;
    ++m_outstanding;
    if (m_inline) {
        m_inlineQueued = request;
        return true;
    }
    {
        std::lock_guard lock(m_submitMutex);
        m_submitted.push(request);
    }
    m_submitCv.notify_one();
    return true;
}

core::Status SyncEngine::commit()
{
    if (m_inlineQueued) {
        core::IoRequest *r = std::exchange(m_inlineQueued, nullptr);
        execute(r);
        // Only the caller's thread touches m_done here; the lock keeps one rule for it.
        std::lock_guard lock(m_doneMutex);
        m_done.push(r);
    }
    return core::Ok {};
}

void SyncEngine::execute(core::IoRequest *r)
{
    if (r->fileIndex >= m_fds.size() || r->bufferIndex >= m_buffers.count()
        || r->lengthBytes > m_buffers.bufferBytes()) {
        r->resultBytes = 0;
        r->error = EINVAL;
        return;
    }
    const int fd = m_fds[r->fileIndex];
    std::byte *buf = m_buffers.at(r->bufferIndex).data();
    const auto off = static_cast<off_t>(r->offsetBytes);
    const bool write = r->direction == core::IoDirection::Write;
    ssize_t n;
    do {
        n = write ? ::pwrite(fd, buf, r->lengthBytes, off) : ::pread(fd, buf, r->lengthBytes, off);
        // Pipes and character devices have no offset; treat them as streams.
        if (n < 0 && errno == ESPIPE)
            n = write ? ::write(fd, buf, r->lengthBytes) : ::read(fd, buf, r->lengthBytes);
    } while (n < 0 && errno == EINTR);
    // A short transfer is reported as it is: the worker decides what it means.
    r->resultBytes = n < 0 ? 0 : n;
    r->error = n < 0 ? errno : 0;
}

void SyncEngine::run()
{
    for (;;) {
        core::IoRequest *r = nullptr;
        {
            std::unique_lock lock(m_submitMutex);
            m_submitCv.wait(lock, [this] { return m_stop || !m_submitted.empty(); });
            if (m_stop)
                return;
            r = m_submitted.pop();
        }
        execute(r);
        {
            std::lock_guard lock(m_doneMutex);
            m_done.push(r);
        }
        m_doneCv.notify_one();
    }
}

core::Result<std::uint32_t> SyncEngine::reap(std::span<core::IoRequest *> completed,
    std::uint32_t minCompletions, std::chrono::nanoseconds timeout)
{
    if (completed.empty())
        return 0u;
    // A request queued and not committed at queue depth 1 cannot complete by itself.
    if (m_inlineQueued)
        (void)commit();
    // Never wait for completions that cannot come.
    const std::size_t wanted
        = std::min<std::size_t>({minCompletions, m_outstanding, completed.size()});
    constexpr auto kLongest = std::chrono::hours(24 * 365);
    std::unique_lock lock(m_doneMutex);
    if (m_done.size() < wanted)
        m_doneCv.wait_for(lock, std::min<std::chrono::nanoseconds>(timeout, kLongest),
            [&] { return m_done.size() >= wanted; });
    std::uint32_t n = 0;
    while (!m_done.empty() && n < completed.size())
        completed[n++] = m_done.pop();
    lock.unlock();
    m_outstanding -= n;
    return n;
}

} // namespace ioprism::platform
