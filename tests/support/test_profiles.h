// SPDX-License-Identifier: GPL-3.0-or-later
// Pieces of profiles for core's run tests.
#pragma once

#include "core/profile/profile.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>

namespace ioprism::test {

// A spec of one line: `size` bytes aligned on their size, `read` % reads, `random` %
// random.
inline core::AccessSpec makeSpec(
    std::string name, std::uint64_t size, std::uint32_t read, std::uint32_t random)
{
    core::AccessSpec s;
    s.name = std::move(name);
    core::SpecLine l;
    l.transferSizeBytes = size;
    l.alignmentBytes = size;
    l.percentRead = read;
    l.percentRandom = random;
    s.lines.push_back(l);
    return s;
}

// A run of two specs (two steps: 4 KiB 70 % read, 64 KiB reads) by two workers of two
// 16 MiB test files each, at QD 4 (every kind of scope, both directions' histograms, a
// plan of several workers); `specs` 1 keeps the first spec only. Seeds are firstSeed and
// firstSeed + 1.
inline core::Profile twoWorkerProfile(std::string description, std::chrono::milliseconds interval,
    std::uint64_t firstSeed, int specs = 2)
{
    core::Profile p;
    p.setup.description = std::move(description);
    p.setup.runTime = std::chrono::seconds(0);
    p.setup.interval = interval;
    p.specs.push_back(makeSpec("4K mix", 4096, 70, 50));
    p.specs.push_back(makeSpec("64K read", 65536, 100, 0));
    p.specs.resize(std::size_t(specs));
    core::Host h;
    for (int wi = 0; wi < 2; ++wi) {
        core::Worker w;
        w.name = "Worker " + std::to_string(wi + 1);
        w.outstandingIos = 4;
        for (const auto &spec : p.specs)
            w.assignedSpecs.push_back(spec.name);
        w.seed = firstSeed + std::uint64_t(wi);
        for (int t = 0; t < 2; ++t) {
            core::Target target;
            target.path = "w" + std::to_string(wi) + "-t" + std::to_string(t);
            target.testFileSizeBytes = 16 * core::kMiB;
            w.targets.push_back(target);
        }
        h.workers.push_back(w);
    }
    p.hosts.push_back(h);
    return p;
}

} // namespace ioprism::test
