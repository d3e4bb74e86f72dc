// SPDX-License-Identifier: GPL-3.0-or-later
// mpi/mpi_world.h under a real mpirun (tests/CMakeLists.txt runs this program on 3 ranks):
// what rank 0 and the others send arrives whole and in order, a large message too, binary
// messages of every size alone on the channel, and a channel's close reaches its peer
// with a reason while the other channels go on.
//
// Every rank runs every test, in the same order, each playing its part; a rank whose
// expectations fail makes mpirun, and so the test, fail.
#include "core/agent/message_channel.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <gtest/gtest.h>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "mpi/mpi_world.h"

namespace {

using namespace std::chrono_literals;

// What one channel has delivered.
struct Inbox {
    std::mutex mutex;
    std::condition_variable cv;
    std::deque<std::string> messages;
    std::optional<std::string> closedReason;

    // The next message, or nullopt after `limit` (a test that hangs would hang mpirun).
    std::optional<std::string> next(std::chrono::seconds limit = 60s)
    {
        std::unique_lock lock(mutex);
        if (!cv.wait_for(lock, limit, [&] { return !messages.empty(); }))
            return std::nullopt;
        std::string m = std::move(messages.front());
        messages.pop_front();
        return m;
    }
    std::optional<std::string> closed(std::chrono::seconds limit = 60s)
    {
        std::unique_lock lock(mutex);
        cv.wait_for(lock, limit, [&] { return closedReason.has_value(); });
        return closedReason;
    }
};

ioprism::mpi::World *world = nullptr;
std::map<int, std::unique_ptr<ioprism::core::MessageChannel>> channels; // by peer
std::map<int, std::unique_ptr<Inbox>> inboxes;

int rank()
{
    return world->rank();
}

std::string big()
{
    std::string text(8 * 1024 * 1024, 'x');
    for (std::size_t i = 0; i < text.size(); i += 4096)
        text[i] = char('a' + (i / 4096) % 26);
    return text;
}

TEST(MpiChannel, MessagesArriveWholeAndInOrderBothWays)
{
    if (rank() == 0) {
        for (int peer = 1; peer < world->size(); ++peer) {
            for (int i = 0; i < 200; ++i)
                ASSERT_TRUE(channels[peer]->send("m" + std::to_string(i)));
            ASSERT_TRUE(channels[peer]->send(big()));
            ASSERT_TRUE(channels[peer]->send("end"));
        }
        for (int peer = 1; peer < world->size(); ++peer) {
            for (int i = 0; i < 200; ++i)
                EXPECT_EQ(inboxes[peer]->next(), "echo m" + std::to_string(i)) << "from " << peer;
            EXPECT_EQ(inboxes[peer]->next(), "echo " + big());
            EXPECT_EQ(inboxes[peer]->next(), "echo end");
        }
        return;
    }
    for (;;) {
        auto m = inboxes[0]->next();
        ASSERT_TRUE(m.has_value()) << "rank " << rank() << " heard nothing from rank 0";
        ASSERT_TRUE(channels[0]->send("echo " + *m));
        if (*m == "end")
            break;
    }
}

// Binary messages are the results' stream (intervals, step results): the pump sends a
// small one and leaves its request to complete at a later wake, and watches a large one
// (past MPI's eager size) until it is done. Both kinds, alone on the channel with no text
// to wake anything, arrive whole and in order: first 300 small ones alone (more than the
// peer's shared-memory queue holds at once, so that some wait in the sender's MPI for
// its next call), then sizes on both sides of the 4 KiB eager size and past the 32 KiB
// first fragment of Open MPI's shared memory, ending with a small one.
std::string binary(std::size_t bytes, int i)
{
    std::string text(bytes, char('a' + i % 26));
    text.front() = ioprism::core::kBinaryMessageMark;
    const std::string index = std::to_string(i);
    std::copy(index.begin(), index.end(), text.begin() + 1);
    return text;
}

TEST(MpiChannel, BinaryMessagesSmallAndLargeArriveWholeAndInOrder)
{
    constexpr int kSmallOnly = 300;
    constexpr int kCount = kSmallOnly + 60;
    const auto sizeOf = [](int i) -> std::size_t {
        if (i < kSmallOnly || i == kCount - 1)
            return 1500;
        constexpr std::size_t kMixed[] = {1500, 3800, 3900, 4090, 4100, 6000, 200 * 1024};
        return kMixed[std::size_t(i) % std::size(kMixed)];
    };
    if (rank() != 0) {
        for (int i = 0; i < kCount; ++i)
            ASSERT_TRUE(channels[0]->send(binary(sizeOf(i), i)));
        return;
    }
    for (int peer = 1; peer < world->size(); ++peer)
        for (int i = 0; i < kCount; ++i) {
            const auto m = inboxes[peer]->next();
            ASSERT_TRUE(m.has_value()) << "message " << i << " from rank " << peer;
            EXPECT_EQ(*m, binary(sizeOf(i), i)) << "message " << i << " from rank " << peer;
        }
}

TEST(MpiChannel, ACloseReachesThePeerWithAReasonAndTheOthersGoOn)
{
    const int closer = world->size() - 1;
    if (rank() == closer) {
        channels[0]->close();
        EXPECT_EQ(inboxes[0]->closed(), "") << "this side closed it";
        EXPECT_FALSE(channels[0]->send("late"));
        return;
    }
    if (rank() == 0) {
        EXPECT_EQ(
            inboxes[closer]->closed(), "rank " + std::to_string(closer) + " closed its channel");
        EXPECT_FALSE(channels[closer]->send("to a closed channel"));
        for (int peer = 1; peer < closer; ++peer) {
            ASSERT_TRUE(channels[peer]->send("ping"));
            EXPECT_EQ(inboxes[peer]->next(), "pong");
        }
        return;
    }
    EXPECT_EQ(inboxes[0]->next(), "ping");
    EXPECT_TRUE(channels[0]->send("pong"));
}

} // namespace

int main(int argc, char **argv)
{
    ioprism::mpi::World w(argc, argv);
    world = &w;
    ::testing::InitGoogleTest(&argc, argv);
    if (w.size() < 3) {
        std::fprintf(stderr, "run on 3 ranks or more (mpirun -n 3)\n");
        return 2;
    }
    // Collectives, on the main thread before serve().
    const auto names = w.gather("rank-" + std::to_string(w.rank()));
    for (int r = 0; r < w.size(); ++r)
        if (names[std::size_t(r)] != "rank-" + std::to_string(r)) {
            std::fprintf(
                stderr, "gather: rank %d's entry is \"%s\"\n", r, names[std::size_t(r)].c_str());
            return 1;
        }
    if (w.broadcast(w.rank() == 0 ? "from zero" : "not this") != "from zero") {
        std::fprintf(stderr, "broadcast: rank %d did not get rank 0's value\n", w.rank());
        return 1;
    }
    for (int peer = 0; peer < w.size(); ++peer) {
        if (peer == w.rank() || (w.rank() != 0 && peer != 0))
            continue;
        channels[peer] = w.channel(peer);
        inboxes[peer] = std::make_unique<Inbox>();
        Inbox *inbox = inboxes[peer].get();
        channels[peer]->start(
            [inbox](std::string text) {
                std::lock_guard lock(inbox->mutex);
                inbox->messages.push_back(std::move(text));
                inbox->cv.notify_all();
            },
            [inbox](std::string reason) {
                std::lock_guard lock(inbox->mutex);
                inbox->closedReason = std::move(reason);
                inbox->cv.notify_all();
            });
    }
    const int failed = w.serve([] { return RUN_ALL_TESTS(); });
    channels.clear();
    return failed;
}
