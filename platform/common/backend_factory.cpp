#include "platform/common/backend_factory.h"

#include "core/null_engine.h"

#ifdef __linux__
#include "platform/linux/linux_backend.h"
#endif

namespace ioprism::platform {

std::string_view engineKindName(EngineKind kind)
{
    switch (kind) {
    case EngineKind::Auto:
        return "auto";
    case EngineKind::IoUring:
        return "io_uring";
    case EngineKind::Sync:
        return "sync";
    case EngineKind::Null:
        return "null";
    }
    return "auto";
}

std::optional<EngineKind> parseEngineKind(std::string_view name)
{
    if (name == "auto")
        return EngineKind::Auto;
    if (name == "io_uring" || name == "uring")
        return EngineKind::IoUring;
    if (name == "sync")
        return EngineKind::Sync;
    if (name == "null")
        return EngineKind::Null;
    return std::nullopt;
}

std::unique_ptr<core::IoBackend> makeBackend(const BackendOptions &options)
{
    if (options.kind == EngineKind::Null)
        return std::make_unique<core::NullBackend>();
#ifdef __linux__
    return std::make_unique<LinuxBackend>(options);
#else
    // The Windows backend plugs in here when it lands.
    return nullptr;
#endif
}

} // namespace ioprism::platform
