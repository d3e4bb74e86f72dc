// SPDX-License-Identifier: GPL-3.0-or-later
// The run session's messages as text: the request, every event a run reports (the
// RunSink's calls) and its result, for whatever carries a run across a process boundary
// (an agent's connection, an MPI rank's reduction, the loopback session of the tests).
//
// Each message is one JSON object, {"session": <protocol version>, "type": "...", ...},
// documented field by field in docs/architecture.md ("The run session's messages"), but
// the interval, step result and finished events, whose same fields travel in a binary
// form (encodeEvent).
// Decoding is exact: what encode wrote decodes to a value equal field for field to the
// one encoded (doubles round trip; non-finite ones are written as "nan", "inf", "-inf";
// histograms travel as their non-empty buckets), so a run on the other side of a
// connection is the run. Decoding checks every field with the one path-aware reader
// (core/json/json_reader.h) and never throws, whatever the text: a message it cannot
// read is refused with the first problem by its JSON path, and a message of another
// protocol version is refused naming both versions.
#pragma once

#include "core/run/results.h"
#include "core/run/run_request.h"
#include "core/run/run_sink.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace ioprism::core {

// Raised whenever a message changes in a way an older reader would misread.
inline constexpr int kSessionProtocolVersion = 8;

struct StartedEvent {
    std::string engine;
    friend bool operator==(const StartedEvent &, const StartedEvent &) = default;
};
struct PhaseEvent {
    RunPhase phase = RunPhase::Idle;
    std::size_t step = 0;
    std::string stepName;
    friend bool operator==(const PhaseEvent &, const PhaseEvent &) = default;
};
struct PrepareProgressEvent {
    std::string path;
    std::uint64_t done = 0;
    std::uint64_t total = 0;
    PrepareWork work = PrepareWork::Filling;
    friend bool operator==(const PrepareProgressEvent &, const PrepareProgressEvent &) = default;
};
struct PlanEvent {
    ResolvedPlan plan;
};
struct IntervalEvent {
    IntervalSample sample;
};
struct StepResultEvent {
    StepResult step;
    PlannedStep planned;
};
struct NoticeEvent {
    std::string text;
    friend bool operator==(const NoticeEvent &, const NoticeEvent &) = default;
};
struct SteadyStateEvent {
    std::size_t step = 0;
    SteadyStateRecord record;
    friend bool operator==(const SteadyStateEvent &, const SteadyStateEvent &) = default;
};
struct FinishedEvent {
    RunResult result;
};
// One RunSink call, as a value. The run's result is the last (isResultMessage).
using SessionEvent = std::variant<StartedEvent, PhaseEvent, PrepareProgressEvent, PlanEvent,
    IntervalEvent, StepResultEvent, NoticeEvent, SteadyStateEvent, FinishedEvent>;

std::string encodeRequest(const RunRequest &request);
// Every event as JSON text, but the interval, the step result and the run's result: the
// same fields in a binary form, marked by a first byte of 0 (never the first byte of JSON
// text), since the interval comes ten times a second from every host and the results
// carry every histogram and interval (session_codec.cpp says how each value is written;
// the mark: core/agent/message_channel.h).
std::string encodeEvent(const SessionEvent &event);

template<typename T> struct SessionDecoded {
    std::optional<T> value; // nullopt when the text was refused
    std::string error; // why, with the JSON path of the first problem; "" when read
};
SessionDecoded<RunRequest> decodeRequest(std::string_view text);
SessionDecoded<SessionEvent> decodeEvent(std::string_view text);
// Whether a message is a run's result by its type, whether or not the rest can be read: a
// result that cannot be read ends a remote run, where a lost event is only said.
bool isResultMessage(std::string_view text);

// Makes the sink call the event stands for (the receiving side of a session).
void deliver(SessionEvent event, RunSink &sink);

// A sink that turns every call into an event (the sending side of a session).
class EventSink : public RunSink
{
public:
    virtual void onEvent(SessionEvent event) = 0;

    void onPhase(RunPhase phase, std::size_t step, const std::string &stepName) override
    {
        onEvent(PhaseEvent {phase, step, stepName});
    }
    void onPrepareProgress(
        const std::string &path, std::uint64_t done, std::uint64_t total, PrepareWork work) override
    {
        onEvent(PrepareProgressEvent {path, done, total, work});
    }
    void onPlan(const ResolvedPlan &plan) override { onEvent(PlanEvent {plan}); }
    void onInterval(const IntervalSample &sample) override { onEvent(IntervalEvent {sample}); }
    void onStepResult(const StepResult &step, const PlannedStep &planned) override
    {
        onEvent(StepResultEvent {step, planned});
    }
    void onNotice(const std::string &text) override { onEvent(NoticeEvent {text}); }
    void onSteadyState(std::size_t step, const SteadyStateRecord &record) override
    {
        onEvent(SteadyStateEvent {step, record});
    }
    void onStarted(const std::string &engine) override { onEvent(StartedEvent {engine}); }
    void onFinished(RunResult &&result) override { onEvent(FinishedEvent {std::move(result)}); }
};

} // namespace ioprism::core
