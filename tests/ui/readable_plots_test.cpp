// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 14, item 1: the live plots and figures stay readable at any run length and
// window size: step labels that fit their room, latency ticks that cover the data with
// a unit by magnitude, legends that never cut a name, ramp-up figures marked as such,
// device tables that never break a number, and the device's request split explained.
#include "ui/pages/live_page.h"
#include "ui/plots/device_overlay.h"
#include "ui/plots/live_plots.h"
#include "ui/plots/qcp_library.h"

#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

core::IntervalSample sampleOf(double endSeconds, std::size_t step, const std::string &name,
    core::RunPhase phase = core::RunPhase::Measuring, double latencyUs = 700)
{
    core::IntervalSample s;
    s.runId = 1;
    s.step = step;
    s.stepName = name;
    s.phase = phase;
    s.startSeconds = endSeconds - 1.0;
    s.endSeconds = endSeconds;
    core::ScopeFigures all;
    all.figures.total.ios = 1000;
    all.figures.total.bytes = 1000ULL * 1024 * 1024; // 1 MiB I/Os
    all.figures.total.iops = 1000 + static_cast<double>(step);
    all.figures.read.megabytesPerSecond = 1048;
    all.figures.total.latency.meanUs = latencyUs;
    all.figures.total.latency.p50Us = latencyUs;
    all.figures.total.latency.p99Us = latencyUs * 1.3;
    all.figures.total.latency.p99_9Us = latencyUs * 1.6;
    s.scopes.push_back(all);
    return s;
}

// The CrystalDiskMark preset's shape: eight short steps with long names.
void addEightShortSteps(LivePlots &plots)
{
    const char *names[]
        = {"SEQ1M Q8T1 Read", "SEQ1M Q8T1 Write", "SEQ1M Q1T1 Read", "SEQ1M Q1T1 Write",
            "RND4K Q32T1 Read", "RND4K Q32T1 Write", "RND4K Q1T1 Read", "RND4K Q1T1 Write"};
    for (std::size_t step = 0; step < 8; ++step)
        for (int i = 1; i <= 2; ++i)
            plots.addSample(sampleOf(static_cast<double>(step) * 2 + i, step, names[step]));
}

TEST(ReadablePlots, StepLabelsFitTheirRoomAndTheHoverNamesTheStepInFull)
{
    test::ensureApp();
    LivePlots plots;
    plots.resize(700, 500); // about a 1024 × 700 window's plots
    plots.show();
    addEightShortSteps(plots);
    plots.relayout();
    QCustomPlot *plot = plots.plot(LivePlots::IopsPlot);
    ASSERT_EQ(plots.stepCount(), 8);
    int elided = 0;
    for (int step = 0; step < 8; ++step) {
        const QString shown = plots.stepLabelText(LivePlots::IopsPlot, step);
        const QString full = plots.stepFullName(step);
        EXPECT_TRUE(shown == full || shown.endsWith(QChar(0x2026)) || !full.startsWith(shown))
            << shown.toStdString();
        if (shown != full)
            ++elided;
        // A label on its row ends before the label after next begins (odd steps stagger).
        if (step + 2 < 8) {
            const double room = plot->xAxis->coordToPixel(step * 2.0 + 4.0)
                - plot->xAxis->coordToPixel(step * 2.0);
            QFont small = plots.font();
            small.setPointSizeF(small.pointSizeF() * 0.85);
            EXPECT_LE(QFontMetrics(small).horizontalAdvance(shown) + 4, room) << step;
        }
    }
    EXPECT_GT(elided, 0) << "at this width the full names cannot all fit";
    // Hovering over step 6 names it in full.
    const QString hover = plots.hoverText(LivePlots::IopsPlot, 11.0);
    EXPECT_TRUE(hover.contains(QStringLiteral("6. RND4K Q32T1 Write"))) << hover.toStdString();
}

