// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/counters.h"

namespace ioprism::core {

std::string_view toString(DeviceRole role)
{
    switch (role) {
    case DeviceRole::Target:
        return "target";
    case DeviceRole::Disk:
        return "disk";
    case DeviceRole::Slave:
        return "member";
    case DeviceRole::Backing:
        return "backing";
    }
    return "";
}

CpuFigures cpuFigures(const CpuTimes &a, const CpuTimes &b)
{
    CpuFigures f;
    if (!a.valid || !b.valid)
        return f;
    auto d = [](std::uint64_t x, std::uint64_t y) { return y > x ? double(y - x) : 0.0; };
    const double user = d(a.userNs, b.userNs), system = d(a.systemNs, b.systemNs),
                 idle = d(a.idleNs, b.idleNs), iowait = d(a.iowaitNs, b.iowaitNs),
                 irq = d(a.irqNs, b.irqNs), softirq = d(a.softirqNs, b.softirqNs),
                 steal = d(a.stealNs, b.stealNs);
    const double total = user + system + idle + iowait + irq + softirq + steal;
    if (total <= 0)
        return f;
    f.valid = true;
    f.userPercent = 100 * user / total;
    f.systemPercent = 100 * system / total;
    f.idlePercent = 100 * idle / total;
    f.iowaitPercent = 100 * iowait / total;
    f.irqPercent = 100 * irq / total;
    f.softirqPercent = 100 * softirq / total;
    f.stealPercent = 100 * steal / total;
    f.busyPercent = 100 - f.idlePercent - f.iowaitPercent;
    f.processPercent = 100
        * (d(a.processUserNs, b.processUserNs) + d(a.processSystemNs, b.processSystemNs)) / total;
    return f;
}

CpuFigures weightedCpu(
    const std::vector<const CpuFigures *> &parts, const std::vector<double> &weights)
{
    CpuFigures m;
    double total = 0;
    for (std::size_t i = 0; i < parts.size() && i < weights.size(); ++i) {
        if (!parts[i]->valid)
            return {}; // a part unknown: the whole unknown
        total += weights[i];
    }
    if (parts.empty())
        return m;
    m.valid = true;
    if (total <= 0)
        return m; // parts of no length: known, and nothing measured
    for (std::size_t i = 0; i < parts.size() && i < weights.size(); ++i) {
        const CpuFigures &c = *parts[i];
        const double w = weights[i] / total;
        m.userPercent += w * c.userPercent;
        m.systemPercent += w * c.systemPercent;
        m.iowaitPercent += w * c.iowaitPercent;
        m.irqPercent += w * c.irqPercent;
        m.softirqPercent += w * c.softirqPercent;
        m.stealPercent += w * c.stealPercent;
        m.idlePercent += w * c.idlePercent;
        m.busyPercent += w * c.busyPercent;
        m.processPercent += w * c.processPercent;
    }
    return m;
}

} // namespace ioprism::core
