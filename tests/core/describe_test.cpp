// SPDX-License-Identifier: GPL-3.0-or-later
// The facts of a profile, generated from the profile (core/profile/describe.h): they
// follow every change of run time, size or target, and the presets' own words hold none
// of them (issue 24 item 10: "3 s per size on a 1 GiB test file" shown for 1 s runs on
// /dev/loop6).
#include "core/null_engine.h"
#include "core/profile/describe.h"
#include "core/profile/presets.h"
#include "core/profile/units.h"
#include "core/report/html_report.h"
#include "core/run/run.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <regex>

#include "tests/support/session_doubles.h"

namespace ioprism::core {
namespace {

using std::chrono_literals::operator""s;
using ::testing::HasSubstr;
using ::testing::Not;

Profile preset(const std::string &name)
{
    Problems problems;
    auto p = loadPreset(name, problems);
    EXPECT_TRUE(p) << name;
    return p ? *p : Profile {};
}

// The preset as the issue saw it changed: 1 s per step, no ramp-up, another target (and
// one pass without pauses, as it was then).
void changeToOneSecondOn(Profile &p, const Target &target)
{
    p.setup.runTime = 1s;
    p.setup.rampUp = 0s;
    p.setup.passes = 1;
    p.setup.pauseBetweenTests = 0s;
    for (auto &h : p.hosts)
        for (auto &w : h.workers)
            w.targets = {target};
}

// Even as shipped, the old words were short of the facts: "5 s each" left out the
// preset's 1 s ramp-up.
TEST(DescribeRun, APresetAsShippedSaysItsSpecsTimesAndTarget)
{
    const Profile p = preset("cdm-default");
    EXPECT_EQ(describeRun(p),
        "SEQ1M Q8T1 Read (1 MiB) at QD 8, SEQ1M Q1T1 Read (1 MiB) at QD 1, RND4K Q32T1 Read "
        "(4 KiB) at QD 32, RND4K Q1T1 Read (4 KiB) at QD 1, SEQ1M Q8T1 Write (1 MiB) at QD 8, "
        "SEQ1M Q1T1 Write (1 MiB) at QD 1, RND4K Q32T1 Write (4 KiB) at QD 32, RND4K Q1T1 Write "
        "(4 KiB) at QD 1; 1 worker; 5s measured per spec after 1s ramp-up, 5 passes each, a "
        "pause of 5s between specs; on ioprism-test.dat "
        "(direct, 1 GiB test file)");
}

TEST(DescribeRun, APresetChangedInTimeTargetAndSizeDescribesTheNewValuesOnly)
{
    Profile p = preset("cdm-default");
    Target device;
    device.kind = TargetKind::BlockDevice;
    device.path = "/dev/loop6";
    changeToOneSecondOn(p, device);
    // What a page or a report shows: the user's (here the preset's) words, and the facts.
    const std::string shown = p.setup.description + " | " + describeRun(p);
    EXPECT_THAT(shown, HasSubstr("1s measured per spec"));
    EXPECT_THAT(shown, HasSubstr("on /dev/loop6 (direct, block device)"));
    EXPECT_THAT(shown, Not(HasSubstr("1 GiB")));
    EXPECT_THAT(shown, Not(HasSubstr("5 s")));
    EXPECT_THAT(shown, Not(HasSubstr("5s")));
    EXPECT_THAT(shown, Not(HasSubstr("test file")));

    Profile q = preset("quick");
    Target file;
    file.path = "/mnt/big/bench.dat";
    file.testFileSizeBytes = 4 * kGiB;
    file.cacheMode = CacheMode::Buffered;
    changeToOneSecondOn(q, file);
    const std::string quick = q.setup.description + " | " + describeRun(q);
    EXPECT_THAT(quick, HasSubstr("on /mnt/big/bench.dat (buffered, 4 GiB test file)"));
    EXPECT_THAT(quick, HasSubstr("1s measured per spec;"));
    EXPECT_THAT(quick, Not(HasSubstr("ramp-up")));
    EXPECT_THAT(quick, Not(HasSubstr("512 MiB")));
    EXPECT_THAT(quick, Not(HasSubstr("4 s")));
}

// What a preset's words may not say: the facts the user can change (a test file's size,
// the time per step or point, a queue depth), which describeRun says instead.
TEST(DescribeRun, NoPresetDescriptionStatesSizesTimesOrDepths)
{
    for (const auto &embedded : embeddedPresets()) {
        const Profile p = preset(std::string(embedded.name));
        const std::string &d = p.setup.description;
        SCOPED_TRACE(embedded.name);
        EXPECT_FALSE(d.empty());
        EXPECT_THAT(d, Not(HasSubstr("test file,")));
        EXPECT_THAT(d, Not(HasSubstr("GiB test file")));
        EXPECT_THAT(d, Not(HasSubstr("MiB test file")));
        EXPECT_THAT(d, Not(HasSubstr(" s each")));
        EXPECT_THAT(d, Not(HasSubstr(" s per ")));
        EXPECT_THAT(d, Not(HasSubstr("ramp-up")));
        // std::regex: googletest's own regex is POSIX only where the platform has it (the
        // Windows build's "simple" one has no classes or alternation).
        EXPECT_FALSE(std::regex_search(d, std::regex("QD ?[0-9]"))) << d;
        EXPECT_FALSE(std::regex_search(d, std::regex("[0-9]+ (s|ms) "))) << d;
        if (p.setup.runTime.count() > 0) {
            EXPECT_THAT(d, Not(HasSubstr(formatDuration(p.setup.runTime) + " ")));
            EXPECT_THAT(d, Not(HasSubstr(std::to_string(p.setup.runTime.count()) + " s")));
        }
        for (const auto &h : p.hosts) {
            for (const auto &w : h.workers) {
                for (const auto &t : w.targets) {
                    if (t.kind == TargetKind::TestFile) {
                        EXPECT_THAT(d, Not(HasSubstr(describeSize(t.testFileSizeBytes))));
                    }
                }
            }
        }
    }
}

TEST(DescribeRun, ASeriesSaysItsAxesAndPointsAndLeavesTheSweptValueOutOfTheSpecs)
{
    Profile p = preset("qd-curve");
    const std::string text = describeRun(p);
    EXPECT_THAT(text, HasSubstr("series qd=1..256:x2 (9 points)")) << text;
    EXPECT_THAT(text, Not(HasSubstr(" at QD "))) << "the depth is the series'";
    p.setup.series->axes[0].to = 16;
    EXPECT_THAT(describeRun(p), HasSubstr("series qd=1..16:x2 (5 points)"));
}

TEST(DescribeRun, IometerCyclingSaysTheDepthsItCyclesThrough)
{
    const Profile p = preset("iometer-cycling");
    const std::string text = describeRun(p);
    EXPECT_THAT(text, HasSubstr("Iometer test type cycleOutstandingIos (QD 1..32 x2)")) << text;
    EXPECT_THAT(text, Not(HasSubstr(" at QD "))) << text;
    EXPECT_THAT(text, HasSubstr("; 2 workers;")) << text;
}

TEST(DescribeRun, NamesEachSpecAndTargetOnceAndLeavesIdleOut)
{
    Profile p;
    AccessSpec a;
    a.name = "A";
    a.lines.resize(2);
    a.lines[0].transferSizeBytes = 4 * kKiB;
    a.lines[1].transferSizeBytes = 64 * kKiB;
    p.specs.push_back(a);
    Target t;
    t.path = "a.dat";
    t.testFileSizeBytes = 8 * kMiB;
    Worker w1;
    w1.outstandingIos = 4;
    w1.assignedSpecs = {"A", std::string(kIdleSpecName)};
    w1.targets = {t};
    Worker w2 = w1;
    w2.assignedSpecs = {std::string(kIdleSpecName), "A"};
    Target tree;
    tree.kind = TargetKind::FileTree;
    tree.path = "tr";
    w2.targets.push_back(tree);
    p.hosts.resize(1);
    p.hosts[0].workers = {w1, w2};
    p.setup.runTime = 2s;
    p.setup.rampUp = 1s;
    EXPECT_EQ(describeRun(p),
        "A (4 KiB/64 KiB) at QD 4; 2 workers; 2s measured per spec after 1s ramp-up; on a.dat "
        "(direct, 8 MiB test file), tr (direct, tree of 3 levels x 4 files of 4 MiB)");
    EXPECT_EQ(describeRun(Profile {}), "no workers");
}

// Depths by core/profile/depth.h: a spec's queue depth over the targets' own values,
// and every target's depth, not only the first's.
TEST(DescribeRun, SaysTheDepthOfEveryTargetOnce)
{
    Profile p;
    AccessSpec plain;
    plain.name = "plain";
    plain.lines.resize(1);
    AccessSpec q32 = plain;
    q32.name = "Q32";
    q32.queueDepth = 32;
    p.specs = {plain, q32};
    Worker w;
    w.outstandingIos = 4;
    w.assignedSpecs = {"plain", "Q32"};
    Target a;
    a.path = "a.dat";
    Target b = a;
    b.path = "b.dat";
    b.outstandingIos = 8;
    Target c = a;
    c.path = "c.dat";
    w.targets = {a, b, c};
    p.hosts.resize(1);
    p.hosts[0].workers = {w};
    const std::string text = describeRun(p);
    EXPECT_THAT(text, HasSubstr("plain (2 KiB) at QD 4/8, Q32 (2 KiB) at QD 32;")) << text;
}

using ioprism::test::NullSink;

// The report of a run of a preset changed to 1 s on another target: the facts of that
// run, never the preset's old ones ("5 s each", "1 GiB"), and the description verbatim.
TEST(HtmlReport, ARunOfAChangedPresetShowsTheFactsOfThatRun)
{
    Profile p = preset("cdm-default");
    Target file;
    file.path = "/mnt/other/bench.dat";
    file.testFileSizeBytes = 64 * kMiB;
    changeToOneSecondOn(p, file);
    RunSettings options;
    options.ioLimitPerTarget = 50; // the null engine reaches it at once: no timing
    NullBackend backend;
    NullCounterSource counters;
    NullSink sink;
    const RunResult r = core::Run(p, backend, counters, sink, options).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    const std::string html = writeHtmlReport(r, Environment {}, {});
    EXPECT_THAT(html, HasSubstr("<p>" + htmlEscape(p.setup.description) + "</p>"));
    EXPECT_THAT(html,
        HasSubstr("1s measured per spec; on /mnt/other/bench.dat (direct, 64 MiB test "
                  "file).</p>"));
    EXPECT_THAT(html, Not(HasSubstr("1 GiB")));
    EXPECT_THAT(html, Not(HasSubstr("5 s each")));
    EXPECT_THAT(html, Not(HasSubstr("5s measured")));
}

// The worker table's "Outstanding I/Os" is what each target ran at: a spec's queue depth
// (CrystalDiskMark's Q32) overrides the worker's and the target's values.
TEST(HtmlReport, TheTargetsDepthIsTheSpecsQueueDepthWhereItSetsOne)
{
    Profile p = preset("cdm-default");
    Target file;
    file.path = "/mnt/other/bench.dat";
    file.testFileSizeBytes = 64 * kMiB;
    file.outstandingIos = 3; // overridden by every spec of the preset
    changeToOneSecondOn(p, file);
    RunSettings options;
    options.ioLimitPerTarget = 50;
    NullBackend backend;
    NullCounterSource counters;
    NullSink sink;
    const RunResult r = core::Run(p, backend, counters, sink, options).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    const std::string html = writeHtmlReport(r, Environment {}, {});
    // The preset's specs run at Q8, Q1, Q32 and Q1: each once, in the order run.
    EXPECT_THAT(html,
        HasSubstr("bench.dat</td><td class=\"n\">file</td><td class=\"n\">direct</td>"
                  "<td class=\"n\">8/1/32</td></tr>"))
        << html;
}

// Under Iometer's cycling each step sets the depth: no one number stands for it.
TEST(HtmlReport, ACycledDepthIsSaidToBeSetPerStep)
{
    Profile p = preset("iometer-cycling");
    for (auto &h : p.hosts)
        for (auto &w : h.workers)
            for (auto &t : w.targets)
                t.testFileSizeBytes = 8 * kMiB;
    p.setup.runTime = 1s;
    p.setup.rampUp = 0s;
    RunSettings options;
    options.ioLimitPerTarget = 10;
    NullBackend backend;
    NullCounterSource counters;
    NullSink sink;
    const RunResult r = core::Run(p, backend, counters, sink, options).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    EXPECT_THAT(
        writeHtmlReport(r, Environment {}, {}), HasSubstr("<td class=\"n\">per step</td></tr>"));
}

} // namespace
} // namespace ioprism::core
