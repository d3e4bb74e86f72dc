#include "platform/common/system.h"

#ifdef __linux__
#include "platform/linux/cpu_counter_source.h"
#include "platform/linux/system_info.h"
#endif

namespace ioprism::platform {

std::unique_ptr<core::CounterSource> makeCounterSource()
{
#ifdef __linux__
    return std::make_unique<LinuxCounterSource>();
#else
    return std::make_unique<core::NullCounterSource>();
#endif
}

core::Environment describeSystem()
{
#ifdef __linux__
    core::Environment env = describeEnvironment();
#else
    core::Environment env;
#endif
    env.toolVersion = IOPRISM_VERSION;
    return env;
}

} // namespace ioprism::platform
