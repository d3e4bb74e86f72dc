// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/uring_engine.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>

#include "engine_conformance.h"
#include "platform_test_util.h"

namespace ioprism::test {
namespace {

using platform::UringEngine;
using platform::UringOptions;

INSTANTIATE_TYPED_TEST_SUITE_P(Uring, EngineConformance, UringEngine);

// The same contract with a kernel submission thread (SQPOLL) taking the requests.
class SubmissionThreadUringEngine : public UringEngine
{
public:
    SubmissionThreadUringEngine()
        : UringEngine(UringOptions {.submissionThread = true})
    { }
};
INSTANTIATE_TYPED_TEST_SUITE_P(UringSqpoll, EngineConformance, SubmissionThreadUringEngine);

class UringEngineTest : public ::testing::Test
{
protected:
    TempDir m_dir {realFsDir()};
    std::string file(std::uint64_t bytes = 1 << 20)
    {
        const auto p = m_dir.path() / ("f" + std::to_string(m_files++));
        writeFile(p, bytes);
        return p.string();
    }
    int m_files = 0;
};

bool kernelAtLeast(int major, int minor)
{
    utsname u {};
    if (::uname(&u) != 0)
        return false;
    int ma = 0, mi = 0;
    std::sscanf(u.release, "%d.%d", &ma, &mi);
    return ma > major || (ma == major && mi >= minor);
}

TEST_F(UringEngineTest, RegistersBuffersAndFilesAndUsesDeferredTaskRunOnCurrentKernels)
{
    UringEngine engine;
    const std::vector<core::EngineFile> files {{file(), true, core::CacheMode::Direct, false}};
    ASSERT_TRUE(
        engine.init({.queueDepth = 32, .bufferCount = 64, .bufferBytes = 65536}, files).ok());
    const auto caps = engine.capabilities();
    EXPECT_TRUE(caps.registeredBuffers) << engine.registrationNote();
    EXPECT_TRUE(caps.registeredFiles) << engine.registrationNote();
    EXPECT_TRUE(engine.registrationNote().empty());
    EXPECT_FALSE(caps.polledCompletions);
    EXPECT_GE(caps.maxQueueDepth, 32u);
    IOPRISM_REQUIRE(kernelAtLeast(6, 1), "DEFER_TASKRUN needs Linux 6.1");
    EXPECT_TRUE(engine.setupFlags() & IORING_SETUP_DEFER_TASKRUN);
    EXPECT_TRUE(engine.setupFlags() & IORING_SETUP_SINGLE_ISSUER);
    EXPECT_TRUE(engine.setupFlags() & IORING_SETUP_COOP_TASKRUN);
}

// Whether someone has `path` open for writing, asked the kernel's way: a read lease is
// granted only while no open file, ours or the kernel's, can write the file.
bool openForWriting(const std::string &path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool leased = ::fcntl(fd, F_SETLEASE, F_RDLCK) == 0;
    const int err = errno;
    if (leased)
        ::fcntl(fd, F_SETLEASE, F_UNLCK);
    ::close(fd);
    EXPECT_TRUE(leased || err == EAGAIN) << "F_SETLEASE: " << std::strerror(err);
    return !leased;
}

TEST_F(UringEngineTest, ClosingARegisteredFileReallyClosesIt)
{
    // The registered table holds its own reference to the file: a close that left it
    // there would keep the file open in the kernel (and the connection-rate figures
    // would time a close that closes nothing).
    UringEngine engine;
    const auto path = file();
    const std::vector<core::EngineFile> files {{path, true, core::CacheMode::Direct, false}};
    ASSERT_TRUE(engine.init({.queueDepth = 4, .bufferCount = 4}, files).ok());
    ASSERT_TRUE(engine.usesRegisteredFile(0)) << engine.registrationNote();
    EXPECT_TRUE(openForWriting(path));
    ASSERT_TRUE(engine.closeFile(0).ok());
    EXPECT_FALSE(openForWriting(path)) << "the registered table still holds the file";

    // Reopened, it is used through its plain descriptor (one open(2), one close(2)).
    ASSERT_TRUE(engine.openFile(0, files[0]).ok());
    EXPECT_FALSE(engine.usesRegisteredFile(0));
    EXPECT_TRUE(openForWriting(path));
    ASSERT_TRUE(engine.closeFile(0).ok());
    EXPECT_FALSE(openForWriting(path));
}

TEST_F(UringEngineTest, FilesOpenedLaterAreNeverRegistered)
{
    UringEngine engine;
    const std::vector<core::EngineFile> files {
        {file(), true, core::CacheMode::Direct, false}, {.openLater = true}};
    ASSERT_TRUE(engine.init({.queueDepth = 4, .bufferCount = 4}, files).ok());
    EXPECT_TRUE(engine.capabilities().registeredFiles) << engine.registrationNote();
    EXPECT_TRUE(engine.usesRegisteredFile(0));
    EXPECT_FALSE(engine.usesRegisteredFile(1));
    ASSERT_TRUE(engine.openFile(1, {file(), false, core::CacheMode::Direct, false}).ok());
    EXPECT_FALSE(engine.usesRegisteredFile(1));
    EXPECT_TRUE(engine.closeFile(1).ok());

    // A worker with only a tree's slots registers no files at all.
    UringEngine slotsOnly;
    const std::vector<core::EngineFile> slots {{.openLater = true}, {.openLater = true}};
    ASSERT_TRUE(slotsOnly.init({.queueDepth = 2, .bufferCount = 2}, slots).ok());
    EXPECT_FALSE(slotsOnly.capabilities().registeredFiles);
    EXPECT_EQ(slotsOnly.registrationNote().find("files"), std::string::npos)
        << slotsOnly.registrationNote();
}

TEST_F(UringEngineTest, WithoutRegistrationUsesPlainReadsAndWritesCorrectly)
{
    UringEngine engine(UringOptions {.registerBuffers = false, .registerFiles = false});
    const std::vector<core::EngineFile> files {{file(), true, core::CacheMode::Direct, false}};
    ASSERT_TRUE(engine.init({.queueDepth = 8, .bufferCount = 8}, files).ok());
    EXPECT_FALSE(engine.capabilities().registeredBuffers);
    EXPECT_FALSE(engine.capabilities().registeredFiles);
    EXPECT_FALSE(engine.registrationNote().empty());

    std::vector<TestOp> ops;
    for (std::uint64_t off = 0; off < (1 << 20); off += 4096)
        ops.push_back({0, off, core::IoDirection::Write, 4096});
    ASSERT_TRUE(runOps(
        engine, ops, 8,
        [](const TestOp &op, std::span<std::byte> b) { fillPattern(b, 9, op.offset); },
        [](const TestOp &, const core::IoRequest &r, std::span<std::byte>) {
            EXPECT_EQ(r.resultBytes, 4096);
        }));
    for (auto &op : ops)
        op.direction = core::IoDirection::Read;
    std::size_t good = 0;
    ASSERT_TRUE(runOps(engine, ops, 8, nullptr,
        [&](const TestOp &op, const core::IoRequest &, std::span<std::byte> b) {
            good += matchesPattern(b, 9, op.offset) ? 1 : 0;
        }));
    EXPECT_EQ(good, ops.size());
}

// Submits `r` alone and reaps it with reap(min 0, no wait) called again and again (at
// most 10 s): what a worker that polls sees. The number reaped (1, or 0 if none came).
std::uint32_t submitAndReapWithoutWaiting(UringEngine &engine, core::IoRequest &r)
{
    if (!engine.queue(&r) || !engine.commit().ok())
        return 0;
    std::vector<core::IoRequest *> completed(4);
    std::uint32_t got = 0;
    const auto end = std::chrono::steady_clock::now() + 10s;
    while (got == 0 && std::chrono::steady_clock::now() < end) {
        auto n = engine.reap(completed, 0, 0ns);
        if (!n.ok())
            return 0;
        got += *n;
    }
    return got;
}

TEST_F(UringEngineTest, NonBlockingReapStillSeesDeferredCompletions)
{
    // With DEFER_TASKRUN, completions are posted only when the issuer enters the kernel;
    // reap(min 0, no wait) must do that or a polling worker would never see them.
    UringEngine engine;
    const std::vector<core::EngineFile> files {{file(), false, core::CacheMode::Direct, false}};
    ASSERT_TRUE(engine.init({.queueDepth = 4, .bufferCount = 4}, files).ok());
    core::IoRequest r {};
    r.lengthBytes = 4096;
    ASSERT_EQ(submitAndReapWithoutWaiting(engine, r), 1u);
    EXPECT_EQ(r.resultBytes, 4096);
    EXPECT_EQ(engine.inFlight(), 0u);
}

TEST_F(UringEngineTest, PolledCompletionsOnADeviceWithoutPollQueuesFailAtInitNamingIoPoll)
{
    UringEngine engine(UringOptions {.pollCompletions = true});
    const std::string path = file();
    const std::vector<core::EngineFile> files {{path, false, core::CacheMode::Direct, false}};
    const auto poll = platform::pollQueuesOf(path);
    IOPRISM_REQUIRE(!poll.disk.empty() && !poll.available,
        "the file system of the scratch folder is on a disk whose queue polls, or on none");
    auto st = engine.init({.queueDepth = 4, .bufferCount = 4}, files);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code.value(), EOPNOTSUPP);
    EXPECT_NE(st.error().detail.find("/sys/block/" + poll.disk + "/queue/io_poll is 0"),
        std::string::npos)
        << st.error().toString();
}

TEST_F(UringEngineTest, PolledCompletionsRequireDirectIo)
{
    UringEngine engine(UringOptions {.pollCompletions = true});
    const std::vector<core::EngineFile> files {{file(), false, core::CacheMode::Buffered, false}};
    auto st = engine.init({.queueDepth = 4, .bufferCount = 4}, files);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code.value(), EINVAL);
    EXPECT_NE(st.error().detail.find("direct"), std::string::npos);
}

