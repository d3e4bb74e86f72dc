// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/names.h"
#include "core/profile/profile_json.h"
#include "core/profile/validation.h"
#include "support/test_support.h"

#include <bit>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <sstream>

using namespace ioprism::core;
using namespace std::chrono_literals;
using testing::ElementsAre;

namespace {

// ------------------------------------------------------------------ helpers

std::string problemsText(const Problems &problems)
{
    std::string out;
    for (const auto &p : problems)
        out += (p.severity == Severity::Error ? "E " : "W ") + p.toString() + "\n";
    return out;
}

std::vector<std::string> errorStrings(const Problems &problems)
{
    std::vector<std::string> out;
    for (const auto &p : problems)
        if (p.severity == Severity::Error)
            out.push_back(p.toString());
    return out;
}

// Parses a profile given as the body of the top-level object, after format and version.
std::optional<Profile> parseBody(const std::string &body, Problems &problems)
{
    const std::string sep = body.empty() ? "" : ", ";
    return parseProfileJson(
        R"({"format": "ioprism-profile", "version": 1)" + sep + body + "}", problems);
}

// The errors of a profile body (empty when it parses).
std::vector<std::string> bodyErrors(const std::string &body)
{
    Problems problems;
    const auto profile = parseBody(body, problems);
    EXPECT_EQ(profile.has_value(), !hasErrors(problems)) << problemsText(problems);
    return errorStrings(problems);
}

// ------------------------------------------------------------------ random profiles

class ProfileGenerator
{
public:
    explicit ProfileGenerator(std::uint64_t seed)
        : m_rng(seed)
    { }

    Profile profile()
    {
        Profile p;
        p.setup = setup();
        for (int i = count(4); i > 0; --i)
            p.specs.push_back(spec());
        for (int i = count(3); i > 0; --i)
            p.hosts.push_back(host());
        for (int i = count(3); i > 0; --i)
            p.icfResultsDisplay.push_back(text());
        return p;
    }

private:
    int count(int max) { return static_cast<int>(m_rng() % static_cast<std::uint64_t>(max + 1)); }
    bool coin() { return m_rng() % 2 == 0; }

    template<typename E> E pick()
    {
        const auto names = enumNames<E>();
        return names[m_rng() % names.size()].value;
    }

    std::string text()
    {
        static const std::vector<std::string> kPieces
            = {"", "a", "Worker 1", "OLTP mix", "/dev/nvme0n1", R"(\\.\PhysicalDrive2)", "x:\\",
                "quote\"d", "tab\tnew\nline", "ctl\x01\x1f", "Überprüfung", "测试", "🚀", "Ω≈ç√∫",
                "{}[],:", " spaced ", "random", "cpus"};
        std::string s;
        for (int i = count(3); i > 0; --i)
            s += kPieces[m_rng() % kPieces.size()];
        if (coin())
            s.push_back('\0'); // JSON escapes it as \u0000
        return s;
    }

    std::uint32_t u32()
    {
        switch (m_rng() % 4) {
        case 0:
            return static_cast<std::uint32_t>(m_rng() % 101);
        case 1:
            return std::numeric_limits<std::uint32_t>::max()
                - static_cast<std::uint32_t>(m_rng() % 2);
        case 2:
            return 0;
        default:
            return static_cast<std::uint32_t>(m_rng());
        }
    }

    std::uint64_t u64()
    {
        switch (m_rng() % 5) {
        case 0:
            return (m_rng() % 4096) << (10 * (m_rng() % 5)); // unit multiples
        case 1:
            return std::numeric_limits<std::uint64_t>::max() - m_rng() % 2;
        case 2:
            return m_rng() % 5000;
        case 3:
            return 0;
        default:
            return m_rng() >> (m_rng() % 64);
        }
    }

    double real()
    {
        switch (m_rng() % 5) {
        case 0: {
            static const double kNice[] = {0.0, -0.0, 1.0, 1.2, 0.2, 10.0, 33.3, 50.0, 100.0, -1.5};
            return kNice[m_rng() % std::size(kNice)];
        }
        case 1:
            return std::uniform_real_distribution<double>(0, 100)(m_rng);
        case 2:
            return std::numeric_limits<double>::denorm_min() * static_cast<double>(m_rng() % 10);
        default:
            // Any finite bit pattern: extremes, subnormals, negatives.
            while (true) {
                const double d = std::bit_cast<double>(m_rng());
                if (std::isfinite(d))
                    return d;
            }
        }
    }

    template<typename Duration> Duration duration()
    {
        const auto max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
        switch (m_rng() % 4) {
        case 0:
            return Duration(0);
        case 1:
            return Duration(static_cast<std::int64_t>(m_rng() % 100000));
        case 2:
            return Duration(static_cast<std::int64_t>(max - m_rng() % 2));
        default:
            return Duration(static_cast<std::int64_t>((m_rng() & max) >> (m_rng() % 63)));
        }
    }

    DataPattern dataPattern()
    {
        DataPattern d;
        d.kind = pick<DataPatternKind>();
        if (coin())
            d.repeatingByte = static_cast<std::uint8_t>(m_rng());
        if (coin())
            d.compressiblePercent = u32();
        return d;
    }

    RandomDistribution distribution()
    {
        RandomDistribution d;
        d.kind = pick<DistributionKind>();
        if (coin())
            d.zipfTheta = real();
        if (coin())
            d.paretoH = real();
        if (coin())
            d.normalSigmaPercent = real();
        for (int i = coin() ? count(4) : 0; i > 0; --i)
            d.hotZones.push_back({real(), real()});
        return d;
    }

    SpecLine line()
    {
        SpecLine l;
        l.transferSizeBytes = u64();
        l.sharePercent = u32();
        l.percentRead = u32();
        l.percentRandom = u32();
        l.delay = duration<std::chrono::milliseconds>();
        l.burstLength = u32();
        l.alignmentBytes = coin() ? l.transferSizeBytes : u64();
        l.replySizeBytes = u64();
        l.distribution = distribution();
        l.rateLimit = {real(), real()};
        l.thinkTime = duration<std::chrono::microseconds>();
        if (coin())
            l.dataPattern = dataPattern();
        return l;
    }

