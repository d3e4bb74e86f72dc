// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace ioprism::core {

enum class IoDirection : std::uint8_t { Read, Write };

} // namespace ioprism::core
