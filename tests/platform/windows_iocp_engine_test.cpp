// SPDX-License-Identifier: GPL-3.0-or-later
// What is particular to the IOCP engine, on real files (under Wine in CI): data round
// trips in every mode, synchronous completions with and without
// FILE_SKIP_COMPLETION_PORT_ON_SUCCESS, pending requests (a named pipe), Win32 errors as
// portable conditions, and our own alignment check for unbuffered I/O, which Wine itself
// would not enforce. The engine contract shared with the Linux engines is tested by the
// conformance suite (windows_engine_conformance.cpp).
#include "platform/windows/iocp_engine.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>
#include <system_error>

#include "windows_test_util.h"

using namespace ioprism;
using namespace ioprism::test::win;
using core::CacheMode;
using core::IoDirection;
using platform::IocpEngine;
using platform::IocpOptions;

namespace {

std::unique_ptr<IocpEngine> makeEngine(const std::vector<core::EngineFile> &files,
    std::uint32_t depth, std::uint32_t bufferBytes = 4096, IocpOptions options = {})
{
    auto engine = std::make_unique<IocpEngine>(options);
    core::EngineConfig config {.queueDepth = depth,
        .bufferCount = depth,
        .bufferBytes = bufferBytes,
        .bufferAlignmentBytes = 4096};
    auto st = engine->init(config, files);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().toString());
    return st.ok() ? std::move(engine) : nullptr;
}

struct RoundTripCase {
    const char *name;
    CacheMode cacheMode;
    bool skipPortOnSuccess;
    friend void PrintTo(const RoundTripCase &c, std::ostream *os) { *os << c.name; }
};

class IocpRoundTrip : public ::testing::TestWithParam<RoundTripCase>
{
};

} // namespace

TEST_P(IocpRoundTrip, WritesThenReadsBackDistinctBlocksOfTwoFilesAtQd32)
{
    const auto &param = GetParam();
    test::TempDir dir;
    constexpr std::uint64_t kFileBytes = 2 * 1024 * 1024;
    constexpr std::uint32_t kBlock = 4096;
    writeFile(dir.path() / "a.dat", kFileBytes);
    writeFile(dir.path() / "b.dat", kFileBytes);
    const std::vector<core::EngineFile> files {
        {(dir.path() / "a.dat").string(), true, param.cacheMode, false},
        {(dir.path() / "b.dat").string(), true, param.cacheMode, false}};
    auto engine
        = makeEngine(files, 32, kBlock, {.skipCompletionPortOnSuccess = param.skipPortOnSuccess});
    ASSERT_TRUE(engine);
    EXPECT_TRUE(engine->capabilities().async);
    EXPECT_GE(engine->capabilities().maxQueueDepth, 32u);

    std::vector<TestOp> writes;
    for (std::uint32_t f = 0; f < 2; ++f)
        for (std::uint64_t off = 0; off < kFileBytes; off += kBlock)
            writes.push_back({f, off, IoDirection::Write, kBlock});
    std::shuffle(writes.begin(), writes.end(), std::mt19937(42));

    RunStats stats;
    std::size_t written = 0;
    ASSERT_TRUE(runOps(
        *engine, writes, 32,
        [](const TestOp &op, std::span<std::byte> buf) { fillPattern(buf, op.file, op.offset); },
        [&](const TestOp &op, const core::IoRequest &r, std::span<std::byte>) {
            EXPECT_EQ(r.error, 0) << "write at " << op.offset;
            EXPECT_EQ(r.resultBytes, kBlock);
            ++written;
        },
        &stats));
    EXPECT_EQ(written, writes.size());
    EXPECT_EQ(stats.maxInFlight, 32u) << "the engine never had 32 requests outstanding";
    EXPECT_EQ(engine->synchronousCompletions() + engine->portCompletions(), writes.size())
        << "every request is reaped exactly once, by one of the two paths";

    auto reads = writes;
    for (auto &op : reads)
        op.direction = IoDirection::Read;
    std::shuffle(reads.begin(), reads.end(), std::mt19937(7));
    std::size_t verified = 0;
    ASSERT_TRUE(runOps(
        *engine, reads, 32,
        [](const TestOp &, std::span<std::byte> buf) { std::memset(buf.data(), 0, buf.size()); },
        [&](const TestOp &op, const core::IoRequest &r, std::span<std::byte> buf) {
            ASSERT_EQ(r.error, 0);
            ASSERT_EQ(r.resultBytes, kBlock);
            if (matchesPattern(buf, op.file, op.offset))
                ++verified;
            else
                ADD_FAILURE() << "wrong bytes in file " << op.file << " at " << op.offset;
        }));
    EXPECT_EQ(verified, reads.size());
    engine.reset();

    // And the bytes really are in the files, where they belong.
    const auto a = readAll(dir.path() / "a.dat");
    ASSERT_EQ(a.size(), kFileBytes);
    EXPECT_TRUE(
        matchesPattern(std::as_bytes(std::span(a)).subspan(12 * kBlock, kBlock), 0, 12 * kBlock));
}

