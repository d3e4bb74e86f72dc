// SPDX-License-Identifier: GPL-3.0-or-later
// The Iometer results CSV: Iometer 1.1.0's columns, rows and header blocks.
#include "core/report/csv.h"
#include "core/report/csv_internal.h"
#include "core/report/resolution.h"
#include "core/report/results_json.h"
#include "core/run/series_result.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <optional>

namespace ioprism::core {
namespace {

using csv_detail::fixed;
using csv_detail::integer;

// ---------------------------------------------------------------- number formatting

// Iometer writes every double with six decimals (ios::fixed, setprecision(6)).
std::string fixed6(double v)
{
    return std::isfinite(v) ? fmt::format("{:.6f}", v) : std::string();
}

constexpr double kUsPerMs = 1000.0;

// ---------------------------------------------------------------- Iometer's columns

// Iometer 1.1.0's results columns, in its order (ManagerList::SaveResults), then the
// 21 latency bins with Iometer's own labels (" >= 10 s" has its leading space there
// too), then IOPrism's percentile columns.
constexpr std::array<std::string_view, 59> kIometerColumns = {
    "Target Type",
    "Target Name",
    "Access Specification Name",
    "# Managers",
    "# Workers",
    "# Disks",
    "IOps",
    "Read IOps",
    "Write IOps",
    "MiBps (Binary)",
    "Read MiBps (Binary)",
    "Write MiBps (Binary)",
    "MBps (Decimal)",
    "Read MBps (Decimal)",
    "Write MBps (Decimal)",
    "Transactions per Second",
    "Connections per Second",
    "Average Response Time",
    "Average Read Response Time",
    "Average Write Response Time",
    "Average Transaction Time",
    "Average Connection Time",
    "Maximum Response Time",
    "Maximum Read Response Time",
    "Maximum Write Response Time",
    "Maximum Transaction Time",
    "Maximum Connection Time",
    "Errors",
    "Read Errors",
    "Write Errors",
    "Bytes Read",
    "Bytes Written",
    "Read I/Os",
    "Write I/Os",
    "Connections",
    "Transactions per Connection",
    "Total Raw Read Response Time",
    "Total Raw Write Response Time",
    "Total Raw Transaction Time",
    "Total Raw Connection Time",
    "Maximum Raw Read Response Time",
    "Maximum Raw Write Response Time",
    "Maximum Raw Transaction Time",
    "Maximum Raw Connection Time",
    "Total Raw Run Time",
    "Starting Sector",
    "Maximum Size",
    "Queue Depth",
    "% CPU Utilization",
    "% User Time",
    "% Privileged Time",
    "% DPC Time",
    "% Interrupt Time",
    "Processor Speed",
    "Interrupts per Second",
    "CPU Effectiveness",
    "Packets/Second",
    "Packet Errors",
    "Segments Retransmitted/Second",
};

constexpr std::array<std::string_view, IometerBins::kBinCount> kIometerBinColumns = {
    "0 to 50 uS",
    "50 to 100 uS",
    "100 to 200 uS",
    "200 to 500 uS",
    "0.5 to 1 mS",
    "1 to 2 mS",
    "2 to 5 mS",
    "5 to 10 mS",
    "10 to 15 mS",
    "15 to 20 mS",
    "20 to 30 mS",
    "30 to 50 mS",
    "50 to 100 mS",
    "100 to 200 mS",
    "200 to 500 mS",
    "0.5 to 1 S",
    "1 to 2 s",
    "2 to 4.7 s",
    "4.7 to 5 s",
    "5 to 10 s",
    " >= 10 s",
};

constexpr std::array<std::string_view, 5> kPercentileNames
    = {"P50", "P90", "P99", "P99.9", "P99.99"};
constexpr std::array<std::string_view, 3> kPercentileDirections = {"", "Read ", "Write "};

// IOPrism's device-counter columns, after the percentiles (docs/results.md): the device
// total of the targets and the verdict on ALL and MANAGER rows, the target's own device
// on DISK rows.
constexpr std::array<std::string_view, 21> kDeviceColumns = {
    "Device Name",
    "Device Read IOps",
    "Device Write IOps",
    "Device Read MBps (Decimal)",
    "Device Write MBps (Decimal)",
    "Device Bytes Read",
    "Device Bytes Written",
    "Device Average Request Size",
    "Device Average Read Response Time",
    "Device Average Write Response Time",
    "Device Queue Size",
    "Device % Utilization",
    "Device Discards per Second",
    "Device Flushes per Second",
    "Device Verdict",
    "Device Read Verdict",
    "Device Write Verdict",
    "Compared Bytes Read",
    "Compared Bytes Written",
    "Device/Application Read Ratio",
    "Device/Application Write Ratio",
};

enum Column : std::size_t {
    TargetType,
    TargetName,
    AccessSpecName,
    Managers,
    Workers,
    Disks,
    Iops,
    ReadIops,
    WriteIops,
    MibpsBin,
    ReadMibpsBin,
    WriteMibpsBin,
    MbpsDec,
    ReadMbpsDec,
    WriteMbpsDec,
    TransactionsPerSecond,
    ConnectionsPerSecond,
    AvgResponse,
    AvgRead,
    AvgWrite,
    AvgTransaction,
    AvgConnection,
    MaxResponse,
    MaxRead,
    MaxWrite,
    MaxTransaction,
    MaxConnection,
    Errors,
    ReadErrors,
    WriteErrors,
    BytesRead,
    BytesWritten,
    ReadIos,
    WriteIos,
    Connections,
    TransactionsPerConnection,
    RawReadSum,
    RawWriteSum,
    RawTransactionSum,
    RawConnectionSum,
    RawMaxRead,
    RawMaxWrite,
    RawMaxTransaction,
    RawMaxConnection,
    RawRunTime,
    StartingSector,
    MaximumSize,
    QueueDepth,
    CpuUtilization,
    CpuUser,
    CpuPrivileged,
    CpuDpc,
    CpuInterrupt,
    ProcessorSpeed,
    InterruptsPerSecond,
    CpuEffectiveness,
    PacketsPerSecond,
    PacketErrors,
    SegmentsRetransmitted,
    FirstBin,
    FirstPercentile = FirstBin + IometerBins::kBinCount,
    FirstDevice = FirstPercentile + kPercentileNames.size() * kPercentileDirections.size(),
    DeviceName = FirstDevice,
    DeviceReadIops,
    DeviceWriteIops,
    DeviceReadMbps,
    DeviceWriteMbps,
    DeviceBytesRead,
    DeviceBytesWritten,
    DeviceAvgRequest,
    DeviceReadAwait,
    DeviceWriteAwait,
    DeviceQueueSize,
    DeviceUtil,
    DeviceDiscards,
    DeviceFlushes,
    DeviceVerdictColumn,
    DeviceReadVerdict,
    DeviceWriteVerdict,
    ComparedBytesRead,
    ComparedBytesWritten,
    DeviceReadRatio,
    DeviceWriteRatio,
    ColumnCount,
};
static_assert(std::size_t(ColumnCount - FirstDevice) == kDeviceColumns.size());
static_assert(std::size_t(FirstBin) == kIometerColumns.size());

// Our timestamps are nanoseconds: the raw columns are in ns, and "Processor Speed"
// (Iometer's timer resolution, raw ticks per second) says so.
constexpr std::uint64_t kTicksPerSecond = 1'000'000'000;

using Row = std::array<std::string, ColumnCount>;

std::string joinRow(const Row &row)
{
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
        if (i)
            line += ',';
        line += csvField(row[i]);
    }
    line += '\n';
    return line;
}

std::string iometerHeaderLine()
{
    std::string line = "'";
    bool first = true;
    auto add = [&](std::string_view name) {
        if (!first)
            line += ',';
        first = false;
        line += csvField(name);
    };
    for (auto name : kIometerColumns)
        add(name);
    for (auto name : kIometerBinColumns)
        add(name);
    for (auto direction : kPercentileDirections)
        for (auto p : kPercentileNames)
            add(fmt::format("{} {}Response Time", p, direction));
    for (auto name : kDeviceColumns)
        add(name);
    line += '\n';
    return line;
}

// The measured columns of ALL, MANAGER, WORKER and DISK rows.
// The latency bins (reads and writes together) and the percentiles of a scope.
void fillBinsAndPercentiles(Row &row, const ScopeResult &s)
{
    const Figures &f = s.figures;
    const Measurement &m = s.measurement;
    IometerBins bins = m.read.bins;
    bins.merge(m.write.bins);
    for (std::size_t i = 0; i < IometerBins::kBinCount; ++i)
        row[FirstBin + i] = integer(bins.counts[i]);

    // Percentiles (ms, like Iometer's response times); empty for a direction without
    // I/O, where there is no latency to report.
    const DirectionFigures *directions[] = {&f.total, &f.read, &f.write};
    for (std::size_t d = 0; d < 3; ++d) {
        const LatencyFigures &l = directions[d]->latency;
        const double values[] = {l.p50Us, l.p90Us, l.p99Us, l.p99_9Us, l.p99_99Us};
        for (std::size_t p = 0; p < kPercentileNames.size(); ++p)
            row[FirstPercentile + d * kPercentileNames.size() + p]
                = directions[d]->ios ? fixed6(values[p] / kUsPerMs) : std::string();
    }
}

void fillFigures(Row &row, const ScopeResult &s, bool rawColumns)
{
    const Figures &f = s.figures;
    const Measurement &m = s.measurement;
    row[Iops] = fixed6(f.total.iops);
    row[ReadIops] = fixed6(f.read.iops);
    row[WriteIops] = fixed6(f.write.iops);
    row[MibpsBin] = fixed6(f.total.mebibytesPerSecond);
    row[ReadMibpsBin] = fixed6(f.read.mebibytesPerSecond);
    row[WriteMibpsBin] = fixed6(f.write.mebibytesPerSecond);
    row[MbpsDec] = fixed6(f.total.megabytesPerSecond);
    row[ReadMbpsDec] = fixed6(f.read.megabytesPerSecond);
    row[WriteMbpsDec] = fixed6(f.write.megabytesPerSecond);
    row[TransactionsPerSecond] = fixed6(f.transactionsPerSecond);
    // Iometer's connection figures: a connection is a file's open to its close (a tree
    // operation, or transactionsPerConnection transactions with the connection rate).
    const PhaseFigures connection = f.connections ? f.connections->connection : PhaseFigures {};
    row[ConnectionsPerSecond] = fixed6(connection.perSecond);

    // The raw times come from the figures (each direction's mean x its I/Os, its maximum),
    // not from the histograms: the results JSON keeps the figures of every row and the
    // histogram of the All scope only, and a run read back from it must write the same
    // WORKER and DISK rows. Given back exactly (core/stats/figures.h); a maximum counts
    // an I/O still in flight with its age, as Maximum Response Time does.
    const std::uint64_t readSumNs = sumNsFromMeanUs(f.read.latency.meanUs, f.read.ios);
    const std::uint64_t writeSumNs = sumNsFromMeanUs(f.write.latency.meanUs, f.write.ios);
    // A transaction is a request and its reply I/O (or the request alone): its time is
    // the sum of their response times, so the average is the total response time over
    // the transactions. The maximum transaction time is not measured apart; the
    // maximum response time is written, a lower bound when replies are used.
    const std::uint64_t sumNs = readSumNs + writeSumNs;
    const double avgTransactionMs
        = m.transactions ? double(sumNs) / double(m.transactions) / 1e6 : 0.0;
    row[AvgResponse] = fixed6(f.total.latency.meanUs / kUsPerMs);
    row[AvgRead] = fixed6(f.read.latency.meanUs / kUsPerMs);
    row[AvgWrite] = fixed6(f.write.latency.meanUs / kUsPerMs);
    row[AvgTransaction] = fixed6(avgTransactionMs);
    row[AvgConnection] = fixed6(connection.latency.meanUs / kUsPerMs);
    row[MaxResponse] = fixed6(f.total.latency.maxUs / kUsPerMs);
    row[MaxRead] = fixed6(f.read.latency.maxUs / kUsPerMs);
    row[MaxWrite] = fixed6(f.write.latency.maxUs / kUsPerMs);
    row[MaxTransaction] = fixed6(f.total.latency.maxUs / kUsPerMs);
    row[MaxConnection] = fixed6(connection.latency.maxUs / kUsPerMs);

    row[Errors] = integer(f.total.errors);
    row[ReadErrors] = integer(f.read.errors);
    row[WriteErrors] = integer(f.write.errors);
    row[BytesRead] = integer(f.read.bytes);
    row[BytesWritten] = integer(f.write.bytes);
    row[ReadIos] = integer(f.read.ios);
    row[WriteIos] = integer(f.write.ios);
    row[Connections] = integer(connection.count);
    // Iometer writes -1 when the connection rate is off; otherwise the transactions per
    // connection, here as measured (1 on a tree; N with the rate, the connection still
    // open at the end aside).
    row[TransactionsPerConnection] = connection.count > 0
        ? integer(std::uint64_t(std::llround(double(m.transactions) / double(connection.count))))
        : "-1";

    if (rawColumns) {
        const auto maxNs = [](const DirectionFigures &d) -> std::uint64_t {
            return d.ios ? nsFromUs(d.latency.maxUs) : 0;
        };
        row[RawReadSum] = integer(readSumNs);
        row[RawWriteSum] = integer(writeSumNs);
        row[RawTransactionSum] = integer(sumNs);
        // From the figures (mean x count), so a results file read back writes the same.
        row[RawConnectionSum] = integer(std::uint64_t(
            std::llround(connection.latency.meanUs * 1e3 * double(connection.count))));
        row[RawMaxRead] = integer(maxNs(f.read));
        row[RawMaxWrite] = integer(maxNs(f.write));
        row[RawMaxTransaction] = integer(std::max(maxNs(f.read), maxNs(f.write)));
        row[RawMaxConnection]
            = integer(std::uint64_t(std::llround(connection.latency.maxUs * 1e3)));
        row[RawRunTime] = integer(std::uint64_t(std::max<std::int64_t>(m.elapsed.count(), 0)));
    }

    fillBinsAndPercentiles(row, s);
}

// A device's figures over the step (times in ms, like Iometer's response times); left
// empty where the kernel does not provide them.
void fillDevice(Row &row, const std::string &name, const DeviceFigures &f)
{
    row[DeviceName] = name;
    if (!f.valid)
        return;
    row[DeviceReadIops] = fixed6(f.readsPerSecond);
    row[DeviceWriteIops] = fixed6(f.writesPerSecond);
    row[DeviceReadMbps] = fixed6(f.readMegabytesPerSecond);
    row[DeviceWriteMbps] = fixed6(f.writeMegabytesPerSecond);
    row[DeviceBytesRead] = integer(f.readBytes);
    row[DeviceBytesWritten] = integer(f.writeBytes);
    row[DeviceAvgRequest] = fixed6(f.averageRequestBytes);
    if (f.hasTimes) {
        row[DeviceReadAwait] = fixed6(f.readAwaitMs);
        row[DeviceWriteAwait] = fixed6(f.writeAwaitMs);
        row[DeviceQueueSize] = fixed6(f.queueSize);
        row[DeviceUtil] = fixed6(f.utilPercent);
    }
    if (f.hasDiscards)
        row[DeviceDiscards] = fixed6(f.discardsPerSecond);
    if (f.hasFlushes)
        row[DeviceFlushes] = fixed6(f.flushesPerSecond);
}

// The device total of the targets and the verdict with its numbers (ALL, MANAGER).
void fillDeviceVerdict(Row &row, const DeviceMap &map, const DeviceReport &d)
{
    row[DeviceVerdictColumn] = std::string(toString(d.verdict.verdict));
    if (!d.available)
        return;
    std::string names;
    for (const auto &w : map.devices)
        if (w.inTotal)
            names += (names.empty() ? "" : " + ") + w.name;
    fillDevice(row, names, d.total);
    row[DeviceReadVerdict] = std::string(toString(d.verdict.read.verdict));
    row[DeviceWriteVerdict] = std::string(toString(d.verdict.write.verdict));
    row[ComparedBytesRead] = integer(d.verdict.read.appBytes);
    row[ComparedBytesWritten] = integer(d.verdict.write.appBytes);
    if (d.verdict.read.appBytes)
        row[DeviceReadRatio] = fixed6(d.verdict.read.ratio);
    if (d.verdict.write.appBytes)
        row[DeviceWriteRatio] = fixed6(d.verdict.write.ratio);
}

// The device carrying one target (DISK rows), by the target's path.
void fillTargetDevice(
    Row &row, const DeviceMap &map, const DeviceReport &d, const std::string &path)
{
    for (const auto &t : map.targets)
        if (t.targetPath == path && t.device && *t.device < map.devices.size()) {
            const std::size_t i = *t.device;
            fillDevice(
                row, map.devices[i].name, i < d.devices.size() ? d.devices[i] : DeviceFigures {});
            return;
        }
}

// Windows' privileged time includes DPC and interrupt time; Linux reports system, irq
// and softirq apart. Softirq is Linux's deferred work, the DPC of Windows.
void fillCpu(Row &row, const CpuFigures &cpu)
{
    if (!cpu.valid)
        return;
    row[CpuUtilization] = fixed6(cpu.busyPercent);
    row[CpuUser] = fixed6(cpu.userPercent);
    row[CpuPrivileged] = fixed6(cpu.systemPercent + cpu.irqPercent + cpu.softirqPercent);
    row[CpuDpc] = fixed6(cpu.softirqPercent);
    row[CpuInterrupt] = fixed6(cpu.irqPercent);
}

// ---------------------------------------------------------------- plan-derived facts

// What the rows need from the resolved plan that ran: which spec each worker ran, and
// each target's region and queue depth. A result whose plan has no workers (a run
// refused before its targets were prepared) leaves those columns empty.
class PlanFacts
{
public:
    explicit PlanFacts(const RunResult &result)
        : m_plan(result.plan)
    { }

