// SPDX-License-Identifier: GPL-3.0-or-later
// A corpus of real Iometer .icf files (tests/fixtures/icf/corpus; where each came from is
// in SOURCES.md there) through validate, show, a convert round trip and a 1 s run on the
// null engine, each with the number of steps Iometer's rules give it (docs/cycling.md).
#include <cctype>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "e2e/cli_support.h"

using namespace ioprism::test;
using ::testing::HasSubstr;

namespace {

std::size_t countOf(const std::string &text, const std::string &what)
{
    std::size_t n = 0;
    for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size()))
        ++n;
    return n;
}

// The file's targets name another machine: --target re-points every worker to one small
// test file; the null engine does no I/O.
const std::string kNullRun = "--target t.dat --file-size 16MiB --engine null --duration 1 "
                             "--ramp 0 --no-save -q --csv r.csv";

struct CorpusFile {
    const char *file;
    // The steps of the file's test by Iometer's rules (docs/cycling.md), as IOPrism runs
    // them; 0: IOPrism runs nothing and says so.
    std::size_t steps;
    const char *why;
};

class IcfCorpus : public testing::TestWithParam<CorpusFile>
{
};

} // namespace

TEST_P(IcfCorpus, ValidatesShowsConvertsBackAndRunsItsSteps)
{
    const CorpusFile &c = GetParam();
    TempDir dir;
    std::filesystem::copy_file(
        sourceDir() / "tests/fixtures/icf/corpus" / c.file, dir.path() / "in.icf");
    const bool runs = c.steps > 0;

    // A valid Iometer file from another machine: exit 0, its targets not here (warnings).
    auto validate = runCli("validate in.icf", dir.path());
    EXPECT_EQ(validate.exitCode, runs ? 0 : 2) << validate.out << validate.err;
    if (runs) {
        EXPECT_THAT(validate.out, HasSubstr("in.icf: valid ("));
    }

    auto show = runCli("show in.icf", dir.path());
    ASSERT_EQ(show.exitCode, 0) << show.err;
    EXPECT_THAT(show.out,
        HasSubstr("\n" + std::to_string(c.steps) + (c.steps == 1 ? " step:\n" : " steps:\n")));

    // .icf -> JSON -> .icf -> JSON keeps every value.
    auto toJson = runCli("convert in.icf p.json", dir.path());
    ASSERT_EQ(toJson.exitCode, 0) << toJson.err;
    auto back = runCli("convert p.json p.icf", dir.path());
    ASSERT_EQ(back.exitCode, 0) << back.err;
    auto again = runCli("convert p.icf q.json", dir.path());
    ASSERT_EQ(again.exitCode, 0) << again.err;
    EXPECT_EQ(nlohmann::json::parse(readFile(dir.path() / "p.json")),
        nlohmann::json::parse(readFile(dir.path() / "q.json")));

    // 1 s per step on the null engine, every worker re-pointed to one test file: one
    // Iometer 'Results block per step.
    auto run = runCli("run in.icf " + kNullRun, dir.path(), "timeout -s KILL 120");
    if (!runs) {
        EXPECT_EQ(run.exitCode, 2) << run.err;
        EXPECT_FALSE(std::filesystem::exists(dir.path() / "r.csv"));
        return;
    }
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const std::string csv = readFile(dir.path() / "r.csv");
    EXPECT_EQ(countOf(csv, "'Results\n"), c.steps) << csv.substr(0, 400);
    EXPECT_TRUE(csv.starts_with("'Test Type,Test Description\n0,")) << "NORMAL is type 0";
}

// Public files, with where each came from in tests/fixtures/icf/corpus/SOURCES.md. All are
// NORMAL tests: one step per spec index at which a disk worker with a target has a spec.
INSTANTIATE_TEST_SUITE_P(Public, IcfCorpus,
    testing::Values(CorpusFile {"oldformat_specs.icf", 1,
                        "1998.02.01: one old-format spec, assigned to the one worker"},
        CorpusFile {"oltp_32697.icf", 1,
            "version 3.26.97: since 1.1.0 a new-format file; one spec, one worker"},
        CorpusFile {"dateversion_new.icf", 1, "dated version 1998.10.08: one spec, one worker"},
        CorpusFile {"ancient_default_workers.icf", 1,
            "'Default Workers to Spawn of 1998: one spec, one worker"},
        CorpusFile {"keyvariant_old_worker.icf", 1, "pre-1.1.0 worker lines: one spec"},
        CorpusFile {"mixedcase_keys.icf", 1, "keywords in any case: one spec"},
        CorpusFile {"missing_sections.icf", 1, "no RESULTS DISPLAY section: one spec"},
        CorpusFile {"multiline_allinone.icf", 1, "one spec of 29 lines (All in one)"},
        CorpusFile {"multispec_worker.icf", 3, "one worker with three specs: one step each"},
        CorpusFile {
            "two_workers.icf", 1, "two workers, each its own spec at index 0: one step together"},
        CorpusFile {"dup_worker_names.icf", 1, "two workers of one name, one spec index"},
        CorpusFile {"multi_target.icf", 1, "one worker on three targets, one spec"},
        CorpusFile {"smoke_test.icf", 1, "31 specs defined, one assigned"},
        CorpusFile {"network_worker.icf", 0,
            "a network worker only: Iometer runs 1 network step, IOPrism has no network "
            "targets and refuses to run nothing"}),
    [](const testing::TestParamInfo<CorpusFile> &info) {
        std::string name = info.param.file;
        name = name.substr(0, name.find('.'));
        for (char &ch : name)
            if (!std::isalnum(static_cast<unsigned char>(ch)))
                ch = '_';
        return name;
    });
