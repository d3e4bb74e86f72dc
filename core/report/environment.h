// SPDX-License-Identifier: GPL-3.0-or-later
// The machine a run was made on, as result files record it: host, OS, CPU, the tool and
// its engine, and the facts of every device that held a target.
//
// Plain values, filled by the platform layer (platform/linux/system_info.h) and by the
// CLI or GUI (tool version, engine, notices, command line); core only writes them out.
// Every field may be empty: a value the platform could not read stays at its default
// and the reports write it as empty / null, never as a guess.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ioprism::core {

// The block device behind one target. `name` and `sizeBytes` are those of the device
// that holds the target (the partition when the file lives on one: "vda1"); the other
// facts belong to its whole disk ("vda"), since the queue attributes and the model only
// exist there.
struct DeviceFacts {
    std::string path; // the target path as given
    std::string name; // kernel name, e.g. "nvme0n1p2", "loop3"; "" if unknown
    std::string model; // e.g. "Samsung SSD 980", "loop: /var/tmp/img"; "" if unknown
    std::uint64_t sizeBytes = 0;
    bool rotational = false;
    std::string scheduler; // the active one, e.g. "none", "mq-deadline"
    std::uint32_t logicalSectorBytes = 0;
    std::uint32_t physicalSectorBytes = 0;
    std::uint32_t nrRequests = 0;
    std::string writeCache; // "write back" / "write through"
    friend bool operator==(const DeviceFacts &, const DeviceFacts &) = default;
};

struct Environment {
    std::string hostName;
    std::string osName; // e.g. "Debian GNU/Linux 12 (bookworm)"
    std::string kernel; // e.g. "6.1.0-18-amd64"
    std::string cpuModel;
    std::uint32_t cpuCount = 0; // online logical CPUs
    std::string toolVersion; // IOPrism's version
    std::string engine; // the I/O engine that ran ("io_uring", "sync", ...)
    // Completions each worker waited for before taking them (RunSettings::reapBatch).
    std::uint32_t reapBatch = 1;
    std::vector<std::string> notices;
    std::vector<DeviceFacts> devices; // one per target, in the run's target order
    std::string commandLine; // the CLI arguments, "" for the GUI
    friend bool operator==(const Environment &, const Environment &) = default;
};

} // namespace ioprism::core