INSTANTIATE_TEST_SUITE_P(Modes, IocpRoundTrip,
    ::testing::Values(RoundTripCase {"Unbuffered", CacheMode::Direct, true},
        RoundTripCase {"UnbufferedAllThroughThePort", CacheMode::Direct, false},
        RoundTripCase {"Buffered", CacheMode::Buffered, true},
        RoundTripCase {"BufferedAllThroughThePort", CacheMode::Buffered, false}),
    [](const auto &info) { return std::string(info.param.name); });

TEST(IocpEngine, SynchronousCompletionsAreReapedOnceWithoutAPortPacket)
{
    // Writes to NUL complete inside WriteFile, on Windows and Wine alike.
    auto engine = makeEngine({{"NUL", true, CacheMode::Buffered, false}}, 8);
    ASSERT_TRUE(engine);
    ASSERT_TRUE(engine->skipsPortOnSuccess(0))
        << "SetFileCompletionNotificationModes failed on NUL";
    std::vector<TestOp> ops(100, TestOp {0, 0, IoDirection::Write, 4096});
    std::size_t done = 0;
    ASSERT_TRUE(runOps(*engine, ops, 8, nullptr,
        [&](const TestOp &, const core::IoRequest &r, std::span<std::byte>) {
            EXPECT_EQ(r.error, 0);
            EXPECT_EQ(r.resultBytes, 4096);
            ++done;
        }));
    EXPECT_EQ(done, ops.size());
    EXPECT_EQ(engine->synchronousCompletions(), ops.size());
    EXPECT_EQ(engine->portCompletions(), 0u);
}

TEST(IocpEngine, WithoutSkipModeSynchronousCompletionsComeThroughThePortOnce)
{
    auto engine = makeEngine({{"NUL", true, CacheMode::Buffered, false}}, 8, 4096,
        {.skipCompletionPortOnSuccess = false});
    ASSERT_TRUE(engine);
    EXPECT_FALSE(engine->skipsPortOnSuccess(0));
    std::vector<TestOp> ops(100, TestOp {0, 0, IoDirection::Write, 4096});
    RunStats stats;
    ASSERT_TRUE(runOps(*engine, ops, 8, nullptr, nullptr, &stats));
    EXPECT_EQ(engine->portCompletions(), ops.size());
    EXPECT_EQ(engine->synchronousCompletions(), 0u);
    EXPECT_TRUE(std::all_of(
        stats.timesCompleted.begin(), stats.timesCompleted.end(), [](int n) { return n == 1; }));
}

