// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/run_step.h"

#include "core/profile/series.h"
#include "core/profile/units.h"
#include "core/run/interval_history.h"
#include "core/run/latch.h"
#include "core/run/resolved_plan.h"
#include "core/run/sampler.h"
#include "core/run/step_findings.h"
#include "core/run/worker.h"
#include "core/stats/live_counters.h"
#include "core/workload/file_tree.h"
#include "core/workload/rng.h"

#include <algorithm>
#include <boost/asio/steady_timer.hpp>
#include <cmath>
#include <condition_variable>
#include <fmt/format.h>
#include <numeric>
#include <system_error>
#include <thread>

namespace ioprism::core::run_detail {

namespace asio = boost::asio;
using SteadyClock = std::chrono::steady_clock;

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
    // A worker's thread ends only once the step is being collected (finishWorkers counts
    // this down): stopped before the step's last sample, a worker that ended at once
    // would be gone from the threads whose CPU time that sample reads.
    Latch release {1};
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
                state->release.wait();
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
    state.release.count_down();
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

// What a position zone's bounds are a multiple of for `spec`'s I/O on a target (zoneOf's
// unit): every alignment the I/O keeps from the region's start (its lines', the device's
// direct I/O), and at least its largest transfer.
// Lines whose alignments have no common multiple of at most 64 MiB (12, 20, 28 and 44 KiB
// already need 4.5 MiB) keep the device's alignment only: direct I/O stays aligned, and
// the zones stay a hundredth of the target rather than a few large ones.
std::uint64_t zoneUnit(const AccessSpec &spec, const TargetInfo &info)
{
    constexpr std::uint64_t kMaxCommonAlignment = 64 * kMiB;
    const std::uint64_t device = std::max<std::uint64_t>(info.directIoOffsetAlignBytes, 1);
    std::uint64_t unit = device;
    for (const auto &line : spec.lines) {
        const std::uint64_t a = std::clamp<std::uint64_t>(
            line.alignmentBytes ? line.alignmentBytes : info.logicalBlockBytes, 1,
            kMaxCommonAlignment);
        const std::uint64_t factor = a / std::gcd(unit, a);
        if (unit > kMaxCommonAlignment / factor) {
            unit = device;
            break;
        }
        unit *= factor;
    }
    const std::uint64_t largest = largestTransferBytes(spec);
    return (largest + unit - 1) / unit * unit;
}

// The first step a plan worker takes part in.
std::size_t firstStepOf(const ResolvedPlan &resolved, std::size_t worker)
{
    for (std::size_t step = 0; step < resolved.stepCount(); ++step)
        if (resolved.specOf(worker, step))
            return step;
    return resolved.stepCount();
}

// One step's workers: what each runs (spec, targets, regions, queue depths), their live
// counters with one in-flight slot per outstanding I/O, and the callbacks by which they
// reach the run. Also the write bytes that can be in flight on compared targets (the
// limit of the devices' credit) and each target's profile path, per plan worker.
std::shared_ptr<StepState> makeStepState(std::size_t step, const std::vector<std::size_t> &active,
    const ResolvedPlan &resolved, const std::map<std::string, bool> &comparedPath,
    const RunSettings &options, const std::shared_ptr<Run::Shared> &shared,
    std::uint64_t &inFlightWriteBytes, std::vector<std::vector<std::string>> &targetPaths,
    TreeFiles &treeFiles, const PreconditionStep *precondition)
{
    auto state = std::make_shared<StepState>(resolved.workers.size(), active.size());
    // A point of a position axis does its I/O in its zone of every target's region.
    const PlannedStep &planned = resolved.steps[step];
    const auto &series = resolved.profile.setup.series;
    const std::optional<PositionZone> zone = series && planned.point && !precondition
        ? positionZone(*series, planned.point->values)
        : std::nullopt;
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
        // splitmix64's state at that step; preconditioning's is the state before the first
        // step's (a workload that preconditions does not play the first step's offsets).
        ws.seed = rw.seed + kSplitMix64Gamma * (precondition ? 0 : step + 1);
        ws.ioLimitPerTarget = planned.ioLimit > 0 ? planned.ioLimit : options.ioLimitPerTarget;
        ws.reapBatch = options.reapBatch;
        ws.startDelay = planned.workerStagger * a;
        // Past the run's stop deadline, so that the run, not the worker, decides when
        // in-flight I/O counts as stuck.
        ws.drainLimit = options.stopTimeout + std::chrono::seconds(5);
        const std::uint64_t largest = largestTransferBytes(spec);
        ws.bufferBytes = std::uint32_t(largest);
        // A sequential point of a number of I/Os moves at most its zone once: each byte
        // once, never the zone's start again from the drive's cache. (Random I/O draws
        // its offsets anywhere in the zone: its count is kept.)
        const bool zoneOnce = zone && ws.ioLimitPerTarget > 0
            && std::all_of(spec.lines.begin(), spec.lines.end(),
                [](const SpecLine &line) { return line.percentRandom == 0; });
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
            wt.region = zone ? zoneOf(t.region, *zone, zoneUnit(spec, t.info)) : t.region;
            if (zoneOnce)
                wt.ioLimit = std::clamp<std::uint64_t>(
                    wt.region.sizeBytes / largest, 1, ws.ioLimitPerTarget);
            wt.sectorBytes = t.info.logicalBlockBytes;
            wt.outstandingIos = rw.outstandingIos[step][ti];
            if (precondition)
                wt.ioLimit = precondition->ioLimits.at(wi).at(ti);
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
        ws.finished = [shared, count = &state->finishedWorkers, n = active.size(),
                          wakeStep = precondition ? Run::Shared::kPreconditionStep : step] {
            if (++*count == n)
                shared->wake(wakeStep);
        };
    }
    return state;
}

