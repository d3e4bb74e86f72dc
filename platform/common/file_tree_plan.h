// SPDX-License-Identifier: GPL-3.0-or-later
// What both backends' test-file and file-tree preparation share, without an OS call:
// where filling starts, and the plan of a tree's preparation (found by each backend with
// its own calls, carried out by its own fill).
#pragma once

#include "core/profile/profile.h"
#include "core/profile/units.h"
#include "core/workload/file_tree.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ioprism::platform {

// Test files and trees are filled in chunks of this size.
inline constexpr std::uint32_t kFillChunkBytes = 1u << 20;

// Where filling a file starts: a new file from 0; our own, smaller file from the chunk
// boundary below its end, so the direct writes that extend it stay aligned.
inline std::uint64_t fillStartBytes(bool exists, std::uint64_t currentBytes)
{
    return exists ? currentBytes / kFillChunkBytes * kFillChunkBytes : 0;
}

// What filling one file writes and what new space it takes. A file of ours whose mark
// still says "filling" (a run was killed mid-fill: its space reserved, its bytes never
// written) is written again from 0, to at least the size it has; a short, complete one
// is extended from fillStartBytes; a new one is written whole.
struct FillRange {
    std::uint64_t fromBytes = 0;
    std::uint64_t toBytes = 0;
    std::uint64_t newBytes = 0; // beyond what the file already takes
};
inline FillRange fillRange(
    bool exists, bool halfFilled, std::uint64_t currentBytes, std::uint64_t wantedBytes)
{
    if (exists && halfFilled) {
        const std::uint64_t to = std::max(currentBytes, wantedBytes);
        return {.fromBytes = 0, .toBytes = to, .newBytes = to - currentBytes};
    }
    const std::uint64_t from = fillStartBytes(exists, currentBytes);
    return {.fromBytes = from, .toBytes = wantedBytes, .newBytes = wantedBytes - from};
}

// "3 levels of 4 files of 4 MiB", for messages.
inline std::string describeFileTree(const core::FileTree &t)
{
    return std::to_string(t.depth) + (t.depth == 1 ? " level" : " levels") + " of "
        + std::to_string(t.filesPerLevel) + (t.filesPerLevel == 1 ? " file" : " files") + " of "
        + core::describeSize(t.fileSizeBytes);
}

// Why a folder with a readable marker is still not a tree of IOPrism's: it or the marker
// lacks the mark (`mark` names it: the xattr or the stream), for refusals.
inline std::string unmarkedTreeWhy(const std::string &mark, const std::string &markless)
{
    return "the folder has an " + std::string(core::kFileTreeMarkerName)
        + " marker, but it or the marker lacks IOPrism's mark (" + mark
        + "): the marker was copied there, the tree was made by an IOPrism that did not mark "
          "trees yet, or "
        + markless + " by an earlier run";
}

// Why a folder whose marker does not parse is refused.
inline std::string damagedMarkerWhy()
{
    return "its " + std::string(core::kFileTreeMarkerName)
        + " marker is damaged (it does not hold the shape IOPrism writes), so IOPrism cannot "
          "tell what the tree holds";
}

// A file of the tree that has to be created, or extended to the tree's file size.
struct TreeFileWork {
    std::size_t index = 0; // into TreePlan::files
    bool exists = false;
    bool halfFilled = false; // ours, but its fill never finished: written again from 0
    std::uint64_t currentBytes = 0;
    FillRange range(std::uint64_t fileSizeBytes) const
    {
        return fillRange(exists, halfFilled, currentBytes, fileSizeBytes);
    }
};

// What preparing a tree would do, found without changing anything.
struct TreePlan {
    bool rootExists = false;
    std::vector<std::string> folders; // every level, the top first
    std::vector<std::string> files; // every file, level by level
    std::vector<std::size_t> missingFolders; // indices into folders, top first
    std::vector<TreeFileWork> work;
    std::uint64_t writeBytes = 0; // what the fill writes (progress)
    std::optional<std::size_t> completeFile; // a file that is there in full
    bool needsWork() const { return !missingFolders.empty() || !work.empty(); }
    // Space the work takes from the file system: each file rounded up to its blocks
    // (clusters on Windows), each folder to be made, and the marker of a new tree (one
    // block): a tree that fits only by its files' bytes runs out of space midway.
    std::uint64_t needBytes(std::uint64_t fileSizeBytes, std::uint64_t blockBytes) const
    {
        const std::uint64_t block = std::max<std::uint64_t>(blockBytes, 1);
        // Checked throughout (core/profile/checked_size.h): a product of sizes from a
        // profile that wraps would make the space check pass for a tree of exabytes.
        const auto blocksFor
            = [block](std::uint64_t bytes) { return bytes / block + (bytes % block != 0); };
        // A folder takes at least a block, more when its entries do not fit in one: each
        // of its files, the next level and the marker, at most kFolderEntryBytes each
        // (ext4 takes 20 for "file-0001", and an index block once it spans several).
        constexpr std::uint64_t kFolderEntryBytes = 32;
        const std::uint64_t entries = (folders.empty() ? 0 : files.size() / folders.size()) + 2;
        const std::uint64_t folderBlocks = std::max<std::uint64_t>(
            1, blocksFor(core::saturatingMul(entries, kFolderEntryBytes)));
        std::uint64_t need = core::saturatingMul(
            core::saturatingAdd(
                core::saturatingMul(missingFolders.size(), folderBlocks), rootExists ? 0 : 1),
            block);
        for (const auto &w : work)
            need = core::saturatingAdd(
                need, core::saturatingMul(blocksFor(w.range(fileSizeBytes).newBytes), block));
        return need;
    }
};

} // namespace ioprism::platform
