// SPDX-License-Identifier: GPL-3.0-or-later
// The backend itself: the IOCP engine, thread affinity, and where each kind of target is
// prepared (windows_test_file.cpp, windows_file_tree.cpp, windows_device_safety.cpp).
#include "platform/windows/windows_backend.h"

#include "platform/common/target_resolution.h"
#include "platform/windows/held_targets.h"
#include "platform/windows/test_file_marks.h"
#include "platform/windows/windows_preparation.h"

#include <vector>

namespace ioprism::platform {

using win::lastError;
using win::win32Error;

// ---------------------------------------------------------------- affinity

core::Result<GroupAffinity> groupAffinityOf(
    std::span<const std::uint32_t> cpus, std::span<const std::uint32_t> groupSizes)
{
    GroupAffinity out;
    bool first = true;
    for (const std::uint32_t cpu : cpus) {
        std::uint32_t base = 0, group = 0;
        while (group < groupSizes.size() && cpu >= base + groupSizes[group])
            base += groupSizes[group++];
        if (group >= groupSizes.size())
            return win32Error(ERROR_INVALID_PARAMETER, "set CPU affinity", {},
                "CPU " + std::to_string(cpu) + " does not exist (this machine has "
                    + std::to_string(base) + ")");
        if (!first && group != out.group)
            return win32Error(ERROR_INVALID_PARAMETER, "set CPU affinity", {},
                "CPUs " + std::to_string(cpus.front()) + " and " + std::to_string(cpu)
                    + " are in different processor groups; a thread runs in one group: give each "
                      "worker CPUs of one group");
        out.group = static_cast<std::uint16_t>(group);
        out.mask |= std::uint64_t(1) << (cpu - base);
        first = false;
    }
    return out;
}

// ---------------------------------------------------------------- the backend

WindowsBackend::WindowsBackend(const BackendOptions &options, const IocpOptions &engineOptions)
    : m_options(options)
    , m_engineOptions(engineOptions)
{ }

core::Result<std::unique_ptr<core::IoEngine>> WindowsBackend::makeEngine()
{
    IocpOptions options = m_engineOptions;
    options.held = m_held;
    return std::unique_ptr<core::IoEngine>(std::make_unique<IocpEngine>(options));
}

core::Status WindowsBackend::pinCurrentThread(std::span<const std::uint32_t> cpus)
{
    if (cpus.empty())
        return core::Ok {};
    std::vector<std::uint32_t> sizes;
    const WORD groups = ::GetActiveProcessorGroupCount();
    for (WORD g = 0; g < groups; ++g)
        sizes.push_back(::GetActiveProcessorCount(g));
    auto affinity = groupAffinityOf(cpus, sizes);
    if (!affinity)
        return affinity.error();
    if (groups <= 1) {
        if (!::SetThreadAffinityMask(::GetCurrentThread(), static_cast<DWORD_PTR>(affinity->mask)))
            return lastError("SetThreadAffinityMask");
        return core::Ok {};
    }
    GROUP_AFFINITY ga {};
    ga.Group = affinity->group;
    ga.Mask = static_cast<KAFFINITY>(affinity->mask);
    if (!::SetThreadGroupAffinity(::GetCurrentThread(), &ga, nullptr))
        return lastError("SetThreadGroupAffinity");
    return core::Ok {};
}

core::Result<core::TargetInfo> WindowsBackend::prepareTarget(const core::Target &target,
    const core::PrepareOptions &options, const core::PrepareProgress &progress)
{
    if (target.unresolved)
        return win32Error(ERROR_FILE_NOT_FOUND, "prepare target", target.path,
            "this imported target does not exist on this machine: choose a target before running");
    if (target.path.empty())
        return win32Error(ERROR_INVALID_PARAMETER, "prepare target", {}, "the target has no path");
    const auto request = [&]() -> PreparationRequest {
        return {target, options, progress, m_options, *m_held,
            [this](std::string text) { m_notices.push_back(std::move(text)); }};
    };
    switch (target.kind) {
    case core::TargetKind::TestFile:
        if (win::physicalDriveNumber(target.path) || win::isVolumeDevicePath(target.path))
            return win32Error(ERROR_INVALID_PARAMETER, "prepare test file", target.path,
                "this is a volume or drive: choose it as a device target, not a test file");
        return prepareTestFileByHandle(request());
    case core::TargetKind::Volume:
    case core::TargetKind::PhysicalDrive:
        return prepareDevice(target, options);
    case core::TargetKind::BlockDevice:
    case core::TargetKind::Partition:
        break;
    case core::TargetKind::FileTree:
        if (win::physicalDriveNumber(target.path) || win::isVolumeDevicePath(target.path))
            return win32Error(ERROR_INVALID_PARAMETER, "prepare file tree", target.path,
                "this is a volume or drive: a file tree's path names a folder IOPrism creates");
        return prepareFileTreeByHandle(request());
    }
    return win32Error(ERROR_NOT_SUPPORTED, "prepare target", target.path,
        "block devices and partitions are Linux targets: on Windows choose a volume (\\\\.\\X:), a "
        "physical drive (\\\\.\\PhysicalDriveN) or a test file");
}

std::optional<core::OpError> WindowsBackend::accessRefusal(
    const core::Target &target, const core::PrepareOptions &options)
{
    if (target.kind != core::TargetKind::Volume && target.kind != core::TargetKind::PhysicalDrive)
        return std::nullopt;
    // An unconfirmed write is refused for that first, by prepareTarget.
    if (options.needWrite && !options.allowDeviceWrites)
        return std::nullopt;
    const core::TargetAccess access = targetAccess(target.path, options.needWrite);
    if (access.way != core::TargetAccess::Way::Denied)
        return std::nullopt;
    return win32Error(ERROR_ACCESS_DENIED,
        options.needWrite ? "open device for writing" : "open device", target.path, access.text);
}

std::optional<core::TestFileSpace> WindowsBackend::testFileSpace(const core::Target &target)
{
    if (m_options.skipFreeSpaceCheck || core::isRawDevice(target.kind)
        || win::physicalDriveNumber(target.path) || win::isVolumeDevicePath(target.path))
        return std::nullopt;
    // Where the space comes from: the folder that will hold the file (or the tree's top
    // folder, when it exists: it may be a volume mounted there).
    std::wstring home = parentOf(win::widen(folderOf(target.path)));
    std::optional<TreePlan> plan;
    std::uint64_t need = 0;
    if (target.kind == core::TargetKind::FileTree) {
        // The same rule as prepareFileTree: a new tree is written whole, our own tree of
        // this shape only where files are missing or short, anything else never.
        if (auto planned = planFileTree(windowsPreparationFs(), target.path, target.tree)) {
            if (planned->rootExists)
                home = win::widen(target.path);
            plan = std::move(*planned);
        }
    } else {
        // The same rule as prepareTestFile.
        const PathEntry e = lookUp(target.path);
        need = testFileNeedBytes(
            e, e.exists && e.regular ? markOf(target.path) : Mark::None, target.testFileSizeBytes);
    }
    ULARGE_INTEGER avail {}, total {}, free {};
    if (!::GetDiskFreeSpaceExW(home.c_str(), &avail, &total, &free) || total.QuadPart == 0)
        return std::nullopt; // no such directory (prepareTarget says so) or no size known
    const std::wstring volume = win::volumeRootOf(home);
    DWORD serial = 0;
    const bool haveSerial = !volume.empty()
        && ::GetVolumeInformationW(
            volume.c_str(), nullptr, 0, &serial, nullptr, nullptr, nullptr, 0);
    if (plan)
        need = plan->needBytes(target.tree.fileSizeBytes, clusterBytes(volume));
    const std::string where = win::narrow(volume.empty() ? home : volume);
    return core::TestFileSpace {
        .fileSystem = haveSerial ? "volume " + std::to_string(serial) : where,
        .where = where,
        .needBytes = need,
        .freeBytes = avail.QuadPart};
}

core::Status WindowsBackend::removeFileTree(const std::string &root, const core::FileTree &tree)
{
    return platform::removeFileTree(root, tree);
}

} // namespace ioprism::platform
