// SPDX-License-Identifier: GPL-3.0-or-later
// TEMPORARY (branch wip-gui): platform::targetAccess's Linux definition is being written
// in platform/linux/block_devices.cpp on main; until it lands, the GUI links against this
// one, which knows no broker: Direct, or Denied with accessProblem's text. Delete this
// file when merging with main.
#include "platform/common/target_resolution.h"

namespace ioprism::platform {

core::TargetAccess targetAccess(const std::string &path, bool write)
{
    std::string why = accessProblem(path, write);
    if (why.empty())
        return {};
    return {core::TargetAccess::Way::Denied, std::move(why)};
}

} // namespace ioprism::platform