    AccessSpec spec()
    {
        AccessSpec s;
        s.name = text();
        s.defaultAssignment = pick<SpecAssignment>();
        for (int i = count(4); i > 0; --i)
            s.lines.push_back(line());
        if (coin())
            s.queueDepth = u32();
        if (coin())
            s.threads = u32();
        return s;
    }

    Region region() { return coin() ? Region {} : Region {u64(), u64()}; }

    Target target()
    {
        Target t;
        t.kind = pick<TargetKind>();
        t.path = text();
        t.region = region();
        if (coin())
            t.testFileSizeBytes = u64();
        t.cacheMode = pick<CacheMode>();
        t.writeThrough = coin();
        if (coin())
            t.outstandingIos = u32();
        t.unresolved = coin();
        return t;
    }

    Worker worker()
    {
        Worker w;
        w.name = text();
        w.type = pick<WorkerType>();
        for (int i = count(3); i > 0; --i)
            w.targets.push_back(target());
        w.outstandingIos = u32();
        for (int i = count(3); i > 0; --i)
            w.assignedSpecs.push_back(text());
        for (int i = count(4); i > 0; --i)
            w.cpuAffinity.push_back(u32());
        if (coin())
            w.seed = u64();
        w.dataPattern = dataPattern();
        w.defaultRegion = region();
        w.testConnectionRate = coin();
        w.transactionsPerConnection = u32();
        return w;
    }

    Host host()
    {
        Host h;
        h.id = u32();
        h.name = text();
        h.networkAddress = coin() ? "" : "192.168.0." + std::to_string(m_rng() % 256);
        for (int i = count(3); i > 0; --i)
            h.workers.push_back(worker());
        return h;
    }

    Cycling cycling() { return {u32(), u32(), u32(), pick<StepType>()}; }

    TestSetup setup()
    {
        TestSetup s;
        s.description = text();
        s.runTime = duration<std::chrono::seconds>();
        s.rampUp = duration<std::chrono::seconds>();
        s.interval = duration<std::chrono::milliseconds>();
        s.recordFilter = pick<RecordFilter>();
        if (coin())
            s.defaultDiskWorkers = u32();
        s.defaultNetworkWorkers = u32();
        s.workerCycling = cycling();
        s.targetCycling = cycling();
        s.queueDepthCycling = cycling();
        s.testType = pick<TestType>();
        return s;
    }

    std::mt19937_64 m_rng;
};

// ------------------------------------------------------------------ round trips

TEST(ProfileJson, RandomProfilesRoundTripExactly)
{
    ProfileGenerator generator(0x10F815);
    for (int i = 0; i < 600; ++i) {
        const Profile p = generator.profile();
        const std::string text = writeProfileJson(p);
        Problems problems;
        const auto back = parseProfileJson(text, problems);
        ASSERT_TRUE(back) << "profile " << i << ":\n" << problemsText(problems) << text;
        EXPECT_TRUE(problems.empty()) << problemsText(problems);
        ASSERT_EQ(*back, p) << "profile " << i << ":\n" << text;
        // The unordered document carries the same content.
        Problems problems2;
        const auto fromJson = profileFromJson(profileToJson(p), problems2);
        ASSERT_TRUE(fromJson) << problemsText(problems2);
        ASSERT_EQ(*fromJson, p) << "profile " << i;
    }
}

TEST(ProfileJson, DefaultProfileRoundTripsAndWritesDocumentedOrder)
{
    const Profile p;
    const std::string text = writeProfileJson(p);
    EXPECT_EQ(text.rfind("{\n  \"format\": \"ioprism-profile\",\n  \"version\": 1,\n", 0), 0u)
        << text;
    EXPECT_EQ(text.back(), '\n');
    Problems problems;
    const auto back = parseProfileJson(text, problems);
    ASSERT_TRUE(back) << problemsText(problems);
    EXPECT_EQ(*back, p);
}

TEST(ProfileJson, WriterUsesUnitsAndOmitsInactiveDefaults)
{
    Profile p;
    SpecLine line;
    line.transferSizeBytes = 4 * kKiB;
    line.alignmentBytes = 4 * kKiB;
    line.replySizeBytes = 0;
    line.delay = 1500ms;
    p.specs.push_back({.name = "s", .lines = {line}});
    const auto j = profileToJson(p);
    const auto &l = j["specs"][0]["lines"][0];
    EXPECT_EQ(l["transferSize"], "4KiB");
    EXPECT_EQ(l["reply"], 0);
    EXPECT_EQ(l["delay"], "1s500ms");
    EXPECT_EQ(l["thinkTime"], "0s");
    EXPECT_EQ(l["distribution"], nlohmann::json({{"kind", "uniform"}}));
    EXPECT_FALSE(l.contains("dataPattern"));
    EXPECT_EQ(j["setup"]["runTime"], "30s");
    EXPECT_EQ(j["setup"]["interval"], "1s");
    EXPECT_EQ(j["setup"]["defaultDiskWorkers"], "cpus");
    EXPECT_FALSE(j.contains("icfResultsDisplay"));
}

TEST(ProfileJson, EmptyProfileTakesModelDefaults)
{
    Problems problems;
    const auto p = parseBody("", problems);
    ASSERT_TRUE(p) << problemsText(problems);
    EXPECT_EQ(*p, Profile {});
}

TEST(ProfileJson, OmittedFieldsTakeModelDefaults)
{
    Problems problems;
    const auto p = parseBody(
        R"("specs": [{"name": "a", "lines": [{}]}],
           "hosts": [{"workers": [{"targets": [{}]}]}])",
        problems);
    ASSERT_TRUE(p) << problemsText(problems);
    EXPECT_EQ(p->specs[0].lines[0], SpecLine {});
    EXPECT_EQ(p->hosts[0], (Host {.workers = {Worker {.targets = {Target {}}}}}));
}

