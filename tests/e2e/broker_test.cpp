// SPDX-License-Identifier: GPL-3.0-or-later
// Raw devices without root (issue 26), end to end: an unprivileged user runs ioprism-cli
// (and the GUI) on a loop device, which only udisks2 may open for it, after polkit says
// yes. The daemons run on a private system bus that the test starts as root
// (tests/e2e/system_services.h); a polkit rule stands in for the user's answer, and a
// dbus-monitor shows whether a run asked udisks2 at all.
//
// Every test needs root (losetup, useradd, the daemons): skipped with a reason otherwise,
// a failure under IOPRISM_NO_SKIP=1.
#include "platform/linux/udisks_broker.h"

#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <gmock/gmock.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <pwd.h>
#include <regex>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e/cli_support.h"
#include "e2e/linux_support.h"
#include "e2e/system_services.h"

using namespace ioprism::test;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

namespace fs = std::filesystem;

// The services and the user, started by the first Broker test of this process and
// stopped after the last (by the environment below): starting them for each test would
// cost a second each and test nothing more. Test processes that run no Broker test start
// nothing.
struct Shared {
    std::unique_ptr<SystemServices> services;
    std::unique_ptr<TestUser> user;

    void stop()
    {
        user.reset(); // before the services: its removal runs their script
        services.reset();
    }
};

Shared &shared()
{
    static Shared s;
    return s;
}

class BrokerEnvironment : public ::testing::Environment
{
public:
    void TearDown() override { shared().stop(); }
};

[[maybe_unused]] const auto *const kBrokerEnvironment
    = ::testing::AddGlobalTestEnvironment(new BrokerEnvironment);

// A loop device over a 64 MiB image of random bytes (so any write changes its checksum),
// known to udisks2, detached with the object.
class LoopTarget
{
public:
    explicit LoopTarget(const SystemServices &services)
        : m_dir(realFsDir())
        , m_image(m_dir.path() / "loop.img")
    {
        if (runCommand("head -c 64M /dev/urandom >" + shellQuote(m_image.string())).exitCode != 0)
            return;
        m_loop = std::make_unique<LoopDevice>(m_image, "64M");
        m_error.clear();
        if (m_loop->path().empty())
            m_error = "losetup could not attach a loop device";
        else if (!services.waitForBlock(m_loop->name()))
            m_error = "udisks2 does not list " + m_loop->path() + " after 30 s";
    }

    const std::string &error() const { return m_error; }
    const std::string &path() const { return m_loop->path(); }
    const fs::path &image() const { return m_image; }
    std::string name() const { return m_loop->name(); }
    std::string sha256() const
    {
        return runCommand("sha256sum " + shellQuote(m_image.string()) + " | cut -d' ' -f1").output;
    }

private:
    TempDir m_dir;
    fs::path m_image;
    std::unique_ptr<LoopDevice> m_loop;
    std::string m_error = "could not write the loop device's image";
};

// One short run's command line: 4 KiB random I/O at queue depth 4 for 1 s, results JSON
// to `json`. `write`: 100 % writes, confirmed with --allow-device-writes.
std::string runArgs(const std::string &device, bool write, const fs::path &json)
{
    return "run --target " + shellQuote(device) + " --bs 4k --random 100 --qd 4 --duration 1 "
        + "--ramp 0 --device-tail 0 --quiet --json " + shellQuote(json.string())
        + (write ? " --read 0 --allow-device-writes" : " --read 100");
}

// The results' environment.targets entry of `device` (null when missing or unreadable).
nlohmann::json targetEntry(const fs::path &json, const std::string &device)
{
    const auto doc = nlohmann::json::parse(readFile(json), nullptr, false);
    if (doc.is_discarded() || !doc.contains("environment"))
        return nullptr;
    for (const auto &t : doc["environment"].value("targets", nlohmann::json::array()))
        if (t.value("path", "") == device)
            return t;
    return nullptr;
}

