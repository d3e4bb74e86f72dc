// SPDX-License-Identifier: GPL-3.0-or-later
// The facts of a profile in one line, generated from the profile as it is.
//
// A description typed once ("5 s each on a 1 GiB test file") turns false as soon as the
// run time, the size or the target changes, and then travels into saved profiles and
// reports. So a profile's `setup.description` holds only the user's (or a preset's) own
// words, and every place that shows it shows these facts beside it, made afresh from the
// profile each time: they cannot go stale.
#pragma once

#include "core/profile/profile.h"

#include <string>

namespace ioprism::core {

// What a profile runs, where and for how long: "SEQ1M Q8T1 Read (1 MiB) at QD 8, RND4K
// Q32T1 Read (4 KiB) at QD 32; 1 worker; 4s measured per spec after 1s ramp-up; on
// ioprism-test.dat (direct, 512 MiB test file)". Specs are those the workers run (Idle
// left out), each named once, with the transfer sizes of its lines and the depths
// (core/profile/depth.h) of the targets of the first worker that runs it ("at QD 4/8"
// when they differ); a size or depth a series or Iometer's cycling sets per
// step is left out here and said by the series or the test type instead. Targets are
// every worker's, each path once. "no workers" for a profile without one.
std::string describeRun(const Profile &profile);

} // namespace ioprism::core
