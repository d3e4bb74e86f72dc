// SPDX-License-Identifier: GPL-3.0-or-later
// history, compare, and `show` of saved runs: the CLI side of the run library and of the
// results reader (docs/cli.md).
#include "app/cli/commands.h"
#include "app/cli/output_files.h"
#include "app/cli/results_io.h"
#include "app/cli/summary.h"
#include "app/cli/terminal_text.h"
#include "core/report/compare.h"
#include "core/report/csv.h"
#include "core/report/html_report.h"
#include "core/report/results_json.h"
#include "core/report/results_reader.h"
#include "platform/common/data_dir.h"
#include "platform/common/input_file_reader.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ioprism::cli {

using namespace ioprism::core;
namespace fs = std::filesystem;

// ---------------------------------------------------------------- opening saved runs

std::optional<RunLibrary> userRunLibrary(std::string &error)
{
    auto directory = platform::runLibraryDirectory();
    if (!directory) {
        error = directory.error().toString();
        return std::nullopt;
    }
    return RunLibrary(*directory, platform::readInputFile);
}

namespace {

std::optional<std::string> readText(const fs::path &path, std::string &error)
{
    auto file = platform::readInputFile(path, kMaxResultsFileBytes, "results files");
    if (file.problem) {
        // "cannot read PATH: REASON" names the file already; the others follow its name.
        error = file.problem->message.starts_with("cannot read ")
            ? file.problem->message
            : fmt::format("{}: {}", path.string(), file.problem->message);
        return std::nullopt;
    }
    return std::move(file.text);
}

// The writer puts "format" first; a file that names it early is results, damaged or not.
bool startsAsResults(const fs::path &path)
{
    const auto head = platform::readInputFileHead(path, 256);
    return !head.problem && head.text.find(kResultsFormatName) != std::string::npos;
}

std::string dateText(std::chrono::system_clock::time_point time)
{
    const UtcTime t = utcTime(time);
    return fmt::format(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}", t.year, t.month, t.day, t.hour, t.minute, t.second);
}

std::string isoText(std::chrono::system_clock::time_point time)
{
    const UtcTime t = utcTime(time);
    return fmt::format(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", t.year, t.month, t.day, t.hour, t.minute, t.second);
}

std::string figureOrDash(double value, const char *format)
{
    return std::isfinite(value) ? fmt::format(fmt::runtime(format), value) : std::string("-");
}

std::string latencyOrDash(double us)
{
    return std::isfinite(us) && us > 0 ? formatLatencyUs(us) : std::string("-");
}

} // namespace

bool namesSavedRun(const std::string &argument)
{
    std::error_code ec;
    if (fs::is_regular_file(argument, ec))
        return startsAsResults(argument);
    if (fs::exists(argument, ec))
        return false;
    std::string error;
    const auto library = userRunLibrary(error);
    return library && library->find(argument).ok();
}

std::optional<OpenedRun> openSavedRun(const std::string &argument, std::string &error)
{
    fs::path path = argument;
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        std::string why;
        const auto library = userRunLibrary(why);
        if (!library) {
            error = fmt::format("{}: no such file, and no run library ({})", argument, why);
            return std::nullopt;
        }
        auto found = library->find(argument);
        if (!found) {
            error = fmt::format("{}: no such file; {}", argument,
                found.error().detail.empty() ? found.error().toString() : found.error().detail);
            return std::nullopt;
        }
        path = *found;
    }
    const auto text = readText(path, error);
    if (!text)
        return std::nullopt;
    auto read = readResultsJson(*text);
    if (!read.ok()) {
        error = fmt::format("{}: {}", path.string(), read.error);
        return std::nullopt;
    }
    return OpenedRun {std::move(*read.result), argument};
}

