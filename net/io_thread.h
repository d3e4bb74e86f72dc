// SPDX-License-Identifier: GPL-3.0-or-later
// One Asio io_context and the one thread that runs it: a Listener and every channel it
// hands out share one, each client connection has its own. One thread per context means
// every handler of a connection runs in order on that thread (an implicit strand), so a
// connection's state needs no lock: other threads only post to it.
#pragma once

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <future>
#include <memory>
#include <thread>

namespace ioprism::net::detail {

class IoThread
{
public:
    IoThread();
    // Lets the connections still on the thread finish (a close handshake under way) for at
    // most kDrainTimeout, then stops the context and joins the thread. Called on the
    // thread itself (the last channel destroyed in its own callback), it stops the context
    // and lets the thread end on its own instead: a thread cannot join itself.
    ~IoThread();
    IoThread(const IoThread &) = delete;
    IoThread &operator=(const IoThread &) = delete;

    boost::asio::io_context &context() { return *m_context; }
    bool inThisThread() const { return std::this_thread::get_id() == m_thread.get_id(); }

    static constexpr std::chrono::seconds kDrainTimeout {2};

private:
    // Shared with the thread's own function, which may outlive this object (see above).
    std::shared_ptr<boost::asio::io_context> m_context;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> m_work;
    std::future<void> m_finished;
    std::thread m_thread;
};

} // namespace ioprism::net::detail
