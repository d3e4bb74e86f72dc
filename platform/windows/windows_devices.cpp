// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/windows/windows_devices.h"

#include "platform/windows/sector_size.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <vector>
#include <winioctl.h>

namespace ioprism::platform {

namespace win {

namespace {

constexpr std::uint32_t kMaxDrives = 64;

std::wstring volumeDevicePathOf(const std::wstring &guidPath)
{
    std::wstring p = guidPath;
    if (!p.empty() && p.back() == L'\\')
        p.pop_back();
    return p;
}

// IOCTL_STORAGE_QUERY_PROPERTY into a growing buffer.
bool queryProperty(HANDLE h, STORAGE_PROPERTY_ID id, std::vector<BYTE> &out)
{
    STORAGE_PROPERTY_QUERY query {};
    query.PropertyId = id;
    query.QueryType = PropertyStandardQuery;
    out.assign(1024, 0);
    DWORD got = 0;
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (::DeviceIoControl(h, IOCTL_STORAGE_QUERY_PROPERTY, &query, sizeof query, out.data(),
                static_cast<DWORD>(out.size()), &got, nullptr)) {
            if (got >= sizeof(STORAGE_DESCRIPTOR_HEADER)) {
                const auto *header
                    = reinterpret_cast<const STORAGE_DESCRIPTOR_HEADER *>(out.data());
                if (header->Size > out.size() && attempt == 0) {
                    out.assign(header->Size, 0);
                    continue;
                }
            }
            out.resize(got);
            return got > 0;
        }
        if (::GetLastError() != ERROR_INSUFFICIENT_BUFFER && ::GetLastError() != ERROR_MORE_DATA)
            return false;
        out.assign(out.size() * 4, 0);
    }
    return false;
}

std::string stringAt(const std::vector<BYTE> &bytes, DWORD offset)
{
    if (offset == 0 || offset >= bytes.size())
        return {};
    const char *begin = reinterpret_cast<const char *>(bytes.data()) + offset;
    const std::size_t max = bytes.size() - offset;
    std::size_t n = 0;
    while (n < max && begin[n] != '\0')
        ++n;
    return std::string(begin, n);
}

} // namespace

std::string trimmedAscii(std::string_view text)
{
    std::string out;
    for (char c : text)
        out += (static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f)
            ? c
            : ' ';
    const auto first = out.find_first_not_of(' ');
    if (first == std::string::npos)
        return {};
    out = out.substr(first, out.find_last_not_of(' ') - first + 1);
    // Collapse runs of blanks (SCSI inquiry strings are padded).
    std::string collapsed;
    for (char c : out)
        if (!(c == ' ' && !collapsed.empty() && collapsed.back() == ' '))
            collapsed += c;
    return collapsed;
}

std::string joinModel(std::string_view vendor, std::string_view product)
{
    std::string v = trimmedAscii(vendor), p = trimmedAscii(product);
    // SATA drives behind the ATA translation report the vendor "ATA": it says nothing.
    if (v == "ATA" || v == "NVMe" || (!p.empty() && p.rfind(v, 0) == 0))
        v.clear();
    if (v.empty())
        return p;
    return p.empty() ? v : v + " " + p;
}

std::string busTypeName(int busType)
{
    switch (busType) {
    case BusTypeScsi:
        return "SCSI";
    case BusTypeAtapi:
        return "ATAPI";
    case BusTypeAta:
        return "ATA";
    case BusType1394:
        return "1394";
    case BusTypeSsa:
        return "SSA";
    case BusTypeFibre:
        return "Fibre Channel";
    case BusTypeUsb:
        return "USB";
    case BusTypeRAID:
        return "RAID";
    case BusTypeiScsi:
        return "iSCSI";
    case BusTypeSas:
        return "SAS";
    case BusTypeSata:
        return "SATA";
    case BusTypeSd:
        return "SD";
    case BusTypeMmc:
        return "MMC";
    case BusTypeVirtual:
        return "Virtual";
    case BusTypeFileBackedVirtual:
        return "File-backed virtual";
    case BusTypeSpaces:
        return "Storage Spaces";
    case BusTypeNvme:
        return "NVMe";
    case BusTypeSCM:
        return "SCM";
    case BusTypeUfs:
        return "UFS";
    default:
        return {};
    }
}

std::wstring mountedFileSystem(const std::wstring &volumeRoot)
{
    wchar_t fs[MAX_PATH + 1] = {};
    // Without media, or with no file system Windows recognises (RAW), this fails.
    if (!::GetVolumeInformationW(
            volumeRoot.c_str(), nullptr, 0, nullptr, nullptr, nullptr, fs, MAX_PATH + 1))
        return {};
    const std::wstring name = fs;
    return name == L"RAW" ? std::wstring() : name;
}

std::optional<std::vector<DiskExtent>> volumeDiskExtents(const std::wstring &volumeDevicePath)
{
    UniqueHandle h(::CreateFileW(volumeDevicePath.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE,
        nullptr, OPEN_EXISTING, 0, nullptr));
    if (!h.valid())
        return std::nullopt;
    // A spanned or striped volume has one extent per piece: grow until it fits.
    std::vector<BYTE> buffer(sizeof(VOLUME_DISK_EXTENTS) + 8 * sizeof(DISK_EXTENT));
    DWORD got = 0;
    while (!::DeviceIoControl(h.get(), IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS, nullptr, 0,
        buffer.data(), static_cast<DWORD>(buffer.size()), &got, nullptr)) {
        if (::GetLastError() != ERROR_MORE_DATA || buffer.size() > (1u << 20))
            return std::nullopt;
        buffer.resize(buffer.size() * 4);
    }
    const auto *extents = reinterpret_cast<const VOLUME_DISK_EXTENTS *>(buffer.data());
    std::vector<DiskExtent> out;
    for (DWORD i = 0; i < extents->NumberOfDiskExtents; ++i)
        out.push_back({static_cast<std::uint32_t>(extents->Extents[i].DiskNumber),
            static_cast<std::uint64_t>(extents->Extents[i].StartingOffset.QuadPart),
            static_cast<std::uint64_t>(extents->Extents[i].ExtentLength.QuadPart)});
    return out;
}

std::vector<VolumeInfo> enumerateVolumes()
{
    std::vector<VolumeInfo> out;
    wchar_t name[MAX_PATH + 1] = {};
    HANDLE find = ::FindFirstVolumeW(name, MAX_PATH + 1);
    if (find == INVALID_HANDLE_VALUE)
        return out;
    do {
        VolumeInfo v;
        v.guidPath = name;
        DWORD needed = 0;
        std::vector<wchar_t> paths(MAX_PATH + 1);
        if (!::GetVolumePathNamesForVolumeNameW(
                name, paths.data(), static_cast<DWORD>(paths.size()), &needed)
            && ::GetLastError() == ERROR_MORE_DATA) {
            paths.assign(needed, L'\0');
            if (!::GetVolumePathNamesForVolumeNameW(name, paths.data(), needed, &needed))
                paths.assign(1, L'\0');
        }
        for (const wchar_t *p = paths.data(); *p; p += std::wcslen(p) + 1)
            v.mountPoints.emplace_back(p);
        wchar_t label[MAX_PATH + 1] = {}, fs[MAX_PATH + 1] = {};
        DWORD flags = 0;
        if (::GetVolumeInformationW(
                name, label, MAX_PATH + 1, nullptr, nullptr, &flags, fs, MAX_PATH + 1)) {
            v.label = label;
            v.fileSystem = std::wstring(fs) == L"RAW" ? std::wstring() : std::wstring(fs);
            v.readOnly = (flags & FILE_READ_ONLY_VOLUME) != 0;
        }
        ULARGE_INTEGER avail {}, total {}, free {};
        if (::GetDiskFreeSpaceExW(name, &avail, &total, &free)) {
            v.totalBytes = total.QuadPart;
            v.freeBytes = avail.QuadPart;
        }
        if (auto extents = volumeDiskExtents(volumeDevicePathOf(name))) {
            v.extentsKnown = true;
            v.extents = std::move(*extents);
        }
        out.push_back(std::move(v));
    } while (::FindNextVolumeW(find, name, MAX_PATH + 1));
    ::FindVolumeClose(find);
    return out;
}

std::optional<DriveInfo> queryDrive(std::uint32_t number)
{
    const std::wstring path = L"\\\\.\\PhysicalDrive" + std::to_wstring(number);
    UniqueHandle h(::CreateFileW(
        path.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING, 0, nullptr));
    if (!h.valid())
        return std::nullopt;
    DriveInfo d;
    d.number = number;
    DWORD got = 0;
    alignas(8) BYTE geometry[sizeof(DISK_GEOMETRY_EX) + 256] = {};
    if (::DeviceIoControl(h.get(), IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, nullptr, 0, geometry,
            sizeof geometry, &got, nullptr))
        d.sizeBytes = static_cast<std::uint64_t>(
            reinterpret_cast<DISK_GEOMETRY_EX *>(geometry)->DiskSize.QuadPart);
    std::vector<BYTE> bytes;
    if (queryProperty(h.get(), StorageDeviceProperty, bytes)
        && bytes.size() >= sizeof(STORAGE_DEVICE_DESCRIPTOR) - 1) {
        const auto *desc = reinterpret_cast<const STORAGE_DEVICE_DESCRIPTOR *>(bytes.data());
        d.model = joinModel(
            stringAt(bytes, desc->VendorIdOffset), stringAt(bytes, desc->ProductIdOffset));
        d.bus = busTypeName(desc->BusType);
        d.removable = desc->RemovableMedia != FALSE;
    }
    if (queryProperty(h.get(), StorageDeviceSeekPenaltyProperty, bytes)
        && bytes.size() >= sizeof(DEVICE_SEEK_PENALTY_DESCRIPTOR))
        d.seekPenalty = reinterpret_cast<const DEVICE_SEEK_PENALTY_DESCRIPTOR *>(bytes.data())
                            ->IncursSeekPenalty
            != FALSE;
    if (queryProperty(h.get(), StorageDeviceWriteCacheProperty, bytes)
        && bytes.size() >= sizeof(STORAGE_WRITE_CACHE_PROPERTY)) {
        const auto *cache = reinterpret_cast<const STORAGE_WRITE_CACHE_PROPERTY *>(bytes.data());
        if (cache->WriteCacheEnabled != WriteCacheEnableUnknown) {
            d.writeCacheKnown = true;
            d.writeCacheEnabled = cache->WriteCacheEnabled == WriteCacheEnabled;
        }
    }
    const SectorInfo sector = querySectorSize(h.get(), path);
    d.logicalSectorBytes = sector.logicalBytes;
    d.physicalSectorBytes = sector.physicalBytes;
    if (!::DeviceIoControl(h.get(), IOCTL_DISK_IS_WRITABLE, nullptr, 0, nullptr, 0, &got, nullptr)
        && ::GetLastError() == ERROR_WRITE_PROTECT)
        d.readOnly = true;
    return d;
}

} // namespace win

