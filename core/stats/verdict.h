// SPDX-License-Identifier: GPL-3.0-or-later
// The verdict: does the device confirm what the application measured?
//
// Reads and writes are compared separately, application bytes (completed I/Os of the
// targets) against device bytes (the block-layer counters of the devices carrying those
// targets), over one span: an interval, or the measured part of a step.
//
// A direction AGREES when |device - application| <= tolerance * application + floor.
// The floor is an absolute allowance for the traffic every file system and device makes
// on its own (journal commits, metadata, a udev probe): without it a slow run would never
// agree. Outside that band (a = application bytes, d = device bytes):
//
//   reads,  d < a                       served from cache (the page cache, or a cache in between)
//   reads,  d > a, buffered I/O and the application moved data
//                                       amplified (read-ahead, read-modify-write of partial pages)
//   reads,  d > a, otherwise            other traffic (someone else reads the device)
//   writes, d < a                       write-back pending (the device has not written it yet)
//   writes, d > a, the excess is within the write-back backlog
//                                       write-back pending (the device is catching up on
//                                       earlier writes: still behind, cumulatively)
//   writes, d > a beyond the backlog, the application wrote
//                                       amplified (journaling, read-modify-write)
//   writes, d > a beyond the backlog, the application did not write
//                                       other traffic
//   the application moved nothing and the device no more than the absolute background
//   allowance (below)                   idle (nothing to compare)
//
// A direction the application did not use (its bytes there within the floor) while it
// moved data in the other is the device's background, not a comparison:
//
//   d within the floor                  idle
//   d - a within the background allowance, where the rules above say idle, other
//   traffic or amplified                background (counts as agree; the amount is the
//                                       direction's device bytes, always reported)
//
// The background allowance is the larger of an absolute one, backgroundBytesPerSecond
// times the span (or the floor), and a relative one, backgroundShare (1 %) of the bytes
// the application moved over the span. The absolute part is what a quiet system disk does
// on its own (journal commits, logs); it governs short intervals and slow runs. The
// relative part keeps a step's verdict meaningful on an ordinary machine: after a build,
// a root disk writes back 1-6 MB over a 4 s step in which the quick preset reads
// 1.3-7 GB (0.01-0.5 %), and calling that "other traffic" would cry wolf. Why 1 %: a
// background takes device time from the run in proportion to its bytes times how much
// dearer its bytes are than the run's (a 4 KiB journal write beside 1 MiB reads, a write
// beside reads on flash: a few times, not a hundred, on the devices we measure). At 1 %
// even a five-times-dearer background stays within the 5 % tolerance agreement allows,
// so the run's figures are still the device's. A real second workload is a larger share
// and is still named: another process writing 3 % as much as the run reads is other
// traffic, and one writing 20 % is twenty times over the line. Traffic the write-back
// backlog explains stays write-back pending (the more specific cause); a direction the
// application did use is already covered by the tolerance.
//
// The backlog is the running total of application writes the device has not shown yet,
// carried across intervals and steps, so a flush of data written in an earlier interval
// is not taken for amplification. The application and the device are sampled a moment
// apart, so at one boundary the device may already count writes the application reaps
// just after it: device writes beyond what was owed are kept as a credit toward later
// application writes (and in their comparison), up to the bytes the application can have
// in flight on direct or write-through targets (buffered writes complete before the
// device sees them), so journaling or another writer pays for at most that much of the
// data still in a cache. The credit ends with each step (what was in flight was drained
// and counted by no step):
//   owed = backlog + a_write, paid = credit + d_write
//   backlog' = max(0, owed - paid), credit' = min(in-flight limit, max(0, paid - owed))
// Without the credit, the largest lead the device ever had at a boundary would stay in the
// backlog for good (0.7 MB "not yet written" after a run of direct writes, in 1 MiB and
// 4 KiB I/Os at 100 ms sampling).
//
// The headline verdict of a span is the most notable of the two directions, in the order
// other traffic, amplified, write-back pending, served from cache, agree (idle and
// background count as agree); "no device counters" when there is nothing to compare with.
//
// Known limits: the block layer does not say which process did an I/O, so another
// process writing while we write reads as "amplified", and one reading while we read
// through the cache as "amplified" too; only traffic in a direction we did not use is
// recognisably someone else's. The background share is of bytes, not of device time: a
// background of many tiny random I/Os beside large sequential ones costs more than its
// share of bytes says.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

