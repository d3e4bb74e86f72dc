// SPDX-License-Identifier: GPL-3.0-or-later
// ioprism-cli end to end on Linux: real io_uring runs on files and loop devices,
// signals. Root-only tests skip with a reason (fail under IOPRISM_NO_SKIP=1).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <optional>
#include <spawn.h>
#include <sstream>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "e2e/cli_process.h"
#include "e2e/linux_support.h"

using namespace ioprism::test;
using ::testing::HasSubstr;
using ::testing::Not;

extern char **environ;

namespace {

std::vector<std::uint64_t> blockStat(const std::string &name)
{
    std::istringstream in(readFile("/sys/block/" + name + "/stat"));
    std::vector<std::uint64_t> v;
    std::uint64_t x;
    while (in >> x)
        v.push_back(x);
    return v;
}

// Files in `dir` whose names start with "ioprism-results-".
std::vector<std::filesystem::path> fallbackFiles(const std::filesystem::path &dir)
{
    std::vector<std::filesystem::path> files;
    for (const auto &e : std::filesystem::directory_iterator(dir))
        if (e.path().filename().string().rfind("ioprism-results-", 0) == 0)
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

// Another process's writes, staged: `chunkBytes` with O_DIRECT every `period` to the
// second half of `device` (cycling over 8 MiB there), from a thread that is not part of
// the run, until the object goes.
// Writes to (or reads from) a device a fixed share of what the device has read since it
// started (from /sys/block/<name>/stat), in 64 KiB direct I/Os in the device's second
// half: another process whose size relative to the run does not depend on the machine's
// speed or load. A reader counts in what the device reads, so it settles at
// share / (1 - share) of the run's reads (0.5: as much as the run).
class ShareIo
{
public:
    enum class Direction { Read, Write };

    ShareIo(const std::string &device, double share, Direction direction = Direction::Write)
        : m_share(share)
    {
        const std::string name = device.substr(device.rfind('/') + 1);
        const bool reads = direction == Direction::Read;
        m_fd = ::open(device.c_str(), (reads ? O_RDONLY : O_WRONLY) | O_DIRECT | O_CLOEXEC);
        if (m_fd < 0 || ::posix_memalign(&m_buffer, 4096, kChunk) != 0)
            return;
        std::memset(m_buffer, 0x5a, kChunk);
        const off_t start = ::lseek(m_fd, 0, SEEK_END) / 2, span = 8 << 20;
        const std::uint64_t readAtStart = sectorsRead(name);
        m_thread = std::thread([this, name, start, span, readAtStart, reads] {
            off_t off = 0;
            while (!m_stop) {
                const double owed
                    = m_share * double(sectorsRead(name) - readAtStart) * 512 - double(m_done);
                if (owed >= double(kChunk)
                    && (reads ? ::pread(m_fd, m_buffer, kChunk, start + off)
                              : ::pwrite(m_fd, m_buffer, kChunk, start + off))
                        == ssize_t(kChunk)) {
                    m_done += kChunk;
                    off = (off + off_t(kChunk)) % span;
                    continue;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
        });
    }
    ~ShareIo()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
        if (m_fd >= 0)
            ::close(m_fd);
        std::free(m_buffer);
    }
    ShareIo(const ShareIo &) = delete;
    ShareIo &operator=(const ShareIo &) = delete;
    bool ok() const { return m_thread.joinable(); }
    std::uint64_t bytes() const { return m_done; }

private:
    static constexpr std::size_t kChunk = 64 << 10;
    static std::uint64_t sectorsRead(const std::string &name)
    {
        std::istringstream in(readFile("/sys/block/" + name + "/stat"));
        std::uint64_t v[3] = {};
        in >> v[0] >> v[1] >> v[2];
        return v[2];
    }
    double m_share;
    int m_fd = -1;
    void *m_buffer = nullptr;
    std::atomic<bool> m_stop {false};
    std::atomic<std::uint64_t> m_done {0};
    std::thread m_thread;
};

} // namespace

TEST(CliLinux, WriteSpecLeavesItsPatternOnDisk)
{
    TempDir dir(realFsDir());
    // The file is filled with random data when prepared; the spec then writes 0x5A
    // sequentially over all of it.
    writeFile(dir.path() / "p.json", R"({
      "format": "ioprism-profile", "version": 1,
      "setup": {"runTime": "1s", "interval": "250ms"},
      "specs": [{"name": "fill", "lines": [{"transferSize": "64KiB", "share": 100, "percentRead": 0,
                 "percentRandom": 0, "dataPattern": {"kind": "repeatingBytes", "byte": 90}}]}],
      "hosts": [{"workers": [{"name": "W", "outstandingIos": 4, "specs": ["fill"],
                 "dataPattern": {"kind": "fullRandom"},
                 "targets": [{"path": "t.dat", "fileSize": "4MiB"}]}]}]
    })");
    auto r = runCli("run p.json -q --json r.json", dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    const auto json = nlohmann::json::parse(readFile(dir.path() / "r.json"));
    ASSERT_GT(json.at("summary").at("bytes_written").get<double>(), 4.0 * 1024 * 1024);
    const std::string data = readFile(dir.path() / "t.dat");
    ASSERT_EQ(data.size(), 4u * 1024 * 1024);
    EXPECT_EQ(std::count(data.begin(), data.end(), char(0x5A)), std::ptrdiff_t(data.size()));
}

TEST(CliLinux, IoUringRunOnAFileReportsRealIo)
{
    TempDir dir(realFsDir());
    auto r = runCli("run --engine io_uring --target . --file-size 32MiB --bs 4k --read 100 "
                    "--random 100 --qd 16 "
                    "--duration 1 --json r.json -q",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(readFile(dir.path() / "r.json"));
    EXPECT_GT(json.at("summary").at("read_iops").get<double>(), 100);
    EXPECT_EQ(json.at("summary").at("errors").get<std::uint64_t>(), 0u);
    EXPECT_TRUE(std::filesystem::exists(dir.path() / "ioprism-test.dat"));
    // The test file is ours: removed on request.
    auto again = runCli("run --engine io_uring --target . --file-size 32MiB --duration 1 --bs 4k "
                        "-q --remove-test-files",
        dir.path());
    EXPECT_EQ(again.exitCode, 0) << again.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "ioprism-test.dat"));
}

// Peak mode from the command line (docs/device-counters.md): --poll on a disk whose queue
// does not poll is refused before the test file is made, naming io_poll; --sqpoll runs
// and the results say so; the sync engine refuses either.
TEST(CliLinux, PeakModeFlagsAreRefusedOrRunAndTheResultsNameTheMode)
{
    TempDir dir(realFsDir());
    auto polled = runCli(
        "run --poll --target . --file-size 8MiB --bs 4k --duration 1 --no-save -q", dir.path());
    EXPECT_NE(polled.exitCode, 0) << polled.out;
    EXPECT_THAT(polled.err, HasSubstr("polled completions"));
    EXPECT_THAT(polled.err, HasSubstr("/queue/io_poll is 0"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "ioprism-test.dat"));

    auto sync = runCli(
        "run --engine sync --sqpoll --target . --file-size 8MiB --bs 4k --duration 1 --no-save -q",
        dir.path());
    EXPECT_NE(sync.exitCode, 0);
    EXPECT_THAT(sync.err, HasSubstr("this run uses the sync engine"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "ioprism-test.dat"));

    auto sq = runCli("run --sqpoll --target . --file-size 8MiB --bs 4k --qd 4 --duration 1 "
                     "--json r.json --no-save -q",
        dir.path());
    ASSERT_EQ(sq.exitCode, 0) << sq.err;
    const auto json = nlohmann::json::parse(readFile(dir.path() / "r.json"));
    EXPECT_EQ(json.at("environment").at("engine").get<std::string>(), "io_uring+sqpoll");
    EXPECT_GT(json.at("summary").at("read_iops").get<double>(), 100);
}

// The CPU-bound verdict (docs/device-counters.md): the null engine's worker never waits
// for a device, a worker waiting on a real disk's direct reads at QD 1 does. How
// close the null worker comes to the 95 % threshold depends on the machine's load (on a
// cold CI machine under ASan, building Qt beside it: 86 %), so this test asserts what does
// not: the null worker is runnable longer than the disk's, and the summary line
// appears exactly when the results say CPU-bound. The threshold itself is the core
// table test's (LatencyVerdict.AWorkerThatNeverWaitedForItsDeviceIsCpuBound).
TEST(CliLinux, AWorkerThatNeverWaitsIsRunnableLongerThanOneWaitingOnItsDisk)
{
    TempDir dir(realFsDir());
    const auto null = runCli("run --engine null --bs 4k --qd 1 --duration 1 --ramp 0 --no-save "
                             "--json n.json",
        dir.path());
    ASSERT_EQ(null.exitCode, 0) << null.err;
    const auto n = nlohmann::json::parse(readFile(dir.path() / "n.json"));
    const auto &spun = n.at("steps").at(0).at("devices").at("latency");
    const bool nullCpuBound = spun.at("cpu_bound").get<bool>();
    EXPECT_EQ(null.out.find("CPU-bound: the busiest worker never waited for the device")
            != std::string::npos,
        nullCpuBound)
        << null.out;
    EXPECT_EQ(nullCpuBound, spun.at("busiest_worker_runnable_share").get<double>() >= 0.95)
        << spun.dump();

    const auto disk
        = runCli("run --engine io_uring --target . --file-size 16MiB --bs 4k --read 100 "
                 "--random 100 --qd 1 --duration 1 --ramp 0 --no-save --json d.json",
            dir.path());
    ASSERT_EQ(disk.exitCode, 0) << disk.err;
    EXPECT_THAT(disk.out, Not(HasSubstr("CPU-bound")));
    const auto d = nlohmann::json::parse(readFile(dir.path() / "d.json"));
    const auto &waited = d.at("steps").at(0).at("devices").at("latency");
    EXPECT_FALSE(waited.at("cpu_bound").get<bool>()) << waited.dump();
    EXPECT_GT(waited.at("busiest_worker_runnable_share").get<double>(), 0) << waited.dump();
    EXPECT_GT(spun.at("busiest_worker_runnable_share").get<double>(),
        waited.at("busiest_worker_runnable_share").get<double>())
        << spun.dump() << "\n"
        << waited.dump();
}

// The signal goes once the run has measured (its streamed time series has rows), not after
// a fixed time: a sanitizer build on a loaded machine may take seconds to get there, and a
// signal before the run's handler is in place would kill it outright.
TEST(CliLinux, SigintStopsCleanlyAndWritesPartialOutputs)
{
    TempDir dir;
    CliProcess cli(dir.path(),
        {"run", "--engine", "null", "--bs", "4k", "--duration", "0", "--interval", "200ms", "--csv",
            (dir.path() / "r.csv").string(), "--timeseries", (dir.path() / "t.csv").string(),
            "--json", (dir.path() / "r.json").string(), "-q"});
    ASSERT_TRUE(cli.started());
    // Past the ramp-up (whose intervals are rows too, but no measured figure).
    ASSERT_TRUE(cli.waitFor([&] {
        return readFile(dir.path() / "t.csv").find(",measuring,") != std::string::npos;
    })) << cli.err();
    cli.signal(SIGINT);
    EXPECT_EQ(cli.wait(), 130) << cli.err();
    const auto json = nlohmann::json::parse(readFile(dir.path() / "r.json"));
    EXPECT_GT(json.at("summary").at("iops").get<double>(), 0);
    EXPECT_TRUE(json.at("stoppedByUser").get<bool>());
    EXPECT_THAT(readFile(dir.path() / "r.csv"), HasSubstr("ALL"));
    EXPECT_GT(linesIn(dir.path() / "t.csv"), 4u);
}

TEST(CliLinux, SigtermExits143)
{
    TempDir dir;
    CliProcess cli(dir.path(),
        {"run", "--engine", "null", "--duration", "0", "-q", "--timeseries",
            (dir.path() / "t.csv").string(), "--json", (dir.path() / "r.json").string()});
    ASSERT_TRUE(cli.started());
    ASSERT_TRUE(cli.waitFor([&] { return linesIn(dir.path() / "t.csv") > 1; })) << cli.err();
    cli.signal(SIGTERM);
    EXPECT_EQ(cli.wait(), 143) << cli.err();
    EXPECT_TRUE(std::filesystem::exists(dir.path() / "r.json"));
}

TEST(CliLinux, LoopDeviceSectorsMatchApplicationBytes)
{
    IOPRISM_REQUIRE(isRoot(), "needs root for losetup");
    TempDir dir(realFsDir());
    LoopDevice loop(dir.path() / "img", "256M");
    IOPRISM_REQUIRE(!loop.path().empty(), "losetup could not attach a loop device");
    const auto before = blockStat(loop.name());
    auto r = runCli("run --engine io_uring --target " + loop.path()
            + " --bs 64k --read 50 --random 100 --qd 8 --duration 2 --ramp 0 --json r.json -q "
              "--allow-device-writes",
        dir.path());
    const auto after = blockStat(loop.name());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(readFile(dir.path() / "r.json"));
    const double appRead = json.at("summary").at("bytes_read").get<double>();
    const double appWrite = json.at("summary").at("bytes_written").get<double>();
    const double devRead = double(after[2] - before[2]) * 512;
    const double devWrite = double(after[6] - before[6]) * 512;
    ASSERT_GT(appRead, 0);
    ASSERT_GT(appWrite, 0);
    EXPECT_NEAR(devRead / appRead, 1.0, 0.01) << devRead << " vs " << appRead;
    EXPECT_NEAR(devWrite / appWrite, 1.0, 0.01) << devWrite << " vs " << appWrite;
}

// Steady state as the step's stop rule (docs/ssd-testing.md), on a real loop device: the run
// measures in rounds, ends at a verdict (steady, or not reached at the round limit; which
// one is the device's and the machine's to say), prints it, keeps every round in the
// results, and says in the plan that the steps run until steady rather than for a time.
TEST(CliLinux, AStepUnderASteadyStateRuleRunsInRoundsToAVerdictOnALoopDevice)
{
    IOPRISM_REQUIRE(isRoot(), "needs root for losetup");
    TempDir dir(realFsDir());
    LoopDevice loop(dir.path() / "img", "256M");
    IOPRISM_REQUIRE(!loop.path().empty(), "losetup could not attach a loop device");
    auto r = runCli("run --engine io_uring --target " + loop.path()
            + " --rw randread --bs 4k --qd 4 --interval 100ms --steady-state pts "
              "--steady-round 300ms --steady-rounds 8 --json r.json --no-save -v",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out,
        HasSubstr("until steady per spec (pts on iops, 20 % and 10 %: rounds of "
                  "300ms, a window of 5, at most 8 rounds)"));
    const auto json = nlohmann::json::parse(readFile(dir.path() / "r.json"));
    const auto &step = json.at("steps").at(0);
    const auto &steady = step.at("steady_state");
    const std::string state = steady.at("state").get<std::string>();
    const auto &rounds = steady.at("rounds");
    ASSERT_TRUE(state == "steady" || state == "not_reached") << steady.dump();
    EXPECT_GE(rounds.size(), 5u);
    EXPECT_LE(rounds.size(), 8u);
    if (state == "not_reached") {
        EXPECT_EQ(rounds.size(), 8u);
    }
    for (const auto &round : rounds) {
        EXPECT_NEAR(round.at("end_s").get<double>() - round.at("start_s").get<double>(), 0.3, 0.05)
            << round.dump();
        EXPECT_GT(round.at("figure").get<double>(), 100) << round.dump();
    }
    // The step measured its rounds (and the sample that ended it), not a run time.
    EXPECT_NEAR(step.at("measured_seconds").get<double>(), 0.3 * double(rounds.size()), 0.2);
    const std::string verdict = steady.at("explanation").get<std::string>();
    EXPECT_THAT(r.out, HasSubstr(verdict)) << "the verdict is printed as the step ends";
    EXPECT_EQ(json.at("profile").at("setup").at("steadyState").at("roundLimit").get<int>(), 8);
}

// Preconditioning on a real loop device (docs/ssd-testing.md#preconditioning): the device
// is written twice over in 128 KiB sequential writes before the step, which the device's
// own counters confirm; its progress and what it did are printed; the results keep it
// apart (the step only read: no write in its figures). Without leave to write the device,
// the same read-only run is refused before anything is written.
TEST(CliLinux, PreconditioningWritesTheDeviceTwiceBeforeTheStepsAndKeepsItApart)
{
    IOPRISM_REQUIRE(isRoot(), "needs root for losetup");
    TempDir dir(realFsDir());
    LoopDevice loop(dir.path() / "img", "64M");
    IOPRISM_REQUIRE(!loop.path().empty(), "losetup could not attach a loop device");
    const std::string run = "run --engine io_uring --target " + loop.path()
        + " --rw randread --bs 4k --qd 4 --duration 1 --interval 100ms --precondition seq:2x "
          "--json p.json --no-save";
    const auto refused = runCli(run, dir.path());
    EXPECT_NE(refused.exitCode, 0);
    EXPECT_THAT(refused.err, HasSubstr("--allow-device-writes"));
    if (std::filesystem::exists(dir.path() / "p.json")) { // the refusal, as a result
        const auto none = nlohmann::json::parse(readFile(dir.path() / "p.json"));
        EXPECT_FALSE(none.contains("preconditioning"));
        EXPECT_FALSE(none.at("error").is_null());
    }

    const auto before = blockStat(loop.name());
    auto r = runCli(run + " --allow-device-writes", dir.path());
    const auto after = blockStat(loop.name());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(readFile(dir.path() / "p.json"));
    const std::uint64_t twice = 2ull * 64 * 1024 * 1024;
    const auto &pre = json.at("preconditioning");
    EXPECT_EQ(pre.at("planned_bytes").get<std::uint64_t>(), twice);
    const auto &moved = pre.at("step").at("scopes").at(0);
    EXPECT_EQ(moved.at("write").at("bytes").get<std::uint64_t>(), twice);
    EXPECT_EQ(moved.at("read").at("ios").get<std::uint64_t>(), 0u);
    EXPECT_TRUE(pre.at("step").at("complete").get<bool>());
    const double devWrite = double(after[6] - before[6]) * 512;
    EXPECT_GE(devWrite, double(twice)) << "the device saw the writes";
    EXPECT_EQ(json.at("summary").at("bytes_written").get<std::uint64_t>(), 0u)
        << "the step read; preconditioning is in no step and no total";
    EXPECT_GT(json.at("summary").at("bytes_read").get<std::uint64_t>(), 0u);
    const auto &phases = json.at("intervals").at("phase");
    EXPECT_NE(std::find(phases.begin(), phases.end(), "preconditioning"), phases.end());
    EXPECT_THAT(r.out, HasSubstr("-- Preconditioning: 128 KiB sequential writes, 2x capacity"));
    EXPECT_THAT(r.out, HasSubstr("-- preconditioning: 100% (128 MiB of 128 MiB)"));
    EXPECT_THAT(r.out,
        HasSubstr("Preconditioning: 128 KiB sequential writes, 2x capacity: 128 MiB "
                  "moved of 128 MiB"));
}

// The two SSD presets end to end on a raw loop device, shortened as a user would try them
// (rounds and run time from the command line): SNIA PTS IOPS runs both its tests in
// rounds to a verdict each; Write saturation writes sequentially and judges the write for
// a cliff over its intervals (a loop device over a file has no cache to fill: none found).
TEST(CliLinux, TheSsdPresetsRunInRoundsAndJudgeTheWriteOnALoopDevice)
{
    IOPRISM_REQUIRE(isRoot(), "needs root for losetup");
    TempDir dir(realFsDir());
    LoopDevice loop(dir.path() / "img", "256M");
    IOPRISM_REQUIRE(!loop.path().empty(), "losetup could not attach a loop device");
    auto pts = runCli("run --preset ssd-steady-state --engine io_uring --target " + loop.path()
            + " --allow-device-writes --interval 100ms --steady-round 300ms --steady-rounds 7 "
              "--json pts.json --no-save",
        dir.path());
    ASSERT_EQ(pts.exitCode, 0) << pts.err;
    const auto p = nlohmann::json::parse(readFile(dir.path() / "pts.json"));
    // PTS's preconditioning first: the device written whole twice, kept apart.
    ASSERT_TRUE(p.contains("preconditioning"));
    EXPECT_EQ(p.at("preconditioning").at("step").at("scopes").at(0).at("write").at("bytes"),
        512ull * 1024 * 1024);
    ASSERT_EQ(p.at("steps").size(), 2u);
    EXPECT_EQ(p.at("steps").at(0).at("name").get<std::string>(), "RND4K Q32T1 Write");
    for (const auto &step : p.at("steps")) {
        const auto &steady = step.at("steady_state");
        const std::string state = steady.at("state").get<std::string>();
        EXPECT_TRUE(state == "steady" || state == "not_reached") << steady.dump();
        EXPECT_GE(steady.at("rounds").size(), 5u);
        EXPECT_LE(steady.at("rounds").size(), 7u);
        EXPECT_EQ(steady.at("round_s").get<double>(), 0.3);
    }
    EXPECT_THAT(pts.out, HasSubstr("steady state (pts on iops, rounds of 300ms)"));

    auto wsat = runCli("run --preset write-saturation --engine io_uring --target " + loop.path()
            + " --allow-device-writes --interval 100ms --duration 2 --json w.json --no-save -q",
        dir.path());
    ASSERT_EQ(wsat.exitCode, 0) << wsat.err;
    const auto w = nlohmann::json::parse(readFile(dir.path() / "w.json"));
    const auto &step = w.at("steps").at(0);
    EXPECT_EQ(step.at("name").get<std::string>(), "SEQ128K Q32T1 Write");
    ASSERT_TRUE(step.contains("write_cliff")) << step.dump().substr(0, 400);
    const auto &cliff = step.at("write_cliff");
    EXPECT_GE(cliff.at("intervals").get<int>(), 15);
    EXPECT_EQ(cliff.at("bytes_written").get<std::uint64_t>(),
        w.at("summary").at("bytes_written").get<std::uint64_t>());
    EXPECT_FALSE(step.contains("steady_state"));
}

// Which MiB of `file` are in the page cache (mincore over a mapping of it).
std::vector<bool> residentMebibytes(const std::filesystem::path &file)
{
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    const auto size = std::size_t(std::filesystem::file_size(file));
    void *map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);
    std::vector<bool> mebibytes(size >> 20);
    if (map == MAP_FAILED)
        return mebibytes;
    const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> pages((size + page - 1) / page);
    if (::mincore(map, size, pages.data()) == 0)
        for (std::size_t p = 0; p < pages.size(); ++p)
            if (pages[p] & 1)
                mebibytes[p * page >> 20] = true;
    ::munmap(map, size);
    return mebibytes;
}

