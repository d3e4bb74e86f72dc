// SPDX-License-Identifier: GPL-3.0-or-later
// Preconditioning (core/run/precondition.h): the step it makes of a plan (who writes
// which target, how much), and a run that does it first: its bytes exact, its intervals
// in their own phase, its figures in no step, kept by the results file and the session
// codec.
#include "core/null_engine.h"
#include "core/profile/profile_json.h"
#include "core/profile/validation.h"
#include "core/report/results_json.h"
#include "core/report/results_reader.h"
#include "core/run/precondition.h"
#include "core/run/run_session.h"
#include "core/run/session_codec.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

#include "tests/support/test_profiles.h"

using namespace ioprism::core;
using namespace std::chrono_literals;

namespace {

// A resolved plan as describePlan makes it, without preparing anything: every worker's
// targets with their regions, one step running each worker's first spec at its depth.
ResolvedPlan preconditionTestPlan(const Profile &profile)
{
    ResolvedPlan plan;
    plan.profile = profile;
    plan.specs = profile.specs;
    PlannedStep step;
    step.name = profile.specs.front().name;
    step.specName = step.name;
    plan.steps.push_back(step);
    for (const Worker &w : profile.hosts.front().workers) {
        ResolvedWorker &rw = plan.workers.emplace_back();
        rw.name = w.name;
        std::vector<std::uint32_t> depths;
        for (const Target &t : w.targets) {
            ResolvedTarget &rt = rw.targets.emplace_back();
            rt.target = t;
            rt.info.path = t.path;
            rt.info.sizeBytes = t.testFileSizeBytes;
            rt.region = {0, t.testFileSizeBytes};
            depths.push_back(w.outstandingIos);
        }
        rw.specPerStep = {0};
        rw.outstandingIos = {depths};
    }
    return plan;
}

// Two workers; the second also has the first's first target (shared).
Profile sharedTargetProfile()
{
    Profile p = ioprism::test::twoWorkerProfile("precondition", 50ms, 3, 1);
    p.hosts[0].workers[1].targets[0] = p.hosts[0].workers[0].targets[0];
    return p;
}

struct KeptResult final : RunSink {
    void onFinished(RunResult &&r) override
    {
        std::lock_guard lock(mutex);
        result = std::move(r);
    }
    void onNotice(const std::string &text) override
    {
        std::lock_guard lock(mutex);
        notices.push_back(text);
    }
    void onPrepareProgress(
        const std::string &, std::uint64_t done, std::uint64_t total, PrepareWork work) override
    {
        std::lock_guard lock(mutex);
        if (work == PrepareWork::Preconditioning)
            progress.push_back({done, total});
    }
    void onPhase(RunPhase phase, std::size_t, const std::string &) override
    {
        std::lock_guard lock(mutex);
        phases.push_back(phase);
    }
    std::mutex mutex;
    RunResult result;
    std::vector<std::string> notices;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> progress;
    std::vector<RunPhase> phases;
};

// A run of `profile` on the null engine: 500 I/Os per worker and target in each step.
RunResult runPreconditioned(const Profile &profile, KeptResult &sink)
{
    LocalRunHooks hooks;
    hooks.makeBackend
        = [](EngineKind) -> std::unique_ptr<IoBackend> { return std::make_unique<NullBackend>(); };
    hooks.removeTestFile = [](const std::string &) -> Status { return Ok {}; };
    RunRequest request;
    request.profile = profile;
    request.engine = EngineKind::Null;
    request.settings.runId = 4;
    request.settings.ioLimitPerTarget = 500;
    request.settings.deviceTailLimit = 0ms;
    {
        LocalRunSession session(hooks, sink);
        session.start(request);
        session.wait();
    }
    return std::move(sink.result);
}

} // namespace

