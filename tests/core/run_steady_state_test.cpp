// SPDX-License-Identifier: GPL-3.0-or-later
// Steady state as a step's stop rule (TestSetup::steadyState, issue 30 item 2): a run's
// steps measured in rounds, judged after each, ended at the first steady window or at
// the round limit; the rounds and the verdict kept in the results, the profile and the
// results files, and refused where it cannot be judged (several hosts). And the write
// cliff (item 3) found in a run: a write whose rate falls after a set number of bytes.
#include "core/null_engine.h"
#include "core/profile/describe.h"
#include "core/profile/profile_json.h"
#include "core/profile/units.h"
#include "core/profile/validation.h"
#include "core/report/html_report.h"
#include "core/report/results_json.h"
#include "core/report/results_reader.h"
#include "core/run/multi_host_session.h"
#include "core/run/run.h"
#include "core/run/step_findings.h"
#include "support/test_backend.h"
#include "support/test_profiles.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <thread>

using namespace ioprism::core;
using namespace std::chrono_literals;
using ioprism::test::makeSpec;
// Inside a TEST, `Run` is gtest's own member function.
using BenchRun = ioprism::core::Run;

namespace {

using SteadyClock = std::chrono::steady_clock;

// I/O completed on a budget: the null engine, whose reaps hand out only the completions
// `budget` allows by the seconds since the engine's first request. The budget is not a
// delay: a worker late to reap (a loaded machine) is handed what it missed, so every
// span's count is what the budget gives its time, whatever the scheduling.
using CompletionBudget = std::function<double(double seconds)>;

// `rates` per second, each for `period`, in turn.
CompletionBudget alternatingRates(std::vector<double> rates, std::chrono::milliseconds period)
{
    return [rates = std::move(rates), period](double t) {
        const double p = std::chrono::duration<double>(period).count();
        double cycle = 0;
        for (double r : rates)
            cycle += r * p;
        const auto whole = std::uint64_t(t / p);
        double total = double(whole / rates.size()) * cycle;
        for (std::uint64_t k = 0; k < whole % rates.size(); ++k)
            total += rates[k] * p;
        return total + rates[whole % rates.size()] * (t - double(whole) * p);
    };
}

// `fast` I/Os per second for the first `count` I/Os, then `slow`: a cache that fills.
CompletionBudget cacheThatFills(double fast, double count, double slow)
{
    return
        [=](double t) { return t * fast < count ? t * fast : count + (t - count / fast) * slow; };
}

class PacedEngine final : public ioprism::test::NullForwardingEngine
{
public:
    explicit PacedEngine(CompletionBudget budget)
        : m_budget(std::move(budget))
    { }
    std::string_view name() const override { return "paced"; }
    bool queue(IoRequest *r) override
    {
        if (!m_origin)
            m_origin = SteadyClock::now();
        return NullForwardingEngine::queue(r);
    }
    Result<std::uint32_t> reap(
        std::span<IoRequest *> out, std::uint32_t, std::chrono::nanoseconds timeout) override
    {
        const auto until = SteadyClock::now() + timeout;
        std::uint64_t allowed = 0;
        while ((allowed = allowedBy(SteadyClock::now())) <= m_done) {
            const auto now = SteadyClock::now();
            if (now >= until)
                return 0u;
            std::this_thread::sleep_for(std::min<SteadyClock::duration>(until - now, 200us));
        }
        const auto n = std::uint32_t(std::min<std::uint64_t>(allowed - m_done, out.size()));
        auto got = NullForwardingEngine::reap(out.first(n), n, timeout);
        if (got)
            m_done += *got;
        return got;
    }

private:
    std::uint64_t allowedBy(SteadyClock::time_point now) const
    {
        return m_origin
            ? std::uint64_t(m_budget(std::chrono::duration<double>(now - *m_origin).count()))
            : 0;
    }

