// SPDX-License-Identifier: GPL-3.0-or-later
// The I/O engine contract: queue, commit, reap (the split fio proved).
//
//  * queue() fills one request into the engine's submission queue without blocking;
//  * commit() hands everything queued to the kernel (io_uring_submit; a no-op for IOCP
//    and the sync engine's thread hand-off, which submit at queue time). At queue depth
//    1 the sync engine does the I/O itself in commit(), on the caller's thread: commit()
//    can then block for one whole I/O (for ever on a hung device), the stop flag unseen;
//  * reap() collects completed requests, waiting for at least minCompletions or until
//    the timeout.
//
// One engine instance per worker thread, created and used on that thread only. The hot
// path (queue/commit/reap) allocates nothing and takes no lock in the async engines.
// Timestamps are NOT the engine's job: the worker stamps submit and reap times on its
// own monotonic clock around these calls, so every engine is timed the same way.
//
// Failure behaviour: init() reports setup failures as OpError; per-I/O failures come
// back in IoRequest::error, never as exceptions; a failed commit/reap is an OpError that
// stops the worker (and the run) cleanly.
#pragma once

#include "core/engine_kind.h"
#include "core/io_direction.h"
#include "core/profile/profile.h"
#include "core/result.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ioprism::core {

// What an engine can do, checked once when it is made.
struct EngineCapabilities {
    bool async = false; // many I/Os in flight from one thread
    bool directIo = false; // honours O_DIRECT / FILE_FLAG_NO_BUFFERING
    bool registeredBuffers = false; // buffers registered with the kernel
    bool registeredFiles = false;
    bool polledCompletions = false; // io_uring IOPOLL
    bool submissionThread = false; // io_uring SQPOLL
    std::uint32_t maxQueueDepth = 1; // per engine instance (all of a worker's targets)
};

// One request slot. The worker owns an array of them, one per outstanding I/O; a slot
// is handed to queue() and comes back from reap() with result and error filled.
struct IoRequest {
    // Set by the worker before queue().
    IoDirection direction = IoDirection::Read;
    std::uint32_t fileIndex = 0; // index into the files given to init()
    std::uint32_t bufferIndex = 0; // index into the engine's buffers
    std::uint32_t lengthBytes = 0;
    std::uint64_t offsetBytes = 0;
    std::uint64_t userData = 0; // the worker's own bookkeeping (slot index etc.)
    std::int64_t submitNs = 0; // worker's monotonic clock, stamped just before commit
    // Set by the engine on completion.
    std::int64_t resultBytes = 0; // bytes transferred
    int error = 0; // 0, or a system error code (errno / GetLastError), system_category
};

struct EngineFile {
    std::string path;
    bool write = false; // open for writing
    CacheMode cacheMode = CacheMode::Direct;
    bool writeThrough = false;
    // init() only reserves this file's index; openFile() opens a file there and
    // closeFile() closes it, as often as the worker likes (a file tree's operations, one
    // slot each; `path` is then empty). Such files are never registered with the kernel.
    bool openLater = false;
    // A file of a file tree: its index in the tree (core::fileTreeFiles' order) whose
    // folder `treeRoot` names. A backend that holds the tree's folders opens the file
    // there by its own name, never by walking `path` again (docs/targets.md).
    std::optional<std::uint64_t> treeFileIndex;
    std::string treeRoot;
};

struct EngineConfig {
    std::uint32_t queueDepth = 1; // total requests in flight for this engine
    std::uint32_t bufferCount = 1; // usually == queueDepth
    std::uint32_t bufferBytes = 4096;
    std::uint32_t bufferAlignmentBytes = 4096;
};

class IoEngine
{
public:
    virtual ~IoEngine() = default;
    virtual std::string_view name() const = 0;
    virtual EngineCapabilities capabilities() const = 0;

    // Opens the files with the right flags, allocates aligned buffers, sets up the ring
    // or port and registers what it can. Called once, on the worker thread.
    virtual Status init(const EngineConfig &config, std::span<const EngineFile> files) = 0;
    virtual std::span<std::byte> buffer(std::uint32_t index) = 0;

    // Files opened and closed while the engine runs (file trees, Iometer's connection
    // rate): openFile() opens `file` (its flags as init() would use them) at fileIndex,
    // which must be closed (an openLater file, or one closeFile() closed); closeFile()
    // closes it. Synchronous, on the worker's thread, which times them (the open and
    // close figures), and only while no request on that index is in flight. A file init()
    // opened may be closed and opened again the same way. The default refuses.
    virtual Status openFile(std::uint32_t fileIndex, const EngineFile &file);
    virtual Status closeFile(std::uint32_t fileIndex);

