// SPDX-License-Identifier: GPL-3.0-or-later
// A program started in the background by an end-to-end test (Linux), its output in
// files: ioprism-cli under a fault, ioprism-agent, mpirun. It is stopped when its object
// goes, also when a test fails half-way: SIGTERM, then SIGKILL if it has not ended within
// a generous limit.
#pragma once

#include "support/test_support.h"

#include <chrono>
#include <csignal>
#include <filesystem>
#include <optional>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace ioprism::test {

// Long enough for a loaded CI machine: a test that waits this long has failed.
inline constexpr std::chrono::seconds kProcessWait {60};

// Text quoted for the shell.
inline std::string shellQuote(const std::string &text)
{
    std::string quoted = "'";
    for (const char c : text)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

// Words quoted for the shell, space-separated.
inline std::string shellWords(const std::vector<std::string> &words)
{
    std::string text;
    for (const auto &w : words)
        text += (text.empty() ? "" : " ") + shellQuote(w);
    return text;
}

// A program running in the background: `argv` run with its stdout and stderr in the
// files `outFile` and `errFile`, `environment` ("NAME=value" words) added to ours, in the
// folder `workingDirectory` ("": ours). argv may start with programs that exec the next
// word in turn (prlimit, setpriv): the pid is then still the last one's.
class BackgroundProcess
{
public:
    BackgroundProcess(const std::vector<std::string> &argv, const std::filesystem::path &outFile,
        const std::filesystem::path &errFile, const std::vector<std::string> &environment = {},
        const std::filesystem::path &workingDirectory = {})
        : m_outFile(outFile)
        , m_errFile(errFile)
    {
        // exec: the pid is the program's (env execs it in turn), so signals reach it.
        std::string command = "exec env";
        if (!workingDirectory.empty())
            command = "cd " + shellQuote(workingDirectory.string()) + " && " + command;
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

} // namespace ioprism::test
