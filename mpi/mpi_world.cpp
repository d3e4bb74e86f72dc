// SPDX-License-Identifier: GPL-3.0-or-later
#include "mpi/mpi_world.h"

#include <algorithm>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <list>
#include <mpi.h>
#include <mutex>
#include <optional>
#include <thread>

namespace ioprism::mpi {

namespace {

// One tag for everything: messages between two ranks then arrive in the order they were
// sent (MPI's non-overtaking rule holds per sender, communicator and matching receive).
constexpr int kTag = 7355;

// How long the pump sleeps when nothing moves, since MPI says nothing of a message that
// arrives (it is seen at the next MPI_Iprobe): every millisecond for 50 ms after an
// exchange moved (a text message either way, or a close: a clock sample's round trip, a
// step's ready and go, a request and its answer, where an answer may follow at once),
// else every 10 ms, and every 100 ms while the results stream (a binary message moved
// within the last second: the ranks are measuring). The results' stream (intervals, step
// results) is answered by nothing and does not start the fast polls: on rank 0, which
// receives every rank's interval every 100 ms, it kept the pump polling every millisecond
// for the whole run. Outside it (connecting, preparing) the 10 ms keep rank 0's opening
// of every rank one after another quick: at 100 ms there, 16 ranks took 11.5 s to start
// and end a 1 s run instead of 4.3 s, and at 200 ms the last rank's hello came after its
// 10 s limit. What comes unannounced — a step's go long after the rank said it was ready,
// a stop — is seen within the idle poll: rank 0 starts each step 250 ms after the last
// rank is ready (app/mpi/main.cpp), well past it. A stonewalled run polls every 10 ms
// (World::setIdlePoll): there the first rank's "done" and rank 0's "end the step" come
// unannounced too, and each poll's wait is I/O the other ranks do past the amount.
// Each wake costs an MPI_Iprobe, whose progress engine yields the CPU when idle and the
// host is oversubscribed: with 16 ranks on 2 cores, polling every millisecond cost 2.6 %
// of their IOPS (bench/mpi-overhead); the ranks' workers got 4 % less CPU than alone
// with 10 ms and fast polls after every interval, 2.0 to 2.4 % with 50 or 100 ms, 1.3 %
// once small binary messages in flight were no longer polled for (docs/performance.md).
constexpr auto kBusyPoll = std::chrono::milliseconds(1);
constexpr auto kBusyWindow = std::chrono::milliseconds(50);
constexpr auto kQuietPoll = std::chrono::milliseconds(10);
constexpr auto kStreamWindow = std::chrono::seconds(1);
// A small binary message in flight (an interval of a few workers and targets) does not
// make the polls fast: MPI sends it eagerly, as a rule into the peer's queue as it is
// handed over, and only its request waits for a later call to be marked done. Polling
// for that took two to three more wakes per interval on every rank: with 16 ranks and
// 1.5 KiB intervals a rank's pump took 14 ms of CPU per 6 s, 4.2 ms without. When the
// peer's queue is full the message waits in the sender's MPI for its next call: at most
// one idle poll, since every wake calls MPI. A heuristic, not a guarantee: Open MPI's
// shared memory sends eagerly up to 4 KiB with its header (its TCP and UCX transports
// further); a larger message may need the sender's progress to move on (a rendezvous)
// and is polled for as an exchange is.
constexpr std::size_t kEagerBytes = 4096 - 256;

std::string closedByPeer(int peer)
{
    return "rank " + std::to_string(peer) + " closed its channel";
}

} // namespace

struct World::Wake {
    std::mutex mutex;
    std::condition_variable cv;
    bool pending = false; // something to send, or the work has returned
    bool workDone = false;
    void notify()
    {
        {
            std::lock_guard lock(mutex);
            pending = true;
        }
        cv.notify_one();
    }
};

struct World::Endpoint {
    int peer = 0;
    std::shared_ptr<Wake> wake;

