// SPDX-License-Identifier: GPL-3.0-or-later
// The engine contract, tested the same way for every engine on every platform: a typed
// test suite that uring_engine_test.cpp, sync_engine_test.cpp (Linux) and
// windows_engine_conformance.cpp (Windows, under Wine in CI) instantiate with their engine.
//
// Portable on purpose: no OS header and no OS call here. What differs per platform comes
// from the two hooks below, defined once per platform in a file only that platform builds
// (engine_conformance_linux.cpp, windows_engine_conformance.cpp). Errors are compared as
// std::errc conditions (systemError in engine_test_util.h), never as errno or Win32
// numbers, so one expectation holds for every engine.
//
// Where a platform cannot enforce the contract itself (Wine ignores
// FILE_FLAG_NO_BUFFERING), the engine must: the alignment tests then exercise the engine's
// own check, and the misaligned write test proves it by finding the file unchanged.
#pragma once

#include "core/engine.h"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <gtest/gtest.h>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "engine_test_util.h"

namespace ioprism::test {

// Hook: a directory on a file system where direct (unbuffered) I/O really works
// (/var/tmp on Linux: /tmp may be tmpfs, which accepts O_DIRECT but still caches).
std::filesystem::path conformanceScratchDir();

// Hook: a "file" the engine opens (for reading and writing, buffered) whose reads stay
// pending until write() is called: a FIFO on Linux, a named pipe on Windows. The only
// portable way to get a request that completes late, on demand.
class PendingReadSource
{
public:
    virtual ~PendingReadSource() = default;
    virtual std::string path() const = 0; // what the engine opens; empty when it failed
    virtual bool write(std::string_view text) = 0;
};
std::unique_ptr<PendingReadSource> makePendingReadSource(const std::filesystem::path &dir);

template<typename Engine> class EngineConformance : public ::testing::Test
{
protected:
    void SetUp() override { m_dir = std::make_unique<TempDir>(conformanceScratchDir()); }

    std::string makeFile(const std::string &name, std::uint64_t bytes)
    {
        const auto path = m_dir->path() / name;
        writeFile(path, bytes, 7);
        return path.string();
    }

    std::unique_ptr<Engine> makeEngine(const std::vector<core::EngineFile> &files,
        std::uint32_t depth, std::uint32_t bufferBytes = 4096)
    {
        auto engine = std::make_unique<Engine>();
        core::EngineConfig config {.queueDepth = depth,
            .bufferCount = depth,
            .bufferBytes = bufferBytes,
            .bufferAlignmentBytes = 4096};
        auto st = engine->init(config, files);
        EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().toString());
        return st.ok() ? std::move(engine) : nullptr;
    }

    std::unique_ptr<TempDir> m_dir;
};

TYPED_TEST_SUITE_P(EngineConformance);

TYPED_TEST_P(EngineConformance, WritesThenReadsBackDistinctPatternsAcrossTwoFilesAtQd32)
{
    constexpr std::uint64_t kFileBytes = 4 * 1024 * 1024;
    constexpr std::uint32_t kBlock = 4096;
    const std::vector<core::EngineFile> files {
        {this->makeFile("a", kFileBytes), true, core::CacheMode::Direct, false},
        {this->makeFile("b", kFileBytes), true, core::CacheMode::Direct, false}};
    auto engine = this->makeEngine(files, 32, kBlock);
    ASSERT_TRUE(engine);
    EXPECT_TRUE(engine->capabilities().async);
    EXPECT_GE(engine->capabilities().maxQueueDepth, 32u);

    // Every block of both files once, in a shuffled order.
    std::vector<TestOp> writes;
    for (std::uint32_t f = 0; f < 2; ++f)
        for (std::uint64_t off = 0; off < kFileBytes; off += kBlock)
            writes.push_back({f, off, core::IoDirection::Write, kBlock});
    std::shuffle(writes.begin(), writes.end(), std::mt19937(42));

    std::size_t done = 0;
    RunStats stats;
    ASSERT_TRUE(runOps(
        *engine, writes, 32,
        [](const TestOp &op, std::span<std::byte> buf) { fillPattern(buf, op.file, op.offset); },
        [&](const TestOp &op, const core::IoRequest &r, std::span<std::byte>) {
            EXPECT_EQ(r.error, 0) << "write at " << op.offset;
            EXPECT_EQ(r.resultBytes, kBlock);
            ++done;
        },
        &stats));
    EXPECT_EQ(done, writes.size());
    EXPECT_EQ(stats.maxInFlight, 32u);

    auto reads = writes;
    for (auto &op : reads)
        op.direction = core::IoDirection::Read;
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
}

