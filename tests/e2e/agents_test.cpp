// SPDX-License-Identifier: GPL-3.0-or-later
// ioprism-cli driving real ioprism-agent processes over real TLS on loopback (issue 28):
// one profile on three agents with exact All managers figures, the agents listed, and
// each fault a user meets (a wrong token, a certificate that changed, a target outside
// the agent's --allow, an agent killed mid-run, Ctrl-C, plaintext from another host)
// giving a clear message, with what was measured kept. Linux only (the Windows agent is
// driven under Wine by scripts/wine-agent-test.sh). No test depends on timing: each waits
// for a condition (a line of output, an exit) with a generous limit.
#include "core/profile/icf.h"
#include "core/profile/profile_json.h"
#include "core/report/results_reader.h"
#include "core/stats/histogram.h"
#include "support/netns.h"

#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "e2e/agent_support.h"
#include "e2e/cli_support.h"
#include "e2e/host_results.h"

using namespace ioprism::test;
using ::testing::HasSubstr;

namespace {

namespace fs = std::filesystem;

// A token of 64 hex characters (the agent asks for at least 16).
constexpr const char *kToken = "5f0c3a9e1b7d4e2a8c6f0b3d9e1a7c5f2b8d4e6a0c3f9b1d7e5a2c8f4b6d0e3a";

class Agents : public ::testing::Test
{
protected:
    void SetUp() override
    {
        writeFile(tokenFile(), std::string(kToken) + "\n");
        fs::permissions(tokenFile(), fs::perms::owner_read | fs::perms::owner_write);
    }

    fs::path dir() const { return m_dir.path(); }
    fs::path tokenFile() const { return dir() / "token"; }
    fs::path knownAgents() const { return dir() / "known-agents"; }
    fs::path dataDir() const { return dir() / "data"; }
    // Agent n's --allow root, where its test file goes.
    fs::path root(int n) const { return dir() / ("root" + std::to_string(n)); }
    fs::path testFile(int n) const { return root(n) / "test.dat"; }

    // The options of agent n: the shared token, its own root and identity folder
    // (`identity` names another one: a new certificate).
    std::vector<std::string> agentOptions(int n, const std::string &identity = "identity") const
    {
        return {"--token-file", tokenFile().string(), "--allow", root(n).string(), "--identity-dir",
            (dir() / ("agent" + std::to_string(n)) / identity).string()};
    }
    // Starts agents 1..count (TLS, on free loopback ports).
    void startAgents(int count)
    {
        for (int n = 1; n <= count; ++n) {
            fs::create_directories(root(n));
            const fs::path home = dir() / ("agent" + std::to_string(n));
            fs::create_directories(home);
            m_agents.push_back(std::make_unique<AgentProcess>(home, agentOptions(n)));
            ASSERT_TRUE(m_agents.back()->listening()) << m_agents.back()->log();
        }
    }
    AgentProcess &agent(int n) { return *m_agents.at(std::size_t(n - 1)); }

    // A profile of one host per agent (m1, m2...), each one worker of 4 KiB random I/O
    // (`percentRead` % reads) at QD 4 on its agent's test file, run for `runTime`
    // ("3s", "10m": a run a test stops itself), intervals of 500 ms. `target` replaces
    // host 1's test file when given.
    fs::path writeProfile(int hosts, const std::string &runTime, int percentRead = 100,
        const std::string &target = {})
    {
        nlohmann::ordered_json hostList = nlohmann::ordered_json::array();
        for (int n = 1; n <= hosts; ++n) {
            const std::string path = n == 1 && !target.empty() ? target : testFile(n).string();
            hostList.push_back({{"name", "m" + std::to_string(n)},
                {"workers",
                    {{{"name", "Worker 1"}, {"outstandingIos", 4}, {"specs", {"4K random"}},
                        {"targets",
                            {{{"kind", "file"}, {"path", path}, {"fileSize", "16MiB"}}}}}}}});
        }
        const nlohmann::ordered_json profile {{"format", "ioprism-profile"}, {"version", 1},
            {"setup",
                {{"description", "agents e2e"}, {"runTime", runTime}, {"rampUp", "0s"},
                    {"interval", "500ms"}}},
            {"specs",
                {{{"name", "4K random"},
                    {"lines",
                        {{{"transferSize", "4KiB"}, {"share", 100}, {"percentRead", percentRead},
                            {"percentRandom", 100}, {"alignment", "4KiB"}}}}}}},
            {"hosts", hostList}};
        const fs::path file = dir() / "profile.json";
        writeFile(file, profile.dump(2));
        return file;
    }