    const Profile &profile() const { return m_plan.profile; }

    const AccessSpec *specOf(int worker, std::size_t step) const
    {
        return worker < 0 ? nullptr : m_plan.specOf(std::size_t(worker), step);
    }

    // The specs of a step in the order workers use them.
    std::vector<const AccessSpec *> specsOfStep(const StepResult &step) const
    {
        std::vector<const AccessSpec *> specs;
        for (std::size_t w = 0; w < m_plan.workers.size(); ++w)
            if (const AccessSpec *s = m_plan.specOf(w, step.step))
                if (std::find(specs.begin(), specs.end(), s) == specs.end())
                    specs.push_back(s);
        return specs;
    }

    // Every spec any worker runs in any step of the step's spec index, in worker order:
    // Iometer's one block of access specifications per index (a cycling step that leaves
    // some workers out still ran under the same specs).
    std::vector<const AccessSpec *> specsOfIndex(const StepResult &step) const
    {
        if (step.step >= m_plan.steps.size())
            return specsOfStep(step);
        const std::size_t index = m_plan.steps[step.step].specIndex;
        std::vector<const AccessSpec *> specs;
        for (std::size_t w = 0; w < m_plan.workers.size(); ++w)
            for (std::size_t s = 0; s < m_plan.steps.size(); ++s)
                if (m_plan.steps[s].specIndex == index)
                    if (const AccessSpec *spec = m_plan.specOf(w, s))
                        if (std::find(specs.begin(), specs.end(), spec) == specs.end())
                            specs.push_back(spec);
        return specs;
    }