// Queue depth 1 is the path a latency test and a file tree's one-operation slots take
// (the sync engine does that I/O on the caller's thread): the right bytes, one at a time.
TYPED_TEST_P(EngineConformance, WritesThenReadsBackAtQd1)
{
    constexpr std::uint64_t kFileBytes = 256 * 1024;
    constexpr std::uint32_t kBlock = 4096;
    const std::vector<core::EngineFile> files {
        {this->makeFile("a", kFileBytes), true, core::CacheMode::Direct, false}};
    auto engine = this->makeEngine(files, 1, kBlock);
    ASSERT_TRUE(engine);
    std::vector<TestOp> writes;
    for (std::uint64_t off = 0; off < kFileBytes; off += kBlock)
        writes.push_back({0, off, core::IoDirection::Write, kBlock});
    std::shuffle(writes.begin(), writes.end(), std::mt19937(3));
    ASSERT_TRUE(runOps(
        *engine, writes, 1,
        [](const TestOp &op, std::span<std::byte> buf) { fillPattern(buf, op.file, op.offset); },
        [&](const TestOp &op, const core::IoRequest &r, std::span<std::byte>) {
            EXPECT_EQ(r.error, 0) << "write at " << op.offset;
            EXPECT_EQ(r.resultBytes, kBlock);
        }));
    auto reads = writes;
    for (auto &op : reads)
        op.direction = core::IoDirection::Read;
    std::size_t verified = 0;
    ASSERT_TRUE(runOps(
        *engine, reads, 1,
        [](const TestOp &, std::span<std::byte> buf) { std::memset(buf.data(), 0, buf.size()); },
        [&](const TestOp &op, const core::IoRequest &r, std::span<std::byte> buf) {
            ASSERT_EQ(r.resultBytes, kBlock);
            if (matchesPattern(buf, op.file, op.offset))
                ++verified;
            else
                ADD_FAILURE() << "wrong bytes at " << op.offset;
        }));
    EXPECT_EQ(verified, reads.size());
}

TYPED_TEST_P(EngineConformance, ReapReturnsZeroAtOnceWhenNothingIsInFlight)
{
    auto engine = this->makeEngine(
        {{this->makeFile("a", 65536), false, core::CacheMode::Direct, false}}, 4);
    ASSERT_TRUE(engine);
    std::vector<core::IoRequest *> completed(4);
    const auto start = std::chrono::steady_clock::now();
    auto got = engine->reap(completed, 1, 5s);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, 0u);
    EXPECT_LT(elapsed, 1s) << "reap waited for completions that could never come";
}

TYPED_TEST_P(EngineConformance, MisalignedDirectLengthCompletesWithInvalidArgument)
{
    auto engine = this->makeEngine(
        {{this->makeFile("a", 65536), false, core::CacheMode::Direct, false}}, 4);
    ASSERT_TRUE(engine);
    int error = -1;
    ASSERT_TRUE(runOps(*engine, {{0, 0, core::IoDirection::Read, 1000}}, 4, nullptr,
        [&](const TestOp &, const core::IoRequest &r, std::span<std::byte>) {
            error = r.error;
            EXPECT_EQ(r.resultBytes, 0);
        }));
    EXPECT_EQ(systemError(error), std::errc::invalid_argument) << systemError(error).message();
}

