// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the fuzz targets: a failed property prints what was being checked and aborts,
// which libFuzzer reports as a crash and saves the input that caused it.
#pragma once

#include "core/profile/problem.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace ioprism::fuzz {

[[noreturn]] inline void fail(
    std::string_view what, const core::Problems &problems, std::string_view text = {})
{
    std::fprintf(stderr, "fuzz property failed: %.*s\n", int(what.size()), what.data());
    for (const auto &p : problems)
        std::fprintf(stderr, "  %s\n", p.toString().c_str());
    if (!text.empty())
        std::fprintf(stderr, "--- text ---\n%.*s\n--- end ---\n", int(text.size()), text.data());
    std::abort();
}

// True when `text` is well-formed UTF-8 (no overlong forms, surrogates or values past
// U+10FFFF). The JSON writer replaces malformed bytes by U+FFFD, so only profiles read
// from valid UTF-8 can round-trip through JSON exactly.
inline bool isValidUtf8(std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t length = 0;
        unsigned min = 0, max = 0x10FFFF, value = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            length = 2, min = 0x80, value = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            length = 3, min = 0x800, value = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            length = 4, min = 0x10000, value = c & 0x07;
        } else {
            return false;
        }
        if (i + length > text.size())
            return false;
        for (std::size_t k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            if ((next & 0xC0) != 0x80)
                return false;
            value = (value << 6) | (next & 0x3F);
        }
        if (value < min || value > max || (value >= 0xD800 && value <= 0xDFFF))
            return false;
        i += length;
    }
    return true;
}

inline std::string_view asText(const unsigned char *data, std::size_t size)
{
    return {reinterpret_cast<const char *>(data), size};
}

} // namespace ioprism::fuzz
