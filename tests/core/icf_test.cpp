// SPDX-License-Identifier: GPL-3.0-or-later
// Iometer .icf import/export.
//
// Fixtures (tests/fixtures/icf) are hand-written inputs; goldens (tests/golden/icf) are
// the exports expected from them. To regenerate the goldens after an intended change of
// the writer, run scripts/update-golden.sh (docs/testing.md), then review the diff of
// tests/golden/icf before committing it.
#include "core/profile/icf.h"
#include "support/test_support.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ioprism::core;
using namespace std::chrono_literals;

namespace {

const std::vector<std::string> kFixtures = {
    "reference.icf",
    "reference-crlf.icf",
    "full-1.1.0.icf",
    "old-2006.icf",
    "odd-spacing.icf",
};

std::filesystem::path fixturePath(const std::string &name)
{
    return ioprism::test::sourceDir() / "tests" / "fixtures" / "icf" / name;
}

std::filesystem::path goldenPath(const std::string &name)
{
    return ioprism::test::sourceDir() / "tests" / "golden" / "icf" / name;
}

std::string icfFixture(const std::string &name)
{
    return ioprism::test::readExistingFile(fixturePath(name));
}

std::string describe(const Problems &problems)
{
    std::string out;
    for (const auto &p : problems)
        out += (p.severity == Severity::Error ? "error: " : "warning: ") + p.toString() + "\n";
    return out;
}

std::vector<Problem> withSeverity(const Problems &problems, Severity s)
{
    std::vector<Problem> out;
    std::copy_if(problems.begin(), problems.end(), std::back_inserter(out),
        [s](const Problem &p) { return p.severity == s; });
    return out;
}

// Parses text that must be valid; the problems (warnings) go to `problems`.
Profile parseValid(const std::string &text, Problems &problems)
{
    auto profile = parseIcf(text, problems);
    EXPECT_TRUE(profile.has_value()) << describe(problems);
    EXPECT_FALSE(hasErrors(problems)) << describe(problems);
    return profile.value_or(Profile {});
}

Profile parseValid(const std::string &text)
{
    Problems problems;
    return parseValid(text, problems);
}

std::vector<std::string> splitLines(const std::string &text)
{
    std::vector<std::string> lines;
    std::string line;
    std::istringstream in(text);
    while (std::getline(in, line))
        lines.push_back(line);
    return lines;
}

std::string joinLines(const std::vector<std::string> &lines)
{
    std::string out;
    for (const auto &l : lines)
        out += l + "\n";
    return out;
}

// The reference example with line `number` (1-based) replaced.
std::string withLine(std::size_t number, const std::string &replacement)
{
    auto lines = splitLines(icfFixture("reference.icf"));
    lines.at(number - 1) = replacement;
    return joinLines(lines);
}

std::string replaceAll(std::string text, const std::string &from, const std::string &to)
{
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

// A profile using only what an .icf file can carry.
Profile representableProfile()
{
    Profile p;
    p.setup.description = "made in IOPrism";
    p.setup.runTime = 2h + 3min + 4s;
    p.setup.rampUp = 10s;
    p.setup.defaultDiskWorkers = 2;
    p.setup.defaultNetworkWorkers = 1;
    p.setup.recordFilter = RecordFilter::NoTargetsNoWorkers;
    p.setup.workerCycling = {.start = 1, .step = 2, .end = 1, .stepType = StepType::Exponential};
    p.setup.targetCycling = {.start = 2, .step = 1, .end = 1, .stepType = StepType::Linear};
    p.setup.queueDepthCycling
        = {.start = 1, .step = 2, .end = 128, .stepType = StepType::Exponential};
    p.setup.testType = TestType::IncrementTargetsSerial;
    p.icfResultsDisplay = {"'Bar chart 1 statistic", "Total I/Os per Second"};

    AccessSpec db {.name = "Database", .defaultAssignment = SpecAssignment::Disk};
    db.lines.push_back({.transferSizeBytes = 8192, .alignmentBytes = 0});
    AccessSpec mixed {.name = "Mixed", .defaultAssignment = SpecAssignment::All};
    mixed.lines.push_back({.transferSizeBytes = 4096,
        .sharePercent = 60,
        .percentRead = 100,
        .percentRandom = 0,
        .delay = 5ms,
        .burstLength = 4,
        .alignmentBytes = 4096});
    mixed.lines.push_back({.transferSizeBytes = 131072,
        .sharePercent = 40,
        .percentRead = 0,
        .percentRandom = 0,
        .alignmentBytes = 0,
        .replySizeBytes = 1024});
    p.specs = {db, mixed};

    const Region region {.offsetBytes = 512 * 1000, .sizeBytes = 512 * 2000};
    Worker w1 {.name = "Worker 1", .type = WorkerType::Disk};
    w1.targets.push_back({.kind = TargetKind::TestFile,
        .path = "E: \"Data\"",
        .region = region,
        .testFileSizeBytes = region.offsetBytes + region.sizeBytes});
    w1.targets.push_back(
        {.kind = TargetKind::PhysicalDrive, .path = "PHYSICALDRIVE:3", .region = region});
    w1.outstandingIos = 32;
    w1.assignedSpecs = {"Database", "Mixed"};
    w1.seed = 1234;
    w1.dataPattern.kind = DataPatternKind::RepeatingBytes;
    w1.defaultRegion = region;

    Worker w2 {.name = "Worker 2", .type = WorkerType::Network};
    w2.testConnectionRate = true;
    w2.transactionsPerConnection = 10;
    w2.dataPattern.kind = DataPatternKind::PseudoRandom; // what import gives network workers
    w2.assignedSpecs = {"Mixed"};

    Worker w3 {.name = "Worker 1", .type = WorkerType::Disk};
    w3.targets.push_back({.kind = TargetKind::BlockDevice, .path = "/dev/sdb"});
    w3.outstandingIos = 4;
    w3.assignedSpecs = {"Database"};

    p.hosts.push_back(
        {.id = 1, .name = "bench01", .networkAddress = "192.168.1.10", .workers = {w1, w2}});
    p.hosts.push_back(
        {.id = 2, .name = "bench01", .networkAddress = "192.168.1.11", .workers = {w3}});
    return p;
}

// The representable profile plus every IOPrism extension an .icf file cannot carry.
Profile extendedProfile()
{
    Profile p = representableProfile();
    p.setup.description = "two\nlines";
    p.setup.interval = 250ms;
    p.setup.recordFilter = RecordFilter::NoWorkers;
    p.setup.workerCycling.end = 8;
    SpecLine &line = p.specs[0].lines[0];
    line.distribution.kind = DistributionKind::Zipf;
    line.rateLimit.iops = 5000;
    line.thinkTime = 100us;
    line.dataPattern = DataPattern {.kind = DataPatternKind::Zeros};
    p.specs[1].name = "Mixed, 60/40";
    p.specs[1].queueDepth = 32;
    p.specs[1].threads = 4;
    Worker &w1 = p.hosts[0].workers[0];
    w1.assignedSpecs[1] = "Mixed, 60/40";
    w1.cpuAffinity = {0, 1};
    w1.dataPattern.kind = DataPatternKind::Compressible;
    w1.targets[0].cacheMode = CacheMode::Buffered;
    w1.targets[0].writeThrough = true;
    w1.targets[0].outstandingIos = 64;
    w1.targets[0].testFileSizeBytes = 10 * kGiB;
    w1.targets[1].region = {.offsetBytes = 0, .sizeBytes = 4096};
    Worker &w2 = p.hosts[0].workers[1];
    w2.assignedSpecs = {"Mixed, 60/40"};
    w2.targets.push_back({.kind = TargetKind::BlockDevice, .path = "sdz"});
    Worker &w3 = p.hosts[1].workers[0];
    w3.defaultRegion = {.offsetBytes = 100, .sizeBytes = 1000};
    w3.targets[0].region = w3.defaultRegion;
    w3.targets.push_back({.kind = TargetKind::TestFile,
        .path = "/data/ioprism.tst",
        .region = w3.defaultRegion,
        .testFileSizeBytes = 1100});
    w3.targets.push_back({.kind = TargetKind::BlockDevice,
        .path = "\\\\.\\PhysicalDrive2",
        .region = w3.defaultRegion});
    return p;
}

} // namespace

// ------------------------------------------------------------------ import

TEST(IcfImport, ReferenceExampleFieldByField)
{
    Problems problems;
    const Profile p = parseValid(icfFixture("reference.icf"), problems);
    EXPECT_TRUE(problems.empty()) << describe(problems);

    EXPECT_EQ(p.setup.description, "nightly flash check");
    EXPECT_EQ(p.setup.runTime, 90s);
    EXPECT_EQ(p.setup.rampUp, 5s);
    EXPECT_EQ(p.setup.defaultDiskWorkers, std::nullopt); // NUMBER_OF_CPUS
    EXPECT_EQ(p.setup.defaultNetworkWorkers, 0u);
    EXPECT_EQ(p.setup.recordFilter, RecordFilter::All);
    EXPECT_EQ(p.setup.workerCycling, (Cycling {1, 1, 1, StepType::Linear}));
    EXPECT_EQ(p.setup.targetCycling, (Cycling {1, 1, 1, StepType::Linear}));
    EXPECT_EQ(p.setup.queueDepthCycling,
        (Cycling {.start = 1, .step = 2, .end = 64, .stepType = StepType::Exponential}));
    EXPECT_EQ(p.setup.testType, TestType::CycleOutstandingIos);
    EXPECT_EQ(p.setup.interval, TestSetup {}.interval);

    EXPECT_EQ(p.icfResultsDisplay,
        (std::vector<std::string> {"'Record Last Update Results,Update Frequency,Update Type",
            "ENABLED,2,WHOLE_TEST", "'Bar chart 1 statistic", "Total I/Os per Second"}));

    ASSERT_EQ(p.specs.size(), 1u);
    const AccessSpec &spec = p.specs[0];
    EXPECT_EQ(spec.name, "OLTP mix");
    EXPECT_EQ(spec.defaultAssignment, SpecAssignment::None);
    EXPECT_EQ(spec.queueDepth, std::nullopt);
    ASSERT_EQ(spec.lines.size(), 2u);
    const SpecLine &a = spec.lines[0];
    EXPECT_EQ(a.transferSizeBytes, 8192u);
    EXPECT_EQ(a.sharePercent, 70u);
    EXPECT_EQ(a.percentRead, 70u);
    EXPECT_EQ(a.percentRandom, 100u);
    EXPECT_EQ(a.delay, 0ms);
    EXPECT_EQ(a.burstLength, 1u);
    EXPECT_EQ(a.alignmentBytes, 8192u);
    EXPECT_EQ(a.replySizeBytes, 0u);
    EXPECT_EQ(a.distribution, RandomDistribution {});
    EXPECT_EQ(a.dataPattern, std::nullopt);
    const SpecLine &b = spec.lines[1];
    EXPECT_EQ(b.transferSizeBytes, 65536u);
    EXPECT_EQ(b.sharePercent, 30u);
    EXPECT_EQ(b.percentRead, 0u);
    EXPECT_EQ(b.percentRandom, 0u);
    EXPECT_EQ(b.alignmentBytes, 0u); // 0 = sector boundaries, kept as 0

    ASSERT_EQ(p.hosts.size(), 1u);
    const Host &host = p.hosts[0];
    EXPECT_EQ(host.id, 1u);
    EXPECT_EQ(host.name, "storage-lab-01");
    EXPECT_EQ(host.networkAddress, "");
    ASSERT_EQ(host.workers.size(), 1u);
    const Worker &w = host.workers[0];
    EXPECT_EQ(w.name, "Worker 1");
    EXPECT_EQ(w.type, WorkerType::Disk);
    EXPECT_EQ(w.outstandingIos, 8u);
    EXPECT_FALSE(w.testConnectionRate);
    EXPECT_EQ(w.transactionsPerConnection, 1u);
    EXPECT_EQ(w.seed, std::optional<std::uint64_t>(42));
    EXPECT_EQ(w.defaultRegion, (Region {.offsetBytes = 0, .sizeBytes = 2097152ull * 512}));
    EXPECT_EQ(w.dataPattern.kind, DataPatternKind::FullRandom);
    EXPECT_EQ(w.assignedSpecs, std::vector<std::string> {"OLTP mix"});
    EXPECT_TRUE(w.cpuAffinity.empty());
    ASSERT_EQ(w.targets.size(), 1u);
    const Target &t = w.targets[0];
    EXPECT_EQ(t.path, "sdb");
    EXPECT_EQ(t.kind, TargetKind::BlockDevice);
    EXPECT_EQ(t.region, w.defaultRegion);
    EXPECT_FALSE(t.unresolved);
    EXPECT_EQ(t.outstandingIos, std::nullopt);
}

TEST(IcfImport, FullFixtureFieldByField)
{
    Problems problems;
    const Profile p = parseValid(icfFixture("full-1.1.0.icf"), problems);

    EXPECT_EQ(p.setup.description, "lab sweep, two hosts");
    EXPECT_EQ(p.setup.runTime, 1h + 2min + 3s);
    EXPECT_EQ(p.setup.rampUp, 15s);
    EXPECT_EQ(p.setup.defaultDiskWorkers, std::optional<std::uint32_t>(4));
    EXPECT_EQ(p.setup.defaultNetworkWorkers, 2u);
    EXPECT_EQ(p.setup.recordFilter, RecordFilter::NoTargets);
    EXPECT_EQ(p.setup.workerCycling, (Cycling {2, 2, 1, StepType::Exponential}));
    EXPECT_EQ(p.setup.targetCycling, (Cycling {1, 3, 1, StepType::Linear}));
    EXPECT_EQ(p.setup.queueDepthCycling,
        (Cycling {.start = 4, .step = 4, .end = 256, .stepType = StepType::Linear}));
    EXPECT_EQ(p.setup.testType, TestType::CycleWorkersAndTargets);
    EXPECT_EQ(p.icfResultsDisplay.size(), 14u);
    EXPECT_EQ(p.icfResultsDisplay.at(11), "% CPU Utilization (total)");

    ASSERT_EQ(p.specs.size(), 4u);
    EXPECT_EQ(p.specs[0].name, "Default");
    EXPECT_EQ(p.specs[0].defaultAssignment, SpecAssignment::None);
    EXPECT_EQ(p.specs[1].name, "4K; 100% Read; 0% random");
    EXPECT_EQ(p.specs[1].defaultAssignment, SpecAssignment::All);
    EXPECT_EQ(p.specs[2].name, "File server");
    EXPECT_EQ(p.specs[2].defaultAssignment, SpecAssignment::Disk);
    EXPECT_EQ(p.specs[3].name, "Bursty reply");
    EXPECT_EQ(p.specs[3].defaultAssignment, SpecAssignment::Network);
    ASSERT_EQ(p.specs[2].lines.size(), 8u);
    EXPECT_EQ(p.specs[2].lines[3].transferSizeBytes, 4096u);
    EXPECT_EQ(p.specs[2].lines[3].sharePercent, 60u);
    EXPECT_EQ(p.specs[2].lines[3].percentRead, 80u);
    const SpecLine &bursty = p.specs[3].lines.at(0);
    EXPECT_EQ(bursty.transferSizeBytes, 65536u);
    EXPECT_EQ(bursty.percentRead, 50u);
    EXPECT_EQ(bursty.percentRandom, 25u);
    EXPECT_EQ(bursty.delay, 20ms);
    EXPECT_EQ(bursty.burstLength, 8u);
    EXPECT_EQ(bursty.alignmentBytes, 4096u);
    EXPECT_EQ(bursty.replySizeBytes, 512u);

    ASSERT_EQ(p.hosts.size(), 2u);
    const Host &win = p.hosts[0];
    EXPECT_EQ(win.id, 1u);
    EXPECT_EQ(win.name, "LAB-WIN01");
    EXPECT_EQ(win.networkAddress, "10.0.0.21");
    ASSERT_EQ(win.workers.size(), 2u);
    const Worker &w1 = win.workers[0];
    EXPECT_EQ(w1.outstandingIos, 16u);
    EXPECT_EQ(w1.seed, std::nullopt);
    EXPECT_EQ(w1.defaultRegion, Region {});
    EXPECT_EQ(w1.dataPattern.kind, DataPatternKind::RepeatingBytes);
    EXPECT_EQ(
        w1.assignedSpecs, (std::vector<std::string> {"File server", "4K; 100% Read; 0% random"}));
    ASSERT_EQ(w1.targets.size(), 3u);
    EXPECT_EQ(w1.targets[0].path, "C: \"System\"");
    EXPECT_EQ(w1.targets[0].kind, TargetKind::TestFile);
    EXPECT_EQ(w1.targets[0].testFileSizeBytes, Target {}.testFileSizeBytes);
    EXPECT_EQ(w1.targets[1].path, "PHYSICALDRIVE:1");
    EXPECT_EQ(w1.targets[1].kind, TargetKind::PhysicalDrive);
    EXPECT_EQ(w1.targets[2].path, "2: \"ATA Samsung SSD 870 2B6Q\"");
    EXPECT_EQ(w1.targets[2].kind, TargetKind::PhysicalDrive);

    const Worker &w2 = win.workers[1];
    EXPECT_EQ(w2.outstandingIos, 1u);
    EXPECT_TRUE(w2.testConnectionRate);
    EXPECT_EQ(w2.transactionsPerConnection, 4u);
    EXPECT_EQ(w2.seed, std::optional<std::uint64_t>(std::numeric_limits<std::uint64_t>::max()));
    const Region region {.offsetBytes = 2048ull * 512, .sizeBytes = 8388608ull * 512};
    EXPECT_EQ(w2.defaultRegion, region);
    EXPECT_EQ(w2.dataPattern.kind, DataPatternKind::PseudoRandom);
    ASSERT_EQ(w2.targets.size(), 1u);
    EXPECT_EQ(w2.targets[0].path, "D:");
    EXPECT_EQ(w2.targets[0].kind, TargetKind::TestFile);
    EXPECT_EQ(w2.targets[0].region, region);
    EXPECT_EQ(w2.targets[0].testFileSizeBytes, region.offsetBytes + region.sizeBytes);

    const Host &lin = p.hosts[1];
    EXPECT_EQ(lin.id, 1u);
    EXPECT_EQ(lin.name, "lab-linux02");
    EXPECT_EQ(lin.networkAddress, "10.0.0.22");
    ASSERT_EQ(lin.workers.size(), 2u);
    const Worker &l1 = lin.workers[0];
    EXPECT_EQ(l1.outstandingIos, 32u);
    EXPECT_EQ(l1.seed, std::optional<std::uint64_t>(7));
    EXPECT_EQ(l1.dataPattern.kind, DataPatternKind::FullRandom);
    EXPECT_EQ(l1.assignedSpecs, (std::vector<std::string> {"Bursty reply", "Default"}));
    ASSERT_EQ(l1.targets.size(), 4u);
    const std::vector<std::pair<std::string, TargetKind>> expected = {
        {"sdb", TargetKind::BlockDevice},
        {"/dev/nvme0n1", TargetKind::BlockDevice},
        {"nvme0n1p2", TargetKind::Partition},
        {"/mnt/data [ext4]", TargetKind::TestFile},
    };
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(l1.targets[i].path, expected[i].first);
        EXPECT_EQ(l1.targets[i].kind, expected[i].second) << expected[i].first;
        EXPECT_EQ(l1.targets[i].region, (Region {0, 2097152ull * 512}));
    }
    EXPECT_EQ(l1.targets[3].testFileSizeBytes, 2097152ull * 512);

