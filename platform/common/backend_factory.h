// SPDX-License-Identifier: GPL-3.0-or-later
// Makes the I/O backend for this operating system.
//
// Portable on purpose (no OS headers): the CLI and the GUI choose an engine kind and
// get a core::IoBackend; which backends exist is decided here, per platform.
#pragma once

#include "core/engine.h"
#include "core/engine_kind.h"
#include "core/run/run_session.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ioprism::platform {

// The kinds are declared in core (core/engine_kind.h) so that the GUI, which links core
// only, offers the same ones; they are named here too for the platform's callers.
using core::EngineKind;
using core::engineKindName;
using core::parseEngineKind;

struct BackendOptions {
    EngineKind kind = EngineKind::Auto;
    // Test hook: behave as if io_uring_queue_init returned EPERM (seccomp, or the
    // kernel.io_uring_disabled sysctl), to exercise the fallback without a sandbox.
    bool simulateUringUnavailable = false;
    // Test hook: skip the free-space check before a test file is written, so the
    // ENOSPC-while-writing path can be exercised on a small file system.
    bool skipFreeSpaceCheck = false;
    // Test hook (Linux): whether the request queue of the whole disk `disk` (e.g.
    // "nvme0n1") polls, in place of reading /sys/block/DISK/queue/io_poll. No device of
    // a test machine polls: this lets a test take the path polled completions take on
    // one that does (the kernel then refuses the I/O itself).
    std::function<bool(const std::string &disk)> queuePolls;
    // Test hook: called with a target's path after the backend's checks and before it
    // takes hold of what it checked, so that a test can swap the path in that window.
    std::function<void(const std::string &path)> beforeHold;
};

// Never null for Null; for the other kinds null only where the platform has no backend
// (neither Linux nor Windows). An explicit kind this machine cannot run (IoUring in a
// sandbox that blocks it) still gives a backend, whose prepareTarget and makeEngine
// return the error, so the caller reports it like any other refusal.
std::unique_ptr<core::IoBackend> makeBackend(const BackendOptions &options);

// The kinds makeBackend makes an engine of on this platform, in the order a user is
// offered them: Auto first (where it exists), Null last. Linux: Auto (io_uring, else
// sync), IoUring, Sync, Null. Windows: Auto (IOCP), Iocp, Null. Elsewhere: Null only.
// A kind left out gets a backend that refuses (see makeBackend); a kind listed may still
// fail on this machine (IoUring in a sandbox that blocks it).
std::vector<EngineKind> availableEngines();

// What a run in this process needs from this machine (core::LocalRunSession): its
// backends, its counters, its descriptions and the removal of IOPrism's test files.
core::LocalRunHooks localRunHooks();

} // namespace ioprism::platform