    std::mutex mutex; // guards what follows
    std::deque<std::string> outbox; // queued by send(), taken by the pump
    std::deque<std::string> inbox; // arrived before start()
    bool started = false;
    bool closeRequested = false; // close() called, or the peer's close answered
    bool closeSent = false; // the empty message handed to MPI
    bool closeReceived = false;
    bool closedDelivered = false;
    std::string closedReason;
    core::MessageChannel::OnMessage onMessage;
    core::MessageChannel::OnClosed onClosed;

    // Held while a callback runs: the channel's destructor takes it, so that no callback
    // runs after the channel is gone.
    std::mutex callbackMutex;
    bool destroyed = false; // under callbackMutex

    bool ended()
    {
        std::lock_guard lock(mutex);
        return closeSent && closeReceived;
    }
};

namespace {

class MpiChannel final : public core::MessageChannel
{
public:
    explicit MpiChannel(std::shared_ptr<World::Endpoint> endpoint)
        : m_endpoint(std::move(endpoint))
    { }
    ~MpiChannel() override
    {
        close();
        std::lock_guard callbacks(m_endpoint->callbackMutex);
        m_endpoint->destroyed = true;
    }

    void start(OnMessage onMessage, OnClosed onClosed) override
    {
        {
            std::lock_guard lock(m_endpoint->mutex);
            m_endpoint->onMessage = std::move(onMessage);
            m_endpoint->onClosed = std::move(onClosed);
            m_endpoint->started = true;
        }
        // What arrived before start() is delivered by the pump, on its thread.
        m_endpoint->wake->notify();
    }

    bool send(std::string text) override
    {
        if (text.empty())
            return true; // an empty message is the channel's close: an agent never sends one
        {
            std::lock_guard lock(m_endpoint->mutex);
            if (m_endpoint->closeRequested || m_endpoint->closeReceived)
                return false;
            m_endpoint->outbox.push_back(std::move(text));
        }
        m_endpoint->wake->notify();
        return true;
    }

    void close() override
    {
        {
            std::lock_guard lock(m_endpoint->mutex);
            if (m_endpoint->closeRequested)
                return;
            m_endpoint->closeRequested = true;
        }
        m_endpoint->wake->notify();
    }

    std::string peer() const override { return "rank " + std::to_string(m_endpoint->peer); }

private:
    std::shared_ptr<World::Endpoint> m_endpoint;
};

// A send in flight: its buffer must live until MPI_Test says it is done.
struct Sending {
    std::string text;
    MPI_Request request = MPI_REQUEST_NULL;
    // The pump polls fast until it is done: a text message or a close (an answer may
    // follow), or a message larger than MPI sends eagerly (see kEagerBytes).
    bool watched = false;
};

} // namespace

World::World(int &argc, char **&argv)
    : m_wake(std::make_shared<Wake>())
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m_size);
    m_endpoints.resize(static_cast<std::size_t>(m_size));
}

World::~World()
{
    MPI_Finalize();
}

std::vector<std::string> World::gather(const std::string &mine) const
{
    const int length = static_cast<int>(std::min<std::size_t>(mine.size(), INT_MAX));
    std::vector<int> lengths(static_cast<std::size_t>(m_size));
    MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD);
    std::vector<int> offsets(lengths.size());
    long long total = 0;
    for (std::size_t r = 0; r < lengths.size(); ++r) {
        offsets[r] = static_cast<int>(total);
        total += lengths[r];
    }
    std::string all(static_cast<std::size_t>(total), '\0');
    MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(),
        MPI_CHAR, MPI_COMM_WORLD);
    std::vector<std::string> out;
    out.reserve(lengths.size());
    for (std::size_t r = 0; r < lengths.size(); ++r)
        out.push_back(
            all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
    return out;
}

