// SPDX-License-Identifier: GPL-3.0-or-later
// One worker's part of one step: its engine, its slots (one per outstanding I/O), its
// generators, and the hot loop. Runs on the worker's own thread.
#pragma once

#include "core/engine.h"
#include "core/profile/profile.h"
#include "core/run/latch.h"
#include "core/stats/live_counters.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ioprism::core {

struct WorkerTarget {
    EngineFile file;
    Region region; // resolved: sizeBytes > 0
    std::uint32_t sectorBytes = 512; // alignment 0 in a spec line means this
    std::uint32_t outstandingIos = 1; // for this step
    LiveTargetCounters *counters = nullptr; // owned by the run; read by the sampler
    // A file tree's files (empty for other targets). Each transaction on a tree is an
    // operation: pick a file (the spec line's distribution over the files), open it, do
    // the I/O at an offset within `region` of that file, close it. Every slot has its own
    // file index, so QD n means n operations in flight. counters->connections is set.
    // Shared by every worker and step on the tree (the run makes the list once); null for
    // other targets.
    std::shared_ptr<const std::vector<std::string>> treeFiles;
    bool isTree() const { return treeFiles != nullptr; }
    // Iometer's connection rate: the target is closed and opened again after this many
    // transactions, once its I/O in flight has completed (0 = never). counters->connections
    // is set.
    std::uint32_t transactionsPerConnection = 0;
    // Operations before the step is measured (a tree's pre-initialisation): done with the
    // step's spec before the worker says it is ready, in no figure. 0 = none.
    std::uint64_t preInitOperations = 0;
    // I/Os on this target before it is done (preconditioning's per-target amounts);
    // 0: the step's WorkerStep::ioLimitPerTarget.
    std::uint64_t ioLimit = 0;
};

struct WorkerStep {
    std::string workerName;
    const AccessSpec *spec = nullptr;
    DataPattern workerPattern;
    std::vector<std::uint32_t> cpuAffinity;
    std::vector<WorkerTarget> targets;
    std::uint32_t bufferBytes = 4096; // the largest transfer or reply of the spec
    std::uint32_t bufferAlignBytes = 4096;
    std::uint64_t seed = 0;
    std::uint64_t ioLimitPerTarget = 0; // 0 = until stopped
    std::uint32_t reapBatch = 1; // completions waited for at once (RunSettings::reapBatch)
    // Waits this long after the step starts before its first I/O (a series' staggered
    // workers); a stop during the wait ends the step for this worker at once.
    std::chrono::nanoseconds startDelay {0};
    // How long the worker waits for its in-flight I/O after the step (then it gives up
    // on it, leaving it published as stuck). The run's stop deadline is shorter and
    // decides first; this bounds a worker the run left behind.
    std::chrono::nanoseconds drainLimit {std::chrono::seconds(30)};

    // Control: set by the run before the thread starts.
    const std::atomic<bool> *stop = nullptr; // the step is over: stop issuing, drain
    Latch *ready = nullptr; // arrive after init (also on failure)
    Latch *start = nullptr; // wait for every worker to be ready
    // Pre-initialisation I/Os completed, by every worker of the step: the run reports
    // them as progress while it waits for the workers to be ready. Null: not counted.
    std::atomic<std::uint64_t> *preInitDone = nullptr;
    std::function<void(const OpError &)> fail; // first error stops the run
    std::function<void()> finished; // reached ioLimitPerTarget on every target
};

// What a worker's engine is given for a step: one slot per outstanding I/O, and a
// buffer per slot, or two when the spec both reads and writes (the write buffer keeps
// its prepared pattern across reads; one direction, one buffer: at 16 MiB x QD 32 that
// halves the memory a point allocates and pins).
EngineConfig engineConfigFor(const AccessSpec &spec, std::uint32_t slotCount,
    std::uint32_t bufferBytes, std::uint32_t bufferAlignBytes);

// The largest transfer or reply of a spec (at least 512 B): the size of its buffers.
std::uint32_t largestTransferBytes(const AccessSpec &spec);

// The worker thread's body for one step. Never throws.
void runWorkerStep(WorkerStep &step, IoBackend &backend) noexcept;

} // namespace ioprism::core
