// SPDX-License-Identifier: GPL-3.0-or-later
// ioprism-cli against faults on Linux: a file system frozen mid-run (the device stops
// completing I/O) and a limit on threads. Root-only tests skip with a reason (fail under
// IOPRISM_NO_SKIP=1).
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "e2e/cli_process.h"
#include "e2e/linux_support.h"

using namespace ioprism::test;
using ::testing::HasSubstr;

namespace {

int sh(const std::string &command)
{
    return std::system((command + " >/dev/null 2>&1").c_str());
}

// An ext4 file system on a loop device, mounted, with one IOPrism test file on it; it
// can be frozen (fsfreeze): writes then never complete until it is thawed.
class FreezableFs
{
public:
    explicit FreezableFs(const std::filesystem::path &dir)
        : m_dir(dir)
        , m_mnt(dir / "mnt")
    {
        std::filesystem::create_directories(m_mnt);
        const auto image = dir / "fs.img";
        if (sh("truncate -s 128M '" + image.string() + "'") != 0
            || sh("mkfs.ext4 -q -F '" + image.string() + "'") != 0
            || sh("mount -o loop '" + image.string() + "' '" + m_mnt.string() + "'") != 0)
            return;
        m_mounted = true;
        // The test file, created and filled by IOPrism, so the frozen run only writes.
        auto r = runCli("run --target '" + m_mnt.string()
                + "' --file-size 16MiB --bs 4k --read 100 --duration 1 --ramp 0 -q",
            dir);
        m_ok = r.exitCode == 0;
    }
    ~FreezableFs()
    {
        thaw();
        if (m_mounted)
            unmount(m_mnt);
    }
    bool ok() const { return m_ok; }
    std::string file() const { return (m_mnt / "ioprism-test.dat").string(); }
    bool freeze()
    {
        m_frozen = sh("fsfreeze -f '" + m_mnt.string() + "'") == 0;
        return m_frozen;
    }
    void thaw()
    {
        if (m_frozen)
            sh("fsfreeze -u '" + m_mnt.string() + "'");
        m_frozen = false;
    }

private:
    std::filesystem::path m_dir, m_mnt;
    bool m_mounted = false, m_ok = false, m_frozen = false;
};

bool nonEmpty(const std::filesystem::path &p)
{
    std::error_code ec;
    return std::filesystem::file_size(p, ec) > 0 && !ec;
}

} // namespace

// Seen before: the run waited silently on a frozen file system and, once thawed,
// reported a 9 ms maximum latency although 32 I/Os had been stuck for 20 s.
TEST(CliFaults, AFrozenFileSystemIsReportedAsAStallAndItsAgeIsInTheMaximum)
{
    IOPRISM_REQUIRE(::geteuid() == 0, "needs root to mount and freeze a file system");
    TempDir dir("/var/tmp");
    FreezableFs fs(dir.path());
    IOPRISM_REQUIRE(fs.ok(), "could not make an ext4 file system on a loop device");
    ASSERT_TRUE(fs.freeze());
    const auto json = dir.path() / "r.json";
    CliProcess cli(dir.path(),
        {"run", "--engine", "io_uring", "--target", fs.file(), "--file-size", "16MiB", "--bs", "4k",
            "--read", "0", "--random", "100", "--qd", "8", "--duration", "2", "--ramp", "0",
            "--interval", "250ms", "--stall-threshold", "500ms", "--stop-timeout", "1", "--json",
            json.string()});
    ASSERT_TRUE(cli.started());
    // The results are written while the file system is still frozen.
    const bool wrote = cli.waitFor([&] { return nonEmpty(json); });
    fs.thaw();
    const auto code = cli.wait();
    ASSERT_TRUE(wrote) << cli.err();
    EXPECT_EQ(code, 1) << cli.err();
    const std::string err = cli.err();
    EXPECT_THAT(cli.out(), HasSubstr("STALLED: 8 I/O in flight")) << "the interval lines say it";
    EXPECT_THAT(err, HasSubstr("8 I/Os in flight for more than 0.5 s"));
    EXPECT_THAT(err, HasSubstr("8 I/Os still in flight at the end of step"));
    const auto j = nlohmann::json::parse(readFile(json));
    EXPECT_EQ(j.at("stuck_io").at("ios").get<int>(), 8);
    EXPECT_GE(j.at("stuck_io").at("oldest_seconds").get<double>(), 2.0);
    // Submitted as the 2 s step began and never completed: their age at its end, less
    // the moments before the first submit, is the step's maximum latency.
    EXPECT_GE(j.at("summary").at("latency_us").at("max").get<double>(), 1.5e6)
        << "the stuck I/Os' age is in the maximum";
    EXPECT_TRUE(j.at("error").is_object());
}

