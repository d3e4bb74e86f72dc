// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/agent_access.h"

#include "platform/common/data_dir.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <fmt/format.h>
#include <iostream>

#include "net/transport.h"

namespace ioprism::cli {

void addAgentAccessOptions(CLI::App &command, AgentAccessArgs &a)
{
    const std::string group = "Agents";
    command
        .add_option("--token-file", a.tokenFile,
            "File whose first line is the agents' shared secret (the file the agents were "
            "started with)")
        ->group(group);
    command
        .add_flag("--plaintext", a.plaintext,
            "Reach the agents without TLS (agents started --plaintext: on this host, or "
            "through an SSH tunnel)")
        ->group(group);
    command
        .add_option("--known-agents", a.knownAgentsFile,
            "Where agents' certificate fingerprints are recorded on first use and checked "
            "after (default: <data folder>/known-agents)")
        ->group(group);
    command
        .add_option("--pin", a.pins,
            "HOST:PORT=SHA256:… the fingerprint an agent must have (as it printed at start); "
            "repeatable")
        ->group(group);
}

std::optional<net::AgentAccess> agentAccess(const AgentAccessArgs &a)
{
    bool ok = true;
    net::AgentAccess access;
    access.plaintext = a.plaintext;
    if (a.tokenFile.empty()) {
        std::cerr << "error: --token-file: agents need their token (the file each agent was "
                     "started with)\n";
        ok = false;
    } else if (auto token = net::readTokenFile(a.tokenFile); !token) {
        std::cerr << "error: --token-file: " << token.error().toString() << "\n";
        ok = false;
    } else {
        access.token = *token;
    }
    for (const auto &pin : a.pins) {
        const auto equals = pin.find('=');
        auto where = net::parseHostPort(equals == std::string::npos ? pin : pin.substr(0, equals));
        if (equals == std::string::npos || !where || pin.compare(equals + 1, 7, "SHA256:") != 0) {
            std::cerr << "error: --pin \"" << pin
                      << "\": expected HOST:PORT=SHA256:… (the fingerprint the agent printed)\n";
            ok = false;
            continue;
        }
        access.pins[net::formatHostPort(where->host, where->port)] = pin.substr(equals + 1);
    }
    access.knownAgentsFile = a.knownAgentsFile;
    if (access.knownAgentsFile.empty() && !a.plaintext) {
        if (auto data = platform::userDataDirectory(); data) {
            std::error_code ec;
            std::filesystem::create_directories(*data, ec);
            access.knownAgentsFile = (*data / "known-agents").string();
        } else if (a.pins.empty()) {
            std::cerr << "error: " << data.error().toString()
                      << ": give --known-agents FILE or --pin for each agent\n";
            ok = false;
        }
    }
    if (!ok)
        return std::nullopt;
    return access;
}

std::string describeAgent(const net::ReachedAgent &agent)
{
    const core::WelcomeMessage w = agent.connection->welcome();
    std::string clock = "clock not measured";
    if (const auto offset = agent.connection->clockOffset())
        clock = fmt::format("clock {:+.3f} ms ± {:.3f} ms",
            std::chrono::duration<double, std::milli>(offset->offset).count(),
            std::chrono::duration<double, std::milli>(offset->uncertainty).count());
    return fmt::format("{}: {} ({}, {} CPUs), IOPrism {}, engines {}; {}", agent.address, w.host,
        w.os, w.cpus, w.version, fmt::join(w.engines, ", "), clock);
}

std::string firstUseNote(const net::ReachedAgent &agent, const net::AgentAccess &access)
{
    return fmt::format("agent {}: first connection: its certificate {} is now recorded in {} "
                       "(compare it with the fingerprint the agent printed when it started)",
        agent.address, agent.fingerprint, access.knownAgentsFile);
}

} // namespace ioprism::cli