    const Worker &net = lin.workers[1];
    EXPECT_EQ(net.type, WorkerType::Network);
    EXPECT_TRUE(net.testConnectionRate);
    EXPECT_EQ(net.transactionsPerConnection, 100u);
    EXPECT_EQ(net.assignedSpecs, std::vector<std::string> {"Bursty reply"});
    EXPECT_TRUE(net.targets.empty());

    // Two things cannot be held as Iometer means them; both are said, with their line.
    ASSERT_EQ(problems.size(), 2u) << describe(problems);
    EXPECT_EQ(problems[0].severity, Severity::Warning);
    EXPECT_EQ(problems[0].path, "line 90");
    EXPECT_NE(problems[0].message.find("fill the volume"), std::string::npos);
    EXPECT_EQ(problems[1].path, "line 177");
    EXPECT_NE(problems[1].message.find("'Local network interface"), std::string::npos);
}

TEST(IcfImport, OldFormatUsesIometersOldBehaviour)
{
    Problems problems;
    const Profile p = parseValid(icfFixture("old-2006.icf"), problems);
    EXPECT_TRUE(problems.empty()) << describe(problems);

    EXPECT_EQ(p.setup.description, "legacy 2006 config");
    EXPECT_EQ(p.setup.runTime, 5min);
    EXPECT_EQ(p.setup.queueDepthCycling.end, 32u);
    EXPECT_EQ(p.icfResultsDisplay.front(), "'Update Frequency,Update Type");
    ASSERT_EQ(p.specs.size(), 1u);
    EXPECT_EQ(p.specs[0].defaultAssignment, SpecAssignment::All);
    ASSERT_EQ(p.hosts.size(), 1u);
    ASSERT_EQ(p.hosts[0].workers.size(), 2u);
    for (const Worker &w : p.hosts[0].workers) {
        // No data pattern field: Iometer then reused one random buffer; no seed field.
        EXPECT_EQ(w.dataPattern.kind, DataPatternKind::PseudoRandom) << w.name;
        EXPECT_EQ(w.seed, std::nullopt) << w.name;
        EXPECT_FALSE(w.testConnectionRate);
        EXPECT_EQ(w.transactionsPerConnection, 1u);
    }
    const Worker &w1 = p.hosts[0].workers[0];
    const Worker &w2 = p.hosts[0].workers[1];
    EXPECT_EQ(w1.outstandingIos, 4u);
    EXPECT_EQ(w1.defaultRegion, Region {});
    EXPECT_EQ(w1.targets.at(0).path, "/dev/sdc");
    EXPECT_EQ(w1.targets.at(0).kind, TargetKind::BlockDevice);
    EXPECT_EQ(w2.outstandingIos, 8u);
    EXPECT_EQ(w2.defaultRegion, (Region {.offsetBytes = 64 * 512, .sizeBytes = 1048576ull * 512}));
    EXPECT_EQ(w2.targets.at(0).path, "sdd1");
    EXPECT_EQ(w2.targets.at(0).kind, TargetKind::Partition);
    EXPECT_EQ(w2.targets.at(0).region, w2.defaultRegion);
}