    CompletionBudget m_budget;
    std::optional<SteadyClock::time_point> m_origin;
    std::uint64_t m_done = 0;
};

class PacedBackend final : public NullBackend
{
public:
    explicit PacedBackend(CompletionBudget budget)
        : m_budget(std::move(budget))
    { }
    PacedBackend(std::vector<double> rates, std::chrono::milliseconds period)
        : m_budget(alternatingRates(std::move(rates), period))
    { }
    Result<std::unique_ptr<IoEngine>> makeEngine() override
    {
        return std::unique_ptr<IoEngine>(std::make_unique<PacedEngine>(m_budget));
    }

private:
    CompletionBudget m_budget;
};

struct RoundNoticeSink : RunSink {
    std::vector<std::string> notices;
    std::atomic<int> intervals {0};
    void onNotice(const std::string &text) override { notices.push_back(text); }
    void onInterval(const IntervalSample &) override { ++intervals; }
};

// One worker at QD 4 on one target; rounds of `round` judged by `rule`, at most `limit`.
Profile steadyProfile(
    std::chrono::milliseconds round, std::size_t limit, SteadyStateRule rule = SteadyStateRule::Pts)
{
    Profile p;
    p.setup.runTime = 1s; // not used: the rule ends each step
    p.setup.interval = 100ms;
    SteadyStateSetup steady;
    steady.criteria.rule = rule;
    steady.criteria.roundLimit = limit;
    steady.roundTime = round;
    p.setup.steadyState = steady;
    p.specs = {makeSpec("4K read", 4096, 100, 100)};
    Worker w;
    w.name = "Worker 1";
    w.outstandingIos = 4;
    w.assignedSpecs = {"4K read"};
    w.seed = 7;
    Target t;
    t.path = "target0";
    t.testFileSizeBytes = 64 * kMiB;
    w.targets.push_back(t);
    Host h;
    h.workers.push_back(w);
    p.hosts.push_back(h);
    return p;
}

// The same without a rule: reads for its one-second run time.
Profile steadyProfileWithoutRule()
{
    Profile p = steadyProfile(1s, 25);
    p.setup.steadyState.reset();
    return p;
}

} // namespace

// A target that does the same every round is steady at its first steady window: the
// step ends there (long before the 25-round limit), each round's figure is the rate it
// was given, and the verdict is said and kept. What a loaded machine changes (a worker
// late to reap, a tick late) moves a round's figure a little and can take a window more;
// the test asserts what holds whatever the scheduling: no window before the last was
// steady, the rounds sit on their grid, and their median is the rate.
TEST(RunSteadyState, ASteadyTargetIsSteadyInTheFirstWindowAndTheStepEndsThere)
{
    const auto round = 500ms;
    PacedBackend backend({4000}, round);
    NullCounterSource counters;
    RoundNoticeSink sink;
    const RunResult r = BenchRun(steadyProfile(round, 25), backend, counters, sink).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(r.steps.size(), 1u);
    const StepResult &step = r.steps[0];
    ASSERT_TRUE(step.steadyState);
    const SteadyStateRecord &steady = *step.steadyState;
    EXPECT_EQ(steady.result.state, SteadyState::Steady) << steady.result.explanation;
    EXPECT_LT(steady.rounds.size(), 25u) << steady.result.explanation;
    ASSERT_TRUE(steady.result.window);
    EXPECT_EQ(steady.result.window->first + steady.result.window->count, steady.rounds.size())
        << "the step ended at the window that was steady";
    const std::vector<double> figures = roundFigures(steady.rounds);
    for (std::size_t n = 1; n < figures.size(); ++n)
        EXPECT_NE(judgeSteadyState(std::span(figures).first(n), steady.setup.criteria).state,
            SteadyState::Steady)
            << "already steady after " << n << " rounds";
    EXPECT_TRUE(step.complete);
    // The rounds follow one another on their grid (never ending early, none shorter than
    // half a round) and measure the rate.
    const double first = steady.rounds.front().startSeconds;
    for (std::size_t i = 0; i < steady.rounds.size(); ++i) {
        const auto &rd = steady.rounds[i];
        EXPECT_GE(rd.endSeconds, first + 0.5 * double(i + 1) - 0.002) << "round " << i + 1;
        EXPECT_GE(rd.endSeconds - rd.startSeconds, 0.25 - 0.002) << "round " << i + 1;
        if (i > 0) {
            EXPECT_DOUBLE_EQ(rd.startSeconds, steady.rounds[i - 1].endSeconds);
        }
    }
    std::vector<double> sorted = figures;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_NEAR(sorted[sorted.size() / 2], 4000, 400) << "the rounds' median figure";
    // Measured: the rounds, and the sample that ended the step after them.
    EXPECT_GE(step.measuredSeconds, steady.rounds.back().endSeconds - first - 0.002);
    const auto said = std::find_if(sink.notices.begin(), sink.notices.end(),
        [](const std::string &n) { return n.find("steady in rounds") != std::string::npos; });
    ASSERT_NE(said, sink.notices.end());
    EXPECT_NE(said->find("IOPS"), std::string::npos) << *said;
    EXPECT_NE(std::find(r.notices.begin(), r.notices.end(), *said), r.notices.end());
}