// The preset "Rate by position" on a raw loop device, as a user would try it: a hundred
// points, one per zone of 1 %; the zones of a 256 MiB device are 2 or 3 MiB, less than the
// 32 MiB a point asks, so each is read once, whole: the device read exactly once over the
// hundred points. In the series CSV with their positions; nothing written to the device.
TEST(CliLinux, TheRateByPositionPresetReadsEachOfAHundredZonesOfALoopDevice)
{
    IOPRISM_REQUIRE(isRoot(), "needs root for losetup");
    TempDir dir(realFsDir());
    LoopDevice loop(dir.path() / "img", "256M");
    IOPRISM_REQUIRE(!loop.path().empty(), "losetup could not attach a loop device");
    const auto before = blockStat(loop.name());
    auto r = runCli("run --preset rate-by-position --engine io_uring --target " + loop.path()
            + " --json r.json --series-csv s.csv --no-save -q",
        dir.path());
    const auto after = blockStat(loop.name());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(after[4], before[4]) << "no write reached the device";
    const auto json = nlohmann::json::parse(readFile(dir.path() / "r.json"));
    ASSERT_EQ(json.at("steps").size(), 100u);
    std::uint64_t read = 0;
    for (const auto &step : json.at("steps")) {
        const auto bytes = step.at("scopes").at(0).at("read").at("bytes").get<std::uint64_t>();
        EXPECT_GE(bytes, 2ull << 20) << step.at("name");
        EXPECT_LE(bytes, 3ull << 20) << step.at("name");
        read += bytes;
    }
    EXPECT_EQ(read, 256ull << 20) << "every zone once, together the whole device";
    std::istringstream csv(readFile(dir.path() / "s.csv"));
    std::string line;
    std::getline(csv, line);
    EXPECT_THAT(line, HasSubstr(",position_percent,"));
    int rows = 0;
    while (std::getline(csv, line)) {
        // run_id, spec_index, spec, point, target, position_percent, ...
        std::vector<std::string> cells;
        std::istringstream row(line);
        for (std::string cell; std::getline(row, cell, ',');)
            cells.push_back(cell);
        ASSERT_GT(cells.size(), 6u) << line;
        EXPECT_EQ(cells[5], std::to_string(rows)) << line;
        ++rows;
    }
    EXPECT_EQ(rows, 100);
}

