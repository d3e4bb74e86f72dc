// SPDX-License-Identifier: GPL-3.0-or-later
// This process's threads and their times (/proc/self/task/<id>/schedstat and comm), for
// the latency verdict (core/stats/latency_verdict.h): io_uring's kernel I/O workers are
// threads of the process that submitted to them ("iou-wrk-<id>"), so their CPU time
// says whether I/O was handed to them.
#pragma once

#include "core/counters.h"

#include <vector>

namespace ioprism::platform {

// Fills `out` with every thread of this process that could be read; false when the OS
// gives no schedstat (a kernel without CONFIG_SCHED_INFO) and `out` is then empty. A
// few small reads per thread: cheap enough for every interval of a run.
bool readOwnThreads(std::vector<core::ThreadTimes> &out);

} // namespace ioprism::platform
