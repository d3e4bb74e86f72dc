// SPDX-License-Identifier: GPL-3.0-or-later
// Raw devices on Linux: written only when nothing uses their storage under any name
// (the device, its partitions or whole disk, its holders, loop devices sharing its
// backing), and claimed exclusively for the whole run (linux_backend.h lists the rules).
#include "core/profile/units.h"
#include "platform/common/target_resolution.h"
#include "platform/linux/block_devices.h"
#include "platform/linux/held_targets.h"
#include "platform/linux/linux_backend.h"
#include "platform/linux/linux_preparation.h"
#include "platform/linux/sysfs.h"
#include "platform/linux/udisks_broker.h"
#include "platform/linux/uring_engine.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <filesystem>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace ioprism::platform {

using core::makeOpError;
using core::OpError;

namespace {

std::string aliasHow(const StorageAlias &a)
{
    return a.relation.empty() ? std::string() : " (" + a.relation + ")";
}

// Why writing would destroy what is on the storage (`aliases`, with their device
// `numbers`): a mounted file system, swap, or a device built on it.
std::optional<OpError> inUseRefusal(const std::string &path,
    const std::vector<StorageAlias> &aliases, const std::vector<DeviceNumber> &numbers)
{
    const auto aliasOf = [&](DeviceNumber d) -> const StorageAlias * {
        for (std::size_t i = 0; i < aliases.size(); ++i)
            if (numbers[i] == d && d != DeviceNumber {})
                return &aliases[i];
        return nullptr;
    };
    const auto how = aliasHow;
    for (const auto &m : readMountTable())
        if (const auto *a = aliasOf(m.device))
            return makeOpError(EBUSY, "open device for writing", path,
                a->name + " is mounted at " + m.mountPoint + how(*a)
                    + ": writing would destroy that file system; unmount it first");
    for (const auto &swap : activeSwaps()) {
        struct stat sst {
        };
        if (::stat(swap.c_str(), &sst) == 0 && S_ISBLK(sst.st_mode))
            if (const auto *a = aliasOf({major(sst.st_rdev), minor(sst.st_rdev)}))
                return makeOpError(EBUSY, "open device for writing", path,
                    swap + " is used as swap" + how(*a) + ": swapoff it first");
    }
    for (const auto &a : aliases)
        if (a.kind == StorageAlias::Kind::Holder)
            return makeOpError(EBUSY, "open device for writing", path,
                a.relation
                    + " (device-mapper, LVM, RAID or bcache): writing would destroy it; "
                      "remove that first");
    return std::nullopt;
}

} // namespace