TEST(ReadablePlots, LatencyTicksCoverTheDataAndFollowItsMagnitude)
{
    test::ensureApp();
    LivePlots plots;
    plots.resize(900, 600);
    plots.show();
    QCustomPlot *plot = plots.plot(LivePlots::LatencyPlot);
    auto ticksIn = [&](double lower, double upper) {
        plot->yAxis->setRange(lower, upper);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        return std::make_pair(plot->yAxis->tickVector(), plot->yAxis->tickVectorLabels());
    };
    // Within one decade around the data (500–1000 µs): several ticks, in µs.
    auto [ticks, labels] = ticksIn(450, 1000);
    ASSERT_GE(ticks.size(), 2);
    for (double t : ticks) {
        EXPECT_GE(t, 450 * 0.999);
        EXPECT_LE(t, 1000 * 1.001);
    }
    EXPECT_TRUE(labels.contains(QStringLiteral("500 µs"))) << labels.join(',').toStdString();
    // Milliseconds and seconds by magnitude.
    auto [msTicks, msLabels] = ticksIn(1500, 60000);
    EXPECT_TRUE(msLabels.contains(QStringLiteral("2 ms"))) << msLabels.join(',').toStdString();
    EXPECT_TRUE(msLabels.contains(QStringLiteral("50 ms"))) << msLabels.join(',').toStdString();
    auto [sTicks, sLabels] = ticksIn(3e5, 3e6);
    EXPECT_TRUE(sLabels.contains(QStringLiteral("1 s"))) << sLabels.join(',').toStdString();
    // Many decades: not crowded.
    auto [wide, wideLabels] = ticksIn(1, 1e7);
    EXPECT_LE(wide.size(), 8);
}

TEST(ReadablePlots, LegendsNeverCutANameInANarrowPlot)
{
    test::ensureApp();
    LivePlots plots;
    plots.resize(600, 500); // two plots of about 300 px side by side
    plots.show();
    DeviceOverlayPoint device;
    device.endSeconds = 1;
    device.iops = 2000;
    device.readMegabytesPerSecond = 1048;
    plots.addSample(sampleOf(1, 0, "step"), device);
    plots.relayout();
    plots.relayout(); // the wrap applies to the next layout
    for (int p = 0; p < LivePlots::PlotCount; ++p) {
        QCPLegend *legend = plots.plot(static_cast<LivePlots::PlotId>(p))->legend;
        for (int i = 0; i < legend->itemCount(); ++i) {
            auto *item = legend->item(i);
            if (!item)
                continue; // an empty cell of the wrapped grid
            EXPECT_GE(item->outerRect().width(), item->minimumOuterSizeHint().width())
                << "plot " << p << " item " << i;
            EXPECT_LE(item->outerRect().right(), legend->parentPlot()->width())
                << "plot " << p << " item " << i;
        }
    }
}

TEST(ReadablePlots, RampUpFiguresAreMarkedAndThePreviousStepsAreGone)
{
    test::ensureApp();
    LivePage page;
    page.show(); // figures are drawn while shown
    page.addSample(sampleOf(1, 0, "first"));
    page.plots()->relayout();
    QCoreApplication::processEvents();
    test::waitUntil([&] { return page.figureText(LivePage::IopsFigure) != QStringLiteral("—"); },
        std::chrono::seconds(2));
    EXPECT_EQ(page.figureText(LivePage::IopsFigure), QStringLiteral("1,000 IOPS"));
    // Step 2's ramp-up begins: step 1's figures must not stand for it.
    page.setPhase(core::RunPhase::RampUp, 1);
    ASSERT_TRUE(test::waitUntil(
        [&] { return page.figureText(LivePage::IopsFigure) == QStringLiteral("—"); },
        std::chrono::seconds(2)));
    EXPECT_TRUE(page.figureCaption(LivePage::IopsFigure).contains(QStringLiteral("ramp-up")));
    // The ramp's own figures, marked.
    page.addSample(sampleOf(2, 1, "second", core::RunPhase::RampUp));
    ASSERT_TRUE(test::waitUntil(
        [&] { return page.figureText(LivePage::IopsFigure) == QStringLiteral("1,001 IOPS"); },
        std::chrono::seconds(2)));
    EXPECT_TRUE(page.figureCaption(LivePage::ReadFigure).contains(QStringLiteral("ramp-up")));
    page.addSample(sampleOf(3, 1, "second"));
    ASSERT_TRUE(test::waitUntil(
        [&] {
            return !page.figureCaption(LivePage::IopsFigure).contains(QStringLiteral("ramp-up"));
        },
        std::chrono::seconds(2)));
}

