// The engine contract, tested the same way for every Linux engine: a typed test suite
// that uring_engine_test.cpp and sync_engine_test.cpp instantiate with their engine.
#pragma once

#include "core/engine.h"

#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <gtest/gtest.h>
#include <memory>
#include <numeric>
#include <random>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "platform_test_util.h"

namespace ioprism::test {

using namespace std::chrono_literals;

// The 8-byte word at `index` of a block identified by (file, offset): every block's
// content is distinct, so a read landing on the wrong file or offset is caught.
inline std::uint64_t patternWord(std::uint32_t file, std::uint64_t offset, std::size_t index)
{
    std::uint64_t z
        = (std::uint64_t(file) << 48) ^ offset ^ (std::uint64_t(index) * 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

inline void fillPattern(std::span<std::byte> buf, std::uint32_t file, std::uint64_t offset)
{
    for (std::size_t i = 0; i + 8 <= buf.size(); i += 8) {
        const std::uint64_t w = patternWord(file, offset, i / 8);
        std::memcpy(buf.data() + i, &w, 8);
    }
}

inline bool matchesPattern(std::span<const std::byte> buf, std::uint32_t file, std::uint64_t offset)
{
    for (std::size_t i = 0; i + 8 <= buf.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, buf.data() + i, 8);
        if (w != patternWord(file, offset, i / 8))
            return false;
    }
    return true;
}

struct TestOp {
    std::uint32_t file = 0;
    std::uint64_t offset = 0;
    core::IoDirection direction = core::IoDirection::Read;
    std::uint32_t length = 4096;
};

// Runs `ops` keeping up to `depth` in flight: queue as many as fit, commit, reap at
// least one. `before` fills a write buffer; `after` checks each completion. Fails the
// test (and returns false) if the engine stalls for 10 s or refuses a slot it has.
inline bool runOps(core::IoEngine &engine, const std::vector<TestOp> &ops, std::uint32_t depth,
    const std::function<void(const TestOp &, std::span<std::byte>)> &before,
    const std::function<void(const TestOp &, const core::IoRequest &, std::span<std::byte>)> &after,
    std::uint32_t *maxInFlight = nullptr)
{
    std::vector<core::IoRequest> slots(depth);
    std::vector<std::uint32_t> freeSlots(depth);
    std::iota(freeSlots.rbegin(), freeSlots.rend(), 0u);
    std::vector<core::IoRequest *> completed(depth);
    std::size_t next = 0;
    std::uint32_t inFlight = 0;
    while (next < ops.size() || inFlight > 0) {
        while (next < ops.size() && !freeSlots.empty()) {
            const std::uint32_t s = freeSlots.back();
            core::IoRequest &r = slots[s];
            const TestOp &op = ops[next];
            r = {};
            r.direction = op.direction;
            r.fileIndex = op.file;
            r.bufferIndex = s;
            r.lengthBytes = op.length;
            r.offsetBytes = op.offset;
            r.userData = next;
            if (before)
                before(op, engine.buffer(s).first(op.length));
            if (!engine.queue(&r)) {
                ADD_FAILURE() << "queue() refused slot " << s << " with " << inFlight
                              << " in flight";
                return false;
            }
            freeSlots.pop_back();
            ++next;
            ++inFlight;
        }
        if (maxInFlight)
            *maxInFlight = std::max(*maxInFlight, inFlight);
        if (auto st = engine.commit(); !st) {
            ADD_FAILURE() << st.error().toString();
            return false;
        }
        auto got = engine.reap(completed, 1, 10s);
        if (!got) {
            ADD_FAILURE() << got.error().toString();
            return false;
        }
        if (*got == 0) {
            ADD_FAILURE() << "no completion within 10 s with " << inFlight << " in flight";
            return false;
        }
        for (std::uint32_t i = 0; i < *got; ++i) {
            core::IoRequest *r = completed[i];
            const TestOp &op = ops[r->userData];
            if (after)
                after(op, *r, engine.buffer(r->bufferIndex).first(op.length));
            freeSlots.push_back(r->bufferIndex);
            --inFlight;
        }
    }
    return true;
}

template<typename Engine> class EngineConformance : public ::testing::Test
{
protected:
    void SetUp() override { m_dir = std::make_unique<TempDir>(realFsDir()); }

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
    std::uint32_t maxInFlight = 0;
    ASSERT_TRUE(runOps(
        *engine, writes, 32,
        [](const TestOp &op, std::span<std::byte> buf) { fillPattern(buf, op.file, op.offset); },
        [&](const TestOp &op, const core::IoRequest &r, std::span<std::byte>) {
            EXPECT_EQ(r.error, 0) << "write at " << op.offset;
            EXPECT_EQ(r.resultBytes, kBlock);
            ++done;
        },
        &maxInFlight));
    EXPECT_EQ(done, writes.size());
    EXPECT_EQ(maxInFlight, 32u);

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

TYPED_TEST_P(EngineConformance, MisalignedDirectLengthCompletesWithEinval)
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
    EXPECT_EQ(error, EINVAL);
}

TYPED_TEST_P(EngineConformance, ReadsAtAndAcrossEndOfFileAreShort)
{
    // 64 KiB + 1 KiB: a 4 KiB read at 64 KiB returns the last 1 KiB; one past it, 0.
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

TYPED_TEST_P(EngineConformance, RequestWithBadIndexCompletesWithEinvalInsteadOfCorrupting)
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
    EXPECT_EQ(bad.error, EINVAL);
}

TYPED_TEST_P(EngineConformance, ReapHonoursTimeoutThenDeliversTheLateCompletion)
{
    // A read from an empty FIFO stays pending until the test writes into it.
    const auto fifo = this->m_dir->path() / "fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto engine = this->makeEngine({{fifo.string(), true, core::CacheMode::Buffered, false}}, 2);
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

    const int w = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    ASSERT_GE(w, 0);
    ASSERT_EQ(::write(w, "hello, engine", 13), 13);
    ::close(w);
    got = engine->reap(completed, 1, 10s);
    ASSERT_TRUE(got.ok());
    ASSERT_EQ(*got, 1u);
    EXPECT_EQ(completed[0]->resultBytes, 13);
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
        {"/var/tmp/ioprism-does-not-exist", false, core::CacheMode::Direct, false}};
    auto st = engine.init({.queueDepth = 4, .bufferCount = 4}, files);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code.value(), ENOENT);
    EXPECT_EQ(st.error().path, files[0].path);
}

REGISTER_TYPED_TEST_SUITE_P(EngineConformance,
    WritesThenReadsBackDistinctPatternsAcrossTwoFilesAtQd32,
    ReapReturnsZeroAtOnceWhenNothingIsInFlight, MisalignedDirectLengthCompletesWithEinval,
    ReadsAtAndAcrossEndOfFileAreShort, RequestWithBadIndexCompletesWithEinvalInsteadOfCorrupting,
    ReapHonoursTimeoutThenDeliversTheLateCompletion, QueueSaysFullAtQueueDepth,
    BuffersAreAlignedAndDistinct, InitReportsTheMissingFile);

} // namespace ioprism::test
