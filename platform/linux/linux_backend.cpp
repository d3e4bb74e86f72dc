// SPDX-License-Identifier: GPL-3.0-or-later
// The backend itself: which engine runs, the buffers kept for the engines, and where each
// kind of target is prepared (linux_test_file.cpp, linux_file_tree.cpp,
// device_safety.cpp).
#include "platform/linux/linux_backend.h"

#include "platform/common/system.h"
#include "platform/linux/held_targets.h"
#include "platform/linux/linux_preparation.h"
#include "platform/linux/sync_engine.h"
#include "platform/linux/sysfs.h"
#include "platform/linux/test_file_marks.h"
#include "platform/linux/udisks_broker.h"
#include "platform/linux/uring_engine.h"

#include <algorithm>
#include <cerrno>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <liburing.h>
#include <pthread.h>
#include <sched.h>
#include <sstream>
#include <sys/resource.h>

namespace ioprism::platform {

using core::makeOpError;

namespace {

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

} // namespace

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
    if (!m_useUring && m_options.kind != EngineKind::IoUring)
        return "sync";
    return std::string("io_uring") + (m_polling.completions ? "+poll" : "")
        + (m_polling.submissions ? "+sqpoll" : "");
}

std::optional<core::OpError> LinuxBackend::setPolling(const core::EnginePolling &polling)
{
    if (!polling.any() || m_engineError) // an engine that cannot run says so itself
        return std::nullopt;
    if (!m_useUring)
        return makeOpError(EOPNOTSUPP, "engine polling", {},
            std::string("polled completions and a submission thread are modes of io_uring, "
                        "and this run uses the sync engine")
                + (m_options.kind == EngineKind::Sync ? ": choose io_uring or auto"
                                                      : " because io_uring is unavailable here"));
    m_polling = polling;
    return std::nullopt;
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
        return std::unique_ptr<core::IoEngine>(
            std::make_unique<UringEngine>(UringOptions {.lockedBudgetBytes = m_lockedBudget,
                .bufferMemory = m_bufferMemory,
                .held = m_held,
                .pollCompletions = m_polling.completions,
                .submissionThread = m_polling.submissions,
                .queuePolls = m_options.queuePolls}));
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
    // running out of locked memory (RLIMIT_MEMLOCK) with many workers. Never when the run
    // asked for io_uring's polling: the sync engine has none.
    if (!m_useUring || m_options.kind != EngineKind::Auto || m_polling.any()
        || why.operation != "io_uring_queue_init" || why.code != std::errc::not_enough_memory)
        return why;
    if (m_fallbacks++ == 0)
        addNotice("io_uring could not set up a ring for every worker (" + why.code.message()
            + "): those workers use the sync engine (pread/pwrite threads), so this run mixes "
              "engines. "
            + lockedMemoryAdvice());
    return std::unique_ptr<core::IoEngine>(std::make_unique<SyncEngine>(m_bufferMemory, m_held));
}

void LinuxBackend::chooseEngine(const core::EngineDemand &demand)
{
    if (!m_useUring || m_options.kind != EngineKind::Auto || m_polling.any()
        || demand.deepestWorkerQueue > kAutoSyncDeepestQueue)
        return;
    std::vector<std::string> blocking;
    for (const std::string &path : demand.directTargets) {
        const UniqueFd fd(
            openEngineFd({.path = path, .cacheMode = core::CacheMode::Direct}, m_held.get()));
        // Not opened (-errno): not told, so io_uring stays; the workers open it and say why.
        if (fd.get() >= 0 && takesIoWithoutBlocking(fd.get()) == false)
            blocking.push_back(path);
    }
    if (blocking.empty())
        return;
    m_useUring = false;
    const std::uint32_t depth = demand.deepestWorkerQueue;
    addNotice(fmt::format("engine auto: the sync engine (pread/pwrite), not io_uring: {} {} not "
                          "take I/O without blocking (a read with RWF_NOWAIT is refused: no "
                          "nowait support), so at {} outstanding I/O{} per worker io_uring would "
                          "hand every I/O to a kernel worker thread and measure that hand-off, "
                          "not the device; --engine io_uring measures it anyway",
        fmt::join(blocking, ", "), blocking.size() == 1 ? "does" : "do", depth,
        depth == 1 ? "" : "s"));
}

void LinuxBackend::nameCurrentThread(const char *name)
{
    platform::nameCurrentThread(name);
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
    const auto request = [&]() -> PreparationRequest {
        return {target, options, progress, m_options, *m_held,
            [this](std::string text) { addNotice(std::move(text)); }};
    };
    // Files and trees are opened with this user's own rights; a device may be opened by
    // the broker (prepareDevice says so).
    const auto openedByUser = [&](core::Result<core::TargetInfo> info) {
        if (info && info->openedBy.empty()) {
            info->openedBy = "user";
            info->openFlags = openFlagsText(
                engineOpenFlags(options.needWrite, target.cacheMode, target.writeThrough), false);
        }
        return info;
    };
    switch (target.kind) {
    case core::TargetKind::TestFile:
        return openedByUser(prepareHeldTestFile(request()));
    case core::TargetKind::BlockDevice:
    case core::TargetKind::Partition:
        return prepareDevice(target, options);
    case core::TargetKind::Volume:
    case core::TargetKind::PhysicalDrive:
        break;
    case core::TargetKind::FileTree:
        return openedByUser(prepareHeldFileTree(request()));
    }
    return makeOpError(EINVAL, "prepare target", target.path,
        "volumes and physical drives are Windows targets: on Linux choose a "
        "block device, a partition or a test file");
}

core::Status LinuxBackend::discardTestFile(const std::string &path)
{
    return removeTestFile(path);
}

core::Status LinuxBackend::removeFileTree(const std::string &root, const core::FileTree &tree)
{
    return platform::removeFileTree(root, tree);
}

} // namespace ioprism::platform
