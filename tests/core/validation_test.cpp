// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/profile_json.h"
#include "core/profile/validation.h"

#include <algorithm>
#include <functional>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace ioprism::core;
using namespace std::chrono_literals;

namespace {

SpecLine makeLine(std::uint64_t transferSizeBytes, std::uint32_t sharePercent)
{
    SpecLine line;
    line.transferSizeBytes = transferSizeBytes;
    line.alignmentBytes = transferSizeBytes;
    line.sharePercent = sharePercent;
    return line;
}

// A profile that passes every rule:
//   specs[0] "4k random" (1 line)   -> hosts[0].workers[0] on a direct test file
//   specs[1] "seq" (2 lines)         -> hosts[0].workers[1] on a buffered block device
//   specs[2] "spare" (2 lines)       -> not assigned
Profile validProfile()
{
    Profile p;
    p.specs.push_back({.name = "4k random", .lines = {makeLine(4 * kKiB, 100)}});
    p.specs.push_back({.name = "seq", .lines = {makeLine(64 * kKiB, 50), makeLine(64 * kKiB, 50)}});
    p.specs[1].lines[0].percentRandom = 0;
    p.specs[1].lines[1].percentRandom = 0;
    p.specs.push_back({.name = "spare", .lines = {makeLine(512, 50), makeLine(512, 50)}});

    Target file;
    file.kind = TargetKind::TestFile;
    file.path = "/data/iobw.tst";
    file.testFileSizeBytes = kGiB;
    Worker w1;
    w1.name = "Worker 1";
    w1.outstandingIos = 8;
    w1.assignedSpecs = {"4k random"};
    w1.targets = {file};

    Target device;
    device.kind = TargetKind::BlockDevice;
    device.path = "/dev/sdb";
    device.cacheMode = CacheMode::Buffered;
    Worker w2;
    w2.name = "Worker 2";
    w2.assignedSpecs = {"seq"};
    w2.targets = {device};

    p.hosts.push_back({.id = 1, .workers = {w1, w2}});
    return p;
}

std::string text(const Problems &problems)
{
    std::string out;
    for (const auto &p : problems)
        out += (p.severity == Severity::Error ? "E " : "W ") + p.toString() + "\n";
    return out;
}

// "specs[0].lines[1].percentRead" -> "/specs/0/lines/1/percentRead"
nlohmann::json::json_pointer pointerOf(const std::string &path)
{
    std::string pointer = "/";
    for (char c : path) {
        if (c == '.' || c == '[')
            pointer += '/';
        else if (c != ']')
            pointer += c;
    }
    return nlohmann::json::json_pointer(pointer);
}

TEST(Validation, ValidProfileHasNoProblems)
{
    const Problems problems = validateProfile(validProfile());
    EXPECT_TRUE(problems.empty()) << text(problems);
}

TEST(Validation, SettingsThatAreFineOnTheirOwnPass)
{
    Profile p = validProfile();
    p.specs[0].lines[0].alignmentBytes = 0; // 0 = the sector
    p.specs[1].lines[0].transferSizeBytes = 1000; // buffered: no sector rule
    p.specs[1].lines[0].alignmentBytes = 1000;
    p.specs[1].lines[1].replySizeBytes = 100;
    p.hosts[0].workers[0].targets[0].region = {kMiB, 4 * kKiB}; // exactly one transfer
    p.setup.runTime = 0s; // until stopped; ramp-up is then fine
    p.setup.rampUp = 10s;
    p.setup.interval = 100ms;
    p.specs[0].lines[0].distribution
        = {.kind = DistributionKind::HotZones, .hotZones = {{33.3, 10}, {33.3, 20}, {33.4, 70}}};
    p.specs[0].lines[0].dataPattern
        = DataPattern {.kind = DataPatternKind::Compressible, .compressiblePercent = 99};
    p.hosts[0].workers[0].cpuAffinity = {0, 1023};
    p.specs[2].queueDepth = 4096;
    p.specs[2].threads = 1024;
    const Problems problems = validateProfile(p);
    EXPECT_TRUE(problems.empty()) << text(problems);
}

// The ramp-up comes before the run time, not out of it: a ramp-up as long as the run
// time or longer still leaves the whole run time measured, so it is not worth a warning.
TEST(Validation, RampUpLongerThanTheRunTimeIsFine)
{
    Profile p = validProfile();
    p.setup.runTime = 2s;
    for (auto ramp : {2s, 30s}) {
        p.setup.rampUp = ramp;
        const Problems problems = validateProfile(p);
        EXPECT_TRUE(problems.empty()) << text(problems);
    }
}

struct RuleCase {
    const char *rule;
    std::function<void(Profile &)> mutate;
    std::vector<std::string> expected; // "E path: message" / "W path: message"
    ValidationOptions options = {};
};

class ValidationRule : public testing::TestWithParam<RuleCase>
{
};

TEST_P(ValidationRule, ReportsExactlyItsProblem)
{
    Profile p = validProfile();
    GetParam().mutate(p);
    const Problems problems = validateProfile(p, GetParam().options);
    std::vector<std::string> got;
    for (const auto &problem : problems)
        got.push_back((problem.severity == Severity::Error ? "E " : "W ") + problem.toString());
    EXPECT_EQ(got, GetParam().expected) << GetParam().rule;
    // Every path is a JSON field of the profile as written: messages point at the file.
    const auto json = profileToJson(p);
    for (const auto &problem : problems) {
        if (!problem.path.empty()) {
            EXPECT_TRUE(json.contains(pointerOf(problem.path))) << problem.path;
        }
    }
}

std::string caseName(const testing::TestParamInfo<RuleCase> &info)
{
    std::string name;
    for (const char *c = info.param.rule; *c; ++c)
        if (std::isalnum(static_cast<unsigned char>(*c)))
            name += *c;
    return name;
}

std::vector<SpecLine> manyLines(std::size_t n)
{
    return std::vector<SpecLine>(n, makeLine(512, 1));
}

const std::vector<RuleCase> kRuleCases = {
    // ---------------------------------------------------------------- specs
    {"spec name empty", [](Profile &p) { p.specs[2].name = ""; },
        {"E specs[2].name: must not be empty"}},
    {"spec name unique", [](Profile &p) { p.specs[2].name = "seq"; },
        {"E specs[2].name: \"seq\" is already the name of specs[1]"}},
    {"spec needs lines", [](Profile &p) { p.specs[2].lines.clear(); },
        {"E specs[2].lines: no lines: a specification needs 1 to 100"}},
    {"spec at most 100 lines", [](Profile &p) { p.specs[2].lines = manyLines(101); },
        {"E specs[2].lines: 101 lines is above 100",
            "E specs[2].lines: shares sum to 101, not 100"}},
    {"shares sum to 100", [](Profile &p) { p.specs[2].lines[0].sharePercent = 40; },
        {"E specs[2].lines: shares sum to 90, not 100"}},
    {"share at least 1",
        [](Profile &p) {
            p.specs[2].lines[0].sharePercent = 0;
            p.specs[2].lines[1].sharePercent = 100;
        },
        {"E specs[2].lines[0].share: 0 is below 1"}},
    {"share at most 100", [](Profile &p) { p.specs[0].lines[0].sharePercent = 101; },
        {"E specs[0].lines: shares sum to 101, not 100",
            "E specs[0].lines[0].share: 101 is above 100"}},
    {"percentRead at most 100", [](Profile &p) { p.specs[1].lines[0].percentRead = 140; },
        {"E specs[1].lines[0].percentRead: 140 is above 100"}},
    {"percentRandom at most 100", [](Profile &p) { p.specs[1].lines[1].percentRandom = 101; },
        {"E specs[1].lines[1].percentRandom: 101 is above 100"}},
    {"transfer size not 0", [](Profile &p) { p.specs[2].lines[1].transferSizeBytes = 0; },
        {"E specs[2].lines[1].transferSize: must not be 0"}},
    {"transfer size within target region",
        [](Profile &p) {
            p.specs[0].lines[0].transferSizeBytes = 2 * kMiB;
            p.hosts[0].workers[0].targets[0].region = {0, kMiB};
        },
        {"E specs[0].lines[0].transferSize: 2 MiB is larger than the 1 MiB region of target "
         "\"/data/iobw.tst\" (hosts[0].workers[0].targets[0])"}},
    {"transfer size within worker default region",
        [](Profile &p) {
            p.specs[1].lines[1].transferSizeBytes = 2 * kMiB;
            p.hosts[0].workers[1].defaultRegion = {0, kMiB};
        },
        {"E specs[1].lines[1].transferSize: 2 MiB is larger than the 1 MiB region of target "
         "\"/dev/sdb\" (hosts[0].workers[1].targets[0])"}},
    {"transfer size within test file",
        [](Profile &p) {
            p.specs[0].lines[0].transferSizeBytes = 2 * kMiB;
            p.hosts[0].workers[0].targets[0].testFileSizeBytes = kMiB;
        },
        {"E specs[0].lines[0].transferSize: 2 MiB is larger than the 1 MiB test file "
         "\"/data/iobw.tst\" (hosts[0].workers[0].targets[0])"}},
    {"transfer size within a file tree's files",
        [](Profile &p) {
            p.specs[0].lines[0].transferSizeBytes = 2 * kMiB;
            auto &t = p.hosts[0].workers[0].targets[0];
            t.kind = TargetKind::FileTree;
            t.tree = {.depth = 1, .filesPerLevel = 4, .fileSizeBytes = kMiB};
        },
        {"E specs[0].lines[0].transferSize: 2 MiB is larger than the 1 MiB files of file tree "
         "\"/data/iobw.tst\" (hosts[0].workers[0].targets[0])"}},
    {"transfer size within test file after offset",
        [](Profile &p) {
            p.specs[0].lines[0].transferSizeBytes = 2 * kMiB;
            p.hosts[0].workers[0].targets[0].region = {kGiB - kMiB, 0};
        },
        {"E specs[0].lines[0].transferSize: 2 MiB is larger than the 1 MiB left in test file "
         "\"/data/iobw.tst\" after offset 1023 MiB (hosts[0].workers[0].targets[0])"}},
    {"burst at least 1", [](Profile &p) { p.specs[1].lines[0].burstLength = 0; },
        {"E specs[1].lines[0].burst: 0 is below 1"}},
    {"delay not negative", [](Profile &p) { p.specs[1].lines[0].delay = -5ms; },
        {"E specs[1].lines[0].delay: -5ms is negative"}},
    {"think time not negative", [](Profile &p) { p.specs[1].lines[0].thinkTime = -5us; },
        {"E specs[1].lines[0].thinkTime: -5us is negative"}},
    {"direct transfer size multiple of sector",
        [](Profile &p) {
            p.specs[0].lines[0].transferSizeBytes = 1000;
            p.specs[0].lines[0].alignmentBytes = 0;
        },
        {"E specs[0].lines[0].transferSize: 1000 B is not a multiple of the 512-byte sector "
         "that direct I/O on \"/data/iobw.tst\" needs (hosts[0].workers[0].targets[0])"}},
    {"direct alignment multiple of sector",
        [](Profile &p) { p.specs[0].lines[0].alignmentBytes = 1000; },
        {"E specs[0].lines[0].alignment: 1000 B is not a multiple of the 512-byte sector that "
         "direct I/O on \"/data/iobw.tst\" needs (hosts[0].workers[0].targets[0])"}},
    {"direct reply multiple of sector", [](Profile &p) { p.specs[0].lines[0].replySizeBytes = 1; },
        {"E specs[0].lines[0].reply: 1 B is not a multiple of the 512-byte sector that direct "
         "I/O on \"/data/iobw.tst\" needs (hosts[0].workers[0].targets[0])"}},
    {"direct rules use the given sector size",
        [](Profile &p) {
            p.specs[0].lines[0].transferSizeBytes = 6 * kKiB;
            p.specs[0].lines[0].alignmentBytes = 2 * kKiB;
        },
        {"E specs[0].lines[0].transferSize: 6 KiB is not a multiple of the 4096-byte sector that "
         "direct I/O on \"/data/iobw.tst\" needs (hosts[0].workers[0].targets[0])",
            "E specs[0].lines[0].alignment: 2 KiB is not a multiple of the 4096-byte sector that "
            "direct "
            "I/O on \"/data/iobw.tst\" needs (hosts[0].workers[0].targets[0])"},
        {.sectorSizeBytes = 4096}},
    {"zipf theta above 0",
        [](Profile &p) {
            p.specs[2].lines[0].distribution = {.kind = DistributionKind::Zipf, .zipfTheta = 0};
        },
        {"E specs[2].lines[0].distribution.theta: 0 is not above 0"}},
    {"zipf theta not 1",
        [](Profile &p) {
            p.specs[2].lines[0].distribution = {.kind = DistributionKind::Zipf, .zipfTheta = 1};
        },
        {"E specs[2].lines[0].distribution.theta: 1 is not allowed: zipf needs a theta other than "
         "1"}},
    {"pareto h between 0 and 1",
        [](Profile &p) {
            p.specs[2].lines[0].distribution = {.kind = DistributionKind::Pareto, .paretoH = 1};
        },
        {"E specs[2].lines[0].distribution.h: 1 is not between 0 and 1 (both excluded)"}},
    {"normal sigma above 0",
        [](Profile &p) {
            p.specs[2].lines[0].distribution
                = {.kind = DistributionKind::Normal, .normalSigmaPercent = -2.5};
        },
        {"E specs[2].lines[0].distribution.sigmaPercent: -2.5 is not above 0"}},
    {"normal sigma at most 100",
        [](Profile &p) {
            p.specs[2].lines[0].distribution
                = {.kind = DistributionKind::Normal, .normalSigmaPercent = 150};
        },
        {"E specs[2].lines[0].distribution.sigmaPercent: 150 is above 100"}},
    {"hot zones not empty",
        [](Profile &p) { p.specs[2].lines[0].distribution = {.kind = DistributionKind::HotZones}; },
        {"E specs[2].lines[0].distribution.zones: no zones: hotZones needs at least one"}},
    {"hot zone percents above 0",
        [](Profile &p) {
            p.specs[2].lines[0].distribution
                = {.kind = DistributionKind::HotZones, .hotZones = {{100, 0}, {0, 100}}};
        },
        {"E specs[2].lines[0].distribution.zones[0].region: 0 is not above 0",
            "E specs[2].lines[0].distribution.zones[1].access: 0 is not above 0"}},
    {"hot zone sums are 100",
        [](Profile &p) {
            p.specs[2].lines[0].distribution
                = {.kind = DistributionKind::HotZones, .hotZones = {{80, 20}, {10, 70.5}}};
        },
        {"E specs[2].lines[0].distribution.zones: access percents sum to 90, not 100",
            "E specs[2].lines[0].distribution.zones: region percents sum to 90.5, not 100"}},
    {"rate limit iops not negative", [](Profile &p) { p.specs[2].lines[0].rateLimit.iops = -1; },
        {"E specs[2].lines[0].rateLimit.iops: -1 is negative"}},
    {"rate limit mbps not negative",
        [](Profile &p) { p.specs[2].lines[0].rateLimit.megabytesPerSecond = -0.5; },
        {"E specs[2].lines[0].rateLimit.mbps: -0.5 is negative"}},
    {"line compressible percent at least 1",
        [](Profile &p) {
            p.specs[2].lines[0].dataPattern
                = DataPattern {.kind = DataPatternKind::Compressible, .compressiblePercent = 0};
        },
        {"E specs[2].lines[0].dataPattern.compressiblePercent: 0 is below 1"}},
    {"worker compressible percent at most 99",
        [](Profile &p) {
            p.hosts[0].workers[1].dataPattern
                = {.kind = DataPatternKind::Compressible, .compressiblePercent = 100};
        },
        {"E hosts[0].workers[1].dataPattern.compressiblePercent: 100 is above 99"}},
    {"spec queue depth at least 1", [](Profile &p) { p.specs[1].queueDepth = 0; },
        {"E specs[1].queueDepth: 0 is below 1"}},
    {"spec queue depth at most 4096", [](Profile &p) { p.specs[1].queueDepth = 4097; },
        {"E specs[1].queueDepth: 4097 is above 4096"}},
    {"spec threads at least 1", [](Profile &p) { p.specs[1].threads = 0; },
        {"E specs[1].threads: 0 is below 1"}},
    {"spec threads at most 1024", [](Profile &p) { p.specs[1].threads = 1025; },
        {"E specs[1].threads: 1025 is above 1024"}},
    // ---------------------------------------------------------------- hosts and workers
    {"profile needs a worker", [](Profile &p) { p.hosts.clear(); },
        {"E hosts: no workers: add a worker"}},
    {"host needs a worker", [](Profile &p) { p.hosts[0].workers.clear(); },
        {"E hosts[0].workers: no workers: add a worker"}},
    // Issue 24, item 4: a second manager is kept and shown, not run: its problems are
    // warnings, so they never block what runs here.
    {"a second manager is not run here", [](Profile &p) { p.hosts.push_back({.id = 2}); },
        {"W hosts[1].workers: no workers: add a worker (this manager is not run here)",
            "W hosts[1]: manager \"2\" is not run here: IOPrism runs the first manager's "
            "workers (hosts[0]) on this machine; its own are kept in the profile"}},
    {"host at most 1024 workers",
        [](Profile &p) {
            auto &workers = p.hosts[0].workers;
            while (workers.size() < 1025) {
                Worker w = workers[1];
                w.name = "W" + std::to_string(workers.size());
                workers.push_back(w);
            }
        },
        {"E hosts[0].workers: 1025 workers is above 1024"}},
    {"worker name not empty", [](Profile &p) { p.hosts[0].workers[1].name = ""; },
        {"E hosts[0].workers[1].name: must not be empty"}},
    {"worker outstanding IOs at least 1",
        [](Profile &p) { p.hosts[0].workers[0].outstandingIos = 0; },
        {"E hosts[0].workers[0].outstandingIos: 0 is below 1"}},
    {"worker outstanding IOs at most 4096",
        [](Profile &p) { p.hosts[0].workers[1].outstandingIos = 5000; },
        {"E hosts[0].workers[1].outstandingIos: 5000 is above 4096"}},
    {"target outstanding IOs at least 1",
        [](Profile &p) { p.hosts[0].workers[0].targets[0].outstandingIos = 0; },
        {"E hosts[0].workers[0].targets[0].outstandingIos: 0 is below 1"}},
    {"assigned spec exists",
        [](Profile &p) { p.hosts[0].workers[0].assignedSpecs.push_back("foo"); },
        {"E hosts[0].workers[0].specs[1]: \"foo\" is not a defined access specification"}},
    {"worker needs a spec", [](Profile &p) { p.hosts[0].workers[1].assignedSpecs.clear(); },
        {"E hosts[0].workers[1].specs: no access specification assigned"}},
    // Iometer's rule: a worker without targets is valid and idles (issue 24, item 3);
    // a host where no worker has a target runs nothing.
    {"a worker without targets idles", [](Profile &p) { p.hosts[0].workers[1].targets.clear(); },
        {"W hosts[0].workers[1].targets: no targets: this worker idles in every step"}},
    {"a host needs a target",
        [](Profile &p) {
            for (auto &w : p.hosts[0].workers)
                w.targets.clear();
        },
        {"W hosts[0].workers[0].targets: no targets: this worker idles in every step",
            "W hosts[0].workers[1].targets: no targets: this worker idles in every step",
            "E hosts[0].workers: no worker has a target: add a disk, partition or test file to "
            "one"}},
    {"cpu affinity below 1024",
        [](Profile &p) {
            p.hosts[0].workers[0].cpuAffinity = {0, 1024};
        },
        {"E hosts[0].workers[0].cpuAffinity[1]: 1024 is above 1023"}},
    {"cpu affinity unique",
        [](Profile &p) {
            p.hosts[0].workers[0].cpuAffinity = {2, 3, 2};
        },
        {"E hosts[0].workers[0].cpuAffinity[2]: 2 is listed more than once"}},
    {"target path not empty", [](Profile &p) { p.hosts[0].workers[1].targets[0].path = ""; },
        {"E hosts[0].workers[1].targets[0].path: must not be empty"}},
    {"target resolved", [](Profile &p) { p.hosts[0].workers[1].targets[0].unresolved = true; },
        {"E hosts[0].workers[1].targets[0].path: \"/dev/sdb\" was not found on this machine: "
         "re-point the target to a device or file"}},
    {"test file size not 0",
        [](Profile &p) { p.hosts[0].workers[0].targets[0].testFileSizeBytes = 0; },
        {"E hosts[0].workers[0].targets[0].fileSize: must not be 0 for a test file"}},
    {"region offset inside test file",
        [](Profile &p) {
            p.hosts[0].workers[0].targets[0].region = {2 * kGiB, 0};
        },
        {"E hosts[0].workers[0].targets[0].region.offset: 2 GiB is not inside the 1 GiB test file "
         "\"/data/iobw.tst\""}},
    {"region end inside test file",
        [](Profile &p) {
            p.hosts[0].workers[0].targets[0].region = {512 * kMiB, kGiB};
        },
        {"E hosts[0].workers[0].targets[0].region.size: 1 GiB from offset 512 MiB goes past the "
         "end "
         "of the 1 GiB test file \"/data/iobw.tst\""}},
    {"worker default region inside test file",
        [](Profile &p) {
            p.hosts[0].workers[0].defaultRegion = {0, 3 * kGiB};
        },
        {"E hosts[0].workers[0].defaultRegion.size: 3 GiB from offset 0 B goes past the end of "
         "the 1 GiB test file \"/data/iobw.tst\""}},
    {"duplicate worker names warn", [](Profile &p) { p.hosts[0].workers[1].name = "Worker 1"; },
        {"W hosts[0].workers[1].name: \"Worker 1\" is also the name of hosts[0].workers[0]: their "
         "results would be hard to tell apart"}},
    {"buffered write-through warns",
        [](Profile &p) { p.hosts[0].workers[1].targets[0].writeThrough = true; },
        {"W hosts[0].workers[1].targets[0].writeThrough: write-through on a buffered target: "
         "writes "
         "reach the device, but reads are still served from the OS cache"}},
    // ---------------------------------------------------------------- setup
    {"interval at least 100 ms", [](Profile &p) { p.setup.interval = 50ms; },
        {"E setup.interval: 50ms is below 100ms"}},
    {"interval at most 60 s", [](Profile &p) { p.setup.interval = 61s; },
        {"E setup.interval: 1m1s is above 1m"}},
    {"run time at most 100 days", [](Profile &p) { p.setup.runTime = std::chrono::hours(2401); },
        {"E setup.runTime: 2401h is above 2400h (100 days)"}},
    {"run time not negative", [](Profile &p) { p.setup.runTime = -1s; },
        {"E setup.runTime: -1s is negative"}},
    {"ramp-up at most 1 day",
        [](Profile &p) {
            p.setup.runTime = 48h;
            p.setup.rampUp = 24h + 1s;
        },
        {"E setup.rampUp: 24h1s is above 24h (1 day)"}},
    // Iometer's code runs these as 1 and +1: an .icf with them runs as in Iometer.
    {"cycling start 0 runs as 1", [](Profile &p) { p.setup.workerCycling.start = 0; },
        {"W setup.workerCycling.start: 0 runs as 1, as in Iometer"}},
    {"cycling step 0 runs as 1", [](Profile &p) { p.setup.targetCycling.step = 0; },
        {"W setup.targetCycling.step: 0 runs as 1, as in Iometer"}},
    {"exponential cycling step 1 runs as +1",
        [](Profile &p) {
            p.setup.queueDepthCycling = {1, 1, 64, StepType::Exponential};
        },
        {"W setup.queueDepthCycling.step: an exponential step of 1 runs as a linear step of 1, "
         "as in Iometer"}},
    {"queue depth cycling end not below start",
        [](Profile &p) {
            p.setup.queueDepthCycling = {8, 2, 4, StepType::Linear};
        },
        {"E setup.queueDepthCycling.end: 4 is below the start 8"}},
    {"queue depth cycling end at most 4096",
        [](Profile &p) {
            p.setup.queueDepthCycling = {1, 2, 8192, StepType::Exponential};
        },
        {"E setup.queueDepthCycling.end: 8192 is above 4096"}},
    {"default disk workers at most 1024", [](Profile &p) { p.setup.defaultDiskWorkers = 2000; },
        {"E setup.defaultDiskWorkers: 2000 is above 1024"}},
};

INSTANTIATE_TEST_SUITE_P(Table, ValidationRule, testing::ValuesIn(kRuleCases), caseName);

TEST(Validation, ReportsEveryProblemTogether)
{
    Profile p = validProfile();
    p.setup.interval = 10ms;
    p.specs[1].lines[0].percentRead = 140;
    p.specs[2].lines[0].sharePercent = 10;
    p.hosts[0].workers[0].assignedSpecs.push_back("missing");
    p.hosts[0].workers[1].targets[0].path.clear();
    const Problems problems = validateProfile(p);
    std::vector<std::string> got;
    for (const auto &problem : problems)
        got.push_back(problem.toString());
    EXPECT_THAT(got,
        testing::ElementsAre("setup.interval: 10ms is below 100ms",
            "specs[1].lines[0].percentRead: 140 is above 100",
            "specs[2].lines: shares sum to 60, not 100",
            "hosts[0].workers[0].specs[1]: \"missing\" is not a defined access "
            "specification",
            "hosts[0].workers[1].targets[0].path: must not be empty"));
    EXPECT_TRUE(hasErrors(problems));
}

TEST(Validation, DirectIoRuleIsReportedForEachTargetThatBreaksIt)
{
    Profile p = validProfile();
    p.specs[0].lines[0].transferSizeBytes = 1000;
    p.specs[0].lines[0].alignmentBytes = 0;
    // A second worker on the same file and a second, different file.
    Worker copy = p.hosts[0].workers[0];
    copy.name = "Worker 3";
    p.hosts[0].workers.push_back(copy);
    p.hosts[0].workers[0].targets.push_back(p.hosts[0].workers[0].targets[0]);
    p.hosts[0].workers[0].targets[1].path = "/data/other.tst";
    const Problems problems = validateProfile(p);
    EXPECT_EQ(problems.size(), 3u) << text(problems); // targets[0], targets[1], workers[2]
}

TEST(Validation, SectorSizeZeroDisablesDirectIoRules)
{
    Profile p = validProfile();
    p.specs[0].lines[0].transferSizeBytes = 1000;
    const Problems problems = validateProfile(p, {.sectorSizeBytes = 0});
    EXPECT_TRUE(problems.empty()) << text(problems);
}

TEST(Validation, NonFiniteNumbersAreErrors)
{
    Profile p = validProfile();
    p.specs[2].lines[0].rateLimit.iops = std::numeric_limits<double>::quiet_NaN();
    p.specs[2].lines[1].distribution
        = {.kind = DistributionKind::Pareto, .paretoH = std::numeric_limits<double>::quiet_NaN()};
    const Problems problems = validateProfile(p);
    std::vector<std::string> got;
    for (const auto &problem : problems)
        got.push_back(problem.toString());
    EXPECT_THAT(got,
        testing::ElementsAre("specs[2].lines[0].rateLimit.iops: nan is not a finite number",
            "specs[2].lines[1].distribution.h: nan is not between 0 and 1 (both "
            "excluded)"));
}

} // namespace

