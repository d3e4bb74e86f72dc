// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/resolution.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>

namespace ioprism::core {

namespace {

constexpr std::array<std::uint64_t, 10> kPowersOfTen {
    1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};

} // namespace

std::optional<RoundedDecimal> roundDecimal(double value, int places)
{
    places = std::clamp(places, 0, 9);
    const double scaled = value * double(kPowersOfTen[static_cast<std::size_t>(places)]);
    if (!std::isfinite(scaled) || std::fabs(scaled) >= 1e15)
        return std::nullopt;
    // Half away from zero, on the scaled double (a value read back from the text of the
    // units is within 1e-15 of a whole number of them: it rounds to the same units).
    RoundedDecimal d;
    d.units = static_cast<std::uint64_t>(std::llround(std::fabs(scaled)));
    d.places = places;
    d.negative = scaled < 0;
    return d;
}

RoundedDecimal roundDecimal(const RoundedDecimal &value, int places)
{
    places = std::clamp(places, 0, value.places);
    const std::uint64_t divisor = kPowersOfTen[static_cast<std::size_t>(value.places - places)];
    RoundedDecimal d = value;
    d.places = places;
    d.units = (value.units + divisor / 2) / divisor; // divisor 1: as it is
    return d;
}

std::string keptFixed(double value, int keptPlaces, int shownPlaces)
{
    if (!std::isfinite(value))
        return {};
    const std::optional<RoundedDecimal> kept = roundDecimal(value, keptPlaces);
    if (!kept) {
        // Kept in its shortest form, which reads back to the same double.
        return fmt::format("{:.{}f}", value, std::clamp(shownPlaces, 0, 9));
    }
    const RoundedDecimal shown = roundDecimal(*kept, shownPlaces);
    const auto places = static_cast<std::size_t>(shown.places);
    // The digits of the units, with zeros in front up to one before the point.
    std::string digits = fmt::format("{:0{}}", shown.units, places + 1);
    std::string text;
    text.reserve(digits.size() + 2);
    if (shown.negative && shown.units > 0)
        text += '-';
    text.append(digits, 0, digits.size() - places);
    if (places > 0) {
        text += '.';
        text.append(digits, digits.size() - places, places);
    }
    return text;
}

} // namespace ioprism::core
