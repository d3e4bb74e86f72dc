// SPDX-License-Identifier: GPL-3.0-or-later
// JSON text as the results files lay it out (docs/results.md, "JSON results"): objects
// one member per line, 2-space indent, and an array of plain values (numbers, strings,
// booleans, null) on one line, so that a column of 3600 numbers is one line, not 3600.
// The pieces are public so that a writer can stream a large part (the intervals) without
// building a document of it, in the same layout and number format as the rest.
//
// Numbers: whole numbers as they are; a double with the fewest digits that read back to
// the same double (std::to_chars), as a plain decimal from 1e-5 to 1e16 and with an
// exponent beyond, with ".0" when it has neither point nor exponent (so that 3.0 stays a
// floating-point number for readers that tell them apart); a double that is not finite
// as null.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ioprism::core {

void appendJsonNumber(std::string &out, double value);
void appendJsonNumber(std::string &out, std::uint64_t value);
// `value` rounded to `decimals` places (at most 9), written without trailing zeros but
// with at least one decimal ("2.5", "3.0"): a figure kept to the resolution of what it
// measures (a nanosecond of latency, a byte per second), not to the 17 digits of a double.
// Reading it and writing it again gives the same text. Beyond 1e15 units of the last place
// (where a double no longer holds them exactly), as appendJsonNumber.
void appendJsonFixed(std::string &out, double value, int decimals);
// A JSON string; text that is not valid UTF-8 gets U+FFFD replacements.
void appendJsonString(std::string &out, std::string_view text);
// `value` as it appears at nesting `level` (its closing bracket indented by 2 * level).
void appendJson(std::string &out, const nlohmann::ordered_json &value, int level);

// A writer of nested objects and arrays in that layout, for text streamed piece by piece.
class JsonTextWriter
{
public:
    // Writes into `out`, the first value at nesting `level`.
    JsonTextWriter(std::string &out, int level);

    std::string &text() { return m_out; }

    void beginObject();
    void endObject();
    void beginArray(); // an array laid out one element per line
    void endArray();
    void key(std::string_view name); // the next member of the open object
    void element(); // the next element of the open multi-line array

    void null() { m_out += "null"; }
    void boolean(bool value) { m_out += value ? "true" : "false"; }
    void number(double value) { appendJsonNumber(m_out, value); }
    void number(std::uint64_t value) { appendJsonNumber(m_out, value); }
    void fixed(double value, int decimals) { appendJsonFixed(m_out, value, decimals); }
    void string(std::string_view text) { appendJsonString(m_out, text); }
    void value(const nlohmann::ordered_json &value);

    // The member `name`: an array of `count` plain values on one line, the i-th written
    // by `each(i)` with the functions above.
    template<typename Each> void column(std::string_view name, std::size_t count, Each &&each)
    {
        key(name);
        m_out += '[';
        for (std::size_t i = 0; i < count; ++i) {
            if (i > 0)
                m_out += ", ";
            each(i);
        }
        m_out += ']';
    }

private:
    void next();
    void newline(std::size_t level);

    std::string &m_out;
    int m_level;
    std::string m_open; // per open object or array, whether it has a member yet ('0'/'1')
};

} // namespace ioprism::core