    // --manager for agents 1..count, the token and the known-agents file, as words.
    std::vector<std::string> managerArgs(int count)
    {
        std::vector<std::string> args;
        for (int n = 1; n <= count; ++n)
            args.insert(args.end(), {"--manager", agent(n).address()});
        args.insert(args.end(),
            {"--token-file", tokenFile().string(), "--known-agents", knownAgents().string()});
        return args;
    }
    static std::string joined(const std::vector<std::string> &words)
    {
        std::string text;
        for (const auto &w : words)
            text += " " + shellQuote(w);
        return text;
    }
    // ioprism-cli ARGS (shell text) in the foreground, with this test's run library.
    CliResult cli(const std::string &args)
    {
        return runCli(args, dir(), "env IOPRISM_DATA_DIR=" + shellQuote(dataDir().string()));
    }
    // ioprism-cli run of `profile` on agents 1..count in the background, its output in
    // files; `extra` are more options.
    std::unique_ptr<BackgroundProcess> startRun(
        const fs::path &profile, int count, const std::vector<std::string> &extra)
    {
        std::vector<std::string> argv {cliPath().string(), "run", profile.string()};
        const auto managers = managerArgs(count);
        argv.insert(argv.end(), managers.begin(), managers.end());
        argv.insert(argv.end(), extra.begin(), extra.end());
        return std::make_unique<BackgroundProcess>(argv, dir() / "run-out.txt",
            dir() / "run-err.txt",
            std::vector<std::string> {"IOPRISM_DATA_DIR=" + dataDir().string()});
    }

    // The id of the run the CLI said it saved ("" when it said none).
    static std::string savedId(const std::string &output)
    {
        std::smatch m;
        return std::regex_search(output, m, std::regex("saved as (\\S+)")) ? m[1].str() : "";
    }

