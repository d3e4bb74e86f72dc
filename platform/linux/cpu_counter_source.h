// SPDX-License-Identifier: GPL-3.0-or-later
// CPU counters on Linux: system-wide times from /proc/stat, this process's from
// getrusage(RUSAGE_SELF).
//
// sample() runs every sampling interval (down to 100 ms) on the run's control thread,
// so it is cheap: /proc/stat is opened once and re-read with pread() from offset 0 into
// a buffer that is kept between calls, and parsed in place (no stream, no allocation
// once the buffer has grown to fit). Only the "cpu" lines are needed, and they come
// first, so the (possibly long) "intr" line is not read when the buffer already holds
// them all.
//
// Failure behaviour: never throws; a snapshot whose /proc/stat could not be read or
// parsed is invalid (CpuTimes::valid == false), and cpuFigures() then gives invalid
// figures, which the reports write as "not available".
#pragma once

#include "core/counters.h"

#include <string_view>
#include <vector>

namespace ioprism::platform {

// Parses the text of /proc/stat. `ticksPerSecond` is USER_HZ (sysconf(_SC_CLK_TCK)).
// Fills the system-wide times (user includes nice; guest time is already part of user
// and is not added again) and cpuCount (the "cpuN" lines); valid when the aggregate
// "cpu" line has at least user, nice, system and idle. Process times are left at 0.
core::CpuTimes parseProcStat(std::string_view text, long ticksPerSecond);

// Not thread-safe: one caller at a time (the run's sampler).
class LinuxCounterSource final : public core::CounterSource
{
public:
    LinuxCounterSource();
    ~LinuxCounterSource() override;
    LinuxCounterSource(const LinuxCounterSource &) = delete;
    LinuxCounterSource &operator=(const LinuxCounterSource &) = delete;

    core::CounterSnapshot sample() override;

private:
    // Reads the start of /proc/stat, enough for every "cpu" line; the text's length.
    std::size_t readProcStat();

    int m_statFd = -1;
    long m_ticksPerSecond = 100;
    std::vector<char> m_buffer;
};

} // namespace ioprism::platform