// ---------------------------------------------------------------- portable entry points

std::vector<MountInfo> listMounts()
{
    std::vector<MountInfo> out;
    for (const auto &v : win::enumerateVolumes()) {
        if (v.fileSystem.empty())
            continue; // no file system: no place for a test file
        for (const auto &mp : v.mountPoints) {
            MountInfo m;
            m.mountPoint = win::narrow(mp);
            m.device = win::narrow(v.guidPath);
            m.fsType = win::narrow(v.fileSystem);
            m.readOnly = v.readOnly;
            m.freeBytes = v.freeBytes;
            m.totalBytes = v.totalBytes;
            out.push_back(std::move(m));
        }
    }
    if (out.empty()) {
        // Wine (and a locked-down account) may list no volumes: fall back to the drive
        // letters, which is what a user types anyway.
        const DWORD drives = ::GetLogicalDrives();
        for (int i = 0; i < 26; ++i) {
            if (!(drives & (1u << i)))
                continue;
            const std::wstring root = std::wstring(1, wchar_t(L'A' + i)) + L":\\";
            const UINT type = ::GetDriveTypeW(root.c_str());
            if (type != DRIVE_FIXED && type != DRIVE_REMOVABLE && type != DRIVE_REMOTE
                && type != DRIVE_RAMDISK)
                continue;
            const std::wstring fs = win::mountedFileSystem(root);
            if (fs.empty())
                continue;
            MountInfo m;
            m.mountPoint = win::narrow(root);
            m.device = "\\\\.\\" + win::narrow(root.substr(0, 2));
            m.fsType = win::narrow(fs);
            ULARGE_INTEGER avail {}, total {}, free {};
            if (::GetDiskFreeSpaceExW(root.c_str(), &avail, &total, &free)) {
                m.freeBytes = avail.QuadPart;
                m.totalBytes = total.QuadPart;
            }
            out.push_back(std::move(m));
        }
    }
    return out;
}

