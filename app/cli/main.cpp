// SPDX-License-Identifier: GPL-3.0-or-later
// ioprism-cli: the headless front end of the same engine the GUI drives.
//
// Exit codes: 0 success, 2 invalid input (every problem listed on stderr), 1 other
// failures, 130 / 143 when stopped by SIGINT / SIGTERM.
#include "app/cli/commands.h"

#include <CLI/CLI.hpp>
#include <iostream>

int main(int argc, char **argv)
{
    CLI::App app {"IOPrism storage benchmark (headless)", "ioprism-cli"};
    app.set_version_flag("--version", std::string("ioprism-cli ") + IOPRISM_VERSION);
    app.require_subcommand(1);
    app.footer("Exit codes: 0 success, 2 invalid input, 1 other failure, 130/143 interrupted.\n"
               "Documentation: docs/cli.md");

    int exitCode = 0;
    const std::vector<std::string> rawArgs(argv, argv + argc);
    ioprism::cli::registerSpecCommands(app, exitCode);
    ioprism::cli::registerRunCommands(app, exitCode, rawArgs);
    ioprism::cli::registerTargetCommands(app, exitCode);
    ioprism::cli::registerAgentCommands(app, exitCode);
    ioprism::cli::registerResultsCommands(app, exitCode);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        const int rc = app.exit(e);
        // CLI11 returns 0 for --help / --version; usage errors are invalid input.
        return rc == 0 ? 0 : 2;
    }
    return exitCode;
}
