// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/agent/agent_service.h"

#include "core/agent/constant_time.h"
#include "core/run/session_codec.h"

#include <fmt/format.h>

namespace ioprism::core {

namespace {

std::int64_t steadyNowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

// ---------------------------------------------------------------- AgentState

std::optional<BusyMessage> AgentState::acquire(const std::string &who)
{
    std::lock_guard lock(m_mutex);
    if (!m_held) {
        m_held = true;
        m_who = who;
        m_since = std::chrono::system_clock::now();
        m_sinceSteady = std::chrono::steady_clock::now();
        return std::nullopt;
    }
    BusyMessage busy;
    busy.controller = m_who;
    busy.sinceUnixMs
        = std::chrono::duration_cast<std::chrono::milliseconds>(m_since.time_since_epoch()).count();
    const double seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_sinceSteady).count();
    busy.reason = fmt::format(
        "the agent is running another run, for {}, started {:.1f} s ago", m_who, seconds);
    return busy;
}

void AgentState::release()
{
    std::lock_guard lock(m_mutex);
    m_held = false;
    m_who.clear();
}

// ---------------------------------------------------------------- AgentService

AgentService::AgentService(
    const AgentConfig &config, AgentState &state, std::unique_ptr<MessageChannel> channel)
    : m_config(config)
    , m_state(state)
    , m_channel(std::move(channel))
    , m_who(m_channel->peer())
{ }

AgentService::~AgentService()
{
    {
        std::lock_guard lock(m_mutex);
        m_shutdown = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
    // After the loop: it stopped and joined the run. The channel's callbacks may still
    // post until it is gone; the queue outlives it.
    m_channel.reset();
}

void AgentService::start()
{
    if (m_thread.joinable())
        return;
    m_channel->start(
        [this](std::string text) {
            post({Inbound::Kind::Message, std::move(text)});
        },
        [this](std::string reason) {
            post({Inbound::Kind::Closed, std::move(reason)});
        });
    m_thread = std::thread([this] { loop(); });
}

bool AgentService::ended() const
{
    std::lock_guard lock(m_mutex);
    return m_ended;
}

bool AgentService::waitEnded(std::chrono::milliseconds timeout) const
{
    std::unique_lock lock(m_mutex);
    return m_wake.wait_for(lock, timeout, [this] { return m_ended; });
}

void AgentService::post(Inbound inbound)
{
    {
        std::lock_guard lock(m_mutex);
        m_inbound.push_back(std::move(inbound));
    }
    m_wake.notify_all();
}

void AgentService::loop()
{
    const auto helloDeadline = std::chrono::steady_clock::now() + m_config.helloTimeout;
    std::unique_lock lock(m_mutex);
    for (;;) {
        auto ready = [this] { return m_shutdown || !m_inbound.empty(); };
        if (!m_authenticated && !m_refused) {
            if (!m_wake.wait_until(lock, helloDeadline, ready)) {
                lock.unlock();
                refuse(fmt::format("no hello within {:.1f} s",
                    std::chrono::duration<double>(m_config.helloTimeout).count()));
                lock.lock();
                continue;
            }
        } else
            m_wake.wait(lock, ready);
        if (m_shutdown)
            break;
        Inbound in = std::move(m_inbound.front());
        m_inbound.pop_front();
        lock.unlock();
        switch (in.kind) {
        case Inbound::Kind::Message:
            if (!m_closed && !m_refused)
                handle(in.text);
            break;
        case Inbound::Kind::Closed:
            m_closed = true;
            stopRun(true); // nobody is left to see it: stop without waiting
            break;
        case Inbound::Kind::RunFinished:
            runFinished();
            break;
        }
        lock.lock();
        if (m_closed && !m_run)
            break;
    }
    // Shutting down, or the connection has ended: no run is left behind.
    if (lock.owns_lock())
        lock.unlock();
    if (m_run) {
        stopRun(true);
        runFinished();
    }
    m_channel->close();
    lock.lock();
    m_ended = true;
    lock.unlock();
    m_wake.notify_all();
}

void AgentService::handle(const std::string &text)
{
    if (!m_authenticated) {
        handleHello(text);
        return;
    }
    auto decoded = decodeToAgent(text);
    if (decoded.session) {
        handleRequest(text);
        return;
    }
    if (!decoded.value) {
        sendError("cannot read the message: " + decoded.error);
        return;
    }
    std::visit(
        [&](auto &&m) {
            using M = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<M, HelloMessage>)
                sendError("hello again: this connection is already authenticated");
            else if constexpr (std::is_same_v<M, ClockRequest>)
                m_channel->send(encodeAgentMessage(
                    FromAgent {ClockReply {m.id, m.controllerNs, steadyNowNs()}}));
            else if constexpr (std::is_same_v<M, InventoryRequest>) {
                InventoryMessage inventory
                    = m_config.inventory ? m_config.inventory() : InventoryMessage {};
                inventory.roots = m_config.allowedRoots;
                m_channel->send(encodeAgentMessage(FromAgent {std::move(inventory)}));
            } else if constexpr (std::is_same_v<M, GoMessage>)
                handleGo(m);
            else if constexpr (std::is_same_v<M, StopMessage>)
                stopRun(false); // none running: nothing to do (a stop may cross the end)
            else if constexpr (std::is_same_v<M, StopNowMessage>)
                stopRun(true);
            else if constexpr (std::is_same_v<M, ByeMessage>)
                m_channel->close(); // then Closed: a run still going is stopped there
            else if constexpr (std::is_same_v<M, EndStepMessage>) {
                if (m_run) // none: the run ended as the message crossed it
                    m_run->endStep(m.step);
            }
        },
        *decoded.value);
}

void AgentService::handleHello(const std::string &text)
{
    auto decoded = decodeToAgent(text);
    if (decoded.session) {
        refuse("the first message must be a hello, not a run session message");
        return;
    }
    if (!decoded.value) {
        refuse("cannot read the hello: " + decoded.error);
        return;
    }
    const auto *hello = std::get_if<HelloMessage>(&*decoded.value);
    if (!hello) {
        refuse(fmt::format(
            "the first message must be a hello, not \"{}\"", agentMessageType(*decoded.value)));
        return;
    }
    if (hello->session != kSessionProtocolVersion) {
        refuse(fmt::format("the controller (IOPrism {}) speaks run session protocol {}, this "
                           "agent (IOPrism {}) speaks {}: run the same IOPrism version on both "
                           "sides",
            hello->version, hello->session, m_config.version, kSessionProtocolVersion));
        return;
    }
    // One reason for a wrong and a missing token, and nothing about the right one.
    if (!constantTimeEquals(hello->token, m_config.token)) {
        refuse("authentication failed: wrong token");
        return;
    }
    m_authenticated = true;
    if (!hello->controller.empty())
        m_who += " (" + hello->controller + ")";
    WelcomeMessage welcome = m_config.identity;
    welcome.version = m_config.version;
    welcome.session = kSessionProtocolVersion;
    m_channel->send(encodeAgentMessage(FromAgent {std::move(welcome)}));
}

void AgentService::handleRequest(const std::string &text)
{
    if (m_run) {
        sendError("a run is already going on this connection: one run at a time; the "
                  "request is ignored");
        return;
    }
    auto decoded = decodeRequest(text);
    if (!decoded.value) {
        sendError("cannot read the run request: " + decoded.error);
        // The controller waits for its run's one result: it says why there is none.
        sendResultOfRefusedRun(0, "read the run request", decoded.error);
        return;
    }
    RunRequest request = std::move(*decoded.value);
    const std::uint64_t runId = request.settings.runId;
    if (auto why = checkProfileTargets(request.profile, m_config.allowedRoots, m_config.realPath);
        !why.empty()) {
        log("refused a run for " + m_who + ": " + why);
        sendResultOfRefusedRun(runId, "refused by the agent", why);
        return;
    }
    if (auto busy = m_state.acquire(m_who)) {
        m_channel->send(encodeAgentMessage(FromAgent {std::move(*busy)}));
        return;
    }
    {
        std::lock_guard lock(m_mutex);
        m_ownsRun = true;
    }
    if (!m_config.makeRun) {
        releaseAgentRun();
        sendResultOfRefusedRun(runId, "run on the agent", "this agent cannot run anything");
        return;
    }
    {
        std::lock_guard lock(m_gateMutex);
        m_gateStopped = false;
        m_waitingStep.reset();
        m_answer.reset();
    }
    log("run " + std::to_string(runId) + " for " + m_who + ": \""
        + request.profile.setup.description + "\"");
    m_run = m_config.makeRun(
        m_relay, [this](std::size_t step) { return gate(step); },
        [this](std::size_t step) {
            m_channel->send(encodeAgentMessage(FromAgent {AmountDoneMessage {step}}));
        });
    m_run->start(std::move(request));
}

void AgentService::handleGo(const GoMessage &go)
{
    std::unique_lock lock(m_gateMutex);
    if (!m_run || !m_waitingStep || *m_waitingStep != go.step || m_answer) {
        const std::string waiting = m_waitingStep && !m_answer
            ? fmt::format("step {} is waiting", *m_waitingStep)
            : std::string("no step is waiting");
        lock.unlock();
        sendError(fmt::format("go for step {}, but {}: ignored", go.step, waiting));
        return;
    }
    if (go.stop)
        m_answer = StepStart {};
    else
        m_answer = StepStart {std::chrono::steady_clock::time_point(
            std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                std::chrono::nanoseconds(go.startNs)))};
    lock.unlock();
    m_gateWake.notify_all();
}