std::vector<BlockDeviceInfo> listBlockDevices()
{
    const auto volumes = win::enumerateVolumes();
    std::vector<BlockDeviceInfo> out;
    for (std::uint32_t n = 0; n < 64; ++n) {
        const auto drive = win::queryDrive(n);
        if (!drive)
            continue;
        BlockDeviceInfo d;
        d.name = "PhysicalDrive" + std::to_string(n);
        d.devicePath = "\\\\.\\" + d.name;
        d.deviceNumber = {0, n};
        d.model = drive->model;
        if (!drive->bus.empty())
            d.model = d.model.empty() ? drive->bus : d.model + " (" + drive->bus + ")";
        d.sizeBytes = drive->sizeBytes;
        d.rotational = drive->seekPenalty.value_or(false);
        d.removable = drive->removable;
        d.readOnly = drive->readOnly;
        d.logicalBlockBytes = drive->logicalSectorBytes;
        d.physicalBlockBytes
            = drive->physicalSectorBytes ? drive->physicalSectorBytes : drive->logicalSectorBytes;
        if (drive->writeCacheKnown)
            d.writeCache = drive->writeCacheEnabled ? "write back" : "write through";
        // The volumes on this drive, as its "partitions" (what a user would target).
        for (const auto &v : volumes) {
            for (const auto &e : v.extents) {
                if (!v.extentsKnown || e.diskNumber != n)
                    continue;
                PartitionInfo p;
                p.name = win::narrow(v.guidPath);
                p.devicePath = v.mountPoints.size() && v.mountPoints.front().size() == 3
                    ? "\\\\.\\" + win::narrow(v.mountPoints.front().substr(0, 2))
                    : win::narrow(v.guidPath.substr(0, v.guidPath.size() - 1));
                p.sizeBytes = e.lengthBytes;
                p.startBytes = e.startBytes;
                if (!v.fileSystem.empty())
                    for (const auto &mp : v.mountPoints)
                        p.mountPoints.push_back(win::narrow(mp));
                if (v.extents.size() > 1)
                    p.holders.push_back(
                        "a volume spanning " + std::to_string(v.extents.size()) + " extents");
                d.partitions.push_back(std::move(p));
            }
        }
        out.push_back(std::move(d));
    }
    return out;
}

