// SPDX-License-Identifier: GPL-3.0-or-later
// Device counters on Linux: which block devices carry the targets, and their block-layer
// statistics (/sys/class/block/<name>/stat), sampled beside the CPU counters.
//
// Resolution (resolveTargetDevices): a target lives on one block device, the one
// blockDeviceCarrying (block_devices.h) names, as the device description and the io_poll
// check do. Below it the whole stack is listed, each device once:
//   * a partition -> its whole disk (role Disk);
//   * a dm or md device -> its slaves, recursively (role Slave);
//   * a loop device -> the device holding its backing file (role Backing), and that
//     device's own stack.
// nvme namespaces and their partitions, virtio disks and zram are plain disks or
// partitions. tmpfs, overlay and network file systems have no device.
//
// Counting rule (no double count): the verdict compares the application's bytes with the
// device each target lives on, at the level the target's I/O enters the block layer (the
// partition for a file on a partition, the loop device for a loop target or a file on
// it). The device total adds those devices once each, and leaves out a target device
// when another target device lies beneath it in the stack (the lower one already counts
// its I/O: a file on vda1 and the raw disk vda count vda only).
//
// Sampling cost: one pread(2) per watched device from a file descriptor opened once,
// parsed in place (core/stats/diskstats.h); nothing is allocated per sample beyond the
// snapshot's vector. See docs/performance.md.
//
// Threads: not thread-safe; the run's control thread calls watchTargets then sample.
// Failure behaviour: never throws; a device that cannot be read (gone) gives an invalid
// DiskSample, and the run reports its figures as unavailable.
#pragma once

#include "core/counters.h"
#include "platform/linux/thread_times.h"

#include <memory>
#include <string>
#include <vector>

namespace ioprism::platform {

// The devices carrying the targets, with their stacks, in the order given.
core::DeviceMap resolveTargetDevices(const std::vector<std::string> &targetPaths);

// Reads /sys/class/block/<name>/stat of a fixed set of devices.
class DiskStatReader
{
public:
    DiskStatReader() = default;
    ~DiskStatReader();
    DiskStatReader(const DiskStatReader &) = delete;
    DiskStatReader &operator=(const DiskStatReader &) = delete;

    // Opens the stat files (closing the earlier ones). A name that cannot be opened
    // stays in the set and reads as invalid.
    void watch(const std::vector<std::string> &names);
    // One sample per watched name, same order; `out` is resized to fit.
    void read(std::vector<core::DiskSample> &out) const;
    std::size_t size() const { return m_fds.size(); }

private:
    void closeAll();
    std::vector<int> m_fds;
};

// The CPU source given (LinuxCounterSource) plus the targets' block devices.
class LinuxDeviceCounterSource final : public core::CounterSource
{
public:
    explicit LinuxDeviceCounterSource(std::unique_ptr<core::CounterSource> cpu);

    core::CounterSnapshot sample() override;
    core::DeviceMap watchTargets(const std::vector<std::string> &targetPaths) override;

private:
    std::unique_ptr<core::CounterSource> m_cpu;
    DiskStatReader m_disks;
    OwnThreadReader m_threads; // its files kept open between samples
};

} // namespace ioprism::platform
