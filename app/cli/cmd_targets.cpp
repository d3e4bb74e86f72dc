// SPDX-License-Identifier: GPL-3.0-or-later
// ioprism-cli list-targets: what can be benchmarked on this machine.
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

std::string joined(const std::vector<std::string> &items)
{
    std::string s;
    for (const auto &i : items)
        s += (s.empty() ? "" : ", ") + i;
    return s;
}

int listTargets()
{
    std::cout
        << "Block devices (raw targets; writing needs --allow-device-writes and no mounts):\n";
    for (const auto &d : platform::listBlockDevices()) {
        std::cout << fmt::format("  {:<16} {:>10}  {}  {}{}{}\n", d.devicePath,
            core::describeSize(d.sizeBytes), d.rotational ? "HDD" : "SSD",
            d.model.empty() ? "(no model)" : d.model, d.readOnly ? "  read-only" : "",
            d.mountPoints.empty() ? "" : "  mounted at " + joined(d.mountPoints));
        for (const auto &p : d.partitions)
            std::cout << fmt::format("    {:<14} {:>10}  {}{}\n", p.devicePath,
                core::describeSize(p.sizeBytes),
                p.mountPoints.empty() ? "not mounted" : "mounted at " + joined(p.mountPoints),
                p.holders.empty() ? "" : "  used by " + joined(p.holders));
    }
    std::cout << "\nFile systems (test-file locations):\n";
    for (const auto &m : platform::listMounts())
        std::cout << fmt::format("  {:<24} {:<8} {:<18} {:>10} free of {}{}\n", m.mountPoint,
            m.fsType, m.device, core::describeSize(m.freeBytes), core::describeSize(m.totalBytes),
            m.readOnly ? "  read-only" : "");
    return 0;
}

// The same facts as the table, for scripts: one array, block devices then file systems,
// each object saying its "kind" first (fields in the order of docs/cli.md, hence
// ordered_json). Sizes are bytes, names are snake_case like the results JSON.
int listTargetsJson()
{
    auto out = nlohmann::ordered_json::array();
    for (const auto &d : platform::listBlockDevices()) {
        auto partitions = nlohmann::ordered_json::array();
        for (const auto &p : d.partitions)
            partitions.push_back({{"path", p.devicePath}, {"name", p.name},
                {"size_bytes", p.sizeBytes}, {"start_bytes", p.startBytes},
                {"mount_points", p.mountPoints}, {"holders", p.holders}});
        out.push_back(
            {{"kind", "block_device"}, {"path", d.devicePath}, {"name", d.name}, {"model", d.model},
                {"size_bytes", d.sizeBytes}, {"media", d.rotational ? "HDD" : "SSD"},
                {"rotational", d.rotational}, {"removable", d.removable}, {"read_only", d.readOnly},
                {"logical_block_bytes", d.logicalBlockBytes},
                {"physical_block_bytes", d.physicalBlockBytes}, {"mount_points", d.mountPoints},
                {"holders", d.holders}, {"partitions", partitions}});
    }
    for (const auto &m : platform::listMounts())
        out.push_back({{"kind", "file_system"}, {"path", m.mountPoint}, {"type", m.fsType},
            {"device", m.device}, {"free_bytes", m.freeBytes}, {"total_bytes", m.totalBytes},
            {"read_only", m.readOnly}});
    // A model or a path need not be UTF-8 (a loop device's backing file): replaced, not
    // thrown.
    std::cout << out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    return 0;
}

} // namespace

void registerTargetCommands(CLI::App &app, int &exitCode)
{
    auto *cmd = app.add_subcommand("list-targets",
        "List block devices (model, size, SSD/HDD, partitions, mounts) and "
        "mounted file systems with free space");
    auto json = std::make_shared<bool>(false);
    cmd->add_flag("--json", *json, "Print the same facts as one JSON array (fields: docs/cli.md)");
    cmd->callback([&exitCode, json] { exitCode = *json ? listTargetsJson() : listTargets(); });
}

} // namespace ioprism::cli
