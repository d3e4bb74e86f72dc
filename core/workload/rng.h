// SPDX-License-Identifier: GPL-3.0-or-later
// The workload's pseudo-random number generator.
//
// xoshiro256** (Blackman & Vigna): 256 bits of state, period 2^256 - 1, passes BigCrush,
// about 1 ns per draw. Seeded through splitmix64 so that any 64-bit seed, including 0
// and small consecutive ones, gives a well-mixed, never all-zero state. The sequence is
// a pure function of the seed on every platform and compiler, which is what makes a
// profile with a fixed seed reproducible (std::uniform_int_distribution and friends are
// implementation-defined, so they are not used on any path that must be reproducible).
#pragma once

#include <cstdint>
#include <limits>

namespace ioprism::core {

// splitmix64's output function: a bijection on 64-bit values with good avalanche. Used
// to seed the generator and wherever a value must be scrambled reversibly (tags, keys).
constexpr std::uint64_t mix64(std::uint64_t x) noexcept
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return x;
}

// splitmix64's increment, the "golden gamma" (2^64 / phi, odd).
inline constexpr std::uint64_t kSplitMix64Gamma = 0x9E3779B97F4A7C15ULL;

// One step of splitmix64 (Steele, Lea & Flood): advances the state by the golden gamma.
// The one splitmix64 of the program: seeds, per-worker and per-target salts all use it.
constexpr std::uint64_t splitMix64(std::uint64_t &state) noexcept
{
    state += kSplitMix64Gamma;
    return mix64(state);
}

// The output of splitmix64 one step after `state`, leaving it alone: spreads one seed
// into independent ones (seed + 1, seed + 2, ... give unrelated values).
constexpr std::uint64_t splitMix64Next(std::uint64_t state) noexcept
{
    return splitMix64(state);
}

// High and low 64 bits of a 64x64-bit product. __SIZEOF_INT128__ is a compiler feature
// test (GCC, Clang), not an OS test; the portable fallback keeps MSVC builds working.
struct Product128 {
    std::uint64_t high;
    std::uint64_t low;
};

constexpr Product128 multiply128(std::uint64_t a, std::uint64_t b) noexcept
{
#if defined(__SIZEOF_INT128__)
    __extension__ using U128 = unsigned __int128;
    const U128 p = static_cast<U128>(a) * b;
    return {static_cast<std::uint64_t>(p >> 64), static_cast<std::uint64_t>(p)};
#else
    const std::uint64_t aLo = a & 0xFFFFFFFFULL, aHi = a >> 32;
    const std::uint64_t bLo = b & 0xFFFFFFFFULL, bHi = b >> 32;
    const std::uint64_t ll = aLo * bLo, lh = aLo * bHi, hl = aHi * bLo, hh = aHi * bHi;
    const std::uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFULL) + (hl & 0xFFFFFFFFULL);
    return {hh + (lh >> 32) + (hl >> 32) + (mid >> 32), (mid << 32) | (ll & 0xFFFFFFFFULL)};
#endif
}

// Satisfies std::uniform_random_bit_generator. Not thread-safe: one per worker (or per
// generator), never shared.
class Rng
{
public:
    using result_type = std::uint64_t;

    explicit constexpr Rng(std::uint64_t seed = 0) noexcept { reseed(seed); }

    constexpr void reseed(std::uint64_t seed) noexcept
    {
        std::uint64_t sm = seed;
        for (auto &word : m_state)
            word = splitMix64(sm);
        // splitmix64 output is a bijection of distinct inputs, so the four words cannot
        // all be zero; no fix-up needed.
    }

    static constexpr result_type min() noexcept { return 0; }
    static constexpr result_type max() noexcept { return std::numeric_limits<result_type>::max(); }

    constexpr result_type operator()() noexcept { return next(); }

    constexpr std::uint64_t next() noexcept
    {
        const std::uint64_t result = rotl(m_state[1] * 5, 7) * 9;
        const std::uint64_t t = m_state[1] << 17;
        m_state[2] ^= m_state[0];
        m_state[3] ^= m_state[1];
        m_state[1] ^= m_state[2];
        m_state[0] ^= m_state[3];
        m_state[2] ^= t;
        m_state[3] = rotl(m_state[3], 45);
        return result;
    }

    // Uniform in [0, n) without modulo bias (Lemire, "Fast random integer generation in
    // an interval", 2019): one multiplication, and a division only in the rare case the
    // draw lands in the biased sliver. n == 0 returns 0.
    constexpr std::uint64_t uniform(std::uint64_t n) noexcept
    {
        Product128 m = multiply128(next(), n);
        if (m.low < n) {
            const std::uint64_t threshold = (0 - n) % (n == 0 ? 1 : n);
            while (m.low < threshold)
                m = multiply128(next(), n);
        }
        return m.high;
    }

    // Uniform in [0, 1) with 53 random bits (every representable multiple of 2^-53).
    constexpr double uniformDouble() noexcept
    {
        return static_cast<double>(next() >> 11) * 0x1.0p-53;
    }

    // True `percent` % of the time, exactly: 0 never, 100 (or more) always.
    constexpr bool percentDraw(std::uint32_t percent) noexcept
    {
        if (percent == 0)
            return false;
        if (percent >= 100)
            return true;
        return uniform(100) < percent;
    }

private:
    static constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept
    {
        return (x << k) | (x >> (64 - k));
    }

    std::uint64_t m_state[4] {};
};

} // namespace ioprism::core
