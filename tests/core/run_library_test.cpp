// SPDX-License-Identifier: GPL-3.0-or-later
// The run library (core/library/run_library.h) in a temporary folder: saving under
// unique ids, listing with headlines, a damaged file among good ones, metadata in the
// sidecar, deleting, and ids that must not name other folders.
#include "core/library/headline_cache.h"
#include "core/library/run_library.h"
#include "core/report/results_json.h"
#include "platform/common/input_file_reader.h"
#include "support/test_support.h"

#include <chrono>
#include <cmath>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
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
    const RunLibrary library(
        dir.path() / "runs", ioprism::platform::readInputFile); // created on the first save
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
    const RunLibrary library(dir.path(), ioprism::platform::readInputFile);
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
    const RunLibrary library(dir.path(), ioprism::platform::readInputFile);
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

// A run listed, then deleted before it is read, is not "No such file or directory".
TEST(RunLibrary, AFileThatCannotBeReadSaysWhatHappened)
{
    TempDir dir;
    int calls = 0;
    const RunLibrary vanishing(dir.path(),
        [&](const std::filesystem::path &path, std::uint64_t max, std::string_view kind) {
            if (path.extension() == ".json" && path.filename().string()[0] != '.' && ++calls == 1)
                std::filesystem::remove(path);
            return ioprism::platform::readInputFile(path, max, kind);
        });
    save(vanishing, smallRun("soon gone", at(9, 0)));
    const auto runs = vanishing.list();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_TRUE(runs[0].unreadable);
    EXPECT_EQ(runs[0].damage, "vanished: it was deleted while the library was being listed");

    const RunLibrary refusing(
        dir.path(), [](const std::filesystem::path &, std::uint64_t, std::string_view) {
            return InputFileText {{},
                Problem {Severity::Error, {}, "cannot read x: Permission denied"},
                InputFileFailure::PermissionDenied};
        });
    save(refusing, smallRun("closed", at(9, 0)));
    const auto closed = refusing.list();
    ASSERT_EQ(closed.size(), 1u);
    EXPECT_EQ(closed[0].damage, "permission denied");
}

TEST(RunLibrary, ListingAgainReadsOnlyTheFilesItHasNotSeen)
{
    TempDir dir;
    const RunLibrary library(dir.path(), ioprism::platform::readInputFile);
    save(library, smallRun("first", at(10, 0)));
    const auto listed = library.list();
    ASSERT_EQ(listed.size(), 1u);
    // Overwrite the first file with garbage of the same size (and a later time, which the
    // headline cache would notice): a listing that reuses what it knew does not read it
    // again; a fresh one does, and finds it damaged.
    const auto path = listed[0].path;
    const auto time = std::filesystem::last_write_time(path);
    const std::string garbage(listed[0].fileBytes, 'x');
    std::ofstream(path, std::ios::binary | std::ios::trunc) << garbage;
    std::filesystem::last_write_time(path, time + 2s);
    save(library, smallRun("second", at(11, 0)));
    ListingStats stats;
    const auto again = library.list(listed, &stats);
    EXPECT_EQ(stats.fromKnown, 1u);
    EXPECT_EQ(stats.filesRead, 1u);
    ASSERT_EQ(again.size(), 2u);
    EXPECT_FALSE(again[0].damaged) << "known, not read again";
    EXPECT_EQ(again[0].headline.profileName, "first");
    EXPECT_FALSE(again[1].damaged);
    EXPECT_EQ(again[1].headline.profileName, "second") << "the new one is read";
    const auto fresh = library.list();
    EXPECT_TRUE(fresh[0].damaged || fresh[1].damaged);
}

