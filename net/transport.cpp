// SPDX-License-Identifier: GPL-3.0-or-later
// The transport's parts common to every build: the listener, the client's TCP and
// plaintext steps, and the words for why a connection ended. TLS is in tls_*.cpp.
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/detect_ssl.hpp>
#include <future>
#include <mutex>
#include <optional>

#include "net/tls.h"

namespace ioprism::net {

namespace detail {

std::string formatEndpoint(const tcp::endpoint &endpoint)
{
    auto address = endpoint.address();
    if (address.is_v6() && address.to_v6().is_v4_mapped())
        address = asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6());
    return formatHostPort(address.to_string(), endpoint.port());
}

core::OpError netError(std::string text, std::error_code code)
{
    return core::OpError {code, std::move(text), {}, {}};
}

std::string durationText(std::chrono::milliseconds duration)
{
    const auto ms = duration.count();
    return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

std::string endReason(
    beast::error_code ec, const websocket::close_reason &peerClose, const SessionSettings &settings)
{
    const std::string &peerRole = settings.peerRole;
    if (ec == websocket::error::closed) {
        std::string why(peerClose.reason.data(), peerClose.reason.size());
        if (why.empty() && peerClose.code == websocket::close_code::too_big)
            why = "a message was over its size limit";
        const std::string text = "the " + peerRole + " closed the connection";
        return why.empty() ? text : text + ": " + why;
    }
    if (ec == websocket::error::message_too_big)
        return "a message from the " + peerRole + " is over the limit of "
            + std::to_string(settings.maxMessageBytes) + " bytes";
    if (ec == beast::error::timeout)
        return "the " + peerRole + " answered nothing for " + durationText(settings.idleTimeout)
            + ": the connection is lost";
    if (ec == asio::error::eof || ec == http::error::end_of_stream
        || ec == asio::error::connection_reset || ec == asio::error::connection_aborted
        || ec == asio::error::broken_pipe)
        return "connection reset: the " + peerRole + "'s end went away without closing ("
            + ec.message() + ")";
    return "connection to the " + peerRole + " lost: " + ec.message();
}

void deliverSession(
    std::shared_ptr<Session> session, const std::string &peer, const AcceptContext &context)
{
    auto thread = context.thread.lock();
    if (!thread)
        return;
    context.deliver(std::make_unique<Channel>(std::move(session), std::move(thread), peer));
}

} // namespace detail

namespace {

using namespace detail;

const char *const kLoopbackOnly
    = "plaintext connections are accepted from loopback only; use TLS or an SSH tunnel";
const char *const kTlsOnly = "this agent accepts TLS connections only; connect with TLS";

bool isLoopback(asio::ip::address address)
{
    if (address.is_v6() && address.to_v6().is_v4_mapped())
        address = asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6());
    return address.is_loopback();
}

// What the listener's callbacks and the accept loop share. The mutex is held while a
// callback runs, so that close() (from another thread) returning means none runs any more;
// recursive, so that a callback may close the listener.
struct ListenerState {
    std::recursive_mutex mutex;
    bool closed = false;
    Listener::OnChannel onChannel;
    Listener::OnNotice onNotice;

    void notice(std::string text)
    {
        std::lock_guard lock(mutex);
        if (!closed && onNotice)
            onNotice(std::move(text));
    }
    void deliver(std::unique_ptr<core::MessageChannel> channel)
    {
        std::lock_guard lock(mutex);
        if (!closed && onChannel)
            onChannel(std::move(channel));
    }
};

class AcceptLoop : public std::enable_shared_from_this<AcceptLoop>
{
public:
    AcceptLoop(tcp::acceptor acceptor, std::unique_ptr<TlsServer> tls, AcceptContext context)
        : m_acceptor(std::move(acceptor))
        , m_retryTimer(m_acceptor.get_executor())
        , m_tls(std::move(tls))
        , m_context(std::move(context))
    { }

    void doAccept()
    {
        m_acceptor.async_accept(
            [self = shared_from_this()](beast::error_code ec, tcp::socket socket) {
                if (!self->m_acceptor.is_open())
                    return;
                if (ec) {
                    // Out of descriptors, say: try again a little later rather than spin.
                    self->m_context.notice("accepting a connection failed: " + ec.message());
                    self->m_retryTimer.expires_after(std::chrono::milliseconds(200));
                    self->m_retryTimer.async_wait([self](beast::error_code) {
                        if (self->m_acceptor.is_open())
                            self->doAccept();
                    });
                    return;
                }
                self->handshake(std::move(socket));
                self->doAccept();
            });
    }

