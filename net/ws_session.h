// SPDX-License-Identifier: GPL-3.0-or-later
// A WebSocket connection as a core::MessageChannel, for any stream under the WebSocket
// (plain TCP here, TLS in tls_openssl.cpp): the one piece of code that sends, receives,
// closes and words why a connection ended, whatever carries it.
//
// Threads: every operation on the stream runs on the IoThread (one thread per
// io_context, so in order, without a lock); send() and close() from other threads post to
// it. The user's callbacks are called on that thread under m_callbackMutex, which the
// Channel's destructor takes to mark the session detached: once it returns no callback
// runs (a recursive mutex, so that a callback may destroy its own channel).
#pragma once

#include "core/agent/message_channel.h"

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "net/io_thread.h"
#include "net/transport.h"

namespace ioprism::net::detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace websocket = boost::beast::websocket;
using tcp = boost::asio::ip::tcp;

// A WebSocket close handshake, on both sides.
inline constexpr std::chrono::seconds kCloseTimeout {10};
// Messages are read in parts of at most this (see onRead).
inline constexpr std::size_t kReadPartBytes = std::size_t {64} * 1024;
// The HTTP upgrade request is small; a larger one is not a controller.
inline constexpr std::uint32_t kUpgradeRequestMaxBytes = 8192;

// "192.0.2.7:7355", "[::1]:7355".
std::string formatEndpoint(const tcp::endpoint &endpoint);
// Why a connection ended, for a user: `peerRole` is "agent" or "controller".
struct SessionSettings;
std::string endReason(beast::error_code ec, const websocket::close_reason &peerClose,
    const SessionSettings &settings);
core::OpError netError(std::string text, std::error_code code = {});
// "10 s", "1500 ms".
std::string durationText(std::chrono::milliseconds duration);

// What a connection needs besides its stream.
struct SessionSettings {
    std::string peer; // formatEndpoint of the other end
    std::string peerRole; // "agent" (the controller's side) or "controller"
    std::size_t maxMessageBytes = 0;
    std::chrono::milliseconds idleTimeout {0}; // see kDefaultIdleTimeout
};

class Session
{
public:
    virtual ~Session() = default;
    virtual void start(
        core::MessageChannel::OnMessage onMessage, core::MessageChannel::OnClosed onClosed)
        = 0;
    virtual bool send(std::string text) = 0;
    virtual void close() = 0;
    // No callback after this returns; the connection is closed (queued messages dropped
    // unless close() came first). Called once, by the Channel's destructor.
    virtual void detach() = 0;
};

// The MessageChannel handed out: a session and the thread it runs on, which it keeps
// alive (a Listener's thread outlives the Listener while channels are in use).
class Channel final : public core::MessageChannel
{
public:
    Channel(std::shared_ptr<Session> session, std::shared_ptr<IoThread> thread, std::string peer)
        : m_session(std::move(session))
        , m_thread(std::move(thread))
        , m_peer(std::move(peer))
    { }
    ~Channel() override
    {
        m_session->detach();
        m_session.reset();
        m_thread.reset(); // the last user of a client connection's thread joins it
    }
    void start(OnMessage onMessage, OnClosed onClosed) override
    {
        m_session->start(std::move(onMessage), std::move(onClosed));
    }
    bool send(std::string text) override { return m_session->send(std::move(text)); }
    void close() override { m_session->close(); }
    std::string peer() const override { return m_peer; }

private:
    std::shared_ptr<Session> m_session;
    std::shared_ptr<IoThread> m_thread;
    std::string m_peer;
};

template<class NextLayer>
class WsSession final : public Session, public std::enable_shared_from_this<WsSession<NextLayer>>
{
public:
    using Stream = websocket::stream<NextLayer>;

    template<class... Args>
    explicit WsSession(SessionSettings settings, Args &&...args)
        : m_ws(std::forward<Args>(args)...)
        , m_settings(std::move(settings))
    { }

    Stream &stream() { return m_ws; }
    const SessionSettings &settings() const { return m_settings; }

    // After the handshakes: the stream's own timeouts replace the TCP deadline that
    // bounded them (Beast: never both), and the size limit applies from the first message.
    void configureOpen()
    {
        beast::get_lowest_layer(m_ws).expires_never();
        websocket::stream_base::timeout timeouts {};
        timeouts.handshake_timeout = kCloseTimeout; // Beast's name: it bounds the close
        timeouts.idle_timeout = m_settings.idleTimeout;
        timeouts.keep_alive_pings = true;
        m_ws.set_option(timeouts);
        // The size limit is ours (onRead), not Beast's read_message_max: Beast fails the
        // connection at once, so that the peer, still writing, sees a broken pipe rather than
        // the reason; ours closes it with a close frame that says why.
        m_ws.read_message_max(0);
        m_ws.text(true);
    }