// `history` (a new process each time) lists from the folder's headline cache: the second
// listing reads no results file, and a file that changed is read again.
TEST(RunLibrary, TheHeadlineCacheSparesTheSecondListingItsReads)
{
    TempDir dir;
    const RunLibrary library(dir.path(), ioprism::platform::readInputFile);
    RunResult failed = smallRun("failed", at(8, 0));
    failed.error = makeOpError(5, "read", "/dev/sdz");
    save(library, failed);
    save(library, smallRun("first", at(9, 0)));
    save(library, smallRun("second", at(10, 0)));
    const std::string text = writeResultsJson(smallRun("cut", at(11, 0)), {});
    std::ofstream(dir.path() / "20240501-110000-cut.json", std::ios::binary)
        << text.substr(0, text.size() / 2);

    ListingStats stats;
    const auto first = library.list({}, &stats);
    EXPECT_EQ(stats.filesRead, 4u);
    EXPECT_EQ(stats.fromCache, 0u);
    EXPECT_TRUE(stats.cacheWritten);
    EXPECT_TRUE(std::filesystem::exists(dir.path() / ".headlines.json"));

    const auto second = library.list({}, &stats);
    EXPECT_EQ(stats.filesRead, 0u);
    EXPECT_EQ(stats.fromCache, 4u);
    EXPECT_FALSE(stats.cacheWritten) << "nothing changed";
    ASSERT_EQ(second.size(), first.size());
    for (std::size_t i = 0; i < first.size(); ++i) {
        EXPECT_EQ(second[i].id, first[i].id);
        EXPECT_EQ(second[i].damaged, first[i].damaged);
        EXPECT_EQ(second[i].damage, first[i].damage);
        const ResultsHeadline &a = first[i].headline, &b = second[i].headline;
        EXPECT_EQ(b.startedAt, a.startedAt);
        EXPECT_EQ(b.profileName, a.profileName);
        EXPECT_EQ(b.targets, a.targets);
        EXPECT_EQ(b.engine, a.engine);
        EXPECT_EQ(b.toolVersion, a.toolVersion);
        EXPECT_EQ(std::isnan(b.iops), std::isnan(a.iops));
        if (!std::isnan(a.iops)) {
            EXPECT_EQ(b.iops, a.iops); // exactly
        }
        EXPECT_EQ(b.p99LatencyUs, a.p99LatencyUs);
        EXPECT_EQ(b.verdict, a.verdict);
        EXPECT_EQ(b.outcome, a.outcome);
        EXPECT_EQ(b.error, a.error);
        EXPECT_EQ(b.steps, a.steps);
    }
    EXPECT_EQ(second[0].headline.outcome, RunOutcome::Failed);
    EXPECT_THAT(second[3].damage, HasSubstr("truncated"));

    // The proof that a listing does not read what the cache has: garbage in place of
    // "first", at its size and time, still lists as "first".
    const auto firstPath = second[1].path;
    const auto time = std::filesystem::last_write_time(firstPath);
    const std::string garbage(second[1].fileBytes, 'x');
    std::ofstream(firstPath, std::ios::binary | std::ios::trunc) << garbage;
    std::filesystem::last_write_time(firstPath, time);
    auto runs = library.list({}, &stats);
    EXPECT_EQ(stats.filesRead, 0u);
    EXPECT_FALSE(runs[1].damaged);
    EXPECT_EQ(runs[1].headline.profileName, "first");

    // A file whose time changed is read again (and is now garbage); so is one whose size
    // changed (the cut file completed); the others still come from the cache.
    std::filesystem::last_write_time(firstPath, time + 2s);
    std::ofstream(dir.path() / "20240501-110000-cut.json", std::ios::binary | std::ios::trunc)
        << text;
    runs = library.list({}, &stats);
    EXPECT_EQ(stats.filesRead, 2u);
    EXPECT_EQ(stats.fromCache, 2u);
    EXPECT_TRUE(stats.cacheWritten);
    ASSERT_EQ(runs.size(), 4u);
    const auto byId = [&](const std::string &id) {
        for (const auto &r : runs)
            if (r.id == id)
                return r;
        return RunHeadline {};
    };
    EXPECT_TRUE(byId(firstPath.stem().string()).damaged);
    EXPECT_FALSE(byId("20240501-110000-cut").damaged);
    EXPECT_EQ(byId("20240501-110000-cut").headline.profileName, "cut");

    // A run deleted: the cache forgets it; nothing is read.
    ASSERT_TRUE(library.remove("20240501-100000-second").ok());
    runs = library.list({}, &stats);
    EXPECT_EQ(runs.size(), 3u);
    EXPECT_EQ(stats.filesRead, 0u);
    EXPECT_TRUE(stats.cacheWritten);
    const std::string cache = readFile(dir.path() / ".headlines.json");
    EXPECT_EQ(cache.find("20240501-100000-second"), std::string::npos);
}

// Issue 24: a version 1 cache holds the whole run's average as a headline's figures; its
// entries, whole as they are, are not shown again but read from their files.
TEST(RunLibrary, AVersionOneCacheOfAveragesIsReadAgain)
{
    TempDir dir;
    const RunLibrary library(dir.path(), ioprism::platform::readInputFile);
    save(library, smallRun("first", at(9, 0)));
    ListingStats stats;
    const double iops = library.list({}, &stats)[0].headline.iops;
    ASSERT_TRUE(stats.cacheWritten);
    const auto cachePath = dir.path() / ".headlines.json";
    auto doc = nlohmann::json::parse(readFile(cachePath));
    doc["version"] = 1;
    for (auto &[file, entry] : doc["runs"].items()) {
        entry["headline"].erase("figure_step");
        entry["headline"].erase("figure_step_name");
        entry["headline"]["iops"] = 11136;
    }
    std::ofstream(cachePath, std::ios::binary | std::ios::trunc) << doc.dump();
    const auto runs = library.list({}, &stats);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(stats.filesRead, 1u);
    EXPECT_EQ(runs[0].headline.iops, iops);
    EXPECT_TRUE(runs[0].headline.figureStep);
}

