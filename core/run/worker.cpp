// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/worker.h"

#include "core/counters.h"
#include "core/workload/data_pattern.h"
#include "core/workload/distribution.h"
#include "core/workload/io_generator.h"
#include "core/workload/rate_limiter.h"
#include "core/workload/rng.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <optional>
#include <thread>

namespace ioprism::core {

namespace {

using namespace std::chrono_literals;

// A slot needs a read and a write buffer only when its spec does both: the write buffer
// keeps its prepared pattern across reads.
std::uint32_t buffersPerSlot(const AccessSpec &spec)
{
    const bool reads = std::any_of(spec.lines.begin(), spec.lines.end(),
        [](const SpecLine &l) { return l.percentRead > 0 || l.replySizeBytes > 0; });
    return reads && specWrites(spec) ? 2 : 1;
}

// Our own monotonic clock: every latency is reap time minus submit time on it.
inline std::int64_t nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::uint64_t mixSeed(std::uint64_t seed, std::uint64_t salt)
{
    return mix64(seed ^ (salt * kSplitMix64Gamma));
}

// One outstanding-I/O slot: bound to one target, with its own read and write buffers
// (a read never overwrites a prepared write pattern).
struct Slot {
    IoRequest request;
    std::uint32_t target = 0;
    bool hasStep = false; // `step` is planned but not yet issued
    bool inFlight = false;
    IoStep step; // the I/O being issued or in flight
    std::optional<IoStep> reply; // the reply to issue after `step` completes
    std::int64_t readyAtNs = 0; // think time / delay / rate limit: not before this
    int preparedPattern = -1; // which pattern the write buffer holds
    // A file tree's slot: its own engine file index, whether a file is open on it, and
    // when that file's open began (the operation's start).
    bool fileOpen = false;
    std::int64_t openedNs = 0;
    // This slot's entry in its target's LiveTargetCounters::inFlightSince, or null.
    std::atomic<std::int64_t> *published = nullptr;

    void publishSubmit(std::int64_t stampNs)
    {
        if (published)
            published->store(encodeInFlight(stampNs, request.direction), std::memory_order_relaxed);
    }
    void publishDone()
    {
        if (published)
            published->store(0, std::memory_order_relaxed);
    }
};

struct TargetState {
    std::optional<IoGenerator> generator;
    std::vector<RateLimiter> limiters; // per spec line
    std::int64_t gateNs = 0; // burst delay: no new I/O on this target before
    std::uint64_t issued = 0; // for the limit
    std::uint64_t limit = 0; // I/Os to issue (0: until stopped)
    std::uint32_t inFlight = 0; // submitted, not yet completed
    std::uint32_t planned = 0; // slots holding a step not yet issued
    bool retired = false; // issued the I/O limit: no new I/O
    // A file tree: which file each operation opens (per spec line), drawn with fileRng.
    std::vector<OffsetDistribution> filePickers;
    Rng fileRng;
    // Iometer's connection rate: transactions started on the open connection, and when
    // it opened (the first one: when the step's I/O began).
    std::uint64_t started = 0;
    std::int64_t connectedNs = 0;
};

class WorkerLoop
{
public:
    WorkerLoop(WorkerStep &step, IoBackend &backend)
        : m_ws(step)
        , m_backend(backend)
    { }

    void run()
    {
        bool ready = false;
        try {
            ready = setUp();
        } catch (const std::exception &e) {
            fail({{}, "start worker", m_ws.workerName, e.what()});
        }
        // Always arrive, also after a failure: the run waits for every worker.
        if (ready && m_preInit)
            ready = preInitialise();
        m_ws.ready->count_down();
        if (!ready) {
            drain();
            return;
        }
        m_ws.start->wait();
        if (waitStartDelay()) {
            const std::int64_t begin = nowNs();
            for (auto &ts : m_targets)
                ts.connectedNs = begin;
            loop(false);
        }
        drain();
    }

private:
    // False when the step stopped before the worker's start delay passed.
    bool waitStartDelay() const
    {
        const auto until = std::chrono::steady_clock::now() + m_ws.startDelay;
        while (!m_ws.stop->load() && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::min<std::chrono::nanoseconds>(
                until - std::chrono::steady_clock::now(), std::chrono::milliseconds(10)));
        return !m_ws.stop->load();
    }