TEST(IocpEngine, PendingReadHonoursTheTimeoutThenDeliversTheLateCompletion)
{
    PipeServer pipe;
    ASSERT_TRUE(pipe.ok());
    auto engine = makeEngine({{pipe.name(), true, CacheMode::Buffered, false}}, 2);
    ASSERT_TRUE(engine);
    core::IoRequest r {};
    r.lengthBytes = 4096;
    ASSERT_TRUE(engine->queue(&r));
    ASSERT_TRUE(engine->commit().ok());
    EXPECT_EQ(engine->inFlight(), 1u) << "the read should be pending (ERROR_IO_PENDING)";
    std::vector<core::IoRequest *> completed(2);

    const auto start = std::chrono::steady_clock::now();
    auto got = engine->reap(completed, 1, 100ms);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    ASSERT_TRUE(got.ok()) << got.error().toString();
    EXPECT_EQ(*got, 0u);
    EXPECT_GE(elapsed, 90ms);
    EXPECT_LT(elapsed, 3s);

    ASSERT_TRUE(pipe.write("hello, engine"));
    got = engine->reap(completed, 1, 10s);
    ASSERT_TRUE(got.ok());
    ASSERT_EQ(*got, 1u);
    EXPECT_EQ(completed[0], &r);
    EXPECT_EQ(r.error, 0);
    EXPECT_EQ(r.resultBytes, 13);
    EXPECT_EQ(std::memcmp(engine->buffer(0).data(), "hello, engine", 13), 0);
    EXPECT_EQ(engine->portCompletions(), 1u);
}

