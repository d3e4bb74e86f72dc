// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/common/agent_host.h"

#include "platform/common/backend_factory.h"
#include "platform/common/system.h"

#include <filesystem>
#include <fmt/format.h>
#include <system_error>
#include <vector>

namespace ioprism::platform {

core::WelcomeMessage agentIdentity()
{
    const core::Environment system = describeSystem();
    core::WelcomeMessage w;
    w.host = system.hostName;
    w.os = system.osName + (system.kernel.empty() ? "" : ", kernel " + system.kernel);
    w.cpus = system.cpuCount;
    for (const auto kind : availableEngines())
        w.engines.emplace_back(engineKindName(kind));
    w.pid = currentProcessId();
    return w;
}

core::InventoryMessage agentInventory()
{
    core::InventoryMessage out;
    const auto joined = [](const std::vector<std::string> &items) {
        return fmt::format("{}", fmt::join(items, ", "));
    };
    const auto inUse
        = [&](const std::vector<std::string> &mounts, const std::vector<std::string> &holders) {
              if (!mounts.empty())
                  return "mounted at " + joined(mounts);
              if (!holders.empty())
                  return "used by " + joined(holders);
              return std::string();
          };
    for (const auto &d : listBlockDevices()) {
        std::string why = inUse(d.mountPoints, d.holders);
        for (const auto &p : d.partitions)
            if (why.empty() && (!p.mountPoints.empty() || !p.holders.empty()))
                why = "a partition is in use (" + p.devicePath + ")";
        out.devices.push_back({d.devicePath, d.model, d.sizeBytes, why});
        for (const auto &p : d.partitions)
            out.devices.push_back(
                {p.devicePath, d.model, p.sizeBytes, inUse(p.mountPoints, p.holders)});
    }
    for (const auto &m : listMounts())
        out.mounts.push_back({m.mountPoint, m.fsType, m.freeBytes, m.totalBytes});
    return out;
}

std::string agentRealPath(const std::string &path)
{
    std::error_code ec;
    const auto resolved = std::filesystem::weakly_canonical(path, ec);
    return ec ? path : resolved.string();
}

} // namespace ioprism::platform
