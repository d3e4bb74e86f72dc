// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/run.h"

#include "core/profile/units.h"
#include "core/run/device_tail.h"
#include "core/run/plan.h"
#include "core/run/precondition.h"
#include "core/run/resolved_plan.h"
#include "core/run/run_step.h"
#include "core/run/step_findings.h"
#include "core/run/worker.h"
#include "core/stats/verdict.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <random>
#include <system_error>
#include <thread>
#include <utility>
#include <variant>

namespace ioprism::core {

using SteadyClock = std::chrono::steady_clock;

Run::Run(Profile profile, IoBackend &backend, CounterSource &counters, RunSink &sink,
    RunSettings settings, RunHooks hooks)
    : m_profile(std::move(profile))
    , m_backend(backend)
    , m_counters(counters)
    , m_sink(sink)
    , m_settings(settings)
    , m_hooks(std::move(hooks))
    , m_shared(std::make_shared<Shared>())
    , m_history(m_settings.intervalHistoryBytes)
{ }

Run::~Run() = default;

void Run::requestStop()
{
    m_shared->requestStop();
}

void Run::requestEndStep(std::size_t step)
{
    m_shared->wake(step);
}

void Run::requestStopNow()
{
    m_shared->stopNow = true;
    m_shared->requestStop();
}

namespace {

// The file systems whose free space the test files about to be created do not fit in
// together (each alone was checked by prepareTarget), as a refusal, or nullopt.
std::optional<OpError> testFileSpaceProblem(
    IoBackend &backend, const std::vector<const Target *> &targets)
{
    struct Need {
        TestFileSpace space;
        std::uint64_t needBytes = 0;
        std::vector<std::string> files;
    };
    std::map<std::string, Need> perFileSystem;
    for (const Target *t : targets) {
        if (isRawDevice(t->kind))
            continue;
        const auto space = backend.testFileSpace(*t);
        if (!space || space->needBytes == 0)
            continue;
        auto &need = perFileSystem[space->fileSystem];
        need.space = *space;
        need.needBytes += space->needBytes;
        need.files.push_back(t->path + " " + formatSize(space->needBytes));
    }
    for (const auto &[id, need] : perFileSystem)
        if (need.files.size() > 1 && need.needBytes > need.space.freeBytes)
            return OpError {std::make_error_code(std::errc::no_space_on_device),
                "create test files", need.space.where,
                "not enough space on " + need.space.where + " for the test files together: need "
                    + formatSize(need.needBytes) + " (" + run_detail::joined(need.files)
                    + "), have " + formatSize(need.space.freeBytes)};
    return std::nullopt;
}

// The devices carrying each target (in order), named by the targets' profile paths as
// the results name them; none when the backend's I/O reaches no device, and why.
DeviceMap watchDevices(IoBackend &backend, CounterSource &counters,
    const std::vector<const Target *> &targets,
    const std::function<std::string(const std::string &)> &openedPathOf)
{
    std::vector<std::string> watchPaths;
    watchPaths.reserve(targets.size());
    for (const Target *t : targets)
        watchPaths.push_back(openedPathOf(t->path));
    DeviceMap map;
    if (backend.reachesDevices()) {
        map = counters.watchTargets(watchPaths);
    } else {
        for (const auto &path : watchPaths)
            map.targets.push_back(
                {path, std::nullopt, "the " + backend.engineName() + " engine does no device I/O"});
    }
    for (std::size_t i = 0; i < targets.size() && i < map.targets.size(); ++i)
        map.targets[i].targetPath = targets[i]->path;
    return map;
}

} // namespace

// One execution of a run, in the order it happens: plan, prepare the targets, resolve
// and check the plan against them, watch their devices, run the steps, watch the tail.
// Each part is a function; they share the run's parts and the result being filled.
struct Run::Execution {
    struct Prepared {
        TargetInfo info;
        bool needWrite = false;
    };

