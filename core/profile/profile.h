// SPDX-License-Identifier: GPL-3.0-or-later
// The test-profile model: everything a user sets up and saves.
//
// Value types only (no Qt, no OS headers). The model carries every Iometer concept
// (access specifications, workers, targets, test setup with cycling, managers) plus the
// extensions fio users expect; each extension defaults to Iometer's behaviour, so a
// profile imported from an .icf file runs the way Iometer would run it.
//
// Field names here are the JSON keys of docs/profile-format.md and the field paths of
// validation messages (e.g. `specs[1].lines[0].percentRead`).
#pragma once

#include "core/profile/checked_size.h"
#include "core/stats/steady_state.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ioprism::core {

inline constexpr std::uint64_t kKiB = 1024;
inline constexpr std::uint64_t kMiB = 1024 * kKiB;
inline constexpr std::uint64_t kGiB = 1024 * kMiB;

// ---------------------------------------------------------------- access specs

enum class DistributionKind {
    Uniform, // Iometer: uniform over the region, then aligned
    Zipf, // fio zipf:theta
    Pareto, // fio pareto:h
    Normal, // fio normal:sigma (sigma as % of the region, centred on the region)
    HotZones, // fio zoned: [% of accesses -> % of region] pairs, in order from offset 0
};

struct HotZone {
    double accessPercent = 0; // share of random accesses that land in this zone
    double regionPercent = 0; // share of the region this zone covers
    friend bool operator==(const HotZone &, const HotZone &) = default;
};

struct RandomDistribution {
    DistributionKind kind = DistributionKind::Uniform;
    double zipfTheta = 1.2; // used when kind == Zipf; fio's usual value
    double paretoH = 0.2; // used when kind == Pareto
    double normalSigmaPercent = 10.0; // used when kind == Normal
    std::vector<HotZone> hotZones; // used when kind == HotZones; sums are 100
    friend bool operator==(const RandomDistribution &, const RandomDistribution &) = default;
};

struct RateLimit {
    double iops = 0; // 0 = unlimited
    double megabytesPerSecond = 0; // decimal MB/s (10^6 bytes); 0 = unlimited
    friend bool operator==(const RateLimit &, const RateLimit &) = default;
};

enum class DataPatternKind {
    RepeatingBytes, // Iometer 0: one byte value repeated
    PseudoRandom, // Iometer 1: one random buffer reused for every write
    FullRandom, // Iometer 2: incompressible and non-dedupable
    Zeros,
    Compressible, // compresses to about compressiblePercent of its size
};

struct DataPattern {
    DataPatternKind kind = DataPatternKind::FullRandom;
    std::uint8_t repeatingByte = 0xA5; // used when kind == RepeatingBytes
    std::uint32_t compressiblePercent = 50; // used when kind == Compressible: 1..99
    friend bool operator==(const DataPattern &, const DataPattern &) = default;
};

// One line of an access specification, with Iometer's semantics and the defaults of a
// new line in Iometer's editor (2048 B, 100 %, 67 % read, 100 % random, no delay,
// burst 1, aligned on the transfer size, no reply).
struct SpecLine {
    std::uint64_t transferSizeBytes = 2048;
    std::uint32_t sharePercent = 100;
    std::uint32_t percentRead = 67;
    std::uint32_t percentRandom = 100;
    std::chrono::milliseconds delay {0}; // before each burst
    std::uint32_t burstLength = 1; // I/Os per burst
    std::uint64_t alignmentBytes = 2048; // 0 = the device's logical sector
    std::uint64_t replySizeBytes = 0; // 0 = no reply I/O
    // Extensions (fio), defaulting to Iometer's behaviour:
    RandomDistribution distribution;
    RateLimit rateLimit;
    std::chrono::microseconds thinkTime {0}; // after each I/O completes, before the next
    std::optional<DataPattern> dataPattern; // unset = the worker's data pattern
    friend bool operator==(const SpecLine &, const SpecLine &) = default;
};