// Each point of a position series reads where its zone is on the device itself: a loop
// device reading its image through the page cache keeps the MiB it read there. Zones of
// 64 MiB (0, 25, 50, 75 %), 2 MiB read from each one's start: the first MiB of each zone
// is cached, the second half of each zone (past any read-ahead) is not. udev's probe of
// a new device reads its start and end: it is waited for and its pages dropped first,
// and the last MiB is not judged.
TEST(CliLinux, APositionSeriesReadsEachZoneOfTheDeviceFromItsStart)
{
    IOPRISM_REQUIRE(isRoot(), "needs root for losetup");
    TempDir dir(realFsDir());
    LoopDevice loop(dir.path() / "img", "256M", false);
    IOPRISM_REQUIRE(!loop.path().empty(), "losetup could not attach a loop device");
    shell("udevadm settle 2>/dev/null");
    {
        const int fd = ::open((dir.path() / "img").c_str(), O_RDONLY | O_CLOEXEC);
        ASSERT_GE(fd, 0);
        ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        ::close(fd);
    }
    auto r = runCli("run --engine io_uring --target " + loop.path()
            + " --bs 1m --read 100 --random 0 --qd 1 --sweep position=0,25,50,75 --ops 2 "
              "--no-save -q",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::vector<bool> cached = residentMebibytes(dir.path() / "img");
    ASSERT_EQ(cached.size(), 256u);
    for (std::size_t zone = 0; zone < 4; ++zone) {
        EXPECT_TRUE(cached[zone * 64]) << "zone " << zone << " was read from its start";
        for (std::size_t mib = zone * 64 + 32; mib < zone * 64 + 64 && mib < 255; ++mib)
            EXPECT_FALSE(cached[mib]) << "MiB " << mib << " lies in no read";
    }
}

// The options refine a rule and are refused without one; the rule is refused where it
// cannot be judged (a series of a number of I/Os).
TEST(CliLinux, SteadyStateOptionsWithoutARuleOrWithACountAreRefused)
{
    TempDir dir(realFsDir());
    auto alone = runCli("run --engine null --steady-round 2s --no-save -q", dir.path());
    EXPECT_NE(alone.exitCode, 0);
    EXPECT_THAT(alone.err, HasSubstr("refine a steady-state rule"));
    auto badRule = runCli("run --engine null --steady-state snia --no-save -q", dir.path());
    EXPECT_NE(badRule.exitCode, 0);
    EXPECT_THAT(badRule.err, HasSubstr("pts, fio-deviation, fio-slope, none"));
    auto count = runCli(
        "run --engine null --steady-state pts --sweep qd=1,2 --ops 100 --no-save -q", dir.path());
    EXPECT_NE(count.exitCode, 0);
    EXPECT_THAT(count.err, HasSubstr("cannot also stop each at steady state"));
    auto limits = runCli(
        "run --engine null --steady-state pts --steady-limits 0%,10% --no-save -q", dir.path());
    EXPECT_NE(limits.exitCode, 0);
    EXPECT_THAT(limits.err, HasSubstr("not a percentage above 0"));
    auto none = runCli(
        "run --engine null --steady-state none --steady-window 3 --no-save -q", dir.path());
    EXPECT_NE(none.exitCode, 0);
    EXPECT_THAT(none.err, HasSubstr("refine a steady-state rule"));
    auto empty
        = runCli("run --engine null --steady-state pts --steady-limits , --no-save -q", dir.path());
    EXPECT_NE(empty.exitCode, 0);
    EXPECT_THAT(empty.err, HasSubstr("gives no limit"));
}

// Issue 12: a trickle of someone else's writes beside a read run is named as background
// beside "agree"; a real second writer is still "other traffic". A loop device sees only
// the run's reads and the staged writer, which writes a fixed share of what the device
// read (0.3 %, then 5 %), so the shares do not depend on how fast this machine reads.
// The small writer is background whenever it passes the absolute allowance (256 KiB/s,
// which a read rate above 85 MB/s ensures), and never other traffic at any speed.
TEST(CliLinux, ABackgroundWriterIsNamedAndABigOneIsOtherTraffic)
{
    IOPRISM_REQUIRE(isRoot(), "needs root for losetup");
    TempDir dir(realFsDir());
    LoopDevice loop(dir.path() / "img", "256M");
    IOPRISM_REQUIRE(!loop.path().empty(), "losetup could not attach a loop device");
    std::string profile = R"({
      "format": "ioprism-profile", "version": 1,
      "setup": {"runTime": "3s", "rampUp": "0s", "interval": "500ms"},
      "specs": [{"name": "read", "lines": [{"transferSize": "1MiB", "share": 100,
                 "percentRead": 100, "percentRandom": 0, "rateLimit": {"iops": 0, "mbps": 400}}]}],
      "hosts": [{"workers": [{"name": "W", "outstandingIos": 4, "specs": ["read"],
                 "targets": [{"kind": "blockDevice", "path": "DEVICE"}]}]}]
    })";
    profile.replace(profile.find("DEVICE"), 6, loop.path());
    writeFile(dir.path() / "p.json", profile);
    const auto stepVerdict = [&](double share) {
        ShareIo writer(loop.path(), share);
        EXPECT_TRUE(writer.ok());
        auto r = runCli("run p.json -q --json r.json --device-tail 0", dir.path());
        EXPECT_EQ(r.exitCode, 0) << r.err << r.out;
        EXPECT_GT(writer.bytes(), 0u);
        const auto json = nlohmann::json::parse(readFile(dir.path() / "r.json"));
        return json.at("steps").at(0).at("devices").at("verdict");
    };
    const auto small = stepVerdict(0.003);
    SCOPED_TRACE(small.dump());
    EXPECT_EQ(small.at("verdict"), "agree");
    EXPECT_EQ(small.at("read").at("verdict"), "agree");
    const auto appRead = small.at("read").at("app_bytes").get<std::uint64_t>();
    const auto background = small.at("write").at("device_bytes").get<std::uint64_t>();
    EXPECT_LE(background, appRead / 100);
    if (background > 3u * 256 * 1024)
        EXPECT_EQ(small.at("write").at("verdict"), "background");
    else // a machine too loaded to read 85 MB/s: the absolute allowance covers it
        EXPECT_EQ(small.at("write").at("verdict"), "idle");

    const auto big = stepVerdict(0.05);
    SCOPED_TRACE(big.dump());
    EXPECT_EQ(big.at("verdict"), "other traffic");
    EXPECT_EQ(big.at("read").at("verdict"), "agree");
    EXPECT_EQ(big.at("write").at("verdict"), "other traffic");
    EXPECT_GT(big.at("write").at("device_bytes").get<std::uint64_t>(),
        big.at("read").at("app_bytes").get<std::uint64_t>() / 100);
}