std::string World::broadcast(const std::string &value) const
{
    int length = m_rank == 0 ? static_cast<int>(std::min<std::size_t>(value.size(), INT_MAX)) : 0;
    MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::string out = m_rank == 0 ? value.substr(0, static_cast<std::size_t>(length))
                                  : std::string(static_cast<std::size_t>(length), '\0');
    MPI_Bcast(out.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
    return out;
}

std::unique_ptr<core::MessageChannel> World::channel(int peer)
{
    if (peer < 0 || peer >= m_size || peer == m_rank)
        return nullptr;
    auto &slot = m_endpoints[static_cast<std::size_t>(peer)];
    if (slot)
        return nullptr;
    slot = std::make_shared<Endpoint>();
    slot->peer = peer;
    slot->wake = m_wake;
    return std::make_unique<MpiChannel>(slot);
}

int World::serve(std::function<int()> work, std::chrono::milliseconds drain)
{
    int result = 0;
    std::thread worker([&] {
        // No exception ends the job: it is said, and the rank ends with status 1.
        try {
            result = work();
        } catch (const std::exception &e) {
            std::fprintf(stderr, "ioprism-mpi: rank %d: %s\n", m_rank, e.what());
            result = 1;
        } catch (...) {
            std::fprintf(stderr, "ioprism-mpi: rank %d: an unknown exception\n", m_rank);
            result = 1;
        }
        {
            std::lock_guard lock(m_wake->mutex);
            m_wake->workDone = true;
            m_wake->pending = true;
        }
        m_wake->cv.notify_one();
    });
    pump(drain);
    worker.join();
    return result;
}

void World::pump(std::chrono::milliseconds drain)
{
    std::list<Sending> sending;
    std::optional<std::chrono::steady_clock::time_point> giveUpAt;
    auto lastExchange = std::chrono::steady_clock::now();
    std::optional<std::chrono::steady_clock::time_point> lastStreamed; // a binary message

    // Delivers what an endpoint has for its owner: messages in order, then the end once.
    auto deliver = [](Endpoint &e) {
        std::unique_lock lock(e.mutex);
        if (!e.started)
            return;
        while (!e.inbox.empty()) {
            std::string text = std::move(e.inbox.front());
            e.inbox.pop_front();
            auto onMessage = e.onMessage;
            lock.unlock();
            {
                std::lock_guard callbacks(e.callbackMutex);
                if (!e.destroyed && onMessage)
                    onMessage(std::move(text));
            }
            lock.lock();
        }
        const bool ended = e.closeReceived || (e.closeRequested && e.closeSent);
        if (ended && !e.closedDelivered) {
            e.closedDelivered = true;
            auto onClosed = e.onClosed;
            const std::string reason = e.closedReason;
            lock.unlock();
            std::lock_guard callbacks(e.callbackMutex);
            if (!e.destroyed && onClosed)
                onClosed(reason);
        }
    };

    for (;;) {
        bool received = false;
        bool exchanged = false; // a text message or a close moved, either way
        bool streamed = false; // a binary message moved, either way
        bool workDone = false;
        {
            std::lock_guard lock(m_wake->mutex);
            workDone = m_wake->workDone;
            m_wake->pending = false;
        }
        // Outgoing: what the channels queued, then their close.
        for (const auto &endpoint : m_endpoints) {
            if (!endpoint)
                continue;
            std::deque<std::string> out;
            {
                std::lock_guard lock(endpoint->mutex);
                if (workDone && !endpoint->closeRequested)
                    endpoint->closeRequested = true; // the work is over: close what it left
                out.swap(endpoint->outbox);
                if (endpoint->closeRequested && !endpoint->closeSent) {
                    endpoint->closeSent = true;
                    out.emplace_back(); // the empty message is the close; the peer answers it
                }
            }
            for (auto &text : out) {
                // Text and the close are exchanges (an answer may follow): polled for until
                // done, as a binary message past the eager size is; see kEagerBytes.
                const bool binary = core::isBinaryMessage(text);
                (binary ? streamed : exchanged) = true;
                const bool watched = !binary || text.size() > kEagerBytes;
                auto &s
                    = sending.emplace_back(Sending {std::move(text), MPI_REQUEST_NULL, watched});
                MPI_Isend(s.text.data(), static_cast<int>(s.text.size()), MPI_BYTE, endpoint->peer,
                    kTag, MPI_COMM_WORLD, &s.request);
            }
        }
        for (auto it = sending.begin(); it != sending.end();) {
            int done = 0;
            MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
            it = done ? sending.erase(it) : std::next(it);
        }
        // Incoming.
        for (;;) {
            int flag = 0;
            MPI_Status status;
            MPI_Iprobe(MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &flag, &status);
            if (!flag)
                break;
            int count = 0;
            MPI_Get_count(&status, MPI_BYTE, &count);
            std::string text(static_cast<std::size_t>(count), '\0');
            MPI_Recv(text.data(), count, MPI_BYTE, status.MPI_SOURCE, kTag, MPI_COMM_WORLD,
                MPI_STATUS_IGNORE);
            received = true;
            (core::isBinaryMessage(text) ? streamed : exchanged) = true;
            const auto source = static_cast<std::size_t>(status.MPI_SOURCE);
            if (source >= m_endpoints.size() || !m_endpoints[source])
                continue; // a rank with no channel here: nothing to tell
            Endpoint &e = *m_endpoints[source];
            std::lock_guard lock(e.mutex);
            if (text.empty()) {
                if (!e.closeReceived) {
                    e.closeReceived = true;
                    if (!e.closeRequested) {
                        e.closeRequested = true; // answered with our own close
                        e.closedReason = closedByPeer(e.peer);
                    }
                }
            } else if (!e.closeReceived && !e.closeRequested) {
                // After this side's close nothing more is delivered: onClosed is the last.
                e.inbox.push_back(std::move(text));
            }
        }
        for (const auto &endpoint : m_endpoints)
            if (endpoint)
                deliver(*endpoint);

        if (workDone) {
            bool allEnded = sending.empty();
            for (const auto &endpoint : m_endpoints)
                allEnded = allEnded && (!endpoint || endpoint->ended());
            if (allEnded)
                break;
            const auto now = std::chrono::steady_clock::now();
            if (!giveUpAt)
                giveUpAt = now + drain;
            if (now >= *giveUpAt) {
                std::fprintf(stderr,
                    "ioprism-mpi: rank %d: a peer did not answer the end of its channel "
                    "within %lld ms: leaving without it\n",
                    m_rank, static_cast<long long>(drain.count()));
                for (auto &s : sending)
                    MPI_Cancel(&s.request);
                break;
            }
        }
        const auto now = std::chrono::steady_clock::now();
        if (exchanged)
            lastExchange = now;
        if (streamed)
            lastStreamed = now;
        // What arrived may be followed at once (a batch of intervals, a request's parts).
        // What was sent needs no second look: an answer to it is seen by the polls below,
        // and anything queued since woke the pump already (the wait returns at once).
        if (received)
            continue;
        // Fast while an exchange or a large message is in flight, or an exchange moved
        // lately (an answer may follow); else every 100 ms while the results stream, every
        // 10 ms outside it.
        const bool watchedInFlight = std::any_of(
            sending.begin(), sending.end(), [](const Sending &s) { return s.watched; });
        const bool busy = watchedInFlight || now - lastExchange < kBusyWindow;
        const bool streaming = lastStreamed && now - *lastStreamed < kStreamWindow;
        const auto poll = busy ? kBusyPoll
            : streaming        ? m_idlePoll
                               : std::min(m_idlePoll, kQuietPoll);
        std::unique_lock lock(m_wake->mutex);
        m_wake->cv.wait_for(lock, poll, [&] { return m_wake->pending; });
    }
}

void World::abort(int code) const
{
    std::fflush(stdout);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, code);
    std::abort(); // MPI_Abort does not return; the compiler is told so
}

} // namespace ioprism::mpi