// No device here polls, so the device's answer is the test double (queuePolls): past it,
// the ring is really made with IOPOLL and the I/O really goes to the kernel polled, which
// this disk then refuses, one I/O at a time (EOPNOTSUPP, Linux 6.x): the engine reaps
// that answer like any completion, entering the kernel for it even when asked not to
// wait (polled completions appear only by entering).
TEST_F(UringEngineTest, PolledCompletionsPastTheQueueCheckMakeAnIopollRingWhoseIoTheKernelPolls)
{
    std::vector<std::string> asked;
    UringEngine engine(
        UringOptions {.pollCompletions = true, .queuePolls = [&](const std::string &disk) {
                          asked.push_back(disk);
                          return true;
                      }});
    const std::string path = file();
    const std::vector<core::EngineFile> files {{path, false, core::CacheMode::Direct, false}};
    ASSERT_TRUE(engine.init({.queueDepth = 4, .bufferCount = 4}, files).ok());
    ASSERT_EQ(asked.size(), 1u);
    EXPECT_EQ(asked.front(), platform::pollQueuesOf(path).disk);
    EXPECT_TRUE(engine.setupFlags() & IORING_SETUP_IOPOLL);
    EXPECT_TRUE(engine.capabilities().polledCompletions);
    EXPECT_FALSE(engine.capabilities().submissionThread);

    core::IoRequest r {.lengthBytes = 4096, .offsetBytes = 8192};
    ASSERT_EQ(submitAndReapWithoutWaiting(engine, r), 1u);
    IOPRISM_REQUIRE(r.error != 0, "this disk completed a polled read: its queue polls");
    EXPECT_EQ(r.error, EOPNOTSUPP);
    EXPECT_EQ(engine.inFlight(), 0u);
}