TEST(ProfileJson, OmittedAlignmentEqualsTransferSize)
{
    Problems problems;
    const auto p = parseBody(R"("specs": [{"name": "a", "lines": [
        {"transferSize": "64KiB"}, {"transferSize": "64KiB", "alignment": 0}]}])",
        problems);
    ASSERT_TRUE(p) << problemsText(problems);
    EXPECT_EQ(p->specs[0].lines[0].alignmentBytes, 64 * kKiB);
    EXPECT_EQ(p->specs[0].lines[1].alignmentBytes, 0u);
}

TEST(ProfileJson, BareNumbersUseEachFieldsUnit)
{
    Problems problems;
    const auto p = parseBody(R"("setup": {"runTime": 90, "rampUp": 5, "interval": 0.5},
        "specs": [{"name": "a", "lines": [{"delay": 100, "thinkTime": 250,
                                           "transferSize": 4096, "alignment": 512.0}]}])",
        problems);
    ASSERT_TRUE(p) << problemsText(problems);
    EXPECT_EQ(p->setup.runTime, 90s);
    EXPECT_EQ(p->setup.rampUp, 5s);
    EXPECT_EQ(p->setup.interval, 500ms);
    EXPECT_EQ(p->specs[0].lines[0].delay, 100ms);
    EXPECT_EQ(p->specs[0].lines[0].thinkTime, 250us);
    EXPECT_EQ(p->specs[0].lines[0].transferSizeBytes, 4096u);
    EXPECT_EQ(p->specs[0].lines[0].alignmentBytes, 512u);
}

TEST(ProfileJson, UnitStringsAreAccepted)
{
    Problems problems;
    const auto p = parseBody(R"("setup": {"runTime": "1h2m3s", "rampUp": "1m", "interval": "250ms"},
        "specs": [{"name": "a", "lines": [{"delay": "2s", "thinkTime": "1.5ms",
                                           "transferSize": "1M", "reply": "4k"}]}],
        "hosts": [{"workers": [{"seed": 42, "defaultRegion": {"offset": "1GiB", "size": "2g"}}]}])",
        problems);
    ASSERT_TRUE(p) << problemsText(problems);
    EXPECT_EQ(p->setup.runTime, 1h + 2min + 3s);
    EXPECT_EQ(p->setup.rampUp, 60s);
    EXPECT_EQ(p->setup.interval, 250ms);
    EXPECT_EQ(p->specs[0].lines[0].delay, 2s);
    EXPECT_EQ(p->specs[0].lines[0].thinkTime, 1500us);
    EXPECT_EQ(p->specs[0].lines[0].transferSizeBytes, kMiB);
    EXPECT_EQ(p->specs[0].lines[0].replySizeBytes, 4 * kKiB);
    EXPECT_EQ(p->hosts[0].workers[0].seed, 42u);
    EXPECT_EQ(p->hosts[0].workers[0].defaultRegion, (Region {kGiB, 2 * kGiB}));
}

TEST(ProfileJson, SeedRandomAndCpusMeanUnset)
{
    Problems problems;
    const auto p = parseBody(R"("setup": {"defaultDiskWorkers": "cpus"},
        "hosts": [{"workers": [{"seed": "random"}, {"seed": null}, {"seed": 0}]}])",
        problems);
    ASSERT_TRUE(p) << problemsText(problems);
    EXPECT_EQ(p->setup.defaultDiskWorkers, std::nullopt);
    EXPECT_EQ(p->hosts[0].workers[0].seed, std::nullopt);
    EXPECT_EQ(p->hosts[0].workers[1].seed, std::nullopt);
    EXPECT_EQ(p->hosts[0].workers[2].seed, 0u);
}

// ------------------------------------------------------------------ errors

TEST(ProfileJson, ValuesThatDoNotFitTheModelUnitAreErrors)
{
    EXPECT_THAT(bodyErrors(R"("setup": {"runTime": "1.5s"})"),
        ElementsAre("setup.runTime: \"1.5s\" is not a whole number of seconds"));
    EXPECT_THAT(bodyErrors(R"("setup": {"rampUp": 0.5})"),
        ElementsAre("setup.rampUp: 0.5 is not a whole number of seconds"));
    EXPECT_THAT(bodyErrors(R"("specs": [{"lines": [{"delay": "100us"}]}])"),
        ElementsAre("specs[0].lines[0].delay: \"100us\" is not a whole number of milliseconds"));
    EXPECT_THAT(bodyErrors(R"("specs": [{"lines": [{"thinkTime": 0.5}]}])"),
        ElementsAre("specs[0].lines[0].thinkTime: expected a duration such as 90 "
                    "(microseconds), 1m30s, 500ms or 250us, got 0.5"));
    EXPECT_THAT(bodyErrors(R"("specs": [{"lines": [{"thinkTime": "9999999999999999h"}]}])"),
        ElementsAre("specs[0].lines[0].thinkTime: expected a duration such as 90 "
                    "(microseconds), 1m30s, 500ms or 250us, got \"9999999999999999h\""));
    EXPECT_THAT(bodyErrors(R"("specs": [{"lines": [{"thinkTime": "9999999999999h"}]}])"),
        ElementsAre("specs[0].lines[0].thinkTime: \"9999999999999h\" is too long"));
}