    TempDir m_dir; // first: removed after the agents below have stopped
    std::vector<std::unique_ptr<AgentProcess>> m_agents;
};

TEST_F(Agents, ThreeAgentsRunOneProfileAndAllManagersIsExact)
{
    startAgents(3);
    const fs::path profile = writeProfile(3, "3s");
    const CliResult r = cli("run " + shellQuote(profile.string()) + joined(managerArgs(3))
        + " --json r.json --csv r.csv");
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;

    const auto json = nlohmann::json::parse(readFile(dir() / "r.json"));
    ASSERT_EQ(json.at("hosts").size(), 3u);
    for (int n = 1; n <= 3; ++n) {
        EXPECT_EQ(json["hosts"][n - 1].at("name"), "m" + std::to_string(n));
        EXPECT_EQ(json["hosts"][n - 1].at("agent"), agent(n).address());
    }
    ASSERT_EQ(json.at("steps").size(), 1u);
    expectAllHostsExact(readFile(dir() / "r.json"), 3);
    // Each host's test file is said once, however the hosts' reports interleave.
    for (int n = 1; n <= 3; ++n) {
        const std::string said = "-- preparing m" + std::to_string(n) + ":";
        std::size_t count = 0;
        for (auto at = r.out.find(said); at != std::string::npos; at = r.out.find(said, at + 1))
            ++count;
        EXPECT_EQ(count, 1u) << said << "\n" << r.out;
    }

    // The CSV: one MANAGER row per agent, named by its host, and ALL counting 3 managers.
    std::istringstream csv(readFile(dir() / "r.csv"));
    std::vector<std::string> managers;
    int allRows = 0;
    for (std::string line; std::getline(csv, line);) {
        if (line.rfind("MANAGER,", 0) == 0)
            managers.push_back(line.substr(8, line.find(',', 8) - 8));
        if (line.rfind("ALL,", 0) == 0) {
            ++allRows;
            EXPECT_THAT(line, ::testing::StartsWith("ALL,All,4K random,3,3,3,"));
        }
    }
    EXPECT_EQ(managers, (std::vector<std::string> {"m1", "m2", "m3"}));
    EXPECT_EQ(allRows, 1);

    // In the library like any run: listed, and shown.
    const std::string id = savedId(r.out + r.err);
    ASSERT_NE(id, "") << r.out << r.err;
    const CliResult history = cli("history");
    EXPECT_EQ(history.exitCode, 0) << history.err;
    EXPECT_THAT(history.out, HasSubstr(id));
    const CliResult show = cli("show " + id);
    EXPECT_EQ(show.exitCode, 0) << show.err;
    EXPECT_THAT(show.out, HasSubstr("m2 / Worker 1"));
}

// An Iometer .icf of two managers, each with its agent's network address, and a third
// without one: `--manager profile` binds the first two to their agents and the third to
// this host, as Iometer binds an .icf's managers to the Dynamos at their addresses.
TEST_F(Agents, AnIcfsManagersAreBoundToTheAgentsAtTheirNetworkAddresses)
{
    startAgents(2);
    fs::create_directories(root(3));
    const std::string json = readFile(writeProfile(3, "2s"));
    ioprism::core::Problems problems;
    auto profile = ioprism::core::parseProfileJson(json, problems);
    ASSERT_TRUE(profile) << problems.size();
    profile->hosts[0].networkAddress = agent(1).address();
    profile->hosts[1].networkAddress = agent(2).address();
    profile->hosts[2].networkAddress.clear();
    ioprism::core::Problems warnings;
    writeFile(dir() / "three.icf", ioprism::core::writeIcf(*profile, warnings));

    const CliResult r
        = cli("run three.icf --manager profile --token-file " + shellQuote(tokenFile().string())
            + " --known-agents " + shellQuote(knownAgents().string()) + " --json r.json");
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto out = nlohmann::json::parse(readFile(dir() / "r.json"));
    ASSERT_EQ(out.at("hosts").size(), 3u);
    EXPECT_EQ(out["hosts"][0].at("agent"), agent(1).address());
    EXPECT_EQ(out["hosts"][1].at("agent"), agent(2).address());
    EXPECT_TRUE(out["hosts"][2].at("agent").is_null()) << "the third runs on this host";
    for (int n = 1; n <= 3; ++n)
        EXPECT_EQ(out["hosts"][n - 1].at("name"), "m" + std::to_string(n));
    expectAllHostsExact(readFile(dir() / "r.json"), 3);

    // "profile" names every manager: with another one it is refused.
    const CliResult both = cli("run three.icf --manager profile --manager local");
    EXPECT_EQ(both.exitCode, 2);
    EXPECT_THAT(both.err, HasSubstr("--manager profile: give it alone"));
}

TEST_F(Agents, ListsTheAgentsAndNamesOneNotReachable)
{
    startAgents(3);
    const std::string access = " --token-file " + shellQuote(tokenFile().string())
        + " --known-agents " + shellQuote(knownAgents().string());
    const std::string addresses
        = " " + agent(1).address() + " " + agent(2).address() + " " + agent(3).address();

    const CliResult text = cli("agents" + addresses + access);
    EXPECT_EQ(text.exitCode, 0) << text.out << text.err;
    for (int n = 1; n <= 3; ++n) {
        EXPECT_THAT(text.out, HasSubstr(agent(n).address() + ": ")) << text.out;
        EXPECT_THAT(text.out, HasSubstr("IOPrism " IOPRISM_VERSION));
        EXPECT_THAT(text.out, HasSubstr("targets allowed under: " + root(n).string()));
        EXPECT_THAT(text.out, HasSubstr("certificate " + agent(n).fingerprint()));
    }

    const CliResult json = cli("agents" + addresses + access + " --json");
    EXPECT_EQ(json.exitCode, 0) << json.out << json.err;
    const auto list = nlohmann::json::parse(json.out);
    ASSERT_EQ(list.size(), 3u);
    char name[256] = {};
    ::gethostname(name, sizeof name - 1);
    const std::string hostName = name;
    for (int n = 1; n <= 3; ++n) {
        const auto &a = list[std::size_t(n - 1)];
        EXPECT_EQ(a.at("address"), agent(n).address());
        EXPECT_EQ(a.at("reachable"), true);
        EXPECT_EQ(a.at("host"), hostName);
        EXPECT_EQ(a.at("version"), IOPRISM_VERSION);
        EXPECT_EQ(a.at("fingerprint"), agent(n).fingerprint());
        EXPECT_EQ(a.at("allowed"), nlohmann::json::array({root(n).string()}));
    }

    // A port nothing listens on (taken from the kernel's free ones, then let go).
    const std::string nobody = "127.0.0.1:" + std::to_string(freeLoopbackPort());
    const CliResult missing = cli("agents " + agent(1).address() + " " + nobody + access);
    EXPECT_EQ(missing.exitCode, 1) << missing.out << missing.err;
    EXPECT_THAT(missing.out, HasSubstr(nobody + ": not reachable: no agent listens on " + nobody));
    EXPECT_THAT(missing.out, HasSubstr(agent(1).address() + ": "));
    const CliResult missingJson = cli("agents " + nobody + access + " --json");
    EXPECT_EQ(missingJson.exitCode, 1);
    const auto missingList = nlohmann::json::parse(missingJson.out);
    ASSERT_EQ(missingList.size(), 1u);
    EXPECT_EQ(missingList[0].at("reachable"), false);
}

TEST_F(Agents, AWrongTokenIsRefusedNamingTheAgentAndNothingRuns)
{
    startAgents(3);
    writeFile(dir() / "wrong-token", "not-the-agents-token-0123456789\n");
    fs::permissions(dir() / "wrong-token", fs::perms::owner_read | fs::perms::owner_write);
    const fs::path profile = writeProfile(3, "3s");
    std::string args = "run " + shellQuote(profile.string());
    for (int n = 1; n <= 3; ++n)
        args += " --manager " + agent(n).address();
    const CliResult r = cli(args + " --token-file " + shellQuote((dir() / "wrong-token").string())
        + " --known-agents " + shellQuote(knownAgents().string()) + " --json r.json");
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr("agent " + agent(1).address()));
    EXPECT_THAT(r.err, HasSubstr("wrong token"));
    for (int n = 1; n <= 3; ++n)
        EXPECT_FALSE(fs::exists(testFile(n))) << testFile(n) << ": made by a refused run";
}

