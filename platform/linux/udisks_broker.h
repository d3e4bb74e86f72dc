// SPDX-License-Identifier: GPL-3.0-or-later
// Raw devices this user may not open, opened by udisks2 (GNOME Disks' model): udisksd
// asks polkit (`org.freedesktop.udisks2.open-device`, or `-system` for a system disk),
// polkit's agent asks the user once, udisksd opens the device and passes the descriptor
// back over the system D-Bus; this process does all the I/O with it. No IOPrism process
// runs as root, and once the descriptor is open no expiring authorisation can end a run.
//
// The method is Block.OpenDevice(mode, {flags}), which opens exactly `mode` and `flags`.
// Not OpenForBenchmark: it adds O_SYNC to a writable open (every write synchronous, a
// different workload) and O_DIRECT always (a buffered run would not be buffered).
// Read in udisks 2.9.4's src/udiskslinuxblock.c (open_device, handle_open_device).
//
// Talks D-Bus through sd-bus (libsystemd), so the Qt-free CLI and the agent use it too.
#pragma once

#include "core/result.h"
#include "platform/linux/engine_support.h"

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

namespace ioprism::platform {

struct BrokerRequest {
    std::string deviceName; // kernel name: "loop3", "nvme0n1p2"
    bool write = false; // mode "rw", else "r"
    // Open flags besides the access mode (udisks refuses O_RDONLY/O_WRONLY/O_RDWR in them):
    // O_DIRECT, O_DSYNC, O_EXCL. O_CLOEXEC is added (udisksd opens with exactly these, and
    // its own descriptor must not leak into what it starts); the copy received is ours.
    int flags = 0;
    // Let polkit's agent ask the user (a desktop's password dialog; a terminal has no agent
    // unless one was started, e.g. pkttyagent); false: refuse at once where asking would
    // be needed.
    bool interactive = true;
    // How long the user may take to answer polkit's question.
    std::chrono::seconds timeout {300};
    // Polled while waiting: false gives up (ECANCELED), so Stop and Ctrl-C are not held
    // up by a question left open. Empty: wait for the answer or the timeout.
    std::function<bool()> stillWanted;
};

// Opens `request.deviceName` through udisks2. Errors (core::OpError, with what to do):
//   EACCES     polkit said no, or would have to ask and nobody can (no agent);
//   ECANCELED  the user dismissed polkit's question;
//   ENOENT     no system bus, or no udisks2 on it, or udisks2 does not know the device;
//   ETIMEDOUT  no answer within the timeout (ECANCELED too when stillWanted said no);
//   otherwise  what udisksd's own open(2) said (EBUSY: claimed since IOPrism's check).
core::Result<UniqueFd> openThroughUdisks(const BrokerRequest &request);

// Whether udisks2 answers on the system bus and knows the device, asking polkit nothing:
// "" when it could be asked, else why not (for core::TargetAccess). Bounded by a short
// timeout, so a hung bus cannot freeze the Targets page.
std::string udisksUnavailable(const std::string &deviceName);

// udisks2's object for a kernel block name: "/org/freedesktop/UDisks2/block_devices/"
// with every byte outside [A-Za-z0-9_] as _xx (udisks_safe_append_to_object_path).
std::string udisksBlockObjectPath(std::string_view deviceName);

// The flags of a descriptor as a reader of the results wants them: "O_RDWR|O_DIRECT|O_EXCL".
// `excl` because the kernel does not report O_EXCL back (fcntl F_GETFL drops it).
std::string openFlagsText(int flags, bool excl);

// The polkit rule that lets `user` open devices through udisks2 without asking, for
// docs/targets.md and the refusal's advice (the rule is also what the e2e test installs).
inline constexpr std::string_view kUdisksOpenAction = "org.freedesktop.udisks2.open-device";

} // namespace ioprism::platform
