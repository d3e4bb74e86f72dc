// SPDX-License-Identifier: GPL-3.0-or-later
// The io_uring engine: one ring per worker, fixed buffers and files, batched submit and
// reap. It follows what fio's io_uring engine does at full speed (REFERENCE.md):
//
//  * ring flags SINGLE_ISSUER | DEFER_TASKRUN | COOP_TASKRUN (+ SUBMIT_ALL, CQSIZE),
//    dropped step by step when an older kernel answers EINVAL;
//  * buffers and files registered with the kernel (read_fixed / write_fixed and
//    IOSQE_FIXED_FILE), with a fallback to plain reads and writes when registration is
//    refused (RLIMIT_MEMLOCK without CAP_IPC_LOCK, too many buffers);
//  * files opened while the engine runs (openFile: a file tree's slots, Iometer's
//    connection rate) are used through their plain descriptor, never registered, as fio
//    does without `registerfiles`: one open(2) and one close(2) each, nothing more. A
//    registered file that closeFile() closes has its table slot cleared in the same call
//    (the table holds its own reference, so without that the file would stay open in the
//    kernel and the close would measure nothing); reopened, it is used through its plain
//    descriptor too, so only its first close costs the extra io_uring_register;
//  * one io_uring_submit per commit(), completions peeked in a batch, and a kernel
//    entry only when the caller must wait or when completions can only appear by
//    entering (DEFER_TASKRUN runs completion work only when the issuer asks for events;
//    IOPOLL finds completions only by polling).
//
// The hot path allocates nothing and takes no lock. The engine must be used on the
// thread that called init() (SINGLE_ISSUER), and destroyed there too: the destructor
// waits for in-flight I/O, which only the issuer can reap (from another thread the
// buffers are leaked rather than freed under the kernel's feet).
//
// reap() timeouts: timeout <= 0 never blocks (but still enters the kernel once when
// completions can only be seen that way). With IOPOLL the kernel polls until the
// minimum is reached and may overrun the timeout; polled I/O completes in microseconds.
// With SQPOLL (a kernel thread submits, and with IOPOLL polls too) completions appear
// without entering; DEFER_TASKRUN and COOP_TASKRUN cannot be combined with it.
#pragma once

#include "core/engine.h"
#include "platform/linux/linux_backend.h"

#include <atomic>
#include <functional>
#include <liburing.h>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace ioprism::platform {

struct UringOptions {
    bool registerBuffers = true; // false: plain read/write (benchmarks, tests)
    bool registerFiles = true;
    // Locked memory the engines of one backend may still take for registered buffers,
    // shared by them (null: no limit, e.g. with CAP_IPC_LOCK). Registered buffers count
    // against RLIMIT_MEMLOCK, and so do rings on recent kernels: the backend keeps part
    // of the limit for the rings, so that many workers get rings without registered
    // buffers rather than no rings at all.
    std::shared_ptr<std::atomic<std::int64_t>> lockedBudgetBytes;
    // Where buffers come from when given: memory kept between a run's steps.
    std::shared_ptr<BufferMemory> bufferMemory;
    // The targets the backend prepared: files are opened through them (null: by path).
    std::shared_ptr<const HeldTargets> held;
    // Peak mode (core::EnginePolling): polled completions (IORING_SETUP_IOPOLL), on
    // direct I/O to devices whose queues poll only, and a kernel submission thread
    // (IORING_SETUP_SQPOLL, idle after 1 s without I/O).
    bool pollCompletions = false;
    bool submissionThread = false;
    // Replaces reading queue/io_poll (BackendOptions::queuePolls); empty: sysfs.
    std::function<bool(const std::string &disk)> queuePolls;
};

// Whether polled completions (IOPOLL) can work for `path`: the request queue that
// decides is the whole disk of the device carrying it (blockDeviceCarrying, as for the
// counters and the device description; a partition has no queue of its own).
struct PollQueues {
    std::string disk; // e.g. "nvme0n1" for a file on nvme0n1p2; "" when no device carries it
    bool available = false; // its queue/io_poll is 1
};
PollQueues pollQueuesOf(
    const std::string &path, const std::function<bool(const std::string &disk)> &queuePolls = {});