namespace ioprism::core {

enum class Verdict {
    NoDeviceCounters,
    Idle, // a direction with nothing to compare; never a headline
    Background, // a direction the application did not use, within the background
                // allowance; never a headline
    Agree,
    ServedFromCache,
    WriteBackPending,
    OtherTraffic,
    Amplified,
    // The targets open and close files (a file tree, Iometer's connection rate) and the
    // device did more than the application issued: the file system's own I/O for lookups,
    // opens and closes (inodes, directories, the journal's time stamps) explains it. Only
    // as much as metadata can be (VerdictPolicy::metadataBytesPerOpen) and, for reads,
    // only what this process read (VerdictInput::ownStorageReadBytes): the rest is other
    // traffic, or amplified writes.
    FileMetadata,
};

// "no device counters", "idle", "background", "agree", "served from cache",
// "write-back pending", "other traffic", "amplified", "file metadata": the names used in
// results files and on screen.
std::string_view toString(Verdict verdict);
// The verdict toString names so; nullopt for any other text. Complete by construction:
// it asks toString, whose switch the compiler checks, about every value in turn.
std::optional<Verdict> verdictFromString(std::string_view name);

struct VerdictPolicy {
    double tolerance = 0.05; // of the application's bytes
    std::uint64_t noiseFloorBytes = 256 * 1024ULL; // per comparison
    // A direction the application did not use stays idle while the device moves no more
    // than this per second of the span (or the floor, if larger): what a quiet system
    // disk does on its own (journal commits, logs), not another process's workload.
    std::uint64_t backgroundBytesPerSecond = 256 * 1024ULL;
    // ... or, when the application moved data in the other direction, no more than this
    // share of the application's bytes over the span (the rule above says why 1 %).
    double backgroundShare = 0.01;
    // What the file system's own I/O for opening and closing files can plausibly be
    // (targets that open files): per file opened, two blocks (a directory block and an
    // inode block read cold; an inode block journaled and written home), plus a burst
    // per span (ext4 reads 32 inode-table blocks at once; one journal commit). Measured
    // on ext4, a tree's real metadata is far below: ~100 B per open for cold direct
    // reads, none for direct writes within a commit (docs/device-counters.md). Device
    // bytes beyond the application's and beyond this are not metadata.
    std::uint64_t metadataBytesPerOpen = 8 * 1024ULL;
    std::uint64_t metadataBurstBytes = 1024 * 1024ULL;

    friend bool operator==(const VerdictPolicy &, const VerdictPolicy &) = default;
};

struct VerdictInput {
    bool deviceCounters = true; // false: no device to compare with
    std::uint64_t appReadBytes = 0;
    std::uint64_t appWriteBytes = 0;
    std::uint64_t deviceReadBytes = 0;
    std::uint64_t deviceWriteBytes = 0;
    // Application writes the device had not shown when the span began, and device writes
    // beyond what was owed then (the credit, above).
    std::uint64_t writeBacklogBytes = 0;
    std::uint64_t writeCreditBytes = 0;
    // The most application write bytes that can be in flight (outstanding I/Os times the
    // largest transfer): the limit of the credit.
    std::uint64_t inFlightWriteBytes = 0;
    // The bytes the compared targets span (a file's or device's size, a tree's files):
    // rewriting a cached page dirties it once, so no more than this can be waiting for
    // write-back, however often the application wrote it: the limit of the backlog.
    std::uint64_t writeSpanBytes = std::numeric_limits<std::uint64_t>::max();
    bool buffered = false; // some of the application's I/O went through the OS cache
    // The targets open and close files while measured: device bytes beyond the
    // application's are first the file system's metadata (file metadata), not another
    // process (other traffic) nor journaling of the data (amplified). Buffered reads
    // beyond the application's stay amplified: read-ahead explains those better.
    bool opensFiles = false;
    std::uint64_t opens = 0; // files the targets opened in the span
    // Bytes this process asked its devices to read in the span: data, the file system's
    // metadata reads on its behalf, read-ahead (Linux: /proc/self/io read_bytes). Device
    // reads beyond it are another process's. Unset where the OS does not say.
    std::optional<std::uint64_t> ownStorageReadBytes;
    double seconds = 0; // length of the span
};

struct DirectionVerdict {
    Verdict verdict = Verdict::NoDeviceCounters;
    std::uint64_t appBytes = 0;
    std::uint64_t deviceBytes = 0;
    double ratio = 0; // device / application; 0 when the application moved nothing
    friend bool operator==(const DirectionVerdict &, const DirectionVerdict &) = default;
};

struct DeviceVerdict {
    Verdict verdict = Verdict::NoDeviceCounters; // the headline
    DirectionVerdict read;
    DirectionVerdict write;
    std::uint64_t writeBacklogBytes = 0; // after the span
    std::uint64_t writeCreditBytes = 0; // after the span
    friend bool operator==(const DeviceVerdict &, const DeviceVerdict &) = default;
};

DeviceVerdict judgeDevice(const VerdictInput &input, const VerdictPolicy &policy = {});

// The headline order: other traffic 6, amplified 5, file metadata 4, write-back pending
// 3, served from cache 2, agree/background/idle 1, no device counters 0. A span's headline is its
// most notable direction; a series point's, its most notable trial.
int notability(Verdict verdict);

// The backlog and credit after a span (the rule above).
struct WriteBalance {
    std::uint64_t backlogBytes = 0;
    std::uint64_t creditBytes = 0;
};
// The backlog is at most `backlogLimitBytes` (VerdictInput::writeSpanBytes).
WriteBalance nextWriteBalance(WriteBalance before, std::uint64_t appWriteBytes,
    std::uint64_t deviceWriteBytes, std::uint64_t creditLimitBytes,
    std::uint64_t backlogLimitBytes = std::numeric_limits<std::uint64_t>::max());

} // namespace ioprism::core
