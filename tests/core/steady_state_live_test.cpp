// SPDX-License-Identifier: GPL-3.0-or-later
// Steady state live (issue 30 item 2: "the report and GUI say which rounds formed the
// window", live): every round a step under a steady-state rule ends is told to the run's
// sink with the rule's judgement so far, and the event crosses the session codec (an
// agent's connection, the loopback session) unchanged.
#include "core/null_engine.h"
#include "core/run/loopback_session.h"
#include "core/run/run.h"
#include "core/run/run_session.h"
#include "core/run/session_codec.h"
#include "support/test_profiles.h"

#include <gtest/gtest.h>
#include <mutex>
#include <vector>

namespace ioprism::core {
namespace {

using namespace std::chrono_literals;
using ioprism::test::makeSpec;

// One worker reading a test file on the null engine, in rounds of 200 ms judged by PTS's
// rule on a window of 2, at most 4 rounds: the step ends steady or at the limit, either
// way after whole rounds.
Profile roundsProfile()
{
    Profile p;
    p.setup.runTime = 1s;
    p.setup.interval = 100ms;
    SteadyStateSetup steady;
    steady.criteria.windowRounds = 2;
    steady.criteria.roundLimit = 4;
    steady.roundTime = 200ms;
    p.setup.steadyState = steady;
    p.specs = {makeSpec("4K read", 4096, 100, 100)};
    Worker w;
    w.name = "Worker 1";
    w.outstandingIos = 2;
    w.assignedSpecs = {"4K read"};
    w.seed = 3;
    Target t;
    t.path = "target0";
    t.testFileSizeBytes = 16 * kMiB;
    w.targets.push_back(t);
    p.hosts.push_back({});
    p.hosts[0].workers.push_back(w);
    return p;
}

struct RoundSink final : RunSink {
    std::mutex mutex;
    std::vector<std::pair<std::size_t, SteadyStateRecord>> told;
    std::optional<RunResult> finished;
    void onSteadyState(std::size_t step, const SteadyStateRecord &record) override
    {
        std::lock_guard lock(mutex);
        told.emplace_back(step, record);
    }
    void onFinished(RunResult &&result) override { finished = std::move(result); }
};

// What the sink heard is what the step kept, one round more each time.
void expectEveryRoundTold(const RoundSink &sink, const RunResult &r)
{
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(r.steps.size(), 1u);
    ASSERT_TRUE(r.steps[0].steadyState);
    const SteadyStateRecord &kept = *r.steps[0].steadyState;
    ASSERT_FALSE(kept.rounds.empty());
    ASSERT_EQ(sink.told.size(), kept.rounds.size()) << "one event per round";
    for (std::size_t i = 0; i < sink.told.size(); ++i) {
        EXPECT_EQ(sink.told[i].first, 0u);
        const SteadyStateRecord &record = sink.told[i].second;
        ASSERT_EQ(record.rounds.size(), i + 1) << "event " << i;
        EXPECT_EQ(record.rounds.back(), kept.rounds[i]);
        EXPECT_EQ(record.setup, kept.setup);
    }
    EXPECT_EQ(sink.told.back().second, kept) << "the last event is the step's verdict";
}

TEST(SteadyStateLive, EveryRoundIsToldAsItEndsWithTheJudgementSoFar)
{
    RoundSink sink;
    NullBackend backend;
    NullCounterSource counters;
    const RunResult r = core::Run(roundsProfile(), backend, counters, sink).execute();
    expectEveryRoundTold(sink, r);
    // A window is judged from the window's count of rounds on.
    EXPECT_FALSE(sink.told.front().second.result.window);
    if (sink.told.size() >= 2) {
        ASSERT_TRUE(sink.told[1].second.result.window);
        EXPECT_EQ(sink.told[1].second.result.window->first, 0u);
    }
}

TEST(SteadyStateLive, TheEventCrossesTheSessionCodecUnchanged)
{
    SteadyStateRecord record;
    record.setup.metric = SteadyStateMetric::P99Latency;
    record.rounds = {{.startSeconds = 1, .endSeconds = 61, .figure = 412.5},
        {.startSeconds = 61, .endSeconds = 121, .figure = 398.25}};
    record.result = judgeSteadyState(roundFigures(record.rounds), record.setup.criteria);
    const SessionEvent sent = SteadyStateEvent {3, record};
    const auto decoded = decodeEvent(encodeEvent(sent));
    ASSERT_TRUE(decoded.value) << decoded.error;
    ASSERT_TRUE(std::holds_alternative<SteadyStateEvent>(*decoded.value));
    EXPECT_EQ(std::get<SteadyStateEvent>(*decoded.value), std::get<SteadyStateEvent>(sent));
    EXPECT_FALSE(isResultMessage(encodeEvent(sent))) << "a round is no run's result";

    RoundSink sink;
    deliver(*decoded.value, sink);
    ASSERT_EQ(sink.told.size(), 1u);
    EXPECT_EQ(sink.told[0].first, 3u);
    EXPECT_EQ(sink.told[0].second, record);
}

TEST(SteadyStateLive, ARunBehindTheLoopbackSessionTellsEveryRound)
{
    LocalRunHooks hooks;
    hooks.makeBackend
        = [](EngineKind) -> std::unique_ptr<IoBackend> { return std::make_unique<NullBackend>(); };
    hooks.removeTestFile = [](const std::string &) -> Status { return Ok {}; };
    RunRequest request;
    request.profile = roundsProfile();
    request.engine = EngineKind::Null;
    request.settings.deviceTailLimit = 0ms;
    RoundSink sink;
    {
        LoopbackRunSession session(localRunSessions(hooks), sink);
        session.start(std::move(request));
        session.wait();
    }
    ASSERT_TRUE(sink.finished);
    expectEveryRoundTold(sink, *sink.finished);
}

} // namespace
} // namespace ioprism::core
