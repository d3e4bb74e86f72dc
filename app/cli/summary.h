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
// "write-back pending — reads: idle (...); writes: write-back pending (app 300.0 MB,
// device 12.0 MB, device/app 0.04)"
std::string verdictText(const core::DeviceVerdict &verdict);
// "1.23 ms", "456 µs", "2.5 s"
std::string formatLatencyUs(double us);

} // namespace ioprism::cli
