// SPDX-License-Identifier: GPL-3.0-or-later
// The agent protocol end to end without a network: an AgentService on one end of an
// in-memory channel pair, an AgentConnection and a RemoteRunSession on the other.
//
// The step barrier is a test double (BarrierParty below): the real StepBarrier is being
// written beside this, and the gates are tested here with a scripted run that calls its
// gate as core::Run will, so that these tests hold before and after core::Run honours
// RunHooks::stepGate.
#include "core/agent/agent_service.h"
#include "core/agent/remote_session.h"
#include "core/null_engine.h"
#include "core/run/run_session.h"
#include "core/run/session_codec.h"

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <gtest/gtest.h>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/test_profiles.h"

using namespace ioprism::core;
using namespace std::chrono_literals;

namespace {

constexpr auto kPatience = 30s; // generous: a condition, never a measured time
// Absolute on this host ("C:/..." where a path needs a drive: Windows).
const std::string kSessionRoot
    = std::filesystem::path("/").is_absolute() ? "/ioprism-agent-test" : "C:/ioprism-agent-test";
const std::string kOutside
    = std::filesystem::path("/").is_absolute() ? "/etc/passwd" : "C:/etc/passwd";
const std::string kSessionToken = "s3cret-token";

Profile agentProfile()
{
    Profile p = ioprism::test::twoWorkerProfile("agent round trip", 50ms, 100);
    for (auto &w : p.hosts[0].workers)
        for (auto &t : w.targets)
            t.path = kSessionRoot + "/" + t.path;
    return p;
}

RunRequest nullRequest()
{
    RunRequest r;
    r.profile = agentProfile();
    r.engine = EngineKind::Null;
    r.settings.runId = 42;
    r.settings.ioLimitPerTarget = 2000;
    r.settings.deviceTailLimit = 0ms;
    r.removeTestFiles = true;
    r.commandLine = "ioprism-cli run --manager db2:7355";
    return r;
}

LocalRunHooks nullHooks()
{
    LocalRunHooks hooks;
    hooks.makeBackend
        = [](EngineKind) -> std::unique_ptr<IoBackend> { return std::make_unique<NullBackend>(); };
    hooks.describe.describeSystem = [] {
        Environment e;
        e.hostName = "agent-host";
        e.toolVersion = IOPRISM_VERSION;
        return e;
    };
    hooks.removeTestFile = [](const std::string &) -> Status { return Ok {}; };
    return hooks;
}

// Every event as the sink got it; waits for the end.
struct Recorder final : EventSink {
    void onEvent(SessionEvent event) override
    {
        std::lock_guard lock(mutex);
        if (std::holds_alternative<FinishedEvent>(event))
            ++finishedCount;
        if (std::holds_alternative<IntervalEvent>(event))
            ++intervals;
        if (const auto *n = std::get_if<NoticeEvent>(&event))
            notices.push_back(n->text);
        events.push_back(std::move(event));
        wake.notify_all();
    }
    bool waitFinished()
    {
        std::unique_lock lock(mutex);
        return wake.wait_for(lock, kPatience, [this] { return finishedCount > 0; });
    }
    template<typename Pred> bool waitUntil(Pred pred)
    {
        std::unique_lock lock(mutex);
        return wake.wait_for(lock, kPatience, pred);
    }
    RunResult result()
    {
        std::lock_guard lock(mutex);
        return std::get<FinishedEvent>(events.back()).result;
    }
    std::mutex mutex;
    std::condition_variable wake;
    std::vector<SessionEvent> events;
    std::vector<std::string> notices;
    int finishedCount = 0;
    int intervals = 0;
};

// The controller's barrier, as one party sees it: arrivals are kept for the test to
// release (or released at once), cancel and leave are counted.
struct BarrierParty {
    explicit BarrierParty(bool releaseAtOnce = false)
        : releaseAtOnce(releaseAtOnce)
    { }
    StepParty party()
    {
        return {[this](std::size_t step, StepBarrier::Release release) {
                    std::unique_lock lock(mutex);
                    steps.push_back(step);
                    if (releaseAtOnce) {
                        lock.unlock();
                        release(std::chrono::steady_clock::now());
                        return;
                    }
                    waiting.push_back(std::move(release));
                    wake.notify_all();
                },
            [this] {
                std::lock_guard lock(mutex);
                ++cancels;
            },
            [this] {
                std::lock_guard lock(mutex);
                ++leaves;
            }};
    }
    // Waits for arrival number `n` (1-based) and releases it with `start`.
    bool release(std::size_t n, StepStart start)
    {
        StepBarrier::Release r;
        {
            std::unique_lock lock(mutex);
            if (!wake.wait_for(lock, kPatience, [&] { return waiting.size() >= n; }))
                return false;
            r = std::move(waiting[n - 1]);
        }
        r(start);
        return true;
    }
    bool waitArrivals(std::size_t n)
    {
        std::unique_lock lock(mutex);
        return wake.wait_for(lock, kPatience, [&] { return waiting.size() >= n; });
    }
    const bool releaseAtOnce;
    std::mutex mutex;
    std::condition_variable wake;
    std::vector<std::size_t> steps;
    std::vector<StepBarrier::Release> waiting;
    int cancels = 0;
    int leaves = 0;
};

// What a scripted run saw: each gate's answer, the stops asked.
struct Script {
    std::size_t steps = 2;
    std::mutex mutex;
    std::condition_variable wake;
    std::vector<StepStart> starts;
    bool stopped = false;
    bool stoppedNow = false;
    bool ended = false;
    bool waitEnded()
    {
        std::unique_lock lock(mutex);
        return wake.wait_for(lock, kPatience, [this] { return ended; });
    }
};

// A run that calls its gate before each step, as core::Run does, and reports one interval
// and one step result per step.
class ScriptedRun final : public RunSession
{
public:
    ScriptedRun(RunSink &sink, StepGate gate, Script &script)
        : m_sink(sink)
        , m_gate(std::move(gate))
        , m_script(script)
    { }
    ~ScriptedRun() override { wait(); }
    void start(RunRequest request) override
    {
        m_thread = std::thread([this, request = std::move(request)] { body(request); });
    }
    void stop() override
    {
        std::lock_guard lock(m_script.mutex);
        m_script.stopped = true;
    }
    void stopNow() override
    {
        std::lock_guard lock(m_script.mutex);
        m_script.stoppedNow = true;
    }
    void wait() override
    {
        if (m_thread.joinable())
            m_thread.join();
    }

private:
    void body(const RunRequest &request)
    {
        m_sink.onStarted("scripted");
        RunResult result;
        result.runId = request.settings.runId;
        result.engine = "scripted";
        for (std::size_t step = 0; step < m_script.steps; ++step) {
            const StepStart start = m_gate(step);
            {
                std::lock_guard lock(m_script.mutex);
                m_script.starts.push_back(start);
            }
            if (!start) {
                result.stoppedByUser = true;
                break;
            }
            IntervalSample sample;
            sample.runId = result.runId;
            sample.step = step;
            sample.endSeconds = 1;
            m_sink.onInterval(sample);
            result.intervals.push_back(sample);
            StepResult s;
            s.step = step;
            s.stepName = "step " + std::to_string(step);
            m_sink.onStepResult(s, PlannedStep {});
            result.steps.push_back(s);
        }
        m_sink.onFinished(std::move(result));
        std::lock_guard lock(m_script.mutex);
        m_script.ended = true;
        m_script.wake.notify_all();
    }

