// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/profile_io.h"

#include "core/profile/icf.h"
#include "core/profile/input_file.h"
#include "core/profile/profile_file.h"
#include "core/profile/profile_json.h"
#include "platform/common/input_file_reader.h"
#include "platform/common/target_resolution.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace ioprism::cli {

std::optional<ProfileFileFormat> profileFileFormat(const std::string &path)
{
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(
        ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (ext == ".json")
        return ProfileFileFormat::Json;
    if (ext == ".icf")
        return ProfileFileFormat::Icf;
    return std::nullopt;
}

std::optional<core::Profile> loadProfileFile(const std::string &path, core::Problems &problems)
{
    return core::loadProfileFile(
        platform::readInputFile, path,
        [](const core::Target &t) { return platform::targetExists(t); }, problems,
        [](const core::IometerVolume &v) { return platform::iometerVolumeIsHere(v); });
}

bool saveProfileFile(
    const core::Profile &profile, const std::string &path, core::Problems &problems)
{
    const auto format = profileFileFormat(path).value_or(ProfileFileFormat::Json);
    const std::string text = format == ProfileFileFormat::Json ? core::writeProfileJson(profile)
                                                               : core::writeIcf(profile, problems);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
        std::error_code ec(errno, std::generic_category());
        problems.push_back(
            {core::Severity::Error, {}, "cannot write " + path + ": " + ec.message()});
        return false;
    }
    return true;
}

void printProblems(const core::Problems &problems, const std::string &source)
{
    for (const auto &p : problems) {
        std::cerr << (p.severity == core::Severity::Error ? "error: " : "warning: ");
        if (!source.empty())
            std::cerr << source << ": ";
        std::cerr << p.toString() << "\n";
    }
}

} // namespace ioprism::cli