TEST(CliFaults, ASecondCtrlCWritesTheResultsWithoutWaitingForAStuckDevice)
{
    IOPRISM_REQUIRE(::geteuid() == 0, "needs root to mount and freeze a file system");
    TempDir dir("/var/tmp");
    FreezableFs fs(dir.path());
    IOPRISM_REQUIRE(fs.ok(), "could not make an ext4 file system on a loop device");
    ASSERT_TRUE(fs.freeze());
    const auto json = dir.path() / "r.json";
    CliProcess cli(dir.path(),
        {"run", "--engine", "io_uring", "--target", fs.file(), "--file-size", "16MiB", "--bs", "4k",
            "--read", "0", "--qd", "4", "--duration", "0", "--ramp", "0", "--interval", "200ms",
            "--stall-threshold", "300ms", "--stop-timeout", "1h", "--json", json.string()});
    ASSERT_TRUE(cli.started());
    const bool stalled = cli.waitFor(
        [&] { return cli.err().find("in flight for more than") != std::string::npos; });
    cli.signal(SIGINT);
    const bool stopping
        = cli.waitFor([&] { return cli.err().find("stopping (signal") != std::string::npos; });
    cli.signal(SIGINT);
    const bool wrote = cli.waitFor([&] { return nonEmpty(json); });
    fs.thaw();
    const auto code = cli.wait();
    ASSERT_TRUE(stalled && stopping) << cli.err();
    ASSERT_TRUE(wrote) << cli.err();
    EXPECT_EQ(code, 130) << cli.err();
    const auto j = nlohmann::json::parse(readFile(json));
    EXPECT_EQ(j.at("stuck_io").at("ios").get<int>(), 4);
    EXPECT_TRUE(j.at("stoppedByUser").get<bool>());
}

// Seen before: Ctrl-C during --pre-init was ignored until all its operations were done
// (9 s of silence), and then a step still started and printed figures of no I/O. The
// run waits for its pre-initialisation line before the signal: no timing decides.
TEST(CliFaults, CtrlCDuringPreInitialisationStopsItAndStartsNoStep)
{
    IOPRISM_REQUIRE(::geteuid() == 0, "needs root for a loop-mounted ext4");
    TempDir dir(realFsDir());
    Ext4Mount ext4(dir.path(), "64M");
    ASSERT_TRUE(ext4.mounted());
    const auto json = dir.path() / "r.json";
    // More operations than the run could do in hours: only the stop can end it.
    CliProcess cli(dir.path(),
        {"run", "--target", (ext4.path() / "e").string(), "--tree", "2:2:1MiB", "--pre-init",
            "1000000000", "--rw", "randread", "--bs", "4k", "--duration", "2s", "--ramp", "0",
            "--stop-timeout", "3s", "--no-save", "--json", json.string()});
    ASSERT_TRUE(cli.started());
    const bool preInitialising
        = cli.waitFor([&] { return cli.out().find("-- pre-initialising ") != std::string::npos; });
    ASSERT_TRUE(preInitialising) << cli.out() << cli.err();
    EXPECT_THAT(cli.out(), HasSubstr("/e: 0 of 1000000000 operations (not measured)"));
    cli.signal(SIGINT);
    const bool ended = cli.waitFor([&] { return !cli.running(); });
    ASSERT_TRUE(ended) << "one Ctrl-C ends pre-initialisation\n" << cli.out() << cli.err();
    EXPECT_EQ(cli.wait(), 130) << cli.err();
    const std::string out = cli.out();
    EXPECT_EQ(out.find("measuring"), std::string::npos) << "no step started\n" << out;
    EXPECT_EQ(out.find("Files "), std::string::npos) << "no figures of no I/O\n" << out;
    const auto j = nlohmann::json::parse(readFile(json));
    EXPECT_TRUE(j.at("steps").empty()) << j.at("steps").dump();
    EXPECT_TRUE(j.at("stoppedByUser").get<bool>());
}

