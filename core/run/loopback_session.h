// SPDX-License-Identifier: GPL-3.0-or-later
// A run session whose request and every event cross a message boundary, encoded and
// decoded by the session codecs (core/run/session_codec.h), with the run itself in
// another session (a LocalRunSession) on the far side. It is what a session on an agent
// or an MPI rank does, without the network: the tests run one request through it and
// through a LocalRunSession and compare the results field for field, so that whatever
// a run reports survives the trip (the contract remote sessions build on).
#pragma once

#include "core/run/run_session.h"
#include "core/run/session_codec.h"

#include <atomic>
#include <cstdint>
#include <memory>

namespace ioprism::core {

class LoopbackRunSession final : public RunSession
{
public:
    // `farSide` makes the session that runs the decoded request; `sink` gets the decoded
    // events (it must outlive this session).
    LoopbackRunSession(const RunSessionFactory &farSide, RunSink &sink);
    ~LoopbackRunSession() override;

    void start(RunRequest request) override;
    void stop() override;
    void stopNow() override;
    void wait() override;

    // Messages that crossed, and their bytes: a test can tell that they did.
    std::uint64_t messages() const { return m_relay.messages; }
    std::uint64_t bytes() const { return m_relay.bytes; }

private:
    // The far side's sink: encodes each event, decodes the text, delivers it here.
    struct Relay final : EventSink {
        explicit Relay(RunSink &near)
            : near(near)
        { }
        void onEvent(SessionEvent event) override;
        RunSink &near;
        std::atomic<std::uint64_t> messages {0};
        std::atomic<std::uint64_t> bytes {0};
    };
    Relay m_relay;
    std::unique_ptr<RunSession> m_farSide;
};

} // namespace ioprism::core
