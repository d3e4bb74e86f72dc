// SPDX-License-Identifier: GPL-3.0-or-later
// The machine and the devices under the targets, as Linux shows them, for result files.
//
// The parsers are pure (text in, value out) so they are tested on recorded text; the
// live functions read /etc/os-release, /proc/cpuinfo, uname and /sys/block, and never
// fail: what cannot be read stays empty.
#pragma once

#include "core/report/environment.h"

#include <optional>
#include <string>
#include <string_view>

namespace ioprism::platform {

// ---------------------------------------------------------------- pure parsers

// PRETTY_NAME of an os-release file, unquoted ("Debian GNU/Linux 12 (bookworm)"); when
// it is missing, NAME and VERSION joined by a space; "" when neither is there.
std::string parseOsRelease(std::string_view text);

// The CPU model of /proc/cpuinfo: "model name" (x86), else "Model", "Hardware",
// "cpu model" or "cpu" (ARM, MIPS, POWER); "" when none is there.
std::string parseCpuModel(std::string_view text);

// The number of "processor" entries of /proc/cpuinfo (0 when there is none).
std::uint32_t parseCpuInfoProcessorCount(std::string_view text);

// A sysfs attribute: trailing newline and surrounding blanks removed ("  ST4000 \n").
std::string parseSysfsText(std::string_view text);

// A sysfs number ("1953525168\n"); nullopt when it is not one.
std::optional<std::uint64_t> parseSysfsNumber(std::string_view text);

// ---------------------------------------------------------------- live system

// Host name, OS, kernel release, CPU model and online CPU count. The tool version,
// engine, notices, devices and command line are the caller's to fill.
core::Environment describeEnvironment();

// The device that holds `targetPath` (a file, or a block device given directly): its
// kernel name and size, then model, rotational, scheduler, sector sizes, nr_requests
// and write cache of its whole disk (a partition's parent). The device is the one
// blockDeviceCarrying names (block_devices.h), as for the counters and the io_poll
// check: a file on btrfs is followed to its mount's source device, a test file not
// made yet to its directory's. Unknown fields stay empty; `path` is always set.
core::DeviceFacts describeDevice(const std::string &targetPath);

} // namespace ioprism::platform
