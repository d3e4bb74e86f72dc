// SPDX-License-Identifier: GPL-3.0-or-later
// What the transport needs from a TLS back end, so that the build chooses one by file
// (net/CMakeLists.txt): tls_openssl.cpp (Asio's SSL stream over OpenSSL 3) or
// tls_none.cpp (no TLS: every call refuses with a reason). The back end also defines
// tlsAvailable(), loadOrCreateIdentity() and loadIdentity() of net/transport.h.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "net/transport.h"
#include "net/ws_session.h"

namespace ioprism::net::detail {

// Where an accepted connection goes once its handshakes are done (or fail).
struct AcceptContext {
    // Weak: the Listener and its channels keep the thread, not the connections on it.
    std::weak_ptr<IoThread> thread;
    std::size_t maxMessageBytes = kDefaultMaxMessageBytes;
    std::chrono::milliseconds idleTimeout = kDefaultIdleTimeout;
    std::chrono::milliseconds handshakeTimeout {10000};
    std::function<void(std::unique_ptr<core::MessageChannel>)> deliver;
    std::function<void(std::string)> notice;
};

class TlsServer
{
public:
    virtual ~TlsServer() = default;
    // On the IoThread: `stream` is a connection whose first bytes, read into `buffer`, are
    // a TLS ClientHello. Does the TLS handshake and the WebSocket upgrade (acceptUpgrade).
    virtual void accept(beast::tcp_stream stream, beast::flat_buffer buffer, std::string peer,
        const AcceptContext &context)
        = 0;
};

core::Result<std::unique_ptr<TlsServer>> makeTlsServer(const TlsIdentity &identity);

// Hands an open session to the context's `deliver` as a Channel (nothing when the
// listener is gone).
void deliverSession(
    std::shared_ptr<Session> session, const std::string &peer, const AcceptContext &context);

// A controller's connection whose handshakes are done: connect() makes it a Connection on
// the caller's thread (so that the IoThread's last owner is never a handler on it).
struct ClientSession {
    std::shared_ptr<Session> session;
    std::string peer;
    std::string fingerprint;
    bool firstUse = false;
};
using OnConnected = std::function<void(core::Result<ClientSession>)>;

// On the IoThread: the TLS handshake on a connected stream (SNI, TLS 1.2 at least), the
// certificate's fingerprint checked against the pin or the known-agents file (recorded
// there on first use), then the WebSocket upgrade. `done` is called once, on the thread.
void connectTls(beast::tcp_stream stream, const ConnectOptions &options, std::string peer,
    const OnConnected &done);

// The known-agents file (net/known_agents.cpp): the fingerprint a TLS connection to
// `hostPort` must present, recording `fingerprint` on first use. Returns "" to go on,
// else why the connection is refused; `firstUse` says it was recorded now.
std::string checkKnownAgent(const ConnectOptions &options, const std::string &hostPort,
    const std::string &fingerprint, bool &firstUse);

} // namespace ioprism::net::detail