    // The tree targets' pre-initialisation operations, before the worker is ready: run
    // like the step's own I/O (same spec, files and depth), recorded nowhere. The other
    // targets wait. False when it failed or the step was stopped meanwhile.
    bool preInitialise()
    {
        m_recording = false;
        for (std::size_t t = 0; t < m_targets.size(); ++t) {
            m_targets[t].limit = m_ws.targets[t].preInitOperations;
            m_targets[t].retired = m_targets[t].limit == 0;
        }
        loop(true);
        drainInFlight(nowNs() + m_ws.drainLimit.count());
        for (std::size_t t = 0; t < m_targets.size(); ++t) {
            auto &ts = m_targets[t];
            ts.limit = limitOf(m_ws.targets[t]);
            ts.issued = 0;
            ts.retired = false;
        }
        m_recording = true;
        return !m_failed && !m_ws.stop->load();
    }

    void fail(const OpError &e)
    {
        if (!m_failed) {
            m_failed = true;
            m_ws.fail(e);
        }
    }

    bool setUp()
    {
        m_backend.nameCurrentThread(kWorkerThreadName);
        if (!m_ws.cpuAffinity.empty()) {
            auto pinned = m_backend.pinCurrentThread(m_ws.cpuAffinity);
            if (!pinned) {
                fail(pinned.error());
                return false;
            }
        }
        std::uint32_t slotCount = 0;
        for (const auto &t : m_ws.targets)
            slotCount += t.outstandingIos;
        if (!startEngine(slotCount) || !makeGenerators())
            return false;
        makeFillers();
        makeSlots(slotCount);
        return true;
    }

    // The backend's engine for this worker's targets, or its one fallback where the
    // backend has one for the failure (it says so).
    bool startEngine(std::uint32_t slotCount)
    {
        auto engine = m_backend.makeEngine();
        if (!engine) {
            fail(engine.error());
            return false;
        }
        m_engine = std::move(*engine);
        // A target's file, or for a tree one file index per slot, opened per operation.
        std::vector<EngineFile> files;
        for (const auto &t : m_ws.targets) {
            m_firstFile.push_back(std::uint32_t(files.size()));
            if (!t.isTree()) {
                files.push_back(t.file);
                continue;
            }
            EngineFile later = t.file;
            later.path.clear();
            later.openLater = true;
            files.insert(files.end(), t.outstandingIos, later);
        }
        if (slotCount > m_engine->capabilities().maxQueueDepth) {
            fail({{}, "start worker", m_ws.workerName,
                "the " + std::string(m_engine->name()) + " engine supports at most "
                    + std::to_string(m_engine->capabilities().maxQueueDepth)
                    + " outstanding I/Os per worker, " + std::to_string(slotCount)
                    + " were asked for"});
            return false;
        }
        const EngineConfig config
            = engineConfigFor(*m_ws.spec, slotCount, m_ws.bufferBytes, m_ws.bufferAlignBytes);
        m_buffersPerSlot = buffersPerSlot(*m_ws.spec);
        auto st = m_engine->init(config, files);
        if (st)
            return true;
        m_engine.reset();
        auto other = m_backend.makeFallbackEngine(st.error());
        if (!other) {
            fail(other.error());
            return false;
        }
        m_engine = std::move(*other);
        if (slotCount > m_engine->capabilities().maxQueueDepth) {
            fail(st.error());
            return false;
        }
        if (auto again = m_engine->init(config, files); !again) {
            fail(again.error());
            return false;
        }
        return true;
    }

    std::uint64_t limitOf(const WorkerTarget &wt) const
    {
        return wt.ioLimit > 0 ? wt.ioLimit : m_ws.ioLimitPerTarget;
    }

