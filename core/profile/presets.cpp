// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/presets.h"

#include "core/profile/profile_json.h"

namespace ioprism::core {

const char *presetJson(const std::string &name)
{
    for (const auto &p : embeddedPresets())
        if (name == p.name)
            return p.json;
    return nullptr;
}

std::optional<Profile> loadPreset(const std::string &name, Problems &problems)
{
    const char *json = presetJson(name);
    if (!json) {
        std::string known;
        for (const auto &p : embeddedPresets())
            known += (known.empty() ? "" : ", ") + std::string(p.name);
        problems.push_back({Severity::Error, "preset",
            "\"" + name + "\" is not a preset; known presets: " + known});
        return std::nullopt;
    }
    Problems parseProblems;
    auto profile = parseProfileJson(json, parseProblems);
    for (auto &p : parseProblems) {
        p.path = "preset " + name + (p.path.empty() ? "" : ": " + p.path);
        problems.push_back(p);
    }
    return profile;
}

} // namespace ioprism::core
