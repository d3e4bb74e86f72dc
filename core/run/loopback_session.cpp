// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/loopback_session.h"

namespace ioprism::core {

void LoopbackRunSession::Relay::onEvent(SessionEvent event)
{
    const bool finished = std::holds_alternative<FinishedEvent>(event);
    const std::string text = encodeEvent(event);
    ++messages;
    bytes += text.size();
    auto decoded = decodeEvent(text);
    if (decoded.value) {
        deliver(std::move(*decoded.value), near);
        return;
    }
    // A message that does not read back is this build's own bug: said, and a run still
    // ends with its one finished report.
    if (!finished) {
        near.onNotice("a session message was lost: " + decoded.error);
        return;
    }
    near.onFinished(failedRunResult(0, "read the run's result", decoded.error));
}

LoopbackRunSession::LoopbackRunSession(const RunSessionFactory &farSide, RunSink &sink)
    : m_relay(sink)
    , m_farSide(farSide(m_relay))
{ }

LoopbackRunSession::~LoopbackRunSession()
{
    m_farSide.reset(); // stops and joins the run before the relay goes
}

void LoopbackRunSession::start(RunRequest request)
{
    auto decoded = decodeRequest(encodeRequest(request));
    if (!decoded.value) {
        m_relay.near.onFinished(
            failedRunResult(request.settings.runId, "read the run request", decoded.error));
        return;
    }
    m_farSide->start(std::move(*decoded.value));
}

void LoopbackRunSession::stop()
{
    m_farSide->stop();
}

void LoopbackRunSession::stopNow()
{
    m_farSide->stopNow();
}

void LoopbackRunSession::wait()
{
    m_farSide->wait();
}

} // namespace ioprism::core
