// SPDX-License-Identifier: GPL-3.0-or-later
// The controller's side of the agent protocol (docs/agent-protocol.md).
//
// An AgentConnection is one agent reached over a MessageChannel: the handshake (hello,
// welcome, versions checked both ways), the clock offset measured from round trips
// (core/agent/clock_sync.h), the inventory. A RemoteRunSession is a RunSession whose run
// happens on that agent: start() sends the request, the agent's events are decoded with
// the session codec and delivered to the sink, each `ready {step}` arrives at the
// controller's StepBarrier as the session's party, and the barrier's start time, turned
// into the agent's clock with the measured offset, goes back as `go`. A connection that
// ends, or an agent that stops answering, ends the session with what it had received
// (the plan, the step results, every interval) and an error that names the agent and
// when; the barrier is cancelled so that no other host waits for it.
#pragma once

#include "core/agent/agent_messages.h"
#include "core/agent/clock_sync.h"
#include "core/agent/message_channel.h"
#include "core/result.h"
#include "core/run/run_session.h"
#include "core/run/session_codec.h"
#include "core/run/step_gate.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace ioprism::core {

class AgentConnection
{
public:
    // What a run on this connection is told of (RemoteRunSession). Called on the
    // channel's thread; must not block.
    class Listener
    {
    public:
        virtual ~Listener() = default;
        virtual void onSessionMessage(const std::string &text) = 0;
        // ready, busy, error, refused; or an ErrorMessage for a message that could not
        // be read.
        virtual void onAgentMessage(const FromAgent &message) = 0;
        virtual void onConnectionClosed(const std::string &reason) = 0;
    };

    // `name` is how messages name the agent ("db2:7355"); "": the channel's peer. The
    // channel is started here.
    explicit AgentConnection(std::unique_ptr<MessageChannel> channel, std::string name = {});
    // Says bye and closes.
    ~AgentConnection();
    AgentConnection(const AgentConnection &) = delete;
    AgentConnection &operator=(const AgentConnection &) = delete;

    // The handshake: hello with `token`, then the welcome (the agent's protocol and run
    // session protocol must be this build's: a mismatch names both versions), then a
    // clock sync of kClockSamplesPerSync samples. Each answer is waited for at most
    // `timeout`. On failure the connection is closed.
    Status open(const std::string &token, const std::string &controllerName = {},
        std::chrono::milliseconds timeout = std::chrono::seconds(10));
    // What the agent said about itself (after open()).
    WelcomeMessage welcome() const;

    // Measures `samples` round trips (waiting at most `timeout` for all) and returns the
    // estimate from them and the earlier ones still kept.
    Result<ClockOffset> syncClock(std::size_t samples = kClockSamplesPerSync,
        std::chrono::milliseconds timeout = std::chrono::seconds(10));
    // Sends `samples` clock requests without waiting: the answers refine clockOffset().
    void requestClockSamples(std::size_t samples);
    // The estimate from the latest samples (kKeptClockSamples); nullopt before any.
    std::optional<ClockOffset> clockOffset() const;

    Result<InventoryMessage> inventory(
        std::chrono::milliseconds timeout = std::chrono::seconds(10));

    const std::string &name() const { return m_name; }
    bool isOpen() const;
    // Why the connection ended ("" while it is open, or when this side closed it).
    std::string closedReason() const;
    // When the agent was last heard from (any message).
    std::chrono::steady_clock::time_point lastHeard() const;
    void close();

    // For a run on this connection: the listener replaces the one before. After
    // removeListener(l) returns, `l` is not called any more (a later run's listener stays).
    void setListener(Listener *listener);
    void removeListener(Listener *listener);
    bool send(const ToAgent &message);
    bool sendText(std::string text);

    // Samples kept for the estimate: a sliding window, so that a drifting clock is
    // followed while the shortest round trips of the last syncs are still chosen.
    static constexpr std::size_t kKeptClockSamples = 32;

private:
    void onMessage(const std::string &text);
    void onClosed(const std::string &reason);
    std::string opError(const std::string &what) const;

    std::unique_ptr<MessageChannel> m_channel;
    std::string m_name;

    mutable std::mutex m_mutex; // guards what follows
    std::condition_variable m_wake;
    std::optional<WelcomeMessage> m_welcome;
    std::optional<std::string> m_refusal; // refused, or an unreadable answer, before welcome
    std::optional<InventoryMessage> m_inventory;
    std::deque<ClockSample> m_samples;
    std::uint64_t m_nextClockId = 1;
    std::uint64_t m_clockReplies = 0;
    bool m_closed = false;
    std::string m_closedReason;
    std::atomic<std::int64_t> m_lastHeardNs {0};

