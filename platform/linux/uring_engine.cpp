// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/uring_engine.h"

#include "core/profile/units.h"
#include "platform/linux/block_devices.h"
#include "platform/linux/sysfs.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/uio.h>
#include <system_error>
#include <unistd.h>

namespace ioprism::platform {

namespace {

constexpr std::uint32_t kMaxQueueDepth = 32768; // IORING_MAX_ENTRIES
constexpr std::uint32_t kMaxRegisteredBuffers = 1u << 14; // IORING_MAX_REG_BUFFERS

// A request the engine refused to issue (bad index or length) travels as a NOP whose
// user_data has this bit set; IoRequest is at least 8-byte aligned, so bit 0 is free.
constexpr std::uintptr_t kInvalidTag = 1;
static_assert(alignof(core::IoRequest) >= 2, "the invalid-request tag needs a free low bit");

std::string errnoName(int err)
{
    switch (err) {
    case EPERM:
        return "EPERM";
    case EACCES:
        return "EACCES";
    case ENOSYS:
        return "ENOSYS";
    case EINVAL:
        return "EINVAL";
    case ENOMEM:
        return "ENOMEM";
    default:
        return std::to_string(err);
    }
}

} // namespace

PollQueues pollQueuesOf(
    const std::string &path, const std::function<bool(const std::string &disk)> &queuePolls)
{
    PollQueues q;
    const auto name = blockDeviceCarrying(path);
    if (!name)
        return q;
    q.disk = wholeDiskOf(*name).value_or(*name);
    q.available = queuePolls ? queuePolls(q.disk) : readQueueAttribute(q.disk, "io_poll") == "1";
    return q;
}

std::optional<core::OpError> pollRefusal(const std::string &path, core::CacheMode cacheMode,
    const std::function<bool(const std::string &disk)> &queuePolls)
{
    if (cacheMode != core::CacheMode::Direct)
        return core::makeOpError(EINVAL, "polled completions", path,
            "polling needs direct (unbuffered) I/O, and this target goes through the page cache");
    const PollQueues poll = pollQueuesOf(path, queuePolls);
    if (poll.available)
        return std::nullopt;
    if (poll.disk.empty())
        return core::makeOpError(EOPNOTSUPP, "polled completions", path,
            "no block device carries it (a RAM or network file system?), so no queue can be "
            "polled for its completions");
    const std::string value = readQueueAttribute(poll.disk, "io_poll");
    return core::makeOpError(EOPNOTSUPP, "polled completions", path,
        fmt::format("the device's queue does not poll: /sys/block/{}/queue/io_poll is {} (an "
                    "NVMe drive polls once the nvme driver has poll queues, the "
                    "nvme.poll_queues=N module parameter)",
            poll.disk, value.empty() ? "missing" : value));
}

UringEngine::UringEngine(const UringOptions &options)
    : m_options(options)
{
    m_caps.async = true;
    m_caps.directIo = true;
    m_caps.maxQueueDepth = kMaxQueueDepth;
}

UringEngine::~UringEngine()
{
    if (m_ringReady) {
        drainBeforeExit();
        // From a thread other than the issuer, the registered descriptor's index names
        // that thread's own ring (or none): the ring is left to the process's exit rather
        // than unregister someone else's.
        if (!m_ringRegistered || std::this_thread::get_id() == m_issuer)
            io_uring_queue_exit(&m_ring);
    }
    if (m_budgetTakenBytes > 0 && m_options.lockedBudgetBytes)
        m_options.lockedBudgetBytes->fetch_add(m_budgetTakenBytes);
}

std::string lockedMemoryAdvice()
{
    rlimit limit {};
    if (::getrlimit(RLIMIT_MEMLOCK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return {};
    return "io_uring's rings and registered buffers count against the locked-memory limit "
           "(RLIMIT_MEMLOCK, "
        + core::describeSize(limit.rlim_cur)
        + " here), which this many workers use up: raise it (ulimit -l; memlock in "
          "/etc/security/limits.conf; LimitMEMLOCK= for a service), run as root, use fewer "
          "workers, or the sync engine";
}

void UringEngine::drainBeforeExit()
{
    // In-flight I/O may still write into our buffers (buffered reads run on io-wq
    // threads that copy into user memory). Wait for it; if that fails (called from a
    // thread that is not the ring's issuer), keep the buffers mapped rather than risk
    // the kernel writing into reused memory.
    m_pending = 0;
    std::array<core::IoRequest *, 64> sink {};
    for (int attempt = 0; m_inKernel > 0 && attempt < 100; ++attempt) {
        __kernel_timespec ts {.tv_sec = 0, .tv_nsec = 100'000'000};
        io_uring_cqe *cqe = nullptr;
        const int ret = io_uring_wait_cqes(&m_ring, &cqe, 1, &ts, nullptr);
        if (ret < 0 && ret != -ETIME && ret != -EINTR && ret != -EAGAIN)
            break;
        drain(sink);
    }
    if (m_inKernel > 0)
        m_buffers.leak();
}

core::Status UringEngine::setupRing(const core::EngineConfig &config)
{
    const unsigned sqEntries = std::bit_ceil(std::max<std::uint32_t>(config.queueDepth, 1));
    // Flag sets from best to most compatible; each EINVAL moves to the next one, the way
    // fio retries (DEFER_TASKRUN needs 6.1, COOP_TASKRUN and SUBMIT_ALL 5.18/5.19). The
    // polling modes asked for are in every set: never dropped in silence. A submission
    // thread excludes the task-run flags (the kernel thread runs the completion work).
    const unsigned extra = (m_options.pollCompletions ? IORING_SETUP_IOPOLL : 0u)
        | (m_options.submissionThread ? IORING_SETUP_SQPOLL : 0u);
    const unsigned excluded = m_options.submissionThread
        ? unsigned(IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN)
        : 0u;
    const unsigned attempts[] = {
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN
            | IORING_SETUP_SUBMIT_ALL | IORING_SETUP_CQSIZE,
        IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SUBMIT_ALL | IORING_SETUP_CQSIZE,
        IORING_SETUP_CQSIZE,
        0u,
    };
    int ret = -EINVAL;
    for (unsigned flags : attempts) {
        io_uring_params params {};
        params.flags = (flags & ~excluded) | extra;
        params.cq_entries = sqEntries * 2;
        ret = io_uring_queue_init_params(sqEntries, &m_ring, &params);
        if (ret == 0) {
            m_setupFlags = params.flags;
            break;
        }
        if (ret != -EINVAL)
            break;
    }
    if (ret < 0) {
        std::string detail;
        if (m_options.submissionThread && (ret == -EPERM || ret == -EINVAL))
            detail = "the kernel refused a submission thread (SQPOLL; before Linux 5.11 it "
                     "needs CAP_SYS_ADMIN): run without it";
        else if (m_options.pollCompletions && ret == -EINVAL)
            detail = "the kernel refused polled completions (IOPOLL): run without them";
        else if (ret == -EPERM || ret == -EACCES || ret == -ENOSYS)
            detail = "io_uring is disabled here (seccomp or kernel.io_uring_disabled): "
                     "use the sync engine";
        else if (ret == -ENOMEM)
            detail = lockedMemoryAdvice();
        return core::makeOpError(-ret, "io_uring_queue_init", {}, detail);
    }
    m_ringReady = true;
    m_issuer = std::this_thread::get_id();
    // Best effort (Linux 5.18): without it each enter looks the descriptor up instead.
    m_ringRegistered = io_uring_register_ring_fd(&m_ring) == 1;
    // Completions appear only when the issuer enters the kernel for them with
    // DEFER_TASKRUN, and with IOPOLL unless the submission thread polls for it.
    m_completionsNeedEnter = (m_setupFlags & IORING_SETUP_DEFER_TASKRUN)
        || ((m_setupFlags & IORING_SETUP_IOPOLL) && !(m_setupFlags & IORING_SETUP_SQPOLL));
    m_cqes.resize(m_ring.cq.ring_entries);
    return core::Ok {};
}

namespace {

// Polled completions (IOPOLL) work only on direct I/O to a device whose queue polls: said
// before the ring is made, with the target named, rather than as the kernel's EOPNOTSUPP
// on the first I/O.
core::Status checkPolledFiles(std::span<const core::EngineFile> files,
    const std::function<bool(const std::string &disk)> &queuePolls)
{
    for (const auto &f : files) {
        if (f.openLater)
            continue; // openFile() checks what it opens
        if (auto refusal = pollRefusal(f.path, f.cacheMode, queuePolls))
            return *refusal;
    }
    return core::Ok {};
}

} // namespace

core::Status UringEngine::init(
    const core::EngineConfig &config, std::span<const core::EngineFile> files)
{
    if (m_ringReady || !m_files.empty())
        return core::makeOpError(EALREADY, "io_uring init", {}, "the engine is already set up");
    if (config.queueDepth == 0 || config.queueDepth > kMaxQueueDepth)
        return core::makeOpError(EINVAL, "io_uring init", {},
            "queue depth " + std::to_string(config.queueDepth) + " is outside 1.."
                + std::to_string(kMaxQueueDepth));
    if (files.empty())
        return core::makeOpError(EINVAL, "io_uring init", {}, "no files");
    if (m_options.pollCompletions) {
        if (auto st = checkPolledFiles(files, m_options.queuePolls); !st)
            return st;
    }
    if (auto st = openFiles(files); !st)
        return st;
    if (auto st = m_buffers.allocate(std::max<std::uint32_t>(config.bufferCount, 1),
            config.bufferBytes, config.bufferAlignmentBytes, m_options.bufferMemory);
        !st)
        return st;
    if (auto st = setupRing(config); !st)
        return st;

    // Registration saves the kernel a page-table walk and a file lookup per I/O.
    if (m_options.registerBuffers)
        registerBuffers();
    else
        m_registrationNote = "buffer registration turned off";
    registerFiles();

    m_caps.registeredBuffers = m_fixedBuffers;
    m_caps.registeredFiles = m_fixedFiles;
    m_caps.polledCompletions = (m_setupFlags & IORING_SETUP_IOPOLL) != 0;
    m_caps.submissionThread = (m_setupFlags & IORING_SETUP_SQPOLL) != 0;
    m_caps.maxQueueDepth = m_ring.sq.ring_entries;
    return core::Ok {};
}

core::Status UringEngine::openFiles(std::span<const core::EngineFile> files)
{
    m_files.reserve(files.size());
    m_slots.reserve(files.size());
    for (const auto &f : files) {
        if (f.openLater) {
            // Only the index is reserved; openFile() opens a file there.
            m_files.emplace_back();
            m_slots.push_back({});
            continue;
        }
        auto fd = openEngineFile(f, m_options.held.get());
        if (!fd)
            return fd.error();
        m_slots.push_back({.sqeFd = fd->get()});
        m_files.push_back(std::move(fd.value()));
    }
    return core::Ok {};
}

// Registered buffers are pinned, counted against RLIMIT_MEMLOCK, which the workers'
// rings share (m_options.lockedBudgetBytes): a worker that would leave the others too
// little, or that the kernel refuses, runs with plain reads and writes and says why in
// m_registrationNote. Never a failure: registration only saves time.
void UringEngine::registerBuffers()
{
    if (m_buffers.count() > kMaxRegisteredBuffers) {
        m_registrationNote
            = "buffers not registered: more than " + std::to_string(kMaxRegisteredBuffers);
        return;
    }
    const std::int64_t bytes
        = std::int64_t(m_buffers.count()) * std::int64_t(m_buffers.bufferBytes() + 4096);
    if (m_options.lockedBudgetBytes && m_options.lockedBudgetBytes->fetch_sub(bytes) < bytes) {
        m_options.lockedBudgetBytes->fetch_add(bytes);
        m_registrationNote = "buffers not registered: the locked-memory limit "
                             "(RLIMIT_MEMLOCK) is kept for the other workers' rings";
        return;
    }
    m_budgetTakenBytes = m_options.lockedBudgetBytes ? bytes : 0;
    std::vector<iovec> iov(m_buffers.count());
    for (std::uint32_t i = 0; i < m_buffers.count(); ++i)
        iov[i] = {m_buffers.at(i).data(), m_buffers.at(i).size()};
    const int ret
        = io_uring_register_buffers(&m_ring, iov.data(), static_cast<unsigned>(iov.size()));
    if (ret == 0) {
        m_fixedBuffers = true;
        return;
    }
    if (m_budgetTakenBytes > 0)
        m_options.lockedBudgetBytes->fetch_add(m_budgetTakenBytes);
    m_budgetTakenBytes = 0;
    m_registrationNote = "buffers not registered (" + errnoName(-ret) + ": "
        + std::system_category().message(-ret)
        + "; RLIMIT_MEMLOCK too low?): using plain reads/writes";
}

// Files opened later are not registered (their slots stay empty, -1): registering each
// would add a system call to every open and close. A refusal is a note, not a failure.
void UringEngine::registerFiles()
{
    const bool anyOpenNow
        = std::any_of(m_files.begin(), m_files.end(), [](const UniqueFd &f) { return f.valid(); });
    if (!m_options.registerFiles || !anyOpenNow)
        return;
    std::vector<int> fds(m_slots.size());
    for (std::size_t i = 0; i < fds.size(); ++i)
        fds[i] = m_slots[i].sqeFd;
    const int ret = io_uring_register_files(&m_ring, fds.data(), static_cast<unsigned>(fds.size()));
    if (ret == 0) {
        m_fixedFiles = true;
        for (std::size_t i = 0; i < m_slots.size(); ++i)
            if (m_files[i].valid())
                m_slots[i] = {.sqeFd = static_cast<int>(i), .fixed = true};
    } else {
        if (!m_registrationNote.empty())
            m_registrationNote += "; ";
        m_registrationNote += "files not registered (" + errnoName(-ret) + ")";
    }
}

core::Status UringEngine::openFile(std::uint32_t fileIndex, const core::EngineFile &file)
{
    if (!m_ringReady || fileIndex >= m_slots.size())
        return core::makeOpError(EINVAL, "open", file.path,
            "file index " + std::to_string(fileIndex) + " was not reserved by init()");
    if (m_files[fileIndex].valid())
        return core::makeOpError(
            EBUSY, "open", file.path, "file index " + std::to_string(fileIndex) + " is not closed");
    if ((m_setupFlags & IORING_SETUP_IOPOLL) && file.cacheMode != core::CacheMode::Direct)
        return core::makeOpError(EINVAL, "polled completions", file.path,
            "polling needs direct (unbuffered) I/O, and this file goes through the page cache");
    const int fd = openEngineFd(file, m_options.held.get());
    if (fd < 0)
        return engineOpenError(file, -fd);
    m_slots[fileIndex] = {.sqeFd = fd, .fixed = false};
    m_files[fileIndex].reset(fd);
    return core::Ok {};
}

core::Status UringEngine::closeFile(std::uint32_t fileIndex)
{
    if (fileIndex >= m_slots.size() || !m_files[fileIndex].valid())
        return core::makeOpError(
            EBADF, "close", {}, "file index " + std::to_string(fileIndex) + " is not open");
    Slot &slot = m_slots[fileIndex];
    if (slot.fixed) {
        // The registered table holds its own reference: drop it, or the file would stay
        // open in the kernel after close(2). Its next open is used through the plain
        // descriptor, so this costs one extra system call once per registered file.
        int none = -1;
        const int ret = io_uring_register_files_update(&m_ring, fileIndex, &none, 1);
        if (ret < 0)
            return core::makeOpError(-ret, "io_uring_register_files_update", {},
                "could not release registered file index " + std::to_string(fileIndex));
    }
    slot = {};
    // close(2) is final even when it fails (EIO from a network file system's delayed
    // write error): the descriptor is gone, the error is still the worker's to report.
    const int closed = ::close(m_files[fileIndex].release());
    const int err = errno;
    if (closed != 0 && err != EINTR)
        return core::makeOpError(err, "close", {},
            "file index " + std::to_string(fileIndex) + ": the file system reported an error");
    return core::Ok {};
}

bool UringEngine::queue(core::IoRequest *request)
{
    io_uring_sqe *sqe = io_uring_get_sqe(&m_ring);
    if (!sqe)
        return false;

    const bool valid = request->fileIndex < m_slots.size()
        && request->bufferIndex < m_buffers.count()
        && request->lengthBytes <= m_buffers.bufferBytes();
    if (!valid) [[unlikely]] {
        io_uring_prep_nop(sqe);
        io_uring_sqe_set_data(
            sqe, reinterpret_cast<void *>(reinterpret_cast<std::uintptr_t>(request) | kInvalidTag));
        ++m_pending;
        return true;
    }

    void *buf = m_buffers.at(request->bufferIndex).data();
    const Slot &slot = m_slots[request->fileIndex];
    const int fd = slot.sqeFd;
    const bool write = request->direction == core::IoDirection::Write;
    if (m_fixedBuffers) {
        const int bufIndex = static_cast<int>(request->bufferIndex);
        if (write)
            io_uring_prep_write_fixed(
                sqe, fd, buf, request->lengthBytes, request->offsetBytes, bufIndex);
        else
            io_uring_prep_read_fixed(
                sqe, fd, buf, request->lengthBytes, request->offsetBytes, bufIndex);
    } else {
        if (write)
            io_uring_prep_write(sqe, fd, buf, request->lengthBytes, request->offsetBytes);
        else
            io_uring_prep_read(sqe, fd, buf, request->lengthBytes, request->offsetBytes);
    }
    if (slot.fixed)
        sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data(sqe, request);
    ++m_pending;
    return true;
}

core::Status UringEngine::commit()
{
    while (m_pending > 0) {
        const int ret = io_uring_submit(&m_ring);
        if (ret >= 0) {
            const auto accepted
                = std::min<std::uint32_t>(static_cast<std::uint32_t>(ret), m_pending);
            m_pending -= accepted;
            m_inKernel += accepted;
            // The kernel took fewer than queued only when it is short of resources: the
            // rest stay in the SQ ring and go with the next commit, after a reap.
            return core::Ok {};
        }
        if (ret == -EINTR)
            continue;
        if (ret == -EAGAIN || ret == -EBUSY)
            return core::Ok {}; // completions must be reaped first; retried next commit
        return core::makeOpError(-ret, "io_uring_submit");
    }
    return core::Ok {};
}

std::uint32_t UringEngine::drain(std::span<core::IoRequest *> completed)
{
    if (completed.empty())
        return 0;
    const unsigned want = static_cast<unsigned>(std::min(completed.size(), m_cqes.size()));
    const unsigned n = io_uring_peek_batch_cqe(&m_ring, m_cqes.data(), want);
    std::uint32_t out = 0;
    for (unsigned i = 0; i < n; ++i) {
        const io_uring_cqe *cqe = m_cqes[i];
        // Kernels without IORING_FEAT_EXT_ARG make liburing post its own timeout SQE.
        if (cqe->user_data == LIBURING_UDATA_TIMEOUT)
            continue;
        auto raw = static_cast<std::uintptr_t>(cqe->user_data);
        auto *req = reinterpret_cast<core::IoRequest *>(raw & ~kInvalidTag);
        if (raw & kInvalidTag) [[unlikely]] {
            req->resultBytes = 0;
            req->error = EINVAL;
        } else if (cqe->res < 0) {
            req->resultBytes = 0;
            req->error = -cqe->res;
        } else {
            req->resultBytes = cqe->res;
            req->error = 0;
        }
        completed[out++] = req;
    }
    io_uring_cq_advance(&m_ring, n);
    m_inKernel -= std::min(m_inKernel, out);
    return out;
}

core::Result<std::uint32_t> UringEngine::reap(std::span<core::IoRequest *> completed,
    std::uint32_t minCompletions, std::chrono::nanoseconds timeout)
{
    if (completed.empty() || !m_ringReady)
        return 0u;
    // Never wait for completions that cannot come (nothing submitted, or more than fit).
    const std::uint32_t limit = static_cast<std::uint32_t>(
        std::min<std::size_t>(completed.size(), std::numeric_limits<std::uint32_t>::max()));
    const std::uint32_t wanted = std::min({minCompletions, m_inKernel, limit});

    std::uint32_t got = drain(completed);
    // With DEFER_TASKRUN or IOPOLL, finished I/O becomes visible only when the issuer
    // enters the kernel asking for events: enter once before saying "nothing yet".
    const auto flushOnce = [&]() -> core::Status {
        const int ret = io_uring_get_events(&m_ring);
        if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
            return core::makeOpError(-ret, "io_uring_get_events");
        got += drain(completed.subspan(got));
        return core::Ok {};
    };
    if (got >= wanted) {
        if (got == 0 && m_inKernel > 0 && m_completionsNeedEnter)
            if (auto st = flushOnce(); !st)
                return st.error();
        return got;
    }

    // got < wanted: something is in flight and the caller wants to wait for it.
    constexpr auto kLongest = std::chrono::hours(24 * 365);
    const auto deadline
        = std::chrono::steady_clock::now() + std::min<std::chrono::nanoseconds>(timeout, kLongest);
    bool entered = false;
    for (;;) {
        const auto remaining = deadline - std::chrono::steady_clock::now();
        if (remaining <= std::chrono::nanoseconds::zero()) {
            if (!entered && m_completionsNeedEnter)
                if (auto st = flushOnce(); !st)
                    return st.error();
            break;
        }
        const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(remaining).count();
        __kernel_timespec ts {.tv_sec = ns / 1'000'000'000, .tv_nsec = ns % 1'000'000'000};
        io_uring_cqe *cqe = nullptr;
        const int ret = io_uring_wait_cqes(&m_ring, &cqe, wanted - got, &ts, nullptr);
        entered = true;
        if (ret < 0 && ret != -ETIME && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
            return core::makeOpError(-ret, "io_uring_wait_cqes");
        got += drain(completed.subspan(got));
        if (got >= wanted || ret == -ETIME)
            break;
    }
    return got;
}

} // namespace ioprism::platform
