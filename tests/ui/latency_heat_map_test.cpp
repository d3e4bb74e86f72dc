// SPDX-License-Identifier: GPL-3.0-or-later
// The latency heat map behind the Live page's latency plot (ui/plots/latency_heat_map.h):
// drawn where its bands are, in the report's colours, from live intervals and from
// intervals read back from a file; kept in view; hidden on request.
#include "core/stats/latency_map.h"
#include "ui/plots/latency_heat_map.h"
#include "ui/plots/live_plots.h"
#include "ui/plots/qcp_library.h"

#include <QImage>

#include <cmath>
#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

core::SparseLatencyHistogram heatTestHistogram(std::uint64_t ios, std::uint64_t ns)
{
    core::LatencyHistogram h;
    for (std::uint64_t i = 0; i < ios; ++i)
        h.record(ns);
    return core::SparseLatencyHistogram::of(h, ns, ns);
}

// Interval i of 1 s: 1000 reads at 100 µs, and at `stallAt` one more at 800 ms. The
// figures have no percentiles (no I/O counted), so that no line crosses the map.
core::IntervalSample heatTestSample(int i, int stallAt)
{
    core::IntervalSample s;
    s.runId = 1;
    s.stepName = "4K read";
    s.startSeconds = i;
    s.endSeconds = i + 1;
    s.scopes.push_back({});
    s.readLatency = heatTestHistogram(1000, 100'000);
    if (i == stallAt)
        s.readLatency.merge(heatTestHistogram(1, 800'000'000));
    return s;
}

QRgb heatRgb(double t)
{
    return QColor::fromRgb(core::heatColor(t)).rgb();
}

TEST(LatencyHeatMap, EachIntervalsIosAreDrawnInTheirBandsAndTheStallStaysInView)
{
    test::ensureApp();
    LivePlots plots;
    plots.resize(1600, 1200);
    plots.show();
    for (int i = 0; i < 30; ++i)
        plots.addSample(heatTestSample(i, 17));
    QCustomPlot *latency = plots.plot(LivePlots::LatencyPlot);
    latency->replot();
    const LatencyHeatMap &map = plots.heatMap();
    EXPECT_EQ(map.intervalCount(), 30);
    QCPColorMapData *data = map.colorMap()->data();
    EXPECT_EQ(data->keySize(), 30) << "one column per interval of the shortest length";
    const auto cellValue = [&](double seconds, double us) { return map.drawnValue(seconds, us); };
    EXPECT_EQ(cellValue(17.5, 800'000), 1.0) << "the stall's one I/O";
    EXPECT_TRUE(std::isnan(cellValue(16.5, 800'000))) << "no I/O there: transparent";
    EXPECT_EQ(cellValue(3.5, 100), 1000.0);
    EXPECT_GT(latency->yAxis->range().upper, 800'000.0) << "the stall is in view";
    EXPECT_LT(latency->yAxis->range().lower, 100.0);

    // The hover's read-out: the interval that ended at 18 s, in the band at 800 ms.
    const auto band = map.intervalBandAt(18, 800'000);
    ASSERT_TRUE(band);
    EXPECT_EQ(band->ios, 1u);
    EXPECT_LE(band->lowUs, 800'000);
    EXPECT_GT(band->highUs, 800'000);
    EXPECT_FALSE(map.intervalBandAt(17, 800'000));
    EXPECT_EQ(map.intervalBandAt(4, 100)->ios, 1000u);

    // Drawn where the axes put those latencies: the fullest cell the brightest colour,
    // the stall the darkest, a band's rows exactly its own (log axis, bands of 2^(1/4)).
    // At the plot's own size, so that the axes map as they do on screen.
    latency->replot(QCustomPlot::rpImmediateRefresh);
    const QImage image = latency->toPixmap().toImage();
    if (qEnvironmentVariableIsSet("HEAT_DEBUG"))
        image.save(QStringLiteral("/tmp/heat.png"));
    const auto pixel = [&](double seconds, double us) {
        return image.pixel(
            int(latency->xAxis->coordToPixel(seconds)), int(latency->yAxis->coordToPixel(us)));
    };
    const double bandLow = core::latencyBandLowNs(core::latencyBandOf(100'000)) / 1e3;
    const double bandHigh = core::latencyBandLowNs(core::latencyBandOf(100'000) + 1) / 1e3;
    // The scale's ends, as QCP's gradient of 256 levels gives them (within a few units).
    const auto is = [](QRgb drawn, double t) {
        const QColor a(drawn), b(heatRgb(t));
        return std::abs(a.red() - b.red()) <= 8 && std::abs(a.green() - b.green()) <= 8
            && std::abs(a.blue() - b.blue()) <= 8;
    };
    EXPECT_TRUE(is(pixel(3.5, 100), 1)) << "the fullest cells: the brightest";
    EXPECT_TRUE(is(pixel(3.5, bandLow * 1.04), 1)) << "the band's bottom rows";
    EXPECT_TRUE(is(pixel(3.5, bandHigh / 1.04), 1)) << "the band's top rows";
    EXPECT_FALSE(is(pixel(3.5, bandHigh * 1.04), 1)) << "the band above has no I/O";
    EXPECT_FALSE(is(pixel(3.5, bandLow / 1.04), 1)) << "nor the band below";
    EXPECT_TRUE(is(pixel(17.5, 800'000), 0)) << "the stall's one I/O: the darkest";
    EXPECT_FALSE(is(pixel(16.5, 800'000), 0)) << "no I/O: no colour";

    plots.setHeatMapVisible(false);
    EXPECT_FALSE(plots.isHeatMapVisible());
    const QImage hidden = latency->toPixmap().toImage();
    EXPECT_FALSE(is(hidden.pixel(int(latency->xAxis->coordToPixel(3.5)),
                        int(latency->yAxis->coordToPixel(100))),
        1));
}

// A run opened from its results file has bands, not histograms: the same map.
TEST(LatencyHeatMap, IntervalsReadBackFromAFileDrawTheSameMap)
{
    test::ensureApp();
    LivePlots live, readBack;
    for (int i = 0; i < 10; ++i) {
        const core::IntervalSample s = heatTestSample(i, 4);
        live.addSample(s);
        core::IntervalSample fromFile = s;
        fromFile.latencyBands = core::latencyBandsOf(s.readLatency);
        fromFile.readLatency = {};
        readBack.addSample(fromFile);
    }
    live.plot(LivePlots::LatencyPlot)->replot();
    readBack.plot(LivePlots::LatencyPlot)->replot();
    QCPColorMapData *a = live.heatMap().colorMap()->data();
    QCPColorMapData *b = readBack.heatMap().colorMap()->data();
    ASSERT_EQ(a->keySize(), b->keySize());
    ASSERT_EQ(a->valueSize(), b->valueSize());
    EXPECT_EQ(a->valueRange(), b->valueRange());
    for (int k = 0; k < a->keySize(); ++k)
        for (int v = 0; v < a->valueSize(); ++v) {
            const double x = a->cell(k, v), y = b->cell(k, v);
            EXPECT_TRUE((std::isnan(x) && std::isnan(y)) || x == y) << k << ", " << v;
        }
    EXPECT_EQ(readBack.heatMap().drawnValue(4.5, 800'000), 1.0);
    EXPECT_EQ(readBack.heatMap().intervalBandAt(5, 800'000)->ios, 1u);
}

// A long run read back keeps merged intervals (several sampling intervals each): their
// I/Os are spread over the cells they cover, so one color is one rate.
TEST(LatencyHeatMap, AnIntervalCoveringSeveralCellsSpreadsItsIos)
{
    test::ensureApp();
    LivePlots plots;
    for (int i = 0; i < 5; ++i)
        plots.addSample(heatTestSample(i, -1));
    core::IntervalSample merged = heatTestSample(5, -1);
    merged.endSeconds = 9; // four seconds, 1000 I/Os
    plots.addSample(merged);
    plots.plot(LivePlots::LatencyPlot)->replot();
    const LatencyHeatMap &map = plots.heatMap();
    EXPECT_EQ(map.colorMap()->data()->keySize(), 9) << "cells of the median interval, 1 s";
    EXPECT_EQ(map.drawnValue(0.5, 100), 1000.0);
    for (const double t : {5.5, 6.5, 7.5, 8.5})
        EXPECT_EQ(map.drawnValue(t, 100), 250.0) << t;
}

// A step's last interval is short (cut by the step's end): the cells keep the typical
// interval's length, and each holds the I/Os of its own stretch of time, so the same rate
// is the same color across the whole map.
TEST(LatencyHeatMap, AShortIntervalLeavesTheSameRateTheSameColor)
{
    test::ensureApp();
    LivePlots plots;
    for (int i = 0; i < 10; ++i)
        plots.addSample(heatTestSample(i, -1));
    core::IntervalSample last = heatTestSample(10, -1);
    last.endSeconds = 10.3; // 0.3 s at the same rate: 300 I/Os
    last.readLatency = heatTestHistogram(300, 100'000);
    plots.addSample(last);
    plots.plot(LivePlots::LatencyPlot)->replot();
    const LatencyHeatMap &map = plots.heatMap();
    const int cells = map.colorMap()->data()->keySize();
    EXPECT_EQ(cells, 10);
    const double cellSeconds = 10.3 / cells;
    for (int k = 0; k < cells; ++k)
        EXPECT_NEAR(map.drawnValue((k + 0.5) * cellSeconds, 100), 1000 * cellSeconds, 1e-6) << k;
}

// As the lines do, the map keeps the newest intervals within a bound (10 minutes at
// 100 ms), so a day-long run costs the GUI the same per interval as a short one.
TEST(LatencyHeatMap, KeepsASlidingWindowOfTheNewestIntervals)
{
    test::ensureApp();
    LivePlots plots;
    const int total = LivePlots::kMaxPointsPerGraph * 2;
    for (int i = 0; i < total; ++i)
        plots.addSample(heatTestSample(i, total - 1));
    const int kept = plots.heatMap().intervalCount();
    EXPECT_GE(kept, LivePlots::kMaxPointsPerGraph);
    EXPECT_LE(kept, LivePlots::kMaxPointsPerGraph + LivePlots::kMaxPointsPerGraph / 10);
    plots.plot(LivePlots::LatencyPlot)->replot();
    EXPECT_GT(plots.heatMap().drawnValue(total - 0.5, 800'000), 0.0) << "the newest is kept";
    EXPECT_LE(plots.heatMap().colorMap()->data()->keySize(), LatencyHeatMap::kMaxCells);
}

} // namespace
} // namespace ioprism::ui