// A fault hunt: beside a file tree, another process reading the same device was called
// "file metadata". The file system reads metadata on this process's behalf, so device
// reads beyond what this process read (/proc/self/io) are another process's. A reader as
// busy as the run (device/app 2.0, 4 KiB per file opened: within what metadata could be
// per open) is other traffic; alone, the same run is not.
TEST(CliLinux, AnotherReaderBesideAFileTreeIsOtherTrafficNotFileMetadata)
{
    IOPRISM_REQUIRE(isRoot(), "needs root for a loop-mounted ext4");
    TempDir dir(realFsDir());
    Ext4Mount ext4(dir.path(), "128M");
    ASSERT_TRUE(ext4.mounted());
    const std::string run = "run --target tree --tree 2:8:2MiB --rw randread --bs 4k --qd 1 "
                            "--duration 2s --ramp 0 -q --no-save --device-tail 0 --json r.json";
    const auto readVerdict = [&](double share) {
        std::optional<ShareIo> reader;
        if (share > 0) {
            reader.emplace(ext4.device().path(), share, ShareIo::Direction::Read);
            EXPECT_TRUE(reader->ok());
        }
        const auto r = runCli(run, ext4.path());
        EXPECT_EQ(r.exitCode, 0) << r.err << r.out;
        if (reader) {
            EXPECT_GT(reader->bytes(), 0u);
        }
        const auto json = nlohmann::json::parse(readFile(ext4.path() / "r.json"));
        return json.at("steps").at(0).at("devices").at("verdict").at("read");
    };
    const auto alone = readVerdict(0); // the first run also makes the tree
    SCOPED_TRACE(alone.dump());
    EXPECT_NE(alone.at("verdict"), "other traffic");
    const auto beside = readVerdict(0.5);
    SCOPED_TRACE(beside.dump());
    EXPECT_EQ(beside.at("verdict"), "other traffic");
    EXPECT_GT(beside.at("ratio").get<double>(), 1.5);
}