nlohmann::json summaryOf(const fs::path &json)
{
    const auto doc = nlohmann::json::parse(readFile(json), nullptr, false);
    return doc.is_discarded() ? nlohmann::json() : doc.value("summary", nlohmann::json());
}

// gdbus as `user`: Block.OpenDevice("r", O_DIRECT) on `device`, never asking interactively.
std::string openDeviceCall(const std::string &kernelName)
{
    return "gdbus call --system --dest org.freedesktop.UDisks2 --object-path "
           "/org/freedesktop/UDisks2/block_devices/"
        + kernelName
        + " --method org.freedesktop.UDisks2.Block.OpenDevice r "
          "\"{'flags': <16384>, 'auth.no_user_interaction': <true>}\"";
}

// Runs `fn` in a child process that has become `user` (its uid and gid, no other groups)
// on the private bus, as an unprivileged IOPrism would be; the child's exit code is 0
// when `fn` returns "ok…", and its output is what `fn` returned.
CommandResult runAsUser(
    const TestUser &user, const SystemServices &services, const std::function<std::string()> &fn)
{
    passwd entry {};
    passwd *pw = nullptr;
    std::vector<char> buf(16384);
    if (::getpwnam_r(user.name().c_str(), &entry, buf.data(), buf.size(), &pw) != 0 || !pw)
        return {-1, "no passwd entry for " + user.name()};
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0)
        return {-1, "pipe2 failed"};
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(pipeFds[0]);
        std::string text = "cannot become the user";
        const bool becameUser = ::setgroups(0, nullptr) == 0
            && ::setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) == 0
            && ::setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) == 0;
        // The child of fork() has one thread: setenv races nothing here.
        const char *address = services.busAddress().c_str();
        const int envSet
            = ::setenv("DBUS_SYSTEM_BUS_ADDRESS", address, 1); // NOLINT(concurrency-mt-unsafe)
        if (becameUser && envSet == 0)
            text = fn();
        const ssize_t written = ::write(pipeFds[1], text.data(), text.size());
        ::_exit(written == static_cast<ssize_t>(text.size()) && text.rfind("ok", 0) == 0 ? 0 : 1);
    }
    ::close(pipeFds[1]);
    CommandResult r;
    char chunk[4096];
    ssize_t n = 0;
    while ((n = ::read(pipeFds[0], chunk, sizeof chunk)) > 0)
        r.output.append(chunk, static_cast<size_t>(n));
    ::close(pipeFds[0]);
    int status = 0;
    if (pid > 0 && ::waitpid(pid, &status, 0) == pid && WIFEXITED(status))
        r.exitCode = WEXITSTATUS(status);
    return r;
}

// In the child of runAsUser: asks udisks2 for `device` through IOPrism's own client (never
// interactively: there is no agent), then reads or writes its first 4 KiB with the
// descriptor received. "ok <flags>" (a write: and " claimed" when the kernel refuses a
// second exclusive open meanwhile) or why not.
std::string brokeredIo(const std::string &kernelName, bool write, std::string &block)
{
    ioprism::platform::BrokerRequest request;
    request.deviceName = kernelName;
    request.write = write;
    request.flags = O_DIRECT | (write ? O_EXCL : 0);
    request.interactive = false;
    auto fd = ioprism::platform::openThroughUdisks(request);
    if (!fd)
        return "refused: errno " + std::to_string(fd.error().code.value()) + ": "
            + fd.error().toString();
    void *aligned = nullptr;
    if (::posix_memalign(&aligned, 4096, 4096) != 0)
        return "no memory";
    std::unique_ptr<void, decltype(&std::free)> mem(aligned, &std::free);
    ssize_t done = 0;
    if (write) {
        std::memcpy(aligned, block.data(), 4096);
        done = ::pwrite(fd->get(), aligned, 4096, 0);
    } else {
        done = ::pread(fd->get(), aligned, 4096, 0);
        block.assign(static_cast<const char *>(aligned), 4096);
    }
    if (done != 4096)
        return std::string(write ? "pwrite" : "pread")
            + " failed: " + std::error_code(errno, std::system_category()).message();
    const int flags = ::fcntl(fd->get(), F_GETFL);
    // The kernel does not report O_EXCL back: the claim shows in a second exclusive open
    // of the device (udisksd's, as root) being refused busy while this one is held.
    std::string claim;
    if (write) {
        const auto second = ioprism::platform::openThroughUdisks(request);
        claim = !second && second.error().code.value() == EBUSY ? " claimed"
            : second                                            ? " NOT claimed"
                     : " (" + second.error().toString() + ")";
    }
    return "ok " + ioprism::platform::openFlagsText(flags, write) + claim + "\n"
        + (write ? "" : block);
}

class BrokerTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        IOPRISM_REQUIRE(isRoot(),
            "needs root: it starts udisksd, polkitd and a system bus, "
            "adds a user and attaches loop devices");
        const std::string missing = missingServicePrograms();
        IOPRISM_REQUIRE(missing.empty(),
            "needs dbus-daemon, udev, polkitd and udisks2 (scripts/quickstart.sh installs "
            "them); missing: "
                + missing);
        auto &s = shared();
        if (!s.services) {
            s.services = std::make_unique<SystemServices>();
            if (s.services->error().empty())
                s.user = std::make_unique<TestUser>(*s.services);
        }
        ASSERT_EQ(s.services->error(), "");
        ASSERT_TRUE(s.user);
        ASSERT_EQ(s.user->error(), "");
        m_cli = s.user->executable(cliPath());
        ASSERT_FALSE(m_cli.empty()) << "the test user cannot execute " << cliPath();
    }

    SystemServices &services() { return *shared().services; }
    TestUser &user() { return *shared().user; }

    // ioprism-cli ARGS as the test user (stdin closed: nothing may wait for an answer;
    // and should polkit's question hang regardless, the timeout fails the test instead of
    // holding ctest until its own).
    CommandResult userCli(const std::string &args)
    {
        return user().run("timeout 120 " + shellQuote(m_cli.string()) + " " + args);
    }

    fs::path m_cli;
};

class BrokerHarness : public BrokerTest
{
};
class BrokerCli : public BrokerTest
{
};
class BrokerGuiRun : public BrokerTest
{
};

// The harness itself, independent of IOPrism: the user cannot open the device, polkit
// refuses udisks2 for it without the rule and grants it with the rule, for loop devices
// only.
TEST_F(BrokerHarness, UserOpensALoopDeviceThroughUdisksOnlyWithTheRule)
{
    LoopTarget loop(services());
    ASSERT_EQ(loop.error(), "");

    const auto direct = user().run("head -c 4096 " + loop.path() + " >/dev/null");
    EXPECT_NE(direct.exitCode, 0) << "the test user can open " << loop.path()
                                  << " itself: the tests below would prove nothing";

    const auto refused = user().run(openDeviceCall(loop.name()));
    EXPECT_NE(refused.exitCode, 0) << refused.output;
    EXPECT_THAT(refused.output, HasSubstr("org.freedesktop.UDisks2.Error.NotAuthorized"));

    {
        PolkitLoopRule rule(services());
        ASSERT_EQ(rule.error(), "");
        const auto granted = user().run(openDeviceCall(loop.name()));
        EXPECT_EQ(granted.exitCode, 0) << granted.output;
        EXPECT_THAT(granted.output, HasSubstr("(handle 0,)"));

        // The rule names loop devices only: any other disk udisks2 lists stays refused.
        for (const auto &entry : fs::directory_iterator("/sys/block")) {
            const std::string name = entry.path().filename().string();
            if (name.rfind("loop", 0) == 0 || !services().knowsBlock(name))
                continue;
            const auto other = user().run(openDeviceCall(name));
            EXPECT_NE(other.exitCode, 0) << name << ": " << other.output;
            EXPECT_THAT(other.output, HasSubstr("NotAuthorized")) << name;
        }
    }

    // Removed again: refused again (the destructor waited for polkit to forget it).
    const auto again = user().run(openDeviceCall(loop.name()));
    EXPECT_NE(again.exitCode, 0) << again.output;
}

