// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/profile.h"
#include "core/profile/units.h"

#include <gtest/gtest.h>
#include <limits>
#include <random>

using namespace ioprism::core;
using namespace std::chrono_literals;

namespace {

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kTiB = 1024 * kGiB;

struct SizeCase {
    const char *text;
    std::optional<std::uint64_t> bytes;
};

class ParseSize : public testing::TestWithParam<SizeCase>
{
};

TEST_P(ParseSize, GivesTheExpectedBytesOrRejects)
{
    const auto &c = GetParam();
    EXPECT_EQ(parseSize(c.text), c.bytes) << "input: \"" << c.text << "\"";
}

INSTANTIATE_TEST_SUITE_P(Accepted, ParseSize,
    testing::Values(SizeCase {"0", 0}, SizeCase {"4096", 4096}, SizeCase {"512B", 512},
        SizeCase {"512b", 512}, SizeCase {"4KiB", 4 * kKiB}, SizeCase {"4k", 4 * kKiB},
        SizeCase {"4K", 4 * kKiB}, SizeCase {"4KB", 4 * kKiB}, SizeCase {"4kb", 4 * kKiB},
        SizeCase {"4kib", 4 * kKiB}, SizeCase {"4 KiB", 4 * kKiB}, SizeCase {"4\tKiB", 4 * kKiB},
        SizeCase {" 4KiB ", 4 * kKiB}, SizeCase {"1MiB", kMiB}, SizeCase {"1M", kMiB},
        SizeCase {"1MB", kMiB}, SizeCase {"1m", kMiB}, SizeCase {"3GiB", 3 * kGiB},
        SizeCase {"3g", 3 * kGiB}, SizeCase {"2TiB", 2 * kTiB}, SizeCase {"2T", 2 * kTiB},
        SizeCase {"1.5KiB", 1536}, SizeCase {"0.5k", 512}, SizeCase {"1.0", 1},
        SizeCase {"1.000", 1}, SizeCase {"2.25MiB", 2 * kMiB + kMiB / 4},
        SizeCase {"0.0009765625MiB", kKiB}, // 2^-10 MiB, ten fraction digits
        SizeCase {"0.00000095367431640625TiB", kMiB}, // 2^-20 TiB
        SizeCase {"18446744073709551615", kU64Max}, SizeCase {"16777215TiB", 16777215 * kTiB},
        SizeCase {"00012", 12}));

INSTANTIATE_TEST_SUITE_P(Rejected, ParseSize,
    testing::Values(SizeCase {"", std::nullopt}, SizeCase {" ", std::nullopt},
        SizeCase {"-1", std::nullopt}, SizeCase {"+1", std::nullopt},
        SizeCase {"-4KiB", std::nullopt}, SizeCase {"0.3KiB", std::nullopt},
        SizeCase {"1.5", std::nullopt}, SizeCase {"1.5B", std::nullopt},
        SizeCase {"1.", std::nullopt}, SizeCase {".5k", std::nullopt},
        SizeCase {"4KX", std::nullopt}, SizeCase {"4 K i B", std::nullopt},
        SizeCase {"4KiBs", std::nullopt}, SizeCase {"KiB", std::nullopt},
        SizeCase {"4PiB", std::nullopt}, SizeCase {"1e3", std::nullopt},
        SizeCase {"0x10", std::nullopt}, SizeCase {"4,096", std::nullopt},
        SizeCase {"18446744073709551616", std::nullopt}, SizeCase {"16777216TiB", std::nullopt},
        SizeCase {"99999999999999999999999", std::nullopt},
        SizeCase {"0.00000000000000000000000000000000000000001TiB", std::nullopt},
        SizeCase {"1\n", std::nullopt}, SizeCase {"4 4KiB", std::nullopt}));

TEST(FormatSize, UsesTheLargestExactBinaryUnit)
{
    EXPECT_EQ(formatSize(0), "0");
    EXPECT_EQ(formatSize(1), "1");
    EXPECT_EQ(formatSize(512), "512");
    EXPECT_EQ(formatSize(2000), "2000");
    EXPECT_EQ(formatSize(1024), "1KiB");
    EXPECT_EQ(formatSize(4096), "4KiB");
    EXPECT_EQ(formatSize(1536), "1536");
    EXPECT_EQ(formatSize(1536 * kKiB), "1536KiB");
    EXPECT_EQ(formatSize(kMiB), "1MiB");
    EXPECT_EQ(formatSize(3 * kGiB), "3GiB");
    EXPECT_EQ(formatSize(kTiB), "1TiB");
    EXPECT_EQ(formatSize(1024 * kTiB), "1024TiB");
    EXPECT_EQ(formatSize(kU64Max), "18446744073709551615");
    EXPECT_EQ(formatSize(kU64Max - kTiB + 1), "16777215TiB");
}

TEST(FormatSize, ParsesBackToTheSameValue)
{
    std::mt19937_64 rng(20240601);
    std::vector<std::uint64_t> values = {0, 1, 511, 512, 1023, 1024, 1025, kMiB - 1, kMiB, kGiB,
        kTiB, kU64Max, kU64Max - 1, kU64Max / 2};
    for (int shift = 0; shift < 64; ++shift) {
        values.push_back(std::uint64_t {1} << shift);
        values.push_back((std::uint64_t {1} << shift) * 3);
    }
    for (int i = 0; i < 20000; ++i) {
        const std::uint64_t r = rng();
        values.push_back(r);
        values.push_back(r >> (rng() % 64)); // all magnitudes
        values.push_back((r >> 24) << (10 * (rng() % 5))); // unit multiples
    }
    for (const auto v : values)
        ASSERT_EQ(parseSize(formatSize(v)), v) << formatSize(v);
}

struct DurationCase {
    const char *text;
    DurationUnit bareUnit;
    std::optional<std::chrono::microseconds> value;
};

class ParseDuration : public testing::TestWithParam<DurationCase>
{
};

TEST_P(ParseDuration, GivesTheExpectedValueOrRejects)
{
    const auto &c = GetParam();
    EXPECT_EQ(parseDuration(c.text, c.bareUnit), c.value) << "input: \"" << c.text << "\"";
}

constexpr auto kSecondsUnit = DurationUnit::Seconds;
constexpr auto kMillisecondsUnit = DurationUnit::Milliseconds;
constexpr auto kMicrosecondsUnit = DurationUnit::Microseconds;
constexpr auto kMaxUs = std::chrono::microseconds::max();

INSTANTIATE_TEST_SUITE_P(Accepted, ParseDuration,
    testing::Values(DurationCase {"90", kSecondsUnit, 90s},
        DurationCase {"90", kMillisecondsUnit, 90ms}, DurationCase {"90", kMicrosecondsUnit, 90us},
        DurationCase {"0", kSecondsUnit, 0s}, DurationCase {"90s", kMillisecondsUnit, 90s},
        DurationCase {"1m30s", kSecondsUnit, 90s}, DurationCase {"1h", kSecondsUnit, 1h},
        DurationCase {"1h2m3s", kSecondsUnit, 1h + 2min + 3s},
        DurationCase {"500ms", kSecondsUnit, 500ms}, DurationCase {"250us", kSecondsUnit, 250us},
        DurationCase {"250\xC2\xB5s", kSecondsUnit, 250us},
        DurationCase {"250\xCE\xBCs", kSecondsUnit, 250us},
        DurationCase {"1.5s", kSecondsUnit, 1500ms}, DurationCase {"1.5", kSecondsUnit, 1500ms},
        DurationCase {"0.5", kMillisecondsUnit, 500us}, DurationCase {"1.5h", kSecondsUnit, 90min},
        DurationCase {"1s500ms", kSecondsUnit, 1500ms},
        DurationCase {"1h1us", kSecondsUnit, 1h + 1us}, DurationCase {"1H30M", kSecondsUnit, 90min},
        DurationCase {"2MS", kSecondsUnit, 2ms}, DurationCase {"1m 30s", kSecondsUnit, 90s},
        DurationCase {" 1 m 30 s ", kSecondsUnit, 90s}, DurationCase {"90m", kSecondsUnit, 90min},
        DurationCase {"1500ms", kSecondsUnit, 1500ms},
        DurationCase {"0.000001s", kSecondsUnit, 1us},
        DurationCase {"0.00000001h", kSecondsUnit, 36us},
        DurationCase {"9223372036854775807us", kSecondsUnit, kMaxUs},
        DurationCase {"9223372036854775807", kMicrosecondsUnit, kMaxUs},
        DurationCase {"9223372036854.775807s", kSecondsUnit, kMaxUs}));

INSTANTIATE_TEST_SUITE_P(Rejected, ParseDuration,
    testing::Values(DurationCase {"", kSecondsUnit, std::nullopt},
        DurationCase {"  ", kSecondsUnit, std::nullopt},
        DurationCase {"-1", kSecondsUnit, std::nullopt},
        DurationCase {"-1s", kSecondsUnit, std::nullopt},
        DurationCase {"+1s", kSecondsUnit, std::nullopt},
        DurationCase {"1x", kSecondsUnit, std::nullopt},
        DurationCase {"s", kSecondsUnit, std::nullopt},
        DurationCase {"1m30", kSecondsUnit, std::nullopt},
        DurationCase {"30 1m", kSecondsUnit, std::nullopt},
        DurationCase {"1s1h", kSecondsUnit, std::nullopt},
        DurationCase {"1s1s", kSecondsUnit, std::nullopt},
        DurationCase {"1ms1s", kSecondsUnit, std::nullopt},
        DurationCase {"0.5us", kSecondsUnit, std::nullopt},
        DurationCase {"0.5", kMicrosecondsUnit, std::nullopt},
        DurationCase {"0.0000001s", kSecondsUnit, std::nullopt},
        DurationCase {"1.s", kSecondsUnit, std::nullopt},
        DurationCase {".5s", kSecondsUnit, std::nullopt},
        DurationCase {"1e3", kSecondsUnit, std::nullopt},
        DurationCase {"1d", kSecondsUnit, std::nullopt},
        DurationCase {"1 s s", kSecondsUnit, std::nullopt},
        DurationCase {"9223372036854775808us", kSecondsUnit, std::nullopt},
        DurationCase {"9223372036855s", kSecondsUnit, std::nullopt},
        DurationCase {"99999999999999999999h", kSecondsUnit, std::nullopt},
        DurationCase {"5124095576030432h", kSecondsUnit, std::nullopt}));

TEST(DurationParts, HoldValuesBeyondTheMicrosecondRange)
{
    const auto parts = parseDurationParts("9223372036854775807", DurationUnit::Seconds);
    ASSERT_TRUE(parts);
    EXPECT_EQ(parts->seconds, 9223372036854775807u);
    EXPECT_EQ(toSeconds(*parts), std::chrono::seconds::max());
    EXPECT_EQ(toMilliseconds(*parts), std::nullopt);
    EXPECT_EQ(toMicroseconds(*parts), std::nullopt);
    EXPECT_EQ(parseDuration("9223372036854775807", DurationUnit::Seconds), std::nullopt);
}

TEST(DurationParts, ConvertOnlyWholeUnits)
{
    const auto parts = parseDurationParts("1.5s", DurationUnit::Seconds);
    ASSERT_TRUE(parts);
    EXPECT_EQ(toSeconds(*parts), std::nullopt);
    EXPECT_EQ(toMilliseconds(*parts), 1500ms);
    const auto micro = parseDurationParts("100us", DurationUnit::Seconds);
    ASSERT_TRUE(micro);
    EXPECT_EQ(toMilliseconds(*micro), std::nullopt);
    EXPECT_EQ(toMicroseconds(*micro), 100us);
}

TEST(FormatDuration, GivesCanonicalForms)
{
    EXPECT_EQ(formatDuration(0us), "0s");
    EXPECT_EQ(formatDuration(std::chrono::seconds(0)), "0s");
    EXPECT_EQ(formatDuration(std::chrono::microseconds(90s)), "1m30s");
    EXPECT_EQ(formatDuration(90s), "1m30s");
    EXPECT_EQ(formatDuration(500ms), "500ms");
    EXPECT_EQ(formatDuration(250us), "250us");
    EXPECT_EQ(formatDuration(2h), "2h");
    EXPECT_EQ(formatDuration(90min), "1h30m");
    EXPECT_EQ(formatDuration(1500ms), "1s500ms");
    EXPECT_EQ(formatDuration(1h + 2min + 3s), "1h2m3s");
    EXPECT_EQ(formatDuration(1h + 1us), "1h1us");
    EXPECT_EQ(formatDuration(std::chrono::microseconds(1001)), "1ms1us");
    EXPECT_EQ(formatDuration(std::chrono::hours(2400)), "2400h");
    EXPECT_EQ(formatDuration(-5s), "-5s");
    EXPECT_EQ(formatDuration(std::chrono::seconds::min()), "-2562047788015215h30m8s");
    EXPECT_EQ(formatDuration(std::chrono::seconds::max()), "2562047788015215h30m7s");
}

TEST(FormatDuration, ParsesBackToTheSameValue)
{
    std::mt19937_64 rng(7);
    const auto maxCount = std::numeric_limits<std::int64_t>::max();
    std::vector<std::int64_t> counts
        = {0, 1, 59, 60, 61, 999, 1000, 1001, 3599, 3600, 86400, maxCount, maxCount - 1};
    for (int i = 0; i < 20000; ++i) {
        const auto r = static_cast<std::int64_t>(rng() >> 1);
        counts.push_back(r);
        counts.push_back(r >> (rng() % 63));
    }
    for (const auto c : counts) {
        const std::chrono::microseconds us(c);
        ASSERT_EQ(parseDuration(formatDuration(us), DurationUnit::Seconds), us) << c;
        // Seconds and milliseconds round-trip through the parts, whatever their size.
        const std::chrono::seconds s(c);
        const auto sParts = parseDurationParts(formatDuration(s), DurationUnit::Milliseconds);
        ASSERT_TRUE(sParts) << formatDuration(s);
        ASSERT_EQ(toSeconds(*sParts), s) << c;
        const std::chrono::milliseconds ms(c);
        const auto msParts = parseDurationParts(formatDuration(ms), DurationUnit::Seconds);
        ASSERT_TRUE(msParts) << formatDuration(ms);
        ASSERT_EQ(toMilliseconds(*msParts), ms) << c;
    }
}

} // namespace