// The names of this process's threads (/proc/self/task/*/comm).
std::vector<std::string> threadNames()
{
    std::vector<std::string> names;
    for (const auto &task : std::filesystem::directory_iterator("/proc/self/task")) {
        std::ifstream in(task.path() / "comm");
        std::string name;
        std::getline(in, name);
        names.push_back(name);
    }
    return names;
}

TEST_F(UringEngineTest, ASubmissionThreadIsAKernelThreadOfThisProcessThatTakesTheRequests)
{
    const auto sqThreads = [] {
        const auto names = threadNames();
        return std::count_if(names.begin(), names.end(),
            [](const std::string &n) { return n.starts_with("iou-sqp-"); });
    };
    const auto before = sqThreads();
    {
        UringEngine engine(UringOptions {.submissionThread = true});
        const std::vector<core::EngineFile> files {{file(), false, core::CacheMode::Direct, false}};
        ASSERT_TRUE(engine.init({.queueDepth = 8, .bufferCount = 8}, files).ok());
        EXPECT_TRUE(engine.setupFlags() & IORING_SETUP_SQPOLL);
        EXPECT_FALSE(engine.setupFlags() & IORING_SETUP_DEFER_TASKRUN);
        EXPECT_TRUE(engine.capabilities().submissionThread);
        // The thread names itself when it first runs (until then it has its creator's
        // name): wait for that, bounded.
        const auto named = std::chrono::steady_clock::now() + 10s;
        while (sqThreads() == before && std::chrono::steady_clock::now() < named)
            std::this_thread::sleep_for(1ms);
        EXPECT_EQ(sqThreads(), before + 1);

        std::vector<core::IoRequest> requests(8);
        std::vector<core::IoRequest *> completed(8);
        std::uint32_t done = 0;
        for (int round = 0; round < 100; ++round) {
            for (std::uint32_t i = 0; i < 8; ++i) {
                requests[i] = {.bufferIndex = i,
                    .lengthBytes = 4096,
                    .offsetBytes = std::uint64_t(round * 8 + i) % 256 * 4096};
                ASSERT_TRUE(engine.queue(&requests[i]));
            }
            ASSERT_TRUE(engine.commit().ok());
            std::uint32_t got = 0;
            while (got < 8) {
                auto n = engine.reap(std::span(completed).subspan(got), 8 - got, 10s);
                ASSERT_TRUE(n.ok());
                ASSERT_GT(*n, 0u) << "no completion within 10 s";
                got += *n;
            }
            for (const auto *r : completed) {
                EXPECT_EQ(r->error, 0);
                EXPECT_EQ(r->resultBytes, 4096);
            }
            done += got;
        }
        EXPECT_EQ(done, 800u);
    }
    // The thread goes with the ring (asynchronously: wait for it, bounded).
    const auto end = std::chrono::steady_clock::now() + 10s;
    while (sqThreads() > before && std::chrono::steady_clock::now() < end)
        std::this_thread::sleep_for(10ms);
    EXPECT_EQ(sqThreads(), before);
}

