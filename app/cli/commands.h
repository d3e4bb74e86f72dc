// SPDX-License-Identifier: GPL-3.0-or-later
// Sub-command registration for ioprism-cli. Each register function adds its
// sub-commands to the app; a callback stores the process exit code in exitCode.
#pragma once

#include <string>
#include <vector>

// CLI11's namespace: its name is CLI11's, not ours.
namespace CLI { // NOLINT(readability-identifier-naming)
class App;
}

namespace ioprism::cli {

// validate, convert, show, presets
void registerSpecCommands(CLI::App &app, int &exitCode);
// run (rawArgs: the command line, recorded in results)
void registerRunCommands(CLI::App &app, int &exitCode, const std::vector<std::string> &rawArgs);
// list-targets
void registerTargetCommands(CLI::App &app, int &exitCode);
// agents
void registerAgentCommands(CLI::App &app, int &exitCode);
// history (with rename, note, tag, delete), compare
void registerResultsCommands(CLI::App &app, int &exitCode);

} // namespace ioprism::cli