    void stop()
    {
        beast::error_code ignored;
        m_acceptor.close(ignored);
        m_retryTimer.cancel();
    }

private:
    void handshake(tcp::socket socket)
    {
        beast::error_code ec;
        const tcp::endpoint remote = socket.remote_endpoint(ec);
        if (ec)
            return; // gone already
        const std::string peer = formatEndpoint(remote);
        const bool loopback = isLoopback(remote.address());
        auto stream = std::make_shared<beast::tcp_stream>(std::move(socket));
        auto buffer = std::make_shared<beast::flat_buffer>();
        // Every handshake (TLS, HTTP, WebSocket) within this: a connection that never
        // completes one holds nothing for longer.
        stream->expires_after(m_context.handshakeTimeout);
        beast::async_detect_ssl(*stream, *buffer,
            [self = shared_from_this(), stream, buffer, peer, loopback](
                beast::error_code ec2, bool isTls) {
                const AcceptContext &context = self->m_context;
                if (ec2) {
                    context.notice("no handshake from " + peer
                        + (ec2 == beast::error::timeout ? std::string(" in time")
                                                        : ": " + ec2.message()));
                    return;
                }
                if (isTls && !self->m_tls) {
                    context.notice("closed a TLS connection from " + peer
                        + ": this agent listens without TLS");
                    beast::error_code ignored;
                    stream->socket().close(ignored);
                    return;
                }
                if (isTls) {
                    self->m_tls->accept(std::move(*stream), std::move(*buffer), peer, context);
                    return;
                }
                const std::string refusal
                    = self->m_tls ? kTlsOnly : (loopback ? "" : kLoopbackOnly);
                auto session = std::make_shared<WsSession<beast::tcp_stream>>(
                    SessionSettings {
                        peer, "controller", context.maxMessageBytes, context.idleTimeout},
                    std::move(*stream));
                acceptUpgrade<beast::tcp_stream>(
                    session, *buffer, refusal,
                    [context](std::shared_ptr<WsSession<beast::tcp_stream>> open) {
                        const std::string openPeer = open->settings().peer;
                        deliverSession(std::move(open), openPeer, context);
                    },
                    context.notice);
            });
    }

    tcp::acceptor m_acceptor;
    asio::steady_timer m_retryTimer;
    std::unique_ptr<TlsServer> m_tls;
    AcceptContext m_context;
};

class ListenerImpl final : public Listener
{
public:
    ListenerImpl(std::shared_ptr<IoThread> thread, std::shared_ptr<ListenerState> state,
        std::shared_ptr<AcceptLoop> loop, std::uint16_t port)
        : m_thread(std::move(thread))
        , m_state(std::move(state))
        , m_loop(std::move(loop))
        , m_port(port)
    { }
    ~ListenerImpl() override
    {
        close();
        m_loop.reset();
        m_thread.reset();
    }
    std::uint16_t port() const override { return m_port; }
    void close() override
    {
        {
            std::lock_guard lock(m_state->mutex);
            if (m_state->closed)
                return;
            m_state->closed = true;
        }
        asio::post(m_thread->context(), [loop = m_loop] { loop->stop(); });
    }

private:
    std::shared_ptr<IoThread> m_thread;
    std::shared_ptr<ListenerState> m_state;
    std::shared_ptr<AcceptLoop> m_loop;
    std::uint16_t m_port;
};

} // namespace

core::Result<std::unique_ptr<Listener>> listen(
    ListenOptions options, Listener::OnChannel onChannel, Listener::OnNotice onNotice)
{
    const std::string where = formatHostPort(options.address, options.port);
    beast::error_code ec;
    const auto address = asio::ip::make_address(options.address, ec);
    if (ec)
        return netError("cannot listen on " + where + ": \"" + options.address
            + "\" is not an IP address (0.0.0.0 or :: for every interface)");
    std::unique_ptr<TlsServer> tls;
    if (options.tls) {
        auto server = makeTlsServer(*options.tls);
        if (!server)
            return server.error();
        tls = std::move(server.value());
    }

    auto thread = std::make_shared<IoThread>();
    tcp::acceptor acceptor(thread->context());
    const tcp::endpoint endpoint(address, options.port);
    const auto fail = [&](const char *step) {
        return netError("cannot listen on " + where + " (" + step + ")", ec);
    };
    if (acceptor.open(endpoint.protocol(), ec))
        return fail("socket");
    // Binding again while connections of an earlier listener linger in TIME_WAIT (a
    // restart), where that option is safe (net/CMakeLists.txt).
    constexpr bool reuseAddress = IOPRISM_NET_REUSE_ADDRESS;
    if (reuseAddress && acceptor.set_option(asio::socket_base::reuse_address(true), ec))
        return fail("SO_REUSEADDR");
    if (acceptor.bind(endpoint, ec))
        return fail("bind");
    if (acceptor.listen(asio::socket_base::max_listen_connections, ec))
        return fail("listen");
    const std::uint16_t port = acceptor.local_endpoint(ec).port();
    if (ec)
        return fail("local address");

    auto state = std::make_shared<ListenerState>();
    state->onChannel = std::move(onChannel);
    state->onNotice = std::move(onNotice);
    AcceptContext context;
    context.thread = thread;
    context.maxMessageBytes = options.maxMessageBytes;
    context.idleTimeout = options.idleTimeout;
    context.handshakeTimeout = options.handshakeTimeout;
    context.deliver = [state](std::unique_ptr<core::MessageChannel> channel) {
        state->deliver(std::move(channel));
    };
    context.notice = [state](std::string text) { state->notice(std::move(text)); };
    auto loop
        = std::make_shared<AcceptLoop>(std::move(acceptor), std::move(tls), std::move(context));
    asio::post(thread->context(), [loop] { loop->doAccept(); });
    return std::unique_ptr<Listener>(
        std::make_unique<ListenerImpl>(std::move(thread), std::move(state), std::move(loop), port));
}