// Why I/O on `path` with `cacheMode` cannot complete by polling, naming the attribute
// that says so (/sys/block/DISK/queue/io_poll), or nullopt when it can. The backend
// asks before any target is prepared, the engine again when it opens the files.
std::optional<core::OpError> pollRefusal(const std::string &path, core::CacheMode cacheMode,
    const std::function<bool(const std::string &disk)> &queuePolls = {});

// The detail of an error when io_uring cannot get memory: RLIMIT_MEMLOCK and how to
// raise it ("" when the limit is not the likely cause).
std::string lockedMemoryAdvice();

class UringEngine : public core::IoEngine
{
public:
    explicit UringEngine(const UringOptions &options = {});
    ~UringEngine() override;
    UringEngine(const UringEngine &) = delete;
    UringEngine &operator=(const UringEngine &) = delete;

    std::string_view name() const override { return "io_uring"; }
    core::EngineCapabilities capabilities() const override { return m_caps; }

    core::Status init(
        const core::EngineConfig &config, std::span<const core::EngineFile> files) override;
    std::span<std::byte> buffer(std::uint32_t index) override { return m_buffers.at(index); }
    core::Status openFile(std::uint32_t fileIndex, const core::EngineFile &file) override;
    core::Status closeFile(std::uint32_t fileIndex) override;

    bool queue(core::IoRequest *request) override;
    core::Status commit() override;
    core::Result<std::uint32_t> reap(std::span<core::IoRequest *> completed,
        std::uint32_t minCompletions, std::chrono::nanoseconds timeout) override;

    // The IORING_SETUP_* flags the ring was made with (after fallbacks).
    unsigned setupFlags() const { return m_setupFlags; }
    // Whether the ring's descriptor is registered with the kernel
    // (io_uring_register_ring_fd): each io_uring_enter then skips looking the ring up
    // in the process's shared file table, an atomic reference count taken and dropped
    // twice per I/O at queue depth 1.
    bool ringRegistered() const { return m_ringRegistered; }
    // Why buffers or files are not registered ("" when both are): for notices.
    const std::string &registrationNote() const { return m_registrationNote; }
    // Submitted to the kernel and not reaped yet.
    std::uint32_t inFlight() const { return m_inKernel; }
    // Whether I/O on this file index goes through the registered file table (tests).
    bool usesRegisteredFile(std::uint32_t fileIndex) const
    {
        return fileIndex < m_slots.size() && m_slots[fileIndex].fixed;
    }

private:
    std::uint32_t drain(std::span<core::IoRequest *> completed);
    core::Status setupRing(const core::EngineConfig &config);
    // init()'s steps: the files opened (or their indexes reserved), then, once the ring
    // is set up, its buffers and files registered where that is possible.
    core::Status openFiles(std::span<const core::EngineFile> files);
    void registerBuffers();
    void registerFiles();
    void drainBeforeExit();

    UringOptions m_options;
    io_uring m_ring {};
    bool m_ringReady = false;
    bool m_ringRegistered = false;
    // The issuer: the registered ring descriptor is its own (per thread), so only it may
    // unregister it (from another thread, the same index would name that thread's ring).
    std::thread::id m_issuer;
    unsigned m_setupFlags = 0;
    // True when completions only appear after entering the kernel with GETEVENTS.
    bool m_completionsNeedEnter = false;

    // What an SQE for a file index carries: its registered index with IOSQE_FIXED_FILE,
    // or its plain descriptor (-1 while closed: the kernel fails such I/O with EBADF).
    struct Slot {
        int sqeFd = -1;
        bool fixed = false;
    };
    std::vector<UniqueFd> m_files; // owned descriptors; invalid while a file index is closed
    std::vector<Slot> m_slots; // indexed like m_files
    AlignedBufferPool m_buffers;
    std::vector<io_uring_cqe *> m_cqes; // scratch for io_uring_peek_batch_cqe

    bool m_fixedBuffers = false;
    bool m_fixedFiles = false;
    std::uint32_t m_pending = 0; // queued, not yet accepted by the kernel
    std::uint32_t m_inKernel = 0; // accepted by the kernel, completion not reaped
    core::EngineCapabilities m_caps;
    std::string m_registrationNote;
    std::int64_t m_budgetTakenBytes = 0; // from m_options.lockedBudgetBytes
};

} // namespace ioprism::platform
