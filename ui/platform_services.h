// SPDX-License-Identifier: GPL-3.0-or-later
// What the desktop application needs from the machine, as plain functions and values.
//
// ui/ links core only: the platform layer (engines, counters, device discovery) reaches
// the UI through this struct, which app/gui/main.cpp fills from platform/. Tests fill it
// with core's null backend (nullPlatformServices). Every function may be called from
// any thread unless noted; an empty std::function means "not available here".
#pragma once

#include "core/agent/remote_session.h"
#include "core/counters.h"
#include "core/engine.h"
#include "core/engine_kind.h"
#include "core/profile/icf.h"
#include "core/profile/input_file.h"
#include "core/profile/profile.h"
#include "core/report/environment.h"
#include "core/result.h"
#include "core/run/run_session.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ioprism::ui {

// A place a target can be: a whole disk, a partition, or a test file on a mounted file
// system. Value type, filled by the platform layer.
struct TargetCandidate {
    core::TargetKind kind = core::TargetKind::TestFile;
    std::string path; // the device path, or the test file's full path
    std::string name; // short name: "vda", "vda1", "/home (ext4)"
    std::string model; // device model, or "" when unknown
    std::uint64_t sizeBytes = 0; // device size, or the file system's size for a test file
    std::optional<bool> rotational; // HDD (true) / SSD (false); unset when unknown
    std::vector<std::string> mountPoints; // where it (or a partition of this disk) is mounted
    // Other reasons a raw device is in use ("swap", "used by dm-0"); writing is refused
    // while this or mountPoints is not empty.
    std::vector<std::string> inUse;
    std::string fsType; // for test-file locations
    std::uint64_t freeBytes = 0; // for test-file locations: free space there
    bool readOnly = false;
    // Raw devices: how this user could open it now, to read and to write (Direct: with
    // its own rights; Broker: udisks2 would be asked, and the user with it; Denied: `text`
    // says why and what would help). Direct for test files and trees.
    core::TargetAccess readAccess;
    core::TargetAccess writeAccess;
    // Raw devices: what is on it ("ext4 file system “data”", "GPT partition table",
    // "LVM2 member"), for the question before it is overwritten; "" when nothing is
    // recognised (or not known here).
    std::string contents;
};

// The first `bytes` bytes of a file, through the bounded reader (PlatformServices).
using FileHeadReader
    = std::function<core::InputFileText(const std::filesystem::path &, std::size_t bytes)>;

// How to reach a manager on another host (an ioprism-agent, docs/agents.md): what the
// "Add manager" dialog asks.
struct ManagerAccess {
    std::string address; // "host", "host:port", "[v6]:port"
    std::string tokenFile; // the shared secret's file (net::readTokenFile)
    bool plaintext = false; // no TLS: loopback, or an SSH tunnel
    std::string pin; // "SHA256:…", the certificate expected; "": recorded on first use
};

// What a reached manager is, as the topology shows it (value type, any thread).
struct ManagerInfo {
    std::string address; // "host:port" as reached
    std::string host; // its host name
    std::string os;
    std::string version; // its IOPrism version
    std::uint32_t cpus = 0;
    std::vector<std::string> engines;
    std::optional<core::ClockOffset> clock; // its clock minus ours, measured at connection
    std::string fingerprint; // of its certificate; "" in plaintext
    bool firstUse = false; // the fingerprint was recorded now
    std::string knownAgentsFile; // where it was recorded
    std::optional<core::InventoryMessage> inventory; // devices, mounts, allowed roots
};

// A manager reached: what it is and its open connection, shared by the topology's
// binding and the runs on it (each run holds it until it ends).
struct ReachedManager {
    ManagerInfo info;
    std::shared_ptr<core::AgentConnection> connection;
};

// What a connection (opened) says of its agent: welcome, clock offset, inventory (asked
// now, bounded by the connection's timeout).
ManagerInfo describeManager(core::AgentConnection &connection, std::string address);