TEST(ProfileJson, UnknownFieldsNameTheFullPath)
{
    EXPECT_THAT(bodyErrors(R"("specs": [{"name": "a", "lines": [{}, {"percentReed": 50}]}])"),
        ElementsAre(
            "specs[0].lines[1].percentReed: unknown field (did you mean \"percentRead\"?)"));
    EXPECT_THAT(bodyErrors(R"("colour": "blue")"), ElementsAre("colour: unknown field"));
    EXPECT_THAT(
        bodyErrors(
            R"("hosts": [{"workers": [{"targets": [{}, {}, {"cache": "direct", "zzz": 1}]}]}])"),
        ElementsAre("hosts[0].workers[0].targets[2].zzz: unknown field"));
    EXPECT_THAT(bodyErrors(R"("setup": {"queueDepthCycling": {"stepType": "linear", "sTep": 2}})"),
        ElementsAre("setup.queueDepthCycling.sTep: unknown field (did you mean \"step\"?)"));
    EXPECT_THAT(bodyErrors(R"("specs": [{"lines": [{"distribution": {"kind": "zipf", "zones":
                                [{"acess": 1}]}}]}])"),
        ElementsAre("specs[0].lines[0].distribution.zones[0].acess: unknown field (did "
                    "you mean \"access\"?)"));
}

struct WrongTypeCase {
    const char *body;
    const char *error;
};

class ProfileJsonWrongType : public testing::TestWithParam<WrongTypeCase>
{
};

TEST_P(ProfileJsonWrongType, IsReportedWithPathAndValue)
{
    EXPECT_THAT(bodyErrors(GetParam().body), ElementsAre(GetParam().error));
}

INSTANTIATE_TEST_SUITE_P(Table, ProfileJsonWrongType,
    testing::Values(WrongTypeCase {R"("setup": [])", "setup: expected an object, got an array"},
        WrongTypeCase {
            R"("setup": {"description": 5})", "setup.description: expected a string, got 5"},
        WrongTypeCase {R"("setup": {"runTime": true})",
            "setup.runTime: expected a duration such as 90 (seconds), 1m30s, 500ms or "
            "250us, got true"},
        WrongTypeCase {R"("setup": {"runTime": -5})",
            "setup.runTime: expected a duration such as 90 (seconds), 1m30s, 500ms or "
            "250us, got -5"},
        WrongTypeCase {R"("setup": {"recordFilter": "some"})",
            "setup.recordFilter: \"some\" is not one of: all, noTargets, noWorkers, "
            "noTargetsNoWorkers, none"},
        WrongTypeCase {R"("setup": {"testType": 1})",
            "setup.testType: expected one of: normal, cycleTargets, cycleWorkers, "
            "incrementTargetsParallel, incrementTargetsSerial, cycleWorkersAndTargets, "
            "cycleOutstandingIos, cycleOutstandingIosAndTargets, got 1"},
        WrongTypeCase {R"("setup": {"defaultDiskWorkers": "all"})",
            "setup.defaultDiskWorkers: expected a whole number or \"cpus\", got \"all\""},
        WrongTypeCase {R"("specs": {})", "specs: expected an array, got an object"},
        WrongTypeCase {R"("specs": [5])", "specs[0]: expected an object, got 5"},
        WrongTypeCase {R"("specs": [{"lines": [{"percentRead": -1}]}])",
            "specs[0].lines[0].percentRead: expected a whole number from 0 to "
            "4294967295, got -1"},
        WrongTypeCase {R"("specs": [{"lines": [{"percentRead": 4294967296}]}])",
            "specs[0].lines[0].percentRead: expected a whole number from 0 to "
            "4294967295, got 4294967296"},
        WrongTypeCase {R"("specs": [{"lines": [{"share": 50.5}]}])",
            "specs[0].lines[0].share: expected a whole number from 0 to 4294967295, "
            "got 50.5"},
        WrongTypeCase {R"("specs": [{"lines": [{"burst": "1"}]}])",
            "specs[0].lines[0].burst: expected a whole number from 0 to 4294967295, "
            "got \"1\""},
        WrongTypeCase {R"("specs": [{"queueDepth": 99999999999}])",
            "specs[0].queueDepth: expected a whole number from 0 to 4294967295, got "
            "99999999999"},
        WrongTypeCase {R"("specs": [{"lines": [{"transferSize": -4096}]}])",
            "specs[0].lines[0].transferSize: expected a size such as 4096, 512B, 4KiB "
            "or 1MiB (units are binary; at most 2^64 - 1 bytes), got -4096"},
        WrongTypeCase {R"("specs": [{"lines": [{"transferSize": "0.3KiB"}]}])",
            "specs[0].lines[0].transferSize: expected a size such as 4096, 512B, 4KiB "
            "or 1MiB (units are binary; at most 2^64 - 1 bytes), got \"0.3KiB\""},
        WrongTypeCase {R"("specs": [{"lines": [{"transferSize": 1e30}]}])",
            "specs[0].lines[0].transferSize: expected a size such as 4096, 512B, 4KiB "
            "or 1MiB (units are binary; at most 2^64 - 1 bytes), got 1e+30"},
        WrongTypeCase {R"("specs": [{"lines": [{"transferSize": 18446744073709551616}]}])",
            "specs[0].lines[0].transferSize: expected a size such as 4096, 512B, 4KiB "
            "or 1MiB (units are binary; at most 2^64 - 1 bytes), got "
            "1.8446744073709552e+19"},
        WrongTypeCase {R"("specs": [{"lines": [{"distribution": {"kind": "gauss"}}]}])",
            "specs[0].lines[0].distribution.kind: \"gauss\" is not one of: uniform, "
            "zipf, pareto, normal, hotZones"},
        WrongTypeCase {R"("specs": [{"lines": [{"distribution": {"theta": "1.2"}}]}])",
            "specs[0].lines[0].distribution.theta: expected a number, got \"1.2\""},
        WrongTypeCase {R"("specs": [{"lines": [{"dataPattern": {"byte": 256}}]}])",
            "specs[0].lines[0].dataPattern.byte: expected a whole number from 0 to 255, "
            "got 256"},
        WrongTypeCase {R"("specs": [{"lines": [{"dataPattern": 3}]}])",
            "specs[0].lines[0].dataPattern: expected an object, got 3"},
        WrongTypeCase {R"("hosts": [{"workers": [{"specs": ["a", 7]}]}])",
            "hosts[0].workers[0].specs[1]: expected a string, got 7"},
        WrongTypeCase {R"("hosts": [{"workers": [{"cpuAffinity": [1, -2]}]}])",
            "hosts[0].workers[0].cpuAffinity[1]: expected a whole number from 0 to "
            "4294967295, got -2"},
        WrongTypeCase {R"("hosts": [{"workers": [{"seed": -1}]}])",
            "hosts[0].workers[0].seed: expected a whole number from 0 to "
            "18446744073709551615, got -1"},
        WrongTypeCase {R"("hosts": [{"workers": [{"seed": "fixed"}]}])",
            "hosts[0].workers[0].seed: expected a whole number or \"random\", got "
            "\"fixed\""},
        WrongTypeCase {R"("hosts": [{"workers": [{"targets": [{"writeThrough": "yes"}]}]}])",
            "hosts[0].workers[0].targets[0].writeThrough: expected true or false, got "
            "\"yes\""},
        WrongTypeCase {R"("hosts": [{"workers": [{"targets": [{"outstandingIos": 1.5}]}]}])",
            "hosts[0].workers[0].targets[0].outstandingIos: expected a whole number "
            "from 0 to 4294967295, got 1.5"},
        WrongTypeCase {R"("icfResultsDisplay": ["a", null])",
            "icfResultsDisplay[1]: expected a string, got null"},
        WrongTypeCase {R"("hosts": [{"name": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                                    "id": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}])",
            "hosts[0].id: expected a whole number from 0 to 4294967295, got "
            "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...\""}));

