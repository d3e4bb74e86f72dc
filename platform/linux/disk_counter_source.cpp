// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/disk_counter_source.h"

#include "core/stats/diskstats.h"
#include "platform/linux/block_devices.h"

#include <array>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace ioprism::platform {

namespace {

// /proc/self/io's read_bytes (a few hundred bytes to read; the file may be missing where
// task I/O accounting is not built into the kernel).
std::optional<std::uint64_t> processStorageReadBytes()
{
    const int fd = ::open("/proc/self/io", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    std::array<char, 512> buffer {};
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    ::close(fd);
    if (n <= 0)
        return std::nullopt;
    return core::parseProcIoReadBytes({buffer.data(), static_cast<std::size_t>(n)});
}

constexpr int kMaxStackDepth = 8; // loops on loops on dm...: far more than real stacks

// The device a loop device's I/O goes to: the backing block device, or the device
// carrying the backing file; nullopt for anything but an attached loop device.
std::optional<std::string> loopBackingDevice(const std::string &name)
{
    const auto backing = loopBackingOf(name);
    if (!backing)
        return std::nullopt;
    if (backing->blockDevice != DeviceNumber {})
        return blockNameOf(backing->blockDevice);
    // The kernel's number first (the path may be gone or in another mount namespace);
    // the path where that number is anonymous (btrfs), through the mount table.
    if (auto device = blockNameOf(backing->fileDevice))
        return device;
    std::string file = backing->file;
    constexpr std::string_view kDeleted = " (deleted)";
    if (file.ends_with(kDeleted))
        file.resize(file.size() - kDeleted.size());
    return blockDeviceCarrying(file);
}

class MapBuilder
{
public:
    core::DeviceMap map;

    std::size_t add(const std::string &name, core::DeviceRole role, const std::string &via)
    {
        if (auto it = m_index.find(name); it != m_index.end()) {
            auto &d = map.devices[it->second];
            if (role == core::DeviceRole::Target && d.role != core::DeviceRole::Target) {
                d.role = role;
                d.via.clear();
            }
            return it->second;
        }
        map.devices.push_back({name, role, via, false});
        m_index.emplace(name, map.devices.size() - 1);
        m_below.emplace_back();
        return map.devices.size() - 1;
    }

    // Adds what lies beneath `name`: its disk, its slaves, a loop's backing device.
    void addStack(const std::string &name, int depth = 0)
    {
        if (depth > kMaxStackDepth || !m_expanded.insert(name).second)
            return;
        const std::size_t self = m_index.at(name);
        const auto link = [&](const std::string &lower, core::DeviceRole role) {
            const std::size_t i = add(lower, role, name);
            m_below[self].push_back(i);
            addStack(lower, depth + 1);
        };
        if (auto disk = wholeDiskOf(name); disk && *disk != name)
            link(*disk, core::DeviceRole::Disk);
        for (const auto &slave : slavesOf(name))
            link(slave, core::DeviceRole::Slave);
        if (auto backing = loopBackingDevice(name); backing && *backing != name)
            link(*backing, core::DeviceRole::Backing);
    }

    // Marks the devices counted in the total (see the header: no double count).
    void markTotal()
    {
        std::set<std::size_t> targets;
        for (const auto &t : map.targets)
            if (t.device)
                targets.insert(*t.device);
        for (std::size_t t : targets) {
            bool shadowed = false;
            std::vector<std::size_t> todo = m_below[t];
            std::set<std::size_t> seen;
            while (!todo.empty() && !shadowed) {
                const std::size_t i = todo.back();
                todo.pop_back();
                if (!seen.insert(i).second)
                    continue;
                shadowed = targets.count(i) > 0;
                todo.insert(todo.end(), m_below[i].begin(), m_below[i].end());
            }
            map.devices[t].inTotal = !shadowed;
        }
    }

private:
    std::map<std::string, std::size_t> m_index;
    std::vector<std::vector<std::size_t>> m_below; // per device: the devices beneath it
    std::set<std::string> m_expanded;
};

} // namespace

core::DeviceMap resolveTargetDevices(const std::vector<std::string> &targetPaths)
{
    MapBuilder b;
    for (const auto &path : targetPaths) {
        core::TargetDevices t;
        t.targetPath = path;
        if (auto name = blockDeviceCarrying(path);
            name && fs::exists(fs::path("/sys/class/block") / *name / "stat")) {
            t.device = b.add(*name, core::DeviceRole::Target, "");
            b.addStack(*name);
        } else {
            t.note = "no block device carries it (a memory, network or virtual file system): "
                     "nothing to compare with";
        }
        b.map.targets.push_back(std::move(t));
    }
    b.markTotal();
    return std::move(b.map);
}

// ---------------------------------------------------------------- DiskStatReader

DiskStatReader::~DiskStatReader()
{
    closeAll();
}

void DiskStatReader::closeAll()
{
    for (int fd : m_fds)
        if (fd >= 0)
            ::close(fd);
    m_fds.clear();
}

void DiskStatReader::watch(const std::vector<std::string> &names)
{
    closeAll();
    m_fds.reserve(names.size());
    for (const auto &name : names) {
        const std::string path = "/sys/class/block/" + name + "/stat";
        m_fds.push_back(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    }
}

void DiskStatReader::read(std::vector<core::DiskSample> &out) const
{
    out.resize(m_fds.size());
    // 17 fields of up to 20 digits and padding: well under 512 bytes.
    std::array<char, 512> buffer {};
    for (std::size_t i = 0; i < m_fds.size(); ++i) {
        out[i] = {};
        if (m_fds[i] < 0)
            continue;
        // sysfs regenerates the text on every read from offset 0: no reopen needed.
        const ssize_t n = ::pread(m_fds[i], buffer.data(), buffer.size(), 0);
        if (n <= 0)
            continue;
        if (auto c = core::parseDiskStatFields(std::string_view(buffer.data(), std::size_t(n)))) {
            out[i].valid = true;
            out[i].counters = *c;
        }
    }
}

// ---------------------------------------------------------------- source

LinuxDeviceCounterSource::LinuxDeviceCounterSource(std::unique_ptr<core::CounterSource> cpu)
    : m_cpu(std::move(cpu))
{ }

core::CounterSnapshot LinuxDeviceCounterSource::sample()
{
    core::CounterSnapshot s = m_cpu ? m_cpu->sample() : core::CounterSnapshot {};
    m_disks.read(s.disks);
    s.processStorageReadBytes = processStorageReadBytes();
    s.threadsKnown = m_threads.read(s.threads);
    return s;
}

core::DeviceMap LinuxDeviceCounterSource::watchTargets(const std::vector<std::string> &targetPaths)
{
    core::DeviceMap map = resolveTargetDevices(targetPaths);
    std::vector<std::string> names;
    names.reserve(map.devices.size());
    for (const auto &d : map.devices)
        names.push_back(d.name);
    m_disks.watch(names);
    return map;
}

} // namespace ioprism::platform
