// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/summary.h"

#include "app/cli/terminal_text.h"
#include "core/profile/names.h"
#include "core/profile/series.h"
#include "core/profile/sweep_parameter.h"
#include "core/profile/units.h"
#include "core/report/step_summary.h"
#include "core/run/plan.h"
#include "core/run/series_result.h"
#include "core/run/step_findings.h"

#include <algorithm>
#include <fmt/format.h>

namespace ioprism::cli {

using namespace ioprism::core;

static std::string rwText(std::uint32_t read)
{
    return fmt::format("{}% read", read);
}

namespace {

std::string megabytes(std::uint64_t bytes)
{
    return fmt::format("{:.1f} MB", double(bytes) / 1e6);
}

// "reads: agree (app 512.3 MB, device 512.0 MB, device/app 1.00)"
std::string directionText(const char *name, const DirectionVerdict &d)
{
    if (d.verdict == Verdict::Idle)
        return fmt::format(
            "{}: idle (app {}, device {})", name, megabytes(d.appBytes), megabytes(d.deviceBytes));
    const std::string ratio
        = d.appBytes ? fmt::format(", device/app {:.2f}", d.ratio) : std::string();
    return fmt::format("{}: {} (app {}, device {}{})", name, toString(d.verdict),
        megabytes(d.appBytes), megabytes(d.deviceBytes), ratio);
}

std::string deviceRow(const std::string &label, std::string_view role, const DeviceFigures &f)
{
    if (!f.valid)
        return fmt::format("  {:<16.16} {:<8} (not readable)\n", label, role);
    const auto timed = [&](double v, int decimals) {
        return f.hasTimes ? fmt::format("{:.{}f}", v, decimals) : std::string("-");
    };
    return fmt::format("  {:<16.16} {:<8} {:>9.0f} {:>9.0f} {:>8.1f} {:>8.1f} {:>9} {:>8} {:>8} "
                       "{:>7} {:>6} {:>7} {:>7}\n",
        label, role, f.readsPerSecond, f.writesPerSecond, f.readMegabytesPerSecond,
        f.writeMegabytesPerSecond, fmt::format("{:.1f}", f.averageRequestBytes / 1024),
        timed(f.readAwaitMs, 2), timed(f.writeAwaitMs, 2), timed(f.queueSize, 2),
        timed(f.utilPercent, 1), f.hasDiscards ? fmt::format("{:.0f}", f.discardsPerSecond) : "-",
        f.hasFlushes ? fmt::format("{:.0f}", f.flushesPerSecond) : "-");
}

std::string deviceTable(
    const DeviceMap &map, const std::vector<DeviceFigures> &devices, const DeviceFigures &total)
{
    std::string out = fmt::format(
        "  {:<16} {:<8} {:>9} {:>9} {:>8} {:>8} {:>9} {:>8} {:>8} {:>7} {:>6} {:>7} {:>7}\n",
        "device", "role", "r/s", "w/s", "rMB/s", "wMB/s", "areq-KiB", "r_await", "w_await",
        "aqu-sz", "%util", "disc/s", "flush/s");
    for (std::size_t i = 0; i < devices.size() && i < map.devices.size(); ++i)
        out += deviceRow(map.devices[i].name, toString(map.devices[i].role), devices[i]);
    out += deviceRow("targets total", "", total);
    return out;
}

} // namespace

std::string verdictText(const DeviceVerdict &v)
{
    if (v.verdict == Verdict::NoDeviceCounters)
        return std::string(toString(v.verdict));
    return fmt::format("{} — {}; {}", toString(v.verdict), directionText("reads", v.read),
        directionText("writes", v.write));
}

namespace {

// A series' axes in the CLI's form: "bs=512..16MiB:x2 x qd=1..32:x2".
std::string axesText(const Series &series)
{
    std::string axes;
    for (const auto &axis : series.axes)
        axes += (axes.empty() ? "" : " x ") + formatSweep(axis);
    return axes;
}

} // namespace

namespace {

// One line of an access specification: what every line has, then only the options it
// sets, so that a plain line stays short.
std::string specLineText(const SpecLine &l)
{
    std::string out = fmt::format("    {:>7} {:>3}% of spec, {}, {}% random, align {}",
        formatSize(l.transferSizeBytes), l.sharePercent, rwText(l.percentRead), l.percentRandom,
        l.alignmentBytes ? formatSize(l.alignmentBytes) : std::string("sector"));
    if (l.delay.count() || l.burstLength != 1)
        out += fmt::format(", burst {} every {}", l.burstLength, formatDuration(l.delay));
    if (l.replySizeBytes)
        out += fmt::format(", reply {}", formatSize(l.replySizeBytes));
    if (l.distribution.kind != DistributionKind::Uniform)
        out += fmt::format(", {} distribution", toString(l.distribution.kind));
    if (l.rateLimit.iops > 0)
        out += fmt::format(", ≤ {} IOPS", l.rateLimit.iops);
    if (l.rateLimit.megabytesPerSecond > 0)
        out += fmt::format(", ≤ {} MB/s", l.rateLimit.megabytesPerSecond);
    if (l.thinkTime.count())
        out += fmt::format(", think {}", formatDuration(l.thinkTime));
    if (l.dataPattern)
        out += fmt::format(", data {}", toString(l.dataPattern->kind));
    out += "\n";
    return out;
}

std::string specsText(const Profile &p)
{
    std::string out = fmt::format("\nAccess specifications ({}):\n", p.specs.size());
    for (const auto &spec : p.specs) {
        out += fmt::format("  {}", terminalText(spec.name));
        if (spec.queueDepth)
            out += fmt::format("  [queue depth {}]", *spec.queueDepth);
        if (spec.threads)
            out += fmt::format("  [{} threads]", *spec.threads);
        out += "\n";
        for (const auto &l : spec.lines)
            out += specLineText(l);
    }
    return out;
}

// A worker's target; a target the profile names but this machine lacks says so, so
// that the user re-points it before running.
std::string targetText(const Target &t)
{
    std::string out = fmt::format("    {} {} ({}", toString(t.kind), t.path, toString(t.cacheMode));
    if (t.kind == TargetKind::TestFile)
        out += fmt::format(", file {}", formatSize(t.testFileSizeBytes));
    if (t.region.offsetBytes || t.region.sizeBytes)
        out += fmt::format(", region {} + {}", formatSize(t.region.offsetBytes),
            t.region.sizeBytes ? formatSize(t.region.sizeBytes) : std::string("rest"));
    if (t.writeThrough)
        out += ", write-through";
    if (t.unresolved)
        out += ", NOT FOUND on this machine: re-point it";
    out += ")\n";
    return out;
}

std::string hostsText(const Profile &p)
{
    std::string out;
    for (const auto &h : p.hosts) {
        out += fmt::format("\nHost {} ({} workers):\n",
            h.name.empty() ? std::string("this machine") : h.name, h.workers.size());
        for (const auto &w : h.workers) {
            std::string specs;
            for (const auto &n : w.assignedSpecs)
                specs += (specs.empty() ? "" : ", ") + n;
            out += fmt::format("  {}: {} outstanding I/Os per target, seed {}, data {}, runs: {}\n",
                w.name, w.outstandingIos, w.seed ? std::to_string(*w.seed) : std::string("random"),
                toString(w.dataPattern.kind), specs.empty() ? std::string("(nothing)") : specs);
            for (const auto &t : w.targets)
                out += targetText(t);
        }
    }
    return out;
}

// The steps, for every test type: a NORMAL test is one step per spec index, but
// Idle pauses and indexes nobody runs at change that count (Iometer's CalcRunCount).
std::string stepsText(const Profile &p)
{
    const auto &s = p.setup;
    const auto steps = plannedSteps(p);
    std::string out = fmt::format("\n{} {}", steps.size(), steps.size() == 1 ? "step" : "steps");
    if (s.series) {
        out += fmt::format(" (series {}; {} trial{})", axesText(*s.series), s.series->repeat,
            s.series->repeat == 1 ? "" : "s");
    }
    out += ":\n";
    for (std::size_t i = 0; i < steps.size(); ++i) {
        if (steps.size() > 12 && i == 6) { // the first six and the last six
            out += fmt::format("  ... {} more ...\n", steps.size() - 12);
            i = steps.size() - 6;
        }
        out += fmt::format("  {:>3}. {}\n", i + 1, steps[i].name);
    }
    return out;
}

} // namespace

std::string describeProfile(const Profile &p)
{
    std::string out;
    const auto &s = p.setup;
    // The user's words as written, then the facts made from the profile as it is.
    if (!s.description.empty())
        out += fmt::format("{}\n", terminalText(s.description));
    out += fmt::format("Runs: {}\n\n", terminalText(describeRun(p)));
    out += fmt::format(
        "Run time {} (0 = until stopped), ramp-up {}, sampling every {}, test type {}\n",
        formatDuration(s.runTime), formatDuration(s.rampUp), formatDuration(s.interval),
        toString(s.testType));
    out += specsText(p);
    out += hostsText(p);
    out += stepsText(p);
    return out;
}

std::string intervalLine(const IntervalSample &s)
{
    const auto &f = s.scopes.front().figures;
    std::string line = fmt::format("[{:7.1f}s] {:<22.22} {:>10.0f} IOPS {:>9.1f} MB/s  ",
        s.endSeconds, terminalText(s.stepName), f.total.iops, f.total.megabytesPerSecond);
    // No I/O completed: there is no latency to show (the figures would read 0 µs).
    if (f.total.ios == 0)
        line += fmt::format("{:<32}", "no I/O");
    else
        line += fmt::format("lat mean {:>9} p99 {:>9}", formatLatencyUs(f.total.latency.meanUs),
            formatLatencyUs(f.total.latency.p99Us));
    if (s.cpu.valid)
        line += fmt::format("  CPU {:5.1f}%", s.cpu.busyPercent);
    if (s.devices.available) {
        // Both directions idle: nothing was compared, so the headline "agree" (the core's
        // neutral headline for an idle span) would claim a confirmation that was not made.
        const auto &v = s.devices.verdict;
        const bool idle = v.read.verdict == Verdict::Idle && v.write.verdict == Verdict::Idle;
        line += fmt::format("  dev {:>7.1f} MB/s {}",
            s.devices.total.readMegabytesPerSecond + s.devices.total.writeMegabytesPerSecond,
            idle ? std::string_view("idle") : toString(v.verdict));
    }
    if (s.phase == RunPhase::RampUp)
        line += "  (ramp-up, not counted)";
    else if (s.phase == RunPhase::Preconditioning)
        line += "  (preconditioning, in no step)";
    if (f.total.stalledIos > 0)
        line += fmt::format("  STALLED: {} I/O in flight for {}", f.total.stalledIos,
            formatLatencyUs(f.total.oldestInFlightUs));
    return line;
}

std::string finishedRunTables(const RunResult &result)
{
    std::string passes;
    // CrystalDiskMark's passes: each test's best pass beside its passes' mean and spread.
    if (result.plan.profile.setup.passesPerTest() > 1 && !result.steps.empty()) {
        auto rows = stepSummary(result);
        for (auto &row : rows)
            row.name = terminalText(row.name);
        passes = "\nPasses: each test's best pass, and the mean and min-max of its passes\n"
            + formatStepSummary(rows, TableFormat::Text);
    }
    return resultTable(result) + seriesTable(result) + passes;
}

namespace {

// Files opened and closed in a scope (a file tree, or Iometer's connection rate): files
// opened per second and the time of each open, close and whole connection (operation).
// `byWorker`: the target's line names its worker ("Worker 2 / path"), for when several
// workers open files and a bare path would repeat.
std::string connectionLine(const ScopeResult &sc, bool byWorker)
{
    const ConnectionFigures &c = *sc.figures.connections;
    const std::string where = terminalText(
        sc.scope.kind == Scope::Kind::All || byWorker ? sc.scope.label : sc.scope.targetPath);
    const std::string failed = c.open.errors + c.close.errors > 0
        ? fmt::format("; {} failed", c.open.errors + c.close.errors)
        : std::string();
    // No connection ended: a rate or a time would be made of nothing (a step stopped
    // before its first operation completed).
    if (c.connection.count == 0)
        return fmt::format("Files {}: no file opened and closed{}\n", where, failed);
    const auto phase = [](const PhaseFigures &p) {
        return fmt::format("mean {} p99 {} max {}", formatLatencyUs(p.latency.meanUs),
            formatLatencyUs(p.latency.p99Us), formatLatencyUs(p.latency.maxUs));
    };
    return fmt::format("Files {}: {:.0f} opened/s; open {}; close {}; open to close {} ({} "
                       "connections, {:.0f}/s){}\n",
        where, c.open.perSecond, phase(c.open), phase(c.close), phase(c.connection),
        c.connection.count, c.connection.perSecond, failed);
}

} // namespace

namespace {

// One row of a step's table: workers indented under their host, targets under their worker.
std::string scopeRow(const ScopeResult &sc)
{
    const auto &f = sc.figures;
    std::string label;
    if (sc.scope.kind == Scope::Kind::Worker)
        label.append(2, ' ').append(terminalText(sc.scope.label));
    else if (sc.scope.kind == Scope::Kind::Target)
        label.append(4, ' ').append(terminalText(sc.scope.targetPath));
    else
        label = terminalText(sc.scope.label);
    // No I/O completed: no latency to show, except the age of I/O still in flight (a stuck
    // device), which is in the maximum.
    const bool none = f.total.ios == 0;
    const auto latency
        = [&](double us, bool shown) { return shown ? formatLatencyUs(us) : std::string("-"); };
    return fmt::format("{:<34.34} {:>11.0f} {:>11.0f} {:>10.1f} {:>10.1f} {:>10} {:>10} "
                       "{:>10} {:>10} {:>7}\n",
        label, f.read.iops, f.write.iops, f.total.megabytesPerSecond, f.total.mebibytesPerSecond,
        latency(f.total.latency.meanUs, !none), latency(f.total.latency.p99Us, !none),
        latency(f.total.latency.p99_9Us, !none),
        latency(f.total.latency.maxUs, !none || f.total.oldestInFlightUs > 0), f.total.errors);
}

// `where`: "" for the step's CPU, " on db1" for a host's in a run of several.
std::string cpuLine(const CpuFigures &cpu, double effectiveness, const std::string &where)
{
    if (!cpu.valid)
        return {};
    return fmt::format("CPU{}: {:.1f}% busy (user {:.1f}%, system {:.1f}%, iowait {:.1f}%, irq "
                       "{:.1f}%, softirq {:.1f}%), IOPrism itself {:.1f}%; {:.0f} IOPS per CPU %\n",
        where, cpu.busyPercent, cpu.userPercent, cpu.systemPercent, cpu.iowaitPercent,
        cpu.irqPercent, cpu.softirqPercent, cpu.processPercent, effectiveness);
}

// The latency verdict's line, and the CPU-bound one (docs/device-counters.md).
std::string latencyLines(const DeviceMap &map, const LatencyJudgement &l, const std::string &where)
{
    std::string out;
    const auto compared = [](LatencyVerdict v) {
        return v != LatencyVerdict::NoDeviceTimes && v != LatencyVerdict::TooFewIos;
    };
    if (compared(l.verdict)) {
        std::string devices;
        for (const auto &d : map.devices)
            if (d.inTotal)
                devices += (devices.empty() ? "" : ", ") + d.name;
        std::string directions;
        for (const auto &[name, d] : {std::pair {"reads", &l.read}, std::pair {"writes", &l.write}})
            if (compared(d->verdict))
                directions += fmt::format("{}{}: {} (app {}, device {})",
                    directions.empty() ? "" : "; ", name, toString(d->verdict),
                    formatLatencyUs(d->appMeanUs), formatLatencyUs(d->deviceAwaitUs));
        out += fmt::format("Latency verdict{}: {} — {}\n", where, toString(l.verdict), directions);
        switch (l.verdict) {
        case LatencyVerdict::KernelWorkers:
            out += fmt::format("  io_uring handed the I/O to its kernel worker threads ({} of "
                               "their CPU per I/O): {} did not take it without blocking (no "
                               "nowait support), so the latency is the hand-off's; --engine "
                               "sync measures the device\n",
                formatLatencyUs(l.kernelWorkerUsPerIo), devices.empty() ? "the device" : devices);
            break;
        case LatencyVerdict::CpuStarved:
            out += fmt::format("  IOPrism's threads waited {} per I/O for a CPU: the host was "
                               "busy, and the rest of the latency is that wait\n",
                formatLatencyUs(l.waitUsPerIo));
            break;
        case LatencyVerdict::HostPath:
            out += "  the difference is spent between IOPrism and the device, by no cause "
                   "IOPrism can read\n";
            break;
        default:
            break;
        }
    }
    if (l.cpuBound)
        out += fmt::format(
            "CPU-bound{}: the busiest worker never waited for the device ({:.0f}% of "
            "the measured time on a CPU or waiting for one), so the figures describe the host, not "
            "the device: more "
            "workers, or an engine that costs less CPU per I/O, would move them\n",
            where, l.busiestWorkerRunnableShare * 100);
    return out;
}

std::string deviceLines(const DeviceMap &map, const DeviceReport &devices, const std::string &where)
{
    std::string out;
    if (devices.available) {
        out += fmt::format("Devices{} (iostat figures over the measured time):\n", where);
        out += deviceTable(map, devices.devices, devices.total);
    }
    if (!map.empty() || devices.available)
        out += fmt::format("Device verdict{}: {}\n", where, verdictText(devices.verdict));
    out += latencyLines(map, devices.latency, where);
    return out;
}

// Per worker and target that opened files (as the table above, and Iometer, report per
// worker), each named by its worker when several did, and for All as well.
std::string connectionLines(const StepResult &step)
{
    const auto opening
        = std::count_if(step.scopes.begin(), step.scopes.end(), [](const ScopeResult &sc) {
              return sc.figures.connections && sc.scope.kind == Scope::Kind::Target;
          });
    std::string out;
    for (const auto &sc : step.scopes)
        if (sc.figures.connections
            && (sc.scope.kind == Scope::Kind::Target
                || (sc.scope.kind == Scope::Kind::All && opening > 1)))
            out += connectionLine(sc, opening > 1);
    return out;
}

// --stonewall: who moved the amount, and that every host stopped when the first did (the
// rows above are what each really moved).
std::string stonewallLine(const RunResult &r, const StepResult &step)
{
    if (!step.endedByAmount)
        return {};
    if (step.hosts.empty() || step.hosts.size() != r.hosts.size())
        return fmt::format("stonewall: the step ended when it had moved its amount ({})\n",
            sizeText(step.scopes.front().figures.total.bytes, SizeStyle::Rounded));
    std::string first;
    for (std::size_t h = 0; h < step.hosts.size(); ++h)
        if (step.hosts[h].endedByAmount)
            for (const auto &sc : step.scopes)
                if (sc.scope.kind == Scope::Kind::Host && sc.scope.host == int(h))
                    first += (first.empty() ? "" : ", ")
                        + fmt::format("{} ({})", terminalText(r.hosts[h].name),
                            sizeText(sc.figures.total.bytes, SizeStyle::Rounded));
    // Hosts as fast as the first reach the amount too before its end reaches them: each
    // that did is named with what it moved.
    return fmt::format("stonewall: the step ended on every host when the first had moved the "
                       "amount; reached by {}; each host kept the bytes it moved\n",
        first.empty() ? "a host" : first);
}

// A step under a steady-state rule: the verdict, and every round's figure with the
// window's in brackets.
std::string steadyStateLines(const StepResult &step)
{
    if (!step.steadyState)
        return {};
    const SteadyStateRecord &steady = *step.steadyState;
    const SteadyStateResult &judged = steady.result;
    const SteadyStateMetric metric = steady.setup.metric;
    std::string out = fmt::format("steady state ({} on {}, rounds of {}): {}",
        steadyStateRuleName(steady.setup.criteria.rule), steadyStateMetricName(metric),
        formatDuration(steady.setup.roundTime), describeSteadyStateVerdict(steady));
    std::string rounds;
    for (std::size_t i = 0; i < steady.rounds.size(); ++i) {
        const bool first = judged.window && i == judged.window->first;
        const bool last = judged.window && i + 1 == judged.window->first + judged.window->count;
        rounds += fmt::format(" {}{}{}", first ? "[" : "",
            steadyStateFigureText(steady.rounds[i].figure, metric), last ? "]" : "");
    }
    return out
        + fmt::format("\n  rounds ({}):{}\n", steadyStateMetricUnit(metric),
            rounds.empty() ? std::string(" none complete") : rounds);
}

// A step whose write rate fell off a cliff (none found: nothing is said).
std::string writeCliffLine(const StepResult &step)
{
    if (!step.writeCliff || !step.writeCliff->cliff)
        return {};
    return "write cliff: " + describeWriteCliff(*step.writeCliff) + "\n";
}

std::string stepTable(const RunResult &r, const StepResult &step)
{
    // A series point of 1000 operations lasts milliseconds: "0.0 s" would say nothing.
    const std::string measured = step.measuredSeconds < 1
        ? fmt::format("{:.1f} ms", step.measuredSeconds * 1000)
        : fmt::format("{:.1f} s", step.measuredSeconds);
    std::string out = fmt::format("\n== {}: {} measured{}\n", terminalText(step.stepName), measured,
        step.complete ? "" : " (incomplete: stopped early)");
    out += fmt::format("{:<34} {:>11} {:>11} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>7}\n",
        "scope", "read IOPS", "write IOPS", "MB/s", "MiB/s", "mean", "p99", "p99.9", "max",
        "errors");
    for (const auto &sc : step.scopes)
        out += scopeRow(sc);
    out += connectionLines(step);
    out += stonewallLine(r, step);
    out += steadyStateLines(step);
    out += writeCliffLine(step);
    // A run of several hosts: the CPU is the hosts' mean, and each host's own CPU and
    // devices follow (devices are judged per host).
    out += cpuLine(step.cpu, step.cpuEffectiveness, step.hosts.empty() ? "" : " (hosts' mean)");
    if (step.hosts.empty() || step.hosts.size() != r.hosts.size())
        return out + deviceLines(r.deviceMap, step.devices, "");
    for (std::size_t h = 0; h < step.hosts.size(); ++h) {
        const std::string where = " on " + terminalText(r.hosts[h].name);
        out += cpuLine(step.hosts[h].cpu, step.hosts[h].cpuEffectiveness, where);
        out += deviceLines(r.hosts[h].deviceMap, step.hosts[h].devices, where);
    }
    return out;
}

} // namespace

std::string resultTable(const RunResult &r)
{
    std::string out;
    if (r.preconditioning)
        out += terminalText(describePreconditioning(*r.preconditioning)) + "\n";
    for (const auto &step : r.steps)
        out += stepTable(r, step);
    for (const auto &t : r.deviceMap.targets)
        if (!t.device)
            out += fmt::format(
                "Device counters: {}: {}\n", terminalText(t.targetPath), terminalText(t.note));
    const auto &tail = r.deviceTail;
    if (tail.worthReporting()) {
        out += fmt::format("After the run: {} written by the application (ramp-up included) were "
                           "not on the device "
                           "yet; the device wrote {} in the {:.1f} s after the end ({})",
            megabytes(tail.pendingWriteBytes), megabytes(tail.flushedWriteBytes), tail.seconds,
            tail.idle ? "then idle" : "sampling stopped at the limit");
        if (tail.remainingWriteBytes > 0)
            out += fmt::format(
                "; {} never reached it while sampled (still dirty in the cache, or overwritten "
                "there before it was written)",
                megabytes(tail.remainingWriteBytes));
        out += "\n";
        if (tail.flushedWriteBytes > 0 && !tail.devices.empty())
            out += deviceTable(r.deviceMap, tail.devices, tail.total);
    }
    return out;
}

namespace {

std::string pointValues(const Series &series, const std::vector<std::uint64_t> &values)
{
    std::string out;
    for (std::size_t a = 0; a < series.axes.size() && a < values.size(); ++a)
        out += fmt::format("{:>11}", describeSweepValue(series.axes[a].parameter, values[a]));
    return out;
}

} // namespace

std::string pointLine(const StepResult &step, const PlannedStep &planned, const Series &series,
    std::size_t done, std::size_t total)
{
    // The spec too: a series over several specs (io_profile's writes, then reads) runs
    // the same values once per spec.
    std::string line = fmt::format("point {}/{}  {}", done, total, planned.specName);
    if (planned.point) {
        line += pointValues(series, planned.point->values);
        if (!planned.point->target.empty())
            line += "  on " + planned.point->target;
        if (series.repeat > 1)
            line += fmt::format("  trial {}/{}", planned.point->trial + 1, series.repeat);
    }
    if (step.scopes.empty())
        return line + "  | no I/O";
    const auto &f = step.scopes.front().figures.total;
    line += fmt::format("  | {:>12.0f} IO/s {:>10.1f} MiB/s {:>10.1f} Mbit/s  p99 {:>9}", f.iops,
        f.mebibytesPerSecond, f.megabytesPerSecond * 8, formatLatencyUs(f.latency.p99Us));
    if (step.devices.available)
        line += fmt::format("  device: {}", toString(step.devices.verdict.verdict));
    if (!step.complete)
        line += "  (cut short: stopped)";
    return line;
}

std::string seriesTable(const RunResult &result)
{
    const auto &series = result.plan.profile.setup.series;
    if (!series)
        return {};
    const auto points = seriesPoints(result);
    if (points.empty())
        return {};
    std::string out = "\n== Series";
    if (series->repeat > 1)
        out += fmt::format(" (median of {} trials, IO/s min-max)", series->repeat);
    out += "\n";
    std::string header;
    for (const auto &axis : series->axes)
        header += fmt::format("{:>11}", sweepTraits(axis.parameter).columnTitle);
    // Names in full: the columns are as wide as the longest spec and target.
    std::size_t specWidth = 4;
    std::size_t targetWidth = 0;
    for (const auto &p : points) {
        specWidth = std::max(specWidth, p.specName.size());
        targetWidth = std::max(targetWidth, p.target.size());
    }
    const auto names = [&](const std::string &spec, const std::string &target) {
        std::string text = fmt::format("{:<{}}", spec, specWidth + 2);
        if (targetWidth > 0)
            text += fmt::format("{:<{}}", target, targetWidth + 2);
        return text;
    };
    // Points that opened files (a tree) also say files per second and each operation's
    // time from open to close.
    const bool files = std::any_of(points.begin(), points.end(),
        [](const SeriesPointResult &p) { return p.connectionsValid; });
    out += fmt::format("{}{}  {:>12} {:>10} {:>10} {:>10} {:>10}{}  {}\n", names("spec", "target"),
        header, "IO/s", "MiB/s", "Mbit/s", "mean", "p99",
        files ? fmt::format(" {:>10} {:>10} {:>10}", "files/s", "open", "op mean") : "", "device");
    std::size_t specIndex = points.front().specIndex;
    for (const auto &p : points) {
        if (p.specIndex != specIndex) {
            out += "\n";
            specIndex = p.specIndex;
        }
        std::string fileColumns;
        if (files && p.connectionsValid)
            fileColumns = fmt::format(" {:>10.0f} {:>10} {:>10}", p.filesPerSecond.median,
                formatLatencyUs(p.openMeanUs.median), formatLatencyUs(p.operationMeanUs.median));
        else if (files)
            fileColumns = fmt::format(" {:>10} {:>10} {:>10}", "-", "-", "-");
        out += fmt::format("{}{}  {:>12.0f} {:>10.1f} {:>10.1f} {:>10} {:>10}{}  {}",
            names(p.specName, p.target), pointValues(*series, p.values), p.iops.median,
            p.mebibytesPerSecond.median, p.megabytesPerSecond.median * 8,
            formatLatencyUs(p.meanLatencyUs.median), formatLatencyUs(p.p99LatencyUs.median),
            fileColumns, p.deviceValid ? std::string(toString(p.verdict)) : std::string("-"));
        if (p.trials.size() > 1)
            out += fmt::format("  [{:.0f}-{:.0f}]", p.iops.min, p.iops.max);
        if (!p.complete)
            out += "  (incomplete)";
        out += "\n";
    }
    return out;
}

namespace {

// "QD 8", or "QD 8, 4" when a worker's targets differ; "" when it uses none.
std::string depthsText(const std::vector<std::uint32_t> &depths)
{
    std::vector<std::uint32_t> used;
    for (auto d : depths)
        if (d > 0 && std::find(used.begin(), used.end(), d) == used.end())
            used.push_back(d);
    return used.empty() ? std::string() : fmt::format("QD {}", fmt::join(used, ", "));
}

std::string deviceText(const DeviceFacts &d)
{
    if (d.name.empty())
        return "device unknown";
    std::string text = "device " + d.name;
    std::vector<std::string> facts;
    if (!d.model.empty())
        facts.push_back(d.model);
    if (d.sizeBytes)
        facts.push_back(describeSize(d.sizeBytes));
    facts.emplace_back(d.rotational ? "HDD" : "SSD");
    if (!d.scheduler.empty())
        facts.push_back("scheduler " + d.scheduler);
    if (d.logicalSectorBytes)
        facts.push_back(
            fmt::format("sectors {}/{} B", d.logicalSectorBytes, d.physicalSectorBytes));
    if (!d.writeCache.empty())
        facts.push_back(d.writeCache);
    return fmt::format("{} ({})", text, fmt::join(facts, ", "));
}

} // namespace

std::string planText(const ResolvedPlan &plan, const std::string &engine,
    const std::map<std::string, DeviceFacts> &devices)
{
    std::string out = fmt::format("plan: {} step{}, {} worker{}; each worker starts with the {} "
                                  "engine (a worker that falls back says so in a notice)\n",
        plan.stepCount(), plan.stepCount() == 1 ? "" : "s", plan.workers.size(),
        plan.workers.size() == 1 ? "" : "s", engine);
    for (const auto &w : plan.workers) {
        out += fmt::format("  {}: seed {}, data {}", w.name, w.seed, toString(w.dataPattern.kind));
        if (!w.cpuAffinity.empty())
            out += fmt::format(", CPUs {}", fmt::join(w.cpuAffinity, ","));
        out += "\n";
        for (const auto &t : w.targets) {
            const auto &info = t.info;
            const char *kind = info.isDevice            ? "raw device"
                : t.target.kind == TargetKind::FileTree ? "file tree"
                                                        : "test file";
            out += fmt::format("    {} ({}, {}", t.target.path, kind, toString(t.target.cacheMode));
            if (info.path != t.target.path && !info.path.empty())
                out += ", opened as " + info.path;
            out += fmt::format(", {}", describeSize(info.sizeBytes));
            if (info.createdTestFile)
                out += ", created now";
            if (info.readOnly)
                out += ", read-only";
            // Who opened it, and how (docs/targets.md "Privilege").
            if (info.openedBy == "udisks2")
                out += ", opened by udisks2 " + info.openFlags;
            else if (!info.openFlags.empty())
                out += ", " + info.openFlags;
            out += fmt::format(
                "; I/O at offsets {} to {}; direct-I/O alignment {} B, buffers {} B)",
                formatSize(t.region.offsetBytes),
                formatSize(t.region.offsetBytes + t.region.sizeBytes),
                info.directIoOffsetAlignBytes, info.directIoMemAlignBytes);
            const auto device = devices.find(info.path);
            out += "\n      on "
                + (device != devices.end() ? deviceText(device->second)
                                           : std::string("device unknown"))
                + "\n";
        }
    }
    for (std::size_t step = 0; step < plan.steps.size(); ++step) {
        out += fmt::format("  step {}/{} {}:", step + 1, plan.steps.size(), plan.steps[step].name);
        // Workers doing the same thing in a step are said once, in order.
        std::vector<std::pair<std::string, std::vector<std::string>>> groups;
        for (std::size_t w = 0; w < plan.workers.size(); ++w) {
            const auto &worker = plan.workers[w];
            const auto *spec = plan.specOf(w, step);
            std::string what = "idle";
            if (spec) {
                what = spec->name;
                if (step < worker.outstandingIos.size())
                    if (auto qd = depthsText(worker.outstandingIos[step]); !qd.empty())
                        what += " at " + qd;
            }
            if (groups.empty() || groups.back().first != what)
                groups.push_back({what, {}});
            groups.back().second.push_back(worker.name);
        }
        for (std::size_t g = 0; g < groups.size(); ++g) {
            const auto &[what, names] = groups[g];
            const std::string who = names.size() <= 3
                ? fmt::format("{}", fmt::join(names, ", "))
                : fmt::format("{} .. {} ({} workers)", names.front(), names.back(), names.size());
            out += fmt::format("{} {}: {}", g == 0 ? "" : ";", who, what);
        }
        if (plan.steps[step].ioLimit)
            out += fmt::format(" ({} I/Os per worker and target)", plan.steps[step].ioLimit);
        out += "\n";
    }
    return out;
}

std::string etaText(std::chrono::seconds seconds)
{
    const auto s = std::max<std::int64_t>(seconds.count(), 0);
    if (s >= 3600)
        return fmt::format("{}h{}m", s / 3600, s % 3600 / 60);
    if (s >= 60)
        return fmt::format("{}m{}s", s / 60, s % 60);
    return fmt::format("{}s", s);
}

} // namespace ioprism::cli