core::Result<Connection> connect(const ConnectOptions &options)
{
    if (options.host.empty())
        return netError("no agent address given");
    const std::string hostPort = formatHostPort(options.host, options.port);
    if (options.tls && !tlsAvailable())
        return netError("cannot connect to " + hostPort
            + " with TLS: this build has no TLS (built without OpenSSL); connect without TLS "
              "to an agent on this host, or through an SSH tunnel");
    if (options.tls && options.pinnedFingerprint.empty() && options.knownAgentsFile.empty())
        return netError("cannot connect to " + hostPort
            + " with TLS: no fingerprint to check the agent's certificate against and no "
              "known-agents file to record it in");

    auto thread = std::make_shared<IoThread>();
    auto promise = std::make_shared<std::promise<core::Result<ClientSession>>>();
    auto result = promise->get_future();
    // Once: the first of the steps' ends and the resolver's timer wins.
    auto done
        = [promise, once = std::make_shared<std::once_flag>()](core::Result<ClientSession> r) {
              std::call_once(*once, [&] { promise->set_value(std::move(r)); });
          };
    asio::io_context &context = thread->context();
    asio::post(context, [&context, options, hostPort, done] {
        auto resolver = std::make_shared<tcp::resolver>(context);
        auto timer = std::make_shared<asio::steady_timer>(context);
        auto stream = std::make_shared<beast::tcp_stream>(context);
        timer->expires_after(options.timeout);
        timer->async_wait([resolver](beast::error_code ec) {
            if (!ec)
                resolver->cancel();
        });
        resolver->async_resolve(options.host, std::to_string(options.port),
            [resolver, timer, stream, options, hostPort, done](
                beast::error_code ec, const tcp::resolver::results_type &endpoints) {
                timer->cancel();
                if (ec) {
                    done(netError(ec == asio::error::operation_aborted
                            ? "cannot find the agent's host \"" + options.host + "\" in time"
                            : "cannot find the agent's host \"" + options.host
                                + "\": " + ec.message()));
                    return;
                }
                // One deadline for connecting and every handshake after it.
                stream->expires_after(options.timeout);
                stream->async_connect(endpoints,
                    [stream, options, hostPort, done](
                        beast::error_code ec2, const tcp::endpoint &endpoint) {
                        if (ec2 == asio::error::connection_refused) {
                            done(netError("no agent listens on " + hostPort));
                            return;
                        }
                        if (ec2 == beast::error::timeout) {
                            done(netError("no answer from " + hostPort + " within "
                                + durationText(options.timeout)));
                            return;
                        }
                        if (ec2) {
                            done(netError("cannot connect to " + hostPort + ": " + ec2.message()));
                            return;
                        }
                        const std::string peer = formatEndpoint(endpoint);
                        if (options.tls) {
                            connectTls(std::move(*stream), options, peer, done);
                            return;
                        }
                        auto session = std::make_shared<WsSession<beast::tcp_stream>>(
                            SessionSettings {
                                peer, "agent", options.maxMessageBytes, options.idleTimeout},
                            std::move(*stream));
                        requestUpgrade<beast::tcp_stream>(
                            session, hostPort, [session, peer, done](std::string error) {
                                if (!error.empty())
                                    done(netError(std::move(error)));
                                else
                                    done(ClientSession {session, peer, {}, false});
                            });
                    });
            });
    });
    // Every step ends in `done` (each has a deadline); should the thread end without it (a
    // handler that threw), the promise is broken and that is said rather than thrown.
    std::optional<core::Result<ClientSession>> outcome;
    try {
        outcome.emplace(result.get());
    } catch (const std::exception &e) {
        return netError("cannot connect to " + hostPort + ": " + e.what());
    }
    core::Result<ClientSession> &connected = *outcome;
    if (!connected)
        return connected.error();
    Connection connection;
    connection.channel = std::make_unique<Channel>(
        std::move(connected->session), std::move(thread), connected->peer);
    connection.fingerprint = std::move(connected->fingerprint);
    connection.firstUse = connected->firstUse;
    return connection;
}

} // namespace ioprism::net
