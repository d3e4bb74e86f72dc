// SPDX-License-Identifier: GPL-3.0-or-later
// ioprism-cli's conventions (docs/cli.md): results on stdout with `-` and the human
// output then on stderr, the progress bar only on a terminal, --verbose, list-targets
// --json, and fio's option names giving the profiles their IOPrism options give.
#include <algorithm>
#include <cstdlib>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>

#include "e2e/cli_support.h"

using namespace ioprism::test;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

namespace {

// A short run that does no device I/O.
const std::string kNullRun = "run --engine null --bs 4k --duration 1 --ramp 0 --interval 250ms ";

} // namespace

// fio's option names against IOPrism's: the effective profile the results carry must be
// the same. Each runs on the null engine with a fixed seed.
struct AliasCase {
    const char *name;
    std::string fio;
    std::string native;
    friend void PrintTo(const AliasCase &c, std::ostream *os)
    {
        *os << c.fio << " vs " << c.native;
    }
};

class CliFioAlias : public ::testing::TestWithParam<AliasCase>
{
};

TEST_P(CliFioAlias, GivesTheSameProfileAsTheNativeOption)
{
    const auto &c = GetParam();
    TempDir dir;
    const std::string base = "run --engine null --bs 4k --ramp 0 --seed 7 -q ";
    auto fio = runCli(base + c.fio + " --json fio.json", dir.path());
    ASSERT_EQ(fio.exitCode, 0) << fio.err;
    auto native = runCli(base + c.native + " --json native.json", dir.path());
    ASSERT_EQ(native.exitCode, 0) << native.err;
    auto a = nlohmann::json::parse(readFile(dir.path() / "fio.json")).at("profile");
    auto b = nlohmann::json::parse(readFile(dir.path() / "native.json")).at("profile");
    // The description names the options given (--rw rather than --read --random): the
    // rest of the profile, which it is made from when shown, must be the same.
    a.at("setup").at("description") = "";
    b.at("setup").at("description") = "";
    EXPECT_EQ(a, b) << a.dump(1) << "\n" << b.dump(1);
}

INSTANTIATE_TEST_SUITE_P(Options, CliFioAlias,
    ::testing::Values(AliasCase {"iodepth", "--duration 1 --iodepth 16", "--duration 1 --qd 16"},
        AliasCase {"numjobs", "--duration 1 --numjobs 3", "--duration 1 --workers 3"},
        AliasCase {"size", "--duration 1 --size 8MiB", "--duration 1 --file-size 8MiB"},
        AliasCase {"runtime", "--runtime 2", "--duration 2"},
        AliasCase {"rw_read", "--duration 1 --rw read", "--duration 1 --read 100 --random 0"},
        AliasCase {"rw_write", "--duration 1 --rw write", "--duration 1 --read 0 --random 0"},
        AliasCase {
            "rw_randread", "--duration 1 --rw randread", "--duration 1 --read 100 --random 100"},
        AliasCase {
            "rw_randwrite", "--duration 1 --rw randwrite", "--duration 1 --read 0 --random 100"},
        AliasCase {"rw_rw", "--duration 1 --rw rw", "--duration 1 --read 50 --random 0"},
        AliasCase {"rw_readwrite", "--duration 1 --rw readwrite --rwmixread 30",
            "--duration 1 --read 30 --random 0"},
        AliasCase {"rw_randrw", "--duration 1 --rw randrw --rwmixread 70",
            "--duration 1 --read 70 --random 100"},
        AliasCase {"rw_randrw_rwmixwrite", "--duration 1 --rw randrw --rwmixwrite 30",
            "--duration 1 --read 70 --random 100"}),
    [](const ::testing::TestParamInfo<AliasCase> &info) { return std::string(info.param.name); });

TEST(CliFioAliases, HelpShowsThemBesideTheirOptions)
{
    TempDir dir;
    auto r = runCli("run --help", dir.path());
    ASSERT_EQ(r.exitCode, 0);
    for (const char *names : {"--qd,--iodepth", "--workers,--numjobs", "--file-size,--size",
             "--duration,--runtime", "--rw", "--rwmixread", "--rwmixwrite"})
        EXPECT_THAT(r.out, HasSubstr(names));
}

// What contradicts itself is refused (exit 2) with the option and the reason, before
// anything runs.
struct ConflictCase {
    const char *name;
    std::string args;
    std::string message;
    friend void PrintTo(const ConflictCase &c, std::ostream *os) { *os << c.args; }
};

class CliFioConflict : public ::testing::TestWithParam<ConflictCase>
{
};

