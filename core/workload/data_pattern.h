// SPDX-License-Identifier: GPL-3.0-or-later
// The bytes a write carries. Devices that compress or deduplicate (most enterprise SSDs,
// ZFS, VDO, arrays) report very different numbers for zeros, repeated data and truly
// random data, so the pattern is part of the workload.
#pragma once

#include "core/profile/profile.h"
#include "core/workload/rng.h"

#include <cstddef>
#include <cstdint>
#include <span>

namespace ioprism::core {

// Fills write buffers for one DataPattern. prepare() runs once per buffer, before the
// run (it may touch every byte); beforeWrite() runs before every write and is cheap.
//
//  RepeatingBytes  every byte is pattern.repeatingByte (Iometer pattern 0).
//  Zeros           every byte is 0.
//  PseudoRandom    random bytes, the same for every buffer and every write: compresses
//                  to nothing, deduplicates perfectly (Iometer pattern 1, one buffer
//                  reused). Every buffer prepared by one filler gets the same content.
//  FullRandom      incompressible and never deduplicable (Iometer pattern 2). Buffers
//                  are filled with random bytes once; then, before each write, a 16-byte
//                  tag is stamped at the start of every 512-byte block: 8 bytes from a
//                  per-filler block counter and 8 from the block's offset, both passed
//                  through a bijective mix, so no two 512-byte blocks written by one
//                  filler are ever identical (the counter part differs), and tags look
//                  random to a compressor. Cost per write: 16/512 = 3.1 % of the buffer
//                  is rewritten instead of 100 % (fio's refill_buffers).
//  Compressible    about N % (compressiblePercent, clamped to 0..100) of each 4 KiB chunk
//                  is random, the rest zeros: a compressor keeps the random part and
//                  collapses the zeros, so the data compresses to about N % of its size.
//                  Before each write a 16-byte tag is stamped at the start of each 4 KiB
//                  chunk (inside its random part; skipped when that part is under 16
//                  bytes), so chunks do not deduplicate either; cost 16/4096 per write.
//
// Random content comes from the seed: the same seed fills the same bytes. Not
// thread-safe: one filler per worker.
class DataPatternFiller
{
public:
    static constexpr std::size_t kTagBytes = 16;
    static constexpr std::size_t kDedupBlockBytes = 512; // FullRandom tag stride
    static constexpr std::size_t kCompressChunkBytes = 4096; // Compressible chunk size

    DataPatternFiller(const DataPattern &pattern, std::uint64_t seed) noexcept;

    // Once per buffer, before the run.
    void prepare(std::span<std::byte> buffer) noexcept;

    // Before every write of `buffer` (the bytes actually written) at offsetBytes on the
    // target. No-op for the patterns whose content never changes.
    void beforeWrite(std::span<std::byte> buffer, std::uint64_t offsetBytes) noexcept;

    // False when beforeWrite() does nothing, so the worker can skip the call.
    bool changesPerWrite() const noexcept
    {
        return m_pattern.kind == DataPatternKind::FullRandom
            || (m_pattern.kind == DataPatternKind::Compressible
                && randomBytesIn(kCompressChunkBytes) >= kTagBytes);
    }

    const DataPattern &pattern() const noexcept { return m_pattern; }

    // Random bytes at the start of a Compressible chunk of chunkBytes bytes.
    std::size_t randomBytesIn(std::size_t chunkBytes) const noexcept;

private:
    void stampTags(
        std::span<std::byte> buffer, std::uint64_t offsetBytes, std::size_t strideBytes) noexcept;

    DataPattern m_pattern;
    std::uint64_t m_seed;
    Rng m_rng; // FullRandom / Compressible content across buffers
    std::uint64_t m_blockCounter = 0; // tags: one value per stamped block, ever
    std::uint64_t m_tagKey;
};

} // namespace ioprism::core
