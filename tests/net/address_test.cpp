// SPDX-License-Identifier: GPL-3.0-or-later
// Agent addresses as users type them, and the known-agents file as it is read.
#include "support/test_support.h"

#include <fstream>
#include <gtest/gtest.h>

#include "net/transport.h"

namespace ioprism::net {
namespace {

TEST(NetAddress, HostAndPortAreParsed)
{
    struct Case {
        const char *text;
        const char *host;
        std::uint16_t port;
    };
    for (const Case &c : {Case {"agent1", "agent1", kDefaultAgentPort},
             Case {"agent1:9000", "agent1", 9000}, Case {" 192.0.2.7:7356 ", "192.0.2.7", 7356},
             Case {"[2001:db8::7]:7357", "2001:db8::7", 7357},
             Case {"[::1]", "::1", kDefaultAgentPort}, Case {"::1", "::1", kDefaultAgentPort},
             Case {"host.example:65535", "host.example", 65535}}) {
        SCOPED_TRACE(c.text);
        auto parsed = parseHostPort(c.text);
        ASSERT_TRUE(parsed) << parsed.error().toString();
        EXPECT_EQ(parsed->host, c.host);
        EXPECT_EQ(parsed->port, c.port);
    }
    EXPECT_EQ(parseHostPort("agent", 1234)->port, 1234);
    // Port 0 only where asked for (where to listen: any free port).
    EXPECT_FALSE(parseHostPort("127.0.0.1:0"));
    const auto any = parseHostPort("127.0.0.1:0", kDefaultAgentPort, PortZero::AnyFreePort);
    ASSERT_TRUE(any);
    EXPECT_EQ(any->port, 0);
    EXPECT_EQ(any->host, "127.0.0.1");
}

TEST(NetAddress, BadAddressesAreRefusedWithAReason)
{
    struct Case {
        const char *text;
        const char *why;
    };
    for (const Case &c :
        {Case {"", "no host name or address"}, Case {":7355", "no host name or address"},
            Case {"agent:", "the port must be a number from 1 to 65535"},
            Case {"agent:0", "the port must be a number from 1 to 65535"},
            Case {"agent:65536", "the port must be a number from 1 to 65535"},
            Case {"agent:7x", "the port must be a number from 1 to 65535"},
            Case {"[::1", "a '[' without its ']'"},
            Case {"[::1]x", "only \":port\" may follow ']'"},
            Case {"[agent]:1", "is not an IPv6 address"},
            Case {"2001:db8::7:7355:x", "put an IPv6 address in brackets"}}) {
        SCOPED_TRACE(c.text);
        auto parsed = parseHostPort(c.text);
        ASSERT_FALSE(parsed);
        EXPECT_NE(parsed.error().toString().find(c.why), std::string::npos)
            << parsed.error().toString();
        EXPECT_EQ(parsed.error().toString().rfind("agent address \"", 0), 0u);
    }
}

TEST(NetAddress, HostPortIsFormattedAsTheKnownAgentsFileKeysIt)
{
    EXPECT_EQ(formatHostPort("agent1", 7355), "agent1:7355");
    EXPECT_EQ(formatHostPort("2001:db8::7", 7355), "[2001:db8::7]:7355");
}

TEST(NetAddress, KnownAgentsFileSkipsCommentsAndBadLines)
{
    test::TempDir dir;
    const auto file = (dir.path() / "known-agents").string();
    EXPECT_TRUE(readKnownAgents(file).empty()); // not there yet
    std::ofstream(file) << "# agents this controller trusts\n"
                           "\n"
                           "agent1:7355 SHA256:AA:BB  # the lab's\n"
                           "only-one-word\n"
                           "too many words here\n"
                           "  [::1]:7356\tSHA256:CC\n";
    const auto known = readKnownAgents(file);
    ASSERT_EQ(known.size(), 2u);
    EXPECT_EQ(known[0].hostPort, "agent1:7355");
    EXPECT_EQ(known[0].fingerprint, "SHA256:AA:BB");
    EXPECT_EQ(known[0].line, 3);
    EXPECT_EQ(known[1].hostPort, "[::1]:7356");
    EXPECT_EQ(known[1].fingerprint, "SHA256:CC");
    EXPECT_EQ(known[1].line, 6);
}

} // namespace
} // namespace ioprism::net
