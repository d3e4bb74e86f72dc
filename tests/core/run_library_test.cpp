// SPDX-License-Identifier: GPL-3.0-or-later
// The run library (core/library/run_library.h) in a temporary folder: saving under
// unique ids, listing with headlines, a damaged file among good ones, metadata in the
// sidecar, deleting, and ids that must not name other folders.
#include "core/library/run_library.h"
#include "core/report/results_json.h"
#include "support/test_support.h"

#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

using namespace ioprism::core;
using ioprism::test::readFile;
using namespace std::chrono_literals;
using ioprism::test::TempDir;
using testing::HasSubstr;

namespace {

// A small finished run: one step that read 1000 x 4 KiB in 1 s.
RunResult smallRun(std::string description, std::chrono::sys_seconds startedAt)
{
    RunResult r;
    r.plan.profile.setup.description = std::move(description);
    r.startedAt = startedAt;
    r.environment.toolVersion = "0.1.0";
    r.environment.engine = "null";
    Measurement m;
    for (int i = 0; i < 1000; ++i)
        m.read.histogram.record(100'000 + i);
    m.read.bytes = 1000 * 4096;
    m.read.minNs = 100'000;
    m.read.maxNs = 100'999;
    m.elapsed = 1s;
    StepResult step;
    step.stepName = "4K read";
    step.measuredSeconds = 1;
    step.scopes.push_back({Scope {Scope::Kind::All, -1, -1, "All", {}}, m, computeFigures(m)});
    r.steps.push_back(step);
    return r;
}

std::chrono::sys_seconds at(int hour, int minute)
{
    return std::chrono::sys_days {std::chrono::year {2024} / 5 / 1} + std::chrono::hours {hour}
    + std::chrono::minutes {minute};
}

std::string save(const RunLibrary &library, const RunResult &r)
{
    auto id = library.save(r, writeResultsJson(r, r.environment));
    EXPECT_TRUE(id.ok()) << (id.ok() ? "" : id.error().toString());
    return id.ok() ? *id : std::string();
}

} // namespace

TEST(RunLibrary, SavesUnderTheStartTimeAndANameAndKeepsTheTextAsWritten)
{
    TempDir dir;
    const RunLibrary library(dir.path() / "runs"); // created on the first save
    const RunResult r = smallRun("4K Random Read (QD 32)", at(12, 30));
    const std::string text = writeResultsJson(r, r.environment);
    const auto id = library.save(r, text);
    ASSERT_TRUE(id.ok()) << id.error().toString();
    EXPECT_EQ(*id, "20240501-123000-4k-random-read-qd-32");
    EXPECT_EQ(readFile(dir.path() / "runs" / (*id + ".json")), text);
    // Nothing else is left in the folder (the temporary file is gone).
    std::size_t files = 0;
    for (const auto &entry : std::filesystem::directory_iterator(dir.path() / "runs")) {
        (void)entry;
        ++files;
    }
    EXPECT_EQ(files, 1u);
}

TEST(RunLibrary, TwoRunsWithTheSameNameInTheSameSecondBothStay)
{
    TempDir dir;
    const RunLibrary library(dir.path());
    const RunResult r = smallRun("same", at(1, 2));
    const std::string first = save(library, r);
    const std::string second = save(library, r);
    EXPECT_EQ(first, "20240501-010200-same");
    EXPECT_EQ(second, "20240501-010200-same-2");
    EXPECT_EQ(library.list().size(), 2u);
}

TEST(RunLibrary, ListsOldestFirstWithHeadlinesAndADamagedFileAmongThem)
{
    TempDir dir;
    const RunLibrary library(dir.path());
    RunResult failed = smallRun("later", at(14, 0));
    failed.error = makeOpError(5, "read", "/dev/sdz");
    save(library, failed);
    save(library, smallRun("earlier", at(9, 0)));
    // A file cut short, as a crash of another tool or a full disk would leave it.
    const std::string text = writeResultsJson(smallRun("cut", at(10, 0)), {});
    std::ofstream(dir.path() / "20240501-100000-cut.json", std::ios::binary)
        << text.substr(0, text.size() / 2);

    const auto runs = library.list();
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[0].headline.profileName, "earlier");
    EXPECT_EQ(runs[0].headline.outcome, RunOutcome::Complete);
    EXPECT_DOUBLE_EQ(runs[0].headline.iops, 1000.0);
    EXPECT_TRUE(runs[1].damaged);
    EXPECT_THAT(runs[1].damage, HasSubstr("truncated"));
    EXPECT_EQ(runs[2].headline.profileName, "later");
    EXPECT_EQ(runs[2].headline.outcome, RunOutcome::Failed);
    EXPECT_THAT(runs[2].headline.error, HasSubstr("read /dev/sdz"));
}

