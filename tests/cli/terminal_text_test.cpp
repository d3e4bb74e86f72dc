// SPDX-License-Identifier: GPL-3.0-or-later
// Outside text shown on a terminal (app/cli/terminal_text.h): every control character is
// shown, never sent, so a results file cannot clear the screen, set the title or forge
// a row of `history`.
#include "app/cli/terminal_text.h"

#include <gtest/gtest.h>

using ioprism::cli::terminalText;

TEST(TerminalText, ControlCharactersAreShownVisibly)
{
    EXPECT_EQ(terminalText("plain name, ünïcode ok"), "plain name, ünïcode ok");
    EXPECT_EQ(terminalText("\x1b[2Jcleared"), "\\x1b[2Jcleared");
    EXPECT_EQ(terminalText("\x1b]0;title\x07"), "\\x1b]0;title\\x07");
    EXPECT_EQ(terminalText("row\nforged  run"), "row\\nforged  run");
    EXPECT_EQ(terminalText("a\tb\rc"), "a\\tb\\rc");
    EXPECT_EQ(terminalText(std::string_view("nul\0x", 5)), "nul\\x00x");
    EXPECT_EQ(terminalText("del\x7f"), "del\\x7f");
    EXPECT_EQ(terminalText("c1 \xc2\x9b"
                           "2J"),
        "c1 \\u009b2J"); // U+009B, CSI
    EXPECT_EQ(terminalText("c1 \xc2\xa0nbsp"), "c1 \xc2\xa0nbsp"); // U+00A0 is no control
    EXPECT_EQ(terminalText("lone \x9b byte"), "lone \\x9b byte"); // not UTF-8
    EXPECT_EQ(terminalText("cut \xe2\x82"), "cut \\xe2\\x82");
}
