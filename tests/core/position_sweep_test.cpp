// SPDX-License-Identifier: GPL-3.0-or-later
// A series over position (SweepParameter::Position, issue 30 item 3's read-by-offset
// sweep): each point's zone of a target's region (positionZone, zoneOf) and a run whose
// every step does its I/O in its zone, with the rate of each zone in the series.
#include "core/null_engine.h"
#include "core/profile/series.h"
#include "core/profile/units.h"
#include "core/profile/validation.h"
#include "core/run/run.h"
#include "core/run/series_result.h"
#include "support/test_backend.h"
#include "support/test_profiles.h"

#include <algorithm>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <mutex>

using namespace ioprism::core;
using ioprism::test::makeSpec;
using PositionRun = ioprism::core::Run;

namespace {

Series positionSeries(SweepAxis axis)
{
    Series s;
    s.axes = {axis};
    return s;
}

SweepAxis positionAxis(std::vector<std::uint64_t> values)
{
    return {.parameter = SweepParameter::Position, .values = std::move(values)};
}

// Records every request's offset, per engine (one per worker and step), and completes
// it at once as the null engine does.
struct OffsetLog {
    std::mutex mutex;
    std::vector<std::vector<std::uint64_t>> perEngine; // in the order engines were made
};

class OffsetRecordingEngine final : public ioprism::test::NullForwardingEngine
{
public:
    OffsetRecordingEngine(OffsetLog &log, std::size_t index)
        : m_log(log)
        , m_index(index)
    { }
    bool queue(IoRequest *r) override
    {
        {
            std::lock_guard lock(m_log.mutex);
            m_log.perEngine[m_index].push_back(r->offsetBytes);
        }
        return NullForwardingEngine::queue(r);
    }

private:
    OffsetLog &m_log;
    std::size_t m_index;
};

class OffsetRecordingBackend final : public NullBackend
{
public:
    OffsetLog log;
    Result<std::unique_ptr<IoEngine>> makeEngine() override
    {
        std::lock_guard lock(log.mutex);
        log.perEngine.emplace_back();
        return std::unique_ptr<IoEngine>(
            std::make_unique<OffsetRecordingEngine>(log, log.perEngine.size() - 1));
    }
};

// Sequential 64 KiB reads on a 64 MiB target at QD 2, 40 I/Os per point of `series`.
Profile positionProfile(Series series)
{
    Profile p;
    p.setup.runTime = std::chrono::seconds(1);
    p.setup.interval = std::chrono::milliseconds(100);
    p.setup.rampUp = std::chrono::seconds(0);
    p.setup.series = std::move(series);
    p.setup.series->ios = 40;
    p.specs = {makeSpec("64K seq read", 64 * kKiB, 100, 0)};
    Worker w;
    w.name = "Worker 1";
    w.outstandingIos = 2;
    w.assignedSpecs = {"64K seq read"};
    Target t;
    t.path = "target0";
    t.testFileSizeBytes = 64 * kMiB;
    w.targets.push_back(t);
    p.hosts.emplace_back().workers.push_back(w);
    return p;
}

// `profile` run on `backend`, whose log then holds each step's offsets.
RunResult runOnOffsetRecorder(const Profile &profile, OffsetRecordingBackend &backend)
{
    NullCounterSource counters;
    RunSink sink;
    return PositionRun(profile, backend, counters, sink).execute();
}

} // namespace

// A point's zone runs from its value to the next larger value on its axis, whatever the
// order the values are listed in; the largest value's to the end; none without a
// position axis; a position axis second in a matrix is found too.
TEST(PositionZone, FromItsValueToTheNextLargerValueOnItsAxis)
{
    const Series tens
        = positionSeries({.parameter = SweepParameter::Position, .from = 0, .to = 90, .add = 10});
    EXPECT_EQ(positionZone(tens, {0}), (PositionZone {0, 10}));
    EXPECT_EQ(positionZone(tens, {30}), (PositionZone {30, 40}));
    EXPECT_EQ(positionZone(tens, {90}), (PositionZone {90, 100}));

    const Series listed = positionSeries(positionAxis({50, 0, 25}));
    EXPECT_EQ(positionZone(listed, {0}), (PositionZone {0, 25}));
    EXPECT_EQ(positionZone(listed, {25}), (PositionZone {25, 50}));
    EXPECT_EQ(positionZone(listed, {50}), (PositionZone {50, 100}));

    Series other = positionSeries({.parameter = SweepParameter::OutstandingIos, .values = {1, 4}});
    EXPECT_FALSE(positionZone(other, {4}));
    other.axes.push_back(positionAxis({0, 50}));
    EXPECT_EQ(positionZone(other, {4, 0}), (PositionZone {0, 50}));
    EXPECT_EQ(positionZone(other, {1, 50}), (PositionZone {50, 100}));
}

