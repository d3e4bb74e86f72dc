// SPDX-License-Identifier: GPL-3.0-or-later
// The parts of the results reader (core/report/results_reader.h), one file per part of the
// document: results_read_steps.cpp (figures, scopes, steps, series),
// results_read_intervals.cpp (the intervals, as objects in format 1 and as columns since
// 2) and results_reader.cpp (the document, its format and version, the plan). Internal to
// those files.
//
// Every function reads with the first problem ending the read (JsonReadContext's
// StopAtFirst): a program wrote the file, and one damaged field says it is damaged. They
// throw JsonReadStopped, which readResultsJson and readResultsHeadline catch.
#pragma once

#include "core/json/json_reader.h"
#include "core/run/results.h"

#include <cstdint>
#include <fmt/format.h>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ioprism::core::results_read {

using Json = nlohmann::json;
using Node = JsonNode;

[[noreturn]] inline void failAt(const Node &any, const std::string &path, const std::string &what)
{
    any.context().error(path, what);
    throw JsonReadStopped {}; // error() has thrown already under StopAtFirst
}

[[noreturn]] inline void fail(const Node &at, const std::string &what)
{
    failAt(at, at.path(), what);
}

inline const Json &arrayOf(const Node &n)
{
    if (!n.isArray())
        throw JsonReadStopped {};
    return n.json();
}

template<typename Enum, typename Names>
Enum enumByName(const Node &n, std::initializer_list<Enum> values, Names nameOf)
{
    const std::string name = n.string();
    for (Enum v : values)
        if (nameOf(v) == name)
            return v;
    fail(n, fmt::format("\"{}\" is not a known value", name));
}

// results_read_steps.cpp
Verdict verdictOf(const Node &n);
LatencyFigures latencyOf(const Node &n);
ConnectionFigures connectionsOf(const Node &n);
CpuFigures cpuOf(const Node &n);
DeviceFigures deviceFiguresOf(const Node &n);
std::vector<DeviceFigures> perDeviceOf(const Node &n);
DeviceReport deviceReportOf(const Node &n);
Scope scopeOf(const Node &n);
// `planKept`: the file has its plan (format 3), whose steps the file's are; before that,
// each step gives its part of the plan (the reader's planOfOldFile).
void readStep(const Node &n, RunResult &r, bool planKept);
// The run's preconditioning ("preconditioning"), its setup the profile's.
void readPreconditioning(const Node &n, RunResult &r);
void readSeries(const Node &n, RunResult &r, bool planKept);

// results_read_intervals.cpp
IntervalSample intervalOf(const Node &n, std::uint64_t runId); // format 1
void readIntervalColumns(const Node &n, RunResult &r); // since format 2

} // namespace ioprism::core::results_read