TEST(RunLibrary, ListingAgainReadsOnlyTheFilesItHasNotSeen)
{
    TempDir dir;
    const RunLibrary library(dir.path());
    save(library, smallRun("first", at(10, 0)));
    const auto listed = library.list();
    ASSERT_EQ(listed.size(), 1u);
    // Overwrite the first file with garbage of the same size: a listing that reuses what
    // it knew does not read it again; a fresh one does, and finds it damaged.
    const auto path = listed[0].path;
    const std::string garbage(listed[0].fileBytes, 'x');
    std::ofstream(path, std::ios::binary | std::ios::trunc) << garbage;
    save(library, smallRun("second", at(11, 0)));
    const auto again = library.list(listed);
    ASSERT_EQ(again.size(), 2u);
    EXPECT_FALSE(again[0].damaged) << "known, not read again";
    EXPECT_EQ(again[0].headline.profileName, "first");
    EXPECT_FALSE(again[1].damaged);
    EXPECT_EQ(again[1].headline.profileName, "second") << "the new one is read";
    const auto fresh = library.list();
    EXPECT_TRUE(fresh[0].damaged || fresh[1].damaged);
}

TEST(RunLibrary, MetadataLivesInASidecarAndLeavesTheResultsAlone)
{
    TempDir dir;
    const RunLibrary library(dir.path());
    const RunResult r = smallRun("meta", at(3, 0));
    const std::string id = save(library, r);
    const std::string before = readFile(dir.path() / (id + ".json"));

    RunMetadata m {"baseline", "before the firmware update", {"nvme", "lab"}};
    ASSERT_TRUE(library.setMetadata(id, m).ok());
    const auto read = library.metadata(id);
    ASSERT_TRUE(read.ok());
    EXPECT_EQ(*read, m);
    EXPECT_EQ(library.list().front().metadata, m);
    EXPECT_EQ(readFile(dir.path() / (id + ".json")), before);

    // A damaged sidecar is reported and ignored; the run is still listed.
    std::ofstream(dir.path() / (id + ".meta.json"), std::ios::binary) << "{\"format\": 3";
    const auto runs = library.list();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_FALSE(runs[0].damaged);
    EXPECT_THAT(runs[0].metadataDamage, HasSubstr("not a JSON object"));
    EXPECT_EQ(runs[0].metadata, RunMetadata {});

    EXPECT_FALSE(library.setMetadata("no-such-run", m).ok());
}

TEST(RunLibrary, DeleteRemovesTheRunAndItsSidecar)
{
    TempDir dir;
    const RunLibrary library(dir.path());
    const std::string keep = save(library, smallRun("keep", at(4, 0)));
    const std::string gone = save(library, smallRun("gone", at(5, 0)));
    ASSERT_TRUE(library.setMetadata(gone, {"x", "", {}}).ok());
    ASSERT_TRUE(library.remove(gone).ok());
    EXPECT_FALSE(std::filesystem::exists(dir.path() / (gone + ".json")));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / (gone + ".meta.json")));
    const auto runs = library.list();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].id, keep);
    EXPECT_FALSE(library.remove(gone).ok());
}

TEST(RunLibrary, FindsARunByIdOrUniquePrefixAndRefusesPaths)
{
    TempDir dir;
    const RunLibrary library(dir.path());
    const std::string a = save(library, smallRun("alpha", at(6, 0)));
    save(library, smallRun("beta", at(6, 0)));
    ASSERT_TRUE(library.find(a).ok());
    EXPECT_EQ(library.find(a)->filename().string(), a + ".json");
    EXPECT_TRUE(library.find("20240501-060000-b").ok());
    const auto ambiguous = library.find("20240501-0600");
    ASSERT_FALSE(ambiguous.ok());
    EXPECT_THAT(ambiguous.error().toString(), HasSubstr("matches 2 runs"));
    EXPECT_FALSE(library.find("../etc/passwd").ok());
    EXPECT_FALSE(library.find("nothing").ok());
}