TYPED_TEST_P(EngineConformance, MisalignedDirectWriteIsRefusedAndLeavesTheFileUnchanged)
{
    // Offset 100 is off every sector size. The kernel refuses it on Linux; under Wine
    // nothing would (NO_BUFFERING is ignored), so there it is the engine's own check that
    // must refuse it before the write reaches the file.
    const auto path = this->makeFile("a", 65536);
    const auto before = readAll(path);
    auto engine = this->makeEngine({{path, true, core::CacheMode::Direct, false}}, 4);
    ASSERT_TRUE(engine);
    int error = -1;
    std::int64_t bytes = -1;
    ASSERT_TRUE(runOps(
        *engine, {{0, 100, core::IoDirection::Write, 4096}}, 4,
        [](const TestOp &, std::span<std::byte> buf) { std::memset(buf.data(), 0xEE, buf.size()); },
        [&](const TestOp &, const core::IoRequest &r, std::span<std::byte>) {
            error = r.error;
            bytes = r.resultBytes;
        }));
    EXPECT_EQ(systemError(error), std::errc::invalid_argument) << systemError(error).message();
    EXPECT_EQ(bytes, 0);
    engine.reset();
    EXPECT_EQ(readAll(path), before) << "a refused write must not change the file";
}

TYPED_TEST_P(EngineConformance, ReadsAtAndAcrossEndOfFileAreShort)
{
    // 64 KiB + 1 KiB: a 4 KiB read at 64 KiB returns the last 1 KiB; one past it, 0 bytes
    // and no error, as pread does (the IOCP engine turns ERROR_HANDLE_EOF into that).
    auto engine = this->makeEngine(
        {{this->makeFile("a", 65536 + 1024), false, core::CacheMode::Direct, false}}, 4);
    ASSERT_TRUE(engine);
    std::vector<std::int64_t> results(2, -1);
    ASSERT_TRUE(runOps(*engine,
        {{0, 65536, core::IoDirection::Read, 4096},
            {0, 65536 + 4096, core::IoDirection::Read, 4096}},
        4, nullptr, [&](const TestOp &op, const core::IoRequest &r, std::span<std::byte>) {
            EXPECT_EQ(r.error, 0);
            results[op.offset == 65536 ? 0 : 1] = r.resultBytes;
        }));
    EXPECT_EQ(results[0], 1024);
    EXPECT_EQ(results[1], 0);
}

TYPED_TEST_P(EngineConformance, RequestWithBadIndexCompletesWithInvalidArgumentInsteadOfCorrupting)
{
    auto engine = this->makeEngine(
        {{this->makeFile("a", 65536), false, core::CacheMode::Direct, false}}, 4);
    ASSERT_TRUE(engine);
    core::IoRequest bad {};
    bad.fileIndex = 5; // only one file
    bad.lengthBytes = 4096;
    ASSERT_TRUE(engine->queue(&bad));
    ASSERT_TRUE(engine->commit().ok());
    std::vector<core::IoRequest *> completed(4);
    auto got = engine->reap(completed, 1, 5s);
    ASSERT_TRUE(got.ok());
    ASSERT_EQ(*got, 1u);
    EXPECT_EQ(completed[0], &bad);
    EXPECT_EQ(systemError(bad.error), std::errc::invalid_argument)
        << systemError(bad.error).message();
    EXPECT_EQ(bad.resultBytes, 0);
}

