// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/rank_targets.h"

#include <filesystem>
#include <fmt/format.h>

namespace ioprism::core {

std::string expandRankPlaceholders(std::string_view path, int rank, const std::string &host)
{
    std::string out;
    out.reserve(path.size() + 8);
    for (std::size_t i = 0; i < path.size(); ++i) {
        if (path[i] != '%' || i + 1 == path.size()) {
            out += path[i];
            continue;
        }
        switch (path[i + 1]) {
        case 'r':
            out += std::to_string(rank);
            ++i;
            break;
        case 'h':
            out += host;
            ++i;
            break;
        case '%':
            out += '%';
            ++i;
            break;
        default:
            out += '%';
        }
    }
    return out;
}

bool hasRankPlaceholder(std::string_view path)
{
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        if (path[i] != '%')
            continue;
        if (path[i + 1] == 'r' || path[i + 1] == 'h')
            return true;
        if (path[i + 1] == '%')
            ++i; // "%%r" is a percent sign and an r
    }
    return false;
}

namespace {

// The rank's slice of `target`'s region, or why there is none.
Result<Region> sliceOf(const Target &target, const RankPlace &place)
{
    std::uint64_t size = target.region.sizeBytes;
    if (size == 0) {
        if (target.kind != TargetKind::TestFile)
            return OpError {{}, "share a target between ranks", target.path,
                "its size is known only on each host: give the region's size (the "
                "profile's target region, or --size) so that it can be split"};
        if (target.region.offsetBytes >= target.testFileSizeBytes)
            return OpError {{}, "share a target between ranks", target.path,
                "its region starts after the end of the test file"};
        size = target.testFileSizeBytes - target.region.offsetBytes;
    }
    const auto ranks = static_cast<std::uint64_t>(place.ranks);
    const std::uint64_t slice = size / ranks / kRankSliceAlignBytes * kRankSliceAlignBytes;
    if (slice == 0)
        return OpError {{}, "share a target between ranks", target.path,
            fmt::format("its region of {} bytes has less than a MiB for each of {} ranks", size,
                place.ranks)};
    return Region {
        target.region.offsetBytes + slice * static_cast<std::uint64_t>(place.rank), slice};
}

} // namespace

Result<Profile> profileForRank(Profile profile, const RankPlace &place)
{
    for (auto &host : profile.hosts) {
        for (auto &worker : host.workers) {
            for (auto &target : worker.targets) {
                target.path = expandRankPlaceholders(target.path, place.rank, place.host);
                if (!place.folder.empty() && std::filesystem::path(target.path).is_relative())
                    target.path = (std::filesystem::path(place.folder) / target.path)
                                      .lexically_normal()
                                      .string();
                if (!place.shareTargets || target.kind == TargetKind::FileTree)
                    continue;
                auto slice = sliceOf(target, place);
                if (!slice)
                    return slice.error();
                target.region = *slice;
            }
        }
    }
    return profile;
}

} // namespace ioprism::core
