// SPDX-License-Identifier: GPL-3.0-or-later
// ioprism-cli run: one run of the engine from a profile, a preset and/or options. The
// options and the profile they make are run_args.h's, what is printed while the run goes
// is terminal_sink.h's; here the run is asked for, watched for signals and written out.
#include "app/cli/agent_access.h"
#include "app/cli/commands.h"
#include "app/cli/output_files.h"
#include "app/cli/profile_io.h"
#include "app/cli/results_io.h"
#include "app/cli/run_args.h"
#include "app/cli/run_command.h"
#include "app/cli/summary.h"
#include "app/cli/terminal_sink.h"
#include "core/profile/presets.h"
#include "core/profile/units.h"
#include "core/profile/validation.h"
#include "core/report/csv.h"
#include "core/report/results_json.h"
#include "core/run/multi_host_session.h"
#include "core/run/run_session.h"
#include "platform/common/backend_factory.h"
#include "platform/common/system.h"
#include "platform/common/terminal.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <system_error>
#include <thread>

namespace ioprism::cli {

using namespace ioprism::core;

namespace {

// Every run that got as far as running, complete, stopped or failed (a refusal keeps its
// profile and error), goes into the run library. A library that cannot be written costs
// a warning, not the run: the requested outputs are written already.
void saveToLibrary(
    const RunResult &result, const std::string &resultsText, std::ostream &human, bool quiet)
{
    std::string error;
    const auto library = userRunLibrary(error);
    if (!library) {
        std::cerr << "warning: not saved to the run library: " << error << "\n";
        return;
    }
    const auto id = library->save(result, resultsText);
    if (!id) {
        std::cerr << "warning: not saved to the run library: " << id.error().toString() << "\n";
        return;
    }
    if (!quiet)
        human << fmt::format("saved as {} (ioprism-cli show {}; --no-save to skip)\n", *id, *id);
}

} // namespace

std::optional<Profile> profileFromArgs(RunArgs &a, bool multiHost, bool say)
{
    const auto printProblems = [say](const Problems &problems, const std::string &file = {}) {
        if (say)
            cli::printProblems(problems, file);
    };
    Problems problems;
    if (!resolveFioReadWrite(a, problems)) {
        printProblems(problems);
        return std::nullopt;
    }
    std::optional<Profile> profile;
    if (!a.profilePath.empty()) {
        profile = loadProfileFile(a.profilePath, problems);
        if (!profile) {
            printProblems(problems, a.profilePath);
            return std::nullopt;
        }
    } else {
        profile = loadPreset(a.preset.empty() ? "quick" : a.preset, problems);
        if (!profile) {
            printProblems(problems);
            return std::nullopt;
        }
    }
    if (!a.profilePath.empty() && !a.preset.empty())
        problems.push_back({Severity::Warning, "--preset", "ignored: a profile file was given"});
    if (!applyOptions(*profile, a, problems)) {
        printProblems(problems);
        return std::nullopt;
    }
    // On agents or MPI ranks, every manager runs, on its own host: its targets are not
    // looked for here.
    auto validation
        = validateProfile(*profile, {.targetsHere = !multiHost, .everyHostRuns = multiHost});
    problems.insert(problems.end(), validation.begin(), validation.end());
    printProblems(problems);
    if (hasErrors(problems))
        return std::nullopt;
    return profile;
}

namespace {

// `--manager profile`: the profile's hosts are the managers, as Iometer binds an .icf's
// managers: each host at its network address (an agent: host or host:port), this host
// where it has none.
constexpr const char *kProfileManagers = "profile";

std::vector<std::string> managersOf(const Profile &profile)
{
    std::vector<std::string> managers;
    for (const auto &host : profile.hosts)
        managers.push_back(host.networkAddress.empty() ? "local" : host.networkAddress);
    return managers;
}

// --device-tolerance, --device-tail, --stall-threshold, --stop-timeout and --stonewall
// into the run's settings; false once the reason is printed.
bool applySettingsArgs(const RunArgs &a, RunSettings &options)
{
    if (!(a.deviceTolerancePercent >= 0 && a.deviceTolerancePercent <= 100)) {
        std::cerr << "error: --device-tolerance: " << a.deviceTolerancePercent
                  << " is not in 0..100 (percent)\n";
        return false;
    }
    options.verdict.tolerance = a.deviceTolerancePercent / 100;
    options.polling = {.completions = a.pollCompletions, .submissions = a.pollSubmissions};
    options.reapBatch = a.reapBatch;
    Problems problems;
    std::chrono::microseconds tail {}, stall {}, stopWait {};
    if (!parseDurationArg(a.deviceTail, DurationUnit::Seconds, tail, "--device-tail", problems)) {
        printProblems(problems);
        return false;
    }
    if (!parseDurationArg(
            a.stallThreshold, DurationUnit::Seconds, stall, "--stall-threshold", problems)
        || !parseDurationArg(
            a.stopTimeout, DurationUnit::Seconds, stopWait, "--stop-timeout", problems)) {
        printProblems(problems);
        return false;
    }
    if (!a.stonewall.empty()) {
        const auto amount = parseSize(a.stonewall);
        if (!amount || *amount == 0) {
            std::cerr << "error: --stonewall: \"" << a.stonewall
                      << "\" is not a size above 0 (e.g. 4GiB, 512MiB)\n";
            return false;
        }
        options.stonewallBytes = *amount;
    }
    options.deviceTailLimit = std::chrono::duration_cast<std::chrono::milliseconds>(tail);
    options.stallThreshold = std::chrono::duration_cast<std::chrono::milliseconds>(stall);
    options.stopTimeout = std::chrono::duration_cast<std::chrono::milliseconds>(stopWait);
    return true;
}

// --timeseries: written as the run goes, to a file or stdout (none when not asked).
struct TimeSeriesOutput {
    std::unique_ptr<std::ofstream> file;
    std::ostream *stream = nullptr;
};

// Opened once every option is known to be good: a refused command leaves an existing
// file as it was, and stdout empty.
TimeSeriesOutput openTimeSeries(const std::string &path)
{
    TimeSeriesOutput out;
    if (path == OutputFile::kStdoutPath) {
        out.stream = &std::cout;
    } else if (!path.empty()) {
        out.file = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
        out.stream = out.file.get();
    }
    if (out.stream)
        *out.stream << timeSeriesHeader();
    return out;
}

// Runs the session to its end. SIGINT / SIGTERM: stop, drain, write what was measured. A
// second one stops waiting for in-flight I/O (a stuck device) and writes the results at
// once; a third exits. `caught` is the first signal (0: none).
void runWatchingSignals(RunSession &session, RunRequest request, std::atomic<int> &caught)
{
    boost::asio::io_context signalContext;
    boost::asio::signal_set signals(signalContext, SIGINT, SIGTERM);
    int repeated = 0; // signals after the first; only the signal thread touches it
    std::function<void(const boost::system::error_code &, int)> onSignal
        = [&](const boost::system::error_code &ec, int number) {
              if (ec)
                  return;
              if (caught.exchange(number) != 0) {
                  if (++repeated > 1)
                      std::_Exit(128 + number);
                  std::cerr << "\nstopping now (signal " << number
                            << " again): not waiting for in-flight I/O; writing results...\n";
                  session.stopNow();
              } else {
                  std::cerr << "\nstopping (signal " << number
                            << "): finishing in-flight I/O and writing results (again to "
                               "stop waiting)...\n";
                  session.stop();
              }
              signals.async_wait(onSignal);
          };
    signals.async_wait(onSignal);
    std::jthread signalThread([&] { signalContext.run(); });

    session.start(std::move(request));
    session.wait();
    signals.cancel();
    signalContext.stop();
}

// The time series written as the run went: closed, and rebuilt from the intervals
// elsewhere when it could not be written. False when it was not written as asked.
bool finishTimeSeries(TimeSeriesOutput &timeseries, const std::string &path,
    const std::string &sinkError, const RunResult &result, const std::string &fallback)
{
    errno = 0;
    if (timeseries.file)
        timeseries.file->close();
    else
        timeseries.stream->flush();
    // A file whose folder was deleted during the run took every write without an
    // error (it was unlinked, still open) and is gone now: fall back as for a failed
    // write, as --csv and --json do when their folder is gone at the end. Only a path
    // that no longer exists counts: /dev/null or a pipe (`>(gzip >t.gz)`) is no
    // regular file, yet took the series as asked.
    std::error_code gone;
    (void)std::filesystem::status(path, gone);
    const bool vanished = timeseries.file
        && (gone == std::errc::no_such_file_or_directory || gone == std::errc::not_a_directory);
    if (*timeseries.stream && !vanished)
        return true;
    // Written as the run went; whatever was lost is rebuilt from the intervals.
    std::string reason = sinkError;
    if (reason.empty() && vanished)
        reason = "the file was removed during the run (its folder deleted?)";
    if (reason.empty())
        reason = errno ? std::generic_category().message(errno) : "write failed";
    reportAndSaveElsewhere(
        {"--timeseries", path}, reason, writeTimeSeriesCsv(result), fallback + "-timeseries.csv");
    return false;
}

// The requested outputs and the run library. A write that fails now (a full disk, a
// directory removed during the run) saves the results elsewhere and says where: the run
// is not lost, but the result is false.
bool writeOutputs(const RunArgs &a, const Profile &profile, const RunResult &result,
    TimeSeriesOutput &timeseries, const TerminalSink &sink, std::ostream &human)
{
    const core::Environment &env = result.environment;
    const std::string fallback = fallbackStem(result.startedAt);
    // The results document is made once for --json and the run library: a long run's is
    // tens of MB (docs/performance.md, "Saving a run").
    std::optional<std::string> resultsDocument;
    auto resultsText = [&]() -> const std::string & {
        if (!resultsDocument)
            resultsDocument = writeResultsJson(result, env);
        return *resultsDocument;
    };
    bool wrote = true;
    if (!a.csvPath.empty())
        wrote &= writeOutputFile({"--csv", a.csvPath},
            writeIometerCsv(result, env, profile.setup.recordFilter), fallback + ".csv");
    if (!a.jsonPath.empty())
        wrote &= writeOutputFile({"--json", a.jsonPath}, resultsText(), fallback + ".json");
    if (!a.seriesCsvPath.empty())
        wrote &= writeOutputFile(
            {"--series-csv", a.seriesCsvPath}, writeSeriesCsv(result), fallback + "-series.csv");
    if (timeseries.stream)
        wrote &= finishTimeSeries(
            timeseries, a.timeseriesPath, sink.timeseriesError(), result, fallback);
    if (!a.noSave)
        saveToLibrary(result, resultsText(), human, a.quiet);
    return wrote;
}

// The verbose lines before the run, and the "outputs:" line the sink says once the
// engine is known.
std::string describeOutputs(const RunArgs &a, const std::vector<OutputFile> &outputs,
    const Profile &profile, std::ostream &human)
{
    if (a.verbose) {
        human << "profile: "
              << (profile.setup.description.empty() ? std::string("(no description)")
                                                    : profile.setup.description)
              << "\n";
        human << "runs: " << describeRun(profile) << "\n";
        human.flush();
    }
    std::vector<std::string> where;
    where.reserve(outputs.size());
    for (const auto &o : outputs)
        where.push_back(o.option + " " + o.displayName());
    return fmt::format("outputs: {}; this text on {}\n",
        where.empty() ? std::string("none") : fmt::format("{}", fmt::join(where, ", ")),
        &human == &std::cerr ? "stderr" : "stdout");
}

// What the run ended with, said on stderr, and the exit code it makes (`caught`: the
// first signal, 0 for none; `wrote`: every output was written as asked).
int reportEnd(const RunResult &result, int caught, bool wrote)
{
    for (const auto &failed : result.testFileRemoval.failed)
        std::cerr << "warning: " << failed.toString() << "\n";
    if (result.error) {
        std::cerr << "error: " << result.error->toString() << "\n";
        if (!result.steps.empty())
            std::cerr << "(results up to the error are above and in the requested output files)\n";
        return caught ? 128 + caught : 1;
    }
    if (caught)
        return 128 + caught;
    return wrote ? 0 : 1;
}

} // namespace

int runCommand(RunArgs a, const RunFrontEnd &frontEnd)
{
    if (a.quiet && a.verbose) {
        std::cerr << "error: --quiet and --verbose: give one (-q prints only the summary, -v "
                     "adds the plan and where each notice came from)\n";
        return 2;
    }
    const bool multiHost = !a.managers.empty() || frontEnd.makeSession;
    if (frontEnd.makeSession && !a.managers.empty()) {
        std::cerr << "error: --manager: the hosts of this run are given otherwise (MPI's ranks)\n";
        return 2;
    }
    const bool managersOfProfile
        = std::find(a.managers.begin(), a.managers.end(), kProfileManagers) != a.managers.end();
    if (managersOfProfile && a.managers.size() > 1) {
        std::cerr << "error: --manager profile: give it alone (the profile's hosts are the "
                     "managers)\n";
        return 2;
    }
    const std::optional<Profile> profile = profileFromArgs(a, multiHost, true);
    if (!profile)
        return 2;
    if (managersOfProfile)
        a.managers = managersOf(*profile);
    const auto kind = platform::parseEngineKind(a.engine);
    if (!kind) {
        std::cerr << "error: --engine: \"" << a.engine
                  << "\" is not one of auto, io_uring, iocp, sync, null\n";
        return 2;
    }
    // Every output path is checked here, before any I/O: a typo must not cost a run.
    const std::vector<OutputFile> outputs
        = requestedOutputs(a.csvPath, a.timeseriesPath, a.jsonPath, a.seriesCsvPath);
    if (const auto bad = checkOutputFiles(outputs); !bad.empty()) {
        for (const auto &message : bad)
            std::cerr << "error: " << message << "\n";
        return 2;
    }
    // A results document on stdout is for a pipe (`--json - | jq`): stdout then carries
    // it alone, and everything said for people goes to stderr.
    std::ostream &human = anyToStdout(outputs) ? std::cerr : std::cout;

    RunRequest request;
    request.engine = *kind;
    request.removeTestFiles = a.removeTestFiles;
    request.commandLine = fmt::format("{}", fmt::join(a.rawArgs, " "));
    request.settings.allowDeviceWrites = a.allowDeviceWrites;
    if (!applySettingsArgs(a, request.settings))
        return 2;
    LocalRunHooks hooks = platform::localRunHooks();
    // The devices are described as the targets are resolved, before the first step (on
    // the run's thread, as the sink's onPlan that reads them): kept for the verbose plan.
    std::map<std::string, DeviceFacts> devices;
    hooks.describe.describeDevice = [&devices](const std::string &path) {
        auto facts = platform::describeDevice(path);
        devices[path] = facts;
        return facts;
    };
    TimeSeriesOutput timeseries = openTimeSeries(a.timeseriesPath);
    const std::string outputsLine = describeOutputs(a, outputs, *profile, human);
    TerminalSink sink({.human = &human,
                          .quiet = a.quiet,
                          .verbose = a.verbose,
                          .progressBar = platform::isTerminal(platform::StandardStream::Error),
                          .timeseries = timeseries.stream,
                          .engineOption = a.engine,
                          .outputsLine = outputsLine,
                          .devices = &devices},
        *profile);
    request.profile = *profile;
    // Managers (agents): reached before anything runs, so that a wrong token or a changed
    // certificate costs nothing; their connections outlive the session.
    std::vector<net::ReachedAgent> agents;
    std::unique_ptr<RunSession> session;
    if (frontEnd.makeSession) {
        session = frontEnd.makeSession(sink, std::move(hooks), request, human);
        if (!session)
            return 1;
    } else if (!a.managers.empty()) {
        const auto access = agentAccess(a.agentAccess);
        if (!access)
            return 2;
        std::vector<HostSessionMaker> hosts;
        const std::string me = platform::describeSystem().hostName;
        for (const auto &manager : a.managers) {
            if (manager == "local") {
                hosts.push_back(localHost({}, hooks));
                continue;
            }
            auto agent = net::reachAgent(manager, *access, me);
            if (!agent) {
                std::cerr << "error: " << agent.error().toString() << "\n";
                return 1;
            }
            if (agent->firstUse)
                std::cerr << firstUseNote(*agent, *access) << "\n";
            if (!a.quiet)
                human << "manager " << describeAgent(*agent) << "\n";
            hosts.push_back({{}, agent->address, remoteRunSessions(*agent->connection)});
            agents.push_back(std::move(*agent));
        }
        session = std::make_unique<MultiHostRunSession>(std::move(hosts), sink);
    } else {
        session = localRunSessions(std::move(hooks))(sink);
    }
    std::atomic<int> caught {0};
    runWatchingSignals(*session, std::move(request), caught);
    const RunResult result = sink.takeResult();

    human << finishedRunTables(result);
    human.flush();
    // A stop keeps every finished step; the one it cut is kept too, marked incomplete.
    if (caught && sink.stepCount() > 1 && !result.steps.empty() && !result.steps.back().complete)
        std::cerr << fmt::format("stopped during {} {}/{} ({}): kept, marked incomplete; the {} "
                                 "before it are complete\n",
            profile->setup.series ? "point" : "step", result.steps.back().step + 1,
            sink.stepCount(), result.steps.back().stepName, result.steps.size() - 1);
    const bool wrote = writeOutputs(a, *profile, result, timeseries, sink, human);
    return reportEnd(result, caught.load(), wrote);
}

void registerRunCommands(CLI::App &app, int &exitCode, const std::vector<std::string> &rawArgs)
{
    auto a = std::make_shared<RunArgs>();
    a->rawArgs = rawArgs;
    auto *run = app.add_subcommand("run",
        "Run a benchmark: a profile file, a preset, or options alone "
        "(no arguments: the quick preset on ./ioprism-test.dat)");
    addRunOptions(*run, *a);
    run->callback([&exitCode, a] { exitCode = runCommand(*a); });
}

} // namespace ioprism::cli
