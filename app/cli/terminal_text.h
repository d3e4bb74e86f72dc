// SPDX-License-Identifier: GPL-3.0-or-later
// Text from outside (names, descriptions, paths and notices read from results files, run
// library entries and profiles) made safe to print on a terminal.
//
// A results file is anyone's: its description could hold ESC[2J (clear the screen), an
// OSC sequence that sets the window title or, on some terminals, writes a file, a BEL,
// or a newline that forges a row of `history`. So every control character is shown
// visibly instead of being sent: C0 (U+0000-U+001F: "\n", "\t", "\r", the others as
// "\x1b"), DEL ("\x7f"), and C1 (U+0080-U+009F, which 8-bit terminals take as ESC + a
// letter: "\u009b"). Bytes that are not UTF-8 are shown as "\xNN" too (a lone 0x9B is
// CSI to such a terminal). Everything else, non-ASCII letters included, is kept.
#pragma once

#include <string>
#include <string_view>

namespace ioprism::cli {

std::string terminalText(std::string_view text);

} // namespace ioprism::cli
