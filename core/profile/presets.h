// SPDX-License-Identifier: GPL-3.0-or-later
// Built-in presets: the JSON profiles in resources/presets, embedded as text at build
// time (cmake/embed_presets.cmake) and parsed at run time like any user profile.
#pragma once

#include "core/profile/problem.h"
#include "core/profile/profile.h"

#include <optional>
#include <string>
#include <vector>

namespace ioprism::core {

struct EmbeddedPreset {
    const char *name; // the file name without .json, e.g. "cdm-default"
    const char *json;
};

// All presets, sorted by name. Defined in the generated presets_data.cpp.
const std::vector<EmbeddedPreset> &embeddedPresets();

// The preset's JSON text, or nullptr when there is no preset of that name.
const char *presetJson(const std::string &name);

// Parses the named preset. Problems are reported as for any profile; an unknown name
// gives one problem that lists the known names.
std::optional<Profile> loadPreset(const std::string &name, Problems &problems);

} // namespace ioprism::core
