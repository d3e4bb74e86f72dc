// SPDX-License-Identifier: GPL-3.0-or-later
// A controller on another host, made with a network namespace and a veth pair (root, the
// `ip` command): a plaintext connection from a non-loopback address is refused with the
// reason the controller reports, and a TLS one from the same place works. Linux only
// (tests/CMakeLists.txt leaves netns_*.cpp out of the Windows build).
#include "support/test_support.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "net_test_support.h"

namespace ioprism::net::test {
namespace {

// The output and exit status of a shell command.
struct CommandResult {
    int status = -1;
    std::string output;
};

CommandResult run(const std::string &command)
{
    CommandResult result;
    FILE *pipe = popen((command + " 2>&1").c_str(), "r");
    if (!pipe)
        return result;
    char buffer[4096];
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe))
        result.output.append(buffer, n);
    const int status = pclose(pipe);
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

// A namespace "ioprism-net-<pid>" joined to this one by a veth pair: 10.213.N.1 here,
// 10.213.N.2 inside (N from the process id: runs side by side do not clash). Removed
// when this goes, whatever the test did: deleting the namespace deletes its end of the
// pair, which deletes the other.
class Namespace
{
public:
    Namespace()
    {
        const int n = static_cast<int>(getpid() % 250) + 1;
        const std::string id = std::to_string(getpid() % 100000);
        m_name = "ioprism-net-" + id;
        m_hostLink = "ipnet" + id + "h";
        m_innerLink = "ipnet" + id + "n";
        m_hostAddress = "10.213." + std::to_string(n) + ".1";
        m_innerAddress = "10.213." + std::to_string(n) + ".2";
        remove(); // left by an earlier run that was killed
        for (const std::string &command : {
                 "ip netns add " + m_name,
                 "ip link add " + m_hostLink + " type veth peer name " + m_innerLink,
                 "ip link set " + m_innerLink + " netns " + m_name,
                 "ip addr add " + m_hostAddress + "/24 dev " + m_hostLink,
                 "ip link set " + m_hostLink + " up",
                 "ip -n " + m_name + " addr add " + m_innerAddress + "/24 dev " + m_innerLink,
                 "ip -n " + m_name + " link set " + m_innerLink + " up",
                 "ip -n " + m_name + " link set lo up",
             }) {
            const CommandResult result = run(command);
            if (result.status != 0) {
                m_error = command + ": " + result.output;
                return;
            }
        }
    }
    ~Namespace() { remove(); }
    Namespace(const Namespace &) = delete;
    Namespace &operator=(const Namespace &) = delete;

    const std::string &error() const { return m_error; }
    const std::string &hostAddress() const { return m_hostAddress; }
    const std::string &innerAddress() const { return m_innerAddress; }
    // Runs `command` inside the namespace.
    CommandResult runInside(const std::string &command) const
    {
        return run("ip netns exec " + m_name + " " + command);
    }

private:
    void remove()
    {
        run("ip netns del " + m_name);
        run("ip link del " + m_hostLink);
    }

    std::string m_name, m_hostLink, m_innerLink, m_hostAddress, m_innerAddress, m_error;
};

bool haveIp()
{
    return run("ip netns list").status == 0;
}

std::string probe()
{
    return (ioprism::test::binDir() / "net_connect_probe").string();
}

TEST(NetNamespace, PlaintextFromAnotherHostIsRefusedWithTheLoopbackReason)
{
    IOPRISM_REQUIRE(geteuid() == 0, "network namespaces need root");
    IOPRISM_REQUIRE(haveIp(), "the ip command (iproute2) with netns support is missing");
    Namespace ns;
    ASSERT_EQ(ns.error(), "");
    Agent agent;
    ListenOptions options;
    options.address = ns.hostAddress();
    options.port = 0;
    ASSERT_TRUE(agent.listen(options));

    const CommandResult result = ns.runInside(
        probe() + " " + ns.hostAddress() + " " + std::to_string(agent.port()) + " plain");
    EXPECT_EQ(result.status, 1) << result.output;
    EXPECT_NE(result.output.find("refused: the agent at " + ns.hostAddress() + ":"
                  + std::to_string(agent.port())
                  + " refused the connection: plaintext connections are accepted from loopback "
                    "only; use TLS or an SSH tunnel"),
        std::string::npos)
        << result.output;
    const std::string notice
        = agent.waitNotice("plaintext connections are accepted from loopback only");
    EXPECT_NE(
        notice.find("refused the connection from " + ns.innerAddress() + ":"), std::string::npos)
        << notice;
}

TEST(NetNamespace, TlsFromAnotherHostWorks)
{
    IOPRISM_REQUIRE(geteuid() == 0, "network namespaces need root");
    IOPRISM_REQUIRE(haveIp(), "the ip command (iproute2) with netns support is missing");
    if (!tlsAvailable())
        GTEST_SKIP() << "this build has no TLS (built without OpenSSL)";
    Namespace ns;
    ASSERT_EQ(ns.error(), "");
    ioprism::test::TempDir dir;
    auto identity = loadOrCreateIdentity((dir.path() / "agent").string(), "agent.test");
    ASSERT_TRUE(identity) << identity.error().toString();
    Agent agent;
    ListenOptions options;
    options.address = ns.hostAddress();
    options.port = 0;
    options.tls = *identity;
    ASSERT_TRUE(agent.listen(options));
    const std::string knownAgents = (dir.path() / "known-agents").string();

    CommandResult result;
    std::thread controller([&] {
        result = ns.runInside(probe() + " " + ns.hostAddress() + " " + std::to_string(agent.port())
            + " tls " + knownAgents);
    });
    Recorder agentSide; // before the channel: it outlives the channel's callbacks
    auto channel = agent.takeChannel();
    ASSERT_TRUE(channel) << agent.notices().size();
    EXPECT_EQ(channel->peer().rfind(ns.innerAddress() + ":", 0), 0u) << channel->peer();
    agentSide.echoOn(*channel);
    agentSide.start(*channel);
    controller.join();
    EXPECT_EQ(result.status, 0) << result.output;
    EXPECT_NE(result.output.find("connected " + identity->fingerprint), std::string::npos)
        << result.output;
    EXPECT_NE(result.output.find("echo ping"), std::string::npos) << result.output;
    const auto known = readKnownAgents(knownAgents);
    ASSERT_EQ(known.size(), 1u);
    EXPECT_EQ(known[0].hostPort, ns.hostAddress() + ":" + std::to_string(agent.port()));
}

} // namespace
} // namespace ioprism::net::test
