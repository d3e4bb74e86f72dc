// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/step_gate.h"

#include <memory>
#include <utility>

namespace ioprism::core {

StepBarrier::StepBarrier(std::size_t parties, std::chrono::milliseconds lead)
    : m_parties(parties)
    , m_lead(lead)
    , m_waiting(parties)
    , m_left(parties, false)
{ }

void StepBarrier::arrive(std::size_t party, std::size_t step, Release release)
{
    std::unique_lock lock(m_mutex);
    if (m_cancelled || party >= m_parties) {
        lock.unlock();
        release(std::nullopt); // no party of ours: it cannot be released with the others
        return;
    }
    m_waiting[party] = Waiting {step, std::move(release)};
    releaseIfComplete(lock, step);
}

StepStart StepBarrier::arriveAndWait(std::size_t party, std::size_t step)
{
    // The release may come on this thread (the last to arrive) or on another: the answer
    // is kept until this thread reads it.
    struct Answer {
        std::mutex mutex;
        std::condition_variable given;
        std::optional<StepStart> start; // guarded by mutex
    };
    auto answer = std::make_shared<Answer>();
    arrive(party, step, [answer](StepStart start) {
        std::lock_guard lock(answer->mutex);
        answer->start = start;
        answer->given.notify_all();
    });
    std::unique_lock lock(answer->mutex);
    answer->given.wait(lock, [&] { return answer->start.has_value(); });
    return *answer->start;
}

void StepBarrier::cancel()
{
    std::vector<Release> releases;
    {
        std::lock_guard lock(m_mutex);
        m_cancelled = true;
        for (auto &waiting : m_waiting)
            if (waiting) {
                releases.push_back(std::move(waiting->release));
                waiting.reset();
            }
    }
    // Outside the lock: a release may arrive again (for the next step) or cancel.
    for (auto &release : releases)
        release(std::nullopt);
}

bool StepBarrier::cancelled() const
{
    std::lock_guard lock(m_mutex);
    return m_cancelled;
}

void StepBarrier::leave(std::size_t party)
{
    std::unique_lock lock(m_mutex);
    if (party >= m_parties || m_left[party])
        return;
    m_left[party] = true;
    // The parties already waiting may have waited for this one only.
    for (const auto &waiting : m_waiting)
        if (waiting) {
            releaseIfComplete(lock, waiting->step);
            return;
        }
}

StepStart StepBarrier::lastStart() const
{
    std::lock_guard lock(m_mutex);
    return m_lastStart;
}

void StepBarrier::setOnStonewall(OnStonewall onStonewall)
{
    std::lock_guard lock(m_mutex);
    m_onStonewall = std::move(onStonewall);
}

void StepBarrier::stonewall(std::size_t party, std::size_t step)
{
    OnStonewall call;
    {
        std::lock_guard lock(m_mutex);
        if (m_stonewalledStep && *m_stonewalledStep >= step)
            return; // another party was first (steps come in order)
        m_stonewalledStep = step;
        call = m_onStonewall;
    }
    // Outside the lock: ending the other parties' steps may come back here.
    if (call)
        call(party, step);
}

// Releases every party waiting for `step` when each party that has not left is among
// them: one start time for all, the releases called after the lock is given up (a
// release may arrive for the next step at once, on this thread).
void StepBarrier::releaseIfComplete(std::unique_lock<std::mutex> &lock, std::size_t step)
{
    for (std::size_t p = 0; p < m_parties; ++p)
        if (!m_left[p] && !(m_waiting[p] && m_waiting[p]->step == step))
            return;
    const auto start = std::chrono::steady_clock::now() + m_lead;
    m_lastStart = start;
    std::vector<Release> releases;
    for (auto &waiting : m_waiting)
        if (waiting && waiting->step == step) {
            releases.push_back(std::move(waiting->release));
            waiting.reset();
        }
    lock.unlock();
    for (auto &release : releases)
        release(start);
}

} // namespace ioprism::core
