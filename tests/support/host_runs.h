// SPDX-License-Identifier: GPL-3.0-or-later
// A host's finished run made by hand, to merge into a run of several hosts
// (core/run/host_merge.h) where a test needs exact, known figures.
#pragma once

#include "core/run/results.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace ioprism::test {

// One step "4K read" of 10 s: All and "Worker 1", `ios` reads of 4 KiB at 100 µs each,
// the host's CPU `busyPercent` busy.
inline core::RunResult oneStepHostRun(
    const std::string &host, std::uint64_t ios, double busyPercent)
{
    core::RunResult r;
    r.environment.hostName = host;
    r.plan.steps.push_back(core::PlannedStep {.name = "4K read"});
    r.plan.workers.push_back(core::ResolvedWorker {.name = "Worker 1"});
    core::StepResult step;
    step.stepName = "4K read";
    step.measuredSeconds = 10;
    core::Measurement m;
    m.elapsed = std::chrono::seconds(10);
    for (std::uint64_t i = 0; i < ios; ++i)
        m.read.histogram.record(100'000);
    m.read.bytes = ios * 4096;
    m.read.minNs = m.read.maxNs = 100'000;
    const core::Figures f = core::computeFigures(m);
    step.scopes.push_back({core::Scope {core::Scope::Kind::All, -1, -1, "All", {}}, m, f});
    step.scopes.push_back({core::Scope {core::Scope::Kind::Worker, 0, -1, "Worker 1", {}}, m, f});
    step.cpu.valid = true;
    step.cpu.busyPercent = busyPercent;
    step.cpuEffectiveness = f.total.iops / busyPercent;
    r.steps.push_back(step);
    return r;
}

} // namespace ioprism::test
