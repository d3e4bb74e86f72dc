// SPDX-License-Identifier: GPL-3.0-or-later
// The operating system's own counters, sampled beside the application's figures on the
// same clock and the same interval boundaries.
//
// A CounterSource returns cumulative values; rates are computed in core from two
// snapshots (cpuFigures below, core/stats/device_figures.h for disks), so the maths is
// the same on every platform and testable on recorded values. A platform without a
// source uses NullCounterSource: an empty but valid snapshot, and the results say the
// counters were unavailable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ioprism::core {

// Cumulative CPU time since boot (system-wide, all CPUs added) and of this process.
struct CpuTimes {
    bool valid = false;
    std::uint32_t cpuCount = 0;
    std::uint64_t userNs = 0; // includes nice
    std::uint64_t systemNs = 0;
    std::uint64_t idleNs = 0;
    std::uint64_t iowaitNs = 0;
    std::uint64_t irqNs = 0;
    std::uint64_t softirqNs = 0;
    std::uint64_t stealNs = 0;
    std::uint64_t processUserNs = 0;
    std::uint64_t processSystemNs = 0;
};

// Percentages of all CPUs over an interval (100 % = every CPU busy), as top/iostat do.
struct CpuFigures {
    bool valid = false;
    double userPercent = 0;
    double systemPercent = 0;
    double iowaitPercent = 0;
    double irqPercent = 0;
    double softirqPercent = 0;
    double stealPercent = 0;
    double idlePercent = 0;
    double busyPercent = 0; // 100 - idle - iowait
    double processPercent = 0; // this process, user + system, % of all CPUs
    friend bool operator==(const CpuFigures &, const CpuFigures &) = default;
};

// IOPrism's CPU effectiveness: IOPS per busy CPU % (Iometer's), 0 without CPU figures.
inline double iopsPerCpuPercent(double iops, const CpuFigures &cpu)
{
    return cpu.valid && cpu.busyPercent > 0 ? iops / cpu.busyPercent : 0;
}

// Parts of CPU figures as one, each percentage weighted by its part's weight: spans that
// follow each other weigh their seconds, hosts side by side weigh alike (Iometer's ALL
// row over several managers). Unknown when any part is, or when there is none.
CpuFigures weightedCpu(
    const std::vector<const CpuFigures *> &parts, const std::vector<double> &weights);

CpuFigures cpuFigures(const CpuTimes &earlier, const CpuTimes &later);

// Cumulative counters of one block device, as Linux keeps them (/proc/diskstats,
// /sys/block/<dev>/stat; Documentation/admin-guide/iostats.rst). Sectors are always
// 512 bytes there, whatever the device's sector size. Times are milliseconds.
// Other platforms fill what they have and leave the rest at 0 (fieldCount says which).
struct DiskCounters {
    std::uint64_t readIos = 0;
    std::uint64_t readMerges = 0;
    std::uint64_t readSectors = 0;
    std::uint64_t readTicksMs = 0;
    std::uint64_t writeIos = 0;
    std::uint64_t writeMerges = 0;
    std::uint64_t writeSectors = 0;
    std::uint64_t writeTicksMs = 0;
    std::uint64_t inFlight = 0; // instantaneous, not cumulative
    std::uint64_t ioTicksMs = 0; // time with at least one I/O in flight (-> %util)
    std::uint64_t weightedTicksMs = 0; // sum of in-flight time of all I/Os (-> aqu-sz)
    std::uint64_t discardIos = 0; // kernel 4.18+
    std::uint64_t discardMerges = 0;
    std::uint64_t discardSectors = 0;
    std::uint64_t discardTicksMs = 0;
    std::uint64_t flushIos = 0; // kernel 5.5+
    std::uint64_t flushTicksMs = 0;
    // Statistics fields the source had: 4 (partitions of kernels before 2.6.25), 11,
    // 15 (with discards), 17 (with flushes). 0 = not read.
    std::uint8_t fieldCount = 0;

    bool hasTimes() const { return fieldCount >= 11; }
    bool hasDiscards() const { return fieldCount >= 15; }
    bool hasFlushes() const { return fieldCount >= 17; }
    friend bool operator==(const DiskCounters &, const DiskCounters &) = default;
};