TEST(IcfImport, CrlfFileReadsLikeLfFile)
{
    EXPECT_NE(icfFixture("reference-crlf.icf").find("\r\n"), std::string::npos);
    EXPECT_EQ(
        parseValid(icfFixture("reference-crlf.icf")), parseValid(icfFixture("reference.icf")));
}

TEST(IcfImport, EveryFixtureReadsTheSameWithAnyLineEnd)
{
    for (const auto &name : kFixtures) {
        SCOPED_TRACE(name);
        const std::string lf = replaceAll(icfFixture(name), "\r\n", "\n");
        const Profile expected = parseValid(lf);
        EXPECT_EQ(parseValid(replaceAll(lf, "\n", "\r\n")), expected) << "CRLF";
        EXPECT_EQ(parseValid(replaceAll(lf, "\n", "\r")), expected) << "CR";
        EXPECT_EQ(parseValid("\xEF\xBB\xBF" + lf), expected) << "UTF-8 BOM";
    }
}

TEST(IcfImport, OddSpacingAndCaseReadLikeTheReference)
{
    Problems problems;
    const Profile odd = parseValid(icfFixture("odd-spacing.icf"), problems);
    EXPECT_TRUE(problems.empty()) << describe(problems);
    EXPECT_EQ(odd, parseValid(icfFixture("reference.icf")));
}

TEST(IcfImport, TestTypeKeywordsAndLegacyNumbers)
{
    const std::vector<std::pair<std::string, TestType>> cases = {
        {"NORMAL", TestType::Normal},
        {"CYCLE_TARGETS", TestType::CycleTargets},
        {"CYCLE_WORKERS", TestType::CycleWorkers},
        {"INCREMENT_TARGETS_PARALLEL", TestType::IncrementTargetsParallel},
        {"INCREMENT_TARGETS_SERIAL", TestType::IncrementTargetsSerial},
        {"CYCLE_WORKERS_AND_TARGETS", TestType::CycleWorkersAndTargets},
        {"CYCLE_OUTSTANDING_IOS", TestType::CycleOutstandingIos},
        {"CYCLE_OUTSTANDING_IOS_AND_TARGETS", TestType::CycleOutstandingIosAndTargets},
        {"cycle_targets", TestType::CycleTargets},
        {"0", TestType::Normal},
        {"4", TestType::IncrementTargetsSerial},
        {"7", TestType::CycleOutstandingIosAndTargets},
    };
    for (const auto &[token, type] : cases) {
        SCOPED_TRACE(token);
        EXPECT_EQ(parseValid(withLine(26, "\t" + token)).setup.testType, type);
    }
}

