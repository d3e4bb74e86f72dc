// SPDX-License-Identifier: GPL-3.0-or-later
// ioprism-cli end to end: exit codes, messages, outputs, real runs on files.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <future>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "e2e/cli_support.h"

using namespace ioprism::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const std::string kBadProfile = R"({
  "format": "ioprism-profile", "version": 1,
  "specs": [{"name": "bad", "lines": [{"transferSize": "4KiB", "share": 100, "percentRead": 140, "percentRandm": 5}]}],
  "hosts": [{"workers": [{"name": "W", "specs": ["bad"], "targets": [{"path": "x.dat"}]}]}]
})";

} // namespace

TEST(Cli, HelpListsEveryCommand)
{
    TempDir dir;
    auto r = runCli("--help", dir.path());
    EXPECT_EQ(r.exitCode, 0);
    for (const char *cmd :
        {"run", "validate", "convert", "show", "presets", "list-targets", "history", "compare"})
        EXPECT_THAT(r.out, HasSubstr(cmd));
}

TEST(Cli, UnknownOptionIsInvalidInput)
{
    TempDir dir;
    auto r = runCli("run --no-such-option", dir.path());
    EXPECT_EQ(r.exitCode, 2);
}

// A target path left out ("--target $EMPTY --bs 4k") used to take "--bs" and "4k" as
// two test files, made and written in the working directory. Refused before anything
// is made, saying why; ./--bs is a file of that name and still allowed.
TEST(Cli, ATargetThatLooksLikeAnOptionIsRefusedBeforeAnyFileIsMade)
{
    TempDir dir;
    auto r = runCli("run --target --bs 4k --file-size 1MiB --duration 1 --no-save -q", dir.path());
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr("\"--bs\" starts with '-' like an option"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "--bs"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "4k"));
    auto named = runCli(
        "run --engine null --target ./--bs --file-size 1MiB --duration 1 --no-save -q", dir.path());
    EXPECT_EQ(named.exitCode, 0) << named.err;
}

TEST(Cli, ValidateAcceptsEveryPreset)
{
    TempDir dir;
    for (const auto &entry :
        std::filesystem::directory_iterator(sourceDir() / "resources/presets")) {
        auto r = runCli("validate '" + entry.path().string() + "'", dir.path());
        EXPECT_EQ(r.exitCode, 0) << entry.path() << "\n" << r.err;
        EXPECT_THAT(r.out, HasSubstr("valid"));
    }
}

TEST(Cli, ValidateListsEveryProblemWithItsPath)
{
    TempDir dir;
    writeFile(dir.path() / "bad.json", kBadProfile);
    auto r = runCli("validate bad.json", dir.path());
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("specs[0].lines[0].percentRandm"));
    EXPECT_THAT(r.err, HasSubstr("unknown field"));
}

TEST(Cli, ValidateReportsRuleViolations)
{
    TempDir dir;
    std::string text = kBadProfile;
    text.replace(
        text.find(", \"percentRandm\": 5"), std::string(", \"percentRandm\": 5").size(), "");
    writeFile(dir.path() / "bad.json", text);
    auto r = runCli("validate bad.json", dir.path());
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("specs[0].lines[0].percentRead: 140 is above 100"));
}

TEST(Cli, MissingFileIsInvalidInput)
{
    TempDir dir;
    auto r = runCli("validate nope.json", dir.path());
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("cannot read nope.json"));
}

TEST(Cli, ValidateRefusesADeviceUnread)
{
    // Reading /dev/zero whole grew the CLI to 14 GB before it was killed. The guard makes
    // a regression a failure (exit 137) rather than the whole machine's problem.
    TempDir dir;
    auto r = runCli("validate /dev/zero", dir.path(), "timeout -s KILL 120");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("/dev/zero: is a character device; only regular files are read"));
}

TEST(Cli, ValidateRefusesAnOversizeFileNamingTheLimit)
{
    TempDir dir;
    {
        std::ofstream create(dir.path() / "profile.icf");
    }
    std::filesystem::resize_file(dir.path() / "profile.icf", std::uintmax_t(1) << 30); // sparse
    auto r = runCli("validate profile.icf", dir.path(), "timeout -s KILL 120");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("profile.icf: is 1 GiB; IOPrism reads profiles up to 4 MiB"));
}