int showSavedRun(const std::string &argument)
{
    std::string error;
    const auto run = openSavedRun(argument, error);
    if (!run) {
        std::cerr << "error: " << terminalText(error) << "\n";
        return 2;
    }
    const RunResult &r = run->result;
    // The description as written, and beside it what the run's profile ran (a saved
    // description may predate the settings it ran with).
    std::cout << fmt::format(
        "{}: {} run, started {} UTC, engine {}, IOPrism {}\nprofile: {}\nruns: {}\n",
        terminalText(run->label), toString(runOutcome(r)), dateText(r.startedAt),
        terminalText(r.engine), terminalText(r.environment.toolVersion),
        r.plan.profile.setup.description.empty() ? std::string("(no description)")
                                                 : terminalText(r.plan.profile.setup.description),
        terminalText(describeRun(r.plan.profile)));
    std::cout << finishedRunTables(r);
    if (r.error)
        std::cout << "error: " << terminalText(r.error->toString()) << "\n";
    return 0;
}

namespace {

// ---------------------------------------------------------------- history

struct HistoryArgs {
    bool json = false;
    std::string sort = "oldest";
};

std::string targetsText(const ResultsHeadline &h)
{
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < h.targets.size(); ++i) {
        const std::string &model = i < h.deviceModels.size() ? h.deviceModels[i] : std::string();
        parts.push_back(terminalText(
            model.empty() ? h.targets[i] : fmt::format("{} ({})", h.targets[i], model)));
    }
    return parts.empty() ? std::string("no targets") : fmt::format("{}", fmt::join(parts, ", "));
}

nlohmann::ordered_json historyJson(const std::vector<RunHeadline> &runs)
{
    using Json = nlohmann::ordered_json;
    auto number = [](double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); };
    Json out = Json::array();
    for (const auto &run : runs) {
        Json j {{"id", run.id}, {"path", run.path.string()}, {"damaged", run.damaged},
            {"unreadable", run.unreadable},
            {"damage", run.damaged ? Json(run.damage) : Json(nullptr)},
            {"file_bytes", run.fileBytes}};
        j["name"] = run.metadata.name;
        j["notes"] = run.metadata.notes;
        j["tags"] = run.metadata.tags;
        j["metadata_damage"]
            = run.metadataDamage.empty() ? Json(nullptr) : Json(run.metadataDamage);
        if (!run.damaged) {
            const ResultsHeadline &h = run.headline;
            Json targets = Json::array();
            for (std::size_t i = 0; i < h.targets.size(); ++i)
                targets.push_back(Json {{"path", h.targets[i]},
                    {"device_model",
                        i < h.deviceModels.size() && !h.deviceModels[i].empty()
                            ? Json(h.deviceModels[i])
                            : Json(nullptr)}});
            j["started_at"] = isoText(h.startedAt);
            j["profile"] = h.profileName;
            j["targets"] = std::move(targets);
            j["engine"] = h.engine;
            j["tool_version"] = h.toolVersion;
            j["iops"] = number(h.iops);
            j["mbps"] = number(h.megabytesPerSecond);
            j["mean_latency_us"] = number(h.meanLatencyUs);
            j["p99_latency_us"] = number(h.p99LatencyUs);
            j["figure_step"] = h.figureStep ? Json(*h.figureStep) : Json(nullptr);
            j["figure_step_name"] = h.figureStep ? Json(h.figureStepName) : Json(nullptr);
            j["verdict"] = std::string(toString(h.verdict));
            j["outcome"] = std::string(toString(h.outcome));
            j["error"] = h.error.empty() ? Json(nullptr) : Json(h.error);
            j["steps"] = h.steps;
        }
        out.push_back(std::move(j));
    }
    return out;
}

