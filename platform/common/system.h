// SPDX-License-Identifier: GPL-3.0-or-later
// The machine, portably: its OS counters, its description for result files, its
// disks and file systems, and removal of our test files. Each function is implemented
// per operating system (platform/linux, platform/windows).
#pragma once

#include "core/counters.h"
#include "core/profile/profile.h"
#include "core/report/environment.h"
#include "core/result.h"
#include "platform/common/device_types.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ioprism::platform {

// The OS counter source: CPU, and the block devices of the targets once the run calls
// CounterSource::watchTargets; an empty but valid source where the platform has none.
std::unique_ptr<core::CounterSource> makeCounterSource();

// Host, OS, kernel, CPU model and count, tool version.
core::Environment describeSystem();

// Model, size, rotational, scheduler... of the device that holds this target.
core::DeviceFacts describeDevice(const std::string &targetPath);

// Removes a test file only if IOPrism created it (it carries our mark). A folder holding
// a file tree IOPrism made (its marker) is removed as removeFileTree does, with the shape
// the marker records, so "remove test files" after a run covers tree targets as well.
core::Status removeTestFile(const std::string &path);

// Removes the file tree IOPrism made at `root` with this shape: its files, its level
// folders and its marker, then `root` once empty. Refused, untouched, without our marker
// or with another shape; anything else found in the tree is left and named in the error.
core::Status removeFileTree(const std::string &root, const core::FileTree &tree);

// This process's id, for what an agent says about itself.
std::uint64_t currentProcessId();
// Names the calling thread (core::IoBackend::nameCurrentThread). Linux: its comm, which
// the counter source reads back (15 characters at most). Windows: nothing, for now: the
// thread facts of the latency verdict are Linux's.
void nameCurrentThread(const char *name);
// True when users other than the file's owner may read it (a secret's file: the agent's
// token). Linux: the group or others read bit. Windows: false, not checked (its ACLs are
// not the POSIX bits std::filesystem reports, which say everyone may read).
bool fileReadableByOthers(const std::string &path);
// Block devices with partitions and mount points, and mounted file systems.
std::vector<BlockDeviceInfo> listBlockDevices();
std::vector<MountInfo> listMounts();

} // namespace ioprism::platform
