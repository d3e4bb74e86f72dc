// SPDX-License-Identifier: GPL-3.0-or-later
// CrystalDiskMark's passes and its pause between tests on the command line (--passes,
// --pause), on a real test file with the engine a user gets: every pass a step of its
// own, the pause said before each test but the first, the Passes table at the end, the
// results file keeping which pass each step is; and the refusals.
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "e2e/cli_support.h"

using namespace ioprism::test;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(CliPasses, EachTestRunsItsPassesAfterAPauseAndTheBestIsShownWithItsSpread)
{
    TempDir dir;
    auto r = runCli("run --preset cdm-default --spec 'SEQ1M Q1T1 Read' --spec 'RND4K Q1T1 Read' "
                    "--passes 2 --pause 1s --duration 1 --ramp 0 --file-size 8MiB --no-save "
                    "--json out.json",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    // The pause before the second test only: not before the first, nor between passes.
    EXPECT_EQ(occurrences(r.out, "-- pause of 1s before"), 1u) << r.out;
    EXPECT_THAT(
        r.out, HasSubstr("-- pause of 1s before step 3/4 RND4K Q1T1 Read, pass 1/2 (no I/O)"))
        << r.out;
    EXPECT_THAT(r.out, HasSubstr("Passes: each test's best pass")) << r.out;
    EXPECT_EQ(occurrences(r.out, "best of 2"), 2u) << r.out;

    std::ifstream file(dir.path() / "out.json");
    const auto json = nlohmann::json::parse(file);
    const auto &steps = json.at("steps");
    ASSERT_EQ(steps.size(), 4u);
    EXPECT_EQ(steps[1].at("name"), "SEQ1M Q1T1 Read, pass 2/2");
    EXPECT_EQ(steps[1].at("cycle"), "pass 2/2");
    const auto &planned = json.at("plan").at("steps");
    ASSERT_EQ(planned.size(), 4u);
    EXPECT_FALSE(planned[0].contains("pass")) << "a test's first pass is written as before";
    EXPECT_EQ(planned[1].at("pass"), 1);
    EXPECT_EQ(planned[3].at("pass"), 1);
    EXPECT_EQ(json.at("profile").at("setup").at("passes"), 2);
    EXPECT_EQ(json.at("profile").at("setup").at("pauseBetweenTests"), "1s");
    // Every pass did its own I/O.
    for (const auto &step : steps)
        EXPECT_GT(step.at("scopes").at(0).at("total").at("ios").get<std::uint64_t>(), 0u)
            << step.at("name");
}

TEST(CliPasses, NoPassesTooManyPassesOfASeriesAndAPauseOfPartSecondsAreRefused)
{
    TempDir dir;
    auto none = runCli("run --engine null --passes 0 --duration 1 --no-save -q", dir.path());
    EXPECT_EQ(none.exitCode, 2) << none.err;
    EXPECT_THAT(none.err, HasSubstr("setup.passes"));
    auto many = runCli("run --engine null --passes 101 --duration 1 --no-save -q", dir.path());
    EXPECT_EQ(many.exitCode, 2) << many.err;
    auto series = runCli(
        "run --engine null --passes 2 --sweep qd=1,2 --duration 1 --no-save -q", dir.path());
    EXPECT_EQ(series.exitCode, 2) << series.err;
    EXPECT_THAT(series.err, HasSubstr("setup.series.repeat"));
    // A preset's passes give way to a sweep (a series repeats with --repeat).
    auto swept
        = runCli("run --engine null --preset cdm-default --spec 'RND4K Q1T1 Read' "
                 "--sweep qd=1,2 --duration 1 --ramp 0 --pause 0 --file-size 8MiB --no-save -q",
            dir.path());
    EXPECT_EQ(swept.exitCode, 0) << swept.err;
    auto part = runCli("run --engine null --pause 1.5s --duration 1 --no-save -q", dir.path());
    EXPECT_EQ(part.exitCode, 2) << part.err;
    EXPECT_THAT(part.err, HasSubstr("whole seconds"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "ioprism-test.dat"))
        << "refused before any file was made";
    auto help = runCli("run --help", dir.path());
    EXPECT_THAT(help.out, HasSubstr("--passes"));
    EXPECT_THAT(help.out, HasSubstr("--pause"));
}