TEST(ReadablePlots, DeviceTableNeverBreaksANumberAcrossLines)
{
    test::ensureApp();
    core::RunResult result;
    core::StepResult step;
    step.devices.available = true;
    core::DeviceFigures f;
    f.valid = true;
    f.readsPerSecond = 2853.5;
    f.readMegabytesPerSecond = 1496.2;
    f.averageRequestBytes = 512 * 1024;
    f.readBytes = 100ULL * 1024 * 1024;
    step.devices.devices = {f};
    step.devices.total = f;
    core::ScopeResult all;
    all.figures.total.ios = 100;
    all.figures.total.bytes = 100ULL * 1024 * 1024;
    step.scopes.push_back(all);
    result.steps.push_back(step);
    core::WatchedDevice device;
    device.name = "vda";
    result.deviceMap.devices.push_back(device);
    const QString html = deviceSummaryHtml(result, 0);
    QTextDocument doc;
    doc.setHtml(html);
    doc.setTextWidth(250); // far narrower than the table
    doc.documentLayout(); // lay it out
    bool found = false;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
        if (b.text() == QStringLiteral("2,853.5")) {
            found = true;
            ASSERT_NE(b.layout(), nullptr);
            EXPECT_EQ(b.layout()->lineCount(), 1);
        }
    }
    EXPECT_TRUE(found) << html.toStdString();
    // The device did twice the application's requests: the summary says why.
    EXPECT_TRUE(html.contains(QStringLiteral("splits each I/O"))) << html.toStdString();
    // Found by a GUI review: a buffered read the device hardly saw (its few requests are
    // the cache's misses, not a split of the application's I/O) is not called split.
    result.steps[0].devices.total.readBytes = 1024 * 1024;
    EXPECT_FALSE(deviceSummaryHtml(result, 0).contains(QStringLiteral("splits each I/O")));
}

TEST(ReadablePlots, TheIopsHoverAndVerdictExplainTheDevicesSplitRequests)
{
    test::ensureApp();
    EXPECT_TRUE(requestSplitText(1048576, 1048576).isEmpty());
    EXPECT_TRUE(requestSplitText(4096, 0).isEmpty());
    const QString split = requestSplitText(1048576, 524288);
    EXPECT_TRUE(split.contains(QStringLiteral("512 KiB"))) << split.toStdString();
    EXPECT_TRUE(split.contains(QStringLiteral("1 MiB"))) << split.toStdString();
    EXPECT_TRUE(split.contains(QStringLiteral("2.0"))) << split.toStdString();

    core::IntervalSample s = sampleOf(1, 0, "SEQ1M");
    s.devices.available = true;
    s.devices.total.valid = true;
    s.devices.total.readsPerSecond = 2000;
    s.devices.total.readIos = 2000;
    s.devices.total.averageRequestBytes = 524288;
    s.devices.total.readBytes = s.scopes.front().figures.total.bytes;
    s.devices.verdict.verdict = core::Verdict::Agree;
    LivePlots plots;
    plots.addSample(s, deviceOverlayOf(s));
    const QString hover = plots.hoverText(LivePlots::IopsPlot, 1.0);
    EXPECT_TRUE(hover.contains(QStringLiteral("splits each I/O"))) << hover.toStdString();
    EXPECT_TRUE(verdictBadgeOf(s).tooltip.contains(QStringLiteral("splits each I/O")));

    // Served from the cache: the device moved a tenth of the bytes, nothing was split.
    s.devices.total.readBytes = s.scopes.front().figures.total.bytes / 10;
    s.devices.verdict.verdict = core::Verdict::ServedFromCache;
    EXPECT_FALSE(verdictBadgeOf(s).tooltip.contains(QStringLiteral("splits each I/O")));
    LivePlots cached;
    cached.addSample(s, deviceOverlayOf(s));
    EXPECT_FALSE(
        cached.hoverText(LivePlots::IopsPlot, 1.0).contains(QStringLiteral("splits each I/O")));
}

} // namespace
} // namespace ioprism::ui