int historyCommand(const HistoryArgs &a)
{
    constexpr std::size_t kNameChars = 60;
    // A failed run's error on its line under the run: long enough for a path and a
    // system error, short enough for a terminal; `show` and --json have it whole.
    constexpr std::size_t kErrorChars = 100;
    std::string error;
    const auto library = userRunLibrary(error);
    if (!library) {
        std::cerr << "error: " << error << "\n";
        return 1;
    }
    ListingStats listed;
    auto runs = library->list({}, &listed);
    if (!listed.folderProblem.empty()) {
        std::cerr << "error: the run library " << library->directory().string() << " "
                  << listed.folderProblem << "\n";
        return 1;
    }
    if (a.sort == "newest")
        std::reverse(runs.begin(), runs.end());
    if (a.json) {
        std::cout << historyJson(runs).dump(
            2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
                  << "\n";
        return 0;
    }
    if (runs.empty()) {
        std::cout << "no saved runs in " << library->directory().string()
                  << " (every `ioprism-cli run` is saved there unless --no-save)\n";
        return 0;
    }
    std::cout << fmt::format("{:<40} {:<19} {:<8} {:>10} {:>9} {:>9} {:>9}  {:<18} {}\n", "id",
        "started (UTC)", "status", "IOPS", "MB/s", "mean", "p99", "device verdict",
        "name: targets");
    for (const auto &run : runs) {
        if (run.damaged) {
            std::cout << fmt::format("{:<40} {}: {}\n", terminalText(run.id),
                run.unreadable ? "unreadable" : "damaged", terminalText(run.damage));
            continue;
        }
        const ResultsHeadline &h = run.headline;
        // A generated description can be long: the list keeps one line per run.
        std::string name
            = terminalText(run.metadata.name.empty() ? h.profileName : run.metadata.name);
        if (name.size() > kNameChars)
            name = name.substr(0, kNameChars - 3) + "...";
        std::cout << fmt::format("{:<40} {:<19} {:<8} {:>10} {:>9} {:>9} {:>9}  {:<18} {}: {}\n",
            terminalText(run.id), dateText(h.startedAt), toString(h.outcome),
            figureOrDash(h.iops, "{:.0f}"), figureOrDash(h.megabytesPerSecond, "{:.1f}"),
            latencyOrDash(h.meanLatencyUs), latencyOrDash(h.p99LatencyUs), toString(h.verdict),
            name, targetsText(h));
        // The figures are one step's: of several steps, say which (never an average).
        if (const std::string figure = headlineFigureLabel(h); !figure.empty())
            std::cout << fmt::format("{:<40} figures: {}\n", "", terminalText(figure));
        if (h.outcome == RunOutcome::Failed && !h.error.empty())
            std::cout << fmt::format(
                "{:<40} failed: {}\n", "", terminalText(shortenedText(h.error, kErrorChars)));
        if (!run.metadata.tags.empty())
            std::cout << fmt::format("{:<40} tags: {}\n", "",
                terminalText(fmt::format("{}", fmt::join(run.metadata.tags, ", "))));
        if (!run.metadataDamage.empty())
            std::cout << fmt::format("{:<40} (its name/notes/tags file is damaged: {})\n", "",
                terminalText(run.metadataDamage));
    }
    std::cout << fmt::format("{} run{} in {}; `ioprism-cli show ID`, `ioprism-cli compare ID ID`\n",
        runs.size(), runs.size() == 1 ? "" : "s", library->directory().string());
    return 0;
}

// rename / note / tag / delete: the metadata of one run.
int editRun(const std::string &id,
    const std::function<Status(const RunLibrary &, const std::string &)> &edit)
{
    std::string error;
    const auto library = userRunLibrary(error);
    if (!library) {
        std::cerr << "error: " << error << "\n";
        return 1;
    }
    // A unique prefix is enough, as for show.
    const auto path = library->find(id);
    if (!path) {
        std::cerr << "error: "
                  << (path.error().detail.empty() ? path.error().toString() : path.error().detail)
                  << "\n";
        return 2;
    }
    const std::string fullId = path->stem().string();
    if (auto done = edit(*library, fullId); !done) {
        std::cerr << "error: " << done.error().toString() << "\n";
        return 1;
    }
    std::cout << fullId << "\n";
    return 0;
}

// ---------------------------------------------------------------- compare

struct CompareArgs {
    std::vector<std::string> runs;
    bool csv = false;
    bool json = false;
    std::string htmlPath; // also write the comparison report there
    std::size_t baseline = 1;
};

std::string compareText(const Comparison &c, const std::vector<const RunResult *> &runs,
    const std::vector<std::string> &labels)
{
    std::string out = fmt::format("Runs (changes against run {}):\n", c.baseline + 1);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunResult &r = *runs[i];
        out += fmt::format("  run {}: {}  {} UTC  {}  engine {}  {}\n", i + 1,
            terminalText(labels[i]), dateText(r.startedAt),
            r.plan.profile.setup.description.empty()
                ? std::string("(no description)")
                : terminalText(r.plan.profile.setup.description),
            terminalText(r.engine), toString(runOutcome(r)));
    }
    constexpr int kCell = 30;
    for (const auto &row : c.rows) {
        if (!row.matched())
            continue;
        out += fmt::format("\n== {}\n{:<14}", terminalText(row.name), "");
        for (std::size_t i = 0; i < runs.size(); ++i)
            out += fmt::format(" {:>{}}",
                fmt::format("run {}{}", i + 1, i == c.baseline ? " (baseline)" : ""), kCell);
        out += "\n";
        for (CompareMetric m : c.metrics) {
            out += fmt::format("{:<14}", metricLabel(m));
            const double base = (*row.runs[c.baseline])[m];
            for (std::size_t i = 0; i < runs.size(); ++i) {
                const double v = (*row.runs[i])[m];
                std::string cell = formatMetric(m, v);
                if (i != c.baseline) {
                    const Change change = changeOf(m, base, v);
                    if (change.sense == ChangeSense::Same)
                        cell += " (same)";
                    else if (std::isfinite(change.percent))
                        cell += fmt::format(
                            " ({:+.1f} %, {})", change.percent, toString(change.sense));
                    else if (change.sense != ChangeSense::Unknown)
                        cell += fmt::format(" ({})", toString(change.sense));
                }
                out += fmt::format(" {:>{}}", cell, kCell);
            }
            out += "\n";
        }
    }
    bool anyUnmatched = false;
    for (const auto &row : c.rows) {
        if (row.matched())
            continue;
        if (!anyUnmatched)
            out += "\nUnmatched (not in every run, so not compared):\n";
        anyUnmatched = true;
        std::vector<std::string> in, missing;
        for (std::size_t i = 0; i < row.runs.size(); ++i)
            (row.runs[i] ? in : missing).push_back(std::to_string(i + 1));
        out += fmt::format("  {} {}: in run {}; not in run {}\n",
            row.kind == CompareRow::Kind::Step ? "step" : "point", terminalText(row.name),
            fmt::join(in, ", "), fmt::join(missing, ", "));
    }
    if (c.differences.empty()) {
        out += "\nSetup differences: none recorded (profile, engine, OS, kernel, devices and "
               "IOPrism version are the same)\n";
    } else {
        out += "\nSetup differences:\n";
        for (const auto &d : c.differences) {
            std::vector<std::string> values;
            for (std::size_t i = 0; i < d.values.size(); ++i)
                values.push_back(fmt::format("run {}: {}", i + 1, terminalText(d.values[i])));
            out += fmt::format(
                "  {} ({}): {}\n", d.what, terminalText(d.path), fmt::join(values, " | "));
        }
    }
    return out;
}

