// SPDX-License-Identifier: GPL-3.0-or-later
// core::Latch: the run's start and ready gates. Many short cycles, the pattern that lost
// wake-ups with libstdc++ 12's std::latch on MinGW (see core/run/latch.h).
#include "core/run/latch.h"

#include <atomic>
#include <chrono>
#include <gtest/gtest.h>
#include <thread>
#include <vector>

using ioprism::core::Latch;

TEST(Latch, ReleasesEveryWaiterInHundredsOfStartCycles)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (int cycle = 0; cycle < 500; ++cycle) {
        Latch ready(3), start(1);
        std::atomic<int> started {0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 2; ++t)
            threads.emplace_back([&] {
                ready.count_down();
                start.wait();
                ++started;
            });
        ready.arrive_and_wait();
        start.count_down();
        for (auto &t : threads)
            t.join();
        ASSERT_EQ(started.load(), 2);
        ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "stuck at cycle " << cycle;
    }
}

TEST(Latch, IsOpenOnlyOnceCountedDown)
{
    Latch latch(2);
    EXPECT_FALSE(latch.try_wait());
    latch.count_down();
    EXPECT_FALSE(latch.try_wait());
    latch.count_down();
    EXPECT_TRUE(latch.try_wait());
    latch.wait(); // returns at once
}