// Iometer's "default assignment" of a spec to new workers.
enum class SpecAssignment { None, All, Disk, Network };

inline constexpr std::size_t kMaxSpecLines = 100;

struct AccessSpec {
    std::string name;
    SpecAssignment defaultAssignment = SpecAssignment::None;
    std::vector<SpecLine> lines;
    // CrystalDiskMark-style overrides (IOPrism extension): when set, every worker
    // running this spec uses this many outstanding I/Os per target, and the spec runs
    // on this many copies of each assigned worker ("Q32T16").
    std::optional<std::uint32_t> queueDepth;
    std::optional<std::uint32_t> threads;
    friend bool operator==(const AccessSpec &, const AccessSpec &) = default;
};

// ---------------------------------------------------------------- targets / workers

enum class TargetKind {
    TestFile, // a file we create, size and remove
    BlockDevice, // a whole disk, used raw (Linux /dev/sdX, nvme0n1, loopN, zramN)
    Partition, // a partition, used raw
    Volume, // Windows \\.\X:
    PhysicalDrive, // Windows \\.\PhysicalDriveN
    FileTree, // io_profile's tree of files (IOPrism extension): see FileTree
};

// A device used raw (a disk, partition, volume or physical drive), not files of ours.
constexpr bool isRawDevice(TargetKind kind)
{
    return kind != TargetKind::TestFile && kind != TargetKind::FileTree;
}

enum class CacheMode {
    Direct, // O_DIRECT / FILE_FLAG_NO_BUFFERING (default)
    Buffered, // through the OS cache
};

struct Region {
    std::uint64_t offsetBytes = 0;
    std::uint64_t sizeBytes = 0; // 0 = to the end of the target
    friend bool operator==(const Region &, const Region &) = default;
};

// io_profile's file tree (IOPrism extension): `depth` nested folders under the target's
// path, each holding `filesPerLevel` files of `fileSizeBytes` (io_profile's default: 3
// levels of 4 files of 4 MiB). IOPrism creates the folder, marks it as its own, fills
// every file (never sparse) and removes it on request; it never writes into a folder it
// did not create. Each I/O on a tree is an operation: pick a file, open it, do the I/O
// at an aligned offset within it, close it (the region applies within each file).
struct FileTree {
    std::uint32_t depth = 3;
    std::uint32_t filesPerLevel = 4;
    std::uint64_t fileSizeBytes = 4 * kMiB;
    // Operations over the tree before the first step is measured (io_profile warms the
    // stack so): done as the first step's spec does them, in no figure. 0 = none.
    std::uint64_t preInitOperations = 0;
    std::uint64_t fileCount() const { return std::uint64_t(depth) * filesPerLevel; }
    // Saturates (checked_size.h) instead of wrapping; validation refuses such a tree.
    std::uint64_t totalBytes() const { return saturatingMul(fileCount(), fileSizeBytes); }
    friend bool operator==(const FileTree &, const FileTree &) = default;
};

struct Target {
    TargetKind kind = TargetKind::TestFile;
    std::string path;
    Region region;
    std::uint64_t testFileSizeBytes = 1 * kGiB; // used when kind == TestFile
    FileTree tree; // used when kind == FileTree
    CacheMode cacheMode = CacheMode::Direct;
    bool writeThrough = false;
    std::optional<std::uint32_t> outstandingIos; // unset = the worker's value
    // Set when an imported name (e.g. an .icf target "sdb") did not resolve on this
    // machine: the target is kept, never dropped, and must be re-pointed before a run.
    bool unresolved = false;
    friend bool operator==(const Target &, const Target &) = default;
};

enum class WorkerType { Disk, Network };

