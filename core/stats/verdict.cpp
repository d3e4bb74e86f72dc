// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/stats/verdict.h"

#include "core/enum_names.h"

#include <algorithm>
#include <cmath>

namespace ioprism::core {

std::string_view toString(Verdict v)
{
    switch (v) {
    case Verdict::NoDeviceCounters:
        return "no device counters";
    case Verdict::Idle:
        return "idle";
    case Verdict::Background:
        return "background";
    case Verdict::Agree:
        return "agree";
    case Verdict::ServedFromCache:
        return "served from cache";
    case Verdict::WriteBackPending:
        return "write-back pending";
    case Verdict::OtherTraffic:
        return "other traffic";
    case Verdict::Amplified:
        return "amplified";
    case Verdict::FileMetadata:
        return "file metadata";
    }
    return "";
}

std::optional<Verdict> verdictFromString(std::string_view name)
{
    return enumFromName<Verdict>(name);
}

WriteBalance nextWriteBalance(WriteBalance before, std::uint64_t appWriteBytes,
    std::uint64_t deviceWriteBytes, std::uint64_t creditLimitBytes, std::uint64_t backlogLimitBytes)
{
    const std::uint64_t owed = before.backlogBytes + appWriteBytes;
    const std::uint64_t paid = before.creditBytes + deviceWriteBytes;
    if (owed > paid)
        return {std::min(owed - paid, backlogLimitBytes), 0};
    return {0, std::min(paid - owed, creditLimitBytes)};
}

namespace {

// Allowed difference for `appBytes`: tolerance of it plus the floor.
double slack(std::uint64_t appBytes, const VerdictPolicy &p)
{
    return p.tolerance * double(appBytes) + double(p.noiseFloorBytes);
}

DirectionVerdict compare(std::uint64_t app, std::uint64_t device)
{
    DirectionVerdict d;
    d.appBytes = app;
    d.deviceBytes = device;
    d.ratio = app ? double(device) / double(app) : 0;
    return d;
}

// What a span's device bytes are held against beside the application's: the noise
// floor, the quiet a direction the application did not use stays under, and what the
// file system's own I/O for opening files can explain.
struct Allowances {
    double floor = 0;
    double quiet = 0;
    double metadataBytes = -1; // none: the targets open no files
    bool below(std::uint64_t bytes) const { return double(bytes) <= floor; }
    bool idle(std::uint64_t app, std::uint64_t device) const
    {
        return below(app) && double(device) <= quiet;
    }
};

Allowances allowancesFor(const VerdictInput &in, const VerdictPolicy &p)
{
    Allowances limits;
    limits.floor = double(p.noiseFloorBytes);
    // A direction the application did not use: the device's own background is idle.
    limits.quiet
        = std::max(limits.floor, double(p.backgroundBytesPerSecond) * std::max(in.seconds, 0.0));
    // Device bytes beyond the application's that the file system's own I/O for opening
    // files can explain: none unless the targets open files, and at most the plausible
    // amount per file opened.
    limits.metadataBytes = in.opensFiles
        ? double(p.metadataBurstBytes) + double(p.metadataBytesPerOpen) * double(in.opens)
        : -1.0;
    return limits;
}

// Reads the device did fewer of came from a cache; more are the file system's own
// (metadata, read-ahead, a buffered target's amplification) or another process's.
Verdict judgeReads(
    const VerdictInput &in, const VerdictPolicy &p, const Allowances &limits, bool appMoved)
{
    const double a = double(in.appReadBytes), d = double(in.deviceReadBytes);
    if (limits.idle(in.appReadBytes, in.deviceReadBytes))
        return Verdict::Idle;
    if (std::abs(d - a) <= slack(in.appReadBytes, p))
        return Verdict::Agree;
    if (d < a)
        return Verdict::ServedFromCache;
    if (in.opensFiles && in.ownStorageReadBytes) {
        // What this process read beyond its I/O is its files' metadata (or read-ahead);
        // what the device read beyond that, another process's.
        const double own = std::max(a, double(*in.ownStorageReadBytes));
        if (d - own > slack(in.appReadBytes, p))
            return Verdict::OtherTraffic;
        return in.buffered && appMoved ? Verdict::Amplified : Verdict::FileMetadata;
    }
    if (in.buffered && appMoved)
        return Verdict::Amplified;
    return d - a <= limits.metadataBytes ? Verdict::FileMetadata : Verdict::OtherTraffic;
}

// Writes are held against the balance carried from span to span: a device writes a
// buffered span's data in a later span (the backlog), or counted it in an earlier one.
Verdict judgeWrites(const VerdictInput &in, const VerdictPolicy &p, const Allowances &limits)
{
    // The credit: device writes counted before the span for application writes
    // counted in it (sampling a moment apart).
    const double a = double(in.appWriteBytes),
                 d = double(in.deviceWriteBytes) + double(in.writeCreditBytes);
    if (limits.idle(in.appWriteBytes, in.deviceWriteBytes))
        return Verdict::Idle;
    if (std::abs(d - a) <= slack(in.appWriteBytes, p))
        return Verdict::Agree;
    // Write-back pending both when the device wrote less (the data is still in a
    // cache) and when it wrote more but no more than the backlog (it is catching up
    // on earlier writes and, cumulatively, still behind): docs/device-counters.md.
    if (d < a || d - a <= double(in.writeBacklogBytes) + slack(in.appWriteBytes, p))
        return Verdict::WriteBackPending;
    if (d - a - double(in.writeBacklogBytes) <= limits.metadataBytes)
        return Verdict::FileMetadata;
    return limits.below(in.appWriteBytes) ? Verdict::OtherTraffic : Verdict::Amplified;
}

// A direction the application did not use, while it moved data in the other: what the
// device did there on its own is background when it is within the allowance, the
// larger of the absolute one and a share of the application's traffic. Agreement with
// a tiny application amount and write-back of the backlog keep their own names.
void markBackground(
    DeviceVerdict &v, const VerdictInput &in, const VerdictPolicy &p, const Allowances &limits)
{
    const double allowance = std::max(
        limits.quiet, p.backgroundShare * (double(in.appReadBytes) + double(in.appWriteBytes)));
    const auto background = [&](DirectionVerdict &dir) {
        const bool replaceable = dir.verdict == Verdict::Idle
            || dir.verdict == Verdict::OtherTraffic || dir.verdict == Verdict::Amplified
            || dir.verdict == Verdict::FileMetadata;
        if (!replaceable || !limits.below(dir.appBytes) || limits.below(dir.deviceBytes))
            return;
        const double excess = double(dir.deviceBytes) - double(dir.appBytes);
        if (excess <= allowance)
            dir.verdict = Verdict::Background;
    };
    background(v.read);
    background(v.write);
}

} // namespace

int notability(Verdict v)
{
    switch (v) {
    case Verdict::OtherTraffic:
        return 6;
    case Verdict::Amplified:
        return 5;
    case Verdict::FileMetadata:
        return 4;
    case Verdict::WriteBackPending:
        return 3;
    case Verdict::ServedFromCache:
        return 2;
    case Verdict::NoDeviceCounters:
        return 0;
    default:
        return 1; // agree, background, idle
    }
}

DeviceVerdict judgeDevice(const VerdictInput &in, const VerdictPolicy &p)
{
    DeviceVerdict v;
    v.read = compare(in.appReadBytes, in.deviceReadBytes);
    v.write = compare(in.appWriteBytes, in.deviceWriteBytes);
    if (!in.deviceCounters) {
        v.writeBacklogBytes = in.writeBacklogBytes;
        v.writeCreditBytes = in.writeCreditBytes;
        return v; // NoDeviceCounters everywhere
    }
    const Allowances limits = allowancesFor(in, p);
    const bool appMoved = !limits.below(in.appReadBytes) || !limits.below(in.appWriteBytes);
    v.read.verdict = judgeReads(in, p, limits, appMoved);
    v.write.verdict = judgeWrites(in, p, limits);
    if (appMoved)
        markBackground(v, in, p, limits);
    const WriteBalance next = nextWriteBalance({in.writeBacklogBytes, in.writeCreditBytes},
        in.appWriteBytes, in.deviceWriteBytes, in.inFlightWriteBytes, in.writeSpanBytes);
    v.writeBacklogBytes = next.backlogBytes;
    v.writeCreditBytes = next.creditBytes;
    v.verdict = notability(v.read.verdict) >= notability(v.write.verdict) ? v.read.verdict
                                                                          : v.write.verdict;
    if (v.verdict == Verdict::Idle || v.verdict == Verdict::Background)
        v.verdict = Verdict::Agree;
    return v;
}

} // namespace ioprism::core