// A target that alternates between two rates every round is never steady by PTS's
// rule: the step runs to the round limit and says "not reached", never steady.
TEST(RunSteadyState, AnOscillatingTargetRunsToTheLimitAndIsNotReached)
{
    const auto round = 300ms;
    PacedBackend backend({4000, 1000}, round);
    NullCounterSource counters;
    RoundNoticeSink sink;
    const RunResult r = BenchRun(steadyProfile(round, 7), backend, counters, sink).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(r.steps.size(), 1u);
    const SteadyStateRecord &steady = *r.steps[0].steadyState;
    EXPECT_EQ(steady.result.state, SteadyState::NotReached) << steady.result.explanation;
    EXPECT_EQ(steady.rounds.size(), 7u);
    EXPECT_NE(steady.result.explanation.find("not reached in 7 rounds"), std::string::npos)
        << steady.result.explanation;
    ASSERT_TRUE(steady.result.window);
    EXPECT_EQ(steady.result.window->first, 2u) << "the last window: rounds 3-7";
    EXPECT_FALSE(steady.result.window->rangeMet);
    // The rounds alternate: high, low, high... (whatever the few milliseconds between the
    // step's start and its first I/O shift of the rates into the next round).
    for (std::size_t i = 0; i + 1 < steady.rounds.size(); ++i)
        EXPECT_EQ(steady.rounds[i].figure > steady.rounds[i + 1].figure, i % 2 == 0)
            << "rounds " << i + 1 << " and " << i + 2;
    // Seven rounds on their grid measured.
    EXPECT_GE(r.steps[0].measuredSeconds, 7 * 0.3 - 0.002);
    EXPECT_GE(
        steady.rounds.back().endSeconds - steady.rounds.front().startSeconds, 7 * 0.3 - 0.002);
}

// The same oscillation meets fio's slope rule: it has no trend. Why PTS wants both tests.
TEST(RunSteadyState, FiosSlopeRuleCallsAnOscillationSteady)
{
    const auto round = 300ms;
    PacedBackend backend({4000, 1000}, round);
    NullCounterSource counters;
    RoundNoticeSink sink;
    Profile p = steadyProfile(round, 7, SteadyStateRule::FioSlope);
    p.setup.steadyState->criteria.slopeLimit = 0.30;
    const RunResult r = BenchRun(p, backend, counters, sink).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    const SteadyStateRecord &steady = *r.steps.at(0).steadyState;
    EXPECT_EQ(steady.result.state, SteadyState::Steady) << steady.result.explanation;
    EXPECT_EQ(steady.rounds.size(), 5u);
}

