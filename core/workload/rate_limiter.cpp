// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/workload/rate_limiter.h"

#include <algorithm>
#include <cmath>

namespace ioprism::core {

namespace {

// A single I/O never costs more than ~3 years: keeps the integer clock far from overflow
// whatever tiny rate a profile asks for.
constexpr double kMaxCostNs = 1e17;

bool usableRate(double rate) noexcept
{
    return std::isfinite(rate) && rate > 0.0;
}

} // namespace

RateLimiter::RateLimiter(const RateLimit &limit, std::chrono::nanoseconds burstTolerance) noexcept
    : m_toleranceNs(std::max<std::int64_t>(0, burstTolerance.count()))
{
    if (usableRate(limit.iops)) {
        m_iops.active = true;
        m_iops.costPerIoNs = 1e9 / limit.iops;
    }
    if (usableRate(limit.megabytesPerSecond)) {
        m_bandwidth.active = true;
        m_bandwidth.costPerByteNs = 1e9 / (limit.megabytesPerSecond * 1e6);
    }
}

std::int64_t RateLimiter::earliest(
    const Bucket &b, std::int64_t now, std::int64_t tolerance) noexcept
{
    if (!b.active || !b.started)
        return now;
    const std::int64_t paidUntil = b.wholeNs + (b.fractionNs > 0 ? 1 : 0); // rounded up
    return std::max(now, paidUntil - tolerance);
}

void RateLimiter::charge(Bucket &b, std::int64_t now, double costNs) noexcept
{
    // GCRA: paidUntil = max(paidUntil, now) + cost. Lateness below the tolerance leaves
    // paidUntil ahead of now, so no budget is lost to a late wake-up.
    if (!b.started || b.wholeNs < now) {
        b.wholeNs = now;
        b.fractionNs = 0;
        b.started = true;
    }
    const double total = b.fractionNs + std::min(costNs, kMaxCostNs);
    const double whole = std::floor(total);
    b.wholeNs += static_cast<std::int64_t>(whole);
    b.fractionNs = total - whole;
}

std::chrono::nanoseconds RateLimiter::earliestStart(
    std::chrono::nanoseconds now, std::uint32_t /*bytes*/) const noexcept
{
    const std::int64_t t = now.count();
    return std::chrono::nanoseconds {
        std::max(earliest(m_iops, t, m_toleranceNs), earliest(m_bandwidth, t, m_toleranceNs))};
}

void RateLimiter::consume(std::chrono::nanoseconds now, std::uint32_t bytes) noexcept
{
    if (m_iops.active)
        charge(m_iops, now.count(), m_iops.costPerIoNs);
    if (m_bandwidth.active)
        charge(m_bandwidth, now.count(), m_bandwidth.costPerByteNs * static_cast<double>(bytes));
}

} // namespace ioprism::core