TEST(Precondition, SequentialWritesEachTargetTheMultipleOnceWhoeverSharesIt)
{
    Profile p = sharedTargetProfile();
    p.setup.precondition = PreconditionSetup {PreconditionKind::Sequential, 2, 0s};
    const ResolvedPlan plan = preconditionTestPlan(p);
    auto made = preconditionStep(plan, p.setup);
    ASSERT_TRUE(std::holds_alternative<PreconditionStep>(made)) << std::get<std::string>(made);
    const PreconditionStep &pre = std::get<PreconditionStep>(made);

    ASSERT_EQ(pre.plan.steps.size(), 1u);
    EXPECT_EQ(pre.plan.steps[0].name, "Preconditioning: 128 KiB sequential writes, 2x capacity");
    const AccessSpec *spec = pre.plan.specOf(0, 0);
    ASSERT_NE(spec, nullptr);
    ASSERT_EQ(spec->lines.size(), 1u);
    EXPECT_EQ(spec->lines[0].transferSizeBytes, 128 * kKiB);
    EXPECT_EQ(spec->lines[0].percentRead, 0u);
    EXPECT_EQ(spec->lines[0].percentRandom, 0u);
    // 16 MiB targets, twice, in 128 KiB writes: 256 each. Three distinct targets.
    EXPECT_EQ(pre.ioLimits[0], (std::vector<std::uint64_t> {256, 256}));
    EXPECT_EQ(pre.ioLimits[1], (std::vector<std::uint64_t> {0, 256}))
        << "the shared target is the first worker's to write";
    EXPECT_EQ(pre.plan.workers[0].outstandingIos[0], (std::vector<std::uint32_t> {32, 32}));
    EXPECT_EQ(pre.plan.workers[1].outstandingIos[0], (std::vector<std::uint32_t> {0, 32}));
    EXPECT_EQ(pre.plannedBytes, 3 * 32 * kMiB);
    EXPECT_EQ(pre.setup.rampUp, 0s);
    EXPECT_EQ(pre.setup.runTime, 0s) << "it ends when the amounts are written";
    EXPECT_FALSE(pre.setup.steadyState);
}

TEST(Precondition, TheWorkloadRunsTheFirstStepForAnAmountSplitOverItsWorkersOrForATime)
{
    Profile p = sharedTargetProfile();
    p.specs[0] = ioprism::test::makeSpec("8K write", 8192, 0, 100);
    p.setup.precondition = PreconditionSetup {PreconditionKind::Workload, 1, 0s};
    const ResolvedPlan plan = preconditionTestPlan(p);
    auto made = preconditionStep(plan, p.setup);
    ASSERT_TRUE(std::holds_alternative<PreconditionStep>(made));
    const PreconditionStep &pre = std::get<PreconditionStep>(made);
    EXPECT_EQ(pre.plan.specOf(1, 0)->name, "8K write");
    EXPECT_EQ(pre.plan.workers[0].outstandingIos[0], (std::vector<std::uint32_t> {4, 4}));
    // 16 MiB in 8 KiB I/Os is 2048; the shared target's split over its two workers.
    EXPECT_EQ(pre.ioLimits[0], (std::vector<std::uint64_t> {1024, 2048}));
    EXPECT_EQ(pre.ioLimits[1], (std::vector<std::uint64_t> {1024, 2048}));
    EXPECT_EQ(pre.plannedBytes, 3 * 16 * kMiB);

    p.setup.precondition->time = 90s;
    auto timed = preconditionStep(preconditionTestPlan(p), p.setup);
    ASSERT_TRUE(std::holds_alternative<PreconditionStep>(timed));
    const PreconditionStep &byTime = std::get<PreconditionStep>(timed);
    EXPECT_EQ(byTime.setup.runTime, 90s);
    EXPECT_EQ(byTime.plannedBytes, 0u);
    EXPECT_EQ(byTime.plan.steps[0].ioLimit, 0u) << "a time, not an amount";
    EXPECT_EQ(byTime.ioLimits[0], (std::vector<std::uint64_t> {0, 0}));

    // Iometer's pause as the first step: no workload to precondition with.
    ResolvedPlan idle = preconditionTestPlan(p);
    for (auto &w : idle.workers)
        w.specPerStep = {-1};
    auto refused = preconditionStep(idle, p.setup);
    ASSERT_TRUE(std::holds_alternative<std::string>(refused));
    EXPECT_NE(std::get<std::string>(refused).find("does no I/O"), std::string::npos);
}

