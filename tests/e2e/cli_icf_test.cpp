// SPDX-License-Identifier: GPL-3.0-or-later
// Iometer .icf files through the CLI (issue 24, item 5): Iometer's reading rules as the
// user meets them. Real files are in cli_icf_corpus_test.cpp.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "e2e/cli_support.h"

using namespace ioprism::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

std::size_t countOf(const std::string &text, const std::string &what)
{
    std::size_t n = 0;
    for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size()))
        ++n;
    return n;
}

std::string referenceWith(const std::string &from, const std::string &to)
{
    std::string icf = readFile(sourceDir() / "tests/fixtures/icf/reference.icf");
    const auto at = icf.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
        icf.replace(at, from.size(), to);
    return icf;
}

// The run options of every .icf run here: the file's targets name another machine, so
// --target re-points every worker to one small test file; the null engine does no I/O.
const std::string kNullRun = "--target t.dat --file-size 16MiB --engine null --duration 1 "
                             "--ramp 0 --no-save -q --csv r.csv";

} // namespace

// `show` lists the steps of a NORMAL test too: one per spec index, as Iometer counts them.
TEST(CliIcf, ShowListsTheStepsOfANormalTest)
{
    TempDir dir;
    writeFile(dir.path() / "n.icf", referenceWith("CYCLE_OUTSTANDING_IOS", "NORMAL"));
    auto r = runCli("show n.icf", dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("\n1 step:\n    1. OLTP mix\n"));
}

// A worker Idle at a spec index where nobody else runs: Iometer's CalcRunCount counts one
// run there, a pause; it is shown, run (no I/O for the run time) and written to the CSV.
TEST(CliIcf, ASpecIndexWhereEveryWorkerIsIdleIsAPauseStep)
{
    TempDir dir;
    std::string icf = referenceWith("CYCLE_OUTSTANDING_IOS", "NORMAL");
    const std::string assigned = "'Assigned access specs\n\tOLTP mix\n";
    const auto at = icf.find(assigned);
    ASSERT_NE(at, std::string::npos);
    icf.insert(at + assigned.size(), "\tIdle\n\tOLTP mix\n");
    writeFile(dir.path() / "p.icf", icf);
    auto show = runCli("show p.icf", dir.path());
    ASSERT_EQ(show.exitCode, 0) << show.err;
    EXPECT_THAT(show.out, HasSubstr("3 steps:\n    1. OLTP mix\n    2. Idle\n    3. OLTP mix\n"));
    // The file's worker reads a 1 GiB region.
    auto r = runCli("run p.icf --target t.dat --file-size 1GiB --engine null --duration 1 "
                    "--ramp 0 --no-save -q --csv r.csv",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string csv = readFile(dir.path() / "r.csv");
    EXPECT_EQ(countOf(csv, "'Results\n"), 3u) << csv;
}

// A file whose workers are all network workers runs nothing in IOPrism: it says so and
// exits non-zero, even with --target, instead of exiting 0 with an empty CSV.
TEST(CliIcf, AFileOfOnlyNetworkWorkersSaysItRunsNothing)
{
    TempDir dir;
    std::filesystem::copy_file(
        sourceDir() / "tests/fixtures/icf/corpus/network_worker.icf", dir.path() / "net.icf");
    for (const std::string &command :
        std::vector<std::string> {"validate net.icf", "run net.icf " + kNullRun}) {
        auto r = runCli(command, dir.path());
        EXPECT_EQ(r.exitCode, 2) << command << "\n" << r.out << r.err;
        EXPECT_THAT(r.err, HasSubstr("only network workers")) << command;
    }
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "r.csv"));
}

// A binary file is not an Iometer file, said in one line.
TEST(CliIcf, ABinaryFileIsNotAnIometerFileInOneLine)
{
    TempDir dir;
    std::string bytes("\x7f"
                      "ELF\x02\x01\x01\0\0\0",
        10);
    for (int i = 0; i < 30; ++i)
        bytes += std::string("\x90\x0b\0\x05\n", 5);
    writeFile(dir.path() / "a.icf", bytes);
    for (const std::string &command :
        std::vector<std::string> {"validate a.icf", "show a.icf", "run a.icf " + kNullRun}) {
        auto r = runCli(command, dir.path());
        EXPECT_EQ(r.exitCode, 2) << command;
        EXPECT_EQ(countOf(r.err, "error:"), 1u) << command << "\n" << r.err;
        EXPECT_THAT(r.err, HasSubstr("not an Iometer configuration file: binary data"));
        EXPECT_THAT(r.err, Not(HasSubstr("unexpected line")));
    }
}
