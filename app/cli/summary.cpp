#include "app/cli/summary.h"

#include "core/spec/names.h"
#include "core/spec/units.h"

#include <fmt/format.h>

namespace ioprism::cli {

using namespace ioprism::core;

std::string formatLatencyUs(double us)
{
    if (us >= 1e6)
        return fmt::format("{:.2f} s", us / 1e6);
    if (us >= 1e3)
        return fmt::format("{:.2f} ms", us / 1e3);
    return fmt::format("{:.0f} µs", us);
}

static std::string rwText(std::uint32_t read) { return fmt::format("{}% read", read); }

std::string describeProfile(const Profile &p)
{
    std::string out;
    const auto &s = p.setup;
    if (!s.description.empty())
        out += fmt::format("{}\n\n", s.description);
    out += fmt::format("Run time {} (0 = until stopped), ramp-up {}, sampling every {}, test type {}\n",
                       formatDuration(s.runTime), formatDuration(s.rampUp), formatDuration(s.interval),
                       toString(s.testType));
    out += fmt::format("\nAccess specifications ({}):\n", p.specs.size());
    for (const auto &spec : p.specs) {
        out += fmt::format("  {}", spec.name);
        if (spec.queueDepth)
            out += fmt::format("  [queue depth {}]", *spec.queueDepth);
        if (spec.threads)
            out += fmt::format("  [{} threads]", *spec.threads);
        out += "\n";
        for (const auto &l : spec.lines) {
            out += fmt::format("    {:>7} {:>3}% of spec, {}, {}% random, align {}", formatSize(l.transferSizeBytes),
                               l.sharePercent, rwText(l.percentRead), l.percentRandom,
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
        }
    }
    for (const auto &h : p.hosts) {
        out += fmt::format("\nHost {} ({} workers):\n", h.name.empty() ? std::string("this machine") : h.name,
                           h.workers.size());
        for (const auto &w : h.workers) {
            std::string specs;
            for (const auto &n : w.assignedSpecs)
                specs += (specs.empty() ? "" : ", ") + n;
            out += fmt::format("  {}: {} outstanding I/Os per target, seed {}, data {}, runs: {}\n", w.name,
                               w.outstandingIos, w.seed ? std::to_string(*w.seed) : std::string("random"),
                               toString(w.dataPattern.kind), specs.empty() ? std::string("(nothing)") : specs);
            for (const auto &t : w.targets) {
                out += fmt::format("    {} {} ({}", toString(t.kind), t.path, toString(t.cacheMode));
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
            }
        }
    }
    return out;
}

std::string intervalLine(const IntervalSample &s)
{
    const auto &f = s.scopes.front().figures;
    std::string line = fmt::format("[{:7.1f}s] {:<22.22} {:>10.0f} IOPS {:>9.1f} MB/s  lat mean {:>9} p99 {:>9}",
                                   s.endSeconds, s.stepName, f.total.iops, f.total.megabytesPerSecond,
                                   formatLatencyUs(f.total.latency.meanUs), formatLatencyUs(f.total.latency.p99Us));
    if (s.cpu.valid)
        line += fmt::format("  CPU {:5.1f}%", s.cpu.busyPercent);
    if (s.phase == RunPhase::RampUp)
        line += "  (ramp-up, not counted)";
    return line;
}

std::string resultTable(const RunResult &r)
{
    std::string out;
    for (const auto &step : r.steps) {
        out += fmt::format("\n== {}: {:.1f} s measured{}\n", step.stepName, step.measuredSeconds,
                           step.complete ? "" : " (incomplete: stopped early)");
        out += fmt::format("{:<34} {:>11} {:>11} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>7}\n", "scope",
                           "read IOPS", "write IOPS", "MB/s", "MiB/s", "mean", "p99", "p99.9", "max", "errors");
        for (const auto &sc : step.scopes) {
            const auto &f = sc.figures;
            std::string label = sc.scope.label;
            if (sc.scope.kind == Scope::Kind::Worker)
                label = "  " + label;
            else if (sc.scope.kind == Scope::Kind::Target)
                label = "    " + sc.scope.targetPath;
            out += fmt::format("{:<34.34} {:>11.0f} {:>11.0f} {:>10.1f} {:>10.1f} {:>10} {:>10} {:>10} {:>10} {:>7}\n",
                               label, f.read.iops, f.write.iops, f.total.megabytesPerSecond, f.total.mebibytesPerSecond,
                               formatLatencyUs(f.total.latency.meanUs), formatLatencyUs(f.total.latency.p99Us),
                               formatLatencyUs(f.total.latency.p99_9Us), formatLatencyUs(f.total.latency.maxUs),
                               f.total.errors);
        }
        if (step.cpu.valid)
            out += fmt::format("CPU: {:.1f}% busy (user {:.1f}%, system {:.1f}%, iowait {:.1f}%, irq {:.1f}%, "
                               "softirq {:.1f}%), IOPrism itself {:.1f}%; {:.0f} IOPS per CPU %\n",
                               step.cpu.busyPercent, step.cpu.userPercent, step.cpu.systemPercent,
                               step.cpu.iowaitPercent, step.cpu.irqPercent, step.cpu.softirqPercent,
                               step.cpu.processPercent, step.cpuEffectiveness);
    }
    return out;
}

} // namespace ioprism::cli
