// SPDX-License-Identifier: GPL-3.0-or-later
// The Results page's write against the bytes written (ui/plots/write_bytes_plot.h): shown
// for a step whose write was judged, each interval at the bytes written by its end, the
// cliff at the bytes it was judged at, the rates in words; hidden for a step that was not
// judged, and without a p99 line for a run read back from its file.
#include "core/report/results_json.h"
#include "core/report/results_reader.h"
#include "core/run/step_findings.h"
#include "support/write_intervals.h"
#include "ui/models/results_model.h"
#include "ui/pages/results_page.h"
#include "ui/plots/write_bytes_plot.h"

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

// Two steps: a read (not judged), then a write that fills a cache (cacheWriteIntervals),
// judged as a run judges it.
RunResultPtr readThenWrite(std::size_t fast, std::size_t slow)
{
    auto r = std::make_shared<core::RunResult>();
    r->plan.profile = test::smallProfile();
    for (const char *name : {"read", "write"}) {
        core::PlannedStep planned;
        planned.name = planned.specName = name;
        r->plan.steps.push_back(planned);
        core::StepResult step;
        step.step = r->steps.size();
        step.stepName = name;
        step.scopes.emplace_back();
        r->steps.push_back(step);
    }
    r->intervals = ioprism::test::cacheWriteIntervals(fast, slow, 1);
    const auto written = core::stepWriteIntervals(r->intervals, 1, core::RunPhase::Measuring);
    std::vector<core::WriteRatePoint> points;
    for (const auto &w : written)
        points.push_back({w.bytesWritten, w.write.megabytesPerSecond});
    core::WriteCliffJudgement judged {
        .intervals = written.size(), .bytesWritten = written.back().bytesWritten};
    judged.cliff = core::findWriteCliff(points);
    judged.cliffSeconds = double(fast);
    r->steps[1].writeCliff = judged;
    return r;
}

} // namespace

TEST(WriteAgainstBytes, AJudgedWriteIsDrawnAtItsBytesWithTheCliffWhereItWasFound)
{
    test::ensureApp();
    ResultsPage page;
    page.resize(1400, 900);
    page.show();
    const RunResultPtr result = readThenWrite(10, 10);
    ASSERT_TRUE(result->steps[1].writeCliff->cliff);
    page.setResult(result);
    page.setStep(0);
    EXPECT_FALSE(page.isWritePlotShown()) << "the read step wrote nothing to judge";

    page.setStep(1);
    ASSERT_TRUE(page.isWritePlotShown());
    const WriteBytesPlot &plot = page.writePlot();
    EXPECT_EQ(plot.bytesPerUnit(), double(core::kGiB)) << "5 GB written: GiB on x";
    EXPECT_EQ(plot.ratePoints(), 20);
    EXPECT_EQ(plot.meanPoints(), 20);
    EXPECT_EQ(plot.p99Points(), 20);
    ASSERT_TRUE(plot.cliffAt());
    EXPECT_NEAR(*plot.cliffAt(), 4e9 / double(core::kGiB), 1e-9) << "after 4 GB written";
    EXPECT_TRUE(plot.caption().contains(QStringLiteral("400.0 MB/s before, 100.0 MB/s after")))
        << plot.caption().toStdString();
    EXPECT_FALSE(plot.plot()->toolTip().isEmpty());

    // Another result without a judged write hides it again.
    auto plain = std::make_shared<core::RunResult>(*result);
    plain->steps[1].writeCliff.reset();
    page.setResult(plain);
    page.setStep(1);
    EXPECT_FALSE(page.isWritePlotShown());
}

TEST(WriteAgainstBytes, AWriteWithoutACliffSaysSoAndARunReadBackDrawsNoP99)
{
    test::ensureApp();
    ResultsPage page;
    page.resize(1400, 900);
    page.show();
    // All fast: no cliff, a few hundred MB (MiB on x).
    auto steady = std::make_shared<core::RunResult>(*readThenWrite(12, 0));
    for (auto &s : steady->intervals)
        s.scopes[0].figures.write.bytes /= 100;
    steady->steps[1].writeCliff->cliff.reset();
    steady->steps[1].writeCliff->bytesWritten = 48'000'000;
    page.setResult(steady);
    page.setStep(1);
    ASSERT_TRUE(page.isWritePlotShown());
    EXPECT_EQ(page.writePlot().bytesPerUnit(), double(core::kMiB));
    EXPECT_FALSE(page.writePlot().cliffAt());
    EXPECT_TRUE(page.writePlot().caption().startsWith(QStringLiteral("No write cliff in")))
        << page.writePlot().caption().toStdString();

    // Through its results file: the intervals keep their mean latency, not their p99.
    const RunResultPtr original = readThenWrite(10, 10);
    const auto read = core::readResultsJson(core::writeResultsJson(*original, {}));
    ASSERT_TRUE(read.ok()) << read.error;
    page.setResult(std::make_shared<core::RunResult>(*read.result));
    page.setStep(1);
    ASSERT_TRUE(page.isWritePlotShown());
    EXPECT_EQ(page.writePlot().ratePoints(), 20);
    EXPECT_EQ(page.writePlot().meanPoints(), 20);
    EXPECT_EQ(page.writePlot().p99Points(), 0) << "no p99 kept: none drawn, never as 0";
    ASSERT_TRUE(page.writePlot().cliffAt());
}

} // namespace ioprism::ui
