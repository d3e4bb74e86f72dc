// SPDX-License-Identifier: GPL-3.0-or-later
// ioprism-mpi under a real mpirun on this machine, as a new user tries it (docs/cluster.md):
// four ranks on four test files and on one shared file, with exact "All" figures; a rank
// pointed at a missing folder stopping all four, named; Ctrl-C on mpirun keeping what was
// measured.
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "e2e/background_process.h"
#include "e2e/cli_support.h"
#include "e2e/host_results.h"

using namespace ioprism::test;
using ::testing::HasSubstr;

namespace {

namespace fs = std::filesystem;

#ifdef IOPRISM_MPIEXEC
constexpr const char *kMpiexec = IOPRISM_MPIEXEC;
#else
constexpr const char *kMpiexec = "";
#endif

fs::path mpiProgram()
{
    return binDir() / "ioprism-mpi";
}

// What mpirun is run with ("NAME=value" words). Open MPI refuses to run as root without
// its two variables; CI runs as root. Under ASan, no leak check in the ranks: Open MPI
// unloads its plugins before LeakSanitizer reports, so their allocations at exit cannot be
// told from ours (the code the ranks run is leak-checked without MPI, in the agents'
// tests). A later ASan option overrides an earlier one.
std::vector<std::string> rankEnvironment()
{
    const char *asan = std::getenv("ASAN_OPTIONS");
    return {"OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1",
        std::string("ASAN_OPTIONS=") + (asan ? asan : "") + ":detect_leaks=0"};
}

class Mpi : public ::testing::Test
{
protected:
    void SetUp() override
    {
        IOPRISM_REQUIRE(*kMpiexec && fs::exists(mpiProgram()),
            "ioprism-mpi is not built: Open MPI was not found (Debian: libopenmpi-dev "
            "openmpi-bin)");
    }

    // `mpirun -n RANKS ioprism-mpi ARGS` in the test's folder; killed after 5 minutes so
    // that a hang fails instead of holding CI.
    CliResult mpirun(int ranks, const std::string &args)
    {
        return runProgram(kMpiexec,
            "--oversubscribe -n " + std::to_string(ranks) + " '" + mpiProgram().string() + "' "
                + args,
            m_dir.path(), "timeout -s KILL 300 env " + shellWords(rankEnvironment()));
    }

    const fs::path &dir() const { return m_dir.path(); }

    TempDir m_dir;
};

// The targets of the results' plan (every rank's workers): path and where I/O lands.
struct PlannedTarget {
    std::string path;
    std::uint64_t offset = 0, size = 0;
};
std::vector<PlannedTarget> plannedTargets(const std::string &text)
{
    std::vector<PlannedTarget> out;
    const auto read = ioprism::core::readResultsJson(text);
    if (!read.ok())
        return out;
    for (const auto &w : read.result->plan.workers)
        for (const auto &t : w.targets)
            out.push_back({t.target.path, t.region.offsetBytes, t.region.sizeBytes});
    return out;
}

TEST_F(Mpi, FourRanksOnFourTestFilesAndAllHostsIsExact)
{
    const CliResult r = mpirun(4,
        "--target f-%r.dat --file-size 8MiB --bs 4k --read 100 --random 100 --qd 4 "
        "--duration 2 --interval 250ms --json r.json --csv r.csv");
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("MPI: 4 ranks"));

    // Each rank made its own file: %r is the rank.
    for (int rank = 0; rank < 4; ++rank)
        EXPECT_TRUE(fs::exists(dir() / ("f-" + std::to_string(rank) + ".dat"))) << rank;
    EXPECT_FALSE(fs::exists(dir() / "f-%r.dat"));

    const std::string text = readFile(dir() / "r.json");
    const auto json = nlohmann::json::parse(text);
    ASSERT_EQ(json.at("hosts").size(), 4u);
    for (int rank = 0; rank < 4; ++rank) {
        EXPECT_EQ(json["hosts"][rank].at("rank"), rank);
        EXPECT_THAT(json["hosts"][rank].at("name").get<std::string>(),
            ::testing::StartsWith("r" + std::to_string(rank) + "@"));
    }
    ASSERT_EQ(json.at("steps").size(), 1u);
    expectAllHostsExact(text, 4);

    // The CSV: a MANAGER row per rank beside ALL.
    const std::string csv = readFile(dir() / "r.csv");
    for (int rank = 0; rank < 4; ++rank)
        EXPECT_THAT(csv, HasSubstr("MANAGER,r" + std::to_string(rank) + "@"));
    EXPECT_THAT(csv, HasSubstr("\nALL,"));
}

TEST_F(Mpi, SharedFileGivesEachRankItsOwnSlice)
{
    const CliResult r = mpirun(4,
        "--shared-file --target shared.dat --file-size 16MiB --bs 4k --read 100 --random 100 "
        "--duration 2 --json r.json");
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_EQ(fs::file_size(dir() / "shared.dat"), 16u << 20);

    const std::string text = readFile(dir() / "r.json");
    expectAllHostsExact(text, 4);
    // Four slices of 4 MiB, one per rank, in rank order: together the file, none overlapping.
    std::set<std::uint64_t> offsets;
    const auto targets = plannedTargets(text);
    ASSERT_EQ(targets.size(), 4u);
    for (const auto &t : targets) {
        EXPECT_THAT(t.path, HasSubstr("shared.dat"));
        EXPECT_EQ(t.size, 4u << 20);
        offsets.insert(t.offset);
    }
    EXPECT_EQ(offsets, (std::set<std::uint64_t> {0, 4u << 20, 8u << 20, 12u << 20}));
}