// IOPrism's udisks2 client (platform/linux/udisks_broker.h) against the real daemons, as
// the user: refused with polkit's advice without the rule; with it, a descriptor that
// reads the device's bytes, and one for writing, O_EXCL, whose write reaches the image.
TEST_F(BrokerHarness, BrokerClientGetsWorkingDescriptorsAsUser)
{
    LoopTarget loop(services());
    ASSERT_EQ(loop.error(), "");
    const std::string name = loop.name();
    const std::string firstBlock = readFile(loop.image()).substr(0, 4096);
    ASSERT_EQ(firstBlock.size(), 4096U);

    std::string block;
    const auto refused
        = runAsUser(user(), services(), [&] { return brokeredIo(name, false, block); });
    EXPECT_EQ(refused.exitCode, 1) << refused.output;
    EXPECT_THAT(refused.output, AllOf(HasSubstr("errno 13"), HasSubstr("polkit")));

    PolkitLoopRule rule(services());
    ASSERT_EQ(rule.error(), "");
    const auto read = runAsUser(user(), services(), [&] { return brokeredIo(name, false, block); });
    ASSERT_EQ(read.exitCode, 0) << read.output;
    EXPECT_EQ(read.output.substr(0, read.output.find('\n')), "ok O_RDONLY|O_DIRECT");
    EXPECT_TRUE(read.output.substr(read.output.find('\n') + 1) == firstBlock)
        << "the descriptor udisks2 passed does not read the device's first block";

    std::string pattern(4096, '\0');
    for (size_t i = 0; i < pattern.size(); ++i)
        pattern[i] = static_cast<char>('A' + i % 26);
    const auto written
        = runAsUser(user(), services(), [&] { return brokeredIo(name, true, pattern); });
    ASSERT_EQ(written.exitCode, 0) << written.output;
    EXPECT_EQ(written.output, "ok O_RDWR|O_DIRECT|O_EXCL claimed\n");
    EXPECT_TRUE(readFile(loop.image()).substr(0, 4096) == pattern)
        << "the write through udisks2's descriptor did not reach the device";
}

// The monitor sees an OpenDevice call when one is made, so a test that finds none proves
// something.
TEST_F(BrokerHarness, MonitorSeesOpenDeviceCalls)
{
    LoopTarget loop(services());
    ASSERT_EQ(loop.error(), "");
    UdisksCallMonitor monitor(services());
    ASSERT_EQ(monitor.error(), "");
    ASSERT_TRUE(monitor.sync());
    EXPECT_EQ(monitor.calls("OpenDevice"), 0) << monitor.text();
    user().run(openDeviceCall(loop.name()));
    ASSERT_TRUE(monitor.sync());
    EXPECT_EQ(monitor.calls("OpenDevice"), 1) << monitor.text();
}

TEST_F(BrokerCli, ReadAsUserOpensThroughUdisks)
{
    LoopTarget loop(services());
    ASSERT_EQ(loop.error(), "");
    PolkitLoopRule rule(services());
    ASSERT_EQ(rule.error(), "");
    UdisksCallMonitor monitor(services());
    ASSERT_EQ(monitor.error(), "");

    const fs::path json = user().home() / "read.json";
    const auto r = userCli(runArgs(loop.path(), false, json));
    ASSERT_EQ(r.exitCode, 0) << r.output;

    const auto target = targetEntry(json, loop.path());
    ASSERT_TRUE(target.is_object()) << readFile(json);
    EXPECT_EQ(target.value("opened_by", ""), "udisks2") << target.dump();
    const std::string flags = target.value("open_flags", "");
    EXPECT_THAT(
        flags, AllOf(HasSubstr("O_RDONLY"), HasSubstr("O_DIRECT"), Not(HasSubstr("O_RDWR"))))
        << target.dump();
    EXPECT_GT(summaryOf(json).value("bytes_read", 0.0), 0.0);
    ASSERT_TRUE(monitor.sync());
    EXPECT_GE(monitor.calls("OpenDevice"), 1) << monitor.text();
}