TEST_F(Agents, AChangedCertificateIsRefusedNamingBothFingerprints)
{
    startAgents(1);
    const std::string access = " --token-file " + shellQuote(tokenFile().string())
        + " --known-agents " + shellQuote(knownAgents().string());
    const CliResult first = cli("agents " + agent(1).address() + access);
    ASSERT_EQ(first.exitCode, 0) << first.out << first.err;
    EXPECT_THAT(first.err, HasSubstr("first connection"));
    const std::string before = agent(1).fingerprint();

    // The same port, another identity: what a machine in the middle would look like.
    agent(1).setOptions(agentOptions(1, "other-identity"));
    ASSERT_TRUE(agent(1).start(agent(1).port())) << agent(1).log();
    const std::string after = agent(1).fingerprint();
    ASSERT_NE(before, after);

    const fs::path profile = writeProfile(1, "3s");
    const CliResult r = cli("run " + shellQuote(profile.string()) + joined(managerArgs(1)));
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr("certificate changed: known " + before + ", now " + after))
        << r.err;
    EXPECT_FALSE(fs::exists(testFile(1)));
    const CliResult list = cli("agents " + agent(1).address() + access);
    EXPECT_EQ(list.exitCode, 1);
    EXPECT_THAT(list.out, HasSubstr(before));
    EXPECT_THAT(list.out, HasSubstr(after));
}

