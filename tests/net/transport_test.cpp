// SPDX-License-Identifier: GPL-3.0-or-later
// The transport in plaintext on loopback, real sockets: what every build has (the MinGW
// build runs these under Wine).
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <thread>

#include "net_test_support.h"

namespace ioprism::net::test {
namespace {

struct Pair {
    Agent agent;
    Recorder agentSide;
    Recorder controllerSide;
    std::unique_ptr<core::MessageChannel> toAgent; // the controller's channel
    std::unique_ptr<core::MessageChannel> toController; // the agent's channel
};

// A plaintext loopback agent and one controller connected to it, both started.
void connectPair(
    Pair &pair, ListenOptions options = loopbackOptions(), ConnectOptions connectOptions = {})
{
    ASSERT_TRUE(pair.agent.listen(options)) << "listen";
    if (connectOptions.host.empty())
        connectOptions = plainTo(pair.agent.port());
    connectOptions.port = pair.agent.port();
    auto connection = connect(connectOptions);
    ASSERT_TRUE(connection) << connection.error().toString();
    EXPECT_EQ(connection->fingerprint, "");
    EXPECT_FALSE(connection->firstUse);
    pair.toAgent = std::move(connection->channel);
    pair.toController = pair.agent.takeChannel();
    ASSERT_TRUE(pair.toController);
    pair.agentSide.start(*pair.toController);
    pair.controllerSide.start(*pair.toAgent);
}

TEST(NetPlain, MessagesBothWaysInOrderIncludingLargeOnes)
{
    Pair pair;
    connectPair(pair);
    EXPECT_EQ(pair.toAgent->peer(), "127.0.0.1:" + std::to_string(pair.agent.port()));
    EXPECT_EQ(pair.toController->peer().rfind("127.0.0.1:", 0), 0u) << pair.toController->peer();

    const std::string large(1u << 20, 'x');
    constexpr int kSmall = 10000;
    pair.agentSide.echoOn(*pair.toController);
    // From another thread than the test's too: send() is thread-safe and keeps the order of
    // each sender.
    ASSERT_TRUE(pair.toAgent->send(large + "a"));
    std::thread sender([&] {
        for (int i = 0; i < kSmall; ++i)
            pair.toAgent->send(std::to_string(i));
    });
    sender.join();
    ASSERT_TRUE(pair.toAgent->send(large + "b"));
    ASSERT_TRUE(pair.controllerSide.waitMessages(kSmall + 2));
    const auto echoed = pair.controllerSide.messages();
    ASSERT_EQ(echoed.size(), kSmall + 2u);
    EXPECT_EQ(echoed.front(), large + "a");
    for (int i = 0; i < kSmall; ++i)
        ASSERT_EQ(echoed[static_cast<std::size_t>(i) + 1], std::to_string(i)) << "message " << i;
    EXPECT_EQ(echoed.back(), large + "b");
    EXPECT_EQ(pair.agentSide.messages(), echoed);
}

TEST(NetPlain, OversizedMessageEndsTheConnectionAndTheListenerServesOthers)
{
    Pair pair;
    ListenOptions options = loopbackOptions();
    options.maxMessageBytes = 1024;
    connectPair(pair, options);
    ASSERT_TRUE(pair.toAgent->send(std::string(1024, 'a'))); // at the limit: fine
    ASSERT_TRUE(pair.agentSide.waitMessages(1));
    ASSERT_TRUE(pair.toAgent->send(std::string(4096, 'b')));
    ASSERT_TRUE(pair.agentSide.waitClosed());
    EXPECT_NE(pair.agentSide.reason().find("over the limit of 1024 bytes"), std::string::npos)
        << pair.agentSide.reason();
    EXPECT_EQ(pair.agentSide.messages().size(), 1u);
    ASSERT_TRUE(pair.controllerSide.waitClosed());
    // The agent said why, and the controller says it.
    EXPECT_EQ(pair.controllerSide.reason(),
        "the agent closed the connection: a message over the limit of 1024 bytes");
    EXPECT_FALSE(pair.toAgent->send("after the end"));

    // Another controller is served as before.
    Recorder agentSide;
    Recorder controllerSide;
    auto second = connect(plainTo(pair.agent.port()));
    ASSERT_TRUE(second) << second.error().toString();
    auto toController = pair.agent.takeChannel();
    ASSERT_TRUE(toController);
    agentSide.echoOn(*toController);
    agentSide.start(*toController);
    controllerSide.start(*second->channel);
    second->channel->send("hello");
    ASSERT_TRUE(controllerSide.waitMessages(1));
    EXPECT_EQ(controllerSide.messages().front(), "hello");
}

TEST(NetPlain, ClosingTheControllerSideEndsBothOnce)
{
    Pair pair;
    connectPair(pair);
    pair.toAgent->send("last");
    pair.toAgent->close();
    EXPECT_FALSE(pair.toAgent->send("too late"));
    ASSERT_TRUE(pair.controllerSide.waitClosed());
    ASSERT_TRUE(pair.agentSide.waitClosed());
    EXPECT_EQ(pair.controllerSide.reason(), ""); // this side closed it
    EXPECT_EQ(pair.agentSide.reason(), "the controller closed the connection");
    // What was queued before close() arrived first.
    EXPECT_EQ(pair.agentSide.messages(), std::vector<std::string> {"last"});
    pair.toAgent->close(); // idempotent
    pair.toController->close();
    pair.toAgent.reset();
    pair.toController.reset();
    EXPECT_EQ(pair.controllerSide.closedCount(), 1);
    EXPECT_EQ(pair.agentSide.closedCount(), 1);
}

TEST(NetPlain, ClosingTheAgentSideEndsBothOnce)
{
    Pair pair;
    connectPair(pair);
    pair.toController->close();
    ASSERT_TRUE(pair.agentSide.waitClosed());
    ASSERT_TRUE(pair.controllerSide.waitClosed());
    EXPECT_EQ(pair.agentSide.reason(), "");
    EXPECT_EQ(pair.controllerSide.reason(), "the agent closed the connection");
    EXPECT_FALSE(pair.toAgent->send("nobody there"));
    pair.toAgent.reset();
    pair.toController.reset();
    EXPECT_EQ(pair.controllerSide.closedCount(), 1);
    EXPECT_EQ(pair.agentSide.closedCount(), 1);
}

TEST(NetPlain, DestroyingAChannelMidTrafficIsSafe)
{
    for (const bool destroyController : {true, false}) {
        SCOPED_TRACE(
            destroyController ? "controller's channel destroyed" : "agent's channel destroyed");
        Pair pair;
        connectPair(pair);
        pair.agentSide.echoOn(*pair.toController);
        auto &destroyed = destroyController ? pair.toAgent : pair.toController;
        auto &survivor = destroyController ? pair.toController : pair.toAgent;
        Recorder &destroyedSide = destroyController ? pair.controllerSide : pair.agentSide;
        Recorder &survivorSide = destroyController ? pair.agentSide : pair.controllerSide;
        // Far more than is on the wire when the channel goes: 8 MiB each way.
        for (int i = 0; i < 2000; ++i)
            pair.toAgent->send(std::string(4096, 'm'));
        ASSERT_TRUE(destroyedSide.waitMessages(1));
        const int closedBefore = destroyedSide.closedCount();
        destroyed.reset(); // writes, reads and echoes in flight
        const std::size_t messagesAtDestruction = destroyedSide.messages().size();
        ASSERT_TRUE(survivorSide.waitClosed());
        EXPECT_EQ(survivorSide.closedCount(), 1);
        EXPECT_FALSE(survivor->send("after"));
        // Nothing called back into the destroyed channel's user afterwards.
        EXPECT_EQ(destroyedSide.closedCount(), closedBefore);
        EXPECT_EQ(destroyedSide.messages().size(), messagesAtDestruction);
    }
}

TEST(NetPlain, AChannelMayBeDestroyedInItsOwnCallback)
{
    Agent agent;
    ASSERT_TRUE(agent.listen(loopbackOptions()));
    Recorder agentSide;
    auto connection = connect(plainTo(agent.port()));
    ASSERT_TRUE(connection) << connection.error().toString();
    auto toController = agent.takeChannel();
    ASSERT_TRUE(toController);
    agentSide.start(*toController);

    std::mutex mutex;
    std::condition_variable gone;
    bool destroyed = false;
    std::unique_ptr<core::MessageChannel> channel = std::move(connection->channel);
    core::MessageChannel *raw = channel.get();
    auto holder = std::make_shared<std::unique_ptr<core::MessageChannel>>(std::move(channel));
    raw->start(
        [&, holder](std::string) {
            holder->reset(); // the client connection's thread ends itself
            std::lock_guard lock(mutex);
            destroyed = true;
            gone.notify_all();
        },
        [](std::string) {});
    toController->send("go");
    {
        std::unique_lock lock(mutex);
        ASSERT_TRUE(gone.wait_for(lock, kWait, [&] { return destroyed; }));
    }
    ASSERT_TRUE(agentSide.waitClosed());
}

TEST(NetPlain, APeerThatAnswersNothingIsNoticedByTheIdleTimeout)
{
    // The agent's channel is never started: it reads nothing, so it answers no ping, as a
    // stopped process or a host behind a pulled cable would.
    Agent agent;
    ASSERT_TRUE(agent.listen(loopbackOptions()));
    ConnectOptions options = plainTo(agent.port());
    options.idleTimeout = std::chrono::milliseconds(1000);
    Recorder controllerSide;
    auto connection = connect(options);
    ASSERT_TRUE(connection) << connection.error().toString();
    auto silent = agent.takeChannel();
    ASSERT_TRUE(silent);
    controllerSide.start(*connection->channel);
    ASSERT_TRUE(controllerSide.waitClosed());
    EXPECT_EQ(
        controllerSide.reason(), "the agent answered nothing for 1 s: the connection is lost");
}

TEST(NetPlain, AConnectionThatNeverCompletesItsHandshakeIsClosed)
{
    Agent agent;
    ListenOptions options = loopbackOptions();
    options.handshakeTimeout = std::chrono::milliseconds(500);
    ASSERT_TRUE(agent.listen(options));
    // A TCP connection that says nothing.
    boost::asio::io_context context;
    boost::asio::ip::tcp::socket socket(context);
    boost::system::error_code ec;
    socket.connect({boost::asio::ip::make_address("127.0.0.1"), agent.port()}, ec);
    ASSERT_FALSE(ec) << ec.message();
    const std::string notice = agent.waitNotice("no handshake from 127.0.0.1:");
    EXPECT_NE(notice.find("in time"), std::string::npos) << notice;
    // The agent closed it: a read ends (instead of blocking for ever).
    char byte = 0;
    boost::asio::read(socket, boost::asio::buffer(&byte, 1), ec);
    EXPECT_TRUE(ec == boost::asio::error::eof || ec == boost::asio::error::connection_reset)
        << ec.message();
    // And the listener serves the next one.
    auto connection = connect(plainTo(agent.port()));
    ASSERT_TRUE(connection) << connection.error().toString();
}

TEST(NetPlain, NoAgentListeningIsSaid)
{
    // The port is held by a socket that is bound but does not listen, so that no other
    // test running beside this one can take it in between: connecting is refused.
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket holder(io);
    holder.open(boost::asio::ip::tcp::v4());
    holder.bind({boost::asio::ip::address_v4::loopback(), 0});
    const std::uint16_t port = holder.local_endpoint().port();
    auto connection = connect(plainTo(port));
    ASSERT_FALSE(connection);
    EXPECT_EQ(
        connection.error().toString(), "no agent listens on 127.0.0.1:" + std::to_string(port));
}

TEST(NetPlain, ListeningOnAPortInUseIsRefused)
{
    Agent agent;
    ASSERT_TRUE(agent.listen(loopbackOptions()));
    ListenOptions options = loopbackOptions();
    options.port = agent.port();
    auto second = listen(
        options, [](std::unique_ptr<core::MessageChannel>) {}, [](std::string) {});
    ASSERT_FALSE(second);
    EXPECT_NE(second.error().toString().find(
                  "cannot listen on 127.0.0.1:" + std::to_string(agent.port())),
        std::string::npos)
        << second.error().toString();
    auto bad = listen(
        ListenOptions {"not-an-address", 0}, [](std::unique_ptr<core::MessageChannel>) {},
        [](std::string) {});
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().toString().find("is not an IP address"), std::string::npos);
}

TEST(NetPlain, AClosedListenerAcceptsNoMoreAndItsChannelsGoOn)
{
    Pair pair;
    connectPair(pair);
    const std::uint16_t port = pair.agent.port();
    pair.agent.listener().close();
    pair.agent.listener().close(); // idempotent
    pair.agent.stop(); // the Listener destroyed: its thread lives on for the channel
    auto refused = connect(plainTo(port));
    ASSERT_FALSE(refused);
    pair.agentSide.echoOn(*pair.toController);
    pair.toAgent->send("still here");
    ASSERT_TRUE(pair.controllerSide.waitMessages(1));
    EXPECT_EQ(pair.controllerSide.messages().front(), "still here");
}

TEST(NetPlain, ATlsClientIsToldThePlaintextListenerHasNoTls)
{
    // In a build without TLS the client refuses before connecting; with TLS, the listener
    // closes the connection it sees start with a TLS ClientHello, says so, and keeps serving.
    Agent agent;
    ASSERT_TRUE(agent.listen(loopbackOptions()));
    ConnectOptions tlsOptions = plainTo(agent.port());
    tlsOptions.tls = true;
    tlsOptions.pinnedFingerprint = "SHA256:00";
    auto tls = connect(tlsOptions);
    ASSERT_FALSE(tls);
    if (tlsAvailable()) {
        EXPECT_NE(tls.error().toString().find("TLS handshake with the agent at 127.0.0.1:"),
            std::string::npos)
            << tls.error().toString();
        EXPECT_NE(agent.waitNotice("this agent listens without TLS"), "");
    } else {
        EXPECT_NE(tls.error().toString().find("this build has no TLS"), std::string::npos)
            << tls.error().toString();
    }
    auto plain = connect(plainTo(agent.port()));
    ASSERT_TRUE(plain) << plain.error().toString();
}

} // namespace
} // namespace ioprism::net::test