    Run &run;
    RunResult &result;
    Shared &shared;
    std::optional<RunPlan> plan;
    std::map<std::string, Prepared> prepared; // by the profile's target path
    std::vector<const Target *> targets; // each distinct target once, in plan order
    std::vector<const PlannedWorker *> fillingWorker; // per target: whose pattern fills it
    std::vector<const Target *> created; // test files and trees this run created
    run_detail::TreeFiles treeFiles; // filled by the first step on each tree
    std::map<std::string, bool> comparedPath; // target path -> carried by a watched device
    bool comparedBuffered = false;
    std::uint64_t writeSpanBytes = 0; // what the compared targets span (Sampler::Config)
    // Application writes the devices have not shown yet and the devices' credit, carried
    // across intervals and steps (core/stats/verdict.h).
    WriteBalance writeBalance;
    // The backend's notices already reported (the result has the run's own as well).
    std::size_t backendNoticesSeen = 0;

    std::chrono::milliseconds interval() const
    {
        return std::max<std::chrono::milliseconds>(
            run.m_profile.setup.interval, std::chrono::milliseconds(10));
    }

    // The backend adds notices when it is made (an engine fallback) and while it
    // prepares targets (a test file too small and grown): each is reported once.
    void reportNewNotices()
    {
        const auto all = run.m_backend.notices();
        for (; backendNoticesSeen < all.size(); ++backendNoticesSeen) {
            result.notices.push_back(all[backendNoticesSeen]);
            run.m_sink.onNotice(all[backendNoticesSeen]);
        }
    }

    // False when the backend refuses the run's polling modes: nothing is touched then.
    bool begin()
    {
        result.runId = run.m_settings.runId;
        result.startedAt = std::chrono::system_clock::now();
        const auto refusal = run.m_backend.setPolling(run.m_settings.polling);
        result.engine = run.m_backend.engineName();
        run.m_sink.onStarted(result.engine);
        if (run.m_hooks.describeSystem)
            result.environment = run.m_hooks.describeSystem();
        if (result.environment.toolVersion.empty())
            result.environment.toolVersion = IOPRISM_VERSION;
        reportNewNotices();
        if (refusal)
            shared.fail(*refusal);
        return !refusal;
    }

    // The plan from the profile; until the targets are prepared, the result's plan has
    // its profile and steps only.
    bool makePlan()
    {
        Problems problems;
        std::random_device rd;
        const std::uint64_t randomSeed = (std::uint64_t(rd()) << 32) ^ rd();
        plan = makeRunPlan(run.m_profile, randomSeed, problems);
        std::string errors;
        for (const auto &p : problems) {
            if (p.severity == Severity::Warning)
                run.m_sink.onNotice(p.toString());
            else
                errors += (errors.empty() ? "" : "; ") + p.toString();
        }
        if (!plan) {
            shared.fail({{}, "plan the run", {}, errors});
            return false;
        }
        result.plan.profile = plan->effectiveProfile;
        result.plan.steps = plan->steps;
        // Every distinct target once (a path shared by workers is one target), written
        // when any step of any worker on it writes.
        for (const auto &w : plan->workers)
            for (const auto &t : w.targets) {
                // Preconditioning writes every target, whatever the steps do.
                bool write = run.m_profile.setup.precondition.has_value();
                for (int s : w.specPerStep)
                    if (s >= 0 && specWrites(plan->specs[std::size_t(s)]))
                        write = true;
                auto [it, inserted] = prepared.try_emplace(t.target.path);
                it->second.needWrite |= write;
                if (inserted) {
                    targets.push_back(&t.target);
                    fillingWorker.push_back(&w);
                }
            }
        return true;
    }

    // Each worker's largest engine buffers over the steps, allocated now by backends that
    // can keep them between steps (IoBackend::reserveBuffers): preparing, not measuring.
    void reserveBuffers()
    {
        const ResolvedPlan &plan = result.plan;
        std::vector<EngineConfig> largest(plan.workers.size());
        std::vector<std::uint64_t> largestBytes(plan.workers.size(), 0);
        for (std::size_t w = 0; w < plan.workers.size(); ++w) {
            const ResolvedWorker &rw = plan.workers[w];
            for (std::size_t step = 0; step < plan.stepCount(); ++step) {
                const AccessSpec *spec = plan.specOf(w, step);
                if (!spec)
                    continue;
                std::uint32_t slots = 0;
                std::uint32_t align = 4096;
                for (std::size_t t = 0; t < rw.targets.size(); ++t)
                    if (const auto qd = rw.outstandingIos[step][t]; qd > 0) {
                        slots += qd;
                        align = std::max(align, rw.targets[t].info.directIoMemAlignBytes);
                    }
                const auto config
                    = engineConfigFor(*spec, slots, largestTransferBytes(*spec), align);
                const std::uint64_t bytes = std::uint64_t(config.bufferCount)
                    * ((std::uint64_t(config.bufferBytes) + align - 1) / align * align);
                if (slots > 0 && bytes > largestBytes[w]) {
                    largestBytes[w] = bytes;
                    largest[w] = config;
                }
            }
        }
        std::vector<EngineConfig> used;
        for (std::size_t w = 0; w < largest.size(); ++w)
            if (largestBytes[w] > 0)
                used.push_back(largest[w]);
        run.m_backend.reserveBuffers(used);
    }

