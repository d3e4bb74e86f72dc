// SPDX-License-Identifier: GPL-3.0-or-later
// Where a file tree's folders and files are, and the marker that says IOPrism made it.
// Pure string work (no OS calls), shared by the platforms that create trees, the worker
// that opens their files and the reports that describe them.
//
// Layout: level 1 is the target's folder itself; level k + 1 is the folder `level-<k+1>`
// inside level k. Each level holds files `file-0001`, `file-0002`, ... (at least four
// digits, more when a level has more files). The marker `.ioprism-tree` in the top folder
// records the shape; a folder without it was not made by IOPrism and is never written to.
// Paths use the separator the tree's own path uses ('\' for a Windows path without '/').
#pragma once

#include "core/profile/profile.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ioprism::core {

inline constexpr std::string_view kFileTreeMarkerName = ".ioprism-tree";

// The folders of every level, the top (the tree's path) first.
std::vector<std::string> fileTreeFolders(const std::string &root, const FileTree &tree);
// Every file, level by level (level 1's files first), fileCount() of them.
std::vector<std::string> fileTreeFiles(const std::string &root, const FileTree &tree);
std::string fileTreeMarkerPath(const std::string &root);

// The marker's content: one line of JSON with the shape (depth, files per level, file
// size); pre-initialisation is not part of the shape.
std::string fileTreeMarkerText(const FileTree &tree);
// The shape a marker records, or nullopt when the text is not one of our markers.
std::optional<FileTree> parseFileTreeMarker(std::string_view text);
// Same depth, files per level and file size.
bool sameFileTreeShape(const FileTree &a, const FileTree &b);

// The most files a tree may have (validation refuses more): a million 4 KiB files is
// already a 4 GiB tree and minutes of preparation.
inline constexpr std::uint64_t kMaxFileTreeFiles = 1'000'000;
// The most bytes a tree may hold in all (depth x files per level x file size): 1 PiB,
// more than any file system IOPrism is pointed at, so a size that is a typo (or a
// product that would not fit in 64 bits) is refused by validation, not tried.
inline constexpr std::uint64_t kMaxFileTreeBytes = std::uint64_t(1) << 50;

} // namespace ioprism::core
