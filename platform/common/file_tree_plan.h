// SPDX-License-Identifier: GPL-3.0-or-later
// What both backends' test-file and file-tree preparation share, without an OS call:
// where filling starts, and the plan of a tree's preparation (found by each backend with
// its own calls, carried out by its own fill).
#pragma once

#include "core/profile/profile.h"
#include "core/profile/units.h"

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

// "3 levels of 4 files of 4 MiB", for messages.
inline std::string describeFileTree(const core::FileTree &t)
{
    return std::to_string(t.depth) + (t.depth == 1 ? " level" : " levels") + " of "
        + std::to_string(t.filesPerLevel) + (t.filesPerLevel == 1 ? " file" : " files") + " of "
        + core::describeSize(t.fileSizeBytes);
}

// A file of the tree that has to be created, or extended to the tree's file size.
struct TreeFileWork {
    std::size_t index = 0; // into TreePlan::files
    bool exists = false;
    std::uint64_t currentBytes = 0;
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
    // (clusters on Windows).
    std::uint64_t needBytes(std::uint64_t fileSizeBytes, std::uint64_t blockBytes) const
    {
        const std::uint64_t block = std::max<std::uint64_t>(blockBytes, 1);
        std::uint64_t need = 0;
        for (const auto &w : work) {
            const std::uint64_t bytes = fileSizeBytes - fillStartBytes(w.exists, w.currentBytes);
            need += (bytes + block - 1) / block * block;
        }
        return need;
    }
};

} // namespace ioprism::platform
