// SPDX-License-Identifier: GPL-3.0-or-later
// Semantic validation of a profile: does it make sense, and can it run?
//
// One pass reports every problem, each naming the JSON field path, the value and the
// rule (`specs[1].lines[0].percentRead: 140 is above 100`). Errors block a run;
// warnings flag settings that work but are probably not what the user meant. The rules
// are listed in docs/profile-format.md ("Validation").
#pragma once

#include "core/profile/problem.h"
#include "core/profile/profile.h"

#include <chrono>
#include <cstdint>

namespace ioprism::core {

struct ValidationOptions {
    // Direct-I/O alignment unit used when the device is not known (a profile checked
    // away from the machine that runs it). Callers that know the device pass its
    // logical sector size. 0 disables the direct-I/O alignment rules.
    std::uint64_t sectorSizeBytes = 512;
    // Whether the profile must run on this machine: a target not found here (an .icf made
    // on another PC) is then an error; otherwise (`validate` without --here: is this a
    // valid file?) a warning.
    bool targetsHere = true;
    // Every manager of the profile runs (each on its agent, `run --manager`): the other
    // managers' problems count as the first's, none is "not run here".
    bool everyHostRuns = false;
};

// Limits the rules enforce (also used by editors to bound their inputs).
inline constexpr std::uint32_t kMaxOutstandingIos = 4096;
inline constexpr std::uint32_t kMaxSpecThreads = 1024;
inline constexpr std::size_t kMaxWorkersPerHost = 1024;
// A series: trials of the whole series, and steps per spec (points x trials).
inline constexpr std::uint32_t kMaxSeriesRepeat = 1000;
inline constexpr std::size_t kMaxSeriesSteps = 10'000;
// Worker n of a series point starts n x this after the first.
inline constexpr std::chrono::hours kMaxWorkerStagger {1};
inline constexpr std::uint32_t kMaxCpuIndex = 1023;

// Every problem of the profile, errors and warnings, in field order. A target runs on
// its own region unless that is all zero, else on its worker's default region (Iometer's
// per-worker disk size and starting sector); a test file also bounds it. Size 0 means
// "to the end", which is not known before the run, so rules that need a size skip it.
Problems validateProfile(const Profile &profile, const ValidationOptions &options = {});

} // namespace ioprism::core