TEST(IcfImport, RecordResultsKeywords)
{
    const std::vector<std::tuple<std::string, RecordFilter, bool>> cases = {
        {"ALL", RecordFilter::All, false},
        {"NO_TARGETS", RecordFilter::NoTargets, false},
        // Iometer's NO_WORKERS drops worker rows and with them target rows.
        {"NO_WORKERS", RecordFilter::NoTargetsNoWorkers, false},
        // Only the ALL row: nothing in IOPrism is that narrow, so it is said.
        {"NO_MANAGERS", RecordFilter::NoTargetsNoWorkers, true},
        {"NONE", RecordFilter::None, false},
        {"no_targets", RecordFilter::NoTargets, false},
        {"1", RecordFilter::NoTargets, false},
        {"4", RecordFilter::None, false},
    };
    for (const auto &[token, filter, warns] : cases) {
        SCOPED_TRACE(token);
        Problems problems;
        EXPECT_EQ(parseValid(withLine(15, "\t" + token), problems).setup.recordFilter, filter);
        EXPECT_EQ(problems.size(), warns ? 1u : 0u) << describe(problems);
    }
}

TEST(IcfImport, CyclingStepTypesAndWorkerCounts)
{
    EXPECT_EQ(parseValid(withLine(18, "\t3 5 EXPONENTIAL")).setup.workerCycling,
        (Cycling {3, 5, 1, StepType::Exponential}));
    EXPECT_EQ(parseValid(withLine(21, "\t2,4,1")).setup.targetCycling,
        (Cycling {2, 4, 1, StepType::Exponential}));
    EXPECT_EQ(parseValid(withLine(24, "\t8 8 1 0")).setup.queueDepthCycling,
        (Cycling {.start = 8, .step = 1, .end = 8, .stepType = StepType::Linear}));
    EXPECT_EQ(parseValid(withLine(11, "\t12")).setup.defaultDiskWorkers,
        std::optional<std::uint32_t>(12));
    EXPECT_EQ(
        parseValid(withLine(11, "\t0")).setup.defaultDiskWorkers, std::optional<std::uint32_t>(0));
    // Before 1999 the key had no "Disk" and 0 meant one worker per CPU.
    auto legacy = splitLines(icfFixture("reference.icf"));
    legacy[9] = "'Default Workers to Spawn";
    legacy[10] = "\t0";
    EXPECT_EQ(parseValid(joinLines(legacy)).setup.defaultDiskWorkers, std::nullopt);
}

TEST(IcfImport, LegacyAndLenientForms)
{
    // The local manager's empty address line may have been lost by an editor.
    auto lines = splitLines(icfFixture("reference.icf"));
    lines.erase(lines.begin() + 44);
    EXPECT_EQ(parseValid(joinLines(lines)).hosts.at(0).networkAddress, "");

    // "Use Random Data" instead of "Data pattern".
    lines = splitLines(icfFixture("reference.icf"));
    lines[52] = "'Disk maximum size,starting sector,Use Random Data";
    lines[53] = "\t2097152,0,0";
    EXPECT_EQ(parseValid(joinLines(lines)).hosts.at(0).workers.at(0).dataPattern.kind,
        DataPatternKind::PseudoRandom);
    lines[53] = "\t2097152,0,1";
    EXPECT_EQ(parseValid(joinLines(lines)).hosts.at(0).workers.at(0).dataPattern.kind,
        DataPatternKind::FullRandom);

    // Network worker counts of NUMBER_OF_CPUS cannot be held: 0 with a warning.
    Problems problems;
    EXPECT_EQ(
        parseValid(withLine(13, "\tNUMBER_OF_CPUS"), problems).setup.defaultNetworkWorkers, 0u);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].path, "line 13");

    // VI network workers become TCP network workers, with a warning.
    lines = splitLines(icfFixture("full-1.1.0.icf"));
    ASSERT_EQ(lines.at(171), "\tNETWORK,TCP");
    lines[171] = "\tNETWORK,VI";
    problems.clear();
    EXPECT_EQ(
        parseValid(joinLines(lines), problems).hosts.at(1).workers.at(1).type, WorkerType::Network);
    EXPECT_EQ(withSeverity(problems, Severity::Warning).size(), 3u) << describe(problems);

    // Disk settings on a network worker are an error, as in Iometer.
    lines = splitLines(icfFixture("full-1.1.0.icf"));
    lines.insert(
        lines.begin() + 175, {"'Disk maximum size,starting sector,Data pattern", "\t0,0,0"});
    problems.clear();
    EXPECT_FALSE(parseIcf(joinLines(lines), problems).has_value());
    EXPECT_EQ(withSeverity(problems, Severity::Error).at(0).toString(),
        "line 176: a NETWORK worker cannot have disk settings");
}

TEST(IcfImport, TargetKindFromIometerName)
{
    const std::vector<std::pair<std::string, TargetKind>> cases = {
        {"C:", TargetKind::TestFile},
        {"C: \"Windows\"", TargetKind::TestFile},
        {"C:Windows", TargetKind::TestFile},
        {"C:\\mnt\\disk1:backup", TargetKind::TestFile},
        {"\\\\server\\share", TargetKind::TestFile},
        {"/ [ext4]", TargetKind::TestFile},
        {"/mnt/data [xfs]", TargetKind::TestFile},
        {"/srv/ioprism.tst", TargetKind::TestFile},
        {"PHYSICALDRIVE:1", TargetKind::PhysicalDrive},
        {"physicaldrive:12", TargetKind::PhysicalDrive},
        {"1: \"ATA Samsung SSD 870 2B6Q\"", TargetKind::PhysicalDrive},
        {"\\\\.\\PhysicalDrive3", TargetKind::PhysicalDrive},
        {"\\\\.\\E:", TargetKind::Volume},
        {"sdb", TargetKind::BlockDevice},
        {"/dev/sdb", TargetKind::BlockDevice},
        {"nvme0n1", TargetKind::BlockDevice},
        {"/dev/nvme0n1", TargetKind::BlockDevice},
        {"loop0", TargetKind::BlockDevice},
        {"zram0", TargetKind::BlockDevice},
        {"dm-0", TargetKind::BlockDevice},
        {"sdb1", TargetKind::Partition},
        {"/dev/sda2", TargetKind::Partition},
        {"hdc3", TargetKind::Partition},
        {"xvda1", TargetKind::Partition},
        {"nvme0n1p2", TargetKind::Partition},
        {"mmcblk0p1", TargetKind::Partition},
    };
    for (const auto &[name, kind] : cases)
        EXPECT_EQ(icfTargetKind(name), kind) << name;
}

// Iometer's built-in "Idle" needs no definition: the worker idles at that spec index.
TEST(IcfImport, UndefinedAssignedSpecsAreKeptWithAWarningButIdleIsIometersBuiltIn)
{
    auto lines = splitLines(icfFixture("reference.icf"));
    lines.insert(lines.begin() + 57, "\tIdle");
    lines.insert(lines.begin() + 58, "\tNot here");
    Problems problems;
    const Profile p = parseValid(joinLines(lines), problems);
    EXPECT_EQ(p.hosts.at(0).workers.at(0).assignedSpecs,
        (std::vector<std::string> {"OLTP mix", "Idle", "Not here"}));
    ASSERT_EQ(problems.size(), 1u) << describe(problems);
    EXPECT_EQ(problems[0].toString(),
        "line 59: assigned access specification \"Not here\" is not defined in this file");
}

// Iometer's GetVersion takes the first three numbers of the first line, with or without
// the word "Version"; a file that opens with one closes with one.
TEST(IcfImport, AVersionLineWithoutTheWordVersionIsRead)
{
    for (const std::string version : {"1998.10.08", "1.1.0", "Iometer 2006.07.27"}) {
        auto lines = splitLines(icfFixture("reference.icf"));
        lines.front() = version;
        lines.back() = version;
        Problems problems;
        const Profile p = parseValid(joinLines(lines), problems);
        EXPECT_TRUE(problems.empty()) << version << "\n" << describe(problems);
        EXPECT_EQ(p.specs.at(0).name, "OLTP mix");

        lines.pop_back(); // opened with a version, so the closing one is missing
        problems.clear();
        EXPECT_FALSE(parseIcf(joinLines(lines), problems).has_value()) << version;
    }
    // Three numbers are needed, as GetVersion needs them.
    Problems problems;
    EXPECT_FALSE(parseIcf(withLine(1, "1998.10"), problems).has_value());
}

