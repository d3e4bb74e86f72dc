// SPDX-License-Identifier: GPL-3.0-or-later
// The write-back tail: after the last step, the devices may still be writing what the
// application wrote through the cache (or what a device buffered). The tail samples the
// devices until they are idle (nothing in flight, nothing written for an interval, and
// the backlog paid or its flush seen to end) or a time limit passes, and reports what
// they wrote meanwhile.
//
// No clock of its own: `now` and `sleepUntil` are given, so tests drive it with a fake
// clock and a scripted CounterSource.
#pragma once

#include "core/counters.h"
#include "core/run/results.h"
#include "core/stats/verdict.h"

#include <chrono>
#include <functional>
#include <string>

namespace ioprism::core {

struct DeviceTailClock {
    std::function<std::chrono::steady_clock::time_point()> now;
    std::function<void(std::chrono::steady_clock::time_point)> sleepUntil;
    // True once the user asked to stop waiting (a second Stop): the tail ends after the
    // sample it is taking, with what it saw. Empty: it always waits.
    std::function<bool()> skip;
};

struct DeviceTailOptions {
    std::chrono::milliseconds interval {1000}; // between samples
    std::chrono::milliseconds limit {5000}; // the longest wait
    VerdictPolicy verdict; // its noise floor says when a backlog is worth waiting for
};

// `balance` is the write balance the last step left; `notice` is told when the wait is
// for a real backlog (so the user knows why the run has not ended yet).
DeviceTail watchDeviceTail(CounterSource &counters, const DeviceMap &map, WriteBalance balance,
    const DeviceTailOptions &options, const DeviceTailClock &clock,
    const std::function<void(const std::string &)> &notice);

} // namespace ioprism::core