// Stopped after two rounds: the step keeps its whole rounds and no verdict; the results
// file says "stopped", and reads back as it was written.
TEST(RunSteadyState, AStopBeforeAVerdictKeepsTheRoundsAndTheFileSaysStopped)
{
    const auto round = 200ms;
    PacedBackend backend({3000}, round);
    NullCounterSource counters;
    struct StoppingSink : RoundNoticeSink {
        BenchRun *run = nullptr;
        double stoppedAt = 0; // the sample after which the stop was asked for
        void onInterval(const IntervalSample &s) override
        {
            RoundNoticeSink::onInterval(s);
            if (s.phase == RunPhase::Measuring && s.endSeconds > 0.45 && run && !stoppedAt) {
                stoppedAt = s.endSeconds;
                run->requestStop();
            }
        }
    } sink;
    BenchRun run(steadyProfile(round, 25), backend, counters, sink);
    sink.run = &run;
    RunResult r = run.execute();
    ASSERT_EQ(r.steps.size(), 1u);
    const SteadyStateRecord &steady = *r.steps[0].steadyState;
    EXPECT_EQ(steady.result.state, SteadyState::Measuring);
    // Only whole rounds: two (0.2 s and 0.4 s) or, after a late tick, three, each on its
    // grid; the time from the last one's end to the stop is in the step, in no round.
    ASSERT_GE(steady.rounds.size(), 2u);
    EXPECT_LE(steady.rounds.size(), 3u);
    const double first = steady.rounds.front().startSeconds;
    for (std::size_t i = 0; i < steady.rounds.size(); ++i)
        EXPECT_GE(steady.rounds[i].endSeconds, first + 0.2 * double(i + 1) - 0.002)
            << "round " << i + 1;
    EXPECT_LE(steady.rounds.back().endSeconds, sink.stoppedAt);
    EXPECT_GT(first + r.steps[0].measuredSeconds, steady.rounds.back().endSeconds)
        << "the part round after the last is measured, not a round";
    EXPECT_FALSE(r.steps[0].complete);
    const auto said = std::find_if(sink.notices.begin(), sink.notices.end(),
        [](const std::string &n) { return n.find("before a verdict") != std::string::npos; });
    EXPECT_NE(said, sink.notices.end());

    r.environment.hostName = "test";
    const std::string text = writeResultsJson(r, r.environment);
    EXPECT_NE(text.find("\"state\": \"stopped\""), std::string::npos);
    const ResultsRead read = readResultsJson(text);
    ASSERT_TRUE(read.ok()) << read.error;
    EXPECT_EQ(read.result->steps.at(0).steadyState, r.steps[0].steadyState);
}

// A steady step's record is in the results file, the HTML report and reads back equal.
TEST(RunSteadyState, TheRoundsAndTheWindowAreInTheResultsFileAndTheReport)
{
    const auto round = 200ms;
    PacedBackend backend({3000}, round);
    NullCounterSource counters;
    RoundNoticeSink sink;
    RunResult r = BenchRun(steadyProfile(round, 25), backend, counters, sink).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_TRUE(r.steps.at(0).steadyState);
    r.environment.hostName = "test";
    const std::string text = writeResultsJson(r, r.environment);
    for (const char *key : {"\"steady_state\"", "\"rule\": \"pts\"", "\"metric\": \"iops\"",
             "\"round_s\": 0.2", "\"window\"", "\"first_index\"", "\"range_share\""})
        EXPECT_NE(text.find(key), std::string::npos) << key;
    const ResultsRead read = readResultsJson(text);
    ASSERT_TRUE(read.ok()) << read.error;
    EXPECT_EQ(read.result->steps.at(0).steadyState, r.steps[0].steadyState);
    EXPECT_EQ(read.result->plan.profile.setup.steadyState, r.plan.profile.setup.steadyState);
    const std::string html = writeHtmlReport(r, r.environment, {});
    EXPECT_NE(html.find("Steady state (pts on iops): steady in rounds"), std::string::npos);
    EXPECT_NE(html.find("✓"), std::string::npos) << "the window's rounds are marked";
}