    RunSink &m_sink;
    StepGate m_gate;
    Script &m_script;
    std::thread m_thread;
};

AgentRunMaker scriptedRuns(Script &script)
{
    return [&script](RunSink &sink, StepGate gate, StepAmountDone) -> std::unique_ptr<RunSession> {
        return std::make_unique<ScriptedRun>(sink, std::move(gate), script);
    };
}

// A channel end the test can close, as an agent's host that goes away would.
class Tap final : public MessageChannel
{
public:
    explicit Tap(std::unique_ptr<MessageChannel> inner)
        : m_inner(std::move(inner))
    { }
    void start(OnMessage m, OnClosed c) override { m_inner->start(std::move(m), std::move(c)); }
    bool send(std::string text) override { return m_inner->send(std::move(text)); }
    void close() override { m_inner->close(); }
    std::string peer() const override { return "192.0.2.7:50122"; }

private:
    std::unique_ptr<MessageChannel> m_inner;
};

AgentConfig makeConfig(AgentRunMaker makeRun)
{
    AgentConfig c;
    c.token = kSessionToken;
    c.allowedRoots = {kSessionRoot};
    c.identity.host = "db2";
    c.identity.os = "Linux 6.1.0";
    c.identity.cpus = 8;
    c.identity.engines = {"null"};
    c.identity.pid = 4242;
    c.inventory = [] {
        InventoryMessage m;
        m.devices.push_back({"/dev/nvme0n1", "Test NVMe", 1u << 30, ""});
        m.mounts.push_back({"/", "ext4", 1u << 20, 1u << 30});
        return m;
    };
    c.makeRun = std::move(makeRun);
    return c;
}

// One agent (its config and state) and the connections made to it.
struct AgentUnderTest {
    explicit AgentUnderTest(AgentRunMaker makeRun)
        : config(makeConfig(std::move(makeRun)))
    { }
    // A new connection: the service on the agent's end (started), the controller's end.
    std::unique_ptr<MessageChannel> connect(Tap **tap = nullptr)
    {
        auto [controllerEnd, agentEnd] = makeChannelPair();
        auto wrapped = std::make_unique<Tap>(std::move(agentEnd));
        if (tap)
            *tap = wrapped.get();
        services.push_back(std::make_unique<AgentService>(config, state, std::move(wrapped)));
        services.back()->start();
        return std::move(controllerEnd);
    }
    AgentConfig config;
    AgentState state;
    std::vector<std::unique_ptr<AgentService>> services;
};

// A controller's end read by hand: what the agent says, for messages the connection
// does not take.
struct RawPeer {
    explicit RawPeer(std::unique_ptr<MessageChannel> c)
        : channel(std::move(c))
    {
        channel->start(
            [this](std::string t) {
                std::lock_guard lock(mutex);
                messages.push_back(std::move(t));
                wake.notify_all();
            },
            [this](std::string r) {
                std::lock_guard lock(mutex);
                closed = true;
                closedReason = std::move(r);
                wake.notify_all();
            });
    }
    // The next message, decoded as the controller reads it.
    std::optional<FromAgent> next()
    {
        std::unique_lock lock(mutex);
        if (!wake.wait_for(lock, kPatience, [this] { return read < messages.size(); }))
            return std::nullopt;
        auto decoded = decodeFromAgent(messages[read++]);
        return decoded.value;
    }
    bool waitClosed()
    {
        std::unique_lock lock(mutex);
        return wake.wait_for(lock, kPatience, [this] { return closed; });
    }
    std::unique_ptr<MessageChannel> channel;
    std::mutex mutex;
    std::condition_variable wake;
    std::vector<std::string> messages;
    std::size_t read = 0;
    bool closed = false;
    std::string closedReason;
};

std::string helloText(const std::string &token)
{
    return encodeAgentMessage(
        ToAgent {HelloMessage {IOPRISM_VERSION, kSessionProtocolVersion, token, "ctl"}});
}

std::string refusalOf(const std::optional<FromAgent> &m)
{
    if (!m || !std::holds_alternative<RefusedMessage>(*m))
        return "(not a refusal)";
    return std::get<RefusedMessage>(*m).reason;
}

// ---------------------------------------------------------------- a whole run

TEST(AgentSession, ARunThroughTheAgentIsALocalRunFieldForField)
{
    Recorder local, remote;
    {
        LocalRunSession session(nullHooks(), local);
        session.start(nullRequest());
        session.wait();
    }
    AgentUnderTest agent(localAgentRuns(nullHooks()));
    AgentConnection connection(agent.connect(), "db2:7355");
    ASSERT_TRUE(connection.open(kSessionToken, "ctl"));
    EXPECT_EQ(connection.welcome().host, "db2");
    EXPECT_EQ(connection.welcome().version, IOPRISM_VERSION);
    EXPECT_EQ(connection.welcome().engines, std::vector<std::string> {"null"});
    BarrierParty barrier(/*releaseAtOnce=*/true);
    {
        RemoteRunSession session(connection, remote, barrier.party());
        session.start(nullRequest());
        session.wait();
        ASSERT_TRUE(session.clockOffset());
        EXPECT_GE(session.clockOffset()->samples, kClockSamplesPerSync);
    }
    ASSERT_EQ(remote.finishedCount, 1);
    const RunResult a = local.result();
    const RunResult b = remote.result();
    ASSERT_FALSE(a.error) << a.error->toString();
    ASSERT_FALSE(b.error) << b.error->toString();
    // Two runs differ in their timing, never in what they were asked to do.
    EXPECT_TRUE(a.plan == b.plan);
    EXPECT_EQ(a.runId, b.runId);
    EXPECT_EQ(a.engine, b.engine);
    EXPECT_EQ(a.environment.hostName, b.environment.hostName);
    EXPECT_EQ(a.environment.commandLine, b.environment.commandLine);
    EXPECT_EQ(a.stoppedByUser, b.stoppedByUser);
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
    EXPECT_GT(b.steps[1].scopes[0].measurement.read.histogram.count(), 0u)
        << "the histograms crossed, not only the figures";
    // Every event the agent's run reported reached the sink, in the same order of kinds.
    std::vector<std::size_t> kindsA, kindsB;
    for (const auto &e : local.events)
        if (!std::holds_alternative<IntervalEvent>(e))
            kindsA.push_back(e.index());
    for (const auto &e : remote.events)
        if (!std::holds_alternative<IntervalEvent>(e))
            kindsB.push_back(e.index());
    EXPECT_EQ(kindsA, kindsB);
    EXPECT_GT(remote.intervals, 0);
    // A step gate, if the run asked for one, was passed for each step in order; the
    // session left the barrier at its end and cancelled nothing.
    for (std::size_t i = 0; i < barrier.steps.size(); ++i)
        EXPECT_EQ(barrier.steps[i], i);
    EXPECT_EQ(barrier.leaves, 1);
    EXPECT_EQ(barrier.cancels, 0);

    // The inventory, with the allow list the agent was given.
    auto inventory = connection.inventory();
    ASSERT_TRUE(inventory) << inventory.error().toString();
    EXPECT_EQ(inventory->roots, std::vector<std::string> {kSessionRoot});
    ASSERT_EQ(inventory->devices.size(), 1u);
    EXPECT_EQ(inventory->devices[0].path, "/dev/nvme0n1");
}

TEST(AgentSession, EachStepWaitsForTheBarrierAndStartsAtItsTimeOnTheAgentsClock)
{
    Script script;
    script.steps = 3;
    AgentUnderTest agent(scriptedRuns(script));
    AgentConnection connection(agent.connect(), "db2:7355");
    ASSERT_TRUE(connection.open(kSessionToken));
    BarrierParty barrier;
    Recorder sink;
    RemoteRunOptions options;
    options.keepAlive = 1h; // no sample between the gates: the offset used is the one read
    RemoteRunSession session(connection, sink, barrier.party(), options);
    session.start(nullRequest());
    const auto t0 = std::chrono::steady_clock::now() + 5ms;
    ASSERT_TRUE(barrier.release(1, t0));
    ASSERT_TRUE(barrier.release(2, t0 + 1s));
    // The third step does not start: the run stops as if Stop had been pressed.
    ASSERT_TRUE(barrier.release(3, std::nullopt));
    ASSERT_TRUE(sink.waitFinished());
    session.wait();
    ASSERT_TRUE(script.waitEnded());
    EXPECT_EQ(barrier.steps, (std::vector<std::size_t> {0, 1, 2}));
    ASSERT_EQ(script.starts.size(), 3u);
    const auto offset = session.clockOffset();
    ASSERT_TRUE(offset);
    EXPECT_EQ(*script.starts[0], t0 + offset->offset);
    EXPECT_EQ(*script.starts[1], t0 + 1s + offset->offset);
    EXPECT_FALSE(script.starts[2]);
    // One process, one clock: the estimate holds the truth (0) within its bound.
    EXPECT_LE(std::chrono::abs(offset->offset), offset->uncertainty);
    const RunResult result = sink.result();
    EXPECT_FALSE(result.error);
    EXPECT_TRUE(result.stoppedByUser);
    EXPECT_EQ(result.steps.size(), 2u);
    EXPECT_EQ(sink.finishedCount, 1);
}

// ---------------------------------------------------------------- the handshake

TEST(AgentSession, AWrongOrMissingTokenIsRefusedTheSameWayWithoutTellingTheRightOne)
{
    Script script; // never runs
    AgentUnderTest agent(scriptedRuns(script));
    // The agent's operator sees each refusal in its log, with who tried.
    std::mutex logMutex;
    std::vector<std::string> logged;
    agent.config.log = [&](const std::string &text) {
        std::lock_guard lock(logMutex);
        logged.push_back(text);
    };
    for (const std::string &token : {std::string("wrong"), std::string(), kSessionToken + "x"}) {
        AgentConnection connection(agent.connect(), "db2:7355");
        const Status status = connection.open(token);
        ASSERT_FALSE(status);
        EXPECT_EQ(status.error().toString(),
            "connect to agent db2:7355: the agent refused the connection: authentication "
            "failed: wrong token");
        EXPECT_EQ(status.error().toString().find(kSessionToken), std::string::npos);
        EXPECT_FALSE(connection.isOpen());
    }
    for (auto &s : agent.services)
        EXPECT_TRUE(s->waitEnded(kPatience)) << "the agent closed each refused connection";
    std::lock_guard lock(logMutex);
    ASSERT_EQ(logged.size(), 3u);
    for (const auto &line : logged)
        EXPECT_EQ(line, "refused 192.0.2.7:50122: authentication failed: wrong token");
}

TEST(AgentSession, AFirstMessageThatIsNotAHelloIsRefusedAndTheConnectionClosed)
{
    AgentUnderTest agent(nullptr);
    {
        RawPeer peer(agent.connect());
        peer.channel->send(encodeAgentMessage(ToAgent {ClockRequest {1, 2}}));
        EXPECT_EQ(refusalOf(peer.next()), "the first message must be a hello, not \"clock\"");
        EXPECT_TRUE(peer.waitClosed());
    }
    {
        RawPeer peer(agent.connect());
        peer.channel->send(encodeRequest(nullRequest()));
        EXPECT_EQ(
            refusalOf(peer.next()), "the first message must be a hello, not a run session message");
        EXPECT_TRUE(peer.waitClosed());
    }
    {
        RawPeer peer(agent.connect());
        peer.channel->send("{\"agent\":1,\"type\":\"hello\"");
        EXPECT_EQ(refusalOf(peer.next()), "cannot read the hello: not an agent message (not JSON)");
        EXPECT_TRUE(peer.waitClosed());
    }
}

TEST(AgentSession, AConnectionThatSaysNothingIsRefusedAfterTheHelloTimeout)
{
    AgentUnderTest agent(nullptr);
    agent.config.helloTimeout = 200ms;
    RawPeer peer(agent.connect());
    EXPECT_EQ(refusalOf(peer.next()), "no hello within 0.2 s");
    EXPECT_TRUE(peer.waitClosed());
    EXPECT_TRUE(agent.services.back()->waitEnded(kPatience));
}

TEST(AgentSession, AControllerOfAnotherVersionIsRefusedNamingBothVersions)
{
    AgentUnderTest agent(nullptr);
    {
        RawPeer peer(agent.connect());
        std::string hello = helloText(kSessionToken);
        ASSERT_EQ(hello.rfind("{\"agent\":1,", 0), 0u);
        hello.replace(0, 10, "{\"agent\":2");
        peer.channel->send(hello);
        const std::string why = refusalOf(peer.next());
        EXPECT_NE(why.find("agent protocol 2 (IOPrism \"" IOPRISM_VERSION "\")"), std::string::npos)
            << why;
        EXPECT_NE(why.find("speaks agent protocol 1"), std::string::npos) << why;
        EXPECT_TRUE(peer.waitClosed());
    }
    {
        RawPeer peer(agent.connect());
        peer.channel->send(encodeAgentMessage(
            ToAgent {HelloMessage {"9.0.0", kSessionProtocolVersion + 1, kSessionToken, "ctl"}}));
        const std::string why = refusalOf(peer.next());
        EXPECT_EQ(why,
            "the controller (IOPrism 9.0.0) speaks run session protocol "
                + std::to_string(kSessionProtocolVersion + 1)
                + ", this agent (IOPrism " IOPRISM_VERSION ") speaks "
                + std::to_string(kSessionProtocolVersion)
                + ": run the same IOPrism version on both sides");
        EXPECT_TRUE(peer.waitClosed());
    }
}

// An agent played by the test: answers the hello with `welcome` (text), and clock
// requests while `answering`.
struct FakeAgent {
    explicit FakeAgent(std::string welcomeText)
        : welcome(std::move(welcomeText))
    {
        auto [c, a] = makeChannelPair();
        controllerEnd = std::move(c);
        agentEnd = std::move(a);
        agentEnd->start(
            [this](std::string text) {
                auto decoded = decodeToAgent(text);
                std::lock_guard lock(mutex);
                if (decoded.session)
                    answering = false; // the run request: from now on, silence
                if (!decoded.value || !answering)
                    return;
                if (std::holds_alternative<HelloMessage>(*decoded.value))
                    agentEnd->send(welcome);
                else if (auto *clock = std::get_if<ClockRequest>(&*decoded.value))
                    agentEnd->send(encodeAgentMessage(FromAgent {
                        ClockReply {clock->id, clock->controllerNs, clock->controllerNs}}));
            },
            [](std::string) {});
    }
    std::string welcome;
    std::mutex mutex;
    bool answering = true;
    std::unique_ptr<MessageChannel> controllerEnd;
    std::unique_ptr<MessageChannel> agentEnd;
};

std::string welcomeText()
{
    return encodeAgentMessage(FromAgent {
        WelcomeMessage {"0.9.0", kSessionProtocolVersion, "db2", "Linux", 4, {"null"}, 1}});
}

TEST(AgentSession, AnAgentOfAnotherVersionIsRefusedByTheControllerNamingBothVersions)
{
    {
        std::string text = welcomeText();
        text.replace(0, 10, "{\"agent\":3");
        FakeAgent agent(text);
        AgentConnection connection(std::move(agent.controllerEnd), "db2:7355");
        const Status status = connection.open(kSessionToken);
        ASSERT_FALSE(status);
        const std::string why = status.error().toString();
        EXPECT_NE(why.find("agent protocol 3 (IOPrism \"0.9.0\")"), std::string::npos) << why;
        EXPECT_NE(
            why.find("this IOPrism " IOPRISM_VERSION " speaks agent protocol 1"), std::string::npos)
            << why;
    }
    {
        FakeAgent agent(encodeAgentMessage(FromAgent {WelcomeMessage {
            "0.9.0", kSessionProtocolVersion + 4, "db2", "Linux", 4, {"null"}, 1}}));
        AgentConnection connection(std::move(agent.controllerEnd), "db2:7355");
        const Status status = connection.open(kSessionToken);
        ASSERT_FALSE(status);
        EXPECT_EQ(status.error().toString(),
            "connect to agent db2:7355: the agent (IOPrism 0.9.0) speaks run session protocol "
                + std::to_string(kSessionProtocolVersion + 4)
                + ", this controller (IOPrism " IOPRISM_VERSION ") speaks "
                + std::to_string(kSessionProtocolVersion)
                + ": run the same IOPrism version on both sides");
    }
}

TEST(AgentSession, AnAgentThatDoesNotAnswerTheHelloFailsTheConnectionInTime)
{
    auto [controllerEnd, agentEnd] = makeChannelPair();
    agentEnd->start([](std::string) {}, [](std::string) {}); // hears, never answers
    AgentConnection connection(std::move(controllerEnd), "db2:7355");
    const Status status = connection.open(kSessionToken, "", 100ms);
    ASSERT_FALSE(status);
    EXPECT_EQ(status.error().toString(),
        "connect to agent db2:7355: no answer to the hello within 0.1 s");
    EXPECT_FALSE(connection.isOpen());
}

// ---------------------------------------------------------------- what the agent refuses

TEST(AgentSession, ATargetOutsideTheAllowListIsRefusedNamingTheTargetAndTheRoots)
{
    AgentUnderTest agent(localAgentRuns(nullHooks()));
    AgentConnection connection(agent.connect(), "db2:7355");
    ASSERT_TRUE(connection.open(kSessionToken));
    struct Case {
        std::string path;
        std::string error;
    };
    const Case cases[] = {
        {kOutside,
            "refused by the agent: target " + kOutside
                + " is outside the agent's allowed roots; the agent allows targets under: "
                + kSessionRoot},
        {kSessionRoot + "/../etc/passwd",
            "refused by the agent: target " + kSessionRoot
                + "/../etc/passwd contains \"..\"; the agent allows targets under: "
                + kSessionRoot},
    };
    for (const auto &c : cases) {
        RunRequest request = nullRequest();
        request.profile.hosts[0].workers[1].targets[0].path = c.path;
        Recorder sink;
        RemoteRunSession session(connection, sink);
        session.start(request);
        session.wait();
        ASSERT_EQ(sink.finishedCount, 1);
        const RunResult result = sink.result();
        ASSERT_TRUE(result.error);
        EXPECT_EQ(result.error->toString(), c.error);
        EXPECT_EQ(result.runId, 42u);
        EXPECT_TRUE(result.steps.empty());
    }
}

TEST(AgentSession, AnOutOfOrderGoIsRefusedAndTheRunGoesOn)
{
    Script script;
    AgentUnderTest agent(scriptedRuns(script));
    AgentConnection connection(agent.connect(), "db2:7355");
    ASSERT_TRUE(connection.open(kSessionToken));
    BarrierParty barrier;
    Recorder sink;
    RemoteRunSession session(connection, sink, barrier.party());
    session.start(nullRequest());
    ASSERT_TRUE(barrier.waitArrivals(1)); // step 0 waits
    connection.send(GoMessage {5, 0, false});
    ASSERT_TRUE(sink.waitUntil([&] { return !sink.notices.empty(); }));
    EXPECT_EQ(sink.notices[0], "agent db2:7355: go for step 5, but step 0 is waiting: ignored");
    ASSERT_TRUE(barrier.release(1, std::chrono::steady_clock::now()));
    ASSERT_TRUE(barrier.release(2, std::chrono::steady_clock::now()));
    session.wait();
    const RunResult result = sink.result();
    EXPECT_FALSE(result.error);
    EXPECT_EQ(result.steps.size(), 2u);
    EXPECT_FALSE(result.stoppedByUser);
    // And after the run: no step waits.
    RawPeer peer(agent.connect());
    peer.channel->send(helloText(kSessionToken));
    ASSERT_TRUE(peer.next());
    peer.channel->send(encodeAgentMessage(ToAgent {GoMessage {0, 0, false}}));
    const auto error = peer.next();
    ASSERT_TRUE(error && std::holds_alternative<ErrorMessage>(*error));
    EXPECT_EQ(
        std::get<ErrorMessage>(*error).reason, "go for step 0, but no step is waiting: ignored");
}

TEST(AgentSession, ASecondRunWhileTheAgentIsBusyIsRefusedNamingWhoSinceWhen)
{
    Script script;
    AgentUnderTest agent(scriptedRuns(script));
    AgentConnection first(agent.connect(), "db2:7355");
    ASSERT_TRUE(first.open(kSessionToken, "ctl-1"));
    AgentConnection second(agent.connect(), "db2:7355");
    ASSERT_TRUE(second.open(kSessionToken, "ctl-2"));
    BarrierParty barrier;
    Recorder sink1, sink2;
    RemoteRunSession run1(first, sink1, barrier.party());
    run1.start(nullRequest());
    ASSERT_TRUE(barrier.waitArrivals(1)); // the first run holds the agent

    auto run2 = std::make_unique<RemoteRunSession>(second, sink2);
    run2->start(nullRequest());
    run2->wait();
    const RunResult refused = sink2.result();
    ASSERT_TRUE(refused.error);
    const std::string why = refused.error->toString();
    EXPECT_EQ(why.rfind("run on agent db2:7355: the agent is running another run, for "
                        "192.0.2.7:50122 (ctl-1), started ",
                  0),
        0u)
        << why;
    EXPECT_NE(why.find(" s ago"), std::string::npos) << why;

    // A second request on the first connection, during its run: refused, the run goes on.
    first.sendText(encodeRequest(nullRequest()));
    ASSERT_TRUE(sink1.waitUntil([&] { return !sink1.notices.empty(); }));
    EXPECT_EQ(sink1.notices[0],
        "agent db2:7355: a run is already going on this connection: one run at a time; the "
        "request is ignored");
    ASSERT_TRUE(barrier.release(1, std::chrono::steady_clock::now()));
    ASSERT_TRUE(barrier.release(2, std::chrono::steady_clock::now()));
    run1.wait();
    EXPECT_FALSE(sink1.result().error);
    EXPECT_EQ(sink1.result().steps.size(), 2u);

    // Free again: the second controller runs now, on the connection whose earlier
    // session is still there; that one going away leaves the new one listening.
    Recorder sink3;
    script.steps = 1;
    BarrierParty barrier3;
    RemoteRunSession run3(second, sink3, barrier3.party());
    run3.start(nullRequest());
    ASSERT_TRUE(barrier3.waitArrivals(1));
    run2.reset();
    ASSERT_TRUE(barrier3.release(1, std::chrono::steady_clock::now()));
    ASSERT_TRUE(sink3.waitFinished());
    EXPECT_FALSE(sink3.result().error) << sink3.result().error->toString();
    EXPECT_EQ(sink3.result().steps.size(), 1u);
}

TEST(AgentSession, AMalformedMessageAfterTheHelloIsAnErrorAndTheRunGoesOn)
{
    Script script;
    AgentUnderTest agent(scriptedRuns(script));
    AgentConnection connection(agent.connect(), "db2:7355");
    ASSERT_TRUE(connection.open(kSessionToken));
    BarrierParty barrier;
    Recorder sink;
    RemoteRunSession session(connection, sink, barrier.party());
    session.start(nullRequest());
    ASSERT_TRUE(barrier.waitArrivals(1));
    connection.sendText("{\"agent\":1,\"type\":\"stop\",\"now\":true}");
    connection.sendText("\xff\xfe garbage");
    connection.sendText(encodeAgentMessage(
        ToAgent {HelloMessage {IOPRISM_VERSION, kSessionProtocolVersion, kSessionToken, ""}}));
    ASSERT_TRUE(sink.waitUntil([&] { return sink.notices.size() >= 3; }));
    EXPECT_EQ(sink.notices[0], "agent db2:7355: cannot read the message: now: unknown field");
    EXPECT_EQ(sink.notices[1],
        "agent db2:7355: cannot read the message: not an agent message (not JSON)");
    EXPECT_EQ(
        sink.notices[2], "agent db2:7355: hello again: this connection is already authenticated");
    ASSERT_TRUE(barrier.release(1, std::chrono::steady_clock::now()));
    ASSERT_TRUE(barrier.release(2, std::chrono::steady_clock::now()));
    session.wait();
    const RunResult result = sink.result();
    EXPECT_FALSE(result.error);
    EXPECT_EQ(result.steps.size(), 2u);
    {
        std::lock_guard lock(script.mutex);
        EXPECT_FALSE(script.stopped);
        EXPECT_FALSE(script.stoppedNow);
    }
}

// ---------------------------------------------------------------- faults

TEST(AgentSession, AnAgentThatGoesAwayMidRunEndsTheSessionWithWhatItSentNamingTheAgent)
{
    Script script;
    AgentUnderTest agent(scriptedRuns(script));
    Tap *agentSide = nullptr;
    AgentConnection connection(agent.connect(&agentSide), "db2:7355");
    ASSERT_TRUE(connection.open(kSessionToken));
    BarrierParty barrier;
    Recorder sink;
    RemoteRunSession session(connection, sink, barrier.party());
    session.start(nullRequest());
    ASSERT_TRUE(barrier.release(1, std::chrono::steady_clock::now()));
    ASSERT_TRUE(barrier.waitArrivals(2)); // step 0 measured and reported, step 1 waits
    ASSERT_TRUE(sink.waitUntil([&] { return sink.intervals == 1; }));
    agentSide->close(); // the agent's host goes away
    ASSERT_TRUE(sink.waitFinished());
    session.wait();
    const RunResult result = sink.result();
    ASSERT_TRUE(result.error);
    const std::string why = result.error->toString();
    EXPECT_EQ(why.rfind("agent db2:7355 disconnected ", 0), 0u) << why;
    EXPECT_NE(why.find(" s into the run: the peer closed the connection"), std::string::npos)
        << why;
    EXPECT_EQ(result.runId, 42u);
    EXPECT_EQ(result.engine, "scripted");
    ASSERT_EQ(result.intervals.size(), 1u) << "what was measured is kept";
    EXPECT_EQ(result.steps.size(), 1u);
    EXPECT_EQ(sink.finishedCount, 1);
    // The other hosts do not wait for it.
    EXPECT_EQ(barrier.cancels, 1);
    EXPECT_EQ(barrier.leaves, 1);
    // The agent stopped its run at once and ended the connection.
    ASSERT_TRUE(script.waitEnded());
    {
        std::lock_guard lock(script.mutex);
        EXPECT_TRUE(script.stoppedNow);
        ASSERT_EQ(script.starts.size(), 2u);
        EXPECT_FALSE(script.starts[1]) << "the waiting step never started";
    }
    EXPECT_TRUE(agent.services.back()->waitEnded(kPatience));
}

TEST(AgentSession, AControllerThatGoesAwayStopsARealRunAndTheAgentServesTheNext)
{
    AgentUnderTest agent(localAgentRuns(nullHooks()));
    Recorder sink;
    {
        auto connection = std::make_unique<AgentConnection>(agent.connect(), "db2:7355");
        ASSERT_TRUE(connection->open(kSessionToken));
        RunRequest request = nullRequest();
        request.settings.ioLimitPerTarget = 0; // no limit
        request.profile.setup.runTime = std::chrono::hours(1);
        RemoteRunSession session(*connection, sink);
        session.start(request);
        ASSERT_TRUE(sink.waitUntil([&] { return sink.intervals > 0; }));
        connection->close(); // the controller goes away
        session.wait();
    }
    const RunResult result = sink.result();
    ASSERT_TRUE(result.error);
    EXPECT_NE(result.error->toString().find("disconnected"), std::string::npos);
    EXPECT_FALSE(result.intervals.empty());
    // The agent stopped the run (an hour of it otherwise) and ended the connection.
    EXPECT_TRUE(agent.services.back()->waitEnded(kPatience));
    // And serves the next controller.
    AgentConnection next(agent.connect(), "db2:7355");
    ASSERT_TRUE(next.open(kSessionToken));
    Recorder sink2;
    RemoteRunSession session(next, sink2);
    session.start(nullRequest());
    session.wait();
    EXPECT_FALSE(sink2.result().error) << sink2.result().error->toString();
}

TEST(AgentSession, AnAgentThatStopsAnsweringEndsTheSessionAfterTheSilenceLimit)
{
    FakeAgent agent(welcomeText());
    AgentConnection connection(std::move(agent.controllerEnd), "db2:7355");
    ASSERT_TRUE(connection.open(kSessionToken));
    Recorder sink;
    BarrierParty barrier;
    RemoteRunOptions options;
    options.silenceLimit = 300ms;
    options.keepAlive = 50ms;
    RemoteRunSession session(connection, sink, barrier.party(), options);
    session.start(nullRequest());
    ASSERT_TRUE(sink.waitFinished());
    const RunResult result = sink.result();
    ASSERT_TRUE(result.error);
    const std::string why = result.error->toString();
    EXPECT_EQ(why.rfind("agent db2:7355 stopped answering ", 0), 0u) << why;
    EXPECT_NE(why.find("nothing received for "), std::string::npos) << why;
    EXPECT_EQ(barrier.cancels, 1);
    EXPECT_EQ(sink.finishedCount, 1);
}

} // namespace