TEST_P(CliFioConflict, IsRefusedWithAMessage)
{
    const auto &c = GetParam();
    TempDir dir;
    auto r = runCli(kNullRun + c.args, dir.path());
    EXPECT_EQ(r.exitCode, 2) << r.out;
    EXPECT_THAT(r.err, HasSubstr(c.message));
    EXPECT_THAT(r.out, Not(HasSubstr("measuring")));
}

INSTANTIATE_TEST_SUITE_P(Options, CliFioConflict,
    ::testing::Values(
        ConflictCase {"rw_and_read", "--rw randread --read 50",
            "error: --read: conflicts with --rw randread, which sets the percent reads"},
        ConflictCase {"rw_and_random", "--rw randread --random 0",
            "error: --random: conflicts with --rw randread, which makes the access random"},
        ConflictCase {"mix_without_mixing_rw", "--rw randread --rwmixread 70",
            "error: --rwmixread: --rw randread only reads: a mix needs --rw rw, readwrite or "
            "randrw"},
        ConflictCase {"mix_without_rw", "--rwmixread 70",
            "error: --rwmixread: sets the mix of --rw rw, readwrite or randrw"},
        ConflictCase {"both_mixes", "--rw randrw --rwmixread 70 --rwmixwrite 30",
            "error: --rwmixwrite: given with --rwmixread"},
        ConflictCase {"mix_over_100", "--rw randrw --rwmixread 140",
            "error: --rwmixread: 140 is not in 0..100"},
        ConflictCase {"unknown_rw", "--rw trim", "error: --rw: \"trim\" is not one of read, write"},
        ConflictCase {"alias_and_option", "--qd 4 --iodepth 8", "--qd"}),
    [](const ::testing::TestParamInfo<ConflictCase> &info) {
        return std::string(info.param.name);
    });