// The run's control thread held up for longer than a round (here the sink, which runs on
// it, sleeps through a whole round once): the round it held up is longer, and the next
// starts when the control thread is back, as long as any other round: no round of no time
// (a figure of 0 IOPS in the window would keep it from ever being steady).
TEST(RunSteadyState, AControlThreadHeldUpForMoreThanARoundMakesNoEmptyRound)
{
    const auto round = 200ms;
    PacedBackend backend({3000}, round);
    NullCounterSource counters;
    struct StallingSink : RoundNoticeSink {
        bool stalled = false;
        void onInterval(const IntervalSample &s) override
        {
            RoundNoticeSink::onInterval(s);
            if (!stalled && s.phase == RunPhase::Measuring && s.endSeconds > 0.25) {
                stalled = true;
                std::this_thread::sleep_for(450ms);
            }
        }
    } sink;
    const RunResult r = BenchRun(steadyProfile(round, 8), backend, counters, sink).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    const SteadyStateRecord &steady = *r.steps.at(0).steadyState;
    ASSERT_TRUE(sink.stalled);
    ASSERT_GE(steady.rounds.size(), 5u);
    double longest = 0;
    for (const auto &rd : steady.rounds) {
        const double length = rd.endSeconds - rd.startSeconds;
        EXPECT_GE(length, 0.1 - 0.002) << "a round of " << length << " s: under half a round";
        EXPECT_GT(rd.figure, 1000) << "a round of " << length << " s";
        longest = std::max(longest, length);
    }
    EXPECT_GE(longest, 0.45) << "the round the stall held up";
}

// Iometer's pause (every worker Idle at a spec index) has no I/O to judge: under a rule
// with no run time (0: until stopped) it takes one round, and the run goes on.
TEST(RunSteadyState, IometersIdleStepTakesOneRoundWithoutARunTime)
{
    Profile p = steadyProfile(300ms, 25);
    p.setup.runTime = 0s;
    p.hosts[0].workers[0].assignedSpecs = {std::string(kIdleSpecName), "4K read"};
    PacedBackend backend({3000}, 300ms);
    NullCounterSource counters;
    RoundNoticeSink sink;
    const RunResult r = BenchRun(p, backend, counters, sink).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(r.steps.size(), 2u);
    // One round's time (a tick late on a loaded machine makes it longer, never shorter;
    // the bound above is far from a second round's end and from "until stopped").
    EXPECT_GE(r.steps[0].measuredSeconds, 0.3 - 0.002);
    EXPECT_LT(r.steps[0].measuredSeconds, 2.0);
    EXPECT_FALSE(r.steps[0].steadyState) << "a pause is not judged";
    ASSERT_TRUE(r.steps[1].steadyState);
    EXPECT_EQ(r.steps[1].steadyState->result.state, SteadyState::Steady);
}

