// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/block_devices.h"

#include "platform/common/target_resolution.h"
#include "platform/linux/sysfs.h"
#include "platform/linux/udisks_broker.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <grp.h>
#include <linux/loop.h>
#include <pwd.h>
#include <sstream>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace ioprism::platform {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> splitWords(std::string_view line)
{
    std::vector<std::string_view> words;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t')
            ++i;
        if (i > start)
            words.push_back(line.substr(start, i - start));
    }
    return words;
}

template<typename F> void forEachLine(std::string_view text, F &&f)
{
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        f(text.substr(0, nl));
        if (nl == std::string_view::npos)
            break;
        text.remove_prefix(nl + 1);
    }
}

std::vector<std::string> listDir(const fs::path &dir)
{
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        names.push_back(it->path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::vector<std::string> mountPointsOf(const std::vector<MountEntry> &mounts, DeviceNumber dev)
{
    std::vector<std::string> points;
    for (const auto &m : mounts)
        if (m.device == dev)
            points.push_back(m.mountPoint);
    return points;
}

// The longest mount point of `mounts` under which the canonical `path` lies; "" if none.
std::string mountPointIn(const std::vector<MountEntry> &mounts, const std::string &path)
{
    std::error_code ec;
    fs::path p = fs::weakly_canonical(path, ec);
    if (ec)
        p = path;
    const std::string s = p.string();
    std::string best;
    for (const auto &m : mounts) {
        const std::string &mp = m.mountPoint;
        const bool under = s == mp || mp == "/"
            || (s.size() > mp.size() && s.compare(0, mp.size(), mp) == 0 && s[mp.size()] == '/');
        if (under && mp.size() >= best.size())
            best = mp;
    }
    return best;
}

} // namespace

// ---------------------------------------------------------------- pure parsers

std::string unescapeMountField(std::string_view field)
{
    const auto isOct = [](char c) { return c >= '0' && c <= '7'; };
    std::string out;
    out.reserve(field.size());
    for (std::size_t i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && i + 3 < field.size() && isOct(field[i + 1]) && isOct(field[i + 2])
            && isOct(field[i + 3])) {
            out.push_back(static_cast<char>(
                (field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 + (field[i + 3] - '0')));
            i += 3;
            continue;
        }
        out.push_back(field[i]);
    }
    return out;
}

std::optional<DeviceNumber> parseDeviceNumber(std::string_view text)
{
    text = trim(text);
    const std::size_t colon = text.find(':');
    if (colon == std::string_view::npos)
        return std::nullopt;
    DeviceNumber d;
    const auto r1 = std::from_chars(text.data(), text.data() + colon, d.major);
    const auto r2 = std::from_chars(text.data() + colon + 1, text.data() + text.size(), d.minor);
    if (r1.ec != std::errc() || r1.ptr != text.data() + colon || r2.ec != std::errc()
        || r2.ptr != text.data() + text.size())
        return std::nullopt;
    return d;
}

std::vector<MountEntry> parseMountInfo(std::string_view text)
{
    // Format (proc(5)): id parent major:minor root mountpoint options [optional...] -
    // fstype source superoptions
    std::vector<MountEntry> entries;
    forEachLine(text, [&](std::string_view line) {
        const auto w = splitWords(line);
        if (w.size() < 10)
            return;
        const auto sep = std::find(w.begin() + 6, w.end(), std::string_view("-"));
        if (sep == w.end() || std::distance(sep, w.end()) < 3)
            return;
        const auto dev = parseDeviceNumber(w[2]);
        if (!dev)
            return;
        MountEntry e;
        e.device = *dev;
        e.root = unescapeMountField(w[3]);
        e.mountPoint = unescapeMountField(w[4]);
        e.fsType = std::string(sep[1]);
        e.source = unescapeMountField(sep[2]);
        // Per-mount options (field 6) carry ro/rw of this mount point.
        std::string_view opts = w[5];
        while (!opts.empty()) {
            const std::size_t comma = opts.find(',');
            if (opts.substr(0, comma) == "ro")
                e.readOnly = true;
            if (comma == std::string_view::npos)
                break;
            opts.remove_prefix(comma + 1);
        }
        entries.push_back(std::move(e));
    });
    return entries;
}

std::string parseActiveScheduler(std::string_view text)
{
    text = trim(text);
    const std::size_t open = text.find('[');
    if (open == std::string_view::npos)
        return std::string(text.find(' ') == std::string_view::npos ? text : std::string_view());
    const std::size_t close = text.find(']', open);
    if (close == std::string_view::npos)
        return {};
    return std::string(text.substr(open + 1, close - open - 1));
}

std::vector<std::string> parseSwaps(std::string_view text)
{
    std::vector<std::string> paths;
    bool header = true;
    forEachLine(text, [&](std::string_view line) {
        if (header) {
            header = false;
            return;
        }
        const auto w = splitWords(line);
        if (!w.empty())
            paths.push_back(unescapeMountField(w[0]));
    });
    return paths;
}

bool isPseudoFileSystem(std::string_view fsType)
{
    // Overlay, FUSE and network file systems are kept: test files can live there.
    static constexpr std::string_view kPseudo[] = {
        "proc",
        "sysfs",
        "cgroup",
        "cgroup2",
        "devpts",
        "mqueue",
        "debugfs",
        "tracefs",
        "securityfs",
        "pstore",
        "bpf",
        "autofs",
        "configfs",
        "fusectl",
        "hugetlbfs",
        "binfmt_misc",
        "efivarfs",
        "nsfs",
        "rpc_pipefs",
        "selinuxfs",
        "devtmpfs",
        "tmpfs",
        "ramfs",
        "squashfs",
        "nfsd",
        "pipefs",
        "sockfs",
    };
    for (auto p : kPseudo)
        if (p == fsType)
            return true;
    return false;
}

std::string deviceModelText(const DeviceModelSources &sources)
{
    if (!sources.model.empty())
        return sources.model;
    // A SCSI vendor name says something; a PCI vendor id ("0x1af4" for virtio) does not.
    if (!sources.vendor.empty() && !sources.vendor.starts_with("0x"))
        return sources.vendor;
    if (!sources.loopBacking.empty())
        return "loop: " + sources.loopBacking;
    if (!sources.dmName.empty())
        return "dm: " + sources.dmName;
    if (sources.name.starts_with("zram"))
        return "zram";
    return sources.driver; // "virtio_blk", "xen_blkfront", "mmcblk"
}

// ---------------------------------------------------------------- live system

std::string deviceModelOf(const std::string &disk)
{
    const fs::path dir = fs::path("/sys/block") / disk;
    DeviceModelSources sources;
    sources.name = disk;
    sources.model = readAttribute(dir / "device/model");
    sources.vendor = readAttribute(dir / "device/vendor");
    sources.loopBacking = readAttribute(dir / "loop/backing_file");
    sources.dmName = readAttribute(dir / "dm/name");
    std::error_code ec;
    const fs::path driver = fs::read_symlink(dir / "device/driver", ec);
    if (!ec)
        sources.driver = driver.filename().string();
    return deviceModelText(sources);
}

std::vector<MountEntry> readMountTable()
{
    return parseMountInfo(readTextFile("/proc/self/mountinfo"));
}

std::vector<std::string> activeSwaps()
{
    return parseSwaps(readTextFile("/proc/swaps"));
}

std::vector<std::string> holdersOf(const std::string &name)
{
    return listDir(fs::path("/sys/class/block") / name / "holders");
}

std::vector<std::string> slavesOf(const std::string &name)
{
    return listDir(fs::path("/sys/class/block") / name / "slaves");
}

std::vector<std::string> partitionsOf(const std::string &name)
{
    std::vector<std::string> parts;
    const fs::path dir = fs::path("/sys/class/block") / name;
    if (fs::exists(dir / "partition"))
        return parts;
    for (const auto &entry : listDir(dir))
        if (entry.starts_with(name) && fs::exists(dir / entry / "partition"))
            parts.push_back(entry);
    return parts;
}

std::optional<std::string> blockNameOf(DeviceNumber device)
{
    std::error_code ec;
    const fs::path link = fs::read_symlink(fs::path("/sys/dev/block")
            / (std::to_string(device.major) + ":" + std::to_string(device.minor)),
        ec);
    if (ec)
        return std::nullopt;
    return link.filename().string();
}

std::optional<std::string> blockDeviceOfPath(const std::string &path)
{
    struct stat st {
    };
    if (::stat(path.c_str(), &st) != 0)
        return std::nullopt;
    // A device node names itself; anything else lives on st_dev.
    const dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
    return blockNameOf({major(dev), minor(dev)});
}

std::optional<std::string> wholeDiskOf(const std::string &name)
{
    const fs::path dir = fs::path("/sys/class/block") / name;
    std::error_code ec;
    if (!fs::exists(dir, ec))
        return std::nullopt;
    if (!fs::exists(dir / "partition", ec))
        return name;
    // A partition's sysfs directory sits inside its disk's: .../block/sda/sda1.
    const fs::path real = fs::canonical(dir, ec);
    if (ec)
        return std::nullopt;
    return real.parent_path().filename().string();
}

std::string mountPointOfPath(const std::string &path)
{
    return mountPointIn(readMountTable(), path);
}

std::optional<std::string> blockDeviceCarrying(const std::string &path)
{
    std::error_code ec;
    fs::path existing = path;
    if (!fs::exists(existing, ec)) {
        // A test file the run has not created yet will live where its directory does.
        existing = fs::absolute(existing, ec).parent_path();
        if (ec || existing.empty() || !fs::exists(existing, ec))
            return std::nullopt;
    }
    if (auto name = blockDeviceOfPath(existing.string()))
        return name;
    // An anonymous st_dev: the mount's source device, found by mount point and not by
    // st_dev, because a btrfs subvolume's number is not the one the mount table shows.
    const auto mounts = readMountTable();
    const std::string mountPoint = mountPointIn(mounts, existing.string());
    // Of several mounts on one mount point, the last one mounted is the one visible.
    const auto visible = std::find_if(mounts.rbegin(), mounts.rend(),
        [&](const MountEntry &m) { return m.mountPoint == mountPoint; });
    if (mountPoint.empty() || visible == mounts.rend() || !visible->source.starts_with("/dev/"))
        return std::nullopt;
    return blockDeviceOfPath(visible->source);
}

std::vector<MountInfo> listMounts()
{
    std::vector<MountInfo> out;
    for (const auto &m : readMountTable()) {
        if (isPseudoFileSystem(m.fsType))
            continue;
        MountInfo info;
        info.mountPoint = m.mountPoint;
        info.device = m.source;
        info.fsType = m.fsType;
        info.deviceNumber = m.device;
        info.readOnly = m.readOnly;
        struct statvfs sv {
        };
        if (::statvfs(m.mountPoint.c_str(), &sv) == 0) {
            info.freeBytes = static_cast<std::uint64_t>(sv.f_bavail) * sv.f_frsize;
            info.totalBytes = static_cast<std::uint64_t>(sv.f_blocks) * sv.f_frsize;
        }
        out.push_back(std::move(info));
    }
    return out;
}

std::vector<BlockDeviceInfo> listBlockDevices()
{
    const auto mounts = readMountTable();
    std::vector<BlockDeviceInfo> devices;
    for (const auto &name : listDir("/sys/block")) {
        const fs::path dir = fs::path("/sys/block") / name;
        BlockDeviceInfo d;
        d.name = name;
        d.devicePath = "/dev/" + name;
        d.sizeBytes = readNumber<std::uint64_t>(dir / "size") * 512; // always 512-byte units
        // Unattached loop devices and unconfigured zram have size 0: nothing to test.
        if (d.sizeBytes == 0)
            continue;
        if (auto dn = parseDeviceNumber(readTextFile(dir / "dev")))
            d.deviceNumber = *dn;
        d.model = deviceModelOf(name);
        d.rotational = readNumber<int>(dir / "queue/rotational") != 0;
        d.removable = readNumber<int>(dir / "removable") != 0;
        d.readOnly = readNumber<int>(dir / "ro") != 0;
        d.logicalBlockBytes = readNumber<std::uint32_t>(dir / "queue/logical_block_size", 512);
        d.physicalBlockBytes = readNumber<std::uint32_t>(dir / "queue/physical_block_size", 512);
        d.scheduler = parseActiveScheduler(readTextFile(dir / "queue/scheduler"));
        d.nrRequests = readNumber<std::uint32_t>(dir / "queue/nr_requests");
        d.writeCache = readAttribute(dir / "queue/write_cache");
        d.holders = holdersOf(name);
        d.mountPoints = mountPointsOf(mounts, d.deviceNumber);
        for (const auto &part : partitionsOf(name)) {
            const fs::path pdir = dir / part;
            PartitionInfo p;
            p.name = part;
            p.devicePath = "/dev/" + part;
            if (auto dn = parseDeviceNumber(readTextFile(pdir / "dev")))
                p.deviceNumber = *dn;
            p.sizeBytes = readNumber<std::uint64_t>(pdir / "size") * 512;
            p.startBytes = readNumber<std::uint64_t>(pdir / "start") * 512;
            p.holders = holdersOf(part);
            p.mountPoints = mountPointsOf(mounts, p.deviceNumber);
            d.partitions.push_back(std::move(p));
        }
        devices.push_back(std::move(d));
    }
    return devices;
}

} // namespace ioprism::platform

