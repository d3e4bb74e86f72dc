// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/agent/target_roots.h"

#include <algorithm>
#include <filesystem>

namespace ioprism::core {

namespace {

namespace fs = std::filesystem;

bool hasDotDot(const fs::path &path)
{
    return std::any_of(path.begin(), path.end(), [](const fs::path &c) { return c == ".."; });
}

// Lexically normal, without the empty last component a trailing separator leaves.
fs::path normal(const fs::path &path)
{
    fs::path n = path.lexically_normal();
    if (!n.empty() && !n.has_filename() && n != n.root_path())
        n = n.parent_path();
    return n;
}

// `path` is `root` or below it, component by component.
bool isInside(const fs::path &path, const fs::path &root)
{
    auto p = path.begin();
    for (auto r = root.begin(); r != root.end(); ++r, ++p) {
        if (r->empty())
            continue; // the trailing "" of a root that ends in a separator
        if (p == path.end() || *p != *r)
            return false;
    }
    return true;
}

std::string rootList(const std::vector<std::string> &roots)
{
    if (roots.empty())
        return "none (start the agent with --allow DIR)";
    std::string list;
    for (const auto &r : roots)
        list += (list.empty() ? "" : ", ") + r;
    return list;
}

bool insideAny(
    const fs::path &path, const std::vector<std::string> &roots, const RealPath &realPath)
{
    for (const auto &root : roots) {
        const fs::path r(root);
        if (root.empty() || !r.is_absolute() || hasDotDot(r))
            continue; // a root that means nothing allows nothing
        fs::path resolved = normal(r);
        if (realPath)
            if (auto real = realPath(root))
                resolved = normal(fs::path(*real));
        if (isInside(path, resolved))
            return true;
    }
    return false;
}

} // namespace

std::string checkTargetAllowed(
    const std::string &target, const std::vector<std::string> &roots, const RealPath &realPath)
{
    const fs::path path(target);
    const std::string allowed = "; the agent allows targets under: " + rootList(roots);
    if (target.empty())
        return "a target without a path" + allowed;
    if (!path.is_absolute())
        return "target " + target + " is not an absolute path" + allowed;
    if (hasDotDot(path))
        return "target " + target + " contains \"..\"" + allowed;
    if (!insideAny(normal(path), roots, nullptr))
        return "target " + target + " is outside the agent's allowed roots" + allowed;
    if (realPath) {
        if (auto real = realPath(target)) {
            const fs::path resolved(*real);
            if (!resolved.is_absolute() || hasDotDot(resolved)
                || !insideAny(normal(resolved), roots, realPath))
                return "target " + target + " resolves to " + *real
                    + ", outside the agent's allowed roots" + allowed;
        }
    }
    return {};
}

std::string checkProfileTargets(
    const Profile &profile, const std::vector<std::string> &roots, const RealPath &realPath)
{
    for (const auto &host : profile.hosts)
        for (const auto &worker : host.workers)
            for (const auto &target : worker.targets)
                if (auto why = checkTargetAllowed(target.path, roots, realPath); !why.empty())
                    return why;
    return {};
}

} // namespace ioprism::core
