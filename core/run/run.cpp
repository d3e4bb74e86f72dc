// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/run.h"

#include "core/profile/units.h"
#include "core/run/device_tail.h"
#include "core/run/plan.h"
#include "core/run/resolved_plan.h"
#include "core/run/sampler.h"
#include "core/run/worker.h"
#include "core/stats/live_counters.h"
#include "core/stats/verdict.h"
#include "core/workload/file_tree.h"
#include "core/workload/rng.h"

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cmath>
#include <condition_variable>
#include <map>
#include <random>
#include <system_error>
#include <thread>

namespace ioprism::core {

namespace asio = boost::asio;
using SteadyClock = std::chrono::steady_clock;

struct Run::Shared {
    asio::io_context io;
    std::atomic<bool> stopRequested {false};
    std::atomic<bool> stopNow {false}; // stop waiting for in-flight I/O (asked twice)
    std::mutex errorMutex; // guards firstError (errors are rare: never on the hot path)
    std::optional<OpError> firstError;
    std::function<void()> wakeControl; // set while a step runs; called on io's thread
    std::size_t currentStep = 0; // the step running; read and written on io's thread only

    void requestStop()
    {
        stopRequested = true;
        wake();
    }
    // Ends the current step without stopping the run: a step's workers are done
    // (`step` names it, so a wake that arrives late cannot end the next step), or a
    // stop (no step: whichever runs).
    void wake(std::optional<std::size_t> step = std::nullopt)
    {
        asio::post(io, [this, step] {
            if (wakeControl && (!step || *step == currentStep))
                wakeControl();
        });
    }
    void fail(const OpError &e)
    {
        {
            std::lock_guard lock(errorMutex);
            if (!firstError)
                firstError = e;
        }
        requestStop();
    }
    bool failed()
    {
        std::lock_guard lock(errorMutex);
        return firstError.has_value();
    }
};

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

void Run::requestStopNow()
{
    m_shared->stopNow = true;
    m_shared->requestStop();
}

namespace {

std::int64_t steadyNs(SteadyClock::time_point t)
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

// What one step's workers share with the run. The run and every worker thread hold it
// by shared_ptr, so a worker the run leaves behind (stuck on a device that does not
// complete its I/O) keeps its counters, latches and spec alive until it ends.
struct StepState {
    StepState(std::size_t planWorkers, std::size_t activeWorkers)
        : live(planWorkers)
        , steps(activeWorkers)
        , specs(activeWorkers)
        , ready(std::ptrdiff_t(activeWorkers) + 1)
        , exited(activeWorkers, false)
    { }
    std::vector<std::vector<std::unique_ptr<LiveTargetCounters>>> live; // per plan worker
    std::vector<WorkerStep> steps; // per active worker
    std::vector<AccessSpec> specs; // copies: a worker left behind may outlive the Run
    std::atomic<bool> stop {false};
    std::atomic<std::size_t> finishedWorkers {0};
    std::atomic<std::uint64_t> preInitDone {0}; // WorkerStep::preInitDone
    Latch ready;
    Latch start {1};
    std::mutex exitMutex;
    std::condition_variable exitChanged;
    std::vector<bool> exited; // guarded by exitMutex
};

// Starts one thread per worker step. A thread that cannot be made (a limit on threads
// or address space) fails the run with a message that names the limit; the workers
// already started are released through `ready` and end at once.
std::vector<std::thread> startWorkers(const std::shared_ptr<StepState> &state, IoBackend &backend,
    const std::function<void(const OpError &)> &fail)
{
    std::vector<std::thread> threads;
    const std::size_t n = state->steps.size();
    threads.reserve(n);
    for (std::size_t a = 0; a < n; ++a) {
        try {
            threads.emplace_back([state, a, &backend] {
                runWorkerStep(state->steps[a], backend);
                std::lock_guard lock(state->exitMutex);
                state->exited[a] = true;
                state->exitChanged.notify_all();
            });
        } catch (const std::exception &e) { // system_error, or bad_alloc for its state
            const auto *se = dynamic_cast<const std::system_error *>(&e);
            fail({se ? se->code() : std::make_error_code(std::errc::not_enough_memory),
                "start worker thread", state->steps[a].workerName,
                "could not start worker thread " + std::to_string(a + 1) + " of "
                    + std::to_string(n) + " (" + e.what()
                    + "): the limit on processes and threads (ulimit -u) or on address space "
                      "(ulimit -v) is too low for this many workers"});
            state->ready.count_down(std::ptrdiff_t(n - a));
            break;
        }
    }
    return threads;
}

// Joins the workers that end by the deadline (or until stopNow); leaves the others to
// end on their own. Returns true when every worker ended.
bool finishWorkers(StepState &state, std::vector<std::thread> &threads,
    SteadyClock::time_point deadline, const std::atomic<bool> &stopNow)

{
    std::vector<bool> exited;
    {
        std::unique_lock lock(state.exitMutex);
        const auto allExited = [&] {
            return std::all_of(state.exited.begin(),
                state.exited.begin() + std::ptrdiff_t(threads.size()), [](bool e) { return e; });
        };
        // Poll stopNow a few times a second: it is set from a signal or the GUI thread.
        // Asked to stop now, healthy workers still get a moment to reap what they have
        // in flight, so that only I/O a device really holds is reported as stuck.
        bool graceGiven = false;
        while (!allExited() && SteadyClock::now() < deadline) {
            if (stopNow && !graceGiven) {
                deadline = std::min(deadline, SteadyClock::now() + std::chrono::milliseconds(500));
                graceGiven = true;
            }
            state.exitChanged.wait_until(
                lock, std::min(deadline, SteadyClock::now() + std::chrono::milliseconds(100)));
        }
        exited = state.exited;
    }
    bool all = true;
    for (std::size_t i = 0; i < threads.size(); ++i) {
        if (exited[i]) {
            threads[i].join();
        } else {
            threads[i].detach(); // it holds the step's state; it ends when its I/O does
            all = false;
        }
    }
    return all;
}

// One step's workers: what each runs (spec, targets, regions, queue depths), their live
// counters with one in-flight slot per outstanding I/O, and the callbacks by which they
// reach the run. Also the write bytes that can be in flight on compared targets (the
// limit of the devices' credit) and each target's profile path, per plan worker.
// The first step a plan worker takes part in.
std::size_t firstStepOf(const ResolvedPlan &resolved, std::size_t worker)
{
    for (std::size_t step = 0; step < resolved.stepCount(); ++step)
        if (resolved.specOf(worker, step))
            return step;
    return resolved.stepCount();
}

// The files of each tree, by the tree's path: listed once per run, shared by every step.
using TreeFiles = std::map<std::string, std::shared_ptr<const std::vector<std::string>>>;

std::shared_ptr<StepState> makeStepState(std::size_t step, const std::vector<std::size_t> &active,
    const ResolvedPlan &resolved, const std::map<std::string, bool> &comparedPath,
    const RunSettings &options, const std::shared_ptr<Run::Shared> &shared,
    std::uint64_t &inFlightWriteBytes, std::vector<std::vector<std::string>> &targetPaths,
    TreeFiles &treeFiles)
{
    auto state = std::make_shared<StepState>(resolved.workers.size(), active.size());
    for (std::size_t a = 0; a < active.size(); ++a) {
        const std::size_t wi = active[a];
        const ResolvedWorker &rw = resolved.workers[wi];
        state->specs[a] = *resolved.specOf(wi, step);
        const auto &spec = state->specs[a];
        auto &ws = state->steps[a];
        ws.workerName = rw.name;
        ws.spec = &spec;
        ws.workerPattern = rw.dataPattern;
        ws.cpuAffinity = rw.cpuAffinity;
        ws.seed = rw.seed + kSplitMix64Gamma * (step + 1); // splitmix64's state at that step
        const PlannedStep &planned = resolved.steps[step];
        ws.ioLimitPerTarget = planned.ioLimit > 0 ? planned.ioLimit : options.ioLimitPerTarget;
        ws.startDelay = planned.workerStagger * a;
        // Past the run's stop deadline, so that the run, not the worker, decides when
        // in-flight I/O counts as stuck.
        ws.drainLimit = options.stopTimeout + std::chrono::seconds(5);
        const std::uint64_t largest = largestTransferBytes(spec);
        ws.bufferBytes = std::uint32_t(largest);
        for (std::size_t ti = 0; ti < rw.targets.size(); ++ti) {
            const ResolvedTarget &t = rw.targets[ti];
            targetPaths[wi].push_back(t.target.path);
            auto &live = state->live[wi].emplace_back(std::make_unique<LiveTargetCounters>());
            if (rw.outstandingIos[step][ti] == 0)
                continue; // not used in this step (cycling): counters stay at zero
            WorkerTarget wt;
            wt.file = {t.info.path, specWrites(spec), t.target.cacheMode, t.target.writeThrough};
            const Worker &profileWorker = resolved.profile.hosts[0].workers[rw.profileWorker];
            if (t.target.kind == TargetKind::FileTree) {
                auto &files = treeFiles[t.info.path];
                if (!files)
                    files = std::make_shared<const std::vector<std::string>>(
                        fileTreeFiles(t.info.path, t.target.tree));
                wt.treeFiles = files;
                // Before the worker's first step only: the stack is warm after it.
                if (step == firstStepOf(resolved, wi))
                    wt.preInitOperations = t.target.tree.preInitOperations;
            } else if (profileWorker.testConnectionRate) {
                wt.transactionsPerConnection = profileWorker.transactionsPerConnection;
            }
            if (wt.isTree() || wt.transactionsPerConnection > 0)
                live->connections = std::make_unique<LiveConnections>();
            wt.region = t.region;
            wt.sectorBytes = t.info.logicalBlockBytes;
            wt.outstandingIos = rw.outstandingIos[step][ti];
            live->inFlightSince = std::vector<std::atomic<std::int64_t>>(wt.outstandingIos);
            // Only where the device can be ahead: a buffered write completes when it
            // reaches the page cache, before the device sees it.
            const bool completesAtDevice
                = t.target.cacheMode == CacheMode::Direct || t.target.writeThrough;
            if (wt.file.write && completesAtDevice && comparedPath.at(t.target.path))
                inFlightWriteBytes += largest * wt.outstandingIos;
            wt.counters = live.get();
            ws.bufferAlignBytes
                = std::max({ws.bufferAlignBytes, t.info.directIoMemAlignBytes, 4096u});
            ws.targets.push_back(wt);
        }
        ws.stop = &state->stop;
        ws.ready = &state->ready;
        ws.start = &state->start;
        ws.preInitDone = &state->preInitDone;
        // Workers may outlive the Run (left stuck on a device): they hold what they call
        // by shared_ptr or point into their StepState, never into the Run.
        ws.fail = [shared](const OpError &e) { shared->fail(e); };
        ws.finished = [shared, count = &state->finishedWorkers, n = active.size(), step] {
            if (++*count == n)
                shared->wake(step);
        };
    }
    return state;
}

// What the step's sampler reads: every active worker's targets, in plan order, with
// their live counters and whether a watched device carries each.
Sampler::Config samplerConfigFor(std::size_t step, const std::string &stepName,
    const std::vector<std::size_t> &active, const ResolvedPlan &resolved, StepState &state,
    const std::map<std::string, bool> &comparedPath, const RunSettings &options)
{
    Sampler::Config config;
    config.runId = options.runId;
    config.step = step;
    config.stepName = stepName;
    config.verdict = options.verdict;
    config.stallThreshold = options.stallThreshold;
    for (std::size_t wi : active) {
        const ResolvedWorker &rw = resolved.workers[wi];
        Sampler::WorkerCounters counters {int(wi), rw.name, {}};
        for (std::size_t ti = 0; ti < rw.targets.size(); ++ti) {
            if (rw.outstandingIos[step][ti] == 0)
                continue; // not used in this step (cycling)
            const std::string &path = rw.targets[ti].target.path;
            counters.targets.push_back(
                {path, state.live[wi][ti].get(), comparedPath.at(path), int(ti)});
        }
        config.workers.push_back(std::move(counters));
    }
    return config;
}

// The I/O still in flight on a step's targets (LiveTargetCounters::inFlightSince).
StuckIo stuckIoOf(
    const StepState &state, const std::vector<std::vector<std::string>> &paths, std::int64_t nowNs)
{
    StuckIo stuck;
    for (std::size_t wi = 0; wi < state.live.size(); ++wi)
        for (std::size_t ti = 0; ti < state.live[wi].size(); ++ti) {
            bool any = false;
            for (const auto &slot : state.live[wi][ti]->inFlightSince) {
                const std::int64_t since = slot.load(std::memory_order_relaxed);
                if (since == 0)
                    continue;
                any = true;
                ++stuck.ios;
                stuck.oldestSeconds
                    = std::max(stuck.oldestSeconds, double(nowNs - inFlightSubmitNs(since)) / 1e9);
            }
            const std::string &path = paths[wi][ti];
            if (any
                && std::find(stuck.targets.begin(), stuck.targets.end(), path)
                    == stuck.targets.end())
                stuck.targets.push_back(path);
        }
    return stuck;
}

std::string joined(const std::vector<std::string> &items)
{
    std::string text;
    for (const auto &i : items)
        text += (text.empty() ? "" : ", ") + i;
    return text;
}

std::string secondsText(double seconds)
{
    const auto tenths = std::llround(seconds * 10);
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " s";
}

// I/O a step's device never completed: added to the result, said, and (unless the user
// asked twice to stop) the run's error, since the next step would measure the same stall.
void recordStuckIo(RunResult &result, Run::Shared &shared, RunSink &sink, const StuckIo &stuck,
    const std::string &stepName, bool allEnded, std::chrono::milliseconds stopTimeout)
{
    if (stuck.ios == 0)
        return;
    auto &total = result.stuckIo ? *result.stuckIo : result.stuckIo.emplace();
    total.ios += stuck.ios;
    total.oldestSeconds = std::max(total.oldestSeconds, stuck.oldestSeconds);
    for (const auto &t : stuck.targets)
        if (std::find(total.targets.begin(), total.targets.end(), t) == total.targets.end())
            total.targets.push_back(t);
    const std::string ios = std::to_string(stuck.ios) + " I/O" + (stuck.ios == 1 ? "" : "s");
    const std::string text = ios + " still in flight at the end of step \"" + stepName
        + "\", oldest " + secondsText(stuck.oldestSeconds) + ", on " + joined(stuck.targets)
        + ": the device did not complete them; they are in no count, and their age is in the "
          "maximum latency";
    sink.onNotice(text);
    result.notices.push_back(text);
    if (!shared.stopNow)
        shared.fail({std::make_error_code(std::errc::timed_out), "stop", joined(stuck.targets),
            ios + " not completed by the device "
                + (allEnded ? "within the workers' drain limit"
                            : "within the stop deadline of "
                            + secondsText(double(stopTimeout.count()) / 1e3))});
}

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
        if (t->kind != TargetKind::TestFile && t->kind != TargetKind::FileTree)
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
                    + formatSize(need.needBytes) + " (" + joined(need.files) + "), have "
                    + formatSize(need.space.freeBytes)};
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

// One step's control loop on the run's io_context: a sample at every interval boundary
// (and at the end of the ramp), the switch from ramp-up to measuring, and the end of
// the step (time up, the workers done, or a stop). The timer only calls the sampler.
class StepLoop
{
public:
    struct Times {
        SteadyClock::time_point start, rampEnd, measureEnd;
        std::chrono::milliseconds interval {};
    };