// What a device is to the targets: the device a target lives on (its counters are the
// ones compared with the application), the whole disk holding that partition, a member
// of a dm/md device, or the device holding a loop device's backing file.
enum class DeviceRole { Target, Disk, Slave, Backing };

// "target", "disk", "member" (a slave of a dm/md device), "backing": results and screens.
std::string_view toString(DeviceRole role);

struct WatchedDevice {
    std::string name; // kernel name: "vda1", "loop3", "dm-0", "nvme0n1p2", "zram0"
    DeviceRole role = DeviceRole::Target;
    // The device it was found from ("vda1" for its disk "vda"); "" for a target's own.
    std::string via;
    // Counted in the device total of the targets: a target's own device, once, unless
    // another target's device lies beneath it in the stack (that one already counts it).
    bool inTotal = false;
    friend bool operator==(const WatchedDevice &, const WatchedDevice &) = default;
};

struct TargetDevices {
    std::string targetPath;
    // Index in DeviceMap::devices of the device carrying the target (compared with the
    // application's bytes); nullopt when it has none (tmpfs, network, unresolvable).
    std::optional<std::size_t> device;
    std::string note; // why there is no device, for the user
    friend bool operator==(const TargetDevices &, const TargetDevices &) = default;
};

// Targets resolved to the devices that carry them (the whole stack, each device once).
// CounterSnapshot::disks has one entry per device, in this order.
struct DeviceMap {
    std::vector<WatchedDevice> devices;
    std::vector<TargetDevices> targets;
    bool empty() const { return devices.empty(); }
    friend bool operator==(const DeviceMap &, const DeviceMap &) = default;
};

struct DiskSample {
    bool valid = false; // false when the device could not be read (it went away)
    DiskCounters counters;
};

// The name a worker thread gives itself (IoBackend::nameCurrentThread; 15 characters
// at most on Linux), and the one the sync engine's I/O threads have.
inline constexpr const char *kWorkerThreadName = "ioprism-worker";
inline constexpr const char *kSyncIoThreadName = "ioprism-sync";

// One thread of this process (Linux: /proc/self/task/<id>/schedstat and comm), for the
// latency verdict (core/stats/latency_verdict.h): whose time an I/O's latency was.
struct ThreadTimes {
    enum class Kind {
        Other, // the sampler, the GUI, a session's threads
        Worker, // an IOPrism worker ("ioprism-w<N>")
        KernelIoWorker, // io_uring's worker doing an I/O handed to it ("iou-wrk-<id>")
    };
    std::int64_t id = 0; // the OS's thread id
    Kind kind = Kind::Other;
    std::uint64_t cpuNs = 0; // on a CPU since the thread started
    std::uint64_t waitNs = 0; // runnable but waiting for a CPU since it started
    friend bool operator==(const ThreadTimes &, const ThreadTimes &) = default;
};

struct CounterSnapshot {
    CpuTimes cpu;
    std::vector<DiskSample> disks; // one per DeviceMap::devices entry, same order
    // Bytes this process has asked block devices to read since it started (Linux:
    // /proc/self/io read_bytes), so that the verdict can tell its own metadata reads
    // from another process's; unset where the OS does not say.
    std::optional<std::uint64_t> processStorageReadBytes;
    // This process's threads; threadsKnown false where the OS does not say.
    bool threadsKnown = false;
    std::vector<ThreadTimes> threads;
};

// Threads: one thread uses a source at a time (the run's control thread); watchTargets
// and sample are not called concurrently.
class CounterSource
{
public:
    virtual ~CounterSource() = default;
    // Cheap enough to call every 100 ms; never throws; invalid fields when unreadable.
    virtual CounterSnapshot sample() = 0;
    // Resolves the targets (files or devices, existing by now) to the devices that carry
    // them and samples those devices from now on, replacing any earlier set. The default
    // watches nothing: a source without device counters returns an empty map.
    virtual DeviceMap watchTargets(const std::vector<std::string> & /*targetPaths*/) { return {}; }
};

class NullCounterSource final : public CounterSource
{
public:
    CounterSnapshot sample() override { return {}; }
};

} // namespace ioprism::core