    // One I/O generator per target, and a rate limiter per spec line on each.
    bool makeGenerators()
    {
        const AccessSpec &spec = *m_ws.spec;
        try {
            for (std::size_t t = 0; t < m_ws.targets.size(); ++t) {
                auto &ts = m_targets.emplace_back();
                ts.generator.emplace(spec, m_ws.targets[t].region, m_ws.targets[t].sectorBytes,
                    mixSeed(m_ws.seed, t + 1));
                const WorkerTarget &wt = m_ws.targets[t];
                ts.limit = limitOf(wt);
                if (wt.isTree()) {
                    for (const auto &line : spec.lines)
                        ts.filePickers.emplace_back(line.distribution, wt.treeFiles->size());
                    ts.fileRng = Rng(mixSeed(m_ws.seed, 500 + t));
                }
                m_connectionRate |= wt.transactionsPerConnection > 0;
                m_preInit |= wt.preInitOperations > 0;
                for (const auto &line : spec.lines) {
                    ts.limiters.emplace_back(line.rateLimit);
                    m_anyLimiter |= !ts.limiters.back().unlimited();
                    m_timed |= line.delay.count() > 0 || line.thinkTime.count() > 0;
                }
            }
        } catch (const std::exception &e) {
            fail({{}, "plan I/O", m_ws.workerName, e.what()});
            return false;
        }
        m_timed |= m_anyLimiter;
        return true;
    }

    // One filler per distinct data pattern of the spec's lines.
    void makeFillers()
    {
        for (const auto &line : m_ws.spec->lines) {
            const DataPattern p = line.dataPattern.value_or(m_ws.workerPattern);
            auto it = std::find(m_patterns.begin(), m_patterns.end(), p);
            if (it == m_patterns.end()) {
                m_patterns.push_back(p);
                m_fillers.emplace_back(p, mixSeed(m_ws.seed, 1000 + m_patterns.size()));
                it = m_patterns.end() - 1;
            }
            m_linePattern.push_back(int(it - m_patterns.begin()));
        }
    }

    // One slot per outstanding I/O, each publishing its submit time to its target's
    // in-flight slot (LiveTargetCounters::inFlightSince).
    void makeSlots(std::uint32_t slotCount)
    {
        m_slots.resize(slotCount);
        std::uint32_t s = 0;
        for (std::uint32_t t = 0; t < m_ws.targets.size(); ++t)
            for (std::uint32_t q = 0; q < m_ws.targets[t].outstandingIos; ++q, ++s) {
                if (auto *live = m_ws.targets[t].counters; live && q < live->inFlightSince.size())
                    m_slots[s].published = &live->inFlightSince[q];
                m_slots[s].target = t;
                m_slots[s].request.fileIndex = m_firstFile[t] + (m_ws.targets[t].isTree() ? q : 0);
                m_slots[s].request.userData = s;
            }
        m_idle.reserve(slotCount);
        for (std::uint32_t i = slotCount; i-- > 0;)
            m_idle.push_back(i);
        m_completed.resize(slotCount);
        m_queued.resize(slotCount);
    }

    // Plans and queues every idle slot that may go now; returns how many were queued.
    // The hot path: its steps below are members defined in the class (inline), so the
    // compiler folds them back into this loop, with no call or indirection per I/O.
    std::uint32_t issue(std::int64_t now, std::int64_t &nextReadyNs)
    {
        std::uint32_t queued = 0;
        for (std::size_t k = 0; k < m_idle.size();) {
            const std::uint32_t i = m_idle[k];
            Slot &slot = m_slots[i];
            TargetState &ts = m_targets[slot.target];
            if (ts.retired && !slot.hasStep) {
                ++k;
                continue;
            }
            if (m_timed && slot.readyAtNs > now) {
                nextReadyNs = std::min(nextReadyNs, slot.readyAtNs);
                ++k;
                continue;
            }
            if (!slot.hasStep && !planStep(slot, ts, now)) {
                ++k; // the connection is used up: reconnectWhereDue() opens the next
                continue;
            }
            if (m_timed && !mayStart(slot, ts, now, nextReadyNs)) {
                ++k;
                continue;
            }
            prepareRequest(slot, i);
            if (!slot.fileOpen && m_ws.targets[slot.target].isTree()
                && !openTreeFile(slot, slot.step.io.lineIndex))
                break; // failed: the run stops
            if (!m_engine->queue(&slot.request))
                break; // cannot happen: the ring holds every slot; retry next round
            markQueued(slot, ts);
            m_queued[queued++] = i;
            m_idle[k] = m_idle.back();
            m_idle.pop_back();
        }
        return queued;
    }

