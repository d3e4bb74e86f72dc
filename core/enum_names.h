// SPDX-License-Identifier: GPL-3.0-or-later
// An enumeration read back from the name its toString() gives it.
#pragma once

#include <optional>
#include <string_view>

namespace ioprism::core {

// The value of E whose toString() is `name`, or nullopt. Complete by construction: it
// asks toString, whose switch the compiler checks, about every value from 0 in turn, and
// stops where toString gives "" (past the last declared value; a scoped enum holds any
// value of its underlying type).
template<typename E> std::optional<E> enumFromName(std::string_view name)
{
    for (int i = 0;; ++i) {
        const auto value = static_cast<E>(i);
        const std::string_view known = toString(value);
        if (known.empty())
            return std::nullopt;
        if (known == name)
            return value;
    }
}

} // namespace ioprism::core