TEST(ProfileJson, WholeNumbersWrittenAsFloatsAreAccepted)
{
    Problems problems;
    const auto p = parseBody(
        R"("specs": [{"queueDepth": 32.0, "lines": [{"percentRead": 1e2}]}])", problems);
    ASSERT_TRUE(p) << problemsText(problems);
    EXPECT_EQ(p->specs[0].queueDepth, 32u);
    EXPECT_EQ(p->specs[0].lines[0].percentRead, 100u);
}

TEST(ProfileJson, MissingFormatAndVersionAreBothReported)
{
    Problems problems;
    EXPECT_FALSE(parseProfileJson("{}", problems));
    EXPECT_THAT(errorStrings(problems),
        ElementsAre("format: missing: a profile starts with \"format\": \"ioprism-profile\"",
            "version: missing: add \"version\": 1"));
}

TEST(ProfileJson, AnotherFormatStopsWithOneError)
{
    Problems problems;
    EXPECT_FALSE(parseProfileJson(R"({"format": "fio-results", "jobs": [], "x": 1})", problems));
    EXPECT_THAT(errorStrings(problems),
        ElementsAre("format: \"fio-results\" is not \"ioprism-profile\": this is not an "
                    "IOPrism profile"));
}

TEST(ProfileJson, WrongVersionIsAnError)
{
    Problems problems;
    EXPECT_FALSE(parseProfileJson(R"({"format": "ioprism-profile", "version": 2})", problems));
    EXPECT_THAT(errorStrings(problems),
        ElementsAre("version: 2 is not supported: this IOPrism reads version 1"));
    problems.clear();
    EXPECT_FALSE(parseProfileJson(R"({"format": "ioprism-profile", "version": "1"})", problems));
    EXPECT_THAT(errorStrings(problems), ElementsAre("version: expected 1, got \"1\""));
}

TEST(ProfileJson, RootMustBeAnObject)
{
    Problems problems;
    EXPECT_FALSE(parseProfileJson("[1, 2]", problems));
    EXPECT_THAT(errorStrings(problems), ElementsAre("expected an object, got an array"));
}

TEST(ProfileJson, ReportsEveryProblemInOnePass)
{
    EXPECT_THAT(bodyErrors(R"("setup": {"runTime": "soon", "recordFilter": "x"},
                      "specs": [{"name": 1, "lines": [{"percentRead": -1, "shar": 5}]}],
                      "hosts": [{"workers": [{"targets": [{"kind": "disk"}]}]}])"),
        ElementsAre("setup.runTime: expected a duration such as 90 (seconds), 1m30s, 500ms or "
                    "250us, got \"soon\"",
            "setup.recordFilter: \"x\" is not one of: all, noTargets, noWorkers, "
            "noTargetsNoWorkers, none",
            "specs[0].name: expected a string, got 1",
            "specs[0].lines[0].percentRead: expected a whole number from 0 to 4294967295, "
            "got -1",
            "specs[0].lines[0].shar: unknown field (did you mean \"share\"?)",
            "hosts[0].workers[0].targets[0].kind: \"disk\" is not one of: file, "
            "blockDevice, partition, volume, physicalDrive, fileTree"));
}

TEST(ProfileJson, DuplicateKeysAreErrorsWithTheirPath)
{
    EXPECT_THAT(
        bodyErrors(R"("specs": [{"name": "a", "lines": [{}, {"share": 10, "share": 20}]}])"),
        ElementsAre("specs[0].lines[1].share: duplicate field: it appears more than once "
                    "in this object"));
    Problems problems;
    EXPECT_FALSE(
        parseProfileJson(R"({"format": "ioprism-profile", "version": 1, "version": 1})", problems));
    EXPECT_THAT(errorStrings(problems),
        ElementsAre("version: duplicate field: it appears more than once in this object"));
}

TEST(ProfileJson, KeepsProblemsAlreadyInTheListAndJudgesOnlyItsOwn)
{
    Problems problems = {{Severity::Error, "earlier", "from another input"}};
    const auto p = parseBody("", problems);
    EXPECT_TRUE(p);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].path, "earlier");
}

TEST(ProfileJson, EnumNamesAreCaseInsensitive)
{
    Problems problems;
    const auto p = parseBody(R"("setup": {"testType": "CYCLEOUTSTANDINGIOS"},
        "hosts": [{"workers": [{"targets": [{"kind": "BlockDevice", "cache": "Buffered"}]}]}])",
        problems);
    ASSERT_TRUE(p) << problemsText(problems);
    EXPECT_EQ(p->setup.testType, TestType::CycleOutstandingIos);
    EXPECT_EQ(p->hosts[0].workers[0].targets[0].kind, TargetKind::BlockDevice);
    EXPECT_EQ(p->hosts[0].workers[0].targets[0].cacheMode, CacheMode::Buffered);
}

