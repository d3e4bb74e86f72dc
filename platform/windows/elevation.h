// SPDX-License-Identifier: GPL-3.0-or-later
// The Windows side of platform/common/elevation.h: the pure pieces, kept apart from the
// system calls so they are tested on their own (the quoting through CommandLineToArgvW,
// the access decision and the messages for both answers of processIsElevated).
#pragma once

#include "core/engine.h"

#include <string>
#include <string_view>
#include <vector>

namespace ioprism::platform::win {

// One argument written so that CommandLineToArgvW (and the C runtime's parser, which
// follows the same rules after the program name) reads it back unchanged: as is when it
// is not empty and holds no space, tab, newline, vertical tab or double quote; else in
// double quotes, with each quote written \" and the backslashes before a quote or before
// the closing quote doubled (elsewhere backslashes are literal). UTF-8 in and out: every
// byte the rules look at is ASCII, so multi-byte characters pass through.
std::string quoteWindowsArgument(std::string_view argument);

// The arguments quoted and joined with single spaces: lpParameters for ShellExecuteExW.
std::string windowsCommandLine(const std::vector<std::string> &arguments);

// True for a volume (\\.\X:, \\?\Volume{GUID}) or physical drive (\\.\PhysicalDriveN).
bool isRawDevicePath(std::string_view path);

// What targetAccess answers for a raw drive or volume: Direct when `elevated`, else
// Denied with what to do (restart elevated; from the CLI, an elevated terminal).
core::TargetAccess rawDeviceAccess(bool elevated);

// The hint for ERROR_ACCESS_DENIED on opening a raw drive or volume. Not elevated: open
// a terminal with "Run as administrator" and run the command again. Elevated: rights
// are not the cause, so it names what is (another program holding the device, a policy,
// security software).
std::string rawDeviceAccessDeniedDetail(bool elevated);

} // namespace ioprism::platform::win