TEST(Cli, ValidateSaysADirectoryIsADirectory)
{
    TempDir dir;
    std::filesystem::create_directory(dir.path() / "profiles");
    auto r = runCli("validate profiles", dir.path());
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("profiles: is a directory, not a file"));
    EXPECT_THAT(r.err, ::testing::Not(HasSubstr("Iometer")));
}

TEST(Cli, ConvertIcfToJsonAndBack)
{
    TempDir dir;
    const auto fixtures = sourceDir() / "tests/fixtures/icf";
    ASSERT_TRUE(std::filesystem::exists(fixtures));
    int converted = 0;
    for (const auto &entry : std::filesystem::directory_iterator(fixtures)) {
        if (entry.path().extension() != ".icf")
            continue;
        auto toJson = runCli("convert '" + entry.path().string() + "' p.json", dir.path());
        if (toJson.exitCode == 2)
            continue; // fixtures of malformed input
        ASSERT_EQ(toJson.exitCode, 0) << entry.path() << toJson.err;
        auto back = runCli("convert p.json p.icf", dir.path());
        ASSERT_EQ(back.exitCode, 0) << back.err;
        auto again = runCli("convert p.icf q.json", dir.path());
        ASSERT_EQ(again.exitCode, 0) << again.err;
        EXPECT_EQ(nlohmann::json::parse(readFile(dir.path() / "p.json")),
            nlohmann::json::parse(readFile(dir.path() / "q.json")))
            << entry.path();
        ++converted;
    }
    EXPECT_GT(converted, 0);
}

TEST(Cli, ShowAndPresets)
{
    TempDir dir;
    auto list = runCli("presets", dir.path());
    EXPECT_EQ(list.exitCode, 0);
    for (const char *name :
        {"quick", "cdm-default", "cdm-nvme", "iometer", "file-server", "storage-study"})
        EXPECT_THAT(list.out, HasSubstr(name));
    auto show = runCli("presets show cdm-nvme", dir.path());
    EXPECT_EQ(show.exitCode, 0);
    EXPECT_THAT(show.out, HasSubstr("RND4K Q32T16 Read"));
    EXPECT_THAT(show.out, HasSubstr("[16 threads]"));
    auto missing = runCli("presets show nope", dir.path());
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_THAT(missing.err, HasSubstr("known presets"));
}

TEST(Cli, RunOnNullEngineWritesEveryOutput)
{
    TempDir dir;
    auto r = runCli("run --engine null --duration 1 --ramp 0 --interval 250ms --csv r.csv "
                    "--timeseries t.csv --json r.json",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("SEQ1M Q8T1 Read"));
    EXPECT_THAT(r.out, HasSubstr("RND4K Q32T1 Write"));
    const auto json = nlohmann::json::parse(readFile(dir.path() / "r.json"));
    const auto &s = json.at("summary");
    for (const char *key : {"iops", "read_iops", "write_iops", "mbps", "read_mbps", "write_mbps",
             "bytes_read", "bytes_written", "latency_us", "cpu_percent", "errors"})
        EXPECT_TRUE(s.contains(key)) << key;
    for (const char *key : {"mean", "max", "p50", "p90", "p99", "p99_9", "p99_99"})
        EXPECT_TRUE(s.at("latency_us").contains(key)) << key;
    EXPECT_GT(s.at("iops").get<double>(), 0);
    EXPECT_GT(s.at("bytes_written").get<double>(), 0);
    EXPECT_THAT(readFile(dir.path() / "r.csv"), HasSubstr("ALL"));
    const std::string timeseries = readFile(dir.path() / "t.csv");
    EXPECT_GT(std::count(timeseries.begin(), timeseries.end(), '\n'), 8);
}

