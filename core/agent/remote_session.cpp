// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/agent/remote_session.h"

#include <fmt/format.h>
#include <vector>

namespace ioprism::core {

namespace {

std::chrono::nanoseconds steadyNow()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now().time_since_epoch());
}

} // namespace

// ---------------------------------------------------------------- AgentConnection

AgentConnection::AgentConnection(std::unique_ptr<MessageChannel> channel, std::string name)
    : m_channel(std::move(channel))
    , m_name(name.empty() ? m_channel->peer() : std::move(name))
{
    m_lastHeardNs = steadyNow().count();
    m_channel->start([this](const std::string &text) { onMessage(text); },
        [this](const std::string &reason) { onClosed(reason); });
}

AgentConnection::~AgentConnection()
{
    setListener(nullptr);
    send(ByeMessage {});
    m_channel->close();
    m_channel.reset(); // joins the channel's thread: no callback after this
}

std::string AgentConnection::opError(const std::string &what) const
{
    return "agent " + m_name + ": " + what;
}

Status AgentConnection::open(
    const std::string &token, const std::string &controllerName, std::chrono::milliseconds timeout)
{
    HelloMessage hello;
    hello.version = IOPRISM_VERSION;
    hello.session = kSessionProtocolVersion;
    hello.token = token;
    hello.controller = controllerName;
    auto failed = [this](std::string detail) -> Status {
        close();
        return OpError {{}, "connect to agent " + m_name, {}, std::move(detail)};
    };
    if (!send(hello))
        return failed("the connection has ended" + [&] {
            const std::string why = closedReason();
            return why.empty() ? std::string() : ": " + why;
        }());
    {
        std::unique_lock lock(m_mutex);
        if (!m_wake.wait_for(
                lock, timeout, [this] { return m_welcome || m_refusal || m_closed; })) {
            lock.unlock();
            return failed(fmt::format("no answer to the hello within {:.1f} s",
                std::chrono::duration<double>(timeout).count()));
        }
        if (m_refusal) {
            const std::string why = *m_refusal;
            lock.unlock();
            return failed(why);
        }
        if (!m_welcome) {
            const std::string why
                = m_closedReason.empty() ? "the connection ended" : m_closedReason;
            lock.unlock();
            return failed(why);
        }
        if (m_welcome->session != kSessionProtocolVersion) {
            const std::string why = fmt::format("the agent (IOPrism {}) speaks run session "
                                                "protocol {}, this controller (IOPrism {}) "
                                                "speaks {}: run the same IOPrism version on both "
                                                "sides",
                m_welcome->version, m_welcome->session, IOPRISM_VERSION, kSessionProtocolVersion);
            lock.unlock();
            return failed(why);
        }
    }
    auto offset = syncClock(kClockSamplesPerSync, timeout);
    if (!offset)
        return failed(offset.error().detail);
    return Ok {};
}

WelcomeMessage AgentConnection::welcome() const
{
    std::lock_guard lock(m_mutex);
    return m_welcome.value_or(WelcomeMessage {});
}

void AgentConnection::requestClockSamples(std::size_t samples)
{
    for (std::size_t i = 0; i < samples; ++i) {
        std::uint64_t id = 0;
        {
            std::lock_guard lock(m_mutex);
            id = m_nextClockId++;
        }
        send(ClockRequest {id, steadyNow().count()});
    }
}

Result<ClockOffset> AgentConnection::syncClock(
    std::size_t samples, std::chrono::milliseconds timeout)
{
    std::uint64_t target = 0;
    {
        std::lock_guard lock(m_mutex);
        target = m_clockReplies + samples;
    }
    requestClockSamples(samples);
    std::unique_lock lock(m_mutex);
    if (!m_wake.wait_for(lock, timeout, [&] { return m_clockReplies >= target || m_closed; })
        || m_clockReplies < target)
        return OpError {{}, "measure the clock of agent " + m_name, {},
            m_closed ? "the connection ended" : "no answer to the clock requests in time"};
    std::vector<ClockSample> kept(m_samples.begin(), m_samples.end());
    lock.unlock();
    if (auto estimate = estimateClockOffset(kept))
        return *estimate;
    return OpError {{}, "measure the clock of agent " + m_name, {}, "no usable sample"};
}

std::optional<ClockOffset> AgentConnection::clockOffset() const
{
    std::vector<ClockSample> kept;
    {
        std::lock_guard lock(m_mutex);
        kept.assign(m_samples.begin(), m_samples.end());
    }
    return estimateClockOffset(kept);
}

