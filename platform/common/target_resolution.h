// SPDX-License-Identifier: GPL-3.0-or-later
// Where a target named in a profile lives on this machine.
#pragma once

#include "core/profile/profile.h"

#include <string>

namespace ioprism::platform {

// True when the target can be found here: a test file whose directory exists (the file
// itself is created by the run), or an existing device. Iometer's bare disk names
// ("sdb") are looked up under /dev on Linux; its Windows volume names (`C: "System"`,
// `\\server\share`) name nothing outside Windows.
bool targetExists(const core::Target &target);

// The kind a path on this machine is: a block device, a partition, or (anything else)
// a test file. Windows volume / physical-drive names are recognised on Windows.
core::TargetKind detectTargetKind(const std::string &path);

} // namespace ioprism::platform
