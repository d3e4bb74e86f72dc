// SPDX-License-Identifier: GPL-3.0-or-later
// Real processes for the agents' end-to-end tests (Linux): a program started in the
// background with its output in files, and ioprism-agent on a free loopback port. Every
// process is stopped when its object goes, also when a test fails half-way: SIGTERM,
// then SIGKILL if it has not ended within a generous limit.
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

#include "e2e/cli_support.h"

extern char **environ;

namespace ioprism::test {

// Long enough for a loaded CI machine: a test that waits this long has failed.
inline constexpr std::chrono::seconds kProcessWait {60};

inline std::filesystem::path agentPath()
{
    return binDir() / "ioprism-agent";
}

// Text quoted for the shell.
inline std::string shellQuote(const std::string &text)
{
    std::string quoted = "'";
    for (const char c : text)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
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

// A program running in the background: `argv` run with its stdout and stderr in the
// files `outFile` and `errFile`, and `environment` ("NAME=value" words) added to ours.
class BackgroundProcess
{
public:
    BackgroundProcess(const std::vector<std::string> &argv, const std::filesystem::path &outFile,
        const std::filesystem::path &errFile, const std::vector<std::string> &environment = {})
        : m_outFile(outFile)
        , m_errFile(errFile)
    {
        // exec: the pid is the program's (env execs it in turn), so signals reach it.
        std::string command = "exec env";
        for (const auto &e : environment)
            command += " " + shellQuote(e);
        for (const auto &a : argv)
            command += " " + shellQuote(a);
        command += " >" + shellQuote(outFile.string()) + " 2>" + shellQuote(errFile.string());
        std::vector<std::string> shellArgv {"/bin/sh", "-c", command};
        std::vector<char *> raw;
        for (auto &a : shellArgv)
            raw.push_back(a.data());
        raw.push_back(nullptr);
        if (::posix_spawn(&m_pid, "/bin/sh", nullptr, nullptr, raw.data(), environ) != 0)
            m_pid = -1;
    }
    ~BackgroundProcess() { stop(); }
    BackgroundProcess(const BackgroundProcess &) = delete;
    BackgroundProcess &operator=(const BackgroundProcess &) = delete;

    bool started() const { return m_pid > 0; }
    pid_t pid() const { return m_pid; }
    void signal(int number)
    {
        if (running())
            ::kill(m_pid, number);
    }
    std::string out() const { return readFile(m_outFile); }
    std::string err() const { return readFile(m_errFile); }

    bool running()
    {
        if (m_pid > 0 && !m_exited && ::waitpid(m_pid, &m_status, WNOHANG) == m_pid)
            m_exited = true;
        return m_pid > 0 && !m_exited;
    }
    // The exit code (128 + the signal for a process killed by one); nullopt when it had
    // not ended within `limit`.
    std::optional<int> wait(std::chrono::seconds limit = kProcessWait)
    {
        const auto end = std::chrono::steady_clock::now() + limit;
        while (running()) {
            if (std::chrono::steady_clock::now() >= end)
                return std::nullopt;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        if (m_pid <= 0)
            return std::nullopt;
        return WIFEXITED(m_status) ? WEXITSTATUS(m_status) : 128 + WTERMSIG(m_status);
    }
    // SIGTERM, then SIGKILL if it has not ended within `limit`; reaped either way.
    std::optional<int> stop(std::chrono::seconds limit = kProcessWait)
    {
        signal(SIGTERM);
        if (auto code = wait(limit))
            return code;
        signal(SIGKILL);
        return wait();
    }

    // Waits (up to `limit`) for `condition`; false when it did not come true, including
    // when the process ended without bringing it about.
    template<typename F> bool waitFor(F condition, std::chrono::seconds limit = kProcessWait)
    {
        const auto end = std::chrono::steady_clock::now() + limit;
        while (std::chrono::steady_clock::now() < end) {
            if (condition())
                return true;
            if (!running())
                return condition();
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return false;
    }
    bool waitErr(const std::string &text, std::chrono::seconds limit = kProcessWait)
    {
        return waitFor([&] { return err().find(text) != std::string::npos; }, limit);
    }
    bool waitOut(const std::string &text, std::chrono::seconds limit = kProcessWait)
    {
        return waitFor([&] { return out().find(text) != std::string::npos; }, limit);
    }

private:
    std::filesystem::path m_outFile, m_errFile;
    pid_t m_pid = -1;
    bool m_exited = false;
    int m_status = 0;
};

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
