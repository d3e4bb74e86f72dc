// SPDX-License-Identifier: GPL-3.0-or-later
// Reading and writing profile files by extension (.json, .icf), shared by the CLI
// commands. Problems are collected, never thrown.
#pragma once

#include "core/profile/problem.h"
#include "core/profile/profile.h"

#include <optional>
#include <string>

namespace ioprism::cli {

enum class ProfileFileFormat { Json, Icf };

// By extension (case-insensitive); nullopt for anything else.
std::optional<ProfileFileFormat> profileFileFormat(const std::string &path);

// Reads and parses a profile (JSON or .icf; an unknown extension is sniffed: '{' means
// JSON). Imported .icf targets that do not exist on this machine are kept and flagged
// (a warning each). No semantic validation: see core::validateProfile.
std::optional<core::Profile> loadProfileFile(const std::string &path, core::Problems &problems);

// Writes by extension. Export warnings (what .icf cannot carry) go to `problems`;
// returns false (with an error problem) when the file cannot be written.
bool saveProfileFile(
    const core::Profile &profile, const std::string &path, core::Problems &problems);

// Prints problems to stderr as "error: path: message" / "warning: ..." lines.
void printProblems(const core::Problems &problems, const std::string &source = {});

} // namespace ioprism::cli