    ~Execution() { run.m_backend.releaseBuffers(); }

    // Refuses to start after all: the run's error, and the test files it made removed.
    void refuse(const OpError &e)
    {
        shared.fail(e);
        for (const Target *target : created) {
            auto st = target->kind == TargetKind::FileTree
                ? run.m_backend.removeFileTree(target->path, target->tree)
                : run.m_backend.discardTestFile(target->path);
            if (!st)
                run.m_sink.onNotice(
                    "could not remove " + target->path + ": " + st.error().toString());
        }
    }

    // Every target's writeRefusal, then every target's accessRefusal (IoBackend).
    std::optional<OpError> firstRefusal()
    {
        for (const bool safety : {true, false})
            for (const Target *t : targets) {
                const PrepareOptions asked {.needWrite = prepared[t->path].needWrite,
                    .allowDeviceWrites = run.m_settings.allowDeviceWrites};
                if (auto refusal = safety ? run.m_backend.writeRefusal(*t, asked)
                                          : run.m_backend.accessRefusal(*t, asked))
                    return refusal;
            }
        return std::nullopt;
    }

    bool prepareTargets()
    {
        run.m_phase = RunPhase::Preparing;
        run.m_sink.onPhase(RunPhase::Preparing, 0, {});
        // Free space per file system for all test files together, before any is
        // created: two files that fit one by one may not fit together.
        if (auto refusal = firstRefusal()) {
            refuse(*refusal);
            return false;
        }
        if (auto problem = testFileSpaceProblem(run.m_backend, targets)) {
            refuse(*problem);
            return false;
        }
        for (std::size_t i = 0; i < targets.size(); ++i) {
            if (shared.stopRequested)
                return false;
            const Target &target = *targets[i];
            auto &p = prepared[target.path];
            PrepareOptions opts {.needWrite = p.needWrite,
                .allowDeviceWrites = run.m_settings.allowDeviceWrites,
                .fillPattern = fillingWorker[i]->dataPattern,
                .seed = fillingWorker[i]->seed,
                .stillWanted = [&] { return !shared.stopRequested.load(); }};
            auto info = run.m_backend.prepareTarget(
                target, opts, [&](std::uint64_t done, std::uint64_t total) {
                    run.m_sink.onPrepareProgress(target.path, done, total, PrepareWork::Filling);
                    return !shared.stopRequested.load();
                });
            if (!info) {
                if (!shared.stopRequested)
                    refuse(info.error());
                return false;
            }
            p.info = *info;
            if (info->createdTestFile)
                created.push_back(&target);
            reportNewNotices();
        }
        return true;
    }

    // The plan with its targets' facts, checked against them before any I/O; the
    // devices carrying the targets, whose counters are compared with ours.
    bool resolve()
    {
        result.plan
            = describePlan(*plan, [&](const std::string &path) { return prepared[path].info; });
        reportSkippedPoints(skipPointsTargetsCannotRun(result.plan));
        if (result.plan.stepCount() == 0 && plan->stepCount() > 0) {
            refuse({std::make_error_code(std::errc::invalid_argument), "check alignment", {},
                "no point of the series can run on these targets (see the notices)"});
            return false;
        }
        if (auto problem = checkPlan(result.plan)) {
            refuse(*problem);
            return false;
        }
        for (const auto &info : result.plan.targetInfos())
            result.environment.devices.push_back(run.m_hooks.describeDevice
                    ? run.m_hooks.describeDevice(info.path)
                    : DeviceFacts {info.path});
        result.deviceMap = watchDevices(run.m_backend, run.m_counters, targets,
            [&](const std::string &path) { return prepared[path].info.path; });
        for (std::size_t i = 0; i < targets.size(); ++i) {
            const bool has = i < result.deviceMap.targets.size()
                && result.deviceMap.targets[i].device.has_value();
            comparedPath[targets[i]->path] = has;
            comparedBuffered |= has && targets[i]->cacheMode == CacheMode::Buffered;
            if (has) {
                const TargetInfo &info = prepared[targets[i]->path].info;
                const std::uint64_t files
                    = targets[i]->kind == TargetKind::FileTree ? targets[i]->tree.fileCount() : 1;
                writeSpanBytes += files * info.sizeBytes;
            }
        }
        chooseEngine();
        run.m_sink.onPlan(result.plan);
        return true;
    }

