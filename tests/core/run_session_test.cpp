// SPDX-License-Identifier: GPL-3.0-or-later
// The run session: one request run in this process (LocalRunSession) and through the
// loopback session, which encodes the request and every event with the session codecs
// and decodes them on the other side. What arrives must be what was sent, field for
// field: the contract an agent's and an MPI rank's sessions build on.
#include "core/agent/message_channel.h"
#include "core/null_engine.h"
#include "core/run/loopback_session.h"
#include "core/run/run_session.h"
#include "core/run/session_codec.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "tests/support/test_profiles.h"

using namespace ioprism::core;
using namespace std::chrono_literals;

namespace {

// Two specs (two steps), two workers of two targets each, reads and writes: every kind of
// scope, both directions' histograms, a plan of several workers.
Profile twoStepProfile()
{
    return ioprism::test::twoWorkerProfile("session round trip", 50ms, 100);
}

RunRequest localNullRequest()
{
    RunRequest r;
    r.profile = twoStepProfile();
    r.engine = EngineKind::Null;
    r.settings.runId = 42;
    r.settings.ioLimitPerTarget = 2000;
    r.settings.deviceTailLimit = 0ms;
    r.removeTestFiles = true;
    r.commandLine = "ioprism-cli run --engine null";
    return r;
}

LocalRunHooks localNullHooks()
{
    LocalRunHooks hooks;
    hooks.makeBackend
        = [](EngineKind) -> std::unique_ptr<IoBackend> { return std::make_unique<NullBackend>(); };
    hooks.describe.describeSystem = [] {
        Environment e;
        e.hostName = "session-host";
        e.toolVersion = "0.1.0";
        return e;
    };
    hooks.removeTestFile = [](const std::string &) -> Status { return Ok {}; };
    return hooks;
}

// Every event, in order, as the sink got it.
struct EventLog final : EventSink {
    void onEvent(SessionEvent event) override
    {
        std::lock_guard lock(mutex);
        events.push_back(std::move(event));
    }
    std::mutex mutex;
    std::vector<SessionEvent> events;
};

// Forwards every event to two sinks: the far side's record of what it sent, and the
// relay that sends it.
struct Tee final : RunSink {
    Tee(RunSink &a, RunSink &b)
        : a(a)
        , b(b)
    { }
    void onPhase(RunPhase p, std::size_t s, const std::string &n) override
    {
        a.onPhase(p, s, n), b.onPhase(p, s, n);
    }
    void onPrepareProgress(
        const std::string &path, std::uint64_t d, std::uint64_t t, PrepareWork w) override
    {
        a.onPrepareProgress(path, d, t, w), b.onPrepareProgress(path, d, t, w);
    }
    void onPlan(const ResolvedPlan &p) override { a.onPlan(p), b.onPlan(p); }
    void onInterval(const IntervalSample &s) override { a.onInterval(s), b.onInterval(s); }
    void onStepResult(const StepResult &s, const PlannedStep &p) override
    {
        a.onStepResult(s, p), b.onStepResult(s, p);
    }
    void onNotice(const std::string &t) override { a.onNotice(t), b.onNotice(t); }
    void onStarted(const std::string &e) override { a.onStarted(e), b.onStarted(e); }
    void onFinished(RunResult &&r) override
    {
        a.onFinished(RunResult(r));
        b.onFinished(std::move(r));
    }
    RunSink &a;
    RunSink &b;
};

// A LocalRunSession that also records, on the far side, every event it sends.
struct RecordingLocalSession final : RunSession {
    RecordingLocalSession(EventLog &sent, RunSink &relay)
        : tee(sent, relay)
        , local(localNullHooks(), tee)
    { }
    void start(RunRequest r) override { local.start(std::move(r)); }
    void stop() override { local.stop(); }
    void stopNow() override { local.stopNow(); }
    void wait() override { local.wait(); }
    Tee tee;
    LocalRunSession local;
};

const RunResult &finishedResult(const std::vector<SessionEvent> &events)
{
    return std::get<FinishedEvent>(events.back()).result;
}

TEST(RunSession, ALocalSessionReportsStartedFirstAndItsResultOnceAndLast)
{
    EventLog sink;
    {
        LocalRunSession session(localNullHooks(), sink);
        session.start(localNullRequest());
        session.wait();
    }
    ASSERT_FALSE(sink.events.empty());
    EXPECT_TRUE(std::holds_alternative<StartedEvent>(sink.events.front()));
    EXPECT_EQ(std::get<StartedEvent>(sink.events.front()).engine, "null");
    ASSERT_TRUE(std::holds_alternative<FinishedEvent>(sink.events.back()));
    int finished = 0;
    for (const auto &e : sink.events)
        finished += std::holds_alternative<FinishedEvent>(e) ? 1 : 0;
    EXPECT_EQ(finished, 1);
    const RunResult &r = finishedResult(sink.events);
    EXPECT_FALSE(r.error) << r.error->toString();
    EXPECT_EQ(r.runId, 42u);
    ASSERT_EQ(r.steps.size(), 2u);
    // 2 workers x 2 targets x 2000 I/Os per step, as the request's limit says.
    EXPECT_EQ(r.steps[0].scopes[0].figures.total.ios, 8000u);
    EXPECT_EQ(r.environment.commandLine, "ioprism-cli run --engine null");
    EXPECT_EQ(r.environment.hostName, "session-host");
    // The run removed its test files as asked, and says which.
    EXPECT_EQ(r.testFileRemoval.removed.size(), 4u);
    EXPECT_TRUE(r.testFileRemoval.failed.empty());
}

TEST(RunSession, WhatCrossesTheLoopbackIsWhatTheFarSideSentFieldForField)
{
    EventLog sent; // on the far side, before encoding
    EventLog received; // on the near side, after decoding
    RunSessionFactory farSide = [&sent](RunSink &relay) -> std::unique_ptr<RunSession> {
        return std::make_unique<RecordingLocalSession>(sent, relay);
    };
    std::uint64_t messages = 0;
    {
        LoopbackRunSession session(farSide, received);
        session.start(localNullRequest());
        session.wait();
        messages = session.messages();
    }
    ASSERT_EQ(received.events.size(), sent.events.size());
    EXPECT_EQ(messages, sent.events.size()) << "every event crossed as a message";
    std::size_t intervals = 0;
    for (std::size_t i = 0; i < sent.events.size(); ++i) {
        EXPECT_EQ(received.events[i].index(), sent.events[i].index()) << "event " << i;
        std::visit(
            [&](const auto &s) {
                using E = std::decay_t<decltype(s)>;
                const auto &r = std::get<E>(received.events[i]);
                if constexpr (std::is_same_v<E, FinishedEvent>)
                    EXPECT_TRUE(r.result == s.result) << "the run's result";
                else if constexpr (std::is_same_v<E, PlanEvent>)
                    EXPECT_TRUE(r.plan == s.plan) << "the plan";
                else if constexpr (std::is_same_v<E, IntervalEvent>) {
                    ++intervals;
                    EXPECT_TRUE(r.sample == s.sample) << "interval " << i;
                } else if constexpr (std::is_same_v<E, StepResultEvent>) {
                    EXPECT_TRUE(r.step == s.step) << "step result " << i;
                    EXPECT_TRUE(r.planned == s.planned);
                } else
                    EXPECT_TRUE(r == s) << "event " << i;
            },
            sent.events[i]);
    }
    EXPECT_GT(intervals, 0u);
    // The fuzzer's seeds (tests/fuzz/session_seeds) are written from here: one message
    // of each type, and the request.
    if (const char *dir = std::getenv("IOPRISM_SESSION_SEEDS")) {
        std::ofstream(std::string(dir) + "/request.json") << encodeRequest(localNullRequest());
        for (const auto &e : received.events) {
            const std::string text = encodeEvent(e);
            if (isBinaryMessage(text)) { // mark, version, type's length and name, body
                const std::string type = text.substr(3, std::size_t(text[2]));
                std::ofstream(std::string(dir) + "/" + type + ".bin", std::ios::binary) << text;
                continue;
            }
            const auto type = text.substr(text.rfind("\"type\":\"") + 8);
            std::ofstream(std::string(dir) + "/" + type.substr(0, type.find('"')) + ".json")
                << text;
        }
    }
    const RunResult &result = finishedResult(received.events);
    EXPECT_FALSE(result.error);
    EXPECT_EQ(result.steps.size(), 2u);
    EXPECT_GT(result.steps[1].scopes[0].measurement.read.histogram.count(), 0u)
        << "the histograms crossed, not only the figures";
}

TEST(RunSession, ALocalAndALoopbackRunOfOneRequestRunTheSamePlanAndTheSameIos)
{
    EventLog local, loopback;
    {
        LocalRunSession session(localNullHooks(), local);
        session.start(localNullRequest());
        session.wait(); // destroying a session stops its run: let it end first
    }
    {
        LoopbackRunSession session(localRunSessions(localNullHooks()), loopback);
        session.start(localNullRequest());
        session.wait();
    }
    ASSERT_FALSE(finishedResult(local.events).stoppedByUser);
    ASSERT_FALSE(finishedResult(loopback.events).stoppedByUser);
    const RunResult &a = finishedResult(local.events);
    const RunResult &b = finishedResult(loopback.events);
    // Two runs differ in their timing, never in what they were asked to do.
    EXPECT_TRUE(a.plan == b.plan);
    EXPECT_EQ(a.engine, b.engine);
    ASSERT_EQ(a.steps.size(), b.steps.size());
    for (std::size_t s = 0; s < a.steps.size(); ++s) {
        ASSERT_EQ(a.steps[s].scopes.size(), b.steps[s].scopes.size());
        for (std::size_t i = 0; i < a.steps[s].scopes.size(); ++i) {
            EXPECT_EQ(a.steps[s].scopes[i].scope, b.steps[s].scopes[i].scope);
            EXPECT_EQ(
                a.steps[s].scopes[i].figures.total.ios, b.steps[s].scopes[i].figures.total.ios);
            EXPECT_EQ(
                a.steps[s].scopes[i].figures.total.bytes, b.steps[s].scopes[i].figures.total.bytes);
        }
    }
    EXPECT_EQ(a.testFileRemoval, b.testFileRemoval);
}

TEST(RunSession, AStopBeforeTheRunBeginsEndsItAsStoppedWithItsOneResult)
{
    EventLog sink;
    RunRequest r = localNullRequest();
    r.settings.ioLimitPerTarget = 0; // no limit: runs until stopped
    LocalRunSession session(localNullHooks(), sink);
    session.stop();
    session.start(std::move(r));
    session.wait();
    const RunResult &result = finishedResult(sink.events);
    EXPECT_TRUE(result.stoppedByUser);
    EXPECT_FALSE(result.error);
}

TEST(RunSession, AnEngineThisPlatformLacksEndsTheRunWithAnErrorNamingIt)
{
    EventLog sink;
    LocalRunHooks hooks = localNullHooks();
    hooks.makeBackend = [](EngineKind) { return std::unique_ptr<IoBackend>(); };
    LocalRunSession session(hooks, sink);
    RunRequest r = localNullRequest();
    r.engine = EngineKind::Iocp;
    session.start(std::move(r));
    session.wait();
    ASSERT_EQ(sink.events.size(), 1u);
    const RunResult &result = finishedResult(sink.events);
    ASSERT_TRUE(result.error);
    EXPECT_EQ(result.error->toString(),
        "make the I/O engine: the iocp engine is not available on this platform");
}

TEST(SessionCodec, ARequestDecodesToTheRequestEncoded)
{
    RunRequest r = localNullRequest();
    r.engine = EngineKind::Sync;
    r.settings.allowDeviceWrites = true;
    r.settings.verdict.tolerance = 0.125;
    r.settings.stallThreshold = 1234ms;
    r.settings.intervalHistoryBytes = 12345;
    r.settings.polling = {.completions = true, .submissions = true};
    const auto decoded = decodeRequest(encodeRequest(r));
    ASSERT_TRUE(decoded.value) << decoded.error;
    EXPECT_TRUE(*decoded.value == r);
}

TEST(SessionCodec, NumbersAFileCannotHoldCrossExactly)
{
    IntervalSample s;
    s.startSeconds = 0.1 + 0.2; // not a short decimal
    s.endSeconds = std::numeric_limits<double>::infinity();
    s.cpuEffectiveness = std::numeric_limits<double>::denorm_min();
    s.runId = std::numeric_limits<std::uint64_t>::max();
    s.scopes.push_back({});
    s.scopes[0].figures.read.latency.meanUs = -std::numeric_limits<double>::infinity();
    const auto decoded = decodeEvent(encodeEvent(IntervalEvent {s}));
    ASSERT_TRUE(decoded.value) << decoded.error;
    EXPECT_TRUE(std::get<IntervalEvent>(*decoded.value).sample == s);

    // NaN is never equal to itself: compare what it became.
    s.cpuEffectiveness = std::numeric_limits<double>::quiet_NaN();
    const auto nan = decodeEvent(encodeEvent(IntervalEvent {s}));
    ASSERT_TRUE(nan.value) << nan.error;
    EXPECT_TRUE(std::isnan(std::get<IntervalEvent>(*nan.value).sample.cpuEffectiveness));
}

TEST(SessionCodec, AnErrorKeepsItsCodeAndCategory)
{
    RunResult r;
    r.error = OpError {std::error_code(28, std::generic_category()), "write", "/mnt/x", "full"};
    r.testFileRemoval.failed.push_back(
        OpError {std::error_code(5, std::system_category()), "remove", "a", ""});
    const auto decoded = decodeEvent(encodeEvent(FinishedEvent {r}));
    ASSERT_TRUE(decoded.value) << decoded.error;
    const RunResult &back = std::get<FinishedEvent>(*decoded.value).result;
    EXPECT_TRUE(back == r);
    EXPECT_EQ(back.error->code.category(), std::generic_category());
    EXPECT_EQ(back.testFileRemoval.failed[0].code.category(), std::system_category());
}

TEST(SessionCodec, AMessageOfAnotherVersionIsRefusedNamingBothVersions)
{
    const std::string ours = "\"session\":" + std::to_string(kSessionProtocolVersion);
    const std::string other = std::to_string(kSessionProtocolVersion + 1);
    std::string text = encodeEvent(NoticeEvent {"hello"});
    const auto at = text.find(ours);
    ASSERT_NE(at, std::string::npos) << text;
    text.replace(at, ours.size(), "\"session\":" + other);
    const auto decoded = decodeEvent(text);
    EXPECT_FALSE(decoded.value);
    EXPECT_NE(decoded.error.find("session protocol " + other), std::string::npos) << decoded.error;
    EXPECT_NE(
        decoded.error.find("speaks " + std::to_string(kSessionProtocolVersion)), std::string::npos)
        << decoded.error;

    // The binary interval carries the version second, after its mark.
    std::string binary = encodeEvent(IntervalEvent {});
    ASSERT_TRUE(isBinaryMessage(binary));
    binary[1] = static_cast<char>(kSessionProtocolVersion + 1);
    const auto refused = decodeEvent(binary);
    EXPECT_FALSE(refused.value);
    EXPECT_NE(refused.error.find("session protocol " + other), std::string::npos) << refused.error;
}

// An interval as a host with workers and devices sends it: every kind of field.
IntervalSample fullInterval()
{
    IntervalSample s;
    s.runId = 7;
    s.step = 2;
    s.stepName = "4K random read — ü";
    s.phase = RunPhase::RampUp;
    s.startSeconds = 1.0 / 3.0;
    s.endSeconds = 1.1;
    s.mergedIntervals = 4;
    for (int w = 0; w < 3; ++w) {
        ScopeFigures scope;
        scope.scope = {Scope::Kind::Worker, w, -1, "Worker " + std::to_string(w + 1), "", 0};
        scope.figures.read = {
            1000u + w, 4096000u, 1, 9999.5, 12.25, 2, 40.96, 39.0625, {1, 2.5, 3e9, 2, 3, 4, 5, 6}};
        scope.figures.inFlightAtEnd = 32;
        if (w == 1)
            scope.figures.connections = ConnectionFigures {{5, 0, 50, {1, 2, 3, 4, 5, 6, 7, 8}}};
        s.scopes.push_back(scope);
    }
    s.readLatency.indices = {3, 70, 900};
    s.readLatency.counts = {1, 5, 1u << 31};
    s.readLatency.sumNs = std::numeric_limits<std::uint64_t>::max();
    s.readLatency.minNs = 1;
    s.readLatency.maxNs = 123456789;
    s.cpu.busyPercent = 87.5;
    s.cpuEffectiveness = -0.0;
    s.devices.available = true;
    DeviceFigures device;
    device.valid = true;
    device.readBytes = 1ull << 40;
    device.readAwaitMs = 0.02;
    s.devices.devices = {device, device};
    s.devices.total = device;
    s.devices.verdict.verdict = Verdict::OtherTraffic;
    return s;
}

TEST(SessionCodec, AnIntervalTravelsAsBinaryAndArrivesFieldForField)
{
    const IntervalSample s = fullInterval();
    const std::string text = encodeEvent(IntervalEvent {s});
    ASSERT_TRUE(isBinaryMessage(text));
    const auto decoded = decodeEvent(text);
    ASSERT_TRUE(decoded.value) << decoded.error;
    EXPECT_TRUE(std::get<IntervalEvent>(*decoded.value).sample == s);
    EXPECT_TRUE(std::signbit(std::get<IntervalEvent>(*decoded.value).sample.cpuEffectiveness));

    // The large ones are binary too; every other event stays JSON text.
    EXPECT_TRUE(isBinaryMessage(encodeEvent(StepResultEvent {})));
    EXPECT_TRUE(isBinaryMessage(encodeEvent(FinishedEvent {})));
    EXPECT_TRUE(isResultMessage(encodeEvent(FinishedEvent {})));
    EXPECT_FALSE(isResultMessage(text));
    EXPECT_EQ(encodeEvent(NoticeEvent {"hi"}).front(), '{');
    EXPECT_EQ(encodeEvent(PhaseEvent {RunPhase::Measuring, 1, "x"}).front(), '{');
}

TEST(SessionCodec, EveryCutOfABinaryIntervalIsRefusedAndSaysWhere)
{
    const std::string text = encodeEvent(IntervalEvent {fullInterval()});
    for (std::size_t n = 0; n < text.size(); ++n) {
        const auto cut = decodeEvent(text.substr(0, n));
        ASSERT_FALSE(cut.value) << "cut at " << n;
        ASSERT_FALSE(cut.error.empty()) << "cut at " << n;
    }
    const auto cut = decodeEvent(text.substr(0, text.size() - 1));
    EXPECT_NE(cut.error.find("body.sample.devices.latency"), std::string::npos) << cut.error;
    EXPECT_NE(cut.error.find("ends early"), std::string::npos) << cut.error;

    const auto longer = decodeEvent(text + "x");
    EXPECT_FALSE(longer.value);
    EXPECT_NE(longer.error.find("1 bytes after"), std::string::npos) << longer.error;
}

TEST(SessionCodec, ABinaryIntervalWithAnImpossibleValueIsRefusedByItsPath)
{
    IntervalSample s;
    s.scopes.push_back({});
    s.scopes[0].scope.label = "L";
    const std::string text = encodeEvent(IntervalEvent {s});
    // The one scope's kind follows its count: the byte after "...scopes" count 1.
    // Find it from the encoded label instead of counting fields by hand.
    const auto label = text.find("\x01L");
    ASSERT_NE(label, std::string::npos);
    // kind (0), worker (-1 = zigzag 1), target (zigzag 1), then the label.
    ASSERT_GE(label, 3u);
    std::string badKind = text;
    badKind[label - 3] = 9;
    const auto kind = decodeEvent(badKind);
    EXPECT_FALSE(kind.value);
    EXPECT_NE(kind.error.find("body.sample.scopes[0].scope.kind"), std::string::npos) << kind.error;
    EXPECT_NE(kind.error.find("not a value this version knows"), std::string::npos) << kind.error;

    // A count larger than the message: refused before anything is allocated for it.
    std::string huge = text;
    huge[label - 4] = '\x7f'; // the scopes' count
    const auto count = decodeEvent(huge);
    EXPECT_FALSE(count.value);
    EXPECT_NE(count.error.find("body.sample.scopes"), std::string::npos) << count.error;

    // A type this build does not write in binary is refused, named.
    std::string other = text;
    const auto type = other.find("interval");
    ASSERT_NE(type, std::string::npos);
    other.replace(type, 8, "teleport");
    const auto unknown = decodeEvent(other);
    EXPECT_FALSE(unknown.value);
    EXPECT_NE(unknown.error.find("\"teleport\""), std::string::npos) << unknown.error;
}

TEST(SessionCodec, ADamagedMessageIsRefusedWithThePathOfItsFirstProblem)
{
    std::string text = encodeEvent(PrepareProgressEvent {"/t/f.dat", 1, 2, PrepareWork::Filling});
    const auto at = text.find("\"done\":1");
    ASSERT_NE(at, std::string::npos) << text;
    text.replace(at, 8, "\"done\":\"x\"");
    const auto decoded = decodeEvent(text);
    EXPECT_FALSE(decoded.value);
    EXPECT_NE(decoded.error.find("body.done"), std::string::npos) << decoded.error;

    const std::string v = std::to_string(kSessionProtocolVersion);
    EXPECT_FALSE(decodeEvent("{\"session\":" + v + ",\"type\":\"teleport\",\"body\":{}}").value);
    EXPECT_FALSE(decodeEvent("{\"session\":" + v + ",").value);
    EXPECT_FALSE(decodeEvent("").value);
    EXPECT_FALSE(decodeRequest(encodeEvent(NoticeEvent {"not a request"})).value);
    EXPECT_FALSE(decodeRequest(encodeEvent(IntervalEvent {})).value);
}

TEST(SessionCodec, AnEnumeratorThisBuildDoesNotKnowIsRefused)
{
    std::string text = encodeEvent(PhaseEvent {RunPhase::Measuring, 0, "s"});
    const auto at = text.find("\"phase\":");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 9, "\"phase\":9");
    const auto decoded = decodeEvent(text);
    EXPECT_FALSE(decoded.value);
    EXPECT_NE(decoded.error.find("body.phase"), std::string::npos) << decoded.error;
}

} // namespace
