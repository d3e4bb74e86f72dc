// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/workload/distribution.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>

namespace ioprism::core {

// ---------------------------------------------------------------- BlockPermutation

BlockPermutation::BlockPermutation(std::uint64_t n, std::uint64_t key) noexcept
    : m_n(n == 0 ? 1 : n)
{
    const auto bits = static_cast<unsigned>(std::bit_width(m_n - 1));
    m_mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
    m_shift = std::max(1u, (bits + 1) / 2);
    m_key = mix64(key);
}

std::uint64_t BlockPermutation::mixOnce(std::uint64_t x) const noexcept
{
    // Every step is a bijection of [0, 2^k): adding a constant and multiplying by an odd
    // constant (both mod 2^k), and x ^= x >> s (invertible for s >= 1). Multiplication
    // carries entropy upward, the xor-shifts carry it back down.
    x = (x + m_key) & m_mask;
    x = (x * 0x9E3779B97F4A7C15ULL) & m_mask;
    x ^= x >> m_shift;
    x = ((x ^ (m_key >> 17)) * 0xBF58476D1CE4E5B9ULL) & m_mask;
    x ^= x >> m_shift;
    x = (x * 0x94D049BB133111EBULL) & m_mask;
    x ^= x >> m_shift;
    return x;
}

std::uint64_t BlockPermutation::operator()(std::uint64_t rank) const noexcept
{
    if (m_n <= 1)
        return 0;
    std::uint64_t x = rank & m_mask;
    do {
        x = mixOnce(x);
    } while (x >= m_n);
    return x;
}

// ---------------------------------------------------------------- Zipf helpers

namespace {

// log1p(x) / x, accurate near 0 (where both the numerator and the denominator vanish).
double log1pOverX(double x) noexcept
{
    if (std::abs(x) > 1e-8)
        return std::log1p(x) / x;
    return 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
}

// expm1(x) / x, accurate near 0.
double expm1OverX(double x) noexcept
{
    if (std::abs(x) > 1e-8)
        return std::expm1(x) / x;
    return 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x));
}

// The rejection-inversion method samples the continuous hat h(x) = x^-θ, whose integral
// H(x) = (x^(1-θ) - 1) / (1 - θ) (log x when θ = 1) is written with expm1/log1p so the
// same formula is exact near θ = 1.
double zipfH(double theta, double x) noexcept
{
    return std::exp(-theta * std::log(x));
}

double zipfHIntegral(double theta, double x) noexcept
{
    const double logX = std::log(x);
    return expm1OverX((1.0 - theta) * logX) * logX;
}

double zipfHIntegralInverse(double theta, double y) noexcept
{
    double t = y * (1.0 - theta);
    if (t < -1.0) // rounding can push it just below the domain of log1p
        t = -1.0;
    return std::exp(log1pOverX(t) * y);
}

bool finitePositive(double v) noexcept
{
    return std::isfinite(v) && v > 0.0;
}

} // namespace

// ---------------------------------------------------------------- OffsetDistribution

