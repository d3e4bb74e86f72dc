#include "platform/linux/sync_engine.h"

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

TEST_F(SyncEngineTest, QueueDepthAboveTheThreadLimitIsRefused)
{
    SyncEngine engine;
    const std::vector<core::EngineFile> files {{file(), false, core::CacheMode::Direct, false}};
    auto st = engine.init({.queueDepth = SyncEngine::kMaxQueueDepth + 1, .bufferCount = 1}, files);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code.value(), EINVAL);
    EXPECT_EQ(engine.threadCount(), 0u);
}

TEST_F(SyncEngineTest, PolledCompletionsAreRefused)
{
    SyncEngine engine;
    const std::vector<core::EngineFile> files {{file(), false, core::CacheMode::Direct, false}};
    auto st = engine.init({.queueDepth = 1, .bufferCount = 1, .polledCompletions = true}, files);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code.value(), EOPNOTSUPP);
}

TEST_F(SyncEngineTest, DestroyingWithIoStillQueuedJoinsCleanly)
{
    const auto path = file(8 << 20);
    std::vector<core::IoRequest> reqs(64);
    {
        SyncEngine engine;
        const std::vector<core::EngineFile> files {{path, false, core::CacheMode::Direct, false}};
        ASSERT_TRUE(engine.init({.queueDepth = 64, .bufferCount = 64}, files).ok());
        for (std::uint32_t i = 0; i < reqs.size(); ++i) {
            reqs[i].bufferIndex = i;
            reqs[i].lengthBytes = 4096;
            reqs[i].offsetBytes = std::uint64_t(i) * 4096;
            ASSERT_TRUE(engine.queue(&reqs[i]));
        }
    } // the destructor stops and joins 64 threads, some mid-I/O
    SUCCEED();
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