TEST_F(BrokerCli, WriteAsUserAfterConfirmationOpensExclusivelyAndWrites)
{
    LoopTarget loop(services());
    ASSERT_EQ(loop.error(), "");
    PolkitLoopRule rule(services());
    ASSERT_EQ(rule.error(), "");
    UdisksCallMonitor monitor(services());
    ASSERT_EQ(monitor.error(), "");
    const std::string before = loop.sha256();

    const fs::path json = user().home() / "write.json";
    const auto r = userCli(runArgs(loop.path(), true, json));
    ASSERT_EQ(r.exitCode, 0) << r.output;

    const auto target = targetEntry(json, loop.path());
    ASSERT_TRUE(target.is_object()) << readFile(json);
    EXPECT_EQ(target.value("opened_by", ""), "udisks2") << target.dump();
    // Direct I/O as any run by default, exclusive as every written device; and not
    // synchronous: OpenForBenchmark would have added O_SYNC (a different workload).
    EXPECT_THAT(target.value("open_flags", ""),
        AllOf(HasSubstr("O_RDWR"), HasSubstr("O_DIRECT"), HasSubstr("O_EXCL"),
            Not(HasSubstr("SYNC"))))
        << target.dump();
    EXPECT_GT(summaryOf(json).value("bytes_written", 0.0), 0.0);
    EXPECT_NE(loop.sha256(), before) << "the run wrote nothing to the device";
    ASSERT_TRUE(monitor.sync());
    EXPECT_GE(monitor.calls("OpenDevice"), 1) << monitor.text();
    EXPECT_EQ(monitor.calls("OpenForBenchmark"), 0) << monitor.text();
}

// Without the rule polkit refuses (no agent can ask this user): the run fails, says that
// polkit refused and what to do, and a refused write changes nothing.
TEST_F(BrokerCli, RefusedWithoutRuleSaysWhatToDoAndWritesNothing)
{
    LoopTarget loop(services());
    ASSERT_EQ(loop.error(), "");
    const std::string before = loop.sha256();

    for (const bool write : {false, true}) {
        SCOPED_TRACE(write ? "write run" : "read run");
        const fs::path json = user().home() / (write ? "w.json" : "r.json");
        const auto r = userCli(runArgs(loop.path(), write, json));
        EXPECT_NE(r.exitCode, 0) << r.output;
        EXPECT_THAT(r.output,
            AllOf(HasSubstr("polkit"), HasSubstr("sudo"), HasSubstr("rule"),
                HasSubstr("docs/targets.md")));
    }
    EXPECT_EQ(loop.sha256(), before) << "a refused write run changed the device";
}

// A device neither the user nor udisks2 can open (here: no system bus to reach udisks2
// on) is refused before the run prepares anything: the test file named first is never
// made, and the message says what would help.
TEST_F(BrokerCli, ADeviceNobodyCanOpenIsRefusedBeforeAnyTestFileIsMade)
{
    LoopTarget loop(services());
    ASSERT_EQ(loop.error(), "");
    const fs::path testFile = user().home() / "first.dat";
    const auto r = user().run("timeout 120 " + shellQuote(m_cli.string()) + " run --target "
            + shellQuote(testFile.string()) + " --target " + shellQuote(loop.path())
            + " --file-size 8MiB --bs 4k --read 100 --duration 1 --ramp 0 --no-save",
        {"DBUS_SYSTEM_BUS_ADDRESS=unix:path=" + (user().home() / "no-bus").string()});
    EXPECT_NE(r.exitCode, 0) << r.output;
    EXPECT_THAT(r.output, AllOf(HasSubstr(loop.path()), HasSubstr("udisks2"), HasSubstr("disk")))
        << "says that udisks2 cannot be asked and what the node allows";
    // Not made and removed again (a refused run discards what it made): never begun.
    EXPECT_THAT(r.output, Not(HasSubstr("preparing " + testFile.string())));
    EXPECT_FALSE(fs::exists(testFile)) << r.output;
}

