// SPDX-License-Identifier: GPL-3.0-or-later
// What is on a block device (platform/linux/device_contents.h): Windows has no udev
// database to read it from, and its volumes and physical drives are named by what the
// window lists already, so nothing more is said here.
#pragma once

#include "platform/common/device_types.h"

#include <string>

namespace ioprism::platform {

// Always "" on Windows.
std::string deviceContentsOf(DeviceNumber device);

} // namespace ioprism::platform
