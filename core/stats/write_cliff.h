// SPDX-License-Identifier: GPL-3.0-or-later
// The write cliff: where a sustained write's throughput falls and stays down, against the
// bytes written (SNIA's write saturation test; GNOME Disks' view). An SSD writes into
// its fast cache (SLC, or DRAM) at one rate until the cache is full, then at the rate of
// its media; the bytes written before the fall estimate the cache.
//
// How it is found, on the intervals of one write (each: the bytes written by its end, and
// its rate):
//
//   1. the rates are smoothed by a running median of `smoothPoints` intervals, which
//      keeps a step where it is and drops a lone stall (garbage collection, a flush);
//   2. the one change point of the smoothed rates: the split into a before and an after
//      whose squared deviations from their own means add up least (least squares, each
//      side at least `minimumPoints` intervals);
//   3. it is a cliff when the after's median rate is at least `minimumDrop` below the
//      before's; it stays down: at least `stayDownShare` of the smoothed after lies below
//      the midpoint of the two rates; and it is a fall, not a slide: at most
//      `transitionShare` of all intervals lie in the middle half between the two rates.
//      A dip that recovers, or a rate that declines steadily, is not a cliff.
//
// The cliff's bytes are those written by the end of the last interval before it, so they
// are known to within one interval's bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace ioprism::core {

struct WriteRatePoint {
    std::uint64_t bytesWritten = 0; // since the write began, by the end of this interval
    double rate = 0; // this interval's bytes per second (any unit, the same for all)
};

struct WriteCliffCriteria {
    std::size_t smoothPoints = 5; // odd; 1 smooths nothing
    std::size_t minimumPoints = 5; // intervals each side of the cliff, at least
    double minimumDrop = 0.30; // the after's rate at most 70 % of the before's
    double stayDownShare = 0.90;
    double transitionShare = 0.10;
    friend bool operator==(const WriteCliffCriteria &, const WriteCliffCriteria &) = default;
};

struct WriteCliff {
    std::size_t firstSlowPoint = 0; // the index of the first interval after the cliff
    std::uint64_t bytesBefore = 0; // written before it: the cache estimate
    double rateBefore = 0; // medians of the intervals' rates
    double rateAfter = 0;
    double drop = 0; // 1 - rateAfter / rateBefore
    friend bool operator==(const WriteCliff &, const WriteCliff &) = default;
};

std::optional<WriteCliff> findWriteCliff(
    std::span<const WriteRatePoint> points, const WriteCliffCriteria &criteria = {});

// A step that wrote, judged (StepResult::writeCliff): its write rate (MB/s) over its
// measured intervals against the bytes it had written by the end of each. `cliff` unset:
// the rate did not fall off a cliff.
struct WriteCliffJudgement {
    std::size_t intervals = 0; // judged
    std::uint64_t bytesWritten = 0; // over them
    std::optional<WriteCliff> cliff; // rates in MB/s
    double cliffSeconds
        = 0; // when it fell: from the start of measuring to the first slow interval's start
    friend bool operator==(const WriteCliffJudgement &, const WriteCliffJudgement &) = default;
};

} // namespace ioprism::core
