// SPDX-License-Identifier: GPL-3.0-or-later
// What the next I/O is: the access specification turned into a deterministic sequence
// of reads and writes, with Iometer's semantics (docs/workload.md has the user's view).
//
// One IoGenerator per worker per target: it owns the sequential position ("sequential
// continues from the end of the previous I/O" is per worker and target in Iometer) and
// its own random stream, so the sequence depends only on the spec, the region, the
// sector size and the seed, never on completion order or timing.
#pragma once

#include "core/io_direction.h"
#include "core/profile/profile.h"
#include "core/workload/distribution.h"
#include "core/workload/rng.h"

#include <chrono>
#include <cstdint>
#include <vector>

namespace ioprism::core {

// IoDirection comes from core/io_direction.h (shared with the engine contract).

struct PlannedIo {
    IoDirection direction = IoDirection::Read;
    std::uint64_t offsetBytes = 0; // absolute offset on the target
    std::uint32_t sizeBytes = 0;
    std::uint16_t lineIndex = 0; // index into AccessSpec::lines
    // The reply of the previous request: opposite direction, replySizeBytes bytes, at the
    // request's offset.
    bool isReply = false;
    // True on the I/O that completes a transaction: a request without reply, or the
    // reply. A request followed by a reply has it false.
    bool endsTransaction = true;
    friend bool operator==(const PlannedIo &, const PlannedIo &) = default;
};

// One planned I/O and the waits the worker applies around it.
struct IoStep {
    PlannedIo io;
    // Wait this long before issuing io: the line's burst delay on the first I/O of each
    // burst (including the very first burst, as Iometer does), 0 otherwise. Iometer holds
    // back every new I/O of the worker during the delay while still reaping completions.
    std::chrono::nanoseconds waitBefore {0};
    // After io completes, wait this long before issuing the next I/O on the same slot
    // (the line's think time; fio's thinktime).
    std::chrono::nanoseconds thinkTimeAfter {0};
    friend bool operator==(const IoStep &, const IoStep &) = default;
};

// Semantics (Iometer's, with fio's distributions as extensions):
//  - A line is drawn by share weight (sharePercent, normalised by the sum of shares;
//    lines with share 0 never run) at the start of each burst; the burst runs
//    burstLength transactions of that line (Iometer counts transactions, so with a reply
//    a burst is 2 x burstLength I/Os; burstLength 0 counts as 1).
//  - Per transaction, read or write is drawn with percentRead; per request, random or
//    sequential with percentRandom.
//  - Random: a slot drawn from the line's OffsetDistribution over the region's aligned
//    slots: alignment = the line's alignmentBytes (0 = sectorSizeBytes), slot count =
//    (regionSize - transferSize) / alignment + 1, offset = region start + slot x
//    alignment. The region start is the alignment origin; callers pass a sector-aligned
//    start, as Iometer's starting sector always is.
//  - Sequential: starts where the previous I/O of this generator ended (any line, any
//    direction), rounded up to the line's alignment (Iometer aligns sequential starts
//    too), and wraps to the region start when the I/O would not fit before the end.
//  - Reply (replySizeBytes > 0): right after each request, the next step is its reply:
//    opposite direction, replySizeBytes bytes, at the request's offset (moved back to the
//    last aligned position where it fits, if the reply is larger than the room left).
//    The pair is one transaction; the next sequential I/O starts after the furthest byte
//    of the pair. Worker contract: when a step's io.endsTransaction is false, call next()
//    again at once to get the reply, and issue it on the same slot after the request
//    completes (Iometer issues the reply on the request's transaction slot).
//  - next() never allocates and is deterministic: same inputs and seed, same sequence.
class IoGenerator
{
public:
    // region: the usable region resolved by the caller (size > 0). Throws
    // std::invalid_argument, before any I/O, when the inputs cannot make a sequence: no
    // line, all shares 0, region size or sector size 0, a transfer or reply size of 0
    // (transfer) or larger than the region or than 4 GiB - 1.
    IoGenerator(
        const AccessSpec &spec, Region region, std::uint64_t sectorSizeBytes, std::uint64_t seed);

    IoStep next() noexcept;

    const Region &region() const noexcept { return m_region; }
    std::size_t lineCount() const noexcept { return m_lines.size(); }
    // Number of aligned random slots of line i (for tests and the docs' examples).
    std::uint64_t slotCount(std::size_t line) const noexcept { return m_lines[line].slotCount; }
    // Alignment used by line i in bytes (the sector size when the line says 0).
    std::uint64_t alignmentBytes(std::size_t line) const noexcept
    {
        return m_lines[line].alignmentBytes;
    }

private:
    struct Line {
        std::uint32_t transferSizeBytes;
        std::uint32_t replySizeBytes;
        std::uint64_t alignmentBytes;
        std::uint64_t slotCount;
        std::uint64_t cumulativeShare; // upper bound of the line's share draw
        std::uint32_t percentRead;
        std::uint32_t percentRandom;
        std::uint32_t burstLength; // >= 1
        std::chrono::nanoseconds delay;
        std::chrono::nanoseconds thinkTime;
        OffsetDistribution distribution;
    };

    std::uint16_t drawLine() noexcept;
    std::uint64_t sequentialOffset(const Line &line, std::uint32_t sizeBytes) const noexcept;

    Region m_region;
    std::vector<Line> m_lines;
    std::uint64_t m_totalShare = 0;
    Rng m_rng;
    // Position state.
    std::uint64_t m_nextSequentialBytes; // absolute; where sequential I/O continues
    std::uint16_t m_line = 0;
    std::uint32_t m_transactionsLeftInBurst = 0;
    bool m_replyPending = false;
    PlannedIo m_pendingReply;
};

} // namespace ioprism::core
