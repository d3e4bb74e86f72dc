// SPDX-License-Identifier: GPL-3.0-or-later
// `ioprism-cli run`'s options and what they make of a profile: the arguments as given
// (RunArgs), their registration on a CLI11 command, and the profile they change. Kept
// apart from the run itself (cmd_run.cpp) so that the agent and MPI front ends take the
// same options the same way. Every option is documented in docs/cli.md.
#pragma once

#include "app/cli/agent_access.h"
#include "core/profile/profile.h"
#include "core/profile/units.h"
#include "core/profile/validation.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace CLI { // NOLINT(readability-identifier-naming): CLI11's namespace
class App;
}

namespace ioprism::cli {

struct RunArgs {
    std::string profilePath;
    std::string preset;
    std::vector<std::string> targets;
    std::vector<std::string> specs;
    std::string bs, duration, ramp, interval, fileSize, engine = "auto";
    // --passes N and --pause TIME: CrystalDiskMark's passes and interval between tests.
    std::optional<std::uint32_t> passes;
    std::string pause;
    // --steady-state RULE and its parameters: a stop rule for every step.
    std::string steadyState, steadyMetric, steadyRound, steadyLimits;
    std::optional<std::uint32_t> steadyWindow, steadyRounds;
    // --precondition KIND[:AMOUNT]: the targets written before the first step.
    std::string precondition;
    std::optional<std::uint32_t> read, random, qd, workers;
    std::optional<std::uint64_t> seed;
    bool buffered = false;
    bool pollCompletions = false; // --poll: io_uring IOPOLL
    bool pollSubmissions = false; // --sqpoll: io_uring SQPOLL
    std::uint32_t reapBatch = 1; // --reap-batch: completions a worker waits for at once
    bool allowDeviceWrites = false;
    bool quiet = false;
    bool verbose = false;
    bool removeTestFiles = false;
    bool noSave = false; // --no-save: not into the run library
    // fio's --rw and --rwmixread / --rwmixwrite: resolved onto read and random by
    // resolveFioReadWrite.
    std::string rw;
    std::optional<std::uint32_t> rwmixread, rwmixwrite;
    std::optional<std::uint32_t> rwRead, rwRandom;
    std::string csvPath, timeseriesPath, jsonPath, seriesCsvPath;
    std::vector<std::string> sweeps;
    std::optional<std::uint32_t> repeat;
    std::optional<std::uint64_t> ops;
    std::string stagger;
    bool targetsInTurn = false;
    std::string tree; // --tree DEPTH:FILES[:SIZE]
    std::optional<std::uint64_t> preInit; // --pre-init N operations
    std::optional<std::uint32_t> connectionRate; // --connection-rate N transactions
    double deviceTolerancePercent = 5;
    std::string deviceTail = "5s";
    std::string stallThreshold = "5s";
    std::string stonewall; // "": none
    std::string stopTimeout = "15s";
    // --manager: run on these agents ("local": this process too) as one run.
    std::vector<std::string> managers;
    AgentAccessArgs agentAccess;
    std::vector<std::string> rawArgs;
};
// Registers every option of `run` on `command`, writing into `a` (which must outlive the
// command's parsing).
void addRunOptions(CLI::App &command, RunArgs &a);

// fio's --rw (with --rwmixread / --rwmixwrite for a mix) onto percent read and percent
// random, as fio means them. --read and --random say the same thing another way, so
// giving both is refused rather than one silently winning.
bool resolveFioReadWrite(RunArgs &a, core::Problems &problems);

// Applies the command-line options over the profile (after resolveFioReadWrite). False,
// with the reason in `problems`, when an option cannot be applied.
bool applyOptions(core::Profile &p, const RunArgs &a, core::Problems &problems);

// --tree DEPTH:FILES[:SIZE]: every target of the worker becomes a file tree of that shape.
bool makeTrees(core::Worker &w, const RunArgs &a, core::Problems &problems);

// A duration option ("90", "90s", "1m30s"; a bare number in `bare` units) into `out`;
// false with the option named in `problems` when it is not one.
bool parseDurationArg(const std::string &text, core::DurationUnit bare,
    std::chrono::microseconds &out, const char *option, core::Problems &problems);

} // namespace ioprism::cli
