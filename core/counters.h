// The operating system's own counters, sampled beside the application's figures on the
// same clock and the same interval boundaries.
//
// A CounterSource returns cumulative values; rates are computed in core from two
// snapshots (core/stats/cpu_figures.h), so the maths is the same on every platform and
// testable on recorded values. A platform without a source uses NullCounterSource:
// an empty but valid snapshot, and the results say the counters were unavailable.
#pragma once

#include <cstdint>
#include <string>
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
    double busyPercent = 0;    // 100 - idle - iowait
    double processPercent = 0; // this process, user + system, % of all CPUs
};

CpuFigures cpuFigures(const CpuTimes &earlier, const CpuTimes &later);

struct CounterSnapshot {
    CpuTimes cpu;
};

class CounterSource
{
public:
    virtual ~CounterSource() = default;
    // Cheap enough to call every 100 ms; never throws; invalid fields when unreadable.
    virtual CounterSnapshot sample() = 0;
};

class NullCounterSource final : public CounterSource
{
public:
    CounterSnapshot sample() override { return {}; }
};

} // namespace ioprism::core