    // Hot path. queue() returns false when the submission queue is full: commit and
    // reap, then try again.
    virtual bool queue(IoRequest *request) = 0;
    virtual Status commit() = 0;
    // Writes up to completed.size() finished requests into `completed`; blocks until at
    // least minCompletions are done or the timeout passes; returns how many it wrote.
    virtual Result<std::uint32_t> reap(std::span<IoRequest *> completed,
        std::uint32_t minCompletions, std::chrono::nanoseconds timeout)
        = 0;
};

// What the platform learnt about a target before the run.
struct TargetInfo {
    std::string path; // as opened
    std::uint64_t sizeBytes = 0; // file size or device size
    std::uint32_t logicalBlockBytes = 512;
    std::uint32_t directIoOffsetAlignBytes = 512; // offsets and sizes (statx / BLKSSZGET)
    std::uint32_t directIoMemAlignBytes = 4096; // buffer addresses
    bool isDevice = false;
    bool readOnly = false;
    bool createdTestFile = false; // we made (and filled) it in this run (a tree: any of it)
    // Who opened the descriptors the engines do I/O through: "user" (this process, with
    // its own rights) or "udisks2" (the system's broker, after polkit allowed it); and
    // with which flags ("O_RDWR|O_DIRECT|O_EXCL"). Empty where the backend does not say
    // (the null backend, Windows). docs/targets.md "Privilege".
    std::string openedBy;
    std::string openFlags;
    friend bool operator==(const TargetInfo &, const TargetInfo &) = default;
};

// How this process could open a target now, before anything is asked
// (platform::targetAccess): itself, through the system's broker after asking the user
// (udisks2 and polkit on Linux), or not at all.
struct TargetAccess {
    enum class Way {
        Direct, // this user's own rights suffice
        Broker, // the broker would be asked (the user is asked once to allow it)
        Denied, // neither: `text` says why and what would help
    };
    Way way = Way::Direct;
    std::string text; // Broker: who will ask and for what; Denied: why, and what would help
    friend bool operator==(const TargetAccess &, const TargetAccess &) = default;
};

struct PrepareOptions {
    bool needWrite = false; // the assigned specs write to this target
    bool allowDeviceWrites = false; // the user confirmed writing to a raw device
    DataPattern fillPattern; // content of a new test file
    std::uint64_t seed = 0;
    // False once the run no longer wants the target (Stop, Ctrl-C): checked while the
    // backend waits on something outside it, such as the user answering the system's
    // request for permission. Empty: always wanted.
    std::function<bool()> stillWanted;
};

// What creating or growing one test file would take from its file system.
struct TestFileSpace {
    std::string fileSystem; // identifies the file system (e.g. its device number), to group by
    std::string where; // its mount point or volume, for messages
    std::uint64_t needBytes = 0; // still to be written for this test file (0: none)
    std::uint64_t freeBytes = 0; // available to this process
};

// Progress while a test file is written: return false to cancel (Ctrl-C, Stop).
using PrepareProgress = std::function<bool(std::uint64_t doneBytes, std::uint64_t totalBytes)>;

// What a run will ask of its engine, known once its targets are prepared: what `auto`
// weighs (IoBackend::chooseEngine).
struct EngineDemand {
    // Each file or raw device the run does direct I/O on, once, as prepared
    // (TargetInfo::path). File trees and buffered targets are not in it.
    std::vector<std::string> directTargets;
    // The most I/Os one worker has outstanding in any step, over all its targets.
    std::uint32_t deepestWorkerQueue = 0;
};

// Everything the run needs from an operating system, so core stays OS-free. The
// platform layer provides the Linux and Windows backends; core has a null backend
// for tests and overhead measurements.
class IoBackend
{
public:
    virtual ~IoBackend() = default;

    // The engine the backend makes ("io_uring", "sync", "iocp", "null"), with the polling
    // modes it was given ("io_uring+poll", "io_uring+sqpoll", "io_uring+poll+sqpoll").
    virtual std::string engineName() const = 0;
    // Notices for the user, e.g. "io_uring unavailable (EPERM): using the sync engine".
    virtual std::vector<std::string> notices() const = 0;
    // False when the backend's I/O never reaches a device (the null engine): the run then
    // watches no device, since a device has nothing to confirm, and says so per target.
    virtual bool reachesDevices() const { return true; }

    // Called once per run, before anything else: the polling modes the run asks for
    // (RunSettings::polling). A backend whose engine cannot poll that way refuses, and the
    // run ends with that refusal before any target is touched; one that takes them makes
    // its engines poll, names the modes in engineName() and refuses, in accessRefusal, a
    // target whose queue cannot be polled. The default takes none.
    virtual std::optional<OpError> setPolling(const EnginePolling &polling)
    {
        if (!polling.any())
            return std::nullopt;
        return OpError {std::make_error_code(std::errc::operation_not_supported), "engine polling",
            {},
            "polled completions and a submission thread are modes of io_uring (Linux): the "
                + engineName() + " engine has neither"};
    }

