// SPDX-License-Identifier: GPL-3.0-or-later
// Running ioprism-cli from tests: exit code, stdout and stderr.
#pragma once

#include "support/test_support.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace ioprism::test {

struct CliResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

inline void writeFile(const std::filesystem::path &p, const std::string &text)
{
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
}

inline std::filesystem::path cliPath()
{
    return binDir() / "ioprism-cli";
}

// Runs `PROGRAM ARGS` through the shell (ARGS is shell text) in `cwd`. A `wrapper`
// (shell text, e.g. "timeout -s KILL 120") goes before the program: a guard for tests of
// input that once made the CLI run away, so that a regression fails instead of eating
// the machine's memory.
inline CliResult runProgram(const std::filesystem::path &program, const std::string &args,
    const std::filesystem::path &cwd, const std::string &wrapper = {})
{
    const auto out = cwd / ".cli-out.txt", err = cwd / ".cli-err.txt";
    // Runs are saved in the run library: never into the user's own data folder, even when
    // the test runs outside ctest (which sets IOPRISM_DATA_DIR for the e2e tests).
    const std::string dataDir = std::getenv("IOPRISM_DATA_DIR")
        ? std::string()
        : "IOPRISM_DATA_DIR='" + (cwd / ".ioprism-data").string() + "' ";
    const std::string cmd = "cd '" + cwd.string() + "' && " + dataDir + wrapper + " '"
        + program.string() + "' " + args + " >'" + out.string() + "' 2>'" + err.string() + "'";
    const int status = std::system(cmd.c_str());
    CliResult r;
    r.exitCode = (status >= 0 && (status & 0x7f) == 0) ? (status >> 8) & 0xff : -1;
    r.out = readFile(out);
    r.err = readFile(err);
    return r;
}

// Runs `ioprism-cli ARGS` (runProgram).
inline CliResult runCli(
    const std::string &args, const std::filesystem::path &cwd, const std::string &wrapper = {})
{
    return runProgram(cliPath(), args, cwd, wrapper);
}

} // namespace ioprism::test
