// SPDX-License-Identifier: GPL-3.0-or-later
// The resolution the results keep each interval figure at (docs/results.md, "intervals",
// "Resolution"), and the one rounding that keeps it. The results JSON writes an interval's
// figure rounded so (appendJsonFixed); the time-series CSV shows that same rounded value,
// to its own places (keptFixed). A run read back from its file has exactly the value the
// file holds, so its time series is the one of the run as it was, digit for digit.
//
// Why the CSV follows the JSON and not the reverse: a column the CSV shows to fewer
// places than the file keeps (start_s: 3 of 9, MB/s: 3 of 6, CPU %: 2 of 3) cannot be
// rounded from the exact value after a reread, however the file rounds, since only the
// kept value is left: 1.0004999996 s is kept as 1.0005 and shows as 1.001, not 1.000.
// So the live time series shows the kept value too. Its error is within half a unit of
// the shown place plus half a unit of the kept one (1 ns on a time), and the files
// already written keep their text and meaning.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ioprism::core {

// Decimal places each kind of interval figure is kept to: the resolution of what it
// measures (a nanosecond of a time or a latency, a byte per second of throughput).
inline constexpr int kSecondsPlaces = 9; // s: 1 ns
inline constexpr int kMillisecondsPlaces = 6; // ms: 1 ns
inline constexpr int kMicrosecondsPlaces = 3; // µs: 1 ns
inline constexpr int kMegabytesPlaces = 6; // MB/s: 1 byte/s
inline constexpr int kRatePlaces = 3; // I/O/s, merges/s, IOPS per CPU %, bytes per request, queue
inline constexpr int kPercentPlaces = 3; // CPU %, %util
inline constexpr int kRatioPlaces = 6; // device bytes / application bytes

// A value rounded to `places` decimals: `units` of 10^-places, the sign apart.
struct RoundedDecimal {
    std::uint64_t units = 0;
    int places = 0;
    bool negative = false;
};

// `value` rounded to `places` decimals (clamped to 0..9), half away from zero. nullopt
// when it is not finite or reaches 1e15 units of the last place, where a double no longer
// holds every unit (the results then keep the double in its shortest form). A value read
// back from the text of the units rounds to the same units again.
std::optional<RoundedDecimal> roundDecimal(double value, int places);

// `value` rounded to `places` decimals (at most `value.places`): half away from zero on
// its decimal digits, exactly.
RoundedDecimal roundDecimal(const RoundedDecimal &value, int places);

// The text of an interval figure in the time series: `value` as the results keep it
// (rounded to `keptPlaces`), shown with exactly `shownPlaces` decimals (at most
// keptPlaces): "1.001" for 1.0004999996 kept to 9 and shown to 3. Empty when not finite.
std::string keptFixed(double value, int keptPlaces, int shownPlaces);

} // namespace ioprism::core