// Issue 23: `--tree 1:1:18446744073709551615` wrapped the tree's total bytes (and the
// space check's need) to a few KiB, which passed. The product is checked and bounded.
TEST(Validation, AFileTreeWhoseTotalBytesOverflowOrAreAbsurdIsRefused)
{
    for (const auto &[tree, shown] : std::vector<std::pair<FileTree, std::string>> {
             {{.depth = 1, .filesPerLevel = 1, .fileSizeBytes = UINT64_MAX}, "more than 16 EiB"},
             {{.depth = 64, .filesPerLevel = 15625, .fileSizeBytes = UINT64_MAX / 1000},
                 "more than 16 EiB"},
             {{.depth = 4, .filesPerLevel = 1, .fileSizeBytes = std::uint64_t(1) << 50},
                 "4 files of "}}) {
        Profile p = validProfile();
        auto &t = p.hosts[0].workers[0].targets[0];
        t.kind = TargetKind::FileTree;
        t.tree = tree;
        const Problems problems = validateProfile(p);
        const auto it = std::find_if(problems.begin(), problems.end(), [](const Problem &q) {
            return q.path == "hosts[0].workers[0].targets[0].tree.fileSize";
        });
        ASSERT_NE(it, problems.end()) << shown;
        EXPECT_EQ(it->severity, Severity::Error);
        EXPECT_NE(it->message.find(shown), std::string::npos) << it->message;
        // In the units a profile is written in (formatSize has no PiB: the parser has none).
        EXPECT_NE(it->message.find("a tree holds at most 1024 TiB"), std::string::npos)
            << it->message;
    }
    EXPECT_EQ((FileTree {.depth = 1, .filesPerLevel = 1, .fileSizeBytes = UINT64_MAX}).totalBytes(),
        UINT64_MAX)
        << "saturates, never wraps";
    EXPECT_EQ(saturatingMul(3, UINT64_MAX / 2), UINT64_MAX);
    EXPECT_EQ(saturatingAdd(UINT64_MAX - 1, 2), UINT64_MAX);
    EXPECT_EQ(saturatingMul(1000, 4096), 4'096'000u);
}
