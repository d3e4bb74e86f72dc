// SPDX-License-Identifier: GPL-3.0-or-later
// `ioprism-cli run` as a function, for the front ends that run the same command with
// hosts of their own: ioprism-mpi, whose hosts are MPI's ranks (docs/cluster.md). What
// is printed, written and saved is the run command's, whoever supplies the hosts.
#pragma once

#include "app/cli/run_args.h"
#include "core/profile/profile.h"
#include "core/run/run_session.h"

#include <functional>
#include <memory>
#include <optional>
#include <ostream>

namespace ioprism::cli {

struct RunFrontEnd {
    // Makes the run's session, reporting to `sink`, in place of this process's (or
    // --manager's): called once the profile is valid and the outputs checked, before
    // anything runs. `hooks` are this process's (for a host that runs here), `request`
    // what will be started (its profile validated), `human` where the command's text goes. nullptr
    // once why is said on stderr: the command then ends with status 1. Unset: this process, or the
    // --manager agents.
    std::function<std::unique_ptr<core::RunSession>(core::RunSink &sink, core::LocalRunHooks hooks,
        const core::RunRequest &request, std::ostream &human)>
        makeSession;
};

// The run command with its arguments parsed: the exit status (commands.h's codes).
int runCommand(RunArgs a, const RunFrontEnd &frontEnd = {});

// The profile the arguments ask for: the file's or the preset's, the options applied and
// the whole validated — as a run on several hosts when `multiHost` (each host looks for
// its own targets). nullopt once the problems are said on stderr (`say`), or silently.
std::optional<core::Profile> profileFromArgs(RunArgs &a, bool multiHost, bool say);

} // namespace ioprism::cli
