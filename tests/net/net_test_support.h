// SPDX-License-Identifier: GPL-3.0-or-later
// What the transport's tests share: a recorder of what a channel delivers, and a listener
// that keeps the channels it is handed. Waits are on conditions with generous timeouts,
// never on sleeps.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <gtest/gtest.h>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "net/transport.h"

namespace ioprism::net::test {

// Long enough for a loaded CI machine; a test that waits this long has failed.
inline constexpr std::chrono::seconds kWait {60};

// Messages and ends of one channel, in the order they came.
class Recorder
{
public:
    core::MessageChannel::OnMessage onMessage()
    {
        return [this](std::string text) {
            std::lock_guard lock(m_mutex);
            if (m_closedCount > 0)
                ++m_messagesAfterClose;
            m_messages.push_back(std::move(text));
            if (m_echo)
                m_echo(m_messages.back());
            m_changed.notify_all();
        };
    }
    core::MessageChannel::OnClosed onClosed()
    {
        return [this](std::string reason) {
            std::lock_guard lock(m_mutex);
            ++m_closedCount;
            m_reason = std::move(reason);
            m_changed.notify_all();
        };
    }
    void start(core::MessageChannel &channel) { channel.start(onMessage(), onClosed()); }
    // Sends every message back on `channel` (from the channel's own thread).
    void echoOn(core::MessageChannel &channel)
    {
        std::lock_guard lock(m_mutex);
        m_echo = [&channel](const std::string &text) { channel.send(text); };
    }

    bool waitMessages(std::size_t count)
    {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, kWait, [&] { return m_messages.size() >= count; });
    }
    bool waitClosed()
    {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, kWait, [&] { return m_closedCount > 0; });
    }
    std::vector<std::string> messages()
    {
        std::lock_guard lock(m_mutex);
        return m_messages;
    }
    int closedCount()
    {
        std::lock_guard lock(m_mutex);
        return m_closedCount;
    }
    int messagesAfterClose()
    {
        std::lock_guard lock(m_mutex);
        return m_messagesAfterClose;
    }
    std::string reason()
    {
        std::lock_guard lock(m_mutex);
        return m_reason;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<std::string> m_messages;
    std::function<void(const std::string &)> m_echo;
    int m_closedCount = 0;
    int m_messagesAfterClose = 0;
    std::string m_reason;
};

// A listener whose channels and notices are kept for the test to take.
class Agent
{
public:
    core::Status listen(ListenOptions options)
    {
        auto listener = net::listen(
            std::move(options),
            [this](std::unique_ptr<core::MessageChannel> channel) {
                std::lock_guard lock(m_mutex);
                m_channels.push_back(std::move(channel));
                m_changed.notify_all();
            },
            [this](std::string text) {
                std::lock_guard lock(m_mutex);
                m_notices.push_back(std::move(text));
                m_changed.notify_all();
            });
        if (!listener)
            return listener.error();
        m_listener = std::move(listener.value());
        return core::Ok {};
    }
    std::uint16_t port() const { return m_listener->port(); }
    Listener &listener() { return *m_listener; }
    void stop() { m_listener.reset(); }

    // The next channel handed out (nullptr after kWait).
    std::unique_ptr<core::MessageChannel> takeChannel()
    {
        std::unique_lock lock(m_mutex);
        if (!m_changed.wait_for(lock, kWait, [&] { return !m_channels.empty(); }))
            return nullptr;
        auto channel = std::move(m_channels.front());
        m_channels.erase(m_channels.begin());
        return channel;
    }
    // The first notice that contains `text` ("" after kWait).
    std::string waitNotice(const std::string &text)
    {
        std::unique_lock lock(m_mutex);
        std::string found;
        m_changed.wait_for(lock, kWait, [&] {
            for (const auto &notice : m_notices)
                if (notice.find(text) != std::string::npos) {
                    found = notice;
                    return true;
                }
            return false;
        });
        return found;
    }
    std::vector<std::string> notices()
    {
        std::lock_guard lock(m_mutex);
        return m_notices;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<std::unique_ptr<core::MessageChannel>> m_channels;
    std::vector<std::string> m_notices;
    std::unique_ptr<Listener> m_listener; // last: destroyed first, its callbacks end
};

inline ListenOptions loopbackOptions()
{
    ListenOptions options;
    options.address = "127.0.0.1";
    options.port = 0;
    return options;
}

inline ConnectOptions plainTo(std::uint16_t port)
{
    ConnectOptions options;
    options.host = "127.0.0.1";
    options.port = port;
    options.tls = false;
    return options;
}

} // namespace ioprism::net::test
