// SPDX-License-Identifier: GPL-3.0-or-later
// What an Iometer target name denotes (icfTargetKind, iometerVolume) and where the test
// file of an imported profile lies (locateIometerTestFiles, markUnresolvedTargets).
#include "core/profile/icf_internal.h"

#include <fmt/format.h>
#include <functional>

namespace ioprism::core {
namespace icf_detail {
namespace {

// Linux partitions: sdb1, hda2, vda3, xvda1 and nvme0n1p2, mmcblk0p1, loop0p1, md0p1.
bool isPartitionName(std::string_view d)
{
    if (d.empty() || !isDigit(d.back()))
        return false;
    std::size_t end = d.size();
    while (end > 0 && isDigit(d[end - 1]))
        --end; // d[end..] is the trailing number
    if (end >= 2 && d[end - 1] == 'p' && isDigit(d[end - 2]))
        return true;
    for (const std::string_view prefix : {"sd", "hd", "vd", "xvd"}) {
        if (d.size() > prefix.size() && d.substr(0, prefix.size()) == prefix) {
            const std::string_view letters = d.substr(prefix.size(), end - prefix.size());
            if (!letters.empty() && std::all_of(letters.begin(), letters.end(), [](char c) {
                    return c >= 'a' && c <= 'z';
                }))
                return true;
        }
    }
    return false;
}

bool isDriveLetterName(std::string_view t)
{
    return t.size() >= 2 && ((t[0] >= 'A' && t[0] <= 'Z') || (t[0] >= 'a' && t[0] <= 'z'))
        && t[1] == ':';
}

// `1: "ATA Model Rev"`: Iometer's newer Windows disk view of a physical drive.
bool isNumberedDriveName(std::string_view t)
{
    std::size_t i = 0;
    while (i < t.size() && isDigit(t[i]))
        ++i;
    return i > 0 && i < t.size() && t[i] == ':' && (i + 1 == t.size() || isSpace(t[i + 1]));
}

// Linux logical disks are reported as "<mount point> [<file system type>]".
bool isMountName(std::string_view t)
{
    const auto open = t.rfind(" [");
    return !t.empty() && t.back() == ']' && open != t.npos && open > 0;
}

} // namespace

// Whether Iometer itself could have reported this name for a test-file (logical) disk.
bool isIometerVolumeName(std::string_view t)
{
    return isDriveLetterName(t) || isMountName(t) || t.substr(0, 2) == "\\\\";
}

} // namespace icf_detail

using namespace icf_detail;

TargetKind icfTargetKind(std::string_view iometerName)
{
    const std::string_view t = trim(iometerName);
    if (startsWithNoCase(t, "PHYSICALDRIVE:") || startsWithNoCase(t, "\\\\.\\PhysicalDrive")
        || startsWithNoCase(t, "\\\\?\\PhysicalDrive") || isNumberedDriveName(t))
        return TargetKind::PhysicalDrive;
    if (t.substr(0, 4) == "\\\\.\\" || t.substr(0, 4) == "\\\\?\\") {
        const std::string_view rest = t.substr(4);
        return isDriveLetterName(rest) && rest.size() <= 3 ? TargetKind::Volume
                                                           : TargetKind::PhysicalDrive;
    }
    if (isDriveLetterName(t) || t.substr(0, 2) == "\\\\" || isMountName(t))
        return TargetKind::TestFile;
    if (t.substr(0, 5) == "/dev/")
        return isPartitionName(t.substr(5)) ? TargetKind::Partition : TargetKind::BlockDevice;
    if (!t.empty() && t.front() == '/')
        return TargetKind::TestFile;
    return isPartitionName(t) ? TargetKind::Partition : TargetKind::BlockDevice;
}

bool isWindowsVolumeName(std::string_view iometerName)
{
    const std::string_view t = trim(iometerName);
    return isDriveLetterName(t) || t.substr(0, 2) == "\\\\";
}

std::optional<IometerVolume> iometerVolume(std::string_view iometerName)
{
    constexpr std::string_view kTestFile = "iobw.tst";
    const std::string_view t = trim(iometerName);
    const auto volume = [&](std::string_view folder, char separator, std::string_view type) {
        IometerVolume v {std::string(t), std::string(folder), std::string(type), {}};
        v.testFile = v.folder;
        if (v.testFile.empty() || v.testFile.back() != separator)
            v.testFile += separator;
        v.testFile += kTestFile;
        return v;
    };
    if (isMountName(t)) {
        if (t.front() != '/')
            return std::nullopt; // Iometer reports mount points absolute
        const auto open = t.rfind(" [");
        return volume(t.substr(0, open), '/', t.substr(open + 2, t.size() - open - 3));
    }
    if (t.substr(0, 2) == "\\\\") {
        // \\server\share, not a device path (\\.\X:) and not a file in a share.
        const std::string_view rest = t.substr(2);
        if (rest.starts_with(".\\") || rest.starts_with("?\\"))
            return std::nullopt;
        const auto slash = rest.find('\\');
        if (slash == rest.npos || slash == 0 || slash + 1 == rest.size()
            || rest.find('\\', slash + 1) != rest.npos)
            return std::nullopt;
        return volume(t, '\\', {});
    }
    if (isDriveLetterName(t)) {
        if (t.size() > 2 && t[2] == '/')
            return std::nullopt; // C:/data/x.tst: a path, as Windows also writes them
        if (t.size() == 2 || t[2] != '\\') {
            const std::string root = std::string(t.substr(0, 2)) + '\\';
            return volume(root, '\\', {}); // C:, C:Label, C: "Label": the drive's root
        }
        // C:\mnt\disk1:label, a mount point; C:\data\file.tst is a file, no volume.
        const auto label = t.rfind(':');
        if (label <= 2)
            return std::nullopt;
        return volume(t.substr(0, label), '\\', {});
    }
    return std::nullopt;
}

namespace {

// Calls fn(target, its path field) for every target of the profile.
void forEachTarget(Profile &profile, const std::function<void(Target &, std::string)> &fn)
{
    for (std::size_t h = 0; h < profile.hosts.size(); ++h) {
        auto &workers = profile.hosts[h].workers;
        for (std::size_t w = 0; w < workers.size(); ++w)
            for (std::size_t t = 0; t < workers[w].targets.size(); ++t)
                fn(workers[w].targets[t],
                    fmt::format("hosts[{}].workers[{}].targets[{}].path", h, w, t));
    }
}

// The platform's answer; a predicate that throws says "does not exist".
bool existsHere(const std::function<bool(const Target &)> &exists, const Target &target)
{
    try {
        return exists(target);
    } catch (...) {
        return false;
    }
}

} // namespace

Problems locateIometerTestFiles(
    Profile &profile, const std::function<bool(const IometerVolume &)> &isHere)
{
    Problems warnings;
    if (!isHere)
        return warnings;
    forEachTarget(profile, [&](Target &target, std::string path) {
        if (target.kind != TargetKind::TestFile)
            return;
        const auto volume = iometerVolume(target.path);
        if (!volume)
            return;
        bool here = false;
        try {
            here = isHere(*volume);
        } catch (...) {
            here = false;
        }
        if (!here)
            return;
        warnings.push_back({Severity::Warning, std::move(path),
            fmt::format("Iometer's volume {} is its test file {} on this machine",
                quote(target.path), quote(volume->testFile))});
        target.path = volume->testFile;
    });
    return warnings;
}

Problems markUnresolvedTargets(Profile &profile, const std::function<bool(const Target &)> &exists)
{
    Problems warnings;
    if (!exists)
        return warnings;
    forEachTarget(profile, [&](Target &target, std::string path) {
        target.unresolved = !existsHere(exists, target);
        if (target.unresolved)
            warnings.push_back({Severity::Warning, std::move(path),
                fmt::format("{} does not exist on this machine; re-point it before running",
                    quote(target.path))});
    });
    return warnings;
}

} // namespace ioprism::core
