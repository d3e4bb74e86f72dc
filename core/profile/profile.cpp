// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/profile.h"

#include <algorithm>

namespace ioprism::core {

const AccessSpec *findSpec(const Profile &profile, const std::string &name)
{
    for (const auto &spec : profile.specs)
        if (spec.name == name)
            return &spec;
    return nullptr;
}

bool isIdleSpec(const Profile &profile, const std::string &name)
{
    return name == kIdleSpecName && findSpec(profile, name) == nullptr;
}

bool specWrites(const AccessSpec &spec)
{
    return std::any_of(spec.lines.begin(), spec.lines.end(), [](const SpecLine &l) {
        return l.percentRead < 100 || (l.replySizeBytes > 0 && l.percentRead > 0);
    });
}

std::string_view preconditionKindName(PreconditionKind kind)
{
    return kind == PreconditionKind::Workload ? "workload" : "sequential";
}

std::optional<PreconditionKind> parsePreconditionKind(std::string_view name)
{
    if (name == "sequential")
        return PreconditionKind::Sequential;
    if (name == "workload")
        return PreconditionKind::Workload;
    return std::nullopt;
}

} // namespace ioprism::core
