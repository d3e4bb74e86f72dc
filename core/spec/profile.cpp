#include "core/spec/profile.h"

namespace ioprism::core {

const AccessSpec *findSpec(const Profile &profile, const std::string &name)
{
    for (const auto &spec : profile.specs)
        if (spec.name == name)
            return &spec;
    return nullptr;
}

} // namespace ioprism::core
