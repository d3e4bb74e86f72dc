// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/agent/message_channel.h"

#include <array>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace ioprism::core {

namespace {

// The two ends' shared state. One mutex for both ends: a message moves from one end's
// send() into the other end's inbox, and the end of the channel is one fact for both.
struct Link {
    struct End {
        std::condition_variable wake;
        std::deque<std::string> inbox; // received, not yet delivered
        std::string closedReason; // what this end's onClosed says
        bool closedDelivered = false;
        bool destroyed = false; // the end's object is gone: deliver nothing more
        MessageChannel::OnMessage onMessage;
        MessageChannel::OnClosed onClosed;
    };
    std::mutex mutex;
    std::array<End, 2> ends;
    bool ended = false;

    // Ends the channel, seen from `closer`: its own reason is "", the peer's says why.
    void end(std::size_t closer, std::unique_lock<std::mutex> &)
    {
        if (ended)
            return;
        ended = true;
        ends[closer].closedReason.clear();
        ends[1 - closer].closedReason = "the peer closed the connection";
        ends[0].wake.notify_all();
        ends[1].wake.notify_all();
    }

    // The delivery thread of end `self`: its messages in order, then onClosed once. Uses
    // only the link (shared), never the end's object, which may be gone.
    void deliver(std::size_t self)
    {
        End &e = ends[self];
        std::unique_lock lock(mutex);
        for (;;) {
            e.wake.wait(lock, [&] { return e.destroyed || !e.inbox.empty() || ended; });
            if (e.destroyed)
                return;
            if (!e.inbox.empty()) {
                std::string text = std::move(e.inbox.front());
                e.inbox.pop_front();
                auto onMessage = e.onMessage; // a copy: called unlocked
                lock.unlock();
                if (onMessage)
                    onMessage(std::move(text));
                lock.lock();
                continue;
            }
            // Ended and everything received delivered.
            e.closedDelivered = true;
            auto onClosed = e.onClosed;
            const std::string reason = e.closedReason;
            lock.unlock();
            if (onClosed)
                onClosed(reason);
            return;
        }
    }
};

class MemoryChannel final : public MessageChannel
{
public:
    MemoryChannel(std::shared_ptr<Link> link, std::size_t self)
        : m_link(std::move(link))
        , m_self(self)
    { }

    ~MemoryChannel() override
    {
        {
            std::unique_lock lock(m_link->mutex);
            m_link->end(m_self, lock);
            auto &e = m_link->ends[m_self];
            e.destroyed = true;
            e.onMessage = nullptr;
            e.onClosed = nullptr;
            e.wake.notify_all();
        }
        if (!m_thread.joinable())
            return;
        // Destroyed from one of its own callbacks: the thread returns to a loop that sees
        // `destroyed` and ends, touching only the shared link.
        if (m_thread.get_id() == std::this_thread::get_id())
            m_thread.detach();
        else
            m_thread.join();
    }

    void start(OnMessage onMessage, OnClosed onClosed) override
    {
        std::unique_lock lock(m_link->mutex);
        if (m_thread.joinable())
            return;
        auto &e = m_link->ends[m_self];
        e.onMessage = std::move(onMessage);
        e.onClosed = std::move(onClosed);
        m_thread = std::thread([link = m_link, self = m_self] { link->deliver(self); });
    }

    bool send(std::string text) override
    {
        std::unique_lock lock(m_link->mutex);
        if (m_link->ended)
            return false;
        auto &peer = m_link->ends[1 - m_self];
        peer.inbox.push_back(std::move(text));
        peer.wake.notify_all();
        return true;
    }

    void close() override
    {
        std::unique_lock lock(m_link->mutex);
        m_link->end(m_self, lock);
    }

    std::string peer() const override { return "memory"; }

private:
    std::shared_ptr<Link> m_link;
    const std::size_t m_self;
    std::thread m_thread;
};

} // namespace

std::pair<std::unique_ptr<MessageChannel>, std::unique_ptr<MessageChannel>> makeChannelPair()
{
    auto link = std::make_shared<Link>();
    return {std::make_unique<MemoryChannel>(link, 0), std::make_unique<MemoryChannel>(link, 1)};
}

} // namespace ioprism::core