// SIGTERM does the same (exit 143), on the null engine: no root, no device.
TEST(CliFaults, SigtermDuringPreInitialisationStopsItAndStartsNoStep)
{
    TempDir dir;
    CliProcess cli(dir.path(),
        {"run", "--engine", "null", "--target", (dir.path() / "t").string(), "--tree", "2:2:1MiB",
            "--pre-init", "1000000000000", "--bs", "4k", "--duration", "1s", "--ramp", "0",
            "--no-save"});
    ASSERT_TRUE(cli.started());
    ASSERT_TRUE(cli.waitFor([&] {
        return cli.out().find("-- pre-initialising ") != std::string::npos;
    })) << cli.out()
        << cli.err();
    cli.signal(SIGTERM);
    ASSERT_TRUE(cli.waitFor([&] { return !cli.running(); })) << cli.out() << cli.err();
    EXPECT_EQ(cli.wait(), 143) << cli.err();
    EXPECT_EQ(cli.out().find("measuring"), std::string::npos) << cli.out();
}

// Seen before: with a thread limit the io_uring path died with "terminate called ...
// std::system_error" (exit 134) and wrote nothing.
TEST(CliFaults, AWorkerThreadThatCannotStartIsAClearErrorNotAnAbort)
{
    IOPRISM_REQUIRE(::geteuid() == 0, "needs root to run the CLI as another user");
    IOPRISM_REQUIRE(
        sh("command -v prlimit && command -v setpriv") == 0, "prlimit or setpriv missing");
    TempDir dir("/var/tmp");
    std::filesystem::permissions(dir.path(), std::filesystem::perms::all);
    // RLIMIT_NPROC binds a user without privileges: `nobody` may have a few threads.
    // ASan's leak check needs a thread of its own at exit: not under this limit.
    CliProcess cli(dir.path(),
        {"run", "--engine", "null", "--workers", "64", "--bs", "4k", "--duration", "1", "--ramp",
            "0", "-q", "--json", (dir.path() / "r.json").string()},
        {"ASAN_OPTIONS=detect_leaks=0", "prlimit", "--nproc=8:8", "setpriv", "--reuid=65534",
            "--regid=65534", "--clear-groups"});
    ASSERT_TRUE(cli.started());
    const auto code = cli.wait();
    EXPECT_EQ(code, 1) << cli.err();
    EXPECT_THAT(cli.err(), HasSubstr("could not start worker thread"));
    EXPECT_THAT(cli.err(), HasSubstr("ulimit -u"));
    EXPECT_TRUE(nonEmpty(dir.path() / "r.json")) << "the outputs are written";
}

// Seen before: past ~64 io_uring workers a user without CAP_IPC_LOCK got
// "io_uring_queue_init: Cannot allocate memory" and `auto` did not fall back.
TEST(CliFaults, RunningOutOfLockedMemoryFallsBackAndNamesTheLimit)
{
    IOPRISM_REQUIRE(::geteuid() == 0, "needs root to run the CLI as another user");
    IOPRISM_REQUIRE(
        sh("command -v prlimit && command -v setpriv") == 0, "prlimit or setpriv missing");
    TempDir dir("/var/tmp");
    std::filesystem::permissions(dir.path(), std::filesystem::perms::all);
    // 128 KiB of locked memory: rings for a few of the 32 workers, not for all. The
    // kernel charges io_uring's locked memory per user, so this test has a uid of its
    // own: another test running as nobody at the same time would use up its share.
    const std::vector<std::string> asNobody {"prlimit", "--memlock=131072:131072", "setpriv",
        "--reuid=64999", "--regid=64999", "--clear-groups"};
    const std::vector<std::string> args {"--workers", "32", "--bs", "4k", "--read", "100", "--qd",
        "4", "--file-size", "16MiB", "--duration", "1", "--ramp", "0", "-q", "--json",
        (dir.path() / "r.json").string()};
    std::vector<std::string> automatic {"run", "--engine", "auto"};
    automatic.insert(automatic.end(), args.begin(), args.end());
    {
        CliProcess cli(dir.path(), automatic, asNobody);
        ASSERT_TRUE(cli.started());
        EXPECT_EQ(cli.wait(), 0) << cli.err();
        EXPECT_THAT(cli.err(), HasSubstr("those workers use the sync engine"));
        EXPECT_THAT(cli.err(), HasSubstr("RLIMIT_MEMLOCK, 128 KiB here"));
        const auto j = nlohmann::json::parse(readFile(dir.path() / "r.json"));
        EXPECT_GT(j.at("summary").at("iops").get<double>(), 0) << "every worker did I/O";
    }
    std::vector<std::string> explicitUring {"run", "--engine", "io_uring"};
    explicitUring.insert(explicitUring.end(), args.begin(), args.end());
    CliProcess cli(dir.path(), explicitUring, asNobody);
    ASSERT_TRUE(cli.started());
    EXPECT_EQ(cli.wait(), 1) << cli.err();
    EXPECT_THAT(cli.err(), HasSubstr("io_uring_queue_init: Cannot allocate memory"));
    EXPECT_THAT(cli.err(), HasSubstr("raise it (ulimit -l"));
}

