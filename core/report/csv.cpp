// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/csv.h"

#include "core/report/csv_internal.h"
#include "core/report/resolution.h"
#include "core/report/results_json.h"
#include "core/run/series_result.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <optional>

namespace ioprism::core {

namespace {

// A number as the writers print one ("-1", "0.250000", "-3.5e-07"): a sign, digits, a
// fraction, an exponent. Only the whole field counts: "-1+1" is no number.
bool isPlainNumber(std::string_view text)
{
    std::size_t i = 0;
    auto digits = [&] {
        const std::size_t from = i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
            ++i;
        return i - from;
    };
    if (i < text.size() && (text[i] == '-' || text[i] == '+'))
        ++i;
    std::size_t mantissa = digits();
    if (i < text.size() && text[i] == '.') {
        ++i;
        mantissa += digits();
    }
    if (mantissa == 0)
        return false;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '-' || text[i] == '+'))
            ++i;
        if (digits() == 0)
            return false;
    }
    return i == text.size();
}

} // namespace

bool csvFieldIsFormula(std::string_view text)
{
    return !text.empty()
        && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos
        && !isPlainNumber(text);
}

std::string csvField(std::string_view text)
{
    const bool formula = csvFieldIsFormula(text);
    if (!formula && text.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(text);
    std::string out;
    out.reserve(text.size() + 3);
    out += '"';
    if (formula)
        out += '\'';
    for (const char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

namespace csv_detail {

std::string fixed(double v, int decimals)
{
    return std::isfinite(v) ? fmt::format("{:.{}f}", v, decimals) : std::string();
}

std::string integer(std::uint64_t v)
{
    return fmt::format("{}", v);
}

} // namespace csv_detail

} // namespace ioprism::core
