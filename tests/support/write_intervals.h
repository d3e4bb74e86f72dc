// SPDX-License-Identifier: GPL-3.0-or-later
// A step's write made of intervals, for the tests of the write against the bytes written
// (core's SVG, the GUI's plot): a fast cache that fills, then the slow media.
#pragma once

#include "core/run/results.h"

#include <cstddef>
#include <vector>

namespace ioprism::test {

// Step `step`'s measured intervals of one second: `fast` of 400 MB written at 400 MB/s
// (mean latency 100 µs, p99 300 µs), then `slow` of 100 MB at 100 MB/s (400 µs, 2 ms).
inline std::vector<core::IntervalSample> cacheWriteIntervals(
    std::size_t fast, std::size_t slow, std::size_t step)
{
    std::vector<core::IntervalSample> out;
    for (std::size_t i = 0; i < fast + slow; ++i) {
        core::IntervalSample s;
        s.step = step;
        s.phase = core::RunPhase::Measuring;
        s.startSeconds = double(i);
        s.endSeconds = double(i + 1);
        auto &w = s.scopes.emplace_back().figures.write;
        const bool before = i < fast;
        w.bytes = before ? 400'000'000 : 100'000'000;
        w.ios = w.bytes / 131072;
        w.megabytesPerSecond = double(w.bytes) / 1e6;
        w.latency.meanUs = before ? 100 : 400;
        w.latency.p99Us = before ? 300 : 2000;
        out.push_back(s);
    }
    return out;
}

} // namespace ioprism::test