    // Safety checks (mounted devices, read-only targets, write confirmation), creates
    // and fills test files (never sparse), and reports size and alignment. Called once
    // per target before any worker starts. Refusals are OpErrors with a clear detail.
    virtual Result<TargetInfo> prepareTarget(
        const Target &target, const PrepareOptions &options, const PrepareProgress &progress)
        = 0;

    // The space a test file target would take, so that the run can check the test files
    // of each file system together before creating any. nullopt when unknown (then the
    // per-file check in prepareTarget is all there is).
    virtual std::optional<TestFileSpace> testFileSpace(const Target & /*target*/)
    {
        return std::nullopt;
    }
    // Two checks of every target before any is prepared, so that a run refused at its
    // third target makes no test file for its first, and that safety comes before
    // privilege across targets too: first every target's writeRefusal (what IOPrism
    // itself refuses to write: unconfirmed, mounted, in use under any name), then every
    // target's accessRefusal (neither this user's rights nor the system's broker can
    // open it, or not without an administrator), which may ask the broker whether it
    // knows the device. `options` as prepareTarget will get them (needWrite,
    // allowDeviceWrites). nullopt: go on (prepareTarget checks again and decides).
    virtual std::optional<OpError> writeRefusal(
        const Target & /*target*/, const PrepareOptions & /*options*/)
    {
        return std::nullopt;
    }
    virtual std::optional<OpError> accessRefusal(
        const Target & /*target*/, const PrepareOptions & /*options*/)
    {
        return std::nullopt;
    }
    // Removes a test file this backend created in this run (the run refused to start
    // after creating it). Refuses anything else, like removeTestFile.
    virtual Status discardTestFile(const std::string & /*path*/) { return Ok {}; }
    // Removes a file tree IOPrism made (its marker says so, with this shape): its files,
    // its level folders and the marker, then the folder when empty. Anything else in it
    // is left, and a folder without our marker is refused untouched. For the run that
    // refused to start after making a tree, and for "remove test files" on request.
    virtual Status removeFileTree(const std::string & /*root*/, const FileTree & /*tree*/)
    {
        return Ok {};
    }

    // Before the first step, the largest buffers each worker's engine will ask for in any
    // step (one config per worker). The backend may allocate them now and hand them to
    // the engines of every step, so that a step does not start by faulting in memory
    // (a series' 16 MiB point at QD 32 needs 512 MiB: 0.2 s on its own). Best effort: what
    // cannot be reserved is allocated by the engine as before. releaseBuffers() gives
    // the reservation back when the run ends; memory an engine still holds (stuck I/O)
    // is freed when that engine goes. The default keeps nothing.
    virtual void reserveBuffers(std::span<const EngineConfig> /*largestPerWorker*/) { }
    virtual void releaseBuffers() { }

    // A new engine for one worker; called on that worker's thread.
    virtual Result<std::unique_ptr<IoEngine>> makeEngine() = 0;
    // When an engine from makeEngine() failed its init() with `why`: another engine to
    // try for that worker (e.g. the sync engine when io_uring ran out of locked memory),
    // with a notice saying so, or `why` itself when there is no fallback. Called on the
    // worker's thread; notices() must then be safe to call from any thread.
    virtual Result<std::unique_ptr<IoEngine>> makeFallbackEngine(const OpError &why) { return why; }

    // Called once per run, after its targets are prepared and before any worker starts:
    // with `auto`, a backend whose best engine would measure itself rather than the
    // device for this demand may choose another for the run's workers (engineName()
    // then names it) and says why in a notice. An engine asked for by name is kept.
    virtual void chooseEngine(const EngineDemand & /*demand*/) { }

    // Names the calling thread for the OS (top -H, /proc/<pid>/task/<id>/comm): a worker
    // is "ioprism-worker", by which the counter source tells its threads' times from the
    // others' (core/stats/latency_verdict.h). The default does nothing.
    virtual void nameCurrentThread(const char * /*name*/) { }

    // Pins the calling thread to these CPUs (a worker's optional affinity). The default
    // does nothing and says so, for backends without affinity support.
    virtual Status pinCurrentThread(std::span<const std::uint32_t> cpus)
    {
        if (cpus.empty())
            return Ok {};
        return OpError {{}, "set CPU affinity", {}, "not supported by this backend"};
    }
};

} // namespace ioprism::core
