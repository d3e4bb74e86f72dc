// Sub-command registration for ioprism-cli. Each register function adds its
// sub-commands to the app; a callback stores the process exit code in exitCode.
#pragma once

namespace CLI {
class App;
}

namespace ioprism::cli {

// validate, convert, show, presets
void registerSpecCommands(CLI::App &app, int &exitCode);

} // namespace ioprism::cli