struct Worker {
    std::string name;
    WorkerType type = WorkerType::Disk;
    std::vector<Target> targets;
    std::uint32_t outstandingIos = 1; // per target (Iometer's default)
    // Run in order; "Idle" (kIdleSpecName) idles the worker at that spec index.
    std::vector<std::string> assignedSpecs;
    std::vector<std::uint32_t> cpuAffinity; // empty = no affinity
    std::optional<std::uint64_t> seed; // unset = a fresh random seed per run
    DataPattern dataPattern; // for lines without their own pattern
    Region defaultRegion; // Iometer's per-worker disk size / start
    // Iometer's "test connection rate": each disk target is closed and opened again
    // every transactionsPerConnection transactions (after its I/O in flight completes);
    // the open-to-close time is the connection time of Iometer's results.
    bool testConnectionRate = false;
    std::uint32_t transactionsPerConnection = 1;
    friend bool operator==(const Worker &, const Worker &) = default;
};

// Iometer calls it a manager: one host process with its workers.
struct Host {
    std::uint32_t id = 1;
    std::string name; // "" = this machine
    std::string networkAddress; // "" = local
    std::vector<Worker> workers;
    friend bool operator==(const Host &, const Host &) = default;
};

// ---------------------------------------------------------------- test setup

enum class StepType { Linear, Exponential };

struct Cycling {
    std::uint32_t start = 1;
    std::uint32_t step = 1;
    std::uint32_t end = 1; // only queue-depth cycling has an end in Iometer's files
    StepType stepType = StepType::Linear;
    friend bool operator==(const Cycling &, const Cycling &) = default;
};

enum class TestType {
    Normal,
    CycleTargets,
    CycleWorkers,
    IncrementTargetsParallel,
    IncrementTargetsSerial,
    CycleWorkersAndTargets,
    CycleOutstandingIos,
    CycleOutstandingIosAndTargets,
};

// Which result rows are recorded (Iometer's "Record Results").
enum class RecordFilter { All, NoTargets, NoWorkers, NoTargetsNoWorkers, None };

// ---------------------------------------------------------------- series (IOPrism)

// A parameter a series sweeps. Each point sets it on every spec line (transfer size,
// % read, % random), every target in use (outstanding I/Os) or every worker (workers:
// how many copies of each worker run, CrystalDiskMark's "threads").
enum class SweepParameter {
    TransferSize,
    OutstandingIos,
    Workers,
    PercentRead,
    PercentRandom,
    // Where in each target's region a point does its I/O: from the value (a percentage
    // of the region) to the axis's next value (core/profile/series.h's positionZone).
    Position,
};

// The values of one axis: listed, or generated from `from` by x`multiply` or +`add`
// while at most `to` (inclusive; core/profile/series.h).
struct SweepAxis {
    SweepParameter parameter = SweepParameter::TransferSize;
    std::vector<std::uint64_t> values; // listed (bytes for transferSize); empty = generated
    std::uint64_t from = 0;
    std::uint64_t to = 0;
    std::uint32_t multiply = 0; // x n (at least 2), or
    std::uint64_t add = 0; // + n (at least 1)
    friend bool operator==(const SweepAxis &, const SweepAxis &) = default;
};

// A series: every point of one axis (a curve) or of two (a matrix, the first axis
// outer), each point a complete step (ramp-up, then the run time or a fixed number of
// I/Os), for every spec index in turn; the whole series `repeat` times over.
struct Series {
    std::vector<SweepAxis> axes; // one or two
    std::uint32_t repeat = 1; // trials: the whole series again, each trial kept
    // Per point, per worker and target: this many I/Os instead of the run time
    // (io_profile's mode); 0 = the run time.
    std::uint64_t ios = 0;
    // Each point runs on each target alone, in turn (target A, target B, then the next
    // point): stacks compared in one run.
    bool targetsInTurn = false;
    // Worker n of a point starts n x this after the first (the RAM-SAN study's 5 s).
    std::chrono::milliseconds workerStagger {0};
    friend bool operator==(const Series &, const Series &) = default;
};

// SNIA PTS's preconditioning (core/run/precondition.h): before the first step every
// target is written, measured as a phase of its own and in no step's figures.
// Sequential: 128 KiB sequential writes at QD 32 (PTS's workload-independent
// preconditioning), `capacityMultiple` times each target's region (PTS: twice).
// Workload: the first step's own workload (PTS's workload-dependent), for `time`, or when
// `time` is 0 until it has moved `capacityMultiple` times each target's region.
enum class PreconditionKind { Sequential, Workload };
std::string_view preconditionKindName(PreconditionKind kind); // "sequential", "workload"
std::optional<PreconditionKind> parsePreconditionKind(std::string_view name);

