// SPDX-License-Identifier: GPL-3.0-or-later
// The devices over one span of a run, beside the application's bytes: used by the
// sampler (each interval, each step) and by the write-back tail after the last step.
#pragma once

#include "core/counters.h"
#include "core/run/results.h"
#include "core/stats/verdict.h"

#include <chrono>
#include <cstddef>
#include <vector>

namespace ioprism::core {

// The watched devices that carry targets, each once: their sum is the "targets total".
std::vector<std::size_t> totalDevicesOf(const DeviceMap &map);

// Every watched device's figures between snapshots a and b, the total of the target
// devices, the verdict against the application's bytes in `app`, and the latency verdict
// against `measured`, the application's I/O over the span (the All scope).
DeviceReport makeDeviceReport(const DeviceMap &map, const CounterSnapshot &a,
    const CounterSnapshot &b, std::chrono::nanoseconds elapsed, VerdictInput app,
    const VerdictPolicy &policy, const Measurement &measured);

} // namespace ioprism::core
