// SPDX-License-Identifier: GPL-3.0-or-later
// Sizes from a profile multiplied or added without wrapping. A product that does not fit
// in 64 bits saturates at the largest value: a space check then asks for "all of it" and
// fails, where a wrapped product (`--tree 1:1:18446744073709551615` once needed "8 KiB")
// would pass it. Validation refuses such sizes before they get here; this is the net.
#pragma once

#include <cstdint>
#include <limits>

namespace ioprism::core {

inline constexpr std::uint64_t kSaturatedBytes = std::numeric_limits<std::uint64_t>::max();

constexpr std::uint64_t saturatingMul(std::uint64_t a, std::uint64_t b)
{
    return a != 0 && b > kSaturatedBytes / a ? kSaturatedBytes : a * b;
}

constexpr std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b)
{
    return b > kSaturatedBytes - a ? kSaturatedBytes : a + b;
}

} // namespace ioprism::core
