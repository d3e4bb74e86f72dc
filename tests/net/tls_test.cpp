// SPDX-License-Identifier: GPL-3.0-or-later
// The transport in TLS on loopback, real sockets and real handshakes: the identity, the
// pinned certificate, trust on first use. A build without OpenSSL (MinGW) has no TLS:
// there these tests skip, whatever IOPRISM_NO_SKIP says, as the build cannot run them
// anywhere (plain GTEST_SKIP, like the Windows tests that need a real Windows).
#include "support/test_support.h"

#include <filesystem>
#include <regex>

#include "net_test_support.h"

namespace ioprism::net::test {
namespace {

namespace fs = std::filesystem;

#define REQUIRE_TLS()                                                                              \
    do {                                                                                           \
        if (!tlsAvailable())                                                                       \
            GTEST_SKIP() << "this build has no TLS (built without OpenSSL)";                       \
    } while (0)

class NetTls : public ::testing::Test
{
protected:
    void SetUp() override
    {
        REQUIRE_TLS();
        auto identity = loadOrCreateIdentity((m_dir.path() / "agent").string(), "localhost");
        ASSERT_TRUE(identity) << identity.error().toString();
        m_identity = *identity;
        m_knownAgents = (m_dir.path() / "controller" / "known-agents").string();
    }

    ListenOptions tlsOptions(std::uint16_t port = 0, const TlsIdentity *identity = nullptr)
    {
        ListenOptions options = loopbackOptions();
        options.port = port;
        options.tls = identity ? *identity : m_identity;
        return options;
    }
    ConnectOptions tlsTo(std::uint16_t port)
    {
        ConnectOptions options;
        options.host = "127.0.0.1";
        options.port = port;
        options.tls = true;
        options.knownAgentsFile = m_knownAgents;
        return options;
    }

