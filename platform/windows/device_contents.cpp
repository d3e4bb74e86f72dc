// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/windows/device_contents.h"

namespace ioprism::platform {

std::string deviceContentsOf(DeviceNumber)
{
    return {};
}

} // namespace ioprism::platform
