// SPDX-License-Identifier: GPL-3.0-or-later
// Loading a profile from a file, the one way the CLI and the GUI both do it.
//
// The format is told by the content, not the file name: a JSON profile starts with '{'
// (after white space or a UTF-8 byte-order mark); anything else is read as an Iometer
// .icf, whose parser says clearly when it is not one. So a profile saved as ".txt", or
// an .icf renamed, opens the same everywhere. The file is read through the bounded
// reader (input_file.h): directories, devices and huge files are refused unread.
#pragma once

#include "core/profile/icf.h"
#include "core/profile/input_file.h"
#include "core/profile/problem.h"
#include "core/profile/profile.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string_view>

namespace ioprism::core {

enum class ProfileFormat { Json, Icf };

ProfileFormat sniffProfileFormat(std::string_view text);

// The profile in `path`, or nullopt with the reasons in `problems` (warnings may come
// with a profile). For an imported .icf: test-file targets named by an Iometer volume
// that `volumeIsHere` finds get Iometer's test file there (icf.h,
// locateIometerTestFiles); then targets that `targetExists` does not find on this machine
// are flagged unresolved (markUnresolvedTargets), and so is every volume name that was
// not located: it is never taken for a file name. Pass null to skip either step.
std::optional<Profile> loadProfileFile(const InputFileReader &read,
    const std::filesystem::path &path, const std::function<bool(const Target &)> &targetExists,
    Problems &problems, const std::function<bool(const IometerVolume &)> &volumeIsHere = {});

} // namespace ioprism::core
