// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/terminal_text.h"

#include <fmt/format.h>

namespace ioprism::cli {

namespace {

// The length of the well-formed UTF-8 sequence at `i` (2 to 4), or 0 when it is none.
std::size_t utf8Length(std::string_view text, std::size_t i)
{
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    unsigned value = 0, min = 0;
    if ((c & 0xE0) == 0xC0)
        length = 2, value = c & 0x1Fu, min = 0x80;
    else if ((c & 0xF0) == 0xE0)
        length = 3, value = c & 0x0Fu, min = 0x800;
    else if ((c & 0xF8) == 0xF0)
        length = 4, value = c & 0x07u, min = 0x10000;
    else
        return 0;
    if (i + length > text.size())
        return 0;
    for (std::size_t k = 1; k < length; ++k) {
        const auto next = static_cast<unsigned char>(text[i + k]);
        if ((next & 0xC0) != 0x80)
            return 0;
        value = (value << 6) | (next & 0x3Fu);
    }
    if (value < min || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF))
        return 0;
    return length;
}

} // namespace

std::string terminalText(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            if (c == '\n')
                out += "\\n";
            else if (c == '\t')
                out += "\\t";
            else if (c == '\r')
                out += "\\r";
            else if (c < 0x20 || c == 0x7F)
                out += fmt::format("\\x{:02x}", c);
            else
                out += static_cast<char>(c);
            ++i;
            continue;
        }
        const std::size_t length = utf8Length(text, i);
        if (length == 0) {
            out += fmt::format("\\x{:02x}", c);
            ++i;
            continue;
        }
        // U+0080-U+009F, the C1 controls, are C2 80 to C2 9F.
        const auto second = static_cast<unsigned char>(text[i + 1]);
        if (c == 0xC2 && second < 0xA0)
            out += fmt::format("\\u{:04x}", second);
        else
            out.append(text.substr(i, length));
        i += length;
    }
    return out;
}

} // namespace ioprism::cli
