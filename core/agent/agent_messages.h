// SPDX-License-Identifier: GPL-3.0-or-later
// The agent protocol's control messages (docs/agent-protocol.md): what a controller (the
// GUI, the CLI) and an agent (`ioprism-agent`) say to each other around a run, over a
// core::MessageChannel.
//
// Each control message is one JSON object {"agent": <protocol version>, "type": "...",
// <fields>}. The run's own messages (the request, every event, the result) travel as the
// session codec writes them ({"session": 1, ...}, core/run/session_codec.h), unchanged: a
// reader tells the two apart by their key, "agent" or "session". The run request is the
// command to run: there is no separate "run" message.
//
// Decoding checks every field with the one path-aware reader (StopAtFirst) and never
// throws: an unknown type or field, a wrong type, a missing field or a message of another
// protocol version is refused with the first problem by its JSON path; another version is
// named beside this one. One message stays readable across versions: `refused`, whose
// shape is frozen, so that a peer of another version can always say why it refuses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ioprism::core {

// Raised whenever a control message changes in a way an older reader would misread (a
// field added, removed, renamed or given another meaning).
inline constexpr int kAgentProtocolVersion = 1;

// The longest message an agent reads from a controller (a control message or a run
// request with its profile): longer ones are refused before they are parsed.
inline constexpr std::size_t kAgentMaxInboundBytes = 4u << 20;

// ------------------------------------------------------------ controller -> agent

// The first message: who asks, in which version, with which token.
struct HelloMessage {
    std::string version; // the controller's IOPrism version ("0.3.0")
    int session = 0; // the run session protocol it speaks (kSessionProtocolVersion)
    std::string token; // the agent's shared secret
    std::string controller; // a name for messages ("ctl-host"); may be ""
    friend bool operator==(const HelloMessage &, const HelloMessage &) = default;
};
// A clock sample: the agent answers at once with its own time (ClockReply).
struct ClockRequest {
    std::uint64_t id = 0;
    std::int64_t controllerNs = 0; // the controller's monotonic clock when sent
    friend bool operator==(const ClockRequest &, const ClockRequest &) = default;
};
// Asks for the agent's devices, mounts and allowed roots (InventoryMessage).
struct InventoryRequest {
    friend bool operator==(const InventoryRequest &, const InventoryRequest &) = default;
};
// Answers a Ready: the step starts at startNs on the AGENT's monotonic clock, or does
// not start at all (stop: the run stops as if Stop had been pressed).
struct GoMessage {
    std::uint64_t step = 0;
    std::int64_t startNs = 0; // ignored when stop
    bool stop = false;
    friend bool operator==(const GoMessage &, const GoMessage &) = default;
};
// The run's Stop: in-flight I/O is waited for until the run's stop deadline.
struct StopMessage {
    friend bool operator==(const StopMessage &, const StopMessage &) = default;
};
// Stop without waiting for in-flight I/O.
struct StopNowMessage {
    friend bool operator==(const StopNowMessage &, const StopNowMessage &) = default;
};
// The controller is done with this connection; the agent closes it.
struct ByeMessage {
    friend bool operator==(const ByeMessage &, const ByeMessage &) = default;
};

// Stonewalling: another host moved the step's amount first; step `step` ends now if it
// is the one running (Run::requestEndStep), and the run goes on.
struct EndStepMessage {
    std::uint64_t step = 0;
    friend bool operator==(const EndStepMessage &, const EndStepMessage &) = default;
};

using ToAgent = std::variant<HelloMessage, ClockRequest, InventoryRequest, GoMessage, StopMessage,
    StopNowMessage, ByeMessage, EndStepMessage>;

// ------------------------------------------------------------ agent -> controller

