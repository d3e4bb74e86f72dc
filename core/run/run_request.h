// SPDX-License-Identifier: GPL-3.0-or-later
// What a run is asked to do, as a value that can cross a process boundary (an agent on
// another host, an MPI rank): the profile, the engine, the limits and the wishes about
// what is kept. Nothing here refers to this process: the hooks that describe this system
// and make its engines are the run session's (core/run/run_session.h).
#pragma once

#include "core/engine_kind.h"
#include "core/profile/profile.h"
#include "core/stats/verdict.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

namespace ioprism::core {

// How a run runs, beyond its profile: every field a plain value.
struct RunSettings {
    std::uint64_t runId = 1;
    bool allowDeviceWrites = false;
    // Stop each step after this many completed I/Os per worker and target (0 = no
    // limit). For tests with exact counts and for overhead measurements.
    std::uint64_t ioLimitPerTarget = 0;
    // Stonewalling (IOR's word): each step ends once this host has read and written this
    // many bytes while measuring (0 = no amount), and on a run of several hosts or MPI
    // ranks, every host's step ends as soon as the first host has (StepBarrier::stonewall):
    // each keeps the bytes it really moved. The step's run time still bounds it.
    std::uint64_t stonewallBytes = 0;
    // io_uring's polling modes (core/engine_kind.h): none by default.
    EnginePolling polling;
    // How many completions a worker waits for before it takes them (fio's
    // iodepth_batch_complete_min; at most what it has in flight). 1, the default, takes
    // each I/O as soon as it completes, so the device always has the queue depth asked
    // for; more saves the wake-ups of a CPU-bound host (a RAM disk, a fast NVMe on few
    // cores) while each I/O's latency still runs until the worker sees it complete.
    std::uint32_t reapBatch = 1;
    // Application vs device comparison: tolerance and noise floor (core/stats/verdict.h).
    VerdictPolicy verdict;
    // Longest time the devices are sampled after the last step for pending write-back
    // (0 = no tail).
    std::chrono::milliseconds deviceTailLimit {5000};
    // An I/O in flight longer than this is reported as stalled in every sample (0 = no
    // reports; its age still counts in the maximum latency).
    std::chrono::milliseconds stallThreshold {5000};
    // After a step ends or Stop, how long to wait for the workers to finish their
    // in-flight I/O before giving up on it: the results are then reported with the
    // stuck I/O named (RunResult::stuckIo) and the workers are left to finish alone.
    std::chrono::milliseconds stopTimeout {15000};
    // Memory for the intervals RunResult keeps (the sink sees every one as it is made):
    // past it, older intervals are merged pairwise (core/run/interval_history.h).
    std::size_t intervalHistoryBytes = 64u << 20;

    friend bool operator==(const RunSettings &, const RunSettings &) = default;
};

struct RunRequest {
    Profile profile;
    EngineKind engine = EngineKind::Auto;
    RunSettings settings;
    // Remove the test files the run used once it has ended (never a device, never a file
    // without IOPrism's mark): what was removed, and what could not be, is in
    // RunResult::testFileRemoval.
    bool removeTestFiles = false;
    // The command that asked for the run, written into the results' environment ("" from
    // the GUI).
    std::string commandLine;

    friend bool operator==(const RunRequest &, const RunRequest &) = default;
};

} // namespace ioprism::core