TEST(IocpEngine, DestroyingWithARequestInFlightCancelsAndReturns)
{
    PipeServer pipe;
    ASSERT_TRUE(pipe.ok());
    auto engine = makeEngine({{pipe.name(), true, CacheMode::Buffered, false}}, 2);
    ASSERT_TRUE(engine);
    core::IoRequest r {};
    r.lengthBytes = 4096;
    ASSERT_TRUE(engine->queue(&r));
    ASSERT_TRUE(engine->commit().ok());
    const auto start = std::chrono::steady_clock::now();
    engine.reset(); // CancelIoEx, then waits for the cancelled packet
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST(IocpEngine, ErrorsSurfaceAsPortableConditions)
{
    test::TempDir dir;
    writeFile(dir.path() / "a.dat", 65536 + 1024);
    struct Case {
        const char *what;
        bool openForWrite;
        CacheMode mode;
        TestOp op;
        std::error_condition error; // default: none
        std::int64_t bytes;
    };
    const Case cases[] = {
        {"write on a file opened read-only", false, CacheMode::Buffered,
            {0, 0, IoDirection::Write, 4096}, std::errc::permission_denied, 0},
        {"read past the end transfers nothing, not an error (ERROR_HANDLE_EOF)", false,
            CacheMode::Buffered, {0, 1 << 20, IoDirection::Read, 4096}, {}, 0},
        {"unbuffered read past the end", false, CacheMode::Direct,
            {0, 1 << 20, IoDirection::Read, 4096}, {}, 0},
        {"read across the end is short, not an error", false, CacheMode::Buffered,
            {0, 65536, IoDirection::Read, 4096}, {}, 1024},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(c.what);
        auto engine
            = makeEngine({{(dir.path() / "a.dat").string(), c.openForWrite, c.mode, false}}, 4);
        ASSERT_TRUE(engine);
        int error = -1;
        std::int64_t bytes = -1;
        ASSERT_TRUE(runOps(
            *engine, {c.op}, 4, nullptr, [&](const TestOp &, const core::IoRequest &r, auto) {
                error = r.error;
                bytes = r.resultBytes;
            }));
        if (c.error)
            EXPECT_EQ(systemError(error), c.error) << systemError(error).message();
        else
            EXPECT_EQ(error, 0) << systemError(error).message();
        EXPECT_EQ(bytes, c.bytes);
    }
}

TEST(IocpEngine, MisalignedUnbufferedRequestsAreRefusedBeforeTheyAreIssued)
{
    test::TempDir dir;
    writeFile(dir.path() / "a.dat", 65536, 3);
    const auto before = readAll(dir.path() / "a.dat");
    auto engine
        = makeEngine({{(dir.path() / "a.dat").string(), true, CacheMode::Direct, false}}, 4, 8192);
    ASSERT_TRUE(engine);
    const std::uint32_t sector = engine->sectorBytes(0);
    ASSERT_GE(sector, 512u);
    // All three are invalid_argument, as EINVAL is for O_DIRECT on Linux (see
    // portableError in iocp_engine.cpp for why not ERROR_OFFSET_ALIGNMENT_VIOLATION).
    struct Case {
        const char *what;
        TestOp op;
    };
    const Case cases[] = {
        {"offset off the sector", {0, 100, IoDirection::Write, 4096}},
        {"length off the sector", {0, 0, IoDirection::Write, 1000}},
        {"read with a misaligned offset", {0, sector / 2, IoDirection::Read, 4096}},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(c.what);
        int error = -1;
        ASSERT_TRUE(runOps(
            *engine, {c.op}, 4,
            [](const TestOp &, std::span<std::byte> buf) {
                std::memset(buf.data(), 0xEE, buf.size());
            },
            [&](const TestOp &, const core::IoRequest &r, auto) {
                error = r.error;
                EXPECT_EQ(r.resultBytes, 0);
            }));
        EXPECT_EQ(systemError(error), std::errc::invalid_argument) << systemError(error).message();
    }
    EXPECT_EQ(engine->immediateFailures(), 3u);
    EXPECT_EQ(engine->portCompletions() + engine->synchronousCompletions(), 0u)
        << "nothing reached the kernel";
    engine.reset();
    EXPECT_EQ(readAll(dir.path() / "a.dat"), before) << "a refused write must not change the file";
}

TEST(IocpEngine, BufferedRequestsNeedNoAlignment)
{
    test::TempDir dir;
    writeFile(dir.path() / "a.dat", 65536);
    auto engine
        = makeEngine({{(dir.path() / "a.dat").string(), true, CacheMode::Buffered, false}}, 4);
    ASSERT_TRUE(engine);
    int error = -1;
    std::int64_t bytes = 0;
    ASSERT_TRUE(runOps(*engine, {{0, 100, IoDirection::Read, 1000}}, 4, nullptr,
        [&](const TestOp &, const core::IoRequest &r, auto) {
            error = r.error;
            bytes = r.resultBytes;
        }));
    EXPECT_EQ(error, 0);
    EXPECT_EQ(bytes, 1000);
}

TEST(IocpEngine, QueueSaysFullAtTheQueueDepth)
{
    auto engine = makeEngine({{"NUL", true, CacheMode::Buffered, false}}, 4);
    ASSERT_TRUE(engine);
    std::vector<core::IoRequest> reqs(5);
    std::uint32_t accepted = 0;
    for (auto &r : reqs) {
        r.direction = IoDirection::Write;
        r.lengthBytes = 4096;
        r.bufferIndex = accepted % 4;
        if (!engine->queue(&r))
            break;
        ++accepted;
    }
    EXPECT_EQ(accepted, 4u);
    ASSERT_TRUE(engine->commit().ok());
    EXPECT_FALSE(engine->queue(&reqs[4]))
        << "completed but not reaped requests still hold their slot";
    std::vector<core::IoRequest *> completed(8);
    auto got = engine->reap(completed, 4, 1s);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, 4u);
    EXPECT_TRUE(engine->queue(&reqs[4]));
}

TEST(IocpEngine, BufferBeyondTheLastIsEmpty)
{
    // Alignment and spacing are in the conformance suite; an index past the end gives an
    // empty span rather than memory past the region.
    auto engine = makeEngine({{"NUL", false, CacheMode::Buffered, false}}, 8, 6000);
    ASSERT_TRUE(engine);
    EXPECT_EQ(engine->buffer(7).size(), 6000u);
    EXPECT_TRUE(engine->buffer(8).empty());
}

TEST(IocpEngine, InitRefusesAnImpossibleQueueDepth)
{
    IocpEngine engine;
    const std::vector<core::EngineFile> files {{"NUL", false, CacheMode::Buffered, false}};
    auto st = engine.init({.queueDepth = IocpEngine::kMaxQueueDepth + 1, .bufferCount = 1}, files);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().detail.find("queue depth"), std::string::npos);
}