std::optional<OpError> LinuxBackend::aliasRefusal(
    const std::string &path, const std::string &name, DeviceNumber devno) const
{
    // Everything that would be corrupted: every device through which the same storage
    // can be reached (partitions, whole disk, holders, loop devices sharing a backing
    // file or built on it), each checked as if it were the target.
    const auto aliases = storageAliasesOf(name);
    std::vector<DeviceNumber> numbers(aliases.size());
    for (std::size_t i = 0; i < aliases.size(); ++i) {
        numbers[i]
            = parseDeviceNumber(readAttribute("/sys/class/block/" + aliases[i].name + "/dev"))
                  .value_or(DeviceNumber {});
    }
    if (auto refusal = inUseRefusal(path, aliases, numbers))
        return refusal;
    const auto how = aliasHow;
    // Another target of this run on the same storage: our own claim would answer
    // "busy" below, and two targets writing the same bytes is not a benchmark.
    const auto claimedFor = [&](std::size_t i) -> std::optional<DeviceNumber> {
        const auto claim = m_deviceClaims.find({numbers[i].major, numbers[i].minor});
        if (claim == m_deviceClaims.end())
            return std::nullopt;
        return claim->second.forTarget;
    };
    // The other names first: they say how the storage is shared (the device itself is
    // claimed too when another target's storage reaches it).
    for (const bool itself : {false, true})
        for (std::size_t i = 0; i < aliases.size(); ++i)
            if (const auto owner = claimedFor(i); owner && *owner != devno
                && (aliases[i].kind == StorageAlias::Kind::Itself) == itself)
                return makeOpError(EBUSY, "open device for writing", path,
                    aliases[i].name + how(aliases[i])
                        + " is also written by this run: its targets must not overlap");
    // The kernel's answer for every other name of the storage: an exclusive open fails
    // while anything (a file system, swap, another program) claims it.
    for (std::size_t i = 0; i < aliases.size(); ++i) {
        const StorageAlias &a = aliases[i];
        // Our own claims (this target prepared for another worker) would answer busy.
        if (a.kind == StorageAlias::Kind::Itself || !a.exclusiveOpenTells() || claimedFor(i))
            continue;
        const int fd
            = ::open(("/dev/" + a.name).c_str(), O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
        if (fd >= 0) {
            ::close(fd);
        } else if (errno == EBUSY) {
            return makeOpError(EBUSY, "open device for writing", path,
                a.name + " is in use" + how(a)
                    + " (a file system, swap, LVM/RAID or another program holds it): writing "
                      "would corrupt what uses it");
        }
    }
    return std::nullopt;
}

namespace {

// Opened once, without following a link and without blocking, and held for the run:
// the engines open this device node's inode again, never the path (held_targets.h).
core::Result<UniqueFd> openCheckedDevice(const std::string &path, const struct stat &st)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        const int err = errno;
        return makeOpError(err, "open device", path,
            err == EACCES || err == EPERM ? deviceAccessAdvice(st, false)
                : err == ELOOP            ? changedWhilePrepared()
                                          : "");
    }
    UniqueFd dev(fd);
    struct stat opened {
    };
    if (::fstat(fd, &opened) != 0 || !S_ISBLK(opened.st_mode) || opened.st_rdev != st.st_rdev)
        return makeOpError(ESTALE, "open device", path,
            "the device node changed while IOPrism prepared it (it was replaced): IOPrism "
            "opens only the device it checked; try again");
    return dev;
}

// What preparation needs to know of a device.
struct DeviceFacts {
    std::uint64_t sizeBytes = 0;
    std::uint32_t logicalBytes = 512;
    bool readOnly = false;
};

// From the device itself (the descriptor IOPrism holds).
core::Result<DeviceFacts> factsOfOpenDevice(int fd, const std::string &path)
{
    DeviceFacts facts;
    std::uint64_t size = 0;
    if (::ioctl(fd, BLKGETSIZE64, &size) != 0)
        return makeOpError(errno, "BLKGETSIZE64", path);
    facts.sizeBytes = size;
    int logical = 512;
    if (::ioctl(fd, BLKSSZGET, &logical) == 0 && logical >= 512)
        facts.logicalBytes = static_cast<std::uint32_t>(logical);
    int ro = 0;
    facts.readOnly = ::ioctl(fd, BLKROGET, &ro) == 0 && ro != 0;
    return facts;
}

// Keeps `opened` in `dev` and reads the device's facts through it.
core::Result<DeviceFacts> holdAndRead(
    core::Result<UniqueFd> opened, UniqueFd &dev, const std::string &path)
{
    if (!opened)
        return opened.error();
    dev = std::move(*opened);
    return factsOfOpenDevice(dev.get(), path);
}

// From sysfs, which any user may read: for the checks made before the broker is asked.
DeviceFacts factsFromSysfs(const std::string &name)
{
    const fs::path dir = "/sys/class/block/" + name;
    DeviceFacts facts;
    facts.sizeBytes = readNumber<std::uint64_t>(dir / "size") * 512; // always 512-byte units
    facts.logicalBytes
        = std::max<std::uint32_t>(512, readNumber<std::uint32_t>(dir / "queue/logical_block_size"));
    if (const auto disk = wholeDiskOf(name); disk && *disk != name)
        facts.logicalBytes = std::max<std::uint32_t>(512,
            readNumber<std::uint32_t>("/sys/class/block/" + *disk + "/queue/logical_block_size"));
    facts.readOnly = readNumber<int>(dir / "ro") != 0;
    return facts;
}

// True when this user's own rights do not reach the node for what the run needs, so the
// system's broker must open it. Root never goes through the broker: what stops root
// (a security module) would stop udisksd too.
bool needsBroker(const std::string &path, bool write)
{
    if (::geteuid() == 0)
        return false;
    if (::faccessat(AT_FDCWD, path.c_str(), write ? R_OK | W_OK : R_OK, AT_EACCESS) == 0)
        return false;
    return errno == EACCES || errno == EPERM;
}