    // The slot's next I/O from its target's generator (and the reply that follows it, for
    // a transaction of two). False, planning nothing, when the target's connection has
    // started all the transactions it may.
    bool planStep(Slot &slot, TargetState &ts, std::int64_t now)
    {
        const std::uint32_t perConnection = m_ws.targets[slot.target].transactionsPerConnection;
        if (perConnection > 0 && ts.started >= perConnection)
            return false;
        ++ts.started;
        ++ts.planned;
        slot.step = ts.generator->next();
        slot.hasStep = true;
        if (!slot.step.io.endsTransaction)
            slot.reply = ts.generator->next();
        if (slot.step.waitBefore.count() > 0)
            ts.gateNs = std::max(ts.gateNs, now + slot.step.waitBefore.count());
        return true;
    }

    // Timed runs only: false while the target's burst delay or the line's rate limit
    // holds the slot back (its readyAtNs and nextReadyNs then say until when); true once
    // it may go, the rate limit charged with its bytes.
    bool mayStart(Slot &slot, TargetState &ts, std::int64_t now, std::int64_t &nextReadyNs)
    {
        const PlannedIo &io = slot.step.io;
        if (ts.gateNs > now) {
            slot.readyAtNs = ts.gateNs;
            nextReadyNs = std::min(nextReadyNs, ts.gateNs);
            return false;
        }
        if (m_anyLimiter) {
            auto &limiter = ts.limiters[io.lineIndex];
            const auto at
                = limiter.earliestStart(std::chrono::nanoseconds(now), io.sizeBytes).count();
            if (at > now) {
                slot.readyAtNs = at;
                nextReadyNs = std::min(nextReadyNs, at);
                return false;
            }
            limiter.consume(std::chrono::nanoseconds(now), io.sizeBytes);
        }
        return true;
    }

    // The slot's request for its planned I/O; a write's buffer gets its line's data
    // pattern (prepared once per pattern change, then touched per write).
    void prepareRequest(Slot &slot, std::uint32_t i)
    {
        const PlannedIo &io = slot.step.io;
        IoRequest &r = slot.request;
        r.direction = io.direction;
        r.offsetBytes = io.offsetBytes;
        r.lengthBytes = io.sizeBytes;
        r.bufferIndex = i * m_buffersPerSlot
            + (m_buffersPerSlot == 2 && io.direction == IoDirection::Write ? 1 : 0);
        if (io.direction == IoDirection::Write) {
            auto buffer = m_engine->buffer(r.bufferIndex);
            const int pattern = m_linePattern[io.lineIndex];
            if (slot.preparedPattern != pattern) {
                m_fillers[std::size_t(pattern)].prepare(buffer);
                slot.preparedPattern = pattern;
            }
            m_fillers[std::size_t(pattern)].beforeWrite(buffer.first(io.sizeBytes), io.offsetBytes);
        }
    }

    // The slot's I/O is queued: in flight, and counted against the target's I/O limit.
    static void markQueued(Slot &slot, TargetState &ts)
    {
        slot.inFlight = true;
        slot.hasStep = false;
        --ts.planned;
        ++ts.inFlight;
        if (ts.limit > 0 && ++ts.issued >= ts.limit)
            ts.retired = true;
    }