StepStart AgentService::gate(std::size_t step)
{
    std::unique_lock lock(m_gateMutex);
    if (m_gateStopped)
        return std::nullopt;
    m_waitingStep = step;
    m_answer.reset();
    // Sent under the lock: a go cannot be handled before the step is marked waiting.
    m_channel->send(encodeAgentMessage(FromAgent {ReadyMessage {step}}));
    m_gateWake.wait(lock, [this] { return m_answer.has_value() || m_gateStopped; });
    m_waitingStep.reset();
    StepStart start = m_answer.value_or(std::nullopt);
    m_answer.reset();
    return start;
}

void AgentService::stopRun(bool now)
{
    // The run is told first, then its gate answers "do not start": a run waiting at its
    // gate then ends already stopped (at once for stopNow), never as if nobody had asked.
    if (m_run) {
        if (now)
            m_run->stopNow();
        else
            m_run->stop();
    }
    {
        std::lock_guard lock(m_gateMutex);
        m_gateStopped = true;
    }
    m_gateWake.notify_all();
}

void AgentService::runFinished()
{
    if (!m_run)
        return;
    m_run.reset(); // the run has reported its result: this joins its ended thread
    releaseAgentRun();
    log("run for " + m_who + " ended");
}

void AgentService::log(const std::string &text) const
{
    if (m_config.log)
        m_config.log(text);
}

