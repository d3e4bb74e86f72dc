// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/agent/constant_time.h"

#include <cstddef>

namespace ioprism::core {

bool constantTimeEquals(std::string_view given, std::string_view secret) noexcept
{
    if (secret.empty())
        return false;
    // Every byte of `given` is compared with the secret's byte at that place (cycled when
    // `given` is longer), and the differences are OR-ed: no branch and no early exit
    // depends on the contents. The lengths' difference joins the result, without a branch.
    // The accumulator is volatile so that the compiler keeps every step.
    volatile unsigned char difference = 0;
    std::size_t j = 0;
    for (std::size_t i = 0; i < given.size(); ++i) {
        difference = static_cast<unsigned char>(difference
            | (static_cast<unsigned char>(given[i]) ^ static_cast<unsigned char>(secret[j])));
        j = j + 1 == secret.size() ? 0 : j + 1;
    }
    const std::size_t lengths = given.size() ^ secret.size();
    unsigned char lengthDiffers = 0;
    for (std::size_t k = 0; k < sizeof lengths; ++k)
        lengthDiffers = static_cast<unsigned char>(lengthDiffers | ((lengths >> (8 * k)) & 0xFF));
    return (difference | lengthDiffers) == 0;
}

} // namespace ioprism::core
