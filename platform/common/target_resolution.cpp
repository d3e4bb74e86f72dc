// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/common/target_resolution.h"

#include "core/profile/icf.h"

#include <filesystem>

#ifdef __linux__
#include <sys/stat.h>
#include <sys/sysmacros.h>
#endif
#ifdef _WIN32
#include "platform/windows/win_util.h"
#endif

namespace ioprism::platform {

namespace fs = std::filesystem;

namespace {
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
    if (target.kind == core::TargetKind::TestFile) {
#ifndef _WIN32
        // `C: "System"` or `\\server\share` from a Windows .icf names a volume of that
        // machine; taken as a path here it would be a file of that literal name in the
        // current folder.
        if (core::isWindowsVolumeName(target.path))
            return false;
#endif
        const fs::path p(target.path);
        if (fs::exists(p, ec))
            return true;
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

core::TargetKind detectTargetKind(const std::string &path)
{
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

} // namespace ioprism::platform