struct PlatformServices {
    // Where runs run (core/run/run_session.h). Empty: in this process, a
    // core::LocalRunSession over the functions below (localRunHooks).
    core::RunSessionFactory makeRunSession;
    // A new backend for one run; called on the run's thread. Null when the engine does
    // not exist on this platform.
    std::function<std::unique_ptr<core::IoBackend>(core::EngineKind)> makeBackend;
    // The engines makeBackend makes here (platform::availableEngines), in the order the
    // Setup page offers them, Auto first where it exists: Linux Auto, IoUring, Sync, Null;
    // Windows Auto, Iocp, Null. The page says what Auto means from this list (io_uring,
    // else sync; or IOCP), and a saved engine missing from it falls back to Auto.
    std::vector<core::EngineKind> engines;
    // The OS counter source for one run; called on the run's thread.
    std::function<std::unique_ptr<core::CounterSource>()> makeCounters;
    // Disks, partitions and test-file locations (GUI thread; may take a few ms).
    std::function<std::vector<TargetCandidate>()> listTargets;
    // True when an imported target can be found here (.icf import).
    std::function<bool(const core::Target &)> targetExists;
    // True when the volume an .icf names (`/mnt/data [ext4]`, `C:`) is on this machine,
    // so that its target becomes Iometer's test file there (core::locateIometerTestFiles).
    std::function<bool(const core::IometerVolume &)> iometerVolumeIsHere;
    // The kind of target a path is on this machine (a device, a partition, else a file).
    std::function<core::TargetKind(const std::string &)> detectTargetKind;
    // True when two target paths name the same target by this machine's spelling rules
    // (platform::sameTargetPath: Windows ignores letter case and takes / for \), so that a
    // profile's "c:/data/x.dat" is the listed C:\data\x.dat. No file system access (GUI
    // thread, every row). Empty: the same bytes only.
    std::function<bool(const std::string &, const std::string &)> samePath;
    // The machine and the target's devices, for result files.
    std::function<core::Environment()> describeSystem;
    std::function<core::DeviceFacts(const std::string &)> describeDevice;
    // Removes a test file IOPrism made (it carries our mark); anything else is refused
    // with an error. Empty: the option to remove test files is not offered.
    std::function<core::Status(const std::string &)> removeTestFile;
    // The bounded reader of files from outside (platform::readInputFile): results files,
    // profiles, the run library. Any thread. Empty: no such file is read (each is refused
    // as unreadable), so a FIFO or /dev/zero can never hang or exhaust the window.
    core::InputFileReader readFile;
    // The first bytes of a file under the same rules (platform::readInputFileHead), to
    // tell a results file from a profile and to read a file tree's marker; empty: none is.
    FileHeadReader readFileHead;
    // How this process could open a target now, for writing too when asked
    // (platform::targetAccess): Direct, through the broker (the run asks the user), or
    // Denied with why and what would help. May ask the broker whether it knows the device
    // (bounded); the check before Start calls it for the raw devices of the profile.
    // Empty function: not checked here (everything is Direct).
    std::function<core::TargetAccess(const std::string &path, bool write)> targetAccess;
    // True when a target targetAccess calls Denied would open after restartElevated
    // (platform::needsElevationFor: Windows' raw drives and volumes while the process is
    // not elevated). The check before Start then offers "Restart as Administrator".
    // Empty: not offered. Linux fills it with the platform function, which says false
    // (udisks2 opens devices there, and nothing restarts as root).
    std::function<bool(const core::Target &)> needsElevation;
    // Starts this program again with administrator rights and `arguments` (without the
    // program name; absolute paths), the system asking the user first
    // (platform::restartElevated). Ok once the new process was started: the window then
    // closes. An error (the user declined, or Linux: not supported) leaves the window as
    // it was. Empty: not offered.
    std::function<core::Status(const std::vector<std::string> &arguments)> restartElevated;
    // Reaches a manager on another host (net::reachAgent: TLS or plaintext, the token,
    // the certificate pinned or recorded in the data folder's known-agents file). Blocks
    // up to its timeout: never on the GUI thread. An error names the agent ("agent
    // db2:7355: the token was not accepted"). Empty: managers are not offered.
    std::function<core::Result<ReachedManager>(const ManagerAccess &)> reachManager;
};

// What a run in this process takes from the services: the engine, the counters, the
// descriptions and test-file removal.
core::LocalRunHooks localRunHooks(const PlatformServices &services);

// The null backend (for every engine kind, offering Linux's list: Auto, IoUring, Sync,
// Null), no OS counters, no target discovery: tests, and machines without a platform
// layer. A test of another platform's list sets `engines` itself.
PlatformServices nullPlatformServices();

} // namespace ioprism::ui
