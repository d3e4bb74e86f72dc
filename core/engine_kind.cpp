// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine_kind.h"

namespace ioprism::core {

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
    case EngineKind::Iocp:
        return "iocp";
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
    if (name == "iocp")
        return EngineKind::Iocp;
    return std::nullopt;
}

} // namespace ioprism::core
