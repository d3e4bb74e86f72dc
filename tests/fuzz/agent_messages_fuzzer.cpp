// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the agent protocol's control messages (core/agent/agent_messages.h),
// what an agent reads from a controller and a controller from an agent, and the agent's
// service fed the same text before and after the hello.
//
// Beyond "does not crash": a refusal says why; an accepted message is encoded again, and
// what is encoded must decode to an equal message and encode to the same text. The
// service answers a first message with exactly a welcome (a good hello) or a refusal,
// then closes or goes on; after the hello, whatever the text, it still answers a clock
// request that follows it (it neither crashed nor stopped serving), unless the text was
// a bye, after which it closes.
#include "core/agent/agent_messages.h"
#include "core/agent/agent_service.h"
#include "core/agent/message_channel.h"
#include "core/run/session_codec.h"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_support.h"

using namespace ioprism;

namespace {

const char *const kToken = "fuzz-token";
constexpr std::uint64_t kMarkerId = 0xF0221;

template<typename Decoded, typename Decode> void roundTrip(std::string_view text, Decode &&decode)
{
    const Decoded read = decode(text);
    if (read.session)
        return; // the session codec's own fuzzer reads those
    if (!read.value) {
        if (read.error.empty())
            fuzz::fail("rejected without a message", {}, text);
        return;
    }
    const std::string written = core::encodeAgentMessage(*read.value);
    const Decoded again = decode(written);
    if (!again.value)
        fuzz::fail("the encoded message does not decode: " + again.error, {}, written);
    if (!(*again.value == *read.value))
        fuzz::fail("the encoded message decodes to another message", {}, written);
    if (core::encodeAgentMessage(*again.value) != written)
        fuzz::fail("encoding the decoded message gives other text", {}, written);
}

// A run that ends as soon as it starts: the service's part is under test, not a run.
class EmptyRun final : public core::RunSession
{
public:
    explicit EmptyRun(core::RunSink &sink)
        : m_sink(sink)
    { }
    void start(core::RunRequest request) override
    {
        core::RunResult result;
        result.runId = request.settings.runId;
        m_sink.onFinished(std::move(result));
    }
    void stop() override { }
    void stopNow() override { }
    void wait() override { }

private:
    core::RunSink &m_sink;
};

const core::AgentConfig &config()
{
    static const core::AgentConfig c = [] {
        core::AgentConfig c;
        c.token = kToken;
        c.allowedRoots = {"/fuzz"};
        c.identity.host = "fuzz";
        c.makeRun = [](core::RunSink &sink, core::StepGate,
                        core::StepAmountDone) -> std::unique_ptr<core::RunSession> {
            return std::make_unique<EmptyRun>(sink);
        };
        return c;
    }();
    return c;
}

// The controller's end of a connection to a service, read by hand.
struct Peer {
    Peer()
    {
        auto [mine, theirs] = core::makeChannelPair();
        channel = std::move(mine);
        service = std::make_unique<core::AgentService>(config(), state, std::move(theirs));
        channel->start(
            [this](std::string text) {
                std::lock_guard lock(mutex);
                received.push_back(std::move(text));
                wake.notify_all();
            },
            [this](std::string) {
                std::lock_guard lock(mutex);
                closed = true;
                wake.notify_all();
            });
        service->start();
    }
    template<typename Pred> void waitFor(Pred pred, std::string_view what, std::string_view text)
    {
        std::unique_lock lock(mutex);
        if (!wake.wait_for(lock, std::chrono::seconds(5), pred))
            fuzz::fail(what, {}, text);
    }
    std::optional<core::FromAgent> decoded(std::size_t i)
    {
        std::lock_guard lock(mutex);
        if (i >= received.size())
            return std::nullopt;
        return core::decodeFromAgent(received[i]).value;
    }

    // Destroyed in reverse: the service (joins its thread), then the channel (no callback
    // after it), then what the callbacks touch.
    std::mutex mutex;
    std::condition_variable wake;
    std::vector<std::string> received;
    bool closed = false;
    core::AgentState state;
    std::unique_ptr<core::MessageChannel> channel;
    std::unique_ptr<core::AgentService> service;
};

void preAuth(std::string_view text)
{
    Peer peer;
    peer.channel->send(std::string(text));
    peer.waitFor([&] { return !peer.received.empty() || peer.closed; },
        "no answer to a first message", text);
    const auto answer = peer.decoded(0);
    if (!answer
        || !(std::holds_alternative<core::WelcomeMessage>(*answer)
            || std::holds_alternative<core::RefusedMessage>(*answer)))
        fuzz::fail("a first message answered by neither a welcome nor a refusal", {}, text);
    if (std::holds_alternative<core::RefusedMessage>(*answer))
        peer.waitFor([&] { return peer.closed; }, "a refused connection stays open", text);
}

void postAuth(std::string_view text)
{
    Peer peer;
    peer.channel->send(core::encodeAgentMessage(core::ToAgent {
        core::HelloMessage {IOPRISM_VERSION, core::kSessionProtocolVersion, kToken, "fuzz"}}));
    peer.channel->send(std::string(text));
    peer.channel->send(core::encodeAgentMessage(core::ToAgent {core::ClockRequest {kMarkerId, 1}}));
    auto marked = [&] {
        for (const auto &m : peer.received) {
            const auto d = core::decodeFromAgent(m);
            if (d.value && std::holds_alternative<core::ClockReply>(*d.value)
                && std::get<core::ClockReply>(*d.value).id == kMarkerId)
                return true;
        }
        return false;
    };
    peer.waitFor([&] { return peer.closed || marked(); },
        "the service stopped answering after a message", text);
    if (peer.closed) {
        const auto read = core::decodeToAgent(text);
        if (!read.value || !std::holds_alternative<core::ByeMessage>(*read.value))
            fuzz::fail("the service closed after a message that was not a bye", {}, text);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text = fuzz::asText(data, size);
    roundTrip<core::AgentDecoded<core::ToAgent>>(
        text, [](std::string_view t) { return core::decodeToAgent(t); });
    roundTrip<core::AgentDecoded<core::FromAgent>>(
        text, [](std::string_view t) { return core::decodeFromAgent(t); });
    preAuth(text);
    postAuth(text);
    return 0;
}
