// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/cpu_counter_source.h"

#include <array>
#include <cerrno>
#include <charconv>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

namespace ioprism::platform {

namespace {

constexpr std::uint64_t kNsPerSecond = 1'000'000'000;

// Exact for any tick rate, without the overflow of ticks * 1e9 for large counts.
std::uint64_t ticksToNs(std::uint64_t ticks, std::uint64_t ticksPerSecond)
{
    return ticks / ticksPerSecond * kNsPerSecond
        + ticks % ticksPerSecond * kNsPerSecond / ticksPerSecond;
}

std::uint64_t timevalToNs(const timeval &tv)
{
    return static_cast<std::uint64_t>(tv.tv_sec) * kNsPerSecond
        + static_cast<std::uint64_t>(tv.tv_usec) * 1000;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Does the text hold every "cpu" line? It does once a line that is not one has begun
// (the rest of that line, e.g. the long "intr" line, is not needed).
bool holdsAllCpuLines(std::string_view text)
{
    std::size_t start = 0;
    while (text.size() - start >= 3) {
        if (!text.substr(start).starts_with("cpu"))
            return true;
        const std::size_t nl = text.find('\n', start);
        if (nl == std::string_view::npos)
            return false; // a cpu line is cut
        start = nl + 1;
    }
    return false;
}

} // namespace

core::CpuTimes parseProcStat(std::string_view text, long ticksPerSecond)
{
    core::CpuTimes times;
    if (ticksPerSecond <= 0)
        return times;
    const auto hz = static_cast<std::uint64_t>(ticksPerSecond);
    bool haveTotal = false;
    std::uint32_t cpus = 0;

    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        if (!line.starts_with("cpu"))
            continue;
        if (line.size() > 3 && isDigit(line[3])) {
            ++cpus;
            continue;
        }
        if (line.size() < 4 || line[3] != ' ' || haveTotal)
            continue;

        // user nice system idle iowait irq softirq steal guest guest_nice
        std::array<std::uint64_t, 8> v {};
        std::size_t count = 0;
        const char *p = line.data() + 3;
        const char *end = line.data() + line.size();
        while (count < v.size()) {
            while (p < end && *p == ' ')
                ++p;
            if (p == end)
                break;
            const auto [next, ec] = std::from_chars(p, end, v[count]);
            if (ec != std::errc())
                break;
            p = next;
            ++count;
        }
        if (count < 4)
            return times; // not a /proc/stat we understand: invalid
        haveTotal = true;
        times.userNs = ticksToNs(v[0] + v[1], hz);
        times.systemNs = ticksToNs(v[2], hz);
        times.idleNs = ticksToNs(v[3], hz);
        times.iowaitNs = ticksToNs(v[4], hz);
        times.irqNs = ticksToNs(v[5], hz);
        times.softirqNs = ticksToNs(v[6], hz);
        times.stealNs = ticksToNs(v[7], hz);
    }
    times.valid = haveTotal;
    times.cpuCount = cpus;
    return times;
}

LinuxCounterSource::LinuxCounterSource()
    : m_statFd(::open("/proc/stat", O_RDONLY | O_CLOEXEC))
    , m_ticksPerSecond(::sysconf(_SC_CLK_TCK))
    , m_buffer(std::size_t {16} * 1024)
{
    if (m_ticksPerSecond <= 0)
        m_ticksPerSecond = 100; // USER_HZ has been 100 on every Linux architecture since 2.6
}

LinuxCounterSource::~LinuxCounterSource()
{
    if (m_statFd >= 0)
        ::close(m_statFd);
}

std::size_t LinuxCounterSource::readProcStat()
{
    if (m_statFd < 0)
        return 0;
    // A machine with hundreds of CPUs has a long cpu section; grow until it fits, up
    // to a bound far above any real /proc/stat's cpu lines.
    constexpr std::size_t kMaxBytes = std::size_t {4} * 1024 * 1024;
    for (;;) {
        std::size_t total = 0;
        while (total < m_buffer.size()) {
            const ssize_t n = ::pread(m_statFd, m_buffer.data() + total, m_buffer.size() - total,
                static_cast<off_t>(total));
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return 0;
            }
            if (n == 0)
                break;
            total += static_cast<std::size_t>(n);
            // /proc/stat is generated whole at offset 0: one read is normally enough.
            if (holdsAllCpuLines({m_buffer.data(), total}))
                return total;
        }
        if (total < m_buffer.size() || m_buffer.size() >= kMaxBytes)
            return total;
        m_buffer.resize(m_buffer.size() * 2);
    }
}

core::CounterSnapshot LinuxCounterSource::sample()
{
    core::CounterSnapshot snapshot;
    const std::size_t length = readProcStat();
    snapshot.cpu = parseProcStat({m_buffer.data(), length}, m_ticksPerSecond);
    if (!snapshot.cpu.valid)
        return snapshot;
    // getrusage gives user and system time apart (microseconds); the kernel derives
    // them from the precise scheduler runtime, not from ticks.
    struct rusage usage {
    };
    if (::getrusage(RUSAGE_SELF, &usage) == 0) {
        snapshot.cpu.processUserNs = timevalToNs(usage.ru_utime);
        snapshot.cpu.processSystemNs = timevalToNs(usage.ru_stime);
    }
    return snapshot;
}

} // namespace ioprism::platform