    struct TargetFacts {
        std::uint64_t startingSector = 0;
        std::uint64_t maximumSize = 0; // sectors; 0 = the whole target
        std::uint32_t queueDepth = 0;
    };

    std::optional<TargetFacts> targetFacts(int worker, int target, std::size_t step) const
    {
        if (worker < 0 || std::size_t(worker) >= m_plan.workers.size())
            return std::nullopt;
        const ResolvedWorker &w = m_plan.workers[std::size_t(worker)];
        if (target < 0 || std::size_t(target) >= w.targets.size()
            || step >= w.outstandingIos.size())
            return std::nullopt;
        const ResolvedTarget &rt = w.targets[std::size_t(target)];
        const Target &t = rt.target;
        const std::uint64_t sector
            = rt.info.logicalBlockBytes > 0 ? rt.info.logicalBlockBytes : 512;
        TargetFacts f;
        f.startingSector = t.region.offsetBytes / sector;
        // Iometer's "Maximum Size" of a test file is the size it was prepared with.
        const std::uint64_t sizeBytes = t.region.sizeBytes == 0 && t.kind == TargetKind::TestFile
            ? t.testFileSizeBytes
            : t.region.sizeBytes;
        f.maximumSize = sizeBytes / sector;
        f.queueDepth = w.outstandingIos[step][std::size_t(target)];
        return f;
    }

private:
    const ResolvedPlan &m_plan;
};

// Iometer writes a setting for a group of targets only when they all share it.
class Common
{
public:
    void add(std::uint64_t v)
    {
        if (!m_value)
            m_value = v;
        else if (*m_value != v)
            m_mixed = true;
    }
    void unknown() { m_unknown = m_mixed = true; }
    std::string text() const { return m_value && !m_mixed ? integer(*m_value) : std::string(); }
    // Iometer writes -1 for a queue depth its targets do not share (a cycling step's
    // workers at different depths): the step is then told apart by its other columns.
    std::string depthText() const
    {
        return m_value && !m_mixed  ? integer(*m_value)
            : m_mixed && !m_unknown ? std::string("-1")
                                    : std::string();
    }

private:
    std::optional<std::uint64_t> m_value;
    bool m_mixed = false;
    bool m_unknown = false; // a target without facts (a result without its plan)
};

struct CommonSettings {
    Common startingSector, maximumSize, queueDepth;
    void add(const std::optional<PlanFacts::TargetFacts> &f)
    {
        if (!f) {
            startingSector.unknown();
            maximumSize.unknown();
            queueDepth.unknown();
            return;
        }
        startingSector.add(f->startingSector);
        maximumSize.add(f->maximumSize);
        queueDepth.add(f->queueDepth);
    }
    void fill(Row &row) const
    {
        row[StartingSector] = startingSector.text();
        row[MaximumSize] = maximumSize.text();
        row[QueueDepth] = queueDepth.depthText();
    }
};

std::string iometerTimestamp(std::chrono::system_clock::time_point time)
{
    const UtcTime t = utcTime(time);
    return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}:{:03}", t.year, t.month, t.day, t.hour,
        t.minute, t.second, t.millisecond);
}