TEST(CliListTargets, JsonHasTheDocumentedFields)
{
    TempDir dir;
    auto r = runCli("list-targets --json", dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    nlohmann::json list;
    ASSERT_NO_THROW(list = nlohmann::json::parse(r.out)) << r.out;
    ASSERT_TRUE(list.is_array());
    bool sawFileSystem = false;
    for (const auto &item : list) {
        const auto kind = item.at("kind").get<std::string>();
        if (kind == "block_device") {
            for (const char *key : {"path", "name", "model", "size_bytes", "media", "rotational",
                     "removable", "read_only", "logical_block_bytes", "physical_block_bytes",
                     "mount_points", "holders", "partitions"})
                EXPECT_TRUE(item.contains(key)) << key << " in " << item;
            EXPECT_THAT(item.at("media").get<std::string>(), ::testing::AnyOf("SSD", "HDD"));
            for (const auto &p : item.at("partitions"))
                for (const char *key :
                    {"path", "name", "size_bytes", "start_bytes", "mount_points", "holders"})
                    EXPECT_TRUE(p.contains(key)) << key << " in " << p;
        } else {
            EXPECT_EQ(kind, "file_system");
            sawFileSystem = true;
            for (const char *key :
                {"path", "type", "device", "free_bytes", "total_bytes", "read_only"})
                EXPECT_TRUE(item.contains(key)) << key << " in " << item;
        }
    }
    // This machine has a root file system, and the table lists it too.
    EXPECT_TRUE(sawFileSystem);
    // The table lists the same: every path listed before it and after it (tests running
    // beside this one attach loop devices and mount file systems, and take them away).
    auto table = runCli("list-targets", dir.path());
    ASSERT_EQ(table.exitCode, 0);
    const auto after = runCli("list-targets --json", dir.path());
    ASSERT_EQ(after.exitCode, 0) << after.err;
    std::set<std::string> stillThere;
    for (const auto &item : nlohmann::json::parse(after.out))
        stillThere.insert(item.at("path").get<std::string>());
    std::size_t compared = 0;
    for (const auto &item : list) {
        const auto path = item.at("path").get<std::string>();
        if (!stillThere.count(path))
            continue;
        ++compared;
        EXPECT_THAT(table.out, HasSubstr(path));
    }
    EXPECT_GT(compared, 0u) << "the root file system at least";
}

TEST(CliStdout, JsonDashPutsTheDocumentAloneOnStdoutAndTheRunOnStderr)
{
    TempDir dir;
    auto r = runCli(kNullRun + "--json -", dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // The whole of stdout is one JSON document: `| jq .summary` works.
    nlohmann::json json;
    ASSERT_NO_THROW(json = nlohmann::json::parse(r.out)) << r.out.substr(0, 400);
    EXPECT_GT(json.at("summary").at("iops").get<double>(), 0);
    // What people read went to stderr: the step line, interval lines, the summary table.
    EXPECT_THAT(r.err, HasSubstr("-- 4KiB 100% read 0% random: measuring"));
    EXPECT_THAT(r.err, HasSubstr(" IOPS "));
    EXPECT_THAT(r.err, HasSubstr("== 4KiB 100% read 0% random: "));
    EXPECT_THAT(r.err, HasSubstr("read IOPS"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "-"));
}

TEST(CliStdout, WithoutDashTheSummaryStaysOnStdout)
{
    TempDir dir;
    auto r = runCli(kNullRun + "--json r.json", dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("== 4KiB 100% read 0% random: "));
    EXPECT_THAT(r.err, Not(HasSubstr("read IOPS")));
}

TEST(CliStdout, CsvDashWritesTheIometerCsvToStdout)
{
    TempDir dir;
    auto r = runCli(kNullRun + "-q --csv - --json r.json", dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, StartsWith("'Test Type,Test Description\n"));
    EXPECT_THAT(r.out, Not(HasSubstr("read IOPS")));
    EXPECT_THAT(r.err, HasSubstr("read IOPS")); // -q keeps the summary, on stderr now
    EXPECT_NO_THROW(nlohmann::json::parse(readFile(dir.path() / "r.json")));
}

TEST(CliStdout, TimeseriesDashStreamsTheRowsToStdout)
{
    TempDir dir;
    auto r = runCli(kNullRun + "--timeseries -", dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, StartsWith("run_id,step,step_name,phase,"));
    EXPECT_GT(std::count(r.out.begin(), r.out.end(), '\n'), 4);
    EXPECT_THAT(r.out, Not(HasSubstr("-- 4KiB 100% read 0% random: measuring")));
    EXPECT_THAT(r.out, Not(HasSubstr("read IOPS")));
    EXPECT_THAT(r.err, HasSubstr("-- 4KiB 100% read 0% random: measuring"));
}

TEST(CliStdout, SeriesCsvDashWritesTheSeriesToStdout)
{
    TempDir dir;
    auto r = runCli("run --engine null --bs 4k --duration 1 --ramp 0 --sweep qd=1,2 "
                    "--series-csv -",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // A header and one row per point, and nothing said for people.
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 3) << r.out;
    EXPECT_THAT(r.out, Not(HasSubstr("point 1/2")));
    EXPECT_THAT(r.err, HasSubstr("point 2/2"));
    EXPECT_THAT(r.err, HasSubstr("== Series"));
}

TEST(CliStdout, TwoOutputsOnStdoutAreRefusedBeforeTheRun)
{
    TempDir dir;
    auto r = runCli(kNullRun + "--json - --csv -", dir.path());
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err,
        HasSubstr("error: --json: - (stdout) is also the --csv output: only one output can go to "
                  "stdout"));
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "-"));
}

namespace {

bool hasCarriageReturn(const std::string &text)
{
    return text.find('\r') != std::string::npos;
}

} // namespace