// IOR's stonewalling: the step of a 60 s run time ends on every rank once the first rank
// has read its 16 MiB, each rank keeping what it really read; All is still exact.
TEST_F(Mpi, StonewallEndsEveryRanksStepWhenTheFirstHasMovedItsAmount)
{
    const CliResult r = mpirun(4,
        "--target f-%r.dat --file-size 64MiB --bs 64k --read 100 --random 0 --qd 4 "
        "--duration 60 --stonewall 16MiB --json r.json");
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_THAT(r.out,
        HasSubstr("stonewall: the step ended on every host when the first had moved "
                  "the amount; reached by r"));

    const std::string text = readFile(dir() / "r.json");
    expectAllHostsExact(text, 4);
    const auto json = nlohmann::json::parse(text);
    const auto &step = json.at("steps").at(0);
    EXPECT_EQ(step.value("ended_by_amount", false), true);
    ASSERT_EQ(step.at("hosts").size(), 4u);
    const auto scopes = hostScopes(step);
    ASSERT_EQ(scopes.size(), 4u);
    int first = 0;
    for (std::size_t rank = 0; rank < 4; ++rank) {
        const auto bytes = scopes[rank].at("read").at("bytes").get<std::uint64_t>();
        // Every rank's step ended before its 60 s run time: by the amount, its own or the
        // first rank's.
        EXPECT_LT(scopes[rank].at("seconds").get<double>(), 60) << "rank " << rank;
        if (step["hosts"][rank].value("ended_by_amount", false)) {
            ++first;
            EXPECT_GE(bytes, 16u << 20) << "rank " << rank;
        }
    }
    EXPECT_GE(first, 1) << "a rank moved the amount first";
}

TEST_F(Mpi, ARankPointedAtAMissingFolderStopsEveryRankAndIsNamed)
{
    for (const char *d : {"0", "1", "3"})
        fs::create_directory(dir() / d);
    const CliResult r
        = mpirun(4, "--target %r/f.dat --file-size 8MiB --bs 4k --duration 30 --json r.json");
    // Rank 2's folder does not exist: the run fails, saying which rank and host, and what.
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr("host r2@"));
    EXPECT_THAT(r.err, HasSubstr("2/f.dat"));
    // Rank 0 still wrote its results document, with the failure in it.
    ASSERT_TRUE(fs::exists(dir() / "r.json")) << r.err;
    const auto json = nlohmann::json::parse(readFile(dir() / "r.json"));
    EXPECT_THAT(json.dump(), HasSubstr("r2@"));
}

TEST_F(Mpi, CtrlCOnMpirunStopsEveryRankAndKeepsWhatWasMeasured)
{
    // On Ctrl-C, mpirun waits odls_base_sigkill_timeout (1 s by default), sends SIGTERM to
    // every rank, waits as long again and sends SIGKILL: rank 0 has that long to stop every
    // rank and write. docs/cluster.md suggests more for a loaded cluster, as here, so that
    // the test does not depend on this machine's load (a sanitizer build's is high).
    const std::string timeseries = (dir() / "t.csv").string();
    BackgroundProcess mpirun(
        {kMpiexec, "--oversubscribe", "--mca", "odls_base_sigkill_timeout", "15", "-n", "4",
            mpiProgram().string(), "--target", (dir() / "f-%r.dat").string(), "--file-size", "8MiB",
            "--bs", "4k", "--duration", "0", "--read", "100", "--random", "100", "--interval",
            "200ms", "--timeseries", timeseries, "--json", (dir() / "r.json").string(), "-q"},
        dir() / "out.txt", dir() / "err.txt", rankEnvironment());
    ASSERT_TRUE(mpirun.started());

    // Measuring on every rank: the time series has intervals of the whole run (its lines
    // come once every rank has sent the interval). At most two minutes.
    const bool measuring = mpirun.waitFor(
        [&] {
            const std::string ts = readFile(timeseries);
            return std::count(ts.begin(), ts.end(), '\n') >= 4;
        },
        std::chrono::minutes(2));
    mpirun.signal(SIGINT);
    ASSERT_TRUE(mpirun.wait().has_value()) << mpirun.err();
    ASSERT_TRUE(measuring) << "no intervals in two minutes\n" << mpirun.err();

    const auto json = nlohmann::json::parse(readFile(dir() / "r.json"));
    EXPECT_TRUE(json.at("stoppedByUser").get<bool>());
    ASSERT_EQ(json.at("hosts").size(), 4u);
    ASSERT_EQ(json.at("steps").size(), 1u);
    for (const auto &h : hostScopes(json["steps"][0]))
        EXPECT_GT(h.at("read").at("ios").get<std::uint64_t>(), 0u) << h.at("label");
}

} // namespace