// The profile keeps the rule (in percent, as people write limits), reads it back, says it
// in the run's description, and checks it.
TEST(SteadyStateProfile, TheRuleIsWrittenReadDescribedAndChecked)
{
    Profile p = steadyProfile(60s, 25);
    p.setup.steadyState->metric = SteadyStateMetric::P99Latency;
    p.setup.steadyState->criteria.rangeLimit = 0.07;
    const std::string text = writeProfileJson(p);
    EXPECT_NE(text.find("\"rangePercent\": 7"), std::string::npos) << text;
    EXPECT_NE(text.find("\"metric\": \"p99\""), std::string::npos) << text;
    Problems problems;
    const auto back = parseProfileJson(text, problems);
    ASSERT_TRUE(back) << (problems.empty() ? "" : problems[0].toString());
    ASSERT_TRUE(back->setup.steadyState);
    EXPECT_EQ(back->setup.steadyState->metric, SteadyStateMetric::P99Latency);
    EXPECT_DOUBLE_EQ(back->setup.steadyState->criteria.rangeLimit, 0.07);
    EXPECT_EQ(back->setup.steadyState->roundTime, 60s);
    EXPECT_TRUE(validateProfile(*back).empty());
    EXPECT_NE(describeRun(*back).find("until steady per spec (pts on p99"), std::string::npos)
        << describeRun(*back);

    // Limits kept as percentages read back to exactly the model's shares (7 % is written
    // 7, not 7.000000000000001), so a profile written and read is the same profile.
    for (const double percent : {7.0, 12.3456789, 0.1, 100.0 / 3, 999.9, 1e-7}) {
        Profile q = *back;
        q.setup.steadyState->criteria.rangeLimit = percent / 100;
        q.setup.steadyState->criteria.slopeLimit = percent / 100;
        Problems again;
        const auto reread = parseProfileJson(writeProfileJson(q), again);
        ASSERT_TRUE(reread) << percent;
        EXPECT_EQ(reread->setup, q.setup) << percent;
    }

    // A bad name is named with what would do.
    problems.clear();
    std::string bad = text;
    bad.replace(bad.find("\"pts\""), 5, "\"ptss\"");
    parseProfileJson(bad, problems);
    ASSERT_FALSE(problems.empty());
    EXPECT_EQ(problems[0].path, "setup.steadyState.rule");
    EXPECT_NE(problems[0].message.find("pts, fio-deviation, fio-slope"), std::string::npos);

    // Rounds shorter than a sample, a window of one, a limit below the window, a limit of
    // 0 %, a series of a number of I/Os: each refused at its field.
    const auto errorsAt = [](const Profile &profile) {
        std::vector<std::string> at;
        for (const auto &problem : validateProfile(profile))
            if (problem.severity == Severity::Error)
                at.push_back(problem.path);
        return at;
    };
    Profile q = *back;
    q.setup.steadyState->roundTime = 50ms;
    EXPECT_EQ(errorsAt(q), std::vector<std::string> {"setup.steadyState.roundTime"});
    q = *back;
    q.setup.steadyState->criteria.windowRounds = 1;
    EXPECT_EQ(errorsAt(q), std::vector<std::string> {"setup.steadyState.windowRounds"});
    q = *back;
    q.setup.steadyState->criteria.roundLimit = 4;
    EXPECT_EQ(errorsAt(q), std::vector<std::string> {"setup.steadyState.roundLimit"});
    q = *back;
    q.setup.steadyState->criteria.slopeLimit = 0;
    EXPECT_EQ(errorsAt(q), std::vector<std::string> {"setup.steadyState.slopePercent"});
    q = *back;
    q.setup.series.emplace().ios = 1000;
    q.setup.series->axes.push_back({.parameter = SweepParameter::OutstandingIos, .values = {1, 2}});
    const auto seriesErrors = errorsAt(q);
    EXPECT_NE(std::find(seriesErrors.begin(), seriesErrors.end(), "setup.steadyState"),
        seriesErrors.end());
}

// Several hosts would each judge their own rounds and end their steps apart: refused,
// naming why, before anything runs.
TEST(SteadyStateProfile, SeveralHostsAreRefusedAStopRuleTheyCouldNotShare)
{
    RunRequest request;
    request.profile = steadyProfile(1s, 25);
    std::string refusal;
    EXPECT_FALSE(requestsPerHost(request, 2, refusal));
    EXPECT_NE(refusal.find("steady-state stop rule"), std::string::npos) << refusal;
    refusal.clear();
    EXPECT_TRUE(requestsPerHost(request, 1, refusal)) << refusal;
}

