// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/linux/sync_engine.h"

#include <cstring>
#include <memory>
#include <thread>

#include "engine_conformance.h"
#include "platform_test_util.h"

namespace ioprism::test {
namespace {

using platform::SyncEngine;

INSTANTIATE_TYPED_TEST_SUITE_P(Sync, EngineConformance, SyncEngine);

class SyncEngineTest : public ::testing::Test
{
protected:
    TempDir m_dir {realFsDir()};
    std::string file(std::uint64_t bytes = 1 << 20)
    {
        const auto p = m_dir.path() / "f";
        writeFile(p, bytes);
        return p.string();
    }
};

TEST_F(SyncEngineTest, RunsOneThreadPerOutstandingIo)
{
    SyncEngine engine;
    const std::vector<core::EngineFile> files {{file(), false, core::CacheMode::Direct, false}};
    ASSERT_TRUE(engine.init({.queueDepth = 16, .bufferCount = 16}, files).ok());
    EXPECT_EQ(engine.threadCount(), 16u);
    EXPECT_TRUE(engine.capabilities().async);
    EXPECT_FALSE(engine.capabilities().registeredBuffers);
    EXPECT_EQ(engine.capabilities().maxQueueDepth, SyncEngine::kMaxQueueDepth);
}

TEST_F(SyncEngineTest, AtQueueDepthOneCommitDoesTheIoOnTheCallersThread)
{
    // No pool and no hand-off: nothing is done at queue(), all of it at commit(), and
    // reap() then needs no wait.
    const auto path = file();
    const auto bytes = readAll(path);
    SyncEngine engine;
    const std::vector<core::EngineFile> files {{path, false, core::CacheMode::Direct, false}};
    ASSERT_TRUE(engine.init({.queueDepth = 1, .bufferCount = 1}, files).ok());
    EXPECT_EQ(engine.threadCount(), 0u);
    core::IoRequest r;
    r.lengthBytes = 4096;
    r.offsetBytes = 8192;
    r.resultBytes = -1;
    ASSERT_TRUE(engine.queue(&r));
    EXPECT_FALSE(engine.queue(&r)) << "queue depth 1 holds one request";
    EXPECT_EQ(r.resultBytes, -1) << "the I/O was done at queue()";
    ASSERT_TRUE(engine.commit().ok());
    EXPECT_EQ(r.resultBytes, 4096) << "commit() returned before the I/O was done";
    std::vector<core::IoRequest *> completed(1);
    auto got = engine.reap(completed, 1, 0ns);
    ASSERT_TRUE(got.ok());
    ASSERT_EQ(*got, 1u);
    EXPECT_EQ(completed[0], &r);
    EXPECT_EQ(r.error, 0);
    const auto buf = engine.buffer(0);
    EXPECT_EQ(std::memcmp(buf.data(), bytes.data() + 8192, 4096), 0) << "not the file's bytes";

    // A caller that reaps without committing does not wait for what cannot come.
    r.resultBytes = -1;
    ASSERT_TRUE(engine.queue(&r));
    got = engine.reap(completed, 1, 30s);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, 1u);
    EXPECT_EQ(r.resultBytes, 4096);
}

TEST_F(SyncEngineTest, QueueDepthAboveTheThreadLimitIsRefused)
{
    SyncEngine engine;
    const std::vector<core::EngineFile> files {{file(), false, core::CacheMode::Direct, false}};
    auto st = engine.init({.queueDepth = SyncEngine::kMaxQueueDepth + 1, .bufferCount = 1}, files);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code.value(), EINVAL);
    EXPECT_EQ(engine.threadCount(), 0u);
}

TEST_F(SyncEngineTest, DestroyingWithIoStillQueuedJoinsCleanly)
{
    // The destructor stops and joins 64 threads, some mid-I/O, and drops the requests no
    // thread has started. Afterwards no thread may still touch a request: each one is
    // either untouched (the sentinel) or fully done, and stays so.
    constexpr std::int64_t kUntouched = -1;
    const auto path = file(8 << 20);
    const auto before = readAll(path);
    std::vector<core::IoRequest> reqs(64);
    auto engine = std::make_unique<SyncEngine>();
    const std::vector<core::EngineFile> files {{path, false, core::CacheMode::Direct, false}};
    ASSERT_TRUE(engine->init({.queueDepth = 64, .bufferCount = 64}, files).ok());
    ASSERT_EQ(engine->threadCount(), 64u);
    for (std::uint32_t i = 0; i < reqs.size(); ++i) {
        reqs[i].bufferIndex = i;
        reqs[i].lengthBytes = 4096;
        reqs[i].offsetBytes = std::uint64_t(i) * 4096;
        reqs[i].resultBytes = kUntouched;
        reqs[i].error = -1;
        ASSERT_TRUE(engine->queue(&reqs[i]));
    }
    const auto start = std::chrono::steady_clock::now();
    engine.reset();
    EXPECT_LT(std::chrono::steady_clock::now() - start, 10s)
        << "the destructor waited for more than the I/O in progress";

    std::size_t done = 0;
    for (std::uint32_t i = 0; i < reqs.size(); ++i) {
        SCOPED_TRACE("request " + std::to_string(i));
        if (reqs[i].resultBytes == kUntouched) {
            EXPECT_EQ(reqs[i].error, -1) << "a dropped request was half completed";
        } else {
            EXPECT_EQ(reqs[i].error, 0);
            EXPECT_EQ(reqs[i].resultBytes, 4096);
            ++done;
        }
    }
    const auto snapshot = reqs;
    std::this_thread::sleep_for(100ms);
    for (std::uint32_t i = 0; i < reqs.size(); ++i) {
        EXPECT_EQ(reqs[i].resultBytes, snapshot[i].resultBytes)
            << "request " << i << " changed after the join";
        EXPECT_EQ(reqs[i].error, snapshot[i].error) << "request " << i;
    }
    EXPECT_EQ(readAll(path), before) << "reads only: the file must be as it was";
    RecordProperty("completedBeforeTheJoin", static_cast<int>(done));
}

TEST_F(SyncEngineTest, CompletionsArriveAsSoonAsMinimumIsReached)
{
    SyncEngine engine;
    const std::vector<core::EngineFile> files {{file(), false, core::CacheMode::Direct, false}};
    ASSERT_TRUE(engine.init({.queueDepth = 8, .bufferCount = 8}, files).ok());
    std::vector<core::IoRequest> reqs(8);
    for (std::uint32_t i = 0; i < 8; ++i) {
        reqs[i].bufferIndex = i;
        reqs[i].lengthBytes = 4096;
        reqs[i].offsetBytes = i * 4096ull;
        ASSERT_TRUE(engine.queue(&reqs[i]));
    }
    std::vector<core::IoRequest *> completed(8);
    std::uint32_t total = 0;
    const auto start = std::chrono::steady_clock::now();
    while (total < 8) {
        auto got = engine.reap(std::span(completed).subspan(0, 8), 8 - total, 30s);
        ASSERT_TRUE(got.ok());
        total += *got;
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
    for (const auto &r : reqs)
        EXPECT_EQ(r.resultBytes, 4096);
}

} // namespace
} // namespace ioprism::test