TEST(Precondition, ARunWritesItFirstAndKeepsItOutOfEveryStep)
{
    Profile p = ioprism::test::twoWorkerProfile("precondition", 20ms, 5, 2);
    p.setup.precondition = PreconditionSetup {PreconditionKind::Sequential, 2, 0s};
    KeptResult sink;
    const RunResult r = runPreconditioned(p, sink);
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_TRUE(r.preconditioning);
    const PreconditionResult &pre = *r.preconditioning;
    // Four 16 MiB targets written twice: exactly that many bytes, all writes.
    EXPECT_EQ(pre.plannedBytes, 4 * 32 * kMiB);
    const Figures &moved = pre.step.scopes.front().figures;
    EXPECT_EQ(moved.write.bytes, 4 * 32 * kMiB);
    EXPECT_EQ(moved.read.ios, 0u);
    EXPECT_TRUE(pre.step.complete);

    // The steps are as without it: their own I/O only (500 per worker and target).
    ASSERT_EQ(r.steps.size(), 2u);
    for (const StepResult &step : r.steps)
        EXPECT_EQ(step.scopes.front().figures.total.ios, 4u * 500u) << step.stepName;
    EXPECT_EQ(r.steps[0].step, 0u);
    EXPECT_EQ(r.steps[0].stepName, "4K mix");

    // Its intervals, in their own phase, hold its bytes; before every step's.
    std::uint64_t intervalBytes = 0;
    bool stepsBegun = false;
    for (const IntervalSample &s : r.intervals) {
        if (s.phase == RunPhase::Preconditioning) {
            EXPECT_FALSE(stepsBegun) << "preconditioning comes first";
            intervalBytes += s.scopes.front().figures.write.bytes;
        } else
            stepsBegun = true;
    }
    EXPECT_EQ(intervalBytes, 4 * 32 * kMiB);
    // The sink heard the phase, its progress to the end, and what it did.
    ASSERT_FALSE(sink.phases.empty());
    EXPECT_NE(std::find(sink.phases.begin(), sink.phases.end(), RunPhase::Preconditioning),
        sink.phases.end());
    ASSERT_FALSE(sink.progress.empty());
    EXPECT_EQ(sink.progress.back(), std::make_pair(4 * 32 * kMiB, 4 * 32 * kMiB));
    bool said = false;
    for (const auto &n : r.notices)
        said |= n.find("Preconditioning: 128 KiB sequential writes, 2x capacity: 128 MiB moved of "
                       "128 MiB")
            != std::string::npos;
    EXPECT_TRUE(said) << "the run says what it wrote";

    // The results file and the session codec keep it, equal.
    const std::string text = writeResultsJson(r, r.environment);
    const ResultsRead read = readResultsJson(text);
    ASSERT_TRUE(read.result) << read.error;
    ASSERT_TRUE(read.result->preconditioning);
    const PreconditionResult &back = *read.result->preconditioning;
    EXPECT_EQ(back.setup, pre.setup);
    EXPECT_EQ(back.plannedBytes, pre.plannedBytes);
    // A step's file keeps figures, not counters, and of the I/O in flight at its samples
    // only what shows in the maximum latency (stalls are the intervals' columns): under
    // load a sample mid-way sees writes in flight, and their age is not in the step's row.
    const auto withoutInFlightAges = [](Figures f) {
        for (DirectionFigures *d : {&f.read, &f.write, &f.total}) {
            d->oldestInFlightUs = 0;
            d->stalledIos = 0;
        }
        return f;
    };
    EXPECT_EQ(withoutInFlightAges(back.step.scopes.front().figures), withoutInFlightAges(moved));
    EXPECT_EQ(back.step.complete, pre.step.complete);
    EXPECT_EQ(writeResultsJson(*read.result, read.result->environment), text);
    const auto decoded = decodeEvent(encodeEvent(FinishedEvent {r}));
    ASSERT_TRUE(decoded.value) << decoded.error;
    EXPECT_EQ(std::get<FinishedEvent>(*decoded.value).result.preconditioning, r.preconditioning);
}

