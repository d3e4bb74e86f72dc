// Makes the I/O backend for this operating system.
//
// Portable on purpose (no OS headers): the CLI and the GUI choose an engine kind and
// get a core::IoBackend; which backends exist is decided here, per platform.
#pragma once

#include "core/engine.h"

#include <memory>
#include <optional>
#include <string_view>

namespace ioprism::platform {

enum class EngineKind {
    Auto, // the best engine that works here: io_uring, else sync (Linux); IOCP (Windows)
    IoUring, // io_uring only: an error when the kernel or a sandbox refuses it
    Sync, // pread/pwrite on a pool of threads, one per outstanding I/O
    Null, // completes every request at once: tests and overhead measurements
    Iocp, // overlapped I/O on a completion port (Windows)
};

struct BackendOptions {
    EngineKind kind = EngineKind::Auto;
    // Test hook: behave as if io_uring_queue_init returned EPERM (seccomp, or the
    // kernel.io_uring_disabled sysctl), to exercise the fallback without a sandbox.
    bool simulateUringUnavailable = false;
    // Test hook: skip the free-space check before a test file is written, so the
    // ENOSPC-while-writing path can be exercised on a small file system.
    bool skipFreeSpaceCheck = false;
};

// "auto", "io_uring", "sync", "null", "iocp".
std::string_view engineKindName(EngineKind kind);
// Inverse of engineKindName (also accepts "uring"); nullopt for anything else.
std::optional<EngineKind> parseEngineKind(std::string_view name);

// Never null for Null; for the other kinds null only where the platform has no backend
// (neither Linux nor Windows). An explicit kind this machine cannot run (IoUring in a
// sandbox that blocks it) still gives a backend, whose prepareTarget and makeEngine
// return the error, so the caller reports it like any other refusal.
std::unique_ptr<core::IoBackend> makeBackend(const BackendOptions &options);

} // namespace ioprism::platform
