// SPDX-License-Identifier: GPL-3.0-or-later
// The device counters on screen: an interval's device total becomes the dashed overlay
// points and the verdict badge; a step's device report becomes the Results page's
// device summary with the verdict, the bytes behind it and the per-device table.
#include "ui/pages/live_page.h"
#include "ui/pages/results_page.h"
#include "ui/plots/device_overlay.h"
#include "ui/plots/live_plots.h"
#include "ui/plots/qcp_library.h"

#include <gtest/gtest.h>
#include <memory>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

core::DeviceFigures deviceTotal()
{
    core::DeviceFigures f;
    f.valid = true;
    f.seconds = 1;
    f.readIos = 3000;
    f.writeIos = 1000;
    f.readBytes = 3000 * 4096;
    f.writeBytes = 1000 * 4096;
    f.readsPerSecond = 3000;
    f.writesPerSecond = 1000;
    f.readMegabytesPerSecond = 12.288;
    f.writeMegabytesPerSecond = 4.096;
    f.averageRequestBytes = 4096;
    f.readAwaitMs = 0.2;
    f.writeAwaitMs = 1.0;
    f.queueSize = 1.4;
    f.utilPercent = 87.5;
    f.hasTimes = true;
    return f;
}

core::DeviceVerdict verdictOf(core::Verdict headline, std::uint64_t appRead, std::uint64_t devRead)
{
    core::DeviceVerdict v;
    v.verdict = headline;
    v.read = {headline, appRead, devRead, appRead ? double(devRead) / double(appRead) : 0};
    v.write = {core::Verdict::Idle, 0, 0, 0};
    return v;
}

core::IntervalSample sampleWithDevices(core::Verdict headline)
{
    core::IntervalSample s;
    s.runId = 1;
    s.startSeconds = 1;
    s.endSeconds = 2;
    core::ScopeFigures all;
    all.figures.total.ios = 4000;
    all.figures.total.iops = 4000;
    s.scopes.push_back(all);
    s.devices.available = true;
    s.devices.total = deviceTotal();
    s.devices.verdict = verdictOf(headline, 400'000'000, 1'000'000);
    return s;
}

TEST(DeviceOverlay, AnIntervalsDeviceTotalBecomesTheOverlayPoint)
{
    const auto point = deviceOverlayOf(sampleWithDevices(core::Verdict::Agree));
    ASSERT_TRUE(point);
    EXPECT_DOUBLE_EQ(point->startSeconds, 1);
    EXPECT_DOUBLE_EQ(point->endSeconds, 2);
    EXPECT_DOUBLE_EQ(point->readMegabytesPerSecond, 12.288);
    EXPECT_DOUBLE_EQ(point->writeMegabytesPerSecond, 4.096);
    EXPECT_DOUBLE_EQ(point->iops, 4000);
    // Await over reads and writes, weighted by requests: (3000·0.2 + 1000·1.0) / 4000.
    EXPECT_DOUBLE_EQ(point->awaitMs, 0.4);
    EXPECT_DOUBLE_EQ(point->utilPercent, 87.5);

    core::IntervalSample none = sampleWithDevices(core::Verdict::Agree);
    none.devices.available = false;
    EXPECT_FALSE(deviceOverlayOf(none));
}

