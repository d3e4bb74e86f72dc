// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/profile_file.h"

#include "core/profile/icf.h"
#include "core/profile/input_file.h"
#include "core/profile/profile_json.h"

namespace ioprism::core {

ProfileFormat sniffProfileFormat(std::string_view text)
{
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    const auto first = text.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && text[first] == '{' ? ProfileFormat::Json
                                                                 : ProfileFormat::Icf;
}

std::optional<Profile> loadProfileFile(const InputFileReader &read,
    const std::filesystem::path &path, const std::function<bool(const Target &)> &targetExists,
    Problems &problems, const std::function<bool(const IometerVolume &)> &volumeIsHere)
{
    if (!read) {
        problems.push_back(
            {Severity::Error, {}, "cannot read " + path.string() + ": no file reader"});
        return std::nullopt;
    }
    auto file = read(path, kMaxProfileFileBytes, "profiles");
    if (file.problem) {
        problems.push_back(*file.problem);
        return std::nullopt;
    }
    if (sniffProfileFormat(file.text) == ProfileFormat::Json)
        return parseProfileJson(file.text, problems);
    auto profile = parseIcf(file.text, problems);
    if (profile && targetExists) {
        // Iometer's volume names first (`/mnt/data [ext4]` is /mnt/data/iobw.tst when that
        // file system is mounted there); one left is a volume not here, never a file name.
        auto located = locateIometerTestFiles(*profile, volumeIsHere);
        problems.insert(problems.end(), located.begin(), located.end());
        auto flagged = markUnresolvedTargets(*profile, [&](const Target &t) {
            if (t.kind == TargetKind::TestFile && iometerVolume(t.path))
                return false;
            return targetExists(t);
        });
        problems.insert(problems.end(), flagged.begin(), flagged.end());
    }
    return profile;
}

} // namespace ioprism::core
