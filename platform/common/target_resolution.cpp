// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/common/target_resolution.h"

#include "core/profile/icf.h"
#include "core/workload/file_tree.h"
#include "platform/common/input_file_reader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#ifdef __linux__
#include "platform/linux/block_devices.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#endif
#ifdef _WIN32
#include "platform/windows/win_util.h"
#endif

namespace ioprism::platform {

namespace fs = std::filesystem;

namespace {

// A UTF-8 path as the file system library wants it (on Windows a narrow std::string
// would be read in the ANSI code page).
fs::path nativePath(const std::string &utf8)
{
#ifdef _WIN32
    return fs::path(win::widen(utf8));
#else
    return fs::path(utf8);
#endif
}

#ifdef __linux__
bool isPartition(const std::string &path)
{
    struct stat st {
    };
    if (::stat(path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode))
        return false;
    const auto sys = "/sys/dev/block/" + std::to_string(major(st.st_rdev)) + ":"
        + std::to_string(minor(st.st_rdev)) + "/partition";
    std::error_code ec;
    return fs::exists(sys, ec);
}
#endif
} // namespace

bool targetExists(const core::Target &target)
{
    std::error_code ec;
    if (target.path.empty())
        return false;
    if (target.kind == core::TargetKind::TestFile || target.kind == core::TargetKind::FileTree) {
#ifndef _WIN32
        // `C: "System"` or `\\server\share` from a Windows .icf names a volume of that
        // machine; taken as a path here it would be a file of that literal name in the
        // current folder.
        if (core::isWindowsVolumeName(target.path))
            return false;
#endif
        fs::path p = nativePath(target.path);
        if (fs::exists(p, ec))
            return true;
        if (!p.has_filename() && p.has_relative_path())
            p = p.parent_path(); // "/data/tree/" is the folder "/data/tree"
        const fs::path parent = p.has_parent_path() ? p.parent_path() : fs::current_path(ec);
        return fs::is_directory(parent, ec);
    }
#ifdef __linux__
    if (fs::exists(target.path, ec))
        return true;
    return target.path.find('/') == std::string::npos && fs::exists("/dev/" + target.path, ec);
#elif defined(_WIN32)
    // Volumes and drives have no file attributes: they exist when they open.
    if (win::physicalDriveNumber(target.path) || win::isVolumeDevicePath(target.path))
        return win::deviceExists(target.path);
    return fs::exists(target.path, ec);
#else
    return fs::exists(target.path, ec);
#endif
}

bool iometerVolumeIsHere(const core::IometerVolume &volume)
{
    std::error_code ec;
#ifdef __linux__
    if (volume.fileSystem.empty())
        return false; // a Windows volume
    // A mount point of the file system the name gives (Iometer's dynamo reports the
    // mount table's type). An empty folder whose file system is not mounted would put
    // the test file on its parent's; the last mount at a point is the one seen there.
    const std::string folder = fs::canonical(volume.folder, ec).string();
    if (ec)
        return false;
    std::string type;
    for (const auto &m : readMountTable())
        if (m.mountPoint == folder)
            type = m.fsType;
    return !type.empty() && type == volume.fileSystem;
#elif defined(_WIN32)
    if (!volume.fileSystem.empty())
        return false; // a Linux mount
    return fs::is_directory(nativePath(volume.folder), ec);
#else
    (void)volume;
    (void)ec;
    return false;
#endif
}

std::optional<core::FileTree> fileTreeAt(const std::string &folder)
{
    std::error_code ec;
    const fs::path marker = nativePath(core::fileTreeMarkerPath(folder));
    // Ours is one short line; a symbolic link is nobody's marker.
    constexpr std::uintmax_t kLongestMarker = 4096;
    if (!fs::is_directory(nativePath(folder), ec)
        || !fs::is_regular_file(fs::symlink_status(marker, ec))
        || fs::file_size(marker, ec) > kLongestMarker || ec)
        return std::nullopt;
    const auto text = readInputFile(marker, kLongestMarker, "file-tree markers");
    if (text.problem)
        return std::nullopt;
    return core::parseFileTreeMarker(text.text);
}

core::TargetKind detectTargetKind(const std::string &path)
{
    if (fileTreeAt(path))
        return core::TargetKind::FileTree;
#ifdef __linux__
    std::error_code ec;
    if (fs::is_block_file(path, ec))
        return isPartition(path) ? core::TargetKind::Partition : core::TargetKind::BlockDevice;
#elif defined(_WIN32)
    if (win::physicalDriveNumber(path))
        return core::TargetKind::PhysicalDrive;
    if (win::isVolumeDevicePath(path))
        return core::TargetKind::Volume;
#endif
    return core::TargetKind::TestFile;
}

bool sameTargetPath(const std::string &a, const std::string &b)
{
#ifdef _WIN32
    if (a == b)
        return true;
    std::wstring wa = win::widen(a);
    std::wstring wb = win::widen(b);
    std::replace(wa.begin(), wa.end(), L'/', L'\\');
    std::replace(wb.begin(), wb.end(), L'/', L'\\');
    // What NTFS and the object manager do: ordinal, case folded by the system's table.
    return ::CompareStringOrdinal(wa.c_str(), static_cast<int>(wa.size()), wb.c_str(),
               static_cast<int>(wb.size()), TRUE)
        == CSTR_EQUAL;
#else
    return a == b;
#endif
}

// Windows: targetAccess and accessProblem are in platform/windows/elevation.cpp (the one
// question Windows answers before an open is whether this process is elevated).

} // namespace ioprism::platform
