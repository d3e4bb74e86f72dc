// SPDX-License-Identifier: GPL-3.0-or-later
// Pieces of profiles for core's run tests.
#pragma once

#include "core/profile/profile.h"

#include <cstdint>
#include <string>
#include <utility>

namespace ioprism::test {

// A spec of one line: `size` bytes aligned on their size, `read` % reads, `random` %
// random.
inline core::AccessSpec makeSpec(
    std::string name, std::uint64_t size, std::uint32_t read, std::uint32_t random)
{
    core::AccessSpec s;
    s.name = std::move(name);
    core::SpecLine l;
    l.transferSizeBytes = size;
    l.alignmentBytes = size;
    l.percentRead = read;
    l.percentRandom = random;
    s.lines.push_back(l);
    return s;
}

} // namespace ioprism::test
