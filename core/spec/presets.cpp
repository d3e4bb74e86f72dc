#include "core/spec/presets.h"

#include <cstring>

namespace ioprism::core {

const char *presetJson(const std::string &name)
{
    for (const auto &p : embeddedPresets())
        if (name == p.name)
            return p.json;
    return nullptr;
}

} // namespace ioprism::core