    void start(
        core::MessageChannel::OnMessage onMessage, core::MessageChannel::OnClosed onClosed) override
    {
        {
            std::lock_guard lock(m_callbackMutex);
            m_onMessage = std::move(onMessage);
            m_onClosed = std::move(onClosed);
        }
        asio::post(m_ws.get_executor(), [self = this->shared_from_this()] {
            self->m_started = true;
            if (self->m_ended)
                self->deliverClosed();
            else
                self->doRead();
        });
    }

    bool send(std::string text) override
    {
        if (!m_open.load())
            return false;
        asio::post(m_ws.get_executor(),
            [self = this->shared_from_this(), text = std::move(text)]() mutable {
                if (self->m_ended || self->m_closing)
                    return;
                self->m_queue.push_back(std::move(text));
                if (!self->m_writing)
                    self->doWrite();
            });
        return true;
    }

    void close() override
    {
        m_open = false;
        asio::post(m_ws.get_executor(), [self = this->shared_from_this()] { self->beginClose(); });
    }

    void detach() override
    {
        {
            std::lock_guard lock(m_callbackMutex);
            m_detached = true;
        }
        m_open = false;
        asio::post(m_ws.get_executor(), [self = this->shared_from_this()] {
            if (self->m_closing || self->m_ended)
                return;
            // What is not on the wire yet is dropped: nobody waits for it any more.
            while (self->m_queue.size() > (self->m_writing ? 1u : 0u))
                self->m_queue.pop_back();
            self->beginClose();
        });
    }

private:
    void doRead()
    {
        // A part at a time: a message over the limit is noticed at most one part past it,
        // never read whole into memory.
        m_ws.async_read_some(m_readBuffer, kReadPartBytes,
            [self = this->shared_from_this()](
                beast::error_code ec, std::size_t) { self->onRead(ec); });
    }

    void onRead(beast::error_code ec)
    {
        if (ec) {
            // Our own close also ends the read (with `closed`): that is not the peer's.
            end(m_closing ? beast::error_code {} : ec);
            return;
        }
        if (m_readBuffer.size() > m_settings.maxMessageBytes) {
            const std::string limit = std::to_string(m_settings.maxMessageBytes);
            m_endReason = "a message from the " + m_settings.peerRole + " is over the limit of "
                + limit + " bytes";
            m_readBuffer.clear();
            beginClose(websocket::close_reason(
                websocket::close_code::too_big, "a message over the limit of " + limit + " bytes"));
            return;
        }
        if (!m_ws.is_message_done()) {
            doRead();
            return;
        }
        std::string text = beast::buffers_to_string(m_readBuffer.data());
        m_readBuffer.clear();
        {
            std::lock_guard lock(m_callbackMutex);
            if (!m_detached && m_onMessage)
                m_onMessage(std::move(text));
        }
        if (!m_ended)
            doRead();
    }

    void doWrite()
    {
        m_writing = true;
        // The session's interval events are binary (core/run/session_codec.h); WebSocket
        // checks that a text message is UTF-8.
        m_ws.text(!core::isBinaryMessage(m_queue.front()));
        m_ws.async_write(asio::buffer(m_queue.front()),
            [self = this->shared_from_this()](
                beast::error_code ec, std::size_t) { self->onWrite(ec); });
    }

    void onWrite(beast::error_code ec)
    {
        m_writing = false;
        if (m_ended) {
            // Ended while this write was under way (its success may have been queued before).
            m_queue.clear();
            return;
        }
        if (ec) {
            end(ec);
            return;
        }
        m_queue.pop_front();
        if (!m_queue.empty())
            doWrite();
        else if (m_closing)
            doClose();
    }

    void beginClose(websocket::close_reason frame = websocket::close_code::normal)
    {
        m_open = false;
        if (m_closing || m_ended)
            return;
        m_closing = true;
        m_closeFrame = std::move(frame);
        if (!m_writing)
            doClose();
    }

    void doClose()
    {
        m_ws.async_close(
            m_closeFrame, [self = this->shared_from_this()](beast::error_code) { self->end({}); });
    }

    // The one place a connection ends: the reason is kept for onClosed, called once.
    void end(beast::error_code ec)
    {
        if (m_ended)
            return;
        m_ended = true;
        m_open = false;
        if (ec && m_endReason.empty())
            m_endReason = endReason(ec, m_ws.reason(), m_settings);
        beast::error_code ignored;
        beast::get_lowest_layer(m_ws).socket().close(ignored);
        // The message being written stays until its write returns (it still points at it).
        while (m_queue.size() > (m_writing ? 1u : 0u))
            m_queue.pop_back();
        if (m_started)
            deliverClosed();
    }

    void deliverClosed()
    {
        std::lock_guard lock(m_callbackMutex);
        if (m_detached || !m_onClosed)
            return;
        auto onClosed = std::move(m_onClosed);
        m_onClosed = nullptr;
        onClosed(m_endReason);
    }