TEST(Precondition, AStopDuringItKeepsWhatItWroteAndRunsNoStep)
{
    Profile p = ioprism::test::twoWorkerProfile("precondition", 20ms, 5, 1);
    p.setup.precondition = PreconditionSetup {PreconditionKind::Sequential, 100, 0s};
    // Stopped as it begins (the sink hears the phase before the workers are released).
    struct StopAtPreconditioning final : RunSink {
        void onPhase(RunPhase phase, std::size_t, const std::string &) override
        {
            if (phase == RunPhase::Preconditioning && session)
                session->stop();
        }
        void onFinished(RunResult &&r) override { result = std::move(r); }
        RunSession *session = nullptr;
        RunResult result;
    } sink;
    LocalRunHooks hooks;
    hooks.makeBackend
        = [](EngineKind) -> std::unique_ptr<IoBackend> { return std::make_unique<NullBackend>(); };
    RunRequest request;
    request.profile = p;
    request.engine = EngineKind::Null;
    request.settings.deviceTailLimit = 0ms;
    {
        LocalRunSession session(hooks, sink);
        sink.session = &session;
        session.start(request);
        session.wait();
    }
    const RunResult &r = sink.result;
    EXPECT_FALSE(r.error);
    EXPECT_TRUE(r.stoppedByUser);
    ASSERT_TRUE(r.preconditioning) << "what it measured is kept";
    EXPECT_FALSE(r.preconditioning->step.complete);
    EXPECT_LT(r.preconditioning->step.scopes.front().figures.write.bytes,
        r.preconditioning->plannedBytes / 2)
        << "stopped as it began: far from the 6.25 GiB it planned";
    EXPECT_TRUE(r.steps.empty()) << "no step runs on targets not preconditioned";
}

TEST(Precondition, TheProfileKeepsItAndRefusesWhatCannotRun)
{
    Profile p = ioprism::test::twoWorkerProfile("precondition", 1000ms, 5, 1);
    p.setup.precondition = PreconditionSetup {PreconditionKind::Workload, 1.5, 10min};
    const std::string text = writeProfileJson(p);
    Problems problems;
    const auto back = parseProfileJson(text, problems);
    ASSERT_TRUE(back) << (problems.empty() ? "" : problems.front().toString());
    EXPECT_EQ(back->setup.precondition, p.setup.precondition);
    EXPECT_TRUE(validateProfile(p).empty());

    const auto firstProblemAt = [](const Profile &profile) {
        const Problems found = validateProfile(profile);
        return found.empty() ? std::string() : found.front().path;
    };
    Profile bad = p;
    bad.setup.precondition = PreconditionSetup {PreconditionKind::Sequential, 0, 0s};
    EXPECT_EQ(firstProblemAt(bad), "setup.precondition.capacityMultiple");
    bad.setup.precondition = PreconditionSetup {PreconditionKind::Sequential, 2, 30s};
    EXPECT_EQ(firstProblemAt(bad), "setup.precondition.time") << "a time is the workload's";
    bad.setup.precondition = PreconditionSetup {PreconditionKind::Sequential, 101, 0s};
    EXPECT_EQ(firstProblemAt(bad), "setup.precondition.capacityMultiple");
    bad = p;
    bad.hosts[0].workers[0].targets[0].kind = TargetKind::FileTree;
    bad.hosts[0].workers[0].targets[0].tree.depth = 1;
    bool treeRefused = false;
    for (const auto &problem : validateProfile(bad))
        treeRefused |= problem.path == "setup.precondition";
    EXPECT_TRUE(treeRefused);
}
