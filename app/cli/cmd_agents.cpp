// SPDX-License-Identifier: GPL-3.0-or-later
// ioprism-cli agents: which agents answer, who they are, and what they could test.
#include "app/cli/agent_access.h"
#include "app/cli/commands.h"
#include "core/profile/units.h"
#include "platform/common/system.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace ioprism::cli {

namespace {

struct AgentsArgs {
    std::vector<std::string> addresses;
    AgentAccessArgs access;
    bool json = false;
};

nlohmann::ordered_json agentJson(const net::ReachedAgent &agent, const core::InventoryMessage *inv)
{
    const core::WelcomeMessage w = agent.connection->welcome();
    nlohmann::ordered_json j {{"address", agent.address}, {"reachable", true}, {"host", w.host},
        {"os", w.os}, {"version", w.version}, {"cpus", w.cpus}, {"engines", w.engines},
        {"pid", w.pid}, {"fingerprint", agent.fingerprint}, {"first_use", agent.firstUse}};
    if (const auto offset = agent.connection->clockOffset()) {
        j["clock_offset_ns"] = offset->offset.count();
        j["clock_uncertainty_ns"] = offset->uncertainty.count();
    }
    if (inv) {
        auto devices = nlohmann::ordered_json::array();
        for (const auto &d : inv->devices)
            devices.push_back({{"path", d.path}, {"model", d.model}, {"size_bytes", d.sizeBytes},
                {"in_use", d.inUse}});
        auto mounts = nlohmann::ordered_json::array();
        for (const auto &m : inv->mounts)
            mounts.push_back({{"mount_point", m.mountPoint}, {"fs_type", m.fsType},
                {"free_bytes", m.freeBytes}, {"total_bytes", m.totalBytes}});
        j["allowed"] = inv->roots;
        j["devices"] = devices;
        j["mounts"] = mounts;
    }
    return j;
}

void printAgent(const net::ReachedAgent &agent, const core::InventoryMessage *inv)
{
    std::cout << describeAgent(agent) << "\n";
    if (!agent.fingerprint.empty())
        std::cout << "  certificate " << agent.fingerprint << "\n";
    if (!inv)
        return;
    std::cout << fmt::format("  targets allowed under: {}\n", fmt::join(inv->roots, ", "));
    for (const auto &d : inv->devices)
        std::cout << fmt::format("  {:<20} {:>10}  {}{}\n", d.path, core::describeSize(d.sizeBytes),
            d.model.empty() ? "(no model)" : d.model, d.inUse.empty() ? "" : "  " + d.inUse);
    for (const auto &m : inv->mounts)
        std::cout << fmt::format("  {:<20} {:<8} {:>10} free of {}\n", m.mountPoint, m.fsType,
            core::describeSize(m.freeBytes), core::describeSize(m.totalBytes));
}

int agentsCommand(const AgentsArgs &a)
{
    const auto access = agentAccess(a.access);
    if (!access)
        return 2;
    const std::string me = platform::describeSystem().hostName;
    auto out = nlohmann::ordered_json::array();
    int unreachable = 0;
    for (const auto &address : a.addresses) {
        auto agent = net::reachAgent(address, *access, me);
        if (!agent) {
            ++unreachable;
            if (a.json)
                out.push_back({{"address", address}, {"reachable", false},
                    {"error", agent.error().toString()}});
            else
                std::cout << address << ": not reachable: " << agent.error().toString() << "\n";
            continue;
        }
        if (agent->firstUse)
            std::cerr << firstUseNote(*agent, *access) << "\n";
        auto inventory = agent->connection->inventory(access->timeout);
        if (!inventory && !a.json)
            std::cout << "  (no inventory: " << inventory.error().toString() << ")\n";
        const core::InventoryMessage *inv = inventory ? &*inventory : nullptr;
        if (a.json)
            out.push_back(agentJson(*agent, inv));
        else
            printAgent(*agent, inv);
    }
    if (a.json)
        std::cout << out.dump(2) << "\n";
    return unreachable == 0 ? 0 : 1;
}

} // namespace

void registerAgentCommands(CLI::App &app, int &exitCode)
{
    auto a = std::make_shared<AgentsArgs>();
    auto *agents = app.add_subcommand("agents",
        "Reach agents (ioprism-agent on other hosts): who answers, their host, OS, version, "
        "clock offset, and the devices and file systems they could test");
    agents->add_option("ADDRESS", a->addresses, "host, host:port or [v6]:port (default port 7355)")
        ->required();
    addAgentAccessOptions(*agents, a->access);
    agents->add_flag("--json", a->json, "One JSON array of the agents, for scripts");
    agents->footer("Exit status 1 when any agent could not be reached. docs/agents.md");
    agents->callback([&exitCode, a] { exitCode = agentsCommand(*a); });
}

} // namespace ioprism::cli