TEST(CliLinux, RawDeviceWritesNeedConfirmation)
{
    IOPRISM_REQUIRE(isRoot(), "needs root for losetup");
    TempDir dir(realFsDir());
    LoopDevice loop(dir.path() / "img", "64M");
    IOPRISM_REQUIRE(!loop.path().empty(), "losetup could not attach a loop device");
    auto refused
        = runCli("run --target " + loop.path() + " --bs 4k --read 0 --duration 1 -q", dir.path());
    EXPECT_EQ(refused.exitCode, 1);
    EXPECT_THAT(refused.err, HasSubstr("--allow-device-writes"));
    auto reads
        = runCli("run --target " + loop.path() + " --bs 4k --read 100 --duration 1 -q", dir.path());
    EXPECT_EQ(reads.exitCode, 0) << reads.err;
}

TEST(CliLinux, EnospcWhilePreparingIsClearAndLeavesNoFile)
{
    IOPRISM_REQUIRE(isRoot(), "needs root to mount a small tmpfs");
    TempDir dir;
    const auto mnt = dir.path() / "small";
    std::filesystem::create_directories(mnt);
    ASSERT_EQ(std::system(("mount -t tmpfs -o size=8M tmpfs '" + mnt.string() + "'").c_str()), 0);
    auto r
        = runCli("run --target '" + mnt.string() + "' --file-size 64MiB --buffered --duration 1 -q",
            dir.path());
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_THAT(r.err, HasSubstr("space"));
    EXPECT_FALSE(std::filesystem::exists(mnt / "ioprism-test.dat"));
    unmount(mnt);
}