// Zones of a hundredth each tile the region exactly (each starts where the one before
// ended, the first at the region's start, the last ends at its end), none empty, every
// bound a whole granule from the region's start: 1 MiB, or less in a region under
// 100 MiB. Sizes that are no multiple of anything, and one of several TiB (no overflow).
TEST(ZoneOf, AHundredZonesTileTheRegionOnWholeGranules)
{
    const Series hundred
        = positionSeries({.parameter = SweepParameter::Position, .from = 0, .to = 99, .add = 1});
    for (const Region region :
        {Region {0, kGiB}, Region {kMiB, kGiB + 3 * 4096 + 512}, Region {4096, 64 * kMiB},
            Region {0, 100 * kMiB}, Region {0, 7 * 1024 * kGiB + 17}, Region {0, 400 * 4096}}) {
        SCOPED_TRACE(fmt::format("region {} + {}", region.offsetBytes, region.sizeBytes));
        const std::uint64_t granule = region.sizeBytes >= 100 * kMiB ? kMiB
            : region.sizeBytes >= 64 * kMiB                          ? 512 * kKiB
                                                                     : 16 * kKiB;
        std::uint64_t at = region.offsetBytes;
        for (std::uint64_t p = 0; p < 100; ++p) {
            const Region zone = zoneOf(region, *positionZone(hundred, {p}));
            EXPECT_EQ(zone.offsetBytes, at) << "zone " << p;
            EXPECT_GT(zone.sizeBytes, 0u) << "zone " << p;
            EXPECT_EQ((zone.offsetBytes - region.offsetBytes) % granule, 0u) << "zone " << p;
            // Within a granule of where a hundredth falls.
            const double ideal = double(region.sizeBytes) * double(p) / 100;
            EXPECT_LE(double(zone.offsetBytes - region.offsetBytes), ideal) << "zone " << p;
            EXPECT_GT(double(zone.offsetBytes - region.offsetBytes), ideal - double(granule))
                << "zone " << p;
            at = zone.offsetBytes + zone.sizeBytes;
        }
        EXPECT_EQ(at, region.offsetBytes + region.sizeBytes);
    }
    // A unit larger than the granule, or no divisor of it: every bound a multiple of it
    // (a 1 MiB transfer in a 64 MiB region; a 12 KiB alignment), every zone holds one.
    for (const std::uint64_t unit : {kMiB, 12 * kKiB}) {
        const Region region {4096, 64 * kMiB};
        for (std::uint64_t p = 0; p < 100; ++p) {
            const Region zone = zoneOf(region, *positionZone(hundred, {p}), unit);
            EXPECT_EQ((zone.offsetBytes - region.offsetBytes) % unit, 0u) << unit << " " << p;
            EXPECT_GE(zone.sizeBytes, unit) << unit << " " << p;
            EXPECT_LE(zone.offsetBytes + zone.sizeBytes, region.offsetBytes + region.sizeBytes);
        }
    }
    // 1 TiB at 99 %: 1,088,516,511,498.24 bytes, on a whole MiB below.
    EXPECT_EQ(zoneOf({0, 1024 * kGiB}, {99, 100}).offsetBytes, 1'038'090 * kMiB);
    // A region of a few granules: every zone is inside it and holds one.
    for (std::uint64_t p = 0; p < 100; ++p) {
        const Region zone = zoneOf({8192, 3 * 4096}, *positionZone(hundred, {p}));
        EXPECT_GE(zone.offsetBytes, 8192u);
        EXPECT_LE(zone.offsetBytes + zone.sizeBytes, 8192u + 3 * 4096);
        EXPECT_GE(zone.sizeBytes, 4096u);
    }
}

// The profile refuses a position of 100 % (a zone past the end) and takes 0 to 99.
TEST(PositionZone, APositionOf100IsRefusedAt99Taken)
{
    Profile p = positionProfile(positionSeries(positionAxis({0, 99})));
    EXPECT_TRUE(validateProfile(p).empty());
    p.setup.series->axes[0].values = {0, 100};
    const Problems problems = validateProfile(p);
    ASSERT_FALSE(problems.empty());
    EXPECT_EQ(problems[0].path, "setup.series.axes[0].values[1]");
}

