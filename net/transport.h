// SPDX-License-Identifier: GPL-3.0-or-later
// The agents' network transport: core::MessageChannel over WebSocket (Boost.Beast on
// Asio), inside TLS (Asio's SSL stream over OpenSSL) where the build has OpenSSL.
//
// Security model (docs/agents.md):
// - TLS: the agent has its own key and self-signed certificate, made on its first start;
//   the controller pins the certificate's SHA-256 fingerprint, given by the user or
//   recorded on first use in a known-agents file (SSH's model). A certificate that
//   changed is refused, naming both fingerprints. Who may run tests is the agent's token
//   (checked by the agent protocol, core/agent), sent only inside TLS or on loopback.
// - Plaintext only on loopback: an agent without TLS (asked for, or a build without
//   OpenSSL: MinGW) accepts connections from loopback peers only, and refuses any other
//   with a WebSocket close reason the controller reports; for remote use, an SSH tunnel.
// - Every message has a size limit: a larger one ends the connection with a reason, before
//   it is read into memory.
#pragma once

#include "core/agent/message_channel.h"
#include "core/result.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ioprism::net {

// The port an agent listens on unless told otherwise.
inline constexpr std::uint16_t kDefaultAgentPort = 7355;
// Larger messages end the connection (a run request with a large profile, an interval of
// many workers with their histograms stay far below it).
inline constexpr std::size_t kDefaultMaxMessageBytes = 16u << 20;
// A connection silent this long is lost: after half of it a WebSocket ping goes out, and a
// peer that answers nothing by the end (cable pulled, host down, process stopped) ends the
// connection with a reason. Intervals stream every 100 ms to 1 s, so a live run is never
// silent this long; an idle one is kept alive by the pings.
inline constexpr std::chrono::milliseconds kDefaultIdleTimeout {20000};

// False in a build without OpenSSL (the MinGW build): plaintext on loopback only.
bool tlsAvailable();

// The agent's TLS identity: its certificate and private key, PEM files.
struct TlsIdentity {
    std::string certificateFile;
    std::string privateKeyFile;
    std::string fingerprint; // "SHA256:AB:CD:…" of the certificate (DER)
};

// Loads the identity kept in `directory` (agent-cert.pem, agent-key.pem), or makes one
// there (a new key, a self-signed certificate for `hostName`, the key file readable by
// its owner only). Refused with a reason without TLS, or when the files cannot be read,
// made or do not belong together.
core::Result<TlsIdentity> loadOrCreateIdentity(
    const std::string &directory, const std::string &hostName);
// Loads a given certificate and key (the user's own, e.g. from their CA).
core::Result<TlsIdentity> loadIdentity(
    const std::string &certificateFile, const std::string &privateKeyFile);

struct ListenOptions {
    std::string address = "127.0.0.1"; // "0.0.0.0" or "::": every interface
    std::uint16_t port = kDefaultAgentPort; // 0: any free port (tests; see Listener::port)
    std::optional<TlsIdentity> tls; // nullopt: plaintext, loopback peers only
    std::size_t maxMessageBytes = kDefaultMaxMessageBytes;
    std::chrono::milliseconds idleTimeout = kDefaultIdleTimeout;
    // A connection's handshakes (TLS, WebSocket) must be done within this, or it is closed
    // and said to onNotice: one that never completes holds nothing longer.
    std::chrono::milliseconds handshakeTimeout {10000};
};

class Listener
{
public:
    using OnChannel = std::function<void(std::unique_ptr<core::MessageChannel> channel)>;
    // Something the operator should see: a refused connection and why, a failed handshake.
    using OnNotice = std::function<void(std::string text)>;

    virtual ~Listener() = default;
    // The port listened on (the one chosen when asked for 0).
    virtual std::uint16_t port() const = 0;
    // Stops accepting; channels already handed out go on. Idempotent.
    virtual void close() = 0;
};

// Listens at once, on a thread of its own; each connection that completes its handshakes
// (TCP, TLS, WebSocket) is handed to `onChannel` on that thread (not started). A plaintext
// connection from a non-loopback peer is refused with a close reason and said to
// `onNotice`. Refused with a reason when the address cannot be listened on.
core::Result<std::unique_ptr<Listener>> listen(
    ListenOptions options, Listener::OnChannel onChannel, Listener::OnNotice onNotice);

struct ConnectOptions {
    std::string host;
    std::uint16_t port = kDefaultAgentPort;
    bool tls = true;
    // The fingerprint the user gave for this agent ("SHA256:…"); "" = the one recorded for
    // host:port in `knownAgentsFile`, or, if none is, trust this first one and record it.
    std::string pinnedFingerprint;
    // "" = nothing recorded: a TLS connection then needs pinnedFingerprint.
    std::string knownAgentsFile;
    std::chrono::milliseconds timeout {10000}; // connect and handshakes
    std::size_t maxMessageBytes = kDefaultMaxMessageBytes;
    std::chrono::milliseconds idleTimeout = kDefaultIdleTimeout;
};

struct Connection {
    std::unique_ptr<core::MessageChannel> channel; // not started
    std::string fingerprint; // of the agent's certificate; "" in plaintext
    bool firstUse = false; // the fingerprint was recorded by this connection
};

// Connects and completes the handshakes. Refused with a reason a user can act on: "no
// agent listens on host:7355", "the agent's certificate changed: known SHA256:…, now
// SHA256:… (if the agent was given a new identity on purpose, remove its line from
// <file>)", "the agent accepts plaintext from loopback only", a timeout.
core::Result<Connection> connect(const ConnectOptions &options);

// An agent's address as a user types it: "host", "host:port", "192.0.2.7:7355",
// "[2001:db8::7]:7355" or "[::1]" (brackets around an IPv6 address with a port).
struct HostPort {
    std::string host; // without brackets
    std::uint16_t port = kDefaultAgentPort;
};
// Whether port 0 may be given: where to listen (any free port, said once listening), never
// where to connect.
enum class PortZero { Refused, AnyFreePort };
// Refused with a reason naming the text ("agent address \"x:y\": the port must be a
// number from 1 to 65535"); `defaultPort` when none is given.
core::Result<HostPort> parseHostPort(const std::string &text,
    std::uint16_t defaultPort = kDefaultAgentPort, PortZero portZero = PortZero::Refused);
// "host:port", with brackets around an IPv6 address: the form the known-agents file keys by.
std::string formatHostPort(const std::string &host, std::uint16_t port);

// One line of a known-agents file: "host:port SHA256:AB:CD:…" ('#' starts a comment).
struct KnownAgent {
    std::string hostPort;
    std::string fingerprint;
    int line = 0; // 1-based, for "remove line N"
};
// The agents recorded in `file`; empty when it does not exist or cannot be read. Lines
// that are not "host:port fingerprint" are skipped. Never throws.
std::vector<KnownAgent> readKnownAgents(const std::string &file);

} // namespace ioprism::net