// The answer to a good hello: what the agent is.
struct WelcomeMessage {
    std::string version; // the agent's IOPrism version
    int session = 0; // the run session protocol it speaks
    std::string host; // its host name
    std::string os; // "Linux 6.1.0-18-amd64", "Windows 10.0.19045"
    std::uint32_t cpus = 0;
    std::vector<std::string> engines; // the engines it can run ("io_uring", "sync", "null")
    std::uint64_t pid = 0;
    friend bool operator==(const WelcomeMessage &, const WelcomeMessage &) = default;
};
// The agent will not serve this connection (a bad hello, a wrong token, a version it does
// not speak, no hello in time): it closes after sending it. Frozen across versions.
struct RefusedMessage {
    std::string reason;
    friend bool operator==(const RefusedMessage &, const RefusedMessage &) = default;
};
struct ClockReply {
    std::uint64_t id = 0;
    std::int64_t controllerNs = 0; // as the request said
    std::int64_t agentNs = 0; // the agent's monotonic clock when it answered
    friend bool operator==(const ClockReply &, const ClockReply &) = default;
};
struct InventoryDevice {
    std::string path; // "/dev/nvme0n1", "\\\\.\\PhysicalDrive1"
    std::string model;
    std::uint64_t sizeBytes = 0;
    std::string inUse; // "" when free; else why not ("mounted at /", "holds swap")
    friend bool operator==(const InventoryDevice &, const InventoryDevice &) = default;
};
struct InventoryMount {
    std::string mountPoint;
    std::string fsType;
    std::uint64_t freeBytes = 0;
    std::uint64_t totalBytes = 0;
    friend bool operator==(const InventoryMount &, const InventoryMount &) = default;
};
struct InventoryMessage {
    std::vector<InventoryDevice> devices;
    std::vector<InventoryMount> mounts;
    std::vector<std::string> roots; // the agent's allow list (--allow)
    friend bool operator==(const InventoryMessage &, const InventoryMessage &) = default;
};
// The run has reached the gate of `step` (its workers are ready) and waits for a Go.
struct ReadyMessage {
    std::uint64_t step = 0;
    friend bool operator==(const ReadyMessage &, const ReadyMessage &) = default;
};
// A run request refused because the agent runs another controller's run.
struct BusyMessage {
    std::string controller; // who runs it ("192.0.2.7:50122 (ctl-host)")
    std::int64_t sinceUnixMs = 0; // since when, wall clock
    std::string reason; // the whole sentence, for the user
    friend bool operator==(const BusyMessage &, const BusyMessage &) = default;
};
// A message the agent could not take (malformed, out of order); what it was doing goes on.
struct ErrorMessage {
    std::string reason;
    friend bool operator==(const ErrorMessage &, const ErrorMessage &) = default;
};

// Stonewalling: this agent's run moved the amount of `step` (RunSettings::stonewallBytes);
// its step has ended, and the controller ends it on the other hosts.
struct AmountDoneMessage {
    std::uint64_t step = 0;
    friend bool operator==(const AmountDoneMessage &, const AmountDoneMessage &) = default;
};

using FromAgent = std::variant<WelcomeMessage, RefusedMessage, ClockReply, InventoryMessage,
    ReadyMessage, BusyMessage, ErrorMessage, AmountDoneMessage>;

// ------------------------------------------------------------ text

std::string encodeAgentMessage(const ToAgent &message);
std::string encodeAgentMessage(const FromAgent &message);

template<typename T> struct AgentDecoded {
    std::optional<T> value; // nullopt when refused, or for a session message
    // A run session message ({"session": ...}): read it with the session codec.
    bool session = false;
    std::string error; // why it was refused, with the JSON path of the first problem
};
// What a controller sends, as an agent reads it.
AgentDecoded<ToAgent> decodeToAgent(std::string_view text);
// What an agent sends, as a controller reads it.
AgentDecoded<FromAgent> decodeFromAgent(std::string_view text);

// The message type names, in the variants' order (for the docs, the fuzzer's seeds).
std::string_view agentMessageType(const ToAgent &message);
std::string_view agentMessageType(const FromAgent &message);

} // namespace ioprism::core
