// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/windows/windows_backend.h"

#include "core/profile/units.h"
#include "core/workload/data_pattern.h"
#include "platform/windows/sector_size.h"
#include "platform/windows/windows_devices.h"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <set>
#include <utility>
#include <winioctl.h>

namespace ioprism::platform {

using win::lastError;
using win::UniqueHandle;
using win::win32Error;

namespace {

constexpr std::uint32_t kFillChunkBytes = 1u << 20;
constexpr std::uint32_t kMinBufferAlign = 4096;
constexpr DWORD kShareAll = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

// What identifies a file we created: its volume serial and file index, plus its
// (case-folded, absolute) path, because a file index is reused for a new file once ours
// is deleted behind our back (Wine uses the Unix inode number; FAT derives it from the
// directory slot), and such a file must not count as ours. The creation time would tell
// apart a file re-created under the same name, but Wine reports the Unix ctime there,
// which every write changes. Left open: on FAT, someone else deleting our file and
// creating one of the same name during this process.
struct FileId {
    DWORD volumeSerial = 0;
    std::uint64_t fileIndex = 0;
    std::wstring path;
    auto operator<=>(const FileId &) const = default;
};

// Files this process created on volumes without named streams (FAT32, exFAT, network
// shares, Wine's drives). They cannot carry a mark that outlives the process, and a
// marker kept elsewhere could later match a different file of the same name; so there
// a file is ours only during the process that made it, and a later run only reads it.
struct CreatedFiles {
    std::mutex mutex;
    std::set<FileId> files; // guarded by mutex
};
CreatedFiles &createdWithoutStream()
{
    static CreatedFiles registry;
    return registry;
}

std::wstring foldedAbsolute(const std::wstring &path)
{
    std::error_code ec;
    std::wstring p
        = std::filesystem::absolute(std::filesystem::path(path), ec).lexically_normal().wstring();
    if (ec)
        p = path;
    if (!p.empty())
        ::CharUpperBuffW(p.data(), static_cast<DWORD>(p.size()));
    return p;
}

std::optional<FileId> fileIdentity(HANDLE h, const std::wstring &path)
{
    BY_HANDLE_FILE_INFORMATION info {};
    if (!::GetFileInformationByHandle(h, &info))
        return std::nullopt;
    return FileId {info.dwVolumeSerialNumber,
        (std::uint64_t(info.nFileIndexHigh) << 32) | info.nFileIndexLow, foldedAbsolute(path)};
}

std::optional<FileId> fileIdentity(const std::wstring &path)
{
    UniqueHandle h(::CreateFileW(
        path.c_str(), 0, kShareAll, nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr));
    if (!h.valid())
        return std::nullopt;
    return fileIdentity(h.get(), path);
}

std::string errorText(DWORD err)
{
    return std::error_code(int(err), std::system_category()).message();
}

// Marks a file we just created (open as `h`) as ours. Returns "" when the mark outlives
// this process, else why not.
std::string markOurs(const std::wstring &path, HANDLE h)
{
    std::string why = "the volume has no named streams (FAT32, exFAT, a network share, Wine)";
    if (volumeHasNamedStreams(win::narrow(path))) {
        UniqueHandle stream(::CreateFileW((path + kTestFileStream).c_str(), GENERIC_WRITE, 0,
            nullptr, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr));
        static constexpr char kText[] = "IOPrism test file\r\n";
        DWORD written = 0;
        if (stream.valid() && ::WriteFile(stream.get(), kText, sizeof kText - 1, &written, nullptr))
            return {};
        why = "stream " + win::narrow(kTestFileStream) + ": " + errorText(::GetLastError());
    }
    if (auto id = fileIdentity(h, path)) {
        auto &r = createdWithoutStream();
        std::lock_guard lock(r.mutex);
        r.files.insert(*id);
    }
    return why;
}

void forgetCreated(const std::optional<FileId> &id)
{
    if (!id)
        return;
    auto &r = createdWithoutStream();
    std::lock_guard lock(r.mutex);
    r.files.erase(*id);
}

std::wstring absolutePath(const std::wstring &path)
{
    std::error_code ec;
    const auto p = std::filesystem::absolute(std::filesystem::path(path), ec);
    return ec ? path : p.wstring();
}

std::wstring parentOf(const std::wstring &path)
{
    const auto p = std::filesystem::path(absolutePath(path)).parent_path();
    return p.empty() ? path : p.wstring();
}

bool volumeIsReadOnly(const std::wstring &anyPath)
{
    const std::wstring root = win::volumeRootOf(anyPath);
    DWORD flags = 0;
    return !root.empty()
        && ::GetVolumeInformationW(root.c_str(), nullptr, 0, nullptr, nullptr, &flags, nullptr, 0)
        && (flags & FILE_READ_ONLY_VOLUME);
}

// Whether an existing file can be opened for writing; the error when not.
DWORD writeAccessError(const std::wstring &path)
{
    UniqueHandle h(
        ::CreateFileW(path.c_str(), GENERIC_WRITE, kShareAll, nullptr, OPEN_EXISTING, 0, nullptr));
    return h.valid() ? ERROR_SUCCESS : ::GetLastError();
}

core::OpError readOnlyRefusal(const std::string &path, DWORD err)
{
    std::string why;
    if (err == ERROR_WRITE_PROTECT)
        why = "it is on a read-only (write-protected) volume";
    else if (err == ERROR_SHARING_VIOLATION || err == ERROR_LOCK_VIOLATION)
        why = "another program has it open without sharing";
    else
        why = "it is read-only or this account may not write it";
    return win32Error(err, "open for writing", path,
        "the profile writes to this target but " + why
            + ": use a read-only spec or a writable target");
}

bool setFileSize(HANDLE h, std::uint64_t bytes)
{
    LARGE_INTEGER size {};
    size.QuadPart = static_cast<LONGLONG>(bytes);
    return ::SetFilePointerEx(h, size, nullptr, FILE_BEGIN) && ::SetEndOfFile(h);
}

// SetFileValidData needs SeManageVolumePrivilege enabled in the token; held by
// administrators. Tried once per process.
bool canSetValidData()
{
    static const bool enabled = win::enablePrivilege(L"SeManageVolumePrivilege");
    return enabled;
}

// Writes [fromBytes, toBytes) with the fill pattern in 1 MiB chunks: unbuffered through
// `direct` where the chunk is sector-aligned (no cache pollution, no double copy), the
// unaligned tail through `buffered`.
core::Status fillFile(const std::string &path, HANDLE buffered, HANDLE direct,
    std::uint32_t sectorBytes, std::uint64_t fromBytes, std::uint64_t toBytes,
    const core::PrepareOptions &options, const core::PrepareProgress &progress,
    const std::string &spaceDetail)
{
    void *memory
        = ::VirtualAlloc(nullptr, kFillChunkBytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    if (!memory)
        return lastError("VirtualAlloc", path);
    struct Release {
        void *p;
        ~Release() { ::VirtualFree(p, 0, MEM_RELEASE); }
    } release {memory};
    const std::span<std::byte> chunk(static_cast<std::byte *>(memory), kFillChunkBytes);
    core::DataPatternFiller filler(options.fillPattern, options.seed);
    filler.prepare(chunk);

    const std::uint64_t total = toBytes - fromBytes;
    std::uint64_t offset = fromBytes;
    while (offset < toBytes) {
        const auto n
            = static_cast<DWORD>(std::min<std::uint64_t>(kFillChunkBytes, toBytes - offset));
        auto part = chunk.first(n);
        filler.beforeWrite(part, offset);
        const bool aligned
            = direct != INVALID_HANDLE_VALUE && n % sectorBytes == 0 && offset % sectorBytes == 0;
        OVERLAPPED at {}; // synchronous handles: the OVERLAPPED only carries the offset
        at.Offset = static_cast<DWORD>(offset);
        at.OffsetHigh = static_cast<DWORD>(offset >> 32);
        DWORD written = 0;
        if (!::WriteFile(aligned ? direct : buffered, part.data(), n, &written, &at)) {
            const DWORD err = ::GetLastError();
            if (err == ERROR_DISK_FULL || err == ERROR_HANDLE_DISK_FULL)
                return win32Error(err, "write", path, spaceDetail);
            return win32Error(err, "write", path);
        }
        if (written != n)
            return win32Error(ERROR_WRITE_FAULT, "write", path,
                "the file system accepted " + std::to_string(written) + " of " + std::to_string(n)
                    + " bytes");
        offset += n;
        if (progress && !progress(offset - fromBytes, total))
            return win32Error(
                ERROR_CANCELLED, "prepare test file", path, "cancelled while writing");
    }
    if (!::FlushFileBuffers(buffered))
        return lastError("FlushFileBuffers", path);
    return core::Ok {};
}

// The size of a volume or drive: IOCTL_DISK_GET_LENGTH_INFO, else the geometry's disk
// size (Wine answers only that), else a volume's total bytes.
std::uint64_t deviceSize(HANDLE h, const std::wstring &path)
{
    GET_LENGTH_INFORMATION length {};
    DWORD got = 0;
    if (::DeviceIoControl(
            h, IOCTL_DISK_GET_LENGTH_INFO, nullptr, 0, &length, sizeof length, &got, nullptr))
        return static_cast<std::uint64_t>(length.Length.QuadPart);
    alignas(8) BYTE buffer[sizeof(DISK_GEOMETRY_EX) + 256] = {};
    if (::DeviceIoControl(
            h, IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, nullptr, 0, buffer, sizeof buffer, &got, nullptr))
        return static_cast<std::uint64_t>(
            reinterpret_cast<DISK_GEOMETRY_EX *>(buffer)->DiskSize.QuadPart);
    if (path.size() == 6) { // "\\.\C:"
        ULARGE_INTEGER avail {}, total {}, free {};
        if (::GetDiskFreeSpaceExW((path.substr(4) + L"\\").c_str(), &avail, &total, &free))
            return total.QuadPart;
    }
    return 0;
}

std::string joined(const std::vector<std::wstring> &items)
{
    std::string s;
    for (const auto &i : items)
        s += (s.empty() ? "" : ", ") + win::narrow(i);
    return s;
}

} // namespace

// ---------------------------------------------------------------- marks and removal

bool volumeHasNamedStreams(const std::string &path)
{
    std::wstring root = win::volumeRootOf(win::widen(path));
    if (root.empty())
        root = win::volumeRootOf(parentOf(win::widen(path)));
    DWORD flags = 0;
    return !root.empty()
        && ::GetVolumeInformationW(root.c_str(), nullptr, 0, nullptr, nullptr, &flags, nullptr, 0)
        && (flags & FILE_NAMED_STREAMS);
}

bool isOurTestFile(const std::string &path)
{
    const std::wstring w = win::widen(path);
    const DWORD attrs = ::GetFileAttributesW(w.c_str());
    if (attrs == INVALID_FILE_ATTRIBUTES || (attrs & FILE_ATTRIBUTE_DIRECTORY))
        return false;
    if (volumeHasNamedStreams(path)
        && ::GetFileAttributesW((w + kTestFileStream).c_str()) != INVALID_FILE_ATTRIBUTES)
        return true;
    const auto id = fileIdentity(w);
    if (!id)
        return false;
    auto &r = createdWithoutStream();
    std::lock_guard lock(r.mutex);
    return r.files.contains(*id);
}

core::Status removeTestFile(const std::string &path)
{
    const std::wstring w = win::widen(path);
    if (::GetFileAttributesW(w.c_str()) == INVALID_FILE_ATTRIBUTES)
        return lastError("remove test file", path);
    if (!isOurTestFile(path))
        return win32Error(ERROR_ACCESS_DENIED, "remove test file", path,
            "not a test file created by IOPrism: left untouched");
    const auto id = fileIdentity(w);
    if (!::DeleteFileW(w.c_str())) // removes its streams with it
        return lastError("remove test file", path);
    forgetCreated(id);
    return core::Ok {};
}

core::Status WindowsBackend::discardTestFile(const std::string &path)
{
    return removeTestFile(path);
}

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
    return std::unique_ptr<core::IoEngine>(std::make_unique<IocpEngine>(m_engineOptions));
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
    switch (target.kind) {
    case core::TargetKind::TestFile:
        if (win::physicalDriveNumber(target.path) || win::isVolumeDevicePath(target.path))
            return win32Error(ERROR_INVALID_PARAMETER, "prepare test file", target.path,
                "this is a volume or drive: choose it as a device target, not a test file");
        return prepareTestFile(target, options, progress);
    case core::TargetKind::Volume:
    case core::TargetKind::PhysicalDrive:
        return prepareDevice(target, options);
    case core::TargetKind::BlockDevice:
    case core::TargetKind::Partition:
        break;
    case core::TargetKind::FileTree:
        return win32Error(
            ERROR_NOT_SUPPORTED, "prepare target", target.path, "file trees are not built yet");
    }
    return win32Error(ERROR_NOT_SUPPORTED, "prepare target", target.path,
        "block devices and partitions are Linux targets: on Windows choose a volume (\\\\.\\X:), a "
        "physical drive (\\\\.\\PhysicalDriveN) or a test file");
}

core::Result<core::TargetInfo> WindowsBackend::prepareTestFile(const core::Target &target,
    const core::PrepareOptions &options, const core::PrepareProgress &progress)
{
    const std::string &path = target.path;
    const std::wstring w = win::widen(path);
    const std::uint64_t wanted = target.testFileSizeBytes;
    core::TargetInfo info;
    info.path = path;

    WIN32_FILE_ATTRIBUTE_DATA attrs {};
    const bool exists = ::GetFileAttributesExW(w.c_str(), GetFileExInfoStandard, &attrs);
    if (!exists) {
        const DWORD err = ::GetLastError();
        if (err != ERROR_FILE_NOT_FOUND && err != ERROR_PATH_NOT_FOUND)
            return win32Error(err, "look up", path);
    }
    if (exists && (attrs.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY))
        return win32Error(ERROR_INVALID_PARAMETER, "prepare test file", path,
            "this is a directory: give a file path (IOPrism creates the file)");
    const std::uint64_t current = exists
        ? (std::uint64_t(attrs.nFileSizeHigh) << 32) | std::uint64_t(attrs.nFileSizeLow)
        : 0;

    const bool ours = exists && isOurTestFile(path);
    if (exists && !ours) {
        // Someone else's file: read it if asked, never write or extend it.
        if (options.needWrite)
            return win32Error(ERROR_FILE_EXISTS, "prepare test file", path,
                "this file was not created by IOPrism, so it is never written: choose a new path "
                "(IOPrism creates it) or a read-only spec");
        if (current == 0)
            return win32Error(
                ERROR_HANDLE_EOF, "prepare test file", path, "the file is empty: nothing to read");
    }
    if (!exists && wanted == 0)
        return win32Error(ERROR_INVALID_PARAMETER, "prepare test file", path,
            "the test file does not exist and its size is 0");

    const std::wstring parent = parentOf(w);
    if (!exists) {
        const DWORD pattrs = ::GetFileAttributesW(parent.c_str());
        if (pattrs == INVALID_FILE_ATTRIBUTES || !(pattrs & FILE_ATTRIBUTE_DIRECTORY))
            return win32Error(ERROR_PATH_NOT_FOUND, "create test file", path,
                "the directory " + win::narrow(parent) + " does not exist");
    }

    DWORD writeErr = ERROR_SUCCESS;
    if (volumeIsReadOnly(exists ? w : parent))
        writeErr = ERROR_WRITE_PROTECT;
    else if (exists)
        writeErr = writeAccessError(w);
    const bool canWrite = writeErr == ERROR_SUCCESS;
    if (options.needWrite && !canWrite)
        return readOnlyRefusal(path, writeErr);

    bool needFill = !exists || (ours && wanted > current);
    if (needFill && exists && !canWrite) {
        // A read-only spec on our own, smaller file that cannot grow: read what is there.
        needFill = false;
        m_notices.push_back(path + " is " + core::describeSize(current) + ", smaller than the "
            + core::describeSize(wanted) + " asked for, and cannot be extended ("
            + errorText(writeErr) + "): reading the existing " + core::describeSize(current));
    }
    if (needFill) {
        // Extend from a chunk boundary so the unbuffered writes stay aligned.
        const std::uint64_t from = exists ? current / kFillChunkBytes * kFillChunkBytes : 0;
        const std::uint64_t need = wanted - from;
        ULARGE_INTEGER avail {}, total {}, free {};
        const std::uint64_t freeBytes
            = ::GetDiskFreeSpaceExW(parent.c_str(), &avail, &total, &free) ? avail.QuadPart : 0;
        const std::wstring root = win::volumeRootOf(parent);
        const std::string spaceDetail = "not enough space on "
            + win::narrow(root.empty() ? parent : root) + ": need " + core::describeSize(need)
            + ", have " + core::describeSize(freeBytes);
        if (!m_options.skipFreeSpaceCheck && freeBytes < need)
            return win32Error(ERROR_DISK_FULL, "create test file", path, spaceDetail);

        // CREATE_NEW: never take over a file that appeared since the look-up above.
        UniqueHandle file(::CreateFileW(w.c_str(), GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ,
            nullptr, exists ? OPEN_EXISTING : CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr));
        if (!file.valid())
            return lastError(exists ? "open" : "create test file", path);
        const auto id = fileIdentity(file.get(), w);
        if (!exists) {
            // Mark it before filling, so even a crash mid-fill leaves a file we know.
            if (const std::string why = markOurs(w, file.get()); !why.empty())
                m_notices.push_back("could not mark " + path + " as an IOPrism test file (" + why
                    + "): later runs will only read it, never write it; delete it yourself "
                      "when done");
        }
        const auto undo = [&] {
            // Leave nothing half-made: remove what we created, shrink what we extended.
            if (exists) {
                setFileSize(file.get(), current);
            } else {
                forgetCreated(id);
                file.reset();
                ::DeleteFileW(w.c_str());
            }
        };
        // Reserve the space now: a full volume fails here, not after minutes of writing.
        // NTFS allocates the clusters (the file is not sparse).
        if (!setFileSize(file.get(), wanted)) {
            const DWORD err = ::GetLastError();
            undo();
            return win32Error(err, "reserve space", path,
                err == ERROR_DISK_FULL || err == ERROR_HANDLE_DISK_FULL ? spaceDetail : "");
        }
        // With the valid data length at the end, NTFS does not zero the gap ahead of
        // each write; without the privilege the sequential writes extend it themselves.
        if (canSetValidData())
            ::SetFileValidData(file.get(), static_cast<LONGLONG>(wanted));
        const std::uint32_t sector = win::querySectorSize(file.get(), w).logicalBytes;
        UniqueHandle direct(
            ::CreateFileW(w.c_str(), GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                OPEN_EXISTING, FILE_FLAG_NO_BUFFERING, nullptr));
        auto filled
            = fillFile(path, file.get(), direct.valid() ? direct.get() : INVALID_HANDLE_VALUE,
                std::max(sector, kMinBufferAlign), from, wanted, options, progress, spaceDetail);
        direct.reset();
        if (!filled) {
            undo();
            return filled.error();
        }
        info.createdTestFile = true;
        if (!::GetFileAttributesExW(w.c_str(), GetFileExInfoStandard, &attrs))
            return lastError("look up", path);
    }

    info.sizeBytes = (std::uint64_t(attrs.nFileSizeHigh) << 32) | std::uint64_t(attrs.nFileSizeLow);
    info.readOnly = volumeIsReadOnly(w) || writeAccessError(w) != ERROR_SUCCESS;

    UniqueHandle probe(::CreateFileW(w.c_str(), GENERIC_READ, kShareAll, nullptr, OPEN_EXISTING,
        target.cacheMode == core::CacheMode::Direct ? FILE_FLAG_NO_BUFFERING : 0, nullptr));
    if (!probe.valid()) {
        const DWORD err = ::GetLastError();
        if (err == ERROR_INVALID_PARAMETER && target.cacheMode == core::CacheMode::Direct) {
            const std::wstring root = win::volumeRootOf(w);
            return win32Error(err, "open unbuffered", path,
                "the file system at " + win::narrow(root.empty() ? parent : root)
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

core::Result<core::TargetInfo> WindowsBackend::prepareDevice(
    const core::Target &target, const core::PrepareOptions &options)
{
    std::string path = target.path;
    if (path.size() > 4 && path.back() == '\\' && win::isVolumeDevicePath(path))
        path.pop_back(); // "\\?\Volume{..}\" names the root directory; the volume is without it
    const auto driveNumber = win::physicalDriveNumber(path);
    if (!driveNumber && !win::isVolumeDevicePath(path))
        return win32Error(ERROR_INVALID_NAME, "open device", path,
            "not a volume (\\\\.\\X:, \\\\?\\Volume{...}) or physical drive "
            "(\\\\.\\PhysicalDriveN)");
    const std::wstring w = win::widen(path);

    UniqueHandle dev(::CreateFileW(w.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE,
        nullptr, OPEN_EXISTING, 0, nullptr));
    if (!dev.valid()) {
        const DWORD err = ::GetLastError();
        return win32Error(err, "open device", path,
            err == ERROR_ACCESS_DENIED ? "raw volumes and drives need an administrator account"
                                       : "");
    }
    core::TargetInfo info;
    info.path = path;
    info.isDevice = true;
    info.sizeBytes = deviceSize(dev.get(), w);
    DWORD got = 0;
    if (!::DeviceIoControl(dev.get(), IOCTL_DISK_IS_WRITABLE, nullptr, 0, nullptr, 0, &got, nullptr)
        && ::GetLastError() == ERROR_WRITE_PROTECT)
        info.readOnly = true;
    const win::SectorInfo sector = win::querySectorSize(dev.get(), w);
    dev.reset();
    info.logicalBlockBytes = sector.logicalBytes;
    info.directIoOffsetAlignBytes = sector.logicalBytes;
    info.directIoMemAlignBytes = std::max(kMinBufferAlign, sector.logicalBytes);
    if (info.sizeBytes == 0)
        return win32Error(
            ERROR_NOT_READY, "open device", path, "the device has no media or reports size 0");

    if (!options.needWrite)
        return info;

    const std::string what = path + " (" + core::describeSize(info.sizeBytes) + ")";
    if (info.readOnly)
        return win32Error(ERROR_WRITE_PROTECT, "open device for writing", path,
            "the profile writes to " + what + " but the device is write-protected");
    if (!options.allowDeviceWrites)
        return win32Error(ERROR_ACCESS_DENIED, "open device for writing", path,
            "writing to " + what + " destroys its data: pass --allow-device-writes to confirm");

    if (!driveNumber) {
        // A volume: refused while a file system is mounted on it.
        const std::wstring root = w.size() == 6 ? w.substr(4) + L"\\" : w + L"\\";
        const std::wstring fs = win::mountedFileSystem(root);
        if (!fs.empty())
            return win32Error(ERROR_BUSY, "open device for writing", path,
                "it holds a mounted " + win::narrow(fs)
                    + " file system: writing would destroy it; take the volume offline first "
                      "(diskpart: select volume, offline volume) or choose an unmounted volume");
        return info;
    }

    // A physical drive: refused while any volume on it holds a mounted file system, and
    // when Windows cannot say which volumes lie on it. The mounted file systems are those
    // of the volume list and of the drive letters (a list that comes back empty, as under
    // Wine, must not read as "nothing mounted").
    struct Mounted {
        std::wstring name;
        std::optional<std::vector<win::DiskExtent>> extents;
    };
    std::vector<Mounted> fileSystems;
    for (const auto &v : win::enumerateVolumes())
        if (!v.fileSystem.empty())
            fileSystems.push_back({v.mountPoints.empty() ? v.guidPath : v.mountPoints.front(),
                v.extentsKnown ? std::optional(v.extents) : std::nullopt});
    const DWORD letters = ::GetLogicalDrives();
    for (int i = 0; i < 26; ++i) {
        const std::wstring root = std::wstring(1, wchar_t(L'A' + i)) + L":\\";
        if (!(letters & (1u << i)) || ::GetDriveTypeW(root.c_str()) == DRIVE_REMOTE
            || win::mountedFileSystem(root).empty())
            continue;
        fileSystems.push_back({root, win::volumeDiskExtents(L"\\\\.\\" + root.substr(0, 2))});
    }
    std::vector<std::wstring> mounted;
    bool unknown = fileSystems.empty();
    for (const auto &fs : fileSystems) {
        if (!fs.extents) {
            unknown = true;
            continue;
        }
        if (std::any_of(fs.extents->begin(), fs.extents->end(),
                [&](const win::DiskExtent &e) { return e.diskNumber == *driveNumber; })
            && std::find(mounted.begin(), mounted.end(), fs.name) == mounted.end())
            mounted.push_back(fs.name);
    }
    if (!mounted.empty())
        return win32Error(ERROR_BUSY, "open device for writing", path,
            "file systems on it are mounted at " + joined(mounted)
                + ": writing would destroy them; take those volumes offline first or choose "
                  "another "
                  "drive");
    if (unknown)
        return win32Error(ERROR_BUSY, "open device for writing", path,
            "Windows does not say which volumes lie on this drive, so a mounted file system on it "
            "cannot be ruled out: writing is refused");
    return info;
}

} // namespace ioprism::platform
