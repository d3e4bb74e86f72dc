// SPDX-License-Identifier: GPL-3.0-or-later
// The Windows backend: the IOCP engine, and targets prepared safely.
//
// Safety rules enforced by prepareTarget (docs/windows.md explains them to users):
//  * a test file is created and filled completely (never sparse): its size is reserved
//    first (SetEndOfFile: a full volume fails at once), its valid data length set with
//    SetFileValidData when the account holds SeManageVolumePrivilege (so NTFS does not
//    zero-fill ahead of the writes), then every byte is written with the fill pattern,
//    unbuffered where aligned;
//  * a test file is marked ours with the NTFS alternate data stream
//    "<file>:ioprism.testfile" on volumes with named streams, bound to the file's ID (a
//    copy, which keeps the stream, is not ours); elsewhere (FAT32, exFAT,
//    network shares, Wine) a file is ours only in the process that created it. An
//    existing file that is not ours is never written or extended;
//  * volumes (\\.\X:, \\?\Volume{GUID}) and physical drives (\\.\PhysicalDriveN) are
//    written only with allowDeviceWrites, and never while they hold a mounted file
//    system (for a drive: any volume with an extent on it); when that cannot be
//    determined, writing is refused too;
//  * a file tree is created in a new folder, marked ours by the marker file in it
//    (core/workload/file_tree.h), each file reserved and filled like a test file (without
//    a flush per file); an existing folder is used only with our marker and the same
//    shape (missing or short files are made again), and nothing outside the tree's layout
//    or behind a reparse point is written;
//  * what was checked is held (held_targets.h): prepareTarget ends by opening the test
//    file, the device, or the tree's folders (each beneath the one above) without following
//    a reparse point, decides again on those handles (not a link or junction, the file ID
//    the checks saw, for writing the mark bound to that file ID), and keeps them; the
//    engines open only through them, never the path again. Removal walks a tree the same
//    way and deletes through handles whose file ID its mark names;
//  * every refusal happens here, before any worker starts, with a message that says
//    what to do.
#pragma once

#include "core/engine.h"
#include "platform/common/backend_factory.h"
#include "platform/common/file_tree_plan.h"
#include "platform/windows/held_targets.h"
#include "platform/windows/iocp_engine.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ioprism::platform {

class WindowsBackend final : public core::IoBackend
{
public:
    explicit WindowsBackend(const BackendOptions &options, const IocpOptions &engineOptions = {});

    std::string engineName() const override { return "iocp"; }
    std::vector<std::string> notices() const override { return m_notices; }
    core::Result<core::TargetInfo> prepareTarget(const core::Target &target,
        const core::PrepareOptions &options, const core::PrepareProgress &progress) override;
    core::Result<std::unique_ptr<core::IoEngine>> makeEngine() override;
    // Removes a test file this run created (it refused to start after creating it).
    core::Status discardTestFile(const std::string &path) override;
    core::Status removeFileTree(const std::string &root, const core::FileTree &tree) override;
    // What the test files and file trees would take from their volumes, for the run's
    // check of all targets together (the volume's serial number groups them).
    std::optional<core::TestFileSpace> testFileSpace(const core::Target &target) override;
    // A raw drive or volume while this process is not elevated (platform::targetAccess),
    // before any test file of the run is made.
    std::optional<core::OpError> accessRefusal(
        const core::Target &target, const core::PrepareOptions &options) override;
    // SetThreadAffinityMask (one processor group) or SetThreadGroupAffinity; the CPUs
    // of one worker must lie in one group, as a thread runs in one group at a time.
    core::Status pinCurrentThread(std::span<const std::uint32_t> cpus) override;

private:
    core::Result<core::TargetInfo> prepareDevice(
        const core::Target &target, const core::PrepareOptions &options);

    BackendOptions m_options;
    IocpOptions m_engineOptions;
    std::vector<std::string> m_notices;
    // What prepareTarget checked, held as handles; the engines open through it.
    std::shared_ptr<HeldTargets> m_held = std::make_shared<HeldTargets>();
};

// Name of the alternate data stream that marks a test file as created by IOPrism.
inline constexpr const wchar_t *kTestFileStream = L":ioprism.testfile";

// True when `path` is a test file IOPrism created: it carries the stream, or (on volumes
// without named streams) this process created it.
bool isOurTestFile(const std::string &path);

// Removes a test file only if it is marked ours; refuses (ERROR_ACCESS_DENIED) otherwise.
// A folder holding an IOPrism file tree (its marker) is removed as removeFileTree does,
// with the shape its marker records.
core::Status removeTestFile(const std::string &path);

// Removes the file tree IOPrism made at `root` with this shape: refused
// (ERROR_ACCESS_DENIED), untouched, unless `root` is a folder with our marker recording
// the same shape. Then deletes exactly the tree's plain files, its level folders (deepest
// first, each only once empty), the marker, and `root` once empty; anything else is left
// and named in the error (ERROR_DIR_NOT_EMPTY) that says so.
core::Status removeFileTree(const std::string &root, const core::FileTree &tree);

// True when the volume holding `path` supports named streams (FILE_NAMED_STREAMS).
bool volumeHasNamedStreams(const std::string &path);

// Maps worker CPU numbers (0..N-1 over all processor groups, in group order) to one
// group and a mask in it. Pure, for tests: groupSizes[g] is the CPU count of group g.
struct GroupAffinity {
    std::uint16_t group = 0;
    std::uint64_t mask = 0;
};
core::Result<GroupAffinity> groupAffinityOf(
    std::span<const std::uint32_t> cpus, std::span<const std::uint32_t> groupSizes);

} // namespace ioprism::platform
