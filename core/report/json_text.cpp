// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/json_text.h"

#include "core/report/resolution.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

namespace ioprism::core {

using OrderedJson = nlohmann::ordered_json;

void appendJsonNumber(std::string &out, double value)
{
    if (!std::isfinite(value)) {
        out += "null";
        return;
    }
    // Plain decimals where they are short (12000000.0, 0.000125), exponents beyond.
    const double magnitude = std::fabs(value);
    const bool plain = magnitude == 0 || (magnitude >= 1e-5 && magnitude < 1e16);
    std::array<char, 40> buffer {}; // 17 digits, a sign, a point, 5 zeros: enough either way
    const auto end = plain ? std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                         std::chars_format::fixed)
                                 .ptr
                           : std::to_chars(buffer.data(), buffer.data() + buffer.size(), value).ptr;
    const std::string_view text(buffer.data(), static_cast<std::size_t>(end - buffer.data()));
    out += text;
    if (text.find_first_of(".e") == std::string_view::npos)
        out += ".0";
}

void appendJsonNumber(std::string &out, std::uint64_t value)
{
    std::array<char, 24> buffer {};
    const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value).ptr;
    out.append(buffer.data(), end);
}

void appendJsonFixed(std::string &out, double value, int decimals)
{
    // The one rounding of the interval figures (core/report/resolution.h): the time
    // series shows what is written here.
    const std::optional<RoundedDecimal> rounded = roundDecimal(value, decimals);
    if (!rounded) {
        appendJsonNumber(out, value);
        return;
    }
    const bool negative = rounded->negative;
    const std::uint64_t units = rounded->units;
    decimals = rounded->places;
    // The digits of the units, then the point placed `decimals` from their end (zeros in
    // front when the value is below 1), trailing zeros dropped: 4748123 with 3 places is
    // "4748.123", 2500 with 3 is "2.5", 7 with 3 is "0.007". Built here, appended once.
    std::array<char, 48> text {};
    char *at = text.data();
    if (negative && units > 0)
        *at++ = '-';
    std::array<char, 24> digits {};
    const char *end = std::to_chars(digits.data(), digits.data() + digits.size(), units).ptr;
    const auto length = static_cast<std::size_t>(end - digits.data());
    const auto places = static_cast<std::size_t>(decimals);
    if (length <= places) {
        *at++ = '0';
    } else {
        at = std::copy(static_cast<const char *>(digits.data()), end - places, at);
    }
    *at++ = '.';
    std::size_t fraction = std::min(length, places);
    const char *fractionDigits = end - fraction;
    while (fraction > 0 && fractionDigits[fraction - 1] == '0')
        --fraction;
    if (fraction == 0) {
        *at++ = '0';
    } else {
        at = std::fill_n(at, places - std::min(length, places), '0'); // leading zeros
        at = std::copy(fractionDigits, fractionDigits + fraction, at);
    }
    out.append(text.data(), at);
}

void appendJsonString(std::string &out, std::string_view text)
{
    // Most strings (names, phases, labels) need no escape: copied as they are. The rest
    // go through nlohmann's escaping, which also replaces what is not UTF-8.
    const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u >= 0x20 && u < 0x80 && c != '"' && c != '\\';
    });
    if (plain) {
        out += '"';
        out += text;
        out += '"';
        return;
    }
    out += OrderedJson(std::string(text))
               .dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

namespace {

bool isPlain(const OrderedJson &value)
{
    return !value.is_object() && !value.is_array();
}

} // namespace

void appendJson(std::string &out, const OrderedJson &value, int level)
{
    JsonTextWriter(out, level).value(value);
}

JsonTextWriter::JsonTextWriter(std::string &out, int level)
    : m_out(out)
    , m_level(level)
{ }

void JsonTextWriter::newline(std::size_t level)
{
    m_out += '\n';
    m_out.append(2 * level, ' ');
}

void JsonTextWriter::next()
{
    if (m_open.back() == '1')
        m_out += ',';
    m_open.back() = '1';
    newline(static_cast<std::size_t>(m_level) + m_open.size());
}

void JsonTextWriter::beginObject()
{
    m_out += '{';
    m_open += '0';
}

void JsonTextWriter::endObject()
{
    const bool empty = m_open.back() == '0';
    m_open.pop_back();
    if (!empty)
        newline(static_cast<std::size_t>(m_level) + m_open.size());
    m_out += '}';
}

void JsonTextWriter::beginArray()
{
    m_out += '[';
    m_open += '0';
}

void JsonTextWriter::endArray()
{
    const bool empty = m_open.back() == '0';
    m_open.pop_back();
    if (!empty)
        newline(static_cast<std::size_t>(m_level) + m_open.size());
    m_out += ']';
}

void JsonTextWriter::key(std::string_view name)
{
    next();
    appendJsonString(m_out, name);
    m_out += ": ";
}

void JsonTextWriter::element()
{
    next();
}

void JsonTextWriter::value(const OrderedJson &value)
{
    switch (value.type()) {
    case OrderedJson::value_t::object:
        beginObject();
        for (const auto &[name, member] : value.items()) {
            key(name);
            this->value(member);
        }
        endObject();
        return;
    case OrderedJson::value_t::array:
        break; // below
    case OrderedJson::value_t::string:
        string(value.get_ref<const std::string &>());
        return;
    case OrderedJson::value_t::boolean:
        boolean(value.get<bool>());
        return;
    case OrderedJson::value_t::number_unsigned:
        number(value.get<std::uint64_t>());
        return;
    case OrderedJson::value_t::number_integer: {
        const auto v = value.get<std::int64_t>();
        if (v < 0) {
            m_out += '-';
            // The magnitude of INT64_MIN does not fit an int64: computed unsigned.
            number(std::uint64_t(0) - static_cast<std::uint64_t>(v));
        } else {
            number(static_cast<std::uint64_t>(v));
        }
        return;
    }
    case OrderedJson::value_t::number_float:
        number(value.get<double>());
        return;
    default:
        null();
        return;
    }
    // An array: plain values on one line, anything else one element per line.
    if (std::all_of(value.begin(), value.end(), isPlain)) {
        m_out += '[';
        bool first = true;
        for (const auto &element : value) {
            if (!first)
                m_out += ", ";
            first = false;
            this->value(element);
        }
        m_out += ']';
        return;
    }
    beginArray();
    for (const auto &member : value) {
        element();
        this->value(member);
    }
    endArray();
}

} // namespace ioprism::core
