// Human-readable text for the terminal: profile summaries, interval lines, result
// tables. Units on every figure.
#pragma once

#include "core/run/results.h"
#include "core/spec/profile.h"

#include <string>

namespace ioprism::cli {

std::string describeProfile(const core::Profile &profile);
std::string intervalLine(const core::IntervalSample &sample);
std::string resultTable(const core::RunResult &result);
// "1.23 ms", "456 µs", "2.5 s"
std::string formatLatencyUs(double us);

} // namespace ioprism::cli