    ioprism::test::TempDir m_dir;
    TlsIdentity m_identity;
    std::string m_knownAgents;
};

TEST_F(NetTls, IdentityIsMadeOnceWithAPrivateKeyAndReloadsTheSame)
{
    const fs::path dir = m_dir.path() / "agent";
    EXPECT_EQ(m_identity.certificateFile, (dir / "agent-cert.pem").string());
    EXPECT_EQ(m_identity.privateKeyFile, (dir / "agent-key.pem").string());
    EXPECT_TRUE(std::regex_match(
        m_identity.fingerprint, std::regex("SHA256:([0-9A-F]{2}:){31}[0-9A-F]{2}")))
        << m_identity.fingerprint;
    const fs::perms keyMode = fs::status(m_identity.privateKeyFile).permissions() & fs::perms::all;
    EXPECT_EQ(keyMode, fs::perms::owner_read | fs::perms::owner_write);
    // Nothing else is left in the folder (the staging folder is gone).
    int entries = 0;
    for ([[maybe_unused]] const auto &entry : fs::directory_iterator(dir))
        ++entries;
    EXPECT_EQ(entries, 2);

    auto again = loadOrCreateIdentity(dir.string(), "localhost");
    ASSERT_TRUE(again) << again.error().toString();
    EXPECT_EQ(again->fingerprint, m_identity.fingerprint);
    auto loaded = loadIdentity(m_identity.certificateFile, m_identity.privateKeyFile);
    ASSERT_TRUE(loaded) << loaded.error().toString();
    EXPECT_EQ(loaded->fingerprint, m_identity.fingerprint);

    auto other = loadOrCreateIdentity((m_dir.path() / "other").string(), "localhost");
    ASSERT_TRUE(other) << other.error().toString();
    EXPECT_NE(other->fingerprint, m_identity.fingerprint);
}

TEST_F(NetTls, AKeyAndACertificateThatDoNotBelongTogetherAreRefused)
{
    auto other = loadOrCreateIdentity((m_dir.path() / "other").string(), "localhost");
    ASSERT_TRUE(other) << other.error().toString();
    auto mixed = loadIdentity(m_identity.certificateFile, other->privateKeyFile);
    ASSERT_FALSE(mixed);
    EXPECT_NE(mixed.error().toString().find("do not belong together"), std::string::npos)
        << mixed.error().toString();

    // Half an identity is not completed silently: controllers pinned the old one.
    fs::remove(other->privateKeyFile);
    auto half = loadOrCreateIdentity((m_dir.path() / "other").string(), "localhost");
    ASSERT_FALSE(half);
    EXPECT_NE(half.error().toString().find("agent-key.pem is missing"), std::string::npos)
        << half.error().toString();

    auto missing = loadIdentity((m_dir.path() / "none.pem").string(), m_identity.privateKeyFile);
    ASSERT_FALSE(missing);
    EXPECT_NE(
        missing.error().toString().find("cannot read the agent's certificate"), std::string::npos);
}

TEST_F(NetTls, TrustOnFirstUseRecordsTheFingerprintAndTheNextConnectionUsesIt)
{
    Agent agent;
    ASSERT_TRUE(agent.listen(tlsOptions()));
    Recorder agentSide;
    Recorder controllerSide;
    auto first = connect(tlsTo(agent.port()));
    ASSERT_TRUE(first) << first.error().toString();
    EXPECT_TRUE(first->firstUse);
    EXPECT_EQ(first->fingerprint, m_identity.fingerprint);
    const auto known = readKnownAgents(m_knownAgents);
    ASSERT_EQ(known.size(), 1u);
    EXPECT_EQ(known[0].hostPort, "127.0.0.1:" + std::to_string(agent.port()));
    EXPECT_EQ(known[0].fingerprint, m_identity.fingerprint);

    // Messages both ways in TLS, a large one among them.
    auto toController = agent.takeChannel();
    ASSERT_TRUE(toController);
    agentSide.echoOn(*toController);
    agentSide.start(*toController);
    controllerSide.start(*first->channel);
    const std::string large(1u << 20, 't');
    first->channel->send("one");
    first->channel->send(large);
    first->channel->send("three");
    ASSERT_TRUE(controllerSide.waitMessages(3));
    EXPECT_EQ(controllerSide.messages(), (std::vector<std::string> {"one", large, "three"}));

    auto second = connect(tlsTo(agent.port()));
    ASSERT_TRUE(second) << second.error().toString();
    EXPECT_FALSE(second->firstUse);
    EXPECT_EQ(second->fingerprint, m_identity.fingerprint);
    EXPECT_EQ(readKnownAgents(m_knownAgents).size(), 1u);

    // Closing in TLS: both ends once.
    first->channel->close();
    ASSERT_TRUE(agentSide.waitClosed());
    ASSERT_TRUE(controllerSide.waitClosed());
    EXPECT_EQ(agentSide.reason(), "the controller closed the connection");
    EXPECT_EQ(controllerSide.reason(), "");
}

TEST_F(NetTls, AChangedCertificateIsRefusedNamingBothFingerprints)
{
    std::uint16_t port = 0;
    {
        Agent agent;
        ASSERT_TRUE(agent.listen(tlsOptions()));
        port = agent.port();
        auto first = connect(tlsTo(port));
        ASSERT_TRUE(first) << first.error().toString();
        ASSERT_TRUE(first->firstUse);
    }
    // The same address, another identity (the agent's folder was wiped, or a machine in
    // the middle).
    auto other = loadOrCreateIdentity((m_dir.path() / "other").string(), "localhost");
    ASSERT_TRUE(other) << other.error().toString();
    Agent impostor;
    ASSERT_TRUE(impostor.listen(tlsOptions(port, &*other)));
    auto refused = connect(tlsTo(port));
    ASSERT_FALSE(refused);
    const std::string text = refused.error().toString();
    EXPECT_NE(text.find("the agent's certificate changed: known " + m_identity.fingerprint
                  + ", now " + other->fingerprint),
        std::string::npos)
        << text;
    EXPECT_NE(
        text.find("remove line 1 (127.0.0.1:" + std::to_string(port) + ") from " + m_knownAgents),
        std::string::npos)
        << text;
    EXPECT_EQ(readKnownAgents(m_knownAgents).size(), 1u); // not replaced
}

TEST_F(NetTls, AnExplicitPinIsCheckedAndAWrongOneRefused)
{
    Agent agent;
    ASSERT_TRUE(agent.listen(tlsOptions()));
    ConnectOptions options = tlsTo(agent.port());
    options.knownAgentsFile.clear();
    options.pinnedFingerprint = m_identity.fingerprint;
    auto pinned = connect(options);
    ASSERT_TRUE(pinned) << pinned.error().toString();
    EXPECT_FALSE(pinned->firstUse);

    std::string lower = m_identity.fingerprint;
    for (char &c : lower)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    options.pinnedFingerprint = lower; // the same, written otherwise
    EXPECT_TRUE(connect(options));

    auto other = loadOrCreateIdentity((m_dir.path() / "other").string(), "localhost");
    ASSERT_TRUE(other);
    options.pinnedFingerprint = other->fingerprint;
    auto refused = connect(options);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().toString().find(
                  "expected " + other->fingerprint + ", the agent has " + m_identity.fingerprint),
        std::string::npos)
        << refused.error().toString();
    EXPECT_FALSE(fs::exists(m_knownAgents)); // a pin records nothing

