// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/engine.h"

namespace ioprism::core {

Status IoEngine::openFile(std::uint32_t /*fileIndex*/, const EngineFile &file)
{
    return OpError {std::make_error_code(std::errc::operation_not_supported), "open", file.path,
        "the " + std::string(name()) + " engine cannot open files while it runs"};
}

Status IoEngine::closeFile(std::uint32_t /*fileIndex*/)
{
    return OpError {std::make_error_code(std::errc::operation_not_supported), "close", {},
        "the " + std::string(name()) + " engine cannot close files while it runs"};
}

} // namespace ioprism::core