    StepLoop(Run::Shared &shared, Sampler &sampler, RunSink &sink, IntervalHistory &history,
        std::atomic<RunPhase> &runPhase, std::atomic<bool> &stepStop, Times times,
        std::chrono::milliseconds stallThreshold)
        : m_shared(shared)
        , m_sampler(sampler)
        , m_sink(sink)
        , m_history(history)
        , m_runPhase(runPhase)
        , m_stepStop(stepStop)
        , m_times(times)
        , m_stallNs(std::chrono::duration_cast<std::chrono::nanoseconds>(stallThreshold).count())
        , m_timer(shared.io)
    { }

    // Announces the step's phase, releases its workers (`start`) and runs the step to
    // its end on the calling thread (the run's control thread).
    void run(std::size_t step, const std::string &stepName, Latch &start)
    {
        m_step = step;
        m_stepName = stepName;
        m_phase = m_times.rampEnd > m_times.start ? RunPhase::RampUp : RunPhase::Measuring;
        m_runPhase = m_phase;
        m_sink.onPhase(m_phase, step, stepName);
        start.count_down(); // every worker starts now
        m_shared.currentStep = step;
        m_shared.wakeControl = [this] {
            if (!m_stepStop) {
                m_timer.cancel();
                onTick(true);
            }
        };
        if (m_shared.stopRequested)
            m_shared.wakeControl();
        else
            scheduleNext();
        m_shared.io.restart();
        m_shared.io.run();
        m_shared.wakeControl = nullptr;
    }

private:
    void onTick(bool stopNow)
    {
        auto now = SteadyClock::now();
        if (m_phase == RunPhase::RampUp && now >= m_times.rampEnd - std::chrono::milliseconds(1))
            now = std::max(now, m_times.rampEnd);
        IntervalSample sample = m_sampler.tick(now, m_phase);
        reportStall(sample);
        m_sink.onInterval(sample);
        m_history.add(std::move(sample));
        if (m_phase == RunPhase::RampUp && now >= m_times.rampEnd) {
            m_phase = RunPhase::Measuring;
            m_runPhase = m_phase;
            m_sampler.startMeasuring();
            m_sink.onPhase(m_phase, m_step, m_stepName);
        }
        if (stopNow || m_shared.stopRequested || now >= m_times.measureEnd) {
            m_stepStop = true;
            m_timer.cancel();
            return;
        }
        scheduleNext();
    }