// Before 1998.05.21 specs had no name, alignment or reply: AccessSpecList::LoadConfigOld
// reads lines of six values and closes a spec each time the shares reach 100.
TEST(IcfImport, ThePre1998AccessSpecFormatIsReadAsIometersLoadConfigOld)
{
    auto lines = splitLines(icfFixture("reference.icf"));
    lines.front() = lines.back() = "Version 1998.02.01 ";
    lines.erase(lines.begin() + 56); // no assigned specs: old specs go to every worker
    lines.erase(lines.begin() + 34, lines.begin() + 39);
    lines.insert(lines.begin() + 34,
        {
            "'size, % of size, % reads, % random, delay, burst",
            "512 100 100 0 0 1", // line 36
            "4096 50 67 100 0 1",
            "65536 0 0 0 0 1", // 0 %: discarded
            "8192 50 0 100 0 1", "\t512\t100\t100\t0\t0\t1",
            "2048 60 0 0 0 1", // line 41: never reaches 100, dropped
        });
    Problems problems;
    const Profile p = parseValid(joinLines(lines), problems);
    ASSERT_EQ(p.specs.size(), 3u) << describe(problems);
    // SmartName for one-line specs (a second of the same name gets " 2"); NextUntitled
    // for the others.
    EXPECT_EQ(p.specs[0].name, "512 B sequential reads");
    EXPECT_EQ(p.specs[1].name, "Untitled 1");
    EXPECT_EQ(p.specs[2].name, "512 B sequential reads 2");
    ASSERT_EQ(p.specs[1].lines.size(), 2u);
    const SpecLine &l = p.specs[1].lines[0];
    EXPECT_EQ(l.transferSizeBytes, 4096u);
    EXPECT_EQ(l.sharePercent, 50u);
    EXPECT_EQ(l.percentRead, 67u);
    EXPECT_EQ(l.percentRandom, 100u);
    EXPECT_EQ(l.burstLength, 1u);
    EXPECT_EQ(l.replySizeBytes, 0u);
    // InitAccessSpecLine's alignment (2048, the default size) is never overwritten.
    EXPECT_EQ(l.alignmentBytes, 2048u);
    for (const AccessSpec &s : p.specs)
        EXPECT_EQ(s.defaultAssignment, SpecAssignment::All) << s.name;
    EXPECT_EQ(p.hosts.at(0).workers.at(0).assignedSpecs,
        (std::vector<std::string> {
            "512 B sequential reads", "Untitled 1", "512 B sequential reads 2"}));
    ASSERT_EQ(problems.size(), 2u) << describe(problems);
    EXPECT_EQ(problems[0].path, "line 38");
    EXPECT_EQ(problems[1].path, "line 41");

    // A file without a version line is told by its column line; past 100 is an error.
    lines.front() = lines.back() = "";
    problems.clear();
    EXPECT_EQ(parseValid(joinLines(lines), problems).specs.size(), 3u);
    lines[36] = "4096 60 67 100 0 1";
    problems.clear();
    EXPECT_FALSE(parseIcf(joinLines(lines), problems).has_value());
}

// Iometer finds its own Idle under that name (without case) and never runs a worker
// assigned it, whatever lines the file gives it.
TEST(IcfImport, AnIdleSpecDefinedInTheFileIsIometersBuiltInIdle)
{
    auto lines = splitLines(icfFixture("reference.icf"));
    lines.insert(lines.begin() + 57, "\tidle");
    lines.insert(lines.begin() + 39,
        {"'Access specification name,default assignment", "\tIDLE,NONE",
            "'size,% of size,% reads,% random,delay,burst,align,reply", "\t4096,100,0,0,0,1,0,0"});
    Problems problems;
    const Profile p = parseValid(joinLines(lines), problems);
    ASSERT_EQ(p.specs.size(), 1u);
    EXPECT_EQ(p.specs[0].name, "OLTP mix");
    EXPECT_EQ(
        p.hosts.at(0).workers.at(0).assignedSpecs, (std::vector<std::string> {"OLTP mix", "Idle"}));
    EXPECT_TRUE(isIdleSpec(p, p.hosts[0].workers[0].assignedSpecs[1]));
    ASSERT_EQ(problems.size(), 1u) << describe(problems);
    EXPECT_EQ(problems[0].path, "line 41");
    EXPECT_NE(problems[0].message.find("built-in Idle"), std::string::npos);
}

// A file of another kind (an executable, a picture, UTF-16 text) is said to be so once,
// not as one "unexpected line" of escaped bytes per line.
TEST(IcfMalformed, ABinaryFileIsNotAnIometerFileInOneProblem)
{
    std::string elf("\x7f"
                    "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0",
        20);
    for (int i = 0; i < 40; ++i)
        elf += "\n\x90\x0b\x05line of bytes\x01\n";
    std::string utf16("\xff\xfeV\0e\0r\0", 8);
    const std::string textWithNul = icfFixture("reference.icf").insert(200, 1, '\0');
    for (const std::string &text : {elf, utf16, textWithNul}) {
        Problems problems;
        EXPECT_FALSE(parseIcf(text, problems).has_value());
        ASSERT_EQ(problems.size(), 1u) << describe(problems);
        EXPECT_NE(problems[0].message.find("not an Iometer configuration file: binary data"),
            std::string::npos)
            << problems[0].toString();
    }
    // A DOS end mark (Ctrl-Z) ends the text, as for Iometer's text-mode stream.
    Problems problems;
    EXPECT_TRUE(parseIcf(icfFixture("reference.icf") + "\x1a\x01\x02", problems).has_value())
        << describe(problems);
}

TEST(IcfImport, NetworkTargetsAreDroppedWithAWarning)
{
    std::string text = icfFixture("full-1.1.0.icf");
    const std::string empty = "'Target assignments\n'End target assignments\n";
    ASSERT_NE(text.find(empty), std::string::npos);
    text.replace(text.find(empty), empty.size(),
        "'Target assignments\n'Target\n\t10.0.0.21\n'Target type\n\tNETWORK,TCP\n"
        "'Target manager ID, manager name\n\t1,LAB-WIN01\n'End target\n"
        "'End target assignments\n");
    Problems problems;
    const Profile p = parseValid(text, problems);
    EXPECT_TRUE(p.hosts.at(1).workers.at(1).targets.empty());
    const auto warnings = withSeverity(problems, Severity::Warning);
    ASSERT_EQ(warnings.size(), 3u) << describe(problems);
    EXPECT_EQ(warnings[2].toString(),
        "line 184: network target \"10.0.0.21\" cannot be held in "
        "an IOPrism profile; dropped");
}

// ------------------------------------------------------------------ export

TEST(IcfExport, ReferenceExampleIsReproducedExactly)
{
    Problems warnings;
    EXPECT_EQ(
        writeIcf(parseValid(icfFixture("reference.icf")), warnings), icfFixture("reference.icf"));
    EXPECT_TRUE(warnings.empty()) << describe(warnings);
}

TEST(IcfExport, GoldenFilesMatchByteForByte)
{
    std::vector<std::pair<std::string, Profile>> cases;
    for (const auto &name : kFixtures)
        cases.emplace_back(name, parseValid(icfFixture(name)));
    cases.emplace_back("representable.icf", representableProfile());
    cases.emplace_back("extensions.icf", extendedProfile());
    for (const auto &[name, profile] : cases) {
        SCOPED_TRACE(name);
        Problems warnings;
        const std::string text = writeIcf(profile, warnings);
        ioprism::test::expectGoldenFile(goldenPath(name), text);
    }
}

