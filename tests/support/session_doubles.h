// SPDX-License-Identifier: GPL-3.0-or-later
// Doubles for the tests of runs, of runs on several hosts and of agents: a sink that does
// nothing, a sink that keeps a host's own result on its way to the merge, and a channel a
// test can cut as a pulled cable would.
#pragma once

#include "core/agent/message_channel.h"
#include "core/run/run_sink.h"

#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace ioprism::test {

// A sink that takes every report and does nothing with it.
struct NullSink : core::RunSink {
};

// Forwards every report of a host's run to `next`, keeping its result in `record`
// (anything with a `mutex` and an optional `result`): what the host measured, before any
// codec or merge, for the test to compare the merged run with.
template<typename Record> struct KeepResult final : core::RunSink {
    KeepResult(core::RunSink &next, Record &record)
        : next(next)
        , record(record)
    { }
    void onPhase(core::RunPhase p, std::size_t s, const std::string &n) override
    {
        next.onPhase(p, s, n);
    }
    void onPrepareProgress(
        const std::string &path, std::uint64_t d, std::uint64_t t, core::PrepareWork w) override
    {
        next.onPrepareProgress(path, d, t, w);
    }
    void onPlan(const core::ResolvedPlan &p) override { next.onPlan(p); }
    void onInterval(const core::IntervalSample &s) override { next.onInterval(s); }
    void onStepResult(const core::StepResult &s, const core::PlannedStep &p) override
    {
        next.onStepResult(s, p);
    }
    void onNotice(const std::string &t) override { next.onNotice(t); }
    void onStarted(const std::string &e) override { next.onStarted(e); }
    void onFinished(core::RunResult &&r) override
    {
        {
            std::lock_guard lock(record.mutex);
            record.result = r;
        }
        next.onFinished(std::move(r));
    }
    core::RunSink &next;
    Record &record;
};

// The agent's end of a channel pair, which the test can cut as a pulled cable or a killed
// agent would: nothing more is sent (not even the run's result) and the connection ends.
class CuttableChannel final : public core::MessageChannel
{
public:
    explicit CuttableChannel(std::unique_ptr<core::MessageChannel> inner)
        : m_inner(std::move(inner))
    { }
    void start(OnMessage onMessage, OnClosed onClosed) override
    {
        m_inner->start(std::move(onMessage), std::move(onClosed));
    }
    bool send(std::string text) override
    {
        std::lock_guard lock(m_mutex);
        return !m_cut && m_inner->send(std::move(text));
    }
    void close() override { m_inner->close(); }
    std::string peer() const override { return m_inner->peer(); }
    void cut()
    {
        {
            std::lock_guard lock(m_mutex);
            m_cut = true;
        }
        m_inner->close();
    }

private:
    std::unique_ptr<core::MessageChannel> m_inner;
    std::mutex m_mutex;
    bool m_cut = false;
};

} // namespace ioprism::test
