#include "core/run/run.h"

#include "core/run/plan.h"
#include "core/run/worker.h"
#include "core/stats/device_figures.h"
#include "core/stats/live_counters.h"
#include "core/stats/verdict.h"

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <map>
#include <random>
#include <thread>

namespace ioprism::core {

namespace asio = boost::asio;
using SteadyClock = std::chrono::steady_clock;

struct Run::Shared {
    asio::io_context io;
    std::atomic<bool> stopRequested {false};
    std::mutex errorMutex; // guards firstError (errors are rare: never on the hot path)
    std::optional<OpError> firstError;
    std::function<void()> wakeControl; // set while a step runs; called on io's thread

    void requestStop()
    {
        stopRequested = true;
        wake();
    }
    // Ends the current step (its workers are done) without stopping the run.
    void wake()
    {
        asio::post(io, [this] {
            if (wakeControl)
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

Run::Run(
    Profile profile, IoBackend &backend, CounterSource &counters, RunSink &sink, RunOptions options)
    : m_profile(std::move(profile))
    , m_backend(backend)
    , m_counters(counters)
    , m_sink(sink)
    , m_options(options)
    , m_shared(std::make_unique<Shared>())
{ }

Run::~Run() = default;

void Run::requestStop()
{
    m_shared->requestStop();
}

namespace {

bool writesTo(const AccessSpec &spec)
{
    for (const auto &l : spec.lines)
        if (l.percentRead < 100 || (l.replySizeBytes > 0 && l.percentRead > 0))
            return true;
    return false;
}

std::string sizeText(std::uint64_t bytes)
{
    return std::to_string(bytes) + " B";
}

// Problems with direct-I/O alignment of one line on one target, as a message or "".
std::string alignmentProblem(const SpecLine &line, std::size_t lineIndex, const AccessSpec &spec,
    const TargetInfo &info, const Region &region)
{
    const std::uint64_t a = info.directIoOffsetAlignBytes;
    auto where = [&] {
        return "spec \"" + spec.name + "\" line " + std::to_string(lineIndex + 1) + " on "
            + info.path;
    };
    if (line.transferSizeBytes % a)
        return where() + ": transfer size " + sizeText(line.transferSizeBytes)
            + " is not a multiple of the direct-I/O alignment " + sizeText(a)
            + " (use a multiple of it, or buffered mode)";
    if (line.alignmentBytes % a)
        return where() + ": alignment " + sizeText(line.alignmentBytes)
            + " is not a multiple of the direct-I/O alignment " + sizeText(a);
    if (line.replySizeBytes % a)
        return where() + ": reply size " + sizeText(line.replySizeBytes)
            + " is not a multiple of the direct-I/O alignment " + sizeText(a);
    if (region.offsetBytes % a)
        return where() + ": region offset " + sizeText(region.offsetBytes)
            + " is not a multiple of the direct-I/O alignment " + sizeText(a);
    return {};
}

// The devices over one span: every watched device, the total of the target devices
// (each once), and the verdict against the application's bytes in `app`.
DeviceReport makeDeviceReport(const DeviceMap &map, const std::vector<std::size_t> &totalDevices,
    const CounterSnapshot &a, const CounterSnapshot &b, std::chrono::nanoseconds elapsed,
    VerdictInput app, const VerdictPolicy &policy)
{
    DeviceReport r;
    const std::size_t n = map.devices.size();
    if (n > 0 && a.disks.size() == n && b.disks.size() == n) {
        r.devices.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            r.devices.push_back(deviceFigures(a.disks[i], b.disks[i], elapsed));
        DiskCounters sum;
        bool ok = !totalDevices.empty();
        double busiest = 0;
        for (std::size_t i : totalDevices) {
            if (!a.disks[i].valid || !b.disks[i].valid) {
                ok = false;
                break;
            }
            addDelta(sum, counterDelta(a.disks[i].counters, b.disks[i].counters));
            busiest = std::max(busiest, r.devices[i].utilPercent);
        }
        if (ok) {
            r.total = deviceFigures(sum, elapsed);
            r.total.utilPercent = busiest;
            r.available = r.total.valid;
        }
    }
    app.deviceCounters = r.available;
    app.seconds = std::chrono::duration<double>(elapsed).count();
    app.deviceReadBytes = r.total.readBytes;
    app.deviceWriteBytes = r.total.writeBytes;
    r.verdict = judgeDevice(app, policy);
    return r;
}

std::string megabytesText(std::uint64_t bytes)
{
    return std::to_string(bytes / 1000000) + "." + std::to_string(bytes / 100000 % 10) + " MB";
}

} // namespace

RunResult Run::execute()
{
    auto &shared = *m_shared;
    RunResult result;
    result.runId = m_options.runId;
    result.startedAt = std::chrono::system_clock::now();
    result.engine = m_backend.engineName();
    // The backend adds notices when it is made (an engine fallback) and while it prepares
    // targets (a test file too small and grown): report each one once, as it appears.
    auto reportNewNotices = [&] {
        const auto all = m_backend.notices();
        for (std::size_t i = result.notices.size(); i < all.size(); ++i) {
            result.notices.push_back(all[i]);
            m_sink.onNotice(all[i]);
        }
    };
    reportNewNotices();

    auto finish = [&](RunResult &r) -> RunResult {
        std::lock_guard lock(shared.errorMutex);
        r.error = shared.firstError;
        r.stoppedByUser = shared.stopRequested && !shared.firstError;
        m_phase = RunPhase::Done;
        m_sink.onPhase(RunPhase::Done, r.steps.size(), {});
        return std::move(r);
    };

    Problems problems;
    std::random_device rd;
    const std::uint64_t randomSeed = (std::uint64_t(rd()) << 32) ^ rd();
    auto plan = makeRunPlan(m_profile, randomSeed, problems);
    for (const auto &p : problems)
        if (p.severity == Severity::Warning)
            m_sink.onNotice(p.toString());
    if (!plan) {
        std::string text;
        for (const auto &p : problems)
            if (p.severity == Severity::Error)
                text += (text.empty() ? "" : "; ") + p.toString();
        shared.fail({{}, "plan the run", {}, text});
        return finish(result);
    }
    result.effectiveProfile = plan->effectiveProfile;

    // ---- prepare every distinct target once (a path shared by workers is one target)
    m_phase = RunPhase::Preparing;
    m_sink.onPhase(RunPhase::Preparing, 0, {});
    struct Prepared {
        TargetInfo info;
        bool needWrite = false;
    };
    std::map<std::string, Prepared> prepared;
    std::vector<std::pair<const PlannedTarget *, const PlannedWorker *>> order;
    for (const auto &w : plan->workers)
        for (const auto &t : w.targets) {
            bool write = false;
            for (int s : w.specPerStep)
                if (s >= 0 && writesTo(m_profile.specs[std::size_t(s)]))
                    write = true;
            auto [it, inserted] = prepared.try_emplace(t.target.path);
            it->second.needWrite |= write;
            if (inserted)
                order.emplace_back(&t, &w);
        }
    for (const auto &[t, w] : order) {
        if (shared.stopRequested)
            return finish(result);
        auto &p = prepared[t->target.path];
        PrepareOptions opts {.needWrite = p.needWrite,
            .allowDeviceWrites = m_options.allowDeviceWrites,
            .fillPattern = w->dataPattern,
            .seed = w->seed};
        const std::string path = t->target.path;
        auto info = m_backend.prepareTarget(
            t->target, opts, [&](std::uint64_t done, std::uint64_t total) {
                m_sink.onPrepareProgress(path, done, total);
                return !shared.stopRequested.load();
            });
        if (!info) {
            if (!shared.stopRequested)
                shared.fail(info.error());
            return finish(result);
        }
        p.info = *info;
        reportNewNotices();
    }

    // ---- resolve regions and check sizes and alignment before any I/O
    std::vector<std::vector<Region>> regions(plan->workers.size());
    for (std::size_t wi = 0; wi < plan->workers.size(); ++wi) {
        const auto &w = plan->workers[wi];
        for (const auto &t : w.targets) {
            const TargetInfo &info = prepared[t.target.path].info;
            result.targets.push_back(info);
            const std::uint64_t size = t.target.kind == TargetKind::TestFile
                ? std::min(info.sizeBytes, t.target.testFileSizeBytes)
                : info.sizeBytes;
            Region r = t.target.region;
            if (r.offsetBytes >= size) {
                shared.fail({{}, "check region", info.path,
                    "region offset " + sizeText(r.offsetBytes) + " is beyond the target's size "
                        + sizeText(size)});
                return finish(result);
            }
            if (r.sizeBytes == 0 || r.offsetBytes + r.sizeBytes > size)
                r.sizeBytes = size - r.offsetBytes;
            regions[wi].push_back(r);
            for (int s : w.specPerStep) {
                if (s < 0)
                    continue;
                const auto &spec = m_profile.specs[std::size_t(s)];
                for (std::size_t li = 0; li < spec.lines.size(); ++li) {
                    const auto &line = spec.lines[li];
                    std::string problem;
                    if (std::max(line.transferSizeBytes, line.replySizeBytes) > r.sizeBytes)
                        problem = "spec \"" + spec.name + "\" line " + std::to_string(li + 1)
                            + ": transfer size " + sizeText(line.transferSizeBytes)
                            + " is larger than the region " + sizeText(r.sizeBytes) + " of "
                            + info.path;
                    else if (t.target.cacheMode == CacheMode::Direct)
                        problem = alignmentProblem(line, li, spec, info, r);
                    if (!problem.empty()) {
                        shared.fail({{}, "check alignment", info.path, problem});
                        return finish(result);
                    }
                }
            }
        }
    }

    // ---- the devices carrying the targets: their counters are compared with ours
    std::vector<std::string> watchPaths;
    for (const auto &[t, w] : order)
        watchPaths.push_back(prepared[t->target.path].info.path);
    if (m_backend.reachesDevices()) {
        result.deviceMap = m_counters.watchTargets(watchPaths);
    } else {
        for (const auto &path : watchPaths)
            result.deviceMap.targets.push_back({path, std::nullopt,
                "the " + m_backend.engineName() + " engine does no device I/O"});
    }
    // Results name targets by their profile path (scopes, reports): so does the map.
    for (std::size_t i = 0; i < order.size() && i < result.deviceMap.targets.size(); ++i)
        result.deviceMap.targets[i].targetPath = order[i].first->target.path;
    std::map<std::string, bool> comparedPath; // profile target path -> carried by a watched device
    bool comparedBuffered = false;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const auto &target = order[i].first->target;
        const bool has
            = i < result.deviceMap.targets.size() && result.deviceMap.targets[i].device.has_value();
        comparedPath[target.path] = has;
        comparedBuffered |= has && target.cacheMode == CacheMode::Buffered;
    }
    std::vector<std::size_t> totalDevices;
    for (std::size_t i = 0; i < result.deviceMap.devices.size(); ++i)
        if (result.deviceMap.devices[i].inTotal)
            totalDevices.push_back(i);
    // Application writes the devices have not shown yet and the devices' credit, carried
    // across intervals and steps (core/stats/verdict.h).
    WriteBalance writeBalance;

    // ---- the steps
    const auto interval = std::max<std::chrono::milliseconds>(
        m_profile.setup.interval, std::chrono::milliseconds(10));
    const auto runStart = SteadyClock::now();
    auto seconds = [&](SteadyClock::time_point t) {
        return std::chrono::duration<double>(t - runStart).count();
    };

    for (std::size_t step = 0; step < plan->stepCount && !shared.stopRequested; ++step) {
        const std::string &stepName = plan->stepNames[step];

        // Counters and per-worker step descriptions.
        std::vector<std::size_t> active; // plan worker indices taking part
        for (std::size_t wi = 0; wi < plan->workers.size(); ++wi)
            if (plan->workers[wi].specPerStep[step] >= 0)
                active.push_back(wi);
        if (active.empty())
            continue;

        std::vector<std::vector<std::unique_ptr<LiveTargetCounters>>> live(plan->workers.size());
        std::vector<WorkerStep> steps(active.size());
        std::atomic<bool> stepStop {false};
        std::atomic<std::size_t> finishedWorkers {0};
        Latch ready(std::ptrdiff_t(active.size()) + 1);
        Latch start(1);

        // The most write bytes in flight on the compared targets: the limit of the
        // devices' credit (core/stats/verdict.h).
        std::uint64_t inFlightWriteBytes = 0;
        for (std::size_t a = 0; a < active.size(); ++a) {
            const std::size_t wi = active[a];
            const auto &pw = plan->workers[wi];
            const auto &spec = m_profile.specs[std::size_t(pw.specPerStep[step])];
            auto &ws = steps[a];
            ws.workerName = pw.name;
            ws.spec = &spec;
            ws.workerPattern = pw.dataPattern;
            ws.cpuAffinity = pw.cpuAffinity;
            ws.seed = pw.seed + 0x9E3779B97F4A7C15ull * (step + 1);
            ws.ioLimitPerTarget = m_options.ioLimitPerTarget;
            std::uint64_t largest = 512;
            for (const auto &l : spec.lines)
                largest = std::max({largest, l.transferSizeBytes, l.replySizeBytes});
            ws.bufferBytes = std::uint32_t(largest);
            for (std::size_t ti = 0; ti < pw.targets.size(); ++ti) {
                const auto &t = pw.targets[ti];
                const TargetInfo &info = prepared[t.target.path].info;
                live[wi].push_back(std::make_unique<LiveTargetCounters>());
                WorkerTarget wt;
                wt.file = {info.path, writesTo(spec), t.target.cacheMode, t.target.writeThrough};
                wt.region = regions[wi][ti];
                wt.sectorBytes = info.logicalBlockBytes;
                wt.outstandingIos = plan->outstandingIos(m_profile, wi, ti, step);
                // Only where the device can be ahead: a buffered write completes when it
                // reaches the page cache, before the device sees it.
                const bool completesAtDevice
                    = t.target.cacheMode == CacheMode::Direct || t.target.writeThrough;
                if (wt.file.write && completesAtDevice && comparedPath[t.target.path])
                    inFlightWriteBytes += largest * wt.outstandingIos;
                wt.counters = live[wi].back().get();
                ws.bufferAlignBytes
                    = std::max({ws.bufferAlignBytes, info.directIoMemAlignBytes, 4096u});
                ws.targets.push_back(wt);
            }
            ws.stop = &stepStop;
            ws.ready = &ready;
            ws.start = &start;
            ws.fail = [&shared](const OpError &e) { shared.fail(e); };
            ws.finished = [&shared, &finishedWorkers, n = active.size()] {
                if (++finishedWorkers == n)
                    shared.wake();
            };
        }

        std::vector<std::jthread> threads;
        threads.reserve(active.size());
        for (auto &ws : steps)
            threads.emplace_back([&ws, this] { runWorkerStep(ws, m_backend); });
        ready.arrive_and_wait();
        if (shared.failed()) {
            stepStop = true;
            start.count_down();
            threads.clear();
            break;
        }

        // ---- sampling: scopes are All, each active worker, each of its targets
        std::vector<Scope> scopes {{Scope::Kind::All, -1, -1, "All", {}}};
        for (std::size_t wi : active) {
            const auto &pw = plan->workers[wi];
            scopes.push_back({Scope::Kind::Worker, int(wi), -1, pw.name, {}});
            for (std::size_t ti = 0; ti < pw.targets.size(); ++ti)
                scopes.push_back({Scope::Kind::Target, int(wi), int(ti),
                    pw.name + " / " + pw.targets[ti].target.path, pw.targets[ti].target.path});
        }
        std::vector<std::vector<Measurement>> previous(plan->workers.size());
        for (std::size_t wi : active)
            previous[wi].resize(live[wi].size());
        std::vector<Measurement> totals(scopes.size());
        std::chrono::nanoseconds measured {0};

        const auto t0 = SteadyClock::now();
        const auto rampEnd = t0 + m_profile.setup.rampUp;
        const auto measureEnd = m_profile.setup.runTime.count() > 0
            ? rampEnd + m_profile.setup.runTime
            : SteadyClock::time_point::max();
        CounterSnapshot cpuPrev = m_counters.sample(), cpuMeasureStart = cpuPrev;
        WriteBalance measureBalance = writeBalance;
        // Target scopes whose bytes are compared with the devices.
        std::vector<bool> comparedScope(scopes.size(), false);
        for (std::size_t i = 0; i < scopes.size(); ++i)
            comparedScope[i]
                = scopes[i].kind == Scope::Kind::Target && comparedPath[scopes[i].targetPath];
        auto appBytes = [&](const std::vector<Measurement> &m) {
            VerdictInput in;
            in.buffered = comparedBuffered;
            for (std::size_t i = 0; i < m.size(); ++i)
                if (comparedScope[i]) {
                    in.appReadBytes += m[i].read.bytes;
                    in.appWriteBytes += m[i].write.bytes;
                }
            return in;
        };
        auto lastTick = t0;
        std::int64_t tickNumber = 0;
        RunPhase phase = rampEnd > t0 ? RunPhase::RampUp : RunPhase::Measuring;
        m_phase = phase;
        m_sink.onPhase(phase, step, stepName);
        start.count_down(); // every worker starts now

        asio::steady_timer timer(shared.io);
        auto takeSample = [&](SteadyClock::time_point now) {
            IntervalSample sample;
            sample.runId = m_options.runId;
            sample.step = step;
            sample.stepName = stepName;
            sample.phase = phase;
            sample.startSeconds = seconds(lastTick);
            sample.endSeconds = seconds(now);
            const auto elapsed
                = std::chrono::duration_cast<std::chrono::nanoseconds>(now - lastTick);
            std::vector<Measurement> deltas(scopes.size());
            std::size_t si = 1;
            for (std::size_t wi : active) {
                const std::size_t workerScope = si++;
                for (std::size_t ti = 0; ti < live[wi].size(); ++ti, ++si) {
                    Measurement current;
                    takeSnapshot(*live[wi][ti], current);
                    deltas[si] = deltaOf(previous[wi][ti], current);
                    previous[wi][ti] = std::move(current);
                    deltas[workerScope].add(deltas[si]);
                    deltas[0].add(deltas[si]);
                }
            }
            CounterSnapshot cpuNow = m_counters.sample();
            sample.cpu = cpuFigures(cpuPrev.cpu, cpuNow.cpu);
            VerdictInput app = appBytes(deltas);
            app.writeBacklogBytes = writeBalance.backlogBytes;
            app.writeCreditBytes = writeBalance.creditBytes;
            app.inFlightWriteBytes = inFlightWriteBytes;
            sample.devices = makeDeviceReport(
                result.deviceMap, totalDevices, cpuPrev, cpuNow, elapsed, app, m_options.verdict);
            if (sample.devices.available)
                writeBalance = {sample.devices.verdict.writeBacklogBytes,
                    sample.devices.verdict.writeCreditBytes};
            cpuPrev = std::move(cpuNow);
            for (std::size_t i = 0; i < scopes.size(); ++i) {
                deltas[i].elapsed = elapsed;
                sample.scopes.push_back({scopes[i], computeFigures(deltas[i])});
            }
            if (sample.cpu.valid && sample.cpu.busyPercent > 0)
                sample.cpuEffectiveness
                    = sample.scopes[0].figures.total.iops / sample.cpu.busyPercent;
            if (phase == RunPhase::Measuring) {
                measured += elapsed;
                for (std::size_t i = 0; i < scopes.size(); ++i) {
                    totals[i].read.add(deltas[i].read);
                    totals[i].write.add(deltas[i].write);
                    totals[i].transactions += deltas[i].transactions;
                    totals[i].outstanding = deltas[i].outstanding;
                }
            }
            lastTick = now;
            m_sink.onInterval(sample);
            result.intervals.push_back(std::move(sample));
        };

        std::function<void()> scheduleNext;
        auto onTick = [&](bool stopNow) {
            auto now = SteadyClock::now();
            if (phase == RunPhase::RampUp && now >= rampEnd - std::chrono::milliseconds(1))
                now = std::max(now, rampEnd);
            takeSample(now);
            if (phase == RunPhase::RampUp && now >= rampEnd) {
                phase = RunPhase::Measuring;
                m_phase = phase;
                cpuMeasureStart = cpuPrev;
                measureBalance = writeBalance;
                m_sink.onPhase(phase, step, stepName);
            }
            if (stopNow || shared.stopRequested || now >= measureEnd) {
                stepStop = true;
                timer.cancel();
                return;
            }
            scheduleNext();
        };
        scheduleNext = [&] {
            ++tickNumber;
            auto next = t0 + interval * tickNumber;
            while (next <= lastTick)
                next = t0 + interval * ++tickNumber;
            if (phase == RunPhase::RampUp)
                next = std::min(next, rampEnd);
            next = std::min(next, measureEnd);
            timer.expires_at(next);
            timer.async_wait([&](const boost::system::error_code &ec) {
                if (ec == asio::error::operation_aborted)
                    return; // woken by wakeControl, which samples itself
                onTick(false);
            });
        };
        shared.wakeControl = [&] {
            if (!stepStop) {
                timer.cancel();
                onTick(true);
            }
        };
        if (shared.stopRequested)
            shared.wakeControl();
        else
            scheduleNext();
        shared.io.restart();
        shared.io.run();
        shared.wakeControl = nullptr;

        m_phase = RunPhase::Stopping;
        m_sink.onPhase(RunPhase::Stopping, step, stepName);
        threads.clear(); // joins: workers drain their in-flight I/O
        // The devices' lead at the last sample was I/O the workers have just drained,
        // which no step counts: it pays for nothing later.
        writeBalance.creditBytes = 0;

        StepResult sr;
        sr.step = step;
        sr.stepName = stepName;
        sr.measuredSeconds = std::chrono::duration<double>(measured).count();
        sr.complete = !shared.stopRequested;
        sr.cpu = cpuFigures(cpuMeasureStart.cpu, cpuPrev.cpu);
        for (std::size_t i = 0; i < scopes.size(); ++i) {
            totals[i].elapsed = measured;
            sr.scopes.push_back({scopes[i], totals[i], computeFigures(totals[i])});
        }
        if (sr.cpu.valid && sr.cpu.busyPercent > 0)
            sr.cpuEffectiveness = sr.scopes[0].figures.total.iops / sr.cpu.busyPercent;
        {
            VerdictInput app = appBytes(totals);
            app.writeBacklogBytes = measureBalance.backlogBytes;
            app.writeCreditBytes = measureBalance.creditBytes;
            app.inFlightWriteBytes = inFlightWriteBytes;
            sr.devices = makeDeviceReport(result.deviceMap, totalDevices, cpuMeasureStart, cpuPrev,
                measured, app, m_options.verdict);
        }
        result.steps.push_back(std::move(sr));
    }

    // ---- the tail: what the devices still do after the last step (write-back)
    if (!shared.failed() && !totalDevices.empty() && !result.steps.empty()
        && m_options.deviceTailLimit.count() > 0) {
        auto &tail = result.deviceTail;
        tail.sampled = true;
        tail.pendingWriteBytes = writeBalance.backlogBytes;
        const std::uint64_t floor = m_options.verdict.noiseFloorBytes;
        const auto busy = [&](const CounterSnapshot &s) {
            for (std::size_t i : totalDevices)
                if (i < s.disks.size() && s.disks[i].valid && s.disks[i].counters.inFlight > 0)
                    return true;
            return false;
        };
        const auto written = [&](const CounterSnapshot &a, const CounterSnapshot &b) {
            std::uint64_t bytes = 0;
            for (std::size_t i : totalDevices)
                if (i < a.disks.size() && i < b.disks.size() && a.disks[i].valid
                    && b.disks[i].valid)
                    bytes += counterDelta(a.disks[i].counters, b.disks[i].counters).writeSectors
                        * 512;
            return bytes;
        };
        const auto tailStart = SteadyClock::now();
        const CounterSnapshot first = m_counters.sample();
        CounterSnapshot last = first;
        auto lastTime = tailStart;
        if (writeBalance.backlogBytes <= floor && !busy(first)) {
            tail.idle = true; // nothing in flight, nothing owed: no need to wait
        } else {
            if (writeBalance.backlogBytes > floor)
                m_sink.onNotice(megabytesText(writeBalance.backlogBytes)
                    + " written by the application not yet seen at the device: sampling the device "
                      "for up to "
                    + std::to_string(m_options.deviceTailLimit.count()) + " ms");
            const auto tailEnd = tailStart + m_options.deviceTailLimit;
            bool flushSeen = false;
            while (true) {
                std::this_thread::sleep_until(std::min(lastTime + interval, tailEnd));
                const auto now = SteadyClock::now();
                CounterSnapshot current = m_counters.sample();
                const std::uint64_t wrote = written(last, current);
                flushSeen |= wrote > 0;
                const bool quiet = wrote == 0 && !busy(current);
                last = std::move(current);
                lastTime = now;
                // Idle: nothing in flight and nothing written for one interval, and either
                // nothing was owed or the flush that paid it has been seen to finish.
                if (quiet
                    && (flushSeen
                        || nextWriteBalance(writeBalance, 0, written(first, last), 0).backlogBytes
                            <= floor)) {
                    tail.idle = true;
                    break;
                }
                if (now >= tailEnd)
                    break;
            }
        }
        const auto elapsed
            = std::chrono::duration_cast<std::chrono::nanoseconds>(lastTime - tailStart);
        tail.seconds = std::chrono::duration<double>(elapsed).count();
        if (elapsed.count() > 0) {
            const DeviceReport r = makeDeviceReport(
                result.deviceMap, totalDevices, first, last, elapsed, {}, m_options.verdict);
            tail.devices = r.devices;
            tail.total = r.total;
        }
        tail.flushedWriteBytes = tail.total.writeBytes;
        tail.remainingWriteBytes
            = nextWriteBalance(writeBalance, 0, tail.flushedWriteBytes, 0).backlogBytes;
    }
    return finish(result);
}

} // namespace ioprism::core
