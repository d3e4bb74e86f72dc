// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/workload/file_tree.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace ioprism::core {

namespace {

char separatorOf(const std::string &root)
{
    return root.find('\\') != std::string::npos && root.find('/') == std::string::npos ? '\\' : '/';
}

std::string joined(const std::string &folder, char sep, const std::string &name)
{
    if (!folder.empty() && (folder.back() == '/' || folder.back() == '\\'))
        return folder + name;
    return folder + sep + name;
}

std::string fileName(std::uint64_t index, std::size_t digits)
{
    std::string number = std::to_string(index);
    if (number.size() < digits)
        number.insert(0, digits - number.size(), '0');
    return "file-" + number;
}

} // namespace

std::vector<std::string> fileTreeFolders(const std::string &root, const FileTree &tree)
{
    std::vector<std::string> folders;
    const char sep = separatorOf(root);
    std::string folder = root;
    for (std::uint32_t level = 1; level <= tree.depth; ++level) {
        if (level > 1)
            folder = joined(folder, sep, "level-" + std::to_string(level));
        folders.push_back(folder);
    }
    return folders;
}

std::vector<std::string> fileTreeFiles(const std::string &root, const FileTree &tree)
{
    std::vector<std::string> files;
    files.reserve(std::size_t(tree.fileCount()));
    const char sep = separatorOf(root);
    const std::size_t digits = std::max<std::size_t>(4, std::to_string(tree.filesPerLevel).size());
    for (const auto &folder : fileTreeFolders(root, tree))
        for (std::uint32_t f = 1; f <= tree.filesPerLevel; ++f)
            files.push_back(joined(folder, sep, fileName(f, digits)));
    return files;
}

std::string fileTreeMarkerPath(const std::string &root)
{
    return joined(root, separatorOf(root), std::string(kFileTreeMarkerName));
}

std::string fileTreeMarkerText(const FileTree &tree)
{
    nlohmann::ordered_json j;
    j["ioprismFileTree"] = 1;
    j["depth"] = tree.depth;
    j["filesPerLevel"] = tree.filesPerLevel;
    j["fileSizeBytes"] = tree.fileSizeBytes;
    return j.dump() + "\n";
}

std::optional<FileTree> parseFileTreeMarker(std::string_view text)
{
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object() || !j.contains("ioprismFileTree"))
        return std::nullopt;
    FileTree tree;
    const auto read = [&](const char *key, auto &out) {
        const auto it = j.find(key);
        if (it == j.end() || !it->is_number_unsigned())
            return false;
        out = it->template get<std::remove_reference_t<decltype(out)>>();
        return true;
    };
    if (!read("depth", tree.depth) || !read("filesPerLevel", tree.filesPerLevel)
        || !read("fileSizeBytes", tree.fileSizeBytes))
        return std::nullopt;
    return tree;
}

bool sameFileTreeShape(const FileTree &a, const FileTree &b)
{
    return a.depth == b.depth && a.filesPerLevel == b.filesPerLevel
        && a.fileSizeBytes == b.fileSizeBytes;
}

} // namespace ioprism::core
