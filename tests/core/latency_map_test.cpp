// SPDX-License-Identifier: GPL-3.0-or-later
// Latency over time (core/stats/latency_map.h): the bands, an interval's bands from its
// histograms or as read back, the results file's columns and the report's heat map.
#include "core/report/html_report.h"
#include "core/report/results_json.h"
#include "core/report/results_reader.h"
#include "core/report/svg_plots.h"
#include "core/run/interval_history.h"
#include "core/stats/latency_map.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <regex>
#include <string>

namespace ioprism::core {
namespace {

using testing::HasSubstr;

// `ios` latencies of `ns` each, as an interval keeps them.
SparseLatencyHistogram bandTestHistogram(
    std::initializer_list<std::pair<std::uint64_t, std::uint64_t>> iosAtNs)
{
    LatencyHistogram h;
    std::uint64_t low = std::numeric_limits<std::uint64_t>::max(), high = 0;
    for (const auto &[ios, ns] : iosAtNs) {
        for (std::uint64_t i = 0; i < ios; ++i)
            h.record(ns);
        low = std::min(low, ns);
        high = std::max(high, ns);
    }
    return SparseLatencyHistogram::of(h, low, high);
}

TEST(LatencyBands, EachBandIsAQuarterOfAnOctaveFromItsLowerEdge)
{
    for (std::uint32_t band = 0; band < 180; ++band) {
        const double low = latencyBandLowNs(band);
        EXPECT_EQ(latencyBandOf(low), band) << "its own lower edge";
        EXPECT_EQ(latencyBandOf(latencyBandLowNs(band + 1) * (1 - 1e-6)), band) << "below the next";
        EXPECT_NEAR(latencyBandLowNs(band + 1) / low, std::exp2(0.25), 1e-12);
    }
    EXPECT_EQ(latencyBandLowNs(40), 1024.0) << "band 4k starts at 2^k ns";
    EXPECT_EQ(latencyBandOf(0), 0u);
    EXPECT_EQ(latencyBandOf(0.5), 0u);
    EXPECT_EQ(latencyBandOf(std::nan("")), 0u);
}

TEST(LatencyBands, AHistogramsIosLandInTheBandsOfTheirLatencies)
{
    // 1000 reads at 100 µs, 10 at 10 ms, 1 at 2 s: three bands, far apart, and every I/O.
    const LatencyBands bands = latencyBandsOf(
        bandTestHistogram({{1000, 100'000}, {10, 10'000'000}, {1, 2'000'000'000}}));
    EXPECT_EQ(bands.total(), 1011u);
    EXPECT_EQ(bands.first, latencyBandOf(100'000));
    EXPECT_EQ(bands.last(), latencyBandOf(2e9));
    EXPECT_EQ(bands.countIn(latencyBandOf(100'000)), 1000u);
    EXPECT_EQ(bands.countIn(latencyBandOf(1e7)), 10u);
    EXPECT_EQ(bands.countIn(latencyBandOf(2e9)), 1u);
    EXPECT_EQ(bands.countIn(latencyBandOf(1e6)), 0u) << "a band between them is empty";
    EXPECT_EQ(bands.countIn(bands.last() + 1), 0u);
    EXPECT_TRUE(latencyBandsOf(SparseLatencyHistogram {}).empty());
}

// A histogram from another host (an agent, an MPI rank) is read only as far as it goes:
// lists of unequal length, an index past the layout.
TEST(LatencyBands, AHistogramFromElsewhereIsReadOnlyWhereItHasBuckets)
{
    SparseLatencyHistogram h;
    h.indices = {100, 200, std::uint32_t(LatencyHistogram::kBucketCount), 300};
    h.counts = {1, 2, 3};
    const LatencyBands bands = latencyBandsOf(h);
    EXPECT_EQ(bands.total(), 3u) << "the two buckets with an index and a count in the layout";
    EXPECT_LE(bands.last(), kMaxLatencyBand);
    EXPECT_EQ(latencyBandOf(1e30), kMaxLatencyBand);
}

TEST(LatencyBands, EveryBucketOfTheHistogramIsCountedNearItsOwnBand)
{
    // One I/O in every bucket from 1 ns to about 1 s: each counted once, in the band of
    // its values (within one band, for a bucket that straddles a band's edge).
    LatencyHistogram h;
    std::uint64_t buckets = 0;
    for (std::size_t i = 1; i < LatencyHistogram::bucketIndex(1'000'000'000); ++i) {
        h.record(LatencyHistogram::bucketLow(i));
        ++buckets;
        LatencyHistogram one;
        one.record(LatencyHistogram::bucketLow(i));
        const LatencyBands b = latencyBandsOf(SparseLatencyHistogram::of(one, 0, 0));
        ASSERT_EQ(b.counts.size(), 1u);
        EXPECT_LE(std::abs(double(b.first)
                      - double(latencyBandOf(double(LatencyHistogram::bucketLow(i))))),
            1.0)
            << "bucket " << i;
    }
    EXPECT_EQ(latencyBandsOf(SparseLatencyHistogram::of(h, 1, 1'000'000'000)).total(), buckets);
}

TEST(LatencyBands, AddingBelowAboveAndBetweenKeepsOneRunOfBands)
{
    LatencyBands b;
    b.add(20, 5);
    b.add(17, 2);
    b.add(25, 1);
    b.add(20, 1);
    b.add(30, 0);
    EXPECT_EQ(b.first, 17u);
    EXPECT_EQ(b.counts, (std::vector<std::uint64_t> {2, 0, 0, 6, 0, 0, 0, 0, 1}));
    LatencyBands other;
    other.add(40, 3);
    b.merge(other);
    EXPECT_EQ(b.last(), 40u);
    EXPECT_EQ(b.total(), 12u);
}

TEST(LatencyBands, AnIntervalsBandsComeFromItsHistogramsOrAsReadBack)
{
    IntervalSample s;
    s.readLatency = bandTestHistogram({{100, 50'000}});
    s.writeLatency = bandTestHistogram({{7, 5'000'000}});
    const LatencyBands live = intervalLatencyBands(s);
    EXPECT_EQ(live.total(), 107u) << "reads and writes";
    EXPECT_EQ(live.countIn(latencyBandOf(5e6)), 7u);

    IntervalSample readBack;
    readBack.latencyBands = live;
    EXPECT_EQ(intervalLatencyBands(readBack), live);

    // Merged as a long run's history merges intervals: the bands add up either way.
    IntervalSample a = s, b = s;
    b.startSeconds = 1;
    b.endSeconds = 2;
    a.endSeconds = 1;
    EXPECT_EQ(intervalLatencyBands(mergeConsecutive(a, b)).total(), 214u);
    IntervalSample c = readBack, d = readBack;
    EXPECT_EQ(intervalLatencyBands(mergeConsecutive(c, d)).total(), 214u);
}

TEST(HeatColors, TheScaleRunsThroughItsStopsAndClamps)
{
    EXPECT_EQ(heatColor(0), 0x440154u) << "viridis' dark end";
    EXPECT_EQ(heatColor(1), 0xfde725u);
    EXPECT_EQ(heatColor(0.5), 0x21918cu);
    EXPECT_EQ(heatColor(-3), heatColor(0));
    EXPECT_EQ(heatColor(7), heatColor(1));
    EXPECT_EQ(heatColor(std::nan("")), heatColor(0));
    // Halfway between the first two stops: each channel halfway (rounded).
    EXPECT_EQ(heatColor(0.125), 0x402a70u);
}

// A run of `n` intervals of 1 s, each with 1000 I/Os at 100 µs, and in interval
// `stallAt` one more at 800 ms: what the heat map must show apart.
RunResult stalledRunForMap(std::size_t n, std::size_t stallAt)
{
    RunResult r;
    for (std::size_t i = 0; i < n; ++i) {
        IntervalSample s;
        s.step = 0;
        s.stepName = "4K read";
        s.startSeconds = double(i);
        s.endSeconds = double(i + 1);
        ScopeFigures all;
        all.scope.label = "All";
        all.figures.seconds = 1;
        all.figures.read.ios = all.figures.total.ios = i == stallAt ? 1001 : 1000;
        s.scopes.push_back(all);
        s.readLatency = i == stallAt ? bandTestHistogram({{1000, 100'000}, {1, 800'000'000}})
                                     : bandTestHistogram({{1000, 100'000}});
        r.intervals.push_back(s);
    }
    return r;
}

TEST(LatencyMapSvg, AStallIsACellFarAboveTheRestAndTheFullestCellIsTheBrightest)
{
    const RunResult r = stalledRunForMap(20, 12);
    const std::string svg = latencyMapSvg(r.intervals);
    ASSERT_FALSE(svg.empty());
    // One rectangle per interval for the 100 µs band (equal counts, one level), and one
    // for the stall.
    const std::regex rect("<rect x=\"[0-9.]+\" y=\"([0-9.]+)\" width=\"[0-9.]+\" "
                          "height=\"[0-9.]+\" fill=\"(#[0-9a-f]{6})\"/>");
    std::vector<std::pair<double, std::string>> cells;
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), rect); it != std::sregex_iterator();
         ++it)
        cells.emplace_back(std::stod((*it)[1]), (*it)[2]);
    ASSERT_EQ(cells.size(), 21u) << svg;
    const auto brightest = fmt::format("#{:06x}", heatColor(1));
    const auto darkest = fmt::format("#{:06x}", heatColor(0));
    EXPECT_EQ(std::count_if(
                  cells.begin(), cells.end(), [&](const auto &c) { return c.second == brightest; }),
        20)
        << "1000 I/Os: the fullest cells";
    EXPECT_EQ(std::count_if(
                  cells.begin(), cells.end(), [&](const auto &c) { return c.second == darkest; }),
        1)
        << "the stall's one I/O";
    const auto stall = std::find_if(
        cells.begin(), cells.end(), [&](const auto &c) { return c.second == darkest; });
    for (const auto &c : cells) {
        if (c.second == brightest) {
            EXPECT_GT(c.first, stall->first + 100)
                << "800 ms drawn far above 100 µs (y grows down)";
        }
    }
    EXPECT_THAT(svg, HasSubstr(">100 µs<"));
    EXPECT_THAT(svg, HasSubstr(">100 ms<")) << "powers of ten only: 1-2-5 would be too many";
}

// A long run is drawn in bounded columns of several intervals each, colored per sampling
// interval: the last column, of fewer intervals at the same rate, has the same color.
TEST(LatencyMapSvg, ALongRunIsDrawnInBoundedColumnsAtTheSameRateAsItsIntervals)
{
    const RunResult r = stalledRunForMap(5000, 4321);
    const std::string svg = latencyMapSvg(r.intervals);
    const std::regex cell("<rect x=\"[0-9.]+\" y=\"[0-9.]+\" width=\"[0-9.]+\" "
                          "height=\"[0-9.]+\" fill=\"(#[0-9a-f]{6})\"/>");
    std::map<std::string, int> colors;
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), cell); it != std::sregex_iterator();
         ++it)
        ++colors[(*it)[1]];
    const int columns = int((5000 + 10) / 11); // 11 intervals a column
    EXPECT_EQ(colors[fmt::format("#{:06x}", heatColor(1))], columns)
        << "every column at 1000 I/Os per interval, the last of 6 intervals too";
    EXPECT_EQ(colors[fmt::format("#{:06x}", heatColor(0))], 1) << "the stall";
    EXPECT_EQ(colors.size(), 2u);
    EXPECT_THAT(svg, HasSubstr(">1000</text>")) << "the scale's top: I/Os per sampling interval";
}

TEST(LatencyMapSvg, ARunWithoutIoHasNoMapAndTheReportNoSection)
{
    RunResult r = stalledRunForMap(3, 0);
    for (auto &s : r.intervals)
        s.readLatency = {};
    EXPECT_EQ(latencyMapSvg(r.intervals), "");
    EXPECT_THAT(
        writeHtmlReport(r, r.environment, {}), testing::Not(HasSubstr("Latency over time")));
    EXPECT_THAT(
        writeHtmlReport(stalledRunForMap(3, 1), {}, {}), HasSubstr("<h2>Latency over time</h2>"));
}

TEST(LatencyBandsInResults, TheFileKeepsEachIntervalsBandsAndReadsThemBack)
{
    const RunResult r = stalledRunForMap(4, 2);
    const std::string text = writeResultsJson(r, r.environment);
    EXPECT_THAT(text, HasSubstr("\"latency_bands\": {"));
    EXPECT_THAT(text, HasSubstr("\"per_octave\": 4"));
    const ResultsRead read = readResultsJson(text);
    ASSERT_TRUE(read.ok()) << read.error;
    ASSERT_EQ(read.result->intervals.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_TRUE(read.result->intervals[i].readLatency.empty()) << "no histograms in the file";
        EXPECT_EQ(
            intervalLatencyBands(read.result->intervals[i]), intervalLatencyBands(r.intervals[i]));
    }
    EXPECT_EQ(writeResultsJson(*read.result, read.result->environment), text) << "the same text";
    EXPECT_EQ(latencyMapSvg(read.result->intervals), latencyMapSvg(r.intervals))
        << "the report of the file read back draws the same map";
}

TEST(LatencyBandsInResults, BandsOfAnotherWidthOrCountsWithoutABandAreRefusedByPath)
{
    const RunResult r = stalledRunForMap(2, 0);
    const std::string text = writeResultsJson(r, r.environment);
    auto doc = nlohmann::ordered_json::parse(text);
    auto wider = doc;
    wider["intervals"]["latency_bands"]["per_octave"] = 8;
    const ResultsRead a = readResultsJson(wider.dump());
    EXPECT_FALSE(a.ok());
    EXPECT_THAT(a.error, HasSubstr("intervals.latency_bands.per_octave"));
    EXPECT_THAT(a.error, HasSubstr("bands of 8 per octave: this IOPrism reads 4"));
    auto orphan = doc;
    orphan["intervals"]["latency_bands"]["first"][1] = nullptr;
    const ResultsRead b = readResultsJson(orphan.dump());
    EXPECT_FALSE(b.ok());
    EXPECT_THAT(b.error, HasSubstr("counts of an interval without a first band"));
    auto zeroEnd = doc;
    zeroEnd["intervals"]["latency_bands"]["counts"][0].push_back(0);
    const ResultsRead d = readResultsJson(zeroEnd.dump());
    EXPECT_FALSE(d.ok());
    EXPECT_THAT(d.error, HasSubstr("the first and the last band of an interval hold I/O"));
    auto tooHigh = doc;
    tooHigh["intervals"]["latency_bands"]["first"][0] = 250;
    tooHigh["intervals"]["latency_bands"]["counts"][0]
        = nlohmann::json::array({1, 0, 0, 0, 0, 0, 1});
    const ResultsRead e = readResultsJson(tooHigh.dump());
    EXPECT_FALSE(e.ok());
    EXPECT_THAT(e.error, HasSubstr("not the counts of latency bands from band 250 (at most 255)"));
    auto old = doc;
    old["intervals"].erase("latency_bands");
    const ResultsRead c = readResultsJson(old.dump());
    ASSERT_TRUE(c.ok()) << "a file from before the bands: " << c.error;
    EXPECT_TRUE(intervalLatencyBands(c.result->intervals[0]).empty());
}

} // namespace
} // namespace ioprism::core