OffsetDistribution::OffsetDistribution(
    const RandomDistribution &distribution, std::uint64_t blockCount, std::uint64_t scatterKey)
    : m_kind(distribution.kind)
    , m_n(blockCount == 0 ? 1 : blockCount)
    , m_scatter(m_n, scatterKey)
{
    switch (m_kind) {
    case DistributionKind::Uniform:
        break;
    case DistributionKind::Zipf: {
        if (!finitePositive(distribution.zipfTheta)) {
            m_kind = DistributionKind::Uniform;
            break;
        }
        m_theta = distribution.zipfTheta;
        m_hIntegralX1 = zipfHIntegral(m_theta, 1.5) - 1.0;
        m_hIntegralN = zipfHIntegral(m_theta, static_cast<double>(m_n) + 0.5);
        m_acceptThreshold = 2.0
            - zipfHIntegralInverse(m_theta, zipfHIntegral(m_theta, 2.5) - zipfH(m_theta, 2.0));
        break;
    }
    case DistributionKind::Pareto: {
        const double h = distribution.paretoH;
        if (!(h > 0.0 && h < 1.0)) {
            m_kind = DistributionKind::Uniform;
            break;
        }
        m_paretoPower = std::log(h) / std::log(1.0 - h);
        break;
    }
    case DistributionKind::Normal: {
        const double sigmaPercent = distribution.normalSigmaPercent;
        if (!(std::isfinite(sigmaPercent) && sigmaPercent >= 0.0)) {
            m_kind = DistributionKind::Uniform;
            break;
        }
        m_centre = static_cast<double>(m_n) / 2.0;
        m_sigmaBlocks = sigmaPercent / 100.0 * static_cast<double>(m_n);
        break;
    }
    case DistributionKind::HotZones: {
        double accessTotal = 0;
        double regionTotal = 0;
        for (const auto &z : distribution.hotZones) {
            accessTotal += std::max(0.0, z.accessPercent);
            regionTotal += std::max(0.0, z.regionPercent);
        }
        if (!(finitePositive(accessTotal) && finitePositive(regionTotal))) {
            m_kind = DistributionKind::Uniform;
            break;
        }
        m_zones.reserve(distribution.hotZones.size());
        const auto n = static_cast<double>(m_n);
        double accessSoFar = 0;
        double regionSoFar = 0;
        for (std::size_t i = 0; i < distribution.hotZones.size(); ++i) {
            const auto &z = distribution.hotZones[i];
            const bool last = i + 1 == distribution.hotZones.size();
            accessSoFar += std::max(0.0, z.accessPercent);
            const auto first = std::min(
                m_n - 1, static_cast<std::uint64_t>(std::floor(n * regionSoFar / regionTotal)));
            regionSoFar += std::max(0.0, z.regionPercent);
            const std::uint64_t end = last
                ? m_n
                : std::min(
                    m_n, static_cast<std::uint64_t>(std::floor(n * regionSoFar / regionTotal)));
            m_zones.push_back(Zone {
                last ? 1.0 : accessSoFar / accessTotal, first, end > first ? end - first : 1});
        }
        break;
    }
    }
}

std::uint64_t OffsetDistribution::nextZipfRank(Rng &rng) const noexcept
{
    const auto n = static_cast<double>(m_n);
    for (;;) {
        const double u = m_hIntegralN + rng.uniformDouble() * (m_hIntegralX1 - m_hIntegralN);
        const double x = zipfHIntegralInverse(m_theta, u);
        const double k = std::clamp(std::floor(x + 0.5), 1.0, n);
        // Accept at once when k is close enough to x (most draws), otherwise compare u
        // with the area under the hat for k.
        if (k - x <= m_acceptThreshold || u >= zipfHIntegral(m_theta, k + 0.5) - zipfH(m_theta, k))
            return static_cast<std::uint64_t>(k);
    }
}

std::uint64_t OffsetDistribution::next(Rng &rng) const noexcept
{
    switch (m_kind) {
    case DistributionKind::Uniform:
        break;
    case DistributionKind::Zipf:
        return m_scatter(nextZipfRank(rng) - 1);
    case DistributionKind::Pareto: {
        const double position
            = static_cast<double>(m_n) * std::pow(rng.uniformDouble(), m_paretoPower);
        const auto rank = std::min(m_n - 1, static_cast<std::uint64_t>(position));
        return m_scatter(rank);
    }
    case DistributionKind::Normal: {
        // Box-Muller; one output per draw keeps next() const and stateless.
        const double u1 = 1.0 - rng.uniformDouble(); // (0, 1]: log() stays finite
        const double u2 = rng.uniformDouble();
        const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
        const auto n = static_cast<double>(m_n);
        double position = std::fmod(std::floor(m_centre + z * m_sigmaBlocks), n);
        if (position < 0)
            position += n;
        return std::min(m_n - 1, static_cast<std::uint64_t>(position));
    }
    case DistributionKind::HotZones: {
        const double r = rng.uniformDouble();
        const Zone *zone = &m_zones.back();
        for (const auto &z : m_zones) {
            if (r < z.cumulativeAccess) {
                zone = &z;
                break;
            }
        }
        return zone->firstBlock + rng.uniform(zone->blockCount);
    }
    }
    return rng.uniform(m_n);
}

} // namespace ioprism::core