// Asks udisks2 for the device with the engines' flags, O_EXCL when writing (the kernel
// then refuses whatever claimed it since the checks), and accepts only the device that
// was checked.
core::Result<UniqueFd> openBrokeredDevice(const std::string &path, const std::string &name,
    const struct stat &st, int engineFlags, const core::PrepareOptions &options)
{
    const bool write = options.needWrite;
    BrokerRequest request;
    request.stillWanted = options.stillWanted;
    request.deviceName = name;
    request.write = write;
    request.flags = (engineFlags & ~O_ACCMODE) | (write ? O_EXCL : 0);
    auto opened = openThroughUdisks(request);
    if (!opened) {
        core::OpError e = opened.error();
        e.path = path;
        // The node's own rule first (joining its group may be the simplest help), then
        // why the broker did not open it and what would help there.
        e.detail = e.detail + "; this user's own rights do not reach it either ("
            + deviceAccessAdvice(st, write) + ")";
        return e;
    }
    struct stat got {
    };
    if (::fstat(opened->get(), &got) != 0 || !S_ISBLK(got.st_mode) || got.st_rdev != st.st_rdev)
        return makeOpError(ESTALE, "open device through udisks2", path,
            "udisks2 opened another device than the one IOPrism checked (the node was replaced): "
            "try again");
    return std::move(*opened);
}

// A device is written only when it is writable and the user confirmed it.
std::optional<OpError> unconfirmedWriteRefusal(
    const std::string &path, std::uint64_t size, bool readOnly, const core::PrepareOptions &options)
{
    const std::string what = path + " (" + core::describeSize(size) + ")";
    if (readOnly)
        return makeOpError(EROFS, "open device for writing", path,
            "the profile writes to " + what + " but the device is read-only");
    if (!options.allowDeviceWrites)
        return makeOpError(EPERM, "open device for writing", path,
            "writing to " + what + " destroys its data: pass --allow-device-writes to confirm");
    return std::nullopt;
}

// A device target as checked: its node resolved (a /dev/disk/by-id link to the device
// it names), its kernel name and number.
struct CheckedDevice {
    std::string path;
    struct stat st {
    };
    DeviceNumber devno;
    std::string name;
    bool known = false; // the kernel lists `name` for devno (sysfs)
    // The media's sequence number when checked (kernel 5.15+): a loop device attached
    // again or a disk swapped under the same number gets a new one.
    std::optional<std::uint64_t> diskSeq;
};

core::Result<CheckedDevice> checkedDevice(const core::Target &target)
{
    CheckedDevice d;
    std::error_code ec;
    d.path = fs::canonical(target.path, ec).string();
    if (ec)
        return makeOpError(ec.value(), "open device", target.path);
    if (::stat(d.path.c_str(), &d.st) != 0)
        return makeOpError(errno, "stat", d.path);
    if (!S_ISBLK(d.st.st_mode))
        return makeOpError(ENOTBLK, "open device", d.path,
            S_ISREG(d.st.st_mode) ? "this is a file: choose it as a test file"
                                  : "not a block device");
    d.devno = {major(d.st.st_rdev), minor(d.st.st_rdev)};
    const auto name = blockNameOf(d.devno);
    d.known = name.has_value();
    d.name = name.value_or(fs::path(d.path).filename().string());
    d.diskSeq = readNumberAttribute("/sys/class/block/" + d.name + "/diskseq");
    return d;
}

// The broker's open, once every check passed, accepted only for the media that was
// checked: polkit may have asked for minutes, and a loop device attached to another
// image, or a disk swapped, keeps its device number (st_rdev, which openBrokeredDevice
// compares) but not its disk sequence number or, most likely, its size.
core::Result<DeviceFacts> openSameMedia(const CheckedDevice &checked, const DeviceFacts &before,
    int engineFlags, const core::PrepareOptions &options, UniqueFd &dev)
{
    auto read = holdAndRead(
        openBrokeredDevice(checked.path, checked.name, checked.st, engineFlags, options), dev,
        checked.path);
    if (!read)
        return read.error();
    std::uint64_t seq = 0;
    const bool otherMedia = (checked.diskSeq && ::ioctl(dev.get(), BLKGETDISKSEQ, &seq) == 0
                                && seq != *checked.diskSeq)
        || read->sizeBytes != before.sizeBytes;
    if (otherMedia) {
        dev.reset();
        return makeOpError(ESTALE, "open device through udisks2", checked.path,
            "the device holds other media than IOPrism checked (it was attached again or "
            "swapped while permission was asked): nothing was done; start again");
    }
    return read;
}

} // namespace