    options.pinnedFingerprint.clear();
    auto nothing = connect(options);
    ASSERT_FALSE(nothing);
    EXPECT_NE(nothing.error().toString().find("no fingerprint to check"), std::string::npos);
}

TEST_F(NetTls, PlaintextAgainstTlsAndTlsAgainstPlaintextFailClearly)
{
    Agent tlsAgent;
    ASSERT_TRUE(tlsAgent.listen(tlsOptions()));
    auto plain = connect(plainTo(tlsAgent.port()));
    ASSERT_FALSE(plain);
    EXPECT_NE(
        plain.error().toString().find("this agent accepts TLS connections only; connect with TLS"),
        std::string::npos)
        << plain.error().toString();
    EXPECT_NE(tlsAgent.waitNotice("accepts TLS connections only"), "");

    Agent plainAgent;
    ASSERT_TRUE(plainAgent.listen(loopbackOptions()));
    auto tls = connect(tlsTo(plainAgent.port()));
    ASSERT_FALSE(tls);
    EXPECT_NE(tls.error().toString().find("TLS handshake with the agent at 127.0.0.1:"
                  + std::to_string(plainAgent.port()) + " failed"),
        std::string::npos)
        << tls.error().toString();
    EXPECT_NE(tls.error().toString().find("listens without TLS"), std::string::npos);
    EXPECT_NE(plainAgent.waitNotice("this agent listens without TLS"), "");
    EXPECT_FALSE(fs::exists(m_knownAgents));
}

TEST_F(NetTls, OversizedMessageInTlsEndsTheConnection)
{
    Agent agent;
    ListenOptions options = tlsOptions();
    options.maxMessageBytes = 4096;
    ASSERT_TRUE(agent.listen(options));
    Recorder agentSide;
    Recorder controllerSide;
    auto connection = connect(tlsTo(agent.port()));
    ASSERT_TRUE(connection) << connection.error().toString();
    auto toController = agent.takeChannel();
    ASSERT_TRUE(toController);
    agentSide.start(*toController);
    controllerSide.start(*connection->channel);
    connection->channel->send(std::string(5000, 'x'));
    ASSERT_TRUE(agentSide.waitClosed());
    EXPECT_NE(agentSide.reason().find("over the limit of 4096 bytes"), std::string::npos)
        << agentSide.reason();
    ASSERT_TRUE(controllerSide.waitClosed());
    EXPECT_EQ(controllerSide.reason(),
        "the agent closed the connection: a message over the limit of 4096 bytes");
}

} // namespace
} // namespace ioprism::net::test
