// SPDX-License-Identifier: GPL-3.0-or-later
// The machine as Windows describes it, for result files: host name, Windows version and
// build (RtlGetVersion: GetVersionEx reports what the manifest allows, not the truth),
// CPU model (the registry's ProcessorNameString) and the
// logical CPUs of all processor groups. Under Wine the OS name says so. Never fails:
// what cannot be read stays empty.
#pragma once

#include "core/report/environment.h"

#include <cstdint>
#include <string>

namespace ioprism::platform {

core::Environment describeWindowsEnvironment();

// "Windows 11 (build 22631)", "Windows Server 2022 (build 20348)"... from the version
// numbers: build 22000 and later of NT 10.0 is Windows 11 on workstations. Pure.
std::string windowsName(std::uint32_t major, std::uint32_t minor, std::uint32_t build, bool server);

} // namespace ioprism::platform