TEST_F(Agents, ATargetOutsideTheAllowedRootsIsRefusedNamingBoth)
{
    startAgents(2);
    const fs::path outside = dir() / "elsewhere" / "test.dat";
    fs::create_directories(outside.parent_path());
    const fs::path profile = writeProfile(2, "3s", 100, outside.string());
    const CliResult r = cli("run " + shellQuote(profile.string()) + joined(managerArgs(2)));
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_THAT(r.err,
        HasSubstr("host m1 (" + agent(1).address() + "): refused by the agent: target "
            + outside.string()
            + " is outside the agent's allowed roots; the agent allows "
              "targets under: "
            + root(1).string()))
        << r.err;
    EXPECT_FALSE(fs::exists(outside));
}

TEST_F(Agents, AnAgentKilledMidRunIsNamedAndWhatWasMeasuredIsKept)
{
    startAgents(3);
    const fs::path profile = writeProfile(3, "10m");
    auto run = startRun(profile, 3, {"--json", (dir() / "r.json").string()});
    // Killed once the run measures (an interval line is printed).
    ASSERT_TRUE(run->waitOut("s] 4K random")) << run->out() << run->err();
    agent(2).process().signal(SIGKILL);
    ASSERT_EQ(agent(2).process().wait(), 128 + SIGKILL);
    const auto code = run->wait();
    ASSERT_TRUE(code.has_value()) << "the CLI did not end after an agent was killed";
    EXPECT_EQ(*code, 1) << run->out() << run->err();
    EXPECT_THAT(run->err(),
        HasSubstr("error: host m2 (" + agent(2).address() + "): agent " + agent(2).address()
            + " disconnected "))
        << run->err();

    const auto json = nlohmann::json::parse(readFile(dir() / "r.json"));
    EXPECT_FALSE(json.at("error").is_null());
    ASSERT_GE(json.at("steps").size(), 1u);
    EXPECT_EQ(json["steps"][0].at("complete"), false);
    EXPECT_GT(json["steps"][0]["scopes"][0]["read"]["ios"].get<std::uint64_t>(), 0u);
    EXPECT_GE(json.at("intervals").size(), 1u);

    const std::string id = savedId(run->out() + run->err());
    ASSERT_NE(id, "") << run->out() << run->err();
    const CliResult history = cli("history");
    EXPECT_THAT(history.out, HasSubstr(id));
    const CliResult show = cli("show " + id);
    EXPECT_EQ(show.exitCode, 0) << show.out << show.err;
    EXPECT_THAT(show.out, HasSubstr("m1 / Worker 1"));
}