    void scheduleNext()
    {
        ++m_tickNumber;
        auto next = m_times.start + m_times.interval * m_tickNumber;
        while (next <= m_sampler.lastTick())
            next = m_times.start + m_times.interval * ++m_tickNumber;
        if (m_phase == RunPhase::RampUp)
            next = std::min(next, m_times.rampEnd);
        next = std::min(next, m_times.measureEnd);
        m_timer.expires_at(next);
        m_timer.async_wait([this](const boost::system::error_code &ec) {
            // Cancelled: woken by wakeControl, which sampled itself. Ended: the wake ran
            // first while this completion was already queued (cancel cannot recall it),
            // so the step is over and must not schedule another tick: with no run time
            // and no workers left, nothing else would end it.
            if (ec == asio::error::operation_aborted || m_stepStop)
                return;
            onTick(false);
        });
    }

    // Said once per stall (again after the I/O moved), beside the interval figures that
    // carry it (stalledIos, oldestInFlightUs) for the CLI line and the GUI badge.
    void reportStall(const IntervalSample &sample)
    {
        std::uint32_t stalled = 0;
        double oldestUs = 0;
        std::vector<std::string> where;
        for (const auto &sc : sample.scopes) {
            const auto &total = sc.figures.total;
            if (sc.scope.kind == Scope::Kind::All) {
                stalled = total.stalledIos;
                oldestUs = total.oldestInFlightUs;
            } else if (sc.scope.kind == Scope::Kind::Target && total.stalledIos > 0
                && std::find(where.begin(), where.end(), sc.scope.targetPath) == where.end())
                where.push_back(sc.scope.targetPath);
        }
        if (stalled == 0) {
            m_stallReported = false;
            return;
        }
        if (m_stallReported)
            return;
        m_stallReported = true;
        m_sink.onNotice(std::to_string(stalled) + " I/O" + (stalled == 1 ? "" : "s")
            + " in flight for more than " + secondsText(double(m_stallNs) / 1e9) + " (oldest "
            + secondsText(oldestUs / 1e6) + ") on " + joined(where)
            + ": the device is not completing I/O (a frozen file system, a failing or "
              "disconnected device?)");
    }

