// SPDX-License-Identifier: GPL-3.0-or-later
// The JSON profile format (docs/profile-format.md): reading with every problem reported
// in one pass, and writing that round-trips exactly.
//
// Reading checks syntax, types, units, enum names and unknown fields, each problem
// naming its field path (`specs[0].lines[1].percentReed: unknown field`). It does not
// check whether values make sense together: that is validateProfile (validation.h).
// No function here throws.
#pragma once

#include "core/json/json_reader.h"
#include "core/profile/problem.h"
#include "core/profile/profile.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace ioprism::core {

inline constexpr std::string_view kProfileFormatName = "ioprism-profile";

// Parses a profile. Appends every problem found to `problems` (syntax errors give
// "line L:C" from the start of the text; lines and columns count from 1, columns in
// characters). Returns nullopt when any problem is an Error.
std::optional<Profile> parseProfileJson(std::string_view text, Problems &problems);

// As parseProfileJson, for a document already parsed (e.g. a profile embedded in a
// results file). Duplicate keys cannot be detected here: the parser already dropped them.
std::optional<Profile> profileFromJson(const nlohmann::json &document, Problems &problems);

// The profile as JSON. Sizes are written with formatSize (plain byte counts as numbers),
// durations with formatDuration. Strings that are not valid UTF-8 are written with
// U+FFFD replacements (JSON cannot hold them), so only those do not round-trip.
nlohmann::json profileToJson(const Profile &profile);

// The same document with fields in the documented order (nlohmann::json sorts keys).
nlohmann::ordered_json profileToOrderedJson(const Profile &profile);

// The profile file text: documented field order, 2-space indent, trailing newline.
// parseProfileJson(writeProfileJson(p)) == p for every profile whose durations are not
// negative and whose doubles are finite (neither can be written in a profile).
std::string writeProfileJson(const Profile &profile);

// Parts of a profile that another document holds in the profile format (a results file's
// plan, core/run/resolved_plan_json.h): written as in a profile, and read with the
// problems going to the reader's context (its policy: every problem, or the first).
nlohmann::ordered_json accessSpecToOrderedJson(const AccessSpec &spec);
nlohmann::ordered_json targetToOrderedJson(const Target &target);
void readAccessSpecJson(JsonObjectReader &o, AccessSpec &spec);
void readTargetJson(JsonObjectReader &o, Target &target);

} // namespace ioprism::core