std::optional<OpError> LinuxBackend::writeRefusal(
    const core::Target &target, const core::PrepareOptions &options)
{
    // Raw devices only: a test file's folder is checked where the file is made.
    if (!options.needWrite
        || (target.kind != core::TargetKind::BlockDevice
            && target.kind != core::TargetKind::Partition))
        return std::nullopt;
    auto device = checkedDevice(target);
    if (!device)
        return std::nullopt; // prepareTarget says what is wrong with it
    const DeviceFacts facts = factsFromSysfs(device->name);
    if (auto refusal
        = unconfirmedWriteRefusal(device->path, facts.sizeBytes, facts.readOnly, options))
        return refusal;
    return aliasRefusal(device->path, device->name, device->devno);
}

std::optional<OpError> LinuxBackend::accessRefusal(
    const core::Target &target, const core::PrepareOptions &options)
{
    // Polled completions only where every target's queue polls: refused before any
    // target is prepared, rather than as the kernel's EOPNOTSUPP on the first I/O.
    if (m_polling.completions && !target.path.empty())
        if (auto refusal = pollRefusal(target.path, target.cacheMode, m_options.queuePolls))
            return refusal;
    if (target.kind != core::TargetKind::BlockDevice && target.kind != core::TargetKind::Partition)
        return std::nullopt;
    auto device = checkedDevice(target);
    if (!device)
        return std::nullopt;
    const core::TargetAccess access = targetAccess(device->path, options.needWrite);
    if (access.way != core::TargetAccess::Way::Denied)
        return std::nullopt;
    return makeOpError(EACCES, options.needWrite ? "open device for writing" : "open device",
        device->path, access.text);
}

core::Result<core::TargetInfo> LinuxBackend::prepareDevice(
    const core::Target &target, const core::PrepareOptions &options)
{
    auto checked = checkedDevice(target);
    if (!checked)
        return checked.error();
    const std::string &path = checked->path;
    const struct stat &st = checked->st;
    const DeviceNumber devno = checked->devno;
    const std::string &name = checked->name;
    // Safety first, privilege second: what this user may not open is described from
    // sysfs, every refusal below runs on that, and only then is the broker asked.
    const bool brokered = needsBroker(path, options.needWrite);
    if (brokered && !checked->known)
        return makeOpError(ENODEV, "open device", path,
            "the kernel lists no block device with this node's number, so IOPrism cannot check "
            "it before asking udisks2 to open it");
    UniqueFd dev;
    DeviceFacts facts = factsFromSysfs(name);
    if (!brokered) {
        auto read = holdAndRead(openCheckedDevice(path, st), dev, path);
        if (!read)
            return read.error();
        facts = *read;
    }
    if (facts.sizeBytes == 0)
        return makeOpError(ENXIO, "open device", path,
            "the device has no media or size 0 (an unattached loop device?)");
    if (options.needWrite) {
        if (auto refusal = unconfirmedWriteRefusal(path, facts.sizeBytes, facts.readOnly, options))
            return *refusal;
        if (auto refusal = aliasRefusal(path, name, devno))
            return *refusal;
        if (auto refusal = claimAliases(path, name, devno, brokered))
            return *refusal;
    }
    const int engineFlags
        = engineOpenFlags(options.needWrite, target.cacheMode, target.writeThrough);
    if (brokered) {
        auto read = openSameMedia(*checked, facts, engineFlags, options, dev);
        if (!read)
            return read.error();
        facts = *read;
        if (options.needWrite) {
            // What may have changed while polkit asked (an alias mounted meanwhile), then
            // the claim the broker's O_EXCL descriptor is, where this run's own overlap
            // check (aliasRefusal) finds it.
            if (auto refusal = aliasRefusal(path, name, devno))
                return *refusal;
            m_deviceClaims.emplace(std::pair {devno.major, devno.minor},
                DeviceClaim {UniqueFd(::fcntl(dev.get(), F_DUPFD_CLOEXEC, 0)), devno});
        }
    }
    core::TargetInfo info;
    info.path = path;
    info.isDevice = true;
    info.sizeBytes = facts.sizeBytes;
    info.readOnly = facts.readOnly;
    const Alignment a = queryAlignment(path, facts.logicalBytes);
    info.logicalBlockBytes = facts.logicalBytes;
    info.directIoOffsetAlignBytes = std::max<std::uint32_t>(a.offsetBytes, facts.logicalBytes);
    info.directIoMemAlignBytes = a.memBytes;
    // The broker's descriptor is the exclusive claim itself when writing (O_EXCL).
    info.openedBy = brokered ? "udisks2" : "user";
    info.openFlags = openFlagsText(engineFlags, brokered && options.needWrite);
    if (m_options.beforeHold)
        m_options.beforeHold(path);
    const FileIdentity identity = identityOf(dev.get());
    if (brokered)
        m_held->holdShared(path, std::move(dev), identity, engineFlags);
    else
        m_held->holdFile(path, std::move(dev), identity);
    return info;
}

