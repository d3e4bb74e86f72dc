// SPDX-License-Identifier: GPL-3.0-or-later
#include "net/io_thread.h"

namespace ioprism::net::detail {

IoThread::IoThread()
    : m_context(std::make_shared<boost::asio::io_context>(1))
    , m_work(boost::asio::make_work_guard(*m_context))
{
    std::promise<void> finished;
    m_finished = finished.get_future();
    m_thread = std::thread([context = m_context, finished = std::move(finished)]() mutable {
        // Handlers do not throw (every error travels as an error_code); should one, the
        // thread ends rather than the process.
        for (;;) {
            try {
                context->run();
                break;
            } catch (...) {
                continue;
            }
        }
        finished.set_value();
    });
}

IoThread::~IoThread()
{
    m_work.reset();
    if (inThisThread()) {
        m_context->stop();
        m_thread.detach();
        return;
    }
    if (m_finished.wait_for(kDrainTimeout) != std::future_status::ready)
        m_context->stop();
    m_thread.join();
}

} // namespace ioprism::net::detail
