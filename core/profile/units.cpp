// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/units.h"

#include <array>
#include <fmt/format.h>
#include <limits>

namespace ioprism::core {

namespace {

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kI64Max
    = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
constexpr std::uint64_t kMicrosPerSecond = 1'000'000;

bool isSpace(char c)
{
    return c == ' ' || c == '\t';
}
bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
bool isAsciiLetter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
char toLower(char c)
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (toLower(a[i]) != toLower(b[i]))
            return false;
    return true;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

bool checkedMul(std::uint64_t a, std::uint64_t b, std::uint64_t &out)
{
    if (a != 0 && b > kU64Max / a)
        return false;
    out = a * b;
    return true;
}

bool checkedAdd(std::uint64_t a, std::uint64_t b, std::uint64_t &out)
{
    if (b > kU64Max - a)
        return false;
    out = a + b;
    return true;
}

// A decimal number as written: the digits before the point as an integer, the digits
// after it (trailing zeros removed) as text, so that no precision is lost.
struct Decimal {
    std::uint64_t integer = 0;
    std::string_view fraction; // without trailing zeros; may be empty
};

// Reads [0-9]+(\.[0-9]+)? at the start of `s` and removes it; nullopt when there is no
// number there or the integer part overflows.
std::optional<Decimal> takeDecimal(std::string_view &s)
{
    Decimal d;
    std::size_t i = 0;
    if (i >= s.size() || !isDigit(s[i]))
        return std::nullopt;
    for (; i < s.size() && isDigit(s[i]); ++i) {
        if (!checkedMul(d.integer, 10, d.integer)
            || !checkedAdd(d.integer, static_cast<std::uint64_t>(s[i] - '0'), d.integer))
            return std::nullopt;
    }
    if (i < s.size() && s[i] == '.') {
        const std::size_t begin = ++i;
        for (; i < s.size() && isDigit(s[i]); ++i) { }
        if (i == begin)
            return std::nullopt; // "1." is a typo, not a number
        std::string_view fraction = s.substr(begin, i - begin);
        while (!fraction.empty() && fraction.back() == '0')
            fraction.remove_suffix(1);
        d.fraction = fraction;
    }
    s.remove_prefix(i);
    return d;
}

void skipSpaces(std::string_view &s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
}

// ------------------------------------------------------------------- sizes

// 0.fraction * 2^shift exactly, or nullopt when that is not a whole number. Doubling
// a decimal fraction k times moves at most one digit per step into the integer part,
// so a fraction with more significant digits than k never becomes whole.
std::optional<std::uint64_t> binaryFractionBytes(std::string_view fraction, int shift)
{
    if (fraction.size() > static_cast<std::size_t>(shift))
        return std::nullopt;
    std::array<std::uint8_t, 64> digits {};
    for (std::size_t i = 0; i < fraction.size(); ++i)
        digits[i] = static_cast<std::uint8_t>(fraction[i] - '0');
    std::uint64_t whole = 0;
    for (int step = 0; step < shift; ++step) {
        unsigned carry = 0;
        for (std::size_t i = fraction.size(); i-- > 0;) {
            const unsigned v = digits[i] * 2u + carry;
            digits[i] = static_cast<std::uint8_t>(v % 10);
            carry = v / 10;
        }
        whole = whole * 2 + carry;
    }
    for (std::size_t i = 0; i < fraction.size(); ++i)
        if (digits[i] != 0)
            return std::nullopt;
    return whole;
}

std::optional<int> sizeUnitShift(std::string_view unit)
{
    struct UnitName {
        std::string_view name;
        int shift;
    };
    static constexpr std::array<UnitName, 14> kUnits {{
        {"", 0},
        {"b", 0},
        {"k", 10},
        {"kb", 10},
        {"kib", 10},
        {"m", 20},
        {"mb", 20},
        {"mib", 20},
        {"g", 30},
        {"gb", 30},
        {"gib", 30},
        {"t", 40},
        {"tb", 40},
        {"tib", 40},
    }};
    for (const auto &u : kUnits)
        if (equalsIgnoreCase(unit, u.name))
            return u.shift;
    return std::nullopt;
}

// ------------------------------------------------------------------- durations

struct DurationUnitSpec {
    std::string_view name;
    std::uint64_t micros; // length of one unit in microseconds
};

// Largest first: components must appear in this order.
constexpr std::array<DurationUnitSpec, 5> kDurationUnits {{
    {"h", 3'600'000'000},
    {"m", 60'000'000},
    {"s", 1'000'000},
    {"ms", 1'000},
    {"us", 1},
}};

std::uint64_t bareUnitMicros(DurationUnit unit)
{
    switch (unit) {
    case DurationUnit::Microseconds:
        return 1;
    case DurationUnit::Milliseconds:
        return 1'000;
    case DurationUnit::Seconds:
        return 1'000'000;
    }
    return 1'000'000;
}

// Reads a duration unit name at the start of `s`: ASCII letters, or the micro sign
// (U+00B5 or U+03BC) followed by 's'. Returns the index into kDurationUnits, -1 when
// there is no unit, -2 when there is an unknown one.
int takeDurationUnit(std::string_view &s)
{
    static constexpr std::string_view kMicroSign = "\xC2\xB5";
    static constexpr std::string_view kMu = "\xCE\xBC";
    for (std::string_view micro : {kMicroSign, kMu}) {
        if (s.substr(0, micro.size()) == micro && s.size() > micro.size()
            && toLower(s[micro.size()]) == 's'
            && (s.size() == micro.size() + 1 || !isAsciiLetter(s[micro.size() + 1]))) {
            s.remove_prefix(micro.size() + 1);
            return 4;
        }
    }
    std::size_t n = 0;
    while (n < s.size() && isAsciiLetter(s[n]))
        ++n;
    if (n == 0)
        return -1;
    const std::string_view name = s.substr(0, n);
    for (std::size_t i = 0; i < kDurationUnits.size(); ++i) {
        if (equalsIgnoreCase(name, kDurationUnits[i].name)) {
            s.remove_prefix(n);
            return static_cast<int>(i);
        }
    }
    return -2;
}

// Adds number * unitMicros to (seconds, micros) without overflow; false on overflow or
// when the result is not a whole number of microseconds.
bool addComponent(
    const Decimal &number, std::uint64_t unitMicros, std::uint64_t &seconds, std::uint64_t &micros)
{
    // Whole part: split so that huge second counts never pass through microseconds.
    if (unitMicros >= kMicrosPerSecond) {
        std::uint64_t s = 0;
        if (!checkedMul(number.integer, unitMicros / kMicrosPerSecond, s)
            || !checkedAdd(seconds, s, seconds))
            return false;
    } else {
        const std::uint64_t perSecond = kMicrosPerSecond / unitMicros;
        if (!checkedAdd(seconds, number.integer / perSecond, seconds))
            return false;
        micros += (number.integer % perSecond) * unitMicros;
    }
    // Fraction: with at most 9 significant digits F < 10^9 and unit <= 3.6e9 us, F * unit
    // fits 64 bits; more digits can never give whole microseconds for these units.
    if (!number.fraction.empty()) {
        if (number.fraction.size() > 9)
            return false;
        std::uint64_t f = 0;
        std::uint64_t scale = 1;
        for (char c : number.fraction) {
            f = f * 10 + static_cast<std::uint64_t>(c - '0');
            scale *= 10;
        }
        const std::uint64_t product = f * unitMicros;
        if (product % scale != 0)
            return false;
        const std::uint64_t fracMicros = product / scale;
        if (!checkedAdd(seconds, fracMicros / kMicrosPerSecond, seconds))
            return false;
        micros += fracMicros % kMicrosPerSecond;
    }
    if (!checkedAdd(seconds, micros / kMicrosPerSecond, seconds))
        return false;
    micros %= kMicrosPerSecond;
    return true;
}

std::string formatComponents(bool negative, std::uint64_t hours, std::uint64_t minutes,
    std::uint64_t seconds, std::uint64_t millis, std::uint64_t micros)
{
    std::string out = negative ? "-" : "";
    const std::array<std::pair<std::uint64_t, std::string_view>, 5> parts {{
        {hours, "h"},
        {minutes, "m"},
        {seconds, "s"},
        {millis, "ms"},
        {micros, "us"},
    }};
    bool any = false;
    for (const auto &[value, unit] : parts) {
        if (value == 0)
            continue;
        out += std::to_string(value);
        out += unit;
        any = true;
    }
    if (!any)
        return "0s";
    return out;
}

// |count| as unsigned, without overflow for the most negative value.
std::uint64_t magnitude(std::int64_t count)
{
    return count < 0 ? 0 - static_cast<std::uint64_t>(count) : static_cast<std::uint64_t>(count);
}

std::string formatSeconds(
    bool negative, std::uint64_t totalSeconds, std::uint64_t millis, std::uint64_t micros)
{
    return formatComponents(
        negative, totalSeconds / 3600, totalSeconds % 3600 / 60, totalSeconds % 60, millis, micros);
}

} // namespace

std::optional<std::uint64_t> parseSize(std::string_view text)
{
    std::string_view s = trim(text);
    const auto number = takeDecimal(s);
    if (!number)
        return std::nullopt;
    skipSpaces(s);
    const auto shift = sizeUnitShift(s);
    if (!shift)
        return std::nullopt;
    const auto fractionBytes = binaryFractionBytes(number->fraction, *shift);
    if (!fractionBytes)
        return std::nullopt;
    if (number->integer > (kU64Max >> *shift))
        return std::nullopt;
    std::uint64_t total = 0;
    if (!checkedAdd(number->integer << *shift, *fractionBytes, total))
        return std::nullopt;
    return total;
}

std::string sizeText(std::uint64_t bytes, SizeStyle style)
{
    static constexpr std::array<std::string_view, 6> kUnits
        = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    const bool rounded = style == SizeStyle::Rounded;
    // The exact styles stop at TiB, the largest unit parseSize reads.
    const std::size_t most = rounded ? kUnits.size() : 4;
    std::size_t unit = 0; // kUnits[unit - 1]; 0: bytes
    for (std::size_t u = 1; u <= most && bytes != 0; ++u) {
        const std::uint64_t scale = std::uint64_t {1} << (10 * u);
        if (rounded ? bytes >= scale : bytes % scale == 0)
            unit = u;
    }
    if (unit == 0)
        return style == SizeStyle::Canonical ? std::to_string(bytes) : fmt::format("{} B", bytes);
    const std::uint64_t scale = std::uint64_t {1} << (10 * unit);
    const std::string_view gap = style == SizeStyle::Canonical ? "" : " ";
    if (bytes % scale == 0)
        return fmt::format("{}{}{}", bytes / scale, gap, kUnits[unit - 1]);
    return fmt::format("{:.1f} {}", double(bytes) / double(scale), kUnits[unit - 1]);
}

std::optional<DurationParts> parseDurationParts(std::string_view text, DurationUnit bareUnit)
{
    std::string_view s = trim(text);
    if (s.empty())
        return std::nullopt;
    std::uint64_t seconds = 0;
    std::uint64_t micros = 0;
    int lastUnit = -1;
    bool first = true;
    while (true) {
        skipSpaces(s);
        if (s.empty())
            break;
        const auto number = takeDecimal(s);
        if (!number)
            return std::nullopt;
        skipSpaces(s);
        const int unit = takeDurationUnit(s);
        if (unit == -2)
            return std::nullopt;
        if (unit == -1) {
            // A bare number is only allowed alone: "1m30" is ambiguous.
            if (!first || !trim(s).empty())
                return std::nullopt;
            if (!addComponent(*number, bareUnitMicros(bareUnit), seconds, micros))
                return std::nullopt;
            break;
        }
        if (unit <= lastUnit)
            return std::nullopt; // units must decrease and appear once: "1s1h", "1s2s"
        lastUnit = unit;
        if (!addComponent(
                *number, kDurationUnits[static_cast<std::size_t>(unit)].micros, seconds, micros))
            return std::nullopt;
        first = false;
    }
    return DurationParts {seconds, static_cast<std::uint32_t>(micros)};
}

std::optional<std::chrono::seconds> toSeconds(const DurationParts &parts)
{
    if (parts.microseconds != 0 || parts.seconds > kI64Max)
        return std::nullopt;
    return std::chrono::seconds(static_cast<std::int64_t>(parts.seconds));
}

std::optional<std::chrono::milliseconds> toMilliseconds(const DurationParts &parts)
{
    std::uint64_t millis = 0;
    if (parts.microseconds % 1000 != 0 || !checkedMul(parts.seconds, 1000, millis)
        || !checkedAdd(millis, parts.microseconds / 1000, millis) || millis > kI64Max)
        return std::nullopt;
    return std::chrono::milliseconds(static_cast<std::int64_t>(millis));
}

std::optional<std::chrono::microseconds> toMicroseconds(const DurationParts &parts)
{
    std::uint64_t micros = 0;
    if (!checkedMul(parts.seconds, kMicrosPerSecond, micros)
        || !checkedAdd(micros, parts.microseconds, micros) || micros > kI64Max)
        return std::nullopt;
    return std::chrono::microseconds(static_cast<std::int64_t>(micros));
}

std::optional<std::chrono::microseconds> parseDuration(std::string_view text, DurationUnit bareUnit)
{
    const auto parts = parseDurationParts(text, bareUnit);
    if (!parts)
        return std::nullopt;
    return toMicroseconds(*parts);
}

std::string formatDuration(std::chrono::microseconds duration)
{
    const std::uint64_t m = magnitude(duration.count());
    return formatSeconds(
        duration.count() < 0, m / kMicrosPerSecond, m % kMicrosPerSecond / 1000, m % 1000);
}

std::string formatDuration(std::chrono::milliseconds duration)
{
    const std::uint64_t m = magnitude(duration.count());
    return formatSeconds(duration.count() < 0, m / 1000, m % 1000, 0);
}

std::string formatDuration(std::chrono::seconds duration)
{
    return formatSeconds(duration.count() < 0, magnitude(duration.count()), 0, 0);
}

std::string formatDuration(std::chrono::minutes duration)
{
    const std::uint64_t m = magnitude(duration.count());
    return formatComponents(duration.count() < 0, m / 60, m % 60, 0, 0, 0);
}

std::string formatDuration(std::chrono::hours duration)
{
    return formatComponents(duration.count() < 0, magnitude(duration.count()), 0, 0, 0, 0);
}

std::string formatLatencyUs(double us)
{
    if (us >= 1e6)
        return fmt::format("{:.2f} s", us / 1e6);
    if (us >= 1e3)
        return fmt::format("{:.2f} ms", us / 1e3);
    // Below 10 µs whole microseconds hide the figure (a mean of 0.6 µs beside a p99 of
    // 0.4 µs read "1 µs" and "0 µs").
    if (us < 10)
        return fmt::format("{:.1f} µs", us);
    return fmt::format("{:.0f} µs", us);
}

} // namespace ioprism::core