TEST(CliProgress, NoCarriageReturnWhenStderrIsAFile)
{
    // A real test file to write (64 MiB): the bar would be drawn while it fills.
    TempDir dir;
    auto r = runCli("run --engine sync --buffered --target . --file-size 64MiB --bs 4k "
                    "--duration 1 --ramp 0 --remove-test-files",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_FALSE(hasCarriageReturn(r.err)) << r.err;
    EXPECT_FALSE(hasCarriageReturn(r.out));
    EXPECT_THAT(r.err, Not(HasSubstr("preparing ./ioprism-test.dat [")));
    // One line instead, with the rest of the human output.
    EXPECT_THAT(r.out, HasSubstr("-- preparing ./ioprism-test.dat (64 MiB)\n"));
}

TEST(CliProgress, NoCarriageReturnWhenTheHumanOutputGoesToStderrEither)
{
    TempDir dir;
    auto r = runCli("run --engine sync --buffered --target . --file-size 64MiB --bs 4k "
                    "--duration 1 --ramp 0 --remove-test-files --json -",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_FALSE(hasCarriageReturn(r.err)) << r.err;
    EXPECT_THAT(r.err, HasSubstr("-- preparing ./ioprism-test.dat (64 MiB)\n"));
    EXPECT_NO_THROW(nlohmann::json::parse(r.out));
}

TEST(CliProgress, TheBarIsDrawnOnATerminal)
{
    // script(1) runs the CLI on a pseudo-terminal: the bar must be there, or the test
    // above would pass with no bar anywhere.
    if (std::system("script --version >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "script(1) (util-linux) is not installed: no pseudo-terminal to run on";
    TempDir dir;
    const auto log = dir.path() / "tty.txt";
    const std::string command = "cd '" + dir.path().string() + "' && script -qec \"'"
        + cliPath().string()
        + "' run --engine sync --buffered --target . --file-size 64MiB --bs 4k --duration 1 "
          "--ramp 0 --remove-test-files\" /dev/null >'"
        + log.string() + "' 2>&1 </dev/null";
    ASSERT_EQ(std::system(command.c_str()), 0) << readFile(log);
    const std::string text = readFile(log);
    EXPECT_THAT(text, HasSubstr("\rpreparing ./ioprism-test.dat ["));
    EXPECT_THAT(text, Not(HasSubstr("-- preparing ./ioprism-test.dat (")));
}

TEST(CliVerbose, PrintsThePlanBeforeTheRun)
{
    TempDir dir;
    auto r = runCli(kNullRun + "--workers 2 --qd 4 --seed 5 -v", dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("engine: null (--engine null)"));
    EXPECT_THAT(r.out, HasSubstr("outputs: none; this text on stdout"));
    EXPECT_THAT(
        r.out, HasSubstr("plan: 1 step, 2 workers; each worker starts with the null engine"));
    EXPECT_THAT(r.out, HasSubstr("  Worker 1: seed 5"));
    EXPECT_THAT(r.out, HasSubstr("  Worker 2: seed 6")) << "--seed offsets each worker";
    EXPECT_THAT(r.out, HasSubstr("    ioprism-test.dat (test file, direct"));
    EXPECT_THAT(r.out, HasSubstr("      on device"));
    EXPECT_THAT(r.out,
        HasSubstr("  step 1/1 4KiB 100% read 0% random: Worker 1, Worker 2: 4KiB 100% read 0% "
                  "random at QD 4\n"));
    // Before the first step.
    EXPECT_LT(r.out.find("plan: "), r.out.find("-- 4KiB 100% read 0% random: measuring"));
}

TEST(CliVerbose, SaysWhenEachNoticeCame)
{
    // A second host is ignored with a notice, said as the run is planned.
    TempDir dir;
    auto preset = runCli("presets show quick --json", dir.path());
    ASSERT_EQ(preset.exitCode, 0) << preset.err;
    auto profile = nlohmann::json::parse(preset.out);
    auto other = profile.at("hosts")[0];
    other["name"] = "other";
    profile.at("hosts").push_back(other);
    writeFile(dir.path() / "two-hosts.json", profile.dump(1));
    const std::string args = "run two-hosts.json --engine null --bs 4k --duration 1 --ramp 0";
    auto plain = runCli(args, dir.path());
    ASSERT_EQ(plain.exitCode, 0) << plain.err;
    EXPECT_THAT(plain.err, HasSubstr("notice: hosts[1]: only the local host runs"));
    auto verbose = runCli(args + " -v", dir.path());
    ASSERT_EQ(verbose.exitCode, 0) << verbose.err;
    EXPECT_THAT(verbose.err,
        HasSubstr("notice (setting up the engine and the plan): hosts[1]: only the local host "
                  "runs; \"other\" is ignored"));
}

TEST(CliVerbose, IsInTheHelp)
{
    TempDir dir;
    auto r = runCli("run --help", dir.path());
    EXPECT_THAT(r.out, HasSubstr("-v,--verbose"));
}

TEST(CliVerbose, QuietAndVerboseTogetherAreRefused)
{
    TempDir dir;
    auto r = runCli(kNullRun + "-q -v", dir.path());
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("error: --quiet and --verbose: give one"));
    EXPECT_THAT(r.out, Not(HasSubstr("measuring")));
}

// --qd is the depth of every target under every spec (core::setOutstandingIosEverywhere),
// above a preset's per-spec queue depth (CrystalDiskMark's Q32).
TEST(CliQd, OverridesTheQueueDepthAPresetSetsPerSpec)
{
    TempDir dir;
    auto r = runCli("run --engine null --preset cdm-default --spec 'RND4K Q32T1 Read' "
                    "--duration 1 --ramp 0 --interval 250ms --file-size 8MiB --qd 2 --passes 1 -v",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("runs: RND4K Q32T1 Read (4 KiB) at QD 2;")) << r.out;
    EXPECT_THAT(r.out, HasSubstr("Worker 1: RND4K Q32T1 Read at QD 2\n")) << r.out;
}