TEST(IcfExport, FormatIsWhatIometerWrites)
{
    Problems warnings;
    const std::string text = writeIcf(extendedProfile(), warnings);
    const auto lines = splitLines(text);
    ASSERT_GE(lines.size(), 2u);
    EXPECT_EQ(lines.front(), "Version 1.1.0 ");
    EXPECT_EQ(lines.back(), "Version 1.1.0 ");
    EXPECT_EQ(text.find('\r'), std::string::npos);
    std::vector<std::string> sections;
    for (const auto &l : lines) {
        EXPECT_FALSE(l.empty()) << "no blank lines";
        EXPECT_TRUE(l.front() == '\'' || l.front() == '\t' || l.starts_with("Version")) << l;
        if (l.find("====") != std::string::npos) {
            EXPECT_EQ(l.size(), 80u) << l;
            sections.push_back(l.substr(0, l.find(" =")));
        }
    }
    EXPECT_EQ(sections,
        (std::vector<std::string> {
            "'TEST SETUP", "'RESULTS DISPLAY", "'ACCESS SPECIFICATIONS", "'MANAGER LIST"}));
}

TEST(IcfExport, EveryTestTypeAndStepTypeIsWrittenAndReadBack)
{
    for (int i = 0; i <= static_cast<int>(TestType::CycleOutstandingIosAndTargets); ++i) {
        Profile p = representableProfile();
        p.setup.testType = static_cast<TestType>(i);
        p.setup.workerCycling.stepType = i % 2 ? StepType::Linear : StepType::Exponential;
        p.setup.queueDepthCycling.stepType = i % 2 ? StepType::Exponential : StepType::Linear;
        Problems warnings;
        const std::string text = writeIcf(p, warnings);
        EXPECT_TRUE(warnings.empty()) << describe(warnings);
        EXPECT_EQ(parseValid(text), p) << text;
    }
}

TEST(IcfExport, WarnsOncePerSettingItCannotCarry)
{
    Problems warnings;
    const std::string text = writeIcf(extendedProfile(), warnings);
    std::vector<std::string> paths;
    for (const auto &w : warnings) {
        EXPECT_EQ(w.severity, Severity::Warning);
        paths.push_back(w.path);
    }
    const std::vector<std::string> expected = {
        "setup.description",
        "setup.recordFilter",
        "setup.workerCycling.end",
        "setup.interval",
        "specs[0].lines[0].distribution",
        "specs[0].lines[0].rateLimit",
        "specs[0].lines[0].thinkTime",
        "specs[0].lines[0].dataPattern",
        "specs[1].name",
        "specs[1].queueDepth",
        "specs[1].threads",
        "hosts[0].workers[0].dataPattern",
        "hosts[0].workers[0].targets[0].testFileSizeBytes",
        "hosts[0].workers[0].targets[0].cacheMode",
        "hosts[0].workers[0].targets[0].writeThrough",
        "hosts[0].workers[0].targets[0].outstandingIos",
        "hosts[0].workers[0].targets[1].region",
        "hosts[0].workers[0].cpuAffinity",
        "hosts[0].workers[1].targets[0]",
        "hosts[1].workers[0].defaultRegion",
        "hosts[1].workers[0].targets[1].path",
        "hosts[1].workers[0].targets[2].kind",
    };
    EXPECT_EQ(paths, expected) << describe(warnings);
    // Export still succeeds, and Iometer-loadable text comes out.
    Problems problems;
    EXPECT_TRUE(parseIcf(text, problems).has_value()) << describe(problems);
}

TEST(IcfExport, WarningMessagesSayWhatHappens)
{
    Problems warnings;
    (void)writeIcf(extendedProfile(), warnings);
    const auto find = [&](const std::string &path) {
        for (const auto &w : warnings)
            if (w.path == path)
                return w.message;
        return std::string("<none>");
    };
    EXPECT_EQ(find("specs[1].name"),
        "Iometer names cannot hold commas; written as "
        "\"Mixed- 60/40\"");
    EXPECT_EQ(find("hosts[1].workers[0].defaultRegion"),
        "offset 100 and size 1000 bytes are not whole 512-byte sectors; written as "
        "sectors 0 + 3");
    EXPECT_EQ(find("hosts[1].workers[0].targets[2].kind"),
        ".icf files carry no target kind; \"\\\\\\\\.\\\\PhysicalDrive2\" will be read "
        "back as a physical drive target, not a block device one");
}

// A JSON profile may hold any character in a name; the .icf reader takes a control byte
// for a binary file. Export writes text the reader accepts (found by the JSON fuzzer: a
// DEL in a worker name made an export that did not read back).
TEST(IcfExport, ControlCharactersInNamesAreWrittenAsSpaces)
{
    Profile profile = extendedProfile();
    profile.setup.description = std::string("desk\x7f\x1a top");
    profile.hosts[0].workers[0].name = std::string("Worker\x01\x7f"
                                                   "1");
    Problems warnings;
    const std::string text = writeIcf(profile, warnings);
    EXPECT_EQ(text.find('\x7f'), std::string::npos);
    EXPECT_EQ(text.find('\x1a'), std::string::npos);
    EXPECT_EQ(text.find('\x01'), std::string::npos);
    const auto warned = [&](const std::string &path) {
        return std::any_of(warnings.begin(), warnings.end(), [&](const Problem &w) {
            return w.path == path
                && w.message
                == "control characters replaced by spaces (an .icf file is plain text)";
        });
    };
    EXPECT_TRUE(warned("hosts[0].workers[0].name")) << describe(warnings);
    Problems problems;
    const auto back = parseIcf(text, problems);
    ASSERT_TRUE(back.has_value()) << describe(problems);
    EXPECT_EQ(back->hosts[0].workers[0].name, "Worker  1");
}

TEST(IcfExport, EmptyProfileIsAValidFile)
{
    Problems warnings;
    const std::string text = writeIcf(Profile {}, warnings);
    EXPECT_TRUE(warnings.empty()) << describe(warnings);
    Problems problems;
    const auto back = parseIcf(text, problems);
    ASSERT_TRUE(back.has_value()) << describe(problems);
    EXPECT_EQ(*back, Profile {});
}

// ------------------------------------------------------------------ round trips

TEST(IcfRoundTrip, GoldenFilesAreStable)
{
    for (const auto &name : std::vector<std::string> {
             "reference.icf", "full-1.1.0.icf", "old-2006.icf", "representable.icf"}) {
        SCOPED_TRACE(name);
        const std::string golden = ioprism::test::readExistingFile(goldenPath(name));
        Problems problems;
        const Profile p = parseValid(golden, problems);
        Problems warnings;
        EXPECT_EQ(writeIcf(p, warnings), golden);
        EXPECT_TRUE(warnings.empty()) << describe(warnings);
    }
}

TEST(IcfRoundTrip, ParseWriteParseKeepsEveryValue)
{
    for (const auto &name : kFixtures) {
        SCOPED_TRACE(name);
        const Profile first = parseValid(icfFixture(name));
        Problems warnings;
        const std::string text = writeIcf(first, warnings);
        EXPECT_TRUE(warnings.empty()) << describe(warnings);
        EXPECT_EQ(parseValid(text), first) << text;
    }
}

TEST(IcfRoundTrip, ProfileToIcfToProfileKeepsRepresentableFields)
{
    const Profile p = representableProfile();
    Problems warnings;
    const std::string text = writeIcf(p, warnings);
    EXPECT_TRUE(warnings.empty()) << describe(warnings);
    Problems problems;
    EXPECT_EQ(parseValid(text, problems), p) << text;
    EXPECT_TRUE(problems.empty()) << describe(problems);
}

// ------------------------------------------------------------------ malformed input

TEST(IcfMalformed, TruncatedAtEveryLineOfEveryFixtureIsAnError)
{
    for (const auto &name : kFixtures) {
        const std::string text = replaceAll(icfFixture(name), "\r\n", "\n");
        const auto lines = splitLines(text);
        const bool hasVersion
            = lines.front().starts_with("Version") || lines.front().starts_with("version");
        for (std::size_t keep = 0; keep < lines.size(); ++keep) {
            SCOPED_TRACE(name + ", first " + std::to_string(keep) + " lines");
            const std::vector<std::string> head(lines.begin(), lines.begin() + keep);
            Problems problems;
            std::optional<Profile> p;
            EXPECT_NO_THROW(p = parseIcf(joinLines(head), problems));
            // A file without Version lines can end after any section: that is a shorter
            // valid file, not a truncated one.
            const bool sectionBoundary = keep > 0 && !hasVersion && head.back().starts_with("'END");
            if (sectionBoundary)
                continue;
            EXPECT_FALSE(p.has_value());
            EXPECT_TRUE(hasErrors(problems));
        }
    }
}

