// SPDX-License-Identifier: GPL-3.0-or-later
// An agent's allow list: the roots under which a controller may point its targets (the
// agent's `--allow`), checked for every target of every run request before anything is
// opened. The platform backend's own safety rules (mounted or aliased devices, raw writes
// only with the request's confirmation, test files only where asked) apply after this,
// as for a local run: the allow list narrows them, it never replaces them.
#pragma once

#include "core/profile/profile.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ioprism::core {

// Resolves a path's symbolic links as the platform sees them (the target's directory and
// the roots); nullopt when it cannot (a path that does not exist yet: then the check is
// lexical, and the backend opens files without following links).
using RealPath = std::function<std::optional<std::string>(const std::string &path)>;

// "" when `target` is inside one of `roots` (or is one); else why not, naming the target
// and the roots. A target must be absolute and free of `..`; both are compared after
// lexical normalisation (`a//b/./c` is `a/b/c`), component by component (`/data2` is not
// inside `/data`). With `realPath`, the resolved target must also be inside a resolved
// root, so that a link inside a root cannot lead out of it.
std::string checkTargetAllowed(
    const std::string &target, const std::vector<std::string> &roots, const RealPath &realPath);

// The first target of `profile` (every host, worker and target) that is not allowed, with
// why; "" when all are.
std::string checkProfileTargets(
    const Profile &profile, const std::vector<std::string> &roots, const RealPath &realPath);

} // namespace ioprism::core