namespace ioprism::platform {

bool LoopBacking::sameStorage(const LoopBacking &other) const
{
    // A block device can have many nodes (/dev/sdb, a copy made with mknod): compare
    // the device, not the node. A file is its inode, whatever path or link reaches it.
    if (blockDevice != DeviceNumber {} || other.blockDevice != DeviceNumber {})
        return blockDevice == other.blockDevice;
    if (inode != 0 && other.inode != 0)
        return fileDevice == other.fileDevice && inode == other.inode;
    // One backing this user cannot identify (its loop device closed to it, its file in a
    // folder closed to it): the kernel's name for the file is all there is. The same name
    // counts as the same storage (a rename or a second link goes unseen: docs/targets.md).
    return !file.empty() && file == other.file;
}

std::optional<LoopBacking> loopBackingOf(const std::string &name)
{
    const fs::path dir = fs::path("/sys/class/block") / name / "loop";
    std::error_code ec;
    if (!fs::exists(dir, ec))
        return std::nullopt; // not a loop device, or one with nothing attached
    LoopBacking b;
    b.file = readAttribute(dir / "backing_file");
    // The kernel's own numbers first: the path may have been deleted, renamed or be in
    // another mount namespace. The path is the fallback.
    const int fd = ::open(("/dev/" + name).c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    loop_info64 info {};
    if (fd >= 0 && ::ioctl(fd, LOOP_GET_STATUS64, &info) == 0) {
        b.fileDevice = {major(info.lo_device), minor(info.lo_device)};
        b.inode = info.lo_inode;
        if (info.lo_rdevice != 0)
            b.blockDevice = {major(info.lo_rdevice), minor(info.lo_rdevice)};
    } else {
        struct stat st {
        };
        if (::stat(b.file.c_str(), &st) == 0) {
            b.fileDevice = {major(st.st_dev), minor(st.st_dev)};
            b.inode = st.st_ino;
            if (S_ISBLK(st.st_mode))
                b.blockDevice = {major(st.st_rdev), minor(st.st_rdev)};
        }
    }
    if (fd >= 0)
        ::close(fd);
    return b;
}

std::optional<std::string> loopDeviceBackedBy(DeviceNumber fileDevice, std::uint64_t inode)
{
    for (const auto &name : listDir("/sys/block")) {
        const auto b = loopBackingOf(name);
        if (b && b->blockDevice == DeviceNumber {} && b->inode == inode
            && b->fileDevice == fileDevice)
            return name;
    }
    return std::nullopt;
}

std::vector<StorageAlias> storageAliasesOf(const std::string &name)
{
    using Kind = StorageAlias::Kind;
    std::vector<std::pair<std::string, LoopBacking>> loops; // every attached loop device
    for (const auto &entry : listDir("/sys/block"))
        if (auto b = loopBackingOf(entry))
            loops.emplace_back(entry, std::move(*b));

    std::vector<StorageAlias> aliases;
    std::vector<std::size_t> todo;
    const auto add = [&](const std::string &n, Kind kind, std::string relation) {
        if (n.empty() || std::any_of(aliases.begin(), aliases.end(), [&](const auto &a) {
                return a.name == n;
            }))
            return;
        aliases.push_back({n, kind, std::move(relation)});
        todo.push_back(aliases.size() - 1);
    };
    add(name, Kind::Itself, {});
    while (!todo.empty()) {
        const StorageAlias current = aliases[todo.back()];
        todo.pop_back();
        const std::string &n = current.name;
        // A whole disk reached from one partition overlaps that partition only: its other
        // partitions are not aliases of the target.
        if (current.kind != Kind::WholeDisk)
            for (const auto &p : partitionsOf(n))
                add(p, Kind::Partition, fmt::format("{} is a partition of {}", p, n));
        for (const auto &h : holdersOf(n))
            add(h, Kind::Holder, fmt::format("{} is held by {}", n, h));
        if (const auto whole = wholeDiskOf(n); whole && *whole != n)
            add(*whole, Kind::WholeDisk, fmt::format("{} is the whole disk of {}", *whole, n));

        const auto number
            = parseDeviceNumber(readTextFile(fs::path("/sys/class/block") / n / "dev"));
        const auto self
            = std::find_if(loops.begin(), loops.end(), [&](const auto &l) { return l.first == n; });
        for (const auto &[loop, backing] : loops) {
            if (loop == n)
                continue;
            if (self != loops.end() && backing.sameStorage(self->second))
                add(loop, Kind::SameBacking,
                    fmt::format("{} has the same backing {} {} as {}", loop,
                        backing.blockDevice != DeviceNumber {} ? "device" : "file", backing.file,
                        n));
            else if (number && backing.blockDevice == *number)
                add(loop, Kind::LoopOver, fmt::format("{} is a loop device over {}", loop, n));
        }
        if (self != loops.end() && self->second.blockDevice != DeviceNumber {})
            if (const auto backingName = blockNameOf(self->second.blockDevice))
                add(*backingName, Kind::Backing,
                    fmt::format("{} is a loop device over {}", n, *backingName));
    }
    return aliases;
}

namespace {

// A user's or group's name (the reentrant look-ups: workers may run meanwhile), else
// its number.
std::string userName(uid_t uid)
{
    struct passwd pw {
    };
    struct passwd *found = nullptr;
    std::array<char, 4096> buffer {};
    if (::getpwuid_r(uid, &pw, buffer.data(), buffer.size(), &found) == 0 && found)
        return found->pw_name;
    return std::to_string(uid);
}

std::string groupNameOf(gid_t gid)
{
    struct group gr {
    };
    struct group *found = nullptr;
    std::array<char, 4096> buffer {};
    if (::getgrgid_r(gid, &gr, buffer.data(), buffer.size(), &found) == 0 && found)
        return found->gr_name;
    return std::to_string(gid);
}

} // namespace

std::string deviceAccessAdvice(const struct stat &st, bool write)
{
    const std::string user = userName(::geteuid());
    const std::string owner = userName(st.st_uid);
    const std::string groupName = groupNameOf(st.st_gid);
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    const std::string node = "the node is " + owner + ":" + groupName + " " + mode;
    // The group helps only when it has the right asked for (a 0640 node: reading only).
    const mode_t groupNeeds = write ? (S_IRGRP | S_IWGRP) : S_IRGRP;
    if ((st.st_mode & groupNeeds) == groupNeeds) {
        // Already a member (of the process's groups or the user's groups in the database):
        // joining again helps nothing; a new login does when the membership is new.
        std::vector<gid_t> groups(static_cast<std::size_t>(std::max(0, ::getgroups(0, nullptr))));
        const int n = ::getgroups(static_cast<int>(groups.size()), groups.data());
        const bool member = ::getegid() == st.st_gid
            || std::find(groups.begin(), groups.begin() + std::max(0, n), st.st_gid)
                != groups.begin() + std::max(0, n);
        if (member)
            return node + ": " + user + " is in the group '" + groupName
                + "' and still may not open it (a security module or a read-only device?)";
        return node + ", so root and the group '" + groupName + "' may open it"
            + (write ? " for writing" : "") + ": add " + user + " to it (usermod -aG " + groupName
            + " " + user + ", then log in again) or run as root";
    }
    return node + ", so only " + owner + " may " + (write ? "write" : "open") + " it: run as "
        + owner + " (no group membership helps here)";
}

std::string accessProblem(const std::string &path, bool write)
{
    struct stat st {
    };
    const std::string user = userName(::geteuid());
    if (::stat(path.c_str(), &st) != 0) {
        // Missing: said by the checks that look for it. Unreachable: said here.
        if (errno == EACCES)
            return user + " may not reach " + path + " (a folder on the way is closed to " + user
                + ")";
        return {};
    }
    // The effective user's rights, as the open will be checked (AT_EACCESS). Creating a
    // file in a folder needs writing and searching it, not reading it.
    const int mode = S_ISDIR(st.st_mode) ? (write ? W_OK | X_OK : R_OK | X_OK)
        : write                          ? (R_OK | W_OK)
                                         : R_OK;
    if (::faccessat(AT_FDCWD, path.c_str(), mode, AT_EACCESS) == 0)
        return {};
    const int err = errno;
    if (err != EACCES && err != EPERM)
        return {};
    if (S_ISBLK(st.st_mode))
        return user + " may not " + (write ? "write " : "read ") + path + ": "
            + deviceAccessAdvice(st, write);
    if (S_ISDIR(st.st_mode))
        return user + " may not create files in " + path
            + ": choose a folder of your own (your home or data folder)";
    return user + " may not " + (write ? "write " : "read ") + path;
}

core::TargetAccess targetAccess(const std::string &path, bool write)
{
    std::string problem = accessProblem(path, write);
    if (problem.empty())
        return {};
    struct stat st {
    };
    // A raw device this user may not open: the broker may (udisks2 asks polkit, which
    // asks the user). Root is never sent there (needsBroker in device_safety.cpp).
    if (::geteuid() != 0 && ::stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) {
        const auto name = blockNameOf({major(st.st_rdev), minor(st.st_rdev)});
        const std::string unavailable
            = name ? udisksUnavailable(*name) : "it is no block device the kernel lists";
        if (unavailable.empty())
            return {core::TargetAccess::Way::Broker,
                "udisks2 will open " + path + (write ? " for writing" : "")
                    + " once you allow it: the system asks for permission (polkit action "
                    + std::string(kUdisksOpenAction) + ")"};
        problem += "; nor can udisks2 open it for you: " + unavailable;
    }
    return {core::TargetAccess::Way::Denied, problem};
}

} // namespace ioprism::platform