TEST(IcfMalformed, TruncatedAtEveryByteNeverCrashes)
{
    for (const auto &name : kFixtures) {
        const std::string text = icfFixture(name);
        const Profile full = parseValid(text);
        for (std::size_t size = 0; size < text.size(); ++size) {
            Problems problems;
            std::optional<Profile> p;
            EXPECT_NO_THROW(p = parseIcf(std::string_view(text).substr(0, size), problems));
            EXPECT_EQ(p.has_value(), !hasErrors(problems));
            // With Version lines, only a cut inside the closing Version line can still read.
            if (p && name != "old-2006.icf") {
                EXPECT_EQ(*p, full) << name << " cut at " << size;
            }
        }
    }
}

TEST(IcfMalformed, MissingEndLinesAreReported)
{
    const auto lines = splitLines(icfFixture("reference.icf"));
    int checked = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (!lines[i].starts_with("'END") && !lines[i].starts_with("'End"))
            continue;
        SCOPED_TRACE(lines[i]);
        auto without = lines;
        without.erase(without.begin() + static_cast<std::ptrdiff_t>(i));
        Problems problems;
        EXPECT_FALSE(parseIcf(joinLines(without), problems).has_value());
        const bool named = std::any_of(problems.begin(), problems.end(), [&](const Problem &p) {
            return p.severity == Severity::Error
                && p.message.find("missing \"" + lines[i] + "\"") != std::string::npos;
        });
        EXPECT_TRUE(named) << describe(problems);
        ++checked;
    }
    EXPECT_EQ(checked, 10);

    auto noVersion = lines;
    noVersion.pop_back();
    Problems problems;
    EXPECT_FALSE(parseIcf(joinLines(noVersion), problems).has_value());
    ASSERT_EQ(problems.size(), 1u) << describe(problems);
    EXPECT_EQ(problems[0].toString(),
        "line 68: the file ends without its closing Version line (file truncated?)");
}

TEST(IcfMalformed, ProblemsNameTheLineTheValueAndTheRule)
{
    const std::vector<std::tuple<std::size_t, std::string, std::string>> cases = {
        {7, "\t0          1", "line 7: expected 3 values (hours, minutes, seconds), got 2"},
        {7, "\t0 -1 30", "line 7: minutes: -1 is negative"},
        {7, "\t0 1 x30", "line 7: seconds: \"x30\" is not a whole number"},
        {7, "\t99999999999 0 0", "line 7: hours: 99999999999 is too large (at most 2147483647)"},
        {7, "\t0 0 99999999999999999999999",
            "line 7: seconds: 99999999999999999999999 is too large (at most 2147483647)"},
        {9, "\t5 6", "line 9: expected 1 value (ramp up seconds), got 2"},
        {9, "\t", "line 9: expected 1 value (ramp up seconds), got 0"},
        {11, "\tALL_CPUS", "line 11: disk workers: \"ALL_CPUS\" is not a whole number"},
        {15, "\tSOME",
            "line 15: record results: \"SOME\" is not one of ALL, NO_TARGETS, "
            "NO_WORKERS, NO_MANAGERS, NONE"},
        {18, "\t1 1 SIDEWAYS", "line 18: step type: \"SIDEWAYS\" is not LINEAR or EXPONENTIAL"},
        {24, "\t1 64 2", "line 24: expected 4 values (start, end, step, step type), got 3"},
        {26, "\tFOO",
            "line 26: test type: \"FOO\" is not one of NORMAL, CYCLE_TARGETS, "
            "CYCLE_WORKERS, INCREMENT_TARGETS_PARALLEL, INCREMENT_TARGETS_SERIAL, "
            "CYCLE_WORKERS_AND_TARGETS, CYCLE_OUTSTANDING_IOS, "
            "CYCLE_OUTSTANDING_IOS_AND_TARGETS"},
        {26, "\t8", "line 26: test type: 8 is too large (at most 7)"},
        {36, "\tOLTP mix,SOMETIMES",
            "line 36: default assignment: \"SOMETIMES\" is not one of NONE, ALL, DISK, NET"},
        {38, "\t8192,170,70,100,0,1,8192,0", "line 38: % of size: 170 is too large (at most 100)"},
        {38, "\t8192,70,70,100,0,1,8192",
            "line 38: expected 8 values (size, % of size, % reads, % random, delay, burst, align, "
            "reply), got 7"},
        {38, "\t8192,60,70,100,0,1,8192,0",
            "line 36: the shares (% of size) of access specification \"OLTP mix\" add up to 90, "
            "not 100"},
        {43, "\tstorage-lab-01", "line 43: expected \"manager ID,name\", got \"storage-lab-01\""},
        {49, "\tTAPE", "line 49: worker type: \"TAPE\" is not DISK, NETWORK,TCP or NETWORK,VI"},
        {52, "\t-8,DISABLED,1,ENABLED,42", "line 52: outstanding IOs: -8 is negative"},
        {52, "\t8,MAYBE,1,ENABLED,42",
            "line 52: test connection rate: \"MAYBE\" is not ENABLED or DISABLED"},
        {52, "\t8,DISABLED,1,ENABLED",
            "line 52: expected 5 values (outstanding IOs, test "
            "connection rate, transactions per connection, use fixed "
            "seed, fixed seed value), got 4"},
        {52, "\t8,DISABLED,1,ENABLED,99999999999999999999",
            "line 52: fixed seed value: 99999999999999999999 is too large (at most "
            "18446744073709551615)"},
        {54, "\t36028797018963968,0,2",
            "line 54: disk maximum size (sectors): "
            "36028797018963968 is too large (at most "
            "36028797018963967)"},
        {54, "\t36028797018963967,1,2", "line 54: the disk region ends beyond 2^64 bytes"},
        {54, "\t2097152,0,3", "line 54: data pattern: 3 is too large (at most 2)"},
        {63, "\tTAPE", "line 63: target type: \"TAPE\" is not DISK, NETWORK,TCP or NETWORK,VI"},
        {62, "'Target kind", "line 62: unknown keyword \"'Target kind\" in the target"},
        {5, "'Run Time (h)",
            "line 5: unknown keyword \"'Run Time (h)\" in the TEST SETUP "
            "section"},
        {1, "Version 1.x",
            "line 1: \"Version 1.x\" is not a version line (expected \"Version "
            "1.1.0\")"},
    };
    for (const auto &[line, replacement, message] : cases) {
        SCOPED_TRACE(replacement);
        Problems problems;
        std::optional<Profile> p;
        EXPECT_NO_THROW(p = parseIcf(withLine(line, replacement), problems));
        EXPECT_FALSE(p.has_value());
        const auto errors = withSeverity(problems, Severity::Error);
        ASSERT_FALSE(errors.empty());
        EXPECT_EQ(errors.front().toString(), message) << describe(problems);
    }
}

TEST(IcfMalformed, UnknownSectionsAndMisplacedLinesAreErrors)
{
    auto lines = splitLines(icfFixture("reference.icf"));
    lines.insert(lines.begin() + 40, {"'BOGUS SECTION =======", "\tx", "'END bogus section"});
    Problems problems;
    EXPECT_FALSE(parseIcf(joinLines(lines), problems).has_value());
    ASSERT_FALSE(problems.empty());
    EXPECT_EQ(problems[0].toString(), "line 41: unknown section \"'BOGUS SECTION =======\"");

    problems.clear();
    EXPECT_FALSE(parseIcf("Version 1.1.0 \nhello\n", problems).has_value());
    EXPECT_EQ(problems.at(0).toString(), "line 2: unexpected line \"hello\" outside any section");

    problems.clear();
    EXPECT_FALSE(parseIcf("", problems).has_value());
    EXPECT_EQ(problems.size(), 1u);

    problems.clear();
    EXPECT_FALSE(parseIcf(withLine(4, "'Test Description"), problems).has_value());
    EXPECT_EQ(problems.at(0).toString(), "line 3: \"'Test Description\" has no value line");
}

TEST(IcfMalformed, RandomBytesNeverCrashOrPass)
{
    std::mt19937 rng(20240521);
    for (int i = 0; i < 300; ++i) {
        std::string text(std::uniform_int_distribution<std::size_t>(0, 3000)(rng), '\0');
        for (auto &c : text)
            c = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
        Problems problems;
        std::optional<Profile> p;
        EXPECT_NO_THROW(p = parseIcf(text, problems));
        EXPECT_FALSE(p.has_value());
        EXPECT_TRUE(hasErrors(problems));
        EXPECT_LE(problems.size(), 60u); // stops after a bounded number of errors
    }
}

