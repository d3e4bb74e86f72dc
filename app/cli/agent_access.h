// SPDX-License-Identifier: GPL-3.0-or-later
// How ioprism-cli reaches agents (`run --manager`, `agents`): the options, shared by both
// commands, and what they make (net/agent_client.h). docs/agents.md, docs/cli.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "net/agent_client.h"

namespace CLI { // NOLINT(readability-identifier-naming): CLI11's namespace
class App;
}

namespace ioprism::cli {

struct AgentAccessArgs {
    std::string tokenFile;
    bool plaintext = false;
    std::string knownAgentsFile; // "" = <data folder>/known-agents
    std::vector<std::string> pins; // "host:port=SHA256:…"
};

void addAgentAccessOptions(CLI::App &command, AgentAccessArgs &a);

// The access the options give: the token read, the pins parsed, the known-agents file
// found. nullopt with every problem said on stderr.
std::optional<net::AgentAccess> agentAccess(const AgentAccessArgs &a);

// "ioprism-agent on db2 (Debian GNU/Linux 12, 8 CPUs), IOPrism 0.4.0; clock +1.20 ms ±
// 0.05 ms": one line about an agent reached.
std::string describeAgent(const net::ReachedAgent &agent);

// Said once when an agent's certificate was recorded on first use: its fingerprint and
// where, so that the user can compare it with what the agent printed.
std::string firstUseNote(const net::ReachedAgent &agent, const net::AgentAccess &access);

} // namespace ioprism::cli