    void complete(IoRequest *r, std::int64_t reapNs)
    {
        const auto i = std::uint32_t(r->userData);
        Slot &slot = m_slots[i];
        TargetState &ts = m_targets[slot.target];
        LiveTargetCounters &live = *m_ws.targets[slot.target].counters;
        LiveDirection &dir = live.direction(r->direction);
        slot.inFlight = false;
        slot.publishDone();
        --ts.inFlight;
        const auto latency = std::uint64_t(std::max<std::int64_t>(reapNs - r->submitNs, 0));
        if (r->error != 0 || r->resultBytes != std::int64_t(r->lengthBytes)) {
            dir.errors.add(1);
            const char *op = r->direction == IoDirection::Read ? "read" : "write";
            const std::string where = "offset " + std::to_string(r->offsetBytes) + ", "
                + std::to_string(r->lengthBytes) + " bytes";
            if (r->error != 0)
                fail({std::error_code(r->error, std::system_category()), op,
                    m_ws.targets[slot.target].file.path, where});
            else
                fail({std::make_error_code(std::errc::io_error), op,
                    m_ws.targets[slot.target].file.path,
                    "short transfer: " + std::to_string(r->resultBytes) + " of "
                        + std::to_string(r->lengthBytes) + " bytes at offset "
                        + std::to_string(r->offsetBytes)});
        } else if (m_recording) {
            dir.histogram.record(latency);
            dir.bytes.add(std::uint64_t(r->resultBytes));
            if (slot.step.io.endsTransaction)
                live.transactions.add(1);
        } else if (m_ws.preInitDone) {
            // Counted as the limit is (each I/O issued), so done reaches the total.
            m_ws.preInitDone->fetch_add(1, std::memory_order_relaxed);
        }
        if (slot.reply) {
            slot.step = *slot.reply;
            slot.reply.reset();
            slot.hasStep = true;
            ++ts.planned;
        } else if (slot.fileOpen) {
            closeTreeFile(slot); // the operation ends with its transaction
        }
        if (slot.step.thinkTimeAfter.count() > 0)
            slot.readyAtNs = reapNs + slot.step.thinkTimeAfter.count();
        m_idle.push_back(i);
    }

    void recordPhase(LivePhase &phase, std::int64_t fromNs, std::int64_t toNs)
    {
        if (m_recording)
            phase.histogram.record(std::uint64_t(std::max<std::int64_t>(toNs - fromNs, 0)));
    }

    void phaseFailed(LivePhase &phase, const OpError &e)
    {
        if (m_recording)
            phase.errors.add(1);
        fail(e);
    }

    // Opens the file the operation picks on the slot's file index, timed. While it opens,
    // the slot is published as in flight: an open that hangs shows like a stuck I/O.
    bool openTreeFile(Slot &slot, std::uint16_t lineIndex)
    {
        TargetState &ts = m_targets[slot.target];
        const WorkerTarget &wt = m_ws.targets[slot.target];
        const auto file = ts.filePickers[lineIndex].next(ts.fileRng);
        EngineFile engineFile = wt.file;
        engineFile.path = (*wt.treeFiles)[std::size_t(file)];
        engineFile.treeRoot = wt.file.path;
        engineFile.treeFileIndex = file;
        const std::int64_t start = nowNs();
        slot.publishSubmit(start);
        auto st = m_engine->openFile(slot.request.fileIndex, engineFile);
        const std::int64_t end = nowNs();
        slot.publishDone();
        if (!st) {
            phaseFailed(wt.counters->connections->open, st.error());
            return false;
        }
        recordPhase(wt.counters->connections->open, start, end);
        slot.fileOpen = true;
        slot.openedNs = start;
        return true;
    }

    // Closes the slot's file after its operation, timed; the operation (a connection of
    // one transaction) lasted from its open to now.
    void closeTreeFile(Slot &slot)
    {
        LiveConnections &live = *m_ws.targets[slot.target].counters->connections;
        const std::int64_t start = nowNs();
        slot.publishSubmit(start);
        auto st = m_engine->closeFile(slot.request.fileIndex);
        const std::int64_t end = nowNs();
        slot.publishDone();
        slot.fileOpen = false;
        if (!st)
            return phaseFailed(live.close, st.error());
        recordPhase(live.close, start, end);
        recordPhase(live.connection, slot.openedNs, end);
    }

