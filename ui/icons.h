// SPDX-License-Identifier: GPL-3.0-or-later
// Icons: the desktop theme's when it has one (so IOPrism looks native), else ours
// (resources/icons, compiled in with resources/ioprism.qrc).
#pragma once

#include <QIcon>

namespace ioprism::ui {

enum class IconId {
    App,
    New,
    Open,
    Save,
    SaveAs,
    Start,
    Stop,
    Export,
    Host,
    Worker,
    Disk,
    TestFile,
    FileTree,
    Add,
    Remove,
    Duplicate,
    Up,
    Down,
    Preset,
    Follow,
    Refresh,
    Assign,
    Unassign,
    Plot,
    Results,
    Setup,
    Specs,
};

QIcon icon(IconId id);

} // namespace ioprism::ui