Result<InventoryMessage> AgentConnection::inventory(std::chrono::milliseconds timeout)
{
    {
        std::lock_guard lock(m_mutex);
        m_inventory.reset();
    }
    if (!send(InventoryRequest {}))
        return OpError {
            {}, "ask agent " + m_name + " for its inventory", {}, "the connection has ended"};
    std::unique_lock lock(m_mutex);
    if (!m_wake.wait_for(lock, timeout, [this] { return m_inventory || m_closed; }) || !m_inventory)
        return OpError {{}, "ask agent " + m_name + " for its inventory", {},
            m_closed ? "the connection ended" : "no answer in time"};
    return *m_inventory;
}

bool AgentConnection::isOpen() const
{
    std::lock_guard lock(m_mutex);
    return !m_closed;
}

std::string AgentConnection::closedReason() const
{
    std::lock_guard lock(m_mutex);
    return m_closedReason;
}

std::chrono::steady_clock::time_point AgentConnection::lastHeard() const
{
    return std::chrono::steady_clock::time_point(
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::nanoseconds(m_lastHeardNs.load())));
}

void AgentConnection::close()
{
    {
        // Closed from now on, not only once the channel has said so.
        std::lock_guard lock(m_mutex);
        m_closed = true;
    }
    m_wake.notify_all();
    m_channel->close();
}

void AgentConnection::setListener(Listener *listener)
{
    std::lock_guard lock(m_listenerMutex);
    m_listener = listener;
}

void AgentConnection::removeListener(Listener *listener)
{
    std::lock_guard lock(m_listenerMutex);
    if (m_listener == listener)
        m_listener = nullptr;
}

bool AgentConnection::send(const ToAgent &message)
{
    return m_channel->send(encodeAgentMessage(message));
}

bool AgentConnection::sendText(std::string text)
{
    return m_channel->send(std::move(text));
}

void AgentConnection::onMessage(const std::string &text)
{
    const auto receivedAt = steadyNow();
    m_lastHeardNs = receivedAt.count();
    auto decoded = decodeFromAgent(text);
    auto tell = [this](auto &&call) {
        std::lock_guard lock(m_listenerMutex);
        if (m_listener)
            call(*m_listener);
    };
    if (decoded.session) {
        tell([&](Listener &l) { l.onSessionMessage(text); });
        return;
    }
    if (!decoded.value) {
        bool handshaking = false;
        {
            std::lock_guard lock(m_mutex);
            handshaking = !m_welcome;
            if (handshaking && !m_refusal)
                m_refusal = "cannot read its answer: " + decoded.error;
        }
        m_wake.notify_all();
        if (!handshaking)
            tell([&](Listener &l) {
                l.onAgentMessage(
                    ErrorMessage {"a message from the agent could not be read: " + decoded.error});
            });
        return;
    }
    FromAgent &message = *decoded.value;
    if (auto *welcome = std::get_if<WelcomeMessage>(&message)) {
        {
            std::lock_guard lock(m_mutex);
            if (!m_welcome)
                m_welcome = std::move(*welcome);
        }
        m_wake.notify_all();
        return;
    }
    if (auto *reply = std::get_if<ClockReply>(&message)) {
        {
            std::lock_guard lock(m_mutex);
            // Only answers to what was asked: an id never sent is not a sample.
            if (reply->id > 0 && reply->id < m_nextClockId) {
                m_samples.push_back({std::chrono::nanoseconds(reply->controllerNs),
                    std::chrono::nanoseconds(reply->agentNs), receivedAt});
                if (m_samples.size() > kKeptClockSamples)
                    m_samples.pop_front();
                ++m_clockReplies;
            }
        }
        m_wake.notify_all();
        return;
    }
    if (auto *inventory = std::get_if<InventoryMessage>(&message)) {
        {
            std::lock_guard lock(m_mutex);
            m_inventory = std::move(*inventory);
        }
        m_wake.notify_all();
        return;
    }
    if (auto *refused = std::get_if<RefusedMessage>(&message)) {
        {
            std::lock_guard lock(m_mutex);
            if (!m_refusal)
                m_refusal = "the agent refused the connection: " + refused->reason;
        }
        m_wake.notify_all();
    }
    tell([&](Listener &l) { l.onAgentMessage(message); });
}

void AgentConnection::onClosed(const std::string &reason)
{
    {
        std::lock_guard lock(m_mutex);
        m_closed = true;
        m_closedReason = reason;
    }
    m_wake.notify_all();
    std::lock_guard lock(m_listenerMutex);
    if (m_listener)
        m_listener->onConnectionClosed(reason);
}