    // Iometer's connection rate: each target whose connection has done its transactions
    // and has nothing in flight or waiting is closed and opened again, both timed; the
    // connection lasted from its open to its close. True when one was reopened.
    bool reconnectWhereDue()
    {
        bool any = false;
        for (std::size_t t = 0; t < m_targets.size() && !m_failed; ++t) {
            TargetState &ts = m_targets[t];
            const WorkerTarget &wt = m_ws.targets[t];
            if (wt.transactionsPerConnection == 0 || ts.started < wt.transactionsPerConnection
                || ts.inFlight > 0 || ts.planned > 0)
                continue;
            LiveConnections &live = *wt.counters->connections;
            const std::uint32_t index = m_firstFile[t];
            const std::int64_t closeStart = nowNs();
            if (auto st = m_engine->closeFile(index); !st)
                return phaseFailed(live.close, st.error()), false;
            const std::int64_t closeEnd = nowNs();
            recordPhase(live.close, closeStart, closeEnd);
            recordPhase(live.connection, ts.connectedNs, closeEnd);
            if (auto st = m_engine->openFile(index, wt.file); !st)
                return phaseFailed(live.open, st.error()), false;
            const std::int64_t openEnd = nowNs();
            recordPhase(live.open, closeEnd, openEnd);
            ts.connectedNs = closeEnd;
            ts.started = 0;
            any = true;
        }
        return any;
    }

    void publishInFlight()
    {
        for (std::size_t t = 0; t < m_targets.size(); ++t)
            m_ws.targets[t].counters->inFlight.store(
                m_targets[t].inFlight, std::memory_order_relaxed);
    }

    // The hot loop, until the step stops, or with untilDone (pre-initialisation) until
    // every target issued its limit and nothing is in flight.
    void loop(bool untilDone)
    {
        bool reportedFinished = false;
        while (!m_ws.stop->load(std::memory_order_relaxed) && !m_failed) {
            std::int64_t now = nowNs();
            std::int64_t nextReady = INT64_MAX;
            if (m_connectionRate)
                reconnectWhereDue();
            const std::uint32_t queued = issue(now, nextReady);
            if (queued == 0 && m_connectionRate && reconnectWhereDue())
                continue;
            if (queued > 0) {
                const std::int64_t stamp = nowNs();
                for (std::uint32_t q = 0; q < queued; ++q) {
                    Slot &slot = m_slots[m_queued[q]];
                    slot.request.submitNs = stamp;
                    slot.publishSubmit(stamp);
                }
                if (auto st = m_engine->commit(); !st) {
                    fail(st.error());
                    break;
                }
            }
            publishInFlight();
            const std::size_t inFlight = m_slots.size() - m_idle.size();
            if (inFlight == 0) {
                if (allRetired()) {
                    if (untilDone)
                        return;
                    if (!reportedFinished && m_ws.finished) {
                        reportedFinished = true;
                        m_ws.finished();
                    }
                    std::this_thread::sleep_for(1ms);
                    continue;
                }
                // Everything waits on a delay, think time or rate limit.
                const std::int64_t wait
                    = std::clamp<std::int64_t>(nextReady - nowNs(), 0, 5'000'000);
                std::this_thread::sleep_for(std::chrono::nanoseconds(wait));
                continue;
            }
            // Wake for the stop flag at least every 10 ms, sooner for a waiting slot.
            std::int64_t timeout = 10'000'000;
            if (nextReady != INT64_MAX)
                timeout = std::clamp<std::int64_t>(nextReady - now, 0, timeout);
            // Wait for reapBatch completions (never more than are in flight); the timeout
            // still bounds the wait, and what came by then is taken.
            const auto reapMin = std::uint32_t(
                std::clamp<std::size_t>(m_ws.reapBatch, 1, std::max<std::size_t>(inFlight, 1)));
            auto got = m_engine->reap(m_completed, reapMin, std::chrono::nanoseconds(timeout));
            if (!got) {
                fail(got.error());
                break;
            }
            if (*got == 0)
                continue;
            const std::int64_t reapNs = nowNs();
            for (std::uint32_t c = 0; c < *got; ++c)
                complete(m_completed[c], reapNs);
        }
    }

