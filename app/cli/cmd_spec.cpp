#include "app/cli/commands.h"

#include <CLI/CLI.hpp>

namespace ioprism::cli {

void registerSpecCommands(CLI::App &app, int &exitCode)
{
    (void)app;
    (void)exitCode;
}

} // namespace ioprism::cli
