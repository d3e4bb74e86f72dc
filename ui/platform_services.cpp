// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/platform_services.h"

#include "core/null_engine.h"

namespace ioprism::ui {

core::LocalRunHooks localRunHooks(const PlatformServices &services)
{
    core::LocalRunHooks hooks;
    hooks.makeBackend = services.makeBackend;
    hooks.makeCounters = services.makeCounters;
    hooks.describe.describeSystem = services.describeSystem;
    hooks.describe.describeDevice = services.describeDevice;
    hooks.removeTestFile = services.removeTestFile;
    return hooks;
}

PlatformServices nullPlatformServices()
{
    PlatformServices services;
    services.makeBackend = [](core::EngineKind) -> std::unique_ptr<core::IoBackend> {
        return std::make_unique<core::NullBackend>();
    };
    services.engines = {core::EngineKind::Auto, core::EngineKind::IoUring, core::EngineKind::Sync,
        core::EngineKind::Null};
    services.makeCounters = []() -> std::unique_ptr<core::CounterSource> {
        return std::make_unique<core::NullCounterSource>();
    };
    services.listTargets = [] { return std::vector<TargetCandidate> {}; };
    services.targetExists = [](const core::Target &) { return true; };
    services.iometerVolumeIsHere = [](const core::IometerVolume &) { return false; };
    services.detectTargetKind = [](const std::string &) { return core::TargetKind::TestFile; };
    services.describeSystem = [] {
        core::Environment environment;
        environment.toolVersion = IOPRISM_VERSION;
        return environment;
    };
    services.describeDevice = [](const std::string &path) {
        core::DeviceFacts facts;
        facts.path = path;
        return facts;
    };
    return services;
}

} // namespace ioprism::ui

namespace ioprism::ui {

ManagerInfo describeManager(core::AgentConnection &connection, std::string address)
{
    const core::WelcomeMessage welcome = connection.welcome();
    ManagerInfo info;
    info.address = std::move(address);
    info.host = welcome.host;
    info.os = welcome.os;
    info.version = welcome.version;
    info.cpus = welcome.cpus;
    info.engines = welcome.engines;
    info.clock = connection.clockOffset();
    // Without its inventory the manager still runs: the tooltip then says nothing of it.
    if (auto inventory = connection.inventory(); inventory)
        info.inventory = std::move(*inventory);
    return info;
}

} // namespace ioprism::ui