TYPED_TEST_P(EngineConformance, ReapHonoursTimeoutThenDeliversTheLateCompletion)
{
    // A read from an empty FIFO (a named pipe on Windows) stays pending until the test
    // writes into it.
    const auto source = makePendingReadSource(this->m_dir->path());
    ASSERT_TRUE(source && !source->path().empty());
    auto engine = this->makeEngine({{source->path(), true, core::CacheMode::Buffered, false}}, 2);
    ASSERT_TRUE(engine);
    core::IoRequest r {};
    r.lengthBytes = 4096;
    ASSERT_TRUE(engine->queue(&r));
    ASSERT_TRUE(engine->commit().ok());
    std::vector<core::IoRequest *> completed(2);

    const auto start = std::chrono::steady_clock::now();
    auto got = engine->reap(completed, 1, 100ms);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    ASSERT_TRUE(got.ok()) << got.error().toString();
    EXPECT_EQ(*got, 0u);
    EXPECT_GE(elapsed, 90ms);
    EXPECT_LT(elapsed, 3s);

    ASSERT_TRUE(source->write("hello, engine"));
    got = engine->reap(completed, 1, 10s);
    ASSERT_TRUE(got.ok());
    ASSERT_EQ(*got, 1u);
    EXPECT_EQ(completed[0], &r);
    EXPECT_EQ(r.error, 0);
    EXPECT_EQ(r.resultBytes, 13);
    EXPECT_EQ(std::memcmp(engine->buffer(0).data(), "hello, engine", 13), 0);
}

TYPED_TEST_P(EngineConformance, QueueSaysFullAtQueueDepth)
{
    auto engine = this->makeEngine(
        {{this->makeFile("a", 65536), false, core::CacheMode::Direct, false}}, 4);
    ASSERT_TRUE(engine);
    std::vector<core::IoRequest> reqs(5);
    std::uint32_t accepted = 0;
    for (auto &r : reqs) {
        r.lengthBytes = 4096;
        r.bufferIndex = accepted % 4;
        if (!engine->queue(&r))
            break;
        ++accepted;
    }
    EXPECT_EQ(accepted, 4u);
    ASSERT_TRUE(engine->commit().ok());
    std::vector<core::IoRequest *> completed(8);
    std::uint32_t reaped = 0;
    for (int i = 0; i < 100 && reaped < accepted; ++i) {
        auto got = engine->reap(completed, accepted - reaped, 1s);
        ASSERT_TRUE(got.ok());
        reaped += *got;
    }
    EXPECT_EQ(reaped, accepted);
}

TYPED_TEST_P(EngineConformance, BuffersAreAlignedAndDistinct)
{
    auto engine = this->makeEngine(
        {{this->makeFile("a", 65536), false, core::CacheMode::Direct, false}}, 8, 6000);
    ASSERT_TRUE(engine);
    for (std::uint32_t i = 0; i < 8; ++i) {
        const auto b = engine->buffer(i);
        EXPECT_EQ(b.size(), 6000u);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % 4096, 0u) << "buffer " << i;
        if (i > 0) {
            EXPECT_GE(b.data(), engine->buffer(i - 1).data() + 6000);
        }
    }
}

TYPED_TEST_P(EngineConformance, InitReportsTheMissingFile)
{
    TypeParam engine;
    const std::vector<core::EngineFile> files {
        {(this->m_dir->path() / "does-not-exist").string(), false, core::CacheMode::Direct, false}};
    auto st = engine.init({.queueDepth = 4, .bufferCount = 4}, files);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code, std::errc::no_such_file_or_directory) << st.error().toString();
    EXPECT_EQ(st.error().path, files[0].path);
}

// ---------------------------------------------------------------- files opened while running
// (file trees open a file per operation; Iometer's connection rate closes and reopens)

// One request on `file`, waited for; returns it completed.
inline core::IoRequest oneRequest(core::IoEngine &engine, std::uint32_t file,
    core::IoDirection direction, std::uint64_t offset, std::uint32_t length = 4096)
{
    core::IoRequest r {};
    r.direction = direction;
    r.fileIndex = file;
    r.lengthBytes = length;
    r.offsetBytes = offset;
    r.resultBytes = -1;
    r.error = -1;
    EXPECT_TRUE(engine.queue(&r));
    EXPECT_TRUE(engine.commit().ok());
    std::vector<core::IoRequest *> completed(4);
    auto got = engine.reap(completed, 1, 10s);
    EXPECT_TRUE(got.ok() && *got == 1u) << "the request did not complete";
    return r;
}

