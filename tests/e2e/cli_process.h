// SPDX-License-Identifier: GPL-3.0-or-later
// ioprism-cli started in the background (Linux): for the tests that signal a run or
// watch it while it goes. A test that signals waits for what the run writes (an interval
// in its time series, a line) first, never for a fixed time: a loaded machine may take
// seconds to start a sanitizer build.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "e2e/background_process.h"
#include "e2e/cli_support.h"

namespace ioprism::test {

// ioprism-cli in `dir`, its output in dir/out.txt and dir/err.txt; `prefix`: words it
// runs under (an assignment, prlimit, setpriv), each exec'ing the next, so that signals
// reach the CLI; `environment`: NAME=value words added to ours.
class CliProcess : public BackgroundProcess
{
public:
    CliProcess(const std::filesystem::path &dir, const std::vector<std::string> &args,
        std::vector<std::string> prefix = {}, const std::vector<std::string> &environment = {})
        : BackgroundProcess(
            withCli(std::move(prefix), args), dir / "out.txt", dir / "err.txt", environment, dir)
    { }

private:
    static std::vector<std::string> withCli(
        std::vector<std::string> prefix, const std::vector<std::string> &args)
    {
        prefix.push_back(cliPath().string());
        prefix.insert(prefix.end(), args.begin(), args.end());
        return prefix;
    }
};

// The lines of a file (0 while it does not exist): how far a run's streamed time series
// (--timeseries, a header and one row per scope per interval) has got.
inline std::size_t linesIn(const std::filesystem::path &file)
{
    const std::string text = readFile(file);
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

} // namespace ioprism::test
