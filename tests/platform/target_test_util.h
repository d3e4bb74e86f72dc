// SPDX-License-Identifier: GPL-3.0-or-later
// Portable helpers for the held-target tests of both platforms (no OS headers): targets
// to prepare, and one write through a backend's engine, as a run's worker does it.
#pragma once

#include "core/engine.h"
#include "core/profile/profile.h"

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "engine_test_util.h" // runOps

namespace ioprism::test {

inline core::Target testFileTarget(const std::filesystem::path &path, std::uint64_t bytes)
{
    core::Target t;
    t.kind = core::TargetKind::TestFile;
    t.path = path.string();
    t.testFileSizeBytes = bytes;
    return t;
}

inline core::Target treeTarget(const std::filesystem::path &root, std::uint32_t depth,
    std::uint32_t filesPerLevel, std::uint64_t fileBytes)
{
    core::Target t;
    t.kind = core::TargetKind::FileTree;
    t.path = root.string();
    t.tree = {.depth = depth, .filesPerLevel = filesPerLevel, .fileSizeBytes = fileBytes};
    return t;
}

// Writes the first `bytes` of engine file `file` (0x5A) through an engine of `backend`,
// a tree file opened later in its slot as the worker does; the engine's error, or ""
// when the write completed.
inline std::string writeThroughEngine(
    core::IoBackend &backend, const core::EngineFile &file, std::uint32_t bytes = 64 * 1024)
{
    auto engine = backend.makeEngine();
    if (!engine)
        return engine.error().toString();
    core::EngineFile slot = file;
    const bool later = file.treeFileIndex.has_value();
    if (later) {
        slot.path.clear();
        slot.openLater = true;
    }
    const std::vector<core::EngineFile> files {slot};
    if (auto st = (*engine)->init({.queueDepth = 1, .bufferCount = 1, .bufferBytes = bytes}, files);
        !st)
        return st.error().toString();
    if (later)
        if (auto st = (*engine)->openFile(0, file); !st)
            return st.error().toString();
    bool ok = true;
    runOps(
        **engine,
        {{.file = 0, .offset = 0, .direction = core::IoDirection::Write, .length = bytes}}, 1,
        [](const TestOp &, std::span<std::byte> b) {
            std::fill(b.begin(), b.end(), std::byte {0x5a});
        },
        [&](const TestOp &, const core::IoRequest &r, std::span<std::byte>) {
            ok = r.error == 0 && r.resultBytes == bytes;
        });
    if (later)
        (void)(*engine)->closeFile(0);
    return ok ? std::string() : "the write failed";
}

} // namespace ioprism::test