// ------------------------------------------------------------------ syntax

// nlohmann's own "line L, column C" for comparison (ASCII input: columns agree).
std::string nlohmannPosition(const std::string &text)
{
    try {
        [[maybe_unused]] const auto document = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error &e) {
        const std::string what = e.what();
        const auto line = what.find("line ");
        const auto comma = what.find(", column ");
        const auto colon = what.find(':', comma);
        return what.substr(line, comma - line) + ":" + what.substr(comma + 9, colon - comma - 9);
    }
    return "no error";
}

TEST(ProfileJson, SyntaxErrorGivesLineAndColumn)
{
    const std::string text = "{\n  \"format\": \"ioprism-profile\",\n  \"version\": 1,\n"
                             "  \"setup\": {\"runTime\": }\n}\n";
    Problems problems;
    EXPECT_FALSE(parseProfileJson(text, problems));
    ASSERT_EQ(problems.size(), 1u) << problemsText(problems);
    EXPECT_EQ(problems[0].path, "");
    EXPECT_EQ(problems[0].message,
        "line 4:24: syntax error while parsing value - unexpected '}'; "
        "expected '[', '{', or a literal");
    EXPECT_EQ(nlohmannPosition(text), "line 4:24");
}

TEST(ProfileJson, SyntaxErrorColumnsCountCharactersNotBytes)
{
    // The x is the 41st character and the 44th byte (Ü and ü take two bytes each).
    const std::string text = "{\"setup\": {\"description\": \"Überprüfung\" x}}";
    Problems problems;
    EXPECT_FALSE(parseProfileJson(text, problems));
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].message.substr(0, 10), "line 1:41:") << problems[0].message;
}

TEST(ProfileJson, SyntaxErrorCasesNeverThrow)
{
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"",
            "line 1:1: syntax error while parsing value - unexpected end of input; expected '[', "
            "'{', or a literal"},
        {"{",
            "line 1:2: syntax error while parsing object key - unexpected end of input; "
            "expected string literal"},
        {"{\"version\": 1e400}", "line 1:17: number overflow parsing '1e400'"},
        {"{\"a\": tru}",
            "line 1:10: syntax error while parsing value - invalid literal; last "
            "read: '\"a\": tru}'"},
        {"{\"a\": 1} x",
            "line 1:10: syntax error while parsing value - invalid literal; last "
            "read: '1} x'; expected end of input"},
        {"{\"a\": \"\xff\"}",
            "line 1:8: syntax error while parsing value - invalid string: "
            "ill-formed UTF-8 byte; last read: '\"\\xFF'"},
        {"// comment\n{}",
            "line 1:1: syntax error while parsing value - invalid literal; last "
            "read: '/'"},
    };
    for (const auto &[text, message] : cases) {
        Problems problems;
        EXPECT_NO_THROW(EXPECT_FALSE(parseProfileJson(text, problems)));
        EXPECT_THAT(errorStrings(problems), ElementsAre(message)) << text;
    }
}

TEST(ProfileJson, DeepNestingIsAnErrorNotACrash)
{
    // Stopped at 64 levels: a 4 MiB file of '[' took 700 MB to reject before.
    const std::string tooDeep = "nested more than 64 levels deep; a profile needs at most 8";
    {
        Problems problems;
        EXPECT_FALSE(parseProfileJson(std::string(10000, '['), problems));
        EXPECT_THAT(errorStrings(problems), ElementsAre(tooDeep));
    }
    {
        Problems problems;
        const std::string deep = std::string(100000, '[') + std::string(100000, ']');
        EXPECT_FALSE(parseProfileJson(deep, problems));
        EXPECT_THAT(errorStrings(problems), ElementsAre(tooDeep));
    }
    {
        std::string body = R"("setup": )";
        for (int i = 0; i < 50000; ++i)
            body += R"({"a": )";
        body += "1" + std::string(50000, '}');
        EXPECT_THAT(bodyErrors(body), ElementsAre(tooDeep));
    }
}

TEST(ProfileJson, SixtyFourLevelsAreReadSixtyFiveAreNot)
{
    Problems problems;
    EXPECT_FALSE(parseProfileJson(std::string(64, '[') + std::string(64, ']'), problems));
    EXPECT_THAT(errorStrings(problems), ElementsAre("expected an object, got an array"));
    problems.clear();
    EXPECT_FALSE(parseProfileJson(std::string(65, '[') + std::string(65, ']'), problems));
    EXPECT_THAT(errorStrings(problems),
        ElementsAre("nested more than 64 levels deep; a profile needs at most 8"));
}

TEST(ProfileJson, AnArrayOfAMillionObjectsIsReadInOnePass)
{
    // nlohmann's DOM builder with a callback searched the enclosing array after every
    // object it closed: for this 3 MB text that was minutes of work (and the reader's size
    // limit allows 4 MiB). Now it is one pass; the array is then rejected as usual.
    std::string text = "[";
    for (int i = 0; i < 1'000'000; ++i)
        text += "{},";
    text += "{}]";
    Problems problems;
    EXPECT_FALSE(parseProfileJson(text, problems));
    EXPECT_THAT(errorStrings(problems), ElementsAre("expected an object, got an array"));
}

TEST(ProfileJson, RandomBytesNeverThrowOrCrash)
{
    std::mt19937_64 rng(99);
    for (int i = 0; i < 3000; ++i) {
        std::string text(rng() % 300, '\0');
        for (auto &c : text)
            c = static_cast<char>(rng());
        if (i % 2 == 0 && !text.empty()) // start like JSON to get past the first byte
            text[0] = '{';
        Problems problems;
        std::optional<Profile> p;
        ASSERT_NO_THROW(p = parseProfileJson(text, problems));
        EXPECT_FALSE(p);
        EXPECT_TRUE(hasErrors(problems));
        // Messages quote the input: they must stay valid UTF-8 (a strict dump throws if not).
        for (const auto &problem : problems)
            EXPECT_NO_THROW((void)nlohmann::json(problem.toString()).dump()) << problem.toString();
    }
}

