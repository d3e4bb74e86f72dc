// SPDX-License-Identifier: GPL-3.0-or-later
// What saving a long run costs: a results document of one hour at 1 s intervals (3600
// interval samples of 4 workers with a target each: 9 scopes per sample, CPU figures and
// the counters of the targets' device, as a run on Linux has them), written as
// `ioprism-cli run` saves it (writeResultsJson, then RunLibrary::save: a temporary file
// and a link), and read back as show/compare (readResultsJson) and history
// (readResultsHeadline) read it, and listed (RunLibrary::list, without and with the
// library's headline cache). Prints milliseconds per operation (median of N).
//
// A program for bench/save-cost, not a test: the figures go to docs/performance.md.
//   ioprism-save-cost [REPEATS] [FOLDER]
#include "core/library/run_library.h"
#include "core/report/results_json.h"
#include "core/report/results_reader.h"
#include "core/stats/device_figures.h"
#include "platform/common/input_file_reader.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

using namespace ioprism::core;
using namespace std::chrono_literals;

namespace {

constexpr int kWorkers = 4;
constexpr int kIntervals = 3600;

Measurement randomMeasurement(
    std::mt19937_64 &rng, std::uint64_t ios, std::chrono::nanoseconds span)
{
    std::lognormal_distribution<double> latencyNs(11.5, 0.6); // about 100 µs, a long tail
    Measurement m;
    for (std::uint64_t i = 0; i < ios; ++i) {
        const auto ns = static_cast<std::uint64_t>(latencyNs(rng));
        (i % 10 < 7 ? m.read : m.write).histogram.record(ns);
        (i % 10 < 7 ? m.read : m.write).bins.record(ns);
    }
    for (DirectionMeasurement *d : {&m.read, &m.write}) {
        d->bytes = d->histogram.count() * 4096;
        d->minNs = d->histogram.minNs();
        d->maxNs = d->histogram.maxNs();
    }
    m.transactions = ios;
    m.inFlightAtEnd = 32;
    m.elapsed = span;
    return m;
}

RunResult hourLongRun()
{
    std::mt19937_64 rng(42);
    RunResult r;
    r.runId = 1;
    r.startedAt = std::chrono::sys_days {std::chrono::year {2024} / 5 / 1};
    r.engine = "io_uring";
    r.environment.toolVersion = IOPRISM_VERSION;
    r.environment.engine = r.engine;
    Profile &p = r.plan.profile;
    p.setup.description = "one hour, 1 s intervals, 4 workers";
    p.setup.runTime = 3600s;
    p.setup.interval = 1s;
    AccessSpec spec;
    spec.name = "4K 70% read random";
    SpecLine line;
    line.transferSizeBytes = 4096;
    line.alignmentBytes = 4096;
    line.percentRead = 70;
    line.percentRandom = 100;
    spec.lines.push_back(line);
    p.specs.push_back(spec);
    Host host;
    for (int w = 0; w < kWorkers; ++w) {
        Worker worker;
        worker.name = "Worker " + std::to_string(w + 1);
        worker.outstandingIos = 32;
        worker.assignedSpecs = {spec.name};
        Target target;
        target.path = "/var/tmp/ioprism-" + std::to_string(w) + ".dat";
        worker.targets.push_back(target);
        host.workers.push_back(worker);
    }
    p.hosts.push_back(host);

    // The scopes: All, each worker, each worker's target.
    auto scopes = [&](auto make) {
        std::vector<decltype(make(Scope {}))> out;
        out.push_back(make(Scope {Scope::Kind::All, -1, -1, "All", {}}));
        for (int w = 0; w < kWorkers; ++w)
            out.push_back(
                make(Scope {Scope::Kind::Worker, w, -1, "Worker " + std::to_string(w + 1), {}}));
        for (int w = 0; w < kWorkers; ++w) {
            const std::string path = "/var/tmp/ioprism-" + std::to_string(w) + ".dat";
            out.push_back(make(Scope {Scope::Kind::Target, w, 0,
                "Worker " + std::to_string(w + 1) + " / " + path, path}));
        }
        return out;
    };
    // The four targets are files on one disk: its counters are watched and compared.
    r.deviceMap.devices = {{"nvme0n1", DeviceRole::Target, "", true}};
    for (int w = 0; w < kWorkers; ++w)
        r.deviceMap.targets.push_back({"/var/tmp/ioprism-" + std::to_string(w) + ".dat", 0, ""});
    // Each worker's I/O of one interval (its target's the same: one target each), reused
    // for every interval with the interval's own length, as a sampler's clock gives it
    // (1 s and some microseconds), so rates have all their digits: building 3600 x 4
    // histograms would time the bench's set-up, not the save.
    std::vector<Measurement> workers;
    Measurement all;
    for (int w = 0; w < kWorkers; ++w) {
        workers.push_back(randomMeasurement(rng, 4000 + 500 * w, 1s));
        all.add(workers.back());
    }
    auto deviceReport = [&](int i, std::chrono::nanoseconds elapsed) {
        DiskCounters delta;
        delta.readIos = all.read.histogram.count() + i % 13;
        delta.readSectors = delta.readIos * 8;
        delta.readTicksMs = delta.readIos / 10;
        delta.writeIos = all.write.histogram.count() + i % 11;
        delta.writeSectors = delta.writeIos * 8 + i % 5;
        delta.writeTicksMs = delta.writeIos / 7;
        delta.writeMerges = i % 3;
        delta.inFlight = 32 + i % 4;
        delta.ioTicksMs = 900 + i % 50;
        delta.weightedTicksMs = 31000 + i % 700;
        delta.discardIos = i % 2;
        delta.flushIos = i % 5;
        delta.fieldCount = 17;
        DeviceReport d;
        d.available = true;
        d.total = deviceFigures(delta, elapsed);
        d.devices = {d.total};
        VerdictInput in;
        in.appReadBytes = all.read.bytes;
        in.appWriteBytes = all.write.bytes;
        in.deviceReadBytes = d.total.readBytes;
        in.deviceWriteBytes = d.total.writeBytes;
        in.seconds = d.total.seconds;
        d.verdict = judgeDevice(in);
        return d;
    };
    double start = 0;
    for (int i = 0; i < kIntervals; ++i) {
        const auto elapsed = 1s + std::chrono::nanoseconds(1000 + (i * 7919) % 250000);
        std::vector<Figures> figures; // All, then each worker
        Measurement m = all;
        m.elapsed = elapsed;
        figures.push_back(computeFigures(m));
        for (const Measurement &w : workers) {
            m = w;
            m.elapsed = elapsed;
            figures.push_back(computeFigures(m));
        }
        IntervalSample s;
        s.runId = 1;
        s.stepName = spec.name;
        s.startSeconds = start;
        start += std::chrono::duration<double>(elapsed).count();
        s.endSeconds = start;
        s.scopes = scopes([&](Scope scope) {
            return ScopeFigures {scope, figures[static_cast<std::size_t>(scope.worker + 1)]};
        });
        s.cpu.valid = true;
        s.cpu.busyPercent = 40 + (i % 7) / 3.0;
        s.cpu.userPercent = 30 + (i % 5) / 3.0;
        s.cpu.systemPercent = 9.5 + (i % 3) / 7.0;
        s.cpu.idlePercent = 100 - s.cpu.busyPercent;
        s.cpu.processPercent = 6.25;
        s.cpuEffectiveness = figures[0].total.iops / s.cpu.busyPercent;
        s.devices = deviceReport(i, elapsed);
        r.intervals.push_back(std::move(s));
    }
    StepResult step;
    step.stepName = spec.name;
    step.measuredSeconds = kIntervals;
    const Measurement total = randomMeasurement(rng, 200000, std::chrono::seconds {kIntervals});
    step.scopes = scopes([&](Scope scope) {
        return ScopeResult {std::move(scope), total, computeFigures(total)};
    });
    r.steps.push_back(std::move(step));
    return r;
}

template<typename F> double medianMs(int repeats, F &&operation)
{
    std::vector<double> ms;
    for (int i = 0; i < repeats; ++i) {
        const auto start = std::chrono::steady_clock::now();
        operation();
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 9;
    const std::filesystem::path folder = argc > 2
        ? std::filesystem::path(argv[2])
        : std::filesystem::temp_directory_path() / "ioprism-save-cost";
    std::error_code ec;
    std::filesystem::remove_all(folder, ec);
    const RunResult run = hourLongRun();
    const RunLibrary library(folder, ioprism::platform::readInputFile);

    std::string text;
    const double writeMs
        = medianMs(repeats, [&] { text = writeResultsJson(run, run.environment); });
    const double saveMs = medianMs(repeats, [&] {
        const std::string written = writeResultsJson(run, run.environment);
        if (!library.save(run, written)) {
            std::fprintf(stderr, "save failed\n");
            std::exit(1);
        }
    });
    const double readMs = medianMs(repeats, [&] {
        if (!readResultsJson(text).ok())
            std::exit(1);
    });
    const double headlineMs = medianMs(repeats, [&] {
        if (!readResultsHeadline(text).headline)
            std::exit(1);
    });
    // A listing that reads every file (as the first `history` does, or one after the
    // library's headline cache was lost), then one from the cache (every later one).
    const double listMs = medianMs(repeats, [&] {
        std::filesystem::remove(folder / ".headlines.json", ec);
        (void)library.list();
    });
    const double listCachedMs = medianMs(repeats, [&] { (void)library.list(); });
    const bool roundTrip = [&] {
        const auto read = readResultsJson(text);
        return read.ok() && writeResultsJson(*read.result, read.result->environment) == text;
    }();

    std::printf("results of %d intervals x %d scopes, CPU and device counters: %.1f MB\n",
        kIntervals, 1 + 2 * kWorkers, double(text.size()) / 1e6);
    std::printf("median of %d, ms per operation:\n", repeats);
    std::printf("  writeResultsJson                  %8.1f ms\n", writeMs);
    std::printf("  save (write + file + link)        %8.1f ms   target < 50 ms: %s\n", saveMs,
        saveMs < 50 ? "met" : "NOT met");
    std::printf("  readResultsJson (show, compare)   %8.1f ms\n", readMs);
    std::printf("  readResultsHeadline (history)     %8.1f ms\n", headlineMs);
    std::printf("  list of %d saved runs, no cache    %8.1f ms\n", repeats, listMs);
    std::printf("  list of %d saved runs, cached      %8.1f ms\n", repeats, listCachedMs);
    std::printf("  round trip byte for byte: %s\n", roundTrip ? "yes" : "NO");
    std::filesystem::remove_all(folder, ec);
    return roundTrip ? 0 : 1;
}