TEST_F(UringEngineTest, TheRingDescriptorIsRegisteredOnKernelsThatCanAndIoStillFlows)
{
    UringEngine engine;
    const std::vector<core::EngineFile> files {{file(), false, core::CacheMode::Direct, false}};
    ASSERT_TRUE(engine.init({.queueDepth = 1, .bufferCount = 1}, files).ok());
    IOPRISM_REQUIRE(kernelAtLeast(5, 18), "registered ring descriptors need Linux 5.18");
    EXPECT_TRUE(engine.ringRegistered());
    core::IoRequest r {.lengthBytes = 4096};
    std::vector<core::IoRequest *> completed(1);
    for (int i = 0; i < 100; ++i) {
        r.offsetBytes = std::uint64_t(i) * 4096;
        ASSERT_TRUE(engine.queue(&r));
        ASSERT_TRUE(engine.commit().ok());
        auto n = engine.reap(completed, 1, 10s);
        ASSERT_TRUE(n.ok());
        ASSERT_EQ(*n, 1u);
        EXPECT_EQ(r.resultBytes, 4096);
    }
}

TEST_F(UringEngineTest, QueueDepthBeyondTheRingLimitIsRefused)
{
    UringEngine engine;
    const std::vector<core::EngineFile> files {{file(), false, core::CacheMode::Direct, false}};
    auto st = engine.init({.queueDepth = 100000, .bufferCount = 1}, files);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code.value(), EINVAL);
}

