// SPDX-License-Identifier: GPL-3.0-or-later
#include "e2e/system_services.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <pwd.h>
#include <spawn.h>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace ioprism::test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// Readiness waits are bounded, never a sleep that is assumed to be long enough: a loaded
// machine only makes them slower, a daemon that never gets ready fails the test.
constexpr auto kReadyTimeout = 30s;
constexpr auto kLockTimeout = 600s;
constexpr auto kPollStep = 100ms;

fs::path scriptPath()
{
    return sourceDir() / "tests" / "scripts" / "system_services.sh";
}

// A fresh folder in /tmp that the unprivileged user may enter (mkdtemp makes it 0700).
fs::path makeOpenTempDir(const std::string &prefix)
{
    std::string templ = (fs::temp_directory_path() / (prefix + "XXXXXX")).string();
    if (!::mkdtemp(templ.data()))
        return {};
    ::chmod(templ.c_str(), 0755);
    return templ;
}

std::string firstLine(const fs::path &file)
{
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    return line;
}

} // namespace

CommandResult runCommand(const std::string &cmd)
{
    CommandResult r;
    const std::string wrapped = "{ " + cmd + "\n} </dev/null 2>&1";
    FILE *p = ::popen(wrapped.c_str(), "r");
    if (!p)
        return r;
    char buf[4096];
    size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
        r.output.append(buf, n);
    const int status = ::pclose(p);
    r.exitCode = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
    return r;
}

std::string shellQuote(const std::string &text)
{
    std::string q = "'";
    for (const char c : text) {
        if (c == '\'')
            q += "'\\''";
        else
            q += c;
    }
    return q + "'";
}

std::string missingServicePrograms()
{
    std::string missing;
    for (const char *program : {"/usr/bin/dbus-daemon", "/usr/bin/dbus-monitor",
             "/usr/bin/dbus-send", "/usr/bin/gdbus", "/usr/bin/pkcheck", "/usr/bin/setpriv",
             "/usr/sbin/useradd", "/lib/systemd/systemd-udevd", "/usr/lib/polkit-1/polkitd",
             "/usr/libexec/udisks2/udisksd"}) {
        if (::access(program, X_OK) != 0)
            missing += std::string(missing.empty() ? "" : ", ") + program;
    }
    return missing;
}

// ---------------------------------------------------------------------------------------

SystemServices::SystemServices()
{
    if (::geteuid() != 0) {
        m_error = "the system services need root";
        return;
    }
    ::mkdir("/run/lock", 0755);
    m_lockFd = ::open("/run/lock/ioprism-system-services.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (m_lockFd < 0) {
        m_error = "cannot open /run/lock/ioprism-system-services.lock";
        return;
    }
    // Another test process or the long-read bench may hold it; wait, but not for ever.
    const auto deadline = std::chrono::steady_clock::now() + kLockTimeout;
    while (::flock(m_lockFd, LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK || std::chrono::steady_clock::now() > deadline) {
            m_error = "another test or bench keeps the system services' lock "
                      "(/run/lock/ioprism-system-services.lock)";
            ::close(m_lockFd);
            m_lockFd = -1;
            return;
        }
        std::this_thread::sleep_for(kPollStep);
    }
    m_dir = makeOpenTempDir("ioprism-services-");
    if (m_dir.empty()) {
        m_error = "cannot make a state folder in /tmp";
        return;
    }
    // With this process's PID: if it is killed before the destructor runs, the script's
    // watchdog stops the daemons and removes the user and the rule.
    if (const auto r = script("start", std::to_string(::getpid())); r.exitCode != 0) {
        m_error = "tests/scripts/system_services.sh start failed: " + r.output;
        return;
    }
    const std::string env = firstLine(m_dir / "env");
    const std::string key = "DBUS_SYSTEM_BUS_ADDRESS=";
    if (env.rfind(key, 0) != 0) {
        m_error = "system_services.sh wrote no bus address";
        return;
    }
    m_address = env.substr(key.size());
}

SystemServices::~SystemServices()
{
    if (!m_dir.empty()) {
        // Also after a failed start: the script stops whatever it recorded, nothing else.
        const auto r = script("stop");
        if (r.exitCode != 0 || !r.output.empty())
            std::fprintf(stderr, "system services: stop: %s\n", r.output.c_str());
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }
    if (m_lockFd >= 0)
        ::close(m_lockFd); // releases the flock
}

