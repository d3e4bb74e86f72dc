// SPDX-License-Identifier: GPL-3.0-or-later
// Administrator rights, asked of the system rather than assumed: whether a target needs
// rights this process lacks, and restarting the program with them.
//
// Windows: raw drives (\\.\PhysicalDriveN) and volumes (\\.\X:) open only for an elevated
// process. IOPrism is built `asInvoker` (test files never need elevation), so a run on a
// raw target asks for elevation then: the CLI tells the user to start an elevated
// terminal; the GUI offers to restart itself elevated (restartElevated), carrying its
// profile and page in the arguments.
//
// Linux: nothing is elevated. A raw device this user may not open is opened by udisks2
// after polkit asks the user, and the descriptor is handed to this unprivileged process
// (targetAccess says Broker). So processIsElevated() is false there even for root,
// needsElevationFor() is always false, and restartElevated() is not offered: no caller
// can reach for "run as root" by mistake.
#pragma once

#include "core/profile/profile.h"
#include "core/result.h"

#include <string>
#include <vector>

namespace ioprism::platform {

// True when this process holds administrator rights granted through elevation (Windows:
// its token's TokenElevation). Fixed for the life of the process, so asked once. False
// on Linux (see above) and when the token cannot be read.
bool processIsElevated();

// True when `target` cannot be used by this process as it runs now but could be after
// restartElevated: on Windows an existing volume or physical drive (by its path) while
// the process is not elevated, exactly when targetAccess says Denied. Test files and
// file trees never need it. Always false on Linux. The GUI offers "Restart as
// administrator" when any target of the run says true.
bool needsElevationFor(const core::Target &target);

// Starts this executable again with administrator rights and `arguments` (without the
// program name), in the current folder; the system asks the user first (UAC). Returns
// once the new process was started: the caller then ends itself, having saved what the
// arguments name. Errors: the user declined (ERROR_CANCELLED, "the request for
// administrator rights was declined"); anything else ShellExecuteExW reports. On Linux
// always an error (std::errc::operation_not_supported): the broker is used instead.
// The new process gets the user's default environment, not this one's, and a drive
// letter mapped to a network share may be missing in the elevated session: pass absolute
// paths on local volumes.
core::Status restartElevated(const std::vector<std::string> &arguments);

} // namespace ioprism::platform