std::optional<OpError> LinuxBackend::claimAliases(
    const std::string &path, const std::string &name, DeviceNumber devno, bool brokered)
{
    // Exclusive claims for the whole run, on the device and on every other name of its
    // storage that the kernel lets us claim: from now on it refuses to mount any of them,
    // or let another program claim them, while we write. (Our own engines open the device
    // without O_EXCL, which an exclusive claim allows.) Not claimed, because the kernel
    // already guards them through the claim on the device: the whole disk of a partition
    // (claiming a partition bars exclusive opens of its disk) and the partitions of a
    // whole disk (claiming a disk bars exclusive opens of its partitions). Holders were
    // refused before (aliasRefusal).
    for (const auto &a : storageAliasesOf(name)) {
        if (a.kind == StorageAlias::Kind::Partition || a.kind == StorageAlias::Kind::WholeDisk
            || a.kind == StorageAlias::Kind::Holder)
            continue;
        // The broker opens the device itself with O_EXCL: that descriptor is the claim.
        if (brokered && a.kind == StorageAlias::Kind::Itself)
            continue;
        const auto number = a.kind == StorageAlias::Kind::Itself
            ? std::optional<DeviceNumber>(devno)
            : parseDeviceNumber(readAttribute("/sys/class/block/" + a.name + "/dev"));
        if (!number)
            continue;
        const std::pair key {number->major, number->minor};
        if (m_deviceClaims.contains(key))
            continue;
        const std::string node = a.kind == StorageAlias::Kind::Itself ? path : "/dev/" + a.name;
        const int excl
            = ::open(node.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
        if (excl < 0) {
            const int err = errno;
            // Writing through the broker, another name of the storage this user cannot
            // claim could be mounted while the run writes: refused, not left unguarded.
            if (brokered && (err == EACCES || err == EPERM))
                return makeOpError(err, "open device exclusively", node,
                    a.name + " (" + a.relation
                        + ") is another name of this storage, and this user may not claim it "
                          "for the run, so it could be mounted while IOPrism writes: run the "
                          "CLI with sudo, or detach "
                        + a.name + " first");
            if (a.kind != StorageAlias::Kind::Itself && err != EBUSY)
                continue; // no node to claim it by (or no right to): see docs/targets.md
            return makeOpError(err, "open device exclusively", node,
                err == EBUSY ? (a.kind == StorageAlias::Kind::Itself
                        ? std::string("the device is in use (held by a file "
                                      "system, swap, LVM/RAID or another program)")
                        : a.name + " (" + a.relation
                            + ") is in use (a file system, swap or another "
                              "program holds it): writing would corrupt what "
                              "uses it")
                             : "");
        }
        UniqueFd claim(excl);
        struct stat cst {
        };
        if (::fstat(excl, &cst) != 0 || !S_ISBLK(cst.st_mode) || major(cst.st_rdev) != number->major
            || minor(cst.st_rdev) != number->minor)
            continue; // the node is not that device (a stale /dev entry): not ours to hold
        m_deviceClaims.emplace(key, DeviceClaim {std::move(claim), devno});
    }
    return std::nullopt;
}

} // namespace ioprism::platform