TEST(RunLibrary, ADamagedCacheIsIgnoredAndRebuilt)
{
    TempDir dir;
    const RunLibrary library(dir.path(), ioprism::platform::readInputFile);
    save(library, smallRun("first", at(9, 0)));
    save(library, smallRun("second", at(10, 0)));
    ListingStats stats;
    library.list({}, &stats);
    ASSERT_TRUE(stats.cacheWritten);
    const auto cachePath = dir.path() / ".headlines.json";
    const std::string good = readFile(cachePath);

    for (const std::string &damaged : {std::string("not json"), good.substr(0, good.size() / 2),
             std::string(R"({"format": "ioprism-headline-cache", "version": 99, "runs": {}})"),
             std::string(R"({"format": "ioprism-headline-cache", "version": 1, "runs": []})")}) {
        std::ofstream(cachePath, std::ios::binary | std::ios::trunc) << damaged;
        const auto runs = library.list({}, &stats);
        ASSERT_EQ(runs.size(), 2u) << damaged;
        EXPECT_FALSE(runs[0].damaged);
        EXPECT_EQ(runs[1].headline.profileName, "second");
        EXPECT_EQ(stats.filesRead, 2u) << damaged;
        EXPECT_TRUE(stats.cacheWritten) << damaged;
        library.list({}, &stats);
        EXPECT_EQ(stats.fromCache, 2u) << "rebuilt";
    }

    // One entry of the wrong shape: that run alone is read again.
    auto doc = nlohmann::json::parse(good);
    const std::string firstFile = doc["runs"].begin().key();
    doc["runs"][firstFile]["headline"]["iops"] = "fast";
    doc["runs"][firstFile]["headline"]["outcome"] = "exploded";
    std::ofstream(cachePath, std::ios::binary | std::ios::trunc) << doc.dump();
    library.list({}, &stats);
    EXPECT_EQ(stats.filesRead, 1u);
    EXPECT_EQ(stats.fromCache, 1u);

    // A cache that cannot be written (here a folder in its place) costs the reads only.
    std::filesystem::remove(cachePath);
    std::filesystem::create_directory(cachePath);
    const auto runs = library.list({}, &stats);
    EXPECT_EQ(runs.size(), 2u);
    EXPECT_EQ(stats.filesRead, 2u);
    EXPECT_FALSE(stats.cacheWritten);
    EXPECT_EQ(runs[0].headline.profileName, "first");
}

TEST(HeadlineCache, WritesAndReadsEveryFieldOfAHeadline)
{
    HeadlineCache cache;
    CachedHeadline e;
    e.fileBytes = 123456;
    e.modified = -42; // before the file clock's epoch: any value is a key
    e.headline.startedAt
        = std::chrono::system_clock::time_point(std::chrono::milliseconds(1714566615250));
    e.headline.profileName = "caf\xc3\xa9 \"quoted\"";
    e.headline.targets = {"/dev/loop0", "/var/tmp/a,b.dat"};
    e.headline.deviceModels = {"loop: /img", ""};
    e.headline.engine = "io_uring";
    e.headline.toolVersion = "0.1.0";
    e.headline.iops = 1.0 / 3.0;
    e.headline.megabytesPerSecond = std::numeric_limits<double>::quiet_NaN();
    e.headline.meanLatencyUs = 191035.31746031746;
    e.headline.p99LatencyUs = 12e6;
    e.headline.verdict = Verdict::WriteBackPending;
    e.headline.outcome = RunOutcome::Stopped;
    e.headline.error = "";
    e.headline.steps = 7;
    cache["a.json"] = e;
    CachedHeadline d;
    d.fileBytes = 10;
    d.modified = 99;
    d.damaged = true;
    d.damage = "truncated: ...";
    cache["b.json"] = d;

    const HeadlineCache read = readHeadlineCache(writeHeadlineCache(cache));
    ASSERT_EQ(read.size(), 2u);
    const CachedHeadline &a = read.at("a.json");
    EXPECT_EQ(a.fileBytes, 123456u);
    EXPECT_EQ(a.modified, -42);
    EXPECT_FALSE(a.damaged);
    EXPECT_EQ(a.headline.startedAt, e.headline.startedAt);
    EXPECT_EQ(a.headline.profileName, e.headline.profileName);
    EXPECT_EQ(a.headline.targets, e.headline.targets);
    EXPECT_EQ(a.headline.deviceModels, e.headline.deviceModels);
    EXPECT_EQ(a.headline.iops, 1.0 / 3.0);
    EXPECT_TRUE(std::isnan(a.headline.megabytesPerSecond));
    EXPECT_EQ(a.headline.meanLatencyUs, 191035.31746031746);
    EXPECT_EQ(a.headline.verdict, Verdict::WriteBackPending);
    EXPECT_EQ(a.headline.outcome, RunOutcome::Stopped);
    EXPECT_EQ(a.headline.steps, 7u);
    EXPECT_TRUE(read.at("b.json").damaged);
    EXPECT_EQ(read.at("b.json").damage, "truncated: ...");
}

TEST(RunLibrary, MetadataLivesInASidecarAndLeavesTheResultsAlone)
{
    TempDir dir;
    const RunLibrary library(dir.path(), ioprism::platform::readInputFile);
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
    const RunLibrary library(dir.path(), ioprism::platform::readInputFile);
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
    const RunLibrary library(dir.path(), ioprism::platform::readInputFile);
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