TYPED_TEST_P(EngineConformance, OpenLaterIndexTakesFilesOpenedWhileRunning)
{
    // Index 1 is reserved by init() and opened by openFile(), as a file tree's slot is:
    // two files written through it in turn land each in its own file, and a third open
    // reads back what the first got.
    constexpr std::uint64_t kFileBytes = 64 * 1024;
    const auto first = this->makeFile("first", kFileBytes);
    const auto second = this->makeFile("second", kFileBytes);
    const std::vector<core::EngineFile> files {
        {this->makeFile("a", kFileBytes), false, core::CacheMode::Direct, false},
        {.openLater = true}};
    auto engine = this->makeEngine(files, 4);
    ASSERT_TRUE(engine);

    // Closed until opened: I/O there fails, it never reaches another file.
    const auto closed = oneRequest(*engine, 1, core::IoDirection::Read, 0);
    EXPECT_NE(closed.error, 0);
    EXPECT_LE(closed.resultBytes, 0);

    std::uint32_t id = 100;
    for (const auto &path : {first, second}) {
        auto st = engine->openFile(1, {path, true, core::CacheMode::Direct, false});
        ASSERT_TRUE(st.ok()) << st.error().toString();
        std::vector<TestOp> writes;
        for (std::uint64_t off = 0; off < kFileBytes; off += 4096)
            writes.push_back({1, off, core::IoDirection::Write, 4096});
        ASSERT_TRUE(runOps(
            *engine, writes, 4,
            [&](const TestOp &op, std::span<std::byte> buf) { fillPattern(buf, id, op.offset); },
            [](const TestOp &, const core::IoRequest &r, std::span<std::byte>) {
                EXPECT_EQ(r.error, 0);
                EXPECT_EQ(r.resultBytes, 4096);
            }));
        st = engine->closeFile(1);
        ASSERT_TRUE(st.ok()) << st.error().toString();
        ++id;
    }

    auto st = engine->openFile(1, {first, false, core::CacheMode::Buffered, false});
    ASSERT_TRUE(st.ok()) << st.error().toString();
    const auto read = oneRequest(*engine, 1, core::IoDirection::Read, 8192);
    EXPECT_EQ(read.error, 0);
    EXPECT_EQ(read.resultBytes, 4096);
    EXPECT_TRUE(matchesPattern(engine->buffer(0).first(4096), 100, 8192));
    ASSERT_TRUE(engine->closeFile(1).ok());
    engine.reset();

    // On disk, as a reader outside the engine sees them.
    for (std::uint32_t f = 0; f < 2; ++f) {
        const auto bytes = readAll(f == 0 ? first : second);
        ASSERT_EQ(bytes.size(), kFileBytes);
        for (std::uint64_t off = 0; off < kFileBytes; off += 4096)
            EXPECT_TRUE(
                matchesPattern(std::as_bytes(std::span(bytes)).subspan(off, 4096), 100 + f, off))
                << "file " << f << " at " << off;
    }
}