// A rate-by-position run: four points (0, 25, 50, 75 %) of sequential 64 KiB reads on a
// 64 MiB target, 40 I/Os each. Every step reads only in its zone, from the zone's start
// on, and the series has a point, with its rate, per zone.
TEST(PositionSweepRun, EveryStepReadsInItsZoneFromTheZonesStart)
{
    const Profile p = positionProfile(
        positionSeries({.parameter = SweepParameter::Position, .from = 0, .to = 75, .add = 25}));
    ASSERT_TRUE(validateProfile(p).empty());

    OffsetRecordingBackend backend;
    const RunResult r = runOnOffsetRecorder(p, backend);
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(r.steps.size(), 4u);
    ASSERT_EQ(backend.log.perEngine.size(), 4u) << "an engine per step";
    for (std::size_t s = 0; s < 4; ++s) {
        SCOPED_TRACE("step " + r.steps[s].stepName);
        const std::uint64_t from = s * 16 * kMiB;
        const std::uint64_t to = from + 16 * kMiB;
        const auto &offsets = backend.log.perEngine[s];
        ASSERT_EQ(offsets.size(), 40u) << "the point's I/Os";
        EXPECT_EQ(offsets.front(), from) << "from the zone's start";
        for (const auto o : offsets) {
            EXPECT_GE(o, from);
            EXPECT_LE(o + 64 * kKiB, to);
        }
        EXPECT_EQ(r.steps[s].scopes.at(0).figures.read.ios, 40u);
    }
    EXPECT_NE(r.steps[1].stepName.find("at 25 %"), std::string::npos) << r.steps[1].stepName;
    const std::vector<SeriesPointResult> points = seriesPoints(r);
    ASSERT_EQ(points.size(), 4u);
    EXPECT_EQ(points[3].values, std::vector<std::uint64_t> {75});
    for (const auto &point : points)
        EXPECT_GT(point.iops.median, 0) << "a rate per zone";
}

// A point asked for more I/Os than its zone holds reads the zone once: 1000 I/Os of 64 KiB
// asked in zones of 16 MiB do 256 each, every offset of the zone once.
TEST(PositionSweepRun, APointReadsAtMostItsZoneOnce)
{
    Profile p = positionProfile(
        positionSeries({.parameter = SweepParameter::Position, .from = 0, .to = 75, .add = 25}));
    p.setup.series->ios = 1000;
    OffsetRecordingBackend backend;
    const RunResult r = runOnOffsetRecorder(p, backend);
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(backend.log.perEngine.size(), 4u);
    for (std::size_t s = 0; s < 4; ++s) {
        std::vector<std::uint64_t> offsets = backend.log.perEngine[s];
        std::sort(offsets.begin(), offsets.end());
        ASSERT_EQ(offsets.size(), 256u) << "step " << s;
        for (std::size_t i = 0; i < offsets.size(); ++i)
            ASSERT_EQ(offsets[i], s * 16 * kMiB + i * 64 * kKiB) << "step " << s;
        EXPECT_EQ(r.steps[s].scopes.at(0).figures.read.bytes, 16 * kMiB);
    }
}

// Random I/O draws its offsets anywhere in its zone: a random point keeps the count it
// asked for (no cap), every offset inside its zone.
TEST(PositionSweepRun, ARandomPointKeepsItsCountInsideItsZone)
{
    Profile p = positionProfile(positionSeries(positionAxis({0, 50})));
    p.setup.series->ios = 1000;
    p.specs[0].lines[0].percentRandom = 100;
    OffsetRecordingBackend backend;
    const RunResult r = runOnOffsetRecorder(p, backend);
    ASSERT_FALSE(r.error) << r.error->toString();
    ASSERT_EQ(backend.log.perEngine.size(), 2u);
    for (std::size_t s = 0; s < 2; ++s) {
        const auto &offsets = backend.log.perEngine[s];
        EXPECT_EQ(offsets.size(), 1000u) << "step " << s;
        for (const auto o : offsets) {
            EXPECT_GE(o, s * 32 * kMiB);
            EXPECT_LE(o + 64 * kKiB, (s + 1) * 32 * kMiB);
        }
    }
}