TEST(DeviceOverlay, TheBadgeNamesTheVerdictWithAToneAndTheBytesBehindIt)
{
    test::ensureApp();
    const auto cache = verdictBadgeOf(sampleWithDevices(core::Verdict::ServedFromCache));
    EXPECT_EQ(cache.text, QStringLiteral("served from cache"));
    EXPECT_EQ(cache.tone, BadgeTone::Notice);
    EXPECT_TRUE(cache.tooltip.contains(QStringLiteral("400.0 MB"))) << cache.tooltip.toStdString();
    EXPECT_TRUE(cache.tooltip.contains(QStringLiteral("1.0 MB"))) << cache.tooltip.toStdString();

    EXPECT_EQ(verdictBadgeOf(sampleWithDevices(core::Verdict::Agree)).tone, BadgeTone::Good);
    // An idle interval has nothing to dispute: it reads as agreement.
    const auto idle = verdictBadgeOf(sampleWithDevices(core::Verdict::Idle));
    EXPECT_EQ(idle.text, QStringLiteral("agree"));
    EXPECT_EQ(verdictBadgeOf(sampleWithDevices(core::Verdict::OtherTraffic)).tone, BadgeTone::Bad);
    EXPECT_EQ(verdictBadgeOf(sampleWithDevices(core::Verdict::Amplified)).tone, BadgeTone::Bad);
    EXPECT_EQ(verdictBadgeOf(sampleWithDevices(core::Verdict::WriteBackPending)).text,
        QStringLiteral("write-back pending"));

    core::IntervalSample none = sampleWithDevices(core::Verdict::Agree);
    none.devices = {};
    const auto missing = verdictBadgeOf(none);
    EXPECT_EQ(missing.text, QStringLiteral("no device counters"));
    EXPECT_EQ(missing.tone, BadgeTone::Neutral);
}

TEST(DeviceOverlay, TheLivePageDrawsTheDeviceAndShowsTheVerdict)
{
    test::ensureApp();
    LivePage page;
    page.show();
    page.addSample(sampleWithDevices(core::Verdict::ServedFromCache));
    EXPECT_TRUE(page.verdictText().contains(QStringLiteral("served from cache")));
    const int deviceRead = 2; // after the application's read and write MB/s
    EXPECT_EQ(page.plots()->pointCount(LivePlots::ThroughputPlot, deviceRead), 1);
}

TEST(DeviceOverlay, TheResultsPageSummarisesTheStepsDevices)
{
    test::ensureApp();
    auto result = std::make_shared<core::RunResult>();
    result->deviceMap.devices = {{"loop7", core::DeviceRole::Target, "", true},
        {"vda1", core::DeviceRole::Backing, "loop7", false}};
    result->deviceMap.targets = {{"/dev/loop7", 0, ""}, {"/dev/shm/x", std::nullopt, "on tmpfs"}};
    core::StepResult step;
    step.stepName = "4K random read";
    step.scopes.emplace_back();
    step.devices.available = true;
    step.devices.devices = {deviceTotal(), deviceTotal()};
    step.devices.total = deviceTotal();
    step.devices.verdict = verdictOf(core::Verdict::ServedFromCache, 400'000'000, 1'000'000);
    result->steps.push_back(step);
    result->deviceTail.sampled = true;
    result->deviceTail.pendingWriteBytes = 8'000'000;
    result->deviceTail.flushedWriteBytes = 8'000'000;
    result->deviceTail.seconds = 1.5;
    result->deviceTail.idle = true;

    ResultsPage page;
    EXPECT_TRUE(page.deviceSummaryText().contains(QStringLiteral("No device counters")));
    page.setResult(result);
    const QString text = page.deviceSummaryText();
    EXPECT_TRUE(text.contains(QStringLiteral("Device verdict: served from cache")))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("loop7")));
    EXPECT_TRUE(text.contains(QStringLiteral("vda1 (via loop7)")));
    EXPECT_TRUE(text.contains(QStringLiteral("backing")));
    EXPECT_TRUE(text.contains(QStringLiteral("87.5"))); // %util
    EXPECT_TRUE(text.contains(QStringLiteral("/dev/shm/x: on tmpfs")));
    EXPECT_TRUE(text.contains(QStringLiteral("8.0 MB"))); // the write-back after the run

    // Direct I/O: a few KiB owed at the last sample and the devices idle at once is not
    // write-back, and is not reported as such.
    result->deviceTail = {};
    result->deviceTail.sampled = true;
    result->deviceTail.pendingWriteBytes = 100'000;
    result->deviceTail.idle = true;
    page.setResult(result);
    EXPECT_FALSE(page.deviceSummaryText().contains(QStringLiteral("After the run")))
        << page.deviceSummaryText().toStdString();
    page.setResult(nullptr);
    EXPECT_TRUE(page.deviceSummaryText().contains(QStringLiteral("No device counters")));
}

} // namespace
} // namespace ioprism::ui
