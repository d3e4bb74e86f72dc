// SPDX-License-Identifier: GPL-3.0-or-later
// The JSON text of the results files (core/report/json_text.h): number forms, the layout,
// and that a number read back from the text is written to the same text; and the time
// series' text of a kept figure (core/report/resolution.h), the same read back.
#include "core/report/json_text.h"
#include "core/report/resolution.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <random>

using namespace ioprism::core;

namespace {

std::string fixed(double value, int decimals)
{
    std::string out;
    appendJsonFixed(out, value, decimals);
    return out;
}

std::string shortest(double value)
{
    std::string out;
    appendJsonNumber(out, value);
    return out;
}

struct FixedCase {
    double value;
    int decimals;
    const char *text;
};

class JsonFixed : public testing::TestWithParam<FixedCase>
{
};

TEST_P(JsonFixed, RoundsToTheDecimalsAndDropsTrailingZeros)
{
    const FixedCase &c = GetParam();
    EXPECT_EQ(fixed(c.value, c.decimals), c.text);
}

INSTANTIATE_TEST_SUITE_P(Table, JsonFixed,
    testing::Values(FixedCase {4748.1234567, 3, "4748.123"}, FixedCase {4748.1236, 3, "4748.124"},
        FixedCase {2.5, 3, "2.5"}, FixedCase {3, 3, "3.0"}, FixedCase {0, 3, "0.0"},
        FixedCase {0.007, 3, "0.007"}, FixedCase {0.0004, 3, "0.0"},
        FixedCase {0.000123456789, 9, "0.000123457"}, FixedCase {-1.25, 2, "-1.25"},
        FixedCase {-0.0001, 3, "0.0"}, FixedCase {191035.31746031746, 3, "191035.317"},
        FixedCase {0.9175039999999999, 6, "0.917504"}, FixedCase {12e6, 3, "12000000.0"},
        FixedCase {7, 0, "7.0"},
        // Beyond 1e15 units of the last place: every digit, in the shortest form.
        FixedCase {2e13, 3, "20000000000000.0"}, FixedCase {1e300, 6, "1e+300"},
        FixedCase {std::numeric_limits<double>::quiet_NaN(), 3, "null"},
        FixedCase {std::numeric_limits<double>::infinity(), 3, "null"}));

TEST(JsonNumber, DoublesAreShortestAndKeepTheirPoint)
{
    EXPECT_EQ(shortest(3.0), "3.0");
    EXPECT_EQ(shortest(0.1), "0.1");
    EXPECT_EQ(shortest(12e6), "12000000.0");
    EXPECT_EQ(shortest(1.5e16), "1.5e+16");
    EXPECT_EQ(shortest(2.5e-6), "2.5e-06");
    EXPECT_EQ(shortest(-0.25), "-0.25");
    EXPECT_EQ(shortest(std::nan("")), "null");
    std::string out;
    appendJsonNumber(out, std::uint64_t {18446744073709551615ULL});
    EXPECT_EQ(out, "18446744073709551615");
}

// What the reader gets from the text is written to the same text: the round trip of a
// results file depends on it, for any value and any number of places.
TEST(JsonNumber, ANumberReadBackIsWrittenToTheSameText)
{
    std::mt19937_64 rng(5);
    std::lognormal_distribution<double> magnitude(2, 6);
    std::uniform_int_distribution<int> places(0, 9);
    for (int i = 0; i < 20000; ++i) {
        const double value = magnitude(rng) * (i % 3 == 0 ? -1 : 1);
        const int decimals = places(rng);
        const std::string text = fixed(value, decimals);
        const double read = nlohmann::json::parse(text).get<double>();
        ASSERT_EQ(fixed(read, decimals), text) << value << " with " << decimals;
        const std::string shortText = shortest(value);
        ASSERT_EQ(nlohmann::json::parse(shortText).get<double>(), value) << shortText;
    }
}

struct KeptCase {
    double value;
    int kept;
    int shown;
    const char *text;
};

class KeptFixed : public testing::TestWithParam<KeptCase>
{
};

// The time series shows the value the results keep: rounded to the kept places half away
// from zero, then to the shown ones on its decimal digits (never on the binary value).
TEST_P(KeptFixed, ShowsTheKeptValue)
{
    const KeptCase &c = GetParam();
    EXPECT_EQ(keptFixed(c.value, c.kept, c.shown), c.text);
}

INSTANTIATE_TEST_SUITE_P(Table, KeptFixed,
    testing::Values(KeptCase {0.3695, 3, 3, "0.370"}, // kept 0.37 (fmt alone: 0.369)
        KeptCase {1.0625, 3, 3, "1.063"}, // exact in binary (fmt alone: 1.062, to even)
        KeptCase {1.0004999996, 9, 3, "1.001"}, // kept 1.0005
        KeptCase {1.0004994, 9, 3, "1.000"}, KeptCase {12.3449996, 3, 2, "12.35"},
        KeptCase {4095.95, 3, 1, "4096.0"}, KeptCase {2.5, 3, 3, "2.500"},
        KeptCase {0.0004, 3, 3, "0.000"}, KeptCase {0.0005, 3, 3, "0.001"}, KeptCase {7, 0, 0, "7"},
        KeptCase {123456.789, 3, 0, "123457"}, KeptCase {-1.25, 3, 1, "-1.3"},
        KeptCase {-0.0001, 3, 3, "0.000"}, KeptCase {0.000123456789, 9, 6, "0.000123"},
        KeptCase {std::numeric_limits<double>::quiet_NaN(), 3, 3, ""},
        KeptCase {std::numeric_limits<double>::infinity(), 3, 3, ""},
        // Beyond 1e15 units of the kept place the results keep the double as it is.
        KeptCase {2e13, 3, 3, "20000000000000.000"},
        KeptCase {1e17, 6, 1, "100000000000000000.0"}));

// A figure read back from the results shows as the figure did: for any value, kept and
// shown places.
TEST(KeptFixed, AFigureReadBackShowsTheSame)
{
    std::mt19937_64 rng(11);
    std::lognormal_distribution<double> magnitude(2, 6);
    std::uniform_int_distribution<int> places(0, 9);
    for (int i = 0; i < 20000; ++i) {
        const double value = magnitude(rng) * (i % 3 == 0 ? -1 : 1);
        const int kept = places(rng);
        const int shown = std::uniform_int_distribution<int>(0, kept)(rng);
        const double read = nlohmann::json::parse(fixed(value, kept)).get<double>();
        ASSERT_EQ(keptFixed(read, kept, shown), keptFixed(value, kept, shown))
            << value << " kept to " << kept << ", shown to " << shown;
    }
    // Exactly halfway at the kept place, as many as there are.
    for (std::uint64_t units = 0; units < 20000; ++units) {
        const double value = (double(units) + 0.5) / 1000;
        const double read = nlohmann::json::parse(fixed(value, 3)).get<double>();
        ASSERT_EQ(keptFixed(read, 3, 3), keptFixed(value, 3, 3)) << value;
    }
}

TEST(JsonText, PlainArraysAreOneLineAndObjectsOneMemberPerLine)
{
    const auto doc = nlohmann::ordered_json::parse(
        R"({"a": [1, 2.5, "x", null, true], "b": {"c": []}, "d": [[1, 2], [3]], "e": {}})");
    std::string out;
    appendJson(out, doc, 0);
    EXPECT_EQ(out,
        "{\n"
        "  \"a\": [1, 2.5, \"x\", null, true],\n"
        "  \"b\": {\n"
        "    \"c\": []\n"
        "  },\n"
        "  \"d\": [\n"
        "    [1, 2],\n"
        "    [3]\n"
        "  ],\n"
        "  \"e\": {}\n"
        "}");
    EXPECT_EQ(nlohmann::ordered_json::parse(out), doc);
}

TEST(JsonText, StringsAreEscapedAndInvalidUtf8Replaced)
{
    std::string out;
    appendJsonString(out, "a\"b\\c\n\x01");
    EXPECT_EQ(out, R"("a\"b\\c\n\u0001")");
    out.clear();
    appendJsonString(out, "caf\xc3\xa9 \xff");
    EXPECT_EQ(out, "\"caf\xc3\xa9 \xef\xbf\xbd\"");
}

TEST(JsonText, ColumnsStreamBesideADocument)
{
    std::string out;
    JsonTextWriter w(out, 1);
    w.beginObject();
    w.column("x", 3, [&](std::size_t i) { w.fixed(double(i) / 3, 3); });
    w.key("y");
    w.null();
    w.endObject();
    EXPECT_EQ(out, "{\n    \"x\": [0.0, 0.333, 0.667],\n    \"y\": null\n  }");
}

} // namespace