// ---------------------------------------------------------------- RemoteRunSession

void RemoteRunSession::GoSender::send(std::size_t step, StepStart start)
{
    std::lock_guard lock(mutex);
    if (!connection)
        return;
    GoMessage go;
    go.step = step;
    if (!start) {
        go.stop = true;
    } else {
        // The barrier's time is the controller's; the agent waits on its own clock.
        const auto offset = connection->clockOffset().value_or(ClockOffset {}).offset;
        go.startNs
            = (std::chrono::duration_cast<std::chrono::nanoseconds>(start->time_since_epoch())
                + offset)
                  .count();
    }
    connection->send(go);
}

RemoteRunSession::RemoteRunSession(
    AgentConnection &connection, RunSink &sink, StepParty party, RemoteRunOptions options)
    : m_connection(connection)
    , m_sink(sink)
    , m_party(std::move(party))
    , m_options(options)
    , m_goSender(std::make_shared<GoSender>())
{
    m_goSender->connection = &m_connection;
}

RemoteRunSession::~RemoteRunSession()
{
    bool running = false;
    {
        std::lock_guard lock(m_mutex);
        running = m_started && !m_finished;
    }
    if (running)
        m_connection.send(StopNowMessage {});
    wait(); // the agent's result, or the watchdog's verdict within the silence limit
    {
        std::lock_guard lock(m_mutex);
        m_destroying = true;
    }
    m_wake.notify_all();
    if (m_watchdog.joinable())
        m_watchdog.join();
    m_connection.removeListener(this);
    std::lock_guard lock(m_goSender->mutex);
    m_goSender->connection = nullptr;
}

void RemoteRunSession::start(RunRequest request)
{
    bool stopAfter = false;
    {
        std::lock_guard lock(m_mutex);
        if (m_started)
            return; // one run per session
        m_started = true;
        m_startedAt = std::chrono::steady_clock::now();
        m_partial.runId = request.settings.runId;
        m_partial.startedAt = std::chrono::system_clock::now();
        stopAfter = m_stopRequested;
    }
    m_connection.setListener(this);
    if (!m_connection.isOpen()) {
        const std::string why = m_connection.closedReason();
        fault("was not connected", why.empty() ? "the connection has ended" : why);
        return;
    }
    // A fresh offset for this run's gates: the answers come back before any ready, as
    // the agent answers in order.
    m_connection.requestClockSamples(kClockSamplesPerSync);
    m_connection.sendText(encodeRequest(request));
    if (stopAfter)
        m_connection.send(StopMessage {});
    m_watchdog = std::thread([this] { watch(); });
}

void RemoteRunSession::stop()
{
    std::lock_guard lock(m_mutex);
    m_stopRequested = true;
    if (m_started && !m_finished)
        m_connection.send(StopMessage {});
}

void RemoteRunSession::endStep(std::size_t step)
{
    std::lock_guard lock(m_mutex);
    if (m_started && !m_finished)
        m_connection.send(EndStepMessage {step});
}

void RemoteRunSession::stopNow()
{
    std::lock_guard lock(m_mutex);
    m_stopRequested = true;
    if (m_started && !m_finished)
        m_connection.send(StopNowMessage {});
}

void RemoteRunSession::wait()
{
    std::unique_lock lock(m_mutex);
    m_wake.wait(lock, [this] { return !m_started || m_reported; });
}

std::optional<ClockOffset> RemoteRunSession::clockOffset() const
{
    return m_connection.clockOffset();
}

void RemoteRunSession::record(const SessionEvent &event)
{
    std::visit(
        [this](const auto &e) {
            using E = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<E, StartedEvent>)
                m_partial.engine = e.engine;
            else if constexpr (std::is_same_v<E, PlanEvent>)
                m_partial.plan = e.plan;
            else if constexpr (std::is_same_v<E, IntervalEvent>)
                m_partial.intervals.push_back(e.sample);
            else if constexpr (std::is_same_v<E, StepResultEvent>)
                m_partial.steps.push_back(e.step);
            else if constexpr (std::is_same_v<E, NoticeEvent>)
                m_partial.notices.push_back(e.text);
        },
        event);
}