// What the step's sampler reads: every active worker's targets, in plan order, with
// their live counters and whether a watched device carries each; what the run resolved
// about the watched devices.
Sampler::Config samplerConfigFor(const StepContext &run, std::size_t step,
    const std::vector<std::size_t> &active, StepState &state)
{
    const ResolvedPlan &resolved = run.plan;
    const std::map<std::string, bool> &comparedPath = run.comparedPath;
    Sampler::Config config;
    config.runId = run.settings.runId;
    config.step = step;
    config.stepName = resolved.steps[step].name;
    config.verdict = run.settings.verdict;
    config.stallThreshold = run.settings.stallThreshold;
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
    config.comparedBuffered = run.comparedBuffered;
    for (const auto &worker : state.live)
        for (const auto &live : worker)
            config.opensFiles |= live->connections != nullptr;
    config.writeSpanBytes = run.writeSpanBytes;
    config.deviceMap = run.result.deviceMap;
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

std::string secondsText(double seconds)
{
    const auto tenths = std::llround(seconds * 10);
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " s";
}

// The step's judgement, said once as it ends and kept with the run's notices: the rounds
// that formed the steady window (or the last one, at the limit) and the window's mean.
void reportSteadyState(
    const StepContext &run, const SteadyStateRecord &steady, const std::string &stepName)
{
    const std::string text = "step \"" + stepName + "\": " + describeSteadyStateVerdict(steady);
    run.sink.onNotice(text);
    run.result.notices.push_back(text);
}

// The step's write rate against the bytes it had written, over its measured intervals as
// the history keeps them (merged pairwise in a long run: bytes and rates stay exact):
// judged when it wrote, over enough intervals for the detector's two sides.
std::optional<WriteCliffJudgement> judgeWriteCliff(
    const IntervalHistory &history, std::size_t step, RunPhase phase)
{
    const WriteCliffCriteria criteria;
    const std::vector<StepWriteInterval> written
        = stepWriteIntervals(history.samples(), step, phase);
    if (written.empty() || written.back().bytesWritten == 0
        || written.size() < 2 * criteria.minimumPoints)
        return std::nullopt;
    std::vector<WriteRatePoint> points;
    points.reserve(written.size());
    for (const auto &w : written)
        points.push_back({.bytesWritten = w.bytesWritten, .rate = w.write.megabytesPerSecond});
    WriteCliffJudgement judged;
    judged.intervals = points.size();
    judged.bytesWritten = written.back().bytesWritten;
    judged.cliff = findWriteCliff(points, criteria);
    if (judged.cliff)
        judged.cliffSeconds
            = written[judged.cliff->firstSlowPoint].startSeconds - written.front().startSeconds;
    return judged;
}

// A cliff found is said as the step ends (and kept with the notices); none is not.
void reportWriteCliff(
    const StepContext &run, const WriteCliffJudgement &judged, const std::string &stepName)
{
    if (!judged.cliff)
        return;
    const std::string text = "step \"" + stepName + "\": the write rate fell off a cliff "
        + describeWriteCliff(judged)
        + ": a fast cache (SLC, DRAM) filled, or the device began to clean its media";
    run.sink.onNotice(text);
    run.result.notices.push_back(text);
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

// One step's control loop on the run's io_context: a sample at every interval boundary
// (and at the end of the ramp), the switch from ramp-up to measuring, and the end of
// the step (time up, the workers done, or a stop). The timer only calls the sampler.
class StepLoop
{
public:
    struct Times {
        SteadyClock::time_point start, rampEnd, measureEnd;
        std::chrono::milliseconds interval {};
        // The step's stop rule (TestSetup::steadyState); unset: it ends at measureEnd.
        std::optional<SteadyStateSetup> steadyState;
        // The run's preconditioning: sampled in that phase, its progress reported after
        // each sample (the bytes moved of `preconditionBytes`, or with 0 the time).
        bool precondition = false;
        std::uint64_t preconditionBytes = 0;
    };

    StepLoop(Run::Shared &shared, Sampler &sampler, RunSink &sink, IntervalHistory &history,
        std::atomic<RunPhase> &runPhase, std::atomic<bool> &stepStop, Times times,
        std::chrono::milliseconds stallThreshold, std::uint64_t amountBytes,
        const StepAmountDone &amountDone)
        : m_shared(shared)
        , m_sampler(sampler)
        , m_sink(sink)
        , m_history(history)
        , m_runPhase(runPhase)
        , m_stepStop(stepStop)
        , m_times(times)
        , m_stallNs(std::chrono::duration_cast<std::chrono::nanoseconds>(stallThreshold).count())
        , m_timer(shared.io)
        , m_amountBytes(amountBytes)
        , m_amountDone(amountDone)
        , m_amountTimer(shared.io)
    { }

    // This host's step ended because it had moved its stonewall amount.
    bool reachedAmount() const { return m_reachedAmount; }
    // The step's rounds and their judgement, under a steady-state rule.
    const std::optional<SteadyStateRecord> &steadyState() const { return m_steady; }

    // Announces the step's phase, releases its workers (`start`) and runs the step to
    // its end on the calling thread (the run's control thread).
    void run(std::size_t step, const std::string &stepName, Latch &start)
    {
        m_step = step;
        m_stepName = stepName;
        m_phase = m_times.precondition        ? RunPhase::Preconditioning
            : m_times.rampEnd > m_times.start ? RunPhase::RampUp
                                              : RunPhase::Measuring;
        m_runPhase = m_phase;
        if (m_times.steadyState) {
            m_steady.emplace().setup = *m_times.steadyState;
            m_roundEnd = m_times.rampEnd + m_times.steadyState->roundTime;
        }
        m_sink.onPhase(m_phase, step, stepName);
        start.count_down(); // every worker starts now
        m_shared.currentStep = m_times.precondition ? Run::Shared::kPreconditionStep : step;
        m_shared.wakeControl = [this] {
            if (!m_stepStop) {
                m_timer.cancel();
                onTick(true);
            }
        };
        if (m_shared.stopRequested)
            m_shared.wakeControl();
        else {
            scheduleNext();
            if (m_amountBytes > 0)
                scheduleAmountCheck();
        }
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
        // Whether this tick ends the step is decided before the sample is taken: a worker
        // counts its failed I/O and then asks for the stop, so a stop seen here is in the
        // sample. One asked for while the sample is taken is not decided on here; its wake
        // is queued and takes one more sample, with the failure in it. (Checked after the
        // sample, such a stop ended the step with the failed I/O in no count.)
        const bool lastTick = stopNow || m_shared.stopRequested || now >= m_times.measureEnd;
        // The workers stop issuing before the last sample, not after it: what the step
        // leaves out is then only the I/O in flight at its end (which they drain), never
        // what they would do while the sample is taken, which on a loaded machine is
        // milliseconds of I/O the device does and no figure shows.
        if (lastTick)
            m_stepStop = true;
        IntervalSample sample = m_sampler.tick(now, m_phase);
        reportStall(sample);
        m_sink.onInterval(sample);
        if (m_times.precondition)
            reportPreconditionProgress(now);
        const bool judged
            = m_steady && sample.phase == RunPhase::Measuring && addToRound(sample, now, lastTick);
        m_history.add(std::move(sample));
        if (m_phase == RunPhase::RampUp && now >= m_times.rampEnd) {
            m_phase = RunPhase::Measuring;
            m_runPhase = m_phase;
            m_sampler.startMeasuring();
            m_sink.onPhase(m_phase, m_step, m_stepName);
        }
        if (lastTick) {
            m_timer.cancel();
            m_amountTimer.cancel();
            return;
        }
        // The rounds were judged steady, or not reached at the limit: the step ends with
        // one more sample, decided before it is taken, as every end is (the workers stop
        // issuing first). It holds the milliseconds since the round's end: in the step's
        // totals and intervals, in no round.
        if (judged) {
            onTick(true);
            return;
        }
        scheduleNext();
    }

    // Steady state: a measured sample joins the round it ends in; at the round's end the
    // round's figure is taken and the rounds judged. True when the judgement ends the
    // step (steady, or the round limit). A round cut short by the step's end (a stop, a
    // failure, the stonewall amount) is not a round: only whole rounds are judged.
    bool addToRound(const IntervalSample &sample, SteadyClock::time_point now, bool lastTick)
    {
        m_round = m_round ? mergeConsecutive(*m_round, sample) : sample;
        // A tick a millisecond early (the timer's grain) still ends the round it was
        // scheduled for.
        if (now < m_roundEnd - std::chrono::milliseconds(1))
            return false;
        SteadyStateRecord &steady = *m_steady;
        const SteadyStateSetup &setup = steady.setup;
        steady.rounds.push_back({.startSeconds = m_round->startSeconds,
            .endSeconds = m_round->endSeconds,
            .figure = steadyStateFigure(m_round->scopes.front().figures, setup.metric)});
        m_round.reset();
        // The next round follows on the same grid, so that a tick a little late does not
        // push every later round; after a stall that leaves less than half a round to the
        // next end (the control thread held up), it is a whole round from now instead: a
        // round is never shorter than half its length, whose figure would be a few
        // samples' (or, past its end, no time's).
        m_roundEnd += setup.roundTime;
        if (m_roundEnd - now < setup.roundTime / 2)
            m_roundEnd = now + setup.roundTime;
        steady.result = judgeSteadyState(roundFigures(steady.rounds), setup.criteria);
        m_sink.onSteadyState(m_step, steady);
        return steady.result.state != SteadyState::Measuring && !lastTick;
    }

    // Stonewalling: the live counters are read every millisecond while measuring, between
    // the samples (a step's amount is met within a millisecond's I/O); once this host has
    // moved the amount, the step ends here and the run's hook ends it on the other hosts.
    void scheduleAmountCheck()
    {
        m_amountTimer.expires_after(std::chrono::milliseconds(1));
        m_amountTimer.async_wait([this](const boost::system::error_code &ec) {
            if (ec == asio::error::operation_aborted || m_stepStop)
                return;
            if (m_phase != RunPhase::Measuring || m_sampler.measuredBytesNow() < m_amountBytes) {
                scheduleAmountCheck();
                return;
            }
            m_reachedAmount = true;
            if (m_amountDone)
                m_amountDone(m_step);
            m_timer.cancel();
            onTick(true);
        });
    }

    void scheduleNext()
    {
        ++m_tickNumber;
        auto next = m_times.start + m_times.interval * m_tickNumber;
        while (next <= m_sampler.lastTick())
            next = m_times.start + m_times.interval * ++m_tickNumber;
        if (m_phase == RunPhase::RampUp)
            next = std::min(next, m_times.rampEnd);
        else if (m_steady)
            next = std::min(next, m_roundEnd);
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

    // How far preconditioning has come: bytes moved of those planned, or milliseconds of
    // its time (RunSink::onPrepareProgress, PrepareWork::Preconditioning).
    void reportPreconditionProgress(SteadyClock::time_point now)
    {
        if (m_times.preconditionBytes > 0) {
            m_sink.onPrepareProgress({},
                std::min(m_sampler.measuredBytesNow(), m_times.preconditionBytes),
                m_times.preconditionBytes, PrepareWork::Preconditioning);
            return;
        }
        if (m_times.measureEnd == SteadyClock::time_point::max())
            return;
        const auto ms = [](SteadyClock::duration d) {
            return std::uint64_t(std::max<std::int64_t>(
                0, std::chrono::duration_cast<std::chrono::milliseconds>(d).count()));
        };
        const std::uint64_t total = ms(m_times.measureEnd - m_times.start);
        m_sink.onPrepareProgress(
            {}, std::min(ms(now - m_times.start), total), total, PrepareWork::Preconditioning);
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
    const std::uint64_t m_amountBytes;
    const StepAmountDone &m_amountDone;
    asio::steady_timer m_amountTimer;
    bool m_reachedAmount = false;
    std::optional<SteadyStateRecord> m_steady;
    std::optional<IntervalSample> m_round; // the measured samples of the round so far
    SteadyClock::time_point m_roundEnd {};
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

// Arrives at the step's ready latch and waits for the workers, which get ready once
// their engines are set up and, before a worker's first step, its trees are
// pre-initialised: that progress is reported meanwhile. False when a stop or a
// failure came first (the workers are told to stop; the caller collects them).
bool waitUntilReady(StepState &state, RunSink &sink, Run::Shared &shared)
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
        sink.onPrepareProgress(where, 0, preInitTotal, PrepareWork::PreInitialising);
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
            sink.onPrepareProgress(where, done, preInitTotal, PrepareWork::PreInitialising);
        }
    }
    if (preInitTotal > 0 && !shared.stopRequested && reported != preInitTotal)
        sink.onPrepareProgress(where, preInitTotal, preInitTotal, PrepareWork::PreInitialising);
    return true;
}

SteadyClock::time_point stopDeadline(const RunSettings &settings)
{
    return SteadyClock::now() + settings.stopTimeout;
}

// When the step's ramp-up and measurement end, counted from its start (`start`, when its
// workers are released): on several hosts the time agreed at the gate, so that hosts that
// start together also end together.
StepLoop::Times stepTimes(
    const StepContext &run, const PlannedStep &planned, SteadyClock::time_point start, bool idle)
{
    const TestSetup &setup = run.setup;
    StepLoop::Times times;
    times.start = start;
    // A point of a number of I/Os is measured from its first I/O: a ramp-up would
    // take I/Os from the count (on a fast device, all of them).
    times.rampEnd = times.start + (planned.ioLimit > 0 ? std::chrono::seconds(0) : setup.rampUp);
    // A step with a number of I/Os (a series' ios) runs until its workers did them.
    times.measureEnd = setup.runTime.count() > 0 && planned.ioLimit == 0
        ? times.rampEnd + setup.runTime
        : SteadyClock::time_point::max();
    times.interval = run.interval;
    // Rounds until steady, in place of the run time; never for a number of I/Os (the
    // profile refuses the two together).
    if (setup.steadyState && planned.ioLimit == 0) {
        if (idle) {
            // Iometer's pause has no I/O to judge: its run time, or one round without one.
            if (setup.runTime.count() == 0)
                times.measureEnd = times.rampEnd + setup.steadyState->roundTime;
        } else {
            // The rounds end the step: the judgement after the round limit's round ends
            // it at the latest (SteadyState::NotReached).
            times.steadyState = setup.steadyState;
            times.measureEnd = SteadyClock::time_point::max();
        }
    }
    return times;
}

// Waits for the step's workers to drain until the stop deadline (or a second Stop) and
// records the I/O a device still holds. Returns when the wait ended, for the step's
// drain time: the stuck I/O's notice is not part of it.
SteadyClock::time_point collectWorkers(const StepContext &run, StepState &state,
    std::vector<std::thread> &threads, const std::vector<std::vector<std::string>> &targetPaths,
    const std::string &stepName)
{
    const bool allEnded
        = finishWorkers(state, threads, stopDeadline(run.settings), run.shared->stopNow);
    const auto ended = SteadyClock::now();
    recordStuckIo(run.result, *run.shared, run.sink,
        stuckIoOf(state, targetPaths, steadyNs(SteadyClock::now())), stepName, allEnded,
        run.settings.stopTimeout);
    return ended;
}

// When the step starts: at once on one host (no gate); on several, at the time the gate
// answers (agreed with the other hosts), waited for in slices of at most 50 ms that end
// at a Stop. A time already past is kept as it is: a host released late still ends the
// step with the others. nullopt: the step does not start, because the gate said so (the
// run then stops as requestStop() does: what was measured is kept, no error) or a Stop
// came during the wait.
std::optional<SteadyClock::time_point> passGate(const StepContext &run, std::size_t step)
{
    if (!run.stepGate)
        return SteadyClock::now();
    Run::Shared &shared = *run.shared;
    const StepStart start = run.stepGate(step);
    if (!start) {
        shared.requestStop();
        return std::nullopt;
    }
    while (!shared.stopRequested && SteadyClock::now() < *start)
        std::this_thread::sleep_until(
            std::min(*start, SteadyClock::now() + std::chrono::milliseconds(50)));
    if (shared.stopRequested)
        return std::nullopt;
    return *start;
}

} // namespace

std::string joined(const std::vector<std::string> &items)
{
    std::string text;
    for (const auto &i : items)
        text += (text.empty() ? "" : ", ") + i;
    return text;
}

// One step: its workers started together, sampled until the step ends, then
// collected (or left behind on a device that does not complete their I/O). False
// when the run cannot go on.
bool runStep(const StepContext &run, std::size_t step, SteadyClock::time_point runStart)
{
    const ResolvedPlan &resolved = run.plan;
    const std::string &stepName = resolved.steps[step].name;
    std::vector<std::size_t> active; // plan worker indices taking part
    for (std::size_t wi = 0; wi < resolved.workers.size(); ++wi)
        if (resolved.specOf(wi, step))
            active.push_back(wi);
    // A step nobody runs in is skipped, but for Iometer's pause (every worker Idle at
    // a spec index, CalcRunCount): it takes its ramp-up and run time with no I/O. A
    // skipped step still passes its gate: the other hosts of the run may run in it, and
    // each host passes every gate in order.
    if (active.empty() && resolved.steps[step].specName != kIdleSpecName)
        return passGate(run, step).has_value();

    Run::Shared &shared = *run.shared;
    const auto setupStart = SteadyClock::now();
    std::uint64_t inFlightWriteBytes = 0;
    std::vector<std::vector<std::string>> targetPaths(resolved.workers.size());
    auto state = makeStepState(step, active, resolved, run.comparedPath, run.settings, run.shared,
        inFlightWriteBytes, targetPaths, run.treeFiles, run.precondition);
    std::vector<std::thread> threads
        = startWorkers(state, run.backend, [&shared](const OpError &e) { shared.fail(e); });
    StepGuard guard {*state, threads, shared.stopNow, stopDeadline(run.settings)};
    const bool ready = waitUntilReady(*state, run.sink, shared);
    const auto readyAt = SteadyClock::now();
    run.reportNewNotices(); // a worker's engine may have fallen back (and said why)
    // Ready: the step starts when its gate says (at once on one host).
    const auto start = ready && !shared.failed() ? passGate(run, step) : std::nullopt;
    if (!start || shared.failed() || shared.stopRequested) {
        // No step starts after a stop or a failure: the run ends with the steps
        // measured so far. The workers drain what they have in flight (a
        // pre-initialisation's I/O) within the stop deadline, as at a step's end;
        // workers that were ready wait for the start: released, they see the stop.
        guard.done = true;
        state->stop = true;
        state->start.count_down();
        collectWorkers(run, *state, threads, targetPaths, stepName);
        return false;
    }

    Sampler::Config config = samplerConfigFor(run, step, active, *state);
    config.inFlightWriteBytes = inFlightWriteBytes;
    config.runStart = runStart;
    StepLoop::Times times = stepTimes(run, resolved.steps[step], *start, active.empty());
    if (run.precondition) {
        times.precondition = true;
        times.preconditionBytes = run.precondition->plannedBytes;
    }
    Sampler sampler(std::move(config), run.counters, run.writeBalance, times.start);
    // No stonewall amount in preconditioning: it moves what it planned, on every host.
    StepLoop loop(shared, sampler, run.sink, run.history, run.phase, state->stop, times,
        run.settings.stallThreshold, run.precondition ? 0 : run.settings.stonewallBytes,
        run.amountDone);
    loop.run(step, stepName, state->start);

    run.phase = RunPhase::Stopping;
    // Preconditioning's drain is said as its part (a Stopping of step 0 would read, on a
    // run of several sessions, as the first step's end before it began).
    if (!run.precondition)
        run.sink.onPhase(RunPhase::Stopping, step, stepName);
    // Workers drain their in-flight I/O; a device that does not complete it by the
    // stop deadline (or a second Stop) is reported, and its workers are left behind.
    guard.done = true;
    const auto drainStart = SteadyClock::now();
    const auto drainEnd = collectWorkers(run, *state, threads, targetPaths, stepName);
    run.writeBalance = sampler.balanceForNextStep();
    RunResult &result = run.result;
    result.steps.push_back(sampler.stepResult(!shared.stopRequested));
    result.steps.back().endedByAmount = loop.reachedAmount();
    result.steps.back().steadyState = loop.steadyState();
    if (loop.steadyState())
        reportSteadyState(run, *loop.steadyState(), stepName);
    result.steps.back().writeCliff = judgeWriteCliff(
        run.history, step, run.precondition ? RunPhase::Preconditioning : RunPhase::Measuring);
    if (result.steps.back().writeCliff)
        reportWriteCliff(run, *result.steps.back().writeCliff, stepName);
    // Setup is the workers' own (until they were ready): the wait at the gate for the
    // other hosts is not in it.
    result.steps.back().setupSeconds = std::chrono::duration<double>(readyAt - setupStart).count();
    result.steps.back().drainSeconds = std::chrono::duration<double>(drainEnd - drainStart).count();
    // Preconditioning's result is the run's to keep apart (run.cpp): not a step's.
    if (!run.precondition)
        run.sink.onStepResult(result.steps.back(), resolved.steps[step]);
    return true;
}

} // namespace ioprism::core::run_detail