// A mounted device is refused by IOPrism's own check, from what any user can read, before
// udisks2 (and polkit, which would ask the user for nothing) is involved.
TEST_F(BrokerCli, MountedDeviceIsRefusedBeforeUdisksIsAsked)
{
    TempDir dir(realFsDir());
    Ext4Mount mount(dir.path(), "64M");
    IOPRISM_REQUIRE(mount.mounted(), "could not make and mount an ext4 on a loop device");
    const std::string device = mount.device().path();
    ASSERT_TRUE(services().waitForBlock(mount.device().name()));
    // With the rule, udisks2 would hand the user a descriptor: only IOPrism's check stops it.
    PolkitLoopRule rule(services());
    ASSERT_EQ(rule.error(), "");
    UdisksCallMonitor monitor(services());
    ASSERT_EQ(monitor.error(), "");

    const auto r = userCli(runArgs(device, true, user().home() / "mounted.json"));
    EXPECT_NE(r.exitCode, 0) << r.output;
    EXPECT_THAT(r.output, HasSubstr("mounted"));
    ASSERT_TRUE(monitor.sync());
    // Not asked to open it, nor anything else: no D-Bus call reached udisks2.
    EXPECT_EQ(monitor.callsBesidesProbes(), 0) << monitor.text();

    // Positive control: the same monitor does see an OpenDevice call for this device.
    user().run(openDeviceCall(mount.device().name()));
    ASSERT_TRUE(monitor.sync());
    EXPECT_EQ(monitor.calls("OpenDevice"), 1) << monitor.text();
}

// Another loop device over the same image as the target: writing the target writes it
// too. The user can neither open it nor, here, identify its backing file (the image is in
// a folder closed to the user), so the kernel's name for the backing file tells; mounted,
// the write is refused for the mount; unmounted, because the user could not claim it for
// the run (it could be mounted while IOPrism writes), and the image is left as it was.
TEST_F(BrokerCli, AnotherLoopOverTheSameImageIsFoundAndRefusedWhenItCannotBeClaimed)
{
    LoopTarget loop(services());
    ASSERT_EQ(loop.error(), "");
    PolkitLoopRule rule(services());
    ASSERT_EQ(rule.error(), "");
    ASSERT_EQ(runCommand("mkfs.ext4 -q -F " + shellQuote(loop.image().string())).exitCode, 0);
    LoopDevice other(loop.image(), "64M");
    ASSERT_FALSE(other.path().empty());

    TempDir mountPoint(realFsDir());
    ASSERT_EQ(
        runCommand("mount " + other.path() + " " + shellQuote(mountPoint.path().string())).exitCode,
        0);
    auto r = userCli(runArgs(loop.path(), true, user().home() / "shared-mounted.json"));
    unmount(mountPoint.path());
    EXPECT_NE(r.exitCode, 0) << r.output;
    EXPECT_THAT(r.output, AllOf(HasSubstr(other.name()), HasSubstr("mounted"))) << r.output;

    // (Mounting and unmounting wrote the file system's superblock: compared from here.)
    const std::string before = loop.sha256();
    r = userCli(runArgs(loop.path(), true, user().home() / "shared.json"));
    EXPECT_NE(r.exitCode, 0) << r.output;
    EXPECT_THAT(r.output, AllOf(HasSubstr(other.name()), HasSubstr("may not claim it")))
        << r.output;
    EXPECT_EQ(loop.sha256(), before) << "a refused write changed the image";
}

