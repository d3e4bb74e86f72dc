// SPDX-License-Identifier: GPL-3.0-or-later
// Human units for sizes and durations, as written in profiles and on the command line.
//
// Sizes: a whole number of bytes, optionally followed by a unit. Every unit is binary,
// whatever its spelling, because storage tools (Iometer, fio's default, CrystalDiskMark)
// mean 1024 when users write "4k" or "1M": K = KB = KiB = 1024, M/MB/MiB = 1024^2,
// G/GB/GiB = 1024^3, T/TB/TiB = 1024^4; B = 1. Units are case-insensitive and may be
// separated from the number by spaces. A fraction is accepted only when the result is
// a whole number of bytes ("1.5KiB" = 1536; "0.3KiB" is rejected). No sign, no exponent.
//
// Durations: a bare number in the caller's unit ("90"), or one or more components
// "<number><unit>" in decreasing unit order, each unit at most once: h, m, s, ms, us
// ("1h2m3s", "1m30s", "500ms", "250us", "1.5s"). Units are case-insensitive; spaces may
// separate numbers, units and components. Fractions are accepted when the result is a
// whole number of microseconds. No sign.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ioprism::core {

// The size in bytes, or nullopt when the text is not a size or does not fit 64 bits.
std::optional<std::uint64_t> parseSize(std::string_view text);

// How a size is written. Every style is one implementation (sizeText), so that the
// spellings cannot drift apart; the named functions below are its styles.
//
// Which to use: a size someone gave (a transfer size, an alignment, a test file, a
// region) is exact, Canonical where it is read back, Exact where people read it; a size
// measured (a device, free space, a total) is Rounded.
enum class SizeStyle {
    // The largest binary unit that divides exactly, no space, up to TiB ("4KiB", "1MiB",
    // "1024TiB"), else the plain number of bytes ("2000"); 0 is "0". parseSize reads it
    // back: parseSize(sizeText(x, Canonical)) == x for every x.
    Canonical,
    // Canonical's value with the unit apart, and "B" for bytes: "4 KiB", "1536 B", "0 B"
    // (a bare number would read as a count). Exact.
    Exact,
    // The largest binary unit not above the size, up to EiB, with one decimal unless the
    // size is a whole number of it: "4.5 MiB", "4 MiB", "512 B".
    Rounded,
};
std::string sizeText(std::uint64_t bytes, SizeStyle style);

// sizeText's styles by name: for profiles and the command line, for values read back;
inline std::string formatSize(std::uint64_t bytes)
{
    return sizeText(bytes, SizeStyle::Canonical);
}
// for people, rounded (capacities, devices);
inline std::string describeSize(std::uint64_t bytes)
{
    return sizeText(bytes, SizeStyle::Rounded);
}
// for people, exact (a rule's value, an alignment, a transfer size).
inline std::string describeExactSize(std::uint64_t bytes)
{
    return sizeText(bytes, SizeStyle::Exact);
}
// A latency with the unit following its magnitude: "0.6 µs", "412 µs", "1.25 ms", "2.10 s".
std::string formatLatencyUs(double us);

// The unit of a number written without a unit.
enum class DurationUnit { Microseconds, Milliseconds, Seconds };

// The duration, or nullopt when the text is not a duration, is not a whole number of
// microseconds, or exceeds std::chrono::microseconds (about 292,000 years).
std::optional<std::chrono::microseconds> parseDuration(
    std::string_view text, DurationUnit bareUnit);

// A non-negative duration split so that every seconds or milliseconds value of the
// profile model fits, including those beyond the microseconds range. Used by readers
// that store seconds or milliseconds and must reject what does not fit their unit.
struct DurationParts {
    std::uint64_t seconds = 0;
    std::uint32_t microseconds = 0; // 0 .. 999'999
    friend bool operator==(const DurationParts &, const DurationParts &) = default;
};

// As parseDuration, without the microseconds range limit (seconds up to 2^64 - 1).
std::optional<DurationParts> parseDurationParts(std::string_view text, DurationUnit bareUnit);

// The value in Duration (seconds, milliseconds or microseconds), or nullopt when it is
// not a whole number of that unit or does not fit its 64-bit count.
std::optional<std::chrono::seconds> toSeconds(const DurationParts &parts);
std::optional<std::chrono::milliseconds> toMilliseconds(const DurationParts &parts);
std::optional<std::chrono::microseconds> toMicroseconds(const DurationParts &parts);

// The canonical spelling: components h, m, s, ms, us from the largest, zero components
// left out ("1m30s", "500ms", "250us", "2h", "1s500ms"); zero is "0s". A negative value
// gets a leading '-' (which the parsers reject: profiles hold no negative durations).
// One overload per std::chrono type of the model, so that no value has to pass through
// microseconds (which would overflow for the largest seconds values).
std::string formatDuration(std::chrono::microseconds duration);
std::string formatDuration(std::chrono::milliseconds duration);
std::string formatDuration(std::chrono::seconds duration);
std::string formatDuration(std::chrono::minutes duration);
std::string formatDuration(std::chrono::hours duration);

} // namespace ioprism::core
