// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 24 item 11: the window names what the user sees — the spec, the worker, the
// target, the field's label — never the profile's JSON paths or its field identifiers.
#include "core/profile/profile.h"
#include "core/profile/units.h"
#include "core/stats/histogram.h"
#include "ui/format.h"

#include <gtest/gtest.h>

#include "ui_test_support.h"

namespace ioprism::ui {
namespace {

core::Profile namedProfile()
{
    core::Profile p;
    core::AccessSpec spec;
    spec.name = "4K random read";
    spec.lines.resize(1);
    p.specs.push_back(spec);
    core::Host host;
    core::Worker worker;
    worker.name = "Worker 1";
    core::Target target;
    target.path = "/data/test.dat";
    worker.targets.push_back(target);
    host.workers.push_back(worker);
    p.hosts.push_back(host);
    return p;
}

TEST(UiWords, ProblemsNameTheSpecWorkerTargetAndFieldLabel)
{
    test::ensureApp();
    const core::Profile p = namedProfile();
    const core::Problem lines {core::Severity::Error, "specs[0].lines", "no access lines"};
    EXPECT_EQ(
        problemText(lines, p), QStringLiteral("spec “4K random read”, lines: no access lines"));
    const core::Problem size {core::Severity::Error,
        "hosts[0].workers[0].targets[0].testFileSizeBytes", "0 B is too small"};
    EXPECT_EQ(problemText(size, p),
        QStringLiteral(
            "worker “Worker 1”, target “/data/test.dat”, test file size: 0 B is too small"));
    // Inside a message too (the run's alignment refusal names its field so).
    EXPECT_EQ(placesInWords(QStringLiteral("specs[0].lines[0].transferSize: 2 KiB is not a "
                                           "multiple (hosts[0].workers[0].targets[0])"),
                  p),
        QStringLiteral("spec “4K random read”, line 1, transfer size: 2 KiB is not a multiple "
                       "(worker “Worker 1”, target “/data/test.dat”)"));
    // An element the profile does not have keeps its number; an unknown field is words.
    EXPECT_EQ(placesInWords(QStringLiteral("specs[8].someNewField"), p),
        QStringLiteral("spec 9, some new field"));
    EXPECT_EQ(placesInWords(QStringLiteral("setup.runTime"), p),
        QStringLiteral("Test Setup, run time per step"));
    // Words that merely contain a key are left alone.
    EXPECT_EQ(placesInWords(QStringLiteral("the setup was fine"), p),
        QStringLiteral("the setup was fine"));
}

TEST(UiWords, LatencyBinsAreWrittenInTheWindowsUnits)
{
    test::ensureApp();
    EXPECT_EQ(latencyBinText(0), QStringLiteral("0-50 µs"));
    EXPECT_EQ(latencyBinText(core::IometerBins::kBinCount - 1), QStringLiteral("≥10 s"));
    for (std::size_t b = 0; b < core::IometerBins::kBinCount; ++b)
        EXPECT_FALSE(latencyBinText(b).contains(QLatin1String("us"))) << b;
}

TEST(UiWords, SizesInMessagesUseOneUnitStyle)
{
    EXPECT_EQ(exactSizeText(512), QStringLiteral("512 B"));
    EXPECT_EQ(exactSizeText(1024), QStringLiteral("1 KiB"));
    EXPECT_EQ(core::describeSize(512), "512 B");
    EXPECT_EQ(core::describeExactSize(4096), "4 KiB");
    EXPECT_EQ(core::describeExactSize(1000), "1000 B");
}

} // namespace
} // namespace ioprism::ui