    std::mutex m_listenerMutex; // held while the listener is called
    Listener *m_listener = nullptr;
};

// A party of a StepBarrier as the session uses it. Unset members: a run on one host
// (each step starts as soon as the agent is ready; nothing to cancel or leave).
struct StepParty {
    std::function<void(std::size_t step, StepBarrier::Release release)> arrive;
    std::function<void()> cancel;
    std::function<void()> leave;
    // The agent's step moved its stonewall amount (StepBarrier::stonewall).
    std::function<void(std::size_t step)> stonewall;
};
// Party `party` of `barrier` (which must outlive the session). Inline: only code that
// uses a real barrier links it.
inline StepParty barrierParty(StepBarrier &barrier, std::size_t party)
{
    return {[&barrier, party](std::size_t step, StepBarrier::Release release) {
                barrier.arrive(party, step, std::move(release));
            },
        [&barrier] { barrier.cancel(); }, [&barrier, party] { barrier.leave(party); },
        [&barrier, party](std::size_t step) { barrier.stonewall(party, step); }};
}

struct RemoteRunOptions {
    // No message from the agent for this long during a run: it has stopped answering.
    std::chrono::milliseconds silenceLimit {30000};
    // A clock request this often during a run: it keeps the connection heard and the
    // offset fresh between steps.
    std::chrono::milliseconds keepAlive {2000};
};

class RemoteRunSession final : public RunSession, private AgentConnection::Listener
{
public:
    // `connection` (opened) and `sink` must outlive the session.
    RemoteRunSession(AgentConnection &connection, RunSink &sink, StepParty party = {},
        RemoteRunOptions options = {});
    // Asks the agent to stop at once and waits for the result (at most the silence
    // limit, after which the session ends on its own).
    ~RemoteRunSession() override;

    void start(RunRequest request) override;
    void stop() override;
    void stopNow() override;
    void wait() override;
    void endStep(std::size_t step) override;
    std::optional<ClockOffset> clockOffset() const override;

private:
    // Sends the goes: outlives the session when a barrier still holds a release.
    struct GoSender {
        std::mutex mutex;
        AgentConnection *connection = nullptr; // null once the session is gone
        void send(std::size_t step, StepStart start);
    };

    void onSessionMessage(const std::string &text) override;
    void onAgentMessage(const FromAgent &message) override;
    void onConnectionClosed(const std::string &reason) override;
    void record(const SessionEvent &event);
    void notice(const std::string &text);
    // The session's one end: `result` reported, the barrier left (and cancelled when the
    // run failed). Later calls do nothing.
    void finish(RunResult result);
    void finishLocked(RunResult result); // m_sinkMutex held
    // The end of a run whose agent went away: what was received, and why it ended.
    void fault(const std::string &what, const std::string &reason);
    void watch();

    AgentConnection &m_connection;
    RunSink &m_sink;
    StepParty m_party;
    RemoteRunOptions m_options;
    std::shared_ptr<GoSender> m_goSender;

    // Held while the sink is called: events and the end reach it in order, from the
    // channel's thread or the watchdog's. Taken before m_mutex, never after.
    std::mutex m_sinkMutex;
    // Guards the state below; never held while the sink is called (a sink may call stop()).
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_started = false;
    bool m_finished = false; // the end is decided (set before onFinished)
    bool m_reported = false; // onFinished has returned: wait() returns
    bool m_stopRequested = false;
    bool m_destroying = false;
    std::chrono::steady_clock::time_point m_startedAt;
    RunResult m_partial; // what was received, for a run that ends without its result
    std::thread m_watchdog;
};

// The HostSessionMaker shape of a multi-host run: a RemoteRunSession on `connection` as
// party `party` of the run's barrier.
inline std::function<std::unique_ptr<RunSession>(RunSink &, StepBarrier &, std::size_t)>
remoteRunSessions(AgentConnection &connection, RemoteRunOptions options = {})
{
    return [&connection, options](RunSink &sink, StepBarrier &barrier,
               std::size_t party) -> std::unique_ptr<RunSession> {
        return std::make_unique<RemoteRunSession>(
            connection, sink, barrierParty(barrier, party), options);
    };
}

} // namespace ioprism::core