TEST_F(Agents, CtrlCStopsEveryAgentsRunAndKeepsTheResults)
{
    startAgents(3);
    const fs::path profile = writeProfile(3, "10m", 0);
    auto run = startRun(profile, 3, {"--json", (dir() / "r.json").string()});
    ASSERT_TRUE(run->waitOut("s] 4K random")) << run->out() << run->err();
    run->signal(SIGINT);
    const auto code = run->wait();
    ASSERT_TRUE(code.has_value()) << "the CLI did not end after SIGINT";
    EXPECT_EQ(*code, 130) << run->out() << run->err(); // interrupted, outputs written
    EXPECT_THAT(run->err(), HasSubstr("stopping (signal 2)"));
    const auto json = nlohmann::json::parse(readFile(dir() / "r.json"));
    EXPECT_EQ(json.at("stoppedByUser"), true);
    ASSERT_GE(json.at("steps").size(), 1u);
    const auto hosts = hostScopes(json["steps"][0]);
    ASSERT_EQ(hosts.size(), 3u);
    for (const auto &h : hosts)
        EXPECT_GT(h.at("write").at("ios").get<std::uint64_t>(), 0u) << h.at("label");
    EXPECT_NE(savedId(run->out() + run->err()), "");

    // Every agent's run has ended: an agent refuses a new run while one is going (it is
    // busy), so a new run on all three succeeds only once each has stopped. The agents
    // learn of the end as the connection closes: waited for, not assumed.
    const fs::path shortProfile = writeProfile(3, "1s");
    CliResult again;
    for (int attempt = 0; attempt < 60; ++attempt) {
        again = cli("run " + shellQuote(shortProfile.string()) + joined(managerArgs(3)));
        if (again.exitCode == 0 || again.err.find("busy") == std::string::npos)
            break;
        std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    EXPECT_EQ(again.exitCode, 0) << again.out << again.err;
    // Nothing writes the test files any more: over one more run (which only reads them)
    // none of them is modified.
    std::vector<fs::file_time_type> before;
    for (int n = 1; n <= 3; ++n)
        before.push_back(fs::last_write_time(testFile(n)));
    const CliResult reading
        = cli("run " + shellQuote(shortProfile.string()) + joined(managerArgs(3)));
    EXPECT_EQ(reading.exitCode, 0) << reading.out << reading.err;
    for (int n = 1; n <= 3; ++n)
        EXPECT_EQ(fs::last_write_time(testFile(n)), before[std::size_t(n - 1)]) << testFile(n);
}

TEST_F(Agents, PlaintextFromAnotherHostIsRefusedWithTheLoopbackReason)
{
    IOPRISM_REQUIRE(::geteuid() == 0, "network namespaces need root");
    IOPRISM_REQUIRE(haveIpNetns(), "the ip command (iproute2) with netns support is missing");
    Namespace ns;
    ASSERT_EQ(ns.error(), "");
    fs::create_directories(root(1));
    fs::create_directories(dir() / "agent1");
    auto options = agentOptions(1);
    options.push_back("--plaintext");
    AgentProcess plain(dir() / "agent1", options, "0.0.0.0");
    ASSERT_TRUE(plain.listening()) << plain.log();
    const std::string address = ns.hostAddress() + ":" + std::to_string(plain.port());

    const auto inside = ns.runInside(shellQuote(cliPath().string()) + " agents " + address
        + " --plaintext --token-file " + shellQuote(tokenFile().string()));
    EXPECT_EQ(inside.status, 1) << inside.output;
    EXPECT_THAT(inside.output,
        HasSubstr("the agent at " + address
            + " refused the connection: plaintext connections are accepted from loopback only; "
              "use TLS or an SSH tunnel"));

    const fs::path profile = writeProfile(1, "3s");
    const auto run = ns.runInside("env IOPRISM_DATA_DIR=" + shellQuote(dataDir().string()) + " "
        + shellQuote(cliPath().string()) + " run " + shellQuote(profile.string()) + " --manager "
        + address + " --plaintext --token-file " + shellQuote(tokenFile().string()));
    EXPECT_EQ(run.status, 1) << run.output;
    EXPECT_THAT(run.output, HasSubstr("plaintext connections are accepted from loopback only"));
    EXPECT_FALSE(fs::exists(testFile(1)));
    EXPECT_TRUE(plain.process().waitErr("refused the connection from " + ns.innerAddress() + ":"))
        << plain.log();
}

} // namespace