// A write into a "cache" of 30,000 I/Os (117 MiB of 4 KiB writes) at 10,000 IOPS, then at
// 2,500: the step's write rate falls off a cliff at the bytes where it was made (within
// 5 %: the detector knows it to one 100 ms interval, 1,000 I/Os), with both rates, said
// as the step ends and kept in the results file. The same write without the fall has
// none.
TEST(RunWriteCliff, AWriteWhoseRateFallsAfterACacheFillsShowsTheCliffAtItsBytes)
{
    const double cacheIos = 30'000;
    PacedBackend backend(cacheThatFills(10'000, cacheIos, 2'500));
    NullCounterSource counters;
    RoundNoticeSink sink;
    Profile p = steadyProfile(500ms, 25);
    p.setup.steadyState.reset();
    p.setup.runTime = 5s;
    p.specs = {makeSpec("4K write", 4096, 0, 0)};
    p.hosts[0].workers[0].assignedSpecs = {"4K write"};
    RunResult r = BenchRun(p, backend, counters, sink).execute();
    ASSERT_FALSE(r.error) << r.error->toString();
    const StepResult &step = r.steps.at(0);
    ASSERT_TRUE(step.writeCliff);
    EXPECT_GE(step.writeCliff->intervals, 45u);
    ASSERT_TRUE(step.writeCliff->cliff) << "no cliff found";
    const WriteCliff &found = *step.writeCliff->cliff;
    const double cacheBytes = cacheIos * 4096;
    EXPECT_NEAR(double(found.bytesBefore), cacheBytes, 0.05 * cacheBytes);
    EXPECT_NEAR(found.rateBefore, 10'000 * 4096 / 1e6, 0.05 * 10'000 * 4096 / 1e6);
    EXPECT_NEAR(found.rateAfter, 2'500 * 4096 / 1e6, 0.05 * 2'500 * 4096 / 1e6);
    // At 3 s of the engine's time, which began with the step's first I/O: a few
    // milliseconds after the step's start, more on a loaded machine.
    EXPECT_GE(step.writeCliff->cliffSeconds, 3.0 - 0.15);
    EXPECT_LT(step.writeCliff->cliffSeconds, 3.0 + 0.5);
    const auto said = std::find_if(sink.notices.begin(), sink.notices.end(),
        [](const std::string &n) { return n.find("fell off a cliff") != std::string::npos; });
    EXPECT_NE(said, sink.notices.end());

    r.environment.hostName = "test";
    const std::string text = writeResultsJson(r, r.environment);
    EXPECT_NE(text.find("\"found\": true"), std::string::npos);
    const ResultsRead read = readResultsJson(text);
    ASSERT_TRUE(read.ok()) << read.error;
    EXPECT_EQ(read.result->steps.at(0).writeCliff, step.writeCliff);
    const std::string html = writeHtmlReport(r, r.environment, {});
    EXPECT_NE(html.find("Write cliff: " + describeWriteCliff(*step.writeCliff) + "</p>"),
        std::string::npos);
    // And drawn against the bytes written, the cliff marked at its bytes.
    EXPECT_NE(html.find("The write against the bytes written"), std::string::npos);
    EXPECT_NE(html.find("cliff after " + describeSize(found.bytesBefore)), std::string::npos);

    // Level: judged, and no cliff.
    PacedBackend level(cacheThatFills(10'000, 1e12, 2'500));
    RoundNoticeSink quiet;
    p.setup.runTime = 2s; // twenty intervals: enough to judge
    const RunResult flat = BenchRun(p, level, counters, quiet).execute();
    ASSERT_FALSE(flat.error) << flat.error->toString();
    ASSERT_TRUE(flat.steps.at(0).writeCliff);
    EXPECT_FALSE(flat.steps.at(0).writeCliff->cliff);
    EXPECT_EQ(std::count_if(quiet.notices.begin(), quiet.notices.end(),
                  [](const std::string &n) { return n.find("cliff") != std::string::npos; }),
        0);
    // Reads only: nothing to judge.
    EXPECT_FALSE(BenchRun(steadyProfileWithoutRule(), level, counters, quiet)
                     .execute()
                     .steps.at(0)
                     .writeCliff);
}
