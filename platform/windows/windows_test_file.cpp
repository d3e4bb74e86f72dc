// SPDX-License-Identifier: GPL-3.0-or-later
// Test files on Windows: prepared and removed by the one policy (platform/common/
// preparation_policy.h), created without taking over anything, marked ours before a byte is
// written, reserved and filled completely, and held once checked (held_targets.h).
#include "core/profile/units.h"
#include "platform/windows/held_targets.h"
#include "platform/windows/sector_size.h"
#include "platform/windows/test_file_marks.h"
#include "platform/windows/windows_backend.h"
#include "platform/windows/windows_preparation.h"

#include <algorithm>
#include <utility>

namespace ioprism::platform {

using win::lastError;
using win::UniqueHandle;
using win::win32Error;

namespace {

// What the space messages say, or the refusal when `need` bytes do not fit in `parent`.
core::Result<std::string> testFileSpaceDetail(
    const std::string &path, const std::wstring &parent, std::uint64_t need, bool skipCheck)
{
    ULARGE_INTEGER avail {}, total {}, free {};
    const std::uint64_t freeBytes
        = ::GetDiskFreeSpaceExW(parent.c_str(), &avail, &total, &free) ? avail.QuadPart : 0;
    const std::wstring root = win::volumeRootOf(parent);
    std::string spaceDetail = "not enough space on " + win::narrow(root.empty() ? parent : root)
        + ": need " + core::describeSize(need) + ", have " + core::describeSize(freeBytes);
    if (!skipCheck && freeBytes < need)
        return win32Error(ERROR_DISK_FULL, "create test file", path, spaceDetail);
    return spaceDetail;
}

// Reserves the space now: a full volume fails here, not after minutes of writing (NTFS
// allocates the clusters: the file is not sparse). With the valid data length at the
// end, NTFS does not zero the gap ahead of each write; without the privilege the
// sequential writes extend it themselves. Then writes the fill and flushes it.
core::Status reserveAndFill(const std::string &path, HANDLE file, const FillRange &range,
    const core::PrepareOptions &options, const core::PrepareProgress &progress,
    const std::string &spaceDetail)
{
    if (!setFileSize(file, range.toBytes)) {
        const DWORD err = ::GetLastError();
        return win32Error(err, "reserve space", path,
            err == ERROR_DISK_FULL || err == ERROR_HANDLE_DISK_FULL ? spaceDetail : "");
    }
    if (canSetValidData())
        ::SetFileValidData(file, static_cast<LONGLONG>(range.toBytes));
    const std::wstring w = win::widen(path);
    const std::uint32_t sector = win::querySectorSize(file, w).logicalBytes;
    UniqueHandle direct(::CreateFileW(w.c_str(), GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
        nullptr, OPEN_EXISTING, FILE_FLAG_NO_BUFFERING, nullptr));
    return fillFile(path, file, direct.valid() ? direct.get() : INVALID_HANDLE_VALUE,
        std::max(sector, kMinBufferAlign), range.fromBytes, range.toBytes, options, progress,
        spaceDetail);
}

// Opens the test file at `path` without following a reparse point, after
// BackendOptions::beforeHold, and decides again on the handle: a plain file, the one
// the checks saw (`checked`), and for writing still ours under one name. The handle to
// hold and the file's size.
core::Result<std::pair<UniqueHandle, std::uint64_t>> openCheckedTestFile(const std::string &path,
    const std::optional<FileIdentity> &checked, bool needWrite, const BackendOptions &backend)
{
    if (backend.beforeHold)
        backend.beforeHold(path);
    // The file itself, never what a link or junction at its name leads to, opened with no
    // data access (nothing to share-block); engines reopen it with theirs.
    UniqueHandle h(::CreateFileW(win::widen(path).c_str(), FILE_READ_ATTRIBUTES, kShareAll, nullptr,
        OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    if (!h.valid())
        return lastError("open", path, "the test file went away after IOPrism checked it");
    const auto facts = factsOf(h.get());
    if (!facts)
        return lastError("identify", path);
    // Decided again on the handle: what was checked was a plain file.
    if (facts->isReparsePoint() || facts->isFolder())
        return win32Error(ERROR_CANT_ACCESS_FILE, "prepare test file", path,
            "a link, junction or folder is in the test file's place now: IOPrism never follows "
            "one; choose a new path (IOPrism creates the file)");
    if (!checked || facts->identity != *checked)
        return win32Error(ERROR_FILE_INVALID, "prepare test file", path,
            "the file was renamed or replaced while IOPrism was checking it: it is not the "
            "file IOPrism checked, so it is not used; run again");
    if (needWrite) {
        // Still ours, one name, and the mark is this file's (not a copy's).
        const Judged j = judge(path);
        if (j.mark == Mark::None || j.identity != facts->identity || facts->links != 1)
            return win32Error(ERROR_FILE_INVALID, "prepare test file", path,
                "the file lost IOPrism's mark or gained other names while IOPrism was checking "
                "it: it is never written");
    }
    return std::pair {std::move(h), facts->sizeBytes};
}

// A test file's preparation through handles, for the policy's driver
// (platform::prepareTestFile).
class HandleTestFilePreparation final : public TestFilePreparation
{
public:
    using TestFilePreparation::TestFilePreparation;

    core::Result<PathEntry> lookUp(std::string *path) override
    {
        DWORD lookUpError = ERROR_SUCCESS;
        const PathEntry entry = platform::lookUp(*path, &lookUpError);
        if (!entry.exists && !isMissing(lookUpError))
            return win32Error(lookUpError, "look up", *path);
        if (entry.exists && entry.directory)
            return win32Error(ERROR_INVALID_PARAMETER, "prepare test file", *path,
                "this is a directory: give a file path (IOPrism creates the file)");
        return entry;
    }
    Mark markOf(const std::string &path) override
    {
        // What the checks look at: the hold at the end must find this very file.
        const Judged judged = judge(path);
        m_checked = judged.identity;
        return judged.mark;
    }
    int writeError(const std::string &path, bool exists, const std::string &parent) override
    {
        const std::wstring w = win::widen(path);
        if (volumeIsReadOnly(exists ? w : win::widen(parent)))
            return ERROR_WRITE_PROTECT;
        return exists ? static_cast<int>(writeAccessError(w)) : 0;
    }
    core::OpError readOnlyRefusal(const std::string &path, int error) override
    {
        return platform::readOnlyRefusal(path, static_cast<DWORD>(error));
    }
    std::optional<core::OpError> createRefusal(
        const std::string &, const std::string &, int) override
    {
        return std::nullopt; // creating the file says why it cannot be
    }
    core::Result<std::string> spaceDetail(const std::string &path, std::uint64_t needBytes) override
    {
        return testFileSpaceDetail(
            path, parentOf(win::widen(path)), needBytes, request().backend.skipFreeSpaceCheck);
    }
    core::Status open(const Fill &fill) override
    {
        // CREATE_NEW: never take over a file that appeared since the look-up above. Shared
        // for writing, or the unbuffered handle (GENERIC_WRITE) could not be opened
        // (ERROR_SHARING_VIOLATION) and the whole fill would go through the cache.
        const std::wstring w = win::widen(fill.path);
        m_file.reset(::CreateFileW(w.c_str(), GENERIC_READ | GENERIC_WRITE,
            FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, fill.exists ? OPEN_EXISTING : CREATE_NEW,
            FILE_ATTRIBUTE_NORMAL, nullptr));
        if (!m_file.valid())
            return lastError(fill.exists ? "open" : "create test file", fill.path);
        m_created = fileIdentity(m_file.get(), w);
        const auto facts = factsOf(m_file.get());
        if (!facts || (fill.exists && facts->identity != m_checked))
            return win32Error(ERROR_FILE_INVALID, "prepare test file", fill.path,
                "the file changed while IOPrism was checking it (renamed or replaced): run "
                "again");
        m_checked = facts->identity;
        return core::Ok {};
    }
    core::Result<std::string> markNew(const std::string &path) override
    {
        return markOurs(win::widen(path), m_file.get(), Mark::Filling);
    }
    core::Status mark(const std::string &path, Mark mark) override { return setMark(path, mark); }
    core::Status write(
        const std::string &path, const FillRange &range, const std::string &spaceDetail) override
    {
        return reserveAndFill(
            path, m_file.get(), range, request().options, request().progress, spaceDetail);
    }
    void undo(const Fill &fill) override
    {
        if (fill.exists) {
            setFileSize(m_file.get(), fill.currentBytes);
            if (!fill.halfFilled)
                (void)setMark(fill.path, Mark::Complete);
            m_file.reset();
            return;
        }
        // Through a handle of the file made here (its file ID), never whatever the name
        // holds by now.
        m_file.reset();
        (void)deleteChecked(fill.path, false, m_checked);
        forgetCreated(m_created);
    }
    core::Status filled(const std::string &) override
    {
        m_file.reset();
        return core::Ok {};
    }
    core::Result<core::TargetInfo> hold(const std::string &path, bool created) override;

private:
    std::optional<FileIdentity> m_checked; // the file the checks saw
    UniqueHandle m_file; // open while it is filled
    std::optional<FileId> m_created; // what forgetting the file made takes
};

core::Result<core::TargetInfo> HandleTestFilePreparation::hold(
    const std::string &path, bool created)
{
    core::TargetInfo info;
    info.path = path;
    info.createdTestFile = created;
    // Take hold of what was checked; from here on nothing opens the file by its path
    // (held_targets.h). The size comes from the held file.
    auto held
        = openCheckedTestFile(path, m_checked, request().options.needWrite, request().backend);
    if (!held)
        return held.error();
    info.sizeBytes = held->second;
    request().held.holdFile(path, std::move(held->first), m_checked);
    const core::CacheMode cacheMode = request().target.cacheMode;
    const std::wstring w = win::widen(path);
    info.readOnly = volumeIsReadOnly(w) || writeAccessError(w) != ERROR_SUCCESS;

    UniqueHandle probe(::CreateFileW(w.c_str(), GENERIC_READ, kShareAll, nullptr, OPEN_EXISTING,
        cacheMode == core::CacheMode::Direct ? FILE_FLAG_NO_BUFFERING : 0, nullptr));
    if (!probe.valid()) {
        const DWORD err = ::GetLastError();
        if (err == ERROR_INVALID_PARAMETER && cacheMode == core::CacheMode::Direct) {
            const std::wstring root = win::volumeRootOf(w);
            return win32Error(err, "open unbuffered", path,
                "the file system at " + win::narrow(root.empty() ? parentOf(w) : root)
                    + " does not support unbuffered I/O: use buffered mode or put the test file "
                      "elsewhere");
        }
        return win32Error(err, "open", path);
    }
    const win::SectorInfo sector = win::querySectorSize(probe.get(), w);
    info.logicalBlockBytes = sector.logicalBytes;
    info.directIoOffsetAlignBytes = sector.logicalBytes;
    info.directIoMemAlignBytes = std::max(kMinBufferAlign, sector.logicalBytes);
    return info;
}

} // namespace

core::Result<core::TargetInfo> prepareTestFileByHandle(PreparationRequest request)
{
    HandleTestFilePreparation steps(std::move(request));
    return prepareTestFile(windowsPreparationFs(), steps);
}

core::Status removeTestFile(const std::string &path)
{
    const std::wstring w = win::widen(path);
    const DWORD attrs = ::GetFileAttributesW(w.c_str());
    if (attrs == INVALID_FILE_ATTRIBUTES)
        return lastError("remove test file", path);
    if (attrs & FILE_ATTRIBUTE_DIRECTORY)
        return removeFolderAsTree(
            windowsPreparationFs(), path, [](const std::string &root, const core::FileTree &tree) {
                return removeFileTree(root, tree);
            });
    // Through a handle of the file judged ours (its mark is bound to its file ID), never
    // through whatever the path names by the time of the delete. What this process holds
    // of it for a run is let go first.
    const Judged j = judge(path);
    if (j.mark == Mark::None)
        return win32Error(ERROR_ACCESS_DENIED, "remove test file", path,
            carriesForeignMark(path)
                ? "it carries IOPrism's mark, but the mark was not set on this file (a copy of a "
                  "test file, or marked by an earlier IOPrism): left untouched"
                : "not a test file created by IOPrism: left untouched");
    releaseHeldEverywhere(path);
    if (const DWORD err = deleteChecked(path, false, j.identity); err != ERROR_SUCCESS)
        return win32Error(err, "remove test file", path,
            err == ERROR_FILE_INVALID ? "it was replaced while IOPrism was removing it: left "
                                        "untouched"
                                      : "");
    return core::Ok {};
}

core::Status WindowsBackend::discardTestFile(const std::string &path)
{
    return removeTestFile(path);
}

} // namespace ioprism::platform
