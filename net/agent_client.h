// SPDX-License-Identifier: GPL-3.0-or-later
// A controller reaching its agents (the CLI's --manager and `agents`, the GUI's
// managers): the transport's connection (net/transport.h) and the agent protocol's
// handshake (core/agent/remote_session.h) in one step, with errors that name the agent.
// Also the token file, read the same way by the agent and by its controllers.
#pragma once

#include "core/agent/remote_session.h"
#include "core/result.h"

#include <chrono>
#include <map>
#include <memory>
#include <string>

namespace ioprism::net {

// The shared secret: the first line of `file` without surrounding blanks, at least
// kMinTokenLength characters (a guessable secret protects nothing).
inline constexpr std::size_t kMinTokenLength = 16;
core::Result<std::string> readTokenFile(const std::string &file);

// How a controller reaches its agents.
struct AgentAccess {
    std::string token;
    // No TLS (an agent started --plaintext: on this host, or through an SSH tunnel).
    bool plaintext = false;
    // Where agents' certificates are recorded on first use ("" = not recorded: then each
    // agent needs a pin).
    std::string knownAgentsFile;
    // Fingerprints the user gave, by "host:port" as formatHostPort writes it.
    std::map<std::string, std::string> pins;
    std::chrono::milliseconds timeout {10000};
};

struct ReachedAgent {
    std::string address; // "host:port"
    std::unique_ptr<core::AgentConnection> connection; // open: welcome and clock known
    std::string fingerprint; // of its certificate; "" in plaintext
    bool firstUse = false; // the fingerprint was recorded now (say so)
};

// Connects to the agent at `address` ("host", "host:port", "[v6]:port") and opens the
// protocol (hello with the token, versions, clock). Refused with the agent named: "agent
// db2:7355: the token was not accepted".
core::Result<ReachedAgent> reachAgent(
    const std::string &address, const AgentAccess &access, const std::string &controllerName = {});

} // namespace ioprism::net