TEST(CliFaults, NoPermissionOnARawDeviceNamesTheFix)
{
    IOPRISM_REQUIRE(::geteuid() == 0, "needs root for losetup and to run as another user");
    TempDir dir("/var/tmp");
    std::filesystem::permissions(dir.path(), std::filesystem::perms::all);
    sh("truncate -s 16M '" + (dir.path() / "img").string() + "'");
    std::string loop;
    {
        FILE *p
            = ::popen(("losetup -f --show '" + (dir.path() / "img").string() + "'").c_str(), "r");
        char buf[64] = {};
        if (p && std::fgets(buf, sizeof buf, p))
            loop = buf;
        if (p)
            ::pclose(p);
        while (!loop.empty() && loop.back() == '\n')
            loop.pop_back();
    }
    IOPRISM_REQUIRE(!loop.empty(), "losetup could not attach a loop device");
    CliProcess cli(dir.path(),
        {"run", "--target", loop, "--bs", "4k", "--read", "100", "--duration", "1", "-q"},
        {"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"});
    ASSERT_TRUE(cli.started());
    const auto code = cli.wait();
    sh("losetup -d " + loop);
    EXPECT_EQ(code, 1) << cli.err();
    EXPECT_THAT(cli.err(), HasSubstr("Permission denied"));
    // The advice fits the node (issue 24, item 15): where its group may read it, join the
    // group; where only its owner may (root:root 0600, as here without udev), no group helps.
    struct stat st {
    };
    ASSERT_EQ(::stat(loop.c_str(), &st), 0);
    if ((st.st_mode & S_IRGRP) != 0) {
        EXPECT_THAT(cli.err(), HasSubstr("usermod -aG "));
        EXPECT_THAT(cli.err(), HasSubstr(" nobody")) << "the user's own name, not USER";
    } else {
        EXPECT_THAT(cli.err(), HasSubstr("only root may open it"));
        EXPECT_THAT(cli.err(), ::testing::Not(HasSubstr("usermod")));
    }
}

// Seen before: two 30 MiB test files with 51 MiB free: the first was created, the second
// refused, and the first stayed even with --remove-test-files.
TEST(CliFaults, TestFilesThatDoNotFitTogetherAreRefusedBeforeAnyIsCreated)
{
    IOPRISM_REQUIRE(::geteuid() == 0, "needs root to mount a small tmpfs");
    TempDir dir;
    const auto mnt = dir.path() / "small";
    std::filesystem::create_directories(mnt);
    ASSERT_EQ(sh("mount -t tmpfs -o size=51M tmpfs '" + mnt.string() + "'"), 0);
    auto r = runCli("run --target '" + (mnt / "a.dat").string() + "' --target '"
            + (mnt / "b.dat").string()
            + "' --file-size 30MiB --buffered --bs 4k --read 100 --duration 1 -q "
              "--remove-test-files",
        dir.path());
    const bool empty = std::filesystem::is_empty(mnt);
    unmount(mnt);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr("for the test files together: need 60MiB"));
    EXPECT_TRUE(empty) << "nothing was created";
}

TEST(CliFaults, ATestFileThisRunCreatedIsRemovedWhenALaterTargetIsRefused)
{
    TempDir dir("/var/tmp");
    const auto foreign = dir.path() / "foreign.dat";
    writeFile(foreign, std::string(1 << 20, 'x')); // not IOPrism's: never written
    auto r = runCli("run --target '" + (dir.path() / "new.dat").string() + "' --target '"
            + foreign.string() + "' --file-size 4MiB --bs 4k --read 0 --duration 1 -q",
        dir.path());
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr("not created by IOPrism"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "new.dat"))
        << "the test file made for a run that did not start is removed";
}
