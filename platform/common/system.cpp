// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/common/system.h"

#ifdef __linux__
#include "platform/linux/cpu_counter_source.h"
#include "platform/linux/disk_counter_source.h"
#include "platform/linux/system_info.h"
#endif
#ifdef _WIN32
#include "platform/windows/pdh_counter_source.h"
#include "platform/windows/windows_system.h"
#endif

namespace ioprism::platform {

std::unique_ptr<core::CounterSource> makeCounterSource()
{
#ifdef __linux__
    return std::make_unique<LinuxDeviceCounterSource>(std::make_unique<LinuxCounterSource>());
#elif defined(_WIN32)
    return std::make_unique<PdhCounterSource>();
#else
    return std::make_unique<core::NullCounterSource>();
#endif
}

core::Environment describeSystem()
{
#ifdef __linux__
    core::Environment env = describeEnvironment();
#elif defined(_WIN32)
    core::Environment env = describeWindowsEnvironment();
#else
    core::Environment env;
#endif
    env.toolVersion = IOPRISM_VERSION;
    return env;
}

} // namespace ioprism::platform
