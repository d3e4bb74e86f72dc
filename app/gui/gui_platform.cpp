// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/gui_platform.h"

#include "platform/common/backend_factory.h"
#include "platform/common/data_dir.h"
#include "platform/common/elevation.h"
#include "platform/common/input_file_reader.h"
#include "platform/common/system.h"
#include "platform/common/target_resolution.h"
#include "ui/models/profile_defaults.h"

#include "net/agent_client.h"
#include "net/transport.h"

// The OS's own (platform/linux or platform/windows, chosen by the build: app/CMakeLists.txt).
#include <filesystem>
#include <future>
#include <string>

#include "device_contents.h"

namespace ioprism::app {

namespace {

// A test-file location on every writable mounted file system.
void addTestFileLocations(std::vector<ui::TargetCandidate> &candidates,
    const std::vector<platform::BlockDeviceInfo> &disks)
{
    // The model and media of the disk holding a device path ("/dev/vda1" -> vda).
    auto diskOf = [&](const std::string &devicePath) -> const platform::BlockDeviceInfo * {
        for (const auto &d : disks) {
            if (d.devicePath == devicePath)
                return &d;
            for (const auto &p : d.partitions)
                if (p.devicePath == devicePath)
                    return &d;
        }
        return nullptr;
    };
    for (const auto &m : platform::listMounts()) {
        // A place this user cannot create files in (the root folder for a user) is no
        // place to offer a test file.
        if (m.readOnly || !platform::accessProblem(m.mountPoint, true).empty())
            continue;
        ui::TargetCandidate c;
        c.kind = core::TargetKind::TestFile;
        c.path = (std::filesystem::path(m.mountPoint) / ui::kTestFileName).string();
        c.name = m.mountPoint + " (" + m.fsType + ")";
        c.sizeBytes = m.totalBytes;
        c.freeBytes = m.freeBytes;
        c.fsType = m.fsType;
        c.mountPoints = {m.mountPoint};
        if (const auto *disk = diskOf(m.device)) {
            c.model = disk->model;
            c.rotational = disk->rotational;
        }
        candidates.push_back(c);
    }
}

// The kind of a listed device as this platform names it: a Linux disk is a BlockDevice
// and its partition a Partition, a Windows drive a PhysicalDrive (\\.\PhysicalDrive1) and
// its volume a Volume (\\.\C:, \\?\Volume{…}); the Windows backend refuses the Linux
// kinds. `listed` stands where the platform cannot tell (the device went away).
core::TargetKind rawKind(const std::string &devicePath, core::TargetKind listed)
{
    const core::TargetKind detected = platform::detectTargetKind(devicePath);
    return detected == core::TargetKind::TestFile || detected == core::TargetKind::FileTree
        ? listed
        : detected;
}

// A whole disk: its own facts, and its partitions' mounts and holders, since writing the
// disk overwrites them.
ui::TargetCandidate diskCandidate(const platform::BlockDeviceInfo &d)
{
    ui::TargetCandidate disk;
    disk.kind = rawKind(d.devicePath, core::TargetKind::BlockDevice);
    disk.path = d.devicePath;
    disk.name = d.name;
    disk.model = d.model;
    disk.sizeBytes = d.sizeBytes;
    disk.rotational = d.rotational;
    disk.readOnly = d.readOnly;
    disk.mountPoints = d.mountPoints;
    disk.contents = platform::deviceContentsOf(d.deviceNumber);
    for (const auto &h : d.holders)
        disk.inUse.push_back("used by " + h);
    for (const auto &p : d.partitions) {
        disk.mountPoints.insert(disk.mountPoints.end(), p.mountPoints.begin(), p.mountPoints.end());
        for (const auto &h : p.holders)
            disk.inUse.push_back(p.name + " used by " + h);
    }
    return disk;
}

ui::TargetCandidate partitionCandidate(
    const platform::BlockDeviceInfo &d, const platform::PartitionInfo &p)
{
    ui::TargetCandidate part;
    part.kind = rawKind(p.devicePath, core::TargetKind::Partition);
    part.path = p.devicePath;
    part.name = p.name;
    part.model = d.model;
    part.sizeBytes = p.sizeBytes;
    part.rotational = d.rotational;
    part.readOnly = d.readOnly;
    part.mountPoints = p.mountPoints;
    part.contents = platform::deviceContentsOf(p.deviceNumber);
    for (const auto &h : p.holders)
        part.inUse.push_back("used by " + h);
    return part;
}

// How this user could open each raw device, for reading and for writing.
//
// This runs on the GUI thread. Where the user's own rights suffice (accessProblem is "",
// a cheap stat and faccessat) that is the answer and nobody is asked. Only the devices the
// user may not open go to platform::targetAccess, which may ask udisks2 over D-Bus whether
// it knows the device (bounded by 2 s each). Those questions are asked all at once, each
// on a thread of its own, so a hung bus costs the window at most about one bound, not one
// per device and mode.
void fillAccess(std::vector<ui::TargetCandidate> &candidates)
{
    struct Pending {
        core::TargetAccess *access;
        std::future<core::TargetAccess> answer;
    };
    std::vector<Pending> pending;
    for (auto &c : candidates) {
        if (c.kind == core::TargetKind::TestFile)
            continue;
        for (const bool write : {false, true}) {
            core::TargetAccess &access = write ? c.writeAccess : c.readAccess;
            if (platform::accessProblem(c.path, write).empty())
                continue; // Direct (the default)
            pending.push_back({&access, std::async(std::launch::async, [path = c.path, write] {
                                   return platform::targetAccess(path, write);
                               })});
        }
    }
    for (auto &p : pending)
        *p.access = p.answer.get();
}

} // namespace

std::vector<ui::TargetCandidate> listTargets()
{
    std::vector<ui::TargetCandidate> candidates;
    const auto disks = platform::listBlockDevices();
    addTestFileLocations(candidates, disks);
    for (const auto &d : disks) {
        candidates.push_back(diskCandidate(d));
        for (const auto &p : d.partitions)
            candidates.push_back(partitionCandidate(d, p));
    }
    fillAccess(candidates);
    return candidates;
}

namespace {

// A manager on another host, reached as `ioprism-cli run --manager` reaches it: the same
// token file rules and the same known-agents file (the data folder's), so that a
// certificate recorded by one is known to the other.
core::Result<ui::ReachedManager> reachManager(const ui::ManagerAccess &manager)
{
    net::AgentAccess access;
    auto token = net::readTokenFile(manager.tokenFile);
    if (!token)
        return token.error();
    access.token = std::move(*token);
    access.plaintext = manager.plaintext;
    if (!manager.pin.empty()) {
        auto where = net::parseHostPort(manager.address);
        if (!where)
            return where.error();
        access.pins[net::formatHostPort(where->host, where->port)] = manager.pin;
    }
    if (!manager.plaintext) {
        auto data = platform::userDataDirectory();
        if (!data && manager.pin.empty())
            return data.error();
        if (data) {
            std::error_code ec;
            std::filesystem::create_directories(*data, ec);
            access.knownAgentsFile = (*data / "known-agents").string();
        }
    }
    auto reached = net::reachAgent(manager.address, access, platform::describeSystem().hostName);
    if (!reached)
        return reached.error();
    ui::ReachedManager result;
    result.info = ui::describeManager(*reached->connection, reached->address);
    result.info.fingerprint = reached->fingerprint;
    result.info.firstUse = reached->firstUse;
    result.info.knownAgentsFile = access.knownAgentsFile;
    result.connection = std::move(reached->connection);
    return result;
}

} // namespace

ui::PlatformServices platformServices()
{
    ui::PlatformServices services;
    services.makeBackend
        = [](core::EngineKind kind) { return platform::makeBackend({.kind = kind}); };
    services.engines = platform::availableEngines();
    services.makeCounters = [] { return platform::makeCounterSource(); };
    services.listTargets = listTargets;
    services.targetExists = [](const core::Target &t) { return platform::targetExists(t); };
    services.iometerVolumeIsHere
        = [](const core::IometerVolume &v) { return platform::iometerVolumeIsHere(v); };
    services.detectTargetKind
        = [](const std::string &path) { return platform::detectTargetKind(path); };
    services.samePath = platform::sameTargetPath;
    services.describeSystem = [] {
        auto environment = platform::describeSystem();
        environment.toolVersion = IOPRISM_VERSION;
        return environment;
    };
    services.describeDevice
        = [](const std::string &path) { return platform::describeDevice(path); };
    services.removeTestFile
        = [](const std::string &path) { return platform::removeTestFile(path); };
    services.readFile = platform::readInputFile;
    services.readFileHead = platform::readInputFileHead;
    services.targetAccess = platform::targetAccess;
    // On Linux these say "not needed" and "not supported": the broker is used instead.
    services.needsElevation = platform::needsElevationFor;
    services.restartElevated = platform::restartElevated;
    services.reachManager = reachManager;
    return services;
}

} // namespace ioprism::app