    // What the steps will ask of the engine, for `auto` to choose by (the deepest queue
    // of any worker in any step: one engine serves a run's every step, so that a curve
    // over queue depths is measured by one engine).
    void chooseEngine()
    {
        EngineDemand demand;
        for (const ResolvedWorker &w : result.plan.workers) {
            for (const auto &depths : w.outstandingIos) {
                std::uint32_t slots = 0;
                for (const std::uint32_t depth : depths)
                    slots += depth;
                demand.deepestWorkerQueue = std::max(demand.deepestWorkerQueue, slots);
            }
            for (const ResolvedTarget &t : w.targets) {
                const std::string &path = t.info.path; // what the engines open
                if (t.target.kind != TargetKind::FileTree && t.target.cacheMode == CacheMode::Direct
                    && std::find(demand.directTargets.begin(), demand.directTargets.end(), path)
                        == demand.directTargets.end())
                    demand.directTargets.push_back(path);
            }
        }
        run.m_backend.chooseEngine(demand);
        reportNewNotices();
        if (std::string engine = run.m_backend.engineName(); engine != result.engine) {
            result.engine = std::move(engine);
            run.m_sink.onEngineChosen(result.engine);
        }
    }

    // Series points a target cannot run, said once (as a notice, and in the result).
    void reportSkippedPoints(const std::vector<SkippedPoint> &skipped)
    {
        if (skipped.empty())
            return;
        std::string names;
        for (const auto &p : skipped)
            names += (names.empty() ? "" : "; ") + p.step;
        const std::string text = "skipped " + std::to_string(skipped.size()) + " point"
            + (skipped.size() == 1 ? "" : "s") + " the targets cannot run (" + names
            + "): " + skipped.front().why.toString();
        result.notices.push_back(text);
        run.m_sink.onNotice(text);
    }

    // What each step takes from the run, once the plan is resolved against the targets:
    // the run's steps, or with `pre` its preconditioning (a setup and no gate of its own).
    run_detail::StepContext stepContext(
        const PreconditionStep *pre = nullptr, const StepGate *noGate = nullptr)
    {
        return {.shared = run.m_shared,
            .backend = run.m_backend,
            .counters = run.m_counters,
            .sink = run.m_sink,
            .history = run.m_history,
            .phase = run.m_phase,
            .settings = run.m_settings,
            .setup = pre ? pre->setup : run.m_profile.setup,
            .interval = interval(),
            .reportNewNotices = [this] { reportNewNotices(); },
            .plan = pre ? pre->plan : result.plan,
            .result = result,
            .comparedPath = comparedPath,
            .comparedBuffered = comparedBuffered,
            .writeSpanBytes = writeSpanBytes,
            .treeFiles = treeFiles,
            .writeBalance = writeBalance,
            .stepGate = noGate ? *noGate : run.m_hooks.stepGate,
            .amountDone = run.m_hooks.amountDone,
            .precondition = pre};
    }