    Stream m_ws;
    const SessionSettings m_settings;
    // Only on the IoThread:
    beast::flat_buffer m_readBuffer;
    std::deque<std::string> m_queue; // front() is being written while m_writing
    bool m_writing = false;
    bool m_closing = false;
    bool m_ended = false;
    bool m_started = false;
    websocket::close_reason m_closeFrame; // what our close frame says
    std::string m_endReason; // "" when this side closed (unless it closed for a reason)
    // Any thread: false once close() was asked or the connection ended (send's answer).
    std::atomic<bool> m_open {true};
    // Guards the callbacks and m_detached (see the top of the file).
    std::recursive_mutex m_callbackMutex;
    bool m_detached = false;
    core::MessageChannel::OnMessage m_onMessage;
    core::MessageChannel::OnClosed m_onClosed;
};

// The agent's side of the WebSocket upgrade, on a stream whose transport handshakes are
// done: reads the HTTP request (what `buffer` holds already first), then accepts it and
// hands the session to `onOpen`, or answers with `refusal` (HTTP 403, the text as body:
// the controller reports it) when that is not empty. `onFailed` gets a notice.
template<class NextLayer>
void acceptUpgrade(std::shared_ptr<WsSession<NextLayer>> session, const beast::flat_buffer &buffer,
    const std::string &refusal, std::function<void(std::shared_ptr<WsSession<NextLayer>>)> onOpen,
    const std::function<void(std::string)> &onFailed)
{
    struct State {
        std::shared_ptr<WsSession<NextLayer>> session;
        beast::flat_buffer buffer;
        http::request_parser<http::string_body> parser;
        http::response<http::string_body> response;
        std::string refusal;
        std::function<void(std::shared_ptr<WsSession<NextLayer>>)> onOpen;
        std::function<void(std::string)> onFailed;
    };
    auto state = std::make_shared<State>();
    state->session = std::move(session);
    state->buffer = buffer;
    state->parser.header_limit(kUpgradeRequestMaxBytes);
    state->parser.body_limit(kUpgradeRequestMaxBytes);
    state->refusal = refusal;
    state->onOpen = std::move(onOpen);
    state->onFailed = onFailed;
    auto &stream = state->session->stream();
    http::async_read(stream.next_layer(), state->buffer, state->parser,
        [state](beast::error_code ec, std::size_t) {
            const std::string peer = state->session->settings().peer;
            if (ec) {
                state->onFailed("no WebSocket request from " + peer + ": " + ec.message());
                return;
            }
            auto &ws = state->session->stream();
            const auto request = state->parser.release();
            const bool upgrade = websocket::is_upgrade(request);
            if (!state->refusal.empty() || !upgrade) {
                auto &response = state->response;
                response.version(request.version());
                response.result(upgrade ? http::status::forbidden : http::status::bad_request);
                response.set(http::field::content_type, "text/plain; charset=utf-8");
                response.body() = upgrade ? state->refusal
                                          : std::string("this is an IOPrism agent: it speaks "
                                                        "WebSocket only");
                response.keep_alive(false);
                response.prepare_payload();
                http::async_write(
                    ws.next_layer(), response, [state](beast::error_code, std::size_t) {
                        beast::error_code ignored;
                        beast::get_lowest_layer(state->session->stream())
                            .socket()
                            .shutdown(tcp::socket::shutdown_both, ignored);
                        state->onFailed("refused the connection from "
                            + state->session->settings().peer + ": " + state->response.body());
                    });
                return;
            }
            ws.async_accept(request, [state](beast::error_code ec2) {
                if (ec2) {
                    state->onFailed("WebSocket handshake with " + state->session->settings().peer
                        + " failed: " + ec2.message());
                    return;
                }
                state->session->configureOpen();
                state->onOpen(state->session);
            });
        });
}

// The controller's side of the upgrade, on a stream whose transport handshakes are done.
// `done` gets "" or why the agent did not take the connection.
template<class NextLayer>
void requestUpgrade(std::shared_ptr<WsSession<NextLayer>> session, std::string hostHeader,
    std::function<void(std::string error)> done)
{
    auto response = std::make_shared<websocket::response_type>();
    session->stream().async_handshake(*response, hostHeader, "/",
        [session, response, done = std::move(done)](beast::error_code ec) {
            if (!ec) {
                session->configureOpen();
                done({});
                return;
            }
            const std::string peer = session->settings().peer;
            if (ec == websocket::error::upgrade_declined) {
                done("the agent at " + peer + " refused the connection: "
                    + (response->body().empty() ? std::string(response->reason())
                                                : response->body()));
            } else if (ec == beast::error::timeout) {
                done("the agent at " + peer + " did not complete the WebSocket handshake in time");
            } else if (ec == http::error::end_of_stream || ec == asio::error::eof
                || ec == asio::error::connection_reset) {
                done("the agent at " + peer
                    + " closed the connection during the WebSocket handshake (a listener with "
                      "TLS closes a plaintext connection, and the other way round)");
            } else {
                done("WebSocket handshake with " + peer + " failed: " + ec.message());
            }
        });
}

} // namespace ioprism::net::detail