// The data loss this guards against: a file system mounted through one loop device and
// written through another over the same image. The image must not change by one byte.
TEST(CliLinux, AMountedFileSystemIsNeverWrittenThroughAnAlias)
{
    IOPRISM_REQUIRE(isRoot(), "needs root for losetup and mount");
    TempDir dir(realFsDir());
    const auto image = dir.path() / "img";
    LoopDevice mounted(image, "64M");
    IOPRISM_REQUIRE(!mounted.path().empty(), "losetup could not attach a loop device");
    ASSERT_EQ(std::system(("mkfs.ext4 -q -F " + mounted.path() + " >/dev/null 2>&1").c_str()), 0);
    LoopDevice alias(image, "64M");
    ASSERT_FALSE(alias.path().empty());
    const auto mnt = dir.path() / "mnt";
    std::filesystem::create_directories(mnt);
    ASSERT_EQ(
        std::system(("mount -o ro " + mounted.path() + " '" + mnt.string() + "'").c_str()), 0);
    const std::string sum = "sha256sum '" + image.string() + "' | cut -d' ' -f1";
    const std::string before = shell(sum);
    auto r = runCli("run --target " + alias.path()
            + " --bs 4k --read 0 --random 100 --qd 4 --duration 1 --ramp 0 -q "
              "--allow-device-writes --json r.json",
        dir.path());
    const std::string after = shell(sum);
    unmount(mnt);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr(mounted.name() + " is mounted at " + mnt.string()));
    EXPECT_THAT(r.err, HasSubstr("same backing file"));
    EXPECT_EQ(before.size(), 64u);
    EXPECT_EQ(after, before) << "the mounted file system's image was written";
}

TEST(CliLinux, AReadOnlyOutputDirectoryIsRefusedBeforeTheRun)
{
    IOPRISM_REQUIRE(isRoot(), "needs root to mount a read-only tmpfs");
    TempDir dir;
    TmpfsMount ro(dir.path() / "ro", "ro,size=1M");
    ASSERT_TRUE(ro.mounted());
    auto r = runCli("run --engine sync --buffered --target . --file-size 1MiB --bs 4k "
                    "--duration 1 -q --json ro/r.json",
        dir.path());
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("--json: cannot write ro/r.json: Read-only file system"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "ioprism-test.dat"));
}

