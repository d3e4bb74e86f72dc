// SPDX-License-Identifier: GPL-3.0-or-later
// A profile as one rank of a run on many hosts runs it (ioprism-mpi, docs/cluster.md):
// every rank is given the same profile, and each makes its own targets of it, so that
// ranks do not collide — by name ("/mnt/pfs/ioprism-%r.dat": a file per rank) or, in the
// shared-file mode, by place (one file, or one device, each rank in a slice of it).
#pragma once

#include "core/profile/profile.h"
#include "core/result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace ioprism::core {

// `path` with "%r" as `rank`, "%h" as `host` and "%%" as "%"; any other '%' is kept.
std::string expandRankPlaceholders(std::string_view path, int rank, const std::string &host);

// True when `path` names something per rank or per host ("%r", "%h").
bool hasRankPlaceholder(std::string_view path);

// Slices of a shared target are whole multiples of this, so that every transfer of every
// rank stays aligned as in a run of one host (a MiB is a multiple of every sector size).
inline constexpr std::uint64_t kRankSliceAlignBytes = kMiB;

struct RankPlace {
    int rank = 0;
    int ranks = 1;
    std::string host;
    // The rank's working folder: relative target paths are made absolute in it (as the
    // rank would open them); "": they are kept as they are.
    std::string folder;
    // Each rank in its own slice of each target (the target's region split in `ranks`
    // parts of whole MiB, in rank order; what is left over at the end is in no slice).
    bool shareTargets = false;
};

// The profile as rank `place.rank` runs it: every target's path expanded (and made
// absolute in place.folder); with
// shareTargets, each test file's or device's region the rank's slice. An error when a
// slice cannot be made: a device without an explicit region size (its size is known only
// on its host), or a region too small for a MiB per rank.
Result<Profile> profileForRank(Profile profile, const RankPlace &place);

} // namespace ioprism::core