TEST(IcfMalformed, ShuffledAndCorruptedFixturesNeverCrash)
{
    std::mt19937 rng(7);
    for (const auto &name : kFixtures) {
        const auto lines = splitLines(replaceAll(icfFixture(name), "\r\n", "\n"));
        for (int i = 0; i < 200; ++i) {
            auto mutated = lines;
            const int edits = std::uniform_int_distribution<int>(1, 6)(rng);
            for (int e = 0; e < edits; ++e) {
                auto pick = [&] {
                    return std::uniform_int_distribution<std::size_t>(0, mutated.size() - 1)(rng);
                };
                switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
                case 0:
                    std::swap(mutated[pick()], mutated[pick()]);
                    break;
                case 1:
                    mutated.erase(mutated.begin() + static_cast<std::ptrdiff_t>(pick()));
                    break;
                case 2:
                    mutated.insert(
                        mutated.begin() + static_cast<std::ptrdiff_t>(pick()), mutated[pick()]);
                    break;
                default:
                    mutated[pick()]
                        += static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
                    break;
                }
                if (mutated.empty())
                    break;
            }
            Problems problems;
            std::optional<Profile> p;
            EXPECT_NO_THROW(p = parseIcf(joinLines(mutated), problems));
            EXPECT_EQ(p.has_value(), !hasErrors(problems));
            if (p) {
                Problems warnings;
                EXPECT_NO_THROW((void)writeIcf(*p, warnings));
            }
            if (mutated.empty())
                break;
        }
    }
}

// ------------------------------------------------------------------ unresolved targets

TEST(IcfTargets, MarkUnresolvedKeepsAndFlagsTargets)
{
    Profile p = parseValid(icfFixture("full-1.1.0.icf"));
    const std::set<std::string> here = {"sdb", "D:", "PHYSICALDRIVE:1"};
    const Problems warnings
        = markUnresolvedTargets(p, [&](const Target &t) { return here.count(t.path) > 0; });

    std::size_t total = 0;
    std::size_t unresolved = 0;
    for (const auto &host : p.hosts)
        for (const auto &w : host.workers)
            for (const auto &t : w.targets) {
                ++total;
                EXPECT_EQ(t.unresolved, here.count(t.path) == 0) << t.path;
                unresolved += t.unresolved ? 1 : 0;
            }
    EXPECT_EQ(total, 8u); // none dropped
    EXPECT_EQ(unresolved, 5u);
    ASSERT_EQ(warnings.size(), unresolved);
    for (const auto &w : warnings)
        EXPECT_EQ(w.severity, Severity::Warning);
    EXPECT_EQ(warnings[0].toString(),
        "hosts[0].workers[0].targets[0].path: \"C: \\\"System\\\"\" does not exist on this "
        "machine; re-point it before running");
    EXPECT_EQ(warnings[2].toString(),
        "hosts[1].workers[0].targets[1].path: \"/dev/nvme0n1\" does not exist on this "
        "machine; re-point it before running");

    // Once re-pointed (or attached), a second check clears the flag.
    const Problems again = markUnresolvedTargets(p, [](const Target &) { return true; });
    EXPECT_TRUE(again.empty());
    for (const auto &host : p.hosts)
        for (const auto &w : host.workers)
            for (const auto &t : w.targets)
                EXPECT_FALSE(t.unresolved);
}

TEST(IcfTargets, ReferenceTargetMessage)
{
    Profile p = parseValid(icfFixture("reference.icf"));
    p.hosts[0].workers.push_back(p.hosts[0].workers[0]);
    const Problems warnings = markUnresolvedTargets(p, [](const Target &) { return false; });
    ASSERT_EQ(warnings.size(), 2u);
    EXPECT_EQ(warnings[1].toString(),
        "hosts[0].workers[1].targets[0].path: \"sdb\" does not "
        "exist on this machine; re-point it before running");
}

TEST(IcfTargets, ThrowingOrEmptyPredicates)
{
    Profile p = parseValid(icfFixture("reference.icf"));
    Problems warnings;
    EXPECT_NO_THROW(warnings
        = markUnresolvedTargets(p, [](const Target &) -> bool { throw std::runtime_error("no"); }));
    EXPECT_EQ(warnings.size(), 1u);
    EXPECT_TRUE(p.hosts[0].workers[0].targets[0].unresolved);

    const Profile before = p;
    EXPECT_TRUE(markUnresolvedTargets(p, {}).empty());
    EXPECT_EQ(p, before);
}

// ------------------------------------------------------------------ Iometer's test file

TEST(IcfTargets, AVolumeNameIsWhereIometerPutsItsTestFile)
{
    const auto testFile = [](std::string_view name) -> std::optional<std::string> {
        const auto v = iometerVolume(name);
        return v ? std::optional(v->testFile) : std::nullopt;
    };
    EXPECT_EQ(testFile("/mnt/data [ext4]"), "/mnt/data/iobw.tst");
    EXPECT_EQ(testFile("/ [xfs]"), "/iobw.tst");
    EXPECT_EQ(testFile("C:"), "C:\\iobw.tst");
    EXPECT_EQ(testFile("C:System"), "C:\\iobw.tst");
    EXPECT_EQ(testFile("D: \"Data\""), "D:\\iobw.tst");
    EXPECT_EQ(testFile("C:\\mnt\\disk1:label"), "C:\\mnt\\disk1\\iobw.tst");
    EXPECT_EQ(testFile("\\\\server\\share"), "\\\\server\\share\\iobw.tst");
    const auto mount = iometerVolume("/mnt/my data [xfs]");
    ASSERT_TRUE(mount);
    EXPECT_EQ(mount->folder, "/mnt/my data");
    EXPECT_EQ(mount->fileSystem, "xfs");
    EXPECT_EQ(mount->name, "/mnt/my data [xfs]");
    EXPECT_EQ(iometerVolume("C:")->folder, "C:\\");
    EXPECT_EQ(iometerVolume("C:")->fileSystem, "");
    // Paths, devices and relative names are not volumes; a located name is not one again.
    for (const char *name : {"/srv/x.tst", "/mnt/data/iobw.tst", "data [ext4]", "C:\\iobw.tst",
             "C:\\data\\x.tst", "C:/data/x.tst", "\\\\server\\share\\iobw.tst",
             "\\\\.\\E:", "\\\\.\\PhysicalDrive1", "sdb", "/dev/sdb", "PHYSICALDRIVE:1", ""})
        EXPECT_EQ(iometerVolume(name), std::nullopt) << name;
}

TEST(IcfTargets, VolumesThatAreHereAreGivenIometersTestFileAndTheRestStay)
{
    // full-1.1.0.icf names `/mnt/data [ext4]` and Windows volumes; on "this machine" only
    // /mnt/data is mounted, as ext4. Its target becomes /mnt/data/iobw.tst with a warning
    // that says so; the others keep their names.
    Profile p = parseValid(icfFixture("full-1.1.0.icf"));
    std::vector<std::string> asked;
    const auto isHere = [&](const IometerVolume &v) {
        asked.push_back(v.name);
        return v.folder == "/mnt/data" && v.fileSystem == "ext4";
    };
    const Problems located = locateIometerTestFiles(p, isHere);
    ASSERT_EQ(located.size(), 1u);
    EXPECT_EQ(located[0].severity, Severity::Warning);
    EXPECT_EQ(located[0].message,
        "Iometer's volume \"/mnt/data [ext4]\" is its test file \"/mnt/data/iobw.tst\" on "
        "this machine");
    EXPECT_NE(std::find(asked.begin(), asked.end(), "C: \"System\""), asked.end())
        << "a Windows volume is asked about too";
    std::size_t moved = 0;
    for (const auto &host : p.hosts)
        for (const auto &w : host.workers)
            for (const auto &t : w.targets) {
                EXPECT_NE(t.path, "/mnt/data [ext4]") << "the located target kept its name";
                moved += t.path == "/mnt/data/iobw.tst" ? 1 : 0;
            }
    EXPECT_EQ(moved, 1u);
    // Located once, a second pass does not take the test file for a volume again.
    asked.clear();
    EXPECT_TRUE(locateIometerTestFiles(p, isHere).empty());
    EXPECT_EQ(std::count(asked.begin(), asked.end(), std::string("/mnt/data/iobw.tst")), 0);
}