    bool allRetired() const
    {
        for (const auto &t : m_targets)
            if (!t.retired)
                return false;
        return true;
    }

    // Waits for every in-flight I/O (their buffers belong to the engine). They are not
    // counted in the step: the run took its last sample when it said stop. I/O that
    // never completes stays published in inFlightSince, where the run finds and names it.
    void drain()
    {
        if (!m_engine)
            return;
        drainInFlight(nowNs() + m_ws.drainLimit.count());
        publishInFlight();
    }

    // Waits until `deadline` for the I/O in flight, uncounted; then closes the files of
    // finished tree operations (a file whose I/O never completed stays with the engine).
    void drainInFlight(std::int64_t deadline)
    {
        std::size_t inFlight = m_slots.size() - m_idle.size();
        while (inFlight > 0 && nowNs() < deadline) {
            auto got = m_engine->reap(m_completed, 1, 100ms);
            if (!got)
                break;
            for (std::uint32_t c = 0; c < *got; ++c) {
                auto &slot = m_slots[std::uint32_t(m_completed[c]->userData)];
                slot.inFlight = false;
                slot.publishDone();
                --m_targets[slot.target].inFlight;
                --inFlight;
                m_idle.push_back(std::uint32_t(m_completed[c]->userData));
            }
        }
        for (auto &slot : m_slots)
            if (slot.fileOpen && !slot.inFlight) {
                (void)m_engine->closeFile(slot.request.fileIndex);
                slot.fileOpen = false;
            }
        // What was planned is dropped: pre-initialisation hands the slots to the step.
        for (auto &slot : m_slots) {
            slot.hasStep = false;
            slot.reply.reset();
            slot.readyAtNs = 0;
        }
        for (auto &ts : m_targets) {
            ts.planned = 0;
            ts.gateNs = 0;
        }
    }

    WorkerStep &m_ws;
    IoBackend &m_backend;
    std::unique_ptr<IoEngine> m_engine;
    std::vector<TargetState> m_targets;
    std::vector<Slot> m_slots;
    std::vector<std::uint32_t> m_idle;
    std::vector<std::uint32_t> m_queued;
    std::vector<IoRequest *> m_completed;
    std::vector<DataPattern> m_patterns;
    std::vector<DataPatternFiller> m_fillers;
    std::vector<int> m_linePattern;
    bool m_timed = false;
    std::uint32_t m_buffersPerSlot = 2; // read and write buffers, or one (startEngine)
    bool m_anyLimiter = false;
    bool m_failed = false;
    std::vector<std::uint32_t> m_firstFile; // per target: its (first) engine file index
    bool m_connectionRate = false; // a target closes and reopens (Iometer's connection rate)
    bool m_preInit = false; // a tree target pre-initialises before the step
    bool m_recording = true; // false while pre-initialising: nothing counts
};

} // namespace

EngineConfig engineConfigFor(const AccessSpec &spec, std::uint32_t slotCount,
    std::uint32_t bufferBytes, std::uint32_t bufferAlignBytes)
{
    return {.queueDepth = slotCount,
        .bufferCount = slotCount * buffersPerSlot(spec),
        .bufferBytes = bufferBytes,
        .bufferAlignmentBytes = bufferAlignBytes};
}

std::uint32_t largestTransferBytes(const AccessSpec &spec)
{
    std::uint64_t largest = 512;
    for (const auto &l : spec.lines)
        largest = std::max({largest, l.transferSizeBytes, l.replySizeBytes});
    return std::uint32_t(largest);
}

void runWorkerStep(WorkerStep &step, IoBackend &backend) noexcept
{
    try {
        WorkerLoop(step, backend).run();
    } catch (const std::exception &e) {
        step.fail({{}, "worker", step.workerName, e.what()});
    } catch (...) {
        step.fail({{}, "worker", step.workerName, "unknown failure"});
    }
}

} // namespace ioprism::core