void RemoteRunSession::onSessionMessage(const std::string &text)
{
    auto decoded = decodeEvent(text);
    if (!decoded.value) {
        // An event lost is said; a result lost would leave the run without its end.
        if (isResultMessage(text))
            fault("sent a result that could not be read", decoded.error);
        else
            notice("a message from agent " + m_connection.name()
                + " could not be read: " + decoded.error);
        return;
    }
    if (auto *finished = std::get_if<FinishedEvent>(&*decoded.value)) {
        finish(std::move(finished->result));
        return;
    }
    // The sink lock is held from the check to the call: the watchdog's end cannot come
    // between two events, nor an event after the end.
    std::lock_guard sinkLock(m_sinkMutex);
    {
        std::lock_guard lock(m_mutex);
        if (!m_started || m_finished)
            return;
        record(*decoded.value);
    }
    deliver(std::move(*decoded.value), m_sink);
}

void RemoteRunSession::notice(const std::string &text)
{
    std::lock_guard sinkLock(m_sinkMutex);
    {
        std::lock_guard lock(m_mutex);
        if (!m_started || m_finished)
            return;
    }
    m_sink.onNotice(text);
}

void RemoteRunSession::onAgentMessage(const FromAgent &message)
{
    if (const auto *ready = std::get_if<ReadyMessage>(&message)) {
        {
            std::lock_guard lock(m_mutex);
            if (!m_started || m_finished)
                return;
        }
        std::weak_ptr<GoSender> sender = m_goSender;
        const std::size_t step = ready->step;
        StepBarrier::Release release = [sender, step](StepStart start) {
            if (auto s = sender.lock())
                s->send(step, start);
        };
        if (m_party.arrive)
            m_party.arrive(step, std::move(release));
        else
            release(std::chrono::steady_clock::now()); // one host: at once
        return;
    }
    if (const auto *done = std::get_if<AmountDoneMessage>(&message)) {
        if (m_party.stonewall)
            m_party.stonewall(done->step);
        return;
    }
    if (const auto *busy = std::get_if<BusyMessage>(&message)) {
        RunResult result;
        {
            std::lock_guard lock(m_mutex);
            result.runId = m_partial.runId;
            result.startedAt = m_partial.startedAt;
        }
        result.error = OpError {{}, "run on agent " + m_connection.name(), {}, busy->reason};
        finish(std::move(result));
        return;
    }
    const std::string *reason = nullptr;
    if (const auto *error = std::get_if<ErrorMessage>(&message))
        reason = &error->reason;
    else if (const auto *refused = std::get_if<RefusedMessage>(&message))
        reason = &refused->reason;
    if (reason)
        notice("agent " + m_connection.name() + ": " + *reason);
}

void RemoteRunSession::onConnectionClosed(const std::string &reason)
{
    fault("disconnected", reason.empty() ? "the connection was closed" : reason);
}

void RemoteRunSession::fault(const std::string &what, const std::string &reason)
{
    std::lock_guard sinkLock(m_sinkMutex);
    RunResult result;
    {
        std::lock_guard lock(m_mutex);
        if (m_finished)
            return;
        result = m_partial;
        result.stoppedByUser = m_stopRequested;
        const double seconds
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_startedAt).count();
        result.error = OpError {{},
            fmt::format("agent {} {} {:.1f} s into the run", m_connection.name(), what, seconds),
            {}, reason};
    }
    finishLocked(std::move(result));
}

void RemoteRunSession::finish(RunResult result)
{
    std::lock_guard sinkLock(m_sinkMutex);
    finishLocked(std::move(result));
}

void RemoteRunSession::finishLocked(RunResult result)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_finished)
            return;
        m_finished = true;
    }
    // The other hosts must not wait for this one: a failed run stops them all; a run that
    // ended well only no longer takes part.
    if (result.error && m_party.cancel)
        m_party.cancel();
    if (m_party.leave)
        m_party.leave();
    m_sink.onFinished(std::move(result));
    {
        std::lock_guard lock(m_mutex);
        m_reported = true;
    }
    m_wake.notify_all();
}

void RemoteRunSession::watch()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        const auto period = std::min(m_options.keepAlive, m_options.silenceLimit / 2);
        m_wake.wait_for(lock, period, [this] { return m_finished || m_destroying; });
        if (m_finished || m_destroying)
            return;
        const auto silence = std::chrono::steady_clock::now() - m_connection.lastHeard();
        lock.unlock();
        if (silence > m_options.silenceLimit) {
            fault("stopped answering",
                fmt::format("nothing received for {:.1f} s",
                    std::chrono::duration<double>(silence).count()));
            // Nobody waits for it any more: a live agent stops the run when the
            // connection ends.
            m_connection.close();
            return;
        }
        m_connection.requestClockSamples(1);
        lock.lock();
    }
}

} // namespace ioprism::core