core::DeviceFacts describeDevice(const std::string &targetPath)
{
    core::DeviceFacts facts;
    facts.path = targetPath;
    std::optional<std::uint32_t> disk = win::physicalDriveNumber(targetPath);
    std::wstring volumeDevice;
    if (!disk) {
        if (win::isVolumeDevicePath(targetPath)) {
            volumeDevice = win::widen(targetPath);
            if (volumeDevice.back() == L'\\')
                volumeDevice.pop_back();
        } else {
            std::wstring w = win::widen(targetPath);
            std::wstring root = win::volumeRootOf(w);
            if (root.empty())
                root = win::volumeRootOf(std::filesystem::path(w).parent_path().wstring());
            volumeDevice = win::volumeDeviceOf(root);
        }
        if (!volumeDevice.empty())
            if (auto extents = win::volumeDiskExtents(volumeDevice);
                extents && extents->size() == 1) {
                disk = extents->front().diskNumber;
                facts.sizeBytes = extents->front().lengthBytes;
            }
        facts.name = win::narrow(volumeDevice);
    }
    if (disk) {
        if (auto d = win::queryDrive(*disk)) {
            if (facts.name.empty()) {
                facts.name = "PhysicalDrive" + std::to_string(*disk);
                facts.sizeBytes = d->sizeBytes;
            } else {
                facts.name += " on PhysicalDrive" + std::to_string(*disk);
            }
            facts.model = d->model;
            facts.rotational = d->seekPenalty.value_or(false);
            facts.logicalSectorBytes = d->logicalSectorBytes;
            facts.physicalSectorBytes = d->physicalSectorBytes;
            if (d->writeCacheKnown)
                facts.writeCache = d->writeCacheEnabled ? "write back" : "write through";
        }
    }
    return facts;
}

} // namespace ioprism::platform