int compareCommand(const CompareArgs &a)
{
    if (a.csv && a.json) {
        std::cerr << "error: --csv and --json: give one\n";
        return 2;
    }
    if (a.runs.size() < 2) {
        std::cerr << "error: compare needs at least two runs (files or ids from `ioprism-cli "
                     "history`)\n";
        return 2;
    }
    if (a.baseline < 1 || a.baseline > a.runs.size()) {
        std::cerr << fmt::format(
            "error: --baseline: {} is not a run between 1 and {}\n", a.baseline, a.runs.size());
        return 2;
    }
    std::vector<OpenedRun> opened;
    bool failed = false;
    for (const auto &argument : a.runs) {
        std::string error;
        auto run = openSavedRun(argument, error);
        if (!run) {
            std::cerr << "error: " << terminalText(error) << "\n";
            failed = true;
            continue;
        }
        opened.push_back(std::move(*run));
    }
    if (failed)
        return 2;
    std::vector<const RunResult *> runs;
    std::vector<std::string> labels;
    for (const auto &o : opened) {
        runs.push_back(&o.result);
        labels.push_back(o.label);
    }
    const Comparison c = compareRuns(runs, a.baseline - 1);
    // The report first: when it cannot be written the command fails before it prints, so
    // that a script sees the exit code and the reason, not half of what it asked for.
    if (!a.htmlPath.empty()) {
        errno = 0;
        std::ofstream out(a.htmlPath, std::ios::binary | std::ios::trunc);
        out << writeComparisonHtml(c, runs, labels, {});
        out.close();
        if (!out) {
            std::cerr << fmt::format("error: --html: cannot write {}: {}\n", a.htmlPath,
                std::generic_category().message(errno ? errno : EIO));
            return 1;
        }
    }
    if (a.csv)
        std::cout << writeComparisonCsv(c, runs, labels);
    else if (a.json)
        std::cout << writeComparisonJson(c, runs, labels);
    else
        std::cout << compareText(c, runs, labels);
    return 0;
}