// A step's end: the end of its last interval, counted from the moment the intervals
// count from (RunResult::timeOriginAt: after the targets were prepared, which may take
// minutes; the run's start for a file written before it was kept), as the results JSON
// keeps it (whole milliseconds; the interval's end to the nanosecond). One rule for the
// run as it ran and as read back from its file: counted from the exact moment, the live
// file would be a millisecond later whenever its part of a millisecond carries the sum
// past the next one.
std::chrono::system_clock::time_point stepEndTime(const RunResult &result, std::size_t step)
{
    using namespace std::chrono;
    double endSeconds = 0;
    for (const auto &interval : result.intervals)
        if (interval.step == step)
            endSeconds = std::max(endSeconds, interval.endSeconds);
    // A file read back may say anything; a step longer than about 30 years would
    // overflow the clock's nanoseconds, so it ends there.
    constexpr double kLongestSeconds = 1e9;
    return floor<milliseconds>(result.timeOriginAt.value_or(result.startedAt))
        + round<system_clock::duration>(duration<double>(std::min(endSeconds, kLongestSeconds)));
}

std::string accessSpecsBlock(const std::vector<const AccessSpec *> &specs)
{
    std::string out = "'Access specifications\n";
    for (const AccessSpec *spec : specs) {
        out += "'Access specification name,default assignment\n";
        out += csvField(spec->name) + ","
            + integer(static_cast<std::uint64_t>(spec->defaultAssignment)) + "\n";
        out += "'size,% of size,% reads,% random,delay,burst,align,reply\n";
        for (const auto &l : spec->lines)
            out += fmt::format("{},{},{},{},{},{},{},{},\n", l.transferSizeBytes, l.sharePercent,
                l.percentRead, l.percentRandom, l.delay.count(), l.burstLength, l.alignmentBytes,
                l.replySizeBytes);
    }
    out += "'End access specifications\n";
    return out;
}

