// SPDX-License-Identifier: GPL-3.0-or-later
// A controller on another host, made with a network namespace and a veth pair (root, the
// `ip` command): a plaintext connection from a non-loopback address is refused with the
// reason the controller reports, and a TLS one from the same place works. Linux only
// (tests/CMakeLists.txt leaves netns_*.cpp out of the Windows build).
#include "support/netns.h"
#include "support/test_support.h"

#include <filesystem>
#include <string>
#include <thread>
#include <unistd.h>

#include "net_test_support.h"

namespace ioprism::net::test {
namespace {

using ioprism::test::CommandResult;
using ioprism::test::haveIpNetns;
using ioprism::test::Namespace;

std::string probe()
{
    return (ioprism::test::binDir() / "net_connect_probe").string();
}

TEST(NetNamespace, PlaintextFromAnotherHostIsRefusedWithTheLoopbackReason)
{
    IOPRISM_REQUIRE(geteuid() == 0, "network namespaces need root");
    IOPRISM_REQUIRE(haveIpNetns(), "the ip command (iproute2) with netns support is missing");
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
    IOPRISM_REQUIRE(haveIpNetns(), "the ip command (iproute2) with netns support is missing");
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