CommandResult SystemServices::script(const std::string &command, const std::string &argument) const
{
    return runCommand("bash " + shellQuote(scriptPath().string()) + " " + command + " "
        + shellQuote(m_dir.string()) + (argument.empty() ? "" : " " + shellQuote(argument)));
}

bool SystemServices::knowsBlock(const std::string &kernelName) const
{
    // Block.Device is a plain property: reading it asks polkit nothing. dbus-send, not
    // busctl: busctl comes with systemd, which nothing else here needs.
    return runCommand("dbus-send --bus=" + shellQuote(m_address)
               + " --print-reply --reply-timeout=5000 --dest=org.freedesktop.UDisks2 "
                 "/org/freedesktop/UDisks2/block_devices/"
               + kernelName
               + " org.freedesktop.DBus.Properties.Get string:org.freedesktop.UDisks2.Block "
                 "string:Device >/dev/null")
               .exitCode
        == 0;
}

bool SystemServices::waitForBlock(const std::string &kernelName) const
{
    const auto deadline = std::chrono::steady_clock::now() + kReadyTimeout;
    while (!knowsBlock(kernelName)) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(kPollStep);
    }
    return true;
}

// ---------------------------------------------------------------------------------------

TestUser::TestUser(const SystemServices &services)
    : m_services(services)
{
    if (const auto r = services.script("add-user"); r.exitCode != 0) {
        m_error = "cannot add a test user: " + r.output;
        return;
    }
    m_name = firstLine(services.stateDir() / "user");
    // getpwnam_r: getpwnam's static result is not thread safe (tests run on one thread,
    // but clang-tidy cannot know that).
    passwd entry {};
    passwd *pw = nullptr;
    std::vector<char> buf(16384);
    if (::getpwnam_r(m_name.c_str(), &entry, buf.data(), buf.size(), &pw) != 0 || !pw) {
        m_error = "the test user " + m_name + " has no passwd entry";
        return;
    }
    m_homeParent = std::make_unique<TempDir>();
    ::chmod(m_homeParent->path().c_str(), 0755);
    m_home = m_homeParent->path() / "home";
    fs::create_directories(m_home / "data");
    // Owned by the user and closed to others: XDG_RUNTIME_DIR must be 0700 for Qt.
    if (::chown(m_home.c_str(), pw->pw_uid, pw->pw_gid) != 0
        || ::chown((m_home / "data").c_str(), pw->pw_uid, pw->pw_gid) != 0
        || ::chmod(m_home.c_str(), 0700) != 0)
        m_error = "cannot hand " + m_home.string() + " to " + m_name;
}

TestUser::~TestUser()
{
    // The folders first: userdel leaves files behind that belong to nobody afterwards.
    m_binDir.reset();
    m_homeParent.reset();
    if (!m_name.empty()) {
        const auto r = m_services.script("remove-user");
        if (r.exitCode != 0)
            std::fprintf(stderr, "test user: %s\n", r.output.c_str());
    }
}

CommandResult TestUser::run(const std::string &cmd, const std::vector<std::string> &extraEnv) const
{
    std::string env = "PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8";
    for (const std::string var : {"HOME", "XDG_RUNTIME_DIR"})
        env += " " + var + "=" + shellQuote(m_home.string());
    env += " USER=" + m_name + " LOGNAME=" + m_name;
    env += " DBUS_SYSTEM_BUS_ADDRESS=" + shellQuote(m_services.busAddress());
    env += " IOPRISM_DATA_DIR=" + shellQuote((m_home / "data").string());
    // The sanitizers' options (the asan preset's suppressions of system libraries' leaks),
    // as the test itself runs under them.
    for (const char *var : {"ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS"})
        if (const char *value = std::getenv(var))
            env += std::string(" ") + var + "=" + shellQuote(value);
    for (const auto &e : extraEnv)
        env += " " + shellQuote(e);
    // setpriv, not su or runuser: no PAM session and no supplementary groups (not 'disk').
    return runCommand("setpriv --reuid=" + m_name + " --regid=" + m_name + " --clear-groups env -i "
        + env + " sh -c " + shellQuote("cd " + shellQuote(m_home.string()) + " && " + cmd));
}

