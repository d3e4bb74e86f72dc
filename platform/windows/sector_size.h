// SPDX-License-Identifier: GPL-3.0-or-later
// The sector size of a file's volume or of a device, for FILE_FLAG_NO_BUFFERING.
//
// Unbuffered I/O on Windows must use offsets, lengths and buffer addresses that are
// multiples of the volume's logical sector size; otherwise real Windows fails the
// request with ERROR_INVALID_PARAMETER (87) or ERROR_OFFSET_ALIGNMENT_VIOLATION (327).
// No single API answers everywhere, so a chain is asked in order, best first:
//
//   1. GetFileInformationByHandleEx(FileStorageInfo)   Windows 8+, on the open file;
//      logical and physical sector size as the file system sees them;
//   2. IOCTL_STORAGE_QUERY_PROPERTY (StorageAccessAlignmentProperty) on the volume;
//   3. IOCTL_DISK_GET_DRIVE_GEOMETRY on the volume or device;
//   4. GetDiskFreeSpaceW on the volume root (bytes per sector, logical only).
//
// Wine answers only 3 (for its C: drive and PhysicalDriveN) and 4, which is why the
// chain exists. An answer that is not a power of two between 512 B and 64 KiB is
// treated as no answer.
#pragma once

#include "platform/windows/win_util.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ioprism::platform::win {

enum class SectorSource {
    FileStorageInfo,
    StorageAlignment,
    DriveGeometry,
    DiskFreeSpace,
    Default
};

// "FileStorageInfo", "IOCTL_STORAGE_QUERY_PROPERTY", "IOCTL_DISK_GET_DRIVE_GEOMETRY",
// "GetDiskFreeSpaceW", "default 512 B".
std::string_view toString(SectorSource source);

struct SectorInfo {
    std::uint32_t logicalBytes = 512;
    std::uint32_t physicalBytes = 0; // 0 when the source does not say
    SectorSource source = SectorSource::Default;
};

struct SectorAnswer {
    std::uint32_t logicalBytes = 0;
    std::uint32_t physicalBytes = 0;
};

// One link of the chain: a query that may have no answer.
struct SectorProbe {
    SectorSource source;
    std::function<std::optional<SectorAnswer>()> query;
};

// The first plausible answer of the probes, in order; 512 B (Default) when none has one.
// Pure: the live chain below and the tests both use it.
SectorInfo firstSectorAnswer(std::span<const SectorProbe> probes);

// The live chain for an open file or device handle. `path` is the path the handle was
// opened with (a file, "\\.\X:" or "\\.\PhysicalDriveN"): for a file, the volume holding
// it answers 2-4; a device answers 2-3 itself.
SectorInfo querySectorSize(HANDLE handle, const std::wstring &path);

} // namespace ioprism::platform::win
