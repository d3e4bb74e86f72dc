// SPDX-License-Identifier: GPL-3.0-or-later
// Another host for tests, made with a network namespace and a veth pair (root, the `ip`
// command), and shell commands with their output. Linux only: included by Linux-only
// tests (netns_*.cpp, the e2e agents test).
#pragma once

#include <cstdio>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace ioprism::test {

// The output (stdout and stderr together) and exit status of a shell command.
struct CommandResult {
    int status = -1;
    std::string output;
};

inline CommandResult runCommand(const std::string &command)
{
    CommandResult result;
    FILE *pipe = ::popen((command + " 2>&1").c_str(), "r");
    if (!pipe)
        return result;
    char buffer[4096];
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe))
        result.output.append(buffer, n);
    const int status = ::pclose(pipe);
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

// A namespace "ioprism-net-<pid>" joined to this one by a veth pair: 10.213.N.1 here,
// 10.213.N.2 inside (N from the process id: runs side by side do not clash). Removed
// when this goes, whatever the test did: deleting the namespace deletes its end of the
// pair, which deletes the other.
class Namespace
{
public:
    Namespace()
    {
        const int n = static_cast<int>(::getpid() % 250) + 1;
        const std::string id = std::to_string(::getpid() % 100000);
        m_name = "ioprism-net-" + id;
        m_hostLink = "ipnet" + id + "h";
        m_innerLink = "ipnet" + id + "n";
        m_hostAddress = "10.213." + std::to_string(n) + ".1";
        m_innerAddress = "10.213." + std::to_string(n) + ".2";
        remove(); // left by an earlier run that was killed
        for (const std::string &command : {
                 "ip netns add " + m_name,
                 "ip link add " + m_hostLink + " type veth peer name " + m_innerLink,
                 "ip link set " + m_innerLink + " netns " + m_name,
                 "ip addr add " + m_hostAddress + "/24 dev " + m_hostLink,
                 "ip link set " + m_hostLink + " up",
                 "ip -n " + m_name + " addr add " + m_innerAddress + "/24 dev " + m_innerLink,
                 "ip -n " + m_name + " link set " + m_innerLink + " up",
                 "ip -n " + m_name + " link set lo up",
             }) {
            const CommandResult result = runCommand(command);
            if (result.status != 0) {
                m_error = command + ": " + result.output;
                return;
            }
        }
    }
    ~Namespace() { remove(); }
    Namespace(const Namespace &) = delete;
    Namespace &operator=(const Namespace &) = delete;

    const std::string &error() const { return m_error; }
    const std::string &hostAddress() const { return m_hostAddress; }
    const std::string &innerAddress() const { return m_innerAddress; }
    // Runs `command` inside the namespace.
    CommandResult runInside(const std::string &command) const
    {
        return runCommand("ip netns exec " + m_name + " " + command);
    }

private:
    void remove()
    {
        runCommand("ip netns del " + m_name);
        runCommand("ip link del " + m_hostLink);
    }

    std::string m_name, m_hostLink, m_innerLink, m_hostAddress, m_innerAddress, m_error;
};

// The ip command with network namespace support is there (and may be used).
inline bool haveIpNetns()
{
    return runCommand("ip netns list").status == 0;
}

} // namespace ioprism::test
