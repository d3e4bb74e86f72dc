// SPDX-License-Identifier: GPL-3.0-or-later
// ioprism-agent for the agents' end-to-end tests (Linux): on a free loopback port, a
// BackgroundProcess (e2e/background_process.h), stopped when its object goes.
#pragma once

#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <memory>
#include <netinet/in.h>
#include <optional>
#include <spawn.h>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "e2e/background_process.h"
#include "e2e/cli_support.h"

extern char **environ;

namespace ioprism::test {

inline std::filesystem::path agentPath()
{
    return binDir() / "ioprism-agent";
}

// A TCP port on 127.0.0.1 that nothing listened on a moment ago (the kernel's choice for
// port 0). Another process may take it before the caller does: callers that listen on it
// retry with another (AgentProcess::start).
inline int freeLoopbackPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return 0;
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0
        && ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) == 0)
        port = ntohs(address.sin_port);
    ::close(fd);
    return port;
}

// ioprism-agent listening on a loopback port, its log (stderr) in `dir`/agent-N.log.
// The agent takes no port 0: a free port is picked, and another tried when the agent
// could not listen on it (taken meanwhile).
class AgentProcess
{
public:
    // `options`: the agent's options besides --listen (token, --allow, identity...).
    // `listenHost`: the address to listen on (127.0.0.1, or 0.0.0.0 for every interface).
    AgentProcess(const std::filesystem::path &dir, std::vector<std::string> options,
        std::string listenHost = "127.0.0.1", int port = 0)
        : m_dir(dir)
        , m_options(std::move(options))
        , m_listenHost(std::move(listenHost))
    {
        start(port);
    }

    // Starts the agent (again), on `port` or, when 0, on a free port. True once it listens.
    bool start(int port = 0)
    {
        for (int attempt = 0; attempt < 10; ++attempt) {
            m_port = port ? port : freeLoopbackPort();
            std::vector<std::string> argv {
                agentPath().string(), "--listen", m_listenHost + ":" + std::to_string(m_port)};
            argv.insert(argv.end(), m_options.begin(), m_options.end());
            const auto log = m_dir / ("agent-" + std::to_string(++m_starts) + ".log");
            m_process.reset(); // the previous agent, stopped
            m_process = std::make_unique<BackgroundProcess>(argv, m_dir / "agent.out", log);
            if (m_process->waitErr(" listening on "))
                return true;
            const bool portTaken
                = m_process->err().find("ddress already in use") != std::string::npos;
            if (!portTaken || port != 0)
                return false;
        }
        return false;
    }
    // Changes the options of the next start().
    void setOptions(std::vector<std::string> options) { m_options = std::move(options); }

    bool listening()
    {
        return m_process && m_process->running()
            && m_process->err().find(" listening on ") != std::string::npos;
    }
    int port() const { return m_port; }
    std::string address() const { return "127.0.0.1:" + std::to_string(m_port); }
    std::string log() const { return m_process ? m_process->err() : std::string(); }
    BackgroundProcess &process() { return *m_process; }
    // The certificate fingerprint it reported ("" without TLS).
    std::string fingerprint() const
    {
        const std::string text = log();
        const auto at = text.find("certificate SHA256:");
        if (at == std::string::npos)
            return {};
        const auto begin = at + std::string("certificate ").size();
        return text.substr(begin, text.find_first_of(");", begin) - begin);
    }

private:
    std::filesystem::path m_dir;
    std::vector<std::string> m_options;
    std::string m_listenHost;
    int m_port = 0;
    int m_starts = 0;
    std::unique_ptr<BackgroundProcess> m_process;
};

} // namespace ioprism::test