TEST_F(UringEngineTest, DirectOpenOnAFileSystemWithoutODirectIsAClearError)
{
    // /proc files refuse O_DIRECT; the message must say so rather than silently cache.
    UringEngine engine;
    const std::vector<core::EngineFile> files {
        {"/proc/self/status", false, core::CacheMode::Direct, false}};
    auto st = engine.init({.queueDepth = 1, .bufferCount = 1}, files);
    IOPRISM_REQUIRE(!st.ok(), "this kernel accepts O_DIRECT on /proc");
    EXPECT_EQ(st.error().code.value(), EINVAL);
    EXPECT_NE(st.error().detail.find("O_DIRECT"), std::string::npos);
}

// A series makes new engines for every point: the memory the run reserved goes from one
// engine to the next instead of being mapped and faulted in again, goes back when an
// engine ends, and is unmapped when the run releases it.
TEST_F(UringEngineTest, BuffersComeFromTheKeptMemoryAndGoBackToItForTheNextEngine)
{
    auto memory = std::make_shared<platform::BufferMemory>();
    const std::size_t need = platform::AlignedBufferPool::mappedBytesFor(8, 65536, 4096);
    const std::size_t keep[] = {need};
    memory->keep(keep);
    ASSERT_EQ(memory->keptBytes(), need);
    const std::vector<core::EngineFile> files {{file(), true, core::CacheMode::Direct, false}};
    const std::byte *first = nullptr;
    {
        UringEngine engine(UringOptions {.bufferMemory = memory});
        ASSERT_TRUE(
            engine.init({.queueDepth = 8, .bufferCount = 8, .bufferBytes = 65536}, files).ok());
        EXPECT_EQ(memory->keptBytes(), 0u) << "the engine took the kept mapping";
        first = engine.buffer(0).data();
        std::vector<TestOp> ops;
        for (std::uint64_t off = 0; off < (1 << 20); off += 65536)
            ops.push_back({0, off, core::IoDirection::Write, 65536});
        ASSERT_TRUE(runOps(
            engine, ops, 8,
            [](const TestOp &op, std::span<std::byte> b) { fillPattern(b, 3, op.offset); },
            [](const TestOp &, const core::IoRequest &r, std::span<std::byte>) {
                EXPECT_EQ(r.resultBytes, 65536);
            }));
    }
    EXPECT_EQ(memory->keptBytes(), need) << "back when the engine ended";
    {
        // A smaller point: the same memory again, with registered buffers.
        UringEngine engine(UringOptions {.bufferMemory = memory});
        ASSERT_TRUE(
            engine.init({.queueDepth = 4, .bufferCount = 4, .bufferBytes = 4096}, files).ok());
        EXPECT_EQ(engine.buffer(0).data(), first);
        EXPECT_TRUE(engine.capabilities().registeredBuffers) << engine.registrationNote();
        // The first 4 KiB of each block the first engine wrote, read into reused memory.
        std::size_t good = 0;
        std::vector<TestOp> ops;
        for (std::uint64_t off = 0; off < (1 << 20); off += 65536)
            ops.push_back({0, off, core::IoDirection::Read, 4096});
        ASSERT_TRUE(runOps(engine, ops, 4, nullptr,
            [&](const TestOp &op, const core::IoRequest &, std::span<std::byte> b) {
                good += matchesPattern(b, 3, op.offset) ? 1 : 0;
            }));
        EXPECT_EQ(good, ops.size());
        // Larger than anything kept: mapped for this engine, and kept afterwards.
        UringEngine larger(UringOptions {.bufferMemory = memory});
        ASSERT_TRUE(
            larger.init({.queueDepth = 16, .bufferCount = 16, .bufferBytes = 65536}, files).ok());
        EXPECT_NE(larger.buffer(0).data(), first);
    }
    EXPECT_GT(memory->keptBytes(), need);
    memory->release();
    EXPECT_EQ(memory->keptBytes(), 0u);
    {
        UringEngine engine(UringOptions {.bufferMemory = memory});
        ASSERT_TRUE(engine.init({.queueDepth = 1, .bufferCount = 1}, files).ok());
    }
    EXPECT_EQ(memory->keptBytes(), 0u) << "after release, an engine's memory is unmapped";
}

} // namespace
} // namespace ioprism::test
