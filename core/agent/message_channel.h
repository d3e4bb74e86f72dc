// SPDX-License-Identifier: GPL-3.0-or-later
// One connection between a controller (the GUI, the CLI) and an agent, as whole
// messages in order: what the agent protocol (core/agent/agent_messages.h) runs over.
// The network transport (net/transport.h: WebSocket over TCP, in TLS where the build has
// OpenSSL) implements it; so does an in-memory pair for the tests (makeChannelPair), so
// that the protocol is tested without a network and the transport without the protocol.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace ioprism::core {

// A message is text (UTF-8: JSON), or binary when its first byte is this mark, which
// never starts JSON text: the session codec's interval events (core/run/session_codec.h).
// A transport that tells the two apart (WebSocket) sends each as what it is.
inline constexpr char kBinaryMessageMark = '\0';
inline bool isBinaryMessage(std::string_view message)
{
    return !message.empty() && message.front() == kBinaryMessageMark;
}

class MessageChannel
{
public:
    using OnMessage = std::function<void(std::string text)>;
    // Why the channel ended: "" when this side closed it, else what happened ("the
    // agent closed the connection", "connection reset by peer", "message of 20 MiB is
    // over the 16 MiB limit").
    using OnClosed = std::function<void(std::string reason)>;

    virtual ~MessageChannel() = default;

    // Starts delivering: `onMessage` for each message received, in order, then `onClosed`
    // exactly once when the channel ends; both on the channel's own thread, never on the
    // caller's, and never after the channel is destroyed. They must not block (copy and
    // hand off). Called once.
    virtual void start(OnMessage onMessage, OnClosed onClosed) = 0;

    // Queues a message to send, in order; thread-safe; never blocks on the network.
    // False when the channel has ended (the message is dropped).
    virtual bool send(std::string text) = 0;

    // Ends the channel: what was queued before is sent first (as far as the peer takes
    // it), then onClosed("") is called. Thread-safe; idempotent.
    virtual void close() = 0;

    // Who is at the other end, for messages: "192.0.2.7:7355", "[::1]:7355", "memory".
    virtual std::string peer() const = 0;
};

// Two channels connected to each other in memory (the tests' network): a message sent on
// one is received by the other, on a thread of the pair's, in order; closing one closes
// both (the other's reason: "the peer closed the connection").
std::pair<std::unique_ptr<MessageChannel>, std::unique_ptr<MessageChannel>> makeChannelPair();

} // namespace ioprism::core
