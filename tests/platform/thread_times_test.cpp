// SPDX-License-Identifier: GPL-3.0-or-later
// The sampler's reader of this process's threads (platform/linux/thread_times.h): real
// threads of the test process, read from /proc like a run's samples.
#include "core/counters.h"
#include "platform/linux/thread_times.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <gtest/gtest.h>
#include <latch>
#include <memory>
#include <optional>
#include <pthread.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

namespace {

using ioprism::core::ThreadTimes;
using ioprism::platform::OwnThreadReader;

std::int64_t currentThreadId()
{
    return static_cast<std::int64_t>(::syscall(SYS_gettid));
}

std::optional<ThreadTimes> find(const std::vector<ThreadTimes> &threads, std::int64_t id)
{
    auto it = std::find_if(threads.begin(), threads.end(), [&](auto &t) { return t.id == id; });
    return it == threads.end() ? std::nullopt : std::optional(*it);
}

// Uses `ns` of this thread's own CPU time (its CPU clock, not the wall clock: however
// busy the machine, the work done is the same).
void burnCpu(std::int64_t ns)
{
    const auto now = [] {
        timespec ts {};
        ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return std::int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
    };
    const std::int64_t until = now() + ns;
    volatile std::uint64_t sink = 0;
    while (now() < until)
        sink = sink + 1;
}

std::size_t openDescriptors()
{
    std::size_t n = 0;
    for ([[maybe_unused]] const auto &e : std::filesystem::directory_iterator("/proc/self/fd"))
        ++n;
    return n;
}

// Whether thread `id` is still listed in /proc/self/task. A joined thread stays there
// until the kernel has released it, a little after pthread_join returned.
bool listed(std::int64_t id)
{
    return std::filesystem::exists("/proc/self/task/" + std::to_string(id));
}

// Waits until the threads in `ids` have left /proc/self/task (bounded: 60 s, which only
// a broken kernel would need; the outcome, not the time, is what the tests look at).
void awaitGone(const std::vector<std::int64_t> &ids)
{
    for (int i = 0; i < 60'000; ++i) {
        if (std::none_of(ids.begin(), ids.end(), listed))
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

// A thread that runs `body` with its id published, then waits to be let go.
class TestThread
{
public:
    template<typename Body>
    explicit TestThread(Body body)
        : m_thread([this, body] {
            m_id = currentThreadId();
            body();
            m_ready.count_down();
            m_go.wait();
        })
    {
        m_ready.wait();
    }
    ~TestThread() { end(); }
    std::int64_t id() const { return m_id; }
    pthread_t handle() { return m_thread.native_handle(); }
    void end()
    {
        if (m_thread.joinable()) {
            m_go.count_down();
            m_thread.join();
        }
    }

private:
    std::int64_t m_id = 0;
    std::latch m_ready {1};
    std::latch m_go {1};
    std::thread m_thread;
};

TEST(OwnThreadReader, AWorkersCpuTimeGrowsFromOneReadToTheNext)
{
    OwnThreadReader reader;
    std::vector<ThreadTimes> first, second;
    TestThread worker(
        [] { ::pthread_setname_np(::pthread_self(), ioprism::core::kWorkerThreadName); });
    ASSERT_TRUE(reader.read(first));
    const auto before = find(first, worker.id());
    ASSERT_TRUE(before);
    EXPECT_EQ(before->kind, ThreadTimes::Kind::Worker);

    // This thread's own CPU time, read through the kept files: it must move.
    const auto self = find(first, currentThreadId());
    ASSERT_TRUE(self);
    burnCpu(20'000'000);
    ASSERT_TRUE(reader.read(second));
    const auto after = find(second, currentThreadId());
    ASSERT_TRUE(after);
    EXPECT_GE(after->cpuNs, self->cpuNs + 10'000'000) << "schedstat read again from its start";
    EXPECT_EQ(after->kind, ThreadTimes::Kind::Other);
}

TEST(OwnThreadReader, AThreadThatNamesItselfLaterIsSeenUnderItsNewName)
{
    OwnThreadReader reader;
    std::vector<ThreadTimes> threads;
    TestThread t([] { ::pthread_setname_np(::pthread_self(), "not-a-worker"); });
    ASSERT_TRUE(reader.read(threads));
    ASSERT_TRUE(find(threads, t.id()));
    EXPECT_EQ(find(threads, t.id())->kind, ThreadTimes::Kind::Other);
    ::pthread_setname_np(t.handle(), ioprism::core::kWorkerThreadName);
    ASSERT_TRUE(reader.read(threads));
    ASSERT_TRUE(find(threads, t.id()));
    EXPECT_EQ(find(threads, t.id())->kind, ThreadTimes::Kind::Worker) << "comm read each time";
}

TEST(OwnThreadReader, AThreadThatEndedIsLetGoAndANewOneIsFound)
{
    OwnThreadReader reader;
    std::vector<ThreadTimes> threads;
    auto first = std::make_unique<TestThread>([] {});
    ASSERT_TRUE(reader.read(threads));
    ASSERT_TRUE(find(threads, first->id()));
    const std::size_t open = reader.openThreads();
    const std::int64_t firstId = first->id();
    first.reset(); // joined: its files now answer nothing and its id goes
    awaitGone({firstId});

    ASSERT_TRUE(reader.read(threads));
    EXPECT_FALSE(find(threads, firstId));
    EXPECT_EQ(reader.openThreads(), open - 1);

    TestThread second([] {});
    ASSERT_TRUE(reader.read(threads));
    EXPECT_TRUE(find(threads, second.id()));
    EXPECT_EQ(reader.openThreads(), open);
}

TEST(OwnThreadReader, ReadingAgainAndAgainOpensNothingMore)
{
    OwnThreadReader reader;
    std::vector<ThreadTimes> threads;
    TestThread a([] {});
    TestThread b([] {});
    ASSERT_TRUE(reader.read(threads));
    const std::size_t descriptors = openDescriptors();
    for (int i = 0; i < 200; ++i)
        ASSERT_TRUE(reader.read(threads));
    EXPECT_EQ(openDescriptors(), descriptors);
    EXPECT_EQ(threads.size(), reader.openThreads());
}

TEST(OwnThreadReader, PastItsBudgetThreadsAreReadWithoutKeepingTheirFiles)
{
    OwnThreadReader reader;
    std::vector<ThreadTimes> threads;
    std::vector<std::unique_ptr<TestThread>> many;
    for (std::size_t i = 0; i < OwnThreadReader::kKeptThreads + 8; ++i)
        many.push_back(std::make_unique<TestThread>([] {}));
    ASSERT_TRUE(reader.read(threads));
    EXPECT_EQ(reader.openThreads(), OwnThreadReader::kKeptThreads);
    const std::size_t descriptors = openDescriptors();
    ASSERT_TRUE(reader.read(threads));
    EXPECT_EQ(openDescriptors(), descriptors) << "those past the budget are closed again";
    for (const auto &t : many)
        EXPECT_TRUE(find(threads, t->id())) << "every thread is read, kept or not";

    // Threads that end make room, at once, for the ones that replace them (a run's next
    // step has new workers) and for those read without kept files so far.
    std::vector<std::int64_t> ended;
    for (int i = 0; i < 20; ++i) {
        ended.push_back(many.front()->id());
        many.erase(many.begin());
    }
    awaitGone(ended);
    for (int i = 0; i < 20; ++i)
        many.push_back(std::make_unique<TestThread>([] {}));
    ASSERT_TRUE(reader.read(threads));
    EXPECT_EQ(reader.openThreads(), OwnThreadReader::kKeptThreads);
    for (const auto &t : many)
        EXPECT_TRUE(find(threads, t->id()));
    for (const std::int64_t id : ended)
        EXPECT_FALSE(find(threads, id));
}

TEST(OwnThreadReader, ItsFilesCloseWithIt)
{
    const std::size_t descriptors = openDescriptors();
    {
        OwnThreadReader reader;
        std::vector<ThreadTimes> threads;
        ASSERT_TRUE(reader.read(threads));
        EXPECT_GT(openDescriptors(), descriptors);
    }
    EXPECT_EQ(openDescriptors(), descriptors);
}

} // namespace
