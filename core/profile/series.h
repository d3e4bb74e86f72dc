// SPDX-License-Identifier: GPL-3.0-or-later
// Series (IOPrism's sweeps): the values of an axis, how they read, and the CLI's
// compact form of an axis ("bs=512..16M:x2", "qd=1,4,32").
#pragma once

#include "core/profile/profile.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ioprism::core {

// More values than this on one axis is a mistake (x1.0001 steps), not a series.
inline constexpr std::size_t kMaxSweepValues = 1024;

// The values of an axis in order: the listed ones, or from, from x m (or + n), ... while
// at most `to`. At most kMaxSweepValues; none for an axis that cannot step (validation
// says why).
std::vector<std::uint64_t> sweepValues(const SweepAxis &axis);

// How many values the axis generates, counted to kMaxSweepValues + 1 at most (so that
// "more than the limit" can be said without making them).
std::size_t sweepValueCount(const SweepAxis &axis);

// A value as people read it: "4 KiB", "QD 32", "8 workers", "70 % read", "30 % random";
// sizes exact ("1536 B", not "1.5 KiB"), so that two points never read the same.
std::string describeSweepValue(SweepParameter parameter, std::uint64_t value);

// The axis in the CLI's form: "bs=512B..16MiB:x2", "qd=1,4,32".
std::string formatSweep(const SweepAxis &axis);

// Reads the CLI's form: PARAM=FROM..TO:xM, PARAM=FROM..TO:+N or PARAM=V1,V2,...
// PARAM is bs (transferSize), qd (outstandingIos, iodepth), workers (threads, numjobs),
// read (percentRead, rwmixread), random (percentRandom) or position (offset, zone);
// sizes take units (4k, 1MiB).
// On failure, nullopt and `error` says what is wrong.
std::optional<SweepAxis> parseSweep(std::string_view text, std::string &error);

// A point of a position axis (SweepParameter::Position): the part of every target's
// region its I/O is in, from its value to the next larger value on the axis (the largest
// value's zone ends at the region's end), in percent of the region. GNOME Disks' "rate
// by offset": a position axis of sequential reads measures the device across its span.
struct PositionZone {
    std::uint64_t fromPercent = 0;
    std::uint64_t toPercent = 100;
    friend bool operator==(const PositionZone &, const PositionZone &) = default;
};

// The zone of a series point's `values` (one per axis), or nullopt when no axis is a
// position.
std::optional<PositionZone> positionZone(
    const Series &series, const std::vector<std::uint64_t> &values);

// The part of `region` (resolved: sizeBytes > 0) that `zone` covers. Its bounds are
// whole granules from the region's start: 1 MiB, or in a region under 100 MiB the largest
// power of two of at most a hundredth of it (at least 4 KiB), made a multiple of
// `unitBytes` when that is larger or no divisor of it. `unitBytes` is what the I/O needs:
// a multiple of every alignment it keeps from the region's start (its lines' and the
// device's), at least its largest transfer. So an I/O aligned in the region is aligned in
// the zone, and a zone holds a transfer: a region too small for a hundred such zones has
// neighbouring zones overlap rather than one too small (never beyond the region).
Region zoneOf(const Region &region, PositionZone zone, std::uint64_t unitBytes = 4096);

// The number of points of a series (the product of its axes' value counts), for each
// trial and spec index; 0 when an axis has no value.
std::size_t seriesPointCount(const Series &series);

} // namespace ioprism::core