// ---------------------------------------------------------------- export

struct ExportArgs {
    std::string run;
    std::string csvPath, timeseriesPath, seriesCsvPath, jsonPath;
};

// The files `run` writes (--csv, --timeseries, --series-csv, --json), written again from
// a saved run, as the GUI's File > Export does from a reopened one: the same text the run
// wrote when it ended (tests/e2e/cli_library_test.cpp compares them byte for byte).
int exportCommand(const ExportArgs &a)
{
    const std::vector<OutputFile> outputs
        = requestedOutputs(a.csvPath, a.timeseriesPath, a.jsonPath, a.seriesCsvPath);
    if (outputs.empty()) {
        std::cerr << "error: export: name what to write: --csv, --timeseries, --series-csv "
                     "or --json\n";
        return 2;
    }
    std::string error;
    const auto run = openSavedRun(a.run, error);
    if (!run) {
        std::cerr << "error: " << terminalText(error) << "\n";
        return 2;
    }
    const RunResult &r = run->result;
    if (!a.seriesCsvPath.empty() && !r.plan.profile.setup.series) {
        std::cerr << fmt::format("error: --series-csv: {} is no series (it ran steps, not the "
                                 "points of a --sweep); --csv has its steps\n",
            run->label);
        return 2;
    }
    if (const auto problems = checkOutputFiles(outputs); !problems.empty()) {
        for (const auto &problem : problems)
            std::cerr << "error: " << problem << "\n";
        return 2;
    }
    // No fallback file when a write fails: the run is still where it was read from.
    bool wrote = true;
    const auto write = [&](const char *option, const std::string &path, const auto &text) {
        if (!path.empty())
            wrote &= writeOutputFile({option, path}, text(), {});
    };
    write("--csv", a.csvPath,
        [&] { return writeIometerCsv(r, r.environment, r.plan.profile.setup.recordFilter); });
    write("--timeseries", a.timeseriesPath, [&] { return writeTimeSeriesCsv(r); });
    write("--json", a.jsonPath, [&] { return writeResultsJson(r, r.environment); });
    write("--series-csv", a.seriesCsvPath, [&] { return writeSeriesCsv(r); });
    return wrote ? 0 : 1;
}

// rename, note, tag and delete, under history: each acts on one saved run, and they share
// the parsed ID and text.
void registerHistoryEditCommands(CLI::App *history, int &exitCode)
{
    auto id = std::make_shared<std::string>();
    auto text = std::make_shared<std::string>();
    auto tags = std::make_shared<std::vector<std::string>>();
    // rename, note and tag change one part of the metadata and keep the rest.
    auto editMetadata = [&exitCode, id](std::function<void(RunMetadata &)> change) {
        return [&exitCode, id, change = std::move(change)] {
            exitCode = editRun(*id, [&](const RunLibrary &l, const std::string &full) -> Status {
                auto m = l.metadata(full);
                RunMetadata meta = m ? *m : RunMetadata {};
                change(meta);
                return l.setMetadata(full, meta);
            });
        };
    };
    auto *rename = history->add_subcommand("rename", "Give a saved run a name");
    rename->add_option("ID", *id, "The run (id or a unique start of it)")->required();
    rename->add_option("NAME", *text, "The new name (\"\" removes it)")->required();
    rename->callback(editMetadata([text](RunMetadata &m) { m.name = *text; }));
    auto *note = history->add_subcommand("note", "Set the notes of a saved run");
    note->add_option("ID", *id, "The run (id or a unique start of it)")->required();
    note->add_option("TEXT", *text, "The notes (\"\" removes them)")->required();
    note->callback(editMetadata([text](RunMetadata &m) { m.notes = *text; }));
    auto *tag = history->add_subcommand("tag", "Set the tags of a saved run (replacing them)");
    tag->add_option("ID", *id, "The run (id or a unique start of it)")->required();
    tag->add_option("TAGS", *tags, "The tags; none removes them");
    tag->callback(editMetadata([tags](RunMetadata &m) { m.tags = *tags; }));
    auto *remove = history->add_subcommand("delete", "Delete a saved run and its name/notes/tags");
    remove->add_option("ID", *id, "The run (the full id: no prefix, for safety)")->required();
    remove->callback([&exitCode, id] {
        std::string error;
        const auto library = userRunLibrary(error);
        if (!library) {
            std::cerr << "error: " << terminalText(error) << "\n";
            exitCode = 1;
            return;
        }
        if (auto done = library->remove(*id); !done) {
            std::cerr << "error: " << done.error().toString() << "\n";
            exitCode = 2;
            return;
        }
        std::cout << "deleted " << *id << "\n";
        exitCode = 0;
    });
}