TYPED_TEST_P(EngineConformance, AFileInitOpenedClosesAndReopensAndItsIoWorksAfterwards)
{
    // Iometer's connection rate: the target init() opened (and registered, where the
    // engine registers files) is closed and opened again every N transactions.
    const auto path = this->makeFile("a", 65536);
    auto engine = this->makeEngine({{path, true, core::CacheMode::Direct, false}}, 4);
    ASSERT_TRUE(engine);
    for (int round = 0; round < 3; ++round) {
        fillPattern(engine->buffer(0).first(4096), 7, std::uint64_t(round) * 4096);
        const auto w
            = oneRequest(*engine, 0, core::IoDirection::Write, std::uint64_t(round) * 4096);
        EXPECT_EQ(w.error, 0);
        EXPECT_EQ(w.resultBytes, 4096);
        auto st = engine->closeFile(0);
        ASSERT_TRUE(st.ok()) << st.error().toString();
        const auto closed = oneRequest(*engine, 0, core::IoDirection::Read, 0);
        EXPECT_NE(closed.error, 0) << "I/O on a closed file must fail";
        st = engine->openFile(0, {path, true, core::CacheMode::Direct, false});
        ASSERT_TRUE(st.ok()) << st.error().toString();
        std::memset(engine->buffer(0).data(), 0, 4096);
        const auto r = oneRequest(*engine, 0, core::IoDirection::Read, std::uint64_t(round) * 4096);
        EXPECT_EQ(r.error, 0);
        EXPECT_EQ(r.resultBytes, 4096);
        EXPECT_TRUE(matchesPattern(engine->buffer(0).first(4096), 7, std::uint64_t(round) * 4096))
            << "round " << round;
    }
    engine.reset();
    const auto bytes = readAll(path);
    EXPECT_TRUE(matchesPattern(std::as_bytes(std::span(bytes)).subspan(8192, 4096), 7, 8192));
}

TYPED_TEST_P(EngineConformance, OpenAndCloseRefuseIndicesInTheWrongState)
{
    const auto path = this->makeFile("a", 65536);
    auto engine
        = this->makeEngine({{path, false, core::CacheMode::Direct, false}, {.openLater = true}}, 2);
    ASSERT_TRUE(engine);
    const core::EngineFile file {path, false, core::CacheMode::Direct, false};

    auto st = engine->openFile(0, file);
    ASSERT_FALSE(st.ok()) << "index 0 is open already";
    EXPECT_EQ(st.error().code, std::errc::device_or_resource_busy) << st.error().toString();
    st = engine->closeFile(1);
    ASSERT_FALSE(st.ok()) << "index 1 was never opened";
    EXPECT_EQ(st.error().code, std::errc::bad_file_descriptor) << st.error().toString();
    st = engine->openFile(2, file);
    ASSERT_FALSE(st.ok()) << "index 2 was not reserved";
    EXPECT_EQ(st.error().code, std::errc::invalid_argument) << st.error().toString();
    st = engine->closeFile(2);
    ASSERT_FALSE(st.ok());

    // A missing file: the error names it, and the index stays closed for the next try.
    const auto missing = (this->m_dir->path() / "missing").string();
    st = engine->openFile(1, {missing, false, core::CacheMode::Direct, false});
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code, std::errc::no_such_file_or_directory) << st.error().toString();
    EXPECT_EQ(st.error().path, missing);
    EXPECT_TRUE(engine->openFile(1, file).ok());
    EXPECT_TRUE(engine->closeFile(1).ok());
    EXPECT_TRUE(engine->closeFile(0).ok());
}

REGISTER_TYPED_TEST_SUITE_P(EngineConformance,
    WritesThenReadsBackDistinctPatternsAcrossTwoFilesAtQd32, WritesThenReadsBackAtQd1,
    ReapReturnsZeroAtOnceWhenNothingIsInFlight, MisalignedDirectLengthCompletesWithInvalidArgument,
    MisalignedDirectWriteIsRefusedAndLeavesTheFileUnchanged, ReadsAtAndAcrossEndOfFileAreShort,
    RequestWithBadIndexCompletesWithInvalidArgumentInsteadOfCorrupting,
    ReapHonoursTimeoutThenDeliversTheLateCompletion, QueueSaysFullAtQueueDepth,
    BuffersAreAlignedAndDistinct, InitReportsTheMissingFile,
    OpenLaterIndexTakesFilesOpenedWhileRunning,
    AFileInitOpenedClosesAndReopensAndItsIoWorksAfterwards,
    OpenAndCloseRefuseIndicesInTheWrongState);

} // namespace ioprism::test