// The scopes of one manager (Iometer's MANAGER): the step's All on one host, or one
// Host scope of a run of several, with its workers and targets at [begin, end).
struct ManagerPart {
    const ScopeResult *total = nullptr;
    std::string name;
    const CpuFigures *cpu = nullptr;
    double cpuEffectiveness = 0;
    const DeviceMap *map = nullptr;
    const DeviceReport *devices = nullptr;
    std::size_t begin = 0;
    std::size_t end = 0;
};

// Workers, disks and their common settings over a range of a step's scopes.
struct ScopeCounts {
    std::size_t workers = 0;
    std::size_t disks = 0;
    CommonSettings settings;
};

ScopeCounts countScopes(
    const StepResult &step, const PlanFacts &plan, std::size_t begin, std::size_t end)
{
    ScopeCounts c;
    for (std::size_t i = begin; i < end; ++i) {
        const Scope &s = step.scopes[i].scope;
        if (s.kind == Scope::Kind::Worker)
            ++c.workers;
        if (s.kind == Scope::Kind::Target) {
            ++c.disks;
            c.settings.add(plan.targetFacts(s.worker, s.target, step.step));
        }
    }
    return c;
}

// The WORKER and DISK rows of a manager, each worker followed by its disks, as the
// filter keeps them.
std::string scopeRows(const StepResult &step, const PlanFacts &plan, RecordFilter filter,
    const std::string &specName, const ManagerPart &manager)
{
    const bool workerRows = filter == RecordFilter::All || filter == RecordFilter::NoTargets;
    const bool diskRows = filter == RecordFilter::All || filter == RecordFilter::NoWorkers;
    const std::string speed = integer(kTicksPerSecond);
    std::string out;
    for (std::size_t i = manager.begin; i < manager.end; ++i) {
        const ScopeResult &s = step.scopes[i];
        Row row {};
        if (s.scope.kind == Scope::Kind::Worker) {
            if (!workerRows)
                continue;
            CommonSettings mine;
            std::size_t disks = 0;
            for (std::size_t j = i + 1;
                 j < manager.end && step.scopes[j].scope.kind == Scope::Kind::Target; ++j) {
                ++disks;
                mine.add(plan.targetFacts(s.scope.worker, step.scopes[j].scope.target, step.step));
            }
            const AccessSpec *spec = plan.specOf(s.scope.worker, step.step);
            row[TargetType] = "WORKER";
            row[TargetName] = s.scope.label;
            row[AccessSpecName] = spec ? spec->name : specName;
            row[Disks] = integer(disks);
            fillFigures(row, s, true);
            mine.fill(row);
        } else if (s.scope.kind == Scope::Kind::Target) {
            if (!diskRows)
                continue;
            row[TargetType] = "DISK";
            row[TargetName] = s.scope.targetPath.empty() ? s.scope.label : s.scope.targetPath;
            fillFigures(row, s, true);
            CommonSettings one;
            one.add(plan.targetFacts(s.scope.worker, s.scope.target, step.step));
            one.fill(row);
            fillTargetDevice(row, *manager.map, *manager.devices, s.scope.targetPath);
        } else {
            continue;
        }
        row[ProcessorSpeed] = speed;
        out += joinRow(row);
    }
    return out;
}

