// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/run/worker.h"

#include "core/workload/data_pattern.h"
#include "core/workload/io_generator.h"
#include "core/workload/rate_limiter.h"

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
    std::uint64_t x = seed ^ (salt * 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
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
    std::uint64_t issued = 0; // for ioLimitPerTarget
    std::uint32_t outstanding = 0;
    bool retired = false; // issued the I/O limit: no new I/O
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
        m_ws.ready->count_down();
        if (!ready)
            return;
        m_ws.start->wait();
        if (waitStartDelay())
            loop();
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

    void fail(const OpError &e)
    {
        if (!m_failed) {
            m_failed = true;
            m_ws.fail(e);
        }
    }

    bool setUp()
    {
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
        std::vector<EngineFile> files;
        for (const auto &t : m_ws.targets)
            files.push_back(t.file);
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

    // One I/O generator per target, and a rate limiter per spec line on each.
    bool makeGenerators()
    {
        const AccessSpec &spec = *m_ws.spec;
        try {
            for (std::size_t t = 0; t < m_ws.targets.size(); ++t) {
                auto &ts = m_targets.emplace_back();
                ts.generator.emplace(spec, m_ws.targets[t].region, m_ws.targets[t].sectorBytes,
                    mixSeed(m_ws.seed, t + 1));
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
                m_slots[s].request.fileIndex = t;
                m_slots[s].request.userData = s;
            }
        m_idle.reserve(slotCount);
        for (std::uint32_t i = slotCount; i-- > 0;)
            m_idle.push_back(i);
        m_completed.resize(slotCount);
        m_queued.resize(slotCount);
    }

    // Plans and queues every idle slot that may go now; returns how many were queued.
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
            if (!slot.hasStep) {
                slot.step = ts.generator->next();
                slot.hasStep = true;
                if (!slot.step.io.endsTransaction)
                    slot.reply = ts.generator->next();
                if (slot.step.waitBefore.count() > 0)
                    ts.gateNs = std::max(ts.gateNs, now + slot.step.waitBefore.count());
            }
            const PlannedIo &io = slot.step.io;
            if (m_timed) {
                if (ts.gateNs > now) {
                    slot.readyAtNs = ts.gateNs;
                    nextReadyNs = std::min(nextReadyNs, ts.gateNs);
                    ++k;
                    continue;
                }
                if (m_anyLimiter) {
                    auto &limiter = ts.limiters[io.lineIndex];
                    const auto at
                        = limiter.earliestStart(std::chrono::nanoseconds(now), io.sizeBytes)
                              .count();
                    if (at > now) {
                        slot.readyAtNs = at;
                        nextReadyNs = std::min(nextReadyNs, at);
                        ++k;
                        continue;
                    }
                    limiter.consume(std::chrono::nanoseconds(now), io.sizeBytes);
                }
            }
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
                m_fillers[std::size_t(pattern)].beforeWrite(
                    buffer.first(io.sizeBytes), io.offsetBytes);
            }
            if (!m_engine->queue(&r))
                break; // cannot happen: the ring holds every slot; retry next round
            slot.inFlight = true;
            slot.hasStep = false;
            ++ts.outstanding;
            if (m_ws.ioLimitPerTarget > 0 && ++ts.issued >= m_ws.ioLimitPerTarget)
                ts.retired = true;
            m_queued[queued++] = i;
            m_idle[k] = m_idle.back();
            m_idle.pop_back();
        }
        return queued;
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
        --ts.outstanding;
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
        } else {
            dir.histogram.record(latency);
            dir.bytes.add(std::uint64_t(r->resultBytes));
            if (slot.step.io.endsTransaction)
                live.transactions.add(1);
        }
        if (slot.reply) {
            slot.step = *slot.reply;
            slot.reply.reset();
            slot.hasStep = true;
        }
        if (slot.step.thinkTimeAfter.count() > 0)
            slot.readyAtNs = reapNs + slot.step.thinkTimeAfter.count();
        m_idle.push_back(i);
    }

    void publishOutstanding()
    {
        for (std::size_t t = 0; t < m_targets.size(); ++t)
            m_ws.targets[t].counters->outstanding.store(
                m_targets[t].outstanding, std::memory_order_relaxed);
    }

    void loop()
    {
        bool reportedFinished = false;
        while (!m_ws.stop->load(std::memory_order_relaxed) && !m_failed) {
            std::int64_t now = nowNs();
            std::int64_t nextReady = INT64_MAX;
            const std::uint32_t queued = issue(now, nextReady);
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
            publishOutstanding();
            const std::size_t inFlight = m_slots.size() - m_idle.size();
            if (inFlight == 0) {
                if (allRetired()) {
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
            auto got = m_engine->reap(m_completed, 1, std::chrono::nanoseconds(timeout));
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
        const auto deadline = nowNs() + m_ws.drainLimit.count();
        std::size_t inFlight = m_slots.size() - m_idle.size();
        while (inFlight > 0 && nowNs() < deadline) {
            auto got = m_engine->reap(m_completed, 1, 100ms);
            if (!got)
                break;
            for (std::uint32_t c = 0; c < *got; ++c) {
                auto &slot = m_slots[std::uint32_t(m_completed[c]->userData)];
                slot.inFlight = false;
                slot.publishDone();
                --m_targets[slot.target].outstanding;
                --inFlight;
            }
        }
        publishOutstanding();
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
