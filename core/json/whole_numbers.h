// SPDX-License-Identifier: GPL-3.0-or-later
// A whole number read as 64 bits into the integer type of the field it is for, checked
// against that type's range: what every reader of messages does, whatever the form (JSON
// through the path-aware reader, the session codec's binary intervals).
#pragma once

#include "core/json/json_reader.h"

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace ioprism::core {

// `in` has signedNumber(), unsignedNumber() and fail(why) (which ends the read): a
// JsonNode through JsonWholeNumbers, or a binary reader. T is an integer type, not bool.
template<typename T, typename In> void readWholeNumber(In &in, T &value)
{
    static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
    if constexpr (std::is_signed_v<T>) {
        const std::int64_t n = in.signedNumber();
        if (n < std::numeric_limits<T>::min() || n > std::numeric_limits<T>::max())
            in.fail("out of range");
        value = static_cast<T>(n);
    } else {
        const std::uint64_t n = in.unsignedNumber();
        if (n > std::numeric_limits<T>::max())
            in.fail("out of range");
        value = static_cast<T>(n);
    }
}

// A JSON value as readWholeNumber reads it.
struct JsonWholeNumbers {
    const JsonNode &node;
    std::int64_t signedNumber() const { return node.i64(); }
    std::uint64_t unsignedNumber() const { return node.u64(); }
    void fail(const std::string &why) const { node.fail(why); }
};

} // namespace ioprism::core