struct PreconditionSetup {
    PreconditionKind kind = PreconditionKind::Sequential;
    double capacityMultiple = 2; // times each target's region
    std::chrono::seconds time {0}; // Workload only: for this long instead (0: by capacity)
    // For a time rather than a capacity multiple.
    bool forATime() const { return kind == PreconditionKind::Workload && time.count() > 0; }
    friend bool operator==(const PreconditionSetup &, const PreconditionSetup &) = default;
};

struct TestSetup {
    std::string description;
    std::chrono::seconds runTime {30}; // 0 = until stopped
    std::chrono::seconds rampUp {0}; // I/O done but not recorded
    std::chrono::milliseconds interval {1000}; // sampling interval, 100 ms .. 60 s
    RecordFilter recordFilter = RecordFilter::All;
    // Iometer's "Default Disk Workers to Spawn": unset = NUMBER_OF_CPUS.
    std::optional<std::uint32_t> defaultDiskWorkers;
    std::uint32_t defaultNetworkWorkers = 0;
    Cycling workerCycling;
    Cycling targetCycling;
    Cycling queueDepthCycling;
    TestType testType = TestType::Normal;
    std::optional<Series> series; // IOPrism's sweeps; unset = Iometer's steps (and cycling)
    // A stop rule for every step (and series point): rounds until the figures are
    // steady or the round limit, in place of runTime (core/stats/steady_state.h). Unset:
    // each step measures for runTime, as Iometer's.
    std::optional<SteadyStateSetup> steadyState;
    // Written before the first step, measured apart (PreconditionSetup); unset: none.
    std::optional<PreconditionSetup> precondition;
    // CrystalDiskMark's passes: every step runs this many times in a row, each pass a step
    // of its own ("spec A, pass 2/5"); the summary shows the best pass beside the passes'
    // mean and spread (core/report/step_summary.h). 1 with a series, whose trials are its
    // `repeat`.
    std::uint32_t passes = 1;
    // CrystalDiskMark's interval: an idle pause before each test but the first (not
    // between the passes of a test), which lets a drive drain its SLC cache; 0 = none.
    std::chrono::seconds pauseBetweenTests {0};
    // The passes each step runs: `passes`, at least 1, and 1 with a series (the checks
    // refuse more; a plan and everything that reads one use this).
    std::uint32_t passesPerTest() const { return series ? 1 : std::max<std::uint32_t>(passes, 1); }
    friend bool operator==(const TestSetup &, const TestSetup &) = default;
};

// ---------------------------------------------------------------- the profile

inline constexpr int kProfileFormatVersion = 1;

struct Profile {
    TestSetup setup;
    std::vector<AccessSpec> specs;
    std::vector<Host> hosts;
    // Iometer's RESULTS DISPLAY section, kept verbatim (one entry per line, without
    // the leading tab) so .icf -> profile -> .icf loses nothing; not used by IOPrism.
    std::vector<std::string> icfResultsDisplay;
    friend bool operator==(const Profile &, const Profile &) = default;
};

// Lookup helper: the spec of that name, or nullptr.
const AccessSpec *findSpec(const Profile &profile, const std::string &name);

// Iometer's built-in spec that does no I/O: a worker assigned it idles at that spec
// index (in that step) while the others run. A spec the profile defines under this name
// is used instead.
inline constexpr std::string_view kIdleSpecName = "Idle";
// True when `name` is the built-in Idle spec in this profile (and not a defined spec).
bool isIdleSpec(const Profile &profile, const std::string &name);

// True when the spec writes: a line with writes, or a read line with a reply (Iometer's
// reply is a transfer in the other direction).
bool specWrites(const AccessSpec &spec);

} // namespace ioprism::core