// MANAGER, its PROCESSOR row and its workers' and disks' rows.
std::string managerRows(const StepResult &step, const PlanFacts &plan, RecordFilter filter,
    const std::string &specName, const ManagerPart &manager)
{
    const std::string speed = integer(kTicksPerSecond);
    const ScopeCounts counts = countScopes(step, plan, manager.begin, manager.end);
    // MANAGER: the manager's figures with the raw columns.
    Row row {};
    row[TargetType] = "MANAGER";
    row[TargetName] = manager.name;
    row[AccessSpecName] = specName;
    row[Workers] = integer(counts.workers);
    row[Disks] = integer(counts.disks);
    fillFigures(row, *manager.total, true);
    counts.settings.fill(row);
    fillCpu(row, *manager.cpu);
    row[ProcessorSpeed] = speed;
    if (manager.cpu->valid)
        row[CpuEffectiveness] = fixed6(manager.cpuEffectiveness);
    fillDeviceVerdict(row, *manager.map, *manager.devices);
    std::string out = joinRow(row);

    // PROCESSOR: Iometer has one row per CPU; the counters give all CPUs together, so
    // there is one aggregate row.
    row = Row {};
    row[TargetType] = "PROCESSOR";
    row[TargetName] = "All CPUs";
    fillCpu(row, *manager.cpu);
    row[ProcessorSpeed] = speed;
    out += joinRow(row);
    return out + scopeRows(step, plan, filter, specName, manager);
}

