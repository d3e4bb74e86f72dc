// SPDX-License-Identifier: GPL-3.0-or-later
// The definitions for systems without elevation (Linux): see elevation.h for why each
// answer is "no". Windows defines these in platform/windows/elevation.cpp.
#include "platform/common/elevation.h"

#ifndef _WIN32

#include <system_error>

namespace ioprism::platform {

bool processIsElevated()
{
    return false;
}

bool needsElevationFor(const core::Target &)
{
    return false;
}

core::Status restartElevated(const std::vector<std::string> &)
{
    return core::OpError {std::make_error_code(std::errc::operation_not_supported),
        "restart as administrator", {},
        "not offered on this system: raw devices are opened through udisks2, which asks for "
        "permission (polkit)"};
}

} // namespace ioprism::platform

#endif