void AgentService::releaseAgentRun()
{
    std::lock_guard lock(m_mutex);
    if (m_ownsRun) {
        m_state.release();
        m_ownsRun = false;
    }
}

void AgentService::refuse(const std::string &reason)
{
    if (m_refused)
        return;
    m_refused = true;
    log("refused " + m_who + ": " + reason);
    m_channel->send(encodeAgentMessage(FromAgent {RefusedMessage {reason}}));
    m_channel->close();
}

void AgentService::sendError(const std::string &reason)
{
    m_channel->send(encodeAgentMessage(FromAgent {ErrorMessage {reason}}));
}

void AgentService::sendResultOfRefusedRun(
    std::uint64_t runId, std::string operation, std::string detail)
{
    RunResult result;
    result.runId = runId;
    result.startedAt = std::chrono::system_clock::now();
    result.error = OpError {{}, std::move(operation), {}, std::move(detail)};
    m_channel->send(encodeEvent(FinishedEvent {std::move(result)}));
}

void AgentService::Relay::onEvent(SessionEvent event)
{
    if (std::holds_alternative<FinishedEvent>(event)) {
        // The run has released everything it held (a session's last report): the agent is
        // free before the controller hears of the end, so that whatever it does next
        // (another run, here or on another connection) finds it free. Queued before the
        // send, so that the service knows the run ended before any answer to it arrives.
        service.releaseAgentRun();
        service.post({Inbound::Kind::RunFinished, {}});
    }
    // After a disconnect the send fails and the event is dropped: nobody is listening.
    service.m_channel->send(encodeEvent(event));
}

} // namespace ioprism::core