// The managers of a step: this host alone (the same figures as All), or each host of a
// run of several, from its Host scope to the next.
std::vector<ManagerPart> managersOf(
    const RunResult &result, const Environment &env, const StepResult &step)
{
    std::vector<ManagerPart> managers;
    if (result.hosts.empty() || step.hosts.size() != result.hosts.size()) {
        ManagerPart one;
        one.total = &step.scopes.front();
        one.name
            = !result.plan.profile.hosts.empty() && !result.plan.profile.hosts.front().name.empty()
            ? result.plan.profile.hosts.front().name
            : env.hostName;
        one.cpu = &step.cpu;
        one.cpuEffectiveness = step.cpuEffectiveness;
        one.map = &result.deviceMap;
        one.devices = &step.devices;
        one.begin = 1;
        one.end = step.scopes.size();
        managers.push_back(std::move(one));
        return managers;
    }
    for (std::size_t i = 1; i < step.scopes.size(); ++i) {
        const Scope &s = step.scopes[i].scope;
        if (s.kind != Scope::Kind::Host || s.host < 0 || std::size_t(s.host) >= result.hosts.size())
            continue;
        if (!managers.empty())
            managers.back().end = i;
        const auto h = std::size_t(s.host);
        ManagerPart m;
        m.total = &step.scopes[i];
        m.name = result.hosts[h].name;
        m.cpu = &step.hosts[h].cpu;
        m.cpuEffectiveness = step.hosts[h].cpuEffectiveness;
        m.map = &result.hosts[h].deviceMap;
        m.devices = &step.hosts[h].devices;
        m.begin = i + 1;
        m.end = step.scopes.size();
        managers.push_back(std::move(m));
    }
    return managers;
}