// A disk that is full when the results are written: empty files can still be created
// there (so the check before the run passes), but not one byte written. The results go
// to the working directory instead, and the exit code says something failed.
TEST(CliLinux, OutputsThatCannotBeWrittenAtTheEndAreSavedInTheWorkingDirectory)
{
    IOPRISM_REQUIRE(isRoot(), "needs root to mount a small tmpfs");
    TempDir dir;
    TmpfsMount full(dir.path() / "full", "size=1M");
    ASSERT_TRUE(full.mounted());
    std::system(("head -c 2M /dev/zero > '" + (dir.path() / "full/fill").string() + "' 2>/dev/null")
                    .c_str());
    auto r = runCli("run --engine null --bs 4k --duration 1 --ramp 0 --interval 250ms -q "
                    "--json full/r.json --csv full/r.csv --timeseries full/t.csv",
        dir.path());
    EXPECT_EQ(r.exitCode, 1) << r.err;
    for (const char *what : {"--json: cannot write full/r.json: No space left on device",
             "--csv: cannot write full/r.csv: No space left on device",
             "--timeseries: cannot write full/t.csv: No space left on device"})
        EXPECT_THAT(r.err, HasSubstr(what));
    // Nothing half-written is left where the results were asked for.
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "full/r.json"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "full/r.csv"));

    const auto files = fallbackFiles(dir.path());
    ASSERT_EQ(files.size(), 3u) << r.err;
    // ioprism-results-<time>-timeseries.csv, ioprism-results-<time>.csv, .json
    EXPECT_THAT(files[0].filename().string(), ::testing::EndsWith("-timeseries.csv"));
    EXPECT_EQ(files[1].extension(), ".csv");
    EXPECT_EQ(files[2].extension(), ".json");
    for (const auto &f : files)
        EXPECT_THAT(r.err, HasSubstr("saved to " + f.string())) << f;
    const auto json = nlohmann::json::parse(readFile(files[2]));
    EXPECT_GT(json.at("summary").at("iops").get<double>(), 0);
    EXPECT_THAT(readFile(files[1]), HasSubstr("ALL"));
    const std::string ts = readFile(files[0]);
    EXPECT_EQ(ts.rfind("run_id,", 0), 0u) << ts.substr(0, 80);
    EXPECT_GT(std::count(ts.begin(), ts.end(), '\n'), 4);
}

// When the working directory cannot take them either, the results go to the temp
// directory.
TEST(CliLinux, OutputsGoToTheTempDirectoryWhenTheWorkingDirectoryIsFullToo)
{
    IOPRISM_REQUIRE(isRoot(), "needs root to mount a small tmpfs");
    TempDir dir;
    TmpfsMount full(dir.path() / "full", "size=1M");
    ASSERT_TRUE(full.mounted());
    std::system(("head -c 2M /dev/zero > '" + (dir.path() / "full/fill").string() + "' 2>/dev/null")
                    .c_str());
    const auto tmp = dir.path() / "tmp";
    std::filesystem::create_directories(tmp);
    const std::string cmd = "cd '" + (dir.path() / "full").string() + "' && TMPDIR='" + tmp.string()
        + "' '" + cliPath().string()
        + "' run --engine null --bs 4k --duration 1 --ramp 0 -q --json r.json >'"
        + (dir.path() / "out.txt").string() + "' 2>'" + (dir.path() / "err.txt").string() + "'";
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 1);
    const auto files = fallbackFiles(tmp);
    ASSERT_EQ(files.size(), 1u) << readFile(dir.path() / "err.txt");
    EXPECT_EQ(files[0].extension(), ".json");
    EXPECT_THAT(readFile(dir.path() / "err.txt"), HasSubstr("saved to " + files[0].string()));
    EXPECT_GT(nlohmann::json::parse(readFile(files[0])).at("summary").at("iops").get<double>(), 0);
}

// Issue 12: the block-size spectrum on a raw loop device, point by point: one tidy CSV
// row per size, IOPS x size = MB/s on every row, and the device's bytes agree with the
// application's at every point (nothing else touches the loop device).
TEST(CliLinux, BlockSizeSpectrumOnALoopDeviceAgreesPointByPoint)
{
    IOPRISM_REQUIRE(isRoot(), "needs root for losetup");
    TempDir dir(realFsDir());
    LoopDevice loop(dir.path() / "img", "64M");
    IOPRISM_REQUIRE(!loop.path().empty(), "losetup could not attach a loop device");
    // The preset's sizes from 4 KiB to 1 MiB (x4), 400 reads per size, on the device.
    auto r = runCli("run --preset spectrum-iops --engine io_uring --target " + loop.path()
            + " --sweep bs=4k..1M:x4 --ops 400 --ramp 0 --interval 100ms --series-csv s.csv "
              "--json r.json",
        dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("point 5/5"));
    EXPECT_THAT(r.out, HasSubstr("== Series"));
    std::istringstream csv(readFile(dir.path() / "s.csv"));
    std::string line;
    std::getline(csv, line);
    std::vector<std::string> header;
    for (std::size_t b = 0, e; b <= line.size(); b = e + 1) {
        e = std::min(line.find(',', b), line.size());
        header.push_back(line.substr(b, e - b));
    }
    const auto col = [&](const std::string &name) {
        return std::size_t(std::find(header.begin(), header.end(), name) - header.begin());
    };
    int rows = 0;
    std::uint64_t size = 4096;
    while (std::getline(csv, line)) {
        std::vector<std::string> cells;
        for (std::size_t b = 0, e; b <= line.size(); b = e + 1) {
            e = std::min(line.find(',', b), line.size());
            cells.push_back(line.substr(b, e - b));
        }
        ASSERT_EQ(cells.size(), header.size()) << line;
        EXPECT_EQ(std::stoull(cells[col("transfer_size_bytes")]), size);
        const double iops = std::stod(cells[col("iops")]);
        const double mbps = std::stod(cells[col("mb_per_s")]);
        EXPECT_NEAR(mbps, iops * double(size) / 1e6, 0.002 + mbps * 1e-5) << line;
        EXPECT_EQ(cells[col("device_verdict")], "agree") << line;
        EXPECT_NEAR(std::stod(cells[col("device_read_mb_per_s")]), mbps, mbps * 0.01) << line;
        size *= 4;
        ++rows;
    }
    EXPECT_EQ(rows, 5);
    const auto json = nlohmann::json::parse(readFile(dir.path() / "r.json"));
    ASSERT_EQ(json.at("series").at("points").size(), 5u);
    for (const auto &step : json.at("steps"))
        EXPECT_EQ(step.at("scopes")[0].at("read").at("ios"), 400) << step.at("name");
}

