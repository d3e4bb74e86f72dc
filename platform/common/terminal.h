// SPDX-License-Identifier: GPL-3.0-or-later
// Whether a standard stream is a terminal, so that a front end draws what only a
// terminal shows (a progress bar redrawn with '\r') there and nowhere else: a log file or
// a pipe would get every redraw as text.
#pragma once

namespace ioprism::platform {

enum class StandardStream { Output, Error };

// True when the stream is attached to a terminal (a console on Windows); false for a
// file, a pipe, /dev/null, or when it cannot be told.
bool isTerminal(StandardStream stream);

} // namespace ioprism::platform