TEST(Cli, CustomSpecFromOptionsIsRecordedInResults)
{
    TempDir dir;
    auto r = runCli(
        "run --engine null --bs 16k --read 70 --random 50 --qd 4 --workers 2 --duration 1 --seed 9 "
        "--json r.json -q",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(readFile(dir.path() / "r.json"));
    const auto &profile = json.at("profile");
    ASSERT_EQ(profile.at("hosts")[0].at("workers").size(), 2u);
    EXPECT_EQ(profile.at("hosts")[0].at("workers")[0].at("outstandingIos"), 4);
    EXPECT_EQ(profile.at("hosts")[0].at("workers")[0].at("seed"), 9);
    EXPECT_EQ(profile.at("hosts")[0].at("workers")[0].at("specs")[0], "16KiB 70% read 50% random");
}

TEST(Cli, AnUnwritableOutputIsRefusedBeforeTheRun)
{
    TempDir dir;
    // A real engine on a real test file: had the run started, the file would exist.
    auto r = runCli("run --engine sync --buffered --target . --file-size 1MiB --bs 4k "
                    "--duration 1 -q --json no-such-dir/r.json",
        dir.path());
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(
        r.err, HasSubstr("--json: cannot write no-such-dir/r.json: No such file or directory"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "ioprism-test.dat"));
    EXPECT_THAT(r.out, Not(HasSubstr("measured")));
}

TEST(Cli, EveryOutputIsCheckedAndAWritableOneLeftAsItWas)
{
    TempDir dir;
    writeFile(dir.path() / "keep.json", "keep");
    auto r = runCli("run --engine sync --buffered --target . --file-size 1MiB --bs 4k "
                    "--duration 1 -q --json keep.json --csv no-such-dir/r.csv "
                    "--timeseries /proc/nonexistent/t.csv",
        dir.path());
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("--csv: cannot write no-such-dir/r.csv"));
    EXPECT_THAT(r.err, HasSubstr("--timeseries: cannot write /proc/nonexistent/t.csv"));
    EXPECT_THAT(r.err, Not(HasSubstr("keep.json")));
    EXPECT_EQ(readFile(dir.path() / "keep.json"), "keep");
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "ioprism-test.dat"));
}

// Issue 23, item 11: the --timeseries file is written as the run goes. When its folder is
// deleted during the run, every write still succeeds (the file is unlinked but open) and
// the series was silently lost; now it is rebuilt from the intervals, saved elsewhere and
// the exit code says so, as for --csv and --json whose folder is gone at the end.
TEST(Cli, ATimeseriesFileWhoseFolderIsDeletedDuringTheRunIsSavedElsewhere)
{
    TempDir dir;
    const auto folder = dir.path() / "out";
    std::filesystem::create_directories(folder);
    auto run = std::async(std::launch::async, [&] {
        return runCli("run --engine null --bs 4k --duration 3 --ramp 0 --interval 100ms -q "
                      "--no-save --timeseries out/t.csv",
            dir.path(), "timeout -s KILL 120");
    });
    // The file is made before the run starts; delete its folder once the run is under way.
    for (int i = 0; i < 200 && !std::filesystem::exists(folder / "t.csv"); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_TRUE(std::filesystem::exists(folder / "t.csv")) << "the run did not start";
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    std::filesystem::remove_all(folder);
    const CliResult r = run.get();

    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_THAT(r.err,
        HasSubstr("--timeseries: cannot write out/t.csv: the file was removed "
                  "during the run"));
    EXPECT_THAT(r.err, HasSubstr("the timeseries results were saved to"));
    std::vector<std::filesystem::path> saved;
    for (const auto &entry : std::filesystem::directory_iterator(dir.path()))
        if (entry.path().filename().string().ends_with("-timeseries.csv"))
            saved.push_back(entry.path());
    ASSERT_EQ(saved.size(), 1u) << r.err;
    // Rebuilt from the intervals: the header and a row for each interval of the 3 s.
    const std::string text = readFile(saved[0]);
    EXPECT_GT(std::count(text.begin(), text.end(), '\n'), 10) << text;

    // A path that is no regular file but is still there took the series as asked.
    const CliResult devNull = runCli("run --engine null --bs 4k --duration 1 --ramp 0 -q "
                                     "--no-save --timeseries /dev/null",
        dir.path());
    EXPECT_EQ(devNull.exitCode, 0) << devNull.err;
    EXPECT_THAT(devNull.err, Not(HasSubstr("--timeseries")));
}

TEST(Cli, TwoOutputsInOneFileAreRefused)
{
    TempDir dir;
    auto r = runCli(
        "run --engine null --bs 4k --duration 1 -q --csv r.out --json ./r.out", dir.path());
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("--json: ./r.out is also the --csv file"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "r.out"));
}