TEST(ProfileJson, MutatedProfilesNeverThrowAndAgreeWithTheirProblems)
{
    ProfileGenerator generator(4242);
    std::mt19937_64 rng(17);
    const std::string alphabet = "{}[]\":,0123456789-.eE truefalsnl\\u\x01\xc3\xa9";
    int accepted = 0;
    for (int i = 0; i < 800; ++i) {
        std::string text = writeProfileJson(generator.profile());
        for (int m = static_cast<int>(rng() % 4) + 1; m > 0; --m) {
            const std::size_t at = rng() % text.size();
            switch (rng() % 3) {
            case 0:
                text.erase(at, 1 + rng() % 8);
                break;
            case 1:
                text[at] = alphabet[rng() % alphabet.size()];
                break;
            default:
                text.insert(at, 1, alphabet[rng() % alphabet.size()]);
            }
            if (text.empty())
                text = "{";
        }
        Problems problems;
        std::optional<Profile> p;
        ASSERT_NO_THROW(p = parseProfileJson(text, problems));
        EXPECT_EQ(p.has_value(), !hasErrors(problems)) << text;
        for (const auto &problem : problems)
            EXPECT_FALSE(problem.message.empty());
        if (p) {
            ++accepted;
            // Whatever was accepted writes and reads back to itself.
            Problems again;
            const auto back = parseProfileJson(writeProfileJson(*p), again);
            ASSERT_TRUE(back) << problemsText(again);
            EXPECT_EQ(*back, *p);
        }
    }
    EXPECT_GT(accepted, 0); // some mutations (e.g. inside strings) keep the profile valid
}

// ------------------------------------------------------------------ names

// The expected name of every enumerator, written out here rather than read from the
// tables under test. Each switch has no default, so a new enumerator is a -Wswitch
// warning (an error in CI) until it is added here; then the loop below finds it and
// fails while names.cpp lacks it. The enums are numbered 0, 1, ... without gaps, so
// "the next value has no expected name" is the end of the enum.
std::string_view expectedName(DistributionKind v)
{
    switch (v) {
    case DistributionKind::Uniform:
        return "uniform";
    case DistributionKind::Zipf:
        return "zipf";
    case DistributionKind::Pareto:
        return "pareto";
    case DistributionKind::Normal:
        return "normal";
    case DistributionKind::HotZones:
        return "hotZones";
    }
    return {};
}

std::string_view expectedName(DataPatternKind v)
{
    switch (v) {
    case DataPatternKind::RepeatingBytes:
        return "repeatingBytes";
    case DataPatternKind::PseudoRandom:
        return "pseudoRandom";
    case DataPatternKind::FullRandom:
        return "fullRandom";
    case DataPatternKind::Zeros:
        return "zeros";
    case DataPatternKind::Compressible:
        return "compressible";
    }
    return {};
}

std::string_view expectedName(SpecAssignment v)
{
    switch (v) {
    case SpecAssignment::None:
        return "none";
    case SpecAssignment::All:
        return "all";
    case SpecAssignment::Disk:
        return "disk";
    case SpecAssignment::Network:
        return "network";
    }
    return {};
}

std::string_view expectedName(TargetKind v)
{
    switch (v) {
    case TargetKind::TestFile:
        return "file";
    case TargetKind::BlockDevice:
        return "blockDevice";
    case TargetKind::Partition:
        return "partition";
    case TargetKind::Volume:
        return "volume";
    case TargetKind::PhysicalDrive:
        return "physicalDrive";
    case TargetKind::FileTree:
        return "fileTree";
    }
    return {};
}

std::string_view expectedName(CacheMode v)
{
    switch (v) {
    case CacheMode::Direct:
        return "direct";
    case CacheMode::Buffered:
        return "buffered";
    }
    return {};
}

std::string_view expectedName(WorkerType v)
{
    switch (v) {
    case WorkerType::Disk:
        return "disk";
    case WorkerType::Network:
        return "network";
    }
    return {};
}

std::string_view expectedName(StepType v)
{
    switch (v) {
    case StepType::Linear:
        return "linear";
    case StepType::Exponential:
        return "exponential";
    }
    return {};
}

std::string_view expectedName(TestType v)
{
    switch (v) {
    case TestType::Normal:
        return "normal";
    case TestType::CycleTargets:
        return "cycleTargets";
    case TestType::CycleWorkers:
        return "cycleWorkers";
    case TestType::IncrementTargetsParallel:
        return "incrementTargetsParallel";
    case TestType::IncrementTargetsSerial:
        return "incrementTargetsSerial";
    case TestType::CycleWorkersAndTargets:
        return "cycleWorkersAndTargets";
    case TestType::CycleOutstandingIos:
        return "cycleOutstandingIos";
    case TestType::CycleOutstandingIosAndTargets:
        return "cycleOutstandingIosAndTargets";
    }
    return {};
}

std::string_view expectedName(RecordFilter v)
{
    switch (v) {
    case RecordFilter::All:
        return "all";
    case RecordFilter::NoTargets:
        return "noTargets";
    case RecordFilter::NoWorkers:
        return "noWorkers";
    case RecordFilter::NoTargetsNoWorkers:
        return "noTargetsNoWorkers";
    case RecordFilter::None:
        return "none";
    }
    return {};
}

std::string_view expectedName(SweepParameter v)
{
    switch (v) {
    case SweepParameter::TransferSize:
        return "transferSize";
    case SweepParameter::OutstandingIos:
        return "outstandingIos";
    case SweepParameter::Workers:
        return "workers";
    case SweepParameter::PercentRead:
        return "percentRead";
    case SweepParameter::PercentRandom:
        return "percentRandom";
    case SweepParameter::Position:
        return "position";
    }
    return {};
}