// Root opens the device itself: udisks2 is not asked even though it runs.
TEST_F(BrokerCli, RootOpensDirectly)
{
    LoopTarget loop(services());
    ASSERT_EQ(loop.error(), "");
    UdisksCallMonitor monitor(services());
    ASSERT_EQ(monitor.error(), "");

    TempDir work;
    const fs::path json = work.path() / "root.json";
    const std::string env = "DBUS_SYSTEM_BUS_ADDRESS=" + shellQuote(services().busAddress())
        + " IOPRISM_DATA_DIR=" + shellQuote((work.path() / "data").string()) + " ";
    const auto r = runCommand(env + "timeout 120 " + shellQuote(cliPath().string()) + " "
        + runArgs(loop.path(), false, json));
    ASSERT_EQ(r.exitCode, 0) << r.output;
    const auto target = targetEntry(json, loop.path());
    ASSERT_TRUE(target.is_object()) << readFile(json);
    EXPECT_EQ(target.value("opened_by", ""), "user") << target.dump();
    ASSERT_TRUE(monitor.sync());
    EXPECT_EQ(monitor.callsBesidesProbes(), 0) << "root needs no D-Bus\n" << monitor.text();

    // Positive control: root's own OpenDevice call is seen.
    runCommand(env + openDeviceCall(loop.name()));
    ASSERT_TRUE(monitor.sync());
    EXPECT_EQ(monitor.calls("OpenDevice"), 1) << monitor.text();
}

// Whether this build tree has the GUI (the tsan and fuzz presets build none).
std::optional<bool> buildHasGui()
{
    const std::string cache = readFile(binDir().parent_path() / "CMakeCache.txt");
    if (cache.find("IOPRISM_BUILD_GUI:BOOL=OFF") != std::string::npos)
        return false;
    if (cache.find("IOPRISM_BUILD_GUI:BOOL=ON") != std::string::npos)
        return true;
    return std::nullopt;
}

// The GUI's own scenario (ui_tests' DISABLED_BrokerGui.*: a read and a confirmed write on
// IOPRISM_BROKER_DEVICE through the real platform services), run as the user on a real X
// server. It must run at least one test: a filter that matches nothing also exits 0.
TEST_F(BrokerGuiRun, ReadAndConfirmedWriteAsUser)
{
    if (buildHasGui() == false)
        GTEST_SKIP() << "this build has no GUI (IOPRISM_BUILD_GUI=OFF)";
    const fs::path uiTests = binDir() / "ui_tests";
    IOPRISM_REQUIRE(fs::exists(uiTests), "ui_tests is not built: cmake --build --target ui_tests");
    IOPRISM_REQUIRE(
        ::access("/usr/bin/xvfb-run", X_OK) == 0 && ::access("/usr/bin/xauth", X_OK) == 0,
        "needs xvfb-run and xauth (apt install xvfb xauth)");
    const fs::path bin = user().executable(uiTests);
    ASSERT_FALSE(bin.empty()) << "the test user cannot execute " << uiTests;

    LoopTarget loop(services());
    ASSERT_EQ(loop.error(), "");
    PolkitLoopRule rule(services());
    ASSERT_EQ(rule.error(), "");
    UdisksCallMonitor monitor(services());
    ASSERT_EQ(monitor.error(), "");

    // timeout: a dialog nobody answers must fail the test, not hold ctest for 10 minutes.
    const auto r = user().run("timeout 300 xvfb-run -a -s '-screen 0 1600x1000x24' "
            + shellQuote(bin.string())
            + " --gtest_also_run_disabled_tests --gtest_filter='DISABLED_BrokerGui.*'",
        {"IOPRISM_BROKER_DEVICE=" + loop.path(), "QT_QPA_PLATFORM=xcb"});
    EXPECT_EQ(r.exitCode, 0) << r.output;
    std::smatch m;
    const std::regex passed(R"(\[  PASSED  \] (\d+) test)");
    ASSERT_TRUE(std::regex_search(r.output, m, passed)) << r.output;
    EXPECT_GE(std::stoi(m[1].str()), 1) << "no DISABLED_BrokerGui test ran:\n" << r.output;
    ASSERT_TRUE(monitor.sync());
    EXPECT_GE(monitor.calls("OpenDevice"), 1) << "the GUI did not go through udisks2\n"
                                              << monitor.text();
}

} // namespace