void registerHistoryCommand(CLI::App &app, int &exitCode)
{
    auto h = std::make_shared<HistoryArgs>();
    auto *history = app.add_subcommand(
        "history", "List the saved runs (the run library: every `run` is saved unless --no-save)");
    history->add_flag("--json", h->json, "Print the list as JSON (fields: docs/cli.md)");
    history->add_option("--sort", h->sort, "Order: oldest (first, the default) or newest first")
        ->check(CLI::IsMember({"oldest", "newest"}));
    history->callback([&exitCode, h, history] {
        if (history->get_subcommands().empty())
            exitCode = historyCommand(*h);
    });
    registerHistoryEditCommands(history, exitCode);
}

void registerCompareCommand(CLI::App &app, int &exitCode)
{
    auto c = std::make_shared<CompareArgs>();
    auto *compare = app.add_subcommand("compare",
        "Compare saved runs step by step (or point by point) against a baseline, and list "
        "what differs between their setups");
    compare->add_option("RUNS", c->runs, "Two or more results JSON files or library ids")
        ->required();
    compare->add_flag("--csv", c->csv, "Print the comparison as CSV (columns: docs/results.md)");
    compare->add_flag("--json", c->json, "Print the comparison as JSON (fields: docs/results.md)");
    compare->add_option("--html", c->htmlPath,
        "Also write the comparison as one self-contained HTML file (the runs, what differs, "
        "the curves, the delta table), to open in any browser");
    compare->add_option("--baseline", c->baseline,
        "The run the changes are against, by its place in RUNS (default 1, the first)");
    compare->callback([&exitCode, c] { exitCode = compareCommand(*c); });
}

void registerExportCommand(CLI::App &app, int &exitCode)
{
    auto e = std::make_shared<ExportArgs>();
    auto *exportCmd = app.add_subcommand("export",
        "Write the result files of a saved run again, as `run` wrote them: the Iometer CSV, "
        "the time series, the series CSV, the results JSON");
    exportCmd->add_option("RUN", e->run, "A results JSON file or a library id")->required();
    exportCmd->add_option("--csv", e->csvPath,
        "Write the Iometer-layout results CSV here (- stdout; columns: docs/results.md)");
    exportCmd->add_option("--timeseries", e->timeseriesPath,
        "Write one CSV row per interval per scope here (- stdout)");
    exportCmd->add_option("--series-csv", e->seriesCsvPath,
        "Write the series here, one row per point (- stdout; a run of --sweep only)");
    exportCmd->add_option(
        "--json", e->jsonPath, "Write the results JSON here (- stdout), in this version's format");
    exportCmd->callback([&exitCode, e] { exitCode = exportCommand(*e); });
}

} // namespace

void registerResultsCommands(CLI::App &app, int &exitCode)
{
    registerHistoryCommand(app, exitCode);
    registerCompareCommand(app, exitCode);
    registerExportCommand(app, exitCode);
}

} // namespace ioprism::cli