std::string resultRows(const RunResult &result, const Environment &env, const StepResult &step,
    const PlanFacts &plan, RecordFilter filter)
{
    if (filter == RecordFilter::None || step.scopes.empty())
        return {};

    const std::vector<ManagerPart> managers = managersOf(result, env, step);
    const ScopeCounts counts = countScopes(step, plan, 1, step.scopes.size());
    const ScopeResult &total = step.scopes.front();
    std::string out;

    // ALL: the whole test; Iometer leaves its raw columns empty.
    Row row {};
    // Iometer names the spec; the step's counts and queue depth tell cycling steps apart.
    const std::string &specName = step.step < result.plan.steps.size()
        ? result.plan.steps[step.step].specName
        : step.stepName;
    row[TargetType] = "ALL";
    row[TargetName] = "All";
    row[AccessSpecName] = specName;
    row[Managers] = integer(std::max<std::size_t>(managers.size(), 1));
    row[Workers] = integer(counts.workers);
    row[Disks] = integer(counts.disks);
    fillFigures(row, total, false);
    counts.settings.fill(row);
    fillCpu(row, step.cpu);
    if (step.cpu.valid)
        row[CpuEffectiveness] = fixed6(step.cpuEffectiveness);
    fillDeviceVerdict(row, result.deviceMap, step.devices);
    out += joinRow(row);

    for (const auto &manager : managers)
        out += managerRows(step, plan, filter, specName, manager);
    return out;
}

} // namespace

std::string writeIometerCsv(
    const RunResult &result, const Environment &environment, RecordFilter filter)
{
    const PlanFacts plan(result);
    std::string out;
    out += "'Test Type,Test Description\n";
    out += integer(static_cast<std::uint64_t>(result.plan.profile.setup.testType)) + ","
        + csvField(result.plan.profile.setup.description) + "\n";
    out += "'Version\n";
    out += csvField(environment.toolVersion.empty() ? std::string("IOPrism")
                                                    : "IOPrism " + environment.toolVersion)
        + "\n";
    out += "'Time Stamp\n" + iometerTimestamp(result.startedAt) + "\n";

    const std::string header = iometerHeaderLine();
    // Iometer writes the access specifications once per spec index, then one 'Results
    // block per step (cycling makes several steps of one index). A series' points run
    // variants of a spec (another size, % read...): each new set of specs is written.
    std::vector<const AccessSpec *> written;
    std::optional<std::size_t> writtenIndex;
    for (const auto &step : result.steps) {
        const PlannedStep *planned
            = step.step < result.plan.steps.size() ? &result.plan.steps[step.step] : nullptr;
        const auto specs = planned && seriesPointOf(result.plan.profile.setup, *planned)
            ? plan.specsOfStep(step)
            : plan.specsOfIndex(step);
        const std::optional<std::size_t> index
            = planned ? std::optional(planned->specIndex) : std::nullopt;
        if (specs != written || !index || index != writtenIndex) {
            out += accessSpecsBlock(specs);
            written = specs;
            writtenIndex = index;
        }
        out += "'Results\n";
        out += header;
        out += resultRows(result, environment, step, plan, filter);
        out += "'Time Stamp\n" + iometerTimestamp(stepEndTime(result, step.step)) + "\n";
    }

    // Iometer ends a completed test with "'End Test" and an aborted one with "Aborted
    // test". A stop is the normal end of a run without a time limit.
    const bool aborted = result.error
        || (result.stoppedByUser
            && (result.plan.profile.setup.runTime.count() != 0
                || result.steps.size() < result.plan.stepCount()));
    out += aborted ? "Aborted test\n" : "'End Test\n";
    return out;
}

} // namespace ioprism::core
