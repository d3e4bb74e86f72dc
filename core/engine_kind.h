// SPDX-License-Identifier: GPL-3.0-or-later
// The I/O engines a run can ask for, declared once for every layer: the platform layer
// makes them (platform/common/backend_factory.h), the CLI parses them, and the GUI offers
// them without depending on platform/ (ui links core only).
#pragma once

#include <optional>
#include <string_view>

namespace ioprism::core {

// The GUI stores these numbers in its settings ("run/engine"): never renumber, only add.
enum class EngineKind {
    Auto = 0, // the best engine that works here: io_uring, else sync (Linux); IOCP (Windows)
    IoUring = 1, // io_uring only: an error when the kernel or a sandbox refuses it
    Sync = 2, // pread/pwrite on a pool of threads, one per outstanding I/O
    Null = 3, // completes every request at once: tests and overhead measurements
    Iocp = 4, // overlapped I/O on a completion port (Windows)
};

// io_uring's polling modes, for peak figures on devices whose queues poll (NVMe with
// poll queues), as fio's hipri and sqthread_poll. Polled completions (IORING_SETUP_IOPOLL):
// the worker spins on the device's completion queue instead of sleeping until its
// interrupt. A submission thread (IORING_SETUP_SQPOLL): a kernel thread per worker takes
// the worker's requests from the ring without a system call. Both trade CPU (a core each,
// while busy) for latency. Only io_uring has them: a run that asks another engine for
// them is refused before any target is touched (IoBackend::setPolling).
struct EnginePolling {
    bool completions = false;
    bool submissions = false;
    bool any() const { return completions || submissions; }
    friend bool operator==(const EnginePolling &, const EnginePolling &) = default;
};

// "auto", "io_uring", "sync", "null", "iocp".
std::string_view engineKindName(EngineKind kind);
// Inverse of engineKindName (also accepts "uring"); nullopt for anything else.
std::optional<EngineKind> parseEngineKind(std::string_view name);

} // namespace ioprism::core
