// SPDX-License-Identifier: GPL-3.0-or-later
// The sync engine: pread/pwrite on a pool of threads, the fallback where io_uring is
// blocked (seccomp in containers, kernel.io_uring_disabled).
//
// Queue depth keeps its meaning: one thread per outstanding I/O (up to 256), so QD 32
// means 32 requests really in the kernel at once. queue() hands a request to the pool
// and returns; reap() waits on the completion list. The hand-off uses a mutex and two
// condition variables: this engine trades some CPU for portability, and its rings are
// fixed-size and allocated in init(), so the hot path still allocates nothing.
//
// At queue depth 1 there is nothing to overlap, and a hand-off would put two thread
// wake-ups inside every latency (on a VM, tens of microseconds): commit() does the I/O
// on the caller's thread, as fio's psync does, and reap() finds it done. The caller's
// submit time is stamped before commit(), so the latency is the system call's.
#pragma once

#include "core/engine.h"
#include "platform/linux/linux_backend.h"

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace ioprism::platform {

class SyncEngine : public core::IoEngine
{
public:
    static constexpr std::uint32_t kMaxQueueDepth = 256;

    // Buffers come from `memory` when given (kept between a run's steps).
    // Files are opened through `held` when given (the targets the backend prepared).
    explicit SyncEngine(std::shared_ptr<BufferMemory> memory = nullptr,
        std::shared_ptr<const HeldTargets> held = nullptr);
    ~SyncEngine() override; // stops and joins the threads; requests not started are dropped
    SyncEngine(const SyncEngine &) = delete;
    SyncEngine &operator=(const SyncEngine &) = delete;

    std::string_view name() const override { return "sync"; }
    core::EngineCapabilities capabilities() const override { return m_caps; }

    core::Status init(
        const core::EngineConfig &config, std::span<const core::EngineFile> files) override;
    std::span<std::byte> buffer(std::uint32_t index) override { return m_buffers.at(index); }
    // One open(2) / close(2) on the caller's thread. The I/O threads read a file index's
    // descriptor only for a request queued after openFile() and reaped before
    // closeFile() (the contract), and queue()/reap() pass through the hand-off mutexes,
    // which order the descriptor's write before those reads.
    core::Status openFile(std::uint32_t fileIndex, const core::EngineFile &file) override;
    core::Status closeFile(std::uint32_t fileIndex) override;

    bool queue(core::IoRequest *request) override;
    // With threads, queue() already submitted; at queue depth 1, the I/O happens here.
    core::Status commit() override;
    core::Result<std::uint32_t> reap(std::span<core::IoRequest *> completed,
        std::uint32_t minCompletions, std::chrono::nanoseconds timeout) override;

    // 0 at queue depth 1: the caller's thread does the I/O.
    std::uint32_t threadCount() const { return static_cast<std::uint32_t>(m_threads.size()); }

private:
    // A fixed-capacity FIFO of request pointers; guarded by the mutex of its owner.
    class Ring
    {
    public:
        void reset(std::size_t capacity)
        {
            m_slots.assign(capacity, nullptr);
            m_head = m_size = 0;
        }
        bool empty() const { return m_size == 0; }
        std::size_t size() const { return m_size; }
        void push(core::IoRequest *r)
        {
            m_slots[(m_head + m_size) % m_slots.size()] = r;
            ++m_size;
        }
        core::IoRequest *pop()
        {
            core::IoRequest *r = m_slots[m_head];
            m_head = (m_head + 1) % m_slots.size();
            --m_size;
            return r;
        }

    private:
        std::vector<core::IoRequest *> m_slots;
        std::size_t m_head = 0;
        std::size_t m_size = 0;
    };

    void run();
    void execute(core::IoRequest *request);

    std::vector<UniqueFd> m_files; // invalid while a file index is closed
    std::vector<int> m_fds; // raw descriptors, indexed like m_files (-1: closed, EBADF)
    std::shared_ptr<BufferMemory> m_memory;
    std::shared_ptr<const HeldTargets> m_held;
    AlignedBufferPool m_buffers;
    core::EngineCapabilities m_caps;
    std::uint32_t m_capacity = 0;
    std::uint32_t m_outstanding = 0; // queued and not reaped; only the caller's thread
    bool m_inline = false; // queue depth 1: no threads, commit() does the I/O
    core::IoRequest *m_inlineQueued = nullptr; // queued, not committed (m_inline only)

    // Locking: m_submitMutex guards m_submitted and m_stop; m_doneMutex guards m_done.
    std::mutex m_submitMutex;
    std::condition_variable m_submitCv;
    Ring m_submitted;
    bool m_stop = false;
    std::mutex m_doneMutex;
    std::condition_variable m_doneCv;
    Ring m_done;
    std::vector<std::thread> m_threads;
};

} // namespace ioprism::platform