    Run::Shared &m_shared;
    Sampler &m_sampler;
    RunSink &m_sink;
    IntervalHistory &m_history;
    std::atomic<RunPhase> &m_runPhase;
    std::atomic<bool> &m_stepStop;
    const Times m_times;
    const std::int64_t m_stallNs;
    asio::steady_timer m_timer;
    std::size_t m_step = 0;
    std::string m_stepName;
    RunPhase m_phase = RunPhase::Measuring;
    std::int64_t m_tickNumber = 0;
    bool m_stallReported = false;
};

// Whatever ends a step early (a failure, an exception) stops and collects its workers:
// none is left waiting on a latch or joinable on unwinding.
struct StepGuard {
    StepState &state;
    std::vector<std::thread> &threads;
    const std::atomic<bool> &stopNow;
    SteadyClock::time_point deadline;
    bool done = false;
    ~StepGuard()
    {
        if (done)
            return;
        state.stop = true;
        state.start.count_down();
        finishWorkers(state, threads, deadline, stopNow);
    }
};

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
    TreeFiles treeFiles; // filled by the first step on each tree
    std::map<std::string, bool> comparedPath; // target path -> carried by a watched device
    bool comparedBuffered = false;
    std::uint64_t writeSpanBytes = 0; // what the compared targets span (Sampler::Config)
    // Application writes the devices have not shown yet and the devices' credit, carried
    // across intervals and steps (core/stats/verdict.h).
    WriteBalance writeBalance;
    // The backend's notices already reported (the result has the run's own as well).
    std::size_t backendNoticesSeen = 0;