    // The run's preconditioning (core/run/precondition.h) before its first step: one step
    // of a plan of its own, run by the step machinery with the run's plan set aside, and
    // its result moved out of the steps. False when the run cannot go on (stopped,
    // failed, or nothing to precondition with).
    bool precondition(SteadyClock::time_point runStart)
    {
        auto made = preconditionStep(result.plan, run.m_profile.setup);
        if (const auto *why = std::get_if<std::string>(&made)) {
            shared.fail(
                {std::make_error_code(std::errc::invalid_argument), "precondition", {}, *why});
            return false;
        }
        PreconditionStep &pre = std::get<PreconditionStep>(made);
        const StepGate noGate; // one host: refused on several (multi_host_session.cpp)
        const std::size_t stepsBefore = result.steps.size();
        const bool ok = run_detail::runStep(stepContext(&pre, &noGate), 0, runStart);
        if (result.steps.size() > stepsBefore) {
            result.preconditioning = PreconditionResult {*run.m_profile.setup.precondition,
                pre.plannedBytes, std::move(result.steps.back())};
            result.steps.pop_back();
            const std::string text = describePreconditioning(*result.preconditioning);
            result.notices.push_back(text);
            run.m_sink.onNotice(text);
        }
        return ok && !shared.stopRequested && !shared.failed();
    }

    // CrystalDiskMark's interval (TestSetup::pauseBetweenTests): before each test's first
    // step but the first test's, a pause with no I/O and nothing measured, which a Stop
    // ends at once. On several hosts every host pauses, then the step's gate lines them up
    // again. False when the run was stopped in it.
    bool pauseBefore(std::size_t step)
    {
        const auto pause = run.m_profile.setup.pauseBetweenTests;
        if (step == 0 || pause.count() <= 0 || result.plan.steps[step].pass != 0)
            return true;
        run.m_phase = RunPhase::Pausing;
        run.m_sink.onPhase(RunPhase::Pausing, step, result.plan.steps[step].name);
        const auto end = SteadyClock::now() + pause;
        while (!shared.stopRequested && SteadyClock::now() < end)
            std::this_thread::sleep_until(
                std::min(end, SteadyClock::now() + std::chrono::milliseconds(50)));
        return !shared.stopRequested;
    }

    // What the devices still do after the last step (write-back).
    void watchTail()
    {
        if (shared.failed() || result.steps.empty())
            return;
        result.deviceTail = watchDeviceTail(run.m_counters, result.deviceMap, writeBalance,
            {.interval = interval(),
                .limit = run.m_settings.deviceTailLimit,
                .verdict = run.m_settings.verdict},
            {[] { return SteadyClock::now(); },
                // In slices, so that a second Stop ends the wait within 50 ms.
                [this](SteadyClock::time_point t) {
                    while (!shared.stopNow && SteadyClock::now() < t)
                        std::this_thread::sleep_until(
                            std::min(t, SteadyClock::now() + std::chrono::milliseconds(50)));
                },
                [this] { return shared.stopNow.load(); }},
            [this](const std::string &text) { run.m_sink.onNotice(text); });
    }
};

RunResult Run::execute()
{
    RunResult result;
    try {
        executeInto(result);
    } catch (const std::exception &e) {
        // Nothing may end the process: an allocation that fails or a thread that cannot
        // be made becomes the run's error, and what was measured is kept.
        m_shared->fail({{}, "run", {}, e.what()});
    }
    result.intervals = m_history.take();
    result.environment.engine = result.engine;
    result.environment.reapBatch = std::max<std::uint32_t>(m_settings.reapBatch, 1);
    result.environment.notices = result.notices;
    std::lock_guard lock(m_shared->errorMutex);
    result.error = m_shared->firstError;
    result.stoppedByUser = m_shared->stopRequested && !m_shared->firstError;
    m_phase = RunPhase::Done;
    m_sink.onPhase(RunPhase::Done, result.steps.size(), {});
    return result;
}

void Run::executeInto(RunResult &result)
{
    Execution run {*this, result, *m_shared};
    if (!run.begin() || !run.makePlan() || !run.prepareTargets() || !run.resolve())
        return;
    run.reserveBuffers();
    const auto runStart = SteadyClock::now();
    result.timeOriginAt = std::chrono::system_clock::now();
    if (m_profile.setup.precondition && !run.precondition(runStart))
        return;
    const run_detail::StepContext steps = run.stepContext();
    for (std::size_t step = 0; step < result.plan.stepCount() && !m_shared->stopRequested; ++step)
        if (!run.pauseBefore(step) || !run_detail::runStep(steps, step, runStart))
            break;
    run.watchTail();
}

} // namespace ioprism::core
