// SPDX-License-Identifier: GPL-3.0-or-later
// This process's threads and their times (/proc/self/task/<id>/schedstat and comm), for
// the latency verdict (core/stats/latency_verdict.h): io_uring's kernel I/O workers are
// threads of the process that submitted to them ("iou-wrk-<id>"), so their CPU time
// says whether I/O was handed to them.
#pragma once

#include "core/counters.h"

#include <cstdint>
#include <dirent.h>
#include <unordered_map>
#include <vector>

namespace ioprism::platform {

// Reads this process's threads every interval of a run, on the sampler's thread. The
// files of a thread stay open between reads and are read again from their start (a
// /proc file gives fresh text on each read from offset 0): one system call per file
// instead of opening and closing both each time. Each sample of a run then costs a
// folder listing and two reads per thread, where it cost eight system calls per thread;
// with 16 processes of four threads each sampling every 100 ms on two CPUs, their
// threads beside the workers took a quarter less CPU (docs/performance.md). The files
// of at most kKeptThreads threads are kept (two descriptors each: 64 of the 1024 a
// process may have by default, beside its workers' targets and rings); the threads past
// them — a run of many workers whose I/O goes to the kernel's I/O workers, hundreds of
// threads — are opened, read and closed each time, as before, until threads that ended
// make room. Not thread-safe: one reader per sampler.
class OwnThreadReader
{
public:
    OwnThreadReader() = default;
    ~OwnThreadReader();
    OwnThreadReader(const OwnThreadReader &) = delete;
    OwnThreadReader &operator=(const OwnThreadReader &) = delete;

    // Fills `out` with every thread of this process that could be read; false when the
    // OS gives no schedstat (a kernel without CONFIG_SCHED_INFO) and `out` is then empty.
    bool read(std::vector<core::ThreadTimes> &out);

    static constexpr std::size_t kKeptThreads = 32;

    // Threads whose files are kept open (tests: a thread that ended is let go).
    std::size_t openThreads() const { return m_kept; }

private:
    struct Files {
        int schedstat = -1;
        int comm = -1; // read each time: a thread names itself after it starts
        bool kept = false; // false: past kKeptThreads, opened and closed at each read
    };
    bool listTasks(std::vector<std::int64_t> &ids);
    void closeFiles(Files &files);

    DIR *m_taskDir = nullptr; // /proc/self/task, kept open
    std::unordered_map<std::int64_t, Files> m_threads;
    std::size_t m_kept = 0; // of m_threads, how many have kept files
    std::vector<std::int64_t> m_ids; // scratch
};

} // namespace ioprism::platform