    SteadyClock::time_point stopDeadline() const
    {
        return SteadyClock::now() + run.m_settings.stopTimeout;
    }

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

    void begin()
    {
        result.runId = run.m_settings.runId;
        result.startedAt = std::chrono::system_clock::now();
        result.engine = run.m_backend.engineName();
        run.m_sink.onStarted(result.engine);
        if (run.m_hooks.describeSystem)
            result.environment = run.m_hooks.describeSystem();
        if (result.environment.toolVersion.empty())
            result.environment.toolVersion = IOPRISM_VERSION;
        reportNewNotices();
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
                bool write = false;
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

    bool prepareTargets()
    {
        run.m_phase = RunPhase::Preparing;
        run.m_sink.onPhase(RunPhase::Preparing, 0, {});
        // Free space per file system for all test files together, before any is
        // created: two files that fit one by one may not fit together.
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
                .seed = fillingWorker[i]->seed};
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
        run.m_sink.onPlan(result.plan);
        return true;
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

    // One step: its workers started together, sampled until the step ends, then
    // collected (or left behind on a device that does not complete their I/O). False
    // when the run cannot go on.
    bool runStep(std::size_t step, SteadyClock::time_point runStart)
    {
        const ResolvedPlan &resolved = result.plan;
        const std::string &stepName = resolved.steps[step].name;
        std::vector<std::size_t> active; // plan worker indices taking part
        for (std::size_t wi = 0; wi < resolved.workers.size(); ++wi)
            if (resolved.specOf(wi, step))
                active.push_back(wi);
        // A step nobody runs in is skipped, but for Iometer's pause (every worker Idle at
        // a spec index, CalcRunCount): it takes its ramp-up and run time with no I/O.
        if (active.empty() && resolved.steps[step].specName != kIdleSpecName)
            return true;

        const auto setupStart = SteadyClock::now();
        std::uint64_t inFlightWriteBytes = 0;
        std::vector<std::vector<std::string>> targetPaths(resolved.workers.size());
        auto state = makeStepState(step, active, resolved, comparedPath, run.m_settings,
            run.m_shared, inFlightWriteBytes, targetPaths, treeFiles);
        std::vector<std::thread> threads
            = startWorkers(state, run.m_backend, [this](const OpError &e) { shared.fail(e); });
        StepGuard guard {*state, threads, shared.stopNow, stopDeadline()};
        const bool ready = waitUntilReady(*state);
        reportNewNotices(); // a worker's engine may have fallen back (and said why)
        if (!ready || shared.failed() || shared.stopRequested) {
            // No step starts after a stop or a failure: the run ends with the steps
            // measured so far. The workers drain what they have in flight (a
            // pre-initialisation's I/O) within the stop deadline, as at a step's end.
            guard.done = true;
            const bool allEnded = finishWorkers(*state, threads, stopDeadline(), shared.stopNow);
            recordStuckIo(result, shared, run.m_sink,
                stuckIoOf(*state, targetPaths, steadyNs(SteadyClock::now())), stepName, allEnded,
                run.m_settings.stopTimeout);
            return false;
        }

        Sampler::Config config = samplerConfigFor(
            step, stepName, active, resolved, *state, comparedPath, run.m_settings);
        config.comparedBuffered = comparedBuffered;
        for (const auto &worker : state->live)
            for (const auto &live : worker)
                config.opensFiles |= live->connections != nullptr;
        config.inFlightWriteBytes = inFlightWriteBytes;
        config.writeSpanBytes = writeSpanBytes;
        config.deviceMap = result.deviceMap;
        config.runStart = runStart;
        const auto &setup = run.m_profile.setup;
        StepLoop::Times times;
        times.start = SteadyClock::now();
        // A point of a number of I/Os is measured from its first I/O: a ramp-up would
        // take I/Os from the count (on a fast device, all of them).
        times.rampEnd = times.start
            + (resolved.steps[step].ioLimit > 0 ? std::chrono::seconds(0) : setup.rampUp);
        // A step with a number of I/Os (a series' ios) runs until its workers did them.
        times.measureEnd = setup.runTime.count() > 0 && resolved.steps[step].ioLimit == 0
            ? times.rampEnd + setup.runTime
            : SteadyClock::time_point::max();
        times.interval = interval();
        Sampler sampler(std::move(config), run.m_counters, writeBalance, times.start);
        StepLoop loop(shared, sampler, run.m_sink, run.m_history, run.m_phase, state->stop, times,
            run.m_settings.stallThreshold);
        loop.run(step, stepName, state->start);

        run.m_phase = RunPhase::Stopping;
        run.m_sink.onPhase(RunPhase::Stopping, step, stepName);
        // Workers drain their in-flight I/O; a device that does not complete it by the
        // stop deadline (or a second Stop) is reported, and its workers are left behind.
        guard.done = true;
        const auto drainStart = SteadyClock::now();
        const bool allEnded = finishWorkers(*state, threads, stopDeadline(), shared.stopNow);
        const auto drainEnd = SteadyClock::now();
        recordStuckIo(result, shared, run.m_sink,
            stuckIoOf(*state, targetPaths, steadyNs(SteadyClock::now())), stepName, allEnded,
            run.m_settings.stopTimeout);
        writeBalance = sampler.balanceForNextStep();
        result.steps.push_back(sampler.stepResult(!shared.stopRequested));
        result.steps.back().setupSeconds
            = std::chrono::duration<double>(times.start - setupStart).count();
        result.steps.back().drainSeconds
            = std::chrono::duration<double>(drainEnd - drainStart).count();
        run.m_sink.onStepResult(result.steps.back(), resolved.steps[step]);
        return true;
    }

    // Arrives at the step's ready latch and waits for the workers, which get ready once
    // their engines are set up and, before a worker's first step, its trees are
    // pre-initialised: that progress is reported meanwhile. False when a stop or a
    // failure came first (the workers are told to stop; the caller collects them).
    bool waitUntilReady(StepState &state)
    {
        std::uint64_t preInitTotal = 0;
        std::vector<std::string> trees;
        for (const auto &ws : state.steps)
            for (const auto &t : ws.targets)
                if (t.preInitOperations > 0) {
                    preInitTotal += t.preInitOperations;
                    if (std::find(trees.begin(), trees.end(), t.file.path) == trees.end())
                        trees.push_back(t.file.path);
                }
        const std::string where = joined(trees);
        std::uint64_t reported = 0;
        if (preInitTotal > 0)
            run.m_sink.onPrepareProgress(where, 0, preInitTotal, PrepareWork::PreInitialising);
        state.ready.count_down();
        while (!state.ready.wait_for(std::chrono::milliseconds(100))) {
            // A stop ends pre-initialisation too: it is unmeasured warm-up, and the user
            // must not wait for all of its operations (nor have to ask twice).
            if (shared.stopRequested) {
                state.stop = true;
                return false;
            }
            const std::uint64_t done
                = std::min(state.preInitDone.load(std::memory_order_relaxed), preInitTotal);
            if (preInitTotal > 0 && done != reported) {
                reported = done;
                run.m_sink.onPrepareProgress(
                    where, done, preInitTotal, PrepareWork::PreInitialising);
            }
        }
        if (preInitTotal > 0 && !shared.stopRequested && reported != preInitTotal)
            run.m_sink.onPrepareProgress(
                where, preInitTotal, preInitTotal, PrepareWork::PreInitialising);
        return true;
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
    run.begin();
    if (!run.makePlan() || !run.prepareTargets() || !run.resolve())
        return;
    run.reserveBuffers();
    const auto runStart = SteadyClock::now();
    for (std::size_t step = 0; step < result.plan.stepCount() && !m_shared->stopRequested; ++step)
        if (!run.runStep(step, runStart))
            break;
    run.watchTail();
}

} // namespace ioprism::core
