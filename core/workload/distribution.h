// SPDX-License-Identifier: GPL-3.0-or-later
// Where random I/O lands: a block index drawn from one of the fio distributions.
//
// An OffsetDistribution is built once per line (before the run) and then only draws:
// next() is O(1), allocates nothing and reads only its own constants, so one object can
// serve one generator on the hot path. The caller turns the block index into a byte
// offset (IoGenerator: region start + index * alignment).
#pragma once

#include "core/profile/profile.h"
#include "core/workload/rng.h"

#include <cstdint>
#include <vector>

namespace ioprism::core {

// A keyed bijection of [0, n): spreads the popular ranks of skewed distributions over
// the whole region, so that hot blocks are not all at offset 0 (which would measure the
// first few megabytes of the device rather than a skewed workload). Unlike fio's
// `hash(rank) % n`, it is a permutation: distinct ranks never collide and every block
// stays reachable, so the rank-frequency shape is preserved exactly.
//
// Construction: an invertible mix on the smallest power-of-two domain 2^k >= n (add a
// key, multiply by odd constants, xor-shift; each step is a bijection mod 2^k), then
// cycle-walking: re-apply until the value is below n. Since 2^k < 2n, fewer than two
// rounds are needed on average, and the walk always ends because it follows a cycle of
// the permutation that contains the (in-range) start.
class BlockPermutation
{
public:
    explicit BlockPermutation(std::uint64_t n = 1, std::uint64_t key = 0) noexcept;
    std::uint64_t operator()(std::uint64_t rank) const noexcept;
    std::uint64_t size() const noexcept { return m_n; }

private:
    std::uint64_t mixOnce(std::uint64_t x) const noexcept;

    std::uint64_t m_n;
    std::uint64_t m_mask;
    unsigned m_shift;
    std::uint64_t m_key;
};

// Draws block indices in [0, blockCount).
//
//  Uniform   every block equally likely (Iometer's only distribution).
//  Zipf θ    P(rank k) ∝ 1 / k^θ for k = 1..N, exact (rejection-inversion sampling,
//            Hörmann & Derflinger 1996: O(1) setup, O(1) expected per draw, any N up to
//            2^53 and any θ > 0 including 1; fio approximates with Gray et al.'s formula
//            after an O(N) zeta sum). Ranks are scattered with BlockPermutation.
//  Pareto h  fio's semantics: index = N * u^(log h / log(1 - h)), u uniform, then
//            scattered. With h = 0.2, 80 % of accesses go to 20 % of the blocks; in
//            general a fraction 1 - h of the accesses go to a fraction h of the blocks.
//            h = 0.5 is uniform. h must be in (0, 1).
//  Normal σ  a Gaussian centred on the region (block N/2) with standard deviation
//            σ % of the region, not scattered (the point is locality around the
//            centre). Draws beyond either end wrap around modulo N rather than
//            clamping, so no block at the edges gets the whole tail; for σ <= 15 % this
//            moves fewer than 1 draw in 10^3, for large σ the shape tends to uniform.
//  HotZones  zones laid out from block 0 in list order, each covering regionPercent of
//            the blocks; a draw picks a zone with probability accessPercent and then a
//            uniform block inside it. Both lists of percentages are normalised by their
//            sums (validation requires 100 each). A zone too small to hold a block keeps
//            one block (its start) so its accesses are not lost; an empty zone list, or
//            one whose percentages sum to 0, behaves as Uniform.
class OffsetDistribution
{
public:
    // The key used to scatter ranks when none is given: a constant, so every worker
    // that runs the same line on the same target shares the same hot blocks (as a real
    // application's hot set is shared by its threads) and runs are comparable.
    static constexpr std::uint64_t kDefaultScatterKey = 0x1F0F12A5C0FFEE01ULL;

    // blockCount >= 1 (0 is treated as 1). Parameters outside their domain (θ <= 0,
    // h outside (0,1), σ < 0, NaN) fall back to Uniform; validation reports them first.
    OffsetDistribution(const RandomDistribution &distribution, std::uint64_t blockCount,
        std::uint64_t scatterKey = kDefaultScatterKey);

    std::uint64_t next(Rng &rng) const noexcept;

    std::uint64_t blockCount() const noexcept { return m_n; }
    DistributionKind kind() const noexcept { return m_kind; }

private:
    struct Zone {
        double cumulativeAccess; // upper bound of this zone's share in [0, 1]
        std::uint64_t firstBlock;
        std::uint64_t blockCount; // >= 1
    };

    std::uint64_t nextZipfRank(Rng &rng) const noexcept; // in [1, N]

    DistributionKind m_kind = DistributionKind::Uniform;
    std::uint64_t m_n = 1;
    BlockPermutation m_scatter;
    // Zipf (rejection-inversion constants).
    double m_theta = 0;
    double m_hIntegralX1 = 0;
    double m_hIntegralN = 0;
    double m_acceptThreshold = 0;
    // Pareto.
    double m_paretoPower = 1;
    // Normal.
    double m_centre = 0;
    double m_sigmaBlocks = 0;
    // HotZones.
    std::vector<Zone> m_zones;
};

} // namespace ioprism::core
