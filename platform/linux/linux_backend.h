// SPDX-License-Identifier: GPL-3.0-or-later
// The Linux backend: chooses io_uring or the sync engine, and prepares targets safely.
//
// Safety rules enforced by prepareTarget (docs/targets.md explains them to users):
//  * a test file is created and filled completely (never sparse) and marked ours with
//    the xattr user.ioprism.testfile (where user xattrs are missing, a file is ours only
//    in the process that created it);
//    an existing file that is not ours is never written or extended;
//  * a file tree is created in a new folder, marked ours by the marker file in it
//    (core/workload/file_tree.h), and every file filled (never sparse); an existing folder
//    is used only with our marker and the same shape (missing or short files are made
//    again), never written otherwise, and nothing outside the tree's layout is touched;
//  * a raw device is written only with allowDeviceWrites, and never while its storage,
//    under any name (the device, its partitions or whole disk, its holders, loop
//    devices sharing its backing file or built on it), is mounted, used as swap, held
//    or claimed exclusively; the backend then holds its own exclusive claim until it is
//    destroyed; read-only devices and files are refused for write specs;
//  * every refusal happens here, before any worker starts.
#pragma once

#include "core/engine.h"
#include "platform/common/backend_factory.h"
#include "platform/linux/block_devices.h"
#include "platform/linux/engine_support.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ioprism::platform {

class HeldTargets;

// ---------------------------------------------------------------- the backend

class LinuxBackend : public core::IoBackend
{
public:
    explicit LinuxBackend(const BackendOptions &options);

    std::string engineName() const override;
    std::optional<core::OpError> setPolling(const core::EnginePolling &polling) override;
    std::vector<std::string> notices() const override;
    core::Result<core::TargetInfo> prepareTarget(const core::Target &target,
        const core::PrepareOptions &options, const core::PrepareProgress &progress) override;
    core::Result<std::unique_ptr<core::IoEngine>> makeEngine() override;
    void reserveBuffers(std::span<const core::EngineConfig> largestPerWorker) override;
    void releaseBuffers() override;
    // Memory kept for the engines between a run's steps (reserveBuffers).
    const BufferMemory &bufferMemory() const { return *m_bufferMemory; }
    std::optional<core::TestFileSpace> testFileSpace(const core::Target &target) override;
    std::optional<core::OpError> writeRefusal(
        const core::Target &target, const core::PrepareOptions &options) override;
    std::optional<core::OpError> accessRefusal(
        const core::Target &target, const core::PrepareOptions &options) override;
    core::Status discardTestFile(const std::string &path) override;
    core::Status removeFileTree(const std::string &root, const core::FileTree &tree) override;
    core::Result<std::unique_ptr<core::IoEngine>> makeFallbackEngine(
        const core::OpError &why) override;
    void chooseEngine(const core::EngineDemand &demand) override;
    void nameCurrentThread(const char *name) override;
    core::Status pinCurrentThread(std::span<const std::uint32_t> cpus) override;

    // Set when the engine asked for cannot run here (explicit IoUring refused).
    const std::optional<core::OpError> &engineError() const { return m_engineError; }
    bool usesUring() const { return m_useUring; }

private:
    core::Result<core::TargetInfo> prepareDevice(
        const core::Target &target, const core::PrepareOptions &options);
    // Why writing the device `name` (opened as `path`) would corrupt storage in use
    // under another name, or nullopt.
    std::optional<core::OpError> aliasRefusal(
        const std::string &path, const std::string &name, DeviceNumber devno) const;
    // Claims the device `name` (number `devno`, opened as `path`) and every other name of
    // its storage exclusively until the backend is destroyed; the refusal when one is busy.
    // `brokered`: the device itself is claimed by the broker's O_EXCL descriptor, and the
    // other names only where this user's rights reach them.
    std::optional<core::OpError> claimAliases(
        const std::string &path, const std::string &name, DeviceNumber devno, bool brokered);

    BackendOptions m_options;
    bool m_useUring = false;
    core::EnginePolling m_polling; // setPolling: io_uring only
    std::optional<core::OpError> m_engineError;
    mutable std::mutex m_noticesMutex; // workers add notices (engine fallbacks)
    std::vector<std::string> m_notices; // guarded by m_noticesMutex
    void addNotice(std::string text);
    // Locked memory left for registered buffers, when RLIMIT_MEMLOCK binds us (null
    // otherwise): see UringOptions::lockedBudgetBytes.
    std::shared_ptr<std::atomic<std::int64_t>> m_lockedBudget;
    std::shared_ptr<BufferMemory> m_bufferMemory = std::make_shared<BufferMemory>();
    std::atomic<std::uint32_t> m_fallbacks {0}; // workers moved to the sync engine
    // Exclusive opens of the raw devices this backend will write and of the other names
    // of their storage, held until it is destroyed (after the run), so nothing can mount
    // or claim them meanwhile; each with the target device it was claimed for.
    struct DeviceClaim {
        UniqueFd fd;
        DeviceNumber forTarget;
    };
    std::map<std::pair<std::uint32_t, std::uint32_t>, DeviceClaim> m_deviceClaims;
    // What prepareTarget checked, held as descriptors; the engines open through it.
    std::shared_ptr<HeldTargets> m_held;
};

// Probes io_uring with a tiny ring: 0 when it works, else the errno (ENOSYS, EPERM,
// EACCES, ...).
int probeIoUring();

// `auto` runs the sync engine rather than io_uring when a target does not take I/O
// without blocking and no worker keeps more than this many I/Os outstanding. Measured
// on zram (4 KiB random reads, 2 CPUs; docs/performance.md): at QD 1 sync does 450 k
// IOPS at 2 us against io_uring's 60 k at 16 us (each I/O handed to a kernel worker); at
// QD 2 sync's 100 k IOPS take 8.7 us against io_uring's 110 k at 16-18 us; from QD 3
// io_uring does 2-3x sync's IOPS at the same latency, its workers in parallel.
inline constexpr std::uint32_t kAutoSyncDeepestQueue = 2;

// Name of the xattr that marks a test file as created by IOPrism.
inline constexpr const char *kTestFileXattr = "user.ioprism.testfile";

// IOPrism's mark in `state` ("filling" or "complete") for the file or folder open as
// `fd`, bound to that file (docs/targets.md): for tests that leave a file as an
// interrupted run of IOPrism would.
std::string boundMarkValue(int fd, std::string_view state);

// True when `path` is a test file IOPrism created: it carries the xattr, or (on file
// systems without user xattrs) this process created it.
bool isOurTestFile(const std::string &path);

// Removes a test file only if it is marked ours; refuses (EPERM) otherwise. A folder
// holding an IOPrism file tree (its marker) is removed as removeFileTree does, with the
// shape its marker records: "remove test files" then covers trees too.
core::Status removeTestFile(const std::string &path);

// Removes the file tree IOPrism made at `root` with this shape: refused (EPERM), with
// nothing touched, unless `root` is a folder with our marker recording the same shape.
// Then removes exactly the tree's regular files, its level folders (deepest first, each
// only once empty), the marker, and `root` once empty; anything else is left where it is
// and named in the error (ENOTEMPTY) that says so.
core::Status removeFileTree(const std::string &root, const core::FileTree &tree);

} // namespace ioprism::platform