// The ramp-up comes before the measured time: a ramp-up as long as the duration is no
// reason for a warning, and the whole duration is measured.
TEST(Cli, ARampUpAsLongAsTheDurationIsMeasuredInFullWithoutWarning)
{
    TempDir dir;
    auto r = runCli("run --engine null --bs 4k --ramp 1 --duration 1 --interval 250ms -q "
                    "--json r.json",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.err, Not(HasSubstr("warning")));
    EXPECT_THAT(r.err, Not(HasSubstr("nothing would be recorded")));
    const auto json = nlohmann::json::parse(readFile(dir.path() / "r.json"));
    EXPECT_GE(json.at("steps")[0].at("measured_seconds").get<double>(), 0.9);
    EXPECT_GT(json.at("summary").at("read_iops").get<double>(), 0);
}

// Options that change what the specs do change the description the results carry: the
// quick preset's words ("sequential and random transfers, read then write") would
// describe another run. It says where the run came from instead, and no facts: those are
// made from the profile wherever it is shown (issue 24 item 10).
TEST(Cli, TheCsvDescribesACustomRunNotThePresetItCameFrom)
{
    TempDir dir;
    auto r = runCli("run --engine null --bs 4k --qd 4 --duration 1 --ramp 0 -q --csv r.csv "
                    "--json r.json --no-save",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::istringstream csv(readFile(dir.path() / "r.csv"));
    std::string header, values;
    std::getline(csv, header);
    std::getline(csv, values);
    EXPECT_EQ(header, "'Test Type,Test Description");
    EXPECT_THAT(values, Not(HasSubstr("Quick check")));
    EXPECT_THAT(values, HasSubstr("the quick preset changed by --bs --qd --duration --ramp"));
    const auto json = nlohmann::json::parse(readFile(dir.path() / "r.json"));
    EXPECT_EQ(json.at("profile").at("setup").at("description").get<std::string>(),
        "the quick preset changed by --bs --qd --duration --ramp");
    // What ran is said beside the description when the run is shown.
    auto show = runCli("show r.json", dir.path());
    ASSERT_EQ(show.exitCode, 0) << show.err;
    EXPECT_THAT(show.out,
        HasSubstr("runs: 4KiB 100% read 0% random (4 KiB) at QD 4; 1 worker; 1s measured per "
                  "spec; on ioprism-test.dat (direct, 512 MiB test file)"));
}

// Issue 24 item 10: a preset's description said "4 s each ... on a 512 MiB test file" and
// was kept for a 1 s run on another file. The preset's words are kept verbatim (they hold
// no sizes or times), and `show` says the facts of the run made beside them.
TEST(Cli, APresetRunWithOtherTimesAndTargetKeepsItsWordsAndShowsTheNewFacts)
{
    TempDir dir;
    auto quick = runCli("presets show quick --json", dir.path());
    ASSERT_EQ(quick.exitCode, 0) << quick.err;
    const std::string words
        = nlohmann::json::parse(quick.out).at("setup").at("description").get<std::string>();
    EXPECT_THAT(words, Not(HasSubstr("512 MiB")));
    auto r = runCli("run --engine null --target other.dat --file-size 8MiB --duration 1 --ramp 0 "
                    "-q --no-save --json r.json",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(readFile(dir.path() / "r.json"));
    EXPECT_EQ(json.at("profile").at("setup").at("description").get<std::string>(), words);
    auto show = runCli("show r.json", dir.path());
    ASSERT_EQ(show.exitCode, 0) << show.err;
    EXPECT_THAT(show.out, HasSubstr("profile: " + words + "\n"));
    EXPECT_THAT(
        show.out, HasSubstr("1s measured per spec; on other.dat (direct, 8 MiB test file)"));
    EXPECT_THAT(show.out, Not(HasSubstr("512 MiB")));
    EXPECT_THAT(show.out, Not(HasSubstr("4 s")));
    EXPECT_THAT(show.out, Not(HasSubstr("4s measured")));
    EXPECT_THAT(show.out, Not(HasSubstr("ramp-up")));

    // A preset as shipped: its words, then what it runs.
    auto preset = runCli("presets show cdm-default", dir.path());
    ASSERT_EQ(preset.exitCode, 0) << preset.err;
    EXPECT_THAT(preset.out, HasSubstr("Runs: SEQ1M Q8T1 Read (1 MiB) at QD 8, "));
    EXPECT_THAT(preset.out,
        HasSubstr("5s measured per spec after 1s ramp-up, 5 passes each, a pause of 5s "
                  "between specs; on ioprism-test.dat (direct, 1 GiB test file)"));
}

// Issue 12: an .icf whose Test Setup cycles outstanding I/Os 1 -> 32 exponentially runs
// 6 steps per spec (it used to run as one normal test), and the CSV has Iometer's blocks:
// the access specifications once, then a 'Results block per step with its queue depth.
TEST(Cli, AnIcfThatCyclesOutstandingIosRunsEveryDepthWithIometersBlocks)
{
    TempDir dir;
    std::string icf = readFile(sourceDir() / "tests/fixtures/icf/reference.icf");
    const std::string from = "\t1          64         2          EXPONENTIAL";
    const auto at = icf.find(from);
    ASSERT_NE(at, std::string::npos);
    icf.replace(at, from.size(), "\t1          32         2          EXPONENTIAL");
    {
        std::ofstream out(dir.path() / "cycle.icf", std::ios::binary);
        out << icf;
    }
    auto r = runCli("run cycle.icf --target t.dat --file-size 1GiB --engine null --duration 1 "
                    "--ramp 0 --csv r.csv",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("step 6/6 OLTP mix, QD 32"));
    const std::string csv = readFile(dir.path() / "r.csv");
    const auto count = [&](const std::string &what) {
        std::size_t n = 0;
        for (std::size_t p = csv.find(what); p != std::string::npos; p = csv.find(what, p + 1))
            ++n;
        return n;
    };
    EXPECT_EQ(count("'Access specifications\n"), 1u);
    EXPECT_EQ(count("'Results\n"), 6u);
    EXPECT_TRUE(csv.starts_with("'Test Type,Test Description\n6,")) << csv.substr(0, 80);
    // Each ALL row names the spec and the step's queue depth (one worker, one target).
    std::vector<std::string> depths;
    const auto header = csv.substr(csv.find("'Target Type"),
        csv.find('\n', csv.find("'Target Type")) - csv.find("'Target Type"));
    std::size_t qdColumn = 0;
    for (std::size_t b = 0, e, i = 0; b <= header.size(); b = e + 1, ++i) {
        e = std::min(header.find(',', b), header.size());
        if (header.substr(b, e - b) == "Queue Depth")
            qdColumn = i;
    }
    ASSERT_GT(qdColumn, 0u);
    for (std::size_t p = csv.find("\nALL,"); p != std::string::npos;
         p = csv.find("\nALL,", p + 1)) {
        const std::string row = csv.substr(p + 1, csv.find('\n', p + 1) - p - 1);
        std::size_t b = 0;
        for (std::size_t i = 0; i < qdColumn; ++i)
            b = row.find(',', b) + 1;
        depths.push_back(row.substr(b, row.find(',', b) - b));
        EXPECT_TRUE(row.starts_with("ALL,All,OLTP mix,1,1,1,")) << row;
    }
    EXPECT_EQ(depths, (std::vector<std::string> {"1", "2", "4", "8", "16", "32"}));
}

// The run time is whole seconds and 0 means "until stopped": a duration below a second
// once became a run without end.
TEST(Cli, ADurationBelowOneSecondIsRefusedNotRunForever)
{
    TempDir dir;
    auto r
        = runCli("run --engine null --duration 300ms --no-save", dir.path(), "timeout -s KILL 60");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("--duration"));
    EXPECT_THAT(r.err, HasSubstr("below 1s"));
}

// Issue 24, item 6: an .icf made on another PC names targets that are not here. validate
// answers two questions: a valid Iometer file exits 0, listing those targets as warnings
// and saying the file cannot run here yet; --here makes them errors (exit 2), as run does.
TEST(CliValidate, AFileFromAnotherMachineIsValidButCannotRunHereUntilRepointed)
{
    TempDir dir;
    std::filesystem::copy_file(
        sourceDir() / "tests/fixtures/icf/reference.icf", dir.path() / "lab.icf");
    auto r = runCli("validate lab.icf", dir.path());
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out + r.err, HasSubstr("\"sdb\" was not found on this machine"));
    EXPECT_THAT(r.out, HasSubstr("valid ("));
    EXPECT_THAT(r.out, HasSubstr("cannot run here until 1 target is re-pointed"));
    r = runCli("validate --here lab.icf", dir.path());
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr("invalid (1 error)"));
    r = runCli("run lab.icf --duration 1 --no-save --quiet", dir.path());
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("was not found on this machine"));
}
