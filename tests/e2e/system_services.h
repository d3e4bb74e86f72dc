// SPDX-License-Identifier: GPL-3.0-or-later
// The system services of issue 26 (raw devices without root) for end-to-end tests, as
// objects that undo themselves: a private system bus with udev, polkitd and udisksd on
// it, a throwaway unprivileged user, a polkit rule that lets that user open loop devices
// (and nothing else) through udisks2, and a monitor of the calls that reach udisks2.
//
// Starting and stopping is tests/scripts/system_services.sh, which bench/ uses too, so
// the two cannot drift apart; these classes hold the lock, the state folder and the
// order of teardown. Everything needs root.
#pragma once

#include "support/test_support.h"

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ioprism::test {

struct CommandResult {
    int exitCode = -1; // -1: killed by a signal or not run
    std::string output; // stdout and stderr together
};

// Runs shell text `cmd` with no standard input and waits for it.
CommandResult runCommand(const std::string &cmd);

// `text` as one single-quoted shell word.
std::string shellQuote(const std::string &text);

// Programs the services need that are not installed, "" when all are (for IOPRISM_REQUIRE).
std::string missingServicePrograms();

// The private system bus with udev, polkitd and udisksd on it, for the life of the object.
// Holds /run/lock/ioprism-system-services.lock meanwhile: udev is machine-wide, and two
// test processes (ctest -j, a bench) must not stop it under each other.
class SystemServices
{
public:
    SystemServices();
    ~SystemServices();
    SystemServices(const SystemServices &) = delete;
    SystemServices &operator=(const SystemServices &) = delete;

    // "" when every daemon owns its name on the bus, else why not (with their logs).
    const std::string &error() const { return m_error; }
    // "unix:path=…": what DBUS_SYSTEM_BUS_ADDRESS must be for every client.
    const std::string &busAddress() const { return m_address; }
    const std::filesystem::path &stateDir() const { return m_dir; }
    // Runs `command` of tests/scripts/system_services.sh on this state folder.
    CommandResult script(const std::string &command, const std::string &argument = {}) const;
    // Whether udisks2 has a Block object for `kernelName` ("loop3") now.
    bool knowsBlock(const std::string &kernelName) const;
    // udisks2 learns of a loop device from udev some time after losetup returns: waits
    // (bounded) until it knows `kernelName`.
    bool waitForBlock(const std::string &kernelName) const;

private:
    int m_lockFd = -1;
    std::filesystem::path m_dir;
    std::string m_address;
    std::string m_error;
};

// A throwaway system user (no home, no login), removed with the object. One per
// SystemServices at a time (its name is kept in the services' state folder).
class TestUser
{
public:
    explicit TestUser(const SystemServices &services);
    ~TestUser();
    TestUser(const TestUser &) = delete;
    TestUser &operator=(const TestUser &) = delete;

    const std::string &error() const { return m_error; }
    const std::string &name() const { return m_name; }
    // A folder the user owns (mode 0700): its HOME, XDG_RUNTIME_DIR and data folder.
    const std::filesystem::path &home() const { return m_home; }
    // Runs shell text `cmd` as the user in home(), with a clean environment: PATH, HOME,
    // USER, LOGNAME, LANG, XDG_RUNTIME_DIR, DBUS_SYSTEM_BUS_ADDRESS (the private bus),
    // IOPRISM_DATA_DIR (home()/data), then `extraEnv` ("NAME=value" each).
    CommandResult run(const std::string &cmd, const std::vector<std::string> &extraEnv = {}) const;
    // `binary`, or a copy in a folder anyone may enter when a parent of it is closed to
    // the user (a build tree under a private folder); "" if neither works.
    std::filesystem::path executable(const std::filesystem::path &binary);

private:
    const SystemServices &m_services;
    std::string m_name;
    std::string m_error;
    std::filesystem::path m_home;
    std::unique_ptr<TempDir> m_homeParent;
    std::unique_ptr<TempDir> m_binDir;
};

// A polkit rule letting `user` open loop devices through udisks2 without being asked,
// for the life of the object. Returns from the constructor (and destructor) only once
// polkit's verdict has changed, so a test never races polkitd's reload of rules.d.
class PolkitLoopRule
{
public:
    explicit PolkitLoopRule(const SystemServices &services);
    ~PolkitLoopRule();
    PolkitLoopRule(const PolkitLoopRule &) = delete;
    PolkitLoopRule &operator=(const PolkitLoopRule &) = delete;
    const std::string &error() const { return m_error; }

private:
    const SystemServices &m_services;
    std::string m_error;
};

// dbus-monitor on the private bus, watching every method call to udisks2:
// how a test proves that a run asked udisks2 (or did not).
class UdisksCallMonitor
{
public:
    explicit UdisksCallMonitor(const SystemServices &services);
    ~UdisksCallMonitor();
    UdisksCallMonitor(const UdisksCallMonitor &) = delete;
    UdisksCallMonitor &operator=(const UdisksCallMonitor &) = delete;

    // "" once the monitor has seen a probe call, i.e. it watches; else why not.
    const std::string &error() const { return m_error; }
    // Sends another probe and waits until the monitor shows it: the bus delivers to a
    // monitor in order, so every call made before this one is in text() afterwards.
    bool sync();
    // How many calls of `member` ("OpenDevice") the monitor saw (call sync() first).
    int calls(const std::string &member) const;
    // How many calls to udisks2 of any kind it saw, its own probes left out.
    int callsBesidesProbes() const;
    std::string text() const;

private:
    bool probe();

    const SystemServices &m_services;
    std::filesystem::path m_log;
    pid_t m_pid = -1;
    int m_probes = 0;
    std::string m_error;
};

} // namespace ioprism::test
