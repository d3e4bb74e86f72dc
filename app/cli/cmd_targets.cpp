// ioprism-cli list-targets: what can be benchmarked on this machine.
#include "app/cli/commands.h"
#include "core/profile/units.h"
#include "platform/common/system.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <iostream>

namespace ioprism::cli {

namespace {

std::string humanSize(std::uint64_t bytes)
{
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = double(bytes);
    int u = 0;
    while (v >= 1024 && u < 5) {
        v /= 1024;
        ++u;
    }
    return u == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", v, units[u]);
}

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
            humanSize(d.sizeBytes), d.rotational ? "HDD" : "SSD",
            d.model.empty() ? "(no model)" : d.model, d.readOnly ? "  read-only" : "",
            d.mountPoints.empty() ? "" : "  mounted at " + joined(d.mountPoints));
        for (const auto &p : d.partitions)
            std::cout << fmt::format("    {:<14} {:>10}  {}{}\n", p.devicePath,
                humanSize(p.sizeBytes),
                p.mountPoints.empty() ? "not mounted" : "mounted at " + joined(p.mountPoints),
                p.holders.empty() ? "" : "  used by " + joined(p.holders));
    }
    std::cout << "\nFile systems (test-file locations):\n";
    for (const auto &m : platform::listMounts())
        std::cout << fmt::format("  {:<24} {:<8} {:<18} {:>10} free of {}{}\n", m.mountPoint,
            m.fsType, m.device, humanSize(m.freeBytes), humanSize(m.totalBytes),
            m.readOnly ? "  read-only" : "");
    return 0;
}

} // namespace

void registerTargetCommands(CLI::App &app, int &exitCode)
{
    auto *cmd = app.add_subcommand("list-targets",
        "List block devices (model, size, SSD/HDD, partitions, mounts) and "
        "mounted file systems with free space");
    cmd->callback([&exitCode] { exitCode = listTargets(); });
}

} // namespace ioprism::cli
