// SPDX-License-Identifier: GPL-3.0-or-later
// The agent's side of one connection (docs/agent-protocol.md): `ioprism-agent` makes an
// AgentService for each connection the transport accepts, all sharing one AgentState.
//
// The service authenticates the controller (the first message must be a hello of this
// protocol with the agent's token, within a time limit), answers clock samples and
// inventory requests, and runs one run request at a time per agent as a local run would
// (the platform's LocalRunHooks: every safety rule of a local run holds), after checking
// every target against the agent's allow list. The run's events go back as the session
// codec writes them. Before each step the run waits at the service's gate: it sends
// `ready {step}` and waits for the controller's `go`. It never trusts the controller: a
// message it cannot read, or one out of order, is refused with an `error` and changes
// nothing; a connection that ends mid-run stops the run at once (stopNow), so that no run
// is left writing for a controller that is gone.
#pragma once

#include "core/agent/agent_messages.h"
#include "core/agent/message_channel.h"
#include "core/agent/target_roots.h"
#include "core/run/run_session.h"
#include "core/run/session_codec.h"
#include "core/run/step_gate.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace ioprism::core {

// Makes the session that runs a request on the agent: it reports to `sink` (which
// outlives it), asks `gate` before each step and calls `amountDone` when a step has moved
// its stonewall amount (RunHooks::amountDone), which the service tells the controller.
using AgentRunMaker = std::function<std::unique_ptr<RunSession>(
    RunSink &sink, StepGate gate, StepAmountDone amountDone)>;

// LocalRunSessions with the platform's hooks, their steps gated (hooks.describe.stepGate
// set to the service's gate, amountDone to its message): what `ioprism-agent` runs.
AgentRunMaker localAgentRuns(LocalRunHooks hooks);

// What the agent is told by whoever starts it (`ioprism-agent`'s options and platform).
struct AgentConfig {
    // The shared secret; compared in constant time. Empty: nobody is accepted.
    std::string token;
    // The --allow list: every target of a request must be under one of these.
    std::vector<std::string> allowedRoots;
    // Resolves symbolic links before the allow check; unset: the check is lexical.
    RealPath realPath;
    std::string version = IOPRISM_VERSION;
    // What the welcome says about this host: host, os, cpus, engines, pid (the service
    // sets version and session).
    WelcomeMessage identity;
    // The devices and mounts (the service sets roots); unset: none.
    std::function<InventoryMessage()> inventory;
    AgentRunMaker makeRun;
    // How long a new connection has to say hello.
    std::chrono::milliseconds helloTimeout {10000};
    // What the agent's operator should see (its log): refused connections and requests,
    // runs started and ended, each with who asked. Unset: nothing is said.
    std::function<void(const std::string &text)> log;
};

// What every connection of one agent shares: its one run at a time. Thread-safe.
class AgentState
{
public:
    // Takes the agent's run for `who`; when another connection holds it, nothing is
    // taken and the busy answer (who since when) is returned.
    std::optional<BusyMessage> acquire(const std::string &who);
    void release();

private:
    std::mutex m_mutex;
    bool m_held = false;
    std::string m_who;
    std::chrono::system_clock::time_point m_since;
    std::chrono::steady_clock::time_point m_sinceSteady;
};

class AgentService
{
public:
    // `config` and `state` must outlive the service.
    AgentService(
        const AgentConfig &config, AgentState &state, std::unique_ptr<MessageChannel> channel);
    // Stops a run of this connection without waiting for in-flight I/O, waits for it to
    // end, and closes the connection.
    ~AgentService();
    AgentService(const AgentService &) = delete;
    AgentService &operator=(const AgentService &) = delete;

    // Starts serving (the hello timer starts now). Called once.
    void start();
    // True once the connection has ended and its run (if any) with it.
    bool ended() const;
    // Waits until ended(), at most `timeout`; returns ended().
    bool waitEnded(std::chrono::milliseconds timeout) const;

private:
    struct Inbound {
        enum class Kind { Message, Closed, RunFinished } kind;
        std::string text; // the message, or why the channel closed
    };
    // The run's sink: each event sent as a session message; the end noted.
    struct Relay final : EventSink {
        explicit Relay(AgentService &service)
            : service(service)
        { }
        void onEvent(SessionEvent event) override;
        AgentService &service;
    };

    void post(Inbound inbound);
    void loop();
    void handle(const std::string &text);
    void handleHello(const std::string &text);
    void handleRequest(const std::string &text);
    void handleGo(const GoMessage &go);
    void stopRun(bool now);
    void runFinished();
    void releaseAgentRun();
    void refuse(const std::string &reason);
    void sendError(const std::string &reason);
    void log(const std::string &text) const;
    void sendResultOfRefusedRun(std::uint64_t runId, std::string operation, std::string detail);
    StepStart gate(std::size_t step);

    const AgentConfig &m_config;
    AgentState &m_state;
    std::unique_ptr<MessageChannel> m_channel;
    std::string m_who; // the peer, and the name its hello gave

    // The inbound queue, filled by the channel's and the run's threads, emptied by
    // m_thread; m_mutex also guards m_ended and m_ownsRun.
    mutable std::mutex m_mutex;
    mutable std::condition_variable m_wake;
    std::deque<Inbound> m_inbound;
    bool m_shutdown = false;
    bool m_ended = false;
    bool m_ownsRun = false; // this connection holds the agent's run (AgentState)

    // Touched by m_thread only.
    bool m_authenticated = false;
    bool m_refused = false; // refused; the channel is closing
    bool m_closed = false; // the channel has ended
    Relay m_relay {*this};
    std::unique_ptr<RunSession> m_run;

    // The step gate: the run's control thread waits here for the controller's go.
    std::mutex m_gateMutex;
    std::condition_variable m_gateWake;
    std::optional<std::size_t> m_waitingStep; // the step whose ready was sent
    std::optional<StepStart> m_answer; // the go for it
    bool m_gateStopped = false; // stop, stop-now, disconnect: no step starts any more

    std::thread m_thread;
};

} // namespace ioprism::core