template<typename E> void expectNamesRoundTrip()
{
    SCOPED_TRACE(allowedNames<E>());
    std::size_t count = 0;
    for (; !expectedName(static_cast<E>(count)).empty(); ++count) {
        const auto value = static_cast<E>(count);
        const std::string_view name = expectedName(value);
        SCOPED_TRACE(name);
        EXPECT_EQ(toString(value), name);
        EXPECT_EQ(parseEnum<E>(name), value);
        std::string upper(name);
        for (auto &c : upper)
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        EXPECT_EQ(parseEnum<E>(upper), value);
    }
    EXPECT_GT(count, 1u);
    // No name in the table beyond the enumerators, and every entry is its own.
    EXPECT_EQ(enumNames<E>().size(), count);
    for (const auto &entry : enumNames<E>())
        EXPECT_EQ(entry.name, expectedName(entry.value));
    EXPECT_EQ(toString(static_cast<E>(count)), "");
    EXPECT_EQ(parseEnum<E>("no such name"), std::nullopt);
    EXPECT_EQ(parseEnum<E>(""), std::nullopt);
}

TEST(Names, EveryEnumRoundTripsThroughItsNames)
{
    expectNamesRoundTrip<DistributionKind>();
    expectNamesRoundTrip<DataPatternKind>();
    expectNamesRoundTrip<SpecAssignment>();
    expectNamesRoundTrip<TargetKind>();
    expectNamesRoundTrip<CacheMode>();
    expectNamesRoundTrip<WorkerType>();
    expectNamesRoundTrip<StepType>();
    expectNamesRoundTrip<TestType>();
    expectNamesRoundTrip<RecordFilter>();
    expectNamesRoundTrip<SweepParameter>();
}

TEST(Names, CoverEveryEnumerator)
{
    EXPECT_EQ(toString(static_cast<CacheMode>(99)), "");
    EXPECT_EQ(allowedNames<CacheMode>(), "direct, buffered");
    EXPECT_EQ(parseDistributionKind("hotzones"), DistributionKind::HotZones);
    EXPECT_EQ(parseRecordFilter("noTargetsNoWorkers"), RecordFilter::NoTargetsNoWorkers);
}

// ------------------------------------------------------------------ documented examples

// Every ```json block of docs/profile-format.md that is a whole profile must load and
// validate cleanly, so the documentation cannot drift from the code.
TEST(ProfileJson, DocumentedExamplesLoadAndValidate)
{
    std::ifstream in(ioprism::test::sourceDir() / "docs" / "profile-format.md");
    ASSERT_TRUE(in) << "docs/profile-format.md is missing";
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string doc = buffer.str();
    int examples = 0;
    for (std::size_t pos = doc.find("```json\n"); pos != std::string::npos;
         pos = doc.find("```json\n", pos)) {
        const std::size_t begin = pos + 8;
        const std::size_t end = doc.find("```", begin);
        ASSERT_NE(end, std::string::npos);
        const std::string block = doc.substr(begin, end - begin);
        pos = end + 3;
        if (block.find("\"format\": \"ioprism-profile\"") == std::string::npos)
            continue;
        ++examples;
        Problems problems;
        const auto p = parseProfileJson(block, problems);
        ASSERT_TRUE(p) << problemsText(problems) << block;
        EXPECT_TRUE(validateProfile(*p).empty()) << problemsText(validateProfile(*p));
        // The example keeps meaning the same after a write.
        Problems again;
        EXPECT_EQ(parseProfileJson(writeProfileJson(*p), again), p);
    }
    EXPECT_GE(examples, 1);
}

TEST(ProfileJson, HandWrittenProfileLoads)
{
    const std::string text = R"({
  "format": "ioprism-profile",
  "version": 1,
  "setup": {"description": "nightly flash check", "runTime": "1m30s", "rampUp": 5,
            "queueDepthCycling": {"start": 1, "end": 64, "step": 2, "stepType": "exponential"},
            "testType": "cycleOutstandingIos"},
  "specs": [
    {"name": "OLTP mix", "lines": [
      {"transferSize": "8KiB", "share": 70, "percentRead": 70, "percentRandom": 100},
      {"transferSize": "64KiB", "share": 30, "percentRead": 0, "percentRandom": 0,
       "alignment": 0, "distribution": {"kind": "zipf", "theta": 1.1}}]}
  ],
  "hosts": [
    {"id": 1, "name": "storage-lab-01", "workers": [
      {"name": "Worker 1", "outstandingIos": 8, "seed": 42, "specs": ["OLTP mix"],
       "dataPattern": {"kind": "fullRandom"},
       "targets": [{"kind": "blockDevice", "path": "/dev/sdb"}]}]}
  ]
})";
    Problems problems;
    const auto p = parseProfileJson(text, problems);
    ASSERT_TRUE(p) << problemsText(problems);
    EXPECT_EQ(p->setup.runTime, 90s);
    EXPECT_EQ(p->setup.queueDepthCycling, (Cycling {1, 2, 64, StepType::Exponential}));
    ASSERT_EQ(p->specs.size(), 1u);
    ASSERT_EQ(p->specs[0].lines.size(), 2u);
    EXPECT_EQ(p->specs[0].lines[0].alignmentBytes, 8 * kKiB);
    EXPECT_EQ(p->specs[0].lines[1].distribution.kind, DistributionKind::Zipf);
    EXPECT_DOUBLE_EQ(p->specs[0].lines[1].distribution.zipfTheta, 1.1);
    EXPECT_EQ(p->hosts[0].workers[0].targets[0].path, "/dev/sdb");
    EXPECT_EQ(p->hosts[0].workers[0].seed, 42u);
    EXPECT_TRUE(validateProfile(*p).empty()) << problemsText(validateProfile(*p));
}

} // namespace
