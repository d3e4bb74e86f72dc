// SPDX-License-Identifier: GPL-3.0-or-later
// The SweepParameter traits table: one row per enumerator, and every name, spelling and
// value in it read back by the code that uses it (names, the CLI's form, the JSON).
#include "core/profile/names.h"
#include "core/profile/profile_json.h"
#include "core/profile/series.h"
#include "core/profile/sweep_parameter.h"
#include "core/profile/units.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <set>

namespace ioprism::core {
namespace {

constexpr std::uint64_t kTiB = 1024 * kGiB;

// Every enumerator by its underlying value, 0 up to the last (the table's size; the
// build fails when the table misses one, core/profile/sweep_parameter.cpp).
std::vector<SweepParameter> everyParameter()
{
    std::vector<SweepParameter> all;
    for (std::size_t i = 0; i < kSweepParameterTraits.size(); ++i)
        all.push_back(SweepParameter(i));
    return all;
}

// A value of each kind that every parameter accepts, and one that needs a unit.
std::vector<std::uint64_t> sampleValues(const SweepParameterTraits &t)
{
    switch (t.kind) {
    case SweepValueKind::Size:
        return {512, 1536, 4 * kKiB, kMiB};
    case SweepValueKind::Count:
        return {1, 4, 32};
    case SweepValueKind::Percent:
        return {0, 70, 100};
    }
    return {};
}

TEST(SweepParameterTraits, EveryEnumeratorHasItsOwnRowAndDistinctNames)
{
    std::set<std::string_view> names, cli, columns;
    for (const auto p : everyParameter()) {
        const SweepParameterTraits &t = sweepTraits(p);
        EXPECT_EQ(t.parameter, p);
        EXPECT_FALSE(t.name.empty() || t.cliName.empty() || t.csvColumn.empty() || t.title.empty()
            || t.columnTitle.empty() || t.defaultAxis.empty());
        EXPECT_TRUE(names.insert(t.name).second) << t.name;
        EXPECT_TRUE(cli.insert(t.cliName).second) << t.cliName;
        EXPECT_TRUE(columns.insert(t.csvColumn).second) << t.csvColumn;
        EXPECT_EQ(sweepParameterTraits()[std::size_t(p)].parameter, p);
    }
}

TEST(SweepParameterTraits, TheJsonNameRoundTrips)
{
    for (const auto p : everyParameter()) {
        EXPECT_EQ(toString(p), sweepTraits(p).name);
        EXPECT_EQ(parseEnum<SweepParameter>(sweepTraits(p).name), p);
    }
}

TEST(SweepParameterTraits, EveryCliSpellingReadsAsItsParameter)
{
    for (const auto p : everyParameter()) {
        const SweepParameterTraits &t = sweepTraits(p);
        std::vector<std::string_view> spellings {t.cliName};
        for (const auto alias : t.cliAliases)
            if (!alias.empty())
                spellings.push_back(alias);
        for (const auto name : spellings) {
            std::string error;
            const auto axis = parseSweep(std::string(name) + "=1", error);
            ASSERT_TRUE(axis) << name << ": " << error;
            EXPECT_EQ(axis->parameter, p) << name;
        }
    }
}

TEST(SweepParameterTraits, TheDefaultAxisParsesAndEveryAxisRoundTripsThroughTheCliForm)
{
    for (const auto p : everyParameter()) {
        const SweepParameterTraits &t = sweepTraits(p);
        std::string error;
        const auto defaults = parseSweep(fmt::format("{}={}", t.cliName, t.defaultAxis), error);
        ASSERT_TRUE(defaults) << t.cliName << ": " << error;
        EXPECT_GT(sweepValueCount(*defaults), 1u) << t.cliName;
        const SweepAxis listed {p, sampleValues(t)};
        for (const SweepAxis &axis : {listed, *defaults}) {
            const std::string text = formatSweep(axis);
            EXPECT_TRUE(text.starts_with(std::string(t.cliName) + "=")) << text;
            const auto back = parseSweep(text, error);
            ASSERT_TRUE(back) << text << ": " << error;
            EXPECT_EQ(*back, axis) << text;
        }
    }
}

TEST(SweepParameterTraits, EveryAxisRoundTripsThroughTheProfileJson)
{
    for (const auto p : everyParameter()) {
        Profile profile;
        profile.setup.series = Series {};
        profile.setup.series->axes.push_back(SweepAxis {p, sampleValues(sweepTraits(p))});
        Problems problems;
        const auto back = parseProfileJson(writeProfileJson(profile), problems);
        ASSERT_TRUE(back) << toString(p) << (problems.empty() ? "" : problems[0].toString());
        EXPECT_EQ(back->setup.series, profile.setup.series) << toString(p);
    }
}

TEST(SweepParameterTraits, ValuesReadAsTheirKindSays)
{
    EXPECT_EQ(describeSweepValue(SweepParameter::TransferSize, 4 * kKiB), "4 KiB");
    EXPECT_EQ(describeSweepValue(SweepParameter::TransferSize, 1536), "1536 B");
    EXPECT_EQ(describeSweepValue(SweepParameter::OutstandingIos, 32), "QD 32");
    EXPECT_EQ(describeSweepValue(SweepParameter::Workers, 1), "1 worker");
    EXPECT_EQ(describeSweepValue(SweepParameter::Workers, 8), "8 workers");
    EXPECT_EQ(describeSweepValue(SweepParameter::PercentRead, 70), "70 % read");
    EXPECT_EQ(describeSweepValue(SweepParameter::PercentRandom, 1), "1 % random");
    for (const auto p : everyParameter())
        for (const auto v : sampleValues(sweepTraits(p))) {
            const std::string text = describeSweepValue(p, v);
            EXPECT_NE(text.find(sweepTraits(p).kind == SweepValueKind::Size ? describeExactSize(v)
                                                                            : std::to_string(v)),
                std::string::npos)
                << text;
        }
}

// ---------------------------------------------------------------- sizeText

struct SizeCase {
    std::uint64_t bytes;
    const char *canonical;
    const char *exact;
    const char *rounded;
};

TEST(SizeText, EveryStyleOfOneImplementation)
{
    constexpr std::uint64_t kMax = UINT64_MAX;
    const SizeCase cases[] = {
        {0, "0", "0 B", "0 B"},
        {1, "1", "1 B", "1 B"},
        {512, "512", "512 B", "512 B"},
        {1000, "1000", "1000 B", "1000 B"},
        {1023, "1023", "1023 B", "1023 B"},
        {kKiB, "1KiB", "1 KiB", "1 KiB"},
        {1536, "1536", "1536 B", "1.5 KiB"},
        {4 * kKiB, "4KiB", "4 KiB", "4 KiB"},
        {1536 * kKiB, "1536KiB", "1536 KiB", "1.5 MiB"},
        {2 * kMiB, "2MiB", "2 MiB", "2 MiB"},
        {3 * kGiB, "3GiB", "3 GiB", "3 GiB"},
        {kTiB, "1TiB", "1 TiB", "1 TiB"},
        // The exact styles stop at TiB (parseSize reads no more); Rounded goes on.
        {1024 * kTiB, "1024TiB", "1024 TiB", "1 PiB"},
        {kMax, "18446744073709551615", "18446744073709551615 B", "16.0 EiB"},
    };
    for (const auto &c : cases) {
        EXPECT_EQ(sizeText(c.bytes, SizeStyle::Canonical), c.canonical) << c.bytes;
        EXPECT_EQ(sizeText(c.bytes, SizeStyle::Exact), c.exact) << c.bytes;
        EXPECT_EQ(sizeText(c.bytes, SizeStyle::Rounded), c.rounded) << c.bytes;
        EXPECT_EQ(formatSize(c.bytes), c.canonical);
        EXPECT_EQ(describeExactSize(c.bytes), c.exact);
        EXPECT_EQ(describeSize(c.bytes), c.rounded);
        EXPECT_EQ(parseSize(c.canonical), c.bytes) << c.canonical;
        EXPECT_EQ(parseSize(c.exact), c.bytes) << c.exact;
    }
}

} // namespace
} // namespace ioprism::core