namespace {

// The reference .icf as a Linux Iometer would save it for a test file in the mount `vol`
// (`/mnt/x [tmpfs]`: Iometer's iobw.tst there), of 4 MiB.
std::string referenceIcfOn(const std::filesystem::path &vol)
{
    std::string icf = readFile(sourceDir() / "tests/fixtures/icf/reference.icf");
    const auto put = [&icf](const std::string &from, const std::string &to) {
        const auto at = icf.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        if (at != std::string::npos)
            icf.replace(at, from.size(), to);
    };
    put("\tsdb\n", "\t" + vol.string() + " [tmpfs]\n");
    put("\t2097152,0,2", "\t8192,0,2");
    return icf;
}

} // namespace

// An .icf made on a Linux Iometer names its test-file disk `/mnt/data [ext4]`: Iometer's
// dynamo makes iobw.tst in that mount. IOPrism once made a file "data [ext4]" beside the
// mount point, on the parent's file system. Now the run uses Iometer's test file when
// that file system is mounted there, and otherwise stops before anything is written:
// also when the folder exists but nothing is mounted on it.
TEST(CliIcf, AnIometerMountNameRunsOnIobwTstInThatMount)
{
    IOPRISM_REQUIRE(isRoot(), "needs root to mount a tmpfs");
    TempDir dir;
    const auto vol = dir.path() / "vol";
    std::string icf = referenceIcfOn(vol);
    {
        std::ofstream out(dir.path() / "here.icf", std::ios::binary);
        out << icf;
    }
    const auto testFile = vol / "iobw.tst";
    {
        TmpfsMount mounted(vol, "size=16M");
        ASSERT_TRUE(mounted.mounted());
        auto r = runCli("run here.icf --duration 1 --ramp 0 --no-save --quiet", dir.path());
        ASSERT_EQ(r.exitCode, 0) << r.err;
        EXPECT_THAT(r.err, HasSubstr("is its test file \"" + testFile.string() + "\""));
        EXPECT_TRUE(std::filesystem::is_regular_file(testFile));
        EXPECT_EQ(std::filesystem::file_size(testFile), 4u << 20);
        // The ring's files can stay referenced a moment after the process exits (io_uring
        // closes them from a kernel worker): detach the mount now, whatever holds it.
        ASSERT_EQ(std::system(("umount -l '" + vol.string() + "'").c_str()), 0);
    }
    // Unmounted: the folder is there, empty, on the parent's file system.
    ASSERT_TRUE(std::filesystem::is_directory(vol));
    ASSERT_FALSE(std::filesystem::exists(testFile));
    auto r = runCli("run here.icf --duration 1 --ramp 0 --no-save --quiet", dir.path());
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("does not exist on this machine"));
    EXPECT_FALSE(std::filesystem::exists(testFile)) << "written on the parent's file system";
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "vol [tmpfs]"));
}

// Issue 24, item 3: Iometer saves one worker per CPU and treats workers without targets
// as valid and idle (Worker::InvalidSetup). Such an .icf validates (a warning per idle
// worker), runs with only the workers that have targets, and no target is invented for
// the others (no ./ioprism-test.dat appears); validate and run agree.
TEST(CliIcf, WorkersWithoutTargetsIdleAsInIometerAndNoTargetIsInvented)
{
    IOPRISM_REQUIRE(isRoot(), "needs root to mount a tmpfs");
    TempDir dir;
    const auto vol = dir.path() / "vol";
    std::string icf = referenceIcfOn(vol);
    // Three more workers, as Iometer saves one per CPU, without targets.
    const auto begin = icf.find("'Worker\n");
    const auto end = icf.find("'End worker\n") + std::string("'End worker\n").size();
    ASSERT_NE(begin, std::string::npos);
    std::string idle = icf.substr(begin, end - begin);
    const auto t0 = idle.find("'Target\n");
    const auto t1 = idle.find("'End target assignments\n");
    idle.erase(t0, t1 - t0);
    for (int w = 2; w <= 4; ++w) {
        std::string copy = idle;
        copy.replace(copy.find("Worker 1"), 8, "Worker " + std::to_string(w));
        icf.insert(icf.find("'End manager\n"), copy);
    }
    {
        std::ofstream out(dir.path() / "cpus.icf", std::ios::binary);
        out << icf;
    }
    TmpfsMount mounted(vol, "size=16M");
    ASSERT_TRUE(mounted.mounted());
    auto v = runCli("validate cpus.icf", dir.path());
    EXPECT_EQ(v.exitCode, 0) << v.out << v.err;
    EXPECT_THAT(v.out + v.err,
        HasSubstr("hosts[0].workers[3].targets: no targets: this worker idles in every step"));
    auto r
        = runCli("run cpus.icf --duration 1 --ramp 0 --no-save --quiet --json r.json", dir.path());
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "ioprism-test.dat"))
        << "a target was invented for an idle worker";
    const auto results = nlohmann::json::parse(readFile(dir.path() / "r.json"));
    const auto &workers = results["profile"]["hosts"][0]["workers"];
    ASSERT_EQ(workers.size(), 4u) << "every worker of the file is kept";
    EXPECT_EQ(workers[0]["targets"].size(), 1u);
    for (int w = 1; w < 4; ++w)
        EXPECT_TRUE(workers[w]["targets"].empty()) << "worker " << w << " got a target";
    EXPECT_FALSE(results["steps"].empty());
    ::umount2(vol.c_str(), MNT_DETACH);

    // A profile file without any target is refused by run as by validate.
    const auto noTarget = [&icf] {
        std::string t = icf;
        const auto a = t.find("'Target\n");
        t.erase(a, t.find("'End target assignments\n") - a);
        return t;
    }();
    {
        std::ofstream out(dir.path() / "none.icf", std::ios::binary);
        out << noTarget;
    }
    v = runCli("validate none.icf", dir.path());
    r = runCli("run none.icf --duration 1 --ramp 0 --no-save --quiet", dir.path());
    EXPECT_NE(v.exitCode, 0);
    EXPECT_EQ(r.exitCode, v.exitCode) << r.err;
    EXPECT_THAT(r.err, HasSubstr("no worker has a target"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "ioprism-test.dat"));
}
