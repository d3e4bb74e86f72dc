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

// "auto", "io_uring", "sync", "null", "iocp".
std::string_view engineKindName(EngineKind kind);
// Inverse of engineKindName (also accepts "uring"); nullopt for anything else.
std::optional<EngineKind> parseEngineKind(std::string_view name);

} // namespace ioprism::core
