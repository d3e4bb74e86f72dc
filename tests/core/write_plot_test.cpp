// SPDX-License-Identifier: GPL-3.0-or-later
// The write against the bytes written (issue 30 item 3), as the HTML report draws it:
// each interval's rate at the bytes written by its end, the cliff where it was judged,
// and the write latency below.
#include "core/profile/units.h"
#include "core/report/svg_plots.h"
#include "core/run/step_findings.h"
#include "support/write_intervals.h"

#include <gtest/gtest.h>
#include <limits>
#include <regex>
#include <sstream>

using namespace ioprism::core;

namespace {

std::vector<IntervalSample> writeIntervals(std::size_t fast, std::size_t slow)
{
    return ioprism::test::cacheWriteIntervals(fast, slow, 2);
}

// The points of the polyline drawn in `color`.
std::vector<std::pair<double, double>> polylinePoints(const std::string &svg, const char *color)
{
    const std::regex line(std::string("<polyline fill=\"none\" stroke=\"") + color
        + "\" stroke-width=\"1.5\" points=\"([^\"]*)\"/>");
    std::smatch m;
    std::vector<std::pair<double, double>> points;
    if (!std::regex_search(svg, m, line))
        return points;
    std::istringstream in(m[1].str());
    double x = 0, y = 0;
    char comma = 0;
    while (in >> x >> comma >> y)
        points.emplace_back(x, y);
    return points;
}

} // namespace

// Twenty intervals, the rate falling from 400 to 100 MB/s after 4 GB: the rate is drawn
// at the bytes written (x grows with them, four times as fast before the cliff as after),
// the cliff marked at its bytes with both rates as level lines, the latency below.
TEST(WriteCliffSvg, TheRateIsDrawnAgainstTheBytesWrittenWithTheCliffWhereItWasJudged)
{
    const std::vector<IntervalSample> intervals = writeIntervals(10, 10);
    const std::vector<StepWriteInterval> written
        = stepWriteIntervals(intervals, 2, RunPhase::Measuring);
    ASSERT_EQ(written.size(), 20u);
    EXPECT_EQ(written.back().bytesWritten, 5'000'000'000u);
    EXPECT_TRUE(stepWriteIntervals(intervals, 1, RunPhase::Measuring).empty()) << "other step";
    EXPECT_TRUE(stepWriteIntervals(intervals, 2, RunPhase::Preconditioning).empty());

    std::vector<WriteRatePoint> points;
    for (const auto &w : written)
        points.push_back({w.bytesWritten, w.write.megabytesPerSecond});
    WriteCliffJudgement judged {.intervals = 20, .bytesWritten = 5'000'000'000};
    judged.cliff = findWriteCliff(points);
    ASSERT_TRUE(judged.cliff);
    EXPECT_EQ(judged.cliff->bytesBefore, 4'000'000'000u);

    const std::string svg = writeCliffSvg(written, judged);
    ASSERT_FALSE(svg.empty());
    const auto rate = polylinePoints(svg, "#1f77b4");
    ASSERT_EQ(rate.size(), 20u) << svg;
    // x: the bytes written; each fast interval is four slow ones wide.
    const double fastWidth = rate[1].first - rate[0].first;
    const double slowWidth = rate[19].first - rate[18].first;
    EXPECT_NEAR(fastWidth / slowWidth, 4.0, 0.01);
    // y: the rate (SVG's y grows downwards): the fast intervals drawn four times as high
    // above the axis.
    EXPECT_LT(rate[0].second, rate[19].second);
    // The rate axis's ticks on the lines' scale: the "400" tick level with 400 MB/s.
    const std::regex tick400("<line x1=\"70\" x2=\"940\" y1=\"([0-9.]+)\" y2=\"[0-9.]+\" "
                             "stroke=\"#8883\"/><text x=\"64\" y=\"[0-9.]+\" "
                             "text-anchor=\"end\">400</text>");
    std::smatch tick;
    ASSERT_TRUE(std::regex_search(svg, tick, tick400)) << svg;
    EXPECT_NEAR(std::stod(tick[1].str()), rate[0].second, 0.1);
    // The cliff at its bytes, a dashed line at 4 of 5 GB across the plot (x 70 ... 940).
    const std::regex cliff("<line x1=\"([0-9.]+)\" x2=\"[0-9.]+\" y1=\"[0-9.]+\" "
                           "y2=\"[0-9.]+\" stroke=\"#888\" stroke-dasharray=\"3 3\"/><text "
                           "x=\"[0-9.]+\" y=\"[0-9.]+\">cliff after 3.7 GiB</text>");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(svg, m, cliff)) << svg;
    EXPECT_NEAR(std::stod(m[1].str()), rate[9].first, 0.2) << "at the last fast interval's end";
    EXPECT_NEAR(std::stod(m[1].str()), 70 + 0.8 * 870, 0.2);
    EXPECT_NE(svg.find("written (GiB)"), std::string::npos);
    // The latency below: p99 above the mean (smaller y) in every interval.
    const auto mean = polylinePoints(svg, "#9467bd");
    const auto p99 = polylinePoints(svg, "#d62728");
    ASSERT_EQ(mean.size(), 20u);
    ASSERT_EQ(p99.size(), 20u);
    for (std::size_t i = 0; i < 20; ++i)
        EXPECT_LT(p99[i].second, mean[i].second) << "interval " << i;
    EXPECT_GT(mean[19].second, 256.0) << "the latency panel is below the rate's";

    // A level write has its plot and no cliff; fewer than two intervals, none.
    WriteCliffJudgement level {.intervals = 20, .bytesWritten = 8'000'000'000};
    const auto flat = writeIntervals(20, 0);
    const std::string levelSvg
        = writeCliffSvg(stepWriteIntervals(flat, 2, RunPhase::Measuring), level);
    EXPECT_EQ(polylinePoints(levelSvg, "#1f77b4").size(), 20u);
    EXPECT_EQ(levelSvg.find("cliff after"), std::string::npos);
    EXPECT_TRUE(writeCliffSvg(std::span(written).first(1), judged).empty());
}

// Read back from a results file an interval has its mean latency and no p99 (0): the
// latency panel is scaled by what it has, the mean drawn inside it, and no p99 line or
// legend; a figure that is not a number is left out.
TEST(WriteCliffSvg, AWriteReadBackWithoutItsP99DrawsTheMeanInsideItsPanel)
{
    std::vector<IntervalSample> intervals = writeIntervals(10, 10);
    for (auto &s : intervals)
        s.scopes.front().figures.write.latency.p99Us = 0;
    intervals[3].scopes.front().figures.write.latency.meanUs
        = std::numeric_limits<double>::quiet_NaN();
    const auto written = stepWriteIntervals(intervals, 2, RunPhase::Measuring);
    const std::string svg
        = writeCliffSvg(written, {.intervals = 20, .bytesWritten = 5'000'000'000});
    const auto mean = polylinePoints(svg, "#9467bd");
    ASSERT_EQ(mean.size(), 19u) << "every interval's mean but the one that is no number";
    for (const auto &[x, y] : mean) {
        EXPECT_GE(y, 256.0 - 0.1);
        EXPECT_LE(y, 376.0 + 0.1);
    }
    EXPECT_TRUE(polylinePoints(svg, "#d62728").empty());
    EXPECT_EQ(svg.find("p99 latency"), std::string::npos);
    EXPECT_EQ(svg.find("nan"), std::string::npos);
}
