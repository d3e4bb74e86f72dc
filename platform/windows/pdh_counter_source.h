// SPDX-License-Identifier: GPL-3.0-or-later
// OS counters on Windows: PerfMon counters through PDH, turned into the same cumulative
// values as on Linux (core/stats/perfmon.h), so the run computes the same per-interval
// fields and the same device verdict.
//
//  * Disks: \PhysicalDisk(<n> ...) raw counters of every disk carrying a target. A file's
//    volume is mapped to its disk(s) with IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS; a
//    \\.\PhysicalDriveN target is disk N. A volume on one disk makes that disk the
//    target's device; a volume spanning several disks counts each of them (role Slave).
//    PhysicalDisk counts every volume of the disk: on the system disk, Windows' own I/O
//    shows up beside ours (the verdict says "other traffic" when it matters).
//  * CPU: \Processor(_Total) % User / % Privileged / % Interrupt / % DPC / % Idle Time,
//    formatted by PDH over each sampling span; this process from GetProcessTimes.
//
// Where PDH lacks them, the source degrades instead of failing: without the PhysicalDisk
// object (Wine; or disk counters disabled) watchTargets returns no devices and a note
// per target that device counters are unavailable, and the run reports
// "no device counters"; without the Processor counters (Wine has only a fake
// % Processor Time) CPU times come from GetSystemTimes.
//
// Threads: not thread-safe; the run's control thread calls watchTargets, then sample.
// Never throws.
#pragma once

#include "core/counters.h"

#include <memory>
#include <string>
#include <vector>

namespace ioprism::platform {

struct PdhOptions {
    // Test hooks: behave as if PDH had no Processor / PhysicalDisk counters.
    bool useProcessorCounters = true;
    bool usePhysicalDiskCounters = true;
};

class PdhCounterSource final : public core::CounterSource
{
public:
    explicit PdhCounterSource(const PdhOptions &options = {});
    ~PdhCounterSource() override;
    PdhCounterSource(const PdhCounterSource &) = delete;
    PdhCounterSource &operator=(const PdhCounterSource &) = delete;

    core::CounterSnapshot sample() override;
    core::DeviceMap watchTargets(const std::vector<std::string> &targetPaths) override;

    // Where the CPU figures come from: "PDH" or "GetSystemTimes".
    bool cpuFromPdh() const;
    // "" when PhysicalDisk counters can be read, else why not (for notes and tests).
    const std::string &diskCountersUnavailable() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// The disk numbers carrying a target path (a file, a volume or \\.\PhysicalDriveN);
// empty with `note` set when they cannot be found.
std::vector<std::uint32_t> disksOfTarget(const std::string &path, std::string &note);

} // namespace ioprism::platform