fs::path TestUser::executable(const fs::path &binary)
{
    if (run("test -x " + shellQuote(binary.string())).exitCode == 0)
        return binary;
    if (!m_binDir) {
        m_binDir = std::make_unique<TempDir>();
        ::chmod(m_binDir->path().c_str(), 0755);
    }
    const fs::path copy = m_binDir->path() / binary.filename();
    std::error_code ec;
    fs::copy_file(binary, copy, fs::copy_options::overwrite_existing, ec);
    ::chmod(copy.c_str(), 0755);
    return !ec && run("test -x " + shellQuote(copy.string())).exitCode == 0 ? copy : fs::path();
}

// ---------------------------------------------------------------------------------------

PolkitLoopRule::PolkitLoopRule(const SystemServices &services)
    : m_services(services)
{
    if (const auto r = services.script("allow-loops"); r.exitCode != 0)
        m_error = "the polkit rule did not take effect: " + r.output;
}

PolkitLoopRule::~PolkitLoopRule()
{
    if (const auto r = m_services.script("disallow"); r.exitCode != 0)
        std::fprintf(stderr, "polkit rule: %s\n", r.output.c_str());
}

// ---------------------------------------------------------------------------------------

UdisksCallMonitor::UdisksCallMonitor(const SystemServices &services)
    : m_services(services)
{
    static int serial = 0;
    m_log = services.stateDir() / ("monitor-" + std::to_string(++serial) + ".log");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(
        &actions, 1, m_log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    const std::string &address = services.busAddress();
    // Every call to udisks2, whatever its interface (a property read is a call too).
    const std::string match = "type='method_call',destination='org.freedesktop.UDisks2'";
    const char *argv[] = {"dbus-monitor", "--address", address.c_str(), match.c_str(), nullptr};
    const int rc = ::posix_spawnp(
        &m_pid, "dbus-monitor", &actions, nullptr, const_cast<char **>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        m_pid = -1;
        m_error = "cannot start dbus-monitor";
        return;
    }
    // BecomeMonitor happens some time after the start: probe until the monitor shows one.
    if (!sync())
        m_error = "dbus-monitor shows no probe call after 30 s: " + text();
}

UdisksCallMonitor::~UdisksCallMonitor()
{
    if (m_pid <= 0)
        return;
    ::kill(m_pid, SIGTERM);
    for (int i = 0; i < 50; ++i) {
        if (::waitpid(m_pid, nullptr, WNOHANG) == m_pid)
            return;
        std::this_thread::sleep_for(kPollStep);
    }
    ::kill(m_pid, SIGKILL);
    ::waitpid(m_pid, nullptr, 0);
}

bool UdisksCallMonitor::probe()
{
    // A call to a method udisks2 does not have, on an object it does not have: harmless,
    // and it matches the monitor's rule (a call to udisks2) like OpenDevice does.
    const std::string member = "IoprismMonitorProbe" + std::to_string(++m_probes);
    runCommand("dbus-send --bus=" + shellQuote(m_services.busAddress())
        + " --dest=org.freedesktop.UDisks2 --type=method_call "
          "/org/freedesktop/UDisks2/ioprism_monitor_probe org.freedesktop.UDisks2.Block."
        + member);
    const auto deadline = std::chrono::steady_clock::now() + 1s;
    while (std::chrono::steady_clock::now() < deadline) {
        if (calls(member) > 0)
            return true;
        std::this_thread::sleep_for(20ms);
    }
    return false;
}

bool UdisksCallMonitor::sync()
{
    if (m_pid <= 0)
        return false;
    const auto deadline = std::chrono::steady_clock::now() + kReadyTimeout;
    while (std::chrono::steady_clock::now() < deadline) {
        if (probe())
            return true;
    }
    return false;
}

int UdisksCallMonitor::calls(const std::string &member) const
{
    const std::string t = text();
    const std::string needle = "; member=" + member + "\n";
    int n = 0;
    for (size_t at = t.find(needle); at != std::string::npos; at = t.find(needle, at + 1))
        ++n;
    return n;
}

int UdisksCallMonitor::callsBesidesProbes() const
{
    // The monitor's own signals (NameAcquired, NameLost) are not calls.
    std::istringstream lines(text());
    int n = 0;
    for (std::string line; std::getline(lines, line);)
        if (line.starts_with("method call ")
            && line.find("; member=IoprismMonitorProbe") == std::string::npos)
            ++n;
    return n;
}

std::string UdisksCallMonitor::text() const
{
    return readFile(m_log);
}

} // namespace ioprism::test
