// SPDX-License-Identifier: GPL-3.0-or-later
// The desktop application's meeting point with the platform layer: ui::PlatformServices
// filled with this machine's engines, OS counters, device discovery and access checks.
//
// A library of its own (ioprism_gui_platform), not part of main.cpp, so that a GUI test
// that must see the real machine (tests/ui/broker_gui_test.cpp: a raw device opened
// through udisks2) builds the window exactly as the application does. ui/ stays free of
// OS code: only this library and main link both ui/ and platform/.
#pragma once

#include "ui/platform_services.h"

#include <vector>

namespace ioprism::app {

// Disks, partitions (with what is on them and whether this user may open them) and a
// test-file location on every file system this user may write. Runs on the GUI thread
// (MainWindow::refreshTargets): see gui_platform.cpp for what bounds its time.
std::vector<ui::TargetCandidate> listTargets();

// The services of this machine, as the application uses them.
ui::PlatformServices platformServices();

} // namespace ioprism::app
