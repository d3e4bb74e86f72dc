// SPDX-License-Identifier: GPL-3.0-or-later
// Portable helpers for engine tests on every platform (Linux and Windows alike): scratch
// files, block patterns that identify their file and offset, and a driver that keeps a
// given number of requests in flight on an engine. No OS headers: the engine
// conformance suite and both platforms' engine tests share them.
#pragma once

#include "core/engine.h"
#include "core/workload/rng.h"
#include "support/test_support.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <iterator>
#include <numeric>
#include <span>
#include <system_error>
#include <vector>

namespace ioprism::test {

using namespace std::chrono_literals;

// A file of `bytes` bytes with a simple byte pattern (never sparse).
inline void writeFile(const std::filesystem::path &path, std::uint64_t bytes, std::uint8_t seed = 1)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    std::vector<char> chunk(1 << 16);
    for (std::size_t i = 0; i < chunk.size(); ++i)
        chunk[i] = static_cast<char>((i * 31 + seed) & 0xff);
    for (std::uint64_t done = 0; done < bytes;) {
        const auto n
            = static_cast<std::streamsize>(std::min<std::uint64_t>(chunk.size(), bytes - done));
        out.write(chunk.data(), n);
        done += static_cast<std::uint64_t>(n);
    }
}

inline std::vector<char> readAll(const std::filesystem::path &path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// IoRequest::error as a std::error_code: errno on Linux, a Win32 code on Windows, both
// through system_category, whose default_error_condition maps them to std::errc. Tests
// compare that condition (EXPECT_EQ(systemError(r.error), std::errc::invalid_argument))
// so one expectation holds on every platform.
inline std::error_code systemError(int code)
{
    return {code, std::system_category()};
}

// The 8-byte word at `index` of the block at (file, offset): every block differs, so a
// read that lands on the wrong file or offset is caught.
inline std::uint64_t patternWord(std::uint32_t file, std::uint64_t offset, std::size_t index)
{
    return core::mix64(
        (std::uint64_t(file) << 48) ^ offset ^ (std::uint64_t(index) * core::kSplitMix64Gamma));
}

inline void fillPattern(std::span<std::byte> buf, std::uint32_t file, std::uint64_t offset)
{
    for (std::size_t i = 0; i + 8 <= buf.size(); i += 8) {
        const std::uint64_t w = patternWord(file, offset, i / 8);
        std::memcpy(buf.data() + i, &w, 8);
    }
}

inline bool matchesPattern(std::span<const std::byte> buf, std::uint32_t file, std::uint64_t offset)
{
    for (std::size_t i = 0; i + 8 <= buf.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, buf.data() + i, 8);
        if (w != patternWord(file, offset, i / 8))
            return false;
    }
    return true;
}

struct TestOp {
    std::uint32_t file = 0;
    std::uint64_t offset = 0;
    core::IoDirection direction = core::IoDirection::Read;
    std::uint32_t length = 4096;
};

struct RunStats {
    std::uint32_t maxInFlight = 0;
    std::vector<int> timesCompleted; // per op: must end at exactly 1
};

// Runs `ops` keeping up to `depth` in flight: queue as many as fit, commit, reap at least
// one. `before` fills a write buffer; `after` checks each completion. Fails the test (and
// returns false) when the engine stalls for 10 s, refuses a slot it has, or completes an
// op twice.
inline bool runOps(core::IoEngine &engine, const std::vector<TestOp> &ops, std::uint32_t depth,
    const std::function<void(const TestOp &, std::span<std::byte>)> &before,
    const std::function<void(const TestOp &, const core::IoRequest &, std::span<std::byte>)> &after,
    RunStats *stats = nullptr)
{
    std::vector<core::IoRequest> slots(depth);
    std::vector<std::uint32_t> freeSlots(depth);
    std::iota(freeSlots.rbegin(), freeSlots.rend(), 0u);
    std::vector<core::IoRequest *> completed(depth);
    std::vector<int> times(ops.size(), 0);
    std::size_t next = 0;
    std::uint32_t inFlight = 0, maxInFlight = 0;
    while (next < ops.size() || inFlight > 0) {
        while (next < ops.size() && !freeSlots.empty()) {
            const std::uint32_t s = freeSlots.back();
            core::IoRequest &r = slots[s];
            const TestOp &op = ops[next];
            r = {};
            r.direction = op.direction;
            r.fileIndex = op.file;
            r.bufferIndex = s;
            r.lengthBytes = op.length;
            r.offsetBytes = op.offset;
            r.userData = next;
            if (before)
                before(op, engine.buffer(s).first(op.length));
            if (!engine.queue(&r)) {
                ADD_FAILURE() << "queue() refused slot " << s << " with " << inFlight
                              << " in flight";
                return false;
            }
            freeSlots.pop_back();
            ++next;
            ++inFlight;
        }
        maxInFlight = std::max(maxInFlight, inFlight);
        if (auto st = engine.commit(); !st) {
            ADD_FAILURE() << st.error().toString();
            return false;
        }
        auto got = engine.reap(completed, 1, 10s);
        if (!got) {
            ADD_FAILURE() << got.error().toString();
            return false;
        }
        if (*got == 0) {
            ADD_FAILURE() << "no completion within 10 s with " << inFlight << " in flight";
            return false;
        }
        for (std::uint32_t i = 0; i < *got; ++i) {
            core::IoRequest *r = completed[i];
            const TestOp &op = ops[r->userData];
            if (++times[r->userData] != 1) {
                ADD_FAILURE() << "op " << r->userData << " completed twice";
                return false;
            }
            if (after)
                after(op, *r, engine.buffer(r->bufferIndex).first(op.length));
            freeSlots.push_back(r->bufferIndex);
            --inFlight;
        }
    }
    if (stats) {
        stats->maxInFlight = maxInFlight;
        stats->timesCompleted = std::move(times);
    }
    return true;
}

} // namespace ioprism::test
