// SPDX-License-Identifier: GPL-3.0-or-later
// A single-use countdown latch: the part of std::latch the run uses (count_down, wait,
// arrive_and_wait), on a mutex and a condition variable.
//
// Why not std::latch: on platforms without futexes (MinGW-w64, so the Windows build)
// libstdc++ 12 implements its wait with a shared condition variable that the notifying
// side signals without holding the mutex the waiter checks under, so a count_down that
// lands between the waiter's check and its wait is lost and the waiter sleeps forever
// (reproduced under Wine within a few thousand start/stop cycles; fixed in GCC 13).
// This latch checks and sleeps under the same mutex the counter changes under. It is
// used three times per step, never on the I/O path, so a mutex costs nothing that matters.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace ioprism::core {

class Latch
{
public:
    explicit Latch(std::ptrdiff_t expected)
        : m_count(expected)
    { }
    Latch(const Latch &) = delete;
    Latch &operator=(const Latch &) = delete;

    // The member functions keep std::latch's names (snake_case, not the house camelBack)
    // so that code reads the same as with std::latch and could switch back to it.
    // NOLINTBEGIN(readability-identifier-naming)

    void count_down(std::ptrdiff_t n = 1)
    {
        std::lock_guard lock(m_mutex);
        m_count -= n;
        if (m_count <= 0)
            m_zero.notify_all(); // under the lock: no waiter can miss it
    }

    void wait() const
    {
        std::unique_lock lock(m_mutex);
        m_zero.wait(lock, [this] { return m_count <= 0; });
    }

    // arrive_and_wait that gives up when `abandon` becomes true (checked every `poll`):
    // returns false then. For a wait on threads that may never arrive (a worker stuck
    // opening a hung device).
    template<typename Duration>
    bool arrive_and_wait_unless(const std::atomic<bool> &abandon, Duration poll)
    {
        std::unique_lock lock(m_mutex);
        if (--m_count <= 0) {
            m_zero.notify_all();
            return true;
        }
        while (m_count > 0) {
            if (abandon)
                return false;
            m_zero.wait_for(lock, poll);
        }
        return true;
    }

    // Waits at most `timeout` for the count to reach zero: true when it did. For a
    // waiter that has more to do meanwhile (report progress, notice a stop).
    template<typename Duration> bool wait_for(Duration timeout) const
    {
        std::unique_lock lock(m_mutex);
        return m_zero.wait_for(lock, timeout, [this] { return m_count <= 0; });
    }

    void arrive_and_wait(std::ptrdiff_t n = 1)
    {
        std::unique_lock lock(m_mutex);
        m_count -= n;
        if (m_count <= 0)
            m_zero.notify_all();
        else
            m_zero.wait(lock, [this] { return m_count <= 0; });
    }

    bool try_wait() const noexcept
    {
        std::lock_guard lock(m_mutex);
        return m_count <= 0;
    }
    // NOLINTEND(readability-identifier-naming)

private:
    mutable std::mutex m_mutex;
    mutable std::condition_variable m_zero;
    std::ptrdiff_t m_count; // guarded by m_mutex
};

} // namespace ioprism::core
